"""The Mind's rulings: one function resolves an action into its ruling and the state it leads to.

Nothing here mutates. With the hands known the referee sees every error itself (a card played
while someone holds a lower one) and discards the lower cards; with the hands unknown it sees only
the pile and the cards put face up (:mod:`referee.themind.unknown`). The end of a level or of the
game is ruled by :mod:`referee.themind.levels`.
"""

from __future__ import annotations

from dataclasses import replace

from referee.french import join_en, join_fr
from referee.hands import deal_hands_refusal
from referee.themind.actions import Deal, MindAction, PlayCard, RevealPile, Star
from referee.themind.levels import settle
from referee.themind.setup import Setup, cards_text, less, uncertain
from referee.themind.state import Discard, MindState, Play
from referee.themind.unknown import discard, play_unknown, reveal, star_cards_problem
from referee.types import Reason, Ruling, Verdict, refused


def _per_seat(setup: Setup, cards: tuple[int | None, ...] | list[int | None], none: str) -> str:
    """Cards per player in words: ``"Ana 12, Ben none"``."""
    return ", ".join(
        f"{name} {none if c is None else c}" for name, c in zip(setup.names, cards, strict=False)
    )


def resolve(setup: Setup, state: MindState, action: MindAction) -> tuple[Ruling, MindState]:
    """The ruling on ``action`` and the state after it (``state`` itself when it does not apply)."""
    if state.phase in ("won", "lost"):
        en = "The game is over: the team won." if state.phase == "won" else "The game is over: no lives left."
        fr = (
            "La partie est finie : l'équipe a gagné."
            if state.phase == "won"
            else "La partie est finie : plus de vie."
        )
        return refused("game_over", en, fr), state
    if isinstance(action, Deal):
        return _deal(setup, state, action)
    if state.phase == "deal":
        return (
            refused(
                "deal_first",
                f"Deal level {state.level} first.",
                f"Distribuez d'abord le niveau {state.level}.",
            ),
            state,
        )
    if isinstance(action, RevealPile):
        return reveal(setup, state, action)
    if state.phase == "reveal":
        return (
            refused(
                "reveal_first",
                "Every card is down: turn the pile over and read it before anything else.",
                "Toutes les cartes sont posées : retournez la pile et lisez-la d'abord.",
            ),
            state,
        )
    if isinstance(action, PlayCard):
        return _play(setup, state, action)
    if isinstance(action, Star):
        return _star(setup, state, action)
    return discard(setup, state, action)


def _deal(setup: Setup, state: MindState, action: Deal) -> tuple[Ruling, MindState]:
    if state.phase != "deal":
        return (
            refused(
                "not_dealing",
                f"Level {state.level} is on: cards are dealt only at the start of a level.",
                f"Le niveau {state.level} est en cours : on ne distribue qu'au début d'un niveau.",
            ),
            state,
        )
    level = state.level
    refusal = deal_hands_refusal(setup.known, action.hands is not None)
    if refusal is not None:
        return refusal, state
    hands: tuple[tuple[int, ...], ...] = ((),) * setup.n
    if action.hands is not None:
        sizes = [len(h) for h in action.hands]
        if sizes != [level] * setup.n:
            return (
                refused(
                    "bad_deal_sizes",
                    f"At level {level} each of the {setup.n} players gets {level} cards; "
                    f"this deal gives {sizes}.",
                    f"Au niveau {level}, chacun des {setup.n} joueurs reçoit {level} cartes ; "
                    f"cette distribution donne {sizes}.",
                    sizes=sizes,
                ),
                state,
            )
        every = [c for h in action.hands for c in h]
        if len(set(every)) != len(every):
            twice = sorted({c for c in every if every.count(c) > 1})
            return (
                refused(
                    "card_twice",
                    f"Each card exists once; this deal gives {cards_text(twice)} twice.",
                    f"Chaque carte existe une fois ; cette distribution donne {cards_text(twice)} deux fois.",
                    cards=twice,
                ),
                state,
            )
        hands = tuple(tuple(sorted(h)) for h in action.hands)
    new = replace(
        state,
        phase="play",
        hands=hands,
        counts=(level,) * setup.n,
        pile=(),
        discards=(),
        charged=None,
    )
    ruling = Ruling(
        Verdict.VALID,
        Reason(
            "dealt",
            f"Level {level}: {level} card{'s' if level > 1 else ''} each. Concentrate!",
            f"Niveau {level} : {level} carte{'s' if level > 1 else ''} chacun. Concentrez-vous !",
        ),
        True,
        {"level": level},
    )
    return ruling, new


