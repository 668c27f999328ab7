// @ts-check
// Table annotations: lines, arrows, circles of a radius in inches and short labels that the
// players and the GM draw for everyone (D, or the Draw button), and the list of them where
// their author (or the GM) removes them. They are the table's talk, never its position: the
// server keeps them (`annotate` / `erase` events, the snapshot's `annotations`).
import { item } from "./panels/util.js";
import { el, label, pxOf } from "./svg.js";

const $ = (id) => document.getElementById(id);
const inches = (n) => String(Math.round(Number(n) * 100) / 100);

/** An annotation in a player's words: "arrow", "circle of 6″", "label “objective”". */
export function words(note) {
  if (note.kind === "circle") return `circle of ${inches(note.radius)}″`;
  if (note.kind === "label") return `label “${note.text}”`;
  return note.kind;
}

/** Clicks on the table for one annotation: two ends for a line or an arrow, one point for
 *  a circle (its radius from the field) or a label (its text from the field). */
class ShapePicker {
  constructor(drawing) {
    this.drawing = drawing;
    this.from = null;
  }

  /** The keyboard's cross at `at` (cursor.js): its very point, on a piece too, as a click. */
  pickFor(_id, at) {
    return { at: at.map((v) => Math.round(v * 100) / 100) };
  }

  down(e) {
    this.downAt({ at: this.drawing.pointOf(e) });
  }

  downAt({ at }) {
    const kind = this.drawing.kind();
    if (kind === "line" || kind === "arrow") {
      if (!this.from) {
        this.from = at;
        this.drawing.sketch({ kind, from: at, to: at });
        this.drawing.board.setHint(`Draw a ${kind}: click its other end, or move the cross and Enter (Esc cancels).`);
        return;
      }
      const from = this.from;
      this.from = null;
      this.drawing.submit({ kind, from, to: at });
      return;
    }
    if (kind === "circle") this.drawing.submit({ kind, at, radius: this.drawing.radius() });
    else this.drawing.submit({ kind, at, text: this.drawing.text() });
  }

  move(e) {
    this.moveAt({ at: this.drawing.pointOf(e) });
  }

  moveAt({ at }) {
    if (this.from) this.drawing.sketch({ kind: this.drawing.kind(), from: this.from, to: at });
  }

  /** A line's or an arrow's first end while its other is awaited, else null. */
  start() {
    return this.from;
  }

  reset() {
    this.from = null;
  }
}

