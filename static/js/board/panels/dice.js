// @ts-check
// The dice log: every roll, the engine's during moves and the players' own.
// A player rolls a formula ("2d6+1"); the server rolls the dice and records the formula
// as the roll's label, so every client (and a reload) reads the same total from it.
import { appendKeepingScroll, item } from "./util.js";

/** How long the Roll button stays disabled at most while a roll is on its way (ms). */
const ROLL_PENDING_MS = 4000;
const FORMULA = /^\s*(\d{1,2})?\s*d\s*(\d{1,3})\s*(?:([+-])\s*(\d{1,3}))?\s*$/i;
const LEADING_FORMULA = /^(\d{1,2})d(\d{1,3})([+-]\d{1,3})?(?=\s|$)/i;

/** {dice, sides, modifier, text} of a formula such as "2d6+1" or "d10", or null. */
export function parseFormula(text) {
  const match = FORMULA.exec(String(text ?? ""));
  if (!match) return null;
  const dice = Number(match[1] ?? 1);
  const sides = Number(match[2]);
  const modifier = match[3] ? Number(`${match[3]}${match[4]}`) : 0;
  if (dice < 1 || dice > 20 || sides < 2 || sides > 100) return null;
  const signed = modifier ? `${modifier > 0 ? "+" : ""}${modifier}` : "";
  return { dice, sides, modifier, text: `${dice}d${sides}${signed}` };
}

/** The modifier of a roll labelled "2d6+1 ..." whose dice match the formula, else 0. */
function modifierOf(label, rolls) {
  const match = LEADING_FORMULA.exec(label ?? "");
  if (!match) return 0;
  const [, dice, sides, modifier] = match;
  const fits = Number(dice) === rolls.length && rolls.every((r) => r.die === `d${sides}`);
  return fits && modifier ? Number(modifier) : 0;
}

/** One player's roll as one line: "alice: 2d6+1 morale → 3 + 4 + 1 = 8". */
export function rollLine(actor, rolls) {
  const label = rolls[0]?.what || `${rolls.length}${rolls[0]?.die ?? "d?"}`;
  const results = rolls.map((r) => r.result);
  const modifier = modifierOf(label, rolls);
  const total = results.reduce((a, b) => a + b, 0) + modifier;
  const terms = [...results.map(String), ...(modifier ? [String(Math.abs(modifier))] : [])];
  let sum = terms[0] ?? "";
  for (let i = 1; i < terms.length; i += 1) sum += `${modifier < 0 && i === terms.length - 1 ? " − " : " + "}${terms[i]}`;
  const shown = terms.length > 1 ? `${sum} = ${total}` : `${total}`;
  return { text: `${actor ?? "?"}: ${label} → ${shown}`, total };
}

export class DiceLog {
  constructor(board) {
    this.board = board;
    this.list = document.getElementById("dice-log");
    this.form = document.getElementById("roll-form");
    this.button = /** @type {HTMLButtonElement} */ (this.form.querySelector("button[type='submit']"));
    this.input = /** @type {HTMLInputElement} */ (document.getElementById("roll-formula"));
    this.seen = new Set();
    this.pending = null;
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.roll();
    });
    this.input.addEventListener("input", () => this.input.setCustomValidity(""));
  }

  /** Sends one roll; a second click (or Enter) while it is on its way sends nothing. */
  roll() {
    if (this.pending) return;
    const formula = parseFormula(this.input.value);
    if (!formula) {
      this.input.setCustomValidity("A formula such as 2d6+1, d10 or 3d6-2");
      this.input.reportValidity();
      return;
    }
    const what = /** @type {HTMLInputElement} */ (document.getElementById("roll-what")).value.trim();
    const label = `${formula.text}${what ? ` ${what}` : ""}`.slice(0, 120);
    this.board.command({ type: "roll", dice: formula.dice, sides: formula.sides, what: label }, "roll");
    this.button.disabled = true;
    this.pending = setTimeout(() => this.done(), ROLL_PENDING_MS);
  }

  done() {
    clearTimeout(this.pending);
    this.pending = null;
    this.button.disabled = false;
  }

  line(cls, seq, text) {
    const li = item("li", cls);
    li.append(item("span", "seq", `#${seq}`), item("span", "what", text));
    appendKeepingScroll(this.list, li, 200);
    return li;
  }

  /** The engine's rolls, one line each with what it needed; a player's roll, one line. */
  add(entry) {
    const key = `${entry.seq}|${entry.what}|${entry.die}|${entry.result}|${this.list.children.length}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const needed = entry.needed ? ` (needs ${entry.needed}: ${entry.success ? "success" : "fail"})` : "";
    this.line(entry.success === false ? "fail" : entry.success ? "success" : "", entry.seq, `${entry.actor ?? "?"}: ${entry.what || "roll"} ${entry.die ?? ""} → ${entry.result}${needed}`);
  }

  addRoll(seq, actor, rolls) {
    const line = rollLine(actor, rolls);
    const li = this.line("roll", seq, line.text);
    li.dataset.seq = String(seq);
    li.dataset.total = String(line.total);
  }

  /** Entries grouped by event: a group of free rolls (nothing needed) is one player's roll. */
  addAll(entries) {
    const groups = [];
    for (const entry of entries) {
      const last = groups[groups.length - 1];
      if (last && last[0].seq === entry.seq) last.push(entry);
      else groups.push([entry]);
    }
    for (const group of groups) {
      if (group.every((r) => !r.needed && (r.success === null || r.success === undefined))) this.addRoll(group[0].seq, group[0].actor, group);
      else for (const entry of group) this.add(entry);
    }
  }

  fromEvent(frame) {
    if (this.rolled?.has(frame.seq)) return;
    (this.rolled ??= new Set()).add(frame.seq);
    if (frame.kind === "roll") {
      this.addRoll(frame.seq, frame.actor, frame.rolls ?? []);
      if (this.pending && frame.actor === this.board.config?.user) this.done();
      return;
    }
    for (const roll of frame.rolls ?? []) this.add({ seq: frame.seq, actor: frame.actor, ...roll });
  }

  reset(entries) {
    this.list.replaceChildren();
    this.seen.clear();
    this.rolled = new Set(entries.map((e) => e.seq));
    this.addAll(entries);
  }
}
