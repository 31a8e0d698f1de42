"""``tableref bench referee``: speed of the Twixt referee's checks and of whole Line-it games.

Twixt: seeded random legal games on the full 24 x 24 board (half standard rules, half PP, links
added automatically, pegs placed near own pegs half of the time so that chains grow), played to
their end; every 8th position is measured. On each position: the legal links of the player to
move (every own-peg pair a knight's move apart that no link forbids), the win check of the
colour that just moved, and the draw check (both colours' reachability). Each is compared with a
plain baseline measured in the same run on the same positions (breadth-first search over Python
sets for the win and draw checks, brute-force segment intersection against every link for the
legal links) and the answers must agree.

Line-it: seeded random games through the registry (``make_game("lineit")`` and its
``sample_action``), timed whole, from the empty table to the outcome.
"""

from __future__ import annotations

import logging
import random
import time
from collections import deque
from typing import Any

from referee.registry import make_game
from referee.twixt.actions import Pass, Place, Swap
from referee.twixt.game import TwixtGame
from referee.twixt.state import TwixtState
from web.bench.stats import median, percentile, rounded

log = logging.getLogger(__name__)

MEASURE_EVERY = 8
"""Every how many pegs a position is measured."""


# -- Twixt -------------------------------------------------------------------------------------
def _twixt_game(game: TwixtGame, rng: random.Random) -> tuple[list[tuple[TwixtState, int]], TwixtState]:
    """A random legal game to its end: the measured positions (with the colour that just moved)
    and the final state."""
    b = game.board
    state = game.initial_state()
    out: list[tuple[TwixtState, int]] = []
    seat = 0
    pegs = 0
    while state.result is None:
        if game.swap_available(state) and rng.random() < 0.5:
            state, _ = game.apply(state, Swap(1))
            seat = 0
            continue
        colour = state.colour_of(seat)
        own = sorted(state.pegs[colour])
        hole = None
        if own and rng.random() < 0.5:
            nb = b.neighbours[rng.choice(own)]
            h = nb[rng.randrange(len(nb))][0]
            if h in b.allowed[colour] and h not in state.pegs[0] and h not in state.pegs[1]:
                hole = h
        if hole is None:
            free = game.free_holes(state, colour)
            if not free:
                if not game.free_holes(state, 1 - colour):
                    break
                state, ruling = game.apply(state, Pass(seat))  # no hole left to this colour
                assert ruling.applies, ruling.reason.en
                seat = 1 - seat
                continue
            hole = rng.choice(free)
        state, ruling = game.apply(state, Place(seat, b.xy(hole)))
        assert ruling.applies, ruling.reason.en
        pegs += 1
        if pegs % MEASURE_EVERY == 0:
            out.append((state, colour))
        seat = 1 - seat
    return out, state


def _baseline_connected(game: TwixtGame, state: TwixtState, colour: int) -> bool:
    b = game.board
    adjacent: dict[int, list[int]] = {}
    for lid in state.links[colour]:
        a, e = b.link_ends(lid)
        adjacent.setdefault(a, []).append(e)
        adjacent.setdefault(e, []).append(a)
    axis = 1 if colour == 0 else 0
    start = [h for h in state.pegs[colour] if b.xy(h)[axis] == 0]
    seen = set(start)
    todo = deque(start)
    while todo:
        h = todo.popleft()
        if b.xy(h)[axis] == game.size - 1:
            return True
        for nb in adjacent.get(h, ()):
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return False


def _baseline_can_connect(game: TwixtGame, state: TwixtState, colour: int) -> bool:
    b = game.board
    theirs = state.pegs[1 - colour]
    blocking = state.links[1 - colour] if game.pp else frozenset()
    usable = {h for h in b.allowed[colour] if h not in theirs}
    axis = 1 if colour == 0 else 0
    start = [h for h in usable if b.xy(h)[axis] == 0]
    seen = set(start)
    todo = deque(start)
    while todo:
        h = todo.popleft()
        if b.xy(h)[axis] == game.size - 1:
            return True
        for nb, lid in b.neighbours[h]:
            if nb in usable and nb not in seen and not any(x in blocking for x in b.crosses[lid]):
                seen.add(nb)
                todo.append(nb)
    return False


