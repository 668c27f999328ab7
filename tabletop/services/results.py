"""Recording a battle's result, and writing the fate of every unit back to its roster."""

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from tabletop.models import Battle, BattleResult, ResultCorrection, UnitProfile
from tabletop.models.battle import BattleStatus
from tabletop.models.roster import UnitStatus
from tabletop.services.errors import ServiceError
from tabletop.services.log import campaign_log_add
from tabletop.services.permissions import require_gm
from tabletop.storable import MESSAGE as UNSTORABLE_MESSAGE
from tabletop.storable import storable


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


def _clean_result(
    battle: Battle, winner_side: Any, outcome: Any, unit_fates: Any
) -> tuple[str, str, dict[str, str]]:
    sides = set(battle.sides.values_list("side", flat=True))
    if not isinstance(winner_side, str) or (winner_side and winner_side not in sides):
        raise ServiceError(f"No side {winner_side!r} fought in this battle.", field="winner_side")
    if not isinstance(outcome, str) or not outcome.strip() or len(outcome.strip()) > 200:
        raise ServiceError("Describe the outcome in at most 200 characters.", field="outcome")
    if not storable(outcome):
        raise ServiceError(f"The outcome {UNSTORABLE_MESSAGE}.", field="outcome")
    return winner_side, outcome.strip(), _clean_fates(battle, unit_fates)


def _winner_words(winner_side: str) -> str:
    return f"side {winner_side} won" if winner_side else "a draw"


@transaction.atomic
def battle_result_record(
    *,
    actor: User,
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
    winner_side, outcome, fates = _clean_result(battle, winner_side, outcome, unit_fates)
    for profile_id, fate in fates.items():
        UnitProfile.objects.filter(pk=profile_id).update(status=fate)
    battle.status = BattleStatus.FINISHED
    battle.save(update_fields=["status"])
    result = BattleResult.objects.create(
        battle=battle,
        winner_side=winner_side,
        outcome=outcome,
        unit_fates=fates,
        recorded_by=actor,
    )
    campaign_log_add(
        campaign=battle.campaign,
        actor=actor,
        text=f"{battle.name}: {_winner_words(winner_side)}. {result.outcome}",
    )
    return result


@transaction.atomic
def battle_result_correct(
    *,
    actor: User,
    battle: Battle,
    winner_side: str,
    outcome: str,
    unit_fates: dict[str, str],
) -> ResultCorrection:
    """The GM corrects a recorded result. Each value changed is kept with its old and new
    value, who changed it and when (ResultCorrection), and told in the campaign log; a
    unit whose fate changes gets the new fate in its roster, unless something since (a
    later battle) changed it already."""
    require_gm(actor, battle.campaign)
    battle = Battle.objects.select_for_update().get(pk=battle.pk)
    result = BattleResult.objects.filter(battle=battle).first()
    if result is None:
        raise ServiceError("This battle has no result to correct yet.")
    winner_side, outcome, fates = _clean_result(battle, winner_side, outcome, unit_fates)
    changes = []
    if winner_side != result.winner_side:
        changes.append(
            _change("Winner", _winner_words(result.winner_side), _winner_words(winner_side))
        )
    if outcome != result.outcome:
        changes.append(_change("Outcome", result.outcome, outcome))
    names = {str(label["profile"]): label.get("name", "") for label in battle.unit_labels.values()}
    status_words = dict(UnitStatus.choices)
    for profile_id, fate in fates.items():
        before = result.unit_fates.get(profile_id, UnitStatus.READY.value)
        if fate == before:
            continue
        changes.append(
            _change(
                f"Fate of {names.get(profile_id) or profile_id}",
                str(status_words.get(before, before)),
                str(status_words[fate]),
            )
        )
        UnitProfile.objects.filter(pk=profile_id, status=before).update(status=fate)
    if not changes:
        raise ServiceError("Nothing to correct: that is the result as recorded.")
    result.winner_side, result.outcome, result.unit_fates = winner_side, outcome, fates
    result.save(update_fields=["winner_side", "outcome", "unit_fates"])
    correction = ResultCorrection.objects.create(result=result, corrected_by=actor, changes=changes)
    said = "; ".join(f"{c['field']}: {c['old']} → {c['new']}" for c in changes)
    campaign_log_add(
        campaign=battle.campaign,
        actor=actor,
        text=f"{actor} corrected the result of {battle.name}: {said}",
    )
    return correction


def _change(field: str, old: str, new: str) -> dict[str, str]:
    return {"field": field, "old": old, "new": new}
