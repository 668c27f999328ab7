// @ts-check
// The line-of-sight tool (L), piece or point to piece or point, ruled by the server (a
// `sight` frame, protocol.md) by the system's rules; this page draws the ruling: green if
// clear, the features in the way outlined, red beyond the blocking one.
import { Picker } from "./pick.js";
import { el, label, polyline } from "./svg.js";

/** A ruling in a player's words: "Blocked by R1 (blocking terrain)". */
export function rulingText(ruling) {
  const name = (f) => `${f.name ?? f.id} (${String(f.label ?? f.type).toLowerCase()})`;
  const blocker = ruling.features.find((f) => f.effect === "blocks");
  if (blocker) return `Blocked by ${name(blocker)}`;
  if (ruling.features.length) return `Hindered by ${ruling.features.map(name).join(", ")}`;
  return "Clear";
}

export class Sight {
  constructor(board, layer, labels) {
    this.board = board;
    this.layer = layer;
    this.labels = labels;
    this.ref = 0;
    this.asked = null; // {ref, a, b}: the line whose ruling is awaited
    this.picker = new Picker(board, (a, b, final) => this.show(a, b, final));
    this.hint = "Line of sight: click a piece or point, then a piece or point (or Enter at the cross, twice); the referee rules on it.";
    this.pointWords = () => "Point for line of sight";
  }

  /** While picking, a dashed line follows the pointer; the second click asks the referee. */
  show(a, b, final) {
    this.clear(false);
    polyline(this.layer, [a.at, b.at], { class: "los-line pending", "stroke-dasharray": "2 4", stroke: "#555" });
    if (!final) return;
    if (this.board.store.me.role === "spectator") {
      this.board.setHint("Line of sight: only players and the GM may ask the referee (your table runs late).");
      return;
    }
    this.ref += 1;
    this.asked = { ref: `los-${this.ref}`, a, b };
    const end = (pick) => (pick.unit ? pick.unit.id : [...pick.at]);
    this.board.conn.send({ type: "sight", ref: this.asked.ref, from: end(a), to: end(b) });
    this.board.setHint("Line of sight: asking the referee…");
  }

  /** The server's ruling (a `sight` frame): drawn if it answers the last line asked. */
  onRuling(frame) {
    if (!this.asked || frame.ref !== this.asked.ref || this.board.tools.active !== this) return;
    const ruling = frame.ruling;
    this.clear(false);
    const h = this.board.height();
    const terrain = this.board.shownState()?.terrain ?? [];
    const features = ruling.features.map((f) => ({ ...f, name: terrain.find((t) => t.id === f.id)?.name }));
    for (const f of features) {
      el("polygon", { class: `los-${f.effect} los-feature`, points: f.polygon.map((p) => p.join(",")).join(" ") }, this.layer).dataset.feature = f.id;
    }
    const cut = ruling.blocked_at;
    const verdict = ruling.verdict;
    polyline(this.layer, cut ? [ruling.from, cut] : [ruling.from, ruling.to], { class: `los-line ${verdict === "blocked" ? "hindered" : verdict} final` });
    if (cut) polyline(this.layer, [cut, ruling.to], { class: "los-line blocked" });
    const text = rulingText({ ...ruling, features });
    const mid = [(ruling.from[0] + ruling.to[0]) / 2, (ruling.from[1] + ruling.to[1]) / 2];
    label(this.labels, text, mid[0], h - mid[1] - 0.4, `los-text ${verdict === "blocked" ? "bad" : verdict === "hindered" ? "warn" : "ok"}`);
    this.board.setHint(`Line of sight (the referee's ruling): ${text}.`);
    this.board.announce.say(`Line of sight (the referee's ruling): ${text}.`);
    this.result = { text, verdict };
  }

  clear(all = true) {
    this.layer.replaceChildren();
    this.labels.replaceChildren();
    if (all) {
      this.picker.reset();
      this.asked = null;
    }
  }
}
