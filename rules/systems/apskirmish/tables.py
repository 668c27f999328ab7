"""The action-point skirmish game's tables and vocabularies, as data (apskirmish.md 2-7)."""

from __future__ import annotations

from dataclasses import dataclass

#: Movement for 1 AP by stance, inches (004 Standard Movement).
STANCE_MOVE: dict[str, float] = {"standing": 3.0, "crouching": 2.0, "prone": 1.0}
#: A unit without a stance stands (the stance table's first row).
DEFAULT_STANCE = "standing"

UNIT_TYPES = ("soldier",)
ON_FAIL = ("shorten", "threshold", "stop")


@dataclass(frozen=True)
class ActionRow:
    """One action: its AP, label, path shape, and the rule it comes from."""

    ap: int
    label: str
    path: str
    cite: str
    help: str
    drag: bool = False
    keys: tuple[str, ...] = ()
    #: Part of an activation (not_your_turn applies, `activated` is set); a Dodge is not.
    activates: bool = True


ACTIONS: dict[str, ActionRow] = {
    "move": ActionRow(
        1,
        "Move",
        "straight",
        "004 Standard Movement",
        '1 AP: one straight line of up to the stance distance (3" standing, '
        '2" crouching, 1" prone), measured front to front.',
        drag=True,
    ),
    "run": ActionRow(
        3,
        "Run",
        "straight",
        "004 Running",
        "3 AP together: a Standing soldier moves one straight line of up to "
        '9" and is marked Running.',
        drag=True,
    ),
    "traverse": ActionRow(
        1,
        "Traverse",
        "placement",
        "004 Obstacles",
        '1 AP: climb over the obstacle within 1" in the direction given (an INS Traverse roll).',
    ),
    "dodge": ActionRow(
        1,
        "Dodge",
        "none",
        "004 Dodging",
        "A reaction to an attack: 1 AP (or 1 Threshold once activated) to "
        "move 1\" away from the attack's source.",
        keys=("source",),
        activates=False,
    ),
}

#: A run spends this many AP moves in one line (004 Running, APS-D25).
RUN_MOVES = 3
#: What a failed Terrain roll takes off the allowance, inches (004 Rough Terrain).
FAILED_ROLL_LOSS = 1.0
#: How far a successful Dodge moves the centre, inches (004 Dodging).
DODGE_DISTANCE = 1.0
#: How close to an obstacle a Traverse may begin, base edge to obstacle (APS-D6).
TRAVERSE_REACH = 1.0


@dataclass(frozen=True)
class RollRow:
    """A roll the seed names: the stat it is made against, its rule, what it decides,
    and what a soldier waiting for the GM's result is told ({who}: the soldier)."""

    stat: str
    label: str
    cite: str
    decides: str
    awaited: str


#: The seed's movement rolls (apskirmish.md 6). The Dodge names no stat; it is an
#: instinct, so INS is rolled against (APS-D1 leaves the dice to the table).
ROLLS: dict[str, RollRow] = {
    "terrain": RollRow(
        "PSQ",
        "Terrain roll (Normal PSQ)",
        "004 Rough Terrain",
        "whether the move over rough ground keeps its full length",
        "{who}'s line of movement passes over rough ground: the GM must give the Terrain "
        "roll's result",
    ),
    "traverse": RollRow(
        "INS",
        "Traverse roll (INS)",
        "004 Obstacles",
        "whether the soldier reaches the far side of the obstacle",
        "{who} must make a Traverse roll: the GM must give its result",
    ),
    "dodge": RollRow(
        "INS",
        "Dodge roll (Normal)",
        "004 Dodging",
        'whether the soldier dodges 1" away',
        "{who} dodges: the GM must give the Dodge roll's result",
    ),
}

#: Table option `tests` (APS-D1): the engine rolls 1d10, or the GM enters each result.
TEST_MODES = ("d10", "gm")
DEFAULT_TESTS = "d10"
#: The die of the d10 mode and how far one Success Level moves the target (APS-D1).
TEST_DIE = 10
LEVEL_STEP = 2
#: AP per round when the roster gives no `ap_max` (table option `ap_per_round`, APS-D22).
DEFAULT_AP_PER_ROUND = 3
