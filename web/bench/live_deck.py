"""The live bench's enrolled deck (``tableref bench live --enrolled``): the deck the Twin It
scenarios deal from, enrolled as a real deck would be (its cards laid out in rows on rendered
tables, cut out by the card finder: :func:`vision.identity.rendered_enrolment.rendered_deck_crops`),
before any game is played.

The enrolled folder is kept in a cache (``$XDG_CACHE_HOME/tableref/bench-live``, else
``~/.cache/tableref/bench-live``) under a name that holds the deck's seed, the cards' style and a
fingerprint of every file that shapes the crops (the renderer, the card finder, the enrolment, the
models): a changed finder or renderer enrols afresh, never meets a stale deck.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import time
from collections import Counter
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
SHAPING = ("vision/cards", "vision/render", "vision/identity/rendered_enrolment.py", "calibration", "models")
"""Files (folders: their ``.py``, ``.onnx`` and ``.json`` files) whose contents decide the enrolled
crops and the figures kept with them (the judge's closed-set rule, ``models/judge_enrolled.json``)."""
META = "bench-enrolment.json"


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tableref" / "bench-live"


def fingerprint(root: Path = ROOT, parts: tuple[str, ...] = SHAPING) -> str:
    """A short hash of every file that shapes the rendered enrolment's crops."""
    digest = hashlib.sha256()
    for part in parts:
        path = root / part
        files = sorted(path.rglob("*")) if path.is_dir() else [path]
        for f in files:
            if f.is_file() and f.suffix in (".py", ".onnx", ".json") and "__pycache__" not in f.parts:
                digest.update(str(f.relative_to(root)).encode())
                digest.update(f.read_bytes())
    return digest.hexdigest()[:16]


def scenario_deck(seed: int) -> tuple[int, int]:
    """(deck seed, card style) the Twin It scenario of ``seed`` deals from, read from its script."""
    from web.demo_session import load_scenario

    scenario = load_scenario("twinit", seed)
    styles = Counter(c.style for track in scenario.cards.values() for _, c in track if c is not None)
    if len(styles) != 1:
        raise ValueError(f"scenario {seed}: cards in styles {sorted(styles)}, the enrolment lays out one")
    return int(scenario.info.get("deck_seed", 0)), next(iter(styles))


def enrol(folder: Path, deck_seed: int, style: int, limit: int | None = None) -> dict[str, Any]:
    """Enrols the rendered Twin It deck of ``deck_seed`` (cards in ``style``, the first ``limit``
    faces) into ``folder`` (replaced), has the live server's enrolled judge make and keep the deck's
    pattern groups (so that the server's start does not), and returns the enrolment's figures."""
    from calibration.deck import EnrolledDeck
    from calibration.enroll import enroll
    from vision.identity.enrolled import EnrolledJudge
    from vision.identity.judge import PatternJudge
    from vision.identity.rendered_enrolment import rendered_deck_crops
    from web.enrolled_twinit import bounded_judge

    t0 = time.perf_counter()
    cut = rendered_deck_crops("twinit", deck_seed, limit=limit, style=style)
    t1 = time.perf_counter()
    if folder.exists():
        shutil.rmtree(folder)
    deck = EnrolledDeck.create(folder, "twinit")
    missing = {cid: "not found by the card finder" for cid in cut.missing}
    enroll(deck, cut.crops, PatternJudge(), None, missing)
    t2 = time.perf_counter()
    judge = EnrolledJudge(bounded_judge(), deck)  # its pattern groups made once, kept in the deck
    t3 = time.perf_counter()
    figures = {
        "deck_seed": deck_seed,
        "style": style,
        "cards": len(cut.truth),
        "cut_out": len(cut.crops),
        "enrolled": len(deck.readable_ids()),
        "patterns": len(judge.groups),
        "multiplicities": {str(n): k for n, k in sorted(Counter(len(g) for g in judge.groups).items())},
        "render_find_s": round(t1 - t0, 2),
        "enrol_s": round(t2 - t1, 2),
        "groups_s": round(t3 - t2, 2),
        "rules": judge.rule is not None,
        "seconds": round(t3 - t0, 2),
    }
    (folder / META).write_text(json.dumps(figures) + "\n", encoding="utf-8")
    return figures


def enrolled_deck(
    seed: int, root: Path | None = None, limit: int | None = None
) -> tuple[Path, dict[str, Any]]:
    """The enrolled deck of the scenario of ``seed`` (from the cache when it holds it) and the
    enrolment's figures (``cached``: taken from the cache, ``seconds``: the enrolment's own time)."""
    deck_seed, style = scenario_deck(seed)
    name = f"twinit-{deck_seed}-style{style}-{'all' if limit is None else limit}-{fingerprint()}"
    folder = (root or cache_root()) / name
    meta = folder / META
    if meta.is_file() and (folder / "deck.json").is_file():
        try:
            figures = json.loads(meta.read_text(encoding="utf-8"))
            log.info("enrolled deck from the cache: %s", folder)
            return folder, {**figures, "cached": True, "folder": str(folder)}
        except ValueError:
            log.warning("unreadable %s: enrolling again", meta)
    folder.parent.mkdir(parents=True, exist_ok=True)
    figures = enrol(folder, deck_seed, style, limit)
    log.info(
        "enrolled %d of %d cards in %.1f s: %s",
        figures["cut_out"],
        figures["cards"],
        figures["seconds"],
        folder,
    )
    return folder, {**figures, "cached": False, "folder": str(folder)}
