// @ts-check
// The board's parts a visit may never use, loaded the first time they are needed, so
// that the page a player waits for carries only what every visit uses (the board bench's
// budget, docs/benchmarks.md "Board"): the piece menu (on the first right-click or long
// press on a piece), the record's files (on a click on a save button; a refusal that
// offers its ruling loads them in drag.js), a touch screen's gestures (only on a device with touch) and turn
// notices (only for a user who opted in, in a browser that has notifications).
// What must happen at once stays here: a right-click's own menu is kept from opening
// before the piece menu's module has arrived.

/** A module's part made once, on the first call; later calls get the same one. */
function once(make) {
  let made = null;
  return () => (made ??= make());
}

/** Opens the piece menu (contextmenu.js) of `unitId` at a client position. */
export function pieceMenu(board) {
  const menu = once(async () => {
    const { PieceMenu } = await import("./contextmenu.js");
    const made = new PieceMenu(board);
    made.attach();
    return made;
  });
  board.svg.addEventListener("contextmenu", (e) => {
    const g = e.target.closest?.(".piece");
    if (!g) return void board.menu?.close(false);
    e.preventDefault();
    // From the keyboard (the menu key) there is no pointer: beside the piece.
    const box = g.getBoundingClientRect();
    const keyed = e.clientX === 0 && e.clientY === 0;
    open(g.dataset.unit, keyed ? box.right : e.clientX, keyed ? box.top + box.height / 2 : e.clientY);
  });
  function open(unitId, x, y) {
    menu().then((made) => {
      board.menu = made;
      made.open(unitId, x, y);
    });
  }
  return open;
}

/** A finger's gestures (touch.js), on a device that has touch. */
export function attachTouch(board) {
  if (!(navigator.maxTouchPoints > 0)) return;
  import("./touch.js").then(({ TouchGestures }) => {
    board.touch = new TouchGestures(board);
    board.touch.attach();
  });
}

/** The browser's notification of a turn handed over (turnnotice.js), for who opted in. */
export function attachTurnNotice(store, config, button) {
  if (!config.turnNotices || !("Notification" in window)) return;
  import("./turnnotice.js").then(({ TurnNotice }) => new TurnNotice(store, config, button).attach());
}

/** The two save buttons (record.js): the position shown, the last ruling. A refused
 *  order's ruling is offered by drag.js, which loads record.js the same way. */
export function attachRecordButtons(board) {
  for (const [id, save] of [["save-position", "savePosition"], ["save-ruling", "saveRuling"]]) {
    document.getElementById(id)?.addEventListener("click", () => import("./record.js").then((record) => record[save](board)));
  }
}
