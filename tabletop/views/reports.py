"""The battle's record: the report page and its SVG, the event log as JSON lines, and
scenario files of a position or a ruling (issue 16; docs/protocol.md, "The record").

Thin: who may read (any member of the battle's campaign; 404 for anyone else, so ids
leak nothing), how far (a spectator of a delayed table: nothing newer than the delay,
`records.horizon`), and the file's name. The reading is in `tabletop/records/`.
"""

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe

from tabletop import selectors
from tabletop.models import Battle, Membership
from tabletop.records import files
from tabletop.records.horizon import Horizon, horizon
from tabletop.records.report_svg import report_svg, side_colour, summary_lines
from tabletop.records.story import Story, battle_story
from tabletop.services.errors import ServiceError
from tabletop.services.inputs import JSONTooDeep, load_json


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


def _title(story: Story) -> str:
    return f"{story.battle.name}: battle report"


@login_required
def position_file(request: HttpRequest, battle_id: int) -> HttpResponse:
    """The table after event `?seq=` (default: the newest the reader may see), as a scenario."""
    battle, _, seen = _reader(request, battle_id)
    seq = request.GET.get("seq")
    if seq is not None and not seq.isdigit():
        return JsonResponse({"error": "seq is an event number.", "field": "seq"}, status=400)
    return _file(lambda: files.position_file(battle, seen, None if seq is None else int(seq)))


@login_required
def ruling_file(request: HttpRequest, battle_id: int) -> HttpResponse:
    """`?event=N`: the ruling of an order in the log. `?reply=ID&action=JSON`: the ruling on
    your order ID that the rules refused (the board sends back the action it proposed)."""
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


@login_required
def event_log(request: HttpRequest, battle_id: int) -> HttpResponse:
    battle, _, seen = _reader(request, battle_id)
    return _attachment(
        files.event_lines(battle, seen), f"battle-{battle.pk}-events.jsonl", "application/jsonl"
    )


@login_required
def report_file(request: HttpRequest, battle_id: int) -> HttpResponse:
    battle, _, seen = _reader(request, battle_id)
    story = battle_story(battle, seen)
    return _attachment(
        report_svg(story, _title(story)), f"battle-{battle.pk}-report.svg", "image/svg+xml"
    )


@login_required
def report(request: HttpRequest, battle_id: int) -> HttpResponse:
    battle, membership, seen = _reader(request, battle_id)
    story = battle_story(battle, seen)
    context = {
        "battle": battle,
        "campaign": battle.campaign,
        "story": story,
        # Built by report_svg, which escapes every text it writes.
        "svg": mark_safe(report_svg(story, _title(story))),  # noqa: S308
        "lines": summary_lines(story),
        "tallies": [(t, side_colour(story, t.side)) for _, t in sorted(story.tallies.items())],
        "delayed": seen.until is not None,
        "delay_s": battle.spectator_delay_s,
    }
    return render(request, "tabletop/reports/battle.html", context)
