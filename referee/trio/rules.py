"""Trio's rulings: one function resolves an action into its ruling and the state it leads to.

The game's ``judge`` keeps the ruling, ``apply`` keeps both; nothing here mutates. The numbers a
reveal may show are bounded by what earlier reveals proved (the hand is sorted; a number exists
three times); with the hands unknown a reveal outside those bounds is flagged as uncertain (the
camera may have misread it, or the hand was not sorted) and applies only once the table confirms it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from referee.french import de
from referee.trio.actions import Ask, Deal, Exchange, RevealCentre, TrioAction
from referee.trio.cards import COPIES, deal_sizes, deck, partners, reaches_goal, team_of
from referee.trio.state import CentreCard, Hand, Reveal, TrioState
from referee.types import Reason, Ruling, Verdict, refused, valid

END_FR = {"smallest": "plus petite", "largest": "plus grande"}
END_EN = {"smallest": "smallest", "largest": "largest"}


@dataclass(frozen=True)
class Setup:
    """The fixed facts the rules need."""

    names: tuple[str, ...]
    teams: bool
    goal: str
    """``"simple"`` or ``"picante"``."""
    known: bool
    """True when the deal lists the hands; False when only reveals are seen."""

    @property
    def n(self) -> int:
        return len(self.names)

    def team_count(self) -> int:
        return self.n // 2 if self.teams else 0


@dataclass(frozen=True)
class Target:
    """Where a reveal takes its card and what is already proved about it."""

    seat: int | None
    index: int
    value: int | None
    lower: int
    upper: int


# -- collections and winners ------------------------------------------------------------------


def collections(setup: Setup, state: TrioState) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(seats, trio numbers) per player, or per team in team mode (partners share their trios)."""
    if not state.trios:
        return []
    if setup.teams:
        out = []
        for team in range(setup.team_count()):
            a, b = partners(team, setup.n)
            out.append(((a, b), state.trios[a] + state.trios[b]))
        return out
    return [((seat,), trios) for seat, trios in enumerate(state.trios)]


def winners(setup: Setup, state: TrioState) -> tuple[int, ...] | None:
    """The winning seats, or ``None`` while nobody has reached the goal."""
    for seats, trios in collections(setup, state):
        if reaches_goal(trios, setup.goal):
            return seats
    return None


def _names(setup: Setup, seats: tuple[int, ...]) -> str:
    return " & ".join(setup.names[s] for s in seats)


# -- entry point ------------------------------------------------------------------------------


def resolve(setup: Setup, state: TrioState, action: TrioAction) -> tuple[Ruling, TrioState]:
    """The ruling on ``action`` and the state after it (``state`` itself when it does not apply)."""
    if isinstance(action, Deal):
        return _deal(setup, state, action)
    if not state.dealt:
        return refused("deal_first", "Deal the cards first.", "Distribuez d'abord les cartes."), state
    won = winners(setup, state)
    if won is not None:
        who = _names(setup, won)
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
    return _reveal(setup, state, action)


# -- deal -------------------------------------------------------------------------------------


def _deal(setup: Setup, state: TrioState, action: Deal) -> tuple[Ruling, TrioState]:
    if state.dealt:
        return refused(
            "already_dealt", "The cards are already dealt.", "Les cartes sont déjà distribuées."
        ), state
    per, centre_size = deal_sizes(setup.n, setup.teams)
    if setup.known and action.hands is None:
        return (
            refused(
                "hands_needed",
                "This game is played with the hands known: the deal must list them.",
                "Cette partie se joue mains connues : la distribution doit les donner.",
            ),
            state,
        )
    if not setup.known and action.hands is not None:
        return (
            refused(
                "hands_unknown",
                "This game is played with the hands unknown: the deal cannot list them.",
                "Cette partie se joue mains inconnues : la distribution ne peut pas les donner.",
            ),
            state,
        )
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


# -- exchange ---------------------------------------------------------------------------------


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


# -- reveals ----------------------------------------------------------------------------------


