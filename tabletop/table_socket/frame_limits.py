"""The limits a client's frame meets as it arrives, before any work
(docs/protocol.md, Limits per user): the socket's own rate, the user's shared budgets,
and the meter whose flood of drops or refusals closes the socket (4429)."""

from tabletop import limits, protocol
from tabletop.table_socket.service_calls import ENGINE_TASKS


class FrameLimits:
    """One socket's limits, and the user's it shares with their other sockets (`user`)."""

    def __init__(self, user: limits.UserLimits) -> None:
        self.user = user
        self.bucket = limits.TokenBucket()
        self.abuse = limits.AbuseMeter()

    def flooded(self) -> bool:
        """The frame is one too many for the socket's rate or the user's (taken if not)."""
        return not self.bucket.take() or not self.user.frames.take()

    def over_budget(self, frame: protocol.Frame) -> str | None:
        """Why the user's shared limits refuse the frame now, or None. The engine's time
        is reserved after these pass (`ServiceCalls.reserve`)."""
        if "id" in frame.data and not self.user.writes.take():
            return "Too many changes to the table; slow down."
        if frame.type == "point" and not self.user.pings.take():
            return "Too many pings; wait a moment."
        if frame.type == "resume" and not self.user.resume.open():
            return "Too much replayed lately; wait, or reload for a snapshot."
        if frame.type in ENGINE_TASKS and self.user.engine_jobs >= limits.ENGINE_IN_FLIGHT:
            return "Your last request to the rules engine is still being judged."
        return None
