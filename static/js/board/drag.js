// @ts-check
// Moving a piece: drag and release to commit (`act`), or Enter to carry the selected one
// (the hint says so), each click a waypoint, Enter or a double click commits. A second
// click is no pick-up: a drag after it is a drag. Q/E or the handle rotate; Esc cancels,
// even with the button held. Throttled previews bring the server's verdict; a refused
// drop asks for the nearest legal alternative (protocol.md). The catalogue says what the
// drag proposes besides its path: a turn to face each leg (`faces_each_leg`), the piece
// it ends against or runs over (`target_keys`), keys picked before it (pointpick.js).
// A single leg refused where the pointer rests asks for the alternative too; one ending
// where it was dropped (the engine's cheapest path: a turn first, say) becomes the plan,
// as the reach overlay shades that end (ui.md, "One truth").
import { newId } from "./connection.js";
import { dist, edgeDistance, footprint, pathPoints } from "./geometry.js";
import { askLoss, ownLoss } from "./consequences.js";
import { item } from "./panels/util.js";
import { reasonNode } from "./preview.js";
import { el } from "./svg.js";

const PREVIEW_MS = 100;
const ALT_MS = 500; // alternatives asked while dragging, at most one each (limits.py: engine time)
const DRAG_PX = 4;
// A finger is no mouse: it wanders some pixels while held still, and a tap that did so
// must select, not send a move of a fraction of an inch (touch.js).
const TOUCH_DRAG_PX = 10;

/** How far a press moves before it is a drag, for the pointer that pressed. */
export const dragSlop = (e) => (e.pointerType === "touch" ? TOUCH_DRAG_PX : DRAG_PX);

const norm = (a) => ((a % 360) + 360) % 360;
// The engine's action is the plan but for its way there: the same keys (a facing, an
// altitude) and end (x, y, z), a turn first, say; it never changes what the player chose.
const keysOf = (a) => JSON.stringify(Object.entries(a).filter(([k]) => k !== "path").sort());
const endOf = (a) => [0, 0, 0].map((v, i) => a.path.filter(Array.isArray).at(-1)?.[i] ?? v);
const sameBut = (a, b) => keysOf(a) === keysOf(b) && endOf(a).every((v, i) => Math.abs(v - endOf(b)[i]) < 0.01);
const round2 = (n) => Math.round(n * 100) / 100;

/** The path with a turn to face each leg first, and the facing it ends with, for a piece
 *  the catalogue says moves only where it faces; a leg within a degree of straight ahead
 *  or back needs none (the engine's tolerance, rules/geometry/direction.py). */
function facingLegs(unit, points, spec) {
  let facing = unit.facing ?? 0, at = unit.position;
  if (!spec?.faces_each_leg?.includes(unit.type)) return { path: points, facing };
  const path = [];
  for (const q of points) {
    const turn = round2(norm((Math.atan2(q[1] - at[1], q[0] - at[0]) * 180) / Math.PI - facing + 180) - 180);
    if (dist(at, q) > 0.01 && Math.abs(turn) > 0.9 && Math.abs(turn) < 179.1) path.push({ turn }), (facing = norm(facing + turn));
    path.push(q);
    at = q;
  }
  return { path, facing };
}

export class Mover {
  constructor(board) {
    this.board = board;
    this.plan = null;
    this.press = null;
    this.ref = 0;
    this.shownRef = 0;
    this.lastSent = 0;
    this.timer = null;
    this.verdict = null;
    this.offer = null; // the server's nearest legal alternative to the last refused drop
    this.offerRef = 0;
    // The last preview that asked for the alternative: its plan (JSON), ref and time; and
    // until when none is asked (the server's limits dropped one). Unset until the first.
    /** @type {string | undefined} */
    this.altKey = undefined;
    /** @type {number | undefined} */
    this.altRef = undefined;
    /** @type {number | undefined} */
    this.altAt = undefined;
    /** @type {number | undefined} */
    this.altOff = undefined;
    this.handle = el("g", { class: "rotate-handle", visibility: "hidden" });
    // Only the knob turns: the stem lets presses through to the piece, to move it.
    el("line", { class: "handle-stem", x1: 0, y1: 0, x2: 0, y2: 0, "pointer-events": "none" }, this.handle);
    el("circle", { class: "handle-knob", r: 0.35 }, this.handle);
  }

  get active() {
    return this.plan !== null;
  }

