"""The Mind's whole-state check: every broken invariant of a state as a sentence."""

from __future__ import annotations

from referee.themind.setup import Setup
from referee.themind.state import PHASES, MindState
from referee.themind.tables import HIGHEST, LOWEST, MAX_LIVES, MAX_STARS


def check_state(setup: Setup, state: MindState) -> list[str]:
    problems: list[str] = []
    n = setup.n
    if state.phase not in PHASES:
        return [f"phase {state.phase!r} is not one of {', '.join(PHASES)}"]
    if not 1 <= state.level <= setup.levels:
        problems.append(f"level {state.level} is not within 1..{setup.levels}")
    if not 0 <= state.lives <= MAX_LIVES:
        problems.append(f"{state.lives} lives is not within 0..{MAX_LIVES}")
    if not 0 <= state.stars <= MAX_STARS:
        problems.append(f"{state.stars} stars is not within 0..{MAX_STARS}")
    if (state.lives == 0) != (state.phase == "lost"):
        problems.append(f"{state.lives} lives in phase {state.phase!r}")
    if len(state.hands) != n or len(state.counts) != n:
        return [*problems, f"{len(state.hands)} hands and {len(state.counts)} counts for {n} players"]
    if min(state.counts, default=0) < 0:
        problems.append(f"negative card counts {list(state.counts)}")
    held: list[int] = []
    if setup.known:
        if tuple(map(len, state.hands)) != state.counts:
            problems.append(
                f"hands {[list(h) for h in state.hands]} do not match counts {list(state.counts)}"
            )
        for seat, hand in enumerate(state.hands):
            if list(hand) != sorted(set(hand)):
                problems.append(f"seat {seat}'s hand {list(hand)} is not sorted")
            held += hand
    elif any(state.hands):
        problems.append("hands are listed although they are unknown")
    pile = [p.card for p in state.pile if p.card is not None]
    cards = held + pile + [d.card for d in state.discards]
    if cards:
        if len(set(cards)) != len(cards):
            problems.append("a card appears twice")
        if min(cards) < LOWEST or max(cards) > HIGHEST:
            problems.append("a card is outside 1..100")
    seats = [p.player for p in state.pile] + [d.player for d in state.discards]
    seats_ok = not seats or (min(seats) >= 0 and max(seats) < n)
    if not seats_ok:
        problems.append("a card belongs to no seat")
    total = sum(state.counts) + len(state.pile) + len(state.discards)
    if state.phase in ("deal", "won"):
        if total or state.charged is not None:
            problems.append(f"{total} cards out between levels")
    elif total != state.level * n:
        problems.append(f"{total} cards in play at level {state.level} instead of {state.level * n}")
    elif seats_ok:
        out = [0] * n
        for p in state.pile:
            out[p.player] += 1
        for d in state.discards:
            out[d.player] += 1
        dealt = [count + gone for count, gone in zip(state.counts, out, strict=True)]
        if any(k != state.level for k in dealt):
            problems.append(f"seats were dealt {dealt} cards instead of {state.level} each")
    if state.phase == "won" and state.level != setup.levels:
        problems.append(f"won at level {state.level} of {setup.levels}")
    if state.phase == "reveal" and (any(state.counts) or setup.known or not setup.blind):
        problems.append("the pile waits to be turned over although it should not")
    if any(p.card is None for p in state.pile) and (setup.known or not setup.blind):
        problems.append("a face-down card is unread although the game reads every card")
    if not setup.blind and state.phase == "play":
        if pile != sorted(set(pile)):
            problems.append(f"the pile {pile} does not rise")
        if pile and held and min(held) < pile[-1]:
            problems.append("a card lower than the pile is still held after the error was ruled")
    if state.charged is not None and state.charged not in pile:
        problems.append(f"the charged error card {state.charged} is not on the pile")
    return problems
