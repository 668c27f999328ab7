// @ts-check
// The measuring tool (M): centre to centre and edge to edge, between pieces or points.
import { dist, edgeDistance, fmt } from "./geometry.js";
import { Picker } from "./pick.js";
import { el, label, polyline } from "./svg.js";

export class Measure {
  constructor(board, layer, labels) {
    this.board = board;
    this.layer = layer;
    this.labels = labels;
    this.picker = new Picker(board, (a, b, final) => this.show(a, b, final));
    this.hint = "Measure: click two pieces or points, or move the cross with the arrows and press Enter at each.";
    this.pointWords = () => "Point to measure";
  }

  show(a, b, final) {
    this.clear(false);
    const h = this.board.height();
    polyline(this.layer, [a.at, b.at], { class: `measure-line${final ? " final" : ""}` });
    for (const p of [a, b]) el("circle", { class: "measure-end", cx: p.at[0], cy: p.at[1], r: 0.15 }, this.layer);
    const cc = dist(a.at, b.at);
    const edge = edgeDistance(a.fp, b.fp);
    const text = a.unit || b.unit ? `centre ${fmt(cc)}″ · edge ${fmt(edge)}″` : `${fmt(cc)}″`;
    label(this.labels, text, (a.at[0] + b.at[0]) / 2, h - (a.at[1] + b.at[1]) / 2 - 0.4, "measure-text");
    this.board.setHint(`Measure: ${text}`);
    if (final) this.board.announce.say(`Measure: ${text}`);
    this.result = { centre: cc, edge };
  }

  clear(all = true) {
    this.layer.replaceChildren();
    this.labels.replaceChildren();
    if (all) this.picker.reset();
  }
}
