"""What a move does besides moving, said before the drop (rules/engine/consequences.py;
ui.md "One truth"): a loss, a roll and what it needs, a breakaway, the speed band."""

from rules import action_from_json, get_system, make_dice, validate
from tests.rules.scenes import scene, unit

ORDERS = {"orders_available": 3}


def preview(state, raw):
    """A preview's verdict: no die is rolled (design.md, "The life of a move" 6)."""
    return validate(state, action_from_json(raw, state), make_dice(unresolved=True))


def kinds(verdict):
    return [c.kind for c in verdict.consequences]


def test_a_grav_tank_driven_off_the_table_leaves_the_board_as_a_loss():
    # 003 Leaving the board 1: a piece that leaves the board may not return and counts as
    # a loss against its owner; the move itself is legal.
    state = scene(
        [unit("T1", type="grav", move=36, diameter=2, position=(44, 10))],
        width=48,
        height=48,
        system="lasergrenadiers",
    )
    verdict = preview(state, {"unit": "T1", "type": "move", "path": [[51, 10]]})
    assert verdict.legal
    loss = next(c for c in verdict.consequences if c.kind == "loses_unit")
    assert loss.unit == "T1"
    assert "leaves the board" in loss.text and "counts as a loss" in loss.text
    assert loss.done == "T1 left the board (a loss)"
    said = verdict.to_json()["consequences"]
    assert {"kind": "loses_unit", "unit": "T1"}.items() <= said[0].items()


def test_a_move_that_stays_on_the_table_says_only_its_speed_band_for_fire():
    # 003 Movement and fire 1-2: the band is the share of the original rate spent this
    # turn; 6" of 36" is slow (lasergrenadiers.md 8).
    state = scene(
        [unit("T1", type="grav", move=36, diameter=2, position=(10, 10))],
        width=48,
        height=48,
        system="lasergrenadiers",
    )
    verdict = preview(state, {"unit": "T1", "type": "move", "path": [[16, 10]]})
    assert kinds(verdict) == ["speed_band"]
    assert "slow" in verdict.consequences[0].text


def test_an_aod_unit_in_contact_previews_its_breakaway_roll_and_what_it_needs():
    # 000 [16]: a 'Mech in base contact with an opposing unit breaks away on 3-6.
    state = scene(
        [
            unit("M1", position=(10, 10), diameter=2),
            unit("M9", side="P2", position=(12, 10), diameter=2),
        ],
        state=ORDERS,
    )
    verdict = preview(state, {"unit": "M1", "type": "move", "path": [[6, 10]]})
    assert verdict.legal and verdict.pending
    breakaway = next(c for c in verdict.consequences if c.kind == "breakaway")
    assert "breaks away" in breakaway.text and "3-6 on d6" in breakaway.text


def test_an_illegal_move_says_no_consequence():
    # 000 [16]: 12" is beyond a 10" move; an illegal action changes nothing (contract).
    state = scene([unit("M1", position=(10, 10))], state=ORDERS)
    verdict = preview(state, {"unit": "M1", "type": "move", "path": [[22, 10]]})
    assert not verdict.legal and verdict.consequences == ()
    assert "consequences" not in verdict.to_json()


def test_a_plain_move_says_nothing_beyond_moving():
    state = scene([unit("M1", position=(10, 10))], state=ORDERS)
    assert preview(state, {"unit": "M1", "type": "move", "path": [[14, 10]]}).consequences == ()


def test_a_jump_that_falls_is_previewed_without_rolling_and_says_the_fall():
    # 002 Falling: a fall deals SC d6 damage; a preview rolls none of them (it used to
    # add the unrolled dice and raise).
    state = scene(
        [unit("H1", type="hover", move=6, size_class=1, position=(10, 10), diameter=2)],
        [
            {
                "id": "B1",
                "type": "elevated",
                "height": 4,
                "size_class": 2,
                "polygon": [[8, 8], [12, 8], [12, 12], [8, 12]],
            }
        ],
        state={"phase": 1},
        system="mswars",
    )
    verdict = preview(state, {"unit": "H1", "type": "jump", "path": [[15, 10]]})
    assert verdict.legal, verdict.reasons
    assert any(c.kind == "effect" and "falls from B1" in c.text for c in verdict.consequences)


def test_the_header_never_names_the_active_piece_once_it_has_left_the_board():
    # 003 Leaving the board 1: the piece is removed; its activation (LG-D31) is over, the
    # header line has no piece to name and the board nothing to highlight.
    structure = get_system("lasergrenadiers").turn_structure
    turn = {"turn": 1, "active_side": "P1", "sides": ["P1", "P2"], "active_unit": "T1"}
    here = scene([unit("T1", type="grav", move=36)], system="lasergrenadiers")
    gone = scene([], state={"left_board": ["T1"]}, system="lasergrenadiers")
    assert "T1" in structure.summary(turn, here) and structure.active_unit(turn, here) == "T1"
    assert "T1" not in structure.summary(turn, gone)
    assert structure.active_unit(turn, gone) is None
