"""Scenario tests pinning each Twixt rule: placement, turns, the pie rule, links and crossings in
both rule sets, link removal, the win on the completing move, the proven draw, endings."""

from __future__ import annotations

import json
import random
from collections import deque
from collections.abc import Iterable

import pytest

from referee.errors import InvalidConfig, InvalidState, MalformedAction
from referee.registry import make_game
from referee.twixt.actions import AgreeDraw, Link, Pass, Place, Resign, Swap, TwixtAction, Unlink
from referee.twixt.game import TwixtGame
from referee.twixt.notation import parse_hole
from referee.twixt.state import TwixtState
from referee.types import Ruling, Verdict


def game(mode: str = "standard", **options: object) -> TwixtGame:
    g = make_game("twixt", ["Ana", "Ben"], mode=mode, options=options)
    assert isinstance(g, TwixtGame)
    return g


def peg(seat: int, hole: str) -> Place:
    return Place(seat, parse_hole(hole))


def link(seat: int, a: str, b: str) -> Link:
    return Link(seat, parse_hole(a), parse_hole(b))


def unlink(seat: int, a: str, b: str) -> Unlink:
    return Unlink(seat, parse_hole(a), parse_hole(b))


def play(g: TwixtGame, actions: Iterable[TwixtAction], state: TwixtState | None = None) -> TwixtState:
    state = g.initial_state() if state is None else state
    for action in actions:
        state, ruling = g.apply(state, action)
        assert ruling.applies, ruling.reason.en
    return state


def position(
    g: TwixtGame,
    red: Iterable[str] = (),
    black: Iterable[str] = (),
    red_links: Iterable[str] = (),
    black_links: Iterable[str] = (),
    turn: int = 0,
    placed: bool = True,
) -> TwixtState:
    """A position from its JSON form (checked as a whole by state_from_json)."""
    red = list(red)
    return g.state_from_json(
        {
            "pegs": [red, list(black)],
            "links": [list(red_links), list(black_links)],
            "turn": turn,
            "placed": placed,
            "swapped": False,
            "last": red[-1] if red else None,
            "result": None,
            "winner": None,
        }
    )


def refused_with(g: TwixtGame, state: TwixtState, action: TwixtAction, code: str) -> Ruling:
    before = g.state_to_json(state)
    ruling = g.judge(state, action)
    assert ruling.verdict is Verdict.INVALID and not ruling.applies, ruling
    assert ruling.reason.code == code, ruling.reason
    assert ruling.reason.en and ruling.reason.fr and ruling.reason.en != ruling.reason.fr
    new, applied = g.apply(state, action)
    assert new == state and applied == ruling
    assert g.state_to_json(state) == before
    return ruling


# -- placement -------------------------------------------------------------------------------
@pytest.mark.parametrize("corner", ["A1", "X1", "A24", "X24"])
def test_corners_take_no_peg(corner: str) -> None:
    g = game()
    refused_with(g, g.initial_state(), peg(0, corner), "corner")


def test_each_colour_is_kept_out_of_the_other_colours_border_rows() -> None:
    g = game()
    s = g.initial_state()
    # red (seat 0) joins top and bottom: columns A and X are black's
    refused_with(g, s, peg(0, "A5"), "opponent_border")
    refused_with(g, s, peg(0, "X12"), "opponent_border")
    s = play(g, [peg(0, "E1")], s)  # red in its own top row
    refused_with(g, s, peg(1, "E24"), "opponent_border")
    refused_with(g, s, peg(1, "J1"), "opponent_border")
    s = play(g, [peg(1, "A5")], s)  # black in its own left column
    assert g.state_to_json(s)["pegs"] == [["E1"], ["A5"]]


def test_off_board_and_occupied_holes_are_refused() -> None:
    g = game(size=12)
    s = play(g, [peg(0, "E5")])
    refused_with(g, s, peg(1, "E5"), "occupied")
    refused_with(g, s, peg(1, "M5"), "off_board")
    refused_with(g, s, peg(1, "E13"), "off_board")


def test_players_peg_in_turn() -> None:
    g = game()
    s = g.initial_state()
    refused_with(g, s, peg(1, "E5"), "not_your_turn")
    s = play(g, [peg(0, "E5")], s)
    refused_with(g, s, peg(0, "F7"), "already_placed")
    s = play(g, [peg(1, "K10")], s)
    assert (s.turn, s.placed) == (1, True)
    assert g.scores(s)["to_peg"] == "Ana"


