"""``tableref train judge|judge-verify|judge-enrolled|reader|seg [--quick] [--tiny] [--out DIR]``: rebuild.

Trains on rendered card faces (the renderer's decks plus procedural ones), seeded and
deterministic, then writes the ONNX files, their settings JSON and the model card into ``models/``
(or ``--out``). Needs the optional ``train`` extra (PyTorch on the CPU).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from dataclasses import replace
from pathlib import Path

from models.files import MODEL_DIR, MODELS
from web.cli import CliError

log = logging.getLogger(__name__)

PROCEDURAL_TRAIN_SEEDS = tuple(range(1, 9))
PROCEDURAL_VAL_SEEDS = (500, 501)
READER_VARIED_TRAIN = {"themind": (1, 2, 3), "trio": (1, 2), "lineit": (1, 2, 3)}
READER_VARIED_VAL = {"themind": (900,), "trio": (900,), "lineit": (900,)}
JUDGE_VERIFY = "judge-verify"
JUDGE_ENROLLED = "judge-enrolled"
HARDER_SMALL_SHARE = 0.3
"""``--harder-digits``: the share of the reader's training crops drawn small (``small_share``)."""
HARDER_RECIPE = (
    "; harder digits: the varied faces also draw plain, dotted and slashed zeros and heavier strokes, and"
    f" {HARDER_SMALL_SHARE:.0%} of fresh training crops are drawn at 44-80 px"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "model",
        choices=[*sorted(MODELS), JUDGE_VERIFY, JUDGE_ENROLLED],
        help=f"which model to rebuild ({JUDGE_VERIFY}: the judge's classical second opinion, calibrated"
        f" next to the judge files in --out; {JUDGE_ENROLLED}: the judge's closed-set rule with an enrolled"
        " Twin It deck, calibrated for the judge in models/; neither needs PyTorch)",
    )
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="a short run (a few minutes), same recipe")
    size.add_argument("--tiny", action="store_true", help="seconds: a test that the whole script runs")
    parser.add_argument("--out", type=Path, default=MODEL_DIR, help=f"output folder (default {MODEL_DIR})")
    parser.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
    parser.add_argument("--steps", type=int, default=None, help="override the number of training steps")
    parser.add_argument(
        "--harder-digits",
        action="store_true",
        help="reader only: varied faces also draw plain, dotted and slashed zeros and heavier strokes, and"
        f" {HARDER_SMALL_SHARE:.0%} of training crops are drawn at 44-80 px (not the shipped recipe)",
    )
    parser.add_argument(
        "--card-only",
        action="store_true",
        help="only rewrite the model card from the files in --out (no training)",
    )
    parser.add_argument(
        "--bench",
        type=Path,
        default=None,
        help="with --card-only: a `tableref bench identity --json` output to record",
    )


def _config_name(args: argparse.Namespace) -> str:
    return "tiny" if args.tiny else "quick" if args.quick else "full"


def judge_decks(config: str) -> tuple[list, list, str]:
    """(training decks, validation decks, recipe text) of the judge."""
    from models.training.patterns import ProceduralPatternDeck
    from vision.identity import render_decks as rd

    if config == "tiny":
        train = [ProceduralPatternDeck(1, 6, 64), ProceduralPatternDeck(2, 6, 64, aspect=1.5)]
        val = [ProceduralPatternDeck(500, 6, 64)]
        return train, val, "tiny: 2 procedural decks of 6 patterns (+ near-duplicates)"
    train = rd.twinit_decks(rd.TWINIT_TRAIN_SEEDS, rd.TWINIT_TRAIN_STYLES)
    train += [
        ProceduralPatternDeck(s, 60, 120, aspect=1.0 if s % 2 else 1.55) for s in PROCEDURAL_TRAIN_SEEDS
    ]
    val = rd.twinit_decks(rd.TWINIT_VAL_SEEDS, rd.TWINIT_TRAIN_STYLES)
    val += [ProceduralPatternDeck(s, 60, 120, aspect=1.0 if s % 2 else 1.55) for s in PROCEDURAL_VAL_SEEDS]
    recipe = (
        f"renderer Twin It decks seeds {list(rd.TWINIT_TRAIN_SEEDS)} x styles {list(rd.TWINIT_TRAIN_STYLES)}"
        f" (119 patterns, 30 near-duplicate pairs each) + procedural pattern decks seeds"
        f" {list(PROCEDURAL_TRAIN_SEEDS)} (60 patterns + 20 near-duplicates; odd seeds square, even seeds"
        f" 1:1.55 oblong); calibration on Twin It seeds {list(rd.TWINIT_VAL_SEEDS)} and procedural seeds"
        f" {list(PROCEDURAL_VAL_SEEDS)}; bench on Twin It seeds {list(rd.TWINIT_BENCH_SEEDS)} in the held-out"
        f" style {list(rd.TWINIT_BENCH_STYLES)}. Procedural near-duplicates that would draw the same image"
        " (a symmetric layout mirrored, a changed element hidden) are drawn again as an element change; a"
        " row of equal shapes changes one attribute of the whole row. Batches of 12 patterns x 3 crops (70%"
        " of the patterns as near-duplicate couples, half of those a face and a local edit of it: a round"
        " patch taken from another face, its colours permuted or mirrored, or the whole face mirrored, kept"
        " only when the change shows at every turn); every same and near-duplicate pair of crops in the"
        " batch scored, with 4 random different pairs per same pair;"
        " each crop through models.training.augment.camera_crop (finder corner error, residual rotation,"
        " light gradient, shadow, glare, white balance, blur, noise, JPEG)"
    )
    return train, val, recipe


