// @ts-check
// The table's tools: measure, line of sight and draw (one at a time; the pointer's picks
// are the tool's while it is on), and reach, the shading of where the selected piece may
// legally end, asked of the referee (a preview with `reach: true`) and never guessed here.
import { reasonText } from "./preview.js";

const $ = (id) => document.getElementById(id);

export class Tools {
  constructor(board) {
    this.board = board;
    this.active = null; // the tool on: board.measure, board.sight or board.drawing
    this.reachOn = false;
    this.reachRef = 0; // the last reach asked: an older answer is dropped
  }

  get byName() {
    const { board } = this;
    return { measure: board.measure, los: board.sight, draw: board.drawing };
  }

  nameOf(tool) {
    return Object.entries(this.byName).find(([, t]) => t === tool)?.[0] ?? null;
  }

  toggle(name) {
    const { board } = this;
    const tools = this.byName;
    const next = tools[name];
    if (next === board.drawing && board.readOnly()) {
      board.setHint(board.replay.live ? "Draw: spectators watch; the players and the GM draw." : "Draw: back to live first.");
      return;
    }
    const wasActive = this.active === next;
    board.measure.clear();
    board.sight.clear();
    board.drawing.clear();
    this.active = wasActive ? null : next;
    if (this.active) board.mover.cancel();
    for (const [key, tool] of Object.entries(tools)) $(`tool-${key}`).setAttribute("aria-pressed", String(this.active === tool));
    board.svg.classList.toggle("tool-on", Boolean(this.active));
    board.cursor.toolChanged();
    board.setHint(this.active?.hint ?? "");
  }

  toggleReach() {
    this.reachOn = !this.reachOn;
    $("tool-reach").setAttribute("aria-pressed", String(this.reachOn));
    if (this.reachOn) this.askReach();
    else {
      this.board.overlay.showReach(null);
      this.board.setHint("");
    }
  }

  /** Asks again after what may change the reach: another piece, action or table event. */
  refreshReach() {
    if (this.reachOn) this.askReach();
  }

  askReach() {
    const { board } = this;
    const { store, actions } = board;
    const unit = store.unit(board.pieces.selected);
    board.overlay.showReach(null);
    if (!unit) return board.setHint("Reach: select a piece first.");
    if (store.me.role === "spectator") return board.setHint("Reach: only players and the GM may ask the referee.");
    if (!actions.current) return board.setHint("Reach: this game has no action that moves a piece by dragging.");
    // Only for an action the unit may take now.
    const offered = actions.offeredDrags(unit.id).map((a) => a.type);
    if (!offered.length || !store.mayOrder(unit)) {
      return board.setHint(`Reach: ${store.name(unit.id)} may not move now${store.summary ? ` (${store.summary})` : ""}.`);
    }
    if (!offered.includes(actions.current)) actions.current = offered[0];
    this.reachRef += 1;
    board.setHint("Reach: asking the referee…");
    board.conn.send({
      type: "preview",
      ref: `reach-${this.reachRef}`,
      action: { unit: unit.id, type: actions.current, path: [[...unit.position.slice(0, 2)]] },
      reach: true,
    });
  }

  /** The referee's reach (a verdict frame whose ref is `reach-N`): shaded, or why not. */
  onReach(frame) {
    const { board } = this;
    if (frame.ref !== `reach-${this.reachRef}` || !this.reachOn) return;
    board.overlay.showReach(frame.reach ?? null);
    if (!frame.reach) {
      const why = frame.verdict?.reasons?.map((r) => reasonText(r, board.store)).join("; ");
      board.setHint(`Reach: the server did not give an area${why ? ` (${why})` : ""}.`);
    } else if (frame.reach.complete === false) board.setHint(`Reach: shaded to ${frame.reach.to.toFixed(1)}″ of path; the server bounds its work, it may go farther.`);
    else board.setHint("Reach: the shaded area is where the piece may legally end.");
  }
}
