"""``tableref bench live``: rendered scenarios played in real time through the whole app, measured
from outside it (a separate server process, WebSocket and MJPEG clients).

- slaps: every two-hand claim the scenario script makes before the cooperative minute, scored
  against the referee's ruling on the script's own actions (``missed``: no ruling nor question
  for it; ``spurious``: claims the script never made, outside the cooperative minute, whose sets
  are counted apart in ``minute_claims``; a ruling answers a claim when it names the
  same seat and cards, landed near it and came after its hands were down); latency runs from
  the first frame where both hands are down (truth) to the ruling (or the question to the table)
  reaching a WebSocket client; ``stages_ms``: where that time went (hands down -> the deciding frame captured,
  -> its vision done, -> the ruling decided, -> received over the WebSocket); ``diagnosis``: each
  spurious ruling and each missed claim (game, scenario time, seat, cards), with the nearest event
  of the other kind and why the two did not match (a ruling received before its claim's hands
  were down, or naming another seat or other cards, counts both as a miss and as a spurious);
- coop_timer: the countdown's start on the server clock against the first frame of the spread
  (``start_error_ms_max``: for each game, the timer message nearest its spread among all the
  run's; beside it, ``per_game`` with only the game's own timer messages, ``None`` and counted in
  ``never_started`` when the game's minute never started);
- stream: MJPEG frames per second received at 1280x720 by one viewer, the server's CPU cores
  meanwhile, then the same with 20 viewers;
- memory: the server's resident size; growth compares the last minute with the second minute
  (the full run lasts at least 10 minutes; ``--quick`` compares shorter windows and says so);
  ``rss_mb_by_window``: the mean of each whole window (minute) of the run, in order.

Both processes read the same CLOCK_MONOTONIC (Linux), so times compare across them.
"""

from __future__ import annotations

import http.client
import json
import logging
import math
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from web.bench.stats import median, percentile, rounded

log = logging.getLogger(__name__)

