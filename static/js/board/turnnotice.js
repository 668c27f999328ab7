// @ts-check
// Play by correspondence: a browser notification when the table hands this user their
// turn while the board is in the background (document.hidden). Only for a user who
// opted in on their turn notice settings page (config.turnNotices), only once the
// browser allowed it (asked from the settings page, or from the board's button: a
// click, as browsers require), never for the user's own end of turn, never twice for
// the same turn on this page (an undo and the same end of turn again).

const keyOf = (turn) => `${turn.turn ?? ""}|${turn.phase ?? ""}|${turn.active_side ?? ""}`;

export class TurnNotice {
  constructor(store, config, button) {
    this.store = store;
    this.config = config;
    this.button = button;
    this.key = null; // the turn last seen
    this.told = new Set(); // the turns already announced
  }

  get supported() {
    return "Notification" in window;
  }

  attach() {
    if (!this.config.turnNotices || !this.supported) return;
    // Loaded on demand (ondemand.js): the first snapshot may be here already.
    this.key = keyOf(this.store.turn ?? {});
    this.store.on("snapshot", () => {
      this.key = keyOf(this.store.turn);
    });
    this.store.on("event", ({ frame }) => this.onEvent(frame));
    this.showButton();
    this.button.addEventListener("click", () => Notification.requestPermission().then(() => this.showButton()));
  }

  // The button shows while the browser has not been asked yet.
  showButton() {
    this.button.hidden = Notification.permission !== "default";
  }

  mine(frame) {
    const me = this.store.me;
    const side = this.store.turn.active_side;
    return me.role === "player" && me.sides.includes(side) && frame.actor !== me.user;
  }

  onEvent(frame) {
    const key = keyOf(this.store.turn);
    const changed = key !== this.key;
    this.key = key;
    if (!changed || !this.mine(frame) || this.told.has(key)) return;
    this.told.add(key);
    if (!document.hidden || Notification.permission !== "granted") return;
    const note = new Notification(`Your turn in ${this.config.battleName}`, {
      body: `${this.config.campaignName}: turn ${this.store.turn.turn ?? ""}, ${this.store.turn.active_side}.`,
      tag: `tabletop-turn-${this.config.battle}`,
    });
    note.addEventListener("click", () => {
      window.focus();
      note.close();
    });
  }
}
