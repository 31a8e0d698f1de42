"""``tableref serve --game G [--mode M] [--players A,B] [--source S] [--profile F] [--deck DIR] [--host H]
[--port P]``: referee a real table from a camera, stream or file and serve the dashboard.

``--deck DIR`` (Twin It): the players' deck enrolled with ``tableref enroll --deck twinit ... --out DIR``;
slaps are then judged against it (``EnrolledJudge``), not by the pair judge alone.

The game is resumed from the event store (``--data``) when the last one with the same players,
mode and options is unfinished; ``--new`` starts afresh.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from referee.registry import game_names

SEATS = ("bottom", "left", "top", "right")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=game_names(), default="twinit", help="the game refereed")
    parser.add_argument("--mode", default=None, help="the game's mode (default: its first)")
    parser.add_argument("--players", default="Ana,Ben", help="player names, comma-separated, in seat order")
    parser.add_argument("--seats", default="", help="image edge of each player, e.g. bottom,top")
    parser.add_argument("--options", default="{}", help="game options as a JSON object")
    parser.add_argument("--source", default="0", help="camera index, device path, stream URL or video file")
    parser.add_argument("--profile", type=Path, default=None, help="calibration profile file")
    parser.add_argument(
        "--deck",
        type=Path,
        default=None,
        help="Twin It: an enrolled deck's folder (tableref enroll ... --out DIR)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on (default loopback)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--data", type=Path, default=Path(".tableref"), help="event store folder")
    parser.add_argument("--new", action="store_true", help="start a new game instead of resuming")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")


def settings_from(args: argparse.Namespace, **extra: object):
    from pydantic import ValidationError

    from web.cli import CliError
    from web.settings import Settings

    try:
        options = json.loads(args.options)
    except json.JSONDecodeError as exc:
        raise CliError(f"--options {args.options!r} is not JSON: {exc.msg}") from exc
    if not isinstance(options, dict):
        raise CliError(f"--options {args.options!r}: expected a JSON object")
    if args.game in ("themind", "trio"):
        options.setdefault("hands", "unknown")  # a camera does not see the players' hands
    players = tuple(p.strip() for p in args.players.split(",") if p.strip())
    seats = tuple(s.strip() for s in args.seats.split(",") if s.strip())
    if args.profile is not None and not args.profile.is_file():
        raise CliError(f"--profile {str(args.profile)!r} is not a file: expected a calibration profile")
    deck = getattr(args, "deck", None)
    if deck is not None:
        from web.enrolled_twinit import check_deck

        check_deck(deck, args.game)  # a DeckError: one line, exit 2, before anything is built
    try:
        return Settings(
            game=args.game,
            mode=args.mode,
            players=players,
            seats=seats,
            options=options,
            profile=args.profile,
            deck=deck,
            host=args.host,
            port=args.port,
            **extra,
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise CliError(f"--{where}: {first['msg']}") from exc


def run(args: argparse.Namespace) -> int:
    from web.app import build_context
    from web.capture import camera_source
    from web.server import serve
    from web.wiring import collaborators_for

    settings = settings_from(args, source=args.source, data_dir=args.data, resume=not args.new)
    source = camera_source(settings.source or "0")
    process, adapter_factory = collaborators_for(settings)
    ctx = build_context(settings, source, process, adapter_factory)
    resumed = f" (resumed after {ctx.live.resumed_events} events)" if ctx.live.resumed_events else ""
    deck = f" with the enrolled deck {settings.deck}" if settings.deck is not None else ""
    title = f"tableref: refereeing {settings.game}{deck} from {settings.source}{resumed}"
    return serve(ctx, not args.no_browser, title)
