"""Claims in the competitive and team modes: captures, triple steals, three identical faces at
once, chain reactions, errors and their penalty, and simultaneous claims (ties).

A claim is two hands, one on each card. A capture is 2 identical single cards, or a won pair and
a third identical card (the triple steal: all three move to the claimer). When a capture of two
single cards leaves another visible card of the same motif, that card is turned over (RULES-NOTES:
three identical faces at once). A capture that took a pile's top card makes the next card of that
pile show (a chain reaction: it must be revealed before play goes on). The last player to win
cards restarts play; so does a player who erred.
"""

from __future__ import annotations

from referee.twinit.codec import loc_to_json
from referee.twinit.evidence import covered_faces
from referee.twinit.flow import Result, closed
from referee.twinit.layout import (
    add_capture,
    cap,
    cards_at,
    de,
    describe,
    describe_all,
    exists,
    next_with_cards,
    singles,
    take,
    turn_over,
)
from referee.twinit.options import TEAMS, Setup
from referee.twinit.taboo import freed_by, is_taboo_for
from referee.twinit.types import CAPTURE, PILE, Capture, Claim, Loc, Pile, Tie, TwinItState, evolve
from referee.types import penalised, refused, valid


def _where(setup: Setup, state: TwinItState, cards: tuple[Loc, ...]) -> Result | None:
    """A refusal when the covered cards are not two distinct cards in sight, else ``None``."""
    if len(cards) != 2:
        return refused(
            "two_hands",
            f"A claim is two hands, one on each of two cards (got {len(cards)} cards).",
            f"Une prise se réclame avec deux mains, une sur chacune de deux cartes ({len(cards)} reçues).",
        ), state
    if cards[0] == cards[1]:
        en, fr = describe(cards[0], setup.players)
        return refused(
            "same_card",
            f"Both hands are on {en}: a pair needs two cards.",
            f"Les deux mains sont sur {fr} : une paire demande deux cartes.",
        ), state
    for loc in cards:
        if not exists(state, loc):
            en, fr = describe(loc, setup.players)
            return refused(
                "no_such_card", f"{cap(en)} is not on the table.", f"{cap(fr)} n'est pas sur la table."
            ), state
    held = [loc for loc in cards if loc.kind == CAPTURE]
    if len(held) > 1:
        return refused(
            "two_captures",
            "Only one hand may be on a won capture: the other covers the new card.",
            "Une seule main peut être sur une prise gagnée : l'autre couvre la nouvelle carte.",
        ), state
    if held and cards_at(state, held[0]) == 3:
        en, fr = describe(held[0], setup.players)
        return refused(
            "triple_safe",
            f"{en} is a triple: only a pair can be stolen.",
            f"{fr} est un triple : on ne peut voler qu'une paire.",
        ), state
    return None


def claim(setup: Setup, state: TwinItState, action: Claim) -> Result:
    """Two hands on two cards: a capture, a triple steal, an error with its penalty, or a refusal."""
    if (shut := closed(state)) is not None:
        return shut
    if (bad := _where(setup, state, action.cards)) is not None:
        return bad
    names = setup.players
    a, b = action.players
    if set(action.beaten) & set(action.players):
        return refused(
            "beaten_claimer",
            "A player cannot be both under and over on the same claim.",
            "Un joueur ne peut pas avoir la main à la fois dessous et dessus.",
        ), state
    if setup.mode == TEAMS:
        if setup.opts.team_of(a) != setup.opts.team_of(b):
            return _not_one_side(setup, state, a, b)
        if a == b:
            return _error(
                setup,
                state,
                action,
                a,
                "one_player_both",
                f"{names[a]} covered both cards alone: in team mode two teammates must each cover one.",
                f"Les deux cartes sont sous les mains {de(names[a])} seulement : en équipe, deux "
                "coéquipiers doivent couvrir chacun une carte.",
            )
    elif a != b:
        return _not_one_side(setup, state, a, b)
    state, faces, unsure = covered_faces(setup, state, action.cards, action.faces)
    if unsure is not None:
        return unsure, state
    en, fr = describe_all(action.cards, names)
    if faces[0] != faces[1]:
        return _error(
            setup,
            state,
            action,
            a,
            "not_identical",
            f"Not a pair: {en} show {faces[0]!r} and {faces[1]!r}.",
            f"Pas une paire : {fr} montrent {faces[0]!r} et {faces[1]!r}.",
        )
    motif = faces[0]
    assert motif is not None
    if is_taboo_for(setup, state, a, motif):
        return _error(
            setup,
            state,
            action,
            a,
            "taboo",
            f"{motif!r} is one of {names[a]}'s taboo motifs: capturing it is an error for {names[a]}.",
            f"{motif!r} est un des motifs tabous {de(names[a])} : le prendre est une erreur pour {names[a]}.",
        )
    return _capture(setup, state, action, motif)


