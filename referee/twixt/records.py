"""Twixt's foreign records: T1j ``.T1`` files, Little Golem's one-line form and Twixt SGF.

Readers take the file's text and return a tableref JSON-lines record (see :mod:`referee.records`);
:mod:`referee.formats` picks them by suffix, so ``tableref replay game.T1`` works. Each reader
replays the moves while converting and names the line (or move number) of the first illegal one.
Writers take a game and its actions and return the file's text.

All three formats list pegs only: the program that reads them links each new peg automatically,
so the games they give have ``auto_link`` on. Conventions (see docs/records.md, Twixt):

* T1j: the starting player plays top-down; a ``SWAP`` line (or a second move on the first peg's
  hole) is the pie rule, read as tableref's swap: the peg stays, the players exchange colours.
  Standard rules.
* Little Golem: PP rules; moves are two letters, column then row (``fj`` = F10); ``swap`` makes
  the first peg change colour *and* mirror over the diagonal while the players keep their colours.
  That is the same position as tableref's swap seen in a mirror, so every move after a swap is
  mirrored (``transpose``) on the way in and on the way out.
* SGF (``GM[21]``): ``RU[STD]``, ``RU[PP]`` or ``RU[3M]`` (standard rules without the pie rule);
  moves ``D11`` or Little Golem's ``dk``; ``swap`` and ``resign``; the swap as in T1j.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.errors import InvalidConfig, MalformedAction, MalformedRecord
from referee.protocol import GameConfig
from referee.records import write_record
from referee.twixt.actions import Place, Resign, Swap, TwixtAction
from referee.twixt.game import TwixtGame
from referee.twixt.notation import Hole, hole_name, lg_name, parse_hole, parse_lg, transpose

T1_FORMAT_VERSION = "1"
LG_SOURCE = "https://www.littlegolem.net"


@dataclass(frozen=True)
class _Move:
    """One move of a foreign record: a hole, ``"swap"`` or ``"resign"``, and where it was read."""

    where: str
    """``"line 14"`` or ``"move 3"``, for error messages."""
    kind: str
    """``"peg"``, ``"swap"`` or ``"resign"``."""
    hole: Hole | None = None


def _game(players: Sequence[str], mode: str, size: int, pie: bool, source: str) -> TwixtGame:
    names = [p.strip() or f"Player {i + 1}" for i, p in enumerate(players)]
    if names[0] == names[1]:
        names = [f"{names[0]} (1)", f"{names[1]} (2)"]
    try:
        return TwixtGame(GameConfig(tuple(names), mode, {"size": size, "auto_link": True, "pie": pie}))
    except InvalidConfig as exc:
        raise MalformedRecord(f"{source}: {exc}") from exc


def _replay_moves(game: TwixtGame, moves: Iterable[_Move], source: str, mirror_after_swap: bool) -> str:
    """The JSON-lines record of ``moves``, checked move by move."""
    state = game.initial_state()
    actions: list[TwixtAction] = []
    seat = 0
    mirrored = False
    for move in moves:
        if move.kind == "swap":
            action: TwixtAction = Swap(seat)
        elif move.kind == "resign":
            action = Resign(seat)
        else:
            assert move.hole is not None
            hole = transpose(move.hole) if mirrored else move.hole
            # A second move on the first peg's hole is how some programs write the swap.
            first = next(iter(state.pegs[0]), None) if game.swap_available(state) and seat == 1 else None
            if first is not None and game.board.hole_id(hole) == first:
                action = Swap(seat)
            else:
                action = Place(seat, hole)
        new, ruling = game.apply(state, action)
        if not ruling.applies:
            raise MalformedRecord(
                f"{source} {move.where}: illegal move {_move_text(move)}: {ruling.reason.en}"
            )
        if isinstance(action, Swap) and mirror_after_swap:
            mirrored = True
        state = new
        actions.append(action)
        seat = 1 - seat
    return write_record(game, actions)


def _move_text(move: _Move) -> str:
    return hole_name(move.hole) if move.hole is not None else move.kind


# -- T1j ---------------------------------------------------------------------------------------
_T1_FIELDS = (
    "format version",
    "name of player 1",
    "name of player 2",
    "y size",
    "x size",
    "player 1 human or computer",
    "player 2 human or computer",
    "starting player",
    "direction of letters",
    "pie rule",
    "game over",
)


def t1_to_jsonl(text: str) -> str:
    """A T1j ``.T1`` file as a tableref record (standard rules, auto-link).

    The header lines (anything after ``#`` on a line is a comment): format version ``1``, the two
    player names, y size, x size, ``H``/``C`` per player, the starting player (``1`` or ``2``;
    player 1 plays top-down), the direction of letters (``V``: letters name columns; ``H``: letters
    name rows), pie rule ``Y``/``N``, game over ``Y``/``N``; then one move per line (``L10``,
    ``SWAP``). A game started by player 2 is mirrored so that the starter joins top and bottom.
    """
    rows: list[tuple[int, str]] = []
    for no, raw in enumerate(text.splitlines(), start=1):
        value = raw.split("#", 1)[0].strip()
        if value:
            rows.append((no, value))
    if len(rows) < len(_T1_FIELDS):
        raise MalformedRecord(
            f"T1 record: {len(rows)} header lines, expected {len(_T1_FIELDS)} ({', '.join(_T1_FIELDS)})"
        )
    header = dict(zip(_T1_FIELDS, rows, strict=False))

    def field(name: str, allowed: Sequence[str] | None = None) -> str:
        no, value = header[name]
        if allowed is not None and value.upper() not in allowed:
            raise MalformedRecord(f"T1 record line {no}: {name} {value!r}, expected one of {list(allowed)}")
        return value.upper() if allowed is not None else value

    field("format version", (T1_FORMAT_VERSION,))
    sizes = []
    for name in ("y size", "x size"):
        no, value = header[name]
        if not value.isdigit():
            raise MalformedRecord(f"T1 record line {no}: {name} {value!r} is not a number")
        sizes.append(int(value))
    if sizes[0] != sizes[1]:
        raise MalformedRecord(
            f"T1 record: board {sizes[1]} x {sizes[0]} is not square (tableref plays square boards)"
        )
    field("player 1 human or computer", ("H", "C"))
    field("player 2 human or computer", ("H", "C"))
    starter = field("starting player", ("1", "2"))
    letters = field("direction of letters", ("V", "H"))
    pie = field("pie rule", ("Y", "N")) == "Y"
    field("game over", ("Y", "N"))
    names = [header["name of player 1"][1], header["name of player 2"][1]]
    if starter == "2":
        names.reverse()
    game = _game(names, "standard", sizes[0], pie, "T1 record")
    flip = (starter == "2") != (letters == "H")

    def moves() -> Iterable[_Move]:
        for no, value in rows[len(_T1_FIELDS) :]:
            where = f"line {no}"
            if value.upper() == "SWAP":
                yield _Move(where, "swap")
                continue
            try:
                hole = parse_hole(value)
            except MalformedAction as exc:
                raise MalformedRecord(
                    f"T1 record {where}: move {value!r} is not a hole like 'L10' or SWAP"
                ) from exc
            yield _Move(where, "peg", transpose(hole) if flip else hole)

    return _replay_moves(game, moves(), "T1 record", mirror_after_swap=False)


def to_t1(game: TwixtGame, actions: Iterable[TwixtAction]) -> str:
    """The T1j ``.T1`` text of a standard-rules game: its pegs and its swap.

    Links are left out (T1j links each peg automatically), and so are passes, resignations and
    agreed draws (T1j only says whether the game is over).
    """
    if game.pp:
        raise InvalidConfig(
            "T1j plays standard rules; this game uses the PP rules (write it for Little Golem)"
        )
    for name in game.players:
        if "#" in name or "\n" in name:
            raise InvalidConfig(f"player name {name!r} cannot be written in a T1 file (no '#' or line break)")
    state = game.initial_state()
    moves: list[str] = []
    for action in actions:
        state, ruling = game.apply(state, action)
        if not ruling.applies:
            raise MalformedAction(f"illegal action {action.to_json()}: {ruling.reason.en}")
        if isinstance(action, Place):
            moves.append(hole_name(action.at))
        elif isinstance(action, Swap):
            moves.append("SWAP")
    n = game.size
    over = "Y" if game.outcome(state) is not None else "N"
    lines = [
        "# File created by tableref",
        f"{T1_FORMAT_VERSION}# version of file-format",
        f"{game.players[0]}# Name of Player 1",
        f"{game.players[1]}# Name of Player 2",
        f"{n}# y-size of board",
        f"{n}# x-size of board",
        "H# player 1 human or computer",
        "H# player 2 human or computer",
        "1# starting player (1 plays top-down)",
        "V# Direction of letters",
        f"{'Y' if game.pie else 'N'}# pierule?",
        f"{over}# game already over?",
        *moves,
    ]
    return "\n".join(lines) + "\n"


# -- SGF ----------------------------------------------------------------------------------------
_PROP_RE = re.compile(r"\s*([A-Za-z]+)((?:\s*\[(?:[^\]\\]|\\.)*\])+)", re.S)
_VALUE_RE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]", re.S)


def _sgf_main_line(text: str, source: str) -> list[list[tuple[str, list[str]]]]:
    """The nodes of the first game's main line: each a list of ``(property, values)``."""
    pos = text.find("(")
    if pos < 0:
        raise MalformedRecord(f"{source}: no '(' opening an SGF game tree")
    nodes: list[list[tuple[str, list[str]]]] = []
    depth = 0
    i = pos
    done_main = False
    while i < len(text):
        ch = text[i]
        if ch == "(":
            depth += 1
            if nodes and depth > 1 and done_main:
                # a variation after the main line's first branch was taken: skip it
                i = _skip_tree(text, i, source)
                depth -= 1
                continue
            i += 1
        elif ch == ")":
            depth -= 1
            done_main = True
            i += 1
            if depth == 0:
                break
        elif ch == ";":
            if done_main:
                raise MalformedRecord(f"{source}: node after the end of the main line at character {i}")
            i += 1
            props: list[tuple[str, list[str]]] = []
            while True:
                m = _PROP_RE.match(text, i)
                if m is None:
                    break
                props.append((m.group(1), [_unescape(v) for v in _VALUE_RE.findall(m.group(2))]))
                i = m.end()
            nodes.append(props)
        elif ch.isspace():
            i += 1
        else:
            raise MalformedRecord(f"{source}: unexpected {ch!r} at character {i}")
    if depth != 0:
        raise MalformedRecord(f"{source}: unbalanced parentheses")
    return nodes


def _skip_tree(text: str, i: int, source: str) -> int:
    depth = 0
    in_value = False
    while i < len(text):
        ch = text[i]
        if in_value:
            if ch == "\\":
                i += 1
            elif ch == "]":
                in_value = False
        elif ch == "[":
            in_value = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise MalformedRecord(f"{source}: unbalanced parentheses")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value, flags=re.S)


