"""Take-backs as the event log tells them: which order may still be taken back, and the
request that waits for an answer (docs/protocol.md, "Take-backs").

Nothing is kept beside the log: a request is a `takeback` event, its answer another (a
refusal) or an `undo` (acceptance), and any later change to the table ends it. So the
snapshot, a resume, a delayed spectator and the record all read the same story.
"""

from dataclasses import dataclass
from typing import Any

from tabletop.models import Battle, Event

#: Events that change the position (command.TABLE_KINDS; not imported: command imports this).
TABLE_KINDS = ("act", "fiat", "undo", "turn")
#: What a player may ask to take back: an order, or the end of their side's turn.
TAKEN_BACK = ("act", "turn")


@dataclass(frozen=True)
class Logged:
    """One event of the log, as read here (without the positions it keeps)."""

    seq: int
    kind: str
    actor_id: int | None
    payload: dict[str, Any]

    @property
    def actor(self) -> str:
        return str(self.payload.get("actor", ""))

    @property
    def step(self) -> str:
        return str(self.payload.get("step", "")) if self.kind == "takeback" else ""


@dataclass(frozen=True)
class TakeBacks:
    """The take-back story after one event: the last change to the table, what happened
    after it, and the request waiting for an answer."""

    #: The last table event (None: none yet).
    last: Logged | None
    #: The events after it that count here (take-backs, dice rolls), oldest first.
    since: tuple[Logged, ...]

    @property
    def request(self) -> Logged | None:
        """The request waiting: the newest take-back event, when it asks (an answer, a
        withdrawal or any table change ends a request)."""
        asked = [e for e in self.since if e.kind == "takeback"]
        return asked[-1] if asked and asked[-1].step == "asked" else None

    @property
    def rolled_since(self) -> bool:
        return any(e.kind == "roll" for e in self.since)

    @property
    def declined_by(self) -> str:
        """Who declined a take-back of the last order already ("" if nobody)."""
        refused = [e for e in self.since if e.step == "declined"]
        return refused[-1].actor if refused else ""

    def why_not(self, user_id: int) -> tuple[str, str] | None:
        """(code, message) of why the user may not ask to take back the last order now,
        in their words; None when they may."""
        last = self.last
        if last is None or last.kind not in TAKEN_BACK:
            return "takeback_not_yours", "The last change to the table is not an order of yours."
        if last.actor_id != user_id or last.payload.get("role") != "player":
            return "takeback_not_yours", f"#{last.seq} is {last.actor}'s, not an order of yours."
        if last.payload.get("rolls"):
            # A roll cannot be unrolled: taken back, the order could be tried again until
            # the dice fell well (design.md, "The life of a move" 5).
            return (
                "takeback_dice",
                f"Dice were rolled for #{last.seq}; only the game master can undo it.",
            )
        if self.rolled_since:
            return (
                "takeback_dice",
                f"Dice have been rolled since #{last.seq}; only the game master can undo it now.",
            )
        if self.declined_by:
            return (
                "takeback_declined",
                f"{self.declined_by} has declined to take back #{last.seq} already.",
            )
        return None

    def offer(self) -> dict[str, Any] | None:
        """The order its player may ask to take back, for every board: {"seq", "actor",
        "kind"}; None when there is none (the board offers the button to that player)."""
        last = self.last
        if last is None or self.request is not None or last.actor_id is None:
            return None
        if self.why_not(last.actor_id) is not None:
            return None
        return {"seq": last.seq, "actor": last.actor, "kind": last.kind}

    def as_json(self) -> dict[str, Any]:
        """The snapshot's `takeback`: the order on offer and the request waiting."""
        request = self.request
        return {
            "order": self.offer(),
            "request": None if request is None else {"seq": request.seq, **public(request)},
        }


def public(event: Logged) -> dict[str, Any]:
    return {k: v for k, v in event.payload.items() if not k.startswith("_")}


def take_backs(battle: Battle | int, upto: int | None = None) -> TakeBacks:
    """The take-back story up to event `upto` (the newest by default): two small queries,
    the last table event and the few events after it."""
    events = Event.objects.filter(battle=battle)
    if upto is not None:
        events = events.filter(seq__lte=upto)
    fields = ("seq", "kind", "actor_id", "payload")
    last = events.filter(kind__in=TABLE_KINDS).order_by("-seq").values_list(*fields).first()
    after = events.filter(kind__in=("takeback", "roll"))
    if last is not None:
        after = after.filter(seq__gt=last[0])
    return TakeBacks(
        last=None if last is None else Logged(*last),
        since=tuple(Logged(*row) for row in after.order_by("seq").values_list(*fields)),
    )


def pending_request(battle: Battle) -> int | None:
    """The seq of the request waiting for an answer, or None: one query, made for every
    table change (a change ends the request: command.append says so in its event)."""
    newest = (
        Event.objects.filter(battle=battle, kind__in=(*TABLE_KINDS, "takeback"))
        .order_by("-seq")
        .values_list("seq", "kind", "payload__step")
        .first()
    )
    if newest is None or newest[1] != "takeback" or newest[2] != "asked":
        return None
    return int(newest[0])


def what_became_of(battle: Battle, request: int) -> str:
    """Why request `request` waits no more, in a player's words: answered, withdrawn,
    overtaken by a change to the table, or never asked."""
    asked = Event.objects.filter(battle=battle, seq=request, kind="takeback").first()
    if asked is None or asked.payload.get("step") != "asked":
        return f"There is no take-back request #{request}."
    later = Event.objects.filter(battle=battle, seq__gt=request)
    for event in later.filter(kind__in=(*TABLE_KINDS, "takeback")).order_by("seq"):
        payload, who = event.payload, event.payload.get("actor", "")
        answered = payload.get("takeback") or {}
        if answered.get("request") == request:
            return f"{who} has accepted that take-back already."
        if event.kind == "takeback" and payload.get("request") == request:
            done = {"declined": "declined", "withdrawn": "withdrawn"}.get(payload.get("step"), "")
            return f"{who} has {done or 'answered'} that take-back request already."
        if payload.get("takeback_lapsed") == request:
            return f"The table has changed since (#{event.seq}, {who}): the request lapsed."
    return f"Take-back request #{request} waits no more."