def _not_one_side(setup: Setup, state: TwinItState, a: int, b: int) -> Result:
    names = setup.players
    if setup.mode == TEAMS:
        en = f"{names[a]} and {names[b]} are not teammates: a claim is two hands of one team."
        fr = f"{names[a]} et {names[b]} ne sont pas coéquipiers : une prise, ce sont deux mains d'une équipe."
    else:
        en = (
            f"{names[a]} and {names[b]} each covered one card: "
            "if it is a pair, count to three and turn it over."
        )
        fr = (
            f"{names[a]} et {names[b]} ont chacun couvert une carte : "
            "si c'est une paire, comptez jusqu'à 3 et retournez-la."
        )
    return refused("not_one_claimer", en, fr), state


def _restart(state: TwinItState, seat: int) -> TwinItState:
    """``seat`` restarts play (or the next seat clockwise with cards)."""
    return evolve(state, turn=next_with_cards(state.piles, seat, include=True), last_winner=seat)


def _capture(setup: Setup, state: TwinItState, action: Claim, motif: str) -> Result:
    names = setup.players
    claimer = action.players[0]
    stolen = [loc for loc in action.cards if loc.kind == CAPTURE]
    new = take(state, action.cards)
    new = add_capture(new, claimer, Capture(motif, 3 if stolen else 2))
    turned: list[Loc] = []
    if not stolen:
        turned = [loc for loc, face in singles(new) if face == motif]
        new = turn_over(new, turned)
    after_taboo = freed_by(setup, new, claimer, motif)
    freed, new = after_taboo is not new, after_taboo
    chain = [loc.key for loc in action.cards if loc.kind == PILE and new.piles[loc.key].size > 0]
    new = _restart(new, claimer)
    total = sum(len(new.captures[s]) for s in setup.side(claimer))
    won = total >= setup.opts.target
    if won:
        new = evolve(new, phase="over")
    details = {
        "claimer": claimer,
        "motif": motif,
        "cards": 3 if stolen else 2,
        "captures": total,
        "restarts": claimer,
        "reveal_piles": chain,
        "turned_over": [loc_to_json(x) for x in turned],
        "beaten": list(action.beaten),
        "won": won,
        "taboo_freed": freed,
    }
    who = names[claimer]
    if setup.mode == TEAMS:
        who = " + ".join(names[p] for p in dict.fromkeys(action.players))
    plural = setup.mode == TEAMS
    if stolen and stolen[0].key in setup.side(claimer):
        if plural:
            en = f"Triple! {who} add the third {motif!r} to their team's pair."
            fr = f"Triple ! {who} ajoutent le troisième {motif!r} à la paire de leur équipe."
        else:
            en = f"Triple! {names[claimer]} adds the third {motif!r} to their own pair."
            fr = f"Triple ! {names[claimer]} ajoute le troisième {motif!r} à sa propre paire."
        code = "triple_own"
    elif stolen:
        victim = names[stolen[0].key]
        take_en, take_fr = ("take", "prennent") if plural else ("takes", "prend")
        en = f"Triple steal! {who} {take_en} {victim}'s pair of {motif!r} and the third card."
        fr = f"Vol de triple ! {who} {take_fr} la paire de {motif!r} {de(victim)} et la troisième carte."
        code = "triple_steal"
    else:
        en = f"Pair of {motif!r}: {who} {'win' if plural else 'wins'} it."
        fr = f"Paire de {motif!r} : {who} la {'remportent' if plural else 'remporte'}."
        code = "pair"
    if action.beaten:
        over = ", ".join(names[p] for p in action.beaten)
        en += f" {over}'s hand lay on top: the lower hand has priority."
        fr += f" La main {de(over)} était au-dessus : la main du dessous a la priorité."
    if turned:
        t_en, t_fr = describe_all(turned, names)
        verb_en = "is" if len(turned) == 1 else "are"
        en += f" Three identical faces were in sight: {t_en} {verb_en} turned over."
        fr += f" Trois faces identiques étaient visibles : on retourne {t_fr}."
    if freed:
        bound = names[setup.opts.taboo_player]
        en += f" The taboo motif {motif!r} no longer binds {bound}."
        fr += f" Le motif tabou {motif!r} ne contraint plus {bound}."
    if chain:
        c_en = " and ".join(f"{names[s]}'s pile" for s in chain)
        c_fr = " et ".join(f"la pioche {de(names[s])}" for s in chain)
        if len(chain) == 1:
            en += f" Chain reaction: {c_en} shows its next card."
            fr += f" Réaction en chaîne : {c_fr} révèle sa carte suivante."
        else:
            en += f" Chain reaction: {c_en} show their next card."
            fr += f" Réaction en chaîne : {c_fr} révèlent leur carte suivante."
    if won:
        en += f" {total} captures: victory!"
        fr += f" {total} prises : victoire !"
    else:
        en += f" {names[claimer]} restarts play."
        fr += f" {names[claimer]} relance la partie."
    return valid(code, en, fr, **details), new


