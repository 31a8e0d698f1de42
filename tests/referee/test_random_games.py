"""The generic contract test: seeded random legal games on every registered game and mode.

Checks, at every step: judge and apply agree and judge changes nothing; the state passes its own
whole-state check (no card created or lost, counters in their caps, ...); state and action
round-trip through JSON. At the end, replaying the written record gives the same final state.
"""

from __future__ import annotations

import json
import os
import random

import pytest

from referee.protocol import Game
from referee.records import replay_text, write_record
from referee.registry import game_class, game_names

GAMES_PER_CONFIG = int(os.environ.get("TABLEREF_RANDOM_GAMES", "200"))
MAX_STEPS = 5000


def configs() -> list[tuple[str, object]]:
    """Every (game, config) to play; a game that fails to import yields one failing case, so the
    other games are still collected and checked."""
    out: list[tuple[str, object]] = []
    for name in game_names():
        try:
            cls = game_class(name)
        except ImportError as exc:
            out.append((name, exc))
            continue
        out.extend((name, config) for config in cls.sample_configs())
    return out


def case_id(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, ImportError):
        return "import-error"
    return f"{value.mode}-{len(value.players)}p-{json.dumps(dict(value.options), sort_keys=True)}"


def play_random_game(game: Game, seed: int) -> tuple[object, list[object]]:
    rng = random.Random(seed)
    state = game.initial_state()
    actions: list[object] = []
    for step in range(MAX_STEPS):
        action = game.sample_action(state, rng)
        if action is None:
            break
        # States are immutable values; every 7th step also proves judge left its input alone.
        before = json.dumps(game.state_to_json(state), sort_keys=True) if step % 7 == 0 else None
        ruling = game.judge(state, action)
        if before is not None:
            assert json.dumps(game.state_to_json(state), sort_keys=True) == before, "judge changed the state"
        new_state, applied = game.apply(state, action)
        assert applied == ruling, f"judge and apply disagree on {game.action_to_json(action)}"
        assert ruling.applies, f"sample_action gave an action that does not apply: {ruling}"
        problems = game.check_state(new_state)
        assert not problems, f"after {game.action_to_json(action)}: {problems}"
        as_json = json.loads(json.dumps(game.state_to_json(new_state)))
        assert game.state_from_json(as_json) == new_state, "state does not round-trip through JSON"
        action_json = json.loads(json.dumps(game.action_to_json(action)))
        assert game.parse_action(action_json) == action, "action does not round-trip through JSON"
        actions.append(action)
        state = new_state
    else:
        pytest.fail(f"game did not end within {MAX_STEPS} actions")
    return state, actions


@pytest.mark.parametrize(("name", "config"), configs(), ids=case_id)
def test_random_games_keep_every_invariant(name: str, config: object) -> None:
    if isinstance(config, ImportError):
        pytest.fail(f"game {name!r} cannot be imported: {config}")
    game = game_class(name)(config)
    endings = 0
    for seed in range(GAMES_PER_CONFIG):
        final, actions = play_random_game(game, seed)
        endings += game.outcome(final) is not None
        replayed_game, steps = replay_text(write_record(game, actions))
        replayed = steps[-1].state if steps else replayed_game.initial_state()
        assert replayed == final, f"seed {seed}: replaying the record does not give the final state"
    assert endings == GAMES_PER_CONFIG, "every random game must reach an outcome"
