// @ts-check
// The keyboard's point on the table, so that every action on the board can be reached
// from the keyboard: while a tool is on (measure, line of sight, draw) a cross stands on
// the table; the arrows move it (1″, Shift 0.1″), Enter sets it as the tool's next point
// as a click there would (on a piece: the piece), and the typed point (T, keymove.js)
// puts it where the numbers say. Tab to a piece brings it there. It follows the pointer
// too, so that P pings where either last pointed. What it is at is read out.
import { dist, fmt } from "./geometry.js";
import { el, pxOf } from "./svg.js";

const READ_MS = 250; // where the cross is, read once the arrows pause
const round = (v) => Math.round(v * 100) / 100;

export class TableCursor {
  constructor(board) {
    this.board = board;
    this.at = null; // [x, y] in inches, north up
    this.node = null;
  }

  tool() {
    return this.board.tools.active;
  }

  /** The cross's point while a tool is on, else null. */
  point() {
    return this.tool() && this.at ? this.at : null;
  }

  attach(svg) {
    svg.addEventListener("pointermove", (e) => {
      if (!this.tool()) return;
      this.at = this.board.view.tablePoint(e.clientX, e.clientY).map(round);
      // The pointer is the mouse's cross; the keys' shows again at their next step.
      this.node?.setAttribute("visibility", "hidden");
    });
    // Tab to a piece: the cross goes onto it (Enter then picks the piece). Not when the
    // focus comes back from a field (Esc): the cross stays where the numbers put it.
    svg.addEventListener("focusin", (e) => {
      const id = e.target.closest?.(".piece")?.dataset.unit;
      const unit = id && this.tool() ? this.board.shownUnit(id) : null;
      if (unit && !e.relatedTarget?.closest?.("input, select, textarea")) this.moveTo(unit.position.slice(0, 2));
    });
  }

  /** A tool turned on or off: the cross starts on the selected piece, or where it was,
   *  or mid-table; the typed point's fields follow it. */
  toolChanged() {
    this.node?.remove();
    this.node = null;
    if (this.tool()) {
      const { width = 0, height = 0 } = this.board.shownState()?.table ?? {};
      const unit = this.board.shownUnit(this.board.pieces.selected);
      this.at = (unit?.position.slice(0, 2) ?? this.at ?? [width / 2, height / 2]).map(round);
      this.draw();
    }
    this.refreshFields();
  }

  /** The arrows: the cross one step (inches; north is up). False with no tool on. */
  step(dx, dy) {
    if (!this.point()) return false;
    return this.moveTo([this.at[0] + dx, this.at[1] + dy]);
  }

  /** The cross to `point` (kept on the table); the tool's line follows it. */
  moveTo(point) {
    if (!this.tool()) return false;
    const { width = 0, height = 0 } = this.board.shownState()?.table ?? {};
    this.at = [Math.min(Math.max(point[0], 0), width), Math.min(Math.max(point[1], 0), height)].map(round);
    this.board.view.keepInView(this.at);
    this.draw();
    const picker = this.tool().picker;
    picker.moveAt(picker.pickFor(this.pieceAt(), this.at));
    this.refreshFields();
    this.readLater();
    return true;
  }

  /** The typed point (keymove.js): the cross there, set. */
  setAt(point) {
    return this.moveTo(point) && this.enter();
  }

  /** Enter: the cross's point is the tool's next pick, or the piece under it. */
  enter() {
    if (!this.point()) return false;
    clearTimeout(this.timer);
    const picker = this.tool().picker;
    const id = this.pieceAt();
    picker.downAt(picker.pickFor(id, this.at));
    const start = picker.start();
    if (start) {
      const what = id ? this.board.store.name(id) : `${fmt(start[0])}, ${fmt(start[1])}`;
      this.board.announce.say(`First point: ${what}. Move the cross to the other end, then Enter.`);
    }
    return true;
  }

  /** The piece a click at the cross would land on, if it is in view. */
  pieceAt() {
    const svg = this.board.svg;
    const pt = svg.createSVGPoint();
    [pt.x, pt.y] = [this.at[0], this.board.height() - this.at[1]];
    const p = pt.matrixTransform(svg.getScreenCTM());
    return /** @type {SVGElement | null | undefined} */ (document.elementFromPoint(p.x, p.y)?.closest?.("#board-svg .piece"))?.dataset.unit ?? null;
  }

  draw() {
    const layer = this.board.toolLayer;
    if (!layer) return;
    const r = 12 * pxOf(this.board.svg);
    if (!this.node?.isConnected) {
      this.node = el("g", { class: "table-cursor", "aria-hidden": "true" }, layer);
      el("circle", { r: r / 2 }, this.node);
      el("line", { x1: -r, y1: 0, x2: r, y2: 0 }, this.node);
      el("line", { x1: 0, y1: -r, x2: 0, y2: r }, this.node);
    }
    this.node.setAttribute("transform", `translate(${this.at[0]} ${this.at[1]})`);
    this.node.removeAttribute("visibility");
  }

  /** Where the cross is, and how far from the tool's first point, once the keys pause. */
  readLater() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (!this.point()) return;
      const start = this.tool().picker.start();
      const id = this.pieceAt();
      const where = `${id ? `${this.board.store.name(id)}, ` : ""}${fmt(this.at[0])}, ${fmt(this.at[1])}`;
      this.board.announce.say(start ? `Cross at ${where}: ${fmt(dist(start, this.at))}″ from the first point.` : `Cross at ${where}.`);
    }, READ_MS);
  }

  refreshFields() {
    const board = this.board;
    board.keyMove.refresh(board.store.unit(board.pieces.selected), !board.readOnly());
  }
}
