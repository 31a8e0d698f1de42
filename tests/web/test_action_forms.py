"""Forms for what the camera cannot see: built into referee actions, judged and logged; bad values
get a 422 naming the field, and change nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from web.action_forms import FORMS, FormError, build_action, forms_for
from web.app import build_context, create_app
from web.settings import Settings

PLAYERS = ("Ana", "Ben", "Cy")


def client_for(tmp_path: Path, game: str) -> tuple[TestClient, object]:
    options = {"hands": "unknown"} if game == "trio" else {}  # as `tableref serve` plays Trio
    ctx = build_context(Settings(game=game, players=PLAYERS, options=options, data_dir=tmp_path))
    return TestClient(create_app(ctx)), ctx


def test_a_trio_ask_entered_by_hand_is_judged_and_logged(tmp_path: Path) -> None:
    client, ctx = client_for(tmp_path, "trio")
    with client:
        forms = client.get("/api/forms").json()
        assert forms["game"] == "trio" and "ask" in [f["type"] for f in forms["forms"]]
        assert client.post("/api/actions", json={"action": {"type": "deal", "first": 0}}).status_code == 200
        values = {"player": "0", "target": "Ben", "end": "smallest", "number": 5}
        reply = client.post("/api/forms/ask", json={"values": values})
        assert reply.status_code == 200, reply.text
        body = reply.json()
        assert body["action"] == {"type": "ask", "player": 0, "target": 1, "end": "smallest", "number": 5}
        assert body["ruling"]["applies"]
        entry = ctx.live.entries[-1]
        assert entry["origin"] == "table" and entry["action"]["type"] == "ask"
        state = client.get("/api/state").json()
        assert state["log"][0]["seq"] == body["seq"]


@pytest.mark.parametrize(
    ("path", "values", "words"),
    [
        (
            "ask",
            {"player": "0", "target": "Zoe", "end": "smallest", "number": 5},
            "target 'Zoe' is not a player",
        ),
        ("ask", {"player": "0", "target": "1", "end": "middle", "number": 5}, "'smallest' or 'largest'"),
        ("ask", {"player": "0", "target": "1", "end": "largest", "number": 13}, "number 13: expected"),
        ("ask", {"player": "0", "target": "1", "end": "largest"}, "number is missing"),
        ("ask", {"player": "0", "target": "1", "end": "largest", "number": 2, "x": 1}, "unknown field(s) x"),
        ("fly", {}, "no 'fly' form for trio"),
    ],
)
def test_bad_form_values_get_a_422_and_change_nothing(
    tmp_path: Path, path: str, values: dict, words: str
) -> None:
    client, ctx = client_for(tmp_path, "trio")
    with client:
        client.post("/api/actions", json={"action": {"type": "deal", "first": 0}})
        before = (ctx.live.version, len(ctx.live.entries))
        reply = client.post(f"/api/forms/{path}", json={"values": values})
        assert reply.status_code == 422, reply.text
        assert words in reply.json()["error"]
        assert (ctx.live.version, len(ctx.live.entries)) == before


def test_a_form_path_and_body_are_validated(tmp_path: Path) -> None:
    client, ctx = client_for(tmp_path, "lineit")
    with client:
        assert client.post("/api/forms/Take%2F..", json={"values": {}}).status_code == 404
        assert client.post("/api/forms/TAKE", json={"values": {}}).status_code == 422
        assert client.post("/api/forms/take", json={"values": {"card": {"a": 1}}}).status_code == 422
        assert client.post("/api/forms/take", json={"other": 1}).status_code == 422
        assert ctx.live.entries == []


def test_a_line_it_take_the_referee_refuses_is_logged_with_its_reason(tmp_path: Path) -> None:
    client, ctx = client_for(tmp_path, "lineit")
    with client:
        reply = client.post(
            "/api/forms/take", json={"values": {"player": "Ana", "card": "85:heart", "to": "line"}}
        )
        assert reply.status_code == 200, reply.text
        ruling = reply.json()["ruling"]
        assert not ruling["applies"] and ruling["reason"]["en"]  # no market dealt yet
        assert ctx.live.entries[-1]["origin"] == "table"


def test_every_form_of_every_game_builds_an_action_its_referee_parses() -> None:
    from referee.registry import make_game

    samples = {"seat": "1", "seats": "Ana, Ben", "int": None, "ints": None, "choice": None, "text": "x"}
    for game_name, forms in FORMS.items():
        if not forms:
            continue  # Twixt: every peg is corrected on the board image
        game = make_game(game_name, list(PLAYERS))
        for form in forms:
            values = {}
            for field in form.fields:
                if field.kind in ("int", "ints"):
                    values[field.name] = field.low if field.low is not None else 1
                elif field.kind == "choice":
                    values[field.name] = field.options[0]
                elif field.kind == "loc":
                    values[field.name] = "table 0" if field.name == "first" else "pile 1"
                elif field.kind == "texts" or (field.kind == "text" and game_name == "lineit"):
                    values[field.name] = "85:heart"
                else:
                    values[field.name] = samples[field.kind]
            action = build_action(game_name, form.type, values, PLAYERS)
            assert action["type"] == form.type
            game.parse_action(action)  # raises when the form builds something its referee cannot read


def test_twinit_places_and_the_cooperative_minute() -> None:
    action = build_action(
        "twinit", "claim", {"player": "Ben", "first": "table 3", "second": "capture 0 1"}, PLAYERS
    )
    assert action == {"type": "claim", "player": 1, "cards": [{"table": 3}, {"capture": [0, 1]}]}
    with pytest.raises(FormError, match="'table N', 'pile P' or 'capture P I'"):
        build_action("twinit", "claim", {"player": "0", "first": "floor 3", "second": "pile 1"}, PLAYERS)
    assert [f.type for f in forms_for("twinit", "cooperative")] == ["claim"]