FULL_RUN_S = 600.0
FPS = 10.0
"""The camera's frame rate in the demo games."""
CAMERA = os.environ.get("TABLEREF_BENCH_CAMERA", "jpeg")
"""The demo games' camera: ``jpeg``, each scenario rendered beforehand (before the timed part; kept
in :func:`web.capture.frames_cache_root`) and played as a webcam's MJPEG stream, a frame decoded as
it plays, so the camera costs the server what a real one does; ``render`` (the environment's
``TABLEREF_BENCH_CAMERA=render``), each frame rendered in the server while it plays, the demo's
camera: the renderer took about half the server's CPU and a third of its GIL's time."""
MATCH_S = 2.0
"""A ruling counts for a scripted claim when its hands landed within this of the truth, it came
after the hands were down, and it names the same seat and cards (:func:`claimed`)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(port: int, path: str) -> Any:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as reply:
        return json.loads(reply.read())


def _start(
    what: str,
    port: int,
    data: Path,
    seed: int,
    fps: float,
    repeat: int = 1,
    truth: Path | None = None,
    deck: Path | None = None,
    camera: str | None = None,
) -> subprocess.Popen:
    """The bench server ``what``; ``camera``: ``demo``'s (``jpeg``: the frames :func:`camera_frames`
    made ready, used without their check again; ``render``)."""
    cmd = [
        sys.executable,
        "-m",
        "web.bench.live_server",
        what,
        "--port",
        str(port),
        "--seed",
        str(seed),
        "--fps",
        str(fps),
        "--repeat",
        str(repeat),
        "--data",
        str(data),
    ]
    if truth is not None:
        cmd += ["--truth", str(truth)]
    if deck is not None:
        cmd += ["--deck", str(deck)]
    if camera is not None:
        cmd += ["--camera", camera]
        if camera == "jpeg":
            cmd += ["--frames-checked"]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    # The server's log goes to a file, never to a pipe nobody drains (a full pipe would block it).
    log = data.with_name(f"{data.name}-server.log")
    with log.open("w") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=env, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the bench server stopped: {log.read_text(errors='replace')[-2000:]}")
        try:
            _get(port, "/api/health")
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the bench server did not start in 120 s")


class ProcWatch(threading.Thread):
    """Samples a process's resident size and CPU time every ``period`` seconds."""

    def __init__(self, pid: int, period: float = 0.5) -> None:
        super().__init__(daemon=True)
        self.pid, self.period = pid, period
        self.samples: list[tuple[float, float, float]] = []
        """(mono, rss MB, cpu seconds)."""
        self.stop = threading.Event()
        self.tick = os.sysconf("SC_CLK_TCK")

    def read(self) -> tuple[float, float, float] | None:
        try:
            with open(f"/proc/{self.pid}/status") as f:
                rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024.0
            with open(f"/proc/{self.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / self.tick
        except (OSError, StopIteration, IndexError, ValueError):
            return None
        return time.monotonic(), rss, cpu

    def run(self) -> None:
        while not self.stop.is_set():
            sample = self.read()
            if sample:
                self.samples.append(sample)
            self.stop.wait(self.period)

    def cores(self, t0: float, t1: float) -> float:
        inside = [s for s in self.samples if t0 <= s[0] <= t1]
        if len(inside) < 2:
            return math.nan
        return (inside[-1][2] - inside[0][2]) / (inside[-1][0] - inside[0][0])


class WsRecorder(threading.Thread):
    """A WebSocket viewer that notes when each ruling, question and timer message arrives."""

    def __init__(self, port: int, answer: Any = None) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.answer = answer
        """Called with each question (in its own thread): the players at the table answering."""
        self.seen: list[tuple[float, dict[str, Any]]] = []
        self.halt = threading.Event()
        self.connected = threading.Event()

    def run(self) -> None:
        from websockets.exceptions import ConnectionClosed
        from websockets.sync.client import connect

        with connect(f"ws://127.0.0.1:{self.port}/api/ws", max_size=None) as ws:
            self.connected.set()
            while not self.halt.is_set():
                try:
                    text = ws.recv(timeout=0.5)
                except TimeoutError:
                    continue
                except ConnectionClosed:
                    return
                now = time.monotonic()
                if text.startswith('{"type": "vision"'):
                    continue
                msg = json.loads(text)
                kind = msg.get("type")
                if kind == "ruling":
                    self.seen.append((now, {"type": kind, "entry": msg["entry"]}))
                elif kind == "question":
                    self.seen.append((now, {"type": kind, "question": msg["question"]}))
                    if self.answer is not None:
                        threading.Thread(target=self.answer, args=(msg["question"],), daemon=True).start()
                elif kind in ("timer", "timer_end"):
                    self.seen.append((now, {"type": kind, "timer": msg["timer"]}))


class MjpegViewer(threading.Thread):
    """Reads the MJPEG stream and counts the frames received."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.times: list[float] = []
        self.halt = threading.Event()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        conn.request("GET", "/video.mjpg")
        reply = conn.getresponse()
        marker = b"--tablerefframe"
        tail = b""
        while not self.halt.is_set():
            chunk = reply.read1(65536)
            if not chunk:
                break
            data = tail + chunk
            count = data.count(marker)
            now = time.monotonic()
            self.times.extend([now] * count)
            tail = data[-len(marker) :]
        conn.close()

    def fps(self, t0: float, t1: float) -> float:
        n = sum(1 for t in self.times if t0 <= t <= t1)
        return n / (t1 - t0)


def _scenario_truth(seeds: list[int]) -> list[dict[str, Any]]:
    """Each scenario's scripted claims (time, expected verdict) and the spread's time."""
    from referee.registry import make_game
    from web.demo_session import demo_settings, load_scenario

    out = []
    for seed in seeds:
        scenario = load_scenario("twinit", seed)
        settings = demo_settings(scenario, "twinit")
        game = make_game("twinit", settings.players, settings.mode, settings.options)
        state = game.initial_state()
        claims, spread = [], None
        for item in scenario.actions:
            action = item["action"]
            if action.get("type") == "start":
                spread = float(item["t"])
                coop = make_game(
                    "twinit",
                    settings.players,
                    "cooperative",
                    {"cards": len(action.get("faces") or []), "seconds": settings.coop_seconds},
                )
                game, state = coop, coop.initial_state()
            try:
                parsed = game.parse_action(action)
            except ValueError:
                continue
            state, ruling = game.apply(state, parsed)
            if action.get("type") == "claim" and item.get("phase") != "cooperative":
                claims.append(
                    {
                        "t": float(item["t"]),
                        "verdict": item.get("verdict", ruling.verdict.value),
                        **claimed(action),
                    }
                )
        out.append({"seed": seed, "claims": claims, "spread": spread, "duration": scenario.duration})
    return out


def claimed(action: dict[str, Any]) -> dict[str, Any]:
    """Who claimed and which cards, in terms both the script and the live referee share: the
    claiming seat, and each card as a pile or a capture (by its seat) or a table card (the two
    referees number table cards each their own way)."""
    players = action.get("players")
    player = action.get("player", players[0] if isinstance(players, list) and players else None)
    kinds = []
    for loc in action.get("cards") or []:
        if "pile" in loc:
            kinds.append(f"pile:{int(loc['pile'])}")
        elif "capture" in loc:
            kinds.append(f"capture:{int(loc['capture'][0])}")
        else:
            kinds.append("table")
    return {"player": None if player is None else int(player), "cards": sorted(kinds) or None}


def _answers(event: dict[str, Any], claim: dict[str, Any], down: float) -> bool:
    """Whether a ruling (or question) can answer a scripted claim: received after the hands were
    down, from the same seat, on the same cards (when both say)."""
    if event["recv"] <= down:
        return False  # it answered an earlier landing
    for key in ("player", "cards"):
        if event.get(key) is not None and claim.get(key) is not None and event[key] != claim[key]:
            return False
    return True


def _truth_frames(path: Path) -> list[list[tuple[float, float]]]:
    """The rendered frames' (t, mono), split per scenario (t restarts at 0)."""
    runs: list[list[tuple[float, float]]] = []
    last = math.inf
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if row["t"] < last:
            runs.append([])
        runs[-1].append((float(row["t"]), float(row["mono"])))
        last = row["t"]
    return runs


RUN_TAIL_S = 2.0
"""A game's own timer messages start between its first frame and this long after its last."""


def _mono_at(frames: list[tuple[float, float]], t: float) -> float | None:
    for ft, mono in frames:
        if ft >= t - 1e-6:
            return mono
    return None


def _score(
    truth: list[dict[str, Any]],
    frames: list[list[tuple[float, float]]],
    seen: list[tuple[float, dict[str, Any]]],
) -> tuple[dict[str, Any], dict[str, Any]]:
    events = []
    minute_claims = 0
    for recv, msg in seen:
        if msg["type"] == "ruling" and msg["entry"]["action"].get("type") == "claim":
            ev = msg["entry"].get("evidence") or {}
            if ev.get("answered"):
                continue  # the table's answer to a question already counted
            if msg["entry"]["action"].get("at") is not None:
                minute_claims += 1  # a set laid out in the cooperative minute: no slap
                continue
            events.append(
                {
                    "recv": recv,
                    "landed": ev.get("landed_mono"),
                    "verdict": msg["entry"]["ruling"]["verdict"],
                    "timing": ev.get("timing"),
                    **claimed(msg["entry"]["action"]),
                }
            )
        elif msg["type"] == "question":
            ev = msg["question"].get("evidence") or {}
            events.append(
                {
                    "recv": recv,
                    "landed": ev.get("landed_mono"),
                    "verdict": "uncertain",
                    "timing": ev.get("timing"),
                    **claimed(msg["question"].get("if_yes") or {}),
                }
            )
    used: set[int] = set()
    total = correct = wrong = uncertain = missed = 0
    latencies: list[float] = []
    stages: dict[str, list[float]] = {"detect": [], "vision": [], "adapter": [], "publish": []}
    starts: list[float] = []
    per_game: list[dict[str, Any]] = []
    details: list[dict[str, Any]] = []
    for run, frames_k in zip(truth, frames, strict=False):
        for claim in run["claims"]:
            total += 1
            detail: dict[str, Any] = {"seed": run["seed"], "t": claim["t"], "expected": claim["verdict"]}
            details.append(detail)
            down = _mono_at(frames_k, claim["t"])
            best = None
            for i, ev in enumerate(events):
                if i in used or ev["landed"] is None or down is None or not _answers(ev, claim, down):
                    continue
                gap = abs(ev["landed"] - down)
                if gap <= MATCH_S and (best is None or gap < abs(events[best]["landed"] - down)):
                    best = i
            if best is None:
                missed += 1
                detail["got"] = "missed"
                continue
            used.add(best)
            ev = events[best]
            latencies.append((ev["recv"] - down) * 1000.0)
            detail.update(got=ev["verdict"], latency_ms=rounded(latencies[-1], 1))
            timing = ev.get("timing")
            if timing:  # hands down -> deciding frame captured -> vision done -> decided -> received
                stages["detect"].append((timing["captured"] - down) * 1000.0)
                stages["vision"].append((timing["observed"] - timing["captured"]) * 1000.0)
                stages["adapter"].append((timing["decided"] - timing["observed"]) * 1000.0)
                stages["publish"].append((ev["recv"] - timing["decided"]) * 1000.0)
            if ev["verdict"] == "uncertain":
                uncertain += 1
            elif ev["verdict"] == claim["verdict"]:
                correct += 1
            else:
                wrong += 1
        if run["spread"] is not None:
            spread = _mono_at(frames_k, run["spread"])
            timers = [m["timer"]["started_mono"] for _, m in seen if m["type"] == "timer"]
            if spread is not None and timers:
                starts.append(min(abs(s - spread) for s in timers) * 1000.0)
            own = [s for s in timers if frames_k and frames_k[0][1] <= s <= frames_k[-1][1] + RUN_TAIL_S]
            nearest_own = min(own, key=lambda s: abs(s - spread)) if own and spread is not None else None
            per_game.append(
                {
                    "seed": run["seed"],
                    "start_error_ms": rounded(abs(nearest_own - spread) * 1000.0, 1)
                    if nearest_own is not None and spread is not None
                    else None,
                    # signed: negative when the countdown was dated before the spread's end
                    "start_offset_ms": rounded((nearest_own - spread) * 1000.0, 1)
                    if nearest_own is not None and spread is not None
                    else None,
                }
            )
    slaps = {
        "total": total,
        "correct": correct,
        "wrong": wrong,
        "uncertain": uncertain,
        "missed": missed,
        "spurious": len(events) - len(used),
        "minute_claims": minute_claims,
        "latency_ms_p50": rounded(median(latencies), 1) if latencies else None,
        "latency_ms_p95": rounded(percentile(latencies, 95), 1) if latencies else None,
        "stages_ms_p50": {k: rounded(median(v), 1) for k, v in stages.items() if v},
        "stages_ms_max": {k: rounded(max(v), 1) for k, v in stages.items() if v},
        "claims": details,
        "diagnosis": diagnose(truth, frames, events, used, details),
    }
    coop = {
        "runs": len(starts),
        "start_error_ms_max": rounded(max(starts), 1) if starts else None,
        "never_started": sum(g["start_error_ms"] is None for g in per_game),
        "per_game": per_game,
    }
    return slaps, coop


def _why_not(ev: dict[str, Any], claim: dict[str, Any], down: float | None, taken: bool) -> list[str]:
    """Why a ruling (or question) did not answer a scripted claim: every reason that holds."""
    why = []
    if taken:
        why.append("matched another")
    if ev["landed"] is None or down is None:
        why.append("no landing time")
    else:
        if abs(ev["landed"] - down) > MATCH_S:
            why.append(f"landed {ev['landed'] - down:+.2f} s from the hands down")
        if ev["recv"] <= down:
            why.append("received before the hands were down")
    for key in ("player", "cards"):
        if ev.get(key) is not None and claim.get(key) is not None and ev[key] != claim[key]:
            why.append(f"{key} {ev[key]} != {claim[key]}")
    return why


def diagnose(
    truth: list[dict[str, Any]],
    frames: list[list[tuple[float, float]]],
    events: list[dict[str, Any]],
    used: set[int],
    details: list[dict[str, Any]],
) -> dict[str, Any]:
    """The unmatched events: each spurious ruling (or question) and each missed claim, with its
    game, scenario time, seat and cards, the nearest event of the other kind and why the two did
    not match."""

    def game_of(mono: float | None) -> tuple[int | None, float | None]:
        if mono is None:
            return None, None
        for run, frames_k in zip(truth, frames, strict=False):
            if frames_k and frames_k[0][1] - 1.0 <= mono <= frames_k[-1][1] + RUN_TAIL_S:
                t = min(frames_k, key=lambda f: abs(f[1] - mono))[0]
                return run["seed"], rounded(t + (mono - _mono_at(frames_k, t)), 2)
        return None, None

    downs: list[tuple[dict[str, Any], dict[str, Any], float | None]] = []
    for run, frames_k in zip(truth, frames, strict=False):
        for claim in run["claims"]:
            downs.append(({"seed": run["seed"], **claim}, claim, _mono_at(frames_k, claim["t"])))
    matched = {(d["seed"], d["t"]) for d in details if d.get("got") != "missed"}

    spurious = []
    for i, ev in enumerate(events):
        if i in used:
            continue
        seed, t = game_of(ev["landed"])
        item: dict[str, Any] = {
            "seed": seed,
            "t": t,
            "player": ev.get("player"),
            "cards": ev.get("cards"),
            "verdict": ev["verdict"],
        }
        near = [d for d in downs if d[2] is not None and ev["landed"] is not None]
        if near:
            info, claim, down = min(near, key=lambda d: abs(d[2] - ev["landed"]))
            item["nearest_claim"] = {
                "t": info["t"],
                "player": claim.get("player"),
                "cards": claim.get("cards"),
                "why_not": _why_not(ev, claim, down, (info["seed"], info["t"]) in matched),
            }
        spurious.append(item)

    missed = []
    for info, claim, down in downs:
        if (info["seed"], info["t"]) in matched:
            continue
        item = {
            "seed": info["seed"],
            "t": info["t"],
            "player": claim.get("player"),
            "cards": claim.get("cards"),
            "expected": claim["verdict"],
        }
        near = [(k, ev) for k, ev in enumerate(events) if ev["landed"] is not None and down is not None]
        if near:
            k, ev = min(near, key=lambda e: abs(e[1]["landed"] - down))
            item["nearest_ruling"] = {
                "t": game_of(ev["landed"])[1],
                "player": ev.get("player"),
                "cards": ev.get("cards"),
                "verdict": ev["verdict"],
                "why_not": _why_not(ev, claim, down, k in used),
            }
        missed.append(item)
    return {"spurious": spurious, "missed": missed}


def _table_answers(port: int, truth: list[dict[str, Any]], truth_path: Path) -> Any:
    """The players' answer to a question, as people at the table would give it: the scripted
    claim nearest in time says whether the cards were the same. Asked questions still count as
    ``uncertain``; answering them only lets the game go on as it would at a real table."""

    def answer(question: dict[str, Any]) -> None:
        time.sleep(1.0)  # people take a moment to look
        landed = (question.get("evidence") or {}).get("landed_mono")
        frames = _truth_frames(truth_path)
        best = None
        for run_truth, frames_k in zip(truth, frames, strict=False):
            for claim in run_truth["claims"]:
                down = _mono_at(frames_k, claim["t"])
                if down is not None and landed is not None:
                    gap = abs(down - landed)
                    if gap <= MATCH_S and (best is None or gap < best[0]):
                        best = (gap, claim)
        if best is None:
            return
        yes = best[1]["verdict"] == "valid"
        body = json.dumps({"yes": yes}).encode()
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/questions/{question['id']}/answer",
            data=body,
            headers={"Content-Type": "application/json"},
        )
        try:
            urllib.request.urlopen(req, timeout=5).close()
        except OSError as exc:
            log.info("answer to question %s failed: %s", question.get("id"), exc)

    return answer


