"""``tableref enroll``: enrol a real deck from a folder of card crops, or from rendered cards.

    tableref enroll --deck twinit --folder CROPS/ --out PROFILE/deck-twinit [--json]
    tableref enroll --deck twinit --rendered 0 --out PROFILE/deck-twinit   # a rendered deck, end to end
    tableref enroll --deck trio --folder CROPS/ --card c07 --out ...        # re-enrol one card

Each image of the folder is one card's rectified crop (its file stem is the card id). With
``--rendered SEED`` every face of the rendered deck is laid out in batches of 9 on a rendered
table, cut out by the card finder and enrolled. The report lists unreadable cards and, for Twin
It, how many patterns appear 1, 2 or 3 times.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from calibration.deck import DECKS, EnrolledDeck
from calibration.enroll import EnrollReport, enroll
from web.cli import CliError
from web.commands.match import read_image

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".webp"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deck", required=True, choices=DECKS, help="which deck")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--folder", type=Path, help="a folder of card crops, one card per image")
    source.add_argument("--rendered", type=int, metavar="SEED", help="enrol a rendered deck (a test run)")
    parser.add_argument("--out", type=Path, required=True, help="the enrolled deck's folder")
    parser.add_argument(
        "--card", action="append", default=None, help="enrol only these card ids (repeatable)"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--models", type=Path, default=None, help="model folder (default: models/)")


def folder_crops(folder: Path, only: list[str] | None) -> dict[str, np.ndarray]:
    if not folder.is_dir():
        raise CliError(f"folder {folder}: no such folder (expected card crops, one per image)")
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if only:
        files = [p for p in files if p.stem in only]
        missing = set(only) - {p.stem for p in files}
        if missing:
            raise CliError(f"folder {folder}: no image for card(s) {', '.join(sorted(missing))}")
    if not files:
        raise CliError(f"folder {folder}: no PNG or JPEG card images")
    return {p.stem: read_image(p) for p in files}


def rendered_crops(deck: str, seed: int) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Every face of a rendered deck laid out on rendered tables and cut out by the card finder;
    also the cards the finder missed."""
    from vision.identity.rendered_enrolment import rendered_deck_crops

    r = rendered_deck_crops(deck, seed)
    return r.crops, {cid: "not found by the card finder" for cid in r.missing}


def print_report(report: EnrollReport, as_json: bool) -> None:
    if as_json:
        sys.stdout.write(json.dumps(report.to_json()) + "\n")
        return
    sys.stdout.write(f"{report.deck}: {report.cards} cards enrolled, {len(report.unreadable)} unreadable\n")
    for cid, why in report.unreadable:
        sys.stdout.write(f"  unreadable {cid}: {why}\n")
    if report.deck == "twinit":
        m = report.multiplicities
        sys.stdout.write(
            f"  patterns: {len(report.groups)} ({m.get('1', 0)} once, {m.get('2', 0)} twice,"
            f" {m.get('3', 0)} three times, {m.get('more', 0)} more often)\n"
        )
        if report.uncertain_pairs:
            sys.stdout.write(f"  {len(report.uncertain_pairs)} pairs the judge could not settle\n")
    else:
        sys.stdout.write(
            f"  identities read: {len(report.identities)}; read too often: {report.duplicates}\n"
        )


def run(args: argparse.Namespace) -> int:
    missing: dict[str, str] = {}
    if args.folder:
        crops = folder_crops(args.folder, args.card)
    else:
        crops, missing = rendered_crops(args.deck, args.rendered)
        if args.card:
            crops = {k: v for k, v in crops.items() if k in set(args.card)}
            missing = {k: v for k, v in missing.items() if k in set(args.card)}
    if (args.out / "deck.json").is_file():
        deck = EnrolledDeck.load(args.out)
        if deck.deck != args.deck:
            raise CliError(f"enrolled deck {args.out} holds {deck.deck!r}, not {args.deck!r}")
    else:
        deck = EnrolledDeck.create(args.out, args.deck)
    judge = reader = None
    if args.deck == "twinit":
        from vision.identity import PatternJudge

        judge = PatternJudge(args.models)
    else:
        from vision.identity import NumberReader

        reader = NumberReader(args.models)
    report = enroll(deck, crops, judge, reader, missing)
    print_report(report, args.json)
    return 0
