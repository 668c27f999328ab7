// @ts-check
// The pieces: true-size bases, facing notch, side colour, a name of constant screen size.
// Keyed by unit id: an update moves a piece, not the table.
import { el, meets, moveTo, pxOf, sideColour, userBox, within } from "./svg.js";

/** What a piece shows besides its name: the system's states (the catalogue's words, from
 *  the server) then the free markers put on it, each {text, title, fill, ink, seq?}. */
export function marksOf(unit, store) {
  const states = store.statesOf(unit.id).map((s) => ({ text: s.label, title: s.help || s.label, fill: "#ffffff", ink: "#1d2125", kind: "state" }));
  const free = store.marksOf(unit.id).map((m) => {
    const colour = store.markerColour(m.colour);
    return { text: m.text, title: `${m.text}: ${m.by}'s marker`, fill: colour.fill, ink: colour.text, kind: "free", seq: m.seq, colour: m.colour };
  });
  return [...states, ...free];
}

/** A piece in words, for its name on the table and its line in the piece list: its
 *  name, side, type, states and markers ("Grav tank, side P1, grav tank, shut down"). */
export function pieceText(unit, store, marks = marksOf(unit, store)) {
  const type = String(unit.type ?? "unit").replaceAll("_", " ");
  return [store.name(unit.id), `side ${unit.side}`, type, ...marks.map((m) => m.text)].join(", ");
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
    // Whose states and markers the pieces show: the store's (the table now), or a
    // replay's (the moment shown): marksOf reads either.
    this.marking = store;
    new MutationObserver(() => this.declutter()).observe(labels.ownerSVGElement, { attributeFilter: ["viewBox"] });
  }

  /** Each name (the selected first) at the first side of its piece clear of names, bases and
   *  terrain names, a pixel apart (names that merely touch overprint by a rounding); else
   *  hidden: the piece's title names it. */
  declutter() {
    this.pending ||= requestAnimationFrame(() => {
      this.pending = 0;
      const svg = this.labels.ownerSVGElement, px = pxOf(svg), gap = 2 * px, taken = [];
      const clear = (b, o) => !meets({ x: b.x - px, y: b.y - px, width: b.width + 2 * px, height: b.height + 2 * px }, o);
      if (!svg.getScreenCTM()) return;
      const view = userBox(svg, svg.getBoundingClientRect()); // what the screen shows
      const first = (n) => n.unit.id === this.selected;
      const nodes = [...this.nodes.values()].filter((n) => n.at).sort((a, b) => Number(first(b)) - Number(first(a)));
      nodes.forEach((n) => this.layoutMarks(n, px));
      const marks = nodes.filter((n) => n.marks.childElementCount).map((n) => n.marks);
      const bases = [...nodes.map((n) => n.g.querySelector(".base")), ...svg.querySelectorAll(".terrain-label"), ...marks].map((n) => userBox(svg, n.getBoundingClientRect()));
      nodes.forEach(({ label, at: [x, ty], radius }, i) => {
        const { width: w, height: h, y: top } = label.getBBox(), r = radius + gap, y = this.height - ty, dy = top - label.getAttribute("y");
        const c = x - w / 2, m = y - h / 2;
        const free = [[c, y + r], [c, y - r - h], [x + r, m], [x - r - w, m], [c, y + r + h + gap], [c, y - r - 2 * h - gap]]
          .map(([x, y]) => ({ x, y, width: w, height: h }))
          .filter((b) => taken.every((o) => clear(b, o)) && bases.every((o, j) => j === i || clear(b, o)));
        // A place whole inside the view first: at the view's edge the place under the
        // piece runs past it and the name is cut.
        const spot = free.find((b) => within(b, view)) ?? free[0];
        label.setAttribute("visibility", spot ? "visible" : "hidden");
        if (spot) taken.push(spot) && moveTo(label, spot.x + w / 2, spot.y - dy);
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
        node?.marks.remove();
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
        node.marks.remove();
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
    const marks = el("g", { class: "piece-marks" }, this.labels);
    marks.dataset.unit = unit.id;
    const node = { g, label, marks, unit, radius: Math.max(front, (base.width ?? 0) / 2) };
    this.nodes.set(unit.id, node);
    this.updateLabel(node);
  }

  updateLabel(node) {
    const { unit } = node;
    const name = this.store.name(unit.id);
    const marks = marksOf(unit, this.marking);
    node.label.textContent = name.length > 22 ? `${name.slice(0, 21)}…` : name;
    const words = marks.map((m) => m.text);
    node.g.querySelector("title").textContent = `${name} (${unit.side}, ${unit.type ?? "unit"})${words.length ? ": " + words.join(", ") : ""}`;
    node.g.setAttribute("aria-label", pieceText(unit, this.store, marks));
    node.g.classList.toggle("has-badges", marks.some((m) => m.kind === "state"));
    node.g.classList.toggle("has-markers", marks.some((m) => m.kind === "free"));
    // The marks: small tags in a row over the piece, a state in ink on white, a free
    // marker in its palette colour (each pair WCAG AA); laid out at the screen's scale.
    node.marks.replaceChildren(...marks.map((m) => {
      const tag = el("g", { class: `mark mark-${m.kind}` });
      if (m.seq !== undefined) tag.dataset.seq = m.seq;
      if (m.colour) tag.dataset.colour = m.colour;
      el("title", {}, tag).textContent = m.title;
      el("rect", { fill: m.fill }, tag);
      el("text", { fill: m.ink }, tag).textContent = m.text;
      return tag;
    }));
    node.laidOut = 0;
    this.declutter();
  }

  /** A piece's tags centred in a row just above its base, sized in screen pixels. */
  layoutMarks(node, px) {
    if (!node.marks.childElementCount || !node.at || node.laidOut === px) return;
    node.laidOut = px;
    const [x, ty] = node.at, gap = 2 * px, h = 14 * px, pad = 3 * px;
    const tags = [...node.marks.children];
    const widths = tags.map((t) => t.querySelector("text").getComputedTextLength() + 2 * pad);
    let left = x - (widths.reduce((a, b) => a + b, 0) + gap * (tags.length - 1)) / 2;
    const top = this.height - ty - node.radius - gap - h;
    tags.forEach((t, i) => {
      const rect = t.querySelector("rect");
      for (const [k, v] of Object.entries({ x: left, y: top, width: widths[i], height: h, rx: 3 * px })) rect.setAttribute(k, v);
      moveTo(t.querySelector("text"), left + widths[i] / 2, top + h - 4 * px);
      left += widths[i] + gap;
    });
  }

  place(id, [x, y], facing) {
    const node = this.nodes.get(id);
    if (!node) return;
    node.g.setAttribute("transform", `translate(${x} ${y}) rotate(${facing})`);
    node.label.setAttribute("x", x);
    node.label.setAttribute("y", this.height - y + node.radius);
    node.at = [x, y];
    node.laidOut = 0;
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