def _error(
    setup: Setup, state: TwinItState, action: Claim, erring: int, code: str, en: str, fr: str
) -> Result:
    """The penalty: the erring side gives up one won capture, put under the erring player's pile
    (or, with the ``cards`` penalty, the wrongly claimed cards go there); the erring player
    restarts play."""
    names = setup.players
    if setup.opts.penalty == "cards":
        return _error_cards(setup, state, action, erring, code, en, fr)
    side = setup.side(erring)
    forfeit = action.forfeit
    if forfeit is not None:
        if forfeit.key not in side or not exists(state, forfeit):
            f_en, f_fr = describe(forfeit, names)
            return refused(
                "bad_forfeit",
                f"{cap(f_en)} is not a capture of {names[erring]}'s side to give up.",
                f"{cap(f_fr)} n'est pas une prise du camp {de(names[erring])} à rendre.",
            ), state
    else:
        for seat in (erring, *sorted(s for s in side if s != erring)):
            if state.captures[seat]:
                forfeit = Loc(CAPTURE, seat, len(state.captures[seat]) - 1)
                break
    details = {"erring": erring, "error": code, "restarts": erring}
    if forfeit is None:
        new = _restart(state, erring)
        en += f" {names[erring]} has no capture to lose; {names[erring]} restarts play."
        fr += f" {names[erring]} n'a aucune prise à perdre ; {names[erring]} relance la partie."
        return penalised(code, en, fr, forfeit=None, **details), new
    cards = cards_at(state, forfeit)
    new = take(state, [forfeit])
    pile = state.piles[erring]
    piles = list(new.piles)
    piles[erring] = Pile(pile.size + cards, pile.top)
    new = _restart(evolve(new, piles=tuple(piles)), erring)
    f_en, f_fr = describe(forfeit, names)
    if forfeit.key == erring:
        f_en, f_fr = f"their capture #{forfeit.index + 1}", f"sa prise n°{forfeit.index + 1}"
    en += f" {names[erring]} puts {f_en} ({cards} cards) under their pile and restarts play."
    fr += f" {names[erring]} place {f_fr} ({cards} cartes) sous sa pioche et relance la partie."
    return penalised(code, en, fr, forfeit=loc_to_json(forfeit), forfeit_cards=cards, **details), new


