"""Turn stable board readings into Twixt moves that the referee explains, or say "uncertain".

A move is committed only when (1) no hand is over the board, (2) the reading has stayed the same
for ``stable_frames`` frames with every hole sure, (3) it differs from the committed position by
exactly one new peg (plus, optionally, new links of that colour), and (4) the Twixt referee finds
the peg (and each link) legal for the player of that colour. Anything else is reported as
uncertain with the reason, and nothing is committed.

Holes that only glare hides (the board clipped at white there, no hand over the board) are taken
to hold what the committed position holds, with its links: a lamp's highlight that never moves
would otherwise keep every move waiting. A peg put down where nothing shows cannot be seen; the
next move then comes out of turn and the referee's refusal makes it uncertain, never a wrong move.

    >>> tracker = TwixtMoveTracker(reader)                # doctest: +SKIP
    >>> event = tracker.update(frame)                     # doctest: +SKIP
    >>> event.kind, event.notation                        # ("move", "D11 D11-E13")  # doctest: +SKIP
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace

import numpy as np

from referee.registry import make_game
from referee.twixt.actions import Link, Place
from referee.twixt.notation import hole_name
from vision.board.reader import BoardReader, BoardReading

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BoardEvent:
    """What one frame changed."""

    kind: str
    """``"none"`` (nothing new), ``"waiting"`` (hand over the board or not yet stable),
    ``"move"`` (committed) or ``"uncertain"`` (a change that no legal move explains)."""
    reading: BoardReading
    notation: str = ""
    """The committed move in the referee's notation: the hole, then its new links
    (``"D11 D11-E13"``)."""
    actions: tuple[dict[str, object], ...] = ()
    """The referee actions applied (JSON form)."""
    reason: str = ""
    """Why a change is uncertain, in words."""
    details: dict[str, object] = field(default_factory=dict)


def _hole(r: int, c: int) -> tuple[int, int]:
    return (c, r)


class TwixtMoveTracker:
    """Follows a Twixt game on the board, one frame at a time."""

    def __init__(
        self,
        reader: BoardReader,
        players: tuple[str, str] = ("Red", "Black"),
        stable_frames: int = 2,
        mode: str = "standard",
    ) -> None:
        self.reader = reader
        self.game = make_game(
            "twixt",
            players,
            mode,
            {"size": reader.spec.size, "colours": list(reader.spec.colours), "pie": False},
        )
        self.state = self.game.initial_state()
        n = reader.spec.size
        self.pegs = np.zeros((n, n), np.int8)
        self.links: set[tuple[int, int, int, int]] = set()
        self.stable_frames = stable_frames
        self._last: np.ndarray | None = None
        self._last_links: tuple[tuple[int, int, int, int], ...] = ()
        self._stable = 0
        self._flagged: bytes | None = None
        self.moves: list[str] = []

    def update(self, image: np.ndarray, hand_mask: np.ndarray | None = None) -> BoardEvent:
        reading = self.reader.update(image, hand_mask)
        if reading.hand_over_board:
            self._stable = 0
            self._last = None
            return BoardEvent("waiting", reading, reason="a hand is over the board")
        reading, assumed = self._under_glare(reading)
        if (reading.matrix < 0).any() or reading.uncertain_links:
            self._stable = 0
            self._last = None
            return BoardEvent("waiting", reading, reason="some holes or links are not sure yet")
        same = (
            self._last is not None
            and np.array_equal(self._last, reading.matrix)
            and self._last_links == reading.links
        )
        self._stable = self._stable + 1 if same else 1
        self._last = reading.matrix.copy()
        self._last_links = reading.links
        if np.array_equal(reading.matrix, self.pegs) and set(reading.links) == self.links:
            return BoardEvent("none", reading)
        if self._stable < self.stable_frames:
            return BoardEvent("waiting", reading, reason="the board is not still yet")
        event = self._explain(reading)
        if assumed and event.kind == "move":
            event = replace(event, details={**event.details, "assumed_under_glare": assumed})
        return event

    def _under_glare(self, reading: BoardReading) -> tuple[BoardReading, list[str]]:
        """``reading`` with the holes only glare hides (unknown, on a board clipped at white) set
        to the committed position's, and its links there kept; unchanged when other holes are
        unknown too. Also the names of the holes so assumed."""
        unknown = (reading.matrix < 0) & self.reader.spec.valid_mask()
        hidden = unknown & self.reader.clipped
        if not hidden.any() or (unknown & ~hidden).any():
            return reading, []
        matrix = reading.matrix.copy()
        matrix[hidden] = self.pegs[hidden]
        kept = set()
        for link in self.links:
            r1, c1, r2, c2 = link
            middle = [(int(np.floor((r1 + r2) / 2)), int(np.floor((c1 + c2) / 2)))]
            middle.append((int(np.ceil((r1 + r2) / 2)), int(np.ceil((c1 + c2) / 2))))
            if any(hidden[r, c] for r, c in [(r1, c1), (r2, c2), *middle]):
                kept.add(link)
        links = tuple(sorted(set(reading.links) | kept))
        unsure = tuple(lk for lk in reading.uncertain_links if lk not in kept)
        names = [hole_name(_hole(int(r), int(c))) for r, c in np.argwhere(hidden)]
        log.debug("board: %d holes hidden by glare taken as committed", len(names))
        return replace(reading, matrix=matrix, links=links, uncertain_links=unsure), names

    def _explain(self, reading: BoardReading) -> BoardEvent:
        key = reading.matrix.tobytes() + repr(reading.links).encode()
        added = np.argwhere((self.pegs == 0) & (reading.matrix > 0))
        removed = np.argwhere((self.pegs > 0) & (reading.matrix != self.pegs))
        new_links = sorted(set(reading.links) - self.links)
        gone_links = sorted(self.links - set(reading.links))
        problem = ""
        if len(removed):
            problem = f"pegs gone or changed at {', '.join(hole_name(_hole(*map(int, p))) for p in removed)}"
        elif len(added) != 1:
            problem = f"{len(added)} new pegs at once" if len(added) else "links changed without a new peg"
        elif gone_links:
            problem = "links removed"
        if problem:
            return self._uncertain(reading, key, problem)
        r, c = map(int, added[0])
        colour = int(reading.matrix[r, c]) - 1
        seat = self.state.seat_of(colour)
        state, ruling = self.game.apply(self.state, Place(seat, _hole(r, c)))
        if not ruling.applies:
            return self._uncertain(
                reading, key, f"the referee refuses {hole_name(_hole(r, c))}: {ruling.reason.en}"
            )
        actions = [Place(seat, _hole(r, c))]
        for link in new_links:
            r1, c1, r2, c2 = link
            if int(reading.matrix[r1, c1]) - 1 != colour:
                return self._uncertain(reading, key, "a new link of the other colour")
            act = Link(seat, _hole(r1, c1), _hole(r2, c2))
            state, ruling = self.game.apply(state, act)
            if not ruling.applies:
                return self._uncertain(reading, key, f"the referee refuses a link: {ruling.reason.en}")
            actions.append(act)
        self.state = state
        self.pegs = reading.matrix.copy()
        self.links = set(reading.links)
        name = hole_name(_hole(r, c))
        notation = " ".join([name, *(f"{hole_name(a.a)}-{hole_name(a.b)}" for a in actions[1:])])
        self.moves.append(notation)
        log.info("move %s committed", notation)
        return BoardEvent("move", reading, notation, tuple(self.game.action_to_json(a) for a in actions))

    def _uncertain(self, reading: BoardReading, key: bytes, reason: str) -> BoardEvent:
        if key != self._flagged:
            log.info("uncertain board change: %s", reason)
            self._flagged = key
        return BoardEvent("uncertain", reading, reason=reason)