export class Drawing {
  constructor(board) {
    this.board = board;
    this.notes = new Map(); // seq -> annotation, as the server gave it
    this.layer = null; // the table's (y up)
    this.labels = null; // upright texts
    this.draft = null; // the sketch of a line or an arrow being drawn
    this.picker = new ShapePicker(this);
    this.list = $("annotation-list");
    this.hint = "Draw: pick a kind beside “Drawn on the table”, then click the table (a line or an arrow: both ends), or move the cross with the arrows and press Enter.";
    // The typed point's label names the kind (cursor.js): "Point for the circle".
    $("draw-kind").addEventListener("change", () => board.cursor.refreshFields());
    this.list.addEventListener("click", (e) => {
      const button = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (e.target).closest("button[data-erase]"));
      if (button) this.board.command({ type: "erase", annotation: Number(button.dataset.erase) }, "Remove the annotation");
    });
  }

  kind() {
    return /** @type {HTMLSelectElement} */ ($("draw-kind")).value;
  }

  /** What the keyboard's point is for (cursor.js, the typed point's label). */
  pointWords() {
    return `Point for the ${this.kind()}`;
  }

  /** A shape the server would refuse: said in the hint and read out at once. */
  refuse(text) {
    this.board.setHint(text);
    this.board.announce.say(text, true);
  }

  radius() {
    return Number(/** @type {HTMLInputElement} */ ($("draw-radius")).value);
  }

  text() {
    return /** @type {HTMLInputElement} */ ($("draw-text")).value.trim();
  }

  /** The table point under a pointer event, rounded to a hundredth of an inch. */
  pointOf(e) {
    return this.board.view.tablePoint(e.clientX, e.clientY).map((v) => Math.round(v * 100) / 100);
  }

  /** Checks what the server would refuse for certain before sending it. */
  submit(shape) {
    const board = this.board;
    this.clearDraft();
    if (shape.kind === "circle" && !(shape.radius > 0)) {
      this.refuse("Draw a circle: give its radius in inches first.");
      return;
    }
    if (shape.kind === "label" && !shape.text) {
      this.refuse("Draw a label: type its text first.");
      $("draw-text").focus();
      return;
    }
    board.command({ type: "annotate", shape }, `Draw a ${shape.kind}`);
    board.setHint(`${words(shape)[0].toUpperCase()}${words(shape).slice(1)} sent; click (or Enter) again to draw another (Esc stops).`);
  }

  // -- what the server says

  reset(notes) {
    this.notes = new Map(notes.map((n) => [n.seq, n]));
    this.render();
  }

  onEvent(frame) {
    if (frame.kind === "annotate" && frame.annotation) this.notes.set(frame.annotation.seq, frame.annotation);
    if (frame.kind === "erase") this.notes.delete(frame.annotation);
    this.render();
  }

  // -- drawing

  render() {
    this.renderList();
    if (!this.layer) return;
    this.layer.replaceChildren();
    this.labels.replaceChildren();
    // A replay shows a past table with the drawings on it then (the position's own list).
    const replay = !this.board.replay.live;
    for (const note of replay ? this.board.replay.position?.annotations ?? [] : this.notes.values()) this.shape(note, this.layer, "annotation");
    if (replay) return;
    if (this.draft) this.shape(this.draft, this.layer, "annotation draft");
  }

  shape(note, parent, cls) {
    const g = el("g", { class: `${cls} annotation-${note.kind}`, "data-kind": note.kind }, parent);
    if (note.seq !== undefined) {
      g.dataset.seq = note.seq;
      g.dataset.by = note.by;
      el("title", {}, g).textContent = `${note.by}'s ${words(note)}`;
    }
    if (note.kind === "line" || note.kind === "arrow") {
      el("line", { x1: note.from[0], y1: note.from[1], x2: note.to[0], y2: note.to[1] }, g);
      if (note.kind === "arrow") el("polygon", { points: arrowHead(note.from, note.to, 10 * pxOf(this.board.svg)) }, g);
    } else if (note.kind === "circle") {
      el("circle", { cx: note.at[0], cy: note.at[1], r: note.radius }, g);
    } else if (note.kind === "label") {
      el("circle", { class: "label-pin", cx: note.at[0], cy: note.at[1], r: 3 * pxOf(this.board.svg) }, g);
      // Above its pin, so that the pin marks the very point and the text stays readable.
      const y = this.board.height() - note.at[1] - 6 * pxOf(this.board.svg);
      const text = label(this.labels, note.text, note.at[0], y, "annotation-text");
      if (note.seq !== undefined) text.dataset.seq = note.seq;
    }
    return g;
  }

  sketch(shape) {
    this.draft = shape;
    this.render();
  }

  clearDraft() {
    if (!this.draft) return;
    this.draft = null;
    this.render();
  }

  clear() {
    this.picker.reset();
    this.clearDraft();
  }

  renderList() {
    const me = this.board.store.me;
    const rows = [...this.notes.values()].map((note) => {
      const li = item("li", "annotation-row");
      li.dataset.seq = note.seq;
      li.append(item("strong", "who", note.by), item("span", "what", words(note)));
      // Removed by their author or the GM (the server checks it again).
      if (me.role === "gm" || (me.role === "player" && me.user === note.by)) {
        const button = item("button", "erase", "Remove");
        button.type = "button";
        button.dataset.erase = note.seq;
        button.setAttribute("aria-label", `Remove ${note.by}'s ${words(note)}`);
        li.append(button);
      }
      return li;
    });
    if (!rows.length) rows.push(item("li", "empty", "Nothing drawn."));
    this.list.replaceChildren(...rows);
  }
}

/** The three points of an arrow's head at `to`, `size` inches long. */
function arrowHead(from, to, size) {
  const [dx, dy] = [to[0] - from[0], to[1] - from[1]];
  const length = Math.hypot(dx, dy) || 1;
  const [ux, uy] = [dx / length, dy / length];
  const left = [to[0] - ux * size - uy * size * 0.5, to[1] - uy * size + ux * size * 0.5];
  const right = [to[0] - ux * size + uy * size * 0.5, to[1] - uy * size - ux * size * 0.5];
  return [to, left, right].map((p) => p.join(",")).join(" ");
}
