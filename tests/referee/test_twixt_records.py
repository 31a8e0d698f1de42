"""Twixt's foreign records: T1j and Little Golem round trips (read, replay, write: same moves),
SGF reading, the swap conventions and one-line errors naming the line."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from referee.errors import InvalidConfig, MalformedRecord
from referee.formats import load_record_text
from referee.records import replay_text
from referee.registry import make_game
from referee.twixt.actions import AgreeDraw, Place, Resign, Swap
from referee.twixt.game import TwixtGame
from referee.twixt.records import littlegolem_to_jsonl, sgf_to_jsonl, t1_to_jsonl, to_littlegolem, to_t1

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "records"


def t1_moves(text: str) -> list[str]:
    return [line.split("#")[0].strip() for line in text.splitlines() if line.strip() and "#" not in line]


def lg_moves(text: str) -> list[str]:
    return re.findall(r";[wrb]\[([^\]]*)\]", text)


def replayed(jsonl: str) -> tuple[TwixtGame, list[object], object]:
    game, steps = replay_text(jsonl)
    assert isinstance(game, TwixtGame)
    return game, [s.action for s in steps], steps[-1].state if steps else game.initial_state()


def test_t1_example_round_trips() -> None:
    text = (EXAMPLES / "twixt-t1j.T1").read_text(encoding="utf-8")
    game, actions, final = replayed(t1_to_jsonl(text))
    assert game.mode == "standard" and game.auto_link and game.pie and game.size == 24
    assert game.players == ("Alice", "Bruno")
    assert game.outcome(final) is not None and game.outcome(final).winners
    written = to_t1(game, actions)
    assert t1_moves(written) == t1_moves(text) and len(t1_moves(text)) > 50
    assert written == text
    again = replayed(t1_to_jsonl(written))
    assert again[2] == final


def test_little_golem_example_round_trips() -> None:
    text = (EXAMPLES / "twixt-littlegolem.lg").read_text(encoding="utf-8")
    game, actions, final = replayed(littlegolem_to_jsonl(text))
    assert game.mode == "PP" and game.auto_link
    assert "swap" in lg_moves(text)
    written = to_littlegolem(game, actions)
    assert lg_moves(written) == lg_moves(text)
    assert replayed(littlegolem_to_jsonl(written))[2] == final


@pytest.mark.parametrize("seed", range(6))
def test_random_games_round_trip_through_t1_and_little_golem(seed: int) -> None:
    for mode, write, read in (("standard", to_t1, t1_to_jsonl), ("PP", to_littlegolem, littlegolem_to_jsonl)):
        game = make_game("twixt", ["Ana", "Ben"], mode=mode, options={"size": 12, "auto_link": True})
        rng = random.Random(seed)
        state = game.initial_state()
        actions = []
        while (action := game.sample_action(state, rng)) is not None:
            if isinstance(action, AgreeDraw) or (isinstance(action, Resign) and mode == "standard"):
                break  # neither written by T1j, nor an agreed draw by Little Golem
            if isinstance(action, Resign) and action.player != (
                1 - state.turn if state.placed else state.turn
            ):
                continue  # Little Golem writes a resignation as the move of the player to move
            state, _ = game.apply(state, action)
            actions.append(action)
        text = write(game, actions)
        game2, actions2, final2 = replayed(read(text))
        kinds = (Place, Swap, Resign)
        assert [a for a in actions2 if isinstance(a, kinds)] == [a for a in actions if isinstance(a, kinds)]
        assert final2.pegs == state.pegs and final2.swapped == state.swapped
        assert write(game2, actions2) == text


def test_little_golem_swap_mirrors_the_moves_that_follow() -> None:
    jsonl = littlegolem_to_jsonl("1.fj 2.swap 3.dk 4.resign")
    lines = [json.loads(line) for line in jsonl.splitlines()]
    assert lines[0]["mode"] == "PP" and lines[0]["options"]["size"] == 24
    assert lines[1:] == [
        {"type": "peg", "player": 0, "at": "F10"},
        {"type": "swap", "player": 1},
        {"type": "peg", "player": 0, "at": "K4"},  # dk = D11, mirrored over the diagonal
        {"type": "resign", "player": 1},
    ]
    game, actions, _ = replayed(jsonl)
    assert to_littlegolem(game, actions).endswith(";w[fj];b[swap];w[dk];b[resign])\n")


def test_t1_started_by_player_two_is_mirrored_so_the_starter_plays_top_down() -> None:
    header = "1\nAlice\nBruno\n24\n24\nH\nH\n2# starting player (1 plays top-down)\nV\nY\nN\n"
    # T1j: Bruno (player 2) starts and joins left and right; Alice (player 1) plays top-down
    lines = [json.loads(line) for line in t1_to_jsonl(header + "L13\nC5\nA7\n").splitlines()]
    assert lines[0]["players"] == ["Bruno", "Alice"]
    assert lines[1:] == [
        {"type": "peg", "player": 0, "at": "M12"},
        {"type": "peg", "player": 1, "at": "E3"},
        {"type": "peg", "player": 0, "at": "G1"},  # A7: Bruno's own left column, top row here
    ]


def test_t1_second_move_on_the_first_hole_is_a_swap() -> None:
    text = (EXAMPLES / "twixt-t1j.T1").read_text(encoding="utf-8").replace("SWAP", "L13")
    lines = [json.loads(line) for line in t1_to_jsonl(text).splitlines()]
    assert lines[2] == {"type": "swap", "player": 1}


def test_sgf_example_and_rule_sets() -> None:
    text = (EXAMPLES / "twixt-pp.sgf").read_text(encoding="utf-8")
    game, actions, final = replayed(sgf_to_jsonl(text))
    assert game.mode == "PP" and game.players == ("Chloé", "David")
    assert isinstance(actions[1], Swap) and game.outcome(final) is not None
    small = "(;FF[4]GM[21]SZ[8]RU[3M]PB[Ben]PW[Ana];W[C1];B[A4](;W[D3])(;W[E3]))"
    game, actions, _ = replayed(sgf_to_jsonl(small))
    assert game.mode == "standard" and not game.pie and game.size == 8 and game.players == ("Ana", "Ben")
    assert [a.at for a in actions] == [(2, 0), (0, 3), (3, 2)]  # the main line only
    lg_style = "(;GM[21]SZ[8]RU[STD];B[cf];W[swap];B[ad])"
    assert json.loads(sgf_to_jsonl(lg_style).splitlines()[1])["at"] == "C6"


@pytest.mark.parametrize(
    ("reader", "text", "expected"),
    [
        (t1_to_jsonl, "1\nA\nB\n24\n", "4 header lines, expected 11"),
        (t1_to_jsonl, "2\nA\nB\n24\n24\nH\nH\n1\nV\nY\nN\n", "line 1: format version '2'"),
        (t1_to_jsonl, "1\nA\nB\n24\n20\nH\nH\n1\nV\nY\nN\n", "not square"),
        (t1_to_jsonl, "1\nA\nB\n24\n24\nH\nX\n1\nV\nY\nN\n", "line 7: player 2 human or computer"),
        (t1_to_jsonl, "1\nA\nB\n24\n24\nH\nH\n1\nV\nY\nN\nL10\nhello\n", "line 13: move 'hello'"),
        (t1_to_jsonl, "1\nA\nB\n24\n24\nH\nH\n1\nV\nY\nN\nL10\nE1\n", "line 13: illegal move E1"),
        (t1_to_jsonl, "1\nA\nB\n30\n30\nH\nH\n1\nV\nY\nN\n", "size 30"),
        (littlegolem_to_jsonl, "fj swap F10", "move 3: move 'F10'"),
        (littlegolem_to_jsonl, "fj gk fj", "move 3: illegal move F10"),
        (littlegolem_to_jsonl, "(;SZ[24];w[fj];w[gk])", "move 2: W moves out of turn"),
        (sgf_to_jsonl, "(;GM[1]SZ[19];B[dd])", "GM[1] is not Twixt"),
        (sgf_to_jsonl, "(;GM[21]RU[XX];B[D4])", "rule set RU[XX]"),
        (sgf_to_jsonl, "(;GM[21];B[A1])", "move 1: illegal move A1"),
        (sgf_to_jsonl, "no tree", "no '('"),
        (sgf_to_jsonl, "(;GM[21];B[D4]", "unbalanced"),
    ],
)
def test_malformed_records_raise_one_line_errors(reader: object, text: str, expected: str) -> None:
    with pytest.raises(MalformedRecord) as info:
        reader(text)  # type: ignore[operator]
    message = str(info.value)
    assert expected in message and "\n" not in message, message


def test_writers_refuse_the_other_rule_set() -> None:
    pp = make_game("twixt", ["Ana", "Ben"], mode="PP")
    std = make_game("twixt", ["Ana", "Ben"])
    with pytest.raises(InvalidConfig):
        to_t1(pp, [])
    with pytest.raises(InvalidConfig):
        to_littlegolem(std, [])


def test_formats_dispatch_by_suffix() -> None:
    text = (EXAMPLES / "twixt-t1j.T1").read_text(encoding="utf-8")
    assert load_record_text("game.T1", text) == t1_to_jsonl(text)
    jsonl = (EXAMPLES / "twixt-standard.jsonl").read_text(encoding="utf-8")
    assert load_record_text("game.jsonl", jsonl) == jsonl
