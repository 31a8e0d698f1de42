"""The Mind with the hands unknown: a camera sees only the pile and the cards put face up, so an
error shows when a lower card appears (played late, or discarded by its holder), and a star's or
a blind pile's cards are read when they show."""

from __future__ import annotations

from dataclasses import replace

from referee.french import de, join_en, join_fr
from referee.themind.actions import DiscardCards, RevealPile, Star
from referee.themind.levels import count_blind, settle
from referee.themind.setup import Setup, cards_text, less, seen_cards, star_floor, top_card, uncertain
from referee.themind.state import Discard, MindState, Play
from referee.types import Ruling, Verdict, refused

FR_MUST, FR_CANNOT = "a des cartes et doit", "n'a plus de carte et ne peut pas"


def below_star(setup: Setup, state: MindState, seat: int, cards: list[int]) -> Ruling | None:
    """An uncertain ruling when ``cards`` lie below the card ``seat`` discarded as lowest with a star."""
    floor = star_floor(state, seat)
    low = [c for c in cards if c < floor]
    if not low:
        return None
    who = setup.names[seat]
    return uncertain(
        "below_star_card",
        f"{who} discarded {floor} as their lowest card with the star; {cards_text(low)} cannot still be in "
        "their hand. Check the card.",
        f"{who} a défaussé le {floor} comme plus petite carte avec l'étoile ; {cards_text(low)} ne peut pas "
        "être encore dans sa main. Vérifiez la carte.",
        floor=floor,
    )


def play_unknown(setup: Setup, state: MindState, p: int, card: int) -> tuple[Ruling, MindState]:
    """A face-up play with the hands unknown: valid above the pile, else an error (one life per error)."""
    who = setup.names[p]
    if card in seen_cards(state):
        return (
            uncertain(
                "already_seen",
                f"{card} was already played or discarded in this level; check the card.",
                f"Le {card} a déjà été joué ou défaussé dans ce niveau ; vérifiez la carte.",
            ),
            state,
        )
    below = below_star(setup, state, p, [card])
    if below is not None:
        return below, state
    top = top_card(state)
    counts = less(state.counts, p, 1)
    if top is None or card > top:
        new = replace(state, counts=counts, pile=(*state.pile, Play(p, card)))
        return settle(
            setup,
            new,
            Verdict.VALID,
            "played",
            f"{who} plays {card}.",
            f"{who} joue le {card}.",
            {"card": card},
        )
    discards = (*state.discards, Discard(p, card, "error"))
    if state.charged == top:
        new = replace(state, counts=counts, discards=discards)
        return settle(
            setup,
            new,
            Verdict.INVALID,
            "error_more",
            f"{who}'s {card} is lower than {top}: it belongs to the same error and is discarded face up "
            "(no further life lost).",
            f"Le {card} {de(who)} est plus bas que le {top} : il relève de la même erreur et est défaussé "
            "face visible (pas d'autre vie perdue).",
            {"card": card, "top": top},
        )
    new = replace(state, counts=counts, discards=discards, lives=state.lives - 1, charged=top)
    return settle(
        setup,
        new,
        Verdict.INVALID,
        "error",
        f"Error: {who} still held {card} when {top} was played. The card is discarded face up, every "
        f"card lower than {top} must be discarded too, and the team loses one life.",
        f"Erreur : {who} avait encore le {card} quand le {top} a été joué. La carte est défaussée face "
        f"visible, toutes les cartes plus basses que le {top} doivent l'être aussi, et l'équipe perd "
        "une vie.",
        {"card": card, "top": top},
    )


def star_cards_problem(setup: Setup, state: MindState, action: Star) -> Ruling | None:
    """Why the cards a star shows cannot be right (uncertain ruling), or ``None``."""
    cards = action.cards
    if cards is None or len(cards) != setup.n:
        return uncertain(
            "star_cards_unread",
            "With the hands unknown, a star needs the card each player discarded.",
            "Mains inconnues : une étoile demande la carte défaussée par chaque joueur.",
        )
    for seat, card in enumerate(cards):
        if (card is None) != (state.counts[seat] == 0):
            who = setup.names[seat]
            return uncertain(
                "star_cards_mismatch",
                f"{who} {'holds cards and must' if card is None else 'has no card and cannot'} discard one.",
                f"{who} {FR_MUST if card is None else FR_CANNOT} en défausser une.",
            )
    shown = [c for c in cards if c is not None]
    seen = seen_cards(state)
    if len(set(shown)) != len(shown) or seen.intersection(shown):
        return uncertain(
            "already_seen",
            f"A card of {cards_text(shown)} was already seen in this level; check the cards.",
            f"Une carte parmi {cards_text(shown)} a déjà été vue dans ce niveau ; vérifiez les cartes.",
        )
    for seat, card in enumerate(cards):
        below = None if card is None else below_star(setup, state, seat, [card])
        if below is not None:
            return below
    top = top_card(state)
    if not setup.blind and top is not None and any(c < top for c in shown):
        return uncertain(
            "star_below_top",
            f"A star card below the pile's {top} means an error was missed: discard it as an error first.",
            f"Une carte d'étoile sous le {top} de la pile révèle une erreur manquée : défaussez-la d'abord "
            "comme erreur.",
        )
    return None


