// The map editor: click corners on the SVG table to draw terrain polygons.
// The form's terrain textarea stays the source of truth (and works without JS):
// drawing writes JSON into it, and typing in it redraws the board.
import { el, renderTerrain, setUpTable, tablePoint } from "./render/terrain.js";

const form = document.getElementById("map-form");
const svg = document.getElementById("map-svg");
const textarea = form.elements.terrain;
const widthInput = form.elements.width;
const heightInput = form.elements.height;
const tools = document.getElementById("editor-tools");
const status = document.getElementById("tool-status");
const list = document.getElementById("feature-list");
const legend = document.getElementById("map-legend");
const typeSelect = document.getElementById("tool-type");
const keyFields = document.getElementById("tool-keys");
// The game system's terrain kinds (the server's): {type, label, keys, required, help}.
const kinds = JSON.parse(document.getElementById("terrain-kinds").textContent);
const kindOf = (type) => kinds.find((k) => k.type === type) ?? { type, label: String(type).replaceAll("_", " "), keys: [], required: [] };

let corners = [];

/** One input per key the chosen terrain kind takes (height, entry segments, ...). */
function drawKeyFields() {
  const kind = kindOf(typeSelect.value);
  keyFields.replaceChildren();
  for (const key of kind.keys) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.dataset.key = key;
    input.id = `tool-${key.replaceAll("_", "-")}`;
    const numeric = key === "height" || key === "size_class";
    if (numeric) {
      input.type = "number";
      input.min = "0";
      input.step = key === "height" ? "0.5" : "1";
      input.inputMode = key === "height" ? "decimal" : "numeric";
    } else {
      input.placeholder = "JSON, e.g. [[[x, y], [x, y]]]";
    }
    input.required = kind.required.includes(key);
    label.append(`Feature ${key.replaceAll("_", " ")} `, input);
    keyFields.append(label, " ");
  }
}

/** A key's typed value: a number or JSON where it reads as one, else the text. */
function keyValue(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function readTerrain() {
  try {
    const value = JSON.parse(textarea.value || "[]");
    return Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

function writeTerrain(terrain) {
  textarea.value = JSON.stringify(terrain, null, 1);
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

function drawFeatureList(terrain) {
  list.replaceChildren();
  terrain.forEach((feature, index) => {
    const item = document.createElement("li");
    const text = document.createElement("span");
    text.textContent = `${feature.id ?? "?"}: ${kindOf(feature.type).label} (${(feature.polygon ?? []).length} corners)`;
    const remove = document.createElement("button");
    remove.type = "button";
    remove.textContent = `Remove ${feature.id ?? ""}`;
    remove.addEventListener("click", () => {
      const current = readTerrain() ?? [];
      current.splice(index, 1);
      writeTerrain(current);
    });
    item.append(text, " ", remove);
    list.appendChild(item);
  });
}

function draw() {
  const [width, height] = size();
  const table = setUpTable(svg, width, height);
  const terrain = readTerrain();
  if (terrain === null) {
    status.textContent = "The terrain JSON cannot be read; fix it to see the map.";
    return;
  }
  renderTerrain(svg, terrain, { width, height, legend, kinds });
  drawFeatureList(terrain);
  if (corners.length) {
    const sketch = el("g", { class: "sketch" }, table);
    el("polyline", { points: corners.map((p) => p.join(",")).join(" "), fill: "none", stroke: "#1f6feb", "stroke-width": 0.12, "stroke-dasharray": "0.4 0.2" }, sketch);
    for (const [x, y] of corners) el("circle", { cx: x, cy: y, r: 0.25, fill: "#1f6feb" }, sketch);
  }
}

function round(value) {
  return Math.round(value * 4) / 4; // quarter inches: what a tape measure gives
}

function finish() {
  if (corners.length < 3) {
    status.textContent = "A polygon needs at least 3 corners.";
    return;
  }
  const terrain = readTerrain() ?? [];
  const type = typeSelect.value;
  const feature = { id: nextId(terrain, type), type, polygon: corners };
  for (const input of keyFields.querySelectorAll("input")) {
    if (input.value.trim() !== "") feature[input.dataset.key] = keyValue(input.value.trim());
  }
  terrain.push(feature);
  corners = [];
  status.textContent = `Added ${feature.id} (${kindOf(type).label}).`;
  writeTerrain(terrain);
}

svg.addEventListener("click", (event) => {
  const [width, height] = size();
  const [x, y] = tablePoint(svg, event);
  if (x < 0 || y < 0 || x > width || y > height) return;
  corners.push([round(x), round(y)]);
  status.textContent = `${corners.length} corner${corners.length === 1 ? "" : "s"}; last at (${round(x)}, ${round(y)}).`;
  draw();
});
document.getElementById("tool-finish").addEventListener("click", finish);
document.getElementById("tool-cancel").addEventListener("click", () => {
  corners = [];
  status.textContent = "Polygon cancelled.";
  draw();
});
document.addEventListener("keydown", (event) => {
  if (event.target.closest("form")) return;
  if (event.key === "Enter") finish();
  if (event.key === "Escape") {
    corners = [];
    draw();
  }
});
for (const input of [textarea, widthInput, heightInput]) input.addEventListener("input", draw);
typeSelect.addEventListener("change", drawKeyFields);
drawKeyFields();

tools.hidden = false;
draw();
