// @ts-check
// Two-click picking for the tools: each click takes the piece under the pointer, or the
// point; the pointer's position stands in for the second pick until it is made. The
// keyboard's cross (cursor.js) picks through the same two steps (`downAt`, `moveAt`).
import { footprint } from "./geometry.js";

export class Picker {
  constructor(board, draw) {
    this.board = board;
    this.draw = draw; // (from, to, final) -> void; picks are {unit?, fp, at}
    this.picks = [];
  }

  /** The pick of piece `id` (where it stands) or, with none shown, of the point `at`. */
  pickFor(id, at) {
    const unit = id ? this.board.shownUnit(id) : null;
    if (unit) return { unit, fp: footprint(unit), at: [...unit.position.slice(0, 2)] };
    return { unit: null, fp: { core: [at], r: 0 }, at };
  }

  pickAt(e) {
    return this.pickFor(e.target.closest?.(".piece")?.dataset.unit, this.board.view.tablePoint(e.clientX, e.clientY));
  }

  down(e) {
    this.downAt(this.pickAt(e));
  }

  downAt(pick) {
    if (this.picks.length >= 2) this.picks = [];
    this.picks.push(pick);
    if (this.picks.length === 2) this.draw(this.picks[0], this.picks[1], true);
  }

  move(e) {
    this.moveAt(this.pickAt(e));
  }

  moveAt(pick) {
    if (this.picks.length === 1) this.draw(this.picks[0], pick, false);
  }

  /** The first pick's point while the second is awaited, else null. */
  start() {
    return this.picks.length === 1 ? this.picks[0].at : null;
  }

  reset() {
    this.picks = [];
  }
}