def _error_cards(
    setup: Setup, state: TwinItState, action: Claim, erring: int, code: str, en: str, fr: str
) -> Result:
    """The ``cards`` penalty: the wrongly claimed single cards go under the erring player's pile (a
    covered capture stays with its holder); a pile whose top left shows its next card."""
    names = setup.players
    if action.forfeit is not None:
        return refused(
            "bad_forfeit",
            "With the 'cards' penalty the wrongly claimed cards are given up, not a capture.",
            "Avec la pénalité « cartes », on rend les cartes réclamées à tort, pas une prise.",
        ), state
    moved = [loc for loc in action.cards if loc.kind != CAPTURE]
    new = take(state, moved)
    piles = list(new.piles)
    piles[erring] = Pile(new.piles[erring].size + len(moved), new.piles[erring].top)
    new = _restart(evolve(new, piles=tuple(piles)), erring)
    chain = [loc.key for loc in moved if loc.kind == PILE and new.piles[loc.key].size > 0]
    m_en, m_fr = describe_all(moved, names)
    en += f" {names[erring]} puts {m_en} under their pile and restarts play."
    fr += f" {names[erring]} place {m_fr} sous sa pioche et relance la partie."
    details = {"erring": erring, "error": code, "restarts": erring, "reveal_piles": chain}
    return penalised(code, en, fr, moved=[loc_to_json(x) for x in moved], **details), new


def tie(setup: Setup, state: TwinItState, action: Tie) -> Result:
    """Two players each put a hand on one card of a pair at once: count to three, then the pair is
    turned over (a won pair in the dispute stays: only the table or pile card turns)."""
    if (shut := closed(state)) is not None:
        return shut
    names = setup.players
    a, b = action.players
    if a == b:
        return refused(
            "tie_one_player",
            f"{names[a]} alone covers both cards: that is a claim, not a tie.",
            f"{names[a]} couvre seul les deux cartes : c'est une prise, pas une égalité.",
        ), state
    if setup.mode == TEAMS and setup.opts.team_of(a) == setup.opts.team_of(b):
        return refused(
            "tie_teammates",
            f"{names[a]} and {names[b]} are teammates: their two hands make a team claim.",
            f"{names[a]} et {names[b]} sont coéquipiers : leurs deux mains font une prise d'équipe.",
        ), state
    if (bad := _where(setup, state, action.cards)) is not None:
        return bad
    state, faces, unsure = covered_faces(setup, state, action.cards, action.faces)
    if unsure is not None:
        return unsure, state
    if faces[0] != faces[1]:
        return refused(
            "tie_not_pair",
            f"{faces[0]!r} and {faces[1]!r} are not identical: there is nothing to settle.",
            f"{faces[0]!r} et {faces[1]!r} ne sont pas identiques : il n'y a rien à départager.",
        ), state
    turned = [loc for loc in action.cards if loc.kind != CAPTURE]
    new = turn_over(state, turned)
    en, fr = describe_all(turned, names)
    verb = "is" if len(turned) == 1 else "are"
    return valid(
        "tie_flip",
        f"{names[a]} and {names[b]} claimed together: count to three, then {en} {verb} turned over.",
        f"{names[a]} et {names[b]} ont réclamé ensemble : on compte jusqu'à 3 et on retourne {fr}.",
        players=[a, b],
        turned_over=[loc_to_json(x) for x in turned],
    ), new
