"""The board's event log words each step of a take-back (static/js/board/panels/log.js,
run under Node; docs/protocol.md, "Take-backs")."""

from tests.web.test_log_wording import logged


def test_each_step_of_a_take_back_has_its_line() -> None:
    asked = {"kind": "takeback", "actor": "anna", "step": "asked", "order": 7}
    answer = {"request": 8, "order": 7, "asked_by": "anna"}
    declined = {"kind": "takeback", "actor": "ben", "step": "declined", **answer}
    withdrawn = {"kind": "takeback", "actor": "anna", "step": "withdrawn", **answer}
    accepted = {
        "kind": "undo",
        "actor": "ben",
        "undoes": 7,
        "reason": "Take-back: ben let anna take back #7",
        "takeback": {"step": "accepted", **answer},
    }
    assert logged(asked) == "anna asked to take back #7"
    assert logged(declined) == "ben declined anna's take-back of #7"
    assert logged(withdrawn) == "anna withdrew the take-back request of #7"
    assert logged(accepted) == "ben accepted anna's take-back: #7 undone"
    # The GM's own undo keeps its line.
    assert logged({"kind": "undo", "actor": "gm", "undoes": 7, "reason": "misclick"}) == (
        "gm undid #7: misclick"
    )