def _reveal(setup: Setup, state: TrioState, action: RevealCentre | Ask) -> tuple[Ruling, TrioState]:
    player = setup.names[action.player]
    if action.player != state.turn:
        turn = setup.names[state.turn]
        return (
            refused(
                "not_your_turn",
                f"It is {turn}'s turn, not {player}'s. A turn ends at the first different number, "
                "and after a trio.",
                f"C'est le tour {de(turn)}, pas {de(player)}. Un tour s'arrête au premier nombre "
                "différent, et après un trio.",
            ),
            state,
        )
    if action.count != 1:
        return (
            refused(
                "one_at_a_time",
                f"{action.count} cards shown at once: reveal one card at a time, with one request each.",
                f"{action.count} cartes montrées d'un coup : révélez une carte à la fois, une demande "
                "par carte.",
            ),
            state,
        )
    found = target_of(setup, state, action)
    if isinstance(found, Ruling):
        return found, state
    number = action.number if action.number is not None else found.value
    if number is None:
        return (
            Ruling(
                Verdict.UNCERTAIN,
                Reason(
                    "number_unread",
                    "The revealed number was not read; show the card again.",
                    "Le nombre révélé n'a pas été lu ; montrez de nouveau la carte.",
                ),
                False,
            ),
            state,
        )
    problem = conflict(setup, state, action, found, number)
    if problem is not None:
        if setup.known or not action.confirmed or problem.code == "all_face_up":
            verdict = Verdict.INVALID if setup.known or problem.code == "all_face_up" else Verdict.UNCERTAIN
            return Ruling(verdict, problem, False, {"number": number, "expected": found.value}), state
        state = _forget(state, found, number)
    return _show(setup, state, action, found, number, problem)


def target_of(setup: Setup, state: TrioState, action: RevealCentre | Ask) -> Target | Ruling:
    if isinstance(action, RevealCentre):
        if setup.teams:
            return refused(
                "no_centre",
                "Team mode has no centre: every card is dealt.",
                "En équipes, il n'y a pas de centre : toutes les cartes sont distribuées.",
            )
        card = next((c for c in state.centre if c.slot == action.slot), None)
        if card is None:
            return refused(
                "no_such_slot",
                f"There is no card left in slot {action.slot} of the centre.",
                f"Il n'y a plus de carte à la place {action.slot} du centre.",
            )
        if any(r.seat is None and r.index == action.slot for r in state.revealed):
            return refused(
                "already_revealed",
                f"Centre card {action.slot} is already face up this turn.",
                f"La carte {action.slot} du centre est déjà révélée ce tour-ci.",
            )
        return Target(None, action.slot, card.number, 1, 12)
    target = setup.names[action.target]
    hand = state.hands[action.target]
    if not hand.cards:
        return refused(
            "empty_hand",
            f"{target} has no card left; ask someone else or reveal a centre card.",
            f"{target} n'a plus de carte ; demandez à quelqu'un d'autre ou révélez une carte du centre.",
        )
    shown = {r.index for r in state.revealed if r.seat == action.target}
    free = [i for i in range(len(hand.cards)) if i not in shown] if shown else range(len(hand.cards))
    if not free:
        return refused(
            "hand_all_revealed",
            f"All of {target}'s cards are already face up this turn.",
            f"Toutes les cartes {de(target)} sont déjà révélées ce tour-ci.",
        )
    index = free[0] if action.end == "smallest" else free[-1]
    value = hand.cards[index]
    if value is not None:
        return Target(action.target, index, value, value, value)
    below = [v for v in hand.cards[:index] if v is not None]
    above = [v for v in hand.cards[index + 1 :] if v is not None]
    lower = max(below[-1], hand.low) if below else hand.low
    upper = min(above[0], hand.high) if above else hand.high
    return Target(action.target, index, None, lower, upper)


def _count_known(state: TrioState, number: int) -> int:
    """How many cards of ``number`` are proved: trios, and seen cards in hands and the centre."""
    count = sum(COPIES for trios in state.trios for t in trios if t == number)
    count += sum(1 for h in state.hands for v in h.cards if v == number)
    count += sum(1 for c in state.centre if c.number == number)
    return count


