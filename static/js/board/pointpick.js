// Actions no drag proposes, made of clicks as the catalogue says: a point (`point_keys`,
// or a "placement" path with no keys), a piece (`unit_keys`; sent with no path), or where
// each unit aboard stands (`placement_keys`). No action is named here; the server judges.
import { contactPose } from "./geometry.js";
import { actionButton } from "./panels/util.js";
import { el } from "./svg.js";

const round = (n, d = 1000) => Math.round(n * d) / d;

export class PointActions {
  constructor(board) {
    this.board = board;
    this.bar = document.getElementById("point-actions");
    const picked = (a, k) => [a.point_keys, a.unit_keys, a.placement_keys].some((keys) => keys?.includes(k));
    this.specs = board.catalogue.filter((a) => !a.drag && (a.keys?.length ? a.keys.every((k) => picked(a, k)) : a.path === "placement"));
    this.picking = null; // {unit, spec, steps, action} while clicks are awaited
    this.swallowClick = false;
    for (const spec of this.specs) this.bar.append(actionButton(spec, () => this.begin(spec)));
  }

  /** Shows the actions the selected unit is offered now (the server's list). */
  refresh(selected, movable) {
    const offered = selected ? this.board.store.offered(selected.id) : null;
    for (const button of this.bar.querySelectorAll("button")) {
      button.hidden = !selected || (offered !== null && !offered.includes(button.dataset.action));
      button.disabled = !movable;
      button.setAttribute("aria-pressed", String(this.picking?.spec.type === button.dataset.action));
    }
    if (this.picking && selected?.id !== this.picking.unit.id) this.cancel();
  }

  /** The clicks an action needs, in order. */
  steps(unit, spec) {
    const store = this.board.store;
    if (!spec.keys?.length) return [{ key: "path", what: "the direction to go (a piece or a point)" }];
    return spec.keys.flatMap((key) => {
      if (spec.unit_keys?.includes(key)) return [{ key, kind: "unit", what: `the ${key} (a piece)` }];
      if (!spec.placement_keys?.includes(key)) return [{ key, what: `the ${key} (a piece or a point)` }];
      const aboard = store.state.units.filter((u) => u.aboard === unit.id);
      return aboard.map((placed, i) => ({ key, kind: "placed", placed, what: `where to set ${store.name(placed.id)} down (${i + 1} of ${aboard.length})` }));
    });
  }

  begin(spec) {
    const unit = this.board.store.unit(this.board.pieces.selected);
    if (!unit) return;
    this.board.mover.cancel();
    const steps = this.steps(unit, spec);
    if (!steps.length) return this.board.setHint(`${spec.label}: ${this.board.store.name(unit.id)} has nothing aboard.`);
    this.picking = { unit, spec, steps, action: { unit: unit.id, type: spec.type } };
    this.board.svg.classList.add("picking-point");
    this.prompt();
    this.refresh(unit, true);
  }

  prompt() {
    const { unit, spec, steps } = this.picking;
    this.board.setHint(`${spec.label} for ${this.board.store.name(unit.id)}: click ${steps[0].what} on the table; Esc cancels.`);
  }

  cancel() {
    if (!this.picking) return false;
    this.picking = null;
    this.marks?.remove();
    this.marks = null;
    this.board.svg.classList.remove("picking-point");
    this.board.setHint("");
    this.bar.querySelector("[aria-pressed=true]")?.setAttribute("aria-pressed", "false");
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
    const { unit, spec, steps, action } = this.picking;
    const step = steps[0];
    const store = this.board.store;
    const id = e.target.closest?.(".piece")?.dataset.unit;
    const at = this.board.view.tablePoint(e.clientX, e.clientY);
    if (step.kind === "unit") {
      if (!id) return this.board.setHint(`${spec.label}: click a piece for the ${step.key}; Esc cancels.`);
      action[step.key] = id;
    } else if (step.kind === "placed") {
      const [x, y, facing] = contactPose(store.unit(unit.id), at, step.placed.base);
      (action[step.key] ??= []).push({ unit: step.placed.id, position: [round(x), round(y)], facing: round(facing, 100) });
      // Where the ones placed will stand, until the order goes.
      el("circle", { class: "waypoint", cx: x, cy: y, r: 0.3 }, (this.marks ??= el("g", {}, this.board.toolLayer)));
    } else {
      const raw = id ? store.unit(id).position : at;
      const point = [round(raw[0], 100), round(raw[1], 100)];
      action[step.key] = step.key === "path" ? [point] : point;
    }
    steps.shift();
    if (steps.length) return this.prompt();
    this.cancel();
    this.board.command({ type: "act", seen: store.seq, action }, `${store.name(unit.id)}: ${spec.label.toLowerCase()}`);
  }
}
