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
#: Table annotations (docs/protocol.md, `annotate`): a label is a word or two ("objective",
#: "pinned"), and a table covered in more drawings than this is noise, not a plan.
LABEL_CHARS = 60
ANNOTATIONS_PER_BATTLE = int(os.environ.get("TABLE_ANNOTATIONS_PER_BATTLE", "100"))
#: Free markers on pieces (docs/protocol.md, `mark`): a word or two that fits under a
#: piece ("pinned", "objective"); more on one piece than this hides the piece.
MARKER_CHARS = 24
MARKERS_PER_PIECE = 6

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
        "user_sockets": USER_SOCKETS,
        "label_chars": LABEL_CHARS,
        "annotations": ANNOTATIONS_PER_BATTLE,
        "marker_chars": MARKER_CHARS,
        "markers_per_piece": MARKERS_PER_PIECE,
    }


@dataclass
class TokenBucket:
    """`rate` frames a second on average, `burst` at once; `take()` says whether one may pass."""

    # Read at construction, so that a test may lower a limit for the sockets it opens.
    rate: float = field(default_factory=lambda: FRAMES_PER_S)
    burst: float = field(default_factory=lambda: BURST)
    tokens: float = field(default_factory=lambda: BURST)
    stamp: float = field(default_factory=time.monotonic)

    def resize(self, rate: float, burst: float) -> None:
        """New limits; a larger burst is available at once."""
        self.tokens += max(0.0, burst - self.burst)
        self.rate, self.burst = rate, burst

    def _refill(self, now: float | None) -> None:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def full(self, now: float | None = None) -> bool:
        self._refill(now)
        return self.tokens >= self.burst

    def take(self, now: float | None = None) -> bool:
        self._refill(now)
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


# -- per user: one user's sockets share these, whatever their number -----------------

#: Open sockets one user may have at one battle's table (all processes: presence rows).
USER_SOCKETS = int(os.environ.get("TABLE_USER_SOCKETS", "8"))
#: Frames a second of one user's sockets together (each socket also has its own bucket),
#: and frames that write an event (chat, roll, act, ...): a person plays far slower. By
#: default they follow the per-socket limit (read when a user's first socket opens, so
#: that raising TABLE_FRAMES_PER_S, or a test lowering a limit, raises them too).
_USER_RATES = {
    "frames_per_s": os.environ.get("TABLE_USER_FRAMES_PER_S"),
    "burst": os.environ.get("TABLE_USER_BURST"),
    "writes_per_s": os.environ.get("TABLE_USER_WRITES_PER_S"),
    "write_burst": os.environ.get("TABLE_USER_WRITE_BURST"),
    "pings_per_s": os.environ.get("TABLE_USER_PINGS_PER_S"),
    "ping_burst": os.environ.get("TABLE_USER_PING_BURST"),
}


