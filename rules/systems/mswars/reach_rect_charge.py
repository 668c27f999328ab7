"""Where a rect-based unit's Charge ends (002 Charge Move Action: like a Run, ending in
base contact with its target; MSW-D12).

The board's charge turns in place to face the end and goes straight ahead to it (MSW-D5),
so the facing at an end is the bearing from the start: contact there depends on the end
and that facing. Along the ray at a bearing, the rect keeps that facing, and its gap to a
round target first falls to zero as its front edge or a front corner meets it: in the
rect's own frame the target's centre lies ahead of the front edge by h and aside of it by
e (0 within the edge), and the gap is hypot(h, e) - radius. So the ends whose gap lies in
[G_LO, G_HI] (contact, 0.01", with a margin) are, ray by ray, a stretch of known length;
the band is drawn through rays sampled finely enough that its chords stay within the
margin. Ends the kernel's turn-then-straight reach holds (the turn paid, the terrain, the
other bases and edges, more than Move) and whose straight line passes no other target are
kept; each names its target (`keys_at`).

Left out (the reach says it is not complete): rect targets, a rear or side contact after
a pass alongside, and the grazing ends beyond the last sampled ray.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely

from rules.engine.open_reach import MARGIN
from rules.engine.reach import Reach
from rules.engine.reach_ends import owned_ends
from rules.engine.turn_reach import shadow
from rules.geometry.bases import Body
from rules.model.state import Unit

#: The gaps an end's band holds: within contact (0.01") by more than the chords' error.
G_LO, G_HI = 0.003, 0.007
#: Arc length between sampled rays along the band's curves (chord error under 0.0001").
STEP = 0.02
#: How near the start the band may come (the facing changes fast close to it).
NEAR = 0.5


def rect_charge(found: Reach, unit: Unit, targets: Sequence[tuple[str, Body]]) -> Reach:
    """`found`: the turn-then-straight reach with no axis moves (every end reached facing
    it), targets ignored as obstacles; `targets`: the opposing units it may charge."""
    s = (float(unit.position[0]), float(unit.position[1]))
    length = float(unit.base.length or 0.0)
    width = float(unit.base.width or 0.0)
    reach_r = unit.base.radius
    bands: list[tuple[Any, dict[str, Any]]] = []
    shadows = {tid: _shadow(s, body, reach_r + MARGIN + 0.01) for tid, body in targets}
    for tid, body in targets:
        if body.xy is None:
            continue  # a rect target: left out
        band = _band(s, body.xy, body.radius, length, width)
        if band is None:
            continue
        others = [g for k, g in shadows.items() if k != tid]
        if others:
            band = band.difference(shapely.union_all(others))
        band = band.intersection(found.area)
        if not band.is_empty and band.area > 1e-9:
            bands.append((band, {"target": tid}))
    return owned_ends(found, bands, 0.0002, 0.0)


def _shadow(start: tuple[float, float], body: Body, grow: float) -> Any:
    """A base grown by `grow` and all behind it seen from `start`."""
    return shadow(
        start, body.core.buffer((body.radius + grow) / math.cos(math.pi / 32), quad_segs=8)
    )


def _band(
    s: tuple[float, float], c: tuple[float, float], rho: float, length: float, width: float
) -> Any:
    """The ends, facing the bearing from `s`, whose gap to the circle (c, rho) is in
    [G_LO, G_HI] on first meeting it ahead: quads between sampled rays."""
    dx, dy = c[0] - s[0], c[1] - s[1]
    d = math.hypot(dx, dy)
    phi = math.atan2(dy, dx)
    half_w, half_l = width / 2, length / 2
    lo = rho + G_LO
    if d <= half_w + lo + 1e-6:
        return None
    # Lateral offsets e of the target's centre beside the front edge (0 within it), as
    # sin(delta) = (half_w + e) / d: along the edge, then round the corner by its angle.
    ys = np.linspace(-half_w, half_w, max(2, math.ceil(width / STEP) + 1))
    n_c = max(2, math.ceil((math.pi / 2) * lo / STEP))
    psi = np.linspace(0.0, math.pi / 2, n_c + 1)[1:-1]
    side = half_w + lo * np.sin(psi)
    lateral = np.concatenate([-side[::-1], ys, side])
    lateral = lateral[np.abs(lateral) < d]
    delta = np.arcsin(lateral / d)

    def t_at(g: float) -> Any:
        e = np.maximum(np.abs(lateral) - half_w, 0.0)
        h = np.sqrt(np.maximum((rho + g) ** 2 - e**2, 0.0))
        return d * np.cos(delta) - half_l - h

    t_lo, t_hi = t_at(G_LO), t_at(G_HI)  # the nearer gap is the farther end
    theta = phi + delta
    ux, uy = np.cos(theta), np.sin(theta)
    ok = (t_hi >= NEAR) & (np.abs(lateral) - half_w <= lo)
    quads = []
    for k in range(len(theta) - 1):
        if not (ok[k] and ok[k + 1]):
            continue
        quads.append(
            [
                (s[0] + t_hi[k] * ux[k], s[1] + t_hi[k] * uy[k]),
                (s[0] + t_hi[k + 1] * ux[k + 1], s[1] + t_hi[k + 1] * uy[k + 1]),
                (s[0] + t_lo[k + 1] * ux[k + 1], s[1] + t_lo[k + 1] * uy[k + 1]),
                (s[0] + t_lo[k] * ux[k], s[1] + t_lo[k] * uy[k]),
            ]
        )
    if not quads:
        return None
    polys = shapely.polygons(quads)
    polys = polys[shapely.is_valid(polys)]
    return shapely.union_all(polys) if len(polys) else None