  /** Whether this client may plan a move of `unit`: not one the server's offers rule
   *  out, except by the GM's fiat, which no rule checks. */
  mayMove(unit) {
    const b = this.board;
    if (b.readOnly() || !b.store.mayOrder(unit)) return false;
    if (b.fiat()) return true;
    return b.actions.current !== null && b.actions.offeredDrags(unit.id).length > 0;
  }

  attach() {
    const svg = this.board.svg;
    svg.addEventListener("pointerdown", (e) => this.down(e));
    svg.addEventListener("pointermove", (e) => this.move(e));
    svg.addEventListener("pointerup", () => this.up());
    svg.addEventListener("dblclick", (e) => {
      if (this.plan?.mode === "carry") {
        e.preventDefault();
        this.commit();
      }
    });
  }

  pointAt(e) {
    return this.board.view.tablePoint(e.clientX, e.clientY);
  }

  down(e) {
    if (e.button !== 0 || this.board.tools.active) return;
    if (this.offer && e.target.closest?.(".alternative")) {
      e.stopPropagation();
      this.takeOffer();
      return;
    }
    if (this.plan?.refused) this.end();
    if (this.plan?.pending) return;
    if (this.plan?.mode === "carry") {
      e.stopPropagation();
      return; // the click (pointerup) drops a waypoint
    }
    if (e.target.closest(".rotate-handle")) {
      const unit = this.board.store.unit(this.board.pieces.selected);
      if (!unit || !this.mayMove(unit)) return;
      this.begin(unit, "rotate");
      this.board.svg.setPointerCapture(e.pointerId);
      e.stopPropagation();
      return;
    }
    const g = e.target.closest(".piece");
    if (!g) return;
    if (e.shiftKey) return (e.stopPropagation(), this.board.group.toggle(g.dataset.unit));
    const unit = this.board.store.unit(g.dataset.unit);
    this.board.select(g.dataset.unit);
    // Keys picked for it (a transport's passengers): its drag or click sends the order.
    if (!unit || (this.extra?.unit !== unit.id && !this.mayMove(unit))) return;
    const at = this.pointAt(e);
    this.press = { unit, x: e.clientX, y: e.clientY, grab: [at[0] - unit.position[0], at[1] - unit.position[1]] };
    this.board.svg.setPointerCapture(e.pointerId);
    e.stopPropagation();
  }

  move(e) {
    // A proposed order (inturn.js) is the player's to drag elsewhere, as any piece.
    if (this.press && (!this.plan || this.plan.mode === "proposed") && Math.hypot(e.clientX - this.press.x, e.clientY - this.press.y) > dragSlop(e)) {
      // An action that is a turn in place (a free spin): the drag turns the piece.
      this.begin(this.press.unit, this.board.actions.spec()?.path === "turn" ? "rotate" : "drag", this.press.grab);
    }
    // A group's next order, proposed in turn (inturn.js), stays where it was proposed.
    if (!this.plan || this.plan.pending || this.plan.mode === "proposed") return;
    const at = this.pointAt(e);
    if (this.plan.mode === "rotate") {
      const [x, y] = this.plan.origin;
      const angle = (Math.atan2(at[1] - y, at[0] - x) * 180) / Math.PI;
      this.plan.facing = norm(Math.round(angle / 5) * 5);
    } else {
      this.plan.ghost = this.docked([round2(at[0] - this.plan.grab[0]), round2(at[1] - this.plan.grab[1])]);
    }
    this.changed();
  }

  up() {
    const extra = this.press && !this.plan ? this.extra : null;
    this.press = null;
    if (extra) { // a click on the piece the keys were picked for: the order where it stands
      this.extra = null;
      this.board.clearHint(this.carryHint);
      return this.board.command({ type: "act", seen: this.board.store.seq, action: extra }, `${this.board.store.name(extra.unit)}: ${this.board.actions.label(extra.type).toLowerCase()}`);
    }
    // A click without a drag only selects: a hidden pick-up would make the next drag a
    // mere waypoint, and the player's move would never be sent.
    if (!this.plan || this.plan.pending || this.plan.mode === "proposed") return; // Enter sends it
    if (this.plan.mode === "carry") this.waypoint();
    else this.commit();
  }

