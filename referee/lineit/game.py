"""Line-it's rules as a :class:`~referee.protocol.Game`.

A round: a market of players + 2 cards is dealt (``market``, a table event); from the first
player clockwise, each player must take one market card into their line or hand (``take``), may
play one card from hand (``play``) and may close their line (``close``), in any order, then ends
the turn (``end_turn``). A player who can neither play nor keep any market card must close their
line (or first play a hand card to make room): taking is refused until they do, and a turn
cannot end without taking. Market number cards left at the end of a round go under their
colour's jackpot, market bets are discarded and the first-player token passes left. When no
market can be dealt, the rest of the deck goes to the jackpots, players from the (new) first
player may play a first then a second card from hand (``play`` or ``pass``), every line is
closed in turn order and the scores are counted.

Decisions beside the rules (RULES-NOTES, docs/records.md): the closing player chooses the three
discarded cards; a line of three number cards or fewer scores nothing; closing trades the bet
card for its bonus or malus token and the bet card goes to the discard; a line is closed at most
once per turn; the end-of-game plays start from the player who received the first-player token
at the end of the last round; cards left in hand at the end score nothing.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import ClassVar

from referee.errors import InvalidState, MalformedAction
from referee.french import join_en, join_fr
from referee.lineit import cards as C
from referee.lineit import reasons as R
from referee.lineit.actions import (
    Action,
    Close,
    EndTurn,
    Market,
    Pass,
    Play,
    Take,
    action_to_json,
    parse_action,
)
from referee.lineit.checks import check_state
from referee.lineit.lines import bet_result, direction, fits, line_numbers, third_of_colour
from referee.lineit.state import (
    DEAL,
    FINAL_CLOSE,
    FINAL_PLAYS,
    OVER,
    TURNS,
    LineItState,
    Seat,
    Turn,
    short,
)
from referee.memo import LastResolution
from referee.protocol import Game, GameConfig
from referee.types import JSON, Outcome, Reason, Ruling


def _remove(pool: Sequence[str], cards: Sequence[str]) -> tuple[str, ...] | None:
    """``pool`` without ``cards`` (as multisets), or None if ``cards`` are not all in it."""
    left = list(pool)
    for card in cards:
        try:
            left.remove(card)
        except ValueError:
            return None
    return tuple(left)


class LineItGame(Game[LineItState, Action]):
    """Line-it for 2 to 4 players. Options (decisions, see RULES-NOTES): ``colours`` (which colour
    each number has) and ``bets`` (how many bet cards of each value)."""

    name: ClassVar[str] = "lineit"
    title: ClassVar[str] = "Line-it"
    modes: ClassVar[tuple[str, ...]] = ("standard",)
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        self.deck = C.make_deck(config.options)
        self._resolve = LastResolution(self._transition)

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
        state = LineItState.from_json(obj)
        problems = self.check_state(state)
        if problems:
            raise InvalidState(f"Line-it state {short(obj)} is broken: {'; '.join(problems)}")
        return state

    def check_state(self, state: LineItState) -> list[str]:
        return check_state(state, self.deck, self.num_players)

    # -- actions -----------------------------------------------------------------------------
    def parse_action(self, obj: Mapping[str, JSON]) -> Action:
        return parse_action(obj, self.deck, self.parse_player)

    def action_to_json(self, action: Action) -> dict[str, JSON]:
        return action_to_json(action)

    # -- whose move --------------------------------------------------------------------------
    def current_player(self, state: LineItState) -> int | None:
        """The player expected to act, or None while a market is due or the game is over."""
        n = self.num_players
        if state.phase in (TURNS, FINAL_CLOSE):
            return (state.first_player + state.step) % n
        if state.phase == FINAL_PLAYS:
            return (state.first_player + state.step % n) % n
        return None

    # -- rules -------------------------------------------------------------------------------
    def judge(self, state: LineItState, action: Action) -> Ruling:
        return self._resolve(state, action)[1]

    def apply(self, state: LineItState, action: Action) -> tuple[LineItState, Ruling]:
        new_state, ruling = self._resolve(state, action)
        return (new_state if ruling.applies else state), ruling

    def _transition(self, state: LineItState, action: Action) -> tuple[LineItState, Ruling]:
        if state.phase == OVER:
            return state, R.game_over()
        if isinstance(action, Market):
            return self._market(state, action)
        if state.phase == DEAL:
            return state, R.market_due()
        if type(action.player) is not int or not 0 <= action.player < self.num_players:
            raise MalformedAction(
                f"player {action.player!r} in {action!r} is not a seat 0..{self.num_players - 1}"
            )
        expected = self.current_player(state)
        if action.player != expected:
            assert expected is not None
            return state, R.not_your_turn(self.players[expected], self.players[action.player])
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
            return state, R.no_market_now()
        if len(action.cards) != self.market_size:
            return state, R.market_size(self.market_size, len(action.cards))
        deck = _remove(state.deck, action.cards)
        if deck is None:
            left = Counter(state.deck)
            missing = []
            for card in action.cards:
                if left[card]:
                    left[card] -= 1
                else:
                    missing.append(card)
            return state, R.not_in_deck(missing)
        new = replace(
            state, phase=TURNS, deck=deck, market=action.cards, round=state.round + 1, step=0, turn=Turn()
        )
        return new, R.market_dealt(new.round, action.cards)

    def _place(
        self, state: LineItState, player: int, seat: Seat, card: str
    ) -> tuple[LineItState, list[str] | None]:
        """``state`` with ``card`` appended to ``seat``'s line (``seat`` is the player's seat as it
        stands, e.g. without the card in hand), and the jackpot won when it is the line's third
        card of its colour (``None`` otherwise)."""
        line = (*seat.line, card)
        seat = replace(seat, line=line)
        won: list[str] | None = None
        if third_of_colour(line, card):
            k = C.COLOURS.index(C.colour(card))
            won = list(state.jackpots[k])
            jackpots = list(state.jackpots)
            jackpots[k] = ()
            state = replace(state, jackpots=tuple(jackpots))
            seat = replace(seat, score_pile=(*seat.score_pile, *won))
        return state.with_seat(player, seat), won

    def _fit_refusal(self, seat: Seat, card: str) -> Ruling:
        if C.is_bet(card):
            return R.one_bet_per_line()
        return R.breaks_line(card, line_numbers(seat.line)[-1], rising=direction(seat.line) >= 0)

    def _take(self, state: LineItState, action: Take) -> tuple[LineItState, Ruling]:
        if state.phase != TURNS:
            return state, R.no_market()
        if state.turn.took:
            return state, R.took_already()
        market = _remove(state.market, [action.card])
        if market is None:
            return state, R.not_in_market(action.card)
        seat = state.seats[action.player]
        if self.must_close(state, seat):
            return state, R.must_close()
        won: list[str] | None = None
        if action.to == "hand":
            if len(seat.hand) >= 2:
                return state, R.hand_full()
            new = state.with_seat(action.player, replace(seat, hand=(*seat.hand, action.card)))
        else:
            if not fits(seat.line, action.card):
                return state, self._fit_refusal(seat, action.card)
            new, won = self._place(state, action.player, seat, action.card)
        new = replace(new, market=market, turn=replace(state.turn, took=True))
        return new, R.taken(self.players[action.player], action.card, action.to, won)

    @staticmethod
    def must_close(state: LineItState, seat: Seat) -> bool:
        """Whether the player to take must close their line first: no market card fits it, the
        hand is full and no hand card may be played to make room."""
        if len(seat.hand) < 2 or any(fits(seat.line, c) for c in state.market):
            return False
        return state.turn.played_from_hand or not any(fits(seat.line, c) for c in seat.hand)

    def _play(self, state: LineItState, action: Play) -> tuple[LineItState, Ruling]:
        if state.phase == TURNS and state.turn.played_from_hand:
            return state, R.played_already()
        if state.phase == FINAL_CLOSE:
            return state, R.closing_time()
        seat = state.seats[action.player]
        hand = _remove(seat.hand, [action.card])
        if hand is None:
            return state, R.not_in_hand(action.card)
        if not fits(seat.line, action.card):
            return state, self._fit_refusal(seat, action.card)
        new, won = self._place(state, action.player, replace(seat, hand=hand), action.card)
        if state.phase == TURNS:
            new = replace(new, turn=replace(state.turn, played_from_hand=True))
        else:
            new = self._advance_final(replace(new, step=new.step + 1))
        return new, R.played(self.players[action.player], action.card, won)

    def _close(self, state: LineItState, action: Close) -> tuple[LineItState, Ruling]:
        if state.phase == FINAL_PLAYS:
            return state, R.final_plays()
        if state.phase == TURNS and state.turn.closed:
            return state, R.closed_already()
        seat = state.seats[action.player]
        if not seat.line:
            return state, R.empty_line()
        numbers = [c for c in seat.line if not C.is_bet(c)]
        need = min(3, len(numbers))
        discard = action.discard or (tuple(numbers) if len(numbers) <= 3 else ())
        rest = _remove(numbers, discard)
        if len(discard) != need or rest is None:
            return state, R.discard_three(need, action.discard)
        bets = [c for c in seat.line if C.is_bet(c)]
        token = bet_result(seat.line) if bets else None
        seat = Seat(
            line=(),
            hand=seat.hand,
            score_pile=(*seat.score_pile, *rest),
            tokens=seat.tokens if token is None else (*seat.tokens, token),
        )
        new = replace(
            state.with_seat(action.player, seat), discard=tuple(sorted([*state.discard, *discard, *bets]))
        )
        if state.phase == TURNS:
            new = replace(new, turn=replace(state.turn, closed=True))
        else:
            new = self._advance_close(replace(new, step=new.step + 1))
        return new, R.closed(self.players[action.player], len(rest), token)

    def _end_turn(self, state: LineItState, action: EndTurn) -> tuple[LineItState, Ruling]:
        if state.phase != TURNS:
            return state, R.no_turn()
        if not state.turn.took:
            return state, R.must_take()
        name = self.players[action.player]
        new = replace(state, step=state.step + 1, turn=Turn())
        if new.step < self.num_players:
            return new, R.turn_ended(name)
        return self._end_round(new, name)

    def _end_round(self, state: LineItState, name: str) -> tuple[LineItState, Ruling]:
        """The market's leftovers go under the jackpots (bets to the discard), the first-player
        token passes left; the next market, or the end of the game when none can be dealt."""
        jackpots = [list(j) for j in state.jackpots]
        discard = list(state.discard)
        final = len(state.deck) < self.market_size
        for card in (*state.market, *(state.deck if final else ())):
            if C.is_bet(card):
                discard.append(card)
            else:
                jackpots[C.COLOURS.index(C.colour(card))].append(card)
        first = (state.first_player + 1) % self.num_players
        new = replace(
            state,
            market=(),
            jackpots=tuple(tuple(j) for j in jackpots),
            discard=tuple(sorted(discard)),
            first_player=first,
            step=0,
            turn=Turn(),
        )
        if not final:
            return replace(new, phase=DEAL), R.round_ended(name, state.round, self.players[first])
        new = self._advance_final(replace(new, phase=FINAL_PLAYS, deck=()))
        return new, R.last_round(name, self.players[first])

    def _pass(self, state: LineItState, action: Pass) -> tuple[LineItState, Ruling]:
        if state.phase != FINAL_PLAYS:
            return state, R.no_pass()
        new = self._advance_final(replace(state, step=state.step + 1))
        return new, R.passed(self.players[action.player])

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
        return replace(state, phase=OVER, step=0)

    # -- end ---------------------------------------------------------------------------------
    def outcome(self, state: LineItState) -> Outcome | None:
        if state.phase != OVER:
            return None
        scores = [s.score for s in state.seats]
        best = max(scores)
        winners = tuple(i for i, s in enumerate(scores) if s == best)
        names = [self.players[i] for i in winners]
        en_points = "point" if abs(best) == 1 else "points"
        fr_points = "point" if abs(best) <= 1 else "points"
        if len(winners) > 1:
            reason = Reason(
                "shared_victory",
                f"{join_en(names)} share the victory with {best} {en_points}.",
                f"{join_fr(names)} se partagent la victoire avec {best} {fr_points}.",
            )
        else:
            reason = Reason(
                "victory",
                f"{names[0]} wins with {best} {en_points}.",
                f"{names[0]} gagne avec {best} {fr_points}.",
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
        """Every legal action of the player to act (closing with the line's first three number
        cards); ``None`` while a market is due (any players + 2 cards of the deck)."""
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
                out.append(Close(p, self._discard(seat)))
        elif state.phase == FINAL_PLAYS:
            out.extend(Play(p, c) for c in sorted(set(seat.hand)) if fits(seat.line, c))
            out.append(Pass(p))
        elif state.phase == FINAL_CLOSE:
            out.append(Close(p, self._discard(seat)))
        return out

    @staticmethod
    def _discard(seat: Seat, rng: random.Random | None = None) -> tuple[str, ...]:
        """Three number cards of the line to discard (random ones with ``rng``), or all of them."""
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
            return Close(p, self._discard(seat, rng))
        actions = list(self.legal_actions(state) or [])
        closes = [a for a in actions if isinstance(a, Close)]
        others = [a for a in actions if not isinstance(a, Close)]
        takes = [a for a in others if isinstance(a, Take)]
        plays = [a for a in others if isinstance(a, Play)]
        long_line = len(line_numbers(seat.line)) >= 5
        if closes and (not others or (long_line and rng.random() < 0.35)):
            return Close(p, self._discard(seat, rng))
        if state.phase == TURNS and not state.turn.took and not takes:
            # Nothing to take: play a hand card to make room, or the forced close.
            return rng.choice(plays) if plays else Close(p, self._discard(seat, rng))
        if takes:
            in_line = [a for a in takes if a.to == "line"]
            return rng.choice(in_line if in_line and rng.random() < 0.7 else takes)
        if plays and rng.random() < 0.5:
            return rng.choice(plays)
        rest = [a for a in others if not isinstance(a, Play)]
        return rng.choice(rest or others)
