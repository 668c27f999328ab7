// @ts-check
// A group's move where the system has no group order, or the action chosen is none: one
// order a piece, proposed in turn (ui.md, "Groups"). The dragged piece's order is sent as
// any drag's; then each other piece is proposed where the same move takes it (its own
// offset from the first), previewed and judged by the server on its own, and sent when
// the player says (Enter, or Send), skipped, or the rest cancelled (Esc). A refused order
// is explained as any refused move (drag.js), and the next piece follows.
import { offsetPath } from "./group.js";
import { item } from "./panels/util.js";

const norm = (a) => ((a % 360) + 360) % 360;

export class InTurn {
  constructor(board) {
    this.board = board;
    this.run = null; // {shape, rest: [ids], current, done, total, skip}
    this.box = null;
  }

  /** Whether a plan leads a group's orders in turn: a grouped piece's move with no group
   *  action, none running yet. */
  leads(plan) {
    const ids = this.board.group.ids;
    return !this.run && !plan.group && !plan.rotateOnly && ids.size > 1 && ids.has(plan.unit.id);
  }

  /** Mover.begin: a plan of another piece than the one proposed ends the run. */
  began(plan) {
    if (this.run && plan.unit.id !== this.run.current) this.stop("The group's remaining orders were dropped: another piece was picked up.");
  }

  /** Mover.commit: the first order is on its way; the others follow with its shape. */
  sent(p) {
    if (this.run || !this.leads(p)) return;
    const rest = [...this.board.group.ids].filter((id) => id !== p.unit.id);
    const shape = { origin: [...p.origin], waypoints: p.waypoints.map((q) => [...q]), ghost: [...p.ghost], turn: norm(p.facing - (p.unit.facing ?? 0)) };
    this.run = { shape, rest, current: p.unit.id, done: 1, total: rest.length + 1, skip: false };
  }

  /** Mover.end: the order in hand is done (sent, refused, skipped) or dropped (Esc). */
  ended(p) {
    const run = this.run;
    if (!run || p.unit.id !== run.current) return;
    if (!p.id && !run.skip) return this.stop("Cancelled: the rest of the group was not moved.");
    run.skip = false;
    setTimeout(() => this.next(), 0); // after the plan in hand has gone
  }

  /** Proposes the next piece of the group; none left, the run ends. */
  next() {
    const run = this.run, board = this.board, mover = board.mover, store = board.store;
    // Another plan of the same piece is in hand (its offered alternative): its end goes on.
    if (!run || mover.active) return;
    while (run.rest.length) {
      const id = run.rest.shift(), unit = store.unit(id);
      run.done += 1;
      if (!unit?.position || unit.aboard) continue;
      if (!mover.mayMove(unit)) {
        board.toasts.show(`${store.name(id)}: not proposed`, [`It may not move now${store.summary ? ` (${store.summary})` : ""}.`], "info");
        continue;
      }
      run.current = id;
      mover.begin(unit, "proposed");
      const [dx, dy] = [unit.position[0] - run.shape.origin[0], unit.position[1] - run.shape.origin[1]];
      mover.plan.waypoints = offsetPath(run.shape.waypoints, dx, dy);
      mover.plan.ghost = offsetPath([run.shape.ghost], dx, dy)[0];
      mover.plan.facing = norm((unit.facing ?? 0) + run.shape.turn);
      mover.changed();
      this.ask(unit, run);
      return;
    }
    this.stop("The group's orders have all been proposed.");
  }

  /** The proposal's question: Send (Enter), Skip, Cancel the rest (Esc). */
  ask(unit, run) {
    this.box?.remove();
    const name = this.board.store.name(unit.id);
    const line = `${name} (${run.done} of ${run.total}): the same move, judged on its own. Enter sends it; Skip passes it by; Esc cancels the rest.`;
    this.box = this.board.toasts.show("The group's next order", [line], "info", 0);
    this.box.classList.add("in-turn");
    const buttons = [["Send", () => this.board.mover.commit()], ["Skip", () => this.skip()], ["Cancel the rest", () => this.cancel()]];
    for (const [text, fn] of buttons) {
      const button = this.box.appendChild(item("button", "", text));
      button.type = "button";
      button.addEventListener("click", fn);
    }
    this.board.setHint((this.hint = line));
  }

  skip() {
    const mover = this.board.mover;
    if (!this.run || mover.plan?.pending) return;
    this.run.skip = true;
    if (mover.plan) mover.end();
    else this.next();
  }

  cancel() {
    if (!this.run) return;
    const mover = this.board.mover;
    const proposed = mover.plan && !mover.plan.pending && mover.plan.unit.id === this.run.current;
    this.stop("Cancelled: the rest of the group was not moved.");
    if (proposed) mover.end();
  }

  stop(text) {
    if (!this.run) return;
    this.run = null;
    this.box?.remove();
    this.box = null;
    this.board.clearHint(this.hint);
    if (text) this.board.setHint(text);
  }
}
