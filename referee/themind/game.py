"""The Mind as a :class:`~referee.protocol.Game`: modes, options, JSON, and the protocol's methods.

Modes: ``normal`` and ``blind`` (cards face down, errors counted at the end of each level). Options:
``hands``: ``"known"`` (every deal lists the hands) or ``"unknown"`` (a camera sees only the pile
and the cards put face up); ``levels``: how many levels to play (default by player count: 12 / 10 /
8 for 2 / 3 / 4 players); ``slide_under`` (blind mode): ``"earliest"`` (default) or ``"latest"``,
the higher card a late card slides under in the end-of-level count (a decision: the seed is silent).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from referee.errors import InvalidConfig, InvalidState
from referee.memo import LastResolution
from referee.protocol import Game, GameConfig
from referee.themind import actions as mind_actions
from referee.themind import state as mind_state
from referee.themind.actions import MindAction, PlayCard, Star
from referee.themind.checks import check_state
from referee.themind.rules import resolve
from referee.themind.sampler import sample_action
from referee.themind.setup import Setup
from referee.themind.state import MindState
from referee.themind.tables import LEVELS, SLIDE_UNDER, START_STARS
from referee.types import JSON, Outcome, Reason, Ruling

HANDS = ("known", "unknown")


class TheMindGame(Game[MindState, MindAction]):
    """The Mind for 2 to 4 players."""

    name = "themind"
    title = "The Mind"
    modes = ("normal", "blind")
    min_players = 2
    max_players = 4

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        options = dict(config.options)
        unknown = sorted(set(options) - {"hands", "levels", "slide_under"})
        if unknown:
            raise InvalidConfig(
                f"unknown The Mind options {unknown!r}: expected 'hands', 'levels' and 'slide_under'"
            )
        hands = options.get("hands", "known")
        if hands not in HANDS:
            raise InvalidConfig(f"The Mind option hands {hands!r}: expected 'known' or 'unknown'")
        levels = options.get("levels", LEVELS[self.num_players])
        if isinstance(levels, bool) or not isinstance(levels, int) or not 1 <= levels <= 12:
            raise InvalidConfig(f"The Mind option levels {levels!r}: expected an integer 1..12")
        slide_under = options.get("slide_under", "earliest")
        if slide_under not in SLIDE_UNDER:
            raise InvalidConfig(
                f"The Mind option slide_under {slide_under!r}: expected 'earliest' or 'latest'"
            )
        if slide_under != "earliest" and config.mode != "blind":
            raise InvalidConfig("The Mind option slide_under is for the blind mode's count")
        self.setup = Setup(
            names=self.players,
            blind=config.mode == "blind",
            known=hands == "known",
            levels=levels,
            slide_under=slide_under,
        )
        self._resolve = LastResolution(lambda state, action: resolve(self.setup, state, action))

    @classmethod
    def sample_configs(cls) -> list[GameConfig]:
        names = ("Ana", "Ben", "Chloé", "Dev")
        return [
            GameConfig(names[:2], "normal"),
            GameConfig(names[:4], "normal", {"levels": 3}),
            GameConfig(names[:3], "normal", {"hands": "unknown"}),
            GameConfig(names[:3], "blind"),
            GameConfig(names[:2], "blind", {"hands": "unknown", "levels": 4, "slide_under": "latest"}),
        ]

    # -- states ------------------------------------------------------------------------------
    def initial_state(self) -> MindState:
        n = self.num_players
        return MindState(level=1, phase="deal", lives=n, stars=START_STARS, hands=((),) * n, counts=(0,) * n)

    def state_to_json(self, state: MindState) -> dict[str, JSON]:
        return mind_state.state_to_json(state)

    def state_from_json(self, obj: Mapping[str, JSON]) -> MindState:
        state = mind_state.state_from_json(obj)
        problems = self.check_state(state)
        if problems:
            raise InvalidState(f"The Mind state is broken: {'; '.join(problems)}")
        return state

    def check_state(self, state: MindState) -> list[str]:
        return check_state(self.setup, state)

    # -- actions -----------------------------------------------------------------------------
    def parse_action(self, obj: Mapping[str, JSON]) -> MindAction:
        return mind_actions.parse_action(obj, self.parse_player)

    def action_to_json(self, action: MindAction) -> dict[str, JSON]:
        return mind_actions.action_to_json(action)

    def legal_actions(self, state: MindState) -> Sequence[MindAction] | None:
        """With the hands known, during a level: every card any player may put down (an error is a
        legal move with its penalty) and the star when one is left."""
        if not self.setup.known or state.phase != "play":
            return None
        options: list[MindAction] = [PlayCard(p, c) for p, hand in enumerate(state.hands) for c in hand]
        if state.stars:
            options.append(Star(tuple(range(self.num_players))))
        return options

    def sample_action(self, state: MindState, rng: random.Random) -> MindAction | None:
        return sample_action(self.setup, state, rng)

    # -- rules -------------------------------------------------------------------------------
    def judge(self, state: MindState, action: MindAction) -> Ruling:
        return self._resolve(state, action)[0]

    def apply(self, state: MindState, action: MindAction) -> tuple[MindState, Ruling]:
        ruling, new = self._resolve(state, action)
        return new, ruling

    def outcome(self, state: MindState) -> Outcome | None:
        if state.phase == "won":
            levels = self.setup.levels
            return Outcome(
                winners=tuple(range(self.num_players)),
                reason=Reason(
                    "all_levels",
                    f"The team completed all {levels} levels.",
                    f"L'équipe a terminé les {levels} niveaux.",
                ),
            )
        if state.phase == "lost":
            return Outcome(
                winners=(),
                reason=Reason(
                    "no_lives",
                    f"No lives left at level {state.level}: the team lost.",
                    f"Plus de vie au niveau {state.level} : l'équipe a perdu.",
                ),
            )
        return None

    def scores(self, state: MindState) -> dict[str, JSON]:
        return {
            "level": state.level,
            "levels": self.setup.levels,
            "lives": state.lives,
            "stars": state.stars,
            "phase": state.phase,
            "cards_left": {name: state.counts[i] for i, name in enumerate(self.players)},
        }
