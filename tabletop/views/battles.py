"""Battle setup: map, rosters and sides; deployment inside the zones; start; the result."""

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from tabletop import selectors
from tabletop.forms import BattleForm, DeploymentForm, ResultForm
from tabletop.models import Battle, Campaign, Membership, Role
from tabletop.models.battle import BattleStatus
from tabletop.records.horizon import battle_seen, horizon
from tabletop.services import game_systems
from tabletop.services.battles import battle_create, battle_deploy, battle_start
from tabletop.services.errors import PermissionDenied, ServiceError
from tabletop.services.inputs import parse_json
from tabletop.services.results import battle_result_correct, battle_result_record
from tabletop.views.access import (
    SignedInRequest,
    campaign_page,
    found,
    render_form_page,
    require_gm,
    run_or_forbid,
    submit,
)


@campaign_page
def battle_new(
    request: SignedInRequest, campaign: Campaign, membership: Membership
) -> HttpResponse:
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
    correction_form: ResultForm | None = None,
    invalid: bool = False,
) -> HttpResponse:
    # A spectator of a delayed table sees it as it was at their horizon, as on the socket
    # and in the record: the position, the units, the status and the result.
    seen = battle_seen(battle, horizon(battle, membership.role))
    units = selectors.battle_units(battle, seen.state)
    sides = list(battle.sides.select_related("roster__owner"))
    is_gm = membership.role == Role.GM
    own_rosters = {s.roster_id for s in sides if s.roster.owner_id == request.user.pk}
    placeable = [
        unit_id
        for unit_id, label in battle.unit_labels.items()
        if is_gm or label.get("roster") in own_rosters
    ]
    context = {
        "campaign": campaign,
        "battle": battle,
        "seen": seen,
        "is_gm": is_gm,
        "units": units,
        "sides": sides,
        "terrain_kinds": game_systems.terrain_kinds(campaign.system),
        "terrain_unstyled": game_systems.unstyled_terrain(),
        "deploying": battle.status == BattleStatus.DEPLOYMENT,
        # What this member may drag while deploying: the GM any unit, a player their own.
        "placeable": placeable if battle.status == BattleStatus.DEPLOYMENT else [],
        "result": seen.result,
        "deployment_form": deployment_form or DeploymentForm(units=units),
        "result_form": result_form
        or ResultForm(sides=sorted({s.side for s in sides}), units=units),
        "corrections": list(seen.result.corrections.select_related("corrected_by"))
        if seen.result
        else [],
        "correction_form": correction_form
        or (
            ResultForm(
                sides=sorted({s.side for s in sides}),
                units=units,
                initial=ResultForm.initial_from(seen.result),
                prefix="correct",
            )
            if seen.result and is_gm
            else None
        ),
        "correcting": correction_form is not None,
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
    request: SignedInRequest, campaign: Campaign, membership: Membership, battle_id: int
) -> HttpResponse:
    battle = found(selectors.battle_in(campaign, battle_id))
    if request.content_type == "application/json":
        return _place_by_drag(request, battle)
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


def _place_by_drag(request: SignedInRequest, battle: Battle) -> JsonResponse:
    """One unit dropped on the battle page's table: {"unit", "position", "facing"} in,
    {"unit", "position", "facing"} out as the server placed it, or {"error"} and why.
    The service decides who may place what (the GM any unit, a player their own)."""
    try:
        body = parse_json(request.body.decode("utf-8", "replace"), field="placement")
        if not isinstance(body, dict) or not isinstance(body.get("unit"), str):
            raise ServiceError("A placement is {unit, position, facing}.")
        unit_id = body["unit"]
        placement = {"position": body.get("position"), "facing": body.get("facing", 0)}
        placed = battle_deploy(actor=request.user, battle=battle, placements={unit_id: placement})
    except PermissionDenied as refused:
        return JsonResponse({"error": refused.message}, status=403)
    except ServiceError as refused:
        return JsonResponse({"error": refused.message}, status=400)
    unit = next(u for u in placed.state["units"] if u["id"] == unit_id)
    return JsonResponse({"unit": unit_id, "position": unit["position"], "facing": unit["facing"]})


@require_POST
@campaign_page
def battle_begin(
    request: SignedInRequest, campaign: Campaign, membership: Membership, battle_id: int
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
    form, ok = _submit_result(request, battle, battle_result_record)
    if ok:
        return redirect("battle", campaign_id=campaign.pk, battle_id=battle.pk)
    return _battle_page(request, campaign, membership, battle, result_form=form, invalid=True)


def _submit_result(
    request: HttpRequest, battle: Battle, write: Callable[..., object], prefix: str | None = None
) -> tuple[ResultForm, bool]:
    """The posted result form, and whether `write` (record or correct) took it."""
    units = selectors.battle_units(battle)
    sides = sorted(set(battle.sides.values_list("side", flat=True)))
    form = ResultForm(request.POST, sides=sides, units=units, prefix=prefix)
    _, ok = submit(
        form,
        lambda: write(
            actor=request.user,
            battle=battle,
            winner_side=form.cleaned_data["winner_side"],
            outcome=form.cleaned_data["outcome"],
            unit_fates=form.unit_fates(),
        ),
    )
    return form, ok


@require_POST
@campaign_page
def battle_result_correction(
    request: HttpRequest, campaign: Campaign, membership: Membership, battle_id: int
) -> HttpResponse:
    """The GM corrects a recorded result (audited: services.results.battle_result_correct)."""
    battle = found(selectors.battle_in(campaign, battle_id))
    form, ok = _submit_result(request, battle, battle_result_correct, prefix="correct")
    if ok:
        messages.success(request, "Result corrected; the correction is kept below.")
        return redirect("battle", campaign_id=campaign.pk, battle_id=battle.pk)
    return _battle_page(request, campaign, membership, battle, correction_form=form, invalid=True)
