"""A Trio turn: which card a reveal takes, what earlier reveals proved about it, and what the
revealed number does (the turn goes on, ends, or makes a trio).

The numbers a reveal may show are bounded by what earlier reveals proved (the hand is sorted; a
number exists three times); with the hands unknown a reveal outside those bounds is flagged as
uncertain (the camera may have misread it, or the hand was not sorted) and applies only once the
table confirms it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.french import de
from referee.trio.actions import Ask, RevealCentre
from referee.trio.cards import COPIES, team_of
from referee.trio.setup import Setup, names_of, winners
from referee.trio.state import CentreCard, Hand, Reveal, TrioState
from referee.types import Reason, Ruling, Verdict, refused, valid

END_FR = {"smallest": "plus petite", "largest": "plus grande"}
END_EN = {"smallest": "smallest", "largest": "largest"}


@dataclass(frozen=True)
class Target:
    """Where a reveal takes its card and what is already proved about it."""

    seat: int | None
    index: int
    value: int | None
    lower: int
    upper: int


def reveal(setup: Setup, state: TrioState, action: RevealCentre | Ask) -> tuple[Ruling, TrioState]:
    """A centre reveal or an ask: checked against the turn, the card reached and what is proved."""
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
    """The card ``action`` reaches and the bounds proved on it, or a refusal."""
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
        who = names_of(setup, won)
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
