// @ts-check
// The board page: wires the socket, the table store, the SVG layers, the tools and the
// panels. The server is the referee: this page proposes and shows, it never decides.
import { Drawing } from "./annotations.js";
import { Marks } from "./marks.js";
import { Announcer } from "./announce.js";
import { newId, Connection } from "./connection.js";
import { attachRecordButtons, attachTouch, attachTurnNotice, pieceMenu } from "./ondemand.js";
import { TableCursor } from "./cursor.js";
import { Mover } from "./drag.js";
import { pathPoints } from "./geometry.js";
import { KeyMove } from "./keymove.js";
import { attachKeys } from "./keys.js";
import { Sight } from "./los.js";
import { Measure } from "./measure.js";
import { Chat } from "./panels/chat.js";
import { DiceLog } from "./panels/dice.js";
import { Group } from "./group.js";
import { GroupBox } from "./groupbox.js";
import { InTurn } from "./inturn.js";
import { GroupCards } from "./panels/groupcards.js";
import { EventLog } from "./panels/log.js";
import { PendingRoll } from "./panels/pending.js";
import { PieceList } from "./panels/piecelist.js";
import { Presence } from "./panels/presence.js";
import { TakeBack } from "./panels/takeback.js";
import { turnText } from "./panels/turn.js";
import { UnitCard } from "./panels/unitcard.js";
import { actionButton, item } from "./panels/util.js";
import { Pieces } from "./pieces.js";
import { Pings } from "./ping.js";
import { PointActions } from "./pointpick.js";
import { Overlay, reasonNode, reasonText } from "./preview.js";
import { TableStore } from "./state.js";
import { el } from "./svg.js";
import { Toasts } from "./toasts.js";
import { View } from "./view.js";
import { drawBackdrop } from "../render/backdrop.js";
import { renderTerrain, setUpTable } from "../render/terrain.js";

const HISTORY_EVENTS = 100;
const $ = (id) => document.getElementById(id);
const on = (id, type, fn) => $(id).addEventListener(type, fn);

class Board {
  constructor(config) {
    this.config = config;
    this.page = $("board-page");
    this.svg = $("board-svg");
    this.store = new TableStore();
    this.store.me = { user: config.user, role: config.role, sides: [] };
    this.store.terrainKinds = config.terrainKinds ?? [];
    this.store.markerColours = config.markerColours ?? [];
    this.view = new View(this.svg);
    this.announce = new Announcer($("announce-polite"), $("announce-urgent"));
    this.toasts = new Toasts($("toasts"), this.announce);
    this.replaySeq = null;
    this.replay = null;
    this.terrainKey = "";
    this.activeTool = null;
    this.reachOn = false;
    this.reachRef = 0;
    this.commands = new Map(); // id -> what, for toasts on refusal
    // The game system's catalogue (the server's): a drag proposes one of its drag actions.
    this.catalogue = config.actions ?? [];
    // A `group` action (a formation move) is a drag too, of the Shift-clicked pieces; a
    // turn in place (a free spin) is one of the piece's facing (Q/E, the handle, a drag).
    this.dragActions = this.catalogue.filter((a) => a.drag || a.group || a.path === "turn");
    this.currentAction = this.dragActions[0]?.type ?? null;
    this.table = setUpTable(this.svg, 1, 1);
    this.labelLayer = el("g", { class: "labels" }, this.svg);
    this.pieces = new Pieces(null, this.labelLayer, this.store);
    this.overlay = null; // the layers are made when the table's size is known
    this.mover = new Mover(this);
    this.measure = new Measure(this, null, null);
    this.sight = new Sight(this, null, null);
    this.drawing = new Drawing(this);
    this.pings = new Pings(this);
    this.log = new EventLog(this);
    this.dice = new DiceLog(this);
    this.chat = new Chat(this);
    this.presence = new Presence();
    this.card = new UnitCard(this);
    this.pendingRoll = new PendingRoll(this);
    this.takeback = new TakeBack(this);
    this.points = new PointActions(this);
    this.group = new Group(this);
    this.cursor = new TableCursor(this); // the keys' point on the table, for the tools
    this.groupBox = new GroupBox(this); // Shift-drag on the empty table
    this.groupCards = new GroupCards(this);
    this.inTurn = new InTurn(this); // a group's orders one a piece, where it has no group order
    this.keyMove = new KeyMove(this);
    this.pieceList = new PieceList(this);
    this.menu = null; // a piece's actions (contextmenu.js), once first opened: openMenu
    this.openMenu = null; // (unit, x, y): right-click, or a long press (touch.js)
    this.marks = new Marks(this); // free markers on pieces: the card's form, the menu's entry
    this.touch = null; // a finger's gestures (touch.js), on a device with touch
    this.activeUnit = null; // the unit whose activation runs (the server's word), if any
    this.conn = new Connection(config.socket, {
      seen: () => this.store.seq,
      onFrame: (frame) => this.onFrame(frame),
      onStatus: (state, detail) => this.onStatus(state, detail),
    });
    this.store.on("snapshot", () => this.drawAll());
    attachTurnNotice(this.store, config, $("turn-notice-allow"));
    this.store.on("event", ({ frame, before }) => this.onApplied(frame, before));
    this.store.on("history", (frame) => this.logFrame(frame));
    this.wire();
  }

