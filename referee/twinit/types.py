"""Twin It's value types: where cards lie, the state of one play, and the actions of a record.

A face is an identity string (``"twinit:p042"``); two faces are identical iff their strings are
equal. The live app's vision judge supplies them; the referee takes them as facts given by the
table. ``None`` stands for a face that is on the table but not known yet (a pile's new top card,
a card that a ruling turned over): no claim can use it until a ``reveal`` says what it shows.
"""

from __future__ import annotations

from dataclasses import dataclass

TABLE = "table"
PILE = "pile"
CAPTURE = "capture"


@dataclass(frozen=True)
class Loc:
    """Where a covered card lies, as a claim names it.

    ``Loc("table", 7)`` is table card 7, ``Loc("pile", 2)`` the top of seat 2's face-up pile,
    ``Loc("capture", 1, 0)`` the first capture seat 1 has won (2 or 3 cards under one hand).
    """

    kind: str
    """``"table"``, ``"pile"`` or ``"capture"``."""
    key: int
    """The table card's id, or the seat owning the pile or the capture."""
    index: int = 0
    """The capture's index in its owner's captures (0 = first won); 0 for the other kinds."""

    def __repr__(self) -> str:
        if self.kind == CAPTURE:
            return f"Loc({self.kind!r}, {self.key}, {self.index})"
        return f"Loc({self.kind!r}, {self.key})"


@dataclass(frozen=True)
class Pile:
    """One player's face-up pile: the camera sees only its top card."""

    size: int
    """Cards in the pile."""
    top: str | None = None
    """The top card's face; ``None`` when unknown or when the pile is empty."""


@dataclass(frozen=True)
class TableCard:
    """A card lying on the table (played in competitive modes, spread in cooperative ones)."""

    id: int
    """Referee-assigned id, unique within a play (rulings report it; claims use it)."""
    face: str | None
    """The face it shows; ``None`` until revealed (e.g. after a ruling turned it over)."""


@dataclass(frozen=True)
class Capture:
    """A won capture: 2 or 3 cards of one motif, kept face up in front of their holder."""

    motif: str
    """The face all its cards show."""
    cards: int
    """2 (a pair) or 3 (a triple)."""


@dataclass(frozen=True)
class TwinItState:
    """One moment of a Twin It play. Immutable; :meth:`TwinItGame.apply` returns a new one."""

    phase: str
    """``"setup"`` (cards not dealt), ``"play"`` (competitive and team modes), ``"minute"``
    (the cooperative minute runs) or ``"over"`` (ended by an ``end`` action or a win)."""
    piles: tuple[Pile, ...]
    """One pile per seat (all empty in the cooperative modes)."""
    table: tuple[TableCard, ...]
    """Cards on the table, in the order they arrived."""
    captures: tuple[tuple[Capture, ...], ...]
    """Captures in front of each seat, in the order won."""
    turn: int | None = None
    """Seat that plays the next card (competitive and team modes); ``None`` when no pile has cards."""
    last_winner: int | None = None
    """Seat that last won cards (it restarts play), or that last erred (it restarts too)."""
    next_id: int = 0
    """Id the next card put on the table will get."""
    taboo: tuple[str, ...] = ()
    """Taboo motifs still binding the taboo player (Motifs Tabous variant)."""
    aside: int = 0
    """Cards set aside out of play (the taboo cards)."""
    lost: int = 0
    """Cards the referee lost track of: a pile the table showed empty while the referee still
    counted cards in it (captures it missed took them; see :class:`Empty`)."""
    found: int = 0
    """Cards the table showed that the referee had not counted: a card on a pile it counted empty
    with no card lost track of (a penalty it missed gave cards back, or a play it logged never
    happened; see :class:`Refill`). ``lost`` and ``found`` are never both above 0: a card found
    makes up for one lost, and the other way round."""


