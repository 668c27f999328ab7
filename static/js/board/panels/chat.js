// @ts-check
// Chat: what people say, as plain text.
import { appendKeepingScroll, clock, item } from "./util.js";

export class Chat {
  constructor(board) {
    this.board = board;
    this.list = document.getElementById("chat-log");
    this.input = /** @type {HTMLInputElement} */ (document.getElementById("chat-text"));
    this.seen = new Set();
    document.getElementById("chat-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      board.command({ type: "chat", text: text.slice(0, 500) }, "chat");
      this.input.value = "";
    });
  }

  add(frame) {
    if (this.seen.has(frame.seq)) return;
    this.seen.add(frame.seq);
    const li = item("li", frame.actor === this.board.store.me.user ? "mine" : "");
    li.append(item("strong", "who", frame.actor ?? "?"), item("span", "text", frame.text ?? ""), item("time", "at", clock(frame.at)));
    appendKeepingScroll(this.list, li, 200);
  }

  reset(frames) {
    this.list.replaceChildren();
    this.seen.clear();
    for (const frame of frames) this.add(frame);
  }
}
