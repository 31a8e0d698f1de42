"""The Mind's rulings: one function resolves an action into its ruling and the state it leads to.

Nothing here mutates. With the hands known the referee sees every error itself (a card played
while someone holds a lower one) and discards the lower cards; with the hands unknown it sees only
the pile and the cards put face up, so an error shows when a lower card appears: played late, or
discarded by its holder.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.french import de, join_en, join_fr
from referee.themind.actions import Deal, DiscardCards, MindAction, PlayCard, RevealPile, Star
from referee.themind.state import Discard, MindState, Play
from referee.themind.tables import MAX_LIVES, MAX_STARS, REWARDS, blind_count, lives_lost
from referee.types import JSON, Reason, Ruling, Verdict, refused

FR_MUST, FR_CANNOT = "a des cartes et doit", "n'a plus de carte et ne peut pas"
REWARD_FR = {"life": "une vie", "star": "une étoile de lancer"}
REWARD_EN = {"life": "a life", "star": "a throwing star"}


@dataclass(frozen=True)
class Setup:
    """The fixed facts the rules need."""

    names: tuple[str, ...]
    blind: bool
    known: bool
    """True when every deal lists the hands; False when only the pile and face-up cards are seen."""
    levels: int

    @property
    def n(self) -> int:
        return len(self.names)


def _uncertain(code: str, en: str, fr: str, **details: JSON) -> Ruling:
    return Ruling(Verdict.UNCERTAIN, Reason(code, en, fr), False, details)


def _cards(cards: list[int] | tuple[int, ...]) -> str:
    return ", ".join(str(c) for c in cards)


def _per_seat(setup: Setup, cards: tuple[int | None, ...] | list[int | None], none: str) -> str:
    """Cards per player in words: ``"Ana 12, Ben none"``."""
    return ", ".join(
        f"{name} {none if c is None else c}" for name, c in zip(setup.names, cards, strict=False)
    )


def seen_cards(state: MindState) -> set[int]:
    """Every card of this level known to be out of the hands: the readable pile and the discards."""
    seen = {p.card for p in state.pile if p.card is not None}
    seen.update(d.card for d in state.discards)
    return seen


def top_card(state: MindState) -> int | None:
    """The highest readable card on the pile (the last one played, barring late errors)."""
    cards = [p.card for p in state.pile if p.card is not None]
    return cards[-1] if cards else None


def star_floor(state: MindState, seat: int) -> int:
    """The highest card ``seat`` discarded with a star this level (0 if none): being their lowest
    card then, every card they still hold is higher."""
    return max((d.card for d in state.discards if d.player == seat and d.cause == "star"), default=0)


def _below_star(setup: Setup, state: MindState, seat: int, cards: list[int]) -> Ruling | None:
    floor = star_floor(state, seat)
    low = [c for c in cards if c < floor]
    if not low:
        return None
    who = setup.names[seat]
    return _uncertain(
        "below_star_card",
        f"{who} discarded {floor} as their lowest card with the star; {_cards(low)} cannot still be in "
        "their hand. Check the card.",
        f"{who} a défaussé le {floor} comme plus petite carte avec l'étoile ; {_cards(low)} ne peut pas "
        "être encore dans sa main. Vérifiez la carte.",
        floor=floor,
    )


# -- entry point ------------------------------------------------------------------------------


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
        return _reveal(setup, state, action)
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
    return _discard(setup, state, action)


# -- deal -------------------------------------------------------------------------------------


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
                    f"Each card exists once; this deal gives {_cards(twice)} twice.",
                    f"Chaque carte existe une fois ; cette distribution donne {_cards(twice)} deux fois.",
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


# -- play -------------------------------------------------------------------------------------


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
        counts = _less(state.counts, p, 1)
        new = replace(state, counts=counts, pile=(*state.pile, Play(p, None)))
        return _settle(
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
            _uncertain(
                "card_unread",
                "The card played was not read; show it again.",
                "La carte jouée n'a pas été lue ; montrez-la de nouveau.",
            ),
            state,
        )
    if setup.known:
        return _play_known(setup, state, p, card)
    return _play_unknown(setup, state, p, card)


def _less(counts: tuple[int, ...], seat: int, k: int) -> tuple[int, ...]:
    return tuple(c - k if i == seat else c for i, c in enumerate(counts))


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
        new = replace(state, hands=tuple(hands), counts=_less(state.counts, p, 1), pile=pile)
        return _settle(
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
        new = replace(state, hands=tuple(hands), counts=_less(state.counts, p, 1), pile=pile)
        return _settle(
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
    return _settle(
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


def _play_unknown(setup: Setup, state: MindState, p: int, card: int) -> tuple[Ruling, MindState]:
    who = setup.names[p]
    if card in seen_cards(state):
        return (
            _uncertain(
                "already_seen",
                f"{card} was already played or discarded in this level; check the card.",
                f"Le {card} a déjà été joué ou défaussé dans ce niveau ; vérifiez la carte.",
            ),
            state,
        )
    below = _below_star(setup, state, p, [card])
    if below is not None:
        return below, state
    top = top_card(state)
    counts = _less(state.counts, p, 1)
    if top is None or card > top:
        new = replace(state, counts=counts, pile=(*state.pile, Play(p, card)))
        return _settle(
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
        return _settle(
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
    return _settle(
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


# -- star -------------------------------------------------------------------------------------


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
        problem = _star_cards_problem(setup, state, action)
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
    shown = _cards([c for c in lowest if c is not None])
    return _settle(
        setup,
        new,
        Verdict.VALID,
        "star",
        f"Throwing star: everyone discards their lowest card ({shown}).",
        f"Étoile de lancer : chacun défausse sa plus petite carte ({shown}).",
        {"discarded": lowest},
    )


def _star_cards_problem(setup: Setup, state: MindState, action: Star) -> Ruling | None:
    cards = action.cards
    if cards is None or len(cards) != setup.n:
        return _uncertain(
            "star_cards_unread",
            "With the hands unknown, a star needs the card each player discarded.",
            "Mains inconnues : une étoile demande la carte défaussée par chaque joueur.",
        )
    for seat, card in enumerate(cards):
        if (card is None) != (state.counts[seat] == 0):
            who = setup.names[seat]
            return _uncertain(
                "star_cards_mismatch",
                f"{who} {'holds cards and must' if card is None else 'has no card and cannot'} discard one.",
                f"{who} {FR_MUST if card is None else FR_CANNOT} en défausser une.",
            )
    shown = [c for c in cards if c is not None]
    seen = seen_cards(state)
    if len(set(shown)) != len(shown) or seen.intersection(shown):
        return _uncertain(
            "already_seen",
            f"A card of {_cards(shown)} was already seen in this level; check the cards.",
            f"Une carte parmi {_cards(shown)} a déjà été vue dans ce niveau ; vérifiez les cartes.",
        )
    for seat, card in enumerate(cards):
        below = None if card is None else _below_star(setup, state, seat, [card])
        if below is not None:
            return below
    top = top_card(state)
    if not setup.blind and top is not None and any(c < top for c in shown):
        return _uncertain(
            "star_below_top",
            f"A star card below the pile's {top} means an error was missed: discard it as an error first.",
            f"Une carte d'étoile sous le {top} de la pile révèle une erreur manquée : défaussez-la d'abord "
            "comme erreur.",
        )
    return None


# -- discard (hands unknown) ------------------------------------------------------------------


def _discard(setup: Setup, state: MindState, action: DiscardCards) -> tuple[Ruling, MindState]:
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
            _uncertain(
                "too_many_cards",
                f"{who} holds only {state.counts[p]} card(s), not {len(action.cards)}.",
                f"{who} n'a que {state.counts[p]} carte(s), pas {len(action.cards)}.",
            ),
            state,
        )
    higher = [c for c in action.cards if c > top]
    if higher:
        return (
            _uncertain(
                "not_lower",
                f"{join_en(higher)}: not lower than the pile's {top}, so not part of an error.",
                f"{join_fr(higher)} : pas plus bas que le {top} de la pile, donc pas une erreur.",
            ),
            state,
        )
    seen = seen_cards(state)
    if len(set(action.cards)) != len(action.cards) or seen.intersection(action.cards):
        return (
            _uncertain(
                "already_seen",
                f"A card of {_cards(action.cards)} was already seen in this level; check the cards.",
                f"Une carte parmi {_cards(action.cards)} a déjà été vue dans ce niveau ; "
                "vérifiez les cartes.",
            ),
            state,
        )
    below = _below_star(setup, state, p, list(action.cards))
    if below is not None:
        return below, state
    discards = (*state.discards, *(Discard(p, c, "error") for c in sorted(action.cards)))
    counts = _less(state.counts, p, len(action.cards))
    shown = _cards(sorted(action.cards))
    if state.charged == top:
        new = replace(state, counts=counts, discards=discards)
        return _settle(
            setup,
            new,
            Verdict.VALID,
            "error_more",
            f"{who} also discards {shown}, lower than {top}: same error, no further life lost.",
            f"{who} défausse aussi {shown}, plus bas que le {top} : même erreur, pas d'autre vie perdue.",
            {"cards": sorted(action.cards), "top": top},
        )
    new = replace(state, counts=counts, discards=discards, lives=state.lives - 1, charged=top)
    return _settle(
        setup,
        new,
        Verdict.INVALID,
        "error",
        f"Error: {who} held {shown} when {top} was played. Every card lower than {top} is discarded "
        "face up and the team loses one life.",
        f"Erreur : {who} avait {shown} quand le {top} a été joué. Toutes les cartes plus basses que "
        f"{top} sont défaussées face visible et l'équipe perd une vie.",
        {"cards": sorted(action.cards), "top": top},
    )


# -- blind reveal (hands unknown) -------------------------------------------------------------


def _reveal(setup: Setup, state: MindState, action: RevealPile) -> tuple[Ruling, MindState]:
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
            _uncertain(
                "pile_count",
                f"The pile holds {len(state.pile)} cards; {len(action.cards)} were read.",
                f"La pile contient {len(state.pile)} cartes ; {len(action.cards)} ont été lues.",
            ),
            state,
        )
    seen = seen_cards(state)
    if len(set(action.cards)) != len(action.cards) or seen.intersection(action.cards):
        return (
            _uncertain(
                "already_seen",
                "A card of the pile appears twice or was discarded; check the cards.",
                "Une carte de la pile apparaît deux fois ou a été défaussée ; vérifiez les cartes.",
            ),
            state,
        )
    pile = tuple(Play(p.player, c) for p, c in zip(state.pile, action.cards, strict=True))
    return _count_blind(setup, replace(state, pile=pile, phase="play"), Verdict.VALID, "", "", {})


# -- end of level -----------------------------------------------------------------------------


def _settle(
    setup: Setup, state: MindState, verdict: Verdict, code: str, en: str, fr: str, details: dict[str, JSON]
) -> tuple[Ruling, MindState]:
    """Ends the game or the level when the action did; builds the ruling."""
    details = {**details, "lives": state.lives, "stars": state.stars}
    if state.lives <= 0:
        new = replace(state, lives=0, phase="lost")
        return _ruling(
            verdict,
            code,
            en + " No lives left: game over.",
            fr + " Plus de vie : partie perdue.",
            {**details, "lives": 0, "game_over": True},
        ), new
    if any(state.counts):
        return _ruling(verdict, code, en, fr, details), state
    if setup.blind:
        if not setup.known:
            new = replace(state, phase="reveal")
            return _ruling(
                verdict,
                code,
                en + " Every card is down: turn the pile over.",
                fr + " Toutes les cartes sont posées : retournez la pile.",
                details,
            ), new
        return _count_blind(setup, state, verdict, en, fr, details)
    return _complete(setup, state, verdict, code, en, fr, details)


def _count_blind(
    setup: Setup, state: MindState, verdict: Verdict, en: str, fr: str, details: dict[str, JSON]
) -> tuple[Ruling, MindState]:
    played = [p.card for p in state.pile if p.card is not None]
    line = blind_count(played)
    lost = lives_lost(line)
    tops = _cards([c.card for c in line if c.under])
    if lost:
        verdict = Verdict.INVALID
        en += (
            f" Pile turned over: {lost} card{'s' if lost > 1 else ''} ({tops}) had lower cards slid under: "
            f"the team loses {lost} li{'ves' if lost > 1 else 'fe'}."
        )
        fr += (
            f" Pile retournée : {lost} carte{'s' if lost > 1 else ''} ({tops}) "
            f"{'ont' if lost > 1 else 'a'} des cartes glissées dessous : "
            f"l'équipe perd {lost} vie{'s' if lost > 1 else ''}."
        )
    else:
        en += " Pile turned over: every card in rising order."
        fr += " Pile retournée : toutes les cartes dans l'ordre croissant."
    details = {**details, "line": [c.to_json() for c in line], "order": played, "lives_lost": lost}
    state = replace(state, lives=max(0, state.lives - lost))
    code = "blind_count"
    if state.lives == 0:
        return _ruling(
            verdict,
            code,
            (en + " No lives left: game over.").strip(),
            (fr + " Plus de vie : partie perdue.").strip(),
            {**details, "lives": 0, "game_over": True},
        ), replace(state, phase="lost")
    return _complete(setup, state, verdict, code, en.strip(), fr.strip(), details)


def _complete(
    setup: Setup, state: MindState, verdict: Verdict, code: str, en: str, fr: str, details: dict[str, JSON]
) -> tuple[Ruling, MindState]:
    level = state.level
    reward = REWARDS.get(level)
    lives, stars = state.lives, state.stars
    if reward == "life":
        lives = min(MAX_LIVES, lives + 1)
    elif reward == "star":
        stars = min(MAX_STARS, stars + 1)
    en += f" Level {level} complete"
    fr += f" Niveau {level} terminé"
    if reward is not None:
        capped = (reward == "life" and lives == state.lives) or (reward == "star" and stars == state.stars)
        en += f", reward: {REWARD_EN[reward]}" + (" (already at the limit)" if capped else "")
        fr += f", récompense : {REWARD_FR[reward]}" + (" (déjà au maximum)" if capped else "")
        details = {**details, "reward": reward, "capped": capped}
    cleared = replace(
        state,
        lives=lives,
        stars=stars,
        hands=((),) * setup.n,
        counts=(0,) * setup.n,
        pile=(),
        discards=(),
        charged=None,
    )
    details = {**details, "level_complete": level, "lives": lives, "stars": stars}
    if level >= setup.levels:
        en += f". All {setup.levels} levels done: the team wins The Mind!"
        fr += f". Les {setup.levels} niveaux sont réussis : l'équipe gagne The Mind !"
        return _ruling(verdict, code, en, fr, {**details, "victory": True}), replace(cleared, phase="won")
    return _ruling(verdict, code, en + ".", fr + ".", details), replace(
        cleared, level=level + 1, phase="deal"
    )


def _ruling(verdict: Verdict, code: str, en: str, fr: str, details: dict[str, JSON]) -> Ruling:
    return Ruling(verdict, Reason(code, en.strip(), fr.strip()), True, details)