def discard(setup: Setup, state: MindState, action: DiscardCards) -> tuple[Ruling, MindState]:
    """Hands unknown: a player puts cards lower than the pile face up, after or as an error."""
    p = action.player
    who = setup.names[p]
    if setup.known:
        return (
            refused(
                "discards_automatic",
                "With the hands known, the referee discards the lower cards itself.",
                "Mains connues : l'arbitre défausse lui-même les cartes plus basses.",
            ),
            state,
        )
    if setup.blind:
        return (
            refused(
                "blind_no_discard",
                "In blind mode nobody can see an error: they are counted at the end of the level.",
                "En mode aveugle, personne ne voit les erreurs : on les compte à la fin du niveau.",
            ),
            state,
        )
    top = top_card(state)
    if top is None or not action.cards:
        return (
            refused(
                "nothing_to_discard",
                "Nothing to discard: an error's cards are those lower than the card on the pile.",
                "Rien à défausser : les cartes d'une erreur sont celles plus basses que la carte de la pile.",
            ),
            state,
        )
    if len(action.cards) > state.counts[p]:
        return (
            uncertain(
                "too_many_cards",
                f"{who} holds only {state.counts[p]} card(s), not {len(action.cards)}.",
                f"{who} n'a que {state.counts[p]} carte(s), pas {len(action.cards)}.",
            ),
            state,
        )
    higher = [c for c in action.cards if c > top]
    if higher:
        return (
            uncertain(
                "not_lower",
                f"{join_en(higher)}: not lower than the pile's {top}, so not part of an error.",
                f"{join_fr(higher)} : pas plus bas que le {top} de la pile, donc pas une erreur.",
            ),
            state,
        )
    seen = seen_cards(state)
    if len(set(action.cards)) != len(action.cards) or seen.intersection(action.cards):
        return (
            uncertain(
                "already_seen",
                f"A card of {cards_text(action.cards)} was already seen in this level; check the cards.",
                f"Une carte parmi {cards_text(action.cards)} a déjà été vue dans ce niveau ; "
                "vérifiez les cartes.",
            ),
            state,
        )
    below = below_star(setup, state, p, list(action.cards))
    if below is not None:
        return below, state
    discards = (*state.discards, *(Discard(p, c, "error") for c in sorted(action.cards)))
    counts = less(state.counts, p, len(action.cards))
    low = sorted(action.cards)
    if state.charged == top:
        new = replace(state, counts=counts, discards=discards)
        return settle(
            setup,
            new,
            Verdict.VALID,
            "error_more",
            f"{who} also discards {join_en(low)}, lower than {top}: same error, no further life lost.",
            f"{who} défausse aussi {join_fr(low)}, plus bas que le {top} : même erreur, "
            "pas d'autre vie perdue.",
            {"cards": sorted(action.cards), "top": top},
        )
    new = replace(state, counts=counts, discards=discards, lives=state.lives - 1, charged=top)
    return settle(
        setup,
        new,
        Verdict.INVALID,
        "error",
        f"Error: {who} held {join_en(low)} when {top} was played. Every card lower than {top} is discarded "
        "face up and the team loses one life.",
        f"Erreur : {who} avait {join_fr(low)} quand le {top} a été joué. Toutes les cartes plus basses que "
        f"{top} sont défaussées face visible et l'équipe perd une vie.",
        {"cards": sorted(action.cards), "top": top},
    )


def reveal(setup: Setup, state: MindState, action: RevealPile) -> tuple[Ruling, MindState]:
    """Blind mode, hands unknown: the pile is turned over and read; the blind count follows."""
    if state.phase != "reveal":
        return (
            refused(
                "not_revealing",
                "The pile is turned over only in blind mode, once every card is played.",
                "On ne retourne la pile qu'en mode aveugle, une fois toutes les cartes jouées.",
            ),
            state,
        )
    if len(action.cards) != len(state.pile):
        return (
            uncertain(
                "pile_count",
                f"The pile holds {len(state.pile)} cards; {len(action.cards)} were read.",
                f"La pile contient {len(state.pile)} cartes ; {len(action.cards)} ont été lues.",
            ),
            state,
        )
    seen = seen_cards(state)
    if len(set(action.cards)) != len(action.cards) or seen.intersection(action.cards):
        return (
            uncertain(
                "already_seen",
                "A card of the pile appears twice or was discarded; check the cards.",
                "Une carte de la pile apparaît deux fois ou a été défaussée ; vérifiez les cartes.",
            ),
            state,
        )
    pile = tuple(Play(p.player, c) for p, c in zip(state.pile, action.cards, strict=True))
    return count_blind(setup, replace(state, pile=pile, phase="play"), Verdict.VALID, "", "", {})
