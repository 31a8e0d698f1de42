"""A Line-it line's arithmetic: its direction, what may follow it, what its bet earns."""

from __future__ import annotations

from collections.abc import Sequence

from referee.lineit import cards as C


def line_numbers(line: Sequence[str]) -> list[int]:
    """The numbers of the line's number cards, in the order played (the bet card left out)."""
    return [int(c.partition(":")[0]) for c in line if not c.startswith("bet:")]  # C.number, inlined


def direction(line: Sequence[str]) -> int:
    """+1 rising, -1 falling, 0 while fewer than two number cards fix it.

    >>> direction(["40:star", "bet:+3", "12:star"]), direction(["bet:+3", "12:star"])
    (-1, 0)
    """
    numbers = line_numbers(line)
    if len(numbers) < 2:
        return 0
    return 1 if numbers[1] > numbers[0] else -1


def fits(line: Sequence[str], card: str) -> bool:
    """Whether ``card`` may be played at the end of ``line``: a bet card when the line holds none;
    a number card anywhere in an empty line, else beyond the last number in the line's direction
    (either way while only one number card is down)."""
    if C.is_bet(card):
        return not any(C.is_bet(c) for c in line)
    numbers = line_numbers(line)
    if not numbers:
        return True
    step = C.number(card) - numbers[-1]
    if len(numbers) < 2:
        return step != 0
    return step * (numbers[1] - numbers[0]) > 0


def bet_result(line: Sequence[str]) -> int:
    """The token a closing line earns from its bet: +value if won, -value if lost, 0 without bet.

    A bet is won with at least as many number cards after it as its value.
    """
    for i, card in enumerate(line):
        if C.is_bet(card):
            after = sum(1 for c in line[i + 1 :] if not C.is_bet(c))
            value = C.bet_value(card)
            return value if after >= value else -value
    return 0


def third_of_colour(line: Sequence[str], card: str) -> bool:
    """Whether ``card``, just played at the end of ``line``, is the line's third card of its colour
    (the play that wins that colour's jackpot: the count reaches three once per line)."""
    if C.is_bet(card):
        return False
    col = C.colour(card)
    return sum(1 for c in line if not C.is_bet(c) and C.colour(c) == col) == 3
