"""Recording a battle's result, and writing the fate of every unit back to its roster."""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from tabletop.models import Battle, BattleResult, UnitProfile
from tabletop.models.battle import BattleStatus
from tabletop.models.roster import UnitStatus
from tabletop.services.errors import ServiceError
from tabletop.services.log import campaign_log_add
from tabletop.services.permissions import require_gm


def _clean_fates(battle: Battle, unit_fates: Any) -> dict[str, str]:
    """{profile id: fate} for every unit that fought; a unit not named survived ("ready")."""
    if not isinstance(unit_fates, dict):
        raise ServiceError("Unit fates are {unit: fate}.", field="unit_fates")
    fought = {str(label["profile"]) for label in battle.unit_labels.values()}
    fates = dict.fromkeys(sorted(fought), UnitStatus.READY.value)
    for profile_id, fate in unit_fates.items():
        if str(profile_id) not in fought:
            raise ServiceError(
                f"Unit {profile_id} did not fight in this battle.", field="unit_fates"
            )
        if fate not in UnitStatus.values:
            raise ServiceError(
                f"A unit's fate is one of {', '.join(UnitStatus.values)}, not {fate!r}.",
                field="unit_fates",
            )
        fates[str(profile_id)] = fate
    return fates


@transaction.atomic
def battle_result_record(
    *,
    actor: AbstractBaseUser,
    battle: Battle,
    winner_side: str,
    outcome: str,
    unit_fates: dict[str, str],
) -> BattleResult:
    """Finishes the battle. Destroyed units are gone from the roster's strength;
    units that left the board are marked so and return next battle (seed 003)."""
    require_gm(actor, battle.campaign)
    battle = Battle.objects.select_for_update().get(pk=battle.pk)
    if battle.status == BattleStatus.FINISHED:
        raise ServiceError("This battle's result is already recorded.")
    sides = set(battle.sides.values_list("side", flat=True))
    if winner_side and winner_side not in sides:
        raise ServiceError(f"No side {winner_side!r} fought in this battle.", field="winner_side")
    if not isinstance(outcome, str) or not outcome.strip() or len(outcome.strip()) > 200:
        raise ServiceError("Describe the outcome in at most 200 characters.", field="outcome")
    fates = _clean_fates(battle, unit_fates)
    for profile_id, fate in fates.items():
        UnitProfile.objects.filter(pk=profile_id).update(status=fate)
    battle.status = BattleStatus.FINISHED
    battle.save(update_fields=["status"])
    result = BattleResult.objects.create(
        battle=battle,
        winner_side=winner_side,
        outcome=outcome.strip(),
        unit_fates=fates,
        recorded_by=actor,
    )
    winner = f"side {winner_side} won" if winner_side else "a draw"
    campaign_log_add(
        campaign=battle.campaign, actor=actor, text=f"{battle.name}: {winner}. {result.outcome}"
    )
    return result
