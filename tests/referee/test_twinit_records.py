"""Twin It's JSON: actions and states round-trip, malformed input raises quoting it, broken states
are caught, options are checked, and every example record replays to its end."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from referee.errors import InvalidConfig, InvalidState, MalformedAction, MalformedRecord
from referee.records import replay_text, write_record
from referee.registry import make_game
from referee.twinit.game import TwinItGame
from referee.twinit.types import Capture, Pile, TableCard, TwinItState

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "records").glob("twinit-*.jsonl"))


def game(
    mode: str = "competitive", players: tuple[str, ...] = ("Ana", "Ben", "Cy"), **options: Any
) -> TwinItGame:
    g = make_game("twinit", players=players, mode=mode, options=options)
    assert isinstance(g, TwinItGame)
    return g


@pytest.mark.parametrize(
    "obj",
    [
        {"type": "deal", "piles": [45, 45, 45], "first": 2},
        {"type": "deal", "piles": [45, 45, 45], "first": 0, "tops": ["twinit:a", None, "twinit:b"]},
        {"type": "start"},
        {"type": "start", "faces": ["twinit:a", None]},
        {"type": "reveal", "player": 1, "face": "twinit:a"},
        {"type": "reveal", "card": 7, "face": "twinit:a"},
        {"type": "play", "player": 0, "face": "twinit:a"},
        {"type": "play", "player": 0, "face": "twinit:a", "top": "twinit:b"},
        {"type": "claim", "player": 2, "cards": [{"table": 3}, {"pile": 1}]},
        {"type": "claim", "players": [0, 1], "cards": [{"capture": [1, 0]}, {"table": 3}], "beaten": [2]},
        {"type": "claim", "player": 0, "cards": [{"pile": 1}, {"pile": 2}], "forfeit": [0, 1]},
        {"type": "claim", "player": 0, "cards": [{"table": 1}, {"table": 2}, {"table": 3}], "at": 12.5},
        {"type": "tie", "players": [0, 2], "cards": [{"pile": 0}, {"table": 4}]},
        {"type": "tie", "players": [0, 2], "cards": [{"pile": 0}, {"table": 4}], "faces": ["twinit:a", None]},
        {"type": "claim", "player": 1, "cards": [{"pile": 0}, {"table": 4}], "faces": [None, "twinit:a"]},
        {"type": "end"},
    ],
)
def test_actions_round_trip_through_json(obj: dict[str, Any]) -> None:
    g = game()
    action = g.parse_action(obj)
    assert g.action_to_json(action) == obj
    assert g.parse_action(json.loads(json.dumps(g.action_to_json(action)))) == action


def test_players_may_be_named() -> None:
    g = game()
    by_name = g.parse_action(
        {"type": "claim", "player": "Cy", "cards": [{"pile": "Ana"}, {"capture": ["Ben", 0]}]}
    )
    by_seat = g.parse_action({"type": "claim", "player": 2, "cards": [{"pile": 0}, {"capture": [1, 0]}]})
    assert by_name == by_seat


@pytest.mark.parametrize(
    ("obj", "needle"),
    [
        ({"type": "dance"}, "unknown type 'dance'"),
        ({"player": 0}, "lacks 'type'"),
        ({"type": "play", "player": 7, "face": "twinit:a"}, "not a player"),
        ({"type": "play", "player": "Zoe", "face": "twinit:a"}, "not a player"),
        ({"type": "play", "player": 0, "face": ""}, "not a face identity"),
        ({"type": "play", "player": 0, "face": 3}, "not a face identity"),
        ({"type": "play", "player": True, "face": "twinit:a"}, "not a player"),
        ({"type": "deal", "piles": [1, 2], "first": 0}, "2 sizes for 3 players"),
        ({"type": "deal", "piles": [1, -2, 3], "first": 0}, "not a list of pile sizes"),
        ({"type": "claim", "cards": [{"pile": 0}, {"pile": 1}]}, "either 'player'"),
        ({"type": "claim", "player": 0, "cards": [{"shelf": 0}, {"pile": 1}]}, "'shelf'"),
        ({"type": "claim", "player": 0, "cards": [{"table": -1}, {"pile": 1}]}, "table card id"),
        ({"type": "claim", "player": 0, "cards": [{"capture": [0]}, {"pile": 1}]}, "not [player, index]"),
        ({"type": "claim", "players": [0], "cards": [{"pile": 0}, {"pile": 1}]}, "1 entries for 2 cards"),
        ({"type": "claim", "player": 0, "cards": []}, "not a list of card locations"),
        ({"type": "claim", "player": 0, "cards": [{"pile": 0}, {"pile": 1}], "at": -1}, "seconds"),
        ({"type": "reveal", "face": "twinit:a"}, "either 'player'"),
        (
            {"type": "claim", "player": 0, "cards": [{"pile": 0}, {"pile": 1}], "faces": ["twinit:a"]},
            "one face",
        ),
        ({"type": "tie", "players": [0], "cards": [{"pile": 0}, {"pile": 1}]}, "two players and two cards"),
    ],
)
def test_malformed_actions_raise_quoting_the_input(obj: dict[str, Any], needle: str) -> None:
    with pytest.raises(MalformedAction) as err:
        game().parse_action(obj)
    assert needle in str(err.value) and repr(obj)[:20] in str(err.value)


def test_a_sound_state_passes_and_broken_ones_are_named() -> None:
    g = game(cards=30)
    rng = random.Random(3)
    state = g.initial_state()
    for _ in range(25):
        action = g.sample_action(state, rng)
        assert action is not None
        state, _ = g.apply(state, action)
    assert g.check_state(state) == []
    lost = TwinItState(**{**vars(state), "piles": (Pile(0), *state.piles[1:])})
    assert any("expected the deck's 30" in p for p in g.check_state(lost))
    twice = TwinItState(**{**vars(state), "table": (*state.table, TableCard(0, "twinit:a"))})
    assert any("used twice" in p or "30" in p for p in g.check_state(twice))
    four = TwinItState(**{**vars(state), "captures": ((Capture("twinit:a", 4),), (), ())})
    assert any("capture of 4 cards" in p for p in g.check_state(four))
    empty_top = TwinItState(**{**vars(state), "piles": (Pile(0, "twinit:a"), *state.piles[1:])})
    assert any("empty pile shows" in p for p in g.check_state(empty_top))
    with pytest.raises(InvalidState, match="breaks the rules"):
        g.state_from_json(g.state_to_json(lost))
    with pytest.raises(InvalidState, match="malformed"):
        g.state_from_json({**g.state_to_json(state), "table": [["x", None]]})
    with pytest.raises(InvalidState, match="phase"):
        g.state_from_json({**g.state_to_json(state), "phase": "nap"})


def test_five_captures_must_end_the_game() -> None:
    g = game(cards=30)
    state = TwinItState(
        phase="play",
        piles=(Pile(10, "twinit:a"), Pile(10, "twinit:b"), Pile(0)),
        table=(),
        captures=((), (), tuple(Capture(f"twinit:{i}", 2) for i in range(5))),
        turn=0,
    )
    assert any("goes on" in p for p in g.check_state(state))


@pytest.mark.parametrize(
    ("mode", "players", "options", "needle"),
    [
        ("solo", ("Ana", "Ben"), {}, "unknown mode"),
        ("competitive", ("Ana",), {}, "2 to 6 players"),
        ("competitive", ("Ana", "Ben"), {"colour": "red"}, "unknown Twin It option"),
        ("competitive", ("Ana", "Ben"), {"cards": 1}, "integer >= 2"),
        ("competitive", ("Ana", "Ben"), {"target": 0}, "integer >= 1"),
        ("competitive", ("Ana", "Ben"), {"teams": [[0], [1]]}, "team mode"),
        ("competitive", ("Ana", "Ben"), {"taboo_player": "Zoe"}, "not a player"),
        ("cooperative", ("Ana", "Ben"), {"seconds": 0}, "positive number"),
        ("cooperative", ("Ana", "Ben"), {"levels": {"2": []}}, "non-empty list"),
        ("cooperative", ("Ana", "Ben"), {"levels": {"2": [{"min": 0}]}}, "expected"),
        ("competitive", ("Ana", "Ben"), {"penalty": "pile"}, "'capture' or 'cards'"),
        ("cooperative", ("Ana", "Ben"), {"penalty": "cards"}, "competitive and team modes"),
    ],
)
def test_bad_configs_are_refused(
    mode: str, players: tuple[str, ...], options: dict[str, Any], needle: str
) -> None:
    with pytest.raises(InvalidConfig, match=needle):
        make_game("twinit", players=players, mode=mode, options=options)


def test_sample_configs_cover_every_mode() -> None:
    configs = TwinItGame.sample_configs()
    assert {c.mode for c in configs} == set(TwinItGame.modes)
    assert any("taboo_player" in c.options for c in configs)
    assert {len(c.players) for c in configs} == {2, 3, 4, 5, 6}


def test_every_mode_has_an_example_record() -> None:
    names = {p.name for p in EXAMPLES}
    expected = {"competitive", "teams", "cooperative", "cooperative-competitive", "taboo"}
    assert names == {f"twinit-{m}.jsonl" for m in expected}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_records_replay_to_an_outcome(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    g, steps = replay_text(text)
    assert isinstance(g, TwinItGame)
    final = steps[-1].state
    assert g.check_state(final) == [] and g.outcome(final) is not None
    assert write_record(g, [s.action for s in steps]) == text  # records are in canonical form


def test_competitive_example_shows_the_seed_situations() -> None:
    _, steps = replay_text((ROOT / "examples/records/twinit-competitive.jsonl").read_text(encoding="utf-8"))
    codes = {s.ruling.reason.code for s in steps}
    assert {"pair", "triple_steal", "tie_flip", "not_identical"} <= codes
    assert any(s.ruling.details.get("turned_over") for s in steps if s.ruling.reason.code == "pair")
    assert any(s.ruling.details.get("reveal_piles") for s in steps)
    assert any(s.ruling.details.get("beaten") for s in steps if s.ruling.reason.code == "pair")


def test_an_illegal_line_stops_a_replay_naming_it() -> None:
    lines = (ROOT / "examples/records/twinit-competitive.jsonl").read_text(encoding="utf-8").splitlines()
    lines.insert(3, json.dumps({"type": "play", "player": 2, "face": "twinit:zz"}))
    with pytest.raises(MalformedRecord, match="line 4: illegal action"):
        replay_text("\n".join(lines))


def _random_action(rng: random.Random, g: TwinItGame, state: TwinItState) -> dict[str, Any]:
    """Any well-formed action, legal or not, over cards that may or may not exist."""
    n = g.num_players
    face = f"twinit:p{rng.randrange(6):03d}"

    def loc() -> dict[str, Any]:
        kind = rng.choice(["table", "pile", "capture"])
        if kind == "table":
            return {"table": rng.randrange(state.next_id + 2)}
        if kind == "pile":
            return {"pile": rng.randrange(n)}
        return {"capture": [rng.randrange(n), rng.randrange(3)]}

    kind = rng.choice(["reveal", "reveal", "play", "claim", "claim", "claim", "tie", "end", "deal", "start"])
    if kind == "reveal":
        return (
            {"type": "reveal", "player": rng.randrange(n), "face": face}
            if rng.random() < 0.5
            else {
                "type": "reveal",
                "card": rng.randrange(state.next_id + 1),
                "face": face,
            }
        )
    if kind == "play":
        return {"type": "play", "player": rng.randrange(n), "face": face}
    if kind == "claim":
        cards = [loc() for _ in range(rng.choice([1, 2, 2, 2, 3]))]
        obj: dict[str, Any] = {"type": "claim", "players": [rng.randrange(n) for _ in cards], "cards": cards}
        if rng.random() < 0.2:
            obj["beaten"] = [rng.randrange(n)]
        if rng.random() < 0.2:
            obj["forfeit"] = [rng.randrange(n), rng.randrange(2)]
        if rng.random() < 0.2:
            obj["at"] = rng.uniform(0, 80)
        return obj
    if kind == "tie":
        return {"type": "tie", "players": [rng.randrange(n), rng.randrange(n)], "cards": [loc(), loc()]}
    if kind == "deal":
        return {"type": "deal", "piles": [rng.randrange(1, 12) for _ in range(n)], "first": 0}
    if kind == "start":
        return {"type": "start"}
    return {"type": "end"}


@pytest.mark.parametrize("config", TwinItGame.sample_configs(), ids=lambda c: f"{c.mode}-{len(c.players)}p")
def test_any_well_formed_action_gets_a_ruling_and_never_breaks_the_state(config: Any) -> None:
    g = TwinItGame(config)
    rng = random.Random(11)
    for _ in range(15):
        state = g.initial_state()
        for _ in range(60):
            if rng.random() < 0.5:
                action = g.sample_action(state, rng)
                if action is None:
                    break
            else:
                action = g.parse_action(_random_action(rng, g, state))
            ruling = g.judge(state, action)
            new, applied = g.apply(state, action)
            assert applied == ruling and ruling.reason.en and ruling.reason.fr
            if not ruling.applies:
                assert new == state
            assert g.check_state(new) == [], (g.action_to_json(action), g.check_state(new))
            state = new
