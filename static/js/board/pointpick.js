// @ts-check
// Actions no drag proposes, made of clicks as the catalogue says: a point (`point_keys`,
// or a "placement" path with no keys), a piece (`unit_keys`; sent with no path), where
// each unit aboard stands (`placement_keys`), or pieces one by one (`unit_list_keys`:
// then the actor's drag or click sends it, drag.js; a click only, for path "none");
// `at_once`: sent on the press. A `from_aboard` action is offered on the carrier, for the
// piece aboard it. A spec's `variants` give other unit types their own gesture
// (board.actions.spec). No action is named here; the server judges.
import { contactPose } from "./geometry.js";
import { actionButton } from "./panels/util.js";
import { el } from "./svg.js";

const round = (n, d = 1000) => Math.round(n * d) / d;

export class PointActions {
  constructor(board) {
    this.board = board;
    this.bar = document.getElementById("point-actions");
    const picked = (a, k) => [a.point_keys, a.unit_keys, a.placement_keys, a.unit_list_keys].some((keys) => keys?.includes(k));
    const picks = (a) => a.at_once || (a.keys?.length ? a.keys.some((k) => picked(a, k)) : a.path === "placement");
    this.specs = board.actions.catalogue.filter((a) => !a.drag && [a, ...(a.variants ?? []).map((v) => ({ ...a, ...v }))].some(picks));
    this.picking = null; // {unit, spec, steps, action} while clicks are awaited
    this.swallowClick = false;
    for (const spec of this.specs) this.bar.append(actionButton(spec, () => this.begin(spec)));
  }

  /** Shows the actions the selected unit is offered now (the server's list). */
  refresh(selected, movable) {
    for (const button of this.bar.querySelectorAll("button")) {
      button.hidden = !selected || !this.actor(selected, this.specs.find((a) => a.type === button.dataset.action));
      button.disabled = !movable;
      button.setAttribute("aria-pressed", String(this.picking?.spec.type === button.dataset.action));
    }
    if (this.picking && selected?.id !== this.picking.unit.id) this.cancel();
  }

  /** The piece that takes the action offered on `unit` (one aboard it, `from_aboard`), or null. */
  actor(unit, spec) {
    const store = this.board.store;
    const ones = spec.from_aboard ? store.state.units.filter((u) => u.aboard === unit.id) : [unit];
    return ones.find((u) => store.offered(u.id)?.includes(spec.type) ?? true) ?? null;
  }

  /** The clicks an action needs, in order. */
  steps(unit, spec, actor) {
    const store = this.board.store;
    if (!spec.keys?.length) return [{ key: "path", what: "the direction to go (a piece or a point)" }];
    if (spec.from_aboard) return spec.placement_keys.map((key) => ({ key, kind: "placed", placed: actor, one: true, what: `where ${store.name(actor.id)} gets out` }));
    return spec.keys.flatMap((key) => {
      if (spec.unit_keys?.includes(key)) return [{ key, kind: "unit", what: `the ${key} (a piece)` }];
      if (spec.unit_list_keys?.includes(key)) return [{ key, kind: "many", what: `each of the ${key} (pieces), then ${this.finish(spec, unit)}` }];
      if (!spec.placement_keys?.includes(key)) return spec.point_keys?.includes(key) ? [{ key, what: `the ${key} (a piece or a point)` }] : [];
      const aboard = store.state.units.filter((u) => u.aboard === unit.id);
      return aboard.map((placed, i) => ({ key, kind: "placed", placed, what: `where to set ${store.name(placed.id)} down (${i + 1} of ${aboard.length})` }));
    });
  }

  /** How the actor sends keys picked one by one: its drag or click, or a click alone. */
  finish(spec, unit) {
    const name = this.board.store.name(unit.id);
    return spec.path === "none" ? `click ${name}` : `drag ${name} or click it to stay`;
  }

  send(action, spec) {
    this.board.command({ type: "act", seen: this.board.store.seq, action }, `${this.board.store.name(action.unit)}: ${spec.label.toLowerCase()}`);
  }

