// @ts-check
// The battle page's picture of the table: terrain, deployment zones, and the units' bases.
// While the battle deploys, a member drags the units they may place (the GM any, a player
// their own) into their side's zone; each drop is sent to the server, which checks the
// zone, other bases and the terrain, and answers with where the unit stands or why not.
// Until a unit is first set down it waits in the tray beside the table (ui.md, "Before the
// battle"), not on the table: it is dragged from the tray onto the table the same way.
import { el, renderTerrain, setUpTable, tablePoint } from "./render/terrain.js";
import { sideColour } from "./sides.js";

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
renderTerrain(svg, state.terrain ?? [], { width, height, legend: document.getElementById("battle-legend"), kinds: read("battle-kinds"), unstyled: read("battle-terrain-unstyled") });

const sides = Object.keys(zones).sort();
const colour = (side) => sideColour(sides, side);
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
const tray = document.getElementById("tray-units");

/** The unit leaves the table for the tray: a row with its side's colour and its name. */
function toTray(unit) {
  const { group, name } = nodes.get(unit.id);
  group.classList.add("in-tray");
  name.classList.add("in-tray");
  const item = document.createElement("li");
  item.className = placeable.has(unit.id) ? "tray-unit placeable" : "tray-unit";
  item.dataset.unit = unit.id;
  const swatch = el("svg", { class: "swatch", viewBox: "0 0 1 1", "aria-hidden": "true" }, item);
  el("rect", { width: 1, height: 1, fill: colour(unit.side) }, swatch);
  const text = document.createElement("span");
  text.textContent = `${nameOf(unit.id)} (${unit.side})`;
  item.append(text);
  if (placeable.has(unit.id)) item.title = "Drag onto your side's zone on the table";
  tray.append(item);
}

/** The unit, set down by the server, leaves the tray for the table. */
function outOfTray(id) {
  tray?.querySelector(`li[data-unit="${CSS.escape(id)}"]`)?.remove();
  const { group, name } = nodes.get(id);
  group.classList.remove("in-tray");
  name.classList.remove("in-tray");
  showTrayEmpty();
}

function showTrayEmpty() {
  const empty = document.getElementById("tray-empty");
  if (empty) empty.hidden = tray.children.length > 0;
}

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
  if (tray && !labels[unit.id]?.deployed) toTray(unit);
}
showTrayEmpty();

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
  return /** @type {HTMLInputElement | null} */ (document.querySelector("#deploy-csrf [name=csrfmiddlewaretoken]"))?.value ?? "";
}

async function send(id, position, facing) {
  const response = await fetch(deployUrl, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify({ unit: id, position, facing }),
  });
  let answer;
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

tray?.addEventListener("pointerdown", (event) => {
  const item = /** @type {HTMLLIElement | null} */ (/** @type {Element} */ (event.target).closest?.("li.tray-unit.placeable"));
  if (!item || event.button !== 0 || !deployUrl) return;
  const { unit } = nodes.get(item.dataset.unit);
  // From the tray there is no grip: the base's centre follows the pointer.
  drag = { id: unit.id, fromTray: item, start: null, startFacing: unit.facing ?? 0, grip: [0, 0], position: null, facing: unit.facing ?? 0, pointerId: event.pointerId };
  item.setPointerCapture(event.pointerId);
  item.classList.add("dragging");
  event.preventDefault();
  say(`Placing ${nameOf(unit.id)}: drop it in its side's zone on the table…`);
});

/** Whether the pointer is over the table's picture (a drag from the tray may end off it). */
function overTable(event) {
  const box = svg.getBoundingClientRect();
  return event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
}

svg.addEventListener("pointerdown", (event) => {
  const group = /** @type {SVGGElement | null} */ (/** @type {Element} */ (event.target).closest?.("g.unit.placeable"));
  if (!group || event.button !== 0 || !deployUrl) return;
  const { unit } = nodes.get(group.dataset.unit);
  const [px, py] = tablePoint(svg, event);
  drag = { id: unit.id, start: [...unit.position], startFacing: unit.facing ?? 0, grip: [px - unit.position[0], py - unit.position[1]], position: [...unit.position], facing: unit.facing ?? 0, pointerId: event.pointerId };
  svg.setPointerCapture(event.pointerId);
  group.classList.add("dragging");
  event.preventDefault();
  say(`Placing ${nameOf(unit.id)}…`);
});

document.addEventListener("pointermove", (event) => {
  if (!drag || event.pointerId !== drag.pointerId) return;
  const { group, name, unit } = nodes.get(drag.id);
  if (drag.fromTray) {
    const over = overTable(event);
    group.classList.toggle("in-tray", !over);
    name.classList.toggle("in-tray", !over);
    if (!over) {
      drag.position = null; // let go here and the unit stays in the tray
      return;
    }
    group.classList.add("dragging");
  }
  const [px, py] = tablePoint(svg, event);
  drag.position = [round(Math.min(width, Math.max(0, px - drag.grip[0]))), round(Math.min(height, Math.max(0, py - drag.grip[1])))];
  place(group, { ...unit, position: drag.position, facing: drag.facing });
});

document.addEventListener("keydown", (event) => {
  if (!drag || !drag.position || !["q", "Q", "e", "E"].includes(event.key)) return;
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
  done.fromTray?.classList.remove("dragging");
  const back = () => (done.fromTray ? backToTray(done.id) : place(group, unit));
  const moved = done.position && (done.fromTray || done.position[0] !== done.start[0] || done.position[1] !== done.start[1] || done.facing !== done.startFacing);
  if (!moved || event.type === "pointercancel") {
    back();
    say("");
    return;
  }
  group.classList.add("pending");
  const answer = await send(done.id, done.position, done.facing);
  group.classList.remove("pending");
  if (answer.error) {
    back(); // back where the server has it: on the table, or in the tray
    const shown = done.fromTray ?? group;
    shown.classList.add("refused");
    setTimeout(() => shown.classList.remove("refused"), 1500);
    say(`Refused: ${answer.error}`, true);
    return;
  }
  if (done.fromTray) outOfTray(done.id);
  unit.position = answer.position;
  unit.facing = answer.facing;
  place(group, unit);
  showInTable(done.id, unit.position, unit.facing);
  say(`${nameOf(done.id)} placed at (${unit.position[0]}, ${unit.position[1]}), facing ${Math.round(unit.facing)}°.`);
}

/** A unit dragged from the tray and not set down goes back to it, off the table. */
function backToTray(id) {
  const { group, name, unit } = nodes.get(id);
  group.classList.add("in-tray");
  name.classList.add("in-tray");
  place(group, unit);
}

document.addEventListener("pointerup", drop);
document.addEventListener("pointercancel", drop);
