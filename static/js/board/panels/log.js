// @ts-check
// The event log, and its replay scrubber: drag it to see the table at any past seq.
import { reasonText, ruleNote } from "../preview.js";
import { words } from "../annotations.js";
import { doneTexts } from "../consequences.js";
import { appendKeepingScroll, clock, item } from "./util.js";

/** One line of the log for a table event (exported for its test). */
export function describe(frame, name, board) {
  const who = frame.actor ?? "?";
  switch (frame.kind) {
    case "act": {
      const a = frame.action ?? {};
      const order = `${who}: ${name(a.unit)} ${a.type ? board.actions.label(a.type).toLowerCase() : "acts"}`;
      // An act waiting for the GM's roll; the act the GM's result completes follows.
      if (frame.waiting) return `${order}: waits for the GM: ${frame.waiting.prompt ?? "a roll"}`;
      if (frame.verdict?.legal === false) {
        // Refused, yet committed (a failed breakaway spends the order): say why.
        const why = (frame.verdict.reasons ?? []).map((r) => reasonText(r, board.store ?? null, { unit: a.unit }).replace(/[\w-]+/g, name));
        return `${order}: refused, ${why.join("; ")}`;
      }
      // A free turn (the moved event's `free_turn`), not "standard move (0.0 MP)".
      if ((frame.verdict?.events ?? []).some((e) => e.free_turn === true)) {
        return `${who}: ${name(a.unit)} turned in place (free turn)`;
      }
      const cost = frame.verdict?.cost != null ? ` (${board.actions.cost(Number(frame.verdict.cost).toFixed(1))})` : "";
      // A path of turns alone went nowhere: "turned in place", not "move (0.0″)".
      const path = a.path ?? [];
      if (path.length && path.every((step) => !Array.isArray(step))) {
        const paid = Number(frame.verdict?.cost ?? 0) > 0 ? cost : "";
        // A turn in place that is an action of its own (a free spin) says which.
        return board.actions.spec(a.type)?.path === "turn" ? `${order}: turned in place${paid}` : `${who}: ${name(a.unit)} turned in place${paid}`;
      }
      // What it did besides moving, in the engine's words: "Grav tank left the board".
      const done = doneTexts(frame.verdict, name);
      return `${order}${cost}${done.length ? `: ${done.join("; ")}` : ""}`;
    }
    case "fiat":
      return `${who} placed ${name(frame.unit)} by fiat${frame.reason ? `: ${frame.reason}` : ""}`;
    case "undo":
      if (frame.takeback) return `${who} accepted ${frame.takeback.asked_by}'s take-back: #${frame.undoes} undone`;
      return `${who} undid #${frame.undoes}: ${frame.reason ?? ""}`;
    case "takeback": {
      const order = `#${frame.order}`;
      if (frame.step === "asked") return `${who} asked to take back ${order}`;
      if (frame.step === "declined") return `${who} declined ${frame.asked_by}'s take-back of ${order}`;
      return `${who} withdrew the take-back request of ${order}`;
    }
    case "turn": {
      const t = frame.turn ?? {};
      const now = frame.summary || `turn ${t.turn ?? "?"}, ${t.active_side ?? "?"} to act`;
      const ended = frame.ended === "part" ? "their part" : `the ${frame.ended ?? "turn"}`;
      return `${who} ended ${ended}: ${now}`;
    }
    case "roll":
      return `${who} rolled ${frame.rolls?.[0]?.what || frame.what || "dice"}: ${(frame.rolls ?? []).map((r) => r.result).join(", ")}`;
    case "delay":
      return `${who} set the spectator delay to ${frame.seconds} s`;
    case "annotate":
      return `${who} drew ${/^[aeiou]/.test(words(frame.annotation ?? {})) ? "an" : "a"} ${words(frame.annotation ?? {})}`;
    case "erase":
      return `${who} removed drawing #${frame.annotation}`;
    case "mark":
      return `${who} marked ${name(frame.marker?.unit)} “${frame.marker?.text ?? ""}”`;
    case "unmark":
      return `${who} removed marker #${frame.marker} from ${name(frame.unit)}`;
    default:
      return `${who}: ${frame.kind}`;
  }
}

export class EventLog {
  constructor(board) {
    this.board = board;
    this.list = document.getElementById("event-log");
    this.scrubber = /** @type {HTMLInputElement} */ (document.getElementById("scrubber"));
    this.out = document.getElementById("scrubber-out");
    this.seen = new Set();
    this.scrubber.addEventListener("input", () => this.goTo(Number(this.scrubber.value)));
    this.list.addEventListener("click", (e) => {
      const li = /** @type {HTMLLIElement | null} */ (/** @type {Element} */ (e.target).closest("li[data-seq]"));
      if (li) this.goTo(Number(li.dataset.seq));
    });
  }

  add(frame) {
    if (frame.kind === "chat" || this.seen.has(frame.seq)) return;
    this.seen.add(frame.seq);
    const li = item("li", `log-${frame.kind}${frame.verdict?.legal === false ? " refused" : ""}`);
    li.dataset.seq = frame.seq;
    li.title = "Show the table after this event";
    const what = item("span", "what", this.text(frame));
    // A refusal that changed the table: its rule under it, as in a toast.
    if (frame.kind === "act" && frame.verdict?.legal === false) for (const r of frame.verdict.reasons ?? []) ruleNote(what, r);
    li.append(item("span", "seq", `#${frame.seq}`), what, item("time", "at", clock(frame.at)));
    // History may arrive after newer lines: keep the list in seq order.
    const after = [.../** @type {HTMLCollectionOf<HTMLLIElement>} */ (this.list.children)].find((node) => Number(node.dataset.seq) > frame.seq);
    if (after) this.list.insertBefore(li, after);
    else appendKeepingScroll(this.list, li);
  }

  /** An event's line, as the log shows it and the announcer reads it. */
  text(frame) {
    return describe(frame, (id) => this.board.store.name(id), this.board);
  }

  /** The live seq moved on: the scrubber's end follows it unless a replay is shown. */
  live(seq) {
    const atEnd = this.board.replay.live;
    this.scrubber.max = String(Math.max(0, seq));
    if (atEnd) {
      this.scrubber.value = this.scrubber.max;
      this.out.textContent = "live";
    }
  }

  goTo(seq) {
    this.scrubber.value = String(seq);
    if (seq >= this.board.store.seq) {
      this.out.textContent = "live";
      this.board.replay.toLive();
      return;
    }
    this.out.textContent = `#${seq}`;
    this.board.replay.show(seq);
    for (const li of /** @type {HTMLCollectionOf<HTMLLIElement>} */ (this.list.children)) li.classList.toggle("current", Number(li.dataset.seq) === seq);
  }

  toLive() {
    for (const li of this.list.children) li.classList.remove("current");
    this.scrubber.value = this.scrubber.max;
    this.out.textContent = "live";
  }
}
