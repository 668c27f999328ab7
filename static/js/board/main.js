// @ts-check
// The board page: makes the board's parts and hands each what it needs. The server is
// the referee: this page proposes and shows, it never decides. Its parts, one job each:
// actions.js (the catalogue's actions, the one chosen), frames.js (what the server sends,
// to the part it is for), chrome.js (the bar, the card and the panels around the table),
// tools.js (measure, sight, draw, reach), replay.js (a past table), status.js (the
// connection's word), controls.js (the page's controls and the pointer on the table).
import { ActionChoice } from "./actions.js";
import { Drawing } from "./annotations.js";
import { Announcer } from "./announce.js";
import { Chrome } from "./chrome.js";
import { newId, Connection } from "./connection.js";
import { attachControls } from "./controls.js";
import { TableCursor } from "./cursor.js";
import { Mover } from "./drag.js";
import { TableFrames } from "./frames.js";
import { Group } from "./group.js";
import { GroupBox } from "./groupbox.js";
import { InTurn } from "./inturn.js";
import { KeyMove } from "./keymove.js";
import { Sight } from "./los.js";
import { Marks } from "./marks.js";
import { Measure } from "./measure.js";
import { attachTurnNotice } from "./ondemand.js";
import { Chat } from "./panels/chat.js";
import { DiceLog } from "./panels/dice.js";
import { GroupCards } from "./panels/groupcards.js";
import { EventLog } from "./panels/log.js";
import { PendingRoll } from "./panels/pending.js";
import { PieceList } from "./panels/piecelist.js";
import { Presence } from "./panels/presence.js";
import { TakeBack } from "./panels/takeback.js";
import { UnitCard } from "./panels/unitcard.js";
import { item } from "./panels/util.js";
import { Pieces } from "./pieces.js";
import { Pings } from "./ping.js";
import { PointActions } from "./pointpick.js";
import { Overlay } from "./preview.js";
import { Replay } from "./replay.js";
import { TableStore } from "./state.js";
import { ConnectionStatus } from "./status.js";
import { el } from "./svg.js";
import { Toasts } from "./toasts.js";
import { Tools } from "./tools.js";
import { View } from "./view.js";
import { drawBackdrop } from "../render/backdrop.js";
import { renderTerrain, setUpTable } from "../render/terrain.js";

const $ = (id) => document.getElementById(id);

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
    this.replay = new Replay(this);
    this.terrainKey = "";
    this.tools = new Tools(this);
    this.commands = new Map(); // id -> what, for toasts on refusal
    // The game system's catalogue (the server's): a drag proposes one of its drag actions.
    this.actions = new ActionChoice(config, this.store);
    this.chrome = new Chrome(this);
    this.frames = new TableFrames(this);
    this.status = new ConnectionStatus(this);
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
      onFrame: (frame) => this.frames.on(frame),
      onStatus: (state, detail) => this.status.changed(state, detail),
    });
    this.store.on("snapshot", () => this.drawAll());
    attachTurnNotice(this.store, config, $("turn-notice-allow"));
    this.store.on("event", ({ frame, before }) => this.frames.applied(frame, before));
    this.store.on("history", (frame) => this.frames.logged(frame));
    attachControls(this);
    this.conn.connect();
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
    this.overlay.costSuffix = this.actions.costSuffix();
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
    return this.replay.position?.state ?? this.store.state;
  }

  /** Whose pieces' states and markers are shown: the table's now, or the replay's. */
  get marking() {
    return this.replay.live ? this.store : this.replay;
  }

  shownUnit(id) {
    return this.shownState()?.units.find((u) => u.id === id) ?? null;
  }

  height() {
    return this.shownState()?.table.height ?? 0;
  }

  readOnly() {
    return this.store.me.role === "spectator" || !this.replay.live;
  }

  fiat() {
    return this.store.me.role === "gm" && /** @type {HTMLInputElement} */ ($("fiat-toggle")).checked;
  }

  fiatReason() {
    return /** @type {HTMLInputElement} */ ($("fiat-reason")).value.trim().slice(0, 200);
  }

  clearFiatReason() {
    /** @type {HTMLInputElement} */ ($("fiat-reason")).value = "";
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
    this.pieces.marking = this.marking;
    this.pieces.render(state.units, height);
    this.drawing.render();
    this.markActive();
    this.chrome.sides();
    this.refreshChrome();
    if (this.replay.live) this.log.live(this.store.seq);
    if (!document.body.dataset.ready) {
      document.body.dataset.ready = "1";
      performance.mark("board-ready");
    }
  }

  /** Highlights the unit whose activation runs, on the live table. */
  markActive() {
    const id = this.replay.live ? this.activeUnit : null;
    for (const [unitId, node] of this.pieces.nodes) node.g.classList.toggle("active-unit", unitId === id);
  }

  /** The bar, the card and the panels, for the selected piece and the table shown. */
  refreshChrome() {
    this.chrome.refresh();
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
    this.tools.refreshReach();
  }

  /** Sends a command with a fresh id; a refusal becomes a toast. */
  command(frame, what) {
    const id = newId(frame.type);
    this.commands.set(id, what);
    this.conn.send({ ...frame, id });
    return id;
  }

  // -- the keys' words (keys.js)

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
    if (this.tools.active) this.tools.toggle(this.tools.nameOf(this.tools.active));
    else if (!this.replay.live) this.replay.toLive();
    else if (!$("help").hidden) this.toggleHelp();
    else this.select(null);
  }

  toggleHelp() {
    const help = $("help");
    help.hidden = !help.hidden;
    $("help-toggle").setAttribute("aria-expanded", String(!help.hidden));
  }
}

const config = JSON.parse($("board-config").textContent);
/** @type {Window & { tabletop?: Board }} */ (window).tabletop = new Board(config); // for the tests
