"""Game records as JSON lines: a header, then one action per line.

    {"record": "tableref", "version": 1, "game": "themind", "players": ["Ana", "Ben"],
     "mode": "normal", "options": {}}
    {"type": "deal", "hands": [[12], [40]]}
    {"type": "play", "player": 0, "card": 12}

Rulings are derived by replaying the actions, never read from the file. Every action in a record
must apply (see :class:`~referee.types.Ruling`): a line whose ruling does not apply stops a replay.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import MalformedRecord, RefereeError
from referee.protocol import Game
from referee.registry import make_game
from referee.types import JSON, Ruling

RECORD_TAG = "tableref"
RECORD_VERSION = 1


@dataclass(frozen=True)
class ReplayStep:
    """One replayed record line."""

    line: int
    """1-based line number in the record."""
    action: Any
    """The parsed action."""
    ruling: Ruling
    """The referee's ruling on it."""
    state: Any
    """The state after it."""


def header_line(game: Game) -> str:
    """The first line of a record of ``game``."""
    return json.dumps({"record": RECORD_TAG, "version": RECORD_VERSION, **game.header()}, ensure_ascii=False)


def action_line(game: Game, action: Any) -> str:
    """One record line holding ``action``."""
    return json.dumps(game.action_to_json(action), ensure_ascii=False)


def write_record(game: Game, actions: Iterable[Any]) -> str:
    """The whole record text (header and actions, newline-terminated)."""
    lines = [header_line(game), *(action_line(game, a) for a in actions)]
    return "\n".join(lines) + "\n"


def game_from_header(obj: Mapping[str, JSON], line: int = 1) -> Game:
    """The :class:`Game` a record header describes."""
    if not isinstance(obj, Mapping) or obj.get("record") != RECORD_TAG:
        raise MalformedRecord(f"line {line}: not a tableref record header: {_short(obj)}")
    if obj.get("version") != RECORD_VERSION:
        raise MalformedRecord(
            f"line {line}: record version {obj.get('version')!r} is not supported (expected {RECORD_VERSION})"
        )
    try:
        return make_game(
            str(obj.get("game")),
            players=obj.get("players") or [],
            mode=obj.get("mode"),
            options=obj.get("options") or {},
        )
    except RefereeError as exc:
        raise MalformedRecord(f"line {line}: {exc}") from exc


def _parse_json_line(text: str, line: int) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedRecord(f"line {line}: not JSON ({exc.msg}): {_short(text)}") from exc


def replay_lines(lines: Iterable[str]) -> tuple[Game, Iterator[ReplayStep]]:
    """The game of a record and an iterator over its replayed lines.

    The iterator raises :class:`MalformedRecord` naming the line number on a malformed line or an
    action whose ruling does not apply. Blank lines are skipped.
    """
    numbered = ((i, text) for i, text in enumerate(lines, start=1) if text.strip())
    try:
        first_no, first = next(numbered)
    except StopIteration:
        raise MalformedRecord("line 1: the record is empty (expected a header line)") from None
    game = game_from_header(_parse_json_line(first, first_no), first_no)

    def steps() -> Iterator[ReplayStep]:
        state = game.initial_state()
        for no, text in numbered:
            obj = _parse_json_line(text, no)
            try:
                action = game.parse_action(obj)
            except RefereeError as exc:
                raise MalformedRecord(f"line {no}: {exc}") from exc
            new_state, ruling = game.apply(state, action)
            if not ruling.applies:
                raise MalformedRecord(f"line {no}: illegal action {_short(obj)}: {ruling.reason.en}")
            state = new_state
            yield ReplayStep(no, action, ruling, state)

    return game, steps()


def replay_text(text: str) -> tuple[Game, list[ReplayStep]]:
    """Replays a whole record; returns its game and every step."""
    game, steps = replay_lines(text.splitlines())
    return game, list(steps)


def final_state(game: Game, steps: list[ReplayStep]) -> Any:
    """The state at the end of a replay."""
    return steps[-1].state if steps else game.initial_state()


def _short(obj: Any, limit: int = 120) -> str:
    text = obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."
