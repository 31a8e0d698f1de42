"""The whole-state check of a Twin It position: shapes, card conservation, caps and turns."""

from __future__ import annotations

from referee.twinit.codec import PHASES
from referee.twinit.options import COOP_MODES, TABOO_CARDS, Setup
from referee.twinit.types import TwinItState


def problems(setup: Setup, state: TwinItState) -> list[str]:
    """Every broken invariant of ``state`` as a sentence; empty when sound."""
    out: list[str] = []
    n = setup.n
    opts = setup.opts
    coop = setup.mode in COOP_MODES
    if state.phase not in PHASES:
        out.append(f"phase {state.phase!r} is not one of {PHASES}")
    if state.phase == ("play" if coop else "minute"):
        out.append(f"phase {state.phase!r} does not exist in {setup.mode} mode")
    if len(state.piles) != n or len(state.captures) != n:
        return [*out, f"{len(state.piles)} piles and {len(state.captures)} capture rows for {n} players"]
    in_piles = 0
    for seat, pile in enumerate(state.piles):
        size = pile.size
        in_piles += size
        if size < 0:
            out.append(f"{setup.players[seat]}'s pile has {size} cards")
        elif size == 0 and pile.top is not None:
            out.append(f"{setup.players[seat]}'s empty pile shows a top face {pile.top!r}")
        elif coop and size:
            out.append(f"{setup.players[seat]} has a pile in the cooperative minute")
    ids = [c.id for c in state.table]
    if ids:
        if len(set(ids)) != len(ids):
            out.append(f"a table card id is used twice: {sorted(ids)}")
        if min(ids) < 0 or max(ids) >= state.next_id:
            out.append(f"table card ids {sorted(ids)} not all in 0..{state.next_id - 1}")
    captured = 0
    for seat, held in enumerate(state.captures):
        for cap in held:
            captured += cap.cards
            if cap.cards != 2 and cap.cards != 3:
                out.append(f"{setup.players[seat]} holds a capture of {cap.cards} cards")
    if state.lost < 0:
        out.append(f"{state.lost} cards lost track of")
    if state.found < 0:
        out.append(f"{state.found} cards found")
    if state.lost > 0 and state.found > 0:
        out.append(f"{state.lost} cards lost track of and {state.found} found at once")
    placed = in_piles + len(state.table) + captured + state.aside + state.lost - state.found
    if state.phase == "setup":
        if placed or state.next_id or state.turn is not None or state.taboo:
            out.append("cards are on the table before the deal")
    elif placed != opts.cards:
        out.append(f"{placed} cards in piles, table, captures and aside, expected the deck's {opts.cards}")
    taboo_on = opts.taboo_player is not None and state.phase != "setup"
    if state.aside != (TABOO_CARDS if taboo_on else 0):
        out.append(f"{state.aside} cards set aside")
    if len(set(state.taboo)) != len(state.taboo) or len(state.taboo) > (TABOO_CARDS if taboo_on else 0):
        out.append(f"taboo motifs {list(state.taboo)} are not up to 3 different motifs of the variant")
    for what, seat in (("turn", state.turn), ("last winner", state.last_winner)):
        if seat is not None and not 0 <= seat < n:
            out.append(f"{what} {seat} is not a seat")
    turn = state.turn
    if state.phase == "play" and turn is not None and 0 <= turn < n and state.piles[turn].size == 0:
        out.append(f"turn is {setup.players[state.turn]}'s, whose pile is empty")
    if state.phase == "play" and state.turn is None and any(p.size for p in state.piles):
        out.append("no one has the turn though cards are left to play")
    if coop and (state.turn is not None or state.last_winner is not None):
        out.append("turns in the cooperative minute")
    if not coop:
        totals = [sum(len(state.captures[s]) for s in side) for side in setup.sides()]
        at_target = [t for t in totals if t >= opts.target]
        if any(t > opts.target for t in totals) or len(at_target) > 1:
            out.append(f"captures {totals} pass the target {opts.target}")
        if at_target and state.phase != "over":
            out.append(f"a side reached {opts.target} captures but the game goes on")
    return out