def conflict(
    setup: Setup, state: TrioState, action: RevealCentre | Ask, found: Target, number: int
) -> Reason | None:
    """Why ``number`` cannot be the revealed card, or ``None`` when it can."""
    face_up = sum(COPIES for trios in state.trios for t in trios if t == number)
    face_up += sum(1 for r in state.revealed if r.number == number)
    if face_up >= COPIES:
        return Reason(
            "all_face_up",
            f"All three {number}s are already face up: this card cannot be {_a(number)}.",
            f"Les trois {number} sont déjà visibles : cette carte ne peut pas être un {number}.",
        )
    if found.value is not None:
        if number == found.value:
            return None
        if found.seat is None and setup.known:
            return Reason(
                "not_that_card",
                f"Centre card {found.index} is {_a(found.value)}, not {_a(number)}.",
                f"La carte {found.index} du centre est un {found.value}, pas un {number}.",
            )
        if found.seat is None:
            return Reason(
                "contradicts_centre",
                f"Centre card {found.index} was seen as {_a(found.value)}; it cannot now be {_a(number)}.",
                f"La carte {found.index} du centre a été vue : c'est un {found.value}, pas un {number}.",
            )
        assert isinstance(action, Ask)
        who = setup.names[found.seat]
        end_en, end_fr = END_EN[action.end], END_FR[action.end]
        if setup.known:
            return Reason(
                "not_that_card",
                f"{who}'s {end_en} card is {found.value}, not {number}: only the smallest and the "
                "largest card of a hand can be revealed, one's own hand included.",
                f"La {end_fr} carte {de(who)} est un {found.value}, pas un {number} : seules la plus "
                "petite et la plus grande carte d'une main sont accessibles, la sienne comprise.",
            )
        return Reason(
            "contradicts_hand",
            f"{who} showed {_a(found.value)} at that end earlier and nothing was exchanged since: "
            f"{_a(number)} contradicts it. Check the card.",
            f"{who} a déjà montré un {found.value} à cette extrémité, sans échange depuis : un {number} "
            "le contredit. Vérifiez la carte.",
        )
    if found.seat is not None and not found.lower <= number <= found.upper:
        assert isinstance(action, Ask)
        who = setup.names[found.seat]
        end_en, end_fr = END_EN[action.end], END_FR[action.end]
        if number < found.lower:
            return Reason(
                "below_proved",
                f"{who}'s {end_en} card cannot be {number}: earlier reveals proved it is at least "
                f"{found.lower} (no exchange since).",
                f"La {end_fr} carte {de(who)} ne peut pas être un {number} : les révélations précédentes "
                f"prouvent qu'elle vaut au moins {found.lower} (pas d'échange depuis).",
            )
        return Reason(
            "above_proved",
            f"{who}'s {end_en} card cannot be {number}: earlier reveals proved it is at most "
            f"{found.upper} (no exchange since).",
            f"La {end_fr} carte {de(who)} ne peut pas être un {number} : les révélations précédentes "
            f"prouvent qu'elle vaut au plus {found.upper} (pas d'échange depuis).",
        )
    if _count_known(state, number) >= COPIES:
        return Reason(
            "too_many",
            f"There are only three {number}s and all three were already seen elsewhere.",
            f"Il n'y a que trois {number} et les trois ont déjà été vus ailleurs.",
        )
    return None


def _forget(state: TrioState, found: Target, number: int) -> TrioState:
    """The table confirmed ``number`` against earlier reveals: forget what contradicts it."""
    face_up = {(r.seat, r.index) for r in state.revealed}
    hands = list(state.hands)
    if found.seat is not None:
        old = hands[found.seat]
        hands[found.seat] = Hand(
            tuple(v if (found.seat, i) in face_up else None for i, v in enumerate(old.cards))
        )
    if _count_known(replace(state, hands=tuple(hands)), number) >= COPIES:
        hands = [
            replace(
                h,
                cards=tuple(
                    None if v == number and (s, i) not in face_up else v for i, v in enumerate(h.cards)
                ),
            )
            for s, h in enumerate(hands)
        ]
        centre = tuple(
            CentreCard(c.slot, None) if c.number == number and (None, c.slot) not in face_up else c
            for c in state.centre
        )
        state = replace(state, centre=centre)
    return replace(state, hands=tuple(hands))