  /** (Re)builds the table's layers for a size; terrain first, pieces and tools above. */
  setTable(width, height) {
    if (this.tableSize === `${width}x${height}`) return;
    this.tableSize = `${width}x${height}`;
    this.table = setUpTable(this.svg, width, height);
    drawBackdrop(this.svg, this.table, this.config.backdrop ?? null); // the map's picture
    el("g", { class: "terrain" }, this.table);
    this.pieceLayer = el("g", { class: "pieces" }, this.table);
    // What players drew: above the pieces, below the tools' lines and the pings.
    this.drawing.layer = el("g", { class: "annotations" }, this.table);
    this.toolLayer = el("g", { class: "tools" }, this.table);
    this.pieces.layer = this.pieceLayer;
    this.pieces.nodes.clear();
    this.labelLayer.replaceChildren();
    this.overlay = new Overlay(this.table, this.labelLayer, this.store);
    this.overlay.costSuffix = this.actionCostSuffix();
    this.table.append(this.mover.handle);
    // Each tool its own group: clearing one never takes the other's drawing with it.
    this.measure.layer = el("g", { class: "measure" }, this.toolLayer);
    this.measure.labels = el("g", { class: "tool-labels" }, this.labelLayer);
    this.sight.layer = el("g", { class: "los" }, this.toolLayer);
    this.sight.labels = el("g", { class: "tool-labels" }, this.labelLayer);
    this.drawing.labels = el("g", { class: "annotation-labels" }, this.labelLayer);
    this.pings.layer = el("g", { class: "pings" }, this.toolLayer);
    this.pings.labels = el("g", { class: "ping-labels" }, this.labelLayer);
    this.svg.append(this.labelLayer); // labels above everything, upright
    this.view.setTable(width, height);
    this.terrainKey = "";
  }

  // -- what is shown: the live table, or a past one (replay)

  shownState() {
    return this.replay?.state ?? this.store.state;
  }

  shownUnit(id) {
    return this.shownState()?.units.find((u) => u.id === id) ?? null;
  }

  height() {
    return this.shownState()?.table.height ?? 0;
  }

  readOnly() {
    return this.store.me.role === "spectator" || this.replaySeq !== null;
  }

  fiat() {
    return this.store.me.role === "gm" && $("fiat-toggle").checked;
  }

  fiatReason() {
    return $("fiat-reason").value.trim().slice(0, 200);
  }

  clearFiatReason() {
    $("fiat-reason").value = "";
  }

  actionType() {
    return this.currentAction;
  }

