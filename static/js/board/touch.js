// @ts-check
// Touch on the table, on tablets and phones. One finger is the mouse: drag.js
// and view.js take its pointer events as they come (select, drag with previews, drop,
// pan the empty table), so a finger's move is judged as the mouse's is, by the same
// code. What a hand has and a mouse has not lives here: a second finger makes the
// gesture the view's, pan and pinch-zoom (a drag in hand is dropped, nothing sent), and
// a finger held still on a piece opens the piece's menu (contextmenu.js), as a
// right-click does, and held still on the empty table starts a box (groupbox.js), as a
// Shift-drag does: the finger then draws it, and lifting it picks the group.
import { dragSlop } from "./drag.js";

const HOLD_MS = 550; // a long press: about Android's and iOS's own

export class TouchGestures {
  constructor(board) {
    this.board = board;
    this.fingers = new Map(); // pointer id -> [x, y], for the fingers put on the table
    this.spent = new Set(); // fingers that took part in a pinch: the view's until lifted
    this.pinch = null; // {d, mid} of the last two-finger position
    this.hold = null; // {id, x, y, unit, timer}: a finger resting on a piece
  }

  /** Capture-phase listeners on the document: they see a finger before the tools, the
   *  point picker and the drag do, and keep a pinch's fingers from them. */
  attach() {
    const capture = { capture: true };
    document.addEventListener("pointerdown", (e) => this.down(e), capture);
    document.addEventListener("pointermove", (e) => this.move(e), capture);
    document.addEventListener("pointerup", (e) => this.up(e), capture);
    document.addEventListener("pointercancel", (e) => this.up(e), capture);
  }

  down(e) {
    if (e.pointerType !== "touch" || !this.board.svg.contains(e.target)) return;
    this.fingers.set(e.pointerId, [e.clientX, e.clientY]);
    if (this.fingers.size === 1) return this.rest(e);
    // Another finger: the gesture is the view's, whatever the first one began.
    this.stopHold();
    e.stopPropagation();
    e.preventDefault();
    this.board.mover.cancel();
    for (const id of this.fingers.keys()) this.spent.add(id);
    this.pinch = this.spread();
  }

  move(e) {
    if (!this.fingers.has(e.pointerId)) return;
    const [x0, y0] = this.fingers.get(e.pointerId);
    this.fingers.set(e.pointerId, [e.clientX, e.clientY]);
    const hold = this.hold;
    if (hold?.id === e.pointerId && (Math.hypot(e.clientX - hold.x, e.clientY - hold.y) > dragSlop(e) || this.board.mover.active)) this.stopHold();
    if (!this.spent.has(e.pointerId)) return;
    e.stopPropagation();
    if (!this.pinch || (x0 === e.clientX && y0 === e.clientY)) return;
    const now = this.spread();
    // Zoom about the fingers' midpoint, then follow it: the table stays under the hand.
    if (now.d > 1 && this.pinch.d > 1) this.board.view.zoomAt(now.d / this.pinch.d, ...this.pinch.mid);
    this.board.view.panBy(now.mid[0] - this.pinch.mid[0], now.mid[1] - this.pinch.mid[1]);
    this.pinch = now;
  }

  up(e) {
    if (!this.fingers.delete(e.pointerId)) return;
    if (this.hold?.id === e.pointerId) this.stopHold();
    this.spent.delete(e.pointerId);
    this.pinch = this.fingers.size >= 2 ? this.spread() : null;
  }

  /** The first two fingers' spread (px) and midpoint (client coordinates). */
  spread() {
    const [a, b] = [...this.fingers.values()];
    return { d: Math.hypot(a[0] - b[0], a[1] - b[1]), mid: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] };
  }

  /** A finger on a piece, or on the empty table where a box may start: held still long
   *  enough, it opens the piece's menu, or starts the box. */
  rest(e) {
    const unit = e.target.closest?.(".piece")?.dataset.unit ?? null;
    const b = this.board;
    if (b.tools.active || b.points.picking || b.mover.active) return;
    if (!unit && !b.groupBox.mayStart(e)) return;
    const { pointerId: id, clientX: x, clientY: y } = e;
    this.hold = { id, x, y, unit, timer: setTimeout(() => this.held(), HOLD_MS) };
  }

  held() {
    const { id, unit, x, y } = this.hold;
    this.hold = null;
    if (!unit) {
      // The finger is the box's now, no longer the view's pan.
      this.board.view.release(id);
      this.board.groupBox.startAt(x, y);
      return;
    }
    // The press is forgotten: lifting the finger sends nothing.
    this.board.mover.cancel();
    this.board.openMenu(unit, x, y);
  }

  stopHold() {
    clearTimeout(this.hold?.timer);
    this.hold = null;
  }
}
