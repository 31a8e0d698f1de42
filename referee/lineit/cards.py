"""Line-it's deck: 100 number cards 1..100 in four colours, and +3 / +4 / +5 bet cards.

Cards are strings, as in records: a number card is ``"57:heart"``, a bet card ``"bet:+3"``.
Players read them as ``"57 heart"`` / ``"57 cœur"`` and ``"bet +3"`` / ``"Pari +3"`` (:func:`words`).

Which colour each number has is printed on the card; no public source lists the whole deck.
Decision (configurable with the ``colours`` option): by default the colours cycle with the number,
``heart, leaf, diamond, star`` for 1, 2, 3, 4, then again from 5, which gives 25 of each.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from referee.errors import InvalidConfig, MalformedAction

COLOURS: tuple[str, ...] = ("heart", "leaf", "diamond", "star")
COLOURS_FR: Mapping[str, str] = {"heart": "cœur", "leaf": "feuille", "diamond": "diamant", "star": "étoile"}
"""The colours' names in French (the symbols printed on the cards)."""
BET_VALUES: tuple[int, ...] = (3, 4, 5)
DEFAULT_BETS: Mapping[int, int] = {3: 2, 4: 2, 5: 2}
"""Decision: two bet cards of each value (the ``bets`` option changes it)."""


@dataclass(frozen=True)
class Deck:
    """The composition of one play's deck."""

    colour_of: tuple[str, ...]
    """colour_of[n - 1] is the colour of number card n."""
    bets: tuple[tuple[int, int], ...]
    """(value, how many) per bet value."""

    @cached_property
    def cards(self) -> tuple[str, ...]:
        """Every card of the deck, sorted (bets repeated as often as they appear)."""
        numbers = tuple(f"{n}:{c}" for n, c in enumerate(self.colour_of, start=1))
        bets = tuple(f"bet:+{v}" for v, k in self.bets for _ in range(k))
        return tuple(sorted(numbers + bets))

    @cached_property
    def card_set(self) -> frozenset[str]:
        return frozenset(self.cards)

    @cached_property
    def by_colour(self) -> Mapping[str, frozenset[str]]:
        """The number cards of each colour (``""``: the bet cards), for fast whole-state checks."""
        out: dict[str, set[str]] = {c: set() for c in ("", *COLOURS)}
        for card in self.cards:
            out["" if is_bet(card) else colour(card)].add(card)
        return {c: frozenset(cards) for c, cards in out.items()}

    @cached_property
    def numbers(self) -> frozenset[str]:
        """The number cards."""
        return self.card_set - self.by_colour[""]

    def check_card(self, card: object, action: Mapping[str, object]) -> str:
        """``card`` if it is a card of this deck, exactly as records write it, else
        :class:`MalformedAction` quoting ``action`` and saying what was expected."""
        if isinstance(card, str) and card in self.card_set:
            return card
        where = f"card {card!r} in {dict(action)!r}"
        if not isinstance(card, str):
            raise MalformedAction(f"{where} is not a string like '57:heart' or 'bet:+3'")
        if is_bet(card):
            bets = ", ".join(f"'bet:+{v}'" for v, k in self.bets if k > 0) or "none"
            raise MalformedAction(f"{where} is not a bet card of this deck ({bets})")
        number, _, colour = card.partition(":")
        if not (
            number.isascii() and number.isdigit() and str(int(number)) == number and 1 <= int(number) <= 100
        ):
            raise MalformedAction(f"{where} is not a card like '57:heart' or 'bet:+3'")
        expected = self.colour_of[int(number) - 1]
        raise MalformedAction(f"{where}: number {number} is {expected} in this deck, not {colour!r}")


def make_deck(options: Mapping[str, object]) -> Deck:
    """The deck described by the game options ``colours`` and ``bets``."""
    colours = options.get("colours", "cyclic")
    if colours == "cyclic":
        colour_of = tuple(COLOURS[(n - 1) % 4] for n in range(1, 101))
    elif isinstance(colours, Sequence) and not isinstance(colours, str) and len(colours) == 100:
        colour_of = tuple(str(c) for c in colours)
        if set(colour_of) - set(COLOURS) or any(colour_of.count(c) != 25 for c in COLOURS):
            raise InvalidConfig(f"option colours must give 25 cards of each of {COLOURS}, got {colours!r}")
    else:
        raise InvalidConfig(f"option colours {colours!r}: expected 'cyclic' or a list of 100 colour names")
    raw_bets = options.get("bets", DEFAULT_BETS)
    if not isinstance(raw_bets, Mapping):
        raise InvalidConfig(f"option bets {raw_bets!r}: expected an object like {{'3': 2, '4': 2, '5': 2}}")
    bets: dict[int, int] = {}
    for key, count in raw_bets.items():
        try:
            value = int(str(key).lstrip("+"))
        except ValueError:
            value = -1
        if value not in BET_VALUES or not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise InvalidConfig(f"option bets {dict(raw_bets)!r}: expected counts >= 0 for values 3, 4, 5")
        bets[value] = count
    return Deck(colour_of=colour_of, bets=tuple(sorted(bets.items())))


def is_bet(card: str) -> bool:
    return card.startswith("bet:")


def bet_value(card: str) -> int:
    """3 for ``"bet:+3"``."""
    return int(card.removeprefix("bet:+"))


def number(card: str) -> int:
    """57 for ``"57:heart"``."""
    return int(card.partition(":")[0])


def colour(card: str) -> str:
    """``"heart"`` for ``"57:heart"``."""
    return card.partition(":")[2]


def words(card: str) -> tuple[str, str]:
    """How a player reads ``card``, in English and French.

    >>> words("57:heart"), words("bet:+3")
    (('57 heart', '57 cœur'), ('bet +3', 'Pari +3'))
    """
    if is_bet(card):
        value = card.removeprefix("bet:")
        return f"bet {value}", f"Pari {value}"
    n, _, col = card.partition(":")
    return f"{n} {col}", f"{n} {COLOURS_FR.get(col, col)}"
