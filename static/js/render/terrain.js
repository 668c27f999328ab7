// @ts-check
// The table's terrain as SVG: the map editor draws with it now, the live board imports it later.
//
//   (other modules load this one by its relative path, ../render/terrain.js, never by
//   its /static/ URL: collectstatic gives it a hashed name and rewrites relative paths)
//   renderTerrain(svg, terrain, { width: 36, height: 36, legend: element });
//
// Coordinates are the scenario format's: inches, origin at the bottom-left corner,
// +y north. Each terrain type has a colour AND a pattern, so that players who do
// not tell the colours apart still tell the types apart; the legend shows both.
// User text only ever reaches the page through textContent/setAttribute.

export const SVG_NS = "http://www.w3.org/2000/svg";

function hash(text) {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.codePointAt(0)) >>> 0;
  return h;
}

/** The colour, pattern and outline of a terrain type: its kind's style in the system's
 *  catalogue (the engine's, the one the battle report draws too), else the engine's look
 *  for a type the system does not style (`unstyled`, sent with the kinds). */
export function terrainStyle(type, kinds = [], unstyled = null) {
  return (kinds ?? []).find((k) => k.type === type)?.style ?? unstyled;
}

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

const INK = "rgba(20, 24, 28, 0.55)";

function drawPatternMarks(pattern, kind) {
  const line = (x1, y1, x2, y2) => el("line", { x1, y1, x2, y2, stroke: INK, "stroke-width": 0.08 }, pattern);
  switch (kind) {
    case "hatch": line(0, 1, 1, 0); break;
    case "cross": line(0, 1, 1, 0); line(0, 0, 1, 1); break;
    case "grid": line(0, 0.5, 1, 0.5); line(0.5, 0, 0.5, 1); break;
    case "horizontal": line(0, 0.5, 1, 0.5); break;
    case "vertical": line(0.5, 0, 0.5, 1); break;
    case "dots": el("circle", { cx: 0.5, cy: 0.5, r: 0.12, fill: INK }, pattern); break;
    case "rings": el("circle", { cx: 0.5, cy: 0.5, r: 0.3, fill: "none", stroke: INK, "stroke-width": 0.07 }, pattern); break;
    case "steps": el("path", { d: "M0 0.75 H0.5 V0.25 H1", fill: "none", stroke: INK, "stroke-width": 0.08 }, pattern); break;
    case "waves": el("path", { d: "M0 0.5 Q0.25 0.2 0.5 0.5 T1 0.5", fill: "none", stroke: INK, "stroke-width": 0.08 }, pattern); break;
    default: break;
  }
}

/** <pattern> for a terrain type drawn in `style`, added to the svg's <defs> once; returns its url(). */
function patternFor(svg, type, style, prefix) {
  let defs = svg.querySelector("defs");
  if (!defs) {
    defs = el("defs");
    svg.insertBefore(defs, svg.firstChild);
  }
  const id = `${prefix}-terrain-${hash(String(type)).toString(36)}`;
  if (!svg.querySelector(`pattern[id="${id}"]`)) {
    const pattern = el("pattern", { id, width: 1, height: 1, patternUnits: "userSpaceOnUse" }, defs);
    el("rect", { width: 1, height: 1, fill: style.fill }, pattern);
    drawPatternMarks(pattern, style.pattern);
  }
  return `url(#${id})`;
}

/** Sets the svg up as a table of width x height inches; returns the group to draw in
 *  (y flipped so that table coordinates can be used as they are). */
export function setUpTable(svg, width, height, { margin = 0.5 } = {}) {
  svg.setAttribute("viewBox", `${-margin} ${-margin} ${width + 2 * margin} ${height + 2 * margin}`);
  svg.dataset.width = width;
  svg.dataset.height = height;
  let table = svg.querySelector("g.table");
  if (!table) {
    table = el("g", { class: "table", transform: `translate(0 ${height}) scale(1 -1)` }, svg);
  }
  table.setAttribute("transform", `translate(0 ${height}) scale(1 -1)`);
  table.replaceChildren();
  el("rect", { class: "table-surface", x: 0, y: 0, width, height, fill: "#f4f1e8", stroke: "#8c959f", "stroke-width": 0.1 }, table);
  return table;
}

