"""Random actions that apply, to drive seeded random games to their end (tests and benchmarks).

Faces come from a small alphabet, often copied from a face already in sight, so pairs, triples,
steals, chain reactions and three-at-once situations come up often. Mistakes (wrong claims, a
team player covering both cards, ties) are mixed in at a low rate.
"""

from __future__ import annotations

import random

from referee.twinit.layout import face_at, matches, pending, singles
from referee.twinit.options import COOP_COMPETITIVE, COOP_MODES, TEAMS, Setup
from referee.twinit.types import (
    CAPTURE,
    TABLE,
    Action,
    Claim,
    Deal,
    End,
    Loc,
    Play,
    Reveal,
    Start,
    Tie,
    TwinItState,
)

ALPHABET = 40


def _face(rng: random.Random, state: TwinItState, alphabet: int = ALPHABET) -> str:
    seen = [f for _, f in singles(state) if f is not None]
    seen += [c.motif for held in state.captures for c in held if c.cards == 2]
    if seen and rng.random() < 0.4:
        return rng.choice(seen)
    return f"twinit:p{rng.randrange(alphabet):03d}"


def sample(setup: Setup, state: TwinItState, rng: random.Random) -> Action | None:
    if state.phase == "over":
        return None
    if setup.mode in COOP_MODES:
        return _sample_coop(setup, state, rng)
    if state.phase == "setup":
        return _deal(setup, state, rng)
    unknown = pending(state)
    if unknown:
        known = [(loc, face) for loc, face in singles(state) if face is not None]
        if known and rng.random() < 0.2:
            # The camera saw the covered unknown card as the claim landed: the claim carries it.
            loc, face = rng.choice(known)
            a, b = _two_players(setup, rng, opponents=False)
            return Claim((a, b), (rng.choice(unknown), loc), faces=(face, face))
        return Reveal(rng.choice(unknown), _face(rng, state))
    found = matches(state)
    r = rng.random()
    if r < 0.03 and (wrong := _wrong_claim(setup, state, rng)) is not None:
        return wrong
    if found and r < 0.06:
        a, b = _two_players(setup, rng, opponents=True)
        return Tie((a, b), rng.choice(found))
    if found and r < 0.9:
        return _good_claim(setup, rng, rng.choice(found))
    if state.turn is not None:
        left = state.piles[state.turn].size - 1
        top = _face(rng, state) if left > 0 and rng.random() < 0.95 else None
        return Play(state.turn, _face(rng, state), top)
    if found:
        return _good_claim(setup, rng, rng.choice(found))
    return End()


def _deal(setup: Setup, state: TwinItState, rng: random.Random) -> Deal:
    taboo: tuple[str, ...] = ()
    if setup.opts.taboo_player is not None:
        taboo = tuple(f"twinit:p{i:03d}" for i in rng.sample(range(ALPHABET), 3))
    cards = setup.opts.cards - len(taboo)
    base, extra = divmod(cards, setup.n)
    piles = tuple(base + (1 if s < extra else 0) for s in range(setup.n))
    tops = tuple(_face(rng, state) for _ in piles) if rng.random() < 0.8 else None
    return Deal(piles, rng.randrange(setup.n), tops, taboo)


def _two_players(setup: Setup, rng: random.Random, opponents: bool) -> tuple[int, int]:
    """Two seats: opposing players (for a tie) or, in team mode, two teammates (for a claim)."""
    if setup.mode == TEAMS:
        teams = setup.opts.teams
        if opponents:
            return rng.choice(teams[0]), rng.choice(teams[1])
        a, b = rng.sample(list(rng.choice(teams)), 2)
        return a, b
    a, b = rng.sample(range(setup.n), 2)
    return (a, b) if opponents else (a, a)


def _good_claim(setup: Setup, rng: random.Random, pair: tuple[Loc, Loc]) -> Claim:
    a, b = _two_players(setup, rng, opponents=False)
    if setup.mode == TEAMS and rng.random() < 0.05:
        b = a  # one player covering both: an error in team mode
    beaten: tuple[int, ...] = ()
    if rng.random() < 0.1:
        others = [s for s in range(setup.n) if s not in (a, b)]
        if others:
            beaten = (rng.choice(others),)
    cards = pair if rng.random() < 0.5 else (pair[1], pair[0])
    return Claim((a, b), cards, beaten)


def _wrong_claim(setup: Setup, state: TwinItState, rng: random.Random) -> Claim | None:
    known = [loc for loc, face in singles(state) if face is not None]
    if len(known) < 2:
        return None
    x, y = rng.sample(known, 2)
    if face_at(state, x) == face_at(state, y):
        return None
    a, b = _two_players(setup, rng, opponents=False)
    return Claim((a, b), (x, y))


def _sample_coop(setup: Setup, state: TwinItState, rng: random.Random) -> Action:
    alphabet = max(2, setup.opts.cards // 2)
    if state.phase == "setup":
        faces = tuple(
            None if rng.random() < 0.03 else f"twinit:p{rng.randrange(alphabet):03d}"
            for _ in range(setup.opts.cards)
        )
        return Start(faces)
    unknown = pending(state)
    if unknown:
        return Reveal(rng.choice(unknown), f"twinit:p{rng.randrange(alphabet):03d}")
    if not state.table or rng.random() < 0.06:
        return End()
    by_face: dict[str, list[Loc]] = {}
    for card in state.table:
        if card.face is not None:
            by_face.setdefault(card.face, []).append(Loc(TABLE, card.id))
    collector = rng.randrange(setup.n)
    options: list[tuple[Loc, ...]] = []
    for locs in by_face.values():
        if len(locs) >= 3 and rng.random() < 0.5:
            options.append(tuple(locs[:3]))
        elif len(locs) >= 2:
            options.append(tuple(locs[:2]))
    for seat, held in enumerate(state.captures):
        if setup.mode == COOP_COMPETITIVE and seat != collector:
            continue
        for index, cap in enumerate(held):
            if cap.cards == 2 and cap.motif in by_face:
                options.append((Loc(CAPTURE, seat, index), by_face[cap.motif][0]))
    at = round(rng.uniform(0, setup.opts.seconds), 1) if rng.random() < 0.5 else None
    if options and rng.random() < 0.85:
        cards = rng.choice(options)
        return Claim((collector,) * len(cards), cards, at=at)
    card = rng.choice(state.table)
    return Reveal(Loc(TABLE, card.id), f"twinit:p{rng.randrange(alphabet):03d}")
