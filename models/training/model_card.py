"""Model cards: what a model is, how it was made, how well and how fast it works."""

from __future__ import annotations

import json
import time
from itertools import pairwise
from pathlib import Path

import numpy as np

from models.files import ModelFiles, sha256
from models.training.onnx_cpu import cpu_session
from models.training.seeding import TRAIN_THREADS

BENCH_FILE = "identity_bench.json"
"""The last ``tableref bench identity`` figures, with the sha256 of the models they measured."""


CORNERS_NOTE = (
    "The bench's render crops are off by the card finder's measured corner errors (each crop one found "
    "card's four corners, `models/training/finder_corners.json`, `python -m web.bench.finder_corners`; "
    "most within a fraction of a pixel, a tail to a quarter of the side). `render._corners_gaussian` gives "
    "the same draws with the Gaussian corner error the models were trained with (3.5 % of the side per "
    "axis, clipped at 8.75 %, and up to 5 degrees of rotation: far harsher on most cards); "
    "`render._corners_iou05` with the finder's badly cut cards too (found quads of IoU 0.5-0.9: half a "
    "card or two merged), whose confident wrong rate is the danger where a caller hands the judge any "
    "quad it has. Figures above measured before session 17 used the Gaussian."
)
"""Under each card's benchmark: how the bench's crops simulate the card finder."""


