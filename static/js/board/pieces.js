// The pieces: each unit's base at its true size and shape, its facing notch, its side's
// colour, and a label that keeps its screen size. Keyed by unit id: an update moves a
// piece rather than redrawing the table.
import { el, meets, pxOf, sideColour, userBox } from "./svg.js";

const BADGES = [
  ["shutdown", "shut down"],
  ["captive_of", "captive"],
  ["aboard", "aboard"],
  ["running", "running"],
  ["evade", "evading"],
];

export function badgesOf(unit) {
  return BADGES.filter(([key]) => unit[key]).map(([, name]) => name);
}

/** Draws a base (in table coordinates, rotated by facing) into `group`. */
export function drawBase(group, unit, colour, cls = "base") {
  const base = unit.base ?? { shape: "circle", diameter: 1 };
  let front;
  if (base.shape === "rect") {
    el("rect", { class: cls, x: -base.length / 2, y: -base.width / 2, width: base.length, height: base.width, fill: colour }, group);
    front = base.length / 2;
  } else {
    el("circle", { class: cls, r: base.diameter / 2, fill: colour }, group);
    front = base.diameter / 2;
  }
  // The facing notch: a pale wedge pointing to the front edge.
  const k = Math.min(front, 1.2);
  el("polygon", { class: "notch", points: `${front - 0.04},0 ${front - 0.55 * k},${0.32 * k} ${front - 0.55 * k},${-0.32 * k}` }, group);
  return front;
}

export class Pieces {
  constructor(layer, labels, store) {
    this.layer = layer;
    this.labels = labels;
    this.store = store;
    this.nodes = new Map(); // id -> {g, label, unit}
    this.selected = null;
    this.height = 0;
    this.animating = new Map();
    this.pending = 0;
    // Names are laid out again at each zoom and pan: their screen size stays, the table's does not.
    new MutationObserver(() => this.declutter()).observe(labels.ownerSVGElement, { attributeFilter: ["viewBox"] });
  }

  /** Soon (once a frame): each name below, above, right or left of its piece (or a line
   *  further below or above), the first place where it overprints no name placed before it
   *  (the selected piece's first), no other base and no terrain name; with none free it is
   *  hidden, and the piece's title (on hover) still names it. */
  declutter() {
    this.pending ||= requestAnimationFrame(() => {
      this.pending = 0;
      const svg = this.labels.ownerSVGElement;
      if (!svg.getScreenCTM()) return;
      const gap = 2 * pxOf(svg);
      const nodes = [...this.nodes.values()].filter((n) => n.at).sort((a, b) => (b.unit.id === this.selected) - (a.unit.id === this.selected));
      const bases = [...nodes.map((n) => n.g.querySelector(".base")), ...svg.querySelectorAll(".terrain-label")].map((n) => userBox(svg, n.getBoundingClientRect()));
      const names = [];
      const spots = nodes.map((node) => {
        const { label, at: [x] } = node;
        const b = label.getBBox(), [w, h] = [b.width, b.height], r = node.radius + gap, y = this.height - node.at[1];
        const dy = b.y - Number(label.getAttribute("y")); // the text's top below its y
        return [[x, y + r], [x, y - r - h], [x + r + w / 2, y - h / 2], [x - r - w / 2, y - h / 2], [x, y + r + h], [x, y - r - 2 * h]].map(([cx, top]) => ({ x: cx - w / 2, y: top, width: w, height: h, at: [cx, top - dy] }));
      });
      nodes.forEach((node, i) => {
        const spot = spots[i].find((box) => !names.some((o) => meets(box, o)) && !bases.some((o, j) => j !== i && meets(box, o)));
        node.label.setAttribute("visibility", spot ? "visible" : "hidden");
        if (!spot) return;
        node.label.setAttribute("x", spot.at[0]);
        node.label.setAttribute("y", spot.at[1]);
        names.push(spot);
      });
    });
  }

  colour(side) {
    return sideColour(this.store.sides(), side);
  }

