"""The campaign at a glance: standings over its battles (a small chart), each battle with
its report, and what each battle cost each roster (from the recorded results)."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from html import escape
from typing import TYPE_CHECKING

from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone

from tabletop.models import (
    Battle,
    BattleResult,
    Campaign,
    CampaignLogEntry,
    Role,
    Roster,
    UnitProfile,
)
from tabletop.models.battle import BattleStatus
from tabletop.models.roster import UnitStatus
from tabletop.records.report_svg import tag
from tabletop.records.side_colours import colour_at

if TYPE_CHECKING:
    from tabletop.selectors import RosterWithPoints

#: League points, as `selectors.Standing.score` counts them.
WIN, DRAW = 3, 1


@dataclass
class Cost:
    """What one battle cost one roster: units destroyed, units that left the board."""

    destroyed: list[str] = field(default_factory=list)
    off_board: list[str] = field(default_factory=list)
    points: int = 0

    def __bool__(self) -> bool:
        return bool(self.destroyed or self.off_board)


@dataclass
class Glance:
    campaign: Campaign
    battles: list[Battle]
    #: The finished battles with a result, in the order their results were recorded.
    finished: list[Battle]
    rosters: list[Roster]
    #: {roster id: [score before the first battle, after each finished battle, ...]}
    scores: dict[int, list[int]]
    #: {roster id: {battle id: Cost}}
    costs: dict[int, dict[int, Cost]]

    def rows(self) -> list[tuple[Roster, str, list[Cost | None]]]:
        """Per roster: its colour and its cost in each finished battle (None: not there)."""
        return [
            (roster, colour(i), [self.costs[roster.pk].get(b.pk) for b in self.finished])
            for i, roster in enumerate(self.rosters)
        ]


def colour(index: int) -> str:
    return colour_at(index)


@dataclass(frozen=True)
class CampaignSeen:
    """What a member may not see yet of a campaign: a spectator, the results of delayed
    battles recorded less than their delay ago (docs/protocol.md, `set_delay`)."""

    #: The battles whose result is not yet the reader's to see (still in play, to them).
    hidden: frozenset[int] = frozenset()
    #: The campaign log is shown up to (not including) this moment: the first hidden
    #: result's, whose log line tells it. None: all of it.
    log_before: datetime | None = None

    def battles(self, battles: Iterable[Battle]) -> list[Battle]:
        """The battles, those with a hidden result still in play as far as the page says
        (in memory only: these instances are read, never saved)."""
        shown = list(battles)
        for battle in shown:
            if battle.pk in self.hidden:
                battle.status = BattleStatus.ACTIVE
        return shown

    def log(self, entries: Iterable[CampaignLogEntry]) -> list[CampaignLogEntry]:
        before = self.log_before
        return [e for e in entries if before is None or e.created_at < before]

    def fates(self) -> dict[int, str]:
        """{unit profile id: fate} the hidden results wrote back to the rosters."""
        if not self.hidden:
            return {}
        recorded = BattleResult.objects.filter(battle_id__in=self.hidden).values_list(
            "unit_fates", flat=True
        )
        return {int(unit): fate for fates in recorded for unit, fate in fates.items()}

    def units(self, units: Iterable[UnitProfile]) -> list[UnitProfile]:
        """A roster's units as before the hidden results: each that fought in one was
        ready then, as every unit that fights is (in memory only: read, never saved)."""
        fought = self.fates()
        shown = list(units)
        for unit in shown:
            if unit.pk in fought:
                unit.status = UnitStatus.READY
        return shown

    def rosters(self, rosters: "QuerySet[RosterWithPoints]") -> "list[RosterWithPoints]":
        """Rosters with `points` and `unit_count` (selectors.rosters_with_points) counting
        again the units a hidden result destroyed."""
        shown = list(rosters)
        if not self.hidden:
            return shown
        by_id = {r.pk: r for r in shown}
        destroyed = [unit for unit, fate in self.fates().items() if fate == UnitStatus.DESTROYED]
        for unit in UnitProfile.objects.filter(pk__in=destroyed).only("points", "roster_id"):
            roster = by_id.get(unit.roster_id)
            if roster is not None:
                roster.points = (roster.points or 0) + unit.points
                roster.unit_count += 1
        return shown


def campaign_seen(campaign: Campaign, role: str) -> CampaignSeen:
    """Everything for the GM and the players; for a spectator, nothing of a delayed
    battle's result recorded less than its delay ago."""
    if role != Role.SPECTATOR:
        return CampaignSeen()
    now = timezone.now()
    recorded = BattleResult.objects.filter(
        battle__campaign=campaign, battle__spectator_delay_s__gt=0
    ).values_list("battle_id", "recorded_at", "battle__spectator_delay_s")
    hidden = {(b, at) for b, at, delay_s in recorded if at > now - timedelta(seconds=delay_s)}
    if not hidden:
        return CampaignSeen()
    return CampaignSeen(frozenset(b for b, _ in hidden), min(at for _, at in hidden))