  begin(entry) {
    const store = this.board.store;
    const unit = store.unit(this.board.pieces.selected), actor = unit && this.actor(unit, entry);
    if (!actor) return;
    const spec = this.board.actions.spec(entry.type, actor); // the gesture for the actor's type
    this.board.mover.cancel();
    this.cancel();
    const action = { unit: actor.id, type: spec.type };
    if (spec.at_once) return this.send(action, spec);
    const steps = this.steps(unit, spec, actor);
    if (!steps.length) return this.board.setHint(`${spec.label}: ${store.name(unit.id)} has nothing aboard.`);
    this.picking = { unit, spec, steps, action };
    this.board.svg.classList.add("picking-point");
    this.prompt();
    this.refresh(unit, true);
    this.board.keyMove.refresh(unit, true); // the typed point is the pick
  }

  prompt() {
    const { unit, spec, steps } = this.picking;
    this.board.setHint(`${spec.label} for ${this.board.store.name(unit.id)}: click ${steps[0].what} on the table (or Enter on a piece, or type the point); Esc cancels.`);
  }

  cancel() {
    if (!this.picking) return false;
    this.picking = null;
    this.marks?.remove();
    this.marks = null;
    this.board.svg.classList.remove("picking-point");
    this.board.setHint("");
    this.bar.querySelector("[aria-pressed=true]")?.setAttribute("aria-pressed", "false");
    this.board.keyMove?.refresh(this.board.store.unit(this.board.pieces.selected), !this.board.readOnly());
    return true;
  }

  /** Capture-phase handlers on the page: while picking, a press on the table is the pick. */
  attach(root) {
    root.addEventListener("pointerdown", (e) => {
      if (!this.picking || e.button !== 0 || !e.target.closest?.("#board-svg")) return;
      const { unit, spec, steps, action } = this.picking;
      // Pieces picked one by one: the actor's own press is its drag or click (drag.js).
      const done = steps[0].kind === "many" && action[steps[0].key]?.length && e.target.closest?.(".piece")?.dataset.unit === unit.id;
      if (done && spec.path !== "none") {
        this.cancel();
        this.board.mover.extra = action;
        // Cleared with the plan, or once the order goes (drag.js).
        return this.board.setHint((this.board.mover.carryHint = `${this.board.actions.label(action.type)}: drag ${this.board.store.name(unit.id)} to move, or release to stay; Esc cancels.`));
      }
      e.stopPropagation();
      e.preventDefault();
      this.swallowClick = true;
      if (!done) return this.pick(e);
      this.cancel(); // a click on the actor, for an action with no path: sent where it stands
      this.send(action, spec);
    }, { capture: true });
    root.addEventListener("click", (e) => {
      if (!this.swallowClick) return;
      this.swallowClick = false;
      e.stopPropagation();
    }, { capture: true });
  }

  pick(e) {
    this.pickAt(e.target.closest?.(".piece")?.dataset.unit, this.board.view.tablePoint(e.clientX, e.clientY));
  }

  /** A pick from the keyboard (keymove.js): a piece (`id`: Enter on it, or its line in the
   *  piece list) or a typed point (`at`). Enter on the actor, once pieces are picked one
   *  by one, sends the order where it stands, as a click on it does. */
  pickKey(id, at) {
    if (!this.picking) return false;
    const { unit, spec, steps, action } = this.picking;
    if (id && id === unit.id && steps[0].kind === "many" && action[steps[0].key]?.length) {
      this.cancel();
      this.send(action, spec);
      return true;
    }
    this.pickAt(id, at ?? this.board.store.unit(id)?.position);
    return true;
  }

  pickAt(id, at) {
    const { unit, spec, steps, action } = this.picking;
    const step = steps[0];
    const store = this.board.store;
    if (step.kind === "unit") {
      if (!id) return this.board.setHint(`${spec.label}: click a piece for the ${step.key}; Esc cancels.`);
      action[step.key] = id;
    } else if (step.kind === "many") {
      if (!id || id === unit.id) return this.board.setHint(`${spec.label}: click a piece for the ${step.key}, then ${this.finish(spec, unit)}; Esc cancels.`);
      const list = (action[step.key] ??= []);
      if (!list.includes(id)) list.push(id);
      return this.board.setHint(`${spec.label} for ${store.name(unit.id)}: ${list.map((i) => store.name(i)).join(", ")}. Click another, or ${this.finish(spec, unit)}; Esc cancels.`);
    } else if (step.kind === "placed") {
      const [x, y, facing] = contactPose(store.unit(unit.id), at, step.placed.base);
      const pose = { position: [round(x), round(y)], facing: round(facing, 100) };
      if (step.one) action[step.key] = pose; // the actor's own placement
      else (action[step.key] ??= []).push({ unit: step.placed.id, ...pose });
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
    this.send(action, spec);
  }
}
