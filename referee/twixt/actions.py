"""Twixt actions as frozen values; their JSON form is one record line each.

{"type": "peg", "player": 0, "at": "D11"}
{"type": "link", "player": 0, "from": "D11", "to": "E13"}
{"type": "unlink", "player": 0, "from": "D11", "to": "E13"}
{"type": "swap", "player": 1}
{"type": "pass", "player": 0}
{"type": "resign", "player": 1}
{"type": "agree_draw"}
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.twixt.notation import Hole, hole_name


@dataclass(frozen=True)
class Place:
    """``player`` puts a peg of their colour in the hole ``at``."""

    player: int
    """Seat index."""
    at: Hole
    """The hole ``(x, y)``."""

    def to_json(self) -> dict[str, object]:
        return {"type": "peg", "player": self.player, "at": hole_name(self.at)}


@dataclass(frozen=True)
class Link:
    """``player`` links two of their pegs a knight's move apart (during their turn, after the peg)."""

    player: int
    """Seat index."""
    a: Hole
    """One end."""
    b: Hole
    """The other end."""

    def to_json(self) -> dict[str, object]:
        return {"type": "link", "player": self.player, "from": hole_name(self.a), "to": hole_name(self.b)}


@dataclass(frozen=True)
class Unlink:
    """``player`` removes one of their own links (standard rules only)."""

    player: int
    """Seat index."""
    a: Hole
    """One end."""
    b: Hole
    """The other end."""

    def to_json(self) -> dict[str, object]:
        return {"type": "unlink", "player": self.player, "from": hole_name(self.a), "to": hole_name(self.b)}


@dataclass(frozen=True)
class Swap:
    """Pie rule: after the first peg, the second player takes it; the players exchange colours."""

    player: int
    """Seat index (the second player)."""

    def to_json(self) -> dict[str, object]:
        return {"type": "swap", "player": self.player}


@dataclass(frozen=True)
class Pass:
    """``player`` has no hole left to peg: their turn goes on without a peg."""

    player: int
    """Seat index."""

    def to_json(self) -> dict[str, object]:
        return {"type": "pass", "player": self.player}


@dataclass(frozen=True)
class Resign:
    """``player`` gives up; the other player wins."""

    player: int
    """Seat index."""

    def to_json(self) -> dict[str, object]:
        return {"type": "resign", "player": self.player}


@dataclass(frozen=True)
class AgreeDraw:
    """Both players agree to a draw."""

    def to_json(self) -> dict[str, object]:
        return {"type": "agree_draw"}


TwixtAction = Place | Link | Unlink | Swap | Pass | Resign | AgreeDraw
