"""What is shared by games played with the hands known or unknown (Trio, The Mind).

A camera never sees hidden hands, so those games run either way: with the hands known, the deal
lists them; with the hands unknown, only what is revealed is ever known.
"""

from __future__ import annotations

from referee.types import Ruling, refused


def deal_hands_refusal(known: bool, listed: bool) -> Ruling | None:
    """The refusal of a deal that lists hands when they are unknown, or not when they are known."""
    if known and not listed:
        return refused(
            "hands_needed",
            "This game is played with the hands known: the deal must list them.",
            "Cette partie se joue mains connues : la distribution doit les donner.",
        )
    if not known and listed:
        return refused(
            "hands_unknown",
            "This game is played with the hands unknown: the deal cannot list them.",
            "Cette partie se joue mains inconnues : la distribution ne peut pas les donner.",
        )
    return None
