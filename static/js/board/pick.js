// Two-click picking for the tools: each click takes the piece under the pointer, or the
// point; the pointer's position stands in for the second pick until it is made.
import { footprint } from "./geometry.js";

export class Picker {
  constructor(board, draw) {
    this.board = board;
    this.draw = draw; // (from, to, final) -> void; picks are {unit?, fp, at}
    this.picks = [];
  }

  pickAt(e) {
    const g = e.target.closest?.(".piece");
    const unit = g ? this.board.shownUnit(g.dataset.unit) : null;
    if (unit) return { unit, fp: footprint(unit), at: [...unit.position.slice(0, 2)] };
    const at = this.board.view.tablePoint(e.clientX, e.clientY);
    return { unit: null, fp: { core: [at], r: 0 }, at };
  }

  down(e) {
    if (this.picks.length >= 2) this.picks = [];
    this.picks.push(this.pickAt(e));
    if (this.picks.length === 2) this.draw(this.picks[0], this.picks[1], true);
  }

  move(e) {
    if (this.picks.length === 1) this.draw(this.picks[0], this.pickAt(e), false);
  }

  reset() {
    this.picks = [];
  }
}