def _sgf_moves(
    nodes: list[list[tuple[str, list[str]]]], source: str
) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    """Root properties and ``(where, colour letter, value)`` of every move node."""
    root: dict[str, str] = {}
    moves: list[tuple[str, str, str]] = []
    for index, props in enumerate(nodes):
        for key, values in props:
            ukey = key.upper()
            if ukey in ("B", "W", "R") and len(key) == 1:
                if len(values) != 1:
                    raise MalformedRecord(f"{source} move {len(moves) + 1}: {key} has {len(values)} values")
                moves.append((f"move {len(moves) + 1}", ukey, values[0].strip()))
            elif index == 0 and values:
                root[ukey] = values[0]
    return root, moves


def _parse_sgf_value(value: str, where: str, source: str) -> _Move:
    low = value.lower()
    if low in ("swap", "resign"):
        return _Move(where, low)
    try:
        if re.fullmatch(r"[a-z]{2}", value):
            return _Move(where, "peg", parse_lg(value))
        return _Move(where, "peg", parse_hole(value))
    except MalformedAction as exc:
        raise MalformedRecord(f"{source} {where}: move {value!r} is not a hole like 'D11' or 'dk'") from exc


def _players_from_moves(root: dict[str, str], moves: list[tuple[str, str, str]]) -> list[str]:
    """Seat 0 is the colour of the first move; its name comes from ``P`` + that colour."""
    letters = [m[1] for m in moves]
    first = letters[0] if letters else "W"
    second = next((c for c in letters if c != first), "B" if first != "B" else "W")
    return [root.get("P" + first, "Player 1"), root.get("P" + second, "Player 2")]