  /** The catalogue's entry for an action type (the current one by default), as `unit`
   *  picks it: a `variants` entry naming its type replaces the gesture fields it gives. */
  spec(type = this.currentAction, unit = null) {
    const spec = this.catalogue.find((a) => a.type === type) ?? null;
    const variant = unit && spec?.variants?.find((v) => v.unit_types.includes(unit.type));
    return variant ? { ...spec, ...variant, unit_types: spec.unit_types, variants: [] } : spec;
  }

  /** The player's word for an action type, from the catalogue. */
  actionLabel(type) {
    return this.catalogue.find((a) => a.type === type)?.label ?? String(type ?? "").replaceAll("_", " ");
  }

  /** A cost or allowance in the system's unit: 8.5" or 8.5 MP. */
  cost(value) {
    return `${value}${this.config.costSuffix ?? "″"}`;
  }

  /** What the current action's costs count, after the number (the catalogue says). */
  actionCostSuffix() {
    const unit = this.catalogue.find((a) => a.type === this.currentAction)?.cost_unit;
    return this.config.costSuffixes?.[unit] ?? this.config.costSuffix ?? "″";
  }

  /** The drag actions the selected unit is offered now (the server's list). */
  offeredDrags(unitId) {
    const offered = this.store.offered(unitId);
    if (offered === null) return this.dragActions;
    return this.dragActions.filter((a) => offered.includes(a.type));
  }

  tool() {
    return this.activeTool;
  }

  /** Keeps a unit's last committed verdict this turn, for its notes on the unit card. */
  noteVerdict(unitId, verdict) {
    if (this.verdicts?.turn !== this.store.turn.turn) this.verdicts = { turn: this.store.turn.turn, of: new Map() };
    this.verdicts.of.set(unitId, verdict);
  }

  /** What the referee's verdict says of a unit beyond the shared fields (the system's
   *  `verdictNotes`, e.g. how fast it moved), as [label, value]: its plan's preview, else
   *  its last action's this turn. */
  verdictNotes(unitId) {
    const plan = this.mover.plan;
    const preview = plan?.unit.id === unitId ? this.mover.verdict : null;
    const last = this.verdicts?.turn === this.store.turn.turn ? this.verdicts.of.get(unitId) : null;
    return (this.config.verdictNotes ?? []).flatMap((note) => {
      const value = preview?.[note.key] ?? last?.[note.key];
      return value == null ? [] : [[note.label, value]];
    });
  }

  /** Whether the current action's path may climb for `unit` (the catalogue's `path_z`). */
  mayClimb(unit) {
    const spec = this.catalogue.find((a) => a.type === this.currentAction);
    return Boolean(unit && spec?.path_z?.includes(unit.type));
  }

  /** The altitude field's height for the next path points; 0 where it may not climb. */
  altitude(unit) {
    if (!this.mayClimb(unit)) return 0;
    const z = Number($("altitude")?.value ?? 0);
    return Number.isFinite(z) && z > 0 ? Math.round(z * 100) / 100 : 0;
  }

  setHint(text) {
    $("tool-hint").textContent = text;
  }

  /** Clears the hint if it still says `text`: a later one is another tool's. */
  clearHint(text) {
    if (text && $("tool-hint").textContent === text) this.setHint("");
  }

  drawAll() {
    const state = this.shownState();
    if (!state) return;
    const { width, height } = state.table;
    this.setTable(width, height);
    const key = JSON.stringify(state.terrain ?? []);
    if (key !== this.terrainKey) {
      this.terrainKey = key;
      renderTerrain(this.svg, state.terrain ?? [], { width, height, legend: $("legend"), idPrefix: "board", kinds: this.config.terrainKinds ?? [], unstyled: this.config.terrainUnstyled });
      if (!(state.terrain ?? []).length) $("legend").replaceChildren(item("p", "empty", "Open ground: no terrain."));
    }
    this.overlay.height = height;
    this.pieces.live = this.replaySeq === null;
    this.pieces.render(state.units, height);
    this.drawing.render();
    this.markActive();
    this.drawSides();
    this.refreshChrome();
    if (this.replaySeq === null) this.log.live(this.store.seq);
    if (!document.body.dataset.ready) {
      document.body.dataset.ready = "1";
      performance.mark("board-ready");
    }
  }

