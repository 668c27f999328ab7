// @ts-check
// Pieces picked together (Shift-click, or a Shift-drag box on the empty table, groupbox.js),
// which a drag moves as one order where the catalogue has one (a `group` action: a
// formation move), each piece by the same offset, and elsewhere as one order a piece,
// proposed in turn (inturn.js) (ui.md, "Groups"). The server judges each order; nothing
// here names a system.
import { drawBase } from "./pieces.js";
import { el } from "./svg.js";

const r2 = (n) => Math.round(n * 100) / 100;

export class Group {
  constructor(board) {
    this.board = board;
    this.ids = new Set();
    this.chosen = null; // an action the player pressed in the bar since the group was formed
  }

  /** Shift-click: the piece joins the group (with the one selected before), or leaves it. */
  toggle(id) {
    const { pieces, store } = this.board;
    if (pieces.selected && pieces.selected !== id && !this.ids.size) this.ids.add(pieces.selected);
    if (this.ids.has(id)) this.ids.delete(id);
    else if (store.mayOrder(store.unit(id))) this.ids.add(id);
    this.chosen = null;
    this.mark();
    this.say();
  }

  /** A box's pieces become the group, the first of them selected; none ends it. */
  set(ids) {
    this.ids = new Set(ids);
    this.chosen = null;
    this.board.select(ids[0] ?? null);
    this.mark();
    this.say(ids.length ? "" : "Group: no piece of yours in the box.");
  }

  say(otherwise = "") {
    const names = [...this.ids].map((i) => this.board.store.name(i)).join(", ");
    this.board.setHint(this.ids.size > 1 ? `Group: ${names}. Drag one of them to move them together; Esc or a click elsewhere ends the group.` : otherwise);
  }

  /** A piece selected outside the group ends it. */
  keep(id) {
    if (!this.ids.has(id) && this.ids.size) (this.ids.clear(), this.mark());
  }

  /** The group's pieces, in the order picked, that are on the shown table. */
  members() {
    return this.ids.size > 1 ? [...this.ids].map((id) => this.board.shownUnit(id)).filter(Boolean) : [];
  }

  mark() {
    for (const [id, node] of this.board.pieces.nodes) node.g.classList.toggle("grouped", this.ids.has(id));
    this.board.refreshChrome(); // the card panel shows the group's cards
  }

  /** The group action chosen in the bar, or offered to a piece that leads a group, or
   *  null: then a drag of the group is one order a piece, in turn (inturn.js). Another
   *  action pressed in the bar since the group was formed is the player's choice. */
  spec(unit) {
    const offered = this.board.store.offered(unit.id);
    if (this.chosen && !this.board.actions.spec(this.chosen)?.group) return null;
    const chosen = (a) => a.type === this.board.actions.current || (this.ids.size > 1 && this.ids.has(unit.id));
    return this.board.actions.catalogue.find((a) => a.group && chosen(a) && (offered === null || offered.includes(a.type))) ?? null;
  }

  /** The leader's action as the group's: `moves`, one {unit, path} a piece, leader first. */
  action(lead, spec) {
    const from = this.board.store.unit(lead.unit).position;
    const moves = [{ unit: lead.unit, path: lead.path, ...(lead.facing == null ? {} : { facing: lead.facing }) }];
    for (const id of this.ids) {
      const u = this.board.store.unit(id);
      if (!u || id === lead.unit) continue;
      const [dx, dy] = [u.position[0] - from[0], u.position[1] - from[1]];
      moves.push({ unit: id, path: offsetPath(lead.path, dx, dy) });
    }
    return { unit: lead.unit, type: spec.type, moves };
  }

  /** The other pieces' ghosts, where the plan's offset puts them: one order (a group
   *  action), or the orders to be proposed after this one (inturn.js), fainter. */
  ghosts(plan, layer, colour) {
    const from = plan.unit.position, queued = !plan.group && this.board.inTurn.leads(plan);
    for (const id of plan.group || queued ? this.ids : []) {
      const u = this.board.store.unit(id);
      if (!u || id === plan.unit.id) continue;
      drawBase(el("g", { class: `ghost${queued ? " queued" : ""}`, transform: `translate(${plan.ghost[0] + u.position[0] - from[0]} ${plan.ghost[1] + u.position[1] - from[1]}) rotate(${u.facing ?? 0})` }, layer), u, colour);
    }
  }
}

/** A path moved by (dx, dy): its points, not its turns. */
export const offsetPath = (path, dx, dy) => path.map((q) => (Array.isArray(q) ? [r2(q[0] + dx), r2(q[1] + dy), ...q.slice(2)] : q));