  begin(unit, mode, grab = [0, 0]) {
    this.dropOffer();
    this.board.select(unit.id);
    this.plan = {
      unit,
      mode,
      grab,
      origin: [...unit.position.slice(0, 2)],
      waypoints: [],
      ghost: [...unit.position.slice(0, 2)],
      facing: unit.facing ?? 0,
      rotateOnly: mode === "rotate",
      group: mode === "rotate" || mode === "proposed" ? null : this.board.group.spec(unit), // Shift-clicked pieces
      extra: this.extra?.unit === unit.id ? this.extra : null, // keys picked before the drag
      pending: false,
    };
    this.extra = null;
    this.board.inTurn.began(this.plan);
    this.verdict = this.adopted = this.altFor = null;
    this.board.svg.classList.add("planning");
    if (mode === "carry") this.board.setHint(this.carryHint = `Carrying ${this.board.store.name(unit.id)}: click to add a waypoint, Enter or double-click to drop, Esc cancels.`);
    this.refusalBox?.remove(); // the player acts: the last refusal has been read
    this.showHandle(null);
    this.changed();
  }

  waypoint() {
    if (!this.plan || this.plan.rotateOnly) return;
    const last = this.plan.waypoints.at(-1) ?? this.plan.origin;
    if (dist(last, this.plan.ghost) < 0.05) return;
    if (this.plan.waypoints.length >= (this.board.store.limits.path_steps ?? 64) - 2) return;
    this.plan.waypoints.push(this.atAltitude(this.plan.ghost));
    this.changed();
  }

  rotate(delta) {
    if (!this.plan || this.plan.pending) return false;
    this.plan.facing = norm(this.plan.facing + delta);
    this.changed();
    return true;
  }

  /** The plan's action: the engine's own way to this very drop where it was adopted. */
  action() {
    const plain = this.planned();
    return this.adoptedFor(plain) ?? plain;
  }

  adoptedFor(plain = this.planned()) {
    return this.adopted?.key === JSON.stringify(plain) ? this.adopted.action : null;
  }

  /** Whether a refusal may be answered with the engine's path: a single leg the player
   *  drew (waypoints are the player's own, never replaced), unless the server limited it. */
  mayAdopt() {
    const p = this.plan;
    return Boolean(p) && !p.rotateOnly && !p.group && !p.waypoints.length && !this.board.fiat() && performance.now() > (this.altOff ?? 0);
  }

  planned() {
    const p = this.plan;
    const start = p.unit.facing ?? 0;
    const turned = Math.abs(norm(p.facing - start)) > 0.01;
    if (p.rotateOnly) {
      const delta = ((norm(p.facing - start) + 540) % 360) - 180;
      return { unit: p.unit.id, type: this.board.actions.current, path: [{ turn: round2(delta) }] };
    }
    const spec = this.board.actions.spec(p.extra?.type);
    const points = [...p.waypoints, this.atAltitude(p.ghost)].map((q) => [...q]);
    const legs = facingLegs(p.unit, points, spec);
    const action = { unit: p.unit.id, type: this.board.actions.current, path: legs.path, ...p.extra };
    if (turned) action.facing = round2(p.facing);
    for (const key of spec?.target_keys ?? []) {
      const target = this.targetOf(p.unit, points, turned ? p.facing : legs.facing);
      if (target) action[key] = target;
    }
    return p.group ? this.board.group.action(action, p.group) : action;
  }

  /** Where the drag ends for an action with a target: dropped onto a piece, it stops in
   *  base contact with it, back along the last leg (a ram, a charge; gap under 0.01″). */
  docked(q) {
    const p = this.plan, from = p.waypoints.at(-1) ?? p.origin;
    if (!this.board.actions.spec(p.extra?.type)?.target_keys?.length) return q;
    const at = (t) => [from[0] + (q[0] - from[0]) * t, from[1] + (q[1] - from[1]) * t];
    let t = 1;
    for (const u of this.board.store.state.units) {
      if (u.id === p.unit.id || u.aboard || !u.position) continue;
      const gap = (s) => edgeDistance(footprint({ ...p.unit, position: at(s), facing: p.facing }), footprint(u));
      if (gap(1) > 0 || gap(0) <= 0.004) continue;
      let lo = 0, hi = 1;
      for (let i = 0; i < 24; i++) gap((lo + hi) / 2) > 0.004 ? (lo = (lo + hi) / 2) : (hi = (lo + hi) / 2);
      t = Math.min(t, lo);
    }
    return t < 1 ? at(t).map((v) => Math.round(v * 1000) / 1000) : q;
  }