def _memory(watch: ProcWatch, quick: bool) -> dict[str, Any]:
    samples = watch.samples
    if not samples:
        return {"rss_mb_peak": None, "rss_growth_pct": None}
    t0, t_end = samples[0][0], samples[-1][0]
    window = 60.0 if not quick else max(10.0, (t_end - t0) / 4)

    def mean_rss(a: float, b: float) -> float:
        inside = [s[1] for s in samples if a <= s[0] - t0 < b]
        return sum(inside) / len(inside) if inside else math.nan

    second = mean_rss(window, 2 * window)
    last = mean_rss(t_end - t0 - window, t_end - t0 + 1)
    growth = (last - second) / second * 100.0 if second == second and last == last else math.nan
    # where the growth happened: a step early on (memory the server keeps once it has needed it)
    # reads differently from a steady rise (something that keeps growing)
    by_window = [mean_rss(a * window, (a + 1) * window) for a in range(int((t_end - t0) // window))]
    return {
        "rss_mb_peak": rounded(max(s[1] for s in samples), 1),
        "rss_growth_pct": rounded(growth, 2) if growth == growth else None,
        "window_s": rounded(window, 1),
        "run_s": rounded(t_end - t0, 1),
        "rss_mb_by_window": [rounded(v, 1) if v == v else None for v in by_window],
    }


def _stream(seed: int, data: Path, seconds: float, deck: Path | None = None) -> dict[str, Any]:
    port = _free_port()
    proc = _start("stream", port, data / "stream", seed, 30.0, deck=deck)
    watch = ProcWatch(proc.pid)
    watch.start()
    try:
        one = MjpegViewer(port)
        one.start()
        time.sleep(3.0)
        t0 = time.monotonic()
        time.sleep(seconds)
        t1 = time.monotonic()
        fps_one = one.fps(t0, t1)
        cores = watch.cores(t0, t1)
        many = [MjpegViewer(port) for _ in range(19)]
        for v in many:
            v.start()
        time.sleep(3.0)
        t2 = time.monotonic()
        time.sleep(seconds)
        t3 = time.monotonic()
        viewers = [one, *many]
        rates = [v.fps(t2, t3) for v in viewers]
        for v in viewers:
            v.halt.set()
    finally:
        watch.stop.set()
        proc.terminate()
        proc.wait(10)
    return {
        "fps_720p": rounded(fps_one, 1),
        "cpu_cores": rounded(cores, 2),
        "viewers": len(rates),
        "fps_with_viewers": rounded(median(rates), 1),
        "fps_with_viewers_min": rounded(min(rates), 1),
    }


def camera_frames(seeds: list[int], fps: float) -> dict[str, Any]:
    """The scenarios' frames rendered beforehand and checked (:func:`web.capture.prerender`), before
    the timed part: how long it took, and whether every one was in the cache already."""
    from web.capture import prerender

    started = time.monotonic()
    found = [prerender("twinit", s, fps)[1] for s in seeds]
    return {"kind": "jpeg", "prepare_s": rounded(time.monotonic() - started, 1), "cached": all(found)}


KEEP_ENV = "TABLEREF_BENCH_KEEP"
"""A folder named by this environment variable receives the demo server's log, the truth of every
frame played and every message the bench's WebSocket client received (``received.jsonl``: its receive
clock and the message), for tracing a run after the bench's own temporary folder is gone."""


def _keep(data: Path, seen: list[tuple[float, dict[str, Any]]]) -> None:
    folder = os.environ.get(KEEP_ENV)
    if not folder:
        return
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for name in ("demo-server.log", "truth.jsonl"):
        if (data / name).exists():
            shutil.copyfile(data / name, out / name)
    with (out / "received.jsonl").open("w", encoding="utf-8") as f:
        for recv, msg in seen:
            f.write(json.dumps({"recv": recv, "msg": msg}) + "\n")
    log.info("the demo server's log, truth and messages kept in %s", out)


def run(quick: bool, seed: int, enrolled: bool = False, camera: str | None = None) -> dict[str, Any]:
    """The bench's figures; ``enrolled``: the scenarios' deck is enrolled first (the rendered
    enrolment, :mod:`web.bench.live_deck`) and both servers judge slaps against it, the
    enrolment's figures under ``"_enrolment"``; ``camera``: the demo games' (:data:`CAMERA`), said
    under ``"_camera"``."""
    camera = camera or CAMERA
    if camera not in ("jpeg", "render"):
        raise ValueError(f"camera {camera!r}: expected 'jpeg' or 'render'")
    from web.demo_session import load_scenario

    duration = float(load_scenario("twinit", seed).duration)
    repeat = 1 if quick else max(1, math.ceil(FULL_RUN_S / duration))
    deck: Path | None = None
    enrolment: dict[str, Any] = {}
    if enrolled:
        from web.bench.live_deck import enrolled_deck

        deck, enrolment = enrolled_deck(seed)
    seeds = [seed + k for k in range(repeat)]
    shot = camera_frames(seeds, FPS) if camera == "jpeg" else {"kind": "render"}
    with tempfile.TemporaryDirectory(prefix="tableref-bench-") as tmp:
        data = Path(tmp)
        truth_path = data / "truth.jsonl"
        port = _free_port()
        started = time.monotonic()
        proc = _start("demo", port, data / "demo", seed, FPS, repeat, truth_path, deck, camera)
        if enrolled:
            enrolment["server_start_s"] = rounded(time.monotonic() - started, 2)
        watch = ProcWatch(proc.pid)
        watch.start()
        truth = _scenario_truth(seeds)
        recorder = WsRecorder(port, _table_answers(port, truth, truth_path))
        recorder.start()
        recorder.connected.wait(10)
        try:
            deadline = time.monotonic() + duration * repeat * 2 + 120
            while time.monotonic() < deadline:
                if _get(port, "/api/health")["source"]["status"] == "ended":
                    break
                time.sleep(1.0)
            time.sleep(2.0)
        finally:
            recorder.halt.set()
            watch.stop.set()
            proc.terminate()
            proc.wait(10)
        _keep(data, recorder.seen)
        slaps, coop = _score(truth, _truth_frames(truth_path), recorder.seen)
        memory = _memory(watch, quick)
        stream = _stream(seed, data, 8.0 if quick else 20.0, deck)
    result = {"slaps": slaps, "coop_timer": coop, "stream": stream, "memory": memory, "_camera": shot}
    if enrolled:
        result["_enrolment"] = enrolment
    return result
