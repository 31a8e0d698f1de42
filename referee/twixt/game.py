"""The Twixt referee: placement, links and crossings, the pie rule, the win and the proven draw.

Colour 0 (``colours[0]``, red by default) moves first and joins the top and bottom rows; colour 1
(black by default) joins the left and right columns. Seat 0 starts with colour 0; after a swap
(pie rule) the seats exchange colours and the first peg stays where it is.

A turn: the player pegs (or passes when no hole is left to them), then may add links (and, under
standard rules, remove own links); the other player's peg starts the next turn. The mode is the
rule set: ``"standard"`` (no link crosses any link; own links may be removed) or ``"PP"`` (own
links may cross each other, never the opponent's; links are never removed).

    >>> from referee.registry import make_game
    >>> game = make_game("twixt", ["Ana", "Ben"], options={"size": 12})
    >>> action = game.parse_action({"type": "peg", "player": 0, "at": "F6"})
    >>> state, ruling = game.apply(game.initial_state(), action)
    >>> ruling.reason.en
    'Ana pegs F6.'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace

from referee.errors import InvalidConfig, InvalidState, MalformedAction, RefereeError
from referee.memo import LastResolution
from referee.protocol import Game, GameConfig, require
from referee.twixt import reasons as R
from referee.twixt.actions import AgreeDraw, Link, Pass, Place, Resign, Swap, TwixtAction, Unlink
from referee.twixt.geometry import MIN_SIZE, Board, board, mask
from referee.twixt.notation import MAX_SIZE, Hole, hole_name, link_name, parse_hole
from referee.twixt.state import RESULTS, TwixtState
from referee.twixt.state_json import read_state, state_to_json
from referee.types import JSON, Outcome, Ruling

DEFAULT_SIZE = 24
DEFAULT_COLOURS = ("red", "black")
OPTIONS = ("size", "auto_link", "pie", "colours")
BORDERS = ("top and bottom rows", "left and right columns")

_ACTION_TYPES = ("peg", "link", "unlink", "swap", "pass", "resign", "agree_draw")


class TwixtGame(Game[TwixtState, TwixtAction]):
    """Twixt for two players. Options: ``size`` (5..26, default 24), ``auto_link`` (a new peg is
    linked to every own peg it can legally link to, as online Twixt does; default false),
    ``pie`` (the swap after the first peg; default true), ``colours`` (two names, default
    ``["red", "black"]``)."""

    name = "twixt"
    title = "Twixt"
    modes = ("standard", "PP")
    min_players = 2
    max_players = 2

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        opts = dict(config.options)
        unknown = sorted(set(opts) - set(OPTIONS))
        if unknown:
            raise InvalidConfig(f"unknown Twixt options {unknown}: expected some of {list(OPTIONS)}")
        size = opts.get("size", DEFAULT_SIZE)
        if isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
            raise InvalidConfig(f"Twixt option size {size!r} is not an integer in {MIN_SIZE}..{MAX_SIZE}")
        for key in ("auto_link", "pie"):
            if key in opts and not isinstance(opts[key], bool):
                raise InvalidConfig(f"Twixt option {key} {opts[key]!r} is not true or false")
        colours = opts.get("colours", list(DEFAULT_COLOURS))
        if (
            not isinstance(colours, list | tuple)
            or len(colours) != 2
            or not all(isinstance(c, str) and c.strip() for c in colours)
            or colours[0] == colours[1]
        ):
            raise InvalidConfig(f"Twixt option colours {colours!r} is not two distinct colour names")
        self.board: Board = board(size)
        self.size = size
        self.auto_link = bool(opts.get("auto_link", False))
        self.pie = bool(opts.get("pie", True))
        self.colours: tuple[str, str] = (str(colours[0]), str(colours[1]))
        self.pp = config.mode == "PP"
        # Random games end by resignation more often on big boards, so that they stay short.
        self._end_rate = max(0.002, 0.0015 * (size - 6))
        self._resolve = LastResolution(self._rule)

    @classmethod
    def sample_configs(cls) -> list[GameConfig]:
        players = ("Ana", "Ben")
        return [
            GameConfig(players, "standard", {}),
            GameConfig(players, "standard", {"size": 6, "auto_link": True}),
            GameConfig(players, "standard", {"size": 8}),
            GameConfig(players, "PP", {"size": 24, "auto_link": True}),
            GameConfig(players, "PP", {"size": 6, "auto_link": True}),
            GameConfig(players, "PP", {"size": 7, "pie": False, "colours": ["white", "black"]}),
        ]

    # -- states ------------------------------------------------------------------------------
    def initial_state(self) -> TwixtState:
        return TwixtState()

    def hole(self, h: int) -> str:
        """The notation of hole id ``h``."""
        return self.board.names[h]

    def link(self, lid: int) -> str:
        """The notation of link id ``lid``."""
        return self.board.link_names[lid]

    def state_to_json(self, state: TwixtState) -> dict[str, JSON]:
        return state_to_json(self.board, state)

    def state_from_json(self, obj: Mapping[str, JSON]) -> TwixtState:
        try:
            state = read_state(self.board, obj)
        except (RefereeError, KeyError, TypeError, ValueError) as exc:
            raise InvalidState(f"Twixt state {_short(obj)} is broken: {exc}") from exc
        problems = self.check_state(state)
        if problems:
            raise InvalidState(f"Twixt state {_short(obj)} is broken: {'; '.join(problems)}")
        return state

    def check_state(self, state: TwixtState) -> list[str]:
        b = self.board
        out: list[str] = []
        for c in (0, 1):
            colour = self.colours[c]
            off = state.pegs[c] - b.hole_set
            if off:
                out.append(f"{colour} pegs off the board or in a corner: {sorted(off)}")
            bad = state.pegs[c] & b.border[1 - c]
            if bad:
                out.append(
                    f"{colour} pegs in the other colour's border: {[self.hole(h) for h in sorted(bad)]}"
                )
            pegs_c, own, theirs = state.pegs[c], state.links[c], state.links[1 - c]
            for lid in sorted(own):
                crossing = b.crosses.get(lid)
                if crossing is None:
                    out.append(f"{colour} link id {lid} is not a link on the board")
                    continue
                a, e = b.link_ends(lid)
                if a not in pegs_c or e not in pegs_c:
                    out.append(f"{colour} link {self.link(lid)} does not join two {colour} pegs")
                for x in crossing:
                    if x in theirs:
                        if c == 0:
                            out.append(
                                f"links {self.link(lid)} and {self.link(x)} of different colours cross"
                            )
                    elif x in own and x > lid and not self.pp:
                        out.append(
                            f"{colour} links {self.link(lid)} and {self.link(x)} cross (standard rules)"
                        )
        both = state.pegs[0] & state.pegs[1]
        if both:
            out.append(f"holes with pegs of both colours: {[self.hole(h) for h in sorted(both)]}")
        if state.turn not in (0, 1):
            out.append(f"turn {state.turn!r} is not a seat")
        if state.swapped and not self.pie:
            out.append("swapped while the pie rule is off")
        if state.swapped and not state.pegs[0]:
            out.append("swapped before the first peg")
        if state.peg_count == 0 and (state.turn != 0 or state.swapped or state.last is not None):
            out.append("no peg on the board but the first turn is over")
        if state.last is not None and state.last not in state.pegs[0] | state.pegs[1]:
            out.append(f"last peg {state.last} is not on the board")
        if out:
            return out
        connected = [self.connected(state, c) for c in (0, 1)]
        if state.result is None:
            if state.winner is not None:
                out.append("a winner while the game goes on")
            for c in (0, 1):
                if connected[c]:
                    out.append(f"{self.colours[c]} has a winning chain but the game goes on")
            if not any(connected) and not self.can_connect(state, 0) and not self.can_connect(state, 1):
                out.append("neither colour can connect any more but the game goes on")
        elif state.result not in RESULTS:
            out.append(f"result {state.result!r} is not one of {list(RESULTS)}")
        elif state.result in ("connection", "resignation"):
            if state.winner not in (0, 1):
                out.append(f"result {state.result} without a winning seat")
            elif state.result == "connection" and not connected[state.colour_of(state.winner)]:
                out.append("a win by connection without a winning chain")
        elif state.winner is not None:
            out.append(f"a winner after {state.result}")
        elif state.result == "no_connection" and not self.is_dead_draw(state):
            out.append("a proven draw while a colour can still connect")
        return out

    # -- actions -----------------------------------------------------------------------------
    def parse_action(self, obj: Mapping[str, JSON]) -> TwixtAction:
        kind = require(obj, "type", str)
        if kind == "peg":
            return Place(self.parse_player(obj), _hole(obj, "at"))
        if kind in ("link", "unlink"):
            cls = Link if kind == "link" else Unlink
            return cls(self.parse_player(obj), _hole(obj, "from"), _hole(obj, "to"))
        if kind == "swap":
            return Swap(self.parse_player(obj))
        if kind == "pass":
            return Pass(self.parse_player(obj))
        if kind == "resign":
            return Resign(self.parse_player(obj))
        if kind == "agree_draw":
            return AgreeDraw()
        raise MalformedAction(
            f"unknown Twixt action type {kind!r} in {dict(obj)!r}: expected one of {_ACTION_TYPES}"
        )

    def action_to_json(self, action: TwixtAction) -> dict[str, JSON]:
        return action.to_json()

    def legal_actions(self, state: TwixtState) -> Sequence[TwixtAction]:
        """Every legal action: pegs (or a pass, or the swap) of the player who may peg now, links
        and unlinks of the player whose turn it is, resignations and the agreed draw."""
        if state.result is not None:
            return []
        b = self.board
        out: list[TwixtAction] = []
        pegger = 1 - state.turn if state.placed else state.turn
        if state.placed:
            s = state.turn
            c = state.colour_of(s)
            for lid in self.legal_links(state, c):
                a, e = b.link_ends(lid)
                out.append(Link(s, b.xy(a), b.xy(e)))
            if not self.pp:
                for lid in sorted(state.links[c]):
                    a, e = b.link_ends(lid)
                    out.append(Unlink(s, b.xy(a), b.xy(e)))
        free = self.free_holes(state, state.colour_of(pegger))
        out.extend(Place(pegger, b.xy(h)) for h in free)
        if not free:
            out.append(Pass(pegger))
        if self.swap_available(state):
            out.append(Swap(1))
        out.extend([Resign(0), Resign(1), AgreeDraw()])
        return out

    # -- queries -----------------------------------------------------------------------------
    def free_holes(self, state: TwixtState, colour: int) -> list[int]:
        """The empty holes ``colour`` may peg, in id order."""
        p0, p1 = state.pegs
        return [h for h in self.board.allowed_sorted[colour] if h not in p0 and h not in p1]

    def swap_available(self, state: TwixtState) -> bool:
        return (
            self.pie
            and state.result is None
            and not state.swapped
            and state.placed
            and state.turn == 0
            and state.peg_count == 1
        )

    def crossing(self, state: TwixtState, colour: int, lid: int) -> tuple[int, int] | None:
        """The first link that forbids ``colour`` adding ``lid``, as ``(owner colour, link id)``."""
        opp = state.links[1 - colour]
        own = state.links[colour]
        for x in self.board.crosses[lid]:
            if x in opp:
                return 1 - colour, x
        if not self.pp:
            for x in self.board.crosses[lid]:
                if x in own:
                    return colour, x
        return None

    def peg_links(
        self, pegs: frozenset[int], links: tuple[frozenset[int], frozenset[int]], colour: int, h: int
    ) -> list[int]:
        """The links ``colour`` may legally add at its peg ``h`` (they never cross each other)."""
        own = links[colour]
        opp = links[1 - colour]
        crosses = self.board.crosses
        pp = self.pp
        out = []
        for nb, lid in self.board.neighbours[h]:
            if nb in pegs and lid not in own:
                for x in crosses[lid]:
                    if x in opp or (not pp and x in own):
                        break
                else:
                    out.append(lid)
        return out

    def legal_links(self, state: TwixtState, colour: int) -> list[int]:
        """Every link ``colour`` may add now, in id order."""
        pegs = state.pegs[colour]
        out: list[int] = []
        for h in sorted(pegs):
            out.extend(lid for lid in self.peg_links(pegs, state.links, colour, h) if lid >> 2 == h)
        return out

    def connected(self, state: TwixtState, colour: int) -> bool:
        """Whether ``colour``'s links chain its two border lines together."""
        b = self.board
        pegs = mask(state.pegs[colour])
        if not (pegs & b.start_mask[colour] and pegs & b.end_mask[colour]):
            return False
        return b.floods_to(b.start_mask[colour], b.end_mask[colour], pegs, b.link_masks(state.links[colour]))

    def can_connect(self, state: TwixtState, colour: int) -> bool:
        """Whether ``colour`` might still join its borders, in the most favourable continuation.

        The relaxation: ``colour`` may use its own pegs and every empty hole it may peg; a step
        between two of them (a future link) is open unless a link of the other colour that can
        never go away crosses it. Under PP rules links are never removed, so every opposing link
        is permanent; under standard rules every link may still be removed by its owner, so only
        pegs count. The future links of a path may cross each other in the relaxation, and the other
        colour's future pegs and links are ignored: both only make it more favourable. So ``False``
        is a proof: no continuation connects ``colour``.
        """
        b = self.board
        usable = b.allowed_mask[colour] & ~mask(state.pegs[1 - colour])
        if not (usable & b.start_mask[colour] and usable & b.end_mask[colour]):
            return False
        if self.pp and state.links[1 - colour]:
            blocked = [0] * 8
            for lid in state.links[1 - colour]:
                bm = b.block_masks(lid)
                for j in range(8):
                    blocked[j] |= bm[j]
            open_dirs = [~m for m in blocked]
        else:
            open_dirs = [-1] * 8
        return b.floods_to(b.start_mask[colour], b.end_mask[colour], usable, open_dirs)

    def is_dead_draw(self, state: TwixtState) -> bool:
        """The draw check: neither colour can connect any more (see :meth:`can_connect`)."""
        return not self.can_connect(state, 0) and not self.can_connect(state, 1)

    # -- rules -------------------------------------------------------------------------------
    def judge(self, state: TwixtState, action: TwixtAction) -> Ruling:
        return self._resolve(state, action)[1]

    def apply(self, state: TwixtState, action: TwixtAction) -> tuple[TwixtState, Ruling]:
        new, ruling = self._resolve(state, action)
        return (new if new is not None else state), ruling

    def _seat(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in (0, 1):
            raise MalformedAction(f"player {seat!r} is not a seat 0..1")
        return seat

    def _rule(self, state: TwixtState, action: TwixtAction) -> tuple[TwixtState | None, Ruling]:
        """The state after ``action`` (``None`` when it does not apply) and the ruling."""
        if isinstance(action, AgreeDraw):
            if state.result is not None:
                return None, R.game_over()
            return replace(state, result="agreed_draw"), R.agreed_draw()
        if not isinstance(action, Place | Link | Unlink | Swap | Pass | Resign):
            raise MalformedAction(f"{action!r} is not a Twixt action")
        s = self._seat(action.player)
        if state.result is not None:
            return None, R.game_over()
        name, other = self.players[s], self.players[1 - s]
        if isinstance(action, Resign):
            return replace(state, result="resignation", winner=1 - s), R.resigned(name, other, player=s)
        if isinstance(action, Place):
            return self._place(state, s, action.at)
        if isinstance(action, Pass):
            problem = self._pegging_turn(state, s)
            if problem is not None:
                return None, problem
            if self.free_holes(state, state.colour_of(s)):
                return None, R.cannot_pass(name)
            return replace(state, turn=s, placed=True), R.passed(name, player=s)
        if isinstance(action, Swap):
            if not self.pie:
                return None, R.no_pie()
            if s != 1 or not self.swap_available(state):
                return None, R.swap_unavailable()
            (first,) = state.pegs[0]
            return replace(state, swapped=True, turn=0, placed=False), R.swapped(
                name, other, self.colours[0], self.colours[1], self.hole(first), player=s
            )
        if isinstance(action, Unlink) and self.pp:
            return None, R.no_removal()
        if s != state.turn:
            return None, R.not_your_turn(name)
        if not state.placed:
            return None, R.peg_first(name)
        return self._link(state, s, action.a, action.b, add=isinstance(action, Link))

    def _pegging_turn(self, state: TwixtState, s: int) -> Ruling | None:
        if state.placed and s == state.turn:
            return R.already_placed(self.players[s])
        if not state.placed and s != state.turn:
            return R.not_your_turn(self.players[s])
        return None

    def _place(self, state: TwixtState, s: int, at: Hole) -> tuple[TwixtState | None, Ruling]:
        problem = self._pegging_turn(state, s)
        if problem is not None:
            return None, problem
        b = self.board
        name = hole_name(at)
        if not b.on_grid(at):
            return None, R.off_board(name, self.size)
        h = b.hole_id(at)
        if h is None:
            return None, R.corner(name)
        if h in state.pegs[0] or h in state.pegs[1]:
            return None, R.occupied(name)
        c = state.colour_of(s)
        if h in b.border[1 - c]:
            return None, R.opponent_border(name, self.players[s], self.players[1 - s])
        pegs_c = state.pegs[c] | {h}
        pegs = (pegs_c, state.pegs[1]) if c == 0 else (state.pegs[0], pegs_c)
        new_links: list[int] = self.peg_links(pegs_c, state.links, c, h) if self.auto_link else []
        links = state.links
        if new_links:
            own = state.links[c].union(new_links)
            links = (own, links[1]) if c == 0 else (links[0], own)
        new = TwixtState(pegs, links, s, True, state.swapped, h, None, None)
        link_names = [self.link(lid) for lid in new_links]
        ruling = R.peg_placed(
            self.players[s], name, link_names, player=s, colour=self.colours[c], at=name, links=link_names
        )
        return self._finish(new, c, ruling, check_win=bool(new_links), check_draw=True)

    def _link(
        self, state: TwixtState, s: int, a: Hole, e: Hole, add: bool
    ) -> tuple[TwixtState | None, Ruling]:
        b = self.board
        player = self.players[s]
        c = state.colour_of(s)
        text = link_name(a, e)
        for end in (a, e):
            if not b.on_grid(end):
                return None, R.off_board(hole_name(end), self.size)
        ha, he = b.hole_id(a), b.hole_id(e)
        own = state.links[c]
        if not add:
            lid = None if ha is None or he is None else b.link_id(ha, he)
            if lid is not None and lid in state.links[1 - c]:
                return None, R.not_own_link(text, player)
            if lid is None or lid not in own:
                return None, R.no_such_link(text, player)
            own = own - {lid}
            links = (own, state.links[1]) if c == 0 else (state.links[0], own)
            return replace(state, links=links), R.unlinked(player, text, player=s, link=text)
        for end, h in ((a, ha), (e, he)):
            if h is None or h not in state.pegs[c]:
                return None, R.not_own_peg(hole_name(end), player)
        assert ha is not None and he is not None
        lid = b.link_id(ha, he)
        if lid is None:
            return None, R.not_knight(hole_name(a), hole_name(e))
        if lid in own:
            return None, R.link_exists(text)
        blocker = self.crossing(state, c, lid)
        if blocker is not None:
            owner, x = blocker
            if owner != c:
                return None, R.crosses_opponent(text, self.players[1 - s], self.link(x))
            return None, R.crosses_own(text, player, self.link(x))
        own = own | {lid}
        links = (own, state.links[1]) if c == 0 else (state.links[0], own)
        new = replace(state, links=links)
        ruling = R.linked(player, text, player=s, colour=self.colours[c], link=text)
        return self._finish(new, c, ruling, check_win=True, check_draw=self.pp)

    def _finish(
        self, new: TwixtState, colour: int, ruling: Ruling, check_win: bool, check_draw: bool
    ) -> tuple[TwixtState, Ruling]:
        if check_win and self.connected(new, colour):
            seat = new.seat_of(colour)
            won = replace(new, result="connection", winner=seat)
            return won, R.with_ending(ruling, R.connection(self.players[seat]))
        if check_draw and self.is_dead_draw(new):
            return replace(new, result="no_connection"), R.with_ending(ruling, R.no_connection())
        return new, ruling

    def outcome(self, state: TwixtState) -> Outcome | None:
        if state.result is None:
            return None
        if state.result == "connection":
            assert state.winner is not None
            return Outcome((state.winner,), R.connection(self.players[state.winner]))
        if state.result == "resignation":
            assert state.winner is not None
            return Outcome(
                (state.winner,), R.resignation(self.players[1 - state.winner], self.players[state.winner])
            )
        if state.result == "agreed_draw":
            return Outcome((), R.draw_agreed(), draw=True)
        return Outcome((), R.no_connection(), draw=True)

    def scores(self, state: TwixtState) -> dict[str, JSON]:
        players = []
        for s, name in enumerate(self.players):
            c = state.colour_of(s)
            players.append(
                {
                    "name": name,
                    "colour": self.colours[c],
                    "borders": BORDERS[c],
                    "pegs": len(state.pegs[c]),
                    "links": len(state.links[c]),
                }
            )
        to_move = None
        if state.result is None:
            to_move = self.players[1 - state.turn if state.placed else state.turn]
        return {"players": players, "to_peg": to_move, "swap_available": self.swap_available(state)}

    # -- random play -------------------------------------------------------------------------
    def sample_action(self, state: TwixtState, rng: random.Random) -> TwixtAction | None:
        if state.result is not None:
            return None
        r = rng.random()
        if r < self._end_rate:
            return Resign(rng.randrange(2))
        if r < self._end_rate * 1.2:
            return AgreeDraw()
        b = self.board
        if state.placed:
            s = state.turn
            c = state.colour_of(s)
            if not self.auto_link and state.last in state.pegs[c] and rng.random() < 0.85:
                candidates = self.peg_links(state.pegs[c], state.links, c, state.last)
                if candidates:
                    a, e = b.link_ends(rng.choice(sorted(candidates)))
                    return Link(s, b.xy(a), b.xy(e))
            if not self.pp and state.links[c] and rng.random() < 0.03:
                a, e = b.link_ends(rng.choice(sorted(state.links[c])))
                return Unlink(s, b.xy(a), b.xy(e))
            if self.swap_available(state) and rng.random() < 0.3:
                return Swap(1)
            return self._sample_peg(state, 1 - s, rng)
        return self._sample_peg(state, state.turn, rng)

    def _sample_peg(self, state: TwixtState, s: int, rng: random.Random) -> TwixtAction:
        b = self.board
        c = state.colour_of(s)
        p0, p1 = state.pegs
        allowed = b.allowed[c]
        own = state.pegs[c]
        if own and rng.random() < 0.6:
            # Near an own peg, so that random games build chains and end by connection.
            nbs = b.neighbours[rng.choice(sorted(own))]
            h = nbs[rng.randrange(len(nbs))][0]
            if h in allowed and h not in p0 and h not in p1:
                return Place(s, b.xy(h))
        order = b.allowed_sorted[c]
        for _ in range(20):
            h = order[rng.randrange(len(order))]
            if h not in p0 and h not in p1:
                return Place(s, b.xy(h))
        free = self.free_holes(state, c)
        if free:
            return Place(s, b.xy(rng.choice(free)))
        if not self.free_holes(state, 1 - c):
            return AgreeDraw()
        return Pass(s)


def _hole(obj: Mapping[str, JSON], key: str) -> Hole:
    """The hole named by ``obj[key]``; a malformed one raises quoting the whole action."""
    text = require(obj, key, str)
    try:
        return parse_hole(text)
    except MalformedAction as exc:
        raise MalformedAction(f"{exc} (in action {dict(obj)!r})") from None


def _short(obj: object, limit: int = 100) -> str:
    text = repr(obj)
    return text if len(text) <= limit else text[: limit - 3] + "..."
