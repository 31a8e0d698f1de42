"""An enrolled deck: one reference crop per physical card face, stored as files and reused.

Layout of a deck folder::

    deck.json          {"deck": "twinit", "cards": {card_id: {"file", "reading", "readable", "problem"}},
                        "groups": {"judge": fingerprint, "groups": [[card_id, ...], ...]}}  (Twin It)
    refs/<card_id>.png the reference crop of each card

Enrolling a card again replaces its reference. Signatures are recomputed from the references
when a deck is loaded (a changed model never meets stale signatures). A Twin It deck may keep its
pattern groups (which cards show one pattern) with the fingerprint of the judge that made them: a
deck check takes seconds, and a judge with another fingerprint makes them again; enrolling or
removing a card drops them.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np

from calibration.errors import InputError

log = logging.getLogger(__name__)

DECKS = ("twinit", "themind", "trio", "lineit")
_CARD_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


@dataclass(frozen=True)
class EnrolledCard:
    """One enrolled card face."""

    card_id: str
    """Stable name of the card in this deck (file-safe: letters, digits, ``_.-``)."""
    file: str
    """Reference crop, relative to the deck folder."""
    readable: bool = True
    """False when the crop could not be used (too small, blurred, or an uncertain read)."""
    problem: str = ""
    """Why it is unreadable."""
    reading: dict | None = None
    """For number decks: ``{"kind", "number", "colour", "confidence"}``."""


@dataclass
class EnrolledDeck:
    """The enrolled faces of one deck, in ``folder``."""

    folder: Path
    deck: str
    cards: dict[str, EnrolledCard] = field(default_factory=dict)
    groups: dict | None = None
    """Twin It: ``{"judge": fingerprint, "groups": [[card_id, ...], ...]}`` from the last deck check
    (None: not made yet, or a card changed since)."""

    def groups_for(self, fingerprint: str) -> list[list[str]] | None:
        """The kept pattern groups if the judge of ``fingerprint`` made them, else None."""
        if not self.groups or self.groups.get("judge") != fingerprint:
            return None
        return [list(g) for g in self.groups["groups"]]

    def keep_groups(self, fingerprint: str, groups: list[list[str]]) -> None:
        """Keep the pattern groups the judge of ``fingerprint`` made (saved with the deck)."""
        self.groups = {"judge": fingerprint, "groups": [list(g) for g in groups]}

    @classmethod
    def create(cls, folder: Path, deck: str) -> EnrolledDeck:
        if deck not in DECKS:
            raise InputError(f"deck {deck!r}: expected one of {', '.join(DECKS)}")
        folder = Path(folder)
        (folder / "refs").mkdir(parents=True, exist_ok=True)
        return cls(folder, deck)

    @classmethod
    def load(cls, folder: Path) -> EnrolledDeck:
        folder = Path(folder)
        path = folder / "deck.json"
        if not path.is_file():
            raise InputError(f"enrolled deck {folder}: no deck.json (enrol with `tableref enroll`)")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            cards = {cid: EnrolledCard(card_id=cid, **c) for cid, c in data["cards"].items()}
            deck = str(data["deck"])
            groups = data.get("groups")
            if groups is not None:
                str(groups["judge"])
                if any(cid not in cards for g in groups["groups"] for cid in g):
                    raise KeyError("a grouped card is not enrolled")
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(f"enrolled deck {path}: corrupt ({exc})") from exc
        if deck not in DECKS:
            raise InputError(f"enrolled deck {path}: unknown deck {deck!r}")
        return cls(folder, deck, cards, groups)

    def save(self) -> Path:
        data = {
            "deck": self.deck,
            "cards": {
                cid: {k: v for k, v in asdict(c).items() if k != "card_id"} for cid, c in self.cards.items()
            },
        }
        if self.groups is not None:
            data["groups"] = self.groups
        path = self.folder / "deck.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(path)
        return path

    def put(
        self,
        card_id: str,
        crop: np.ndarray,
        readable: bool = True,
        problem: str = "",
        reading: dict | None = None,
    ) -> EnrolledCard:
        """Store (or replace) the reference of ``card_id``."""
        if not _CARD_ID.match(card_id):
            raise InputError(f"card id {card_id!r}: expected 1-64 letters, digits, '_', '.' or '-'")
        if not isinstance(crop, np.ndarray) or crop.dtype != np.uint8 or crop.ndim != 3:
            raise InputError(f"card {card_id}: expected a BGR uint8 crop")
        rel = f"refs/{card_id}.png"
        (self.folder / "refs").mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(self.folder / rel), crop):
            raise InputError(f"card {card_id}: could not write {self.folder / rel}")
        card = EnrolledCard(card_id, rel, readable, problem, reading)
        self.cards[card_id] = card
        self.groups = None
        return card

    def put_missing(self, card_id: str, problem: str) -> EnrolledCard:
        """Record a card that has no usable image (e.g. the finder did not cut it out)."""
        if not _CARD_ID.match(card_id):
            raise InputError(f"card id {card_id!r}: expected 1-64 letters, digits, '_', '.' or '-'")
        old = self.cards.get(card_id)
        if old is not None and old.file:
            (self.folder / old.file).unlink(missing_ok=True)
        card = EnrolledCard(card_id, "", False, problem, None)
        self.cards[card_id] = card
        self.groups = None
        return card

    def reference(self, card_id: str) -> np.ndarray:
        card = self.cards.get(card_id)
        if card is None:
            raise InputError(f"card {card_id!r} is not enrolled in {self.folder}")
        img = cv2.imread(str(self.folder / card.file), cv2.IMREAD_COLOR)
        if img is None:
            raise InputError(
                f"reference {self.folder / card.file}: missing or unreadable (re-enrol {card_id})"
            )
        return img

    def readable_ids(self) -> list[str]:
        return sorted(cid for cid, c in self.cards.items() if c.readable)