def user_rates() -> dict[str, float]:
    """The per-user frame and write buckets: the operator's, or derived from the socket's."""
    derived = {
        "frames_per_s": 2 * FRAMES_PER_S,
        "burst": 2 * BURST,
        "writes_per_s": FRAMES_PER_S / 5,
        "write_burst": max(10, BURST // 3),
        # A ping is a pulse on everyone's board: a few to point out a plan, not a strobe.
        "pings_per_s": 0.5,
        "ping_burst": 3,
    }
    return {k: float(_USER_RATES[k] or v) for k, v in derived.items()}


#: Bytes of replayed events (`resume`, `?seq=`) a second, and at once; engine time (ms of
#: CPU, measured) a second of one user's previews and acts, and at once. By default they
#: grow with the per-socket rate the operator sets (TABLE_FRAMES_PER_S over its default 20).
_SCALE = max(1.0, FRAMES_PER_S / 20)
RESUME_BYTES_PER_S = int(os.environ.get("TABLE_RESUME_BYTES_PER_S", str(int(128 * 1024 * _SCALE))))
RESUME_BURST_BYTES = int(os.environ.get("TABLE_RESUME_BURST_BYTES", str(int(1024 * 1024 * _SCALE))))
ENGINE_MS_PER_S = float(os.environ.get("TABLE_ENGINE_MS_PER_S", str(100 * _SCALE)))
ENGINE_BURST_MS = float(os.environ.get("TABLE_ENGINE_BURST_MS", str(500 * _SCALE)))
#: What an engine request reserves of the user's engine time before it runs: about what
#: the engine's own deadlines let one request cost (the judgement, then reach or the
#: alternative), so that a request is refused before the work when the balance could not
#: pay for it. It is settled afterwards: the unused part refunded, an overrun charged.
ENGINE_RESERVE_MS = float(os.environ.get("TABLE_ENGINE_RESERVE_MS", "100"))
#: Engine jobs of one user running or waiting at once, in this process.
ENGINE_IN_FLIGHT = 1
#: Threads that judge previews and sight, apart from the event loop and the database
#: thread every other frame uses; and (on PostgreSQL) the threads that judge and commit
#: acts, apart from those, so that a flood of previews never holds up a move.
ENGINE_WORKERS = int(os.environ.get("TABLE_ENGINE_WORKERS", "2"))
ACT_WORKERS = int(os.environ.get("TABLE_ACT_WORKERS", "2"))
CLOSE_TOO_MANY_SOCKETS = 4409


@dataclass
class Budget:
    """A measured cost (engine milliseconds, bytes sent) allowed at `rate` a second on
    average and `burst` at once. `reserve` takes a cost before the work, if the balance
    holds it; `charge` takes what is known only afterwards (or, negative, refunds): the
    balance may go below zero, and the user waits until it is earned back."""

    rate: float
    burst: float
    balance: float = 0.0
    stamp: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.balance = self.burst

    def _refill(self, now: float) -> None:
        self.balance = min(self.burst, self.balance + (now - self.stamp) * self.rate)
        self.stamp = now

    def resize(self, rate: float, burst: float) -> None:
        self.balance += burst - self.burst
        self.rate, self.burst = rate, burst

    def open(self, now: float | None = None) -> bool:
        self._refill(time.monotonic() if now is None else now)
        return self.balance > 0

    def reserve(self, cost: float, now: float | None = None) -> bool:
        """Takes `cost` now if the balance holds it (and is positive)."""
        if not self.open(now) or self.balance < cost:
            return False
        self.balance -= cost
        return True

    def charge(self, cost: float, now: float | None = None) -> None:
        self._refill(time.monotonic() if now is None else now)
        self.balance -= cost

    def full(self, now: float | None = None) -> bool:
        self._refill(time.monotonic() if now is None else now)
        return self.balance >= self.burst


@dataclass
class UserLimits:
    """What all of one user's sockets in this process share. Kept after their last socket
    closes (closing and reopening a socket must not refill them), until they are full
    again and so the same as new (`user_limits` forgets those)."""

    frames: TokenBucket = field(
        default_factory=lambda: TokenBucket(
            user_rates()["frames_per_s"], user_rates()["burst"], user_rates()["burst"]
        )
    )
    writes: TokenBucket = field(
        default_factory=lambda: TokenBucket(
            user_rates()["writes_per_s"], user_rates()["write_burst"], user_rates()["write_burst"]
        )
    )
    pings: TokenBucket = field(
        default_factory=lambda: TokenBucket(
            user_rates()["pings_per_s"], user_rates()["ping_burst"], user_rates()["ping_burst"]
        )
    )
    resume: Budget = field(default_factory=lambda: Budget(RESUME_BYTES_PER_S, RESUME_BURST_BYTES))
    engine_jobs: int = 0
    sockets: int = 0

    def idle(self) -> bool:
        """No socket, no job, every bucket full: forgetting it changes nothing."""
        return (
            self.sockets <= 0
            and self.engine_jobs <= 0
            and self.resume.full()
            and self.frames.full()
            and self.writes.full()
            and self.pings.full()
        )


_users: dict[int, UserLimits] = {}
#: `user_limits` sweeps the idle users out when there are more than this many.
_SWEEP_AT = 1000


def user_limits(user_id: int) -> UserLimits:
    """The user's shared limits, for one more socket of theirs (`release` when it closes)."""
    if len(_users) > _SWEEP_AT:
        for idle in [uid for uid, held in _users.items() if uid != user_id and held.idle()]:
            del _users[idle]
    limits = _users.setdefault(user_id, UserLimits())
    limits.sockets += 1
    rates = user_rates()  # a limit raised since the user's first socket counts now
    limits.frames.resize(rates["frames_per_s"], rates["burst"])
    limits.writes.resize(rates["writes_per_s"], rates["write_burst"])
    limits.pings.resize(rates["pings_per_s"], rates["ping_burst"])
    limits.resume.resize(RESUME_BYTES_PER_S, RESUME_BURST_BYTES)
    return limits


def release(user_id: int) -> None:
    """One socket of the user's closed. Their limits stay as they are (not refilled)."""
    limits = _users.get(user_id)
    if limits is not None:
        limits.sockets -= 1


CLOSE_LAYER_DOWN = 4503


def forget_everyone() -> None:
    """Every user's limits new again (the tests: a new database reuses user ids)."""
    _users.clear()