def _check_alternation(moves: list[tuple[str, str, str]], source: str) -> None:
    if not moves:
        return
    first = moves[0][1]
    second = next((c for _, c, _ in moves if c != first), None)
    for index, (where, colour, _) in enumerate(moves):
        if colour != (first if index % 2 == 0 else second):
            raise MalformedRecord(f"{source} {where}: {colour} moves out of turn (moves alternate)")


def _size(root: dict[str, str], source: str) -> int:
    value = root.get("SZ", "24").strip()
    if ":" in value:
        cols, rows = value.split(":", 1)
        if cols != rows:
            raise MalformedRecord(f"{source}: board SZ[{value}] is not square")
        value = cols
    if not value.isdigit():
        raise MalformedRecord(f"{source}: board size SZ[{value}] is not a number")
    return int(value)


def sgf_to_jsonl(text: str) -> str:
    """A Twixt SGF game (``GM[21]``) as a tableref record (auto-link; rules from ``RU``)."""
    source = "SGF record"
    root, moves = _sgf_moves(_sgf_main_line(text, source), source)
    gm = root.get("GM", "21").strip()
    if gm != "21":
        raise MalformedRecord(f"{source}: GM[{gm}] is not Twixt (expected GM[21])")
    rules = root.get("RU", "STD").strip().upper()
    if rules not in ("STD", "PP", "3M", "STANDARD"):
        raise MalformedRecord(f"{source}: rule set RU[{rules}], expected STD, PP or 3M")
    _check_alternation(moves, source)
    mode = "PP" if rules == "PP" else "standard"
    game = _game(_players_from_moves(root, moves), mode, _size(root, source), rules != "3M", source)
    parsed = (_parse_sgf_value(value, where, source) for where, _, value in moves)
    return _replay_moves(game, parsed, source, mirror_after_swap=False)


