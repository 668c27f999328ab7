// @ts-check
// The page's controls wired to the board: the action bar, the tools, End turn, zoom,
// the GM's undo, delay and fiat, the drawers, and the pointer on the table (a click on
// the empty table clears the selection); then each part attaches its own listeners and
// the socket opens.
import { attachKeys } from "./keys.js";
import { attachRecordButtons, attachTouch, pieceMenu } from "./ondemand.js";
import { actionButton } from "./panels/util.js";

const $ = (id) => document.getElementById(id);
const on = (id, type, fn) => $(id).addEventListener(type, fn);

export function attachControls(board) {
  const { config, actions, tools } = board;
  for (const spec of actions.drags) {
    $("actions").append(actionButton(spec, () => {
      actions.current = spec.type;
      board.group.chosen = spec.type; // the player's choice for the group's drag
      if (spec.group) board.setHint(`${spec.label}: Shift-click each piece, then drag one of them.`);
      board.refreshChrome();
      tools.refreshReach();
    }));
  }
  // A flying piece's path may climb: the height its next path points take (path_z).
  on("altitude", "input", () => board.mover.active && board.mover.changed());
  $("watching").hidden = config.role !== "spectator";
  // The turn structure's words ("End activation"); phased, the GM's ends the turn.
  const endLabel = config.phased && config.role === "gm" ? "End turn" : config.endLabel ?? "End turn";
  $("end-turn").textContent = endLabel;
  if (config.phased && config.role !== "gm") $("end-turn").title = "End your side's part of this phase";
  on("tool-measure", "click", () => tools.toggle("measure"));
  on("tool-los", "click", () => tools.toggle("los"));
  on("tool-draw", "click", () => tools.toggle("draw"));
  on("tool-reach", "click", () => tools.toggleReach());
  on("help-toggle", "click", () => board.toggleHelp());
  on("end-turn", "click", () => {
    const id = (board.ending = board.command({ type: "end_turn", seen: board.store.seq }, endLabel));
    board.refreshChrome();
    setTimeout(() => board.frames.ended(id, 0), 10000); // an answer lost with the connection
  });
  on("replay-live", "click", () => board.replay.toLive());
  on("zoom-in", "click", () => board.view.zoomAt(1.25));
  on("zoom-out", "click", () => board.view.zoomAt(0.8));
  on("zoom-fit", "click", () => board.view.fit());
  on("undo-form", "submit", (e) => {
    e.preventDefault();
    const reason = /** @type {HTMLInputElement} */ ($("undo-reason")).value.trim();
    if (!reason) return;
    board.command({ type: "undo", reason: reason.slice(0, 200) }, "Undo");
    /** @type {HTMLInputElement} */ ($("undo-reason")).value = "";
  });
  on("delay-form", "submit", (e) => {
    e.preventDefault();
    board.command({ type: "set_delay", seconds: Number(/** @type {HTMLInputElement} */ ($("delay-seconds")).value) }, "Spectator delay");
  });
  on("fiat-toggle", "change", () => {
    board.mover.cancel();
    board.refreshChrome();
  });
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("[data-drawer]"))) {
    button.addEventListener("click", () => {
      const side = button.dataset.drawer;
      const open = board.page.dataset[side] !== "open";
      board.page.dataset.left = "closed";
      board.page.dataset.right = "closed";
      board.page.dataset[side] = open ? "open" : "closed";
      button.setAttribute("aria-expanded", String(open));
    });
  }
  attachTablePointer(board);
  board.pings.attach(board.svg);
  board.cursor.attach(board.svg);
  board.points.attach(board.page);
  board.groupBox.attach(board.svg);
  board.mover.attach();
  board.openMenu = pieceMenu(board);
  board.marks.attach();
  attachTouch(board);
  board.view.attach((e) => !tools.active && !board.mover.active && !board.groupBox.starts(e) && !e.target.closest(".piece, .rotate-handle"));
  attachKeys(board);
  attachRecordButtons(board);
}

/** Focus selects a piece; a tool takes the pointer while on; a click on the empty table
 *  (not a pan, not a tool's pick) clears the selection. */
function attachTablePointer(board) {
  const { svg, tools } = board;
  svg.addEventListener("focusin", (e) => {
    const g = e.target.closest?.(".piece");
    if (g) board.select(g.dataset.unit, true);
  });
  svg.addEventListener("pointerdown", (e) => {
    if (tools.active && e.button === 0) tools.active.picker.down(e);
  });
  svg.addEventListener("pointermove", (e) => {
    if (tools.active) tools.active.picker.move(e);
  });
  let down = null;
  svg.addEventListener("pointerdown", (e) => {
    down = e.target.closest(".piece, .rotate-handle") ? null : [e.clientX, e.clientY];
  }, { capture: true });
  svg.addEventListener("click", (e) => {
    const still = down && Math.hypot(e.clientX - down[0], e.clientY - down[1]) < 4;
    if (still && !tools.active && !board.mover.active) board.select(null);
  });
}