def campaign_glance(campaign: Campaign, seen: CampaignSeen | None = None) -> Glance:
    battles = (seen or CampaignSeen()).battles(
        campaign.battles.select_related("map", "result").prefetch_related("sides__roster")
    )
    finished = sorted(
        (b for b in battles if b.status == BattleStatus.FINISHED and hasattr(b, "result")),
        key=lambda b: (b.result.recorded_at, b.pk),
    )
    rosters = list(campaign.rosters.order_by("name", "id"))
    scores = {r.pk: [0] for r in rosters}
    costs: dict[int, dict[int, Cost]] = {r.pk: {} for r in rosters}
    profiles = {
        str(p.pk): p for p in UnitProfile.objects.filter(roster__campaign=campaign).only(
            "name", "points", "roster_id"
        )
    }  # fmt: skip
    for battle in finished:
        result = battle.result
        fought = {side.roster_id: side.side for side in battle.sides.all()}
        for roster_id, series in scores.items():
            side = fought.get(roster_id)
            gained = 0
            if side is not None:
                costs[roster_id][battle.pk] = Cost()
                gained = (
                    DRAW if not result.winner_side else WIN if side == result.winner_side else 0
                )
            series.append(series[-1] + gained)
        for profile_id, fate in result.unit_fates.items():
            profile = profiles.get(str(profile_id))
            if profile is None or fate == UnitStatus.READY:
                continue
            cost = costs.get(profile.roster_id, {}).setdefault(battle.pk, Cost())
            if fate == UnitStatus.DESTROYED:
                cost.destroyed.append(profile.name)
                cost.points += profile.points
            elif fate == UnitStatus.OFF_BOARD:
                cost.off_board.append(profile.name)
    return Glance(campaign, battles, finished, rosters, scores, costs)


def _tie_offsets(glance: Glance) -> dict[int, float]:
    """{roster id: vertical offset (px)}: each roster's line drawn a little apart from the
    others, the same all along it, so rosters level with each other show side by side (a
    flat line stays flat); 4 px apart, closer when there are many, 16 px in all at most."""
    count = len(glance.rosters)
    gap = min(4.0, 16.0 / max(count - 1, 1))
    return {r.pk: (i - (count - 1) / 2) * gap for i, r in enumerate(glance.rosters)}


