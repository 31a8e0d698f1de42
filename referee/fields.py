"""Field readers shared by the games' action parsers (on top of :func:`referee.protocol.require`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.errors import MalformedAction
from referee.protocol import require
from referee.types import JSON

SeatReader = Callable[[Mapping[str, JSON], str], int]
"""Reads a seat (index or name) from a field: :meth:`referee.protocol.Game.parse_player`."""


def seat_list(obj: Mapping[str, Any], key: str, player: SeatReader) -> tuple[int, ...]:
    """The seats listed in ``obj[key]``; an entry that is no player raises quoting the whole action.

    >>> from referee.registry import make_game
    >>> seat_list({"hands_up": [0, "Ben"]}, "hands_up", make_game("themind", ["Ana", "Ben"]).parse_player)
    (0, 1)
    """
    values = require(obj, key, list)
    try:
        return tuple(player({key: v}, key) for v in values)
    except MalformedAction as exc:
        raise MalformedAction(f"{exc} (in action {dict(obj)!r})") from None