# -- pie rule --------------------------------------------------------------------------------
def test_swap_keeps_the_peg_and_exchanges_colours() -> None:
    g = game()
    s = play(g, [peg(0, "E5")])
    assert g.swap_available(s)
    s, ruling = g.apply(s, Swap(1))
    assert ruling.valid and ruling.reason.code == "swap"
    assert "stays" in ruling.reason.en and "reste" in ruling.reason.fr and "rouge" in ruling.reason.fr
    assert s.swapped and g.state_to_json(s)["pegs"] == [["E5"], []]
    players = g.scores(s)["players"]
    assert [p["colour"] for p in players] == ["black", "red"]
    assert players[1]["pegs"] == 1 and players[1]["borders"] == "top and bottom rows"
    # Ana moves next, now black: the top and bottom rows are closed to her
    refused_with(g, s, peg(1, "F8"), "not_your_turn")
    refused_with(g, s, peg(0, "F1"), "opponent_border")
    s = play(g, [peg(0, "A7"), peg(1, "F1")], s)
    assert g.state_to_json(s)["pegs"] == [["F1", "E5"], ["A7"]]
    refused_with(g, s, Swap(1), "swap_unavailable")


def test_swap_is_only_for_the_second_player_right_after_the_first_peg() -> None:
    g = game()
    refused_with(g, g.initial_state(), Swap(1), "swap_unavailable")
    s = play(g, [peg(0, "E5")])
    refused_with(g, s, Swap(0), "swap_unavailable")
    s2 = play(g, [peg(1, "J9")], s)
    refused_with(g, s2, Swap(1), "swap_unavailable")
    s3 = play(g, [Swap(1)], s)
    refused_with(g, s3, Swap(1), "swap_unavailable")
    no_pie = game(pie=False)
    refused_with(no_pie, play(no_pie, [peg(0, "E5")]), Swap(1), "no_pie")


# -- links and crossings ---------------------------------------------------------------------
# D4-F5 (dx 2, dy 1) is crossed by E4-F6 (dx 1, dy 2).
@pytest.mark.parametrize("mode", ["standard", "PP"])
def test_a_link_never_crosses_an_opposing_link(mode: str) -> None:
    g = game(mode, size=10)
    s = position(g, red=["D4", "F5"], black=["E4", "F6"], black_links=["E4-F6"])
    ruling = refused_with(g, s, link(0, "D4", "F5"), "crosses_opponent")
    assert ruling.details["crossed"] == "E4-F6"


def test_standard_rules_forbid_crossing_own_links_and_pp_allows_it() -> None:
    std = game("standard", size=10)
    s = position(std, red=["D4", "F5", "E4", "F6"], red_links=["D4-F5"])
    refused_with(std, s, link(0, "E4", "F6"), "crosses_own")
    pp = game("PP", size=10)
    s = position(pp, red=["D4", "F5", "E4", "F6"], red_links=["D4-F5"])
    s, ruling = pp.apply(s, link(0, "E4", "F6"))
    assert ruling.valid and pp.state_to_json(s)["links"][0] == ["D4-F5", "E4-F6"]
    assert not pp.check_state(s)


@pytest.mark.parametrize(("mode", "expected"), [("standard", []), ("PP", ["E4-F6"])])
def test_auto_link_adds_every_legal_link_of_the_new_peg(mode: str, expected: list[str]) -> None:
    g = game(mode, size=10, auto_link=True)
    s = position(g, red=["D4", "F5", "E4", "H7"], black=["A9"], red_links=["D4-F5"], turn=1)
    s, ruling = g.apply(s, peg(0, "F6"))
    new = sorted(set(g.state_to_json(s)["links"][0]) - {"D4-F5"})
    # F6-H7 is always legal; F6-E4 crosses red's own D4-F5
    assert new == sorted(["F6-H7", *expected])
    assert sorted(ruling.details["links"]) == new


def test_link_needs_own_pegs_a_knight_apart_and_the_players_turn() -> None:
    g = game(size=10)
    s = position(g, red=["D4", "F5", "E7"], black=["E4", "F6"])
    refused_with(g, s, link(0, "D4", "E4"), "not_own_peg")
    refused_with(g, s, link(0, "D4", "E7"), "not_knight")
    refused_with(g, s, link(1, "E4", "F6"), "not_your_turn")
    s = play(g, [link(0, "D4", "F5")], s)
    refused_with(g, s, link(0, "F5", "D4"), "link_exists")
    before_peg = position(g, red=["D4", "F5"], black=["E4", "F6"], turn=0, placed=False)
    refused_with(g, before_peg, link(0, "D4", "F5"), "peg_first")


