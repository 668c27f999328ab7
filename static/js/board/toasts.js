// Non-blocking notices: a refused move's reasons, connection news, GM results.
export class Toasts {
  constructor(container) {
    this.container = container;
  }

  show(title, lines = [], kind = "info", ms = 6000) {
    const box = document.createElement("div");
    box.className = `toast toast-${kind}`;
    box.setAttribute("role", kind === "error" ? "alert" : "status");
    const head = document.createElement("strong");
    head.textContent = title;
    box.append(head);
    if (lines.length) {
      const list = document.createElement("ul");
      for (const line of lines) {
        const item = document.createElement("li");
        item.textContent = line;
        list.append(item);
      }
      box.append(list);
    }
    const close = document.createElement("button");
    close.type = "button";
    close.className = "toast-close";
    close.setAttribute("aria-label", "Dismiss");
    close.textContent = "×";
    close.addEventListener("click", () => box.remove());
    box.append(close);
    this.container.append(box);
    while (this.container.children.length > 3) this.container.firstChild.remove();
    if (ms) setTimeout(() => box.remove(), ms);
    return box;
  }
}
