// The battle page's picture of the table: terrain, deployment zones, and the units' bases.
// While the battle deploys, a member drags the units they may place (the GM any, a player
// their own) into their side's zone; each drop is sent to the server, which checks the
// zone, other bases and the terrain, and answers with where the unit stands or why not.
import { el, renderTerrain, setUpTable, tablePoint } from "./render/terrain.js";

const SIDE_COLOURS = ["#0b5cad", "#c0392b", "#1a7f37", "#8250df"];
const TURN_STEP = 45;

function read(id) {
  return JSON.parse(document.getElementById(id).textContent);
}

const svg = document.getElementById("battle-svg");
const state = read("battle-state");
const zones = read("battle-zones");
const labels = read("battle-labels");
const placeable = new Set(document.getElementById("battle-placeable") ? read("battle-placeable") : []);
const { width, height } = state.table;
const table = setUpTable(svg, width, height);
renderTerrain(svg, state.terrain ?? [], { width, height, legend: document.getElementById("battle-legend"), kinds: read("battle-kinds") });

const sides = Object.keys(zones).sort();
const colour = (side) => SIDE_COLOURS[Math.max(0, sides.indexOf(side)) % SIDE_COLOURS.length];
const zoneLayer = el("g", { class: "zones" }, table);
for (const side of sides) {
  const zone = el("polygon", { points: zones[side].map((p) => p.join(",")).join(" "), fill: colour(side), "fill-opacity": 0.12, stroke: colour(side), "stroke-width": 0.12, "stroke-dasharray": "0.5 0.3", class: "zone" }, zoneLayer);
  zone.dataset.side = side;
  el("title", {}, zone).textContent = `Deployment zone of ${side}`;
}
const unitLayer = el("g", { class: "units" }, table);
// Names sit outside the flipped table group, so that they read upright.
const nameLayer = el("g", { class: "unit-names" }, svg);
const nodes = new Map();

function radiusOf(unit) {
  const base = unit.base ?? { diameter: 1 };
  return base.shape === "rect" ? Math.hypot(base.length, base.width) / 2 : base.diameter / 2;
}

function place(group, unit) {
  const [x, y] = unit.position;
  group.setAttribute("transform", `translate(${x} ${y}) rotate(${unit.facing ?? 0})`);
  const name = nodes.get(unit.id)?.name;
  if (name) {
    name.setAttribute("x", String(x));
    name.setAttribute("y", String(height - y + radiusOf(unit) + 0.9));
  }
}

for (const unit of state.units ?? []) {
  const group = el("g", { class: placeable.has(unit.id) ? "unit placeable" : "unit" }, unitLayer);
  group.dataset.unit = unit.id;
  place(group, unit);
  const base = unit.base ?? { shape: "circle", diameter: 1 };
  const style = { fill: colour(unit.side), "fill-opacity": 0.85, stroke: "#111", "stroke-width": 0.06, class: "base" };
  if (base.shape === "rect") el("rect", { x: -base.length / 2, y: -base.width / 2, width: base.length, height: base.width, ...style }, group);
  else el("circle", { r: base.diameter / 2, ...style }, group);
  // facing notch: a white tick from the centre towards the front
  el("line", { x1: 0, y1: 0, x2: (base.length ?? base.diameter) / 2, y2: 0, stroke: "#fff", "stroke-width": 0.15 }, group);
  el("title", {}, group).textContent = `${labels[unit.id]?.name ?? unit.id} (${unit.side})${placeable.has(unit.id) ? ": drag to deploy" : ""}`;
  const name = el("text", { class: "unit-name", "text-anchor": "middle", "font-size": 0.8 }, nameLayer);
  name.textContent = labels[unit.id]?.name ?? unit.id;
  nodes.set(unit.id, { group, unit, name });
  place(group, unit);
}

// -- deployment by drag ---------------------------------------------------------------------

const status = document.getElementById("deploy-status");
const deployUrl = document.getElementById("battle-deploy-url")?.dataset.url;
let drag = null; // {id, start: [x, y], grip: [dx, dy], position, facing, pointerId}