def test_own_links_are_removed_under_standard_rules_only() -> None:
    std = game("standard", size=10)
    s = position(
        std, red=["D4", "F5", "E4", "F6"], black=["B3", "C5"], red_links=["D4-F5"], black_links=["B3-C5"]
    )
    refused_with(std, s, unlink(0, "B3", "C5"), "not_own_link")
    refused_with(std, s, unlink(0, "E4", "F6"), "no_such_link")
    s, ruling = std.apply(s, unlink(0, "D4", "F5"))
    assert ruling.valid and ruling.reason.code == "unlink"
    s = play(std, [link(0, "E4", "F6")], s)  # no longer crosses
    assert std.state_to_json(s)["links"][0] == ["E4-F6"]
    pp = game("PP", size=10)
    s = position(pp, red=["D4", "F5"], red_links=["D4-F5"])
    refused_with(pp, s, unlink(0, "D4", "F5"), "no_removal")


# -- the win ---------------------------------------------------------------------------------
CHAIN = ["C1", "D3", "C5", "D7", "B8"]  # red's knight chain from row 1 to row 8 on an 8 x 8 board
BLACK_ELSEWHERE = ["A4", "A6", "H3", "H5"]


def test_the_win_is_seen_on_the_link_that_completes_the_chain() -> None:
    g = game(size=8)
    moves: list[TwixtAction] = []
    for i, hole in enumerate(CHAIN):
        moves.append(peg(0, hole))
        if i:
            moves.append(link(0, CHAIN[i - 1], hole))
        if i < len(BLACK_ELSEWHERE):
            moves.append(peg(1, BLACK_ELSEWHERE[i]))
    s = play(g, moves[:-1])
    assert g.outcome(s) is None and not g.connected(s, 0)
    s, ruling = g.apply(s, moves[-1])
    assert ruling.valid and ruling.reason.code == "connection" and "Ana wins" in ruling.reason.en
    outcome = g.outcome(s)
    assert outcome is not None and outcome.winners == (0,) and not outcome.draw
    refused_with(g, s, peg(1, "F4"), "game_over")
    refused_with(g, s, Resign(1), "game_over")


def test_auto_link_wins_with_the_peg_and_after_a_swap_the_seat_of_the_colour_wins() -> None:
    g = game(size=8, auto_link=True)
    s = play(g, [peg(0, "C1"), Swap(1)])
    moves = [peg(0, "A4"), peg(1, "D3"), peg(0, "A6"), peg(1, "C5"), peg(0, "H3"), peg(1, "D7"), peg(0, "H5")]
    s = play(g, moves, s)
    s, ruling = g.apply(s, peg(1, "B8"))
    assert ruling.reason.code == "connection" and "Ben wins" in ruling.reason.en
    assert g.outcome(s).winners == (1,)


def test_black_wins_by_joining_left_and_right() -> None:
    g = game(size=8, auto_link=True)
    red = ["D2", "D4", "E6", "F2"]
    black = ["A3", "C4", "E3", "G4", "H6"]
    moves: list[TwixtAction] = []
    for i, hole in enumerate(black):
        if i < len(red):
            moves.append(peg(0, red[i]))
        else:
            moves.append(peg(0, "B7"))
        moves.append(peg(1, hole))
    s = g.initial_state()
    for action in moves[:-1]:
        s = play(g, [action], s)
    s, ruling = g.apply(s, moves[-1])
    assert ruling.reason.code == "connection" and g.outcome(s).winners == (1,)


# -- the draw --------------------------------------------------------------------------------
# A PP game on 6 x 6 (no pie) whose last peg leaves neither colour a way to connect.
PP_DRAW = ("C1 C2 E1 A4 B3 F3 B4 C3 D1 A3 B6 B5 C6 A5 E4 C4 D5 F2 B1 A2 D4 E5 C5 D3 E3 F5 D2 F4 E2").split()  # noqa: SIM905


