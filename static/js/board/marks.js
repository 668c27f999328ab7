// @ts-check
// Free markers on pieces (protocol.md, "mark, unmark"): a word or two in a colour of the
// palette ("pinned", "objective") that a player puts on their own pieces and the GM on
// any, from the unit card's form or the piece's menu. They are the table's talk, never
// its position: the server keeps them (`mark` / `unmark` events, the snapshot's
// `markers`); pieces.js draws them with the system's states, the card lists them.
const $ = (id) => document.getElementById(id);

export class Marks {
  constructor(board) {
    this.board = board;
  }

  attach() {
    const { board } = this;
    $("mark-colour").replaceChildren(...(board.store.markerColours ?? []).map((c) => {
      const option = document.createElement("option");
      option.value = c.name;
      option.textContent = c.name;
      return option;
    }));
    $("mark-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
    $("unit-badges").addEventListener("click", (e) => {
      const button = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (e.target).closest("button[data-unmark]"));
      if (button) board.command({ type: "unmark", marker: Number(button.dataset.unmark) }, "Remove the marker");
    });
  }

  /** The card's form, for the selected piece: checks what the server would refuse for
   *  certain (no text, too long) before sending it. */
  submit() {
    const { board } = this;
    const unit = board.pieces.selected;
    const input = /** @type {HTMLInputElement} */ ($("mark-text"));
    const text = input.value.trim();
    const most = board.store.limits.marker_chars ?? 24;
    if (!unit) return;
    if (!text) {
      board.setHint("Add a marker: type a word or two first (“pinned”, “objective”).");
      input.focus();
      return;
    }
    if (text.length > most) {
      board.setHint(`A marker is at most ${most} characters.`);
      input.focus();
      return;
    }
    board.command({ type: "mark", unit, text, colour: /** @type {HTMLSelectElement} */ ($("mark-colour")).value }, "Add a marker");
    input.value = "";
    board.setHint(`Marker “${text}” sent for ${board.store.name(unit)}.`);
  }

  /** From the piece's menu: the card's form, focused, for the piece. */
  begin(unitId) {
    this.board.select(unitId);
    $("mark-text").focus();
    this.board.setHint(`Marker for ${this.board.store.name(unitId)}: type it, pick a colour, press Enter.`);
  }

  /** A `mark` or `unmark` event: the piece redrawn, its card and line follow. */
  onEvent(frame) {
    const id = frame.kind === "mark" ? frame.marker?.unit : frame.unit;
    const node = this.board.pieces.nodes.get(id);
    if (node) this.board.pieces.updateLabel(node);
    this.board.refreshChrome();
  }
}
