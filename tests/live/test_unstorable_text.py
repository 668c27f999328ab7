"""Text the database cannot store (NUL, a lone surrogate) is refused where it comes in.

PostgreSQL refuses `\\u0000` in jsonb and UTF-8 has no lone surrogates: such text used to
come back as `server_error`, for ever on resend (issue 15). The protocol answers
`malformed` (docs/protocol.md, Errors), and every form refuses it at the field.
"""

import json

import pytest

from tabletop.account_forms import SignupForm
from tabletop.forms import CampaignForm, RosterImportForm

pytestmark = pytest.mark.django_db(transaction=True)

NUL = "\u0000"
SURROGATE = "\ud800"


def raw(frame: dict) -> str:
    """The frame as a hostile client writes it: JSON escapes for what UTF-8 cannot carry."""
    return json.dumps(frame)  # ensure_ascii: "\\u0000", "\\ud800"


@pytest.mark.parametrize("bad", [NUL, SURROGATE], ids=["nul", "lone surrogate"])
@pytest.mark.parametrize(
    "who, frame, field",
    [
        ("p1", {"type": "chat", "id": "c-1", "text": "gg{bad}"}, "text"),
        ("p1", {"type": "roll", "id": "r-1", "dice": 1, "sides": 6, "what": "a{bad}"}, "what"),
        ("gm", {"type": "undo", "id": "u-1", "reason": "oops{bad}"}, "reason"),
    ],
    ids=["chat", "roll label", "undo reason"],
)
async def test_text_the_database_cannot_store_is_malformed(table, who, frame, field, bad):
    frame = {k: v.replace("{bad}", bad) if isinstance(v, str) else v for k, v in frame.items()}
    socket = getattr(table, who)
    await socket.send_text(raw(frame))
    error = await socket.get("error", "ack")
    assert (error["type"], error["code"], error["field"]) == ("error", "malformed", field)
    assert error["ref"] == frame["id"]
    # The connection stays usable, and the same frame is refused again, not stored.
    await socket.send_text(raw(frame))
    assert (await socket.get("error", "ack"))["code"] == "malformed"


async def test_an_unstorable_key_of_an_action_is_malformed(table):
    action = {"unit": table.u1, "type": "move", "path": [[1.5, 6.5]], "note": {"k" + NUL: 1}}
    await table.p1.send_text(raw({"type": "act", "id": "m-1", "seen": 0, "action": action}))
    assert (await table.p1.get("error", "ack"))["code"] == "malformed"


@pytest.mark.parametrize("bad", [NUL, SURROGATE], ids=["nul", "lone surrogate"])
def test_a_json_field_of_a_form_refuses_unstorable_text(bad):
    escaped = json.dumps({"name": "x" + bad})
    form = RosterImportForm(data={"data": escaped})
    assert not form.is_valid()
    assert "cannot be stored" in str(form.errors)


def test_a_text_field_of_a_form_refuses_nul():
    form = CampaignForm(data={"name": "A" + NUL + "campaign"})
    assert not form.is_valid() and "name" in form.errors


def test_the_signup_form_refuses_nul():
    data = {"username": "an" + NUL + "na", "email": "a@example.com"}
    form = SignupForm(data={**data, "password1": "x7!Kq2#pLm", "password2": "x7!Kq2#pLm"})
    assert not form.is_valid() and "username" in form.errors
