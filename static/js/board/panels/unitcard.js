// @ts-check
// The unit card: the selected piece's stats and status, and what this client may do with it.
import { marksOf } from "../pieces.js";
import { summaryText } from "./turn.js";
import { item } from "./util.js";

const $ = (id) => document.getElementById(id);
const SHOWN = new Set(["id", "side", "type", "move", "base", "position", "facing"]);

function baseText(base) {
  if (!base) return "?";
  return base.shape === "rect" ? `${base.width}″ × ${base.length}″ rect` : `${base.diameter}″ round`;
}

/** A stat as a player reads it: {"PSQ": 4, "INS": 3} is "PSQ 4 · INS 3", not JSON. */
function valueText(value) {
  if (Array.isArray(value)) return value.map(valueText).join(", ");
  if (value && typeof value === "object") return Object.entries(value).map(([k, v]) => `${k} ${valueText(v)}`).join(" · ");
  return String(value);
}

/** The card's rows, [name, value], for a unit: the group's cards show them too. */
export function statRows(board, unit) {
  const store = board.store, rows = [];
  const row = (k, v) => rows.push([k, v]);
  row("Side", unit.side);
  row("Type", String(unit.type ?? "?").replaceAll("_", " "));
  if (unit.move != null) row("Move", board.actions.cost(unit.move)); // a skirmisher has AP, no move
  row("Base", baseText(unit.base));
  row("At", unit.aboard ? `aboard ${store.name(unit.aboard)}` : `${unit.position[0].toFixed(1)}, ${unit.position[1].toFixed(1)} facing ${Math.round(unit.facing ?? 0)}°`);
  if (unit.position?.length > 2 && unit.position[2] > 0) row("Altitude", `${unit.position[2]}″`);
  // What the referee's verdict said of it beyond the shared fields (its system's notes).
  for (const [label, value] of board.verdictNotes?.(unit.id) ?? []) row(label, String(value).replaceAll("_", " "));
  // Other keys as rows; a group of stats ({"PSQ": 4, "INS": 3}) a row each.
  const plain = (v) => v && typeof v === "object" && !Array.isArray(v);
  for (const [k, v] of Object.entries(unit)) if (!SHOWN.has(k) && k !== "aboard") for (const [name, value] of plain(v) ? Object.entries(v) : [[k, v]]) row(name.replaceAll("_", " "), valueText(value));
  return rows;
}

export class UnitCard {
  constructor(board) {
    this.board = board;
    this.body = $("unit-card-body");
    this.empty = $("unit-card-empty");
  }

  show(unit) {
    const group = this.board.groupCards.show(); // several picked: their cards instead
    this.body.hidden = !unit || group;
    this.empty.hidden = Boolean(unit) || group;
    if (!unit || group) return;
    const store = this.board.store;
    $("unit-name").textContent = store.name(unit.id);
    $("unit-swatch").style.background = this.board.pieces.colour(unit.side);
    const stats = $("unit-stats");
    stats.replaceChildren(...statRows(this.board, unit).flatMap(([k, v]) => [item("dt", "", k), item("dd", "", v)]));
    // Its states (the system's catalogue) and free markers, the free ones removable by
    // whoever may mark the piece (the server checks it again).
    const mayMark = !this.board.readOnly() && store.mayOrder(unit);
    const marks = marksOf(unit, this.board.marking);
    $("unit-badges").replaceChildren(...marks.map((m) => {
      const li = item("li", m.kind === "state" ? "badge" : "marker", m.text);
      li.title = m.title;
      if (m.kind === "free") {
        li.dataset.seq = m.seq;
        li.style.background = m.fill;
        li.style.color = m.ink;
        if (mayMark) {
          const remove = item("button", "unmark", "×");
          remove.type = "button";
          remove.dataset.unmark = m.seq;
          remove.setAttribute("aria-label", `Remove the marker “${m.text}”`);
          li.append(remove);
        }
      }
      return li;
    }));
    $("mark-form").hidden = !mayMark;
    // What it may do now: the server's list for this unit, in the catalogue's words.
    const offered = store.offered(unit.id);
    const labels = offered === null ? [] : offered.map((type) => this.board.actions.label(type));
    const drags = this.board.actions.offeredDrags(unit.id).length > 0;
    let may;
    if (this.board.readOnly()) may = !this.board.replay.live ? "Replay: read-only." : "Watching: read-only.";
    else if (!store.mayOrder(unit)) may = `${unit.side}'s unit: not yours to order.`;
    else if (store.turn.active_side && store.turn.active_side !== unit.side) may = `Waits: it is ${store.turn.active_side}'s turn.`;
    else if (offered !== null && !labels.length) {
      // The referee would refuse any order now (already ordered, nothing left): say so,
      // with what the side has left, rather than let the player plan one.
      may = `Nothing more is open to it this turn.${store.summary ? ` ${summaryText(store)}.` : ""}`;
    }
    else {
      const how = drags ? " Drag to move, or press Enter and click waypoints or step with the arrows (T types where); Q/E or the handle rotate; R shows its reach." : "";
      const left = store.summary ? ` ${summaryText(store)}.` : "";
      may = `${labels.length ? `May now: ${labels.join(", ")}.` : ""}${left}${how}`.trim();
    }
    $("unit-may").textContent = may;
  }
}
