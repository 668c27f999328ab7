// @ts-check
// Plane geometry for display: distances between bases, paths. Display only: the
// server's engine is the referee of every rule (line of sight included: los.js asks it).

export const dist = (a, b) => Math.hypot(b[0] - a[0], b[1] - a[1]);
const EPS = 1e-9;

/** The base as a core shape plus a radius: a circle is a point with radius d/2,
 *  a rect is its outline (in table inches) with radius 0; a point is a point. */
export function footprint(unit) {
  if (!unit) return null;
  const [x, y] = unit.position;
  const base = unit.base ?? { shape: "circle", diameter: 1 };
  if (base.shape === "rect") {
    const a = ((unit.facing ?? 0) * Math.PI) / 180;
    const [c, s] = [Math.cos(a), Math.sin(a)];
    const hl = base.length / 2, hw = base.width / 2;
    const corners = [[hl, hw], [-hl, hw], [-hl, -hw], [hl, -hw]];
    return { core: corners.map(([u, v]) => [x + u * c - v * s, y + u * s + v * c]), r: 0 };
  }
  return { core: [[x, y]], r: (base.diameter ?? 1) / 2 };
}

export function pointSegment(p, a, b) {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 < EPS ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return { d: dist(p, [a[0] + t * dx, a[1] + t * dy]), t, at: [a[0] + t * dx, a[1] + t * dy] };
}

/** Where segments ab and cd cross, as the parameter t along ab; null if they do not. */
export function segmentHit(a, b, c, d) {
  const r = [b[0] - a[0], b[1] - a[1]], s = [d[0] - c[0], d[1] - c[1]];
  const den = r[0] * s[1] - r[1] * s[0];
  if (Math.abs(den) < EPS) return null;
  const t = ((c[0] - a[0]) * s[1] - (c[1] - a[1]) * s[0]) / den;
  const u = ((c[0] - a[0]) * r[1] - (c[1] - a[1]) * r[0]) / den;
  return t >= -EPS && t <= 1 + EPS && u >= -EPS && u <= 1 + EPS ? t : null;
}

export function pointInPolygon(p, polygon) {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i], [xj, yj] = polygon[j];
    if ((yi > p[1]) !== (yj > p[1]) && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function ring(core) {
  return core.length > 1 ? core.map((p, i) => [p, core[(i + 1) % core.length]]) : [[core[0], core[0]]];
}

function coreDistance(a, b) {
  if (a.length > 2 && a.some((p) => pointInPolygon(p, b))) return 0;
  if (b.length > 2 && b.some((p) => pointInPolygon(p, a))) return 0;
  if (a.length > 2 && pointInPolygon(b[0], a)) return 0;
  if (b.length > 2 && pointInPolygon(a[0], b)) return 0;
  let best = Infinity;
  for (const [p, q] of ring(a)) {
    for (const [r, s] of ring(b)) {
      if (p !== q && r !== s && segmentHit(p, q, r, s) !== null) return 0;
      best = Math.min(best, pointSegment(p, r, s).d, pointSegment(q, r, s).d,
        pointSegment(r, p, q).d, pointSegment(s, p, q).d);
    }
  }
  return best;
}

/** Edge-to-edge distance between two footprints (0 when they touch or overlap). */
export function edgeDistance(a, b) {
  return Math.max(0, coreDistance(a.core, b.core) - a.r - b.r);
}

/** Points of a path, turning steps left out: [[x, y], ...]. */
export function pathPoints(start, path) {
  return [start, ...path.filter(Array.isArray)].map((p) => [p[0], p[1]]);
}

/** Splits a polyline at the point nearest `at`: [before, after]. */
export function splitAt(points, at) {
  if (!at || points.length < 2) return [points, []];
  let best = { d: Infinity, i: 0, at: points[0] };
  for (let i = 0; i < points.length - 1; i++) {
    const hit = pointSegment(at, points[i], points[i + 1]);
    if (hit.d < best.d - 1e-6) best = { d: hit.d, i, at: hit.at };
  }
  return [[...points.slice(0, best.i + 1), best.at], [best.at, ...points.slice(best.i + 1)]];
}

export const fmt = (n) => (Math.round(n * 10) / 10).toFixed(1);

/** [x, y, facing] of a piece with `base` in base contact with `unit`, nearest `p`, facing
 *  away: in the unit's frame, the nearest point of its outline, out along the normal. */
export function contactPose(unit, p, base) {
  const [x, y] = unit.position, own = unit.base ?? {}, rect = own.shape === "rect";
  const a = ((unit.facing ?? 0) * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
  const du = (p[0] - x) * c + (p[1] - y) * s, dv = (p[1] - y) * c - (p[0] - x) * s;
  const h = rect ? [own.length / 2, own.width / 2] : [0, 0];
  const b = [Math.max(-h[0], Math.min(h[0], du)), Math.max(-h[1], Math.min(h[1], dv))];
  let n = [du - b[0], dv - b[1]];
  if (rect && !n[0] && !n[1]) { // inside: out through the nearest side
    const i = h[0] - Math.abs(du) < h[1] - Math.abs(dv) ? 0 : 1;
    n = [0, 0];
    n[i] = Math.sign(i ? dv : du) || 1;
    b[i] = n[i] * h[i];
  }
  if (!n[0] && !n[1]) n = [1, 0]; // a round base's very centre
  const len = Math.hypot(...n);
  n = [n[0] / len, n[1] / len];
  const r = (rect ? 0 : (own.diameter ?? 1) / 2) + (base?.shape === "rect" ? base.length : base?.diameter ?? 1) / 2;
  const u = b[0] + n[0] * r, v = b[1] + n[1] * r;
  return [x + u * c - v * s, y + u * s + v * c, ((unit.facing ?? 0) + (Math.atan2(n[1], n[0]) * 180) / Math.PI + 360) % 360];
}
