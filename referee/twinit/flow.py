"""The flow of a Twin It play outside claims: dealing or spreading the cards, reveals, turns of
play and the end of a play. Each function returns ``(ruling, new_state)``; the state is the same
object when the ruling does not apply."""

from __future__ import annotations

from referee.twinit.codec import loc_to_json
from referee.twinit.layout import (
    cap,
    de,
    describe,
    describe_all,
    face_at,
    matches,
    next_with_cards,
    pending,
    set_face,
)
from referee.twinit.options import COOP_MODES, TABOO_CARDS, Setup
from referee.twinit.types import (
    PILE,
    TABLE,
    Deal,
    Empty,
    End,
    Pile,
    Play,
    Refill,
    Reveal,
    Start,
    TableCard,
    Turn,
    TwinItState,
    evolve,
)
from referee.types import Ruling, refused, valid

Result = tuple[Ruling, TwinItState]

GAME_OVER = ("game_over", "The game is over.", "La partie est terminée.")
NOT_STARTED = ("not_started", "The cards are not dealt yet.", "Les cartes ne sont pas encore distribuées.")


def closed(state: TwinItState) -> Result | None:
    """A refusal when the play has not started or is over, else ``None``."""
    if state.phase == "over":
        return refused(*GAME_OVER), state
    if state.phase == "setup":
        return refused(*NOT_STARTED), state
    return None


def outside_turns(setup: Setup, state: TwinItState) -> Result | None:
    """A refusal for a turn-based action where there are no turns (the cooperative minute) or
    the play is not under way, else ``None``."""
    if setup.mode in COOP_MODES:
        return refused(
            "no_turns",
            "There are no turns in the cooperative minute.",
            "Il n'y a pas de tour de jeu dans la minute coopérative.",
        ), state
    return closed(state)


def outside_piles(setup: Setup, state: TwinItState) -> Result | None:
    """A refusal for a correction of the players' piles where there are none (the cooperative
    minute) or the play is not under way, else ``None``."""
    if setup.mode in COOP_MODES:
        return refused(
            "no_piles",
            "There are no piles in the cooperative minute.",
            "Il n'y a pas de pioches dans la minute coopérative.",
        ), state
    return closed(state)


def deal(setup: Setup, state: TwinItState, action: Deal) -> Result:
    if setup.mode in COOP_MODES:
        return refused(
            "spread_not_deal",
            "In the cooperative minute the cards are spread on the table, not dealt: use start.",
            "Dans la minute coopérative, les cartes sont étalées sur la table, pas distribuées.",
        ), state
    if state.phase != "setup":
        return refused(
            "already_dealt", "The cards are already dealt.", "Les cartes sont déjà distribuées."
        ), state
    opts = setup.opts
    want_taboo = TABOO_CARDS if opts.taboo_player is not None else 0
    if len(action.taboo) != want_taboo or len(set(action.taboo)) != len(action.taboo):
        if want_taboo:
            name = setup.players[opts.taboo_player]
            return refused(
                "taboo_cards",
                f"{name} must draw 3 taboo cards with 3 different motifs before the deal.",
                f"{name} doit tirer 3 cartes tabou aux motifs différents avant la distribution.",
            ), state
        return refused(
            "no_taboo_variant",
            "Taboo cards are only drawn in the Motifs Tabous variant.",
            "On ne tire de cartes tabou que dans la variante Motifs Tabous.",
        ), state
    dealt = opts.cards - want_taboo
    if sum(action.piles) != dealt or min(action.piles) < 1:
        return refused(
            "deal_count",
            f"The piles must hold all {dealt} cards, at least one each (got {list(action.piles)}).",
            f"Les pioches doivent contenir les {dealt} cartes, au moins une chacune "
            f"({list(action.piles)} reçu).",
        ), state
    tops = action.tops or (None,) * setup.n
    new = evolve(
        state,
        phase="play",
        piles=tuple(Pile(size, top) for size, top in zip(action.piles, tops, strict=True)),
        turn=action.first,
        taboo=action.taboo,
        aside=want_taboo,
    )
    first = setup.players[action.first]
    return valid(
        "dealt",
        f"Cards dealt; {first} plays first.",
        f"Cartes distribuées ; {first} commence.",
        first=action.first,
    ), new


