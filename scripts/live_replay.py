"""Offline replay of the live bench's Twin It games: the adapter on every frame, scored as the bench.

``tableref bench live`` plays rendered games in real time, where vision's frames, the machine's
load and the capture times all vary from run to run. This dev tool takes vision out of the loop:

- ``build SEED... --cache DIR``: renders each scenario at ``--fps`` (10: the bench's rate) and runs
  the card pipeline on every frame, with its background sweep after each (as the live session does
  when no frame waits); each frame's observation is cached under ``DIR/seed<N>/`` (card crops kept
  once, hand masks bit-packed, zlib), with a checksum of each rendered frame. Frames are not
  stored: ``run`` renders them again (the renderer is deterministic; the checksum says if not).
- ``run SEED... --cache DIR``: the demo's own context (:func:`web.demo_session.build_demo`: the Twin
  It adapter, the hand-over to the cooperative minute, the event store) is fed the cached
  observations frame by frame through :meth:`web.session.LiveSession.handle_frame`, on a clock that
  is the scenario's time (a frame's capture time is its ``t``); every ruling and question the hub
  publishes is recorded, questions are answered ``--answer-s`` later as the bench's players do (the
  scripted claim nearest in time says yes or no), and the whole is scored by the bench's own
  :func:`web.bench.live._score`: each scripted claim right / uncertain / missed / wrong, each
  spurious ruling or question, with times; holds (the adapter's "held back") are listed too.

A ruling's "latency" here is the deciding frame's capture time minus the hands-down time (plus
:data:`RECV_S`): whole frames, the same on any load; the adapter's own wall time on that frame is
printed beside it (load-bound; no vision time, no publishing). A replay is for rulings, not speed.
The cache is tied to the vision code it was built with (``meta.json`` keeps a fingerprint of
``vision/`` and ``models/``; ``run`` warns when the tree differs).

Usage (from a frozen copy of the tree, ``PYTHONPATH=.``)::

    python scripts/live_replay.py build 0 1 2 --cache /tmp/me/cache
    python scripts/live_replay.py run 0 1 2 --cache /tmp/me/cache [--until 30] [--json out.json]
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import logging
import pickle
import struct
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger("live_replay")

FPS = 10.0
"""The live bench's camera rate."""
ANSWER_S = 1.0
"""The bench's players answer a question this long after it is asked."""
RECV_S = 0.001
"""A ruling counts as received this long after its frame's capture (the bench's scoring wants it
after the hands were down, and a ruling may come on that very frame)."""
CROP_MIN = 4096
"""Arrays of at least this many bytes (card crops) are stored once per cache, by content."""


# -- the cache ---------------------------------------------------------------------------------
def fingerprint(root: Path) -> str:
    """A hash of the vision code and models the cache was made with."""
    digest = hashlib.sha1()
    for sub in ("vision", "models"):
        for path in sorted((root / sub).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".onnx", ".json"):
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def frame_sum(image: np.ndarray) -> int:
    """The checksum a rendered frame is checked by when it is rendered again."""
    return zlib.crc32(np.ascontiguousarray(image).data)


class _Writer(pickle.Pickler):
    """Pickles observations: a boolean mask as bits, a large array once per file by content."""

    def __init__(self, out: io.BytesIO, known: set[bytes]) -> None:
        super().__init__(out, protocol=5)
        self.known = known

    def persistent_id(self, obj: Any) -> Any:
        if not isinstance(obj, np.ndarray):
            return None
        if obj.dtype == np.bool_ and obj.ndim == 2:
            return ("bits", obj.shape, np.packbits(obj).tobytes())
        if obj.nbytes < CROP_MIN:
            return None
        data = np.ascontiguousarray(obj)
        key = hashlib.blake2b(data.data, digest_size=16).digest() + str((obj.shape, obj.dtype.str)).encode()
        if key in self.known:
            return ("same", key)
        self.known.add(key)
        return ("new", key, obj.shape, obj.dtype.str, data.tobytes())


