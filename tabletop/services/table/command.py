"""The frame of every write to a live table.

Lock the battle row (PostgreSQL orders all writers, whichever process they
run in), answer a resent client message id with the answer it already had,
decide, append the event, store the answer: one transaction. The event is
broadcast only once that transaction has committed.
"""

import contextlib
import contextvars
import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

import rules
from tabletop import events
from tabletop.models import Battle, CommandReply, Event
from tabletop.models.battle import BattleStatus
from tabletop.services import turn_notices
from tabletop.services.errors import ServiceError
from tabletop.services.table import changes, known_battles, position, referee, takeback_log
from tabletop.services.table.actor import Actor

#: Events that change the position; an `act` that saw none of them after its `seen` is current.
TABLE_KINDS = ("act", "fiat", "undo", "turn")
#: The stored answer's key for the digest of the frame it answered (never sent).
DIGEST_KEY = "_frame"
#: The stored refusal's key for the action the rules refused (never sent): its saved
#: ruling is made of it, the verdict and the position of its `seq`, never judged again.
ACTION_KEY = "_action"
#: The digest of the frame being answered (`answering`); "" outside a frame.
frame_digest: contextvars.ContextVar[str] = contextvars.ContextVar("frame_digest", default="")


@dataclass(frozen=True)
class Change:
    """A decided write: the event's kind and public keys, and the new position if any."""

    kind: str
    public: dict[str, Any] = field(default_factory=dict)
    state: dict[str, Any] | None = None
    turn: dict[str, Any] | None = None
    delay_s: int | None = None
    #: The engine's own state for `state`, when the change came from the engine: kept as
    #: the parsed position of the new sequence number (referee.ParsedPositions).
    game: rules.GameState | None = None
    #: Set when the rules refused the action yet it still changes the table (a failed
    #: breakaway spends the order, design.md 'the life of a move' 5): the event is
    #: committed and broadcast like any other, and the sender gets a `reject` with these
    #: reasons that names the event.
    refused: list[dict[str, Any]] | None = None


@dataclass(frozen=True)
class Refusal:
    reasons: list[dict[str, Any]]
    verdict: dict[str, Any] | None = None
    #: The action the rules judged, kept with the answer (ACTION_KEY).
    action: dict[str, Any] | None = None


Decide = Callable[[Battle], Change | Refusal]


def locked(battle_id: int) -> Battle:
    battle = Battle.objects.select_for_update().filter(pk=battle_id).first()
    if battle is None:
        raise ServiceError("This battle no longer exists.", code="forbidden")
    return battle


def changed_since(battle: Battle, seen: int) -> bool:
    """Whether the position changed after `seen` (a client that saw less must look again)."""
    if seen >= battle.last_seq:
        return seen > battle.last_seq  # up to date (the usual case): no query
    return Event.objects.filter(battle=battle, seq__gt=seen, kind__in=TABLE_KINDS).exists()


@dataclass(frozen=True)
class Prepared:
    """A decided change made ready to write: its event (unsaved), the fields of the battle
    it changes, and what the log does not keep of it."""

    event: Event
    fields: list[str]
    #: The position ({"state", "turn"}) before a table event; None for any other.
    before: dict[str, Any] | None = None
    #: What clients are sent of a table event that the log does not keep (changes.py).
    unstored: dict[str, Any] = field(default_factory=dict)

    def frame(self) -> dict[str, Any]:
        """The event's frame as clients are sent it (once saved: it names its moment)."""
        return {**events.event(self.event), **self.unstored}


def prepare(
    battle: Battle,
    actor: Actor,
    change: Change,
    client_msg_id: str = "",
    *,
    pending: Callable[[Battle], int | None] = takeback_log.pending_request,
) -> Prepared:
    """The event of `change` (unsaved), `battle` made what it is after the change. A table
    event keeps its change, not the position (changes.py). `pending`: the take-back
    request waiting, which any change to the table ends."""
    public: dict[str, Any] = {"actor": actor.name, "role": actor.role, **change.public}
    kept: dict[str, Any] = {}
    before = None
    fields = ["last_seq"]
    seq = battle.last_seq + 1
    game: rules.GameState | None = None
    if change.kind in TABLE_KINDS:
        # Any change to the table ends a take-back request still waiting (an acceptance
        # names it itself): the event says so, for the boards, a replay and the record.
        lapsed = None if "takeback" in change.public else pending(battle)
        if lapsed is not None:
            public["takeback_lapsed"] = lapsed
        before = {"state": battle.state, "turn": battle.turn_state}
        state = battle.state if change.state is None else change.state
        turn = battle.turn_state if change.turn is None else change.turn
        # The engine's state after it: the verdict's, or read once here (an end of turn, a
        # fiat) and kept, like the verdict's, for the judgements at the new seq.
        game = change.game if change.game is not None else referee.readable((battle.id, seq), state)
        public.update(position.patch(battle.state, state, turn, game))
        rebase = battle.base_seq == 0
        if changes.keeps_base(battle):
            kept["base"] = before
            battle.base_seq = battle.last_seq + 1
            fields.append("base_seq")
        after = {"state": state, "turn": turn}
        kept["change"] = changes.change_of(before, after, changes.stored(public), rebase=rebase)
        battle.state, battle.turn_state = state, turn
        fields += ["state", "turn_state"]
    if change.delay_s is not None:
        battle.spectator_delay_s = change.delay_s
        fields.append("spectator_delay_s")
    public["hash"] = position.position_hash(battle.state, battle.turn_state)
    if before is None:
        # The position is unchanged (chat, dice, a drawing): its engine state serves the
        # new seq as it did the last one.
        game = referee.positions.find((battle.id, battle.last_seq), battle.state)
    battle.last_seq = seq
    if game is not None:
        referee.positions.keep((battle.id, seq), battle.state, game)
    event = Event(
        battle=battle,
        seq=battle.last_seq,
        actor_id=actor.user_id,
        kind=change.kind,
        payload=events.event_payload(public if before is None else changes.stored(public)),
        client_msg_id=client_msg_id,
        **kept,
    )
    unstored = {k: v for k, v in public.items() if k in changes.NOT_STORED}
    return Prepared(event, fields, before, unstored if before is not None else {})


