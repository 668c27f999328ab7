// @ts-check
// The connection's word in the header (live, reconnecting…, offline), and the toast when
// the table is closed to this page. A delayed spectator's table is "delayed N s".
const $ = (id) => document.getElementById(id);
const WORDS = { connecting: "connecting…", live: "live", reconnecting: "reconnecting…", offline: "offline", closed: "closed" };

export class ConnectionStatus {
  constructor(board) {
    this.board = board;
    this.state = "connecting";
  }

  /** connection.js's report of the socket's state, with its reason if any. */
  changed(state, detail) {
    const conn = $("conn");
    conn.dataset.state = state;
    this.state = state;
    this.show();
    conn.title = detail ?? (state === "live" ? "Connected to the table" : "Not connected: moves wait until the table is back");
    this.board.page.dataset.conn = state;
    if (state === "closed") this.board.toasts.show("Not connected", [detail ?? ""], "error", 0);
  }

  show() {
    const { store } = this.board;
    const late = this.state === "live" && store.me.role === "spectator" && store.delay > 0;
    $("conn").querySelector(".conn-text").textContent = late ? `delayed ${store.delay} s` : WORDS[this.state] ?? this.state;
    $("conn").dataset.delayed = late ? "1" : "";
  }
}