def _show(
    setup: Setup,
    state: TrioState,
    action: RevealCentre | Ask,
    found: Target,
    number: int,
    overridden: Reason | None,
) -> tuple[Ruling, TrioState]:
    player = setup.names[action.player]
    hands = list(state.hands)
    centre = state.centre
    if found.seat is None:
        centre = tuple(CentreCard(c.slot, number) if c.slot == found.index else c for c in centre)
    else:
        cards = list(hands[found.seat].cards)
        cards[found.index] = number
        hands[found.seat] = replace(hands[found.seat], cards=tuple(cards))
    revealed = (*state.revealed, Reveal(found.seat, found.index, number))
    state = replace(state, hands=tuple(hands), centre=centre, revealed=revealed, exchanges=())
    details: dict[str, object] = {"number": number, "revealed": [r.number for r in revealed]}
    if overridden is not None:
        details["confirmed_over"] = overridden.code
    where_en, where_fr = _where(setup, action)
    first = revealed[0].number
    nxt = (state.turn + 1) % setup.n
    if number != first:
        new = replace(state, revealed=(), turn=nxt)
        return (
            valid(
                "turn_ends",
                f"{number} ({where_en}) differs from {first}: {player}'s turn ends and the cards go back.",
                f"{number} ({where_fr}) diffère de {first} : le tour {de(player)} s'arrête et les cartes "
                "retournent à leur place.",
                **details,
            ),
            new,
        )
    if len(revealed) < COPIES:
        if len(revealed) == 1:
            en = f"{player} reveals {_a(number)} ({where_en})."
            fr = f"{player} révèle un {number} ({where_fr})."
        else:
            en = f"A second {number} ({where_en}): {player} may reveal a third card."
            fr = f"Un deuxième {number} ({where_fr}) : {player} peut révéler une troisième carte."
        return valid("revealed", en, fr, **details), state
    new = _take_trio(setup, state, action.player, number)
    won = winners(setup, new)
    if won is not None:
        who = _names(setup, won)
        return (
            valid(
                "trio_wins",
                f"Trio of {number} for {player}: {who} {'win' if len(won) > 1 else 'wins'}!",
                f"Trio de {number} pour {player} : {who} {'gagnent' if len(won) > 1 else 'gagne'} !",
                winners=list(won),
                **details,
            ),
            new,
        )
    return (
        valid(
            "trio",
            f"Trio of {number} for {player}; the turn passes to {setup.names[new.turn]}.",
            f"Trio de {number} pour {player} ; le tour passe à {setup.names[new.turn]}.",
            **details,
        ),
        new,
    )


def _a(number: int) -> str:
    """``number`` with its English article: "a 5", "an 8", "an 11"."""
    return f"an {number}" if number in (8, 11) else f"a {number}"


def _where(setup: Setup, action: RevealCentre | Ask) -> tuple[str, str]:
    """Where a revealed card came from, in English and French."""
    if isinstance(action, RevealCentre):
        return f"centre card {action.slot}", f"carte {action.slot} du centre"
    if action.target == action.player:
        own_en = "own smallest" if action.end == "smallest" else "own largest"
        own_fr = "sa plus petite" if action.end == "smallest" else "sa plus grande"
        return own_en, own_fr
    who = setup.names[action.target]
    return f"{who}'s {END_EN[action.end]}", f"la {END_FR[action.end]} {de(who)}"


def _take_trio(setup: Setup, state: TrioState, seat: int, number: int) -> TrioState:
    taken: dict[int, set[int]] = {}
    for r in state.revealed:
        if r.seat is not None:
            taken.setdefault(r.seat, set()).add(r.index)
    hands = list(state.hands)
    for s, indices in taken.items():
        hands[s] = _remove(hands[s], indices)
    centre_taken = {r.index for r in state.revealed if r.seat is None}
    centre = tuple(c for c in state.centre if c.slot not in centre_taken)
    trios = list(state.trios)
    trios[seat] = (*trios[seat], number)
    exchanges: tuple[int, ...] = ()
    if setup.teams:
        mine = team_of(seat, setup.n)
        exchanges = tuple(t for t in range(setup.team_count()) if t != mine)
    return replace(
        state,
        hands=tuple(hands),
        centre=centre,
        revealed=(),
        trios=tuple(trios),
        turn=(state.turn + 1) % setup.n,
        exchanges=exchanges,
    )


def _remove(hand: Hand, indices: set[int]) -> Hand:
    """``hand`` without the revealed slots ``indices`` (a prefix and/or a suffix of it)."""
    size = len(hand.cards)
    prefix = 0
    while prefix < size and prefix in indices:
        prefix += 1
    suffix = 0
    while suffix < size - prefix and size - 1 - suffix in indices:
        suffix += 1
    low, high = hand.low, hand.high
    if prefix:
        low = max(low, max(v for v in hand.cards[:prefix] if v is not None))
    if suffix:
        high = min(high, min(v for v in hand.cards[size - suffix :] if v is not None))
    cards = tuple(v for i, v in enumerate(hand.cards) if i not in indices)
    if not cards:
        low, high = 1, 12
    return Hand(cards, low, high)
