// @ts-check
// Zoom and pan: the svg's viewBox is the window onto the table. Labels and strokes
// keep their screen size: the svg carries --px, the inches one screen pixel covers.
// The view also owns the inch grid and edge rulers (grid.js), which follow the zoom.
import { Grid } from "./grid.js";

const MARGIN = 1;

export class View {
  constructor(svg) {
    this.svg = svg;
    this.box = { x: 0, y: 0, w: 1, h: 1 };
    this.table = { w: 1, h: 1 };
    this.listeners = [];
    this.pointers = new Map();
    this.grid = new Grid(this);
    new ResizeObserver(() => this.apply()).observe(svg);
  }

  onChange(fn) {
    this.listeners.push(fn);
  }

  /** The table is width x height inches; svg user units are inches, y down. */
  setTable(width, height) {
    const changed = width !== this.table.w || height !== this.table.h;
    this.table = { w: width, h: height };
    this.grid.draw(); // the table's layers were just rebuilt
    if (changed) this.fit();
    else this.apply();
  }

  fit() {
    const { w, h } = this.table;
    this.box = { x: -MARGIN, y: -MARGIN, w: w + 2 * MARGIN, h: h + 2 * MARGIN };
    this.apply();
  }

  /** Screen pixels per inch at the current zoom. */
  scale() {
    const rect = this.svg.getBoundingClientRect();
    if (!rect.width || !rect.height) return 10;
    return Math.min(rect.width / this.box.w, rect.height / this.box.h);
  }

  apply() {
    const { x, y, w, h } = this.box;
    this.svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
    this.svg.style.setProperty("--px", String(1 / this.scale()));
    this.grid?.drawRuler();
    for (const fn of this.listeners) fn();
  }

  /** The svg point (inches, y down) under a client position. */
  svgPoint(clientX, clientY) {
    const pt = this.svg.createSVGPoint();
    pt.x = clientX;
    pt.y = clientY;
    const p = pt.matrixTransform(this.svg.getScreenCTM().inverse());
    return [p.x, p.y];
  }

  /** Table coordinates (inches, origin bottom-left, y up) under a client position. */
  tablePoint(clientX, clientY) {
    const [x, y] = this.svgPoint(clientX, clientY);
    return [x, this.table.h - y];
  }

  zoomAt(factor, clientX, clientY) {
    const rect = this.svg.getBoundingClientRect();
    const cx = clientX ?? rect.left + rect.width / 2;
    const cy = clientY ?? rect.top + rect.height / 2;
    const [px, py] = this.svgPoint(cx, cy);
    const maxW = (this.table.w + 2 * MARGIN) * 2;
    const w = Math.min(maxW, Math.max(2, this.box.w / factor));
    const k = w / this.box.w;
    this.box = { x: px - (px - this.box.x) * k, y: py - (py - this.box.y) * k, w, h: this.box.h * k };
    this.apply();
  }

  /** Moves the view by screen pixels. */
  panBy(dx, dy) {
    const s = this.scale();
    this.box = { ...this.box, x: this.box.x - dx / s, y: this.box.y - dy / s };
    this.apply();
  }

  /** Pans, never zooms, just enough that a table point (inches, y up) stands `margin`
   *  inches inside the view: what the keyboard moves (the cross, the ghost) never walks
   *  out of a zoomed view. */
  keepInView([x, y], margin = Math.min(1, this.box.w / 10)) {
    const { box } = this, down = this.table.h - y;
    const left = Math.min(Math.max(box.x, x + margin - box.w), x - margin);
    const top = Math.min(Math.max(box.y, down + margin - box.h), down - margin);
    if (left === box.x && top === box.y) return;
    this.box = { ...box, x: left, y: top };
    this.apply();
  }

  /** A pointer that pans no longer: another gesture took it (a finger's box, touch.js). */
  release(pointerId) {
    this.pointers.delete(pointerId);
    if (!this.pointers.size) this.svg.classList.remove("panning");
  }

  /** Wheel zoom, drag on empty table to pan, two-finger pinch. */
  attach(isFree) {
    const svg = this.svg;
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      this.zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX, e.clientY);
    }, { passive: false });
    const pointers = this.pointers; // pointer id -> its last client point, while it pans
    let pinch = 0;
    svg.addEventListener("pointerdown", (e) => {
      if (!(e.button === 1 || (e.button === 0 && isFree(e)))) return;
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      svg.setPointerCapture(e.pointerId);
      svg.classList.add("panning");
    });
    svg.addEventListener("pointermove", (e) => {
      const last = pointers.get(e.pointerId);
      if (!last) return;
      if (pointers.size === 2) {
        pointers.set(e.pointerId, [e.clientX, e.clientY]);
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        if (pinch) this.zoomAt(d / pinch, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
        pinch = d;
        return;
      }
      this.panBy(e.clientX - last[0], e.clientY - last[1]);
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
    });
    const end = (e) => {
      pointers.delete(e.pointerId);
      pinch = 0;
      if (!pointers.size) svg.classList.remove("panning");
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
  }
}
