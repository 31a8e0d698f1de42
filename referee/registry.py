"""Every game by its registry name, and a factory that builds one from its fixed facts."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping

from referee.errors import InvalidConfig
from referee.protocol import Game, GameConfig
from referee.types import JSON

# name -> "module:Class"; imported lazily so one broken game never hides the others.
_GAMES: dict[str, str] = {
    "twinit": "referee.twinit.game:TwinItGame",
    "trio": "referee.trio.game:TrioGame",
    "themind": "referee.themind.game:TheMindGame",
    "lineit": "referee.lineit.game:LineItGame",
    "twixt": "referee.twixt.game:TwixtGame",
}


def game_names() -> tuple[str, ...]:
    """The registry names of the games, in a fixed order."""
    return tuple(_GAMES)


def game_class(name: str) -> type[Game]:
    """The :class:`Game` subclass registered as ``name``."""
    if name not in _GAMES:
        raise InvalidConfig(f"unknown game {name!r}: expected one of {', '.join(_GAMES)}")
    module_name, _, class_name = _GAMES[name].partition(":")
    return getattr(importlib.import_module(module_name), class_name)


def make_game(
    name: str,
    players: Iterable[str],
    mode: str | None = None,
    options: Mapping[str, JSON] | None = None,
) -> Game:
    """A game of ``name`` for ``players`` (names, seating order) in ``mode`` (default: the first)."""
    cls = game_class(name)
    config = GameConfig(
        players=tuple(str(p) for p in players),
        mode=mode if mode is not None else cls.modes[0],
        options=dict(options or {}),
    )
    return cls(config)