class _Reader(pickle.Unpickler):
    def __init__(self, data: bytes, arrays: dict[bytes, np.ndarray]) -> None:
        super().__init__(io.BytesIO(data))
        self.arrays = arrays

    def persistent_load(self, pid: Any) -> Any:
        kind = pid[0]
        if kind == "bits":
            shape = tuple(pid[1])
            bits = np.unpackbits(np.frombuffer(pid[2], np.uint8), count=int(np.prod(shape)))
            return bits.reshape(shape).astype(bool)
        if kind == "new":
            _, key, shape, dtype, raw = pid
            array = np.frombuffer(raw, dtype=np.dtype(dtype)).reshape(shape).copy()
            self.arrays[key] = array
            return array
        return self.arrays[pid[1]]


def seed_dir(cache: Path, seed: int) -> Path:
    return cache / f"seed{seed}"


def build(
    seed: int,
    cache: Path,
    fps: float = FPS,
    until: float | None = None,
    frames: bool = False,
    every: int = 1,
    phase: int = 0,
) -> dict[str, Any]:
    """Renders scenario ``seed`` at ``fps``, runs the card pipeline on every frame (its background
    sweep after each) and caches the observations; with ``frames``, the rendered frames too, raw
    (``frames.u8``, 2.8 MB a 720p frame: a replay then reads them instead of rendering each again,
    60 to 100 ms a frame). ``every`` > 1: only the frames ``k`` with ``k % every == phase``, as a
    live vision slower than the camera sees them (its tracker too; ``meta["indices"]`` keeps their
    capture indices). Returns the cache's ``meta.json``."""
    from vision.pipeline import TablePipeline
    from web.demo_session import load_scenario

    scenario = load_scenario("twinit", seed)
    end = float(scenario.duration) if until is None else min(until, float(scenario.duration))
    out_dir = seed_dir(cache, seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    pipeline = TablePipeline()
    idle = pipeline.background()
    known: set[bytes] = set()
    times, sums, vision_ms, indices = [], [], [], []
    started = time.perf_counter()
    raw = (out_dir / "frames.u8").open("wb") if frames else None
    with (out_dir / "obs.bin").open("wb") as f:
        for k in range(int(np.floor(end * fps + 1e-9)) + 1):
            if k % every != phase % every:
                continue
            t = k / fps
            image, _ = scenario.render_at(t)
            t0 = time.perf_counter()
            obs = pipeline.process(image, t)
            vision_ms.append(round((time.perf_counter() - t0) * 1000.0, 2))
            idle()
            buf = io.BytesIO()
            _Writer(buf, known).dump(obs)
            blob = zlib.compress(buf.getvalue(), 1)
            f.write(struct.pack("<Q", len(blob)))
            f.write(blob)
            times.append(t)
            indices.append(k)
            sums.append(frame_sum(image))
            if raw is not None:
                raw.write(np.ascontiguousarray(image).data)
            if k % 100 == 0:
                log.info(
                    "seed %d: %.1f s of %.1f (%.0f s so far)", seed, t, end, time.perf_counter() - started
                )
    if raw is not None:
        raw.close()
    meta = {
        "seed": seed,
        "shape": list(image.shape),
        "frames": frames,
        "fps": fps,
        "times": times,
        "indices": indices,
        "frame_sums": sums,
        "vision_ms": vision_ms,
        "duration": float(scenario.duration),
        "fingerprint": fingerprint(Path(__file__).resolve().parents[1]),
        "built_s": round(time.perf_counter() - started, 1),
    }
    (out_dir / "meta.json").write_text(json.dumps(meta))
    return meta


def cached(cache: Path, seed: int) -> tuple[dict[str, Any], Iterator[Any]]:
    """The cache's meta and its observations, in frame order."""
    where = seed_dir(cache, seed)
    meta = json.loads((where / "meta.json").read_text())

    def observations() -> Iterator[Any]:
        arrays: dict[bytes, np.ndarray] = {}
        with (where / "obs.bin").open("rb") as f:
            while head := f.read(8):
                (size,) = struct.unpack("<Q", head)
                yield _Reader(zlib.decompress(f.read(size)), arrays).load()

    return meta, observations()


# -- the replay ------------------------------------------------------------------------------
@dataclass
class Replayed:
    """One seed's replay: what the hub published (as the bench's WebSocket client records it:
    ``(received, message)``), the holds, the frames' ``(t, mono)``, the scenario's truth."""

    seed: int
    seen: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    holds: list[tuple[float, str]] = field(default_factory=list)
    frames: list[tuple[float, float]] = field(default_factory=list)
    truth: dict[str, Any] = field(default_factory=dict)
    adapter_ms: list[float] = field(default_factory=list)
    fed: list[float] = field(default_factory=list)
    """The times of the frames fed to the adapter (``adapter_ms`` in the same order)."""
    context: Any = None
    """The demo's context at the end (its session, adapter and game), for a closer look."""


def _answer_of(
    question: dict[str, Any], truth: dict[str, Any], frames: list[tuple[float, float]]
) -> bool | None:
    """The bench's players' answer (:func:`web.bench.live._table_answers`): the scripted claim
    whose hands were down nearest the question's landing, within ``MATCH_S``, was valid or not."""
    from web.bench.live import MATCH_S, _mono_at

    landed = (question.get("evidence") or {}).get("landed_mono")
    if landed is None:
        return None
    gaps = [(abs(d - landed), c) for c in truth["claims"] if (d := _mono_at(frames, c["t"])) is not None]
    gap, claim = min(gaps, key=lambda g: g[0], default=(None, None))
    return None if gap is None or gap > MATCH_S else claim["verdict"] == "valid"


def replay(
    seed: int,
    cache: Path,
    until: float | None = None,
    answer_s: float = ANSWER_S,
    on_frame: Callable[[Any, Any, Any], None] | None = None,
    check_frames: bool = True,
    every: int = 1,
    phase: int = 0,
    history: bool = False,
) -> Replayed:
    """Replays the cached observations of ``seed`` through the demo's context (see the module's
    doc). ``on_frame(frame, obs, context)`` is called after each frame (a trace hook).
    ``every`` > 1: only the frames ``k`` with ``k % every == phase`` go to the adapter, as the
    live session's vision, slower than the camera, takes the newest frame and skips the others
    (the frames keep their capture indices: the adapter sees the gaps). The observations are
    still those of a pipeline that saw every frame: the adapter's timing is emulated, not
    vision's. ``history``: every captured frame (those skipped too, rendered for it) goes to the
    session's frame history when the adapter takes it, as the live capture thread does (the
    minute's start is dated from it); without, the adapter finds no history (vision's own dating)."""
    from web.bench.live import _scenario_truth
    from web.demo_session import build_demo, load_scenario
    from web.session import Frame

    meta, observations = cached(cache, seed)
    here = fingerprint(Path(__file__).resolve().parents[1])
    if meta.get("fingerprint") != here:
        log.warning(
            "seed %d: the cache was built with other vision code (%s, here %s)",
            seed,
            meta.get("fingerprint"),
            here,
        )
    scenario = load_scenario("twinit", seed)
    stored = seed_dir(cache, seed) / "frames.u8"
    shape = tuple(meta.get("shape") or ())
    frames = (
        np.memmap(stored, np.uint8, "r").reshape(-1, *shape)
        if meta.get("frames") and stored.is_file()
        else None
    )
    out = Replayed(seed, truth=_scenario_truth([seed])[0])
    now = {"mono": 0.0, "wall": time.monotonic()}

    def clock() -> float:  # the scenario's time: the frame's capture, plus the adapter's own time on it
        return now["mono"] + (time.monotonic() - now["wall"])

    with tempfile.TemporaryDirectory(prefix="live-replay-") as tmp:
        ctx = build_demo("twinit", seed, meta["fps"], data_dir=Path(tmp), stream_fps=30.0)
        session = ctx.session
        session.clock = clock
        asked: list[tuple[float, int, bool]] = []

        def publish(message: dict[str, Any]) -> None:
            kind = message.get("type")
            if kind == "ruling":
                message = {"type": kind, "entry": _on_replay_clock(message["entry"])}
            elif kind == "question":
                question = message["question"]
                message = {"type": kind, "question": question}
                yes = _answer_of(question, out.truth, out.frames or [(now["mono"], now["mono"])])
                if yes is not None:
                    asked.append((now["mono"] + answer_s, int(question["id"]), yes))
            elif kind not in ("timer", "timer_end"):
                return
            out.seen.append((now["mono"] + RECV_S, message))

        ctx.hub.publish = publish  # type: ignore[method-assign]
        frame_times = [(t, t) for t in meta["times"]]
        out.frames = frame_times
        wrapped: set[int] = set()
        indices = meta.get("indices")

        def index(k: int) -> int:  # the frame's capture index (a cache of every frame: k)
            return int(indices[k]) if indices else k

        kept = -1  # the last capture index put in the frame history

        def keep_history(upto: int, image: np.ndarray | None = None) -> None:
            """The frames captured up to index ``upto`` into the session's history (live: the
            capture thread, before the adapter asks about them)."""
            nonlocal kept
            if not history or not session._keep_history:
                kept = upto
                return
            for j in range(kept + 1, upto + 1):
                shot = image if j == upto and image is not None else scenario.render_at(j / meta["fps"])[0]
                session.history.add(j + 1, j / meta["fps"], shot)
            kept = upto

        for k, obs in enumerate(observations):
            t = meta["times"][k]
            if until is not None and t > until:
                break
            if k % every != phase % every:
                continue
            image = np.array(frames[k]) if frames is not None else scenario.render_at(t)[0]
            if check_frames and frame_sum(image) != meta["frame_sums"][k]:
                raise RuntimeError(f"seed {seed}: frame {k} at {t:.2f} s renders otherwise than when cached")
            keep_history(index(k), image)
            for item in [a for a in asked if a[0] <= t]:
                asked.remove(item)
                try:
                    session.live.answer(item[1], item[2])
                except Exception as exc:  # the question was withdrawn, or the game moved on
                    log.info("seed %d: answer to question %d at %.2f s: %s", seed, item[1], t, exc)
            now["mono"], now["wall"] = t, time.monotonic()
            if session.live.clock is not clock:
                session.live.clock = clock
            session.live.end_timer_if_due()
            adapter = session.adapter
            if adapter is not None:
                if id(adapter) not in wrapped:
                    wrapped.add(id(adapter))
                    adapter.hold = _noting(adapter.hold, out.holds, now)
                adapter.tick(t)
            session.process = _Cached(obs)
            started = time.perf_counter()
            session.handle_frame(Frame(index(k) + 1, t, t, image))
            out.adapter_ms.append((time.perf_counter() - started) * 1000.0)
            out.fed.append(t)
            if on_frame is not None:
                on_frame(Frame(index(k) + 1, t, t, image), obs, ctx)
        out.context = ctx
    # the scripted claims after the last frame replayed (--until, or a cache built so) are not counted
    last = out.fed[-1] if out.fed else -1.0
    out.truth = {**out.truth, "claims": [c for c in out.truth["claims"] if c["t"] <= last]}
    out.frames = [f for f in out.frames if f[0] <= last + 1e-9]
    return out


def _noting(
    hold: Callable[..., None], holds: list[tuple[float, str]], now: dict[str, float]
) -> Callable[..., None]:
    """The adapter's ``hold``, noting each hold's frame time and reason."""

    def noted(action: Any, en: str, fr: str) -> None:
        holds.append((now["mono"], f"{en} {json.dumps(action, default=str)}"))
        hold(action, en, fr)

    return noted


@dataclass
class _Cached:
    """The pipeline's stand-in: this frame's cached observation."""

    obs: Any

    def __call__(self, image: np.ndarray, t: float) -> Any:
        return self.obs


def _on_replay_clock(entry: dict[str, Any]) -> dict[str, Any]:
    """A ruling's timing on the replay's clock: vision took no time (cached), the adapter's own
    time is measured on the machine's clock from the frame's capture."""
    evidence = entry.get("evidence") or {}
    timing = evidence.get("timing")
    if not timing:
        return entry
    captured = float(timing["captured"])
    spent = float(timing["decided"]) - float(timing["observed"])
    fixed = {**timing, "observed": captured, "decided": captured + spent}
    return {**entry, "evidence": {**evidence, "timing": fixed}}


def score(runs: list[Replayed]) -> dict[str, Any]:
    """The bench's slap figures (:func:`web.bench.live._score`) over the replayed seeds."""
    from web.bench.live import _score

    # each seed replays on its own clock from 0: shift each to its own hour so none overlaps
    shifted_seen, frames = [], []
    for n, run in enumerate(runs):
        shift = 3600.0 * n
        frames.append([(t, mono + shift) for t, mono in run.frames])
        for recv, msg in run.seen:
            shifted_seen.append((recv + shift, _shifted(msg, shift)))
    slaps, _ = _score([run.truth for run in runs], frames, shifted_seen)
    return slaps


def _shifted(msg: dict[str, Any], shift: float) -> dict[str, Any]:
    body_key = "entry" if msg["type"] == "ruling" else "question" if msg["type"] == "question" else None
    if body_key is None:
        return msg
    body = msg[body_key]
    evidence = dict(body.get("evidence") or {})
    if evidence.get("landed_mono") is not None:
        evidence["landed_mono"] = float(evidence["landed_mono"]) + shift
    if evidence.get("timing"):
        evidence["timing"] = {k: float(v) + shift for k, v in evidence["timing"].items()}
    return {**msg, body_key: {**body, "evidence": evidence}}


def report(runs: list[Replayed], slaps: dict[str, Any]) -> list[str]:
    """One line per scripted claim, spurious ruling and hold, the minute's start against the
    spread, then the totals."""
    lines = []
    by_seed: dict[int, list[dict[str, Any]]] = {}
    for claim in slaps["claims"]:
        by_seed.setdefault(claim["seed"], []).append(claim)
    spurious = slaps["diagnosis"]["spurious"]
    missed = {(m["seed"], m["t"]): m for m in slaps["diagnosis"]["missed"]}
    for run in runs:
        lines.append(f"seed {run.seed}:")
        events: list[tuple[float, str]] = []
        for claim in by_seed.get(run.seed, []):
            got = claim["got"]
            word = "right" if got == claim["expected"] else got if got in ("uncertain", "missed") else "WRONG"
            text = f"  {claim['t']:7.2f} claim {claim['expected']:<7} -> {word:<9} ({got})"
            if "latency_ms" in claim:
                decided = claim["t"] + claim["latency_ms"] / 1000.0
                k = min(range(len(run.adapter_ms)), key=lambda i: abs(run.fed[i] - decided))
                text += f" {claim['latency_ms']:.0f} ms (adapter {run.adapter_ms[k]:.0f} ms)"
            near = missed.get((run.seed, claim["t"]), {}).get("nearest_ruling")
            if near:
                text += (
                    f"  nearest: {near['t']} {near['verdict']} {near['cards']} ({'; '.join(near['why_not'])})"
                )
            events.append((claim["t"], text))
        for item in spurious:
            if item["seed"] == run.seed or (item["seed"] is None and len(runs) == 1):
                near = item.get("nearest_claim") or {}
                events.append(
                    (
                        item["t"] or 0.0,
                        f"  {item['t'] or 0.0:7.2f} SPURIOUS {item['verdict']} seat {item['player']}"
                        f" {item['cards']}"
                        f"  nearest claim {near.get('t')} ({'; '.join(near.get('why_not', []))})",
                    )
                )
        for t, why in run.holds:
            events.append((t, f"  {t:7.2f} hold: {why}"))
        spread = run.truth.get("spread")
        if spread is not None and run.fed and spread <= run.fed[-1]:
            # the replay's clock is the scenario's: the countdown's start is comparable to it
            starts = [float(m["timer"]["started_mono"]) for _, m in run.seen if m["type"] == "timer"]
            start = min(starts, key=lambda s: abs(s - spread), default=None)
            said = (
                "never started" if start is None else f"dated {start:.2f} ({(start - spread) * 1000:+.0f} ms)"
            )
            events.append((spread, f"  {spread:7.2f} the spread: the minute's countdown {said}"))
        lines += [text for _, text in sorted(events, key=lambda e: e[0])]
    counts = "/".join(str(slaps[k]) for k in ("correct", "uncertain", "missed", "wrong", "spurious"))
    lines.append(
        f"total {slaps['total']}: right/uncertain/missed/wrong/spurious {counts}; latency p50 "
        f"{slaps['latency_ms_p50']} p95 {slaps['latency_ms_p95']} ms (deciding frame - hands down)"
    )
    return lines


# -- the command line --------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="cache each seed's observations")
    b.add_argument("seeds", type=int, nargs="+")
    b.add_argument("--cache", type=Path, required=True)
    b.add_argument("--fps", type=float, default=FPS)
    b.add_argument("--until", type=float, default=None, help="stop at this scenario time (s)")
    b.add_argument("--frames", action="store_true", help="store the rendered frames too (2.8 GB a seed)")
    b.add_argument("--every", type=int, default=1, help="every N-th frame only (a slow vision)")
    b.add_argument("--phase", type=int, default=0, help="with --every: the frames k with k %% N == phase")
    r = sub.add_parser("run", help="replay the adapter on the cache and score it")
    r.add_argument("seeds", type=int, nargs="+")
    r.add_argument("--cache", type=Path, required=True)
    r.add_argument("--until", type=float, default=None, help="stop at this scenario time (s)")
    r.add_argument("--answer-s", type=float, default=ANSWER_S)
    r.add_argument("--json", type=Path, default=None, help="also write the bench's slap figures here")
    r.add_argument("--no-check", action="store_true", help="do not checksum the re-rendered frames")
    r.add_argument(
        "--every", type=int, default=1, help="feed the adapter every N-th frame only (a slow vision)"
    )
    r.add_argument("--phase", type=int, default=0, help="with --every: the frames k with k %% N == phase")
    r.add_argument(
        "--history", action="store_true", help="keep every captured frame in the session's history, as live"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    for noisy in ("web", "vision", "referee"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    if args.command == "build":
        for seed in args.seeds:
            meta = build(seed, args.cache, args.fps, args.until, args.frames, args.every, args.phase)
            log.info("seed %d: %d frames cached in %.0f s", seed, len(meta["times"]), meta["built_s"])
        return 0
    runs = []
    for seed in args.seeds:
        if not (seed_dir(args.cache, seed) / "meta.json").is_file():
            print(f"no cache for seed {seed} under {args.cache}: run build first", file=sys.stderr)
            return 2
        started = time.perf_counter()
        runs.append(
            replay(
                seed,
                args.cache,
                args.until,
                args.answer_s,
                check_frames=not args.no_check,
                every=args.every,
                phase=args.phase,
                history=args.history,
            )
        )
        log.info("seed %d replayed in %.0f s", seed, time.perf_counter() - started)
    slaps = score(runs)
    print("\n".join(report(runs, slaps)))
    if args.json is not None:
        args.json.write_text(json.dumps(slaps, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
