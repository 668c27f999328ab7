// @ts-check
// Replay: the table as it was after a past event, read-only, beside the live one (the
// log's entries open it; Esc or "Back to live" leaves it). The server gives the position
// (`positionUrl`); the board draws it as it draws the live table.
const $ = (id) => document.getElementById(id);

export class Replay {
  constructor(board) {
    this.board = board;
    this.seq = null; // the event shown, null when live
    this.position = null; // the server's answer for it: {state, annotations, ...}
  }

  get live() {
    return this.seq === null;
  }

  // The pieces' states and free markers at the moment shown (the server's answer gives
  // them as a snapshot gives today's), read as the store's are (pieces.js marksOf).

  /** The system's states a piece showed then. */
  statesOf(id) {
    return this.position?.unit_states?.[id] ?? [];
  }

  /** The free markers on a piece then, oldest first. */
  marksOf(id) {
    return (this.position?.markers ?? []).filter((m) => m.unit === id);
  }

  /** A palette colour by name: the table's palette. */
  markerColour(name) {
    return this.board.store.markerColour(name);
  }

  async show(seq) {
    const { board } = this;
    board.mover.cancel();
    this.seq = seq;
    $("replay-banner").hidden = false;
    $("replay-text").textContent = `Replay: the table after event #${seq}, read-only. Live is at #${board.store.seq}.`;
    board.page.dataset.replay = "1";
    try {
      const response = await fetch(`${board.config.positionUrl}${seq}/`, { credentials: "same-origin" });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const position = await response.json();
      if (this.seq !== seq) return; // another moment was asked since
      this.position = position;
      board.drawAll();
    } catch (error) {
      board.toasts.show("Could not load that moment of the battle", [String(error.message ?? error)], "error");
    }
  }

  toLive() {
    if (this.live) return;
    this.seq = null;
    this.position = null;
    $("replay-banner").hidden = true;
    delete this.board.page.dataset.replay;
    this.board.log.toLive();
    this.board.drawAll();
  }
}
