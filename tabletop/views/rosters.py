"""The roster builder: a roster's units, adding and editing them, import and export."""

import json
from types import SimpleNamespace
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tabletop import selectors
from tabletop.forms import RosterForm, RosterImportForm, UnitForm, add_service_error
from tabletop.models import Campaign, Membership, Roster
from tabletop.models.roster import UnitStatus
from tabletop.records.campaign import campaign_seen
from tabletop.services import game_systems
from tabletop.services.errors import ServiceError
from tabletop.services.rosters import (
    roster_create,
    roster_import,
    roster_update,
    unit_profile_add,
    unit_profile_remove,
    unit_profile_update,
)
from tabletop.views.access import (
    SignedInRequest,
    campaign_page,
    found,
    render_form_page,
    run_or_forbid,
    submit,
)


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _readable(key: str, value: Any) -> str:
    """A stat as a player reads it: a base as its size, a yes/no, a list as words."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict) and value.get("shape") == "circle" and "diameter" in value:
        return f"round, {_number(value['diameter'])}″ across"
    if isinstance(value, dict) and value.get("shape") == "rect":
        return f"{_number(value.get('width', '?'))}″ × {_number(value.get('length', '?'))}″"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_readable(k, v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_readable(key, v) for v in value) or "none"
    if isinstance(value, str):
        return value.replace("_", " ")
    return _number(value)


def stat_rows(stats: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, value) for each stat of a unit, in the schema's words: the roster's table."""
    return [(k.replace("_", " ").capitalize(), _readable(k, v)) for k, v in stats.items()]


def _picked_form(system: str, picked: str) -> UnitForm | None:
    """The add-unit form filled with a catalogue entry's default stats (`?pick=<type>`)."""
    entry = next((e for e in game_systems.unit_catalogue(system) if e["type"] == picked), None)
    if entry is None:
        return None
    profile = SimpleNamespace(
        name=entry["label"], unit_type=entry["type"], points=0, stats=entry["stats"]
    )
    initial = UnitForm.initial_from(profile)
    return UnitForm(system=system, initial=initial)


def _builder(
    request: HttpRequest,
    campaign: Campaign,
    membership: Membership,
    roster: Roster,
    *,
    unit_form: UnitForm | None = None,
    roster_form: RosterForm | None = None,
    invalid: bool = False,
) -> HttpResponse:
    is_owner = roster.owner_id == request.user.pk
    # A spectator sees no result of a delayed battle before its delay has passed: its units
    # as they were before it, and their points still counted.
    units = campaign_seen(campaign, membership.role).units(roster.units.all())
    points = sum(unit.points for unit in units if unit.status != UnitStatus.DESTROYED)
    context = {
        "campaign": campaign,
        "membership": membership,
        "roster": roster,
        "units": [(unit, stat_rows(unit.stats)) for unit in units],
        "catalogue": [
            {**entry, "rows": stat_rows(entry["stats"])}
            for entry in game_systems.unit_catalogue(campaign.system)
        ],
        "campaign_profiles": list(campaign.catalogue.all()),
        "points": points,
        "over_limit": points > campaign.points_limit,
        "is_owner": is_owner,
        "unit_form": unit_form
        or _picked_form(campaign.system, request.GET.get("pick", ""))
        or UnitForm(system=campaign.system),
        "roster_form": roster_form
        or RosterForm(initial={"name": roster.name, "faction": roster.faction}),
    }
    return render_form_page(request, "tabletop/rosters/detail.html", context, invalid=invalid)


@require_POST
@campaign_page
def roster_new(
    request: SignedInRequest, campaign: Campaign, membership: Membership
) -> HttpResponse:
    form = RosterForm(request.POST)
    roster, ok = submit(
        form,
        lambda: roster_create(
            actor=request.user,
            campaign=campaign,
            owner=request.user,
            name=form.cleaned_data["name"],
            faction=form.cleaned_data["faction"],
        ),
    )
    if not ok:
        messages.error(request, "; ".join(str(m) for ms in form.errors.values() for m in ms))
        return redirect("campaign", campaign_id=campaign.pk)
    return redirect("roster", campaign_id=campaign.pk, roster_id=roster.pk)


