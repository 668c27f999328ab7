// @ts-check
// The group's cards, side by side in the card panel (ui.md, "Groups"): each member's name,
// rows and states as its own card shows them, and how a drag will move the group: one
// order where the catalogue has a group action for it, else one order a piece, in turn.
import { marksOf } from "../pieces.js";
import { statRows } from "./unitcard.js";
import { item } from "./util.js";

const $ = (id) => document.getElementById(id);

export class GroupCards {
  constructor(board) {
    this.board = board;
    this.box = $("group-cards");
  }

  /** Shows the group's cards; false (and hidden) when no group is picked. */
  show() {
    const board = this.board, members = board.group.members();
    this.box.hidden = members.length < 2;
    if (this.box.hidden) return (this.box.replaceChildren(), false);
    const lead = board.shownUnit(board.pieces.selected) ?? members[0];
    const spec = board.group.spec(lead);
    const how = spec ? `a drag moves them as one order (${spec.label.toLowerCase()})` : "a drag moves them one order a piece, each proposed in turn";
    const row = item("ul", "group-card-row");
    row.setAttribute("aria-label", "The group's cards");
    for (const unit of members) row.append(this.card(unit, unit.id === lead.id));
    this.box.replaceChildren(item("p", "group-summary", `Group of ${members.length}: ${how}.`), row);
    // The selected piece's card in sight: the row scrolls, the panel stays put.
    const card = row.querySelector(".selected");
    if (card) row.scrollLeft = Math.max(0, card.offsetLeft - row.offsetLeft - (row.clientWidth - card.offsetWidth) / 2);
    return true;
  }

  card(unit, selected) {
    const { board } = this, store = board.store;
    const card = item("li", `group-card${selected ? " selected" : ""}`);
    card.dataset.unit = unit.id;
    const name = item("p", "unit-name");
    const swatch = item("span", "swatch");
    swatch.setAttribute("aria-hidden", "true");
    swatch.style.background = board.pieces.colour(unit.side);
    name.append(swatch, item("strong", "", store.name(unit.id)));
    const stats = item("dl", "stats");
    for (const [k, v] of statRows(board, unit)) stats.append(item("dt", "", k), item("dd", "", v));
    const badges = item("ul", "badges");
    badges.append(...marksOf(unit, board.marking).map((m) => {
      const li = item("li", m.kind === "state" ? "badge" : "marker", m.text);
      if (m.kind === "free") (li.style.background = m.fill), (li.style.color = m.ink);
      return li;
    }));
    const offered = store.offered(unit.id);
    const may = offered === null ? "" : offered.length ? `May now: ${offered.map((t) => board.actions.label(t)).join(", ")}.` : "Nothing more is open to it this turn.";
    card.append(name, stats, badges, item("p", "may", may));
    return card;
  }
}
