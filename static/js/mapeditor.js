// @ts-check
// The map editor: terrain drawn with the mouse on an inch grid (ui.md, "Map editor").
//
//   Polygon: click corners, finish with the button or Enter.
//   Rectangle, Circle: press, drag, release (a circle is kept as a 24-cornered polygon:
//   the scenario format's terrain is polygons).
//   Select: click a feature to edit its type and keys; drag its corners; a corner is
//   deleted with a double click on it (or picked, then Delete).
//   Every point snaps to the grid step chosen (1", 1/2", 1/4" or off).
//   Inch rulers run along the bottom and left edges (the origin is the bottom-left corner),
//   and the cursor's coordinates show under the table, snapped as a click would place them.
//
// The form's terrain textarea stays the source of truth (and works without JS): drawing
// writes JSON into it, and typing in it redraws the board. Map files (JSON) are exported
// from and imported into the form's fields; the server checks everything on Save.
import { drawBackdrop } from "./render/backdrop.js";
import { el, renderTerrain, setUpTable, tablePoint } from "./render/terrain.js";

export const MAP_FILE_FORMAT = "tabletop-map/1";
const CIRCLE_CORNERS = 24;
const CLICK_SLOP_PX = 4;
// Two presses on one corner this close in time are a double click. Counted here, not by
// the browser's dblclick: each press redraws the handles, so the two clicks land on
// different elements and Chromium never pairs them.
const DOUBLE_CLICK_MS = 500;
// Room around the table for the rulers, in inches.
const RULER_MARGIN = 1.6;

/** @typedef {[number, number]} Point a place on the table, in inches */

const form = /** @type {HTMLFormElement} */ (document.getElementById("map-form"));
const svg = document.getElementById("map-svg");
const textarea = /** @type {HTMLTextAreaElement} */ (form.elements.namedItem("terrain"));
const widthInput = /** @type {HTMLInputElement} */ (form.elements.namedItem("width"));
const heightInput = /** @type {HTMLInputElement} */ (form.elements.namedItem("height"));
const nameInput = /** @type {HTMLInputElement} */ (form.elements.namedItem("name"));
const tools = document.getElementById("editor-tools");
const status = document.getElementById("tool-status");
const list = document.getElementById("feature-list");
const legend = document.getElementById("map-legend");
const typeSelect = /** @type {HTMLSelectElement} */ (document.getElementById("tool-type"));
const keyFields = document.getElementById("tool-keys");
const snapSelect = /** @type {HTMLSelectElement} */ (document.getElementById("tool-snap"));
const panel = document.getElementById("feature-panel");
const cursorAt = document.getElementById("cursor-at");
// The game system's terrain kinds (the server's): {type, label, keys, required, help, style},
// and the engine's look for a type none of them styles.
const kinds = JSON.parse(document.getElementById("terrain-kinds").textContent);
const unstyled = JSON.parse(document.getElementById("terrain-unstyled").textContent);
const kindOf = (type) => kinds.find((k) => k.type === type) ?? { type, label: String(type).replaceAll("_", " "), keys: [], required: [] };
const NUMERIC_KEYS = new Set(["height", "size_class"]);

let tool = "polygon";
let corners = []; // the polygon being clicked
let sketch = null; // {from, to} of a rectangle or circle being dragged
let selected = null; // index of the selected feature
let selectedCorner = null; // index of its selected corner
let dragging = null; // {corner} while a corner is dragged
let down = null; // where the pointer went down: {client: [x, y], point: [x, y]}
let lastCornerPress = null; // {corner, at, client} of the last press on a corner handle

// -- the terrain JSON -------------------------------------------------------------------

