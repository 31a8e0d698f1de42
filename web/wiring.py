"""Which vision and which adapter each game gets: the live session's collaborators, built once.

Heavy imports (onnxruntime models) happen here, when a session is built, never at import time.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from web.session import Processor

log = logging.getLogger(__name__)

NUMBER_DECKS = {"themind": "themind", "trio": "trio", "lineit": "lineit"}


def processor_for(game: str) -> Processor:
    """The card pipeline's ``process`` for ``game`` (number decks read each card once)."""
    from vision.pipeline import TablePipeline

    identify = None
    if game in NUMBER_DECKS:
        from vision.identity.reader import NumberReader

        reader = NumberReader()
        deck = NUMBER_DECKS[game]

        def identify(crop: Any) -> tuple[str | None, float]:
            reading = reader.read(crop, deck)
            identity = getattr(reading, "identity_str", None) or _reading_identity(reader, reading, deck)
            return identity, float(getattr(reading, "confidence", 0.0))

    pipeline = TablePipeline(identify=identify)
    return pipeline.process


def _reading_identity(reader: Any, reading: Any, deck: str) -> str | None:
    if getattr(reading, "uncertain", False):
        return None
    try:
        return reader.identity(reading, deck)
    except Exception:  # a reading that names no card
        return None


def collaborators_for(settings: Any) -> tuple[Processor, Any]:
    """The frame processor and the adapter factory of a live session for ``settings.game``."""
    if settings.game == "twixt":
        if settings.deck is not None:
            from web.enrolled_twinit import check_deck

            check_deck(settings.deck, settings.game)  # refused: only Twin It takes a deck
        from web.adapters.twixt import make_adapter
        from web.board_vision import BoardVision

        vision = BoardVision(tuple(settings.players), dict(settings.options))
        return vision.process, lambda live, s: make_adapter(live, s, vision)
    return processor_for(settings.game), adapter_factory_for(settings.game, settings.deck)


def adapter_factory_for(game: str, deck: Path | None = None) -> Any:
    """The adapter factory ``(live, settings) -> adapter`` for ``game``; Twin It with ``deck`` (an
    enrolled deck's folder) judges with ``EnrolledJudge(PatternJudge(), EnrolledDeck.load(deck))``."""
    if deck is not None:
        from web.enrolled_twinit import enrolled_adapter, enrolled_judge

        return enrolled_adapter(*enrolled_judge(deck, game))
    if game == "twinit":
        from vision.identity.judge import PatternJudge
        from web.adapters.twinit import judge_adapter

        return judge_adapter(PatternJudge())
    module = __import__(f"web.adapters.{game}", fromlist=["make_adapter"])
    return module.make_adapter
