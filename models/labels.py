"""Class labels of the number reader: identities <-> (number class, colour class)."""

from __future__ import annotations

DECK_NAMES = ("themind", "trio", "lineit")
BETS = (3, 4, 5)
N_NUMBER_CLASSES = 100 + len(BETS)
"""Classes 0..99 are the numbers 1..100; 100, 101, 102 the bet cards +3, +4, +5."""
SUITS = ("heart", "leaf", "diamond", "star")
TRIO_COLOUR_NAMES = (
    "red", "orange", "yellow", "green", "teal", "light-blue",
    "blue", "purple", "pink", "brown", "grey", "wine",
)  # fmt: skip
"""Trio's colour of each value 1..12 (the renderer's TRIO_COLOURS, named)."""
COLOUR_CLASSES = ("none", *SUITS, *TRIO_COLOUR_NAMES)
"""Colour head classes: no colour (The Mind, bets), Line-it's four suits, Trio's twelve colours."""
DECK_CLASS_COUNT = {"themind": 100, "trio": 12, "lineit": N_NUMBER_CLASSES}
"""A deck allows the number classes below this bound."""


def parse_identity(identity: str) -> tuple[str, int, str]:
    """(deck, number class, colour class name) of a number-card identity.

    >>> parse_identity("lineit:bet:+4")
    ('lineit', 101, 'none')
    """
    parts = identity.split(":")
    deck = parts[0]
    if deck not in DECK_NAMES or len(parts) < 2:
        raise ValueError(f"identity {identity!r}: expected themind:N, trio:N, lineit:N:suit or lineit:bet:+N")
    if deck == "lineit" and parts[1] == "bet":
        bet = int(parts[2].lstrip("+"))
        return deck, 100 + BETS.index(bet), "none"
    number = int(parts[1])
    if not 1 <= number <= (12 if deck == "trio" else 100):
        raise ValueError(f"identity {identity!r}: number out of range")
    colour = "none"
    if deck == "trio":
        colour = TRIO_COLOUR_NAMES[number - 1]
    if deck == "lineit":
        colour = parts[2]
        if colour not in SUITS:
            raise ValueError(f"identity {identity!r}: suit must be one of {SUITS}")
    return deck, number - 1, colour


def number_of_class(cls: int) -> tuple[str, int]:
    """("number", n) or ("bet", +n) of a number class."""
    if cls < 100:
        return "number", cls + 1
    return "bet", BETS[cls - 100]


def colour_classes(deck: str, number_cls: int) -> tuple[int, int] | None:
    """The slice of colour classes a card of ``deck`` may have (None: the card has no colour)."""
    if deck == "lineit" and number_cls < 100:
        return 1, 1 + len(SUITS)
    if deck == "trio":
        return 1 + len(SUITS), len(COLOUR_CLASSES)
    return None


def deck_identities(deck: str) -> list[str]:
    """Every identity of a number deck, in deck order (Line-it's suits cycle; its bets come last)."""
    if deck == "themind":
        return [f"themind:{n}" for n in range(1, 101)]
    if deck == "trio":
        return [f"trio:{n}" for n in range(1, 13)]
    if deck == "lineit":
        return [f"lineit:{n}:{SUITS[(n - 1) % 4]}" for n in range(1, 101)] + [
            f"lineit:bet:+{b}" for b in (3, 4, 5)
        ]
    raise ValueError(f"deck {deck!r}: expected one of ('themind', 'trio', 'lineit')")