# -- actions ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Deal:
    """Competitive and team modes: the cards are dealt into face-up piles."""

    piles: tuple[int, ...]
    """Pile size per seat; they add up to the deck (less the taboo cards)."""
    first: int
    """Seat that plays first (the one wearing the most colours)."""
    tops: tuple[str | None, ...] | None = None
    """Each pile's top face, if the camera saw them at once (else ``reveal`` actions follow)."""
    taboo: tuple[str, ...] = ()
    """Motifs Tabous: the 3 different faces the taboo player drew and set beside their pile."""


@dataclass(frozen=True)
class Start:
    """Cooperative modes: every card spread on the table at the start signal."""

    faces: tuple[str | None, ...] | None = None
    """The face of each spread card (table ids 0..n-1), ``None`` where unseen; absent: all unseen."""


@dataclass(frozen=True)
class Reveal:
    """The table shows a face the referee did not know: a pile's new top, a card turned over."""

    loc: Loc
    """A pile top (``kind="pile"``) or a table card (``kind="table"``)."""
    face: str
    """The face now visible there."""


@dataclass(frozen=True)
class Play:
    """A player turns the top card of their pile over onto the table (their turn)."""

    player: int
    """The seat playing."""
    face: str
    """The face the card shows on the table."""
    top: str | None = None
    """The face the pile's next card shows, if the camera saw it at once (else a ``reveal``)."""


@dataclass(frozen=True)
class Claim:
    """Hands on cards: a claimed capture (or, in cooperative modes, a set put aside)."""

    players: tuple[int, ...]
    """The seat of the hand on each card, in the order of ``cards``."""
    cards: tuple[Loc, ...]
    """The covered cards (2 in competitive and team modes; 2 or 3 in cooperative ones)."""
    beaten: tuple[int, ...] = ()
    """Seats whose hand lay on top of a claimer's hand on the same card: the lower hand wins."""
    forfeit: Loc | None = None
    """On an error, the capture the erring side gives up (default: the erring player's last)."""
    at: float | None = None
    """Cooperative modes: seconds since the start signal (a claim after the minute is refused)."""
    faces: tuple[str | None, ...] | None = None
    """The camera's view of each covered card when the hands landed (``None`` where not seen):
    fills faces not known yet; one that contradicts a known face makes the ruling uncertain."""


@dataclass(frozen=True)
class Tie:
    """Two players each put a hand on one card of a pair at once: count to 3, turn the pair over."""

    players: tuple[int, int]
    """The two seats, in the order of ``cards``."""
    cards: tuple[Loc, Loc]
    """The two covered cards."""
    faces: tuple[str | None, ...] | None = None
    """The camera's view of each covered card, as in :class:`Claim`."""


@dataclass(frozen=True)
class End:
    """The table ends the play: no card left to play and no pair in sight (competitive and team
    modes), or the minute is over (cooperative modes)."""


@dataclass(frozen=True)
class Turn:
    """The table says whose turn it is to play: a correction when the referee's record has drifted
    from the table (a won capture it missed gives the restart to the winner)."""

    player: int
    """The seat to play next."""


@dataclass(frozen=True)
class Empty:
    """The table shows a player's pile empty though the referee still counts cards in it: a
    correction (captures it missed took them); the pile's cards are counted as lost."""

    player: int
    """The seat whose pile is empty."""


@dataclass(frozen=True)
class Refill:
    """The table shows a card on a pile the referee counts empty: a correction (a penalty it missed
    gave cards back, or a play it logged never happened). One of the cards it lost track of (see
    :class:`Empty`) is that pile's top; with none lost track of, the card is one the referee had
    not counted (``TwinItState.found``). Either way the referee counts one card in the pile now."""

    player: int
    """The seat whose pile shows a card."""
    face: str
    """The face it shows."""


Action = Deal | Start | Reveal | Play | Claim | Tie | End | Turn | Empty | Refill


def evolve(state: TwinItState, **changes: object) -> TwinItState:
    """``state`` with some fields changed (a faster :func:`dataclasses.replace` for the hot path)."""
    return TwinItState(**{**vars(state), **changes})  # type: ignore[arg-type]
