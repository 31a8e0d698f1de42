"""Twin It (Cocktail Games): the referee for its competitive, team and cooperative modes and the
Motifs Tabous variant. Rules: ``seeds/twin-it.txt`` and RULES-NOTES.md; records:
docs/records.md (Twin It).

    >>> from referee.registry import make_game
    >>> game = make_game("twinit", players=["Ana", "Ben"], options={"cards": 4})
    >>> state, _ = game.apply(game.initial_state(), game.parse_action(
    ...     {"type": "deal", "piles": [2, 2], "first": 0, "tops": ["twinit:a", "twinit:a"]}))
    >>> state, ruling = game.apply(state, game.parse_action(
    ...     {"type": "claim", "player": "Ben", "cards": [{"pile": 0}, {"pile": 1}]}))
    >>> ruling.reason.code, game.scores(state)["captures"]
    ('pair', {'Ana': 0, 'Ben': 1})
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from referee.errors import InvalidState
from referee.memo import LastResolution
from referee.protocol import Game, GameConfig
from referee.twinit import checks, claims, codec, cooperative, flow, sampler, scoring
from referee.twinit.options import COOP_MODES, MODES, Setup, read_options
from referee.twinit.types import (
    Action,
    Claim,
    Deal,
    Empty,
    End,
    Pile,
    Play,
    Refill,
    Reveal,
    Start,
    Tie,
    Turn,
    TwinItState,
)
from referee.types import JSON, Outcome, Ruling, refused


class TwinItGame(Game[TwinItState, Action]):
    """Twin It for one set of fixed facts (players, mode, options)."""

    name: ClassVar[str] = "twinit"
    title: ClassVar[str] = "Twin It"
    modes: ClassVar[tuple[str, ...]] = MODES

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        self.setup = Setup(
            config.players, config.mode, read_options(config.mode, config.players, config.options)
        )
        self._resolve = LastResolution(self._rule)

    @classmethod
    def sample_configs(cls) -> list[GameConfig]:
        names = ("Ana", "Ben", "Cy", "Dee", "Eli", "Flo")
        return [
            GameConfig(names[:2], "competitive", {}),
            GameConfig(names[:6], "competitive", {"cards": 60}),
            GameConfig(names[:2], "competitive", {"cards": 12, "penalty": "cards"}),
            GameConfig(names[:3], "competitive", {"taboo_player": "Ben"}),
            GameConfig(names[:4], "teams", {}),
            GameConfig(names[:5], "teams", {"teams": [["Ana", "Ben", "Cy"], ["Dee", "Eli"]]}),
            GameConfig(names[:6], "teams", {"cards": 40}),
            GameConfig(names[:4], "cooperative", {}),
            GameConfig(names[:3], "cooperative-competitive", {"cards": 40, "seconds": 45}),
        ]

    # -- states ------------------------------------------------------------------------------
    def initial_state(self) -> TwinItState:
        n = self.num_players
        return TwinItState(phase="setup", piles=(Pile(0),) * n, table=(), captures=((),) * n)

    def state_to_json(self, state: TwinItState) -> dict[str, JSON]:
        return codec.state_to_json(state)

    def state_from_json(self, obj: Mapping[str, JSON]) -> TwinItState:
        state = codec.state_from_json(obj)
        broken = self.check_state(state)
        if broken:
            raise InvalidState(f"Twin It state breaks the rules: {'; '.join(broken)}")
        return state

    def check_state(self, state: TwinItState) -> list[str]:
        return checks.problems(self.setup, state)

    # -- actions -----------------------------------------------------------------------------
    def parse_action(self, obj: Mapping[str, JSON]) -> Action:
        return codec.parse_action(obj, self.players)

    def action_to_json(self, action: Action) -> dict[str, JSON]:
        return codec.action_to_json(action)

    def sample_action(self, state: TwinItState, rng: random.Random) -> Action | None:
        return sampler.sample(self.setup, state, rng)

    # -- rules -------------------------------------------------------------------------------
    def _rule(self, state: TwinItState, action: Any) -> tuple[Ruling, TwinItState]:
        setup = self.setup
        if isinstance(action, Claim):
            if setup.mode in COOP_MODES:
                return cooperative.claim(setup, state, action)
            return claims.claim(setup, state, action)
        if isinstance(action, Play):
            return flow.play(setup, state, action)
        if isinstance(action, Reveal):
            return flow.reveal(setup, state, action)
        if isinstance(action, Tie):
            if setup.mode in COOP_MODES:
                return refused(
                    "no_ties",
                    "There are no ties in the cooperative minute: everyone may take any set.",
                    "Pas d'égalité dans la minute coopérative : chacun peut prendre n'importe quel lot.",
                ), state
            return claims.tie(setup, state, action)
        if isinstance(action, Deal):
            return flow.deal(setup, state, action)
        if isinstance(action, Start):
            return flow.start(setup, state, action)
        if isinstance(action, End):
            return flow.end(setup, state, action)
        if isinstance(action, Turn):
            return flow.turn(setup, state, action)
        if isinstance(action, Empty):
            return flow.empty(setup, state, action)
        if isinstance(action, Refill):
            return flow.refill(setup, state, action)
        raise TypeError(f"not a Twin It action: {action!r}")

    def judge(self, state: TwinItState, action: Action) -> Ruling:
        return self._resolve(state, action)[0]

    def apply(self, state: TwinItState, action: Action) -> tuple[TwinItState, Ruling]:
        ruling, new = self._resolve(state, action)
        return (new if ruling.applies else state), ruling

    def outcome(self, state: TwinItState) -> Outcome | None:
        return scoring.outcome(self.setup, state)

    def scores(self, state: TwinItState) -> dict[str, JSON]:
        return scoring.scores(self.setup, state)