  /** Highlights the unit whose activation runs, on the live table. */
  markActive() {
    const id = this.replaySeq === null ? this.activeUnit : null;
    for (const [unitId, node] of this.pieces.nodes) node.g.classList.toggle("active-unit", unitId === id);
  }

  drawSides() {
    const list = $("sides-legend");
    const sides = this.store.sides();
    if (list.dataset.sides === sides.join(",")) return;
    list.dataset.sides = sides.join(",");
    list.replaceChildren(...sides.map((side) => {
      const li = item("li");
      const swatch = item("span", "swatch");
      swatch.style.background = this.pieces.colour(side);
      li.append(swatch, item("span", "", `Side ${side}`));
      return li;
    }));
  }

  refreshChrome() {
    const store = this.store;
    $("turn-status").textContent = this.replaySeq !== null ? `Replay of #${this.replaySeq}` : turnText(store);
    $("turn-status").classList.toggle("yours", store.me.sides.includes(store.turn.active_side));
    const selected = this.shownUnit(this.pieces.selected);
    this.card.show(selected);
    const movable = selected && !this.readOnly() && store.mayOrder(selected);
    // The action bar offers only what the selected unit may do now.
    const offered = selected ? this.offeredDrags(selected.id).map((a) => a.type) : [];
    if (offered.length && !offered.includes(this.currentAction)) this.currentAction = offered[0];
    if (this.overlay) this.overlay.costSuffix = this.actionCostSuffix();
    for (const button of $("actions").querySelectorAll("button")) {
      button.hidden = Boolean(selected) && !offered.includes(button.dataset.action);
      button.disabled = !movable;
      button.setAttribute("aria-pressed", String(button.dataset.action === this.currentAction));
    }
    // Disabled while one is in flight: a double click ends one turn, not the next one too.
    $("end-turn").disabled = this.readOnly() || !store.myTurn() || store.status !== "active" || Boolean(this.ending);
    $("altitude-field").hidden = !movable || !this.mayClimb(selected);
    this.points.refresh(selected, movable);
    this.keyMove.refresh(selected, movable);
    this.pieceList.show(this.shownState()?.units ?? [], this.pieces.selected, this.replaySeq === null ? this.activeUnit : null);
    this.pendingRoll.show(store, this.replaySeq === null);
    this.takeback.show();
    this.mover.showHandle(this.replaySeq === null ? this.pieces.selected : null);
  }

  /** Selects a piece (null: none). A click elsewhere ends a group; Tab (`focus`) does not,
   *  so that Shift+Enter may add the focused piece to it (ui.md, "Groups"). */
  select(id, focus = false) {
    if (this.pieces.selected === id) return;
    if (!focus) this.group.keep(id);
    // Another piece (or none): the last one's offered alternative is no longer on the table.
    if (this.mover.offer?.unit.id !== id) this.mover.dropOffer();
    this.pieces.select(id);
    this.refreshChrome();
    if (this.reachOn) this.askReach();
  }

  // -- frames