def ms_per_crop(path: Path, shape: tuple[int, ...], batch: int, repeat: int = 200) -> float:
    """Median ms per crop of one ONNX graph at ``batch`` on one thread."""
    s = cpu_session(path)
    name = s.get_inputs()[0].name
    x = np.zeros((batch, *shape), np.float32)
    for _ in range(5):
        s.run(None, {name: x})
    times = []
    for _ in range(max(5, repeat // batch)):
        t0 = time.perf_counter()
        s.run(None, {name: x})
        times.append((time.perf_counter() - t0) * 1000 / batch)
    return float(np.median(times))


def write_card(model: ModelFiles, folder: Path, command: str) -> Path:
    folder = Path(folder)
    meta = json.loads((folder / model.meta).read_text(encoding="utf-8"))
    inp = meta["input"]
    shape = (3, inp["height"], inp["width"])
    first = folder / model.onnx[0]
    ms1, ms32 = ms_per_crop(first, shape, 1), ms_per_crop(first, shape, 32)
    lines = [f"# Model card: {model.name}", ""]
    if model.name == "judge":
        sig = meta.get("signature", {})
        lines += [
            "Twin It same-pattern judge, a pair judge. `judge_embed.onnx` turns a rectified card",
            f"crop into a feature map of {sig.get('cells')}x{sig.get('cells')} cells ({sig.get('channels')}"
            " channels, unit length per cell: what lies there); `judge_head.onnx` compares two maps",
            "cell by cell (|a - b|, a * b, each cell's 3x3 neighbourhood, max and mean pooled) and gives",
            'the logit "same pattern". At run time',
            "the second crop is tried at each symmetric turn (4 for a square card, 2 for an oblong one) and",
            f"each relative turn is scored from {meta.get('views', 1)} view(s), logits averaged, and the best"
            " relative turn counts; "
            f"`p_same = sigmoid({meta['platt'][0]:.4f} * logit + {meta['platt'][1]:.4f})`.",
            f"Verdict: same if p_same >= {meta['thresholds']['same_at_or_above']:.6f}, different if",
            f"p_same < {meta['thresholds']['different_below']:.6f}, else uncertain.",
        ]
    else:
        lines += [
            "Number and colour reader for The Mind, Trio and Line-it. `reader.onnx` gives logits of 103",
            "number classes (1..100, bets +3/+4/+5) and of the colour classes (none, Line-it's 4 suits,",
            "Trio's 12 colours); the deck masks the classes it cannot hold." + _reader_views(meta),
            f"Confidence at temperature {meta['temperature']:.3f}: The Mind and Trio, softmax(number) of"
            " the number read (Trio's colour follows from the number: one colour per value); Line-it, the"
            " joint probability of the identity read among its 403 (100 numbers x 4 suits, and the 3 bets,"
            ' whose colour class is "none"), each the product of softmax(number) and softmax(colour over'
            " none and the 4 suits), renormalised (`lineit_joint`). A read under"
            f" {meta['confidence_threshold']:.6f} is uncertain." + _reader_dissent(meta),
        ]
    lines += [
        "",
        "## Input",
        f"BGR crop of one card, turned to portrait, resized to {inp['width']}x{inp['height']}, divided",
        "by the 97th percentile of its brightest channel, minus 0.5, as (N, 3, H, W) float32",
        "(`models/preprocess.py`).",
        "",
        "## Data recipe and seed",
        f"Seed {meta['config']['seed']}. {meta['recipe']}",
        "",
        "Config: `" + json.dumps({k: v for k, v in meta["config"].items() if k != "aug"}) + "`",
        "",
        "Augmentation: `" + json.dumps(meta["config"]["aug"]) + "`",
        "",
        f"Rebuild: `{command}` ({meta['train_seconds']} s of training on this machine, {TRAIN_THREADS} torch"
        " thread, CPU shared with other jobs; seeded, deterministic kernels).",
        "",
        "## Size and speed",
    ]
    for name in model.onnx:
        lines.append(f"- `{name}`: {(folder / name).stat().st_size} bytes, sha256 `{sha256(folder / name)}`")
    lines += [
        f"- `{model.onnx[0]}` per crop, one thread: {ms1:.3f} ms at batch 1, {ms32:.3f} ms at batch 32"
        + (" (one turn; the judge embeds 4 turns of a square card)" if model.name == "judge" else ""),
        "",
        "## Held-out validation (calibration set)",
        "`" + json.dumps(meta["validation"]) + "`",
        "",
        "## Benchmark (`tableref bench identity`)",
    ]
    bench_path = folder / BENCH_FILE
    if bench_path.is_file():
        bench = json.loads(bench_path.read_text(encoding="utf-8"))
        same_models = all(bench.get("sha256", {}).get(n) == sha256(folder / n) for n in model.onnx)
        if same_models:
            lines.append("`" + json.dumps(bench["result"]) + "`")
        else:
            lines.append("The stored figures measured other model files: run the bench again.")
    else:
        lines.append("Not measured yet.")
    lines += ["", CORNERS_NOTE]
    if model.name == "judge":
        lines += verifier_section(folder, model)
        lines += enrolled_section(folder)
    path = folder / model.card
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _reader_views(meta: dict) -> str:
    """The reader card's sentence on the views each card is read in (none when read once)."""
    if not meta.get("half_turns"):
        return ""
    trims = [t for t in meta.get("view_trims", []) if t > 0]
    cuts = meta.get("view_corner_cuts", [])
    views = ["the crop as given"]
    views += [f"with {t:.0%} of each side cut off" for t in trims]
    views += [f"with {c:.0%} cut off two adjacent sides at each of its four corners" for c in cuts]
    count = 1 + len(trims) + 4 * len(cuts)
    return (
        f" Each card is read in {count} view(s) ({'; '.join(views)}), each as given and turned a half"
        f" turn, the logits of all {2 * count} averaged (`models/reader_decode.py`)."
    )


def _reader_dissent(meta: dict) -> str:
    """The reader card's sentence on the half-turn check (none when it is off)."""
    at = meta.get("side_dissent_at")
    if at is None:
        return ""
    return (
        " A read is also uncertain, whatever its confidence, when the views read as given (averaged)"
        f" or those read turned (averaged) name another number at a probability of {at:g} or more"
        " (`side_dissent`): a card shows one number whichever way up it lies. Calibration applies the"
        " same check."
    )


def verifier_section(folder: Path, model: ModelFiles) -> list[str]:
    """The judge card's paragraph on the classical verifier beside it (``judge_verify.json``), if any."""
    from models.training.judge_verify import VERIFY_CARD, VERIFY_META

    path = Path(folder) / VERIFY_META
    if not path.is_file():
        return []
    head = ["", f"## Second opinion (`{VERIFY_META}`, `{VERIFY_CARD}`)"]
    try:
        settings = json.loads(path.read_text(encoding="utf-8"))
        fitted_for = settings["judge_sha256"]
        gate, same_at = float(settings["gate"]), float(settings["same_at_or_above"])
    except (OSError, ValueError, KeyError, TypeError):
        return [
            *head,
            f"`{VERIFY_META}` is unreadable: the net judges alone (`tableref train judge-verify`).",
        ]
    if any(fitted_for.get(n) != sha256(Path(folder) / n) for n in model.onnx):
        return [
            *head,
            f"`{VERIFY_META}` was calibrated for other judge files: the net judges alone until"
            " `tableref train judge-verify` calibrates it again.",
        ]
    meta = json.loads((Path(folder) / model.meta).read_text(encoding="utf-8"))
    different_below = float(meta["thresholds"]["different_below"])
    return [
        *head,
        "Beside these files lies a classical verifier calibrated for them (`models/judge_verify.py`,",
        f"`tableref train judge-verify`): pairs the net gives p_same >= {gate:g} are also registered and"
        " compared",
        "pixel by pixel, and their p_same comes from a logistic model of the net's logit"
        + (
            ", the net's logit of the second crop registered and light-evened onto the first (the"
            " verifier's affine map and gain field: the finder's corner error and the light taken out)"
            if settings.get("combination", {}).get("aligned_net")
            else ""
        )
        + " and the verifier's",
        f'evidence; "same" then needs p_same >= the threshold in `{VERIFY_META}` ({same_at:.6f}),',
        *_different_lines(settings.get("different"), different_below),
        *_high_lines(settings.get("high")),
        *_resolution_lines(settings.get("resolution")),
    ]


def _different_lines(rule: dict | None, different_below: float) -> list[str]:
    """Who calls "different": the net alone, or the net and the verifier's rule when calibrated."""
    if not rule:
        return [
            f'"different" stays the net\'s call (p_same < {different_below:.6f}). The benchmark'
            " above is of the net with its verifier."
        ]
    return [
        f"\"different\" is the net's call (p_same < {different_below:.6f}) and the verifier's: it also"
        ' measures the pairs the net leaves uncertain below the gate, and calls a pair "different" where'
        ' both its registrations converged and the logistic model\'s logit of "same" lies'
        f" {float(rule['margin']):g} below every genuine calibration pair's (in its resolution band where"
        " the band's genuine pairs are many enough; `judge_verify.md`). The benchmark above is of the net"
        " with its verifier and that rule.",
    ]


def _high_lines(high: dict | None) -> list[str]:
    """The verifier's high-resolution band, in a sentence (none when it was calibrated without it)."""
    if not high or not high.get("different"):
        return []
    return [
        "",
        f"Pairs of two crops of at least {int(high['from_px'])} px (a crop of unknown source up to"
        f" {int(high['max_px'])} px) are also measured at {int(high['size'])} px, where the band's own"
        ' logistic model and "different" rule'
        f" ({float(high['different']['margin']):g} logit below its lowest genuine large calibration pair)"
        ' may call them "different"; "same" stays the 64 px verifier\'s call. `judge_verify.md` gives'
        " the band's figures.",
    ]


def _resolution_lines(resolution: dict | None) -> list[str]:
    """The verifier's resolution bands, in a sentence (none when it was calibrated without them)."""
    if not resolution:
        return []
    edges = [int(e) for e in resolution["edges_px"]]
    bounds = [f"under {edges[0]} px"]
    bounds += [f"{a}-{b} px" for a, b in pairwise(edges)]
    bounds.append(f"{edges[-1]}-{int(resolution['max_px'])} px")
    bands = ", ".join(f"{b} {t:.6f}" for b, t in zip(bounds, resolution["band_thresholds"], strict=True))
    return [
        "",
        'The verifier\'s evidence depends on resolution, so its "same" threshold is set per band of the',
        "pair's smaller card side (the card's side in the frame where the caller gives it, else the crop's",
        f"own side; larger or unknown sizes keep the global threshold): {bands}.",
        "`judge_verify.md` gives each band's figures.",
    ]


ENROLLED_RULE = "judge_enrolled.json"
"""The closed-set rule of the judge with an enrolled deck (``vision.identity.enrolled``)."""


def _merge_basis(cal: dict) -> str:
    """Where the enrolled rule's merge threshold comes from (files before s15: the highest pair + 1)."""
    rank = cal.get("merge_rank")
    if rank is None:
        return "above every pair of two patterns' references in calibration, by 1 logit"
    return (
        f"{float(cal['merge_margin']):g} logit above the {rank}th highest p_same of the calibration's"
        f" pairs of two patterns' references, {float(cal['merge_reference_pair_p']):.6f}; the highest is"
        f" {float(cal['highest_different_reference_pair_p']):.6f}"
    )


def enrolled_section(folder: Path) -> list[str]:
    """The judge card's section on the closed-set rule used with an enrolled Twin It deck, if any."""
    path = Path(folder) / ENROLLED_RULE
    if not path.is_file():
        return []
    head = ["", f"## With an enrolled deck (`{ENROLLED_RULE}`)"]
    try:
        s = json.loads(path.read_text(encoding="utf-8"))
        cal = s["calibration"]
        merge_at, floor = float(s["merge_at"]), float(s["p_floor"])
        same_m, diff_m = float(s["same_margin"]), float(s["different_margin"])
    except (OSError, ValueError, KeyError, TypeError):
        return [
            *head,
            f"`{ENROLLED_RULE}` is unreadable: with an enrolled deck the pair judge answers alone.",
        ]
    return [
        *head,
        "A Twin It table is a closed set: with the players' deck enrolled (`tableref enroll`), each crop",
        "is matched against the deck's references (the 48 closest by the cosine of pooled maps get a",
        f"one-view pass of the head, the closest {int(s.get('shortlist', 12))} of those are scored as"
        " calibrated, verifier included) and keeps its best pattern group's p_same and the best p_same",
        "of any other group. Its margin is the logit of the first",
        "minus the logit of the second. References join one group where the judge gives a pair of them",
        f"p_same >= {merge_at:.6f} ({_merge_basis(cal)}).",
        f"A pair is **same** when both crops match one group at p_same >= {floor:g} with margins >="
        f" {same_m:.3f}; **different** when they match two groups at p_same >= {floor:g} with margins"
        f" >= {diff_m:.3f}; where the pair judge is sure of the opposite, **uncertain**; otherwise the",
        "pair judge's answer stands (so a pattern whose copies the judge could not join, split over two",
        "groups, leaves its crops a small margin and the pair judge answers). A deck with a card",
        "enrolled without a usable reference is not a closed set: there the pair judge answers alone.",
        "",
        "Calibrated by `tableref train judge-enrolled` on rendered calibration decks only",
        f"({s['recipe']}): each margin lies 0.5 logit above the largest margin of a calibration pair it",
        "would have ruled wrongly (never below the floor in the recipe). Figures on the calibration",
        "pairs (with the pair judge alone beside them):",
        "`" + json.dumps({"enrolled": cal["enrolled_judge"], "pair_judge": cal["pair_judge"]}) + "`",
        "",
        "The identity bench reports the judge with each bench deck enrolled (through the rendered",
        "enrolment, in the bench's style) as `render._enrolled`; the headline figures are the pair judge's.",
    ]
