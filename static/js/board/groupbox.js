// @ts-check
// Box selection (ui.md, "Groups"): a Shift-drag on the empty table draws a box, and every
// piece this player may order whose centre lies inside it becomes the group. Only Shift
// starts a box: a plain drag still pans, Alt-click pings, a tool's press is the tool's.
// A finger has no Shift: held still on the empty table it starts the box (touch.js), and
// a finger that moves at once keeps its one-finger pan.
import { dragSlop } from "./drag.js";
import { el } from "./svg.js";

export class GroupBox {
  constructor(board) {
    this.board = board;
    this.start = null; // {x, y} client, and `at`, the svg point pressed
    this.rect = null;
  }

  /** Whether a press starts a box: Shift, the main button, where a box may start. */
  starts(e) {
    return e.shiftKey && !e.altKey && e.button === 0 && this.mayStart(e);
  }

  /** Whether a box may start at a press: on no piece, with nothing else on. */
  mayStart(e) {
    const b = this.board;
    return !b.tools.active && !b.readOnly() && !b.mover.active && !e.target.closest(".piece, .rotate-handle");
  }

  /** A box from a client point (a finger held there, touch.js): the pointer's next moves
   *  draw it. */
  startAt(x, y) {
    this.start = { x, y, at: this.board.view.svgPoint(x, y) };
    this.board.setHint("Group: slide the finger to draw the box, lift it to pick every piece of yours inside.");
  }

  attach(svg) {
    svg.addEventListener("pointerdown", (e) => {
      if (!this.starts(e)) return;
      this.start = { x: e.clientX, y: e.clientY, at: this.board.view.svgPoint(e.clientX, e.clientY) };
      svg.setPointerCapture(e.pointerId);
    });
    svg.addEventListener("pointermove", (e) => {
      if (!this.start || (!this.rect && Math.hypot(e.clientX - this.start.x, e.clientY - this.start.y) <= dragSlop(e))) return;
      this.rect ??= el("rect", { class: "group-box" }, svg);
      const [x0, y0] = this.start.at, [x1, y1] = this.board.view.svgPoint(e.clientX, e.clientY);
      Object.entries({ x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0) })
        .forEach(([k, v]) => this.rect.setAttribute(k, v));
      this.board.setHint("Group: release to pick every piece of yours inside the box.");
    });
    const end = (e) => {
      const rect = this.rect, start = this.start;
      this.start = this.rect = null;
      if (!rect) return;
      rect.remove();
      if (e.type === "pointercancel") return;
      this.pick(start.at, this.board.view.svgPoint(e.clientX, e.clientY));
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
  }

  /** The group: the pieces of yours whose centre is inside the box (svg corners, y down),
   *  left to right, then top to bottom, the order their orders are proposed in. */
  pick([x0, y0], [x1, y1]) {
    const { store } = this.board, h = this.board.height();
    const within = (v, a, b) => v >= Math.min(a, b) && v <= Math.max(a, b);
    const inside = (store.state?.units ?? [])
      .filter((u) => u.position && !u.aboard && store.mayOrder(u) && within(u.position[0], x0, x1) && within(h - u.position[1], y0, y1))
      .sort((a, b) => a.position[0] - b.position[0] || b.position[1] - a.position[1]);
    this.board.group.set(inside.map((u) => u.id));
  }
}