  onFrame(frame) {
    switch (frame.type) {
      case "hello":
        this.store.me = frame.you;
        this.store.limits = frame.limits ?? {};
        this.page.dataset.role = frame.you.role;
        $("gm-panel").hidden = frame.you.role !== "gm";
        if (frame.spectator_delay_s !== undefined) {
          this.store.delaySetting = frame.spectator_delay_s;
          $("delay-seconds").value = String(frame.spectator_delay_s);
        }
        break;
      case "snapshot": {
        const first = this.store.seq < 0;
        this.activeUnit = frame.active_unit ?? null;
        this.drawing.notes = new Map((frame.annotations ?? []).map((n) => [n.seq, n]));
        this.store.applySnapshot(frame);
        this.chat.reset(frame.chat ?? []);
        this.dice.reset(frame.dice ?? []);
        this.takeback.reset(frame.takeback);
        if (first && frame.seq > 0) this.conn.send({ type: "resume", seq: Math.max(0, frame.seq - HISTORY_EVENTS) });
        this.showConn();
        break;
      }
      case "delay":
        this.store.noticeDelay(frame.delay_s);
        this.showConn();
        break;
      case "sight":
        this.sight.onRuling(frame);
        break;
      case "event":
        if (this.store.applyEvent(frame) === "gap") this.askResume();
        break;
      case "verdict":
        this.onVerdict(frame);
        break;
      case "ack":
      case "reject":
        this.onAnswer(frame);
        break;
      case "error":
        this.onError(frame);
        break;
      case "presence":
        this.presence.show(frame.present ?? []);
        break;
      case "point":
        this.pings.show(frame);
        break;
      default:
        break;
    }
  }

  askResume() {
    clearTimeout(this.resumeTimer);
    this.resumeTimer = setTimeout(() => this.conn.send({ type: "resume", seq: this.store.seq }), 200);
  }

  logFrame(frame) {
    this.log.add(frame);
    if (frame.kind === "chat") this.chat.add(frame);
    if (frame.kind === "roll" || frame.kind === "act") this.dice.fromEvent(frame);
  }

  onApplied(frame, before) {
    if (frame.kind === "act" && frame.verdict && frame.action?.unit) this.noteVerdict(frame.action.unit, frame.verdict);
    if (["act", "fiat", "undo", "turn"].includes(frame.kind)) this.activeUnit = frame.active_unit ?? null;
    this.logFrame(frame);
    this.announce.say(frame.kind === "chat" ? `${frame.actor ?? "?"} says: ${frame.text ?? ""}` : this.log.text(frame));
    this.takeback.onEvent(frame);
    this.mover.onEvent(frame);
    if (frame.kind === "annotate" || frame.kind === "erase") this.drawing.onEvent(frame);
    if (frame.kind === "mark" || frame.kind === "unmark") this.marks.onEvent(frame);
    if (frame.kind === "delay") {
      if (this.store.me.role === "gm") $("delay-seconds").value = String(frame.seconds);
      this.showConn();
    }
    if (!["act", "fiat", "undo", "turn", "delay"].includes(frame.kind)) return;
    if (this.replaySeq === null) {
      this.drawAll();
      for (const unit of frame.units ?? []) {
        const old = before[unit.id];
        if (!old || old.aboard || unit.aboard) continue;
        const points = frame.kind === "act" && frame.action?.unit === unit.id
          ? pathPoints(old.position, frame.action.path ?? [])
          : [old.position, unit.position];
        if (Math.hypot(points.at(-1)[0] - unit.position[0], points.at(-1)[1] - unit.position[1]) > 0.01) points.push(unit.position);
        this.pieces.glide(unit.id, points, old.facing ?? 0, unit.facing ?? 0);
      }
      if (this.reachOn && frame.kind !== "delay") this.askReach();
    } else {
      this.log.live(this.store.seq);
      this.refreshChrome();
    }
  }

  onVerdict(frame) {
    const ref = String(frame.ref ?? "");
    if (ref.startsWith("alt-")) {
      this.mover.onOffer(frame);
      return;
    }
    if (ref.startsWith("reach-")) {
      if (ref !== `reach-${this.reachRef}` || !this.reachOn) return;
      this.overlay.showReach(frame.reach ?? null);
      if (!frame.reach) {
        const why = frame.verdict?.reasons?.map((r) => reasonText(r, this.store)).join("; ");
        this.setHint(`Reach: the server did not give an area${why ? ` (${why})` : ""}.`);
      } else if (frame.reach.complete === false) this.setHint(`Reach: shaded to ${frame.reach.to.toFixed(1)}″ of path; the server bounds its work, it may go farther.`);
      else this.setHint("Reach: the shaded area is where the piece may legally end.");
      return;
    }
    if (this.mover.onVerdict(frame)) {
      this.card.show(this.shownUnit(this.pieces.selected));
      this.keyMove.readVerdict();
    }
  }