def start(setup: Setup, state: TwinItState, action: Start) -> Result:
    if setup.mode not in COOP_MODES:
        return refused(
            "deal_not_spread",
            "In this mode the cards are dealt into piles: use deal.",
            "Dans ce mode, les cartes sont distribuées en pioches.",
        ), state
    if state.phase != "setup":
        return refused(
            "already_started", "The minute has already started.", "La minute a déjà commencé."
        ), state
    n = setup.opts.cards
    faces = action.faces if action.faces is not None else (None,) * n
    if len(faces) != n:
        return refused(
            "spread_count",
            f"All {n} cards are spread at the start, got {len(faces)}.",
            f"Les {n} cartes sont toutes étalées au départ ({len(faces)} reçues).",
        ), state
    table = tuple(TableCard(i, f) for i, f in enumerate(faces))
    new = evolve(state, phase="minute", table=table, next_id=n)
    seconds = f"{setup.opts.seconds:g}"
    return valid(
        "minute_started",
        f"Go! {seconds} seconds to find pairs and triples.",
        f"Top départ ! {seconds} secondes pour trouver paires et triples.",
    ), new


def reveal(setup: Setup, state: TwinItState, action: Reveal) -> Result:
    if (shut := closed(state)) is not None:
        return shut
    loc = action.loc
    en, fr = describe(loc, setup.players)
    if loc.kind == PILE and state.piles[loc.key].size == 0:
        return refused(
            "empty_pile", f"{cap(en)}: the pile is empty.", f"{cap(fr)} : la pioche est vide."
        ), state
    if loc.kind == TABLE and not any(c.id == loc.key for c in state.table):
        return refused(
            "no_such_card", f"{cap(en)} is not on the table.", f"{cap(fr)} n'est pas sur la table."
        ), state
    current = face_at(state, loc)
    coop = setup.mode in COOP_MODES
    if current is not None and not coop:
        return refused(
            "already_visible",
            f"{cap(en)} already shows {current!r}; cards are only turned over by a ruling.",
            f"{cap(fr)} montre déjà {current!r} ; on ne retourne une carte que sur décision de l'arbitre.",
        ), state
    new = set_face(state, loc, action.face)
    return valid(
        "revealed",
        f"{cap(en)} shows {action.face!r}.",
        f"{cap(fr)} montre {action.face!r}.",
        card=loc_to_json(loc),
    ), new


def play(setup: Setup, state: TwinItState, action: Play) -> Result:
    if (shut := outside_turns(setup, state)) is not None:
        return shut
    name = setup.players[action.player]
    if state.turn is None:
        return refused(
            "no_cards_left",
            "Every pile is empty: no card is left to play.",
            "Toutes les pioches sont vides : plus aucune carte à jouer.",
        ), state
    if action.player != state.turn:
        turn = setup.players[state.turn]
        return refused(
            "not_your_turn",
            f"It is {turn}'s turn to play a card, not {name}'s.",
            f"C'est à {turn} de jouer une carte, pas à {name}.",
        ), state
    unknown = pending(state)
    if unknown:
        en, fr = describe_all(unknown, setup.players)
        return refused(
            "wait_reveal",
            f"Wait: face not known yet for {en} (the camera must see it first).",
            f"Attendez : face encore inconnue pour {fr} (la caméra doit d'abord la voir).",
            pending=[loc_to_json(x) for x in unknown],
        ), state
    piles = list(state.piles)
    size = piles[action.player].size - 1
    if action.top is not None and size == 0:
        return refused(
            "no_next_card",
            f"{name}'s pile is empty after this card: no next card can show.",
            f"La pioche {de(name)} est vide après cette carte : aucune carte suivante.",
        ), state
    piles[action.player] = Pile(size, action.top)
    card = TableCard(state.next_id, action.face)
    new = evolve(
        state,
        piles=tuple(piles),
        table=(*state.table, card),
        next_id=state.next_id + 1,
        turn=next_with_cards(piles, action.player, include=False),
    )
    return valid(
        "played",
        f"{name} plays {action.face!r} as table card {card.id}.",
        f"{name} pose {action.face!r} (carte {card.id} de la table).",
        card=card.id,
        reveal_pile=action.player if size > 0 and action.top is None else None,
    ), new


