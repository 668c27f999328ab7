// @ts-check
// An action waiting for a roll the GM makes (docs/protocol.md, "Rolls the GM makes"):
// the table keeps it in its turn (`turn.pending`), so every client shows it from the
// position it holds. The GM enters the result here; everyone else sees the table wait.
import { item, rekey } from "./util.js";

export class PendingRoll {
  constructor(board) {
    this.board = board;
    this.box = document.getElementById("pending-roll");
  }

  /** Shows what the table waits for, or hides the box when nothing waits. */
  show(store, live) {
    const waiting = live ? store.turn?.pending ?? null : null;
    if (!rekey(this.box, waiting ? `${waiting.seq}|${store.me.role}` : "")) return;
    const prompt = waiting.prompt || "a roll";
    if (store.me.role !== "gm") {
      this.box.replaceChildren(item("span", "pending-text", `Waiting for the GM: ${prompt}`));
      return;
    }
    const buttons = ["success", "fail"].map((result) => {
      const button = item("button", `pending-${result}`, result === "success" ? "Success" : "Fail");
      button.type = "button";
      button.dataset.result = result;
      button.addEventListener("click", () => this.answer(result));
      return button;
    });
    this.box.replaceChildren(item("span", "pending-text", `${prompt}: enter success/fail`), ...buttons);
  }

  lock(locked) {
    for (const button of this.box.querySelectorAll("button")) button.disabled = locked;
  }

  answer(result) {
    this.lock(true);
    this.board.command({ type: "roll_result", result }, "Roll result");
    // Unlocked again if the answer is refused; a committed answer clears the box.
    setTimeout(() => this.lock(false), 4000);
  }
}
