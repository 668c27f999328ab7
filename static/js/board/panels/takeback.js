// @ts-check
// Take-backs (docs/protocol.md, "Take-backs"): a player's "Take back" for their last order
// while it may be taken back, the opponent's Accept / Decline, and a toast for each outcome.
// What may be taken back is the server's word (the snapshot's `takeback`), followed through
// the events as the server rules it; the server still judges every request.
import { item, rekey } from "./util.js";

const TABLE_KINDS = ["act", "fiat", "undo", "turn"];

/** The order a table event leaves on offer for its player to take back, or null: an order
 *  or end of turn of a player, with no dice rolled for it (docs/protocol.md). */
export function onOffer(frame) {
  if (!["act", "turn"].includes(frame.kind) || frame.role !== "player") return null;
  if ((frame.rolls ?? []).length || frame.answers) return null;
  return { seq: frame.seq, actor: frame.actor, kind: frame.kind };
}

export class TakeBack {
  constructor(board) {
    this.board = board;
    this.button = /** @type {HTMLButtonElement} */ (document.getElementById("take-back"));
    this.box = document.getElementById("takeback-prompt");
    this.order = null; // {seq, actor, kind}: the order its player may ask to take back
    this.request = null; // the request event waiting for an answer
    this.sent = null; // the id of a frame in flight: its button waits for the answer
    this.button.addEventListener("click", () => this.ask());
  }

  reset(told) {
    this.order = told?.order ?? null;
    this.request = told?.request ?? null;
    this.show();
  }

  /** Follows a live event (history changes nothing here). */
  onEvent(frame) {
    const me = this.board.store.me.user;
    if (TABLE_KINDS.includes(frame.kind)) {
      const lapsed = this.request && frame.takeback_lapsed === this.request.seq ? this.request : null;
      this.request = null;
      this.order = onOffer(frame);
      if (frame.takeback?.step === "accepted") {
        const t = frame.takeback;
        this.toast("Take-back accepted", `${frame.actor} let ${t.asked_by} take back #${t.order}: the table is as it was before it.`);
      } else if (lapsed && lapsed.actor === me) {
        this.toast("Take-back request lapsed", `The table changed (#${frame.seq}) before an answer came.`);
      }
    } else if (frame.kind === "roll") {
      this.order = null; // dice rolled since: only the GM can undo it now
    } else if (frame.kind === "takeback") {
      this.onStep(frame, me);
    } else return;
    this.show();
  }

  onStep(frame, me) {
    if (frame.step === "asked") {
      this.request = frame;
      this.order = null;
      if (frame.actor !== me && this.mayAnswer(frame)) this.toast("Take-back asked", `${frame.actor} asks to take back ${this.what(frame)}.`);
      return;
    }
    this.request = null;
    if (frame.step === "withdrawn") {
      this.order = { seq: frame.order, actor: frame.asked_by, kind: "" };
      this.toast("Take-back withdrawn", `${frame.asked_by} withdrew the request to take back #${frame.order}.`);
    } else if (frame.step === "declined") {
      this.order = null; // declined once: not asked again
      this.toast("Take-back declined", `${frame.actor} declined to let ${frame.asked_by} take back #${frame.order}; it stands.`);
    }
  }

  toast(title, line) {
    this.board.toasts.show(title, [line], "info");
  }

  /** The order a request is about, in the player's words. */
  what(request) {
    if (request.order_kind === "turn") return `the end of their turn (#${request.order})`;
    const unit = this.board.store.name(request.unit);
    return `${unit}'s ${this.board.actions.label(request.order_type).toLowerCase()} (#${request.order})`;
  }

  /** Whether this user answers `request`: the GM, or a player of another side than its own. */
  mayAnswer(request) {
    const me = this.board.store.me;
    if (me.role === "gm") return true;
    return me.role === "player" && request.actor !== me.user && me.sides.some((side) => side !== request.side);
  }

  show() {
    const board = this.board;
    const store = board.store;
    const live = board.replay.live && store.status === "active";
    const mine = this.order && this.order.actor === store.me.user;
    this.button.hidden = store.me.role !== "player";
    this.button.disabled = !live || !mine || Boolean(this.request) || Boolean(this.sent);
    this.button.title = mine && !this.request
      ? `Ask your opponent to let you take back your last order (#${this.order.seq})`
      : "Take back your last order: possible until anyone else acts";
    this.showPrompt(live ? this.request : null);
  }

  showPrompt(request) {
    const me = this.board.store.me;
    if (!rekey(this.box, request ? `${request.seq}|${me.user}|${me.role}|${this.sent ?? ""}` : "")) return;
    if (request.actor === me.user) {
      this.box.replaceChildren(
        item("span", "pending-text", `You asked to take back ${this.what(request)}: waiting for the answer.`),
        this.button_("takeback-withdraw", "Withdraw", () => this.send({ type: "takeback_withdraw", request: request.seq }, "Withdraw the take-back")),
      );
      return;
    }
    const asks = `${request.actor} asks to take back ${this.what(request)}`;
    if (!this.mayAnswer(request)) {
      this.box.replaceChildren(item("span", "pending-text", `${asks}: waiting for the answer.`));
      return;
    }
    this.box.replaceChildren(
      item("span", "pending-text", `${asks}.`),
      this.button_("takeback-accept", "Accept", () => this.send({ type: "takeback_answer", request: request.seq, accept: true }, "Accept the take-back")),
      this.button_("takeback-decline", "Decline", () => this.send({ type: "takeback_answer", request: request.seq, accept: false }, "Decline the take-back")),
    );
  }

  button_(id, label, onClick) {
    const button = item("button", "", label);
    button.type = "button";
    button.id = id;
    button.disabled = Boolean(this.sent);
    button.addEventListener("click", onClick);
    return button;
  }

  ask() {
    if (!this.order) return;
    this.send({ type: "takeback_ask", order: this.order.seq }, "Take back");
  }

  /** Sends a take-back frame; its buttons wait for the answer (a refusal is a toast). */
  send(frame, what) {
    const id = (this.sent = this.board.command(frame, what));
    this.show();
    setTimeout(() => this.answered(id), 8000); // an answer lost with the connection
  }

  /** The answer to `id` came (ack, reject or error): the buttons are back, once the table
   *  has the event an ack names (until then the button would offer what was just asked). */
  answered(id, seq = 0) {
    if (id !== this.sent) return;
    this.board.store.whenAt(seq, () => {
      if (this.sent !== id) return;
      this.sent = null;
      this.show();
    }, 3000);
  }
}
