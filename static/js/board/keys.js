// @ts-check
// Keyboard shortcuts for the board. Typing in a form field never triggers them. Every
// action on the board is reachable from here: a piece is carried with Enter and
// stepped with the arrows, or sent to a typed point (keymove.js); with a tool on (measure,
// line of sight, draw) the arrows move its cross and Enter sets its point (cursor.js);
// letters take focus to the pieces, the actions, the typed point, the chat, the dice and
// the log.
const $ = (id) => document.getElementById(id);
// offsetParent is null for an svg element: a piece is shown if the browser lays it out.
const shown = (node) => node && !node.disabled && !node.hidden && (node.offsetParent !== null || node.getClientRects?.().length > 0);

/** Focus to the first of `nodes` a player can use now; false if none. */
function focusFirst(...nodes) {
  const node = nodes.flat().find(shown);
  node?.focus();
  return Boolean(node);
}

export function attachKeys(board) {
  const regions = {
    u: () => focusFirst($("piece-list").querySelector("[aria-pressed=true]"), [...$("piece-list").querySelectorAll("button")]),
    a: () => focusFirst([...document.querySelectorAll("#actions button, #point-actions button")], $("end-turn")),
    t: () => focusFirst($("goto-x")) || board.announce.say("Select a piece you may move first (U lists the pieces), or turn on a tool (M, L, D).", true),
    c: () => focusFirst($("chat-text")),
    i: () => focusFirst($("roll-formula")), // dIce: D draws
    j: () => focusFirst($("event-log")),
  };
  document.addEventListener("keydown", (e) => {
    const target = /** @type {Element} */ (e.target);
    // Esc cancels a plan or a pick from a field too (the typed point's, say).
    const typing = Boolean(target.closest?.("input, textarea, select, [contenteditable]"));
    if (e.ctrlKey || e.metaKey || e.altKey || (typing && e.key !== "Escape")) return;
    const mover = board.mover;
    const step = e.shiftKey ? 45 : 15;
    const inch = e.shiftKey ? 0.1 : 1;
    const piece = /** @type {SVGElement | null} */ (target.closest?.(".piece"))?.dataset.unit ?? null;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    let done = true;
    switch (key) {
      case "m": board.tools.toggle("measure"); break;
      case "l": board.tools.toggle("los"); break;
      // Drawing starts at its options (kind, radius, text); Esc from them is the table's cross.
      case "d": board.tools.toggle("draw"); if (board.tools.active === board.drawing) focusFirst($("draw-kind")); break;
      case "p": board.pings.key(); break;
      case "r": board.tools.toggleReach(); break;
      case "q": done = board.rotate(step); break;
      case "e": done = board.rotate(-step); break;
      case "w": mover.waypoint(); break;
      case "u": case "a": case "t": case "c": case "i": case "j": regions[key](); break;
      // Space on a piece is Enter (it is a button); elsewhere the browser's.
      case " ": case "Enter":
        if (piece && e.shiftKey) board.group.toggle(piece);
        else if (piece && board.keyMove.pickPiece(piece)) break;
        else if (key === " " && !piece) done = false;
        // A tool's point: the cross's (on a piece, the piece), not the focused button's.
        else if ((piece || !target.closest?.("button, a")) && board.cursor.enter()) break;
        // An offered alternative, or a plan in hand, is taken whatever has focus (a toolbar
        // button last clicked: the action chosen before a turn in place).
        // A refused plan snapping back is no plan in hand: Enter is the focused button's.
        else done = !mover.offerOpen && !(mover.active && !mover.plan.refused) && target.closest?.("button, a") && !piece ? false : mover.enter();
        break;
      case "Escape":
        if (!typing || mover.active || mover.offer || board.points.picking) board.escape();
        // Out of a field, back to the table (the selected piece): the letters work again.
        if (typing) focusFirst(board.pieces.nodes.get(board.pieces.selected)?.g, board.svg);
        break;
      case "+": case "=": board.view.zoomAt(1.25); break;
      case "-": case "_": board.view.zoomAt(0.8); break;
      case "0": board.view.fit(); break;
      // Carrying a piece, the arrows step it (north is up); with a tool on, its cross; else
      // they pan the view.
      case "ArrowLeft": board.keyMove.step(-inch, 0) || board.cursor.step(-inch, 0) || board.view.panBy(60, 0); break;
      case "ArrowRight": board.keyMove.step(inch, 0) || board.cursor.step(inch, 0) || board.view.panBy(-60, 0); break;
      case "ArrowUp": board.keyMove.step(0, inch) || board.cursor.step(0, inch) || board.view.panBy(0, 60); break;
      case "ArrowDown": board.keyMove.step(0, -inch) || board.cursor.step(0, -inch) || board.view.panBy(0, -60); break;
      case "?": board.toggleHelp(); break;
      default: done = false;
    }
    if (done) e.preventDefault();
  });
}
