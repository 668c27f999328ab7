// Keyboard shortcuts for the board. Typing in a form field never triggers them.
export function attachKeys(board) {
  document.addEventListener("keydown", (e) => {
    const target = e.target;
    if (target.closest?.("input, textarea, select, [contenteditable]") || e.ctrlKey || e.metaKey || e.altKey) return;
    const mover = board.mover;
    const step = e.shiftKey ? 45 : 15;
    let done = true;
    switch (e.key) {
      case "m": case "M": board.toggleTool("measure"); break;
      case "l": case "L": board.toggleTool("los"); break;
      case "d": case "D": board.toggleTool("draw"); break;
      case "p": case "P": board.pings.key(); break;
      case "r": case "R": board.toggleReach(); break;
      case "q": case "Q": done = board.rotate(step); break;
      case "e": case "E": done = board.rotate(-step); break;
      case "w": case "W": mover.waypoint(); break;
      // An offered alternative, or a plan in hand, is taken whatever has focus (a toolbar
      // button last clicked: the action chosen before a turn in place).
      case "Enter": done = !mover.offerOpen && !mover.active && target.closest?.("button, a") && !target.closest(".piece") ? false : mover.enter(); break;
      case "Escape": board.escape(); break;
      case "+": case "=": board.view.zoomAt(1.25); break;
      case "-": case "_": board.view.zoomAt(0.8); break;
      case "0": board.view.fit(); break;
      case "ArrowLeft": board.view.panBy(60, 0); break;
      case "ArrowRight": board.view.panBy(-60, 0); break;
      case "ArrowUp": board.view.panBy(0, 60); break;
      case "ArrowDown": board.view.panBy(0, -60); break;
      case "?": board.toggleHelp(); break;
      default: done = false;
    }
    if (done) e.preventDefault();
  });
}