  onAnswer(frame) {
    if (this.mover.onAnswer(frame)) return;
    this.ended(frame.id, frame.type === "ack" ? frame.seq : 0);
    this.takeback.answered(frame.id, frame.type === "ack" ? frame.seq : 0);
    const what = this.commands.get(frame.id);
    this.commands.delete(frame.id);
    if (frame.type !== "reject" || !what) return;
    // A repeated end (a second press that left before the first's event came) is no refusal.
    const again = frame.reasons?.[0]?.code === "turn_already_ended";
    this.toasts.show(`${what}: ${again ? "done already" : "refused"}`, (frame.reasons ?? []).map((r) => reasonNode(r, this.store)), again ? "info" : "error");
  }

  /** The answer to the End turn in flight: the button is back once the table has its event. */
  ended(id, seq) {
    if (id !== this.ending) return;
    this.store.whenAt(seq, () => {
      if (this.ending === id) this.ending = null;
      this.refreshChrome();
    }, 3000);
  }

  onError(frame) {
    if (frame.ref && this.mover.onAnswer(frame)) return;
    this.ended(frame.ref, 0);
    this.takeback.answered(frame.ref);
    if (String(frame.ref ?? "").startsWith("drag-")) return; // a preview the server could not read
    if (String(frame.ref ?? "").startsWith("ping-")) return this.pings.onError(frame);
    if (frame.code === "rate_limited") return;
    const what = this.commands.get(frame.ref);
    this.commands.delete(frame.ref);
    this.toasts.show(what ? `${what}: ${frame.code}` : `The server says: ${frame.code}`, [frame.rule ? reasonNode(frame) : frame.message ?? ""], "error");
  }

  onStatus(state, detail) {
    const conn = $("conn");
    conn.dataset.state = state;
    this.connState = state;
    this.showConn();
    conn.title = detail ?? (state === "live" ? "Connected to the table" : "Not connected: moves wait until the table is back");
    this.page.dataset.conn = state;
    if (state === "closed") this.toasts.show("Not connected", [detail ?? ""], "error", 0);
  }

  /** The connection's word in the header: a delayed spectator's table is not "live". */
  showConn() {
    const state = this.connState ?? "connecting";
    const words = { connecting: "connecting…", live: "live", reconnecting: "reconnecting…", offline: "offline", closed: "closed" };
    const late = state === "live" && this.store.me.role === "spectator" && this.store.delay > 0;
    $("conn").querySelector(".conn-text").textContent = late ? `delayed ${this.store.delay} s` : words[state] ?? state;
    $("conn").dataset.delayed = late ? "1" : "";
  }

  /** Sends a command with a fresh id; a refusal becomes a toast. */
  command(frame, what) {
    const id = newId(frame.type);
    this.commands.set(id, what);
    this.conn.send({ ...frame, id });
    return id;
  }

  // -- replay

  async showReplay(seq) {
    this.mover.cancel();
    this.replaySeq = seq;
    const asked = seq;
    $("replay-banner").hidden = false;
    $("replay-text").textContent = `Replay: the table after event #${seq}, read-only. Live is at #${this.store.seq}.`;
    this.page.dataset.replay = "1";
    try {
      const response = await fetch(`${this.config.positionUrl}${seq}/`, { credentials: "same-origin" });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const position = await response.json();
      if (this.replaySeq !== asked) return;
      this.replay = position;
      this.drawAll();
    } catch (error) {
      this.toasts.show("Could not load that moment of the battle", [String(error.message ?? error)], "error");
    }
  }

