// The dice log: every roll, the engine's during moves and the players' own.
import { appendKeepingScroll, item } from "./util.js";

export class DiceLog {
  constructor(board) {
    this.board = board;
    this.list = document.getElementById("dice-log");
    this.seen = new Set();
    document.getElementById("roll-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const dice = Number(document.getElementById("roll-dice").value);
      const sides = Number(document.getElementById("roll-sides").value);
      const what = document.getElementById("roll-what").value.trim().slice(0, 120);
      board.command({ type: "roll", dice, sides, ...(what ? { what } : {}) }, "roll");
    });
  }

  add(entry) {
    const key = `${entry.seq}|${entry.what}|${entry.die}|${entry.result}|${this.list.children.length}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const li = item("li", entry.success === false ? "fail" : entry.success ? "success" : "");
    const needed = entry.needed ? ` (needs ${entry.needed}: ${entry.success ? "success" : "fail"})` : "";
    li.append(item("span", "seq", `#${entry.seq}`), item("span", "what", `${entry.actor ?? "?"}: ${entry.what || "roll"} ${entry.die ?? ""} → ${entry.result}${needed}`));
    appendKeepingScroll(this.list, li, 200);
  }

  fromEvent(frame) {
    if (this.rolled?.has(frame.seq)) return;
    (this.rolled ??= new Set()).add(frame.seq);
    for (const roll of frame.rolls ?? []) this.add({ seq: frame.seq, actor: frame.actor, ...roll });
  }

  reset(entries) {
    this.list.replaceChildren();
    this.seen.clear();
    this.rolled = new Set(entries.map((e) => e.seq));
    for (const entry of entries) this.add(entry);
  }
}
