"""Line-it's rules as a :class:`~referee.protocol.Game`.

A round: a market of players + 2 cards is dealt (``market``, a table event); from the first
player clockwise, each player must take one market card into their line or hand (``take``), may
play one card from hand (``play``) and may close their line (``close``), then ends the turn
(``end_turn``). Market number cards left at the end of a round go under their colour's jackpot,
market bets are discarded and the first-player token passes left. When no market can be dealt,
the rest of the deck goes to the jackpots, players may play a first then a second card from hand
(``play`` or ``pass``), every line is closed and the scores are counted.

Decisions beside the rules (RULES-NOTES): the closing player chooses the three discarded cards; a
line of three number cards or fewer scores nothing; closing trades the bet card for its bonus or
malus token and the bet card goes to the discard.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from referee.errors import MalformedAction
from referee.lineit import cards as C
from referee.lineit.state import DEAL, FINAL_CLOSE, FINAL_PLAYS, OVER, TURNS, LineItState, Seat, Turn
from referee.protocol import Game, GameConfig, require
from referee.types import JSON, Outcome, Reason, Ruling, refused, valid

# -- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Market:
    """The market dealt from the deck (a table event): players + 2 cards."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class Take:
    """The current player takes a market card into their line or their hand."""

    player: int
    card: str
    to: str
    """``"line"`` or ``"hand"``."""


@dataclass(frozen=True)
class Play:
    """A card from the player's hand into their line."""

    player: int
    card: str


@dataclass(frozen=True)
class Close:
    """The player closes their line, discarding the three number cards they choose."""

    player: int
    discard: tuple[str, ...]


@dataclass(frozen=True)
class EndTurn:
    player: int


@dataclass(frozen=True)
class Pass:
    """At the end of the game, the player does not play a card from hand."""

    player: int


Action = Market | Take | Play | Close | EndTurn | Pass

# -- line arithmetic -------------------------------------------------------------------------


def line_numbers(line: Sequence[str]) -> list[int]:
    return [C.number(c) for c in line if not C.is_bet(c)]


def direction(line: Sequence[str]) -> int:
    """+1 rising, -1 falling, 0 while fewer than two number cards fix it."""
    numbers = line_numbers(line)
    if len(numbers) < 2:
        return 0
    return 1 if numbers[1] > numbers[0] else -1


def fits(line: Sequence[str], card: str) -> bool:
    """Whether ``card`` may be played at the end of ``line``."""
    if C.is_bet(card):
        return not any(C.is_bet(c) for c in line)
    numbers = line_numbers(line)
    if not numbers:
        return True
    n = C.number(card)
    d = direction(line)
    if d == 0:
        return n != numbers[-1]
    return (n - numbers[-1]) * d > 0


def bet_result(line: Sequence[str]) -> int:
    """The token a closing line earns from its bet: +value if won, -value if lost, 0 without bet."""
    for i, card in enumerate(line):
        if C.is_bet(card):
            after = sum(1 for c in line[i + 1 :] if not C.is_bet(c))
            value = C.bet_value(card)
            return value if after >= value else -value
    return 0


def _sorted(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards))


def _remove(pool: Sequence[str], cards: Sequence[str]) -> tuple[str, ...] | None:
    """``pool`` without ``cards`` (as multisets), or None if ``cards`` are not all in it."""
    left = list(pool)
    for card in cards:
        try:
            left.remove(card)
        except ValueError:
            return None
    return tuple(left)


# -- the game --------------------------------------------------------------------------------


