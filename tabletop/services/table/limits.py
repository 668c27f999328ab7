"""The live table's limits: what one connection may send, and how fast.

One place for the numbers, so that the protocol document's `limits`, the frame
parser and the consumer's rate limiter always agree.
"""

import os
import time
from dataclasses import dataclass, field

FRAME_BYTES = 16 * 1024
#: A frame this much larger than the cap is not a mistake: the socket is closed.
ABUSIVE_FRAME_BYTES = 4 * FRAME_BYTES
# A browser sends ~10 previews a second while dragging. Operators (and the
# multi-process tests and the benchmark, which play faster than people) may
# raise the rate with TABLE_FRAMES_PER_S / TABLE_BURST.
FRAMES_PER_S = float(os.environ.get("TABLE_FRAMES_PER_S", "20"))
BURST = int(os.environ.get("TABLE_BURST", "40"))
PATH_STEPS = 64
#: Lengths are inches and angles degrees; no table is 800 feet long.
COORDINATE_ABS = 10_000.0
CHAT_CHARS = 500
REASON_CHARS = 200
ROLL_WHAT_CHARS = 120
MSG_ID_CHARS = 64
RESUME_EVENTS = 500
MAX_DELAY_S = 3600
MAX_SEQ = 2**53  # what a browser's Number holds exactly

#: Abuse: this many refused frames, or this many errors, within the window closes the socket.
ABUSE_WINDOW_S = 10.0
ABUSE_DROPS = 200
ABUSE_ERRORS = 50
CLOSE_ABUSE = 4429
CLOSE_TOO_LARGE = 4413
CLOSE_FORBIDDEN = 4403


def as_json() -> dict:
    """The limits as the `hello` frame states them to the client."""
    return {
        "frame_bytes": FRAME_BYTES,
        "frames_per_s": FRAMES_PER_S,
        "burst": BURST,
        "path_steps": PATH_STEPS,
        "coordinate_abs": COORDINATE_ABS,
        "chat_chars": CHAT_CHARS,
        "resume_events": RESUME_EVENTS,
    }


@dataclass
class TokenBucket:
    """`rate` frames a second on average, `burst` at once; `take()` says whether one may pass."""

    # Read at construction, so that a test may lower a limit for the sockets it opens.
    rate: float = field(default_factory=lambda: FRAMES_PER_S)
    burst: float = field(default_factory=lambda: BURST)
    tokens: float = field(default_factory=lambda: BURST)
    stamp: float = field(default_factory=time.monotonic)

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass
class AbuseMeter:
    """Counts refused frames and errors in a sliding window; `abusive` when either overflows."""

    window_s: float = field(default_factory=lambda: ABUSE_WINDOW_S)
    max_drops: int = field(default_factory=lambda: ABUSE_DROPS)
    max_errors: int = field(default_factory=lambda: ABUSE_ERRORS)
    drops: list[float] = field(default_factory=list)
    errors: list[float] = field(default_factory=list)

    def _note(self, stamps: list[float], limit: int) -> bool:
        now = time.monotonic()
        stamps.append(now)
        while stamps and stamps[0] < now - self.window_s:
            stamps.pop(0)
        return len(stamps) > limit

    def dropped(self) -> bool:
        return self._note(self.drops, self.max_drops)

    def errored(self) -> bool:
        return self._note(self.errors, self.max_errors)
