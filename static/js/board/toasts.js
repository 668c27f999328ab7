// @ts-check
// Non-blocking notices: a refused move's reasons, connection news, GM results. Each is
// read out by the announcer (announce.js): an error at once, the others politely.
import { spokenText } from "./announce.js";
import { item } from "./panels/util.js";

export class Toasts {
  constructor(container, announcer = null) {
    this.container = container;
    this.announcer = announcer;
  }

  show(title, lines = [], kind = "info", ms = 6000) {
    const box = item("div", `toast toast-${kind}`);
    box.append(item("strong", "", title));
    if (lines.length) {
      const list = item("ul");
      // A line is text, or a node (preview.js reasonNode).
      for (const line of lines) list.appendChild(item("li")).append(line);
      box.append(list);
    }
    const close = item("button", "toast-close", "×");
    close.type = "button";
    close.setAttribute("aria-label", "Dismiss");
    close.addEventListener("click", () => box.remove());
    box.append(close);
    this.container.append(box);
    const words = (line) => (typeof line === "string" ? line : spokenText(line));
    this.announcer?.say([title, ...lines.map(words)].filter(Boolean).join(". "), kind === "error");
    // Three at most; one that waits for the player (ms 0: a refusal) goes last.
    box.dataset.ms = ms;
    while (this.container.children.length > 3) (this.container.querySelector(":scope > :not([data-ms='0'])") ?? this.container.firstChild).remove();
    if (ms) setTimeout(() => box.remove(), ms);
    return box;
  }
}
