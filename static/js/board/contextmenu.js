// @ts-check
// A piece's menu: right-click a piece (or hold a finger on it, touch.js) for what it may
// do now. The entries are the action bar's: the bar shows only what the server offers
// the selected piece (main.js refreshChrome, pointpick.js refresh), so the menu reads
// the bar's shown, enabled buttons and an entry presses the bar's own button. It knows
// nothing the bar does not, and does nothing the bar would not (ui.md, "One truth").
import { item } from "./panels/util.js";

const $ = (id) => document.getElementById(id);
const BAR = "#actions button, #point-actions button";

export class PieceMenu {
  constructor(board) {
    this.board = board;
    this.node = $("piece-menu");
    this.unit = null; // the piece whose menu is open
    this.at = [0, 0];
  }

  get isOpen() {
    return this.unit !== null;
  }

  /** Opens the menu of `unitId` at a client position: the piece is selected first, so
   *  the bar (and the unit card) are the piece's. */
  open(unitId, x, y) {
    if (this.unit === unitId && !this.node.hidden) return; // a long press, and its contextmenu
    this.board.select(unitId);
    this.unit = unitId;
    this.at = [x, y];
    this.render();
    /** @type {HTMLButtonElement | null} */ (this.node.querySelector("[role=menuitem]"))?.focus({ preventScroll: true });
  }

  /** The bar's buttons shown and enabled for the selected piece now. */
  entries() {
    return [.../** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll(BAR))].filter((b) => !b.hidden && !b.disabled);
  }

  render() {
    const { board } = this;
    const name = board.store.name(this.unit);
    const entries = this.entries();
    const title = item("p", "piece-menu-title", name);
    const items = entries.map((button) => {
      const type = button.dataset.action;
      const entry = item("button", "piece-menu-item", board.actions.label(type));
      entry.type = "button";
      entry.setAttribute("role", "menuitem");
      entry.dataset.action = type;
      entry.title = button.title;
      if (button.getAttribute("aria-pressed") === "true") entry.classList.add("current");
      entry.addEventListener("click", () => this.choose(button));
      return entry;
    });
    const list = item("div", "piece-menu-items");
    list.setAttribute("role", "menu");
    list.setAttribute("aria-label", `${name}: what it may do now`);
    list.append(...items);
    // Nothing offered: the unit card's own words say why (watching, not yours, waits).
    const none = item("p", "piece-menu-none", $("unit-may").textContent || "Nothing it may do now.");
    // A free marker, whatever the turn: the table's talk, not an order (marks.js).
    const unit = board.store.unit(this.unit);
    const marking = !board.readOnly() && board.store.mayOrder(unit);
    if (marking) {
      const entry = item("button", "piece-menu-item piece-menu-mark", "Add a marker…");
      entry.type = "button";
      entry.setAttribute("role", "menuitem");
      entry.addEventListener("click", () => {
        const id = this.unit;
        this.close(false);
        board.marks.begin(id);
      });
      list.append(entry);
    }
    this.node.replaceChildren(title, ...(items.length ? [] : [none]), ...(list.childElementCount ? [list] : []));
    this.node.hidden = false;
    this.place();
  }

  /** Beside the pointer, inside the table's frame. */
  place() {
    const frame = this.node.offsetParent?.getBoundingClientRect() ?? { left: 0, top: 0, width: innerWidth, height: innerHeight };
    const [w, h] = [this.node.offsetWidth, this.node.offsetHeight];
    const x = Math.max(0, Math.min(this.at[0] - frame.left + 4, frame.width - w - 4));
    const y = Math.max(0, Math.min(this.at[1] - frame.top + 4, frame.height - h - 4));
    this.node.style.left = `${x}px`;
    this.node.style.top = `${y}px`;
  }

  /** Does what the bar's button does; a drag action then wants the drag: the hint says so. */
  choose(button) {
    const { board } = this;
    const unit = this.unit, hint = $("tool-hint").textContent;
    this.close(false);
    button.click();
    if (button.closest("#actions") && $("tool-hint").textContent === hint) {
      board.setHint(`${board.actions.label(button.dataset.action)}: drag ${board.store.name(unit)} to where it goes.`);
    }
  }

  close(refocus = true) {
    if (!this.isOpen) return false;
    const had = this.node.contains(document.activeElement);
    const unit = this.unit;
    this.unit = null;
    this.node.hidden = true;
    this.node.replaceChildren();
    if (had && refocus) this.board.pieces.nodes.get(unit)?.g.focus({ preventScroll: true });
    return true;
  }

  /** A table event may change what the piece is offered: the open menu follows the bar. */
  refresh() {
    if (!this.isOpen) return;
    if (this.board.pieces.selected !== this.unit) return void this.close(false);
    const focused = this.node.contains(document.activeElement) && /** @type {HTMLElement} */ (document.activeElement).dataset.action;
    this.render();
    if (focused) /** @type {HTMLButtonElement | null} */ (this.node.querySelector(`[data-action="${CSS.escape(focused)}"]`))?.focus({ preventScroll: true });
  }

  /** The menu's own keys and closing; what opens it is ondemand.js's (it loads this). */
  attach() {
    const { board } = this;
    // A press anywhere else closes it (the press still does what it does).
    document.addEventListener("pointerdown", (e) => this.isOpen && !this.node.contains(/** @type {Node} */ (e.target)) && this.close(false), { capture: true });
    // Escape closes the menu and does nothing else (not the board's Escape: keys.js).
    document.addEventListener("keydown", (e) => {
      if (e.key !== "Escape" || !this.isOpen) return;
      this.close();
      e.preventDefault();
      e.stopPropagation();
    }, { capture: true });
    this.node.addEventListener("keydown", (e) => {
      const items = [.../** @type {NodeListOf<HTMLButtonElement>} */ (this.node.querySelectorAll("[role=menuitem]"))];
      const at = items.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
      const step = { ArrowDown: 1, ArrowUp: -1 }[e.key];
      if (step && items.length) items[(at + step + items.length) % items.length].focus();
      else if (e.key === "Home" || e.key === "End") items.at(e.key === "Home" ? 0 : -1)?.focus();
      else if (e.key === "Tab") this.close();
      else return;
      e.preventDefault();
      e.stopPropagation(); // the menu's keys, not the board's
    });
    board.store.on("event", () => this.refresh());
    board.store.on("snapshot", () => this.refresh());
    board.view.onChange(() => this.close(false)); // the piece moved under it
  }
}