  /** The piece the drag ends in base contact with, else the one its path runs over; an
   *  opposing piece before a friendly one (the catalogue's `target_keys`). */
  targetOf(unit, points, facing) {
    const end = footprint({ ...unit, position: points.at(-1), facing });
    const legs = [unit.position, ...points];
    let best = null;
    for (const u of this.board.store.state.units) {
      if (u.id === unit.id || u.aboard || !u.position) continue;
      const base = footprint(u), gap = edgeDistance(end, base);
      const over = legs.slice(1).some((q, i) => edgeDistance({ core: [legs[i], q], r: 0 }, base) === 0);
      const rank = (gap <= 0.1 ? 0 : over ? 1 : 9) + (u.side === unit.side ? 2 : 0) + Math.min(gap, 1) / 2;
      if (rank < 9 && (!best || rank < best.rank)) best = { rank, id: u.id };
    }
    return best?.id ?? null;
  }

  /** A path point at the altitude field's height, [x, y, z], where the piece may climb. */
  atAltitude(point) {
    const z = this.board.actions.altitude(this.plan.unit) ?? 0;
    return z > 0 ? [point[0], point[1], z] : [point[0], point[1]];
  }

  moved() {
    const p = this.plan;
    return p.waypoints.length > 0 || dist(p.origin, p.ghost) > 0.01 || Math.abs(norm(p.facing - (p.unit.facing ?? 0))) > 0.01;
  }

  changed() {
    this.draw();
    if (this.board.fiat()) return;
    clearTimeout(this.timer);
    const wait = Math.max(0, PREVIEW_MS - (performance.now() - this.lastSent));
    this.timer = setTimeout(() => this.sendPreview(), wait);
  }

  sendPreview() {
    if (!this.plan || this.plan.pending || !this.moved()) return;
    // One engine request at a time (protocol.md, Limits per user): wait for the alternative.
    if (this.altBusy()) return void (this.timer = setTimeout(() => this.sendPreview(), 50));
    const action = this.action(), alt = this.altFor === JSON.stringify(action) && this.mayAdopt();
    const wait = alt ? (this.altAt ?? -1e9) + ALT_MS - performance.now() : 0; // rests, spaced
    if (wait > 0) return void (this.timer = setTimeout(() => this.sendPreview(), wait));
    this.lastSent = performance.now();
    this.preview(action, alt);
  }

  preview(action, alternative = false) {
    this.ref += 1;
    this.sentKey = JSON.stringify(action);
    if (alternative) [this.altKey, this.altRef, this.altAt] = [this.sentKey, this.ref, performance.now()];
    this.board.conn.send({ type: "preview", ref: `drag-${this.ref}`, action, ...(alternative && { alternative }) });
  }

  altBusy() {
    return Boolean(this.altRef) && this.lastAlt?.ref !== this.altRef && performance.now() - this.altAt < 1500;
  }

  /** A verdict frame for one of our previews: newest wins, stale answers are dropped. */
  onVerdict(frame) {
    const n = Number(String(frame.ref ?? "").replace("drag-", ""));
    if (n === this.altRef) this.lastAlt = { ref: n, key: this.altKey, seq: frame.seq, alternative: frame.alternative ?? null };
    if (!this.plan || !(n >= this.shownRef)) return false;
    this.shownRef = n;
    this.verdict = frame.verdict;
    this.judged = n === this.ref ? this.sentKey : null; // the action this verdict is on
    const alt = frame.alternative, p = this.plan, plain = JSON.stringify(this.planned());
    if (n === this.altRef && alt && alt.off_by < 0.01 && sameBut(alt.action, JSON.parse(plain)) && this.altKey === plain && this.mayAdopt()) {
      this.adopted = { key: this.altKey, action: alt.action };
      this.verdict = { ...frame.verdict, legal: true, cost: alt.cost, reasons: [], rolls: [], consequences: null };
      if (!p.pending) return (this.changed(), true); // its own verdict (and consequences) next
    } else if (frame.verdict && !frame.verdict.legal && this.judged === plain && this.altFor !== plain && this.mayAdopt()) {
      this.altFor = this.judged; // the pointer rests on a refused single leg: ask once more
      if (!p.pending) this.changed();
    }
    this.draw();
    if (this.plan.judging && this.plan.judging === this.judged) this.commit();
    return true;
  }