def _play(setup: Setup, state: MindState, action: PlayCard) -> tuple[Ruling, MindState]:
    p, card = action.player, action.card
    who = setup.names[p]
    if state.counts[p] == 0:
        return (
            refused("empty_hand", f"{who} has no card left.", f"{who} n'a plus de carte."),
            state,
        )
    if setup.blind and not setup.known:
        if card is not None:
            return (
                refused(
                    "face_down",
                    "In blind mode the cards are played face down: record the play without its card.",
                    "En mode aveugle, les cartes sont jouées face cachée : notez le coup sans sa carte.",
                ),
                state,
            )
        counts = less(state.counts, p, 1)
        new = replace(state, counts=counts, pile=(*state.pile, Play(p, None)))
        return settle(
            setup,
            new,
            Verdict.VALID,
            "played_face_down",
            f"{who} plays a card face down.",
            f"{who} joue une carte face cachée.",
            {},
        )
    if card is None:
        if setup.known:
            return (
                refused(
                    "card_needed",
                    "With the hands known, a play must name its card.",
                    "Mains connues : un coup doit nommer sa carte.",
                ),
                state,
            )
        return (
            uncertain(
                "card_unread",
                "The card played was not read; show it again.",
                "La carte jouée n'a pas été lue ; montrez-la de nouveau.",
            ),
            state,
        )
    if setup.known:
        return _play_known(setup, state, p, card)
    return play_unknown(setup, state, p, card)


def _play_known(setup: Setup, state: MindState, p: int, card: int) -> tuple[Ruling, MindState]:
    who = setup.names[p]
    if card not in state.hands[p]:
        return (
            refused("not_in_hand", f"{who} does not hold {card}.", f"{who} n'a pas le {card} en main."),
            state,
        )
    hands = list(state.hands)
    hands[p] = tuple(c for c in hands[p] if c != card)
    pile = (*state.pile, Play(p, card))
    if setup.blind:
        new = replace(state, hands=tuple(hands), counts=less(state.counts, p, 1), pile=pile)
        return settle(
            setup,
            new,
            Verdict.VALID,
            "played_face_down",
            f"{who} plays a card face down.",
            f"{who} joue une carte face cachée.",
            {"card": card},
        )
    lower = [(seat, c) for seat, hand in enumerate(hands) for c in hand if c < card]
    if not lower:
        new = replace(state, hands=tuple(hands), counts=less(state.counts, p, 1), pile=pile)
        return settle(
            setup,
            new,
            Verdict.VALID,
            "played",
            f"{who} plays {card}.",
            f"{who} joue le {card}.",
            {"card": card},
        )
    discards = list(state.discards)
    for seat, c in sorted(lower, key=lambda sc: sc[1]):
        discards.append(Discard(seat, c, "error"))
    hands = [tuple(c for c in hand if c > card) for hand in hands]
    low = sorted(c for _, c in lower)
    new = replace(
        state,
        hands=tuple(hands),
        counts=tuple(len(h) for h in hands),
        pile=pile,
        discards=tuple(discards),
        lives=state.lives - 1,
    )
    return settle(
        setup,
        new,
        Verdict.INVALID,
        "error",
        f"Error: {who} played {card} while {join_en(low)} {'was' if len(low) == 1 else 'were'} still "
        "held. Every lower card is discarded face up and the team loses one life.",
        f"Erreur : {who} a joué le {card} alors que {join_fr(low)} "
        f"{'était' if len(low) == 1 else 'étaient'} encore en main. "
        "Toutes les cartes plus basses sont défaussées face visible et l'équipe perd une vie.",
        {
            "card": card,
            "discarded": [{"player": s, "card": c} for s, c in sorted(lower, key=lambda sc: sc[1])],
        },
    )


def _star(setup: Setup, state: MindState, action: Star) -> tuple[Ruling, MindState]:
    if state.stars == 0:
        return (
            refused(
                "no_star", "The team has no throwing star left.", "L'équipe n'a plus d'étoile de lancer."
            ),
            state,
        )
    missing = [setup.names[s] for s in range(setup.n) if s not in action.hands_up]
    if missing:
        names = ", ".join(missing)
        return (
            refused(
                "not_unanimous",
                f"A throwing star needs every hand up; missing: {names}.",
                f"Une étoile de lancer demande que tout le monde lève la main ; manque : {names}.",
            ),
            state,
        )
    if setup.known:
        lowest: list[int | None] = [h[0] if h else None for h in state.hands]
        if action.cards is not None and list(action.cards) != lowest:
            return (
                refused(
                    "not_lowest",
                    f"With a star everyone discards their lowest card: {_per_seat(setup, lowest, 'none')}, "
                    f"not {_per_seat(setup, action.cards, 'none')}.",
                    f"Avec une étoile chacun défausse sa plus petite carte : "
                    f"{_per_seat(setup, lowest, 'aucune')}, pas {_per_seat(setup, action.cards, 'aucune')}.",
                ),
                state,
            )
    else:
        problem = star_cards_problem(setup, state, action)
        if problem is not None:
            return problem, state
        assert action.cards is not None
        lowest = list(action.cards)
    discards = list(state.discards)
    hands = list(state.hands)
    counts = list(state.counts)
    for seat, card in enumerate(lowest):
        if card is None:
            continue
        discards.append(Discard(seat, card, "star"))
        counts[seat] -= 1
        if setup.known:
            hands[seat] = hands[seat][1:]
    new = replace(
        state,
        hands=tuple(hands),
        counts=tuple(counts),
        discards=tuple(discards),
        stars=state.stars - 1,
    )
    shown = cards_text([c for c in lowest if c is not None])
    return settle(
        setup,
        new,
        Verdict.VALID,
        "star",
        f"Throwing star: everyone discards their lowest card ({shown}).",
        f"Étoile de lancer : chacun défausse sa plus petite carte ({shown}).",
        {"discarded": lowest},
    )
