// @ts-check
// The socket to the table: connect, reconnect with backoff, catch up from the last
// seq applied (the server resumes from `?seq=`), keep presence fresh with pings, and
// resend commands that were not answered (a resent id is applied once: protocol.md).

const BACKOFF_MS = [300, 1000, 2000, 4000, 8000];
const PING_MS = 25000;
const FORBIDDEN = 4403;
// Your access changed (a new role, a login that ended): reconnect at once, to be told the
// new role, or refused with 4403 (protocol.md, "Rights on an open socket").
const RIGHTS_CHANGED = 4401;
const REFUSED = 1006; // a handshake the server refused (not a member: HTTP 403) reads so
const TOO_MANY_SOCKETS = 4409;
const DEGRADED = 4503; // the server's message service (Redis) is down: retry
// A handshake not answered by then is given up and tried again as a lost socket is: a
// server or proxy that took the connection and hung (a process stopping with it in its
// queue) would leave the page "connecting" for ever, as browsers set no limit of their
// own. Longer than the server's own limit (Daphne refuses a handshake its app has not
// accepted within 5 s), so that a server that is merely slow answers first.
const HANDSHAKE_MS = 8000;

let counter = 0;
/** A client message id, unique per user and battle. */
export function newId(prefix = "m") {
  counter += 1;
  const random = crypto.getRandomValues(new Uint32Array(2));
  return `${prefix}-${random[0].toString(36)}${random[1].toString(36)}-${counter}`;
}

/** The socket board.html opens while the modules load, with the frames it kept meanwhile.
 * @typedef {{ socket: WebSocket, frames: string[], keep: (message: MessageEvent) => void }} EarlySocket */

export class Connection {
  /** path: "/ws/battles/7/"; seen(): the last seq applied (or -1); onFrame(frame); onStatus(state, detail) */
  constructor(path, { seen, onFrame, onStatus }) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.url = `${scheme}//${location.host}${path}`;
    this.seen = seen;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.ws = null;
    this.attempt = 0;
    this.held = false;
    this.unanswered = new Map(); // id -> frame, resent after a reconnect
    this.timer = null;
    this.pinger = null;
    this.welcomed = false; // this page has been at the table (a socket of it opened)
    this.rightsChanged = false; // closed with 4401, not opened again since
    addEventListener("online", () => this.reconnectSoon(0));
    addEventListener("offline", () => this.ws?.close(4000, "offline"));
    // The table's hash disagreed with the server's (state.js): start again from a snapshot.
    addEventListener("tabletop:desync", () => this.resync());
  }

  get open() {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  connect() {
    clearTimeout(this.timer);
    if (this.held) return;
    // The page opened the first socket while the modules loaded (board.html): adopt it.
    const page = /** @type {Window & { tabletopEarly?: EarlySocket | null }} */ (window);
    const early = page.tabletopEarly;
    page.tabletopEarly = null;
    if (early && early.socket.readyState <= WebSocket.OPEN) {
      this.adopt(early.socket);
      early.socket.removeEventListener("message", early.keep);
      for (const data of early.frames) this.receive(data);
      if (early.socket.readyState === WebSocket.OPEN) this.opened(early.socket);
      return;
    }
    const seq = this.seen();
    this.adopt(new WebSocket(seq >= 0 ? `${this.url}?seq=${seq}` : this.url));
  }

  opened(ws) {
    this.attempt = 0;
    this.welcomed = true;
    this.rightsChanged = false;
    this.onStatus("live");
    for (const frame of this.unanswered.values()) ws.send(JSON.stringify(frame));
    clearInterval(this.pinger);
    this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
  }

  receive(data) {
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (frame.id && (frame.type === "ack" || frame.type === "reject")) this.unanswered.delete(frame.id);
    if (frame.type === "error" && frame.ref) this.unanswered.delete(frame.ref);
    this.onFrame(frame);
  }

  adopt(ws) {
    this.ws = ws;
    this.onStatus(this.attempt ? "reconnecting" : "connecting");
    // Closing a socket still connecting fails it: its close event (1006) reconnects.
    const handshake = setTimeout(() => {
      if (ws.readyState === WebSocket.CONNECTING) ws.close();
    }, HANDSHAKE_MS);
    ws.addEventListener("open", () => {
      clearTimeout(handshake);
      this.opened(ws);
    });
    ws.addEventListener("message", (message) => this.receive(message.data));
    ws.addEventListener("close", (event) => {
      clearTimeout(handshake);
      if (this.ws !== ws) return;
      clearInterval(this.pinger);
      // After 4401 a refused handshake means no access any more (logged out, removed).
      if (event.code === FORBIDDEN || (this.rightsChanged && event.code === REFUSED)) {
        this.onStatus(
          "closed",
          this.welcomed
            ? "You no longer have access to this table."
            : "You are not at this table (or it does not exist).",
        );
        return;
      }
      if (event.code === RIGHTS_CHANGED) {
        this.rightsChanged = true;
        this.onStatus("reconnecting", "Your access to this table changed; reconnecting.");
        this.reconnectSoon(0);
        return;
      }
      if (event.code === TOO_MANY_SOCKETS) {
        this.onStatus("closed", "Too many of your tabs are open at this table: close one and reload.");
        return;
      }
      if (event.code === DEGRADED) {
        this.onStatus("degraded", "The table's server is degraded (its message service is down); retrying.");
      } else {
        this.onStatus(this.held ? "offline" : "reconnecting");
      }
      this.reconnectSoon(BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)]);
      this.attempt += 1;
    });
  }

  reconnectSoon(ms) {
    if (this.held || this.open) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), ms);
  }

  /** Sends a frame; frames with an `id` are remembered until answered and resent on reconnect. */
  send(frame) {
    if (frame.id) this.unanswered.set(frame.id, frame);
    if (!this.open) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /** Reconnects for a fresh snapshot (the store forgot its seq: `seen()` is -1). */
  resync() {
    if (this.held) return;
    this.onStatus("reconnecting", "The table was out of step with the server; reloading it.");
    if (this.open) this.ws.close(4000, "resync");
    else this.reconnectSoon(0);
  }

  /** Drops the socket as a lost network would; `hold` keeps it down until release(). */
  drop({ hold = false } = {}) {
    this.held = hold;
    this.ws?.close(4000, "dropped");
  }

  release() {
    this.held = false;
    this.attempt = 1;
    this.connect();
  }
}