def notify_turn(battle: Battle, actor: Actor, prepared: Prepared) -> None:
    """A change of whose turn it is mails the players of the side now to act."""
    if prepared.before is not None:
        turn_notices.turn_changed(
            battle,
            actor_id=actor.user_id,
            before=prepared.before["turn"],
            after=battle.turn_state,
        )


def append(battle: Battle, actor: Actor, change: Change, client_msg_id: str = "") -> Event:
    """Appends the event of `change` to the locked `battle` and sends it after commit."""
    prepared = prepare(battle, actor, change, client_msg_id)
    prepared.event.save()
    battle.save(update_fields=prepared.fields)
    notify_turn(battle, actor, prepared)
    events.send_event_on_commit(battle.id, prepared.frame(), battle.spectator_delay_s)
    return prepared.event


def answer_of(
    outcome: Change | Refusal, client_msg_id: str, seq: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the answer to send, the answer to keep for a resend) to a decided command; `seq`
    is the battle's sequence number after it (a change's, its event's)."""
    if isinstance(outcome, Refusal):
        reply = events.reject(
            id=client_msg_id, seq=seq, reasons=outcome.reasons, verdict=outcome.verdict
        )
    elif outcome.refused is None:
        reply = events.ack(id=client_msg_id, seq=seq)
    else:
        reply = events.reject(
            id=client_msg_id,
            seq=seq,
            reasons=outcome.refused,
            verdict=outcome.public.get("verdict"),
            event=seq,
        )
    digest = frame_digest.get()
    kept = {**reply, DIGEST_KEY: digest} if digest else dict(reply)
    if isinstance(outcome, Refusal) and outcome.verdict and outcome.action is not None:
        kept[ACTION_KEY] = outcome.action
    return reply, kept


@transaction.atomic
def run(*, battle_id: int, actor: Actor, client_msg_id: str, decide: Decide) -> dict[str, Any]:
    """The answer (`ack` or `reject` frame) to one client command; applied at most once."""
    battle = locked(battle_id)
    digest = frame_digest.get()
    prior = (
        CommandReply.objects.filter(
            battle_id=battle.id, actor_id=actor.user_id, client_msg_id=client_msg_id
        )
        .values_list("reply", flat=True)
        .first()
    )
    if prior is not None:
        # One rule for every resend (docs/protocol.md, "Message ids"): the stored answer,
        # a refusal included, for the same frame; another frame under a used id is
        # refused on its own, so that it never silently gets an answer meant for another.
        stored = prior.pop(DIGEST_KEY, "")
        prior.pop(ACTION_KEY, None)
        if digest and stored and stored != digest:
            raise ServiceError(
                f"The id {client_msg_id!r} was used for another frame; send a new id.",
                code="id_reused",
                field="id",
            )
        return prior
    outcome = decide(battle)
    if isinstance(outcome, Change):
        append(battle, actor, outcome, client_msg_id)
    reply, kept = answer_of(outcome, client_msg_id, battle.last_seq)
    CommandReply.objects.create(
        battle=battle, actor_id=actor.user_id, client_msg_id=client_msg_id, reply=kept
    )
    known_battles.keep_on_commit(battle)
    return reply


@contextlib.contextmanager
def answering(frame: dict[str, Any]) -> Iterator[None]:
    """Names the frame the commands run inside answer: its digest is kept with the answer,
    so that a resent id can be told from a reused one."""
    token = frame_digest.set(digest_of(frame))
    try:
        yield
    finally:
        frame_digest.reset(token)


def digest_of(frame: dict[str, Any]) -> str:
    """sha256 of the frame without its id: what a resend repeats exactly."""
    body = {k: v for k, v in frame.items() if k != "id"}
    return hashlib.sha256(events.canonical(body).encode()).hexdigest()


def require_player(actor: Actor) -> None:
    if not actor.plays:
        raise ServiceError("Spectators watch; they cannot change the table.", code="forbidden")


def finished(battle: Battle, what: str) -> Refusal | None:
    """A refusal once the battle is over: its record takes no more of the table's talk
    (`what`: "drawing", "markers"), which a finished record must not change."""
    if battle.status == BattleStatus.FINISHED:
        return Refusal(
            [
                events.reason(
                    "battle_not_active", f"The battle is over: its record takes no more {what}."
                )
            ]
        )
    return None


def require_gm(actor: Actor) -> None:
    if not actor.is_gm:
        raise ServiceError("Only the game master may do that.", code="forbidden")
