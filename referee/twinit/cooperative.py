"""The cooperative minute and its competitive variant.

Every card is spread on the table; for one minute (an option) players find pairs (1 point) and
triples (2 points), talking and turning cards freely (``reveal`` any table card). A set is put
aside by a claim of 2 or 3 identical table cards, or of a won pair and its third card (the pair
becomes a triple: +1 point). A wrong set costs nothing: it is refused and the cards stay. In the
competitive variant each player counts their own points and taking another player's pair is
forbidden. The team's level comes from a per-player-count threshold table (see
:mod:`referee.twinit.options`: the shipped scale is a placeholder to check against the printed
rules).
"""

from __future__ import annotations

from referee.twinit.evidence import covered_faces
from referee.twinit.flow import Result, closed
from referee.twinit.layout import add_capture, cap, cards_at, describe, exists, take
from referee.twinit.options import COOP_COMPETITIVE, Level, Setup
from referee.twinit.types import CAPTURE, TABLE, Capture, Claim, TwinItState, evolve
from referee.types import refused, valid


def points(captures: tuple[Capture, ...]) -> int:
    """1 point per pair, 2 per triple."""
    return sum(1 if c.cards == 2 else 2 for c in captures)


def level_for(levels: tuple[Level, ...], score: int) -> Level:
    """The highest level whose threshold ``score`` reaches."""
    reached = levels[0]
    for level in levels:
        if score >= level.min_points:
            reached = level
    return reached


def claim(setup: Setup, state: TwinItState, action: Claim) -> Result:
    """A set put aside during the minute: a pair, a triple, or a pair completed; a wrong set costs nothing."""
    if (shut := closed(state)) is not None:
        return shut
    names = setup.players
    if action.at is not None and action.at > setup.opts.seconds:
        return refused(
            "too_late",
            f"Too late: the set was made at {action.at:g} s, after the {setup.opts.seconds:g} s minute.",
            f"Trop tard : le lot a été fait à {action.at:g} s, après la minute de {setup.opts.seconds:g} s.",
        ), state
    collector = action.players[0]
    if setup.mode == COOP_COMPETITIVE and len(set(action.players)) > 1:
        return refused(
            "one_collector",
            "In the competitive minute each set is taken by one player.",
            "Dans la minute compétitive, chaque lot est pris par un seul joueur.",
        ), state
    cards = action.cards
    if len(set(cards)) != len(cards):
        return refused(
            "same_card", "The same card is named twice.", "La même carte est nommée deux fois."
        ), state
    for loc in cards:
        if loc.kind not in (TABLE, CAPTURE) or not exists(state, loc):
            en, fr = describe(loc, names)
            return refused(
                "no_such_card", f"{cap(en)} is not on the table.", f"{cap(fr)} n'est pas sur la table."
            ), state
    held = [loc for loc in cards if loc.kind == CAPTURE]
    total = sum(cards_at(state, loc) for loc in cards)
    if len(held) > 1 or total not in (2, 3) or (held and total != 3):
        return refused(
            "set_size",
            "A set is 2 or 3 identical cards (or a won pair and its third card).",
            "Un lot, c'est 2 ou 3 cartes identiques (ou une paire gagnée et sa troisième carte).",
        ), state
    if held and setup.mode == COOP_COMPETITIVE and held[0].key != collector:
        return refused(
            "no_stealing",
            f"No stealing in the competitive minute: that pair belongs to {names[held[0].key]}.",
            f"Pas de vol dans la minute compétitive : cette paire appartient à {names[held[0].key]}.",
        ), state
    state, faces, unsure = covered_faces(setup, state, cards, action.faces)
    if unsure is not None:
        return unsure, state
    if len(set(faces)) != 1:
        shown = ", ".join(repr(f) for f in faces)
        return refused(
            "not_identical",
            f"Not identical ({shown}): no point, keep looking.",
            f"Pas identiques ({shown}) : pas de point, cherchez encore.",
        ), state
    motif = faces[0]
    assert motif is not None
    if held:
        holder, index = held[0].key, held[0].index
        new = take(state, [loc for loc in cards if loc.kind != CAPTURE])
        row = list(new.captures[holder])
        row[index] = Capture(motif, 3)
        captures = list(new.captures)
        captures[holder] = tuple(row)
        new = evolve(new, captures=tuple(captures))
        gained, code = 1, "triple_completed"
        en, fr = (
            f"Third {motif!r} added: the pair becomes a triple.",
            f"Troisième {motif!r} : la paire devient un triple.",
        )
    else:
        new = add_capture(take(state, cards), collector, Capture(motif, len(cards)))
        gained = len(cards) - 1
        code = "triple" if len(cards) == 3 else "pair"
        kind_en, kind_fr = ("Triple", "Triple") if len(cards) == 3 else ("Pair", "Paire")
        en, fr = f"{kind_en} of {motif!r}.", f"{kind_fr} de {motif!r}."
    scored = _points_of(setup, new, collector)
    unit = "point" if scored == 1 else "points"
    en += f" +{gained} ({scored} {unit})."
    fr += f" +{gained} ({scored} {unit})."
    return valid(code, en, fr, collector=collector, motif=motif, gained=gained, points=scored), new


def _points_of(setup: Setup, state: TwinItState, seat: int) -> int:
    if setup.mode == COOP_COMPETITIVE:
        return points(state.captures[seat])
    return sum(points(held) for held in state.captures)