@campaign_page
def roster_import_page(
    request: SignedInRequest, campaign: Campaign, membership: Membership
) -> HttpResponse:
    form = RosterImportForm(request.POST or None, request.FILES or None)
    same_name: list[ServiceError] = []

    def refuse(error: ServiceError) -> None:
        if error.code == "same_name":
            same_name.append(error)
        else:
            add_service_error(form, error)

    if request.method == "POST":
        roster, ok = submit(
            form,
            lambda: roster_import(
                actor=request.user,
                campaign=campaign,
                data=form.cleaned_data["data"],
                second_copy=form.cleaned_data["second_copy"],
            ),
            refuse=refuse,
        )
        if ok:
            messages.success(request, f"Imported {roster.name}.")
            return redirect("roster", campaign_id=campaign.pk, roster_id=roster.pk)
        if same_name:
            # Ask before a second roster of the name: the file travels on as pasted JSON
            # (a browser cannot send an uploaded file again by itself).
            again = RosterImportForm(
                initial={"data": json.dumps(form.cleaned_data["data"]), "second_copy": True}
            )
            context = {"campaign": campaign, "question": same_name[0].message, "again": again}
            return render(request, "tabletop/rosters/import_again.html", context)
    return render_form_page(
        request,
        "tabletop/rosters/import.html",
        {"campaign": campaign, "form": form},
        invalid=request.method == "POST",
    )


@campaign_page
def roster_detail(
    request: SignedInRequest, campaign: Campaign, membership: Membership, roster_id: int
) -> HttpResponse:
    roster = found(selectors.roster_in(campaign, roster_id))
    if request.method != "POST":
        return _builder(request, campaign, membership, roster)
    form = RosterForm(request.POST)
    _, ok = submit(
        form,
        lambda: roster_update(
            actor=request.user,
            roster=roster,
            name=form.cleaned_data["name"],
            faction=form.cleaned_data["faction"],
        ),
    )
    if ok:
        return redirect("roster", campaign_id=campaign.pk, roster_id=roster.pk)
    return _builder(request, campaign, membership, roster, roster_form=form, invalid=True)


@require_POST
@campaign_page
def unit_new(
    request: SignedInRequest, campaign: Campaign, membership: Membership, roster_id: int
) -> HttpResponse:
    roster = found(selectors.roster_in(campaign, roster_id))
    form = UnitForm(request.POST, system=campaign.system)
    _, ok = submit(
        form,
        lambda: unit_profile_add(
            actor=request.user,
            roster=roster,
            name=form.cleaned_data["name"],
            unit_type=form.cleaned_data["unit_type"],
            stats=form.stats(),
            points=form.cleaned_data["points"],
        ),
        aliases=form.error_aliases(),
    )
    if ok:
        return redirect("roster", campaign_id=campaign.pk, roster_id=roster.pk)
    return _builder(request, campaign, membership, roster, unit_form=form, invalid=True)


@campaign_page
def unit_edit(
    request: SignedInRequest,
    campaign: Campaign,
    membership: Membership,
    roster_id: int,
    unit_id: int,
) -> HttpResponse:
    roster = found(selectors.roster_in(campaign, roster_id))
    unit = found(selectors.unit_in(roster, unit_id))
    form = UnitForm(
        request.POST or None, system=campaign.system, initial=UnitForm.initial_from(unit)
    )
    if request.method == "POST":
        _, ok = submit(
            form,
            lambda: unit_profile_update(
                actor=request.user,
                unit=unit,
                name=form.cleaned_data["name"],
                unit_type=form.cleaned_data["unit_type"],
                stats=form.stats(),
                points=form.cleaned_data["points"],
            ),
            aliases=form.error_aliases(),
        )
        if ok:
            return redirect("roster", campaign_id=campaign.pk, roster_id=roster.pk)
    return render_form_page(
        request,
        "tabletop/rosters/unit_edit.html",
        {"campaign": campaign, "roster": roster, "unit": unit, "form": form},
        invalid=request.method == "POST",
    )


@require_POST
@campaign_page
def unit_delete(
    request: SignedInRequest,
    campaign: Campaign,
    membership: Membership,
    roster_id: int,
    unit_id: int,
) -> HttpResponse:
    roster = found(selectors.roster_in(campaign, roster_id))
    unit = found(selectors.unit_in(roster, unit_id))
    run_or_forbid(request, lambda: unit_profile_remove(actor=request.user, unit=unit))
    return redirect("roster", campaign_id=campaign.pk, roster_id=roster.pk)


@campaign_page
def roster_export(
    request: HttpRequest, campaign: Campaign, membership: Membership, roster_id: int
) -> HttpResponse:
    roster = found(selectors.roster_in(campaign, roster_id))
    response = HttpResponse(
        json.dumps(selectors.roster_export(roster), indent=2), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="roster-{roster.pk}.json"'
    return response
