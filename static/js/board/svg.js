// Small SVG helpers shared by the board's layers. Text goes in with textContent only.
import { el } from "../render/terrain.js";

export { el };

/** Side colours (Okabe-Ito): strong, and told apart by colour-blind players too. */
const SIDE_COLOURS = ["#0a5fb4", "#d55e00", "#009e73", "#cc79a7", "#56b4e9", "#e69f00"];

export function sideColour(sides, side) {
  const i = sides.indexOf(side);
  return SIDE_COLOURS[(i < 0 ? sides.length : i) % SIDE_COLOURS.length];
}

export function text(parent, content, attrs = {}) {
  const node = el("text", attrs, parent);
  node.textContent = content;
  return node;
}

/** A label box: text with a halo, anchored at an svg point (y down). */
export function label(parent, content, x, y, cls = "") {
  return text(parent, content, { x, y, class: `label ${cls}`.trim() });
}

export function polyline(parent, points, attrs = {}) {
  return el("polyline", { points: points.map((p) => p.join(",")).join(" "), ...attrs }, parent);
}

/** A GeoJSON Polygon or MultiPolygon as one path, holes cut out (even-odd). */
export function geoPath(parent, geometry, attrs = {}) {
  const polygons = geometry.type === "MultiPolygon" ? geometry.coordinates : geometry.type === "Polygon" ? [geometry.coordinates] : [];
  const d = polygons.flatMap((rings) => rings.map((r) => `M${r.map((p) => `${p[0]} ${p[1]}`).join(" L")} Z`)).join(" ");
  return el("path", { d, "fill-rule": "evenodd", ...attrs }, parent);
}

/** Moves each of `movable` up, a step at a time, until it overprints neither the `fixed`
 *  labels nor the movable ones settled before it. */
export function unoverlap(fixed, movable, step) {
  const boxes = fixed.map((node) => node.getBBox());
  const hits = (b) => boxes.some((o) => b.x < o.x + o.width && o.x < b.x + b.width && b.y < o.y + o.height && o.y < b.y + b.height);
  for (const node of movable) {
    for (let tries = 0; tries < 12 && hits(node.getBBox()); tries++) {
      node.setAttribute("y", Number(node.getAttribute("y")) - step);
    }
    boxes.push(node.getBBox());
  }
}

/** Shifts a label sideways so that it stays inside the visible part of the svg. */
export function keepInside(node) {
  const svg = node.ownerSVGElement;
  const box = svg?.viewBox?.baseVal;
  if (!box || !box.width) return;
  const b = node.getBBox();
  const dx = b.x < box.x ? box.x - b.x : b.x + b.width > box.x + box.width ? box.x + box.width - b.x - b.width : 0;
  if (dx) {
    node.setAttribute("x", Number(node.getAttribute("x")) + dx);
    for (const span of node.querySelectorAll("tspan[x]")) span.setAttribute("x", Number(span.getAttribute("x")) + dx);
  }
}