/** The svg point, in table inches, under a pointer event. */
export function tablePoint(svg, event) {
  const pt = svg.createSVGPoint();
  pt.x = event.clientX;
  pt.y = event.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  return [p.x, Number(svg.dataset.height) - p.y];
}

function points(polygon) {
  return polygon.map(([x, y]) => `${x},${y}`).join(" ");
}

/**
 * Draws `terrain` (scenario TERRAIN objects) on `svg`.
 * options: width, height (inches; required the first time), legend (an element to fill),
 * idPrefix (for pattern ids when several boards share a page), labels (default true),
 * kinds (the game system's terrain kinds, [{type, label, style}], for the words players read
 * and each type's look), unstyled (the engine's look for a type no kind styles).
 * Returns the <g> holding the terrain.
 */
export function renderTerrain(svg, terrain, options = {}) {
  const width = options.width ?? Number(svg.dataset.width);
  const height = options.height ?? Number(svg.dataset.height);
  const prefix = options.idPrefix ?? (svg.id || "board");
  const table = svg.querySelector("g.table") ?? setUpTable(svg, width, height);
  let layer = table.querySelector("g.terrain");
  if (!layer) layer = el("g", { class: "terrain" }, table);
  layer.replaceChildren();
  for (const feature of terrain) {
    if (!Array.isArray(feature.polygon) || feature.polygon.length < 3) continue;
    const style = terrainStyle(feature.type, options.kinds, options.unstyled);
    const shape = el("polygon", {
      points: points(feature.polygon),
      fill: patternFor(svg, feature.type, style, prefix),
      stroke: style.stroke,
      "stroke-width": 0.08,
      class: `terrain-feature terrain-${feature.type}`,
    }, layer);
    shape.dataset.id = feature.id ?? "";
    const title = el("title", {}, shape);
    const extra = [feature.height != null ? `height ${feature.height}"` : "", feature.size_class != null ? `size class ${feature.size_class}` : ""].filter(Boolean).join(", ");
    title.textContent = `${feature.id ?? ""} ${kindLabel(feature.type, options.kinds)}${extra ? ` (${extra})` : ""}`;
    if (options.labels !== false) {
      // Labels sit outside the flipped group so that the text reads upright.
      const [cx, cy] = centroid(feature.polygon);
      const label = el("text", { x: cx, y: cy, class: "terrain-label", "text-anchor": "middle", "font-size": 0.9, transform: `scale(1 -1) translate(0 ${-2 * cy})` }, layer);
      label.textContent = feature.id ?? "";
    }
  }
  if (options.legend) renderLegend(options.legend, [...new Set(terrain.map((f) => f.type))], options);
  return layer;
}

function centroid(polygon) {
  const n = polygon.length;
  return [polygon.reduce((s, p) => s + p[0], 0) / n, polygon.reduce((s, p) => s + p[1], 0) / n];
}

/** The player's word for a terrain type: its kind's label, else the type in words. */
export function kindLabel(type, kinds = []) {
  return (kinds ?? []).find((k) => k.type === type)?.label ?? String(type).replaceAll("_", " ");
}

/** A legend: one swatch (colour and pattern) and name per terrain type. */
export function renderLegend(container, types, options = {}) {
  container.replaceChildren();
  const list = document.createElement("ul");
  list.className = "legend-list";
  for (const type of types) {
    const item = document.createElement("li");
    const swatch = el("svg", { width: 24, height: 24, viewBox: "0 0 2 2", "aria-hidden": "true" });
    const style = terrainStyle(type, options.kinds, options.unstyled);
    el("rect", { width: 2, height: 2, fill: patternFor(swatch, type, style, `${options.idPrefix ?? "legend"}-${type}`), stroke: style.stroke, "stroke-width": 0.1 }, swatch);
    const name = document.createElement("span");
    name.textContent = kindLabel(type, options.kinds);
    item.append(swatch, name);
    list.appendChild(item);
  }
  container.appendChild(list);
}
