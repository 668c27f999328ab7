// @ts-check
// What a move does besides moving, in the engine's words (the verdict's `consequences`):
// under the preview, in the log, and a loss of one's own piece asked once (ui.md).
import { item } from "./panels/util.js";

const named = (text, name) => text.replace(/[\w-]+/g, name);

/** The preview's lines, a loss first marked: "⚠ Grav tank leaves the board: …". */
export const consequenceLines = (verdict, store) => (verdict?.consequences ?? []).map((c) => `${c.kind === "loses_unit" ? "⚠ " : ""}${named(c.text, (w) => store.name(w))}`);

/** The log's past tense for a committed act ("Grav tank left the board (a loss)"). */
export const doneTexts = (verdict, name) => (verdict?.consequences ?? []).filter((c) => c.done).map((c) => named(c.done, name));

/** The loss of the mover's own piece a legal verdict says, or null. */
export const ownLoss = (verdict) => (verdict?.legal && verdict.consequences?.find((c) => c.kind === "loses_unit")) || null;

/** Asks in the page, not by a blocking dialog: "Confirm move" sends, "Keep it" drops. */
export function askLoss(board, loss, yes, no) {
  const box = board.toasts.show("Send this move?", [named(loss.text, (w) => board.store.name(w))], "warn", 0);
  box.classList.add("confirm-loss");
  for (const [text, fn] of [["Confirm move", yes], ["Keep it", no]]) {
    const button = box.appendChild(item("button", "", text));
    button.type = "button";
    button.addEventListener("click", () => (box.remove(), fn()));
  }
  return box;
}