  showLive() {
    if (this.replaySeq === null) return;
    this.replaySeq = null;
    this.replay = null;
    $("replay-banner").hidden = true;
    delete this.page.dataset.replay;
    this.log.toLive();
    this.drawAll();
  }

  // -- tools

  toggleTool(name) {
    const tools = { measure: this.measure, los: this.sight, draw: this.drawing };
    const next = tools[name];
    if (next === this.drawing && this.readOnly()) {
      this.setHint(this.replaySeq === null ? "Draw: spectators watch; the players and the GM draw." : "Draw: back to live first.");
      return;
    }
    const wasActive = this.activeTool === next;
    this.measure.clear();
    this.sight.clear();
    this.drawing.clear();
    this.activeTool = wasActive ? null : next;
    if (this.activeTool) this.mover.cancel();
    for (const [key, tool] of Object.entries(tools)) $(`tool-${key}`).setAttribute("aria-pressed", String(this.activeTool === tool));
    this.svg.classList.toggle("tool-on", Boolean(this.activeTool));
    this.cursor.toolChanged();
    this.setHint(this.activeTool?.hint ?? "");
  }

  toggleReach() {
    this.reachOn = !this.reachOn;
    $("tool-reach").setAttribute("aria-pressed", String(this.reachOn));
    if (this.reachOn) this.askReach();
    else {
      this.overlay.showReach(null);
      this.setHint("");
    }
  }

  askReach() {
    const unit = this.store.unit(this.pieces.selected);
    this.overlay.showReach(null);
    if (!unit) {
      this.setHint("Reach: select a piece first.");
      return;
    }
    if (this.store.me.role === "spectator") {
      this.setHint("Reach: only players and the GM may ask the referee.");
      return;
    }
    if (!this.currentAction) {
      this.setHint("Reach: this game has no action that moves a piece by dragging.");
      return;
    }
    // Only for an action the unit may take now.
    const offered = this.offeredDrags(unit.id).map((a) => a.type);
    if (!offered.length || !this.store.mayOrder(unit)) {
      this.setHint(`Reach: ${this.store.name(unit.id)} may not move now${this.store.summary ? ` (${this.store.summary})` : ""}.`);
      return;
    }
    if (!offered.includes(this.currentAction)) this.currentAction = offered[0];
    this.reachRef += 1;
    this.setHint("Reach: asking the referee…");
    this.conn.send({
      type: "preview",
      ref: `reach-${this.reachRef}`,
      action: { unit: unit.id, type: this.currentAction, path: [[...unit.position.slice(0, 2)]] },
      reach: true,
    });
  }

  rotate(step) {
    if (this.mover.active) return this.mover.rotate(step);
    const unit = this.store.unit(this.pieces.selected);
    if (!unit || !this.mover.mayMove(unit)) return false;
    this.mover.begin(unit, "rotate");
    return this.mover.rotate(step);
  }

  escape() {
    if (this.mover.cancel() || this.points.cancel()) {
      this.setHint("Cancelled: nothing was sent.");
      return;
    }
    if (this.activeTool) this.toggleTool(this.activeTool === this.measure ? "measure" : this.activeTool === this.drawing ? "draw" : "los");
    else if (this.replaySeq !== null) this.showLive();
    else if (!$("help").hidden) this.toggleHelp();
    else this.select(null);
  }

  toggleHelp() {
    const help = $("help");
    help.hidden = !help.hidden;
    $("help-toggle").setAttribute("aria-expanded", String(!help.hidden));
  }

  // -- wiring

