"""Reading and rearranging the cards of a :class:`TwinItState`: faces at locations, visible faces,
taking cards away, turning cards over, whose turn comes next, and the words for a location."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from referee.french import de, join_en, join_fr
from referee.twinit.types import CAPTURE, PILE, TABLE, Capture, Loc, Pile, TableCard, TwinItState, evolve


def table_card(state: TwinItState, card_id: int) -> TableCard | None:
    for card in state.table:
        if card.id == card_id:
            return card
    return None


def exists(state: TwinItState, loc: Loc) -> bool:
    """True when a card lies at ``loc``."""
    if loc.kind == TABLE:
        return table_card(state, loc.key) is not None
    if loc.kind == PILE:
        return loc.key < len(state.piles) and state.piles[loc.key].size > 0
    return loc.key < len(state.captures) and loc.index < len(state.captures[loc.key])


def face_at(state: TwinItState, loc: Loc) -> str | None:
    """The face visible at ``loc`` (which must exist); ``None`` when unknown."""
    if loc.kind == TABLE:
        card = table_card(state, loc.key)
        return card.face if card else None
    if loc.kind == PILE:
        return state.piles[loc.key].top
    return state.captures[loc.key][loc.index].motif


def cards_at(state: TwinItState, loc: Loc) -> int:
    """Physical cards under a hand on ``loc``: 1, or a capture's 2 or 3."""
    return state.captures[loc.key][loc.index].cards if loc.kind == CAPTURE else 1


def singles(state: TwinItState) -> list[tuple[Loc, str | None]]:
    """Every single visible card (table cards, then pile tops) with its face (``None``: unknown)."""
    out: list[tuple[Loc, str | None]] = [(Loc(TABLE, c.id), c.face) for c in state.table]
    out += [(Loc(PILE, seat), p.top) for seat, p in enumerate(state.piles) if p.size > 0]
    return out


def pending(state: TwinItState) -> list[Loc]:
    """Visible cards whose face the referee does not know yet."""
    out = [Loc(TABLE, c.id) for c in state.table if c.face is None]
    return out + [Loc(PILE, seat) for seat, p in enumerate(state.piles) if p.size > 0 and p.top is None]


def matches(state: TwinItState) -> list[tuple[Loc, Loc]]:
    """Every claimable match in sight: two single cards of one face, or a won pair and a single
    card of its motif (a triple steal)."""
    by_face: dict[str, list[Loc]] = {}
    for loc, face in singles(state):
        if face is not None:
            by_face.setdefault(face, []).append(loc)
    out: list[tuple[Loc, Loc]] = []
    for locs in by_face.values():
        out += [(a, b) for i, a in enumerate(locs) for b in locs[i + 1 :]]
    for seat, held in enumerate(state.captures):
        for index, cap in enumerate(held):
            if cap.cards == 2:
                out += [(Loc(CAPTURE, seat, index), loc) for loc in by_face.get(cap.motif, [])]
    return out


def take(state: TwinItState, locs: Iterable[Loc]) -> TwinItState:
    """``state`` without the cards at ``locs``: table cards leave, piles lose their top card (the
    next one is unknown until revealed), captures leave their holder."""
    locs = list(locs)
    gone_ids = {loc.key for loc in locs if loc.kind == TABLE}
    table = tuple(c for c in state.table if c.id not in gone_ids)
    piles = list(state.piles)
    for loc in locs:
        if loc.kind == PILE:
            size = piles[loc.key].size - 1
            piles[loc.key] = Pile(size, None)
    captures = [list(held) for held in state.captures]
    for loc in sorted((x for x in locs if x.kind == CAPTURE), key=lambda x: -x.index):
        del captures[loc.key][loc.index]
    return evolve(state, table=table, piles=tuple(piles), captures=tuple(tuple(held) for held in captures))


def turn_over(state: TwinItState, locs: Iterable[Loc]) -> TwinItState:
    """``state`` with the single cards at ``locs`` turned over: they show a face not known yet.
    Captures are never turned over."""
    locs = list(locs)
    ids = {loc.key for loc in locs if loc.kind == TABLE}
    seats = {loc.key for loc in locs if loc.kind == PILE}
    table = tuple(TableCard(c.id, None) if c.id in ids else c for c in state.table)
    piles = tuple(Pile(p.size, None) if s in seats else p for s, p in enumerate(state.piles))
    return evolve(state, table=table, piles=piles)


def set_face(state: TwinItState, loc: Loc, face: str) -> TwinItState:
    """``state`` with the single card at ``loc`` showing ``face``."""
    if loc.kind == TABLE:
        table = tuple(TableCard(c.id, face) if c.id == loc.key else c for c in state.table)
        return evolve(state, table=table)
    piles = list(state.piles)
    piles[loc.key] = Pile(piles[loc.key].size, face)
    return evolve(state, piles=tuple(piles))


def add_capture(state: TwinItState, seat: int, capture: Capture) -> TwinItState:
    captures = list(state.captures)
    captures[seat] = (*captures[seat], capture)
    return evolve(state, captures=tuple(captures))


def next_with_cards(piles: Sequence[Pile], seat: int, include: bool) -> int | None:
    """The first seat clockwise from ``seat`` (``seat`` itself first when ``include``) whose pile
    has cards; ``None`` when every pile is empty."""
    n = len(piles)
    for step in range(0 if include else 1, n + 1):
        s = (seat + step) % n
        if piles[s].size > 0:
            return s
    return None


def cap(text: str) -> str:
    """``text`` with its first letter capitalised (a sentence starting with a location)."""
    return text[:1].upper() + text[1:]


def describe(loc: Loc, players: Sequence[str]) -> tuple[str, str]:
    """A location in words, English and French."""
    if loc.kind == TABLE:
        return f"table card {loc.key}", f"la carte {loc.key} de la table"
    name = players[loc.key]
    if loc.kind == PILE:
        return f"the top of {name}'s pile", f"le sommet de la pioche {de(name)}"
    return f"{name}'s capture #{loc.index + 1}", f"la prise n°{loc.index + 1} {de(name)}"


def describe_all(locs: Iterable[Loc], players: Sequence[str]) -> tuple[str, str]:
    words = [describe(loc, players) for loc in locs]
    return join_en(en for en, _ in words), join_fr(fr for _, fr in words)
