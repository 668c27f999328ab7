// @ts-check
// The inch grid and the edge rulers (ui.md, "Grid (G)"): a faint line every inch, a
// stronger one every 6", and along the table's south and west edges a ruler numbered
// in inches from the bottom-left corner, as the scenario format counts. The player
// toggles it with G or the Grid button; the choice is remembered in this browser.
import { el } from "./svg.js";

const STORAGE_KEY = "tabletop.grid";
/** Steps the ruler may number at, in inches: the smallest that leaves room for a label. */
const RULER_STEPS = [1, 2, 3, 6, 12, 24];
const LABEL_ROOM_PX = 22;

export class Grid {
  constructor(view) {
    this.view = view;
    this.svg = view.svg;
    this.on = readChoice();
    this.lines = null;
    this.ruler = null;
    this.button = document.getElementById("tool-grid");
    this.button?.addEventListener("click", () => this.toggle());
    document.addEventListener("keydown", (e) => {
      if (e.key !== "g" && e.key !== "G") return;
      if (/** @type {Element} */ (e.target).closest?.("input, textarea, select, [contenteditable]") || e.ctrlKey || e.metaKey || e.altKey) return;
      e.preventDefault();
      this.toggle();
    });
    this.showPressed();
  }

  toggle() {
    this.on = !this.on;
    try {
      localStorage.setItem(STORAGE_KEY, this.on ? "1" : "0");
    } catch {
      // private windows may refuse storage; the toggle still works for this page
    }
    this.showPressed();
    this.draw();
  }

  showPressed() {
    this.button?.setAttribute("aria-pressed", String(this.on));
    this.svg.classList.toggle("grid-on", this.on);
  }

  /** Lines under the pieces (inside the table group), rulers upright in the margin. */
  draw() {
    const { w, h } = this.view.table;
    const table = this.svg.querySelector("g.table");
    this.lines?.remove();
    this.ruler?.remove();
    this.lines = this.ruler = null;
    if (!this.on || !table || w <= 1 || h <= 1) return;
    this.lines = el("g", { class: "grid-lines", "aria-hidden": "true" });
    table.insertBefore(this.lines, table.querySelector("g.pieces") ?? null);
    for (let x = 1; x < w; x += 1) el("line", { class: x % 6 ? "grid-line" : "grid-line major", x1: x, y1: 0, x2: x, y2: h }, this.lines);
    for (let y = 1; y < h; y += 1) el("line", { class: y % 6 ? "grid-line" : "grid-line major", x1: 0, y1: y, x2: w, y2: y }, this.lines);
    this.ruler = el("g", { class: "edge-rulers", "aria-hidden": "true" });
    const labels = this.svg.querySelector("g.labels");
    this.svg.insertBefore(this.ruler, labels ?? null);
    this.drawRuler();
  }

  /** Numbers every 1, 2, 3, 6... inches, whichever fits at this zoom (svg y is down). */
  drawRuler() {
    if (!this.ruler) return;
    const { w, h } = this.view.table;
    const pxPerInch = this.view.scale();
    const step = RULER_STEPS.find((s) => s * pxPerInch >= LABEL_ROOM_PX) ?? RULER_STEPS.at(-1);
    const px = 1 / pxPerInch;
    this.ruler.replaceChildren();
    for (let x = 0; x <= w + 1e-9; x += 1) {
      el("line", { class: "ruler-tick", x1: x, y1: h, x2: x, y2: h + (x % step ? 2 : 4) * px }, this.ruler);
      if (x % step === 0) el("text", { class: "label ruler-label", x, y: h + 4 * px, "data-axis": "x" }, this.ruler).textContent = `${x}″`;
    }
    for (let y = 0; y <= h + 1e-9; y += 1) {
      el("line", { class: "ruler-tick", x1: 0, y1: h - y, x2: -(y % step ? 4 : 8) * px, y2: h - y }, this.ruler);
      if (y % step === 0 && y > 0) el("text", { class: "label ruler-label ruler-y", x: -10 * px, y: h - y, "data-axis": "y" }, this.ruler).textContent = `${y}″`;
    }
  }
}

function readChoice() {
  try {
    return localStorage.getItem(STORAGE_KEY) === "1";
  } catch {
    return false;
  }
}