def end(setup: Setup, state: TwinItState, action: End) -> Result:
    if (shut := closed(state)) is not None:
        return shut
    if state.phase == "minute":
        return valid(
            "minute_over", "Time! The minute is over.", "Temps écoulé ! La minute est finie."
        ), evolve(state, phase="over")
    if state.turn is not None:
        return refused(
            "cards_left",
            "Cards are left to play: the game goes on.",
            "Il reste des cartes à jouer : la partie continue.",
        ), state
    unknown = pending(state)
    if unknown:
        en, fr = describe_all(unknown, setup.players)
        return refused(
            "wait_reveal",
            f"Wait: face not known yet for {en}.",
            f"Attendez : face encore inconnue pour {fr}.",
        ), state
    found = matches(state)
    if found:
        en, fr = describe_all(found[0], setup.players)
        return refused(
            "pair_in_sight",
            f"A pair is still in sight: {en}.",
            f"Une paire est encore visible : {fr}.",
        ), state
    return valid(
        "no_more_pairs",
        "No card left to play and no pair in sight: the game ends.",
        "Plus de carte à jouer ni de paire visible : la partie s'arrête.",
    ), evolve(state, phase="over")


def turn(setup: Setup, state: TwinItState, action: Turn) -> Result:
    """The table corrects whose turn it is (see :class:`Turn`)."""
    if (shut := outside_turns(setup, state)) is not None:
        return shut
    name = setup.players[action.player]
    if state.piles[action.player].size == 0:
        return refused(
            "no_cards_left",
            f"{name} has no card left to play.",
            f"{name} n'a plus de carte à jouer.",
        ), state
    return valid(
        "turn_set",
        f"The table says it is {name}'s turn to play.",
        f"La table indique que c'est à {name} de jouer.",
        player=action.player,
    ), evolve(state, turn=action.player)


def empty(setup: Setup, state: TwinItState, action: Empty) -> Result:
    """The table shows a pile empty (see :class:`Empty`): its cards are counted as lost, and the
    turn passes on if it was that player's."""
    if (shut := outside_piles(setup, state)) is not None:
        return shut
    name = setup.players[action.player]
    size = state.piles[action.player].size
    if size == 0:
        return refused(
            "empty_pile", f"{name}'s pile is already empty.", f"La pioche {de(name)} est déjà vide."
        ), state
    piles = tuple(Pile(0) if seat == action.player else p for seat, p in enumerate(state.piles))
    turn = state.turn
    if turn == action.player:
        turn = next_with_cards(piles, action.player, include=False)
    offset = min(size, state.found)  # cards found earlier that the referee had not counted
    return valid(
        "pile_empty",
        f"The table shows {name}'s pile empty: {size} card(s) the referee counted there are lost track of.",
        f"La table montre la pioche {de(name)} vide : {size} carte(s) que l'arbitre y comptait sont perdues.",
        player=action.player,
        lost=size,
    ), evolve(state, piles=piles, turn=turn, lost=state.lost + size - offset, found=state.found - offset)


def refill(setup: Setup, state: TwinItState, action: Refill) -> Result:
    """The table shows a card on a pile the referee counts empty (see :class:`Refill`): one of the
    cards it lost track of, else a card it had not counted (``found``)."""
    if (shut := outside_piles(setup, state)) is not None:
        return shut
    name = setup.players[action.player]
    if state.piles[action.player].size != 0:
        return refused(
            "pile_not_empty", f"{name}'s pile is not empty.", f"La pioche {de(name)} n'est pas vide."
        ), state
    piles = tuple(Pile(1, action.face) if seat == action.player else p for seat, p in enumerate(state.piles))
    turn = state.turn if state.turn is not None else action.player
    if state.lost:
        return valid(
            "pile_refilled",
            f"The table shows {action.face!r} on {name}'s pile: a card the referee had lost track of.",
            f"La table montre {action.face!r} sur la pioche {de(name)} : "
            "une carte que l'arbitre avait perdue.",
            player=action.player,
            found=False,
        ), evolve(state, piles=piles, turn=turn, lost=state.lost - 1)
    return valid(
        "pile_refilled",
        f"The table shows {action.face!r} on {name}'s pile, which the referee counted empty: a card it had "
        "not counted (a missed penalty, or a play that never happened).",
        f"La table montre {action.face!r} sur la pioche {de(name)}, que l'arbitre comptait vide : une carte "
        "qu'il n'avait pas comptée (une pénalité manquée, ou un coup qui n'a pas eu lieu).",
        player=action.player,
        found=True,
    ), evolve(state, piles=piles, turn=turn, found=state.found + 1)