def reader_decks(config: str, harder: bool = False) -> tuple[list, list, str]:
    """(training decks, validation decks, recipe text) of the reader; ``harder``: the varied decks also
    draw the extra zeros and stroke weights (``VariedNumberDeck(extra=True)``)."""
    from models.training.patterns import ProceduralNumberDeck
    from models.training.reader_faces import VariedNumberDeck
    from vision.identity import render_decks as rd

    if config == "tiny":
        train = [ProceduralNumberDeck(d, 0, (48, 72)) for d in ("themind", "trio", "lineit")]
        train += [VariedNumberDeck("lineit", 1, extra=harder)]
        val = [ProceduralNumberDeck(d, 1, (48, 72)) for d in ("themind", "trio", "lineit")]
        val += [VariedNumberDeck("trio", 2, extra=harder)]
        recipe = "tiny: procedural number decks, style 0, and a varied Line-it deck"
        return train, val, recipe + (HARDER_RECIPE if harder else "")
    train = rd.number_decks(rd.NUMBER_TRAIN_STYLES)
    train += [ProceduralNumberDeck("themind", 0), ProceduralNumberDeck("lineit", 1)]
    train += [
        ProceduralNumberDeck(d, 10 + i, free_colours=True)
        for i, d in enumerate(("themind", "trio", "lineit"))
    ]
    train += [VariedNumberDeck(d, s, extra=harder) for d, seeds in READER_VARIED_TRAIN.items() for s in seeds]
    val = rd.number_decks(rd.NUMBER_TRAIN_STYLES)
    val += [VariedNumberDeck(d, s, extra=harder) for d, seeds in READER_VARIED_VAL.items() for s in seeds]
    recipe = (
        f"renderer number decks in styles {rd.NUMBER_TRAIN_STYLES} + procedural OpenCV-font decks"
        f" (The Mind in font 0, Line-it in font 1, and The Mind, Trio, Line-it with random paper and ink per"
        " card, colour target ignored) + varied decks (models/training/reader_faces.py: every face drawn"
        " in a new random style -- font, weight, italic, outline, shadow, size, placement, corner"
        " indices, paper, dark cards, gradients, stripes, frames, discs and suit symbols; the key colour"
        f" jittered as ink, disc, bright ink on dark, or frame) seeds {READER_VARIED_TRAIN};"
        " 25% of training crops in grey or with swapped channels (colour target ignored); calibration"
        f" on fresh crops of the training styles and of varied decks seeds {READER_VARIED_VAL} (styles"
        f" never trained on); bench on the held-out styles {rd.NUMBER_BENCH_STYLES}. Every crop through"
        " camera_crop, then a random quarter turn; read as given and turned 180 degrees, logits averaged;"
        " Trio's colour follows from the number read (one colour per value)"
    )
    return train, val, recipe + (HARDER_RECIPE if harder else "")


def record_bench(bench: Path, folder: Path) -> Path:
    """Store a bench result beside the models, with the sha256 of the model files it measured."""
    from models.files import sha256
    from models.training.model_card import BENCH_FILE

    lines = [ln for ln in bench.read_text(encoding="utf-8").splitlines() if ln.strip().startswith("{")]
    if not lines:
        raise ValueError(
            f"bench file {bench}: no JSON object (expected `tableref bench identity --json` output)"
        )
    result = json.loads(lines[-1])
    files = [n for m in MODELS.values() for n in m.onnx]
    record = {"result": result, "sha256": {n: sha256(folder / n) for n in files if (folder / n).is_file()}}
    path = folder / BENCH_FILE
    path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return path


