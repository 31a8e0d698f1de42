"""Bilingual (English, French) rulings of the Line-it referee, one function per reason.

Cards read as players say them: ``57 heart`` / ``57 cœur``, ``bet +3`` / ``Pari +3``.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.french import de, join_en, join_fr
from referee.lineit import cards as C
from referee.types import Ruling, refused, valid


def _en(card: str) -> str:
    return C.words(card)[0]


def _fr(card: str) -> str:
    return C.words(card)[1]


def cards_en(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def cards_fr(count: int) -> str:
    return f"{count} carte" if count <= 1 else f"{count} cartes"


# -- refusals ----------------------------------------------------------------------------------
def game_over() -> Ruling:
    return refused("game_over", "The game is over.", "La partie est terminée.")


def market_due() -> Ruling:
    return refused("market_due", "The market must be dealt first.", "Il faut d'abord constituer le marché.")


def not_your_turn(expected: str, name: str) -> Ruling:
    return refused(
        "not_your_turn",
        f"It is {expected}'s turn, not {name}'s.",
        f"C'est au tour {de(expected)}, pas {de(name)}.",
    )


def no_market_now() -> Ruling:
    return refused(
        "no_market_now",
        "A market is dealt only at the start of a round.",
        "Le marché ne se constitue qu'au début d'une manche.",
    )


def market_size(size: int, got: int) -> Ruling:
    return refused(
        "market_size",
        f"The market has {size} cards (players + 2), not {got}.",
        f"Le marché compte {size} cartes (joueurs + 2), pas {got}.",
    )


def not_in_deck(missing: Sequence[str]) -> Ruling:
    en_verb, fr_verb = ("is", "n'est") if len(missing) == 1 else ("are", "ne sont")
    return refused(
        "not_in_deck",
        f"{join_en(map(_en, missing))} {en_verb} not in the deck any more.",
        f"{join_fr(map(_fr, missing))} {fr_verb} plus dans la pioche.",
    )


def one_bet_per_line() -> Ruling:
    return refused(
        "one_bet_per_line",
        "A line holds one bet card at most.",
        "Une ligne ne peut contenir qu'une seule carte Pari.",
    )


def breaks_line(card: str, last: int, rising: bool) -> Ruling:
    n = C.number(card)
    if rising:
        return refused(
            "breaks_line",
            f"The line is rising: {n} does not follow {last}.",
            f"La ligne est croissante : {n} ne peut pas suivre {last}.",
        )
    return refused(
        "breaks_line",
        f"The line is falling: {n} does not follow {last}.",
        f"La ligne est décroissante : {n} ne peut pas suivre {last}.",
    )


def no_market() -> Ruling:
    return refused(
        "no_market",
        "There is no market to take from now.",
        "Il n'y a pas de marché où prendre une carte maintenant.",
    )


def took_already() -> Ruling:
    return refused(
        "took_already",
        "You have already taken a market card this turn.",
        "Vous avez déjà pris une carte du marché ce tour-ci.",
    )


def not_in_market(card: str) -> Ruling:
    return refused(
        "not_in_market", f"{_en(card)} is not in the market.", f"{_fr(card)} n'est pas dans le marché."
    )


def hand_full() -> Ruling:
    return refused(
        "hand_full",
        "Your hand already holds two cards: play the card into your line, play a card from your hand "
        "first, or close your line.",
        "Votre main contient déjà deux cartes : jouez la carte dans votre ligne, jouez d'abord une carte "
        "de votre main, ou fermez votre ligne.",
    )


def must_close() -> Ruling:
    return refused(
        "must_close",
        "No market card fits your line and your hand is full: close your line first.",
        "Aucune carte du marché ne va dans votre ligne et votre main est pleine : "
        "fermez d'abord votre ligne.",
    )


def played_already() -> Ruling:
    return refused(
        "played_already",
        "You may play only one card from your hand per turn.",
        "Vous ne pouvez jouer qu'une seule carte de votre main par tour.",
    )


def closing_time() -> Ruling:
    return refused(
        "closing_time", "Every line must now be closed.", "Chaque ligne doit maintenant être fermée."
    )


def not_in_hand(card: str) -> Ruling:
    return refused(
        "not_in_hand", f"{_en(card)} is not in your hand.", f"{_fr(card)} n'est pas dans votre main."
    )


def final_plays() -> Ruling:
    return refused(
        "final_plays",
        "Play or pass your hand cards first; lines are closed afterwards.",
        "Jouez ou passez d'abord vos cartes en main ; les lignes sont fermées ensuite.",
    )


def closed_already() -> Ruling:
    return refused(
        "closed_already",
        "You have already closed a line this turn.",
        "Vous avez déjà fermé une ligne ce tour-ci.",
    )


def empty_line() -> Ruling:
    return refused("empty_line", "Your line is empty.", "Votre ligne est vide.")


def discard_three(need: int, given: Sequence[str]) -> Ruling:
    en_given = join_en(map(_en, given)) if given else "none"
    fr_given = join_fr(map(_fr, given)) if given else "aucune"
    en_need, fr_need = {
        0: ("no card (the line holds no number card)", "aucune carte (la ligne n'a pas de carte Numéro)"),
        1: ("the line's only number card", "la seule carte Numéro de la ligne"),
        2: ("both number cards of the line", "les deux cartes Numéro de la ligne"),
    }.get(need, ("three number cards of the line", "trois cartes Numéro de la ligne"))
    return refused(
        "discard_three",
        f"Closing discards {en_need}, not {en_given}.",
        f"Fermer défausse {fr_need}, pas {fr_given}.",
    )


def no_turn() -> Ruling:
    return refused("no_turn", "There is no turn to end now.", "Il n'y a pas de tour à terminer.")


def must_take() -> Ruling:
    return refused(
        "must_take",
        "You must take a market card before ending your turn.",
        "Vous devez prendre une carte du marché avant de finir votre tour.",
    )


def no_pass() -> Ruling:
    return refused(
        "no_pass", "Passing is only for the end-of-game plays.", "Passer ne sert qu'en fin de partie."
    )


# -- valid actions -----------------------------------------------------------------------------
def market_dealt(round_no: int, cards: Sequence[str]) -> Ruling:
    return valid(
        "market_dealt",
        f"Round {round_no}: the market is dealt ({join_en(map(_en, cards))}).",
        f"Manche {round_no} : le marché est constitué ({join_fr(map(_fr, cards))}).",
        cards=list(cards),
    )


def jackpot_words(card: str, won: list[str] | None, name: str) -> tuple[str, str]:
    """The sentence added when ``card`` is the line's third of its colour (``won`` is then the
    jackpot's cards; ``None`` otherwise)."""
    if won is None:
        return "", ""
    col = C.colour(card)
    col_fr = C.COLOURS_FR.get(col, col)
    if not won:
        return (
            f" Third {col} card: the {col} jackpot is empty.",
            f" Troisième carte {col_fr} : le jackpot {col_fr} est vide.",
        )
    return (
        f" Third {col} card: {name} wins the {col} jackpot ({cards_en(len(won))}).",
        f" Troisième carte {col_fr} : {name} gagne le jackpot {col_fr} ({cards_fr(len(won))}).",
    )