  render(units, height) {
    this.height = height;
    const seen = new Set();
    for (const unit of units) {
      if (unit.aboard) continue; // off the table, inside its transport
      seen.add(unit.id);
      const node = this.nodes.get(unit.id);
      if (!node || JSON.stringify(node.unit.base) !== JSON.stringify(unit.base) || node.unit.side !== unit.side) {
        node?.g.remove();
        node?.label.remove();
        this.create(unit);
      } else {
        node.unit = unit;
        this.updateLabel(node);
      }
      if (!this.animating.has(unit.id)) this.place(unit.id, unit.position, unit.facing ?? 0);
    }
    for (const [id, node] of this.nodes) {
      if (!seen.has(id)) {
        node.g.remove();
        node.label.remove();
        this.nodes.delete(id);
      }
    }
    this.select(this.selected && this.nodes.has(this.selected) ? this.selected : null);
    this.declutter();
  }

  create(unit) {
    const g = el("g", { class: "piece", tabindex: 0, role: "button" }, this.layer);
    g.dataset.unit = unit.id;
    g.dataset.side = unit.side;
    const front = drawBase(g, unit, this.colour(unit.side));
    const base = unit.base ?? {};
    if (base.shape === "rect") el("rect", { class: "ring", x: -front - 0.25, y: -base.width / 2 - 0.25, width: 2 * front + 0.5, height: base.width + 0.5, rx: 0.2 }, g);
    else el("circle", { class: "ring", r: front + 0.25 }, g);
    el("title", {}, g);
    const label = el("text", { class: "label piece-label" }, this.labels);
    label.dataset.unit = unit.id;
    const node = { g, label, unit, radius: Math.max(front, (base.width ?? 0) / 2) };
    this.nodes.set(unit.id, node);
    this.updateLabel(node);
  }

  updateLabel(node) {
    const { unit } = node;
    const name = this.store.name(unit.id);
    const badges = badgesOf(unit);
    node.label.replaceChildren();
    node.label.textContent = name.length > 22 ? `${name.slice(0, 21)}…` : name;
    if (badges.length) {
      const tspan = el("tspan", { class: "badge", dx: "0.4em" }, node.label);
      tspan.textContent = badges.join(" · ");
    }
    node.g.querySelector("title").textContent = `${name} (${unit.side}, ${unit.type ?? "unit"})${badges.length ? ": " + badges.join(", ") : ""}`;
    node.g.setAttribute("aria-label", `${name}, side ${unit.side}`);
    node.g.classList.toggle("has-badges", badges.length > 0);
  }

  place(id, [x, y], facing) {
    const node = this.nodes.get(id);
    if (!node) return;
    node.g.setAttribute("transform", `translate(${x} ${y}) rotate(${facing})`);
    node.label.setAttribute("x", x);
    node.label.setAttribute("y", this.height - y + node.radius);
    node.at = [x, y];
    this.declutter();
  }

  select(id) {
    if (this.selected) this.nodes.get(this.selected)?.g.classList.remove("selected");
    this.selected = id;
    if (id) this.nodes.get(id)?.g.classList.add("selected");
  }

  /** Glides a piece along `points` (table coordinates), turning to `facing` on the way. */
  glide(id, points, fromFacing, toFacing, ms = 700) {
    const node = this.nodes.get(id);
    if (!node || points.length < 2 || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const lengths = points.slice(1).map((p, i) => Math.hypot(p[0] - points[i][0], p[1] - points[i][1]));
    const total = lengths.reduce((a, b) => a + b, 0) || 1;
    const turn = ((((toFacing - fromFacing) % 360) + 540) % 360) - 180;
    const started = performance.now();
    const token = {};
    this.animating.set(id, token);
    node.g.classList.add("moving");
    const frame = (now) => {
      if (this.animating.get(id) !== token) return;
      const k = Math.min(1, (now - started) / ms);
      const ease = k < 0.5 ? 2 * k * k : 1 - (-2 * k + 2) ** 2 / 2;
      let left = ease * total, i = 0;
      while (i < lengths.length - 1 && left > lengths[i]) left -= lengths[i++];
      const t = lengths[i] ? Math.min(1, left / lengths[i]) : 1;
      const [a, b] = [points[i], points[i + 1]];
      this.place(id, [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t], fromFacing + turn * ease);
      if (k < 1) requestAnimationFrame(frame);
      else {
        this.animating.delete(id);
        node.g.classList.remove("moving");
        this.place(id, node.unit.position, node.unit.facing ?? 0);
      }
    };
    requestAnimationFrame(frame);
  }
}
