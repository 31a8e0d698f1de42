"""Helpers shared by the Trio tests (no tests here): games, full deals with chosen hands, shorthands."""

from __future__ import annotations

from collections import Counter

from referee.registry import make_game
from referee.trio.cards import deal_sizes, deck
from referee.trio.game import TrioGame
from referee.trio.state import TrioState
from referee.types import Ruling

NAMES = ("Moi", "Alice", "Basile", "Chloé", "Dara", "Élie")


def trio(n: int, mode: str = "simple", **options: object) -> TrioGame:
    game = make_game("trio", NAMES[:n], mode, options)
    assert isinstance(game, TrioGame)
    return game


def full_deal(
    game: TrioGame, hands: dict[int, list[int]], centre: list[int] | None = None, first: int = 0
) -> dict[str, object]:
    """A deal action giving the chosen seats (and centre) their cards; the rest of the deck, sorted,
    fills the other seats from the highest numbers down, then the centre."""
    per, centre_size = deal_sizes(game.num_players, game.setup.teams)
    left = Counter(deck())
    left.subtract(c for h in hands.values() for c in h)
    left.subtract(centre or [])
    assert all(v >= 0 for v in left.values()), "more than three of a number"
    rest = sorted(left.elements(), reverse=True)
    out_hands = []
    for seat in range(game.num_players):
        if seat in hands:
            out_hands.append(list(hands[seat]))
        else:
            out_hands.append(rest[:per])
            rest = rest[per:]
    out_centre = list(centre) if centre is not None else []
    out_centre += rest[: centre_size - len(out_centre)]
    return {"type": "deal", "hands": out_hands, "centre": out_centre, "first": first}


def play(game: TrioGame, state: TrioState, *lines: dict[str, object]) -> tuple[TrioState, list[Ruling]]:
    """Applies each JSON action in turn; every one must apply."""
    rulings = []
    for line in lines:
        state, ruling = game.apply(state, game.parse_action(line))
        assert ruling.applies, f"{line} did not apply: {ruling.reason.en}"
        assert not game.check_state(state), game.check_state(state)
        rulings.append(ruling)
    return state, rulings


def ask(player: int, target: int, end: str = "smallest", number: int | None = None, **extra: object) -> dict:
    out: dict[str, object] = {"type": "ask", "player": player, "target": target, "end": end}
    if number is not None:
        out["number"] = number
    return {**out, **extra}


def centre(player: int, slot: int, number: int | None = None, **extra: object) -> dict:
    out: dict[str, object] = {"type": "reveal", "player": player, "slot": slot}
    if number is not None:
        out["number"] = number
    return {**out, **extra}
