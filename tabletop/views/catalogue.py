"""The campaign's catalogue of named unit profiles: the GM curates it, shares it as a file,
and players pick from it on their roster pages."""

import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from tabletop import selectors
from tabletop.forms import CatalogueImportForm, UnitForm
from tabletop.models import Campaign, Membership, Role
from tabletop.services.catalogue import (
    catalogue_import,
    catalogue_profile_add,
    catalogue_profile_remove,
    catalogue_profile_update,
    roster_pick,
)
from tabletop.views.access import (
    SignedInRequest,
    campaign_page,
    found,
    render_form_page,
    run_or_forbid,
    submit,
)
from tabletop.views.rosters import stat_rows


def _page(
    request: HttpRequest,
    campaign: Campaign,
    membership: Membership,
    *,
    unit_form: UnitForm | None = None,
    import_form: CatalogueImportForm | None = None,
    invalid: bool = False,
) -> HttpResponse:
    context = {
        "campaign": campaign,
        "is_gm": membership.role == Role.GM,
        "profiles": [(p, stat_rows(p.stats)) for p in campaign.catalogue.all()],
        "unit_form": unit_form or UnitForm(system=campaign.system),
        "import_form": import_form or CatalogueImportForm(),
    }
    return render_form_page(request, "tabletop/catalogue/list.html", context, invalid=invalid)


def _write(form: UnitForm) -> dict:
    data = form.cleaned_data
    return {
        "name": data["name"],
        "unit_type": data["unit_type"],
        "stats": form.stats(),
        "points": data["points"],
    }


@campaign_page
def catalogue(request: SignedInRequest, campaign: Campaign, membership: Membership) -> HttpResponse:
    """The list for every member; the GM adds a profile here (the service checks who)."""
    if request.method != "POST":
        return _page(request, campaign, membership)
    form = UnitForm(request.POST, system=campaign.system)
    profile, ok = submit(
        form,
        lambda: catalogue_profile_add(actor=request.user, campaign=campaign, **_write(form)),
        aliases=form.error_aliases(),
    )
    if ok:
        messages.success(request, f"Added {profile.name} to the catalogue.")
        return redirect("catalogue", campaign_id=campaign.pk)
    return _page(request, campaign, membership, unit_form=form, invalid=True)


@campaign_page
def catalogue_profile(
    request: SignedInRequest, campaign: Campaign, membership: Membership, profile_id: int
) -> HttpResponse:
    profile = found(campaign.catalogue.filter(pk=profile_id).first())
    form = UnitForm(
        request.POST or None, system=campaign.system, initial=UnitForm.initial_from(profile)
    )
    if request.method == "POST":
        _, ok = submit(
            form,
            lambda: catalogue_profile_update(actor=request.user, profile=profile, **_write(form)),
            aliases=form.error_aliases(),
        )
        if ok:
            messages.success(request, f"Saved {profile.name}.")
            return redirect("catalogue", campaign_id=campaign.pk)
    return render_form_page(
        request,
        "tabletop/catalogue/edit.html",
        {"campaign": campaign, "profile": profile, "form": form},
        invalid=request.method == "POST",
    )


@require_POST
@campaign_page
def catalogue_profile_delete(
    request: SignedInRequest, campaign: Campaign, membership: Membership, profile_id: int
) -> HttpResponse:
    profile = found(campaign.catalogue.filter(pk=profile_id).first())
    if run_or_forbid(
        request, lambda: catalogue_profile_remove(actor=request.user, profile=profile)
    ):
        messages.success(request, f"Removed {profile.name} from the catalogue.")
    return redirect("catalogue", campaign_id=campaign.pk)


@campaign_page
def catalogue_export(
    request: HttpRequest, campaign: Campaign, membership: Membership
) -> HttpResponse:
    response = HttpResponse(
        json.dumps(selectors.catalogue_file(campaign), indent=1), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="catalogue-{campaign.pk}.json"'
    return response


@require_POST
@campaign_page
def catalogue_upload(
    request: SignedInRequest, campaign: Campaign, membership: Membership
) -> HttpResponse:
    form = CatalogueImportForm(request.POST, request.FILES)
    counts, ok = submit(
        form,
        lambda: catalogue_import(
            actor=request.user, campaign=campaign, data=form.cleaned_data["file"]
        ),
        aliases={"data": "file"},
    )
    if ok:
        added, replaced = counts
        messages.success(
            request, f"Imported the catalogue file: {added} profiles added, {replaced} replaced."
        )
        return redirect("catalogue", campaign_id=campaign.pk)
    return _page(request, campaign, membership, import_form=form, invalid=True)


@require_POST
@campaign_page
def catalogue_pick(
    request: SignedInRequest, campaign: Campaign, membership: Membership, roster_id: int
) -> HttpResponse:
    """A player's pick from the catalogue into their roster (the roster page's button)."""
    roster = found(selectors.roster_in(campaign, roster_id))
    profile_id = request.POST.get("profile", "")
    profile = found(
        campaign.catalogue.filter(pk=int(profile_id)).first() if profile_id.isdigit() else None
    )
    if run_or_forbid(
        request, lambda: roster_pick(actor=request.user, roster=roster, profile=profile)
    ):
        messages.success(request, f"Added {profile.name} from the catalogue.")
    return redirect("roster", campaign_id=campaign.pk, roster_id=roster.pk)