  wire() {
    const actions = $("actions");
    for (const spec of this.dragActions) {
      actions.append(actionButton(spec, () => {
        this.currentAction = spec.type;
        this.group.chosen = spec.type; // the player's choice for the group's drag
        if (spec.group) this.setHint(`${spec.label}: Shift-click each piece, then drag one of them.`);
        this.refreshChrome();
        if (this.reachOn) this.askReach();
      }));
    }
    // A flying piece's path may climb: the height its next path points take (path_z).
    on("altitude", "input", () => this.mover.active && this.mover.changed());
    $("watching").hidden = this.config.role !== "spectator";
    // The turn structure's words ("End activation"); phased, the GM's ends the turn.
    const endLabel = this.config.phased && this.config.role === "gm" ? "End turn" : this.config.endLabel ?? "End turn";
    $("end-turn").textContent = endLabel;
    if (this.config.phased && this.config.role !== "gm") $("end-turn").title = "End your side's part of this phase";
    on("tool-measure", "click", () => this.toggleTool("measure"));
    on("tool-los", "click", () => this.toggleTool("los"));
    on("tool-draw", "click", () => this.toggleTool("draw"));
    on("tool-reach", "click", () => this.toggleReach());
    on("help-toggle", "click", () => this.toggleHelp());
    on("end-turn", "click", () => {
      const id = (this.ending = this.command({ type: "end_turn", seen: this.store.seq }, endLabel));
      this.refreshChrome();
      setTimeout(() => this.ended(id, 0), 10000); // an answer lost with the connection
    });
    on("replay-live", "click", () => this.showLive());
    on("zoom-in", "click", () => this.view.zoomAt(1.25));
    on("zoom-out", "click", () => this.view.zoomAt(0.8));
    on("zoom-fit", "click", () => this.view.fit());
    on("undo-form", "submit", (e) => {
      e.preventDefault();
      const reason = $("undo-reason").value.trim();
      if (!reason) return;
      this.command({ type: "undo", reason: reason.slice(0, 200) }, "Undo");
      $("undo-reason").value = "";
    });
    on("delay-form", "submit", (e) => {
      e.preventDefault();
      this.command({ type: "set_delay", seconds: Number($("delay-seconds").value) }, "Spectator delay");
    });
    on("fiat-toggle", "change", () => {
      this.mover.cancel();
      this.refreshChrome();
    });
    for (const button of document.querySelectorAll("[data-drawer]")) {
      button.addEventListener("click", () => {
        const side = button.dataset.drawer;
        const open = this.page.dataset[side] !== "open";
        this.page.dataset.left = "closed";
        this.page.dataset.right = "closed";
        this.page.dataset[side] = open ? "open" : "closed";
        button.setAttribute("aria-expanded", String(open));
      });
    }
    this.svg.addEventListener("focusin", (e) => {
      const g = e.target.closest?.(".piece");
      if (g) this.select(g.dataset.unit, true);
    });
    this.svg.addEventListener("pointerdown", (e) => {
      if (this.activeTool && e.button === 0) this.activeTool.picker.down(e);
    });
    this.svg.addEventListener("pointermove", (e) => {
      if (this.activeTool) this.activeTool.picker.move(e);
    });
    // A click on the empty table (not a pan, not a tool's pick) clears the selection.
    let down = null;
    this.svg.addEventListener("pointerdown", (e) => {
      down = e.target.closest(".piece, .rotate-handle") ? null : [e.clientX, e.clientY];
    }, { capture: true });
    this.svg.addEventListener("click", (e) => {
      const still = down && Math.hypot(e.clientX - down[0], e.clientY - down[1]) < 4;
      if (still && !this.activeTool && !this.mover.active) this.select(null);
    });
    this.pings.attach(this.svg);
    this.cursor.attach(this.svg);
    this.points.attach(this.page);
    this.groupBox.attach(this.svg);
    this.mover.attach();
    this.openMenu = pieceMenu(this);
    this.marks.attach();
    attachTouch(this);
    this.view.attach((e) => !this.activeTool && !this.mover.active && !this.groupBox.starts(e) && !e.target.closest(".piece, .rotate-handle"));
    attachKeys(this);
    attachRecordButtons(this);
    this.conn.connect();
  }
}

const config = JSON.parse($("board-config").textContent);
window.tabletop = new Board(config);