def judge_verify(args: argparse.Namespace) -> int:
    """Calibrate the judge's verifier next to the judge files in ``args.out`` (no PyTorch)."""
    from models.training.judge_verify import CONFIGS, calibrate_verifier, write_verify_card

    config = _config_name(args)
    cfg = replace(CONFIGS[config], fit_seed=args.seed + 1, calibration_seed=args.seed + 2)
    _, val, _ = judge_decks(config)
    command = f"tableref train {JUDGE_VERIFY}" + ("" if config == "full" else f" --{config}")
    command += f" --seed {args.seed}" if args.seed else ""
    recipe = (
        f"seeds {cfg.fit_seed} (fit) and {cfg.calibration_seed} (threshold); decks {[d.name for d in val]}"
    )
    settings = calibrate_verifier(args.out, val, cfg, recipe, args.out)
    settings["command"] = command
    card = write_verify_card(settings, args.out)
    summary = {"model": JUDGE_VERIFY, "config": config, "validation": settings["validation"]}
    summary |= {
        "net_alone": settings["net_alone_validation"],
        "seconds": settings["seconds"],
        "card": str(card),
    }
    sys.stdout.write(json.dumps(summary) + "\n")
    return 0


def judge_enrolled(args: argparse.Namespace) -> int:
    """Calibrate the enrolled judge's closed-set rule into ``args.out`` (no PyTorch): the judge's
    calibration decks, each enrolled through the rendered enrolment; ``--quick`` uses one deck."""
    for flag, given in (("--tiny", args.tiny), ("--seed", args.seed), ("--steps", args.steps is not None)):
        if given:
            raise CliError(
                f"{flag}: does not apply to {JUDGE_ENROLLED} (its seeds are fixed; --quick: one deck)"
            )
    if args.card_only:
        raise CliError(
            f"--card-only: does not apply to {JUDGE_ENROLLED} (`tableref train judge --card-only`"
            " writes the judge's card, with the rule's section)"
        )
    from vision.identity.enrolled_calibration import calibrate

    settings = calibrate(args.out, args.quick)
    summary = {"model": JUDGE_ENROLLED, "config": _config_name(args), "calibration": settings["calibration"]}
    summary |= {"seconds": settings["seconds"], "out": str(args.out)}
    sys.stdout.write(json.dumps(summary) + "\n")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.harder_digits and args.model != "reader":
        raise CliError(f"--harder-digits: applies to the reader only, not to {args.model!r}")
    if args.model == JUDGE_VERIFY:
        return judge_verify(args)
    if args.model == JUDGE_ENROLLED:
        return judge_enrolled(args)
    try:
        import torch  # noqa: F401
    except ImportError:
        print("tableref train: error: PyTorch is missing: pip install -e '.[train]'", file=sys.stderr)
        return 2
    from models.training.model_card import write_card

    config = _config_name(args)
    t0 = time.perf_counter()
    if args.model == "seg":
        from models.training.train_seg import run_cli

        if args.card_only:
            from models.training.seg_card import write_seg_card

            sys.stdout.write(f"wrote {write_seg_card(args.out, args.bench)}\n")
            return 0
        from vision.cards.seg_frames import RECIPE, make_frames

        meta = run_cli(args.out, config, args.seed, args.steps, make_frames, RECIPE)
        summary = {"model": "seg", "config": config, "validation": meta["validation"]}
        summary |= {"seconds": round(time.perf_counter() - t0, 1), "out": str(args.out)}
        sys.stdout.write(json.dumps(summary) + "\n")
        return 0
    if args.card_only:
        if args.bench is not None:
            record_bench(args.bench, args.out)
        meta = json.loads((args.out / MODELS[args.model].meta).read_text(encoding="utf-8"))
        command = meta.get("command", f"tableref train {args.model}")
        path = write_card(MODELS[args.model], args.out, command)
        sys.stdout.write(f"wrote {path}\n")
        return 0
    if args.model == "judge":
        from models.training.train_judge import CONFIGS, train_judge

        cfg = replace(CONFIGS[config], seed=args.seed)
        if args.steps is not None:
            cfg = replace(cfg, steps=args.steps)
        train, val, recipe = judge_decks(config)
        meta = train_judge(train, val, args.out, cfg, recipe)
    else:
        from models.training.train_reader import CONFIGS, train_reader

        cfg = replace(CONFIGS[config], seed=args.seed)
        if args.steps is not None:
            cfg = replace(cfg, steps=args.steps)
        if args.harder_digits:
            cfg = replace(cfg, small_share=HARDER_SMALL_SHARE)
        train, val, recipe = reader_decks(config, args.harder_digits)
        meta = train_reader(train, val, args.out, cfg, recipe)
    command = f"tableref train {args.model}" + ("" if config == "full" else f" --{config}")
    if args.seed:
        command += f" --seed {args.seed}"
    if args.steps is not None:
        command += f" --steps {args.steps}"
    if args.harder_digits:
        command += " --harder-digits"
    meta_path = args.out / MODELS[args.model].meta
    meta["command"] = command
    meta_path.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    write_card(MODELS[args.model], args.out, command)
    summary = {
        "model": args.model,
        "config": config,
        "validation": meta["validation"],
        "seconds": round(time.perf_counter() - t0, 1),
        "out": str(args.out),
    }
    sys.stdout.write(json.dumps(summary) + "\n")
    return 0
