"""The number and colour reader for The Mind, Trio and Line-it cards, at any rotation.

A landscape crop is turned to portrait; the network was trained on cards at every quarter turn,
and (models whose settings say ``half_turns``) reads each crop as given and turned a half turn,
and (``view_trims``) also with a small share of each side cut off, and (``view_corner_cuts``) with a
small share cut off two adjacent sides at each corner, averaging all the views' logits
(``models/reader_decode.py``). Where the views read as given and those read turned confidently name
different numbers (``side_dissent_at``), the read is uncertain whatever its confidence. The deck
limits which classes may be answered
(The Mind 1-100, Trio 1-12, Line-it 1-100 or a bet +3/+4/+5). ``confidence`` is the calibrated
probability of the whole read (number and, where there is one, colour); below the model's threshold
the read is uncertain. Trio's colour follows from its number (one colour per value).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from models.files import READER
from models.labels import COLOUR_CLASSES, DECK_NAMES, number_of_class
from models.preprocess import check_crop
from models.reader_decode import decode, fuse_sides, fuse_views, side_dissent, view_inputs
from vision.errors import InputError
from vision.identity.sessions import open_model


@dataclass(frozen=True)
class Reading:
    """What one number card shows."""

    kind: str
    """``"number"`` or ``"bet"``."""
    number: int
    """The number (1..100), or the bet's value (3, 4, 5)."""
    colour: str | None
    """Line-it's suit, Trio's colour, None for The Mind and bets."""
    confidence: float
    """Calibrated probability that number and colour are both right."""
    certain: bool = True
    """False when the confidence is under the model's threshold, or the card's two half turns read
    as different numbers: treat the read as uncertain."""

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "number": self.number,
            "colour": self.colour,
            "confidence": self.confidence,
        }

    @property
    def uncertain(self) -> bool:
        """True when the read should not be trusted (see ``certain``)."""
        return not self.certain


class NumberReader:
    """Loads the reader once; ``read(crop, deck)``."""

    def __init__(self, model_dir: Path | None = None, threads: int = 1) -> None:
        self.meta, (self._session,) = open_model(READER, model_dir, threads)
        self.width = int(self.meta["input"]["width"])
        self.height = int(self.meta["input"]["height"])
        self.temperature = float(self.meta["temperature"])
        self.threshold = float(self.meta["confidence_threshold"])
        self.half_turns = bool(self.meta.get("half_turns", False))
        """Read each crop as given and turned 180 degrees, and average the logits."""
        self.view_trims = tuple(float(t) for t in self.meta.get("view_trims", [0.0]))
        """Each crop is also read with these shares of each side cut off (0: the crop as given)."""
        self.view_corner_cuts = tuple(float(t) for t in self.meta.get("view_corner_cuts", []))
        """... and with these shares cut off two adjacent sides, at each of the four corners."""
        dissent = self.meta.get("side_dissent_at")
        self.side_dissent_at = None if dissent is None or not self.half_turns else float(dissent)
        """A half turn whose views name another number at this probability or more: uncertain."""

    def _check_deck(self, deck: str) -> None:
        if deck not in DECK_NAMES:
            raise InputError(f"deck {deck!r}: expected one of {', '.join(DECK_NAMES)}")

    def read_many(self, crops: list[np.ndarray], deck: str) -> list[Reading]:
        self._check_deck(deck)
        if not crops:
            return []
        checked = []
        for i, c in enumerate(crops):
            try:
                checked.append(check_crop(c, f"crop {i}"))
            except ValueError as exc:
                raise InputError(str(exc)) from exc
        n = len(crops)
        decks = [deck] * n
        x = view_inputs(
            checked, self.width, self.height, self.view_trims, self.half_turns, self.view_corner_cuts
        )
        z_numbers, z_colours = self._session.run(None, {"crops": x})
        numbers, colours = fuse_views(z_numbers, n), fuse_views(z_colours, n)
        cls, col, conf = decode(numbers, colours, decks, self.temperature)
        sure = conf >= self.threshold
        if self.side_dissent_at is not None:
            sides_n, sides_c = fuse_sides(z_numbers, n), fuse_sides(z_colours, n)
            sure &= ~side_dissent(sides_n, sides_c, decks, self.temperature, cls, self.side_dissent_at)
        out = []
        for c, k, p, s in zip(cls.tolist(), col.tolist(), conf.tolist(), sure.tolist(), strict=True):
            kind, number = number_of_class(c)
            colour = None if k == 0 else COLOUR_CLASSES[k]
            out.append(Reading(kind, number, colour, round(p, 6), bool(s)))
        return out

    def read(self, crop: np.ndarray, deck: str) -> Reading:
        """Number, colour and confidence of one card crop of ``deck``."""
        return self.read_many([crop], deck)[0]

    @staticmethod
    def identity(reading: Reading, deck: str) -> str:
        """The identity string of a reading (``"themind:57"``, ``"lineit:bet:+3"``, ...)."""
        if reading.kind == "bet":
            return f"lineit:bet:+{reading.number}"
        if deck == "lineit":
            return f"lineit:{reading.number}:{reading.colour}"
        return f"{deck}:{reading.number}"
