// @ts-check
// What stands around the table and follows it: the turn line, the unit card, the action
// bar (only what the server offers the selected piece now), End turn, the altitude
// field, the point picks, the piece list, a pending roll, the take-back panel and the
// sides' legend.
import { turnText } from "./panels/turn.js";
import { item } from "./panels/util.js";

const $ = (id) => document.getElementById(id);

export class Chrome {
  constructor(board) {
    this.board = board;
  }

  refresh() {
    const { board } = this;
    const { store, actions } = board;
    const live = board.replay.live;
    $("turn-status").textContent = live ? turnText(store) : `Replay of #${board.replay.seq}`;
    $("turn-status").classList.toggle("yours", store.me.sides.includes(store.turn.active_side));
    const selected = board.shownUnit(board.pieces.selected);
    board.card.show(selected);
    const movable = selected && !board.readOnly() && store.mayOrder(selected);
    // The action bar offers only what the selected unit may do now.
    const offered = selected ? actions.offeredDrags(selected.id).map((a) => a.type) : [];
    if (offered.length && !offered.includes(actions.current)) actions.current = offered[0];
    if (board.overlay) board.overlay.costSuffix = actions.costSuffix();
    for (const button of $("actions").querySelectorAll("button")) {
      button.hidden = Boolean(selected) && !offered.includes(button.dataset.action);
      button.disabled = !movable;
      button.setAttribute("aria-pressed", String(button.dataset.action === actions.current));
    }
    // Disabled while one is in flight: a double click ends one turn, not the next one too.
    /** @type {HTMLButtonElement} */ ($("end-turn")).disabled = board.readOnly() || !store.myTurn() || store.status !== "active" || Boolean(board.ending);
    $("altitude-field").hidden = !movable || !actions.mayClimb(selected);
    board.points.refresh(selected, movable);
    board.keyMove.refresh(selected, movable);
    board.pieceList.show(board.shownState()?.units ?? [], board.pieces.selected, live ? board.activeUnit : null);
    board.pendingRoll.show(store, live);
    board.takeback.show();
    board.mover.showHandle(live ? board.pieces.selected : null);
  }

  /** The sides' legend, each with its colour on the table. */
  sides() {
    const { board } = this;
    const list = $("sides-legend");
    const sides = board.store.sides();
    if (list.dataset.sides === sides.join(",")) return;
    list.dataset.sides = sides.join(",");
    list.replaceChildren(...sides.map((side) => {
      const li = item("li");
      const swatch = item("span", "swatch");
      swatch.style.background = board.pieces.colour(side);
      li.append(swatch, item("span", "", `Side ${side}`));
      return li;
    }));
  }
}
