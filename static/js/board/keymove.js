// @ts-check
// Moving and picking with the keyboard alone (ui.md "Moving a piece"): the
// selected piece is carried (Enter, drag.js) and its ghost stepped with the arrows, or sent
// to a typed point ("Move to x, y"); the referee's verdict on each step is read out, as the
// ghost's label shows it. While an action waits for a point (pointpick.js), the typed point
// is that point, and Enter on a piece picks the piece; while a tool is on, it is where the
// tool's cross goes (cursor.js). Nothing here judges a move.
import { fmt } from "./geometry.js";
import { verdictLines } from "./preview.js";

const $ = (id) => document.getElementById(id);
const READ_MS = 250; // a step's verdict is read once the steps pause

export class KeyMove {
  constructor(board) {
    this.board = board;
    this.form = $("goto-form");
    this.x = /** @type {HTMLInputElement} */ ($("goto-x"));
    this.y = /** @type {HTMLInputElement} */ ($("goto-y"));
    this.label = $("goto-label");
    this.said = "";
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
    for (const input of [this.x, this.y]) input.addEventListener("input", () => this.typed());
  }

  mover() {
    return this.board.mover;
  }

  /** The typed point, or null while a field is empty or not a number. */
  point() {
    const [x, y] = [this.x, this.y].map((input) => (input.value.trim() === "" ? NaN : Number(input.value)));
    return Number.isFinite(x) && Number.isFinite(y) ? [Math.round(x * 100) / 100, Math.round(y * 100) / 100] : null;
  }

  /** The plan the keys move, begun (carrying the selected piece) if there is none. */
  carried() {
    const mover = this.mover();
    if (mover.plan && mover.plan.mode !== "rotate" && !mover.plan.pending) return mover.plan;
    if (mover.plan) return null;
    const unit = this.board.store.unit(this.board.pieces.selected);
    if (!unit || !mover.mayMove(unit)) return null;
    mover.begin(unit, "carry");
    return mover.plan;
  }

  /** Arrow keys while carrying: the ghost one step (inches; north is up). */
  step(dx, dy) {
    const mover = this.mover();
    if (!mover.plan || mover.plan.mode !== "carry" || mover.plan.pending) return false;
    const [x, y] = mover.plan.ghost;
    this.moveGhost([Math.round((x + dx) * 100) / 100, Math.round((y + dy) * 100) / 100]);
    return true;
  }

  moveGhost(point) {
    const plan = this.carried();
    if (!plan) return false;
    plan.ghost = point; // where: read with the referee's verdict (readVerdict), not before
    this.board.view.keepInView(point);
    this.mover().changed();
    return true;
  }

  /** A field of the typed point changed: the ghost (or a tool's cross) goes there
   *  (nothing is sent). */
  typed() {
    const point = this.point();
    if (point && !this.board.points.picking && !this.board.cursor.moveTo(point)) this.moveGhost(point);
  }

  /** Enter in the fields: the point for the action waiting for one, else the move is sent. */
  submit() {
    const point = this.point();
    if (!point) return this.board.announce.say("Type both numbers: inches from the left edge, then from the bottom edge.", true);
    if (this.board.points.picking) return this.board.points.pickKey(null, point);
    if (this.board.cursor.setAt(point)) return;
    if (!this.moveGhost(point)) return this.board.announce.say("Select a piece you may move first.", true);
    this.mover().commit();
  }

  /** Enter or Space on a piece while an action waits for one: the piece is picked. */
  pickPiece(id) {
    return this.board.points.picking ? this.board.points.pickKey(id, null) : false;
  }

  /** Shows the typed point's fields while they can serve: a piece to move, a pick, or a
   *  tool's point (its cross's, shown in them). */
  refresh(selected, movable) {
    const picking = this.board.points.picking;
    const cross = picking ? null : this.board.cursor.point();
    this.form.hidden = !(picking || cross || (selected && movable && this.mover().mayMove(selected)));
    this.label.textContent = picking ? `Point for ${picking.spec.label.toLowerCase()}` : cross ? this.board.tools.active.pointWords() : "Move to";
    const shown = cross ?? (selected && !this.mover().active ? selected.position : null);
    if (shown && document.activeElement !== this.x && document.activeElement !== this.y) {
      this.x.value = fmt(shown[0]);
      this.y.value = fmt(shown[1]);
    }
  }

  /** Reads the referee's verdict on the plan once the keys pause; the same words twice
   *  are said once. */
  readVerdict() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const mover = this.mover(), { plan, verdict } = mover;
      // Only a verdict on the plan as it stands: an older step's would say the wrong place.
      if (!plan || !verdict || plan.pending || mover.judged !== JSON.stringify(mover.action())) return;
      const words = verdictLines(verdict, this.board.store, this.board.overlay.costSuffix).map((l) => (Array.isArray(l) ? l[0] : l));
      const where = plan.rotateOnly ? `facing ${Math.round(plan.facing)}°` : `to ${fmt(plan.ghost[0])}, ${fmt(plan.ghost[1])}`;
      const text = `${this.board.store.name(plan.unit.id)} ${where}: ${verdict.legal ? "legal" : "not legal"}. ${words.join(". ")}`;
      if (text !== this.said) this.board.announce.say((this.said = text));
    }, READ_MS);
  }
}
