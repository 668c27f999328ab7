// @ts-check
// Pings: Alt-click on the table (or P, at the tools' cross, the pointer or the selected
// piece) sends a pulse everyone at the table sees, with the pinger's name. Nothing is
// kept: the server passes it on (a `point` frame) and forgets it. Spectators watch;
// they do not ping.
import { el, label, pxOf } from "./svg.js";

const SHOWN_MS = 3000;

export class Pings {
  constructor(board) {
    this.board = board;
    this.layer = null; // the table's (y up), made with the table's layers
    this.labels = null; // upright names
    this.last = null; // the table point the pointer was last over
    this.count = 0;
  }

  attach(svg) {
    // Captured before the drag, the pan and the tools see the press: an Alt-click only pings.
    svg.addEventListener("pointerdown", (e) => {
      if (!e.altKey || e.button !== 0) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      this.send(this.board.view.tablePoint(e.clientX, e.clientY));
    }, { capture: true });
    svg.addEventListener("pointermove", (e) => {
      this.last = this.board.view.tablePoint(e.clientX, e.clientY);
    });
    svg.addEventListener("pointerleave", () => {
      this.last = null;
    });
  }

  /** P: at the tool's cross while a tool is on (cursor.js), else at the pointer when it
   *  is over the table, else at the selected piece. */
  key() {
    const unit = this.board.shownUnit(this.board.pieces.selected);
    const at = this.board.cursor.point() ?? this.last ?? unit?.position?.slice(0, 2) ?? null;
    if (!at) {
      this.board.setHint("Ping: point at the table (or select a piece, or move a tool's cross with the arrows), then press P; or Alt-click.");
      return;
    }
    this.send(at);
  }

  send(at) {
    const board = this.board;
    if (board.store.me.role === "spectator") {
      board.setHint("Ping: spectators watch; the players and the GM ping.");
      return;
    }
    const { width, height } = board.shownState()?.table ?? {};
    const [x, y] = at.map((v) => Math.round(v * 100) / 100);
    if (!(x >= 0 && y >= 0 && x <= width && y <= height)) {
      board.setHint("Ping: that is off the table.");
      return;
    }
    this.count += 1;
    board.conn.send({ type: "point", ref: `ping-${this.count}`, at: [x, y] });
  }

  /** A refused ping (too many, off the table): said in the hint, not a toast. */
  onError(frame) {
    this.board.setHint(`Ping: ${frame.message ?? frame.code}`);
  }

  /** The server's `point` frame: a pulse and the name, for a few seconds. */
  show(frame) {
    if (!this.layer || !Array.isArray(frame.at)) return;
    const [x, y] = frame.at;
    const r = 14 * pxOf(this.board.svg);
    const g = el("g", { class: "ping", "data-user": frame.user ?? "" }, this.layer);
    el("circle", { class: "ping-halo", cx: x, cy: y, r }, g); // stays while the ring pulses
    el("circle", { class: "ping-ring", cx: x, cy: y, r }, g);
    el("circle", { class: "ping-dot", cx: x, cy: y, r: r / 2.5 }, g);
    const name = label(this.labels, frame.user ?? "?", x, this.board.height() - y - 1.4 * r, "ping-label");
    name.dataset.user = frame.user ?? "";
    this.board.setHint(`${frame.user ?? "Someone"} pinged the table at (${x}, ${y}).`);
    this.board.announce.say(`${frame.user ?? "Someone"} pinged the table at ${x}, ${y}.`);
    setTimeout(() => {
      g.remove();
      name.remove();
    }, SHOWN_MS);
  }
}
