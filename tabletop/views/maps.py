"""The map editor: terrain drawn on an SVG board (static/js/mapeditor.js) or typed as JSON."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_GET, require_POST

from tabletop import selectors
from tabletop.forms import MapForm, MapPictureForm, compact_terrain
from tabletop.models import Campaign, Map, Membership
from tabletop.services import game_systems
from tabletop.services.maps import (
    map_create,
    map_delete,
    map_picture_remove,
    map_picture_set,
    map_update,
)
from tabletop.services.picture import MAX_BYTES as MAX_PICTURE_BYTES
from tabletop.views.access import (
    SignedInRequest,
    campaign_page,
    found,
    render_form_page,
    require_gm,
    run_or_forbid,
    submit,
)


def _editor(
    request: HttpRequest,
    campaign: Campaign,
    form: MapForm,
    battle_map: Map | None,
    picture_form: MapPictureForm | None = None,
) -> HttpResponse:
    context = {
        "campaign": campaign,
        "form": form,
        "map": battle_map,
        "terrain_kinds": game_systems.terrain_kinds(campaign.system),
        "terrain_unstyled": game_systems.unstyled_terrain(),
        "picture_form": picture_form or _picture_form(battle_map),
        "backdrop": selectors.map_backdrop(battle_map) if battle_map else None,
    }
    return render_form_page(
        request, "tabletop/maps/edit.html", context, invalid=request.method == "POST"
    )


def _picture_form(battle_map: Map | None, data: Any = None, files: Any = None) -> MapPictureForm:
    """The picture's form; its fields prefixed (`picture-width`) beside the map's own."""
    initial = battle_map.image_place if battle_map else {}
    return MapPictureForm(data, files, prefix="picture", initial=initial)


def _map_initial(battle_map: Map) -> dict:
    return {
        "name": battle_map.name,
        "width": battle_map.width,
        "height": battle_map.height,
        "terrain": compact_terrain(battle_map.terrain),
    }


def _map_fields(form: MapForm) -> dict:
    data = form.cleaned_data
    return {
        "name": data["name"],
        "width": data["width"],
        "height": data["height"],
        "terrain": data["terrain"],
    }


@campaign_page
def map_new(request: SignedInRequest, campaign: Campaign, membership: Membership) -> HttpResponse:
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
    request: SignedInRequest, campaign: Campaign, membership: Membership, map_id: int
) -> HttpResponse:
    battle_map = found(selectors.map_in(campaign, map_id))
    form = MapForm(request.POST or None, initial=_map_initial(battle_map))
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
    request: SignedInRequest, campaign: Campaign, membership: Membership, map_id: int
) -> HttpResponse:
    battle_map = found(selectors.map_in(campaign, map_id))
    if not run_or_forbid(request, lambda: map_delete(actor=request.user, battle_map=battle_map)):
        return redirect("map", campaign_id=campaign.pk, map_id=battle_map.pk)
    return redirect("campaign", campaign_id=campaign.pk)


@require_POST
@campaign_page
def map_picture(
    request: SignedInRequest, campaign: Campaign, membership: Membership, map_id: int
) -> HttpResponse:
    """Sets or moves the map's picture (multipart: `picture-file` and its place)."""
    battle_map = found(selectors.map_in(campaign, map_id))
    require_gm(membership)
    form = _picture_form(battle_map, request.POST, request.FILES)

    def write() -> Map:
        upload = form.cleaned_data["file"]
        # Read no more than one byte past the limit: the service refuses what is longer.
        data = upload.read(MAX_PICTURE_BYTES + 1) if upload else None
        return map_picture_set(
            actor=request.user, battle_map=battle_map, picture=data, place=form.place()
        )

    _, ok = submit(form, write, aliases={"picture": "file"})
    if ok:
        return redirect("map", campaign_id=campaign.pk, map_id=battle_map.pk)
    return _editor(request, campaign, MapForm(initial=_map_initial(battle_map)), battle_map, form)


@require_POST
@campaign_page
def map_picture_delete(
    request: SignedInRequest, campaign: Campaign, membership: Membership, map_id: int
) -> HttpResponse:
    battle_map = found(selectors.map_in(campaign, map_id))
    run_or_forbid(request, lambda: map_picture_remove(actor=request.user, battle_map=battle_map))
    return redirect("map", campaign_id=campaign.pk, map_id=battle_map.pk)


@require_GET
@login_required
def map_picture_file(request: HttpRequest, image_id: int, digest: str) -> HttpResponse:
    """A map's picture, for the members of its campaign (404 for anyone else). The bytes
    are the server's own re-encoding, served with their own type, never sniffed, never
    run: the address names the content, so the browser keeps it for good."""
    picture = selectors.picture_for(request.user, image_id, digest)
    if picture is None:
        raise Http404("No such picture.")
    response = HttpResponse(bytes(picture.data), content_type=picture.content_type)
    response["Cache-Control"] = "private, max-age=31536000, immutable"
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Disposition"] = "inline"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response
