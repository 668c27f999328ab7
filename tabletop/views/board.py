"""The live board page: the table in the browser. Thin: who may see it, and where to connect.

Everything on the page comes over the websocket (docs/protocol.md); the page only
says which battle, who you are, where the table's past positions are read (the
replay scrubber), and what its game system offers (name, actions, cost unit,
terrain kinds: `game_systems.board_config`). Members of any role see the board;
a spectator gets the same page, read-only: the campaign's spectator invitation is
their link to it.
"""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse

from tabletop import selectors
from tabletop.models import Battle, Membership
from tabletop.records.horizon import horizon
from tabletop.services import game_systems
from tabletop.services.table import annotations, log, marker_palette, piece_markers
from tabletop.services.turn_notices import notice_settings_of


def _battle_for(request: HttpRequest, battle_id: int) -> tuple[Battle, Membership]:
    """The battle and the user's membership; 404 for anyone else, so ids leak nothing."""
    found = selectors.battle_membership(request.user, battle_id)
    if found is None:
        raise Http404("No such battle.")
    return found


@login_required
def board(request: HttpRequest, battle_id: int) -> HttpResponse:
    battle, membership = _battle_for(request, battle_id)
    campaign = battle.campaign
    config = {
        "battle": battle.pk,
        "battleName": battle.name,
        "campaignName": campaign.name,
        **game_systems.board_config(campaign.system),
        # The free markers' palette: names and colours, each pair WCAG AA.
        "markerColours": marker_palette.palette(),
        "user": request.user.get_username(),
        "role": membership.role,
        "socket": f"/ws/battles/{battle.pk}/",
        "positionUrl": reverse("board_at", args=[battle.pk, 0]).removesuffix("0/"),
        # The picture under the terrain, loaded by the browser from its address.
        "backdrop": selectors.battle_backdrop(battle),
        # The user opted in to browser notifications of their turn (static/js/board/turnnotice.js).
        "turnNotices": notice_settings_of(request.user).browser,  # type: ignore[arg-type]
    }
    context = {
        "battle": battle,
        "campaign": campaign,
        "role": membership.role,
        "config": config,
    }
    return render(request, "tabletop/board.html", context)


@login_required
def board_position(request: HttpRequest, battle_id: int, seq: int) -> JsonResponse:
    """The table after event `seq` ({"seq", "state", "turn", "annotations", "markers",
    "unit_states"}), for the replay scrubber: the drawings, the free markers and the
    pieces' states on the table at that moment are shown with it, as a snapshot shows
    today's. A spectator sees no further than the broadcast delay lets them."""
    battle, membership = _battle_for(request, battle_id)
    # The record views' horizon: one query, not a delayed snapshot built to learn its seq.
    if seq > horizon(battle, membership.role).seq:
        raise Http404("That event has not happened yet.")
    at = log.position_at(battle, seq)
    return JsonResponse(
        {
            "seq": seq,
            "state": at["state"],
            "turn": at["turn"],
            "annotations": annotations.live_at(battle.pk, seq),
            "markers": piece_markers.live_at(battle.pk, seq),
            "unit_states": game_systems.state_markers(at["state"]),
        }
    )