def _segments_cross(
    p1: tuple[int, int], p2: tuple[int, int], q1: tuple[int, int], q2: tuple[int, int]
) -> bool:
    if len({p1, p2, q1, q2}) < 4:
        return False

    def orient(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> int:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    return orient(q1, q2, p1) * orient(q1, q2, p2) < 0 and orient(p1, p2, q1) * orient(p1, p2, q2) < 0


def _baseline_legal_links(game: TwixtGame, state: TwixtState, colour: int) -> list[int]:
    b = game.board
    pegs = state.pegs[colour]
    blocking = [(lid, c) for c in (0, 1) for lid in state.links[c] if c != colour or not game.pp]
    ends = {lid: tuple(b.xy(h) for h in b.link_ends(lid)) for lid, _ in blocking}
    out = []
    for a in sorted(pegs):
        for nb, lid in b.neighbours[a]:
            if nb > a and nb in pegs and lid not in state.links[colour]:
                p, q = b.xy(a), b.xy(nb)
                if not any(_segments_cross(p, q, *ends[x]) for x, _ in blocking):
                    out.append(lid)
    return sorted(out)


def _timed(fn: Any, *args: Any) -> tuple[float, Any]:
    t0 = time.perf_counter()
    value = fn(*args)
    return (time.perf_counter() - t0) * 1000.0, value


def _twixt(quick: bool, seed: int) -> dict[str, Any]:
    games = 4 if quick else 16
    rng = random.Random(seed)
    times: dict[str, list[float]] = {k: [] for k in ("links", "win", "draw", "links0", "win0", "draw0")}
    positions = 0
    pegs_total = 0
    results: dict[str, int] = {}
    for i in range(games):
        mode = "standard" if i % 2 == 0 else "PP"
        game = make_game("twixt", ("Red", "Black"), mode, {"auto_link": True})
        assert isinstance(game, TwixtGame)
        played, final = _twixt_game(game, rng)
        key = final.result or "board_full"
        results[key] = results.get(key, 0) + 1
        for state, colour in played:
            positions += 1
            pegs_total += state.peg_count
            mover = state.colour_of(state.turn)
            ms, links = _timed(game.legal_links, state, mover)
            times["links"].append(ms)
            ms, won = _timed(game.connected, state, colour)
            times["win"].append(ms)
            ms, dead = _timed(game.is_dead_draw, state)
            times["draw"].append(ms)
            ms, won0 = _timed(_baseline_connected, game, state, colour)
            times["win0"].append(ms)
            ms, can0 = _timed(
                lambda g, s: _baseline_can_connect(g, s, 0) or _baseline_can_connect(g, s, 1), game, state
            )
            times["draw0"].append(ms)
            if won != won0 or dead == can0:
                raise AssertionError(
                    f"twixt checks disagree with the baseline on {game.state_to_json(state)}"
                )
            if positions % 4 == 0:  # the brute-force baseline is slow: every 4th position
                ms, links0 = _timed(_baseline_legal_links, game, state, mover)
                times["links0"].append(ms)
                if links0 != links:
                    raise AssertionError(
                        f"legal links disagree with brute force on {game.state_to_json(state)}"
                    )

    def med(key: str) -> float:
        return rounded(median(times[key]))

    def p95(key: str) -> float:
        return rounded(percentile(times[key], 95.0))

    def ratio(fast: str, slow: str) -> float:
        return rounded(median(times[slow]) / max(median(times[fast]), 1e-9), 2)

    return {
        "random_games": games,
        "ms_legal_links_median": med("links"),
        "ms_win_check_median": med("win"),
        "ms_draw_check_median": med("draw"),
        "ms_legal_links_p95": p95("links"),
        "ms_win_check_p95": p95("win"),
        "ms_draw_check_p95": p95("draw"),
        "positions": positions,
        "pegs_per_position_mean": rounded(pegs_total / max(positions, 1), 1),
        "endings": results,
        "baseline_ms_legal_links_median": med("links0"),
        "baseline_ms_win_check_median": med("win0"),
        "baseline_ms_draw_check_median": med("draw0"),
        "speedup_legal_links": ratio("links", "links0"),
        "speedup_win_check": ratio("win", "win0"),
        "speedup_draw_check": ratio("draw", "draw0"),
    }


# -- Line-it -----------------------------------------------------------------------------------
def _lineit(quick: bool, seed: int) -> dict[str, Any]:
    """Whole random games through the registry, timed from the empty table to the outcome."""
    games = 30 if quick else 200
    per_game: list[float] = []
    actions_total = 0
    ended = 0
    for i in range(games):
        players = [f"P{k + 1}" for k in range(2 + i % 3)]
        game = make_game("lineit", players)
        rng = random.Random(seed * 100_003 + i)
        t0 = time.perf_counter()
        state = game.initial_state()
        for _ in range(100_000):
            action = game.sample_action(state, rng)
            if action is None:
                break
            state, ruling = game.apply(state, action)
            if not ruling.applies:
                raise AssertionError(f"lineit sample_action gave an action that does not apply: {ruling}")
            actions_total += 1
        per_game.append((time.perf_counter() - t0) * 1000.0)
        ended += game.outcome(state) is not None
    return {
        "random_games": games,
        "ms_per_game_median": rounded(median(per_game)),
        "ms_per_game_p95": rounded(percentile(per_game, 95.0)),
        "actions_per_game_mean": rounded(actions_total / games, 1),
        "games_ended": ended,
    }


def run(quick: bool, seed: int) -> dict[str, Any]:
    """The benchmark's JSON object (see the module docstring)."""
    t0 = time.perf_counter()
    twixt = _twixt(quick, seed)
    log.info("twixt part took %.1f s", time.perf_counter() - t0)
    t0 = time.perf_counter()
    lineit = _lineit(quick, seed)
    log.info("lineit part took %.1f s", time.perf_counter() - t0)
    return {"twixt": twixt, "lineit": lineit}