function readTerrain() {
  try {
    const value = JSON.parse(textarea.value || "[]");
    return Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** One feature a line (as the server lays the form out: forms.compact_terrain). */
function terrainText(terrain) {
  if (!terrain.length) return "[]";
  return `[\n${terrain.map((feature) => ` ${JSON.stringify(feature)}`).join(",\n")}\n]`;
}

function writeTerrain(terrain) {
  textarea.value = terrainText(terrain);
  draw();
}

function size() {
  const width = Number(widthInput.value) || 36;
  const height = Number(heightInput.value) || 36;
  return [width, height];
}

function nextId(terrain, type) {
  const prefix = (type[0] || "T").toUpperCase();
  let n = 1;
  const taken = new Set(terrain.map((f) => f.id));
  while (taken.has(`${prefix}${n}`)) n += 1;
  return `${prefix}${n}`;
}

/** A key's typed value: a number or JSON where it reads as one, else the text. */
function keyValue(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// -- points: snapped to the grid, inside the table ----------------------------------------

function snapStep() {
  return Number(snapSelect.value) || 0;
}

function tidy(value) {
  return Math.round(value * 100) / 100;
}

/** @param {Point} point @returns {Point} */
function snapped([x, y]) {
  const [width, height] = size();
  const step = snapStep();
  const snap = (v) => (step ? Math.round(v / step) * step : Math.round(v * 4) / 4);
  return [tidy(Math.min(width, Math.max(0, snap(x)))), tidy(Math.min(height, Math.max(0, snap(y))))];
}

/** @param {MouseEvent} event @returns {Point} */
function pointOf(event) {
  return /** @type {Point} */ (tablePoint(svg, event));
}

/** @param {Point} point */
function inside([x, y]) {
  const [width, height] = size();
  return x >= 0 && y >= 0 && x <= width && y <= height;
}

// -- shapes ---------------------------------------------------------------------------------

function rectangle([x0, y0], [x1, y1]) {
  const [a, b] = [Math.min(x0, x1), Math.max(x0, x1)];
  const [c, d] = [Math.min(y0, y1), Math.max(y0, y1)];
  if (b - a <= 0 || d - c <= 0) return null;
  return [[a, c], [b, c], [b, d], [a, d]];
}

function circle([cx, cy], edge) {
  const r = Math.hypot(edge[0] - cx, edge[1] - cy);
  if (r <= 0) return null;
  const [width, height] = size();
  const points = [];
  for (let i = 0; i < CIRCLE_CORNERS; i += 1) {
    const a = (2 * Math.PI * i) / CIRCLE_CORNERS;
    points.push([tidy(Math.min(width, Math.max(0, cx + r * Math.cos(a)))), tidy(Math.min(height, Math.max(0, cy + r * Math.sin(a))))]);
  }
  return points;
}

function sketchPolygon() {
  if (!sketch) return null;
  return tool === "circle" ? circle(sketch.from, sketch.to) : rectangle(sketch.from, sketch.to);
}

/** A new feature of the type chosen, with the keys typed beside it; it is then selected. */
function addFeature(polygon, shapeName) {
  const terrain = readTerrain() ?? [];
  const type = typeSelect.value;
  const feature = { id: nextId(terrain, type), type, polygon };
  for (const input of keyFields.querySelectorAll("input")) {
    if (input.value.trim() !== "") feature[input.dataset.key] = keyValue(input.value.trim());
  }
  terrain.push(feature);
  selected = terrain.length - 1;
  selectedCorner = null;
  status.textContent = `Added ${feature.id} (${kindOf(type).label}), a ${shapeName}.`;
  writeTerrain(terrain);
}

function finish() {
  if (corners.length < 3) {
    status.textContent = "A polygon needs at least 3 corners.";
    return;
  }
  const polygon = corners;
  corners = [];
  addFeature(polygon, "polygon");
}

// -- drawing ----------------------------------------------------------------------------------

function drawGrid(table, width, height) {
  const grid = el("g", { class: "editor-grid", "pointer-events": "none" }, table);
  for (let x = 1; x < width; x += 1) el("line", { x1: x, y1: 0, x2: x, y2: height, class: x % 6 ? "grid-line" : "grid-line major" }, grid);
  for (let y = 1; y < height; y += 1) el("line", { x1: 0, y1: y, x2: width, y2: y, class: y % 6 ? "grid-line" : "grid-line major" }, grid);
}

/** Inch rulers outside the table: ticks every inch, numbers every 6" (every 3" on a small
 * table) and at the far edge. Drawn unflipped in the svg, so the numbers read upright. */
function drawRulers(width, height) {
  svg.querySelector("g.rulers")?.remove();
  const rulers = el("g", { class: "rulers", "pointer-events": "none" }, svg);
  const every = Math.max(width, height) <= 24 ? 3 : 6;
  const numbered = (v, end) => v % every === 0 || v === end;
  const label = (x, y, text, anchor) => {
    const t = el("text", { x, y, class: "ruler-number", "text-anchor": anchor, "dominant-baseline": "middle" }, rulers);
    t.textContent = text;
  };
  el("line", { x1: 0, y1: height, x2: width, y2: height, class: "ruler-edge" }, rulers);
  el("line", { x1: 0, y1: 0, x2: 0, y2: height, class: "ruler-edge" }, rulers);
  for (let x = 0; x <= width; x += 1) {
    const long = numbered(x, Math.floor(width));
    el("line", { x1: x, y1: height, x2: x, y2: height + (long ? 0.5 : 0.25), class: "ruler-tick" }, rulers);
    if (long) label(x, height + 0.95, `${x}″`, "middle");
  }
  for (let y = 0; y <= height; y += 1) {
    const long = numbered(y, Math.floor(height));
    el("line", { x1: 0, y1: height - y, x2: long ? -0.5 : -0.25, y2: height - y, class: "ruler-tick" }, rulers);
    if (long) label(-0.65, height - y, `${y}″`, "end");
  }
  // Where the cursor is, on each ruler (moved by showCursor).
  el("line", { class: "ruler-cursor", id: "ruler-cursor-x", x1: -1, y1: height, x2: -1, y2: height + RULER_MARGIN, visibility: "hidden" }, rulers);
  el("line", { class: "ruler-cursor", id: "ruler-cursor-y", x1: -RULER_MARGIN, y1: -1, x2: 0, y2: -1, visibility: "hidden" }, rulers);
}

/** The cursor's table coordinates (snapped, as a click would place a corner) under the
 * table and on the rulers; cleared when the pointer leaves the table. */
function showCursor(point) {
  const markX = svg.querySelector("#ruler-cursor-x");
  const markY = svg.querySelector("#ruler-cursor-y");
  if (!point || !inside(point)) {
    cursorAt.textContent = "Cursor: off the table";
    markX?.setAttribute("visibility", "hidden");
    markY?.setAttribute("visibility", "hidden");
    return;
  }
  const [x, y] = snapped(point);
  const [, height] = size();
  cursorAt.textContent = `Cursor: x ${x}″, y ${y}″`;
  markX?.setAttribute("x1", String(x));
  markX?.setAttribute("x2", String(x));
  markX?.setAttribute("visibility", "visible");
  markY?.setAttribute("y1", String(height - y));
  markY?.setAttribute("y2", String(height - y));
  markY?.setAttribute("visibility", "visible");
}

function drawFeatureList(terrain) {
  list.replaceChildren();
  terrain.forEach((feature, index) => {
    const item = document.createElement("li");
    if (index === selected) item.className = "selected";
    const text = document.createElement("span");
    text.textContent = `${feature.id ?? "?"}: ${kindOf(feature.type).label} (${(feature.polygon ?? []).length} corners)`;
    const edit = document.createElement("button");
    edit.type = "button";
    edit.textContent = `Edit ${feature.id ?? ""}`;
    edit.addEventListener("click", () => select(index));
    const remove = document.createElement("button");
    remove.type = "button";
    remove.textContent = `Remove ${feature.id ?? ""}`;
    remove.addEventListener("click", () => removeFeature(index));
    item.append(text, " ", edit, " ", remove);
    list.appendChild(item);
  });
}

function drawHandles(table, feature) {
  const handles = el("g", { class: "corner-handles" }, table);
  (feature.polygon ?? []).forEach(([x, y], index) => {
    const handle = el("circle", { cx: x, cy: y, r: 0.4, class: index === selectedCorner ? "corner-handle selected" : "corner-handle" }, handles);
    handle.dataset.corner = String(index);
    el("title", {}, handle).textContent = `Corner ${index + 1} of ${feature.id}: (${x}, ${y}); drag to move, double-click to delete`;
  });
}

// The map's saved picture (the server's), at the place its form's fields say while the
// GM types a new one (all four given), so the picture can be lined up before saving.
const savedBackdrop = JSON.parse(document.getElementById("map-backdrop")?.textContent || "null");
const pictureForm = /** @type {HTMLFormElement | null} */ (document.getElementById("picture-form"));

function backdrop() {
  if (!savedBackdrop || !pictureForm) return savedBackdrop;
  const typed = ["x", "y", "width", "height"].map((key) => /** @type {HTMLInputElement | null} */ (pictureForm.elements.namedItem(`picture-${key}`))?.value ?? "");
  const place = typed.map(Number);
  if (typed.some((v) => v.trim() === "") || place.some((v) => !Number.isFinite(v)) || place[2] <= 0 || place[3] <= 0) return savedBackdrop;
  const [x, y, width, height] = place;
  return { ...savedBackdrop, x, y, width, height };
}

pictureForm?.addEventListener("input", () => draw());

function draw() {
  const [width, height] = size();
  const table = setUpTable(svg, width, height, { margin: RULER_MARGIN });
  drawRulers(width, height);
  const terrain = readTerrain();
  if (terrain === null) {
    status.textContent = "The terrain JSON cannot be read; fix it to see the map.";
    return;
  }
  if (selected !== null && selected >= terrain.length) selected = null;
  drawBackdrop(svg, table, backdrop());
  drawGrid(table, width, height);
  renderTerrain(svg, terrain, { width, height, legend, kinds, unstyled });
  // The grid lies over the terrain's fill, under the handles: move it after the terrain.
  table.append(table.querySelector("g.editor-grid"));
  table.querySelectorAll(".terrain-feature").forEach((shape, index) => {
    shape.dataset.index = String(index);
    if (index === selected) shape.classList.add("selected");
  });
  drawFeatureList(terrain);
  if (selected !== null) drawHandles(table, terrain[selected]);
  const marks = el("g", { class: "sketch" }, table);
  if (corners.length) {
    el("polyline", { points: corners.map((p) => p.join(",")).join(" "), fill: "none", stroke: "#1f6feb", "stroke-width": 0.12, "stroke-dasharray": "0.4 0.2" }, marks);
    for (const [x, y] of corners) el("circle", { cx: x, cy: y, r: 0.25, fill: "#1f6feb" }, marks);
  }
  const shape = sketchPolygon();
  if (shape) el("polygon", { class: "sketch-shape", points: shape.map((p) => p.join(",")).join(" "), fill: "rgba(31, 111, 235, .15)", stroke: "#1f6feb", "stroke-width": 0.12, "stroke-dasharray": "0.4 0.2" }, marks);
  drawPanel(terrain);
}

// -- the selected feature's fields ------------------------------------------------------------

function keyInput(key, kind, value) {
  const label = document.createElement("label");
  const input = document.createElement("input");
  input.dataset.key = key;
  input.name = `feature-${key}`;
  if (NUMERIC_KEYS.has(key)) {
    input.type = "number";
    input.min = "0";
    input.step = key === "height" ? "0.5" : "1";
  } else {
    input.placeholder = "JSON, e.g. [[[x, y], [x, y]]]";
  }
  input.required = kind.required.includes(key);
  if (value !== undefined && value !== null) input.value = typeof value === "object" ? JSON.stringify(value) : String(value);
  label.append(`${key.replaceAll("_", " ")}${input.required ? " (needed)" : ""} `, input);
  return label;
}

function drawPanel(terrain) {
  const feature = selected === null ? null : terrain[selected];
  panel.hidden = !feature;
  if (!feature || panel.contains(document.activeElement)) return; // never redraw under the typist
  const kind = kindOf(feature.type);
  panel.querySelector("#feature-heading").textContent = `Feature ${feature.id}`;
  const typeField = panel.querySelector("#feature-type");
  typeField.replaceChildren(...kinds.map((k) => new Option(k.label, k.type, false, k.type === feature.type)));
  /** @type {HTMLInputElement} */ (panel.querySelector("#feature-id")).value = feature.id ?? "";
  const keys = panel.querySelector("#feature-keys");
  keys.replaceChildren(...kind.keys.map((key) => keyInput(key, kind, feature[key])));
  if (!kind.keys.length) keys.textContent = `${kind.label} takes no other keys.`;
  panel.querySelector("#feature-help").textContent = kind.help ?? "";
  /** @type {HTMLButtonElement} */ (panel.querySelector("#corner-delete")).disabled = selectedCorner === null || feature.polygon.length <= 3;
}

function updateSelected(change) {
  const terrain = readTerrain();
  if (!terrain || selected === null || !terrain[selected]) return;
  change(terrain[selected]);
  writeTerrain(terrain);
}

function select(index) {
  selected = index;
  selectedCorner = null;
  draw();
  const feature = (readTerrain() ?? [])[index];
  if (feature) status.textContent = `${feature.id} selected: drag its corners, or change its type and keys beside the map.`;
}

function removeFeature(index) {
  const terrain = readTerrain() ?? [];
  const [gone] = terrain.splice(index, 1);
  selected = null;
  selectedCorner = null;
  status.textContent = gone ? `Removed ${gone.id}.` : "";
  writeTerrain(terrain);
}

function deleteCorner() {
  updateSelected((feature) => {
    if (selectedCorner === null) return;
    if (feature.polygon.length <= 3) {
      status.textContent = "A feature keeps at least 3 corners; remove the feature instead.";
      return;
    }
    feature.polygon.splice(selectedCorner, 1);
    status.textContent = `Corner ${selectedCorner + 1} of ${feature.id} deleted.`;
    selectedCorner = null;
  });
}

panel.querySelector("#feature-type").addEventListener("change", (e) => {
  const typeField = /** @type {HTMLSelectElement} */ (e.target);
  updateSelected((feature) => {
    const before = kindOf(feature.type);
    feature.type = typeField.value;
    const now = kindOf(feature.type);
    for (const key of before.keys) if (!now.keys.includes(key)) delete feature[key];
  });
  typeField.blur();
  draw();
});
panel.querySelector("#feature-id").addEventListener("change", (e) => {
  const id = /** @type {HTMLInputElement} */ (e.target).value.trim().slice(0, 16);
  if (id) updateSelected((feature) => { feature.id = id; });
});
panel.querySelector("#feature-keys").addEventListener("change", (e) => {
  const input = /** @type {HTMLInputElement} */ (e.target);
  const key = input.dataset?.key;
  if (!key) return;
  const text = input.value.trim();
  updateSelected((feature) => {
    if (text === "") delete feature[key];
    else feature[key] = keyValue(text);
  });
});
panel.querySelector("#corner-delete").addEventListener("click", deleteCorner);
panel.querySelector("#feature-delete").addEventListener("click", () => selected !== null && removeFeature(selected));

// -- the mouse ------------------------------------------------------------------------------

/** The buttons that pick a tool (their data-tool names it). */
const toolButtons = () => /** @type {NodeListOf<HTMLButtonElement>} */ (tools.querySelectorAll("[data-tool]"));

function setTool(name) {
  tool = name;
  corners = [];
  sketch = null;
  for (const button of toolButtons()) button.setAttribute("aria-pressed", String(button.dataset.tool === name));
  document.getElementById("tool-finish").hidden = name !== "polygon";
  document.getElementById("tool-cancel").hidden = name !== "polygon";
  svg.dataset.tool = name;
  const hints = {
    polygon: "Click on the table to add corners; finish with the button or Enter.",
    rectangle: "Press and drag across the table to draw a rectangle.",
    circle: "Press at the centre and drag out to the edge to draw a circle.",
    select: "Click a feature to edit it; drag its corners; double-click a corner to delete it (or pick it and press Delete).",
  };
  status.textContent = hints[name];
  draw();
}

svg.addEventListener("pointerdown", (event) => {
  if (event.button !== 0) return;
  const point = pointOf(event);
  down = { client: [event.clientX, event.clientY], point };
  const handle = /** @type {SVGElement | null} */ (/** @type {Element} */ (event.target).closest?.(".corner-handle"));
  if (handle) {
    const corner = Number(handle.dataset.corner);
    const last = lastCornerPress;
    lastCornerPress = { corner, at: event.timeStamp, client: [event.clientX, event.clientY] };
    if (last && last.corner === corner && event.timeStamp - last.at < DOUBLE_CLICK_MS && Math.hypot(event.clientX - last.client[0], event.clientY - last.client[1]) < CLICK_SLOP_PX) {
      lastCornerPress = null;
      down = null;
      selectedCorner = corner;
      deleteCorner();
      return;
    }
    selectedCorner = corner;
    dragging = { corner: selectedCorner };
    svg.setPointerCapture(event.pointerId);
    draw();
    return;
  }
  if ((tool === "rectangle" || tool === "circle") && inside(point)) {
    const start = snapped(point);
    sketch = { from: start, to: start };
    svg.setPointerCapture(event.pointerId);
  }
});

svg.addEventListener("pointermove", (event) => {
  showCursor(pointOf(event));
  if (dragging) {
    const [x, y] = snapped(pointOf(event));
    updateSelected((feature) => { feature.polygon[dragging.corner] = [x, y]; });
    status.textContent = `Corner ${dragging.corner + 1} at (${x}, ${y}).`;
    return;
  }
  if (sketch) {
    sketch.to = snapped(pointOf(event));
    const [dx, dy] = [Math.abs(sketch.to[0] - sketch.from[0]), Math.abs(sketch.to[1] - sketch.from[1])];
    status.textContent = tool === "circle" ? `Radius ${tidy(Math.hypot(dx, dy))}″.` : `${tidy(dx)}″ × ${tidy(dy)}″.`;
    draw();
  }
});

svg.addEventListener("pointerup", (event) => {
  const still = down && Math.hypot(event.clientX - down.client[0], event.clientY - down.client[1]) < CLICK_SLOP_PX;
  if (dragging) {
    dragging = null;
    draw();
    return;
  }
  if (sketch) {
    sketch.to = snapped(pointOf(event));
    const shape = sketchPolygon();
    sketch = null;
    if (shape) addFeature(shape, tool);
    else draw();
    return;
  }
  if (!still || !down) return;
  const point = down.point;
  down = null;
  if (tool === "polygon") {
    if (!inside(point)) return;
    const corner = snapped(point);
    corners.push(corner);
    status.textContent = `${corners.length} corner${corners.length === 1 ? "" : "s"}; last at (${corner[0]}, ${corner[1]}).`;
    draw();
  } else if (tool === "select") {
    const shape = /** @type {SVGElement | null} */ (/** @type {Element} */ (event.target).closest?.(".terrain-feature"));
    if (shape) select(Number(shape.dataset.index));
    else {
      selected = null;
      selectedCorner = null;
      draw();
    }
  }
});

svg.addEventListener("pointerleave", () => showCursor(null));

for (const button of toolButtons()) button.addEventListener("click", () => setTool(button.dataset.tool));
document.getElementById("tool-finish").addEventListener("click", finish);
document.getElementById("tool-cancel").addEventListener("click", () => {
  corners = [];
  status.textContent = "Polygon cancelled.";
  draw();
});
document.addEventListener("keydown", (event) => {
  if (/** @type {Element} */ (event.target).closest("form, input, select, textarea")) return;
  if (event.key === "Enter" && tool === "polygon") finish();
  if ((event.key === "Delete" || event.key === "Backspace") && selectedCorner !== null) {
    event.preventDefault();
    deleteCorner();
  }
  if (event.key === "Escape") {
    corners = [];
    sketch = null;
    selectedCorner = null;
    draw();
  }
});

// -- map files ---------------------------------------------------------------------------------

/** The map as a file: what the editor's fields hold now, saved or not. */
function mapFile() {
  const [width, height] = size();
  return { format: MAP_FILE_FORMAT, name: nameInput.value.trim(), width, height, terrain: readTerrain() ?? [] };
}

document.getElementById("map-export").addEventListener("click", () => {
  const file = mapFile();
  const blob = new Blob([`${JSON.stringify(file, null, 1)}\n`], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `${(file.name || "map").replace(/[^A-Za-z0-9_-]+/g, "-")}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  status.textContent = `Exported ${link.download}.`;
});

document.getElementById("map-import").addEventListener("change", async (event) => {
  const fileInput = /** @type {HTMLInputElement} */ (event.target);
  const [file] = fileInput.files;
  if (!file) return;
  try {
    const data = JSON.parse(await file.text());
    const terrain = Array.isArray(data) ? data : data.terrain;
    if (!Array.isArray(terrain)) throw new Error("it holds no terrain list");
    if (!Array.isArray(data)) {
      if (data.name) nameInput.value = String(data.name).slice(0, 120);
      if (Number(data.width) > 0) widthInput.value = String(data.width);
      if (Number(data.height) > 0) heightInput.value = String(data.height);
    }
    selected = null;
    writeTerrain(terrain);
    status.textContent = `Imported ${file.name}: ${terrain.length} feature${terrain.length === 1 ? "" : "s"}. Save the map to keep it.`;
  } catch (error) {
    status.textContent = `${file.name} is not a map file: ${error.message}.`;
  }
  fileInput.value = "";
});

// -- the new feature's keys ---------------------------------------------------------------------

/** One input per key the chosen terrain kind takes (height, entry segments, ...). */
function drawKeyFields() {
  const kind = kindOf(typeSelect.value);
  keyFields.replaceChildren();
  for (const key of kind.keys) {
    const label = keyInput(key, kind);
    const input = label.querySelector("input");
    input.id = `tool-${key.replaceAll("_", "-")}`;
    input.removeAttribute("name");
    label.firstChild.textContent = `Feature ${key.replaceAll("_", " ")} `;
    keyFields.append(label, " ");
  }
}

for (const input of [textarea, widthInput, heightInput]) input.addEventListener("input", draw);
typeSelect.addEventListener("change", drawKeyFields);
snapSelect.addEventListener("change", draw);
drawKeyFields();

tools.hidden = false;
setTool("polygon");
