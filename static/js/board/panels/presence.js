// @ts-check
// Who is at the table now.
import { item } from "./util.js";

export class Presence {
  constructor() {
    this.list = document.getElementById("presence");
    this.count = document.getElementById("presence-count");
  }

  show(present) {
    this.list.replaceChildren();
    for (const p of present) {
      const li = item("li", `role-${p.role}`);
      li.append(item("span", "who", p.user), item("span", "role", p.role === "gm" ? "GM" : p.role));
      this.list.append(li);
    }
    this.count.textContent = `${present.length} present`;
    this.count.title = present.map((p) => p.user).join(", ");
  }
}
