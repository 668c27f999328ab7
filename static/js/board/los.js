// The line-of-sight tool (L): from a piece or point to a piece or point; green if clear,
// and the features in the way outlined. The protocol has no LOS frame yet, so this is
// computed here against what the system's terrain kinds say of sight ("blocks",
// "hinders"), for display only: the server's engine is the referee of any rule that
// depends on sight.
import { crossings } from "./geometry.js";
import { Picker } from "./pick.js";
import { el, label, polyline } from "./svg.js";
import { kindLabel } from "../render/terrain.js";

/** What the segment a-b crosses: [{feature, t, effect: "blocks" | "hinders"}], by distance.
 *  kinds: the system's terrain kinds ({type, sight}). */
export function sightLine(terrain, a, b, kinds = []) {
  const effects = new Map(kinds.map((k) => [k.type, k.sight]));
  const found = [];
  for (const feature of terrain) {
    const effect = ["blocks", "hinders"].includes(effects.get(feature.type)) ? effects.get(feature.type) : null;
    if (!effect || !Array.isArray(feature.polygon) || feature.polygon.length < 3) continue;
    const ts = crossings(a, b, feature.polygon);
    // Standing inside a feature, a piece sees out of it: only crossings between the ends count.
    const inner = ts.filter((t) => t > 1e-6 && t < 1 - 1e-6);
    if (inner.length) found.push({ feature, t: inner[0], effect });
  }
  return found.sort((x, y) => x.t - y.t);
}

export class Sight {
  constructor(board, layer, labels) {
    this.board = board;
    this.layer = layer;
    this.labels = labels;
    this.picker = new Picker(board, (a, b, final) => this.show(a, b, final));
    this.hint = "Line of sight: click a piece, then a piece or point. (Shown by your browser against the terrain, for display only.)";
  }

  show(a, b, final) {
    this.clear(false);
    const h = this.board.height();
    const hits = sightLine(this.board.shownState().terrain ?? [], a.at, b.at, this.board.config.terrainKinds ?? []);
    const blocker = hits.find((hit) => hit.effect === "blocks");
    for (const hit of hits) {
      el("polygon", { class: `los-${hit.effect}`, points: hit.feature.polygon.map((p) => p.join(",")).join(" ") }, this.layer);
    }
    const cut = blocker ? [a.at[0] + (b.at[0] - a.at[0]) * blocker.t, a.at[1] + (b.at[1] - a.at[1]) * blocker.t] : null;
    const clear = cut ? [a.at, cut] : [a.at, b.at];
    polyline(this.layer, clear, { class: `los-line ${hits.length ? "hindered" : "clear"}${final ? " final" : ""}` });
    if (cut) polyline(this.layer, [cut, b.at], { class: "los-line blocked" });
    const name = (hit) => `${hit.feature.id ?? "?"} (${kindLabel(hit.feature.type, this.board.config.terrainKinds).toLowerCase()})`;
    const text = blocker
      ? `Blocked by ${name(blocker)}`
      : hits.length ? `Hindered by ${hits.map(name).join(", ")}` : "Clear";
    const mid = [(a.at[0] + b.at[0]) / 2, (a.at[1] + b.at[1]) / 2];
    label(this.labels, `${text} · display only`, mid[0], h - mid[1] - 0.4, `los-text ${blocker ? "bad" : hits.length ? "warn" : "ok"}`);
    this.board.setHint(`Line of sight: ${text}. Computed in your browser against the terrain for display; the server has not ruled on it.`);
    this.result = { text, blocked: Boolean(blocker) };
  }

  clear(all = true) {
    this.layer.replaceChildren();
    this.labels.replaceChildren();
    if (all) this.picker.reset();
  }
}
