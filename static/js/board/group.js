// Pieces picked together (Shift-click), which a drag moves as one order where the
// catalogue has one (a `group` action: a formation move), each piece by the same offset
// (ui.md, "Groups"). The server judges the order; nothing here names a system.
import { drawBase } from "./pieces.js";
import { el } from "./svg.js";

const r2 = (n) => Math.round(n * 100) / 100;

export class Group {
  constructor(board) {
    this.board = board;
    this.ids = new Set();
  }

  /** Shift-click: the piece joins the group (with the one selected before), or leaves it. */
  toggle(id) {
    const { pieces, store } = this.board;
    if (pieces.selected && !this.ids.size) this.ids.add(pieces.selected);
    if (this.ids.has(id)) this.ids.delete(id);
    else if (store.mayOrder(store.unit(id))) this.ids.add(id);
    this.mark();
    const names = [...this.ids].map((i) => store.name(i)).join(", ");
    this.board.setHint(this.ids.size > 1 ? `Group: ${names}. Drag one of them to move them together; Esc or a click elsewhere ends the group.` : "");
  }

  /** A piece selected outside the group ends it. */
  keep(id) {
    if (!this.ids.has(id) && this.ids.size) (this.ids.clear(), this.mark());
  }

  mark() {
    for (const [id, node] of this.board.pieces.nodes) node.g.classList.toggle("grouped", this.ids.has(id));
  }

  /** The group action chosen in the bar, or offered to a piece that leads a group, or null. */
  spec(unit) {
    const offered = this.board.store.offered(unit.id);
    const chosen = (a) => a.type === this.board.currentAction || (this.ids.size > 1 && this.ids.has(unit.id));
    return this.board.catalogue.find((a) => a.group && chosen(a) && (offered === null || offered.includes(a.type))) ?? null;
  }

  /** The leader's action as the group's: `moves`, one {unit, path} a piece, leader first. */
  action(lead, spec) {
    const from = this.board.store.unit(lead.unit).position;
    const moves = [{ unit: lead.unit, path: lead.path, ...(lead.facing == null ? {} : { facing: lead.facing }) }];
    for (const id of this.ids) {
      const u = this.board.store.unit(id);
      if (!u || id === lead.unit) continue;
      const [dx, dy] = [u.position[0] - from[0], u.position[1] - from[1]];
      moves.push({ unit: id, path: lead.path.map((q) => (Array.isArray(q) ? [r2(q[0] + dx), r2(q[1] + dy), ...q.slice(2)] : q)) });
    }
    return { unit: lead.unit, type: spec.type, moves };
  }

  /** The other pieces' ghosts, where the plan's offset puts them. */
  ghosts(plan, layer, colour) {
    const from = plan.unit.position;
    for (const id of plan.group ? this.ids : []) {
      const u = this.board.store.unit(id);
      if (!u || id === plan.unit.id) continue;
      drawBase(el("g", { class: "ghost", transform: `translate(${plan.ghost[0] + u.position[0] - from[0]} ${plan.ghost[1] + u.position[1] - from[1]}) rotate(${u.facing ?? 0})` }, layer), u, colour);
    }
  }
}