def fill_and_link(g: TwixtGame, state: TwixtState, colour: int) -> TwixtState:
    """``colour`` pegs every hole left to it and adds every link the other colour's links allow."""
    b = g.board
    other = state.pegs[1 - colour]
    pegs = frozenset(h for h in b.allowed[colour] if h not in other)
    links = {
        lid
        for a in pegs
        for nb, lid in b.neighbours[a]
        if nb in pegs and not any(x in state.links[1 - colour] for x in b.crosses[lid])
    }
    new_pegs = (pegs, state.pegs[1]) if colour == 0 else (state.pegs[0], pegs)
    new_links = (frozenset(links), state.links[1]) if colour == 0 else (state.links[0], frozenset(links))
    return TwixtState(new_pegs, new_links, state.turn, state.placed, state.swapped, state.last)


def reference_connected(g: TwixtGame, state: TwixtState, colour: int) -> bool:
    """Breadth-first search over the colour's links, independent of the bitboards."""
    b = g.board
    adjacent: dict[int, set[int]] = {}
    for lid in state.links[colour]:
        a, e = b.link_ends(lid)
        adjacent.setdefault(a, set()).add(e)
        adjacent.setdefault(e, set()).add(a)
    axis = 1 if colour == 0 else 0
    todo = deque(h for h in state.pegs[colour] if b.xy(h)[axis] == 0)
    seen = set(todo)
    while todo:
        h = todo.popleft()
        if b.xy(h)[axis] == g.size - 1:
            return True
        for nb in adjacent.get(h, ()):
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return False


def test_pp_draw_is_declared_on_the_move_that_blocks_the_last_way() -> None:
    g = game("PP", size=6, auto_link=True, pie=False)
    moves = [peg(i % 2, h) for i, h in enumerate(PP_DRAW)]
    s = play(g, moves[:-1])
    assert g.outcome(s) is None and (g.can_connect(s, 0) or g.can_connect(s, 1))
    s, ruling = g.apply(s, moves[-1])
    assert ruling.valid and ruling.reason.code == "no_connection"
    assert "drawn" in ruling.reason.en and "nulle" in ruling.reason.fr
    outcome = g.outcome(s)
    assert outcome is not None and outcome.draw and outcome.winners == ()
    # sound: even pegging every hole left and linking everything allowed connects neither colour
    for colour in (0, 1):
        filled = fill_and_link(g, s, colour)
        assert not g.connected(filled, colour) and not reference_connected(g, filled, colour)


def test_standard_draw_on_a_position_where_knight_steps_only_meet_opposing_pegs() -> None:
    # Interior filled like a checkerboard: every knight step changes square colour, so each
    # colour's pegs only neighbour the other's. Standard rules: links may be removed, only pegs block.
    g = game("standard", size=6)
    cells = [(x, y) for y in range(1, 5) for x in range(1, 5)]
    red = [f"{chr(65 + x)}{y + 1}" for x, y in cells if (x + y) % 2 == 0 and (x, y) != (1, 1)]
    black = [f"{chr(65 + x)}{y + 1}" for x, y in cells if (x + y) % 2 == 1]
    s = position(g, red=red, black=black, turn=0, placed=False)
    assert g.can_connect(s, 1) and not g.can_connect(s, 0)  # black still has a way through B2
    s, ruling = g.apply(s, peg(0, "B2"))
    assert ruling.reason.code == "no_connection" and g.outcome(s).draw


def test_never_a_draw_while_a_connection_is_possible_pp() -> None:
    """Under PP the relaxation is exact when the other colour stops playing: it says 'cannot
    connect' exactly when filling every hole left and linking everything allowed fails."""
    g = game("PP", size=7, auto_link=True)
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        s = g.initial_state()
        for _ in range(rng.randrange(5, 40)):
            action = g.sample_action(s, rng)
            if action is None or isinstance(action, Resign | AgreeDraw):
                break
            s = play(g, [action], s)
        for colour in (0, 1):
            filled = fill_and_link(g, s, colour)
            possible = reference_connected(g, filled, colour)
            assert g.can_connect(s, colour) == possible, (seed, colour, g.state_to_json(s))
            checked += 1
    assert checked == 60


