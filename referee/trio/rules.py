"""Trio's rulings: one function resolves an action into its ruling and the state it leads to.

The game's ``judge`` keeps the ruling, ``apply`` keeps both; nothing here mutates. The deal and the
team exchanges are ruled here, the reveals of a turn in :mod:`referee.trio.reveals`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from referee.hands import deal_hands_refusal
from referee.trio.actions import Deal, Exchange, TrioAction
from referee.trio.cards import COPIES, deal_sizes, deck, team_of
from referee.trio.reveals import reveal
from referee.trio.setup import Setup, names_of, winners
from referee.trio.state import CentreCard, Hand, TrioState
from referee.types import Ruling, refused, valid


def resolve(setup: Setup, state: TrioState, action: TrioAction) -> tuple[Ruling, TrioState]:
    """The ruling on ``action`` and the state after it (``state`` itself when it does not apply)."""
    if isinstance(action, Deal):
        return _deal(setup, state, action)
    if not state.dealt:
        return refused("deal_first", "Deal the cards first.", "Distribuez d'abord les cartes."), state
    won = winners(setup, state)
    if won is not None:
        who = names_of(setup, won)
        return (
            refused(
                "game_over",
                f"The game is over: {who} won.",
                f"La partie est finie : {who} {'ont' if len(won) > 1 else 'a'} gagné.",
            ),
            state,
        )
    if isinstance(action, Exchange):
        return _exchange(setup, state, action)
    return reveal(setup, state, action)


def _deal(setup: Setup, state: TrioState, action: Deal) -> tuple[Ruling, TrioState]:
    if state.dealt:
        return refused(
            "already_dealt", "The cards are already dealt.", "Les cartes sont déjà distribuées."
        ), state
    per, centre_size = deal_sizes(setup.n, setup.teams)
    refusal = deal_hands_refusal(setup.known, action.hands is not None)
    if refusal is not None:
        return refusal, state
    if action.hands is not None:
        sizes = [len(h) for h in action.hands]
        centre = action.centre or ()
        if sizes != [per] * setup.n or len(centre) != centre_size:
            return (
                refused(
                    "bad_deal_sizes",
                    f"With {setup.n} players each gets {per} cards and the centre {centre_size}; "
                    f"this deal gives {sizes} and {len(centre)}.",
                    f"À {setup.n} joueurs chacun reçoit {per} cartes et le centre {centre_size} ; "
                    f"cette distribution donne {sizes} et {len(centre)}.",
                    sizes=sizes,
                    centre=len(centre),
                ),
                state,
            )
        dealt = Counter(n for h in action.hands for n in h) + Counter(centre)
        if dealt != Counter(deck()):
            wrong = sorted(n for n in range(1, 13) if dealt[n] != COPIES)
            return (
                refused(
                    "bad_deal_cards",
                    f"The deal must use each number 1 to 12 three times; wrong counts for {wrong}.",
                    f"La distribution doit utiliser chaque nombre de 1 à 12 trois fois ; "
                    f"compte faux pour {wrong}.",
                    numbers=wrong,
                ),
                state,
            )
        hands = tuple(Hand(tuple(sorted(h))) for h in action.hands)
        centre_cards = tuple(CentreCard(i, n) for i, n in enumerate(centre))
    else:
        hands = tuple(Hand((None,) * per) for _ in range(setup.n))
        centre_cards = tuple(CentreCard(i, None) for i in range(centre_size))
    new = TrioState(
        dealt=True,
        turn=action.first,
        hands=hands,
        centre=centre_cards,
        revealed=(),
        trios=((),) * setup.n,
        exchanges=tuple(range(setup.team_count())),
    )
    first = setup.names[action.first]
    return (
        valid(
            "dealt",
            f"Cards dealt: {per} each, "
            + (f"{centre_size} in the centre" if centre_size else "no centre")
            + f"; {first} starts.",
            f"Cartes distribuées : {per} chacun, "
            + (f"{centre_size} au centre" if centre_size else "pas de centre")
            + f" ; {first} commence.",
            per_player=per,
            centre=centre_size,
        ),
        new,
    )


def _exchange(setup: Setup, state: TrioState, action: Exchange) -> tuple[Ruling, TrioState]:
    a, b = action.players
    na, nb = setup.names[a], setup.names[b]
    if not setup.teams:
        return (
            refused("no_exchange", "Cards are exchanged only in team mode.", "On n'échange qu'en équipes."),
            state,
        )
    if a == b or team_of(a, setup.n) != team_of(b, setup.n):
        return (
            refused(
                "not_partners",
                f"{na} and {nb} are not partners: only partners exchange.",
                f"{na} et {nb} ne sont pas partenaires : seuls les partenaires échangent.",
            ),
            state,
        )
    if state.revealed:
        return (
            refused(
                "exchange_mid_turn",
                "No exchange during a turn: wait until the revealed cards are taken or back.",
                "Pas d'échange pendant un tour : attendez que les cartes révélées soient prises ou remises.",
            ),
            state,
        )
    team = team_of(a, setup.n)
    if team not in state.exchanges:
        return (
            refused(
                "exchange_closed",
                f"{na} and {nb} may not exchange now: a team exchanges at the start, and after an "
                "opposing team wins a trio, before the next reveal.",
                f"{na} et {nb} ne peuvent pas échanger maintenant : une équipe échange au début, puis "
                "quand une équipe adverse gagne un trio, avant la révélation suivante.",
            ),
            state,
        )
    for seat in (a, b):
        if not state.hands[seat].cards:
            who = setup.names[seat]
            return (
                refused(
                    "exchange_empty_hand",
                    f"{who} has no card left: the exchange is impossible ({who} still plays their turns).",
                    f"{who} n'a plus de carte : l'échange est impossible ({who} joue quand même ses tours).",
                ),
                state,
            )
    hands = list(state.hands)
    if setup.known:
        if action.cards is None:
            return (
                refused(
                    "exchange_cards_needed",
                    "With the hands known, an exchange must name the two cards.",
                    "Mains connues : un échange doit nommer les deux cartes.",
                ),
                state,
            )
        x, y = action.cards
        for seat, card in ((a, x), (b, y)):
            if card not in state.hands[seat].cards:
                who = setup.names[seat]
                return (
                    refused(
                        "exchange_card_missing",
                        f"{who} has no {card} to give.",
                        f"{who} n'a pas de {card} à donner.",
                    ),
                    state,
                )
        hands[a] = Hand(tuple(sorted([*_without(state.hands[a].cards, x), y])))
        hands[b] = Hand(tuple(sorted([*_without(state.hands[b].cards, y), x])))
    else:
        if action.cards is not None:
            return (
                refused(
                    "hands_unknown",
                    "With the hands unknown, an exchange is recorded without its (secret) cards.",
                    "Mains inconnues : un échange s'enregistre sans ses cartes (secrètes).",
                ),
                state,
            )
        for seat in (a, b):
            hands[seat] = Hand((None,) * len(state.hands[seat].cards))
    new = replace(state, hands=tuple(hands), exchanges=tuple(t for t in state.exchanges if t != team))
    return (
        valid(
            "exchanged",
            f"{na} and {nb} exchange one card each.",
            f"{na} et {nb} échangent une carte chacun.",
            team=team,
        ),
        new,
    )


def _without(cards: tuple[int | None, ...], card: int) -> list[int]:
    out = [c for c in cards if c is not None]
    out.remove(card)
    return out
