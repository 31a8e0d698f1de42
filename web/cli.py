"""The ``tableref`` command line.

Each subcommand lives in its own module under :mod:`web.commands` with two functions,
``add_arguments(parser)`` and ``run(args) -> int``; modules are imported only when their
command runs, so a slow import (onnxruntime, FastAPI) never slows the others. Bad input exits
with code 2 and one line naming the input and what was expected.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

log = logging.getLogger(__name__)

# command -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("web.commands.demo", "play a rendered Twin It game live and open the dashboard"),
    "serve": ("web.commands.serve", "referee a real table from a camera, stream or file"),
    "replay": ("web.commands.replay", "replay a game record and print each ruling"),
    "recognize": ("web.commands.recognize", "find every card in an image"),
    "match": ("web.commands.match", "judge whether two card crops show the same pattern"),
    "read": ("web.commands.read", "read a number card's number and colour"),
    "enroll": ("web.commands.enroll", "enrol a real deck from the camera or a folder of photos"),
    "board": ("web.commands.board", "read a Twixt or Go board from an image"),
    "calibrate": ("web.commands.calibrate", "find the board and table, write a calibration profile"),
    "render": ("web.commands.render", "render a table scene or scenario with its truth"),
    "train": ("web.commands.train", "rebuild an ONNX model from rendered data"),
    "bench": ("web.commands.bench", "measure speed and accuracy (cards, identity, referee, twixt, live)"),
}


class CliError(Exception):
    """Bad command-line input: printed as one line, exit code 2."""


def _input_error_types() -> tuple[type[BaseException], ...]:
    """Errors that mean "bad input" across the packages (each a ``ValueError`` family)."""
    types: list[type[BaseException]] = [CliError]
    for module, name in (
        ("referee.errors", "RefereeError"),
        ("vision.errors", "InputError"),
        ("calibration.errors", "InputError"),
        ("models.errors", "ModelError"),
    ):
        try:
            types.append(getattr(importlib.import_module(module), name))
        except (ImportError, AttributeError):
            continue
    return tuple(types)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tableref", description="A camera companion that recognises table games and referees them."
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-vv: debug)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_module, help_text) in COMMANDS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    # First pass: global flags and the command name; the command's own parser takes the rest.
    top, rest = parser.parse_known_args(argv)
    if top.command is None:
        parser.print_help()
        return 2
    logging.basicConfig(
        level=logging.WARNING - 10 * min(top.verbose, 2),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    module_name, help_text = COMMANDS[top.command]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            print(f"tableref: error: command {top.command!r} is not available yet", file=sys.stderr)
            return 2
        raise
    sub = argparse.ArgumentParser(prog=f"tableref {top.command}", description=help_text)
    module.add_arguments(sub)
    args = sub.parse_args(rest)
    args.verbose = top.verbose
    try:
        return int(module.run(args) or 0)
    except _input_error_types() as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"tableref {top.command}: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
