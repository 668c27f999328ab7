// @ts-check
// The table as this client knows it: the last snapshot plus the events applied in seq
// order. Only the server changes the table; this module never guesses.

import { hashedForm, sha256Hex } from "./jcs.js";

const TABLE_KINDS = new Set(["act", "fiat", "undo", "turn"]);

export class TableStore {
  constructor() {
    this.seq = -1; // nothing applied yet
    this.state = null;
    this.turn = {};
    this.summary = ""; // the engine's header line for the turn
    this.offers = null; // {unit id: [action types]} the server offers now; null: not told
    this.unitStates = {}; // {unit id: [{key, label, help}]}: the system's states each piece shows
    this.marks = new Map(); // seq -> a free marker on a piece, {seq, by, unit, text, colour}
    this.markerColours = []; // the palette, [{name, fill, text}] (the page's config)
    this.labels = {};
    this.status = "";
    this.delay = 0; // how late this client's table runs (a spectator's delay)
    this.delaySetting = null; // the spectator delay in force (the GM is told it)
    this.lastChange = null; // {seq, actor}: the last event that changed the table
    this.terrainKinds = []; // the system's terrain kinds, for reasons in a player's words
    this.me = { user: "", role: "spectator", sides: [] };
    this.limits = {};
    this.pending = new Map(); // events that arrived ahead of a gap, by seq
    this.listeners = {};
  }

  on(name, fn) {
    (this.listeners[name] ??= []).push(fn);
  }

  emit(name, detail) {
    for (const fn of this.listeners[name] ?? []) fn(detail);
  }

  get ready() {
    return this.state !== null;
  }

  unit(id) {
    return this.state?.units.find((u) => u.id === id) ?? null;
  }

  name(id) {
    const label = this.labels[id];
    return label && typeof label.name === "string" && label.name ? label.name : id;
  }

  sides() {
    const sides = [...(this.turn.sides ?? [])];
    for (const u of this.state?.units ?? []) if (!sides.includes(u.side)) sides.push(u.side);
    return sides;
  }

  /** Whether this client may propose actions for the unit (the server still decides). */
  mayOrder(unit) {
    if (!unit || this.me.role === "spectator") return false;
    return this.me.role === "gm" || this.me.sides.includes(unit.side);
  }

  /** The system's states a piece shows now, as its catalogue names them (the server's). */
  statesOf(id) {
    return this.unitStates[id] ?? [];
  }

  /** The free markers on a piece, oldest first. */
  marksOf(id) {
    return [...this.marks.values()].filter((m) => m.unit === id);
  }

  /** A palette colour by name: {fill, text}. */
  markerColour(name) {
    return this.markerColours.find((c) => c.name === name) ?? { fill: "#37474f", text: "#ffffff" };
  }

  /** The action types the server offers the unit now, or null when it has not said. */
  offered(id) {
    if (this.offers === null) return null;
    return this.offers[id] ?? [];
  }

  /** Calls fn once this client has applied `seq` (or after `ms`, whichever comes first). */
  whenAt(seq, fn, ms = 1500) {
    if (this.seq >= seq) {
      fn();
      return;
    }
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      fn();
    };
    this.on("event", () => {
      if (!done && this.seq >= seq) once();
    });
    setTimeout(once, ms);
  }

  myTurn() {
    return this.me.role === "gm" || this.me.sides.includes(this.turn.active_side);
  }

  applySnapshot(frame) {
    this.seq = frame.seq;
    this.state = frame.state;
    this.turn = frame.turn ?? {};
    this.summary = frame.summary ?? "";
    this.offers = frame.actions ?? null;
    this.unitStates = frame.unit_states ?? {};
    this.marks = new Map((frame.markers ?? []).map((m) => [m.seq, m]));
    this.labels = frame.labels ?? {};
    this.status = frame.status ?? "";
    this.delay = frame.delay_s ?? 0;
    this.delayNotice = null;
    for (const seq of [...this.pending.keys()]) if (seq <= this.seq) this.pending.delete(seq);
    this.emit("snapshot", frame);
    this.check(frame);
    this.drain();
  }

  /** Checks the table against the server's hash of it after `frame` (docs/protocol.md,
   * `hash`): the canonical text is taken now, hashed in the background. On a mismatch the
   * table is out of step: it asks for a fresh snapshot (`tabletop:desync`: the connection
   * reconnects without `?seq=`). */
  check(frame) {
    if (!frame.hash || !this.state) return;
    const form = hashedForm(this.state, this.turn);
    sha256Hex(form).then((hash) => {
      if (hash === null || hash === frame.hash) return;
      this.seq = -1; // nothing to resume from: the next connection brings a snapshot
      this.emit("desync", { seq: frame.seq, expected: frame.hash, got: hash });
      globalThis.dispatchEvent?.(new CustomEvent("tabletop:desync", { detail: { seq: frame.seq } }));
    });
  }

  /** The server's word that the spectator delay changed (a `delay` frame): shown at once;
   *  a delay lifted is shown once the held-back events up to its event are in. */
  noticeDelay(seconds) {
    this.delayNotice = seconds;
    if (seconds > 0) this.delay = seconds;
  }

  /** "applied", "old" (already had it: history for the log), or "gap" (ask to resume). */
  applyEvent(frame) {
    if (this.seq < 0 || frame.seq <= this.seq) {
      this.emit("history", frame);
      return "old";
    }
    if (frame.seq > this.seq + 1) {
      this.pending.set(frame.seq, frame);
      return "gap";
    }
    this.apply(frame);
    this.drain();
    return "applied";
  }

  drain() {
    while (this.pending.has(this.seq + 1)) {
      const next = this.pending.get(this.seq + 1);
      this.pending.delete(next.seq);
      this.apply(next);
    }
  }

  apply(frame) {
    const before = {};
    if (TABLE_KINDS.has(frame.kind)) {
      const units = this.state.units;
      for (const changed of frame.units ?? []) {
        const i = units.findIndex((u) => u.id === changed.id);
        before[changed.id] = i >= 0 ? units[i] : null;
        if (i >= 0) units[i] = changed;
        else units.push(changed);
      }
      const removed = new Set(frame.removed ?? []);
      this.state.units = units.filter((u) => !removed.has(u.id));
      if (frame.state) this.state.state = frame.state;
      if (frame.turn) this.turn = frame.turn;
      if (frame.summary !== undefined) this.summary = frame.summary;
      if (frame.actions !== undefined) this.offers = frame.actions;
      if (frame.unit_states !== undefined) this.unitStates = frame.unit_states;
      this.lastChange = { seq: frame.seq, actor: frame.actor ?? null };
    }
    if (frame.kind === "mark" && frame.marker) this.marks.set(frame.marker.seq, frame.marker);
    if (frame.kind === "unmark") this.marks.delete(frame.marker);
    if (frame.kind === "delay") {
      // A newer delay told at once (noticeDelay) outranks this event, which came late.
      if (this.me.role === "spectator") this.delay = this.delayNotice > 0 ? this.delayNotice : frame.seconds;
      this.delaySetting = frame.seconds;
    }
    this.seq = frame.seq;
    this.emit("event", { frame, before });
    if (TABLE_KINDS.has(frame.kind)) this.check(frame);
  }
}

