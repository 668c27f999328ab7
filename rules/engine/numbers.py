"""Number formatting and the contract's tolerances."""

from __future__ import annotations

import math

#: Lengths and costs compare within 0.001" (contract).
LENGTH_TOL = 0.001


def fmt(x: float) -> str:
    """Inches for messages: 8 -> '8', 8.5 -> '8.5', 8.4999 -> '8.5'."""
    r = round(x, 2)
    if r == int(r):
        return str(int(r))
    return f"{r:.2f}".rstrip("0").rstrip(".")


def fmt_point(p: tuple[float, float]) -> str:
    """A table point for messages: (8, 10.5)."""
    return f"({fmt(p[0])}, {fmt(p[1])})"


def json_number(x: float) -> float | int:
    """Round for JSON output; whole numbers print as ints. A non-finite number has no
    JSON form (RFC 8259): it is a bug of the engine, never printed as bare `NaN`."""
    if not math.isfinite(x):
        raise ValueError(f"{x!r} is not a JSON number")
    r = round(x, 4)
    if r == int(r):
        return int(r)
    return r


def ceil_half(x: float) -> float:
    """half(x) = ceil(x/2): fractions round up, 000 [15]."""
    return float(math.ceil(x / 2 - 1e-9))
