// @ts-check
// Small SVG helpers shared by the board's layers. Text goes in with textContent only.
import { el } from "../render/terrain.js";

export { el };

/** Side colours: one definition for every page (static/css/sides.css). */
export { sideColour } from "../sides.js";

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

export const meets = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Whether box `a` lies whole inside box `b`. */
export const within = (a, b) => a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height;

/** A screen box in the svg's inches. */
export function userBox(svg, r) {
  const m = svg.getScreenCTM().inverse();
  return { x: m.a * r.left + m.e, y: m.d * r.top + m.f, width: r.width * m.a, height: r.height * m.d };
}

export const pxOf = (svg) => 1 / (svg.getScreenCTM()?.a || 20); // inches a pixel covers

export function moveTo(node, x, y) {
  for (const n of [node, ...node.querySelectorAll("tspan[x]")]) n.setAttribute("x", x);
  node.setAttribute("y", y);
}

/** Shifts a label whole into the view (zoom and pan), 4 px in. */
export function keepInside(node, svg = node.ownerSVGElement) {
  if (!svg?.getScreenCTM()) return;
  const v = userBox(svg, svg.getBoundingClientRect()), p = 4 * pxOf(svg), b = node.getBBox();
  const shift = (lo, size, from, room) => Math.max(from + p - lo, Math.min(0, from + room - p - lo - size));
  moveTo(node, +node.getAttribute("x") + shift(b.x, b.width, v.x, v.width), +node.getAttribute("y") + shift(b.y, b.height, v.y, v.height));
}

/** Refusal labels in view, off bases, names and one another, on a backing that reads on any terrain. */
export function arrange(layer, nodes) {
  const svg = layer.ownerSVGElement;
  if (!svg?.getScreenCTM()) return;
  const step = 16 * pxOf(svg), pad = step / 5;
  layer.querySelectorAll(".label-backdrop").forEach((r) => r.remove());
  layer.parentNode.append(layer); // above the pieces' names
  const taken = [...svg.querySelectorAll(".pieces .base, .piece-label[visibility=visible]")].map((b) => userBox(svg, b.getBoundingClientRect()));
  for (const node of nodes) {
    const [x, y] = (node.dataset.at ??= `${node.getAttribute("x")} ${node.getAttribute("y")}`).split(" ").map(Number);
    let box;
    for (let i = 0; i < 26; i++) { // 12 lines up or down; none free: where it was asked
      moveTo(node, x, y + (i % 2 ? -1 : 1) * Math.ceil(i / 2) * step * Number(i < 25));
      keepInside(node, svg);
      box = node.getBBox();
      if (!taken.some((o) => meets(box, o))) break;
    }
    taken.push(box);
    node.before(el("rect", { class: "label-backdrop", x: box.x - pad, y: box.y - pad, width: box.width + 2 * pad, height: box.height + 2 * pad, rx: pad }));
  }
}
