"""Twin It refereed with an enrolled deck: the deck folder checked, the judge that uses it, and the
adapter whose panel says so.

A real Twin It table has a known deck that the players enrol once (``tableref enroll --deck twinit
... --out DIR``). With ``--deck DIR`` the live adapter judges slaps with
``EnrolledJudge(PatternJudge(), EnrolledDeck.load(DIR))`` instead of the pair judge alone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from calibration.deck import EnrolledDeck
from calibration.errors import InputError
from web.adapters.base import row
from web.adapters.twinit import TwinItAdapter
from web.adapters.twinit_match import HEAD_PAIRS, SIGNATURE_BATCH, judge_compare
from web.live_game import LiveGame
from web.settings import Settings

log = logging.getLogger(__name__)


class DeckError(InputError):
    """A ``--deck`` folder that cannot be used (one line naming it and what was expected)."""


@dataclass(frozen=True)
class DeckInfo:
    """What the page says of the enrolled deck."""

    folder: Path
    cards: int
    """Cards enrolled with a usable reference."""
    listed: int
    """Cards the deck lists (some may have no usable reference)."""
    rules: bool = True
    """Whether the deck rules pairs: False while the judge has no calibrated closed-set rule or a
    card of the deck has no usable reference (the pair judge answers alone then)."""


def check_deck(folder: Path | str, game: str = "twinit") -> EnrolledDeck:
    """The enrolled Twin It deck in ``folder``; :class:`DeckError` when it is missing, is not an
    enrolled deck, holds another game's deck, or has no usable reference."""
    folder = Path(folder)
    hint = "expected an enrolled Twin It deck (tableref enroll --deck twinit ... --out DIR)"
    if game != "twinit":
        raise DeckError(f"--deck {str(folder)!r}: only Twin It is judged with an enrolled deck, not {game!r}")
    if not folder.is_dir():
        raise DeckError(f"--deck {str(folder)!r}: no such folder; {hint}")
    if not (folder / "deck.json").is_file():
        raise DeckError(f"--deck {str(folder)!r}: no deck.json in it; {hint}")
    try:
        deck = EnrolledDeck.load(folder)
    except InputError as exc:
        raise DeckError(f"--deck {str(folder)!r}: {exc}; {hint}") from exc
    if deck.deck != "twinit":
        raise DeckError(f"--deck {str(folder)!r} holds a {deck.deck!r} deck; {hint}")
    if not deck.readable_ids():
        raise DeckError(f"--deck {str(folder)!r}: no card has a usable reference; {hint}")
    return deck


HEAD_ROWS = HEAD_PAIRS * 16
"""Pair-turns per head call of the enrolled judge's pair judge: the live matcher's pairs per call
(:data:`web.adapters.twinit_match.HEAD_PAIRS`) of 16 rows each."""


def bounded_judge() -> Any:
    """A ``PatternJudge`` whose network calls stay small: signatures :data:`SIGNATURE_BATCH` crops a
    call, the head :data:`HEAD_ROWS` rows a call; the same values as the judge's own batches.

    The inference runtime keeps, for good, memory for the largest batch it has run. Loading an
    enrolled deck signs every reference in one call and scores the deck check's pairs in calls of
    1024 rows: a 269-card deck took the bench server from 297 to 813 MB. This judge is built for
    the live server, where the process lives for hours."""
    from vision.identity.judge import PatternJudge

    class BoundedJudge(PatternJudge):
        HEAD_BATCH = HEAD_ROWS

        def signatures(self, crops: list[Any], source_px: list[float | None] | None = None) -> list[Any]:
            out: list[Any] = []
            for k in range(0, len(crops), SIGNATURE_BATCH):
                px = None if source_px is None else source_px[k : k + SIGNATURE_BATCH]
                out.extend(super().signatures(crops[k : k + SIGNATURE_BATCH], source_px=px))
            return out

    return BoundedJudge()


def enrolled_judge(folder: Path | str, game: str = "twinit") -> tuple[Any, DeckInfo]:
    """``EnrolledJudge(PatternJudge(), EnrolledDeck.load(folder))`` (checked by :func:`check_deck`,
    the pair judge's batches bounded: :func:`bounded_judge`) and what the page says of its deck."""
    from vision.identity.enrolled import EnrolledJudge

    deck = check_deck(folder, game)
    judge = EnrolledJudge(bounded_judge(), deck)
    info = DeckInfo(Path(folder), len(deck.readable_ids()), len(deck.cards), judge.rule is not None)
    log.info(
        "Twin It judged with the enrolled deck %s (%d of %d cards)%s",
        folder,
        info.cards,
        info.listed,
        "" if info.rules else ": not used, the pair judge answers alone",
    )
    return judge, info


class EnrolledTwinItAdapter(TwinItAdapter):
    """The Twin It adapter judging with an enrolled deck; its panel's first line says so."""

    deck_info: DeckInfo | None = None

    def panel_rows(self) -> list[dict[str, Any]]:
        rows = super().panel_rows()
        info = self.deck_info
        if info is not None:
            rows.insert(0, deck_row(info))
        return rows


def deck_row(info: DeckInfo) -> dict[str, Any]:
    """The panel's line on the enrolled deck (English and French)."""
    if info.cards == info.listed:
        en, fr = f"enrolled, {info.cards} cards", f"enregistré, {info.cards} cartes"
    else:
        en = f"enrolled, {info.cards} of {info.listed} cards"
        fr = f"enregistré, {info.cards} cartes sur {info.listed}"
    if not info.rules:
        en, fr = f"{en} (not used)", f"{fr} (pas utilisé)"
    return {**row("Deck", "Jeu", en), "value_fr": fr}


def enrolled_adapter(judge: Any, info: DeckInfo) -> Callable[[LiveGame, Settings], TwinItAdapter]:
    """The adapter factory judging with ``judge`` (an ``EnrolledJudge``), with its own thresholds."""

    def factory(live: LiveGame, settings: Settings) -> TwinItAdapter:
        adapter = EnrolledTwinItAdapter(
            live, settings, judge_compare(judge), judge.same_at, judge.different_below, judge
        )
        adapter.deck_info = info
        return adapter

    return factory
