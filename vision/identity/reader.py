"""The number and colour reader for The Mind, Trio and Line-it cards, at any rotation.

A landscape crop is turned to portrait; the network was trained on upright and upside-down cards,
so the four turns are covered. The deck limits which classes may be answered (The Mind 1-100, Trio
1-12, Line-it 1-100 or a bet +3/+4/+5). ``confidence`` is the calibrated probability of the whole
read (number and, where there is one, colour); below the model's threshold the read is uncertain.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from models.files import READER
from models.labels import COLOUR_CLASSES, DECK_CLASS_COUNT, DECK_NAMES, colour_classes, number_of_class
from models.preprocess import check_crop, to_tensor
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
    """False when the confidence is under the model's threshold: treat the read as uncertain."""

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "number": self.number,
            "colour": self.colour,
            "confidence": self.confidence,
        }

    @property
    def uncertain(self) -> bool:
        """True when the read should not be trusted (confidence under the model's threshold)."""
        return not self.certain


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


class NumberReader:
    """Loads the reader once; ``read(crop, deck)``."""

    def __init__(self, model_dir: Path | None = None, threads: int = 1) -> None:
        self.meta, (self._session,) = open_model(READER, model_dir, threads)
        self.width = int(self.meta["input"]["width"])
        self.height = int(self.meta["input"]["height"])
        self.temperature = float(self.meta["temperature"])
        self.threshold = float(self.meta["confidence_threshold"])

    def _check_deck(self, deck: str) -> None:
        if deck not in DECK_NAMES:
            raise InputError(f"deck {deck!r}: expected one of {', '.join(DECK_NAMES)}")

    def read_many(self, crops: list[np.ndarray], deck: str) -> list[Reading]:
        self._check_deck(deck)
        if not crops:
            return []
        xs = []
        for i, c in enumerate(crops):
            try:
                xs.append(to_tensor(check_crop(c, f"crop {i}"), self.width, self.height))
            except ValueError as exc:
                raise InputError(str(exc)) from exc
        numbers, colours = self._session.run(None, {"crops": np.stack(xs).astype(np.float32)})
        allowed = DECK_CLASS_COUNT[deck]
        pn = _softmax(numbers[:, :allowed] / self.temperature)
        out = []
        for i in range(len(crops)):
            cls = int(pn[i].argmax())
            kind, number = number_of_class(cls)
            conf = float(pn[i, cls])
            colour: str | None = None
            span = colour_classes(deck, cls)
            if span is not None:
                pc = _softmax(colours[i, span[0] : span[1]] / self.temperature)
                j = int(pc.argmax())
                colour = COLOUR_CLASSES[span[0] + j]
                conf *= float(pc[j])
            out.append(Reading(kind, number, colour, round(conf, 6), conf >= self.threshold))
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
