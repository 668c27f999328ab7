"""Battle setup: map, rosters and sides; deployment inside the zones; start; the result."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from tabletop import selectors
from tabletop.forms import BattleForm, DeploymentForm, ResultForm
from tabletop.models import Battle, Campaign, Membership, Role
from tabletop.models.battle import BattleStatus
from tabletop.services import game_systems
from tabletop.services.battles import battle_create, battle_deploy, battle_start
from tabletop.services.results import battle_result_record
from tabletop.views.access import (
    campaign_page,
    found,
    render_form_page,
    require_gm,
    run_or_forbid,
    submit,
)


@campaign_page
def battle_new(request: HttpRequest, campaign: Campaign, membership: Membership) -> HttpResponse:
    require_gm(membership)
    form = BattleForm(
        request.POST or None,
        maps=campaign.maps.all(),
        rosters=campaign.rosters.select_related("owner"),
    )
    if request.method == "POST":

        def create() -> Battle:
            battle_map = found(selectors.map_in(campaign, int(form.cleaned_data["map"])))
            return battle_create(
                actor=request.user,
                campaign=campaign,
                battle_map=battle_map,
                name=form.cleaned_data["name"],
                sides=form.sides(),
                deployment_zones=form.cleaned_data["deployment_zones"],
                zone_depth=form.cleaned_data["zone_depth"],
            )

        battle, ok = submit(form, create)
        if ok:
            return redirect("battle", campaign_id=campaign.pk, battle_id=battle.pk)
    return render_form_page(
        request,
        "tabletop/battles/new.html",
        {"campaign": campaign, "form": form},
        invalid=request.method == "POST",
    )


def _battle_page(
    request: HttpRequest,
    campaign: Campaign,
    membership: Membership,
    battle: Battle,
    *,
    deployment_form: DeploymentForm | None = None,
    result_form: ResultForm | None = None,
    invalid: bool = False,
) -> HttpResponse:
    units = selectors.battle_units(battle)
    sides = list(battle.sides.select_related("roster__owner"))
    context = {
        "campaign": campaign,
        "battle": battle,
        "is_gm": membership.role == Role.GM,
        "units": units,
        "sides": sides,
        "terrain_kinds": game_systems.terrain_kinds(campaign.system),
        "deploying": battle.status == BattleStatus.DEPLOYMENT,
        "result": getattr(battle, "result", None)
        if battle.status == BattleStatus.FINISHED
        else None,
        "deployment_form": deployment_form or DeploymentForm(units=units),
        "result_form": result_form
        or ResultForm(sides=sorted({s.side for s in sides}), units=units),
    }
    return render_form_page(request, "tabletop/battles/detail.html", context, invalid=invalid)


@campaign_page
def battle_detail(
    request: HttpRequest, campaign: Campaign, membership: Membership, battle_id: int
) -> HttpResponse:
    battle = found(selectors.battle_in(campaign, battle_id))
    return _battle_page(request, campaign, membership, battle)


@require_POST
@campaign_page
def battle_deployment(
    request: HttpRequest, campaign: Campaign, membership: Membership, battle_id: int
) -> HttpResponse:
    battle = found(selectors.battle_in(campaign, battle_id))
    require_gm(membership)
    form = DeploymentForm(request.POST, units=selectors.battle_units(battle))
    _, ok = submit(
        form,
        lambda: battle_deploy(actor=request.user, battle=battle, placements=form.placements()),
        aliases=form.error_aliases(),
    )
    if ok:
        return redirect("battle", campaign_id=campaign.pk, battle_id=battle.pk)
    return _battle_page(request, campaign, membership, battle, deployment_form=form, invalid=True)


@require_POST
@campaign_page
def battle_begin(
    request: HttpRequest, campaign: Campaign, membership: Membership, battle_id: int
) -> HttpResponse:
    battle = found(selectors.battle_in(campaign, battle_id))
    require_gm(membership)
    run_or_forbid(request, lambda: battle_start(actor=request.user, battle=battle))
    return redirect("battle", campaign_id=campaign.pk, battle_id=battle.pk)


@require_POST
@campaign_page
def battle_result(
    request: HttpRequest, campaign: Campaign, membership: Membership, battle_id: int
) -> HttpResponse:
    battle = found(selectors.battle_in(campaign, battle_id))
    require_gm(membership)
    units = selectors.battle_units(battle)
    sides = sorted(set(battle.sides.values_list("side", flat=True)))
    form = ResultForm(request.POST, sides=sides, units=units)
    _, ok = submit(
        form,
        lambda: battle_result_record(
            actor=request.user,
            battle=battle,
            winner_side=form.cleaned_data["winner_side"],
            outcome=form.cleaned_data["outcome"],
            unit_fates=form.unit_fates(),
        ),
    )
    if ok:
        return redirect("battle", campaign_id=campaign.pk, battle_id=battle.pk)
    return _battle_page(request, campaign, membership, battle, result_form=form, invalid=True)
