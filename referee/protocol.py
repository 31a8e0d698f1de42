"""The protocol every game follows (see DESIGN.md, "Referee shape").

A :class:`Game` holds the fixed facts of one play (players, mode, options) and knows the rules;
a state is an immutable value (a frozen dataclass per game). The split follows OpenSpiel's
``Game`` / ``State`` and python-chess's habit of naming what mutates: nothing here mutates, and
``apply`` returns a new state.

    >>> from referee.registry import make_game
    >>> game = make_game("themind", players=["Ana", "Ben"])
    >>> state = game.initial_state()
    >>> ruling = game.judge(state, action)          # doctest: +SKIP
    >>> state, ruling = game.apply(state, action)   # doctest: +SKIP
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from referee.errors import InvalidConfig, MalformedAction
from referee.types import JSON, Outcome, Ruling

S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True)
class GameConfig:
    """The fixed facts of one play, as written in a record's header."""

    players: tuple[str, ...]
    """Player names in seating order (clockwise); a player is referred to by seat index."""
    mode: str
    """The game's mode, e.g. ``"competitive"``; each game lists its own."""
    options: Mapping[str, JSON] = field(default_factory=dict)
    """Game-specific options (variants, rule sets, configurable tables)."""

    def to_json(self) -> dict[str, JSON]:
        return {"players": list(self.players), "mode": self.mode, "options": dict(self.options)}


class Game(ABC, Generic[S, A]):
    """The rules of one game for one set of fixed facts.

    Subclasses set :attr:`name`, :attr:`modes` and :attr:`default_mode`, validate the config in
    ``__init__`` (raising :class:`InvalidConfig`) and implement the abstract methods.
    """

    name: ClassVar[str]
    """Registry key, e.g. ``"twinit"``."""
    title: ClassVar[str]
    """Human name, e.g. ``"Twin It"``."""
    modes: ClassVar[tuple[str, ...]]
    """Every mode this game supports; the first is the default."""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6

    def __init__(self, config: GameConfig) -> None:
        if config.mode not in self.modes:
            raise InvalidConfig(
                f"unknown mode {config.mode!r} for {self.name}: expected one of {', '.join(self.modes)}"
            )
        n = len(config.players)
        if not self.min_players <= n <= self.max_players:
            raise InvalidConfig(
                f"{self.name} needs {self.min_players} to {self.max_players} players, got {n}"
            )
        if len(set(config.players)) != n or any(not str(p).strip() for p in config.players):
            raise InvalidConfig(f"player names must be distinct and non-empty: {list(config.players)!r}")
        self.config = config

    @classmethod
    @abstractmethod
    def sample_configs(cls) -> list[GameConfig]:
        """Configurations the generic random-game test and the benchmarks cover: every mode and
        the player counts worth checking."""

    # -- fixed facts -------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self.config.players

    @property
    def num_players(self) -> int:
        return len(self.config.players)

    @property
    def mode(self) -> str:
        return self.config.mode

    def header(self) -> dict[str, JSON]:
        """The record header of this play."""
        return {"game": self.name, **self.config.to_json()}

    def __repr__(self) -> str:
        return (
            f"make_game({self.name!r}, players={list(self.players)!r}, mode={self.mode!r}, "
            f"options={dict(self.config.options)!r})"
        )

    # -- states ------------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self) -> S:
        """The state before the first action (deals and reveals are actions of their own)."""

    @abstractmethod
    def state_to_json(self, state: S) -> dict[str, JSON]:
        """The state as plain JSON."""

    @abstractmethod
    def state_from_json(self, obj: Mapping[str, JSON]) -> S:
        """The state from plain JSON; raises :class:`~referee.errors.InvalidState` if it is broken."""

    @abstractmethod
    def check_state(self, state: S) -> list[str]:
        """Every broken invariant of ``state`` as a sentence; empty when the state is sound.

        This checks a whole position apart from any move (a layout recognised by the camera, a
        state read from JSON): no card twice, no card created or lost, counters within caps...
        """

    # -- actions -----------------------------------------------------------------------------
    @abstractmethod
    def parse_action(self, obj: Mapping[str, JSON]) -> A:
        """The action from plain JSON; raises :class:`~referee.errors.MalformedAction`."""

    @abstractmethod
    def action_to_json(self, action: A) -> dict[str, JSON]:
        """The action as plain JSON (one record line); has a ``"type"`` key."""

    def legal_actions(self, state: S) -> Sequence[A] | None:
        """Every legal action where that set is finite and small, else ``None``."""
        return None

    @abstractmethod
    def sample_action(self, state: S, rng: random.Random) -> A | None:
        """A random action that applies in ``state`` (table events included), or ``None`` when the
        game is over. Used by the random-game tests and benchmarks; must be deterministic for a
        given ``rng`` state."""

    # -- rules -------------------------------------------------------------------------------
    @abstractmethod
    def judge(self, state: S, action: A) -> Ruling:
        """The ruling on ``action`` in ``state``, changing nothing."""

    @abstractmethod
    def apply(self, state: S, action: A) -> tuple[S, Ruling]:
        """The state after ``action`` and the ruling; the state is unchanged when the ruling does
        not apply."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    @abstractmethod
    def scores(self, state: S) -> dict[str, JSON]:
        """The scoreboard as shown to players (per player or team; game-specific shape)."""

    # -- helpers for subclasses --------------------------------------------------------------
    def parse_player(self, obj: Mapping[str, JSON], key: str = "player") -> int:
        """A seat index read from ``obj[key]``: an index or a player's name."""
        if key not in obj:
            raise MalformedAction(f"action {dict(obj)!r} lacks {key!r}")
        value = obj[key]
        if isinstance(value, bool):
            raise MalformedAction(f"{key} {value!r} in {dict(obj)!r} is not a player")
        if isinstance(value, int) and 0 <= value < self.num_players:
            return value
        if isinstance(value, str) and value in self.players:
            return self.players.index(value)
        raise MalformedAction(
            f"{key} {value!r} in {dict(obj)!r} is not a player: expected a seat 0..{self.num_players - 1}"
            f" or one of {list(self.players)!r}"
        )


def require(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """``obj[key]`` checked against ``kind``; raises :class:`MalformedAction` quoting ``obj``."""
    if not isinstance(obj, Mapping):
        raise MalformedAction(f"action {obj!r} is not a JSON object")
    if key not in obj:
        raise MalformedAction(f"action {dict(obj)!r} lacks {key!r}")
    value = obj[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise MalformedAction(f"{key} {value!r} in {dict(obj)!r} is not {_kind_name(kinds)}")
    if not isinstance(value, kinds):
        raise MalformedAction(f"{key} {value!r} in {dict(obj)!r} is not {_kind_name(kinds)}")
    return value


def _kind_name(kinds: tuple[type, ...]) -> str:
    names = {int: "an integer", str: "a string", list: "a list", dict: "an object", bool: "a boolean"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)
