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

export const meets = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** A client rect in the svg's user units (inches, y down). */
export function userBox(svg, r) {
  const m = svg.getScreenCTM().inverse();
  return { x: m.a * r.left + m.e, y: m.d * r.top + m.f, width: r.width * m.a, height: r.height * m.d };
}

/** Inches a screen pixel covers at the current zoom. */
export const pxOf = (svg) => 1 / (svg.getScreenCTM()?.a || 20);

/** The part of the table the svg shows now (zoom and pan), less `pad` screen pixels. */
function visibleBox(svg, pad = 4) {
  if (!svg?.getScreenCTM()) return null;
  const b = userBox(svg, svg.getBoundingClientRect()), p = pad * pxOf(svg);
  return { x: b.x + p, y: b.y + p, width: b.width - 2 * p, height: b.height - 2 * p };
}

function moveBy(node, dx, dy) {
  for (const n of [node, ...node.querySelectorAll("tspan[x]")]) n.setAttribute("x", Number(n.getAttribute("x")) + dx);
  node.setAttribute("y", Number(node.getAttribute("y")) + dy);
}

/** Shifts a label so that it stays whole inside the visible part of the svg. */
export function keepInside(node, view = visibleBox(node.ownerSVGElement)) {
  if (!view) return;
  const b = node.getBBox();
  const shift = (lo, size, from, room) => (lo < from || size > room ? from - lo : lo + size > from + room ? from + room - lo - size : 0);
  const dx = shift(b.x, b.width, view.x, view.width), dy = shift(b.y, b.height, view.y, view.height);
  if (dx || dy) moveBy(node, dx, dy);
}

/** Lays refusal and cost labels out at the current zoom: each inside the view, off the
 *  pieces' bases and names and the labels placed before it (a step up or down at a time), on a light
 *  rounded backing so that red reads on any terrain pattern. */
export function arrange(layer, nodes) {
  const svg = layer.ownerSVGElement, view = visibleBox(svg);
  if (!view) return;
  layer.querySelectorAll(".label-backdrop").forEach((r) => r.remove());
  const step = 16 * pxOf(svg), pad = 3 * pxOf(svg);
  layer.parentNode.append(layer); // above the pieces' names
  const taken = [...svg.querySelectorAll(".pieces .base, .piece-label[visibility=visible]")].map((b) => userBox(svg, b.getBoundingClientRect()));
  for (const node of nodes) {
    node.dataset.at ??= `${node.getAttribute("x")} ${node.getAttribute("y")}`;
    const [x, y] = node.dataset.at.split(" ").map(Number);
    let box;
    for (let i = 0; ; i++) { // no free place within 12 steps: where it was asked, inside the view
      const dy = i > 24 ? 0 : (i % 2 ? -1 : 1) * Math.ceil(i / 2) * step;
      moveBy(node, x - Number(node.getAttribute("x")), y + dy - Number(node.getAttribute("y")));
      keepInside(node, view);
      box = node.getBBox();
      if (i > 24 || !taken.some((o) => meets(box, o))) break;
    }
    taken.push(box);
    const back = el("rect", { class: "label-backdrop", x: box.x - pad, y: box.y - pad, width: box.width + 2 * pad, height: box.height + 2 * pad, rx: pad });
    node.before(back);
  }
}
