"""Trio as a :class:`~referee.protocol.Game`: modes, options, JSON, and the protocol's methods.

Modes: ``simple`` (three trios, or the trio of 7), ``picante`` (two linked trios, or the trio of
7) and ``teams`` (4 or 6 players in pairs facing each other, no centre, partners share their trios;
option ``goal``: ``"simple"`` or ``"picante"``). Option ``hands``: ``"known"`` (the deal lists every
hand) or ``"unknown"`` (a camera: only reveals are seen).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from referee.errors import InvalidConfig, InvalidState
from referee.memo import LastResolution
from referee.protocol import Game, GameConfig
from referee.trio import actions as trio_actions
from referee.trio import state as trio_state
from referee.trio.actions import Ask, Exchange, RevealCentre, TrioAction
from referee.trio.cards import GOALS, partners
from referee.trio.checks import check_state
from referee.trio.rules import resolve
from referee.trio.sampler import sample_action
from referee.trio.setup import Setup, collections, winners
from referee.trio.state import TrioState
from referee.types import JSON, Outcome, Reason, Ruling

HANDS = ("known", "unknown")


class TrioGame(Game[TrioState, TrioAction]):
    """Trio for 3 to 6 players."""

    name = "trio"
    title = "Trio"
    modes = ("simple", "picante", "teams")
    min_players = 3
    max_players = 6

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        options = dict(config.options)
        unknown = sorted(set(options) - {"hands", "goal"})
        if unknown:
            raise InvalidConfig(f"unknown Trio options {unknown!r}: expected 'hands' and, in teams, 'goal'")
        hands = options.get("hands", "known")
        if hands not in HANDS:
            raise InvalidConfig(f"Trio option hands {hands!r}: expected 'known' or 'unknown'")
        teams = config.mode == "teams"
        if teams and self.num_players not in (4, 6):
            raise InvalidConfig(f"Trio in teams needs 4 or 6 players, got {self.num_players}")
        if "goal" in options and not teams:
            raise InvalidConfig("Trio option goal is for the teams mode; simple and picante are modes")
        goal = options.get("goal", "simple") if teams else config.mode
        if goal not in GOALS:
            raise InvalidConfig(f"Trio option goal {goal!r}: expected 'simple' or 'picante'")
        self.setup = Setup(names=self.players, teams=teams, goal=goal, known=hands == "known")
        self._resolve = LastResolution(lambda state, action: resolve(self.setup, state, action))

    @classmethod
    def sample_configs(cls) -> list[GameConfig]:
        names = ("Ana", "Ben", "Chloé", "Dev", "Émile", "Fatou")
        return [
            GameConfig(names[:3], "simple"),
            GameConfig(names[:6], "simple", {"hands": "unknown"}),
            GameConfig(names[:4], "picante"),
            GameConfig(names[:5], "picante", {"hands": "unknown"}),
            GameConfig(names[:4], "teams"),
            GameConfig(names[:6], "teams", {"goal": "picante", "hands": "unknown"}),
        ]

    # -- states ------------------------------------------------------------------------------
    def initial_state(self) -> TrioState:
        return TrioState()

    def state_to_json(self, state: TrioState) -> dict[str, JSON]:
        return trio_state.state_to_json(state)

    def state_from_json(self, obj: Mapping[str, JSON]) -> TrioState:
        state = trio_state.state_from_json(obj)
        problems = self.check_state(state)
        if problems:
            raise InvalidState(f"trio state is broken: {'; '.join(problems)}")
        return state

    def check_state(self, state: TrioState) -> list[str]:
        return check_state(self.setup, state)

    # -- actions -----------------------------------------------------------------------------
    def parse_action(self, obj: Mapping[str, JSON]) -> TrioAction:
        return trio_actions.parse_action(obj, self.parse_player)

    def action_to_json(self, action: TrioAction) -> dict[str, JSON]:
        return trio_actions.action_to_json(action)

    def legal_actions(self, state: TrioState) -> Sequence[TrioAction] | None:
        """With the hands known and the cards dealt: every reveal and exchange that applies."""
        if not self.setup.known or not state.dealt or winners(self.setup, state) is not None:
            return None
        player = state.turn
        options: list[TrioAction] = [RevealCentre(player, c.slot) for c in state.centre]
        for seat in range(self.num_players):
            options += [Ask(player, seat, "smallest"), Ask(player, seat, "largest")]
        for team in state.exchanges:
            a, b = partners(team, self.num_players)
            for x in sorted(set(state.hands[a].cards)):
                for y in sorted(set(state.hands[b].cards)):
                    assert x is not None and y is not None
                    options.append(Exchange((a, b), (x, y)))
        return [a for a in options if self.judge(state, a).applies]

    def sample_action(self, state: TrioState, rng: random.Random) -> TrioAction | None:
        return sample_action(self.setup, state, rng)

    # -- rules -------------------------------------------------------------------------------
    def judge(self, state: TrioState, action: TrioAction) -> Ruling:
        return self._resolve(state, action)[0]

    def apply(self, state: TrioState, action: TrioAction) -> tuple[TrioState, Ruling]:
        ruling, new = self._resolve(state, action)
        return new, ruling

    def outcome(self, state: TrioState) -> Outcome | None:
        won = winners(self.setup, state)
        if won is None:
            return None
        trios = next(t for seats, t in collections(self.setup, state) if seats == won)
        who = " & ".join(self.players[s] for s in won)
        listed = ", ".join(str(t) for t in trios)
        return Outcome(
            winners=won,
            reason=Reason(
                "goal_reached",
                f"{who} won with the trios {listed}.",
                f"{who} {'gagnent' if len(won) > 1 else 'gagne'} avec les trios {listed}.",
            ),
        )

    def scores(self, state: TrioState) -> dict[str, JSON]:
        out: dict[str, JSON] = {"goal": self.setup.goal}
        if self.setup.teams:
            out["teams"] = [
                {"players": [self.players[s] for s in seats], "trios": list(trios)}
                for seats, trios in collections(self.setup, state)
            ]
        else:
            out["trios"] = {self.players[s]: list(t) for s, t in enumerate(state.trios)}
        if state.dealt:
            out["turn"] = self.players[state.turn]
        return out