  draw() {
    if (!this.plan) return;
    const p = this.plan, colour = this.board.pieces.colour(p.unit.side);
    // The ghost faces where the proposal's turns leave it, unless the player turned it.
    const start = p.unit.facing ?? 0;
    let facing = p.rotateOnly || Math.abs(norm(p.facing - start)) > 0.01 ? p.facing : facingLegs(p.unit, [...p.waypoints, p.ghost], this.board.actions.spec(p.extra?.type)).facing;
    // The engine's action adopted for this drop: its path and the facing its turns leave.
    const a = this.adoptedFor(), path = a?.path ?? [];
    if (a) facing = a.facing ?? path.reduce((f, s) => (s.turn == null ? f : norm(f + s.turn)), start);
    const note = a && (path[0]?.turn != null ? "turns first: the engine's path" : "the engine's path");
    this.board.overlay.showPlan({ ...p, facing, route: a && pathPoints(p.origin, path), note }, colour, this.verdict, { fiat: this.board.fiat() });
    this.board.group.ghosts(this.plan, this.board.overlay.plan, colour);
  }

  /** Esc: drops the plan (and a press not yet a drag), and an offered alternative; the
   *  release that follows commits nothing, as the press is forgotten. */
  cancel() {
    const pressed = this.press !== null || Boolean(this.extra);
    this.press = this.extra = null;
    if (this.offer && !this.plan) {
      this.dropOffer();
      return true;
    }
    if (!this.plan || (this.plan.pending && !this.plan.asking)) return pressed;
    this.end();
    return true;
  }

  end() {
    clearTimeout(this.timer);
    const p = this.plan;
    p?.box?.remove();
    this.plan = null;
    this.verdict = null;
    this.board.overlay.clearPlan();
    this.board.svg.classList.remove("planning");
    this.board.clearHint(this.carryHint);
    this.showHandle(this.board.pieces.selected);
    if (p) this.board.inTurn.ended(p); // a group's next order, if it moves in turn
  }

  commit() {
    if (this.plan?.asking && !this.plan.judging) return this.plan.yes();
    if (!this.plan || (this.plan.pending && !this.plan.judging)) return;
    if (!this.moved()) {
      this.end();
      return;
    }
    clearTimeout(this.timer);
    const p = this.plan;
    if (!this.board.fiat() && this.asks(p)) return;
    p.pending = true;
    p.id = newId(this.board.fiat() ? "fiat" : "act");
    this.board.inTurn.sent(p);
    if (this.board.fiat()) {
      const reason = this.board.fiatReason();
      this.board.conn.send({ type: "fiat", id: p.id, unit: p.unit.id, position: [...p.ghost], facing: round2(p.facing), ...(reason ? { reason } : {}) });
      this.board.clearFiatReason(); // a reason is for one fiat, not the next
    } else {
      this.send(p, this.action());
    }
    this.draw();
  }

  /** A move that loses the player's own piece is asked once, on the verdict of this very
   *  action (ui.md, "One truth"): true while that verdict, or the answer, is awaited. */
  asks(p) {
    if (p.confirmed) return false;
    p.pending = p.asking = true; // the ghost stays where it was dropped
    const key = JSON.stringify(this.action());
    if (this.judged !== key && p.judging !== key) {
      p.judging = key; // the drop outran its preview: judged first (or after 2 s, on the last)
      if (!(this.altBusy() && this.altKey === key)) this.preview(this.action(), this.mayAdopt() && !this.adoptedFor());
      setTimeout(() => this.plan === p && p.judging && ((this.judged = key), this.commit()), 2000);
      return true;
    }
    p.judging = null;
    const loss = ownLoss(this.verdict);
    if (!loss) return (p.pending = p.asking = false);
    p.yes = () => ((p.box.remove(), (p.confirmed = true), (p.pending = p.asking = false)), this.commit());
    p.box = askLoss(this.board, loss, () => this.plan === p && p.yes(), () => this.plan === p && this.end());
    this.draw();
    return true;
  }

  /** Sends the plan's order; kept, as a refused order's ruling is saved with it (record.js). */
  send(p, action) {
    p.seen = this.board.store.seq;
    p.sent = action;
    this.board.conn.send({ type: "act", id: p.id, seen: p.seen, action });
  }