def taken(name: str, card: str, to: str, won: list[str] | None) -> Ruling:
    en_j, fr_j = jackpot_words(card, won, name)
    if to == "line":
        en, fr = f"{name} plays {_en(card)} from the market.", f"{name} joue {_fr(card)} depuis le marché."
    else:
        en, fr = f"{name} keeps {_en(card)} in hand.", f"{name} garde {_fr(card)} en main."
    return valid("take", en + en_j, fr + fr_j, jackpot=won or [])


def played(name: str, card: str, won: list[str] | None) -> Ruling:
    en_j, fr_j = jackpot_words(card, won, name)
    return valid(
        "play",
        f"{name} plays {_en(card)} from hand.{en_j}",
        f"{name} joue {_fr(card)} depuis sa main.{fr_j}",
        jackpot=won or [],
    )


def closed(name: str, scored: int, token: int | None) -> Ruling:
    if scored == 0:
        en, fr = "no card scores", "aucune carte ne marque"
    elif scored == 1:
        en, fr = "1 card scores", "1 carte marque"
    else:
        en, fr = f"{scored} cards score", f"{scored} cartes marquent"
    en_bet = fr_bet = ""
    if token is not None:
        en_bet = f" Bet {'won' if token > 0 else 'lost'}: {token:+d}."
        fr_bet = f" Pari {'réussi' if token > 0 else 'raté'} : {token:+d}."
    return valid(
        "close",
        f"{name} closes the line: {en}.{en_bet}",
        f"{name} ferme sa ligne : {fr}.{fr_bet}",
        scored=scored,
        token=token,
    )


def turn_ended(name: str) -> Ruling:
    return valid("end_turn", f"{name} ends the turn.", f"{name} termine son tour.")


def round_ended(name: str, round_no: int, first: str) -> Ruling:
    return valid(
        "end_round",
        f"{name} ends the turn; round {round_no} is over: the market's number cards go under their "
        f"jackpots and {first} plays first.",
        f"{name} termine son tour ; la manche {round_no} est finie : les cartes Numéro du marché vont "
        f"sous leur jackpot et {first} joue en premier.",
    )


def last_round(name: str, first: str) -> Ruling:
    return valid(
        "last_round",
        f"{name} ends the turn. Not enough cards for another round: the deck goes under the jackpots; "
        f"from {first}, each player may play a first then a second card from hand.",
        f"{name} termine son tour. Plus assez de cartes pour une manche : la pioche va sous les "
        f"jackpots ; à partir {de(first)}, chacun peut jouer une première puis une seconde carte de sa main.",
    )


def passed(name: str) -> Ruling:
    return valid("pass", f"{name} does not play.", f"{name} ne joue pas.")