# -- Little Golem -------------------------------------------------------------------------------
_LG_NUMBER_RE = re.compile(r"^\d+\.+")


def littlegolem_to_jsonl(text: str) -> str:
    """Little Golem's one-line game (PP rules, auto-link) as a tableref record.

    Either the one-line SGF Little Golem gives,
    ``(;FF[4]EV[twixt.ladder]PW[Ana]PB[Ben]SZ[24]SO[...];w[fj];b[swap];w[dk];b[resign])``
    (the first player's moves are ``w`` or ``r``, the second's ``b``), or the bare move list
    ``1.fj 2.swap 3.dk 4.resign``. A move after a swap is mirrored (see the module docstring).
    """
    source = "Little Golem record"
    body = text.strip()
    if body.startswith("("):
        root, raw = _sgf_moves(_sgf_main_line(body, source), source)
        _check_alternation(raw, source)
        names = _players_from_moves(root, raw)
        size = _size(root, source)
        moves = [_parse_lg_move(value, where, source) for where, _, value in raw]
    else:
        names = ["Player 1", "Player 2"]
        size = 24
        moves = []
        for token in re.split(r"[\s,;]+", body):
            token = _LG_NUMBER_RE.sub("", token)
            if token:
                moves.append(_parse_lg_move(token, f"move {len(moves) + 1}", source))
    game = _game(names, "PP", size, True, source)
    return _replay_moves(game, moves, source, mirror_after_swap=True)


def _parse_lg_move(value: str, where: str, source: str) -> _Move:
    low = value.strip().lower()
    if low in ("swap", "resign"):
        return _Move(where, low)
    try:
        return _Move(where, "peg", parse_lg(low))
    except MalformedAction as exc:
        raise MalformedRecord(
            f"{source} {where}: move {value!r} is not two letters like 'fj', 'swap' or 'resign'"
        ) from exc


def to_littlegolem(game: TwixtGame, actions: Iterable[TwixtAction]) -> str:
    """Little Golem's one-line form of a PP game: its pegs, swap and resignation.

    Links are left out (Little Golem links each peg automatically), and so are passes and agreed
    draws. Moves after a swap are mirrored to Little Golem's convention. A resignation is written
    as the move of the player to move, as Little Golem records it.
    """
    if not game.pp:
        raise InvalidConfig("Little Golem plays the PP rules; this game uses standard rules (write it as T1)")
    for name in game.players:
        if any(ch in name for ch in "[]\\\n"):
            raise InvalidConfig(f"player name {name!r} cannot be written in a Little Golem record")
    state = game.initial_state()
    moves: list[str] = []
    mirrored = False
    for action in actions:
        state, ruling = game.apply(state, action)
        if not ruling.applies:
            raise MalformedAction(f"illegal action {action.to_json()}: {ruling.reason.en}")
        if isinstance(action, Place):
            moves.append(lg_name(transpose(action.at) if mirrored else action.at))
        elif isinstance(action, Swap):
            moves.append("swap")
            mirrored = True
        elif isinstance(action, Resign):
            moves.append("resign")
    colours = "wb"
    body = "".join(f";{colours[i % 2]}[{m}]" for i, m in enumerate(moves))
    header = (
        f"(;FF[4]EV[twixt.tableref]PW[{game.players[0]}]PB[{game.players[1]}]SZ[{game.size}]SO[{LG_SOURCE}]"
    )
    return header + body + ")\n"