function say(text, bad = false) {
  if (!status) return;
  status.textContent = text;
  status.classList.toggle("error", bad);
}

function nameOf(id) {
  return labels[id]?.name ?? id;
}

function rowOf(id) {
  return document.querySelector(`tr[data-unit="${CSS.escape(id)}"]`);
}

/** The typed table (optional) follows what the drag placed. */
function showInTable(id, position, facing) {
  const row = rowOf(id);
  if (!row) return;
  const [x, y, f] = row.querySelectorAll("input");
  if (x) x.value = String(position[0]);
  if (y) y.value = String(position[1]);
  if (f) f.value = String(facing);
}

function csrfToken() {
  return document.querySelector("#deploy-csrf [name=csrfmiddlewaretoken]")?.value ?? "";
}

async function send(id, position, facing) {
  const response = await fetch(deployUrl, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify({ unit: id, position, facing }),
  });
  let answer = {};
  try {
    answer = await response.json();
  } catch {
    answer = { error: `The server answered ${response.status}.` };
  }
  return response.ok ? answer : { error: answer.error ?? `The server answered ${response.status}.` };
}

function round(value) {
  return Math.round(value * 4) / 4; // quarter inches: what a tape measure gives
}

svg.addEventListener("pointerdown", (event) => {
  const group = event.target.closest?.("g.unit.placeable");
  if (!group || event.button !== 0 || !deployUrl) return;
  const { unit } = nodes.get(group.dataset.unit);
  const [px, py] = tablePoint(svg, event);
  drag = { id: unit.id, start: [...unit.position], startFacing: unit.facing ?? 0, grip: [px - unit.position[0], py - unit.position[1]], position: [...unit.position], facing: unit.facing ?? 0, pointerId: event.pointerId };
  svg.setPointerCapture(event.pointerId);
  group.classList.add("dragging");
  event.preventDefault();
  say(`Placing ${nameOf(unit.id)}…`);
});

svg.addEventListener("pointermove", (event) => {
  if (!drag || event.pointerId !== drag.pointerId) return;
  const [px, py] = tablePoint(svg, event);
  drag.position = [round(Math.min(width, Math.max(0, px - drag.grip[0]))), round(Math.min(height, Math.max(0, py - drag.grip[1])))];
  const { group, unit } = nodes.get(drag.id);
  place(group, { ...unit, position: drag.position, facing: drag.facing });
});

document.addEventListener("keydown", (event) => {
  if (!drag || !["q", "Q", "e", "E"].includes(event.key)) return;
  drag.facing = (drag.facing + (event.key.toLowerCase() === "q" ? TURN_STEP : -TURN_STEP) + 360) % 360;
  const { group, unit } = nodes.get(drag.id);
  place(group, { ...unit, position: drag.position, facing: drag.facing });
  event.preventDefault();
});

async function drop(event) {
  if (!drag || event.pointerId !== drag.pointerId) return;
  const done = drag;
  drag = null;
  const { group, unit } = nodes.get(done.id);
  group.classList.remove("dragging");
  const moved = done.position[0] !== done.start[0] || done.position[1] !== done.start[1] || done.facing !== done.startFacing;
  if (!moved || event.type === "pointercancel") {
    place(group, unit);
    say("");
    return;
  }
  group.classList.add("pending");
  const answer = await send(done.id, done.position, done.facing);
  group.classList.remove("pending");
  if (answer.error) {
    place(group, unit); // back where the server has it
    group.classList.add("refused");
    setTimeout(() => group.classList.remove("refused"), 1500);
    say(`Refused: ${answer.error}`, true);
    return;
  }
  unit.position = answer.position;
  unit.facing = answer.facing;
  place(group, unit);
  showInTable(done.id, unit.position, unit.facing);
  say(`${nameOf(done.id)} placed at (${unit.position[0]}, ${unit.position[1]}), facing ${Math.round(unit.facing)}°.`);
}

svg.addEventListener("pointerup", drop);
svg.addEventListener("pointercancel", drop);
