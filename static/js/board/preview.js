// @ts-check
// The server's verdict on a planned move, drawn where it happens, and the reach overlay.
import { consequenceLines, ownLoss } from "./consequences.js";
import { fmt, pathPoints, splitAt } from "./geometry.js";
import { drawBase } from "./pieces.js";
import { item } from "./panels/util.js";
import { arrange, el, geoPath, keepInside, label, polyline } from "./svg.js";

const NUMBER = String.raw`-?\d+(?:\.\d+)?`;
// "at (7.4, 10)": the marker shows where; the player never reads coordinates.
const COORDINATES = new RegExp(String.raw`\s*(?:(?:at|from|to)\s+)?\(\s*${NUMBER}\s*,\s*${NUMBER}\s*(?:,\s*${NUMBER}\s*)?\)`, "g");

/** Who changed the table after `seen`, in words, for a stale refusal. */
function staleText(store, seen) {
  const change = store?.lastChange;
  const who = change && (seen == null || change.seq > seen) ? change.actor : null;
  const mover = !who ? "Another player" : who === store.me.user ? "You" : who;
  return `${mover} moved first; your board is up to date, try again`;
}

/** A reason's message in a player's words (ui.md): names, terrain labels, no coordinates.
 *  `unit`: the unit it is shown under; `seen`: the seq the order was sent at. */
export function reasonText(reason, store = null, { unit = null, seen = null } = {}) {
  if (reason.code === "stale") return staleText(store, seen);
  let message = String(reason.message || reason.code).replace(COORDINATES, "");
  if (store) {
    const terrain = store.state?.terrain ?? [];
    for (const kind of store.terrainKinds ?? []) {
      const label = String(kind.label ?? kind.type).toLowerCase();
      // "blocking terrain R1 (blocking)" says it twice; "(deep_water)" in words.
      const inParens = new RegExp(String.raw`\s*\(${kind.type}\)`, "g");
      message = message.replace(inParens, message.toLowerCase().includes(label) ? "" : ` (${label})`);
      if (kind.type.includes("_")) message = message.replaceAll(kind.type, label);
    }
    const names = new Map(terrain.filter((t) => typeof t.name === "string" && t.name).map((t) => [t.id, t.name]));
    message = message.replace(/[\w-]+/g, (word) => names.get(word) ?? store.name(word));
    if (unit) {
      const name = store.name(unit);
      if (message.startsWith(`${name}: `)) message = message.slice(name.length + 2);
    }
  }
  message = message.replace(/\s{2,}/g, " ").replace(/\s+([,.;])/g, "$1").replace(/[,;]\s*$/, "").trim();
  if (message) message = message[0].toUpperCase() + message.slice(1);
  return message;
}

// A reason's rule: its name ("Turn order, table rules"), then with the citation behind it.
const ruleOf = (r) => r.rule && [r.rule, r.cite ? `${r.rule}: ${r.cite}` : r.rule];

/** A reason as read in every system: the message, then the rule's name, small, its
 *  citation in the tooltip and read out (ui.md). */
export function reasonNode(reason, store = null, where = {}) {
  const node = item("span", "reason", reasonText(reason, store, where));
  ruleNote(node, reason);
  return node;
}

export function ruleNote(node, reason) {
  const rule = ruleOf(reason);
  if (!rule) return;
  const small = node.appendChild(item("small", "rule", rule[0]));
  small.title = reason.cite ?? "";
  small.setAttribute("role", "note");
  small.setAttribute("aria-label", `Rule: ${rule[1]}`);
}

/** The same on an svg label, as a tspan line with a <title>. */
function ruleLine(tag, reason, x) {
  const rule = ruleOf(reason);
  if (!rule) return;
  const title = el("title", {}, el("tspan", { x, dy: "1.2em", class: "rule" }, tag));
  title.textContent = rule[1];
  title.before(rule[0]);
}

/** A verdict's lines as the preview shows them: cost / allowance first, then the reasons
 *  `shown` keeps (as [text, reason]), then what the drop does besides moving. The board
 *  draws them by the ghost; the keyboard's readout says them (keymove.js).
 *  @param {(reason: object) => boolean} [shown]
 *  @returns {(string | [string, object])[]} */
export function verdictLines(verdict, store, u = "″", shown = () => true) {
  const left = verdict.allowance - verdict.cost;
  /** @type {(string | [string, object])[]} */
  const lines = [`${fmt(verdict.cost)}${u} / ${fmt(verdict.allowance)}${u} · ${fmt(Math.max(0, left))}${u} left`];
  for (const reason of verdict.reasons ?? []) if (shown(reason)) lines.push([reasonText(reason, store), reason]);
  // A preview rolls no dice: the roll a drop would make, and what it needs.
  // What the drop does besides moving, in the engine's words (a loss, a roll, ...).
  if (verdict.consequences) lines.push(...consequenceLines(verdict, store));
  else for (const roll of verdict.rolls ?? []) if (roll.pending) lines.push(`on drop: ${roll.what} roll, ${roll.needed} on ${roll.die}`);
  return lines;
}