class LineItGame(Game[LineItState, Action]):
    name: ClassVar[str] = "lineit"
    title: ClassVar[str] = "Line-it"
    modes: ClassVar[tuple[str, ...]] = ("standard",)
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        self.deck = C.make_deck(config.options)
        self._deck_count = Counter(self.deck.cards)

    @classmethod
    def sample_configs(cls) -> list[GameConfig]:
        return [
            GameConfig(players=tuple(f"P{i + 1}" for i in range(n)), mode="standard", options={})
            for n in (2, 3, 4)
        ] + [GameConfig(players=("A", "B", "C"), mode="standard", options={"bets": {"3": 4, "4": 0, "5": 3}})]

    @property
    def market_size(self) -> int:
        return self.num_players + 2

    # -- states ------------------------------------------------------------------------------
    def initial_state(self) -> LineItState:
        return LineItState(phase=DEAL, seats=tuple(Seat() for _ in self.players), deck=self.deck.cards)

    def state_to_json(self, state: LineItState) -> dict[str, JSON]:
        return state.to_json()

    def state_from_json(self, obj: Mapping[str, JSON]) -> LineItState:
        return LineItState.from_json(obj)

    def check_state(self, state: LineItState) -> list[str]:
        problems: list[str] = []
        if state.phase not in (DEAL, TURNS, FINAL_PLAYS, FINAL_CLOSE, OVER):
            problems.append(f"unknown phase {state.phase!r}")
        if len(state.seats) != self.num_players:
            problems.append(f"{len(state.seats)} seats for {self.num_players} players")
        everything: list[str] = [*state.deck, *state.market, *state.discard]
        for jackpot in state.jackpots:
            everything.extend(jackpot)
        for i, (col, jackpot) in enumerate(zip(C.COLOURS, state.jackpots, strict=True)):
            if any(C.is_bet(c) or C.colour(c) != col for c in jackpot):
                problems.append(f"jackpot {i} ({col}) holds a card of another kind: {jackpot}")
        spent_bets = sum(1 for c in state.discard if C.is_bet(c))
        tokens = 0
        for p, seat in enumerate(state.seats):
            everything.extend(seat.line)
            everything.extend(seat.hand)
            everything.extend(seat.score_pile)
            tokens += len(seat.tokens)
            if len(seat.hand) > 2:
                problems.append(f"player {p} holds {len(seat.hand)} cards (at most 2)")
            if sum(1 for c in seat.line if C.is_bet(c)) > 1:
                problems.append(f"player {p}'s line holds more than one bet card")
            numbers = line_numbers(seat.line)
            steps = {(b > a) - (b < a) for a, b in itertools.pairwise(numbers)}
            if 0 in steps or len(steps) > 1:
                problems.append(f"player {p}'s line is not strictly monotonic: {numbers}")
            if any(C.is_bet(c) for c in seat.score_pile):
                problems.append(f"player {p}'s score pile holds a bet card")
        if tokens > spent_bets:
            problems.append(f"{tokens} bet tokens but only {spent_bets} bet cards spent")
        if Counter(everything) != self._deck_count:
            missing = self._deck_count - Counter(everything)
            extra = Counter(everything) - self._deck_count
            problems.append(f"cards lost {dict(missing)} or created {dict(extra)}")
        if tuple(sorted(state.deck)) != state.deck or tuple(sorted(state.discard)) != state.discard:
            problems.append("deck and discard must be kept sorted")
        return problems

    # -- actions -----------------------------------------------------------------------------
    def parse_action(self, obj: Mapping[str, JSON]) -> Action:
        kind = require(obj, "type", str)
        if kind == "market":
            raw = require(obj, "cards", list)
            return Market(tuple(self.deck.check_card(c, f"action {dict(obj)!r}") for c in raw))
        if kind == "take":
            to = require(obj, "to", str)
            if to not in ("line", "hand"):
                raise MalformedAction(f"to {to!r} in {dict(obj)!r} is not 'line' or 'hand'")
            card = self.deck.check_card(require(obj, "card", str), f"action {dict(obj)!r}")
            return Take(self.parse_player(obj), card, to)
        if kind == "play":
            card = self.deck.check_card(require(obj, "card", str), f"action {dict(obj)!r}")
            return Play(self.parse_player(obj), card)
        if kind == "close":
            raw = obj.get("discard", [])
            if not isinstance(raw, list):
                raise MalformedAction(f"discard {raw!r} in {dict(obj)!r} is not a list of cards")
            return Close(
                self.parse_player(obj), tuple(self.deck.check_card(c, f"action {dict(obj)!r}") for c in raw)
            )
        if kind == "end_turn":
            return EndTurn(self.parse_player(obj))
        if kind == "pass":
            return Pass(self.parse_player(obj))
        raise MalformedAction(
            f"unknown Line-it action type {kind!r} in {dict(obj)!r}: expected market, take, play, close, "
            "end_turn or pass"
        )

    def action_to_json(self, action: Action) -> dict[str, JSON]:
        match action:
            case Market(cards):
                return {"type": "market", "cards": list(cards)}
            case Take(player, card, to):
                return {"type": "take", "player": player, "card": card, "to": to}
            case Play(player, card):
                return {"type": "play", "player": player, "card": card}
            case Close(player, discard):
                return {"type": "close", "player": player, "discard": list(discard)}
            case EndTurn(player):
                return {"type": "end_turn", "player": player}
            case Pass(player):
                return {"type": "pass", "player": player}
        raise MalformedAction(f"not a Line-it action: {action!r}")

    # -- whose move --------------------------------------------------------------------------
    def current_player(self, state: LineItState) -> int | None:
        """The player expected to act, or None while a market is due or the game is over."""
        n = self.num_players
        if state.phase == TURNS:
            return (state.first_player + state.step) % n
        if state.phase == FINAL_PLAYS:
            return (state.first_player + state.step % n) % n
        if state.phase == FINAL_CLOSE:
            return (state.first_player + state.step) % n
        return None

    # -- rules -------------------------------------------------------------------------------
    def judge(self, state: LineItState, action: Action) -> Ruling:
        return self._transition(state, action)[1]

    def apply(self, state: LineItState, action: Action) -> tuple[LineItState, Ruling]:
        new_state, ruling = self._transition(state, action)
        return (new_state if ruling.applies else state), ruling

    def _transition(self, state: LineItState, action: Action) -> tuple[LineItState, Ruling]:
        if state.phase == OVER:
            return state, refused("game_over", "The game is over.", "La partie est terminée.")
        if isinstance(action, Market):
            return self._market(state, action)
        if state.phase == DEAL:
            return state, refused(
                "market_due",
                "The market must be dealt first.",
                "Il faut d'abord constituer le marché.",
            )
        expected = self.current_player(state)
        if action.player != expected:
            who = self.players[expected] if expected is not None else "-"
            return state, refused(
                "not_your_turn",
                f"It is {who}'s turn, not {self.players[action.player]}'s.",
                f"C'est au tour de {who}, pas de {self.players[action.player]}.",
            )
        if isinstance(action, Take):
            return self._take(state, action)
        if isinstance(action, Play):
            return self._play(state, action)
        if isinstance(action, Close):
            return self._close(state, action)
        if isinstance(action, EndTurn):
            return self._end_turn(state, action)
        return self._pass(state, action)

    def _market(self, state: LineItState, action: Market) -> tuple[LineItState, Ruling]:
        if state.phase != DEAL:
            return state, refused(
                "no_market_now", "No market is dealt now.", "Ce n'est pas le moment de constituer le marché."
            )
        if len(action.cards) != self.market_size:
            return state, refused(
                "market_size",
                f"The market has {self.market_size} cards (players + 2), not {len(action.cards)}.",
                f"Le marché compte {self.market_size} cartes (joueurs + 2), pas {len(action.cards)}.",
            )
        deck = _remove(state.deck, action.cards)
        if deck is None:
            return state, refused(
                "not_in_deck",
                f"Some of {list(action.cards)} are not in the deck any more.",
                f"Certaines cartes parmi {list(action.cards)} ne sont plus dans la pioche.",
            )
        new = replace(
            state, phase=TURNS, deck=deck, market=action.cards, round=state.round + 1, step=0, turn=Turn()
        )
        return new, valid(
            "market_dealt",
            f"Round {new.round}: the market is dealt.",
            f"Manche {new.round} : le marché est constitué.",
            cards=list(action.cards),
        )

    def _place(
        self, state: LineItState, player: int, seat: Seat, card: str
    ) -> tuple[LineItState, Seat, list]:
        """``seat`` with ``card`` appended to its line, and any jackpot it wins."""
        line = (*seat.line, card)
        seat = replace(seat, line=line)
        won: list[str] = []
        if not C.is_bet(card):
            col = C.colour(card)
            if sum(1 for c in line if not C.is_bet(c) and C.colour(c) == col) == 3:
                k = C.COLOURS.index(col)
                won = list(state.jackpots[k])
                jackpots = list(state.jackpots)
                jackpots[k] = ()
                state = replace(state, jackpots=tuple(jackpots))
                seat = replace(seat, score_pile=(*seat.score_pile, *won))
        return state, seat, won

    def _fit_refusal(self, seat: Seat, card: str) -> Ruling:
        if C.is_bet(card):
            return refused(
                "one_bet_per_line",
                "A line holds one bet card at most.",
                "Une ligne ne peut contenir qu'une seule carte Pari.",
            )
        d = direction(seat.line)
        last = line_numbers(seat.line)[-1]
        en_dir, fr_dir = ("rising", "croissante") if d > 0 else ("falling", "décroissante")
        return refused(
            "breaks_line",
            f"{C.number(card)} does not follow {last} in a {en_dir} line.",
            f"{C.number(card)} ne peut pas suivre {last} dans une ligne {fr_dir}.",
        )

    def _jackpot_words(self, won: list[str], card: str) -> tuple[str, str]:
        if not won:
            return "", ""
        col = C.colour(card)
        return (
            f" Third {col} card: the {col} jackpot ({len(won)} cards) is won.",
            f" Troisième carte {col} : le jackpot {col} ({len(won)} cartes) est gagné.",
        )

    def _take(self, state: LineItState, action: Take) -> tuple[LineItState, Ruling]:
        if state.phase != TURNS:
            return state, refused(
                "no_market", "There is no market now.", "Il n'y a pas de marché maintenant."
            )
        if state.turn.took:
            return state, refused(
                "took_already",
                "You have already taken a market card this turn.",
                "Tu as déjà pris une carte du marché ce tour-ci.",
            )
        market = _remove(state.market, [action.card])
        if market is None:
            return state, refused(
                "not_in_market",
                f"{action.card} is not in the market.",
                f"{action.card} n'est pas dans le marché.",
            )
        seat = state.seats[action.player]
        won: list[str] = []
        if action.to == "hand":
            if len(seat.hand) >= 2:
                return state, refused(
                    "hand_full",
                    "Your hand already holds two cards: play the card or close your line.",
                    "Ta main contient déjà deux cartes : joue la carte ou ferme ta ligne.",
                )
            seat = replace(seat, hand=(*seat.hand, action.card))
            new = state
        else:
            if not fits(seat.line, action.card):
                return state, self._fit_refusal(seat, action.card)
            new, seat, won = self._place(state, action.player, seat, action.card)
        new = replace(new.with_seat(action.player, seat), market=market, turn=replace(state.turn, took=True))
        en_j, fr_j = self._jackpot_words(won, action.card)
        where_en, where_fr = (
            ("into the line", "dans sa ligne") if action.to == "line" else ("in hand", "en main")
        )
        name = self.players[action.player]
        return new, valid(
            "take",
            f"{name} takes {action.card} {where_en}.{en_j}",
            f"{name} prend {action.card} {where_fr}.{fr_j}",
            jackpot=won,
        )

    def _play(self, state: LineItState, action: Play) -> tuple[LineItState, Ruling]:
        seat = state.seats[action.player]
        if state.phase == TURNS and state.turn.played_from_hand:
            return state, refused(
                "played_already",
                "You may play only one card from your hand per turn.",
                "Tu ne peux jouer qu'une seule carte de ta main par tour.",
            )
        if state.phase == FINAL_CLOSE:
            return state, refused(
                "closing_time", "Every line must now be closed.", "Chaque ligne doit maintenant être fermée."
            )
        hand = _remove(seat.hand, [action.card])
        if hand is None:
            return state, refused(
                "not_in_hand", f"{action.card} is not in your hand.", f"{action.card} n'est pas dans ta main."
            )
        if not fits(seat.line, action.card):
            return state, self._fit_refusal(seat, action.card)
        new, seat, won = self._place(state, action.player, replace(seat, hand=hand), action.card)
        new = new.with_seat(action.player, seat)
        if state.phase == TURNS:
            new = replace(new, turn=replace(state.turn, played_from_hand=True))
        else:
            new = self._advance_final(replace(new, step=new.step + 1))
        en_j, fr_j = self._jackpot_words(won, action.card)
        name = self.players[action.player]
        return new, valid(
            "play",
            f"{name} plays {action.card} from hand.{en_j}",
            f"{name} joue {action.card} depuis sa main.{fr_j}",
            jackpot=won,
        )

    def _close(self, state: LineItState, action: Close) -> tuple[LineItState, Ruling]:
        if state.phase == FINAL_PLAYS:
            return state, refused(
                "final_plays",
                "Play or pass your hand cards first; lines are closed afterwards.",
                "Joue ou passe d'abord tes cartes en main ; les lignes sont fermées ensuite.",
            )
        if state.phase == TURNS and state.turn.closed:
            return state, refused(
                "closed_already",
                "You have already closed a line this turn.",
                "Tu as déjà fermé une ligne ce tour-ci.",
            )
        seat = state.seats[action.player]
        if not seat.line:
            return state, refused("empty_line", "Your line is empty.", "Ta ligne est vide.")
        numbers = [c for c in seat.line if not C.is_bet(c)]
        need = min(3, len(numbers))
        discard = tuple(action.discard)
        if not discard and len(numbers) <= 3:
            discard = tuple(numbers)
        rest = _remove(numbers, discard)
        if len(discard) != need or rest is None or any(C.is_bet(c) for c in discard):
            return state, refused(
                "discard_three",
                f"Closing discards exactly {need} number cards of the line, not {list(action.discard)}.",
                f"Fermer défausse exactement {need} cartes Numéro de la ligne, pas {list(action.discard)}.",
            )
        token = bet_result(seat.line)
        bets = [c for c in seat.line if C.is_bet(c)]
        seat = Seat(
            line=(),
            hand=seat.hand,
            score_pile=(*seat.score_pile, *rest),
            tokens=(*seat.tokens, token) if bets else seat.tokens,
        )
        new = replace(
            state.with_seat(action.player, seat), discard=_sorted([*state.discard, *discard, *bets])
        )
        if state.phase == TURNS:
            new = replace(new, turn=replace(state.turn, closed=True))
        else:
            new = self._advance_close(replace(new, step=new.step + 1))
        name = self.players[action.player]
        en_bet = fr_bet = ""
        if bets:
            en_bet = f" Bet {'won' if token > 0 else 'lost'}: {token:+d}."
            fr_bet = f" Pari {'réussi' if token > 0 else 'raté'} : {token:+d}."
        return new, valid(
            "close",
            f"{name} closes the line: {len(rest)} cards score.{en_bet}",
            f"{name} ferme sa ligne : {len(rest)} cartes marquent.{fr_bet}",
            scored=len(rest),
            token=token if bets else None,
        )

    def _end_turn(self, state: LineItState, action: EndTurn) -> tuple[LineItState, Ruling]:
        if state.phase != TURNS:
            return state, refused(
                "no_turn", "There is no turn to end now.", "Il n'y a pas de tour à terminer."
            )
        if not state.turn.took:
            return state, refused(
                "must_take",
                "You must take a market card before ending your turn.",
                "Tu dois prendre une carte du marché avant de finir ton tour.",
            )
        name = self.players[action.player]
        new = replace(state, step=state.step + 1, turn=Turn())
        if new.step < self.num_players:
            return new, valid("end_turn", f"{name} ends the turn.", f"{name} termine son tour.")
        return self._end_round(new, name)

    def _end_round(self, state: LineItState, name: str) -> tuple[LineItState, Ruling]:
        jackpots = [list(j) for j in state.jackpots]
        discard = list(state.discard)
        leftovers = [*state.market]
        final = len(state.deck) < self.market_size
        if final:
            leftovers += state.deck
        for card in leftovers:
            if C.is_bet(card):
                discard.append(card)
            else:
                jackpots[C.COLOURS.index(C.colour(card))].append(card)
        new = replace(
            state,
            market=(),
            jackpots=tuple(tuple(j) for j in jackpots),
            discard=_sorted(discard),
            first_player=(state.first_player + 1) % self.num_players,
            step=0,
            turn=Turn(),
        )
        if not final:
            return replace(new, phase=DEAL), valid(
                "end_round",
                f"{name} ends the turn; round {state.round} is over: "
                "the market's leftovers go to the jackpots.",
                f"{name} termine son tour ; la manche {state.round} est finie : "
                "le reste du marché va aux jackpots.",
            )
        new = self._advance_final(replace(new, phase=FINAL_PLAYS, deck=()))
        return new, valid(
            "last_round",
            "Not enough cards for another round: the deck goes to the jackpots; play your hand cards.",
            "Plus assez de cartes pour une manche : la pioche va aux jackpots ; jouez vos cartes en main.",
        )

    def _pass(self, state: LineItState, action: Pass) -> tuple[LineItState, Ruling]:
        if state.phase != FINAL_PLAYS:
            return state, refused(
                "no_pass", "Passing is only for the end-of-game plays.", "Passer ne sert qu'en fin de partie."
            )
        name = self.players[action.player]
        return self._advance_final(replace(state, step=state.step + 1)), valid(
            "pass", f"{name} does not play.", f"{name} ne joue pas."
        )

    def _advance_final(self, state: LineItState) -> LineItState:
        """Skips end-of-game play opportunities of players with no playable hand card."""
        n = self.num_players
        while state.step < 2 * n:
            seat = state.seats[(state.first_player + state.step % n) % n]
            if any(fits(seat.line, c) for c in seat.hand):
                return state
            state = replace(state, step=state.step + 1)
        return self._advance_close(replace(state, phase=FINAL_CLOSE, step=0))

    def _advance_close(self, state: LineItState) -> LineItState:
        """Skips players whose line is empty when closing every line; ends the game after the last."""
        n = self.num_players
        while state.step < n:
            if state.seats[(state.first_player + state.step) % n].line:
                return state
            state = replace(state, step=state.step + 1)
        return replace(state, phase=OVER)

    # -- end ---------------------------------------------------------------------------------
    def outcome(self, state: LineItState) -> Outcome | None:
        if state.phase != OVER:
            return None
        scores = [s.score for s in state.seats]
        best = max(scores)
        winners = tuple(i for i, s in enumerate(scores) if s == best)
        names = ", ".join(self.players[i] for i in winners)
        if len(winners) > 1:
            reason = Reason(
                "shared_victory",
                f"Shared victory at {best}: {names}.",
                f"Victoire partagée à {best} : {names}.",
            )
        else:
            reason = Reason(
                "victory", f"{names} wins with {best} points.", f"{names} gagne avec {best} points."
            )
        return Outcome(winners=winners, reason=reason)

    def scores(self, state: LineItState) -> dict[str, JSON]:
        return {
            name: {
                "score": seat.score,
                "cards": len(seat.score_pile),
                "tokens": list(seat.tokens),
                "line": list(seat.line),
                "hand_size": len(seat.hand),
            }
            for name, seat in zip(self.players, state.seats, strict=True)
        }

    # -- random play -------------------------------------------------------------------------
    def legal_actions(self, state: LineItState) -> Sequence[Action] | None:
        if state.phase in (DEAL, OVER):
            return None if state.phase == DEAL else []
        p = self.current_player(state)
        assert p is not None
        seat = state.seats[p]
        out: list[Action] = []
        if state.phase == TURNS:
            if not state.turn.took:
                for card in sorted(set(state.market)):
                    if fits(seat.line, card):
                        out.append(Take(p, card, "line"))
                    if len(seat.hand) < 2:
                        out.append(Take(p, card, "hand"))
            else:
                out.append(EndTurn(p))
            if not state.turn.played_from_hand:
                out.extend(Play(p, c) for c in sorted(set(seat.hand)) if fits(seat.line, c))
            if not state.turn.closed and seat.line:
                out.append(Close(p, self._default_discard(seat)))
        elif state.phase == FINAL_PLAYS:
            out.extend(Play(p, c) for c in sorted(set(seat.hand)) if fits(seat.line, c))
            out.append(Pass(p))
        elif state.phase == FINAL_CLOSE:
            out.append(Close(p, self._default_discard(seat)))
        return out

    @staticmethod
    def _default_discard(seat: Seat, rng: random.Random | None = None) -> tuple[str, ...]:
        numbers = [c for c in seat.line if not C.is_bet(c)]
        if len(numbers) <= 3:
            return tuple(numbers)
        return tuple(rng.sample(numbers, 3) if rng else numbers[:3])

    def sample_action(self, state: LineItState, rng: random.Random) -> Action | None:
        if state.phase == OVER:
            return None
        if state.phase == DEAL:
            return Market(tuple(rng.sample(state.deck, self.market_size)))
        p = self.current_player(state)
        assert p is not None
        seat = state.seats[p]
        if state.phase == FINAL_CLOSE:
            return Close(p, self._default_discard(seat, rng))
        actions = list(self.legal_actions(state) or [])
        closes = [a for a in actions if isinstance(a, Close)]
        others = [a for a in actions if not isinstance(a, Close)]
        takes = [a for a in others if isinstance(a, Take)]
        long_line = len(line_numbers(seat.line)) >= 5
        if closes and (not others or (long_line and rng.random() < 0.35)):
            return Close(p, self._default_discard(seat, rng))
        if state.phase == TURNS and not state.turn.took and not takes:
            plays = [a for a in others if isinstance(a, Play)]
            if plays:
                return rng.choice(plays)
            return Close(p, self._default_discard(seat, rng))
        if takes:
            in_line = [a for a in takes if a.to == "line"]
            return rng.choice(in_line if in_line and rng.random() < 0.7 else takes)
        plays = [a for a in others if isinstance(a, Play)]
        if plays and rng.random() < 0.5:
            return rng.choice(plays)
        non_play = [a for a in others if not isinstance(a, Play)]
        return rng.choice(non_play or others)
