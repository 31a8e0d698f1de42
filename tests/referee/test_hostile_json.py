"""Hostile JSON against every game: only malformed input raises, always a
:class:`RefereeError` with one line quoting the input; anything that parses gets a ruling, judge
changes nothing and apply gives the same ruling; a broken state from JSON raises InvalidState."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from referee.errors import InvalidState, MalformedAction, RefereeError
from referee.protocol import Game
from referee.registry import make_game

PLAYERS = {
    "twinit": ["Ana", "Ben", "Cy"],
    "trio": ["Ana", "Ben", "Cy"],
    "themind": ["Ana", "Ben"],
    "lineit": ["Ana", "Ben", "Cy"],
    "twixt": ["Ana", "Ben"],
}
HUGE = list(range(5000))

BAD_ACTIONS: list[tuple[str, Any]] = [
    # not an object, no type, a type of the wrong kind
    *((g, v) for g in PLAYERS for v in ([], "play", 3, None, {}, {"type": 3}, {"type": ["deal"]})),
    *((g, {"type": "nope", "x": {"y": [1]}}) for g in PLAYERS),
    # Twin It
    ("twinit", {"type": "deal", "piles": [-1, 3, 3], "first": 0}),
    ("twinit", {"type": "deal", "piles": "10", "first": 0}),
    ("twinit", {"type": "deal", "piles": [1, 1, 1], "first": 9}),
    ("twinit", {"type": "deal", "piles": [1, 1, 1], "first": 0, "taboo": [1, 2, 3]}),
    ("twinit", {"type": "play", "player": True, "face": "twinit:x"}),
    ("twinit", {"type": "play", "player": 0, "face": ""}),
    ("twinit", {"type": "play", "player": 0, "face": ["twinit:x"]}),
    ("twinit", {"type": "reveal", "player": 0, "card": 1, "face": "twinit:x"}),
    ("twinit", {"type": "reveal", "card": -4, "face": "twinit:x"}),
    ("twinit", {"type": "claim", "player": 0, "cards": [{"table": 0, "pile": 1}]}),
    ("twinit", {"type": "claim", "player": 0, "cards": [{"capture": [0, -1]}, {"pile": 0}]}),
    ("twinit", {"type": "claim", "player": 0, "cards": [{"capture": {"a": 1}}, {"pile": 0}]}),
    ("twinit", {"type": "claim", "player": "Zoé", "cards": [{"pile": 0}, {"pile": 1}]}),
    ("twinit", {"type": "claim", "players": [0], "cards": [{"pile": 0}, {"pile": 1}]}),
    ("twinit", {"type": "claim", "player": 0, "cards": [{"pile": 0}, {"pile": 1}], "at": float("nan")}),
    ("twinit", {"type": "claim", "player": 0, "cards": [{"pile": 0}, {"pile": 1}], "at": -1}),
    ("twinit", {"type": "claim", "player": 0, "cards": [{"pile": 0}, {"pile": 1}], "faces": [1, 2]}),
    ("twinit", {"type": "claim", "player": 0, "cards": [[[[[]]]]]}),
    ("twinit", {"type": "tie", "players": [0, 1, 2], "cards": [{"pile": 0}, {"pile": 1}]}),
    ("twinit", {"type": "tie", "players": [0, 1], "cards": "ab"}),
    ("twinit", {"type": "start", "faces": {"0": "twinit:x"}}),
    # Trio
    ("trio", {"type": "deal", "hands": "x"}),
    ("trio", {"type": "deal", "hands": [[1, 2], [0]]}),
    ("trio", {"type": "deal", "first": -1}),
    ("trio", {"type": "deal", "centre": [1, 2]}),
    ("trio", {"type": "reveal", "player": 0, "slot": -1}),
    ("trio", {"type": "reveal", "player": 0, "slot": "1"}),
    ("trio", {"type": "reveal", "player": 0, "slot": 1, "number": 13}),
    ("trio", {"type": "reveal", "player": 0, "slot": 1, "number": 5.0}),
    ("trio", {"type": "ask", "player": 0, "target": 9, "end": "smallest"}),
    ("trio", {"type": "ask", "player": 0, "target": 1, "end": "middle"}),
    ("trio", {"type": "ask", "player": 0, "target": 1, "end": "smallest", "count": 0}),
    ("trio", {"type": "ask", "player": 0, "target": 1, "end": "smallest", "confirmed": 1}),
    ("trio", {"type": "exchange", "players": [0, 9]}),
    ("trio", {"type": "exchange", "players": [0, 1, 2]}),
    ("trio", {"type": "exchange", "players": [0, 1], "cards": [1, 2, 3]}),
    ("trio", {"type": "exchange", "players": [0, 1], "cards": HUGE}),
    # The Mind
    ("themind", {"type": "deal", "hands": [[1, 2], "x"]}),
    ("themind", {"type": "deal", "hands": [[1, 2], [0]]}),
    ("themind", {"type": "play", "player": -1, "card": 3}),
    ("themind", {"type": "play", "player": 0, "card": 101}),
    ("themind", {"type": "play", "player": 0, "card": "12"}),
    ("themind", {"type": "star"}),
    ("themind", {"type": "star", "hands_up": "ab"}),
    ("themind", {"type": "star", "hands_up": [0, 9]}),
    ("themind", {"type": "star", "hands_up": [0, 1], "cards": [1, "x"]}),
    ("themind", {"type": "discard", "player": 0, "cards": [[1]]}),
    ("themind", {"type": "discard", "player": 0, "cards": [*HUGE, -1]}),
    ("themind", {"type": "reveal", "cards": {"a": 1}}),
    # Line-it
    ("lineit", {"type": "market", "cards": "57:heart"}),
    ("lineit", {"type": "market", "cards": [*HUGE[:40], "57:heart"]}),
    ("lineit", {"type": "market", "cards": [["57:heart"]]}),
    ("lineit", {"type": "take", "player": 0, "card": "57:leaf", "to": "line"}),
    ("lineit", {"type": "take", "player": 0, "card": "057:heart", "to": "line"}),
    ("lineit", {"type": "take", "player": 0, "card": "５７:heart", "to": "line"}),
    ("lineit", {"type": "take", "player": 0, "card": "57:heart", "to": "pocket"}),
    ("lineit", {"type": "take", "player": 0, "card": "57:heart"}),
    ("lineit", {"type": "take", "player": -1, "card": "57:heart", "to": "hand"}),
    ("lineit", {"type": "take", "player": "Zoé", "card": "57:heart", "to": "hand"}),
    ("lineit", {"type": "play", "player": 0, "card": "bet:+7"}),
    ("lineit", {"type": "play", "player": 0, "card": 57}),
    ("lineit", {"type": "play", "player": 0, "card": None}),
    ("lineit", {"type": "close", "player": 0, "discard": "1:heart"}),
    ("lineit", {"type": "close", "player": 0, "discard": [{"x": [1]}]}),
    ("lineit", {"type": "close", "player": 3}),
    ("lineit", {"type": "end_turn"}),
    ("lineit", {"type": "pass", "player": 1.0}),
    # Twixt
    ("twixt", {"type": "peg", "player": 0}),
    ("twixt", {"type": "peg", "player": 0, "at": 11}),
    ("twixt", {"type": "peg", "player": 0, "at": "D0"}),
    ("twixt", {"type": "peg", "player": 0, "at": "D100"}),
    ("twixt", {"type": "peg", "player": 0, "at": ["D", 4]}),
    ("twixt", {"type": "peg", "player": 2, "at": "D4"}),
    ("twixt", {"type": "peg", "player": True, "at": "D4"}),
    ("twixt", {"type": "link", "player": 0, "from": "D4", "to": "E-6"}),
    ("twixt", {"type": "link", "player": 0, "from": "D4"}),
    ("twixt", {"type": "unlink", "player": 0, "from": {"x": 1}, "to": "E6"}),
    ("twixt", {"type": "swap"}),
    ("twixt", {"type": "resign", "player": HUGE}),
]


@pytest.mark.parametrize(("name", "obj"), BAD_ACTIONS, ids=lambda v: str(v)[:40])
def test_malformed_actions_raise_one_line_quoting_the_input(name: str, obj: Any) -> None:
    game = make_game(name, PLAYERS[name])
    with pytest.raises(MalformedAction) as info:
        game.parse_action(obj)
    message = str(info.value)
    assert "\n" not in message
    quoted = repr(obj) if not isinstance(obj, dict) else repr(dict(obj))
    assert quoted in message


JUNK = [None, True, -1, 10**12, 2.5, "", "Ana", [], {}, [0, 1], {"table": 0}, [[1]], HUGE[:50]]
PLAUSIBLE = {
    "lineit": ["57:heart", "bet:+3", "line", "hand", "Ben", 1],
    "twixt": ["D4", "E6", "X24", "A1", "Z9", "Ben", 1],
}
"""Per game, values that parse in some field, so that mutated actions also reach the rules."""


def _mutate(value: Any, rng: random.Random, junk: list[Any] = JUNK) -> Any:
    if isinstance(value, dict) and value:
        out = dict(value)
        key = rng.choice(sorted(out))
        if rng.random() < 0.25:
            del out[key]
        else:
            out[key] = _mutate(out[key], rng, junk) if rng.random() < 0.4 else rng.choice(junk)
        return out
    if isinstance(value, list) and value and rng.random() < 0.6:
        out_list = list(value)
        i = rng.randrange(len(out_list))
        out_list[i] = _mutate(out_list[i], rng, junk) if rng.random() < 0.5 else rng.choice(junk)
        return out_list
    return rng.choice(junk)


def _played(game: Game, seed: int, steps: int) -> tuple[list[Any], list[Any]]:
    """The states and actions of the first ``steps`` actions of a seeded random game."""
    rng = random.Random(seed)
    state = game.initial_state()
    states, actions = [state], []
    for _ in range(steps):
        action = game.sample_action(state, rng)
        if action is None:
            break
        state, _ = game.apply(state, action)
        states.append(state)
        actions.append(action)
    return states, actions


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_mutated_actions_raise_cleanly_or_get_a_ruling_that_changes_nothing(name: str) -> None:
    game = make_game(name, PLAYERS[name])
    rng = random.Random(7)
    states, actions = _played(game, 3, 60)
    outcomes = {"raised": 0, "ruled": 0}
    for _ in range(600):
        state = rng.choice(states)
        obj = _mutate(game.action_to_json(rng.choice(actions)), rng, JUNK + PLAUSIBLE.get(name, []))
        try:
            action = game.parse_action(obj)
        except RefereeError as exc:
            assert "\n" not in str(exc)
            outcomes["raised"] += 1
            continue
        before = json.dumps(game.state_to_json(state), sort_keys=True)
        ruling = game.judge(state, action)
        assert json.dumps(game.state_to_json(state), sort_keys=True) == before
        new, applied = game.apply(state, action)
        assert applied == ruling
        assert ruling.reason.en and ruling.reason.fr
        if ruling.applies:
            assert game.check_state(new) == []
        else:
            assert new == state
        outcomes["ruled"] += 1
    assert outcomes["raised"] > 20 and outcomes["ruled"] > 20, outcomes


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_broken_states_from_json_raise_invalid_state(name: str) -> None:
    game = make_game(name, PLAYERS[name])
    rng = random.Random(11)
    states, _ = _played(game, 5, 40)
    raised = 0
    for _ in range(400):
        obj = _mutate(game.state_to_json(rng.choice(states)), rng)
        try:
            state = game.state_from_json(obj)
        except InvalidState as exc:
            assert "\n" not in str(exc)
            raised += 1
            continue
        assert game.check_state(state) == []
        game.scores(state)
        game.outcome(state)
        game.legal_actions(state)
    assert raised > 100
    for bad in (None, [], "state", {"phase": "play"}):
        with pytest.raises(InvalidState):
            game.state_from_json(bad)  # type: ignore[arg-type]