export class Overlay {
  constructor(table, labels, store = null) {
    this.store = store;
    this.reach = el("g", { class: "reach" }, table);
    this.plan = el("g", { class: "plan" }, table);
    this.offer = el("g", { class: "offer" }, table);
    this.planLabels = el("g", { class: "plan-labels" }, labels);
    this.offerLabels = el("g", { class: "offer-labels" }, labels);
    // The reach layer sits under the pieces; the plan above them.
    table.insertBefore(this.reach, table.querySelector("g.pieces"));
    this.height = 0;
    this.costSuffix = "″"; // what a cost counts, after the number: ″ (inches) or " MP"
    // A zoom or pan lays the labels out again, inside the view.
    new MutationObserver(() => requestAnimationFrame(() => this.arrange?.())).observe(table.ownerSVGElement, { attributeFilter: ["viewBox"] });
  }

  svgY(y) {
    return this.height - y;
  }

  clearPlan() {
    this.plan.replaceChildren();
    this.planLabels.replaceChildren();
    this.arrange = null;
  }

  /** plan: {unit, origin, waypoints, ghost, facing, pending}; verdict: the server's, or null. */
  showPlan(plan, colour, verdict, { fiat = false } = {}) {
    this.clearPlan();
    const points = plan.rotateOnly ? [plan.origin] : plan.route ?? pathPoints(plan.origin, [...plan.waypoints, plan.ghost]);
    const first = verdict && !verdict.legal ? verdict.reasons.find((r) => Array.isArray(r.at)) : null;
    const [good, bad] = first ? splitAt(points, first.at) : [points, []];
    const state = fiat ? "fiat" : !verdict ? "pending" : verdict.legal ? "legal" : first ? "legal" : "illegal";
    if (good.length > 1) polyline(this.plan, good, { class: `path path-${state}` });
    if (bad.length > 1) polyline(this.plan, bad, { class: "path path-illegal" });
    for (const p of plan.waypoints) el("circle", { class: "waypoint", cx: p[0], cy: p[1], r: 0.25 }, this.plan);
    const ghost = el("g", { class: `ghost${plan.pending ? " pending" : ""}`, transform: `translate(${plan.ghost[0]} ${plan.ghost[1]}) rotate(${plan.facing})` }, this.plan);
    drawBase(ghost, plan.unit, colour);
    const marks = [];
    for (const reason of verdict?.reasons ?? []) {
      if (!Array.isArray(reason.at)) continue;
      const [x, y] = reason.at;
      el("circle", { class: "violation", cx: x, cy: y, r: 0.35 }, this.plan);
      const mark = label(this.planLabels, reasonText(reason, this.store), x, this.svgY(y) - 0.6, "violation-text");
      ruleLine(mark, reason, x);
      marks.push(mark);
    }
    const lines = [];
    if (fiat) lines.push("by fiat: no rules check");
    else if (!verdict) lines.push("asking the referee…");
    else {
      const [cost, ...rest] = verdictLines(verdict, this.store, this.costSuffix, (r) => !Array.isArray(r.at));
      lines.push(cost);
      if (plan.note) lines.push(plan.note); // the plan is the engine's own way there
      lines.push(...rest);
    }
    const tag = label(this.planLabels, "", plan.ghost[0], this.svgY(plan.ghost[1]) + 1.6, `cost-text ${verdict ? (verdict.legal ? "ok" : "bad") : ""}${ownLoss(verdict) ? " warn" : ""}`);
    lines.forEach((line, i) => {
      const [text, reason] = Array.isArray(line) ? line : [line];
      el("tspan", { x: plan.ghost[0], dy: i ? "1.25em" : 0 }, tag).textContent = text;
      if (reason) ruleLine(tag, reason, plan.ghost[0]);
    });
    this.arrange = () => arrange(this.planLabels, [tag, ...marks]);
    this.arrange();
  }

  /** The server's nearest legal alternative to a refused drop; a click or Enter sends it. */
  showOffer(offer, colour) {
    this.clearOffer();
    if (!offer) return;
    const group = el("g", { class: "alternative", role: "button", tabindex: 0, "aria-label": "Move to the nearest legal end" }, this.offer);
    group.style.cursor = "pointer";
    const points = pathPoints(offer.unit.position, offer.action.path ?? []);
    polyline(group, points, { class: "alternative-path" });
    const facing = offer.action.facing ?? offer.unit.facing ?? 0;
    const ghost = el("g", { class: "alternative-ghost", transform: `translate(${offer.end[0]} ${offer.end[1]}) rotate(${facing})`, opacity: 0.75 }, group);
    drawBase(ghost, offer.unit, colour);
    const radius = (offer.unit.base?.shape === "rect" ? Math.hypot(offer.unit.base.length, offer.unit.base.width) / 2 : (offer.unit.base?.diameter ?? 1) / 2) + 0.3;
    el("circle", { class: "alternative-ring", cx: offer.end[0], cy: offer.end[1], r: radius }, group);
    const tag = label(this.offerLabels, `Nearest legal · ${fmt(offer.off_by)}″ short · Enter or click`, offer.end[0], this.svgY(offer.end[1]) - radius - 0.5, "alternative-text");
    keepInside(tag);
    return group;
  }

  clearOffer() {
    this.offer.replaceChildren();
    this.offerLabels.replaceChildren();
  }

  showReach(geometry) {
    this.reach.replaceChildren();
    if (geometry) geoPath(this.reach, geometry, { class: "reach-area" });
  }
}
