"""The position hash's canonical form is RFC 8785 (JCS), so a browser reproduces it
(docs/protocol.md, snapshot `hash`; issue 15).

It was Python's JSON (`\\u` escapes, `1e-05`), which a browser cannot write for non-ASCII
names or small numbers. The board now checks each event's hash (static/js/board/state.js)
with static/js/board/jcs.js: the two must agree byte for byte, which Chromium checks here.
"""

import asyncio
import hashlib
import json

import pytest
import rfc8785

from tabletop.services.table.position import hashed_form, position_hash
from tests.conftest import ROOT
from tests.live.conftest import move

TURN = {"turn": 2, "active_side": "P2", "sides": ["P1", "P2"]}
POSITIONS = [
    {
        "system": "aod",
        "table": {"width": 36, "height": 36.0},
        "units": [
            {"id": "U9", "name": "Zoë's Łódź walker", "position": [1e-05, 2.5], "facing": 90.0},
            {"id": "U10", "name": "東京 🚀", "position": [1e-7, 0.1], "facing": 359.99999},
            {"id": "Ü1", "name": '\u00e9\u0301 tab\tquote" back\\slash', "position": [1e21, -0.0]},
        ],
        "state": {"orders_used": 1, "note": "\u2028\u2029\u007f", "ratio": 1 / 3},
    },
    {"system": "aod", "units": [], "state": {"tiny": 5e-324, "huge": 1.7976931348623157e308}},
]


def test_the_hash_is_sha256_of_the_jcs_of_state_and_turn_with_units_sorted_by_id():
    state = POSITIONS[0]
    units = sorted(state["units"], key=lambda u: u["id"])
    expected = hashlib.sha256(rfc8785.dumps({"state": {**state, "units": units}, "turn": TURN}))
    assert position_hash(state, TURN) == expected.hexdigest()


def test_the_canonical_form_writes_numbers_as_ecmascript_and_text_as_utf8():
    form = hashed_form(POSITIONS[0], TURN).decode("utf-8")
    assert "[0.00001,2.5]" in form and '"facing":90,' in form and "1e+21" in form
    assert "Zoë's Łódź" in form and "東京 🚀" in form and "\\u" not in form
    # Units by id in UTF-16 code units, the order JCS sorts keys in: U10 < U9 < Ü1.
    assert [u["id"] for u in json.loads(form)["state"]["units"]] == ["U10", "U9", "Ü1"]


def test_the_order_of_units_does_not_change_the_hash():
    state = POSITIONS[0]
    shuffled = {**state, "units": state["units"][::-1]}
    assert position_hash(shuffled, TURN) == position_hash(state, TURN)


@pytest.mark.browser
def test_chromium_computes_the_same_form_and_hash_as_the_server(chromium_path):
    from playwright.sync_api import sync_playwright

    module = (ROOT / "static/js/board/jcs.js").read_text()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=["--no-sandbox"])
        page = browser.new_page()

        def serve(route):
            if route.request.url.endswith("/jcs.js"):
                route.fulfill(body=module, content_type="text/javascript")
            else:
                route.fulfill(body="<!doctype html><title>jcs</title>", content_type="text/html")

        # http://localhost is a secure context: the page has Web Crypto, as the board has.
        page.route("http://localhost/**", serve)
        page.goto("http://localhost/")
        for state in POSITIONS:
            text = json.dumps({"state": state, "turn": TURN}, ensure_ascii=False)
            form, digest = page.evaluate(
                """async (text) => {
                    const {hashedForm, positionHash} = await import("/jcs.js");
                    const {state, turn} = JSON.parse(text);
                    return [hashedForm(state, turn), await positionHash(state, turn)];
                }""",
                text,
            )
            assert form.encode("utf-8") == hashed_form(state, TURN)
            assert digest == position_hash(state, TURN)
        browser.close()


def store_in_chromium(chromium_path: str, frames: list[dict]) -> dict:
    """Feeds `frames` to the board's TableStore (static/js/board/state.js) in Chromium;
    what it ended with, and every desync it raised."""
    from playwright.sync_api import sync_playwright

    board = ROOT / "static/js/board"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=["--no-sandbox"])
        page = browser.new_page()

        def serve(route):
            name = route.request.url.rsplit("/", 1)[1]
            if name.endswith(".js"):
                route.fulfill(body=(board / name).read_text(), content_type="text/javascript")
            else:
                route.fulfill(body="<!doctype html><title>store</title>", content_type="text/html")

        page.route("http://localhost/**", serve)
        page.goto("http://localhost/")
        result = page.evaluate(
            """async (frames) => {
                const {TableStore} = await import("/state.js");
                const store = new TableStore();
                const desyncs = [];
                store.on("desync", (d) => desyncs.push(d));
                for (const frame of frames) {
                    if (frame.type === "snapshot") store.applySnapshot(frame);
                    else store.applyEvent(frame);
                }
                await new Promise((done) => setTimeout(done, 300));  // the hashes are async
                return {seq: store.seq, desyncs};
            }""",
            frames,
        )
        browser.close()
        return result


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
async def test_the_boards_store_stays_in_step_through_a_game_and_resyncs_on_a_bad_hash(
    table, chromium_path
):
    """A game (move, fiat, end of turn, undo, chat) as the board receives it: the store
    checks every table event's hash and finds each one equal; a frame whose hash is wrong
    makes it ask for a fresh snapshot (it forgets its seq)."""
    await table.p1.send(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    )
    await table.p1.get("ack")
    fiat = {
        "type": "fiat",
        "id": "g-1",
        "unit": table.u2,
        "position": [30.25, 33.1],
        "facing": 12.5,
        "reason": "Zoë's cat",
    }
    await table.gm.send(fiat)
    await table.gm.get("ack")
    await table.p1.send({"type": "end_turn", "id": "e-1"})
    await table.p1.get("ack")
    await table.gm.send({"type": "undo", "id": "g-2", "reason": "misclick"})
    await table.gm.get("ack")
    await table.p2.send({"type": "chat", "id": "c-1", "text": "東京"})
    await table.p2.get("ack")
    for _ in range(5):
        await table.spectator.get("event")
    frames = [f for f in table.spectator.frames if f["type"] in ("snapshot", "event")]
    assert [f.get("kind") for f in frames] == [None, "act", "fiat", "turn", "undo", "chat"]

    in_step = await asyncio.to_thread(store_in_chromium, chromium_path, frames)
    assert in_step == {"seq": 5, "desyncs": []}

    tampered = [*frames[:-2], {**frames[-2], "hash": "0" * 64}]
    out_of_step = await asyncio.to_thread(store_in_chromium, chromium_path, tampered)
    assert out_of_step["seq"] == -1
    assert [d["seq"] for d in out_of_step["desyncs"]] == [4]