  /** The answer to our act/fiat: a refusal snaps the ghost back with the reasons. */
  onAnswer(frame) {
    // An alternative the server's limits dropped: none asked for a while (today's plan).
    if (frame.code === "rate_limited" && this.altRef && frame.ref === `drag-${this.altRef}`) {
      [this.altRef, this.altOff] = [0, performance.now() + 5000];
      if (this.plan && !this.plan.pending) this.changed();
      return true;
    }
    // The latest preview dropped while another was judged (protocol.md, preview): sent
    // again, or a plan that stopped moving (the keys' last step) would wait unjudged.
    if (frame.code === "rate_limited" && frame.ref === `drag-${this.ref}` && this.plan && !this.plan.pending) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.sendPreview(), PREVIEW_MS);
      return true;
    }
    const p = this.plan;
    if (!p?.pending || (frame.id ?? frame.ref) !== p.id) return false;
    if (p.refused) return true; // already shown, from its event (a refusal with a consequence)
    if (frame.type === "ack") {
      p.seq = frame.seq;
      if (this.board.store.seq >= frame.seq) this.end();
      return true;
    }
    const reasons = frame.type === "reject" ? frame.reasons : [{ code: frame.code, message: frame.message, rule: frame.rule }];
    p.refused = true;
    const stale = reasons.some((r) => r.code === "stale");
    // "Bob moved first": name who, once their event is here (it may trail the refusal).
    const shown = () => {
      const words = reasons.map((r) => reasonNode(r, this.board.store, { unit: p.unit.id, seen: p.seen }));
      // Kept until the player acts or dismisses it: its offer is taken from it.
      const box = this.board.toasts.show(`${this.board.store.name(p.unit.id)}: move refused`, words, "error", 0);
      // The rules refused it: its ruling may be saved (record.js, loaded on demand).
      if (frame.verdict) import("./record.js").then((record) => record.offerRuling(this.board, box, p.id, p.sent));
      this.refusalBox = box;
    };
    if (stale) this.board.store.whenAt(frame.seq ?? 0, shown, 1500);
    else shown();
    this.verdict = frame.verdict ?? { legal: false, cost: 0, allowance: 0, reasons };
    this.draw();
    this.snapBack();
    if (frame.verdict && p.sent && !this.board.fiat()) this.askOffer(p);
    return true;
  }

  // -- the nearest legal alternative (ui.md, "Moving a piece" 4)

  /** Asks the referee, once, for the legal end nearest to the refused drop. */
  askOffer(p) {
    if (this.altBusy()) return void setTimeout(() => this.askOffer(p), 50); // one at a time
    const seq = this.board.store.seq, known = this.lastAlt;
    this.offerRef += 1;
    this.offerAsked = { ref: `alt-${this.offerRef}`, unit: p.unit, seq };
    // Asked already while dragging, for this very action on this table: the same answer.
    if (known?.key === JSON.stringify(p.sent) && known.seq === seq) return void this.onOffer({ ref: this.offerAsked.ref, alternative: known.alternative });
    this.board.conn.send({ type: "preview", ref: this.offerAsked.ref, action: p.sent, alternative: true });
  }

  /** The answer to askOffer: the alternative is drawn and offered, if there is one. */
  onOffer(frame) {
    const asked = this.offerAsked;
    if (!asked || frame.ref !== asked.ref) return false;
    this.offerAsked = null;
    const unit = this.board.store.unit(asked.unit.id);
    if (!frame.alternative || !unit || this.board.store.seq !== asked.seq || (this.plan && !this.plan.refused)) return true;
    this.offer = { ...frame.alternative, unit };
    this.board.overlay.showOffer(this.offer, this.board.pieces.colour(unit.side));
    const line = `Nearest legal end: ${Number(frame.alternative.off_by).toFixed(1)}″ from your drop, shown in green. Enter or click it to move there.`;
    if (this.refusalBox?.isConnected) {
      const list = this.refusalBox.querySelector("ul") ?? this.refusalBox.appendChild(document.createElement("ul"));
      const li = item("li", "alternative-line", line);
      const take = item("button", "take-alternative", "Move there");
      take.type = "button";
      take.addEventListener("click", () => this.takeOffer());
      li.append(" ", take);
      list.append(li);
    } else this.refusalBox = this.board.toasts.show(`${this.board.store.name(unit.id)}: a legal move nearby`, [line], "info", 0);
    this.board.setHint((this.offerHint = line));
    return true;
  }

  dropOffer() {
    if (!this.offer) return;
    this.offer = null;
    this.board.overlay?.clearOffer();
    this.board.clearHint(this.offerHint);
    this.refusalBox?.querySelector(".take-alternative")?.setAttribute("disabled", "");
  }

  /** Whether Enter now takes an offered alternative (whatever has focus: keys.js). */
  get offerOpen() {
    return Boolean(this.offer) && (!this.plan || this.plan.refused);
  }

  /** Sends the offered alternative as the order (Enter, or a click on it). */
  takeOffer() {
    const offer = this.offer;
    if (!offer || (this.plan?.pending && !this.plan.refused)) return false;
    if (this.plan) this.end();
    const unit = this.board.store.unit(offer.unit.id);
    this.dropOffer();
    if (!unit) return false;
    this.board.actions.current = offer.action.type;
    this.begin(unit, "drag");
    const points = (offer.action.path ?? []).filter(Array.isArray);
    this.plan.waypoints = points.slice(0, -1).map((q) => [...q]);
    this.plan.ghost = [...(points.at(-1) ?? offer.end)];
    if (offer.action.facing != null) this.plan.facing = offer.action.facing;
    const p = this.plan;
    p.pending = true;
    p.id = newId("act");
    this.send(p, offer.action);
    this.draw();
    return true;
  }

  snapBack() {
    const p = this.plan;
    const from = [...p.ghost];
    const started = performance.now();
    const step = (now) => {
      if (this.plan !== p) return;
      const k = Math.min(1, (now - started) / 350);
      p.ghost = [from[0] + (p.origin[0] - from[0]) * k, from[1] + (p.origin[1] - from[1]) * k];
      this.draw();
      if (k < 1) requestAnimationFrame(step);
      else setTimeout(() => this.plan === p && this.end(), 1200);
    };
    requestAnimationFrame(step);
  }

  /** A table event arrived: our committed move is now the table's; other changes void a plan. */
  onEvent(frame) {
    // An offer was judged on the table before this event; it is void once the table moves.
    if (["act", "fiat", "undo", "turn"].includes(frame.kind)) this.dropOffer();
    const p = this.plan;
    if (!p) return;
    if (p.pending && frame.id === p.id && frame.verdict?.legal === false) {
      // Refused, yet committed (a failed breakaway spends the order): show why
      // once, whichever of this event and the sender's reject arrives first.
      if (!p.refused) this.onAnswer({ type: "reject", id: p.id, reasons: frame.verdict.reasons ?? [], verdict: frame.verdict });
      return;
    }
    if (p.pending && (frame.id === p.id || (p.seq && frame.seq >= p.seq))) this.end();
    else if (!p.pending && ["act", "fiat", "undo"].includes(frame.kind) && (frame.units ?? []).some((u) => u.id === p.unit.id)) {
      this.end();
      this.board.toasts.show("The piece was moved meanwhile; the plan was dropped.");
    }
  }

  /** The rotation handle, in front of the selected piece when it may be ordered. */
  showHandle(id) {
    const unit = id ? this.board.store.unit(id) : null;
    if (!unit || this.plan || !this.mayMove(unit) || this.board.fiat()) {
      this.handle.setAttribute("visibility", "hidden");
      return;
    }
    const base = unit.base ?? {};
    const front = (base.shape === "rect" ? base.length : base.diameter ?? 1) / 2;
    const reach = front + 0.9;
    const [x, y] = unit.position;
    this.handle.setAttribute("transform", `translate(${x} ${y}) rotate(${unit.facing ?? 0})`);
    const stem = this.handle.querySelector("line");
    stem.setAttribute("x1", front);
    stem.setAttribute("x2", reach - 0.35);
    this.handle.querySelector("circle").setAttribute("cx", reach);
    this.handle.setAttribute("visibility", "visible");
  }

  /** Enter: commit a plan, or pick the selected piece up. */
  enter() {
    if (this.offerOpen) return this.takeOffer();
    if (this.plan?.refused) this.end(); // snapping back: as a press does (down), a new plan
    if (this.plan) {
      this.commit();
      return true;
    }
    const unit = this.board.store.unit(this.board.pieces.selected);
    if (unit && this.mayMove(unit)) {
      this.begin(unit, "carry");
      return true;
    }
    return false;
  }
}