def test_win_check_agrees_with_breadth_first_search() -> None:
    for mode in ("standard", "PP"):
        g = game(mode, size=8, auto_link=True)
        for seed in range(40):
            rng = random.Random(seed)
            s = g.initial_state()
            while (action := g.sample_action(s, rng)) is not None:
                if isinstance(action, AgreeDraw):  # also what the sampler does on a full board
                    break
                if isinstance(action, Resign):
                    continue
                s = play(g, [action], s)
                for colour in (0, 1):
                    assert g.connected(s, colour) == reference_connected(g, s, colour)


# -- endings and passes ----------------------------------------------------------------------
def test_resignation_and_agreed_draw_end_the_game() -> None:
    g = game()
    s = play(g, [peg(0, "E5")])
    resigned, ruling = g.apply(s, Resign(1))
    assert ruling.reason.code == "resign" and g.outcome(resigned).winners == (0,)
    assert "abandonne" in ruling.reason.fr
    drawn, ruling = g.apply(s, AgreeDraw())
    assert g.outcome(drawn).draw and g.outcome(drawn).reason.code == "agreed_draw"
    refused_with(g, drawn, AgreeDraw(), "game_over")
    assert g.sample_action(drawn, random.Random(0)) is None and g.legal_actions(drawn) == []


def test_pass_only_without_a_hole_left() -> None:
    g = game(size=5)
    s = play(g, [peg(0, "C3")])
    refused_with(g, s, Pass(1), "cannot_pass")
    # red has every hole it may use except one; black holds the rest of the middle
    b = g.board
    red_holes = [b.names[h] for h in b.allowed_sorted[0]]
    blocked = position(g, red=red_holes[:4] + red_holes[5:], black=[red_holes[4]], turn=1, placed=True)
    assert not g.free_holes(blocked, 0)
    s, ruling = g.apply(blocked, Pass(0))
    assert ruling.valid and (s.turn, s.placed) == (0, True)
    assert Pass(0) in g.legal_actions(blocked)


# -- legal actions, JSON and configuration -----------------------------------------------------
def test_legal_actions_are_exactly_the_ones_that_apply() -> None:
    g = game("standard", size=6)
    rng = random.Random(3)
    s = g.initial_state()
    for _ in range(12):
        legal = g.legal_actions(s)
        assert legal and all(g.judge(s, a).applies for a in legal)
        candidates = [Place(seat, g.board.xy(h)) for seat in (0, 1) for h in g.board.holes]
        applying = {a for a in candidates if g.judge(s, a).applies}
        assert applying == {a for a in legal if isinstance(a, Place)}
        action = g.sample_action(s, rng)
        if action is None or isinstance(action, Resign | AgreeDraw):
            break
        s = play(g, [action], s)


@pytest.mark.parametrize(
    "obj",
    [
        {"type": "jump", "player": 0},
        {"type": "peg", "player": 0},
        {"type": "peg", "player": 0, "at": "ZZ"},
        {"type": "peg", "player": 2, "at": "D4"},
        {"type": "link", "player": 0, "from": "D4"},
        {"player": 0},
    ],
)
def test_malformed_actions_raise(obj: dict[str, object]) -> None:
    with pytest.raises(MalformedAction):
        game().parse_action(obj)


def test_actions_round_trip_through_json_and_accept_player_names() -> None:
    g = game()
    for action in [peg(0, "D4"), link(1, "D4", "E6"), unlink(0, "D4", "E6"), Swap(1), Pass(0), Resign(1)]:
        assert g.parse_action(json.loads(json.dumps(g.action_to_json(action)))) == action
    assert g.parse_action({"type": "agree_draw"}) == AgreeDraw()
    assert g.parse_action({"type": "peg", "player": "Ben", "at": "d4"}) == peg(1, "D4")


def test_broken_states_are_refused() -> None:
    g = game(size=10)
    good = g.state_to_json(position(g, red=["D4", "F5"], black=["E4", "F6"]))
    for change in (
        {"pegs": [["A1"], []]},
        {"pegs": [["A5"], []]},
        {"pegs": [["D4"], ["D4"]]},
        {"links": [["D4-F5"], ["E4-F6"]]},
        {"links": [["D4-E4"], []]},
        {"turn": 3},
        {"result": "connection", "winner": 0},
    ):
        with pytest.raises(InvalidState):
            g.state_from_json({**good, **change})
    assert g.state_from_json(good) == position(g, red=["D4", "F5"], black=["E4", "F6"])


