"""Random applicable The Mind actions for the random-game tests and benchmarks.

Mostly the right play (the lowest card on the table goes next), with errors and stars mixed in
often enough that random games end, some won and some lost. With the hands unknown it invents the
cards the camera would read.
"""

from __future__ import annotations

import random

from referee.themind.actions import Deal, DiscardCards, MindAction, PlayCard, RevealPile, Star
from referee.themind.setup import Setup, seen_cards, star_floor, top_card
from referee.themind.state import MindState
from referee.themind.tables import HIGHEST, LOWEST

ERROR_RATE = 0.05
"""How often a play is not the lowest card on the table, per level reached (it grows with the
level, as in real play, and keeps random games short)."""
STAR_RATE = 0.05
"""How often an available throwing star is used."""


def sample_action(setup: Setup, state: MindState, rng: random.Random) -> MindAction | None:
    if state.phase in ("won", "lost"):
        return None
    all_seats = tuple(range(setup.n))
    if state.phase == "deal":
        if not setup.known:
            return Deal(None)
        cards = rng.sample(range(LOWEST, HIGHEST + 1), state.level * setup.n)
        return Deal(tuple(tuple(sorted(cards[i :: setup.n])) for i in range(setup.n)))
    if state.phase == "reveal":
        return RevealPile(_invent_pile(state, rng))
    if state.stars and rng.random() < STAR_RATE:
        if setup.known:
            return Star(all_seats)
        cards = _fresh(state, rng, sum(1 for c in state.counts if c), setup.blind)
        if cards is not None:
            it = iter(sorted(cards))
            return Star(all_seats, tuple(next(it) if c else None for c in state.counts))
    holders = [s for s in all_seats if state.counts[s]]
    if setup.known:
        if rng.random() < ERROR_RATE * (1 + state.level):
            seat = rng.choice(holders)
        else:
            seat = min(holders, key=lambda s: state.hands[s][0])
        return PlayCard(seat, state.hands[seat][0])
    seat = rng.choice(holders)
    if setup.blind:
        return PlayCard(seat, None)
    return _unknown_normal(state, seat, rng)


def _unknown_normal(state: MindState, seat: int, rng: random.Random) -> MindAction:
    top = top_card(state)
    seen = seen_cards(state)
    floor = star_floor(state, seat)
    if top is not None and rng.random() < ERROR_RATE * (1 + state.level):
        below = [c for c in range(floor + 1, top) if c not in seen]
        if below:
            if rng.random() < 0.5:
                return PlayCard(seat, rng.choice(below))
            k = min(len(below), state.counts[seat], 1 + rng.randrange(2))
            return DiscardCards(seat, tuple(sorted(rng.sample(below, k))))
    left = sum(state.counts)
    start = max(top or 0, floor) + 1
    room = HIGHEST - left + 1 - start
    step = max(1, room // left) if room > 0 else 1
    card = min(HIGHEST, start + rng.randrange(2 * step))
    while card in seen and card < HIGHEST:
        card += 1
    if card in seen or card < start:
        card = next(c for c in range(HIGHEST, floor, -1) if c not in seen)
    return PlayCard(seat, card)


def _fresh(state: MindState, rng: random.Random, k: int, blind: bool) -> list[int] | None:
    """``k`` unseen cards above every earlier star card (and, unless ``blind``, above the pile's top),
    or ``None`` if there are not enough."""
    floor = max((d.card for d in state.discards if d.cause == "star"), default=0)
    top = 0 if blind else top_card(state) or 0
    seen = seen_cards(state)
    ceiling = HIGHEST - 2 * sum(state.counts)  # leave room for the cards still to come
    pool = [c for c in range(max(top, floor) + 1, ceiling + 1) if c not in seen]
    if len(pool) < k:
        return None
    return rng.sample(pool, k)


def _invent_pile(state: MindState, rng: random.Random) -> tuple[int, ...]:
    """The face-down pile as the camera reads it once turned over: mostly rising."""
    seen = seen_cards(state)
    pool = [c for c in range(LOWEST, HIGHEST + 1) if c not in seen]
    cards = sorted(rng.sample(pool, len(state.pile)))
    for i in range(len(cards) - 1):
        if rng.random() < ERROR_RATE * (1 + state.level):
            cards[i], cards[i + 1] = cards[i + 1], cards[i]
    return tuple(cards)
