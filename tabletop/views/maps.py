"""The map editor: terrain drawn on an SVG board (static/js/mapeditor.js) or typed as JSON."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from tabletop import selectors
from tabletop.forms import MapForm, compact_terrain
from tabletop.models import Campaign, Map, Membership
from tabletop.services import game_systems
from tabletop.services.maps import map_create, map_delete, map_update
from tabletop.views.access import (
    campaign_page,
    found,
    render_form_page,
    require_gm,
    run_or_forbid,
    submit,
)


def _editor(
    request: HttpRequest, campaign: Campaign, form: MapForm, battle_map: Map | None
) -> HttpResponse:
    context = {
        "campaign": campaign,
        "form": form,
        "map": battle_map,
        "terrain_kinds": game_systems.terrain_kinds(campaign.system),
    }
    return render_form_page(
        request, "tabletop/maps/edit.html", context, invalid=request.method == "POST"
    )


def _map_fields(form: MapForm) -> dict:
    data = form.cleaned_data
    return {
        "name": data["name"],
        "width": data["width"],
        "height": data["height"],
        "terrain": data["terrain"],
    }


@campaign_page
def map_new(request: HttpRequest, campaign: Campaign, membership: Membership) -> HttpResponse:
    require_gm(membership)
    form = MapForm(request.POST or None)
    if request.method == "POST":
        battle_map, ok = submit(
            form, lambda: map_create(actor=request.user, campaign=campaign, **_map_fields(form))
        )
        if ok:
            messages.success(request, f"Map {battle_map.name!r} saved.")
            return redirect("map", campaign_id=campaign.pk, map_id=battle_map.pk)
    return _editor(request, campaign, form, None)


@campaign_page
def map_edit(
    request: HttpRequest, campaign: Campaign, membership: Membership, map_id: int
) -> HttpResponse:
    battle_map = found(selectors.map_in(campaign, map_id))
    initial = {
        "name": battle_map.name,
        "width": battle_map.width,
        "height": battle_map.height,
        "terrain": compact_terrain(battle_map.terrain),
    }
    form = MapForm(request.POST or None, initial=initial)
    if request.method == "POST":
        require_gm(membership)
        _, ok = submit(
            form,
            lambda: map_update(actor=request.user, battle_map=battle_map, **_map_fields(form)),
        )
        if ok:
            messages.success(request, f"Map {form.cleaned_data['name']!r} saved.")
            return redirect("map", campaign_id=campaign.pk, map_id=battle_map.pk)
    return _editor(request, campaign, form, battle_map)


@require_POST
@campaign_page
def map_remove(
    request: HttpRequest, campaign: Campaign, membership: Membership, map_id: int
) -> HttpResponse:
    battle_map = found(selectors.map_in(campaign, map_id))
    if not run_or_forbid(request, lambda: map_delete(actor=request.user, battle_map=battle_map)):
        return redirect("map", campaign_id=campaign.pk, map_id=battle_map.pk)
    return redirect("campaign", campaign_id=campaign.pk)