def standings_chart(glance: Glance, width: float = 560, height: float = 220) -> str:
    """Each roster's score after each finished battle, one line a roster; each battle's
    name on the axis links to its report."""
    left, right, top, bottom = 36.0, 150.0, 14.0, 44.0
    count = len(glance.finished)
    best = max([1, *(max(s) for s in glance.scores.values())])
    plot_w, plot_h = width - left - right, height - top - bottom

    def at(i: int, score: int) -> tuple[float, float]:
        x = left + (plot_w * i / count if count else 0)
        return x, top + plot_h * (1 - score / best)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="campaign-chart" viewBox="0 0 {width:g} '
        f'{height:g}" width="{width:g}" height="{height:g}" role="img" '
        'aria-labelledby="campaign-chart-title" '
        'font-family="system-ui, sans-serif" font-size="11">',
        f'<title id="campaign-chart-title">Standings over the battles of '
        f"{escape(glance.campaign.name)}</title>",
    ]
    axis = {"stroke": "#6b7178", "stroke_width": "1"}
    parts.append(tag("line", {"x1": left, "y1": top, "x2": left, "y2": top + plot_h, **axis}))
    parts.append(
        tag(
            "line",
            {"x1": left, "y1": top + plot_h, "x2": left + plot_w, "y2": top + plot_h, **axis},
        )
    )
    for score in sorted({0, best // 2, best}):
        _, y = at(0, score)
        grid = {"x1": left, "y1": y, "x2": left + plot_w, "y2": y, "stroke": "#e1e4e8"}
        if score:  # the axis is the line at 0
            parts.append(tag("line", {"class_": "grid", **grid}))
        parts.append(tag("text", {"x": left - 6, "y": y + 4, "text_anchor": "end"}, str(score)))
    turned = f"rotate(-90 {left - 26:g} {top + plot_h / 2:g})"
    axis_title = {"x": left - 26, "y": top + plot_h / 2, "text_anchor": "middle"}
    parts.append(tag("text", {"class_": "axis-title", **axis_title, "transform": turned}, "points"))
    labels = ["start", *(b.name for b in glance.finished)]
    for i, label in enumerate(labels):
        x, y = at(i, 0)
        short = escape(label if len(label) <= 14 else label[:13] + "…")
        # Below the lowest tick ("0"); the last battle's name ends at the axis' end, clear of
        # the names beside the plot.
        anchor = "end" if i and i == count else "middle"
        text = tag("text", {"x": x, "y": y + 19, "text_anchor": anchor}, short)
        if i == 0:
            parts.append(text)
            continue
        battle = glance.finished[i - 1]
        href = reverse("battle_report", args=[battle.pk])
        title = f"<title>{escape(battle.name)}: the battle report</title>"
        parts.append(tag("a", {"href": href, "class_": "battle-link"}, title + text))
    dodge = _tie_offsets(glance)
    for i, roster in enumerate(glance.rosters):
        series = glance.scores[roster.pk]
        drawn = [(x, y + dodge[roster.pk]) for x, y in map(at, range(len(series)), series)]
        points = " ".join(f"{x:g},{y:g}" for x, y in drawn)
        stroke = {"stroke": colour(i), "stroke_width": "2.5", "fill": "none"}
        parts.append(tag("polyline", {"points": points, "data_roster": roster.pk, **stroke}))
        for j, score in enumerate(series):
            x, y = drawn[j]
            where = "at the start" if j == 0 else f"after {glance.finished[j - 1].name}"
            title = f"<title>{escape(roster.name)} {escape(where)}: {score}</title>"
            parts.append(tag("circle", {"cx": x, "cy": y, "r": "3.5", "fill": colour(i)}, title))
        y = top + 14 * i + 6
        parts.append(
            tag("rect", {"x": width - right + 12, "y": y - 8, "width": "10", "height": "10",
                         "fill": colour(i)})
        )  # fmt: skip
        name = roster.name if len(roster.name) <= 14 else roster.name[:13] + "…"
        told = f"<title>{escape(roster.name)}: {series[-1]} points</title>"
        legend = {
            "x": width - right + 27,
            "y": y + 1,
            "class_": "roster-label",
            "data_roster": roster.pk,
        }
        parts.append(tag("text", legend, told + escape(f"{name}: {series[-1]}")))
    parts.append("</svg>")
    return "\n".join(parts)