@pytest.mark.parametrize(
    ("mode", "options"),
    [
        ("standard", {"size": 4}),
        ("standard", {"size": "24"}),
        ("standard", {"colours": ["red", "red"]}),
        ("standard", {"auto_link": 1}),
        ("standard", {"links": "auto"}),
        ("3M", {}),
    ],
)
def test_bad_configurations_are_refused(mode: str, options: dict[str, object]) -> None:
    with pytest.raises(InvalidConfig):
        make_game("twixt", ["Ana", "Ben"], mode=mode, options=options)
    with pytest.raises(InvalidConfig):
        make_game("twixt", ["Ana", "Ben", "Cy"])


def test_colours_are_configurable_and_named_in_both_languages() -> None:
    g = game(colours=["white", "black"])
    s, ruling = g.apply(play(g, [peg(0, "E5")]), Swap(1))
    assert ruling.reason.en == (
        "Ben swaps: the peg at E5 stays and becomes Ben's; Ben now plays white, Ana plays black "
        "and moves next."
    )
    assert ruling.reason.fr == (
        "Ben échange : le picot en E5 reste et devient celui de Ben ; Ben joue maintenant avec les picots "
        "blancs ; Ana prend les picots noirs et joue le coup suivant."
    )
    assert [p["colour"] for p in g.scores(s)["players"]] == ["black", "white"]


def reference_can_connect_standard(g: TwixtGame, state: TwixtState, colour: int) -> bool:
    """Standard rules' relaxation by breadth-first search: any link may still be removed by its
    owner, so a path may use the colour's pegs and every free hole it may peg, by knight steps."""
    b = g.board
    other = state.pegs[1 - colour]
    usable = {h for h in b.allowed[colour] if h not in other}
    axis = 1 if colour == 0 else 0
    todo = deque(h for h in usable if b.xy(h)[axis] == 0)
    seen = set(todo)
    while todo:
        h = todo.popleft()
        if b.xy(h)[axis] == g.size - 1:
            return True
        for nb, _ in b.neighbours[h]:
            if nb in usable and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return False


def test_standard_draw_check_agrees_with_breadth_first_search() -> None:
    """Under standard rules the draw check ignores links (each may still be removed): on random
    peg layouts it must say 'can connect' exactly when a knight path through own pegs and free
    holes exists."""
    g = game("standard", size=6)
    b = g.board
    rng = random.Random(5)
    verdicts = set()
    for _ in range(300):
        density = rng.uniform(0.2, 0.8)
        pegs: tuple[set[int], set[int]] = (set(), set())
        for h in b.holes:
            if rng.random() < density:
                colour = rng.randrange(2)
                if h in b.allowed[colour]:
                    pegs[colour].add(h)
        s = TwixtState(pegs=(frozenset(pegs[0]), frozenset(pegs[1])))
        for colour in (0, 1):
            expected = reference_can_connect_standard(g, s, colour)
            assert g.can_connect(s, colour) == expected, (colour, g.state_to_json(s))
            verdicts.add(expected)
        assert g.is_dead_draw(s) == (not any(reference_can_connect_standard(g, s, c) for c in (0, 1)))
    assert verdicts == {True, False}


@pytest.mark.parametrize(
    ("mode", "owner", "existing", "new", "code"),
    [
        ("standard", "own", "D4-F5", "E4-F6", "crosses_own"),
        ("standard", "opposing", "D4-F5", "E4-F6", "crosses_opponent"),
        ("PP", "own", "D4-F5", "E4-F6", "link"),
        ("PP", "opposing", "D4-F5", "E4-F6", "crosses_opponent"),
        ("standard", "own", "D4-F5", "F5-G7", "link"),  # sharing a peg is not crossing
        ("standard", "opposing", "D4-F5", "D5-F6", "link"),  # parallel, one row apart
        ("PP", "opposing", "E4-F6", "D4-F5", "crosses_opponent"),
    ],
)
def test_crossing_table_in_both_rule_sets(mode: str, owner: str, existing: str, new: str, code: str) -> None:
    g = game(mode, size=10)
    a, b = existing.split("-")
    c, d = new.split("-")
    if owner == "own":
        s = position(g, red=sorted({a, b, c, d}), red_links=[existing])
    else:
        s = position(g, red=[c, d], black=[a, b], black_links=[existing])
    s2, ruling = g.apply(s, link(0, c, d))
    assert ruling.reason.code == code, ruling.reason.en
    assert ruling.applies is (code == "link")
    assert not g.check_state(s2)
