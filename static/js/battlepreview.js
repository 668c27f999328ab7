// The battle page's picture of the table: terrain, deployment zones, and the units' bases.
import { el, renderTerrain, setUpTable } from "./render/terrain.js";

const SIDE_COLOURS = ["#0b5cad", "#c0392b", "#1a7f37", "#8250df"];

function read(id) {
  return JSON.parse(document.getElementById(id).textContent);
}

const svg = document.getElementById("battle-svg");
const state = read("battle-state");
const zones = read("battle-zones");
const labels = read("battle-labels");
const { width, height } = state.table;
const table = setUpTable(svg, width, height);
renderTerrain(svg, state.terrain ?? [], { width, height, legend: document.getElementById("battle-legend"), kinds: read("battle-kinds") });

const sides = Object.keys(zones).sort();
const colour = (side) => SIDE_COLOURS[Math.max(0, sides.indexOf(side)) % SIDE_COLOURS.length];
const zoneLayer = el("g", { class: "zones" }, table);
for (const side of sides) {
  const zone = el("polygon", { points: zones[side].map((p) => p.join(",")).join(" "), fill: colour(side), "fill-opacity": 0.12, stroke: colour(side), "stroke-width": 0.12, "stroke-dasharray": "0.5 0.3" }, zoneLayer);
  el("title", {}, zone).textContent = `Deployment zone of ${side}`;
}
const unitLayer = el("g", { class: "units" }, table);
for (const unit of state.units ?? []) {
  const [x, y] = unit.position;
  const group = el("g", { transform: `translate(${x} ${y}) rotate(${unit.facing ?? 0})`, class: "unit" }, unitLayer);
  const base = unit.base ?? { shape: "circle", diameter: 1 };
  const style = { fill: colour(unit.side), "fill-opacity": 0.85, stroke: "#111", "stroke-width": 0.06 };
  if (base.shape === "rect") el("rect", { x: -base.length / 2, y: -base.width / 2, width: base.length, height: base.width, ...style }, group);
  else el("circle", { r: base.diameter / 2, ...style }, group);
  // facing notch: a white tick from the centre towards the front
  el("line", { x1: 0, y1: 0, x2: (base.length ?? base.diameter) / 2, y2: 0, stroke: "#fff", "stroke-width": 0.15 }, group);
  el("title", {}, group).textContent = `${labels[unit.id]?.name ?? unit.id} (${unit.side})`;
}
