// Actions that no drag proposes: one point picked on the board. A "placement" action
// with no keys takes the point as its path (a climb over an obstacle towards it); an
// action with no path whose keys are points (the catalogue's `point_keys`) takes it as
// that key (the origin of an attack to react to). Click a piece to take its position,
// or any point of the table. The catalogue says which is which, so no action is named
// here; the server judges every proposal.
import { item } from "./panels/util.js";

export class PointActions {
  constructor(board) {
    this.board = board;
    this.bar = document.getElementById("point-actions");
    this.specs = board.catalogue.filter((a) => !a.drag && (a.path === "placement" ? !a.keys?.length : a.path === "none" && a.keys?.length === 1 && (a.point_keys ?? []).includes(a.keys[0])));
    this.picking = null; // {unit, spec} while a point is awaited
    this.swallowClick = false;
    for (const spec of this.specs) {
      const button = item("button", "", spec.label);
      button.type = "button";
      button.dataset.action = spec.type;
      if (spec.help) button.title = spec.help;
      button.addEventListener("click", () => this.begin(spec));
      this.bar.append(button);
    }
  }

  /** Shows the point actions the selected unit is offered now (the server's list). */
  refresh(selected, movable) {
    const offered = selected ? this.board.store.offered(selected.id) : null;
    for (const button of this.bar.querySelectorAll("button")) {
      const open = Boolean(selected) && (offered === null || offered.includes(button.dataset.action));
      button.hidden = !open;
      button.disabled = !movable;
      button.setAttribute("aria-pressed", String(this.picking?.spec.type === button.dataset.action));
    }
    if (this.picking && (!selected || selected.id !== this.picking.unit.id)) this.cancel();
  }

  begin(spec) {
    const unit = this.board.store.unit(this.board.pieces.selected);
    if (!unit) return;
    this.board.mover.cancel();
    this.picking = { unit, spec };
    const what = spec.path === "placement" ? "the direction to go" : `the ${spec.keys[0]}`;
    this.board.setHint(`${spec.label} for ${this.board.store.name(unit.id)}: click ${what} on the table (a piece or a point); Esc cancels.`);
    this.board.svg.classList.add("picking-point");
    this.refresh(unit, true);
  }

  cancel() {
    if (!this.picking) return false;
    this.picking = null;
    this.board.svg.classList.remove("picking-point");
    this.board.setHint("");
    for (const button of this.bar.querySelectorAll("button")) button.setAttribute("aria-pressed", "false");
    return true;
  }

  /** Capture-phase handlers on the page: while picking, a press on the table is the pick. */
  attach(root) {
    root.addEventListener("pointerdown", (e) => {
      if (!this.picking || e.button !== 0 || !e.target.closest?.("#board-svg")) return;
      e.stopPropagation();
      e.preventDefault();
      this.swallowClick = true;
      this.pick(e);
    }, { capture: true });
    root.addEventListener("click", (e) => {
      if (!this.swallowClick) return;
      this.swallowClick = false;
      e.stopPropagation();
    }, { capture: true });
  }

  pick(e) {
    const { unit, spec } = this.picking;
    const g = e.target.closest?.(".piece");
    const other = g ? this.board.store.unit(g.dataset.unit) : null;
    const raw = other ? other.position : this.board.view.tablePoint(e.clientX, e.clientY);
    const point = [Number(raw[0].toFixed(2)), Number(raw[1].toFixed(2))];
    const action = { unit: unit.id, type: spec.type };
    if (spec.path === "placement") action.path = [point];
    else action[spec.keys[0]] = point;
    this.cancel();
    this.board.command({ type: "act", seen: this.board.store.seq, action }, `${this.board.store.name(unit.id)}: ${spec.label.toLowerCase()}`);
  }
}
