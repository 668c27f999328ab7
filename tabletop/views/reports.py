"""The battle's record: the report page and its SVG, the event log as JSON lines, and
scenario files of a position or a ruling (docs/protocol.md, "The record").

Thin: who may read (any member of the battle's campaign; 404 for anyone else, so ids
leak nothing), how far (a spectator of a delayed table: nothing newer than the delay,
`records.horizon`), and the file's name. The reading is in `tabletop/records/`.
"""

from collections.abc import AsyncIterator, Callable, Iterator
from functools import wraps

from asgiref.sync import sync_to_async
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    JsonResponse,
    StreamingHttpResponse,
)
from django.shortcuts import render
from django.utils.safestring import mark_safe

from tabletop import selectors
from tabletop.models import Battle, Membership
from tabletop.records import cached, files
from tabletop.records.horizon import Horizon, horizon, status_label
from tabletop.records.report_svg import Report, battle_report
from tabletop.records.story import battle_story
from tabletop.services.errors import ServiceError
from tabletop.services.inputs import JSONTooDeep, load_json
from tabletop.views.access import SignedInRequest

RecordView = Callable[[SignedInRequest, int], HttpResponseBase]
TOO_MANY = "Too many downloads of battle records: wait a minute, then try again.\n"


def record_read(view: RecordView) -> RecordView:
    """A record view: for a logged-in user, so many a minute (429 beyond, in plain words)."""

    @wraps(view)
    def counted(request: SignedInRequest, battle_id: int) -> HttpResponseBase:
        if not cached.read_allowed(request.user):
            response = HttpResponse(TOO_MANY, status=429, content_type="text/plain; charset=utf-8")
            response["Retry-After"] = "60"
            return response
        return view(request, battle_id)

    return login_required(counted)


def _reader(request: HttpRequest, battle_id: int) -> tuple[Battle, Membership, Horizon]:
    found = selectors.battle_membership(request.user, battle_id)
    if found is None:
        raise Http404("No such battle.")
    battle, membership = found
    return battle, membership, horizon(battle, membership.role)


def _attachment(body: str, name: str, content_type: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _file(make: Callable[[], files.RecordFile]) -> HttpResponse:
    """A record file as a download; what is not the reader's to see is 404, a bad request 400."""
    try:
        record = make()
    except files.NotInRecord as error:
        return JsonResponse({"error": error.message}, status=404)
    except ServiceError as error:
        return JsonResponse({"error": error.message, "field": error.field}, status=400)
    return _attachment(record.text(), record.name, "application/json")


def _report(battle: Battle, seen: Horizon) -> Report:
    """The report up to the reader's horizon, built once for every reader at it (once the
    log keeps the positions: before that, the battle's own one changes with no event)."""

    def build() -> Report:
        return battle_report(battle_story(battle, seen))

    if not cached.settled(battle):
        return build()
    return cached.remember(cached.story_key(battle, seen, "report"), build)


@record_read
def position_file(request: HttpRequest, battle_id: int) -> HttpResponse:
    """The table after event `?seq=` (default: the newest the reader may see), as a scenario."""
    battle, _, seen = _reader(request, battle_id)
    seq = request.GET.get("seq")
    if seq is not None and not seq.isdigit():
        return JsonResponse({"error": "seq is an event number.", "field": "seq"}, status=400)
    return _file(lambda: files.position_file(battle, seen, None if seq is None else int(seq)))


@record_read
def ruling_file(request: SignedInRequest, battle_id: int) -> HttpResponse:
    """`?event=N`: the ruling of an order in the log. `?reply=ID`: the ruling on your order
    ID that the rules refused, as stored when it was refused (`&action=JSON`, the action
    the board proposed, is checked against it when given)."""
    battle, _, seen = _reader(request, battle_id)
    event, reply = request.GET.get("event"), request.GET.get("reply")
    if event is not None and event.isdigit():
        return _file(lambda: files.ruling_of_event(battle, seen, int(event)))
    if not reply:
        return JsonResponse({"error": "Name an event or your refused order."}, status=400)
    try:
        action = load_json(request.GET.get("action", "null"))
    except JSONTooDeep as error:
        return JsonResponse({"error": f"{error}.", "field": "action"}, status=400)
    except ValueError:
        return JsonResponse({"error": "The action is not JSON.", "field": "action"}, status=400)
    return _file(lambda: files.ruling_of_refusal(battle, request.user, seen, reply, action))


@record_read
def event_log(request: HttpRequest, battle_id: int) -> HttpResponseBase:
    """The log as JSON lines, streamed: read and sent a piece at a time, however long."""
    battle, _, seen = _reader(request, battle_id)
    pieces = files.event_lines(battle, seen)
    response = StreamingHttpResponse(
        streamed(pieces) if isinstance(request, ASGIRequest) else pieces,
        content_type="application/jsonl",
    )
    response["Content-Disposition"] = f'attachment; filename="battle-{battle.pk}-events.jsonl"'
    return response


async def streamed(pieces: Iterator[str]) -> AsyncIterator[str]:
    """`pieces` for the ASGI server: each read in the database's thread as it is sent (a
    plain iterator Django would read whole before sending any)."""

    def read() -> str | None:
        return next(pieces, None)

    while (piece := await sync_to_async(read, thread_sensitive=True)()) is not None:
        yield piece


@record_read
def report_file(request: HttpRequest, battle_id: int) -> HttpResponse:
    battle, _, seen = _reader(request, battle_id)
    svg = files.report_file(battle, _report(battle, seen).svg)
    return _attachment(svg, f"battle-{battle.pk}-report.svg", "image/svg+xml")


@record_read
def report(request: HttpRequest, battle_id: int) -> HttpResponse:
    battle, _, seen = _reader(request, battle_id)
    built = _report(battle, seen)
    context = {
        "battle": battle,
        "campaign": battle.campaign,
        "story": built,
        # Built by report_svg, which escapes every text it writes.
        "svg": mark_safe(built.svg),  # noqa: S308
        "lines": built.lines,
        "tallies": built.tallies,
        "status": status_label(battle, seen),
        "delayed": seen.until is not None,
        "delay_s": battle.spectator_delay_s,
    }
    return render(request, "tabletop/reports/battle.html", context)
