"""``tableref read CARD.png --deck themind|trio|lineit [--json]``: a number card's number and colour."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from models.labels import DECK_NAMES
from web.commands.match import read_image


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", type=Path, help="a rectified crop of one card (any rotation)")
    parser.add_argument("--deck", required=True, choices=DECK_NAMES, help="which deck the card is from")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--models", type=Path, default=None, help="model folder (default: models/)")


def run(args: argparse.Namespace) -> int:
    from vision.identity import NumberReader

    img = read_image(args.image)
    reading = NumberReader(args.models).read(img, args.deck)
    if args.json:
        sys.stdout.write(json.dumps(reading.to_json()) + "\n")
    else:
        value = f"+{reading.number}" if reading.kind == "bet" else str(reading.number)
        colour = f" {reading.colour}" if reading.colour else ""
        sure = "" if reading.certain else " (uncertain)"
        sys.stdout.write(f"{reading.kind} {value}{colour} (confidence {reading.confidence:.4f}){sure}\n")
    return 0
