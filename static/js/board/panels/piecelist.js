// @ts-check
// The pieces as a list, for the keyboard and screen readers: each a button with its
// name, side, type, states and where it stands, the selected one pressed. Choosing one
// selects it and puts focus on it on the table, where Enter carries it (drag.js); while an
// action waits for a piece (pointpick.js), choosing one picks it.
import { fmt } from "../geometry.js";
import { marksOf, pieceText } from "../pieces.js";
import { item } from "./util.js";

export class PieceList {
  constructor(board) {
    this.board = board;
    this.list = document.getElementById("piece-list");
    this.key = "";
    this.list.addEventListener("click", (e) => {
      const id = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (e.target).closest("button[data-unit]"))?.dataset.unit;
      if (!id || this.board.keyMove.pickPiece(id)) return;
      this.board.select(id);
      this.board.pieces.nodes.get(id)?.g.focus();
    });
  }

  /** One line per piece on the table or aboard; rebuilt only when a line's words change,
   *  in the next frame: never in the way of the table's first drawing, once for a burst. */
  show(units, selected, active) {
    this.next = [units, selected, active];
    this.frame ||= requestAnimationFrame(() => {
      this.frame = 0;
      this.build(...this.next);
    });
  }

  build(units, selected, active) {
    const store = this.board.store;
    const lines = units.map((u) => {
      const where = u.aboard ? `aboard ${store.name(u.aboard)}` : `at ${fmt(u.position[0])}, ${fmt(u.position[1])} facing ${Math.round(u.facing ?? 0)}°`;
      const mine = store.mayOrder(u) && store.me.role !== "gm" ? ", yours" : "";
      return { id: u.id, text: `${pieceText(u, store, marksOf(u, this.board.marking))}, ${where}${u.id === active ? ", activated now" : ""}${mine}`, side: u.side };
    });
    const key = JSON.stringify([lines, selected]);
    if (key === this.key) return;
    this.key = key;
    const focused = /** @type {HTMLButtonElement | null | undefined} */ (document.activeElement?.closest?.("#piece-list button"))?.dataset.unit;
    this.list.replaceChildren(...lines.map(({ id, text, side }) => {
      const button = item("button", "piece-line", text);
      button.type = "button";
      button.dataset.unit = id;
      button.dataset.side = side;
      button.setAttribute("aria-pressed", String(id === selected));
      const swatch = item("span", "swatch");
      swatch.setAttribute("aria-hidden", "true");
      swatch.style.background = this.board.pieces.colour(side);
      button.prepend(swatch);
      return item("li").appendChild(button).parentNode;
    }));
    if (focused) /** @type {HTMLButtonElement | null} */ (this.list.querySelector(`button[data-unit="${CSS.escape(focused)}"]`))?.focus();
  }
}
