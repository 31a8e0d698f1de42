"""Line-it's deck: 100 number cards 1..100 in four colours, and +3 / +4 / +5 bet cards.

Cards are strings, as in records: a number card is ``"57:heart"``, a bet card ``"bet:+3"``.

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

    def check_card(self, card: object, where: str) -> str:
        """``card`` if it is a card of this deck, else :class:`MalformedAction`."""
        if not isinstance(card, str):
            raise MalformedAction(f"{where}: card {card!r} is not a string like '57:heart' or 'bet:+3'")
        if is_bet(card):
            if card not in {f"bet:+{v}" for v, k in self.bets if k > 0}:
                raise MalformedAction(f"{where}: {card!r} is not a bet card of this deck")
            return card
        number, _, colour = card.partition(":")
        if not number.isdigit() or not 1 <= int(number) <= 100:
            raise MalformedAction(f"{where}: card {card!r} is not a card like '57:heart' or 'bet:+3'")
        expected = self.colour_of[int(number) - 1]
        if colour != expected:
            raise MalformedAction(f"{where}: card {card!r}: number {number} is {expected} in this deck")
        return card


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
    return int(card.removeprefix("bet:+"))


def number(card: str) -> int:
    return int(card.partition(":")[0])


def colour(card: str) -> str:
    return card.partition(":")[2]
