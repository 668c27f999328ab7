// @ts-check
// What the server sends the board (docs/protocol.md), each frame to the part it is for:
// the table's snapshot and events to the store (and, once applied, to the log, the
// panels and the pieces' glides), the referee's verdicts to the drag, the reach or the
// keys, the answers to the commands that asked them.
import { pathPoints } from "./geometry.js";
import { reasonNode } from "./preview.js";

const HISTORY_EVENTS = 100; // the past events a new page asks for, for its log
const TABLE_KINDS = ["act", "fiat", "undo", "turn"]; // the events that change the table
const $ = (id) => document.getElementById(id);

export class TableFrames {
  constructor(board) {
    this.board = board;
    this.resumeTimer = null;
  }

  on(frame) {
    const { board } = this;
    const { store } = board;
    switch (frame.type) {
      case "hello":
        store.me = frame.you;
        store.limits = frame.limits ?? {};
        board.page.dataset.role = frame.you.role;
        $("gm-panel").hidden = frame.you.role !== "gm";
        if (frame.spectator_delay_s !== undefined) {
          store.delaySetting = frame.spectator_delay_s;
          /** @type {HTMLInputElement} */ ($("delay-seconds")).value = String(frame.spectator_delay_s);
        }
        break;
      case "snapshot": {
        const first = store.seq < 0;
        board.activeUnit = frame.active_unit ?? null;
        board.drawing.notes = new Map((frame.annotations ?? []).map((n) => [n.seq, n]));
        store.applySnapshot(frame);
        board.chat.reset(frame.chat ?? []);
        board.dice.reset(frame.dice ?? []);
        board.takeback.reset(frame.takeback);
        if (first && frame.seq > 0) board.conn.send({ type: "resume", seq: Math.max(0, frame.seq - HISTORY_EVENTS) });
        board.status.show();
        break;
      }
      case "delay":
        store.noticeDelay(frame.delay_s);
        board.status.show();
        break;
      case "sight":
        board.sight.onRuling(frame);
        break;
      case "event":
        if (store.applyEvent(frame) === "gap") this.askResume();
        break;
      case "verdict":
        this.verdict(frame);
        break;
      case "ack":
      case "reject":
        this.answer(frame);
        break;
      case "error":
        this.error(frame);
        break;
      case "presence":
        board.presence.show(frame.present ?? []);
        break;
      case "point":
        board.pings.show(frame);
        break;
      default:
        break;
    }
  }

  /** A gap in the events' numbers: the missing ones, asked once the burst has settled. */
  askResume() {
    clearTimeout(this.resumeTimer);
    this.resumeTimer = setTimeout(() => this.board.conn.send({ type: "resume", seq: this.board.store.seq }), 200);
  }

  /** An event in the log, and in the chat or dice panel if it is theirs. */
  logged(frame) {
    const { board } = this;
    board.log.add(frame);
    if (frame.kind === "chat") board.chat.add(frame);
    if (frame.kind === "roll" || frame.kind === "act") board.dice.fromEvent(frame);
  }

  /** An event the store applied (`before`: the units it changed, as they were). */
  applied(frame, before) {
    const { board } = this;
    if (frame.kind === "act" && frame.verdict && frame.action?.unit) board.noteVerdict(frame.action.unit, frame.verdict);
    if (TABLE_KINDS.includes(frame.kind)) board.activeUnit = frame.active_unit ?? null;
    this.logged(frame);
    board.announce.say(frame.kind === "chat" ? `${frame.actor ?? "?"} says: ${frame.text ?? ""}` : board.log.text(frame));
    board.takeback.onEvent(frame);
    board.mover.onEvent(frame);
    if (frame.kind === "annotate" || frame.kind === "erase") board.drawing.onEvent(frame);
    if (frame.kind === "mark" || frame.kind === "unmark") board.marks.onEvent(frame);
    if (frame.kind === "delay") {
      if (board.store.me.role === "gm") /** @type {HTMLInputElement} */ ($("delay-seconds")).value = String(frame.seconds);
      board.status.show();
    }
    if (!TABLE_KINDS.includes(frame.kind) && frame.kind !== "delay") return;
    if (!board.replay.live) {
      board.log.live(board.store.seq);
      board.refreshChrome();
      return;
    }
    board.drawAll();
    for (const unit of frame.units ?? []) this.glide(frame, unit, before[unit.id]);
    if (frame.kind !== "delay") board.tools.refreshReach();
  }

  /** A moved piece glides along the path it took (its own order's, else straight). */
  glide(frame, unit, old) {
    if (!old || old.aboard || unit.aboard) return;
    const points = frame.kind === "act" && frame.action?.unit === unit.id
      ? pathPoints(old.position, frame.action.path ?? [])
      : [old.position, unit.position];
    if (Math.hypot(points.at(-1)[0] - unit.position[0], points.at(-1)[1] - unit.position[1]) > 0.01) points.push(unit.position);
    this.board.pieces.glide(unit.id, points, old.facing ?? 0, unit.facing ?? 0);
  }

  verdict(frame) {
    const { board } = this;
    const ref = String(frame.ref ?? "");
    if (ref.startsWith("alt-")) return board.mover.onOffer(frame);
    if (ref.startsWith("reach-")) return board.tools.onReach(frame);
    if (board.mover.onVerdict(frame)) {
      board.card.show(board.shownUnit(board.pieces.selected));
      board.keyMove.readVerdict();
    }
  }

  answer(frame) {
    const { board } = this;
    if (board.mover.onAnswer(frame)) return;
    this.ended(frame.id, frame.type === "ack" ? frame.seq : 0);
    board.takeback.answered(frame.id, frame.type === "ack" ? frame.seq : 0);
    const what = board.commands.get(frame.id);
    board.commands.delete(frame.id);
    if (frame.type !== "reject" || !what) return;
    // A repeated end (a second press that left before the first's event came) is no refusal.
    const again = frame.reasons?.[0]?.code === "turn_already_ended";
    board.toasts.show(`${what}: ${again ? "done already" : "refused"}`, (frame.reasons ?? []).map((r) => reasonNode(r, board.store)), again ? "info" : "error");
  }

  /** The answer to the End turn in flight: the button is back once the table has its event. */
  ended(id, seq) {
    const { board } = this;
    if (id !== board.ending) return;
    board.store.whenAt(seq, () => {
      if (board.ending === id) board.ending = null;
      board.refreshChrome();
    }, 3000);
  }

  error(frame) {
    const { board } = this;
    if (frame.ref && board.mover.onAnswer(frame)) return;
    this.ended(frame.ref, 0);
    board.takeback.answered(frame.ref);
    if (String(frame.ref ?? "").startsWith("drag-")) return; // a preview the server could not read
    if (String(frame.ref ?? "").startsWith("ping-")) return board.pings.onError(frame);
    if (frame.code === "rate_limited") return;
    const what = board.commands.get(frame.ref);
    board.commands.delete(frame.ref);
    board.toasts.show(what ? `${what}: ${frame.code}` : `The server says: ${frame.code}`, [frame.rule ? reasonNode(frame) : frame.message ?? ""], "error");
  }
}
