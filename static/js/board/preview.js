// What the server said about a planned move, drawn where it happens: the ghost, the
// path (green while legal, red from the first violation), a marker with the reason
// and its citation at each violation, cost / allowance by the ghost; and the reach
// overlay (the area the piece may legally end in).
import { fmt, pathPoints, splitAt } from "./geometry.js";
import { drawBase } from "./pieces.js";
import { el, geoPath, keepInside, label, polyline, unoverlap } from "./svg.js";

/** A reason as the player reads it: unit ids named as the roster names them ("Atlas
 *  needs 16″", not "U7 needs 16″") when a store with labels is given, and the rule cited. */
export function reasonText(reason, store = null) {
  let message = reason.message || reason.code;
  if (store) message = message.replace(/[\w-]+/g, (word) => store.name(word));
  const cite = reason.cite && !message.includes(reason.cite) ? ` (${reason.cite})` : "";
  return `${message}${cite}`;
}

export class Overlay {
  constructor(table, labels, store = null) {
    this.store = store;
    this.reach = el("g", { class: "reach" }, table);
    this.plan = el("g", { class: "plan" }, table);
    this.planLabels = el("g", { class: "plan-labels" }, labels);
    // The reach layer sits under the pieces; the plan above them.
    table.insertBefore(this.reach, table.querySelector("g.pieces"));
    this.height = 0;
    this.costSuffix = "″"; // what a cost counts, after the number: ″ (inches) or " MP"
  }

  svgY(y) {
    return this.height - y;
  }

  clearPlan() {
    this.plan.replaceChildren();
    this.planLabels.replaceChildren();
  }

  /** plan: {unit, origin, waypoints, ghost, facing, pending}; verdict: the server's, or null. */
  showPlan(plan, colour, verdict, { fiat = false } = {}) {
    this.clearPlan();
    const points = plan.rotateOnly ? [plan.origin] : pathPoints(plan.origin, [...plan.waypoints, plan.ghost]);
    const first = verdict && !verdict.legal ? verdict.reasons.find((r) => Array.isArray(r.at)) : null;
    const [good, bad] = first ? splitAt(points, first.at) : [points, []];
    const state = fiat ? "fiat" : !verdict ? "pending" : verdict.legal ? "legal" : first ? "legal" : "illegal";
    if (good.length > 1) polyline(this.plan, good, { class: `path path-${state}` });
    if (bad.length > 1) polyline(this.plan, bad, { class: "path path-illegal" });
    for (const p of plan.waypoints) el("circle", { class: "waypoint", cx: p[0], cy: p[1], r: 0.25 }, this.plan);
    const ghost = el("g", { class: `ghost${plan.pending ? " pending" : ""}`, transform: `translate(${plan.ghost[0]} ${plan.ghost[1]}) rotate(${plan.facing})` }, this.plan);
    drawBase(ghost, plan.unit, colour);
    const line = 16 * Number(getComputedStyle(this.plan.ownerSVGElement).getPropertyValue("--px") || 0.05);
    const marks = [];
    for (const reason of verdict?.reasons ?? []) {
      if (!Array.isArray(reason.at)) continue;
      const [x, y] = reason.at;
      el("circle", { class: "violation", cx: x, cy: y, r: 0.35 }, this.plan);
      marks.push(label(this.planLabels, reasonText(reason, this.store), x, this.svgY(y) - 0.6, "violation-text"));
    }
    const lines = [];
    if (fiat) lines.push("by fiat: no rules check");
    else if (!verdict) lines.push("asking the referee…");
    else {
      const left = verdict.allowance - verdict.cost;
      const u = this.costSuffix;
      lines.push(`${fmt(verdict.cost)}${u} / ${fmt(verdict.allowance)}${u} · ${fmt(Math.max(0, left))}${u} left`);
      for (const reason of verdict.reasons) if (!Array.isArray(reason.at)) lines.push(reasonText(reason, this.store));
      // A preview rolls no dice: the roll a drop would make, and what it needs.
      for (const roll of verdict.rolls ?? []) if (roll.pending) lines.push(`on drop: ${roll.what} roll, ${roll.needed} on ${roll.die}`);
    }
    const tag = label(this.planLabels, "", plan.ghost[0], this.svgY(plan.ghost[1]) + 1.6, `cost-text ${verdict ? (verdict.legal ? "ok" : "bad") : ""}`);
    lines.forEach((text, i) => {
      const span = el("tspan", { x: plan.ghost[0], dy: i ? "1.25em" : 0 }, tag);
      span.textContent = text;
    });
    keepInside(tag);
    // Reasons near one another, or near the cost by the ghost, move up instead of overprinting.
    marks.forEach(keepInside);
    unoverlap([tag], marks, line);
  }

  showReach(geometry) {
    this.reach.replaceChildren();
    if (geometry) geoPath(this.reach, geometry, { class: "reach-area" });
  }
}
