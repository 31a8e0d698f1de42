"""``tableref demo [--game twinit|twixt] [--deck DIR] [--no-browser] [--port 8000] [--seed 0]``: a rendered
table played live through the whole pipeline, refereed, on the dashboard. No camera needed.

``--deck DIR``: the Twin It demo judges slaps against that enrolled deck (the demo's own deck is
enrolled with ``tableref enroll --deck twinit --rendered 0 --out DIR``).

The Twin It demo: slaps, a wrong claim, a triple steal, then the stacked cards spread for the
cooperative minute. It prints the URL and serves until Ctrl+C; it starts even where no browser
can open.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=("twinit", "twixt"), default="twinit", help="the demo's game")
    parser.add_argument("--seed", type=int, default=0, help="scenario seed (default 0)")
    parser.add_argument("--fps", type=float, default=10.0, help="frames per second rendered (default 10)")
    parser.add_argument(
        "--deck",
        type=Path,
        default=None,
        help="Twin It: an enrolled deck's folder (tableref enroll ... --out DIR)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on (default loopback)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--data", type=Path, default=None, help="event store folder (default: a temporary one)"
    )
    parser.add_argument("--no-browser", action="store_true", help="do not try to open a browser")


def run(args: argparse.Namespace) -> int:
    from web.cli import CliError
    from web.demo_session import DemoUnavailable, build_demo
    from web.server import serve

    if not 1 <= args.fps <= 60:
        raise CliError(f"--fps {args.fps}: expected 1 to 60")
    if args.deck is not None:
        from web.enrolled_twinit import check_deck

        check_deck(args.deck, args.game)  # a DeckError: one line, exit 2, before anything is built
    data = args.data or Path(tempfile.mkdtemp(prefix="tableref-demo-"))
    try:
        ctx = build_demo(
            args.game, args.seed, args.fps, host=args.host, port=args.port, data_dir=data, deck=args.deck
        )
    except DemoUnavailable as exc:
        raise CliError(str(exc)) from exc
    deck = f", judged with the enrolled deck {args.deck}" if args.deck is not None else ""
    return serve(ctx, not args.no_browser, f"tableref demo: a rendered {args.game} table, played live{deck}")
