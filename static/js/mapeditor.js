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

let corners = [];

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
    text.textContent = `${feature.id ?? "?"}: ${feature.type} (${(feature.polygon ?? []).length} corners)`;
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
  renderTerrain(svg, terrain, { width, height, legend });
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
  const type = document.getElementById("tool-type").value;
  const feature = { id: nextId(terrain, type), type, polygon: corners };
  const heightValue = document.getElementById("tool-height").value;
  const sizeValue = document.getElementById("tool-size").value;
  if (heightValue !== "") feature.height = Number(heightValue);
  if (sizeValue !== "") feature.size_class = Number(sizeValue);
  terrain.push(feature);
  corners = [];
  status.textContent = `Added ${feature.id} (${type}).`;
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

tools.hidden = false;
draw();
