"""``tableref replay RECORD [--json]``: replay a game record, print each ruling and the scores.

Reads tableref's JSON-lines records and, through :mod:`referee.formats`, the foreign formats a
game registers (Twixt's ``.T1``, Little Golem and SGF). A malformed or illegal line stops the
replay with exit code 2 and one line naming the line number and the reason.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from referee.errors import MalformedRecord
from referee.formats import load_record_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", type=Path, help="a .jsonl record (or a format the game reads)")
    parser.add_argument("--json", action="store_true", help="one JSON object per ruling, then the result")
    parser.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the reasons")


def run(args: argparse.Namespace) -> int:
    path: Path = args.record
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise MalformedRecord(f"cannot read record {str(path)!r}: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedRecord(f"record {str(path)!r} is not UTF-8 text") from exc
    from referee.records import replay_lines

    game, steps = replay_lines(load_record_text(path.name, text).splitlines())
    out = sys.stdout
    state = game.initial_state()
    for step in steps:
        state = step.state
        if args.json:
            out.write(
                json.dumps(
                    {
                        "line": step.line,
                        "action": game.action_to_json(step.action),
                        "ruling": step.ruling.to_json(),
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
        else:
            reason = getattr(step.ruling.reason, args.lang)
            out.write(f"{step.line:4d}  {step.ruling.verdict.value:9s} {reason}\n")
    outcome = game.outcome(state)
    scores = game.scores(state)
    if args.json:
        out.write(
            json.dumps(
                {"final": True, "scores": scores, "outcome": outcome.to_json() if outcome else None},
                ensure_ascii=False,
            )
            + "\n"
        )
    else:
        out.write(f"scores: {json.dumps(scores, ensure_ascii=False)}\n")
        if outcome is None:
            out.write("outcome: game not finished\n")
        else:
            names = ", ".join(game.players[i] for i in outcome.winners) or "-"
            out.write(f"outcome: {getattr(outcome.reason, args.lang)} (winners: {names})\n")
    return 0
