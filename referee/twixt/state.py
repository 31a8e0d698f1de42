"""The Twixt state: a frozen value holding pegs and links by colour and whose turn it is."""

from __future__ import annotations

from dataclasses import dataclass

RESULTS = ("connection", "resignation", "agreed_draw", "no_connection")
"""How a game can end: a winning chain, a resignation, an agreed draw, a proven draw."""


@dataclass(frozen=True)
class TwixtState:
    """One Twixt position. Holes and links are ids of :class:`referee.twixt.geometry.Board`.

    Pegs and links belong to colours (0: the colour that moves first and joins the top and bottom
    rows; 1: the other, left and right columns); seats map to colours through :attr:`swapped`.
    """

    pegs: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
    """Hole ids of each colour's pegs."""
    links: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
    """Link ids of each colour's links."""
    turn: int = 0
    """The seat whose turn it is (or was, when :attr:`placed` is true and the other seat may peg)."""
    placed: bool = False
    """Whether the seat of :attr:`turn` has placed its peg (or passed) this turn: it may then
    link and unlink, and the other seat's peg starts the next turn."""
    swapped: bool = False
    """Whether the pie rule was used: seat 0 then plays colour 1 and seat 1 colour 0."""
    last: int | None = None
    """The hole of the last peg placed."""
    result: str | None = None
    """``None`` while the game goes on, else one of :data:`RESULTS`."""
    winner: int | None = None
    """The winning seat after a connection or a resignation."""

    def colour_of(self, seat: int) -> int:
        """The colour ``seat`` plays."""
        return seat ^ int(self.swapped)

    def seat_of(self, colour: int) -> int:
        """The seat that plays ``colour``."""
        return colour ^ int(self.swapped)

    @property
    def peg_count(self) -> int:
        return len(self.pegs[0]) + len(self.pegs[1])
