"""``tableref bench twixt``: the board reader on rendered boards, a rendered game, Go, and speed.

- render: random legal Twixt positions (0..200 pegs, red/black and red/grey) placed by the scene
  compositor (:func:`vision.render.scene.render`: its tables, light and glare, shadows, lens
  distortion, blur, noise, JPEG), camera tilt up to 35 degrees, 0..2 hands over the board.
  The board is found on the same view
  without hands (as calibration does), then the frame with hands is read once. The reader
  abstains on holes under a hand and about one hole around it; a hole counts as visible when no
  hand is within two pitches of it (the pitch measured in the image around each hole: see
  :func:`near_hands`). ``hole_accuracy`` is over visible holes (abstaining on one
  counts as wrong); ``misread_under_hands`` counts holes within two pitches of a hand that were
  read *confidently* wrong (an abstention is not a misread). A board is exact when
  every visible hole and every link between visible pegs is right. Links: precision over links
  reported, recall over true links whose pegs are both visible.
- video: a 60-move Twixt game played by the referee, each move a hand reaching in, placing the
  peg (and its links) and leaving; read frame by frame with :class:`TwixtMoveTracker`. Rendered
  with the board module's own faster camera (:func:`render_board_scene`), not the compositor.
- go_render: random Go positions (no hands) through the compositor, every point.
- speed: a 1920x1080 frame; full read (rectify, every hole, links) and incremental read (one peg
  changed) medians and 95th percentiles, with the board located beforehand (calibration).

``render.losses`` breaks the misses down: visible holes misread, or abstained on for being taken
as covered (a hand's margin, a shadow taken for a hand), on a board clipped at white by glare
(``glare_clipped``; of those, ``glare_clipped_blank`` where the frame shows nothing within 0.3
pitch of the hole, every pixel within 8 levels of white: no still image can tell them, and
``glare_clipped_faint`` where 95 % of those pixels are: nothing shows past a stray pixel of noise),
under other glare or added light, or for another doubt; true links missed because a peg was not
read, or with both pegs read.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

import cv2
import numpy as np

from calibration.board_finder import BoardLocation, BoardNotFound, find_board
from referee.registry import make_game
from referee.twixt.actions import Link, Place
from vision.board.moves import TwixtMoveTracker
from vision.board.reader import BoardReader, BoardReading
from vision.board.spec import BoardSpec
from vision.render.board import (
    BoardScene,
    HandSpec,
    compositor_board_scene,
    random_camera,
    random_go_position,
    random_twixt_position,
    render_board_scene,
    render_board_texture,
)
from web.bench.stats import median, percentile, rounded

log = logging.getLogger(__name__)

FAINT_SHARE = 0.95
"""``losses.holes.glare_clipped_faint``: the share of a clipped hole's disc within 8 levels of white."""


def _locate(image: np.ndarray, spec: BoardSpec) -> BoardLocation | None:
    try:
        return find_board(image, spec.size, valid=spec.valid_mask(), pattern=spec.pattern)
    except BoardNotFound:
        return None


def near_hands(scene: BoardScene, pitches: float) -> np.ndarray:
    """(size, size) bool: holes with a hand pixel within ``pitches`` pitches of their centre, the
    pitch measured in the image around each hole (mean distance to its lattice neighbours): under
    tilt it varies across the board by half and more, so one scale for the whole board would
    put a hole 1.3 pitches from a hand beyond 2 on one side and count one 3 pitches away on the
    other (``BoardScene.covered`` uses a single scale)."""
    holes = scene.holes_px()
    steps = []
    for axis in (0, 1):
        d = np.linalg.norm(np.diff(holes, axis=axis), axis=-1)
        pad = [(0, 0), (0, 0)]
        pad[axis] = (1, 0)
        before = np.pad(d, pad, mode="edge")
        pad[axis] = (0, 1)
        after = np.pad(d, pad, mode="edge")
        steps.append(0.5 * (before + after))
    pitch_px = 0.5 * (steps[0] + steps[1])
    free = (~np.asarray(scene.hand_mask, bool)).astype(np.uint8)
    if free.all():
        return np.zeros(holes.shape[:2], bool)
    dist = cv2.distanceTransform(free, cv2.DIST_L2, 5)
    h, w = dist.shape
    xs = np.clip(np.round(holes[..., 0]).astype(int), 0, w - 1)
    ys = np.clip(np.round(holes[..., 1]).astype(int), 0, h - 1)
    return dist[ys, xs] <= pitches * pitch_px


def _link_visible(link: tuple[int, int, int, int], visible: np.ndarray) -> bool:
    """Whether a link's two pegs and the two holes beside its middle are all visible."""
    r1, c1, r2, c2 = link
    mr, mc = (r1 + r2) / 2, (c1 + c2) / 2
    holes = [(r1, c1), (r2, c2), (math.floor(mr), math.floor(mc)), (math.ceil(mr), math.ceil(mc))]
    return all(visible[r, c] for r, c in holes)


def _blank(
    scene: BoardScene, holes: np.ndarray, pitches: float = 0.3, noise: float = 8.0, share: float = 1.0
) -> np.ndarray:
    """For (K, 2) holes (row, col): whether the frame shows nothing there, every pixel within
    ``pitches`` (local pitch) of the hole's centre within ``noise`` levels of white in every
    channel (glare clipped the pit or the piece away); with ``share`` below 1, that share of them
    (a pixel or two of noise or compression past ``noise`` then does not count as something shown)."""
    px = scene.holes_px()
    img = scene.image
    h, w = img.shape[:2]
    out = np.zeros(len(holes), bool)
    for k, (r, c) in enumerate(holes):
        r2, c2 = (r + 1, c) if r + 1 < px.shape[0] else (r - 1, c)
        rad = pitches * float(np.linalg.norm(px[r, c] - px[r2, c2]))
        x, y = px[r, c]
        x0, x1 = max(int(x - rad), 0), min(int(x + rad) + 1, w)
        y0, y1 = max(int(y - rad), 0), min(int(y + rad) + 1, h)
        ys, xs = np.mgrid[y0:y1, x0:x1]
        disc = (xs - x) ** 2 + (ys - y) ** 2 <= rad * rad
        patch = img[y0:y1, x0:x1][disc]
        if patch.size:
            dark = 255.0 - patch.min(-1).astype(np.float64)
            out[k] = float(np.quantile(dark, share)) <= noise
    return out


def _loss_causes(
    reader: BoardReader, reading: BoardReading, wrong: np.ndarray, scene: BoardScene
) -> dict[str, int]:
    """Why each visible hole was not read right: a confident misread, or an abstention for
    being taken as covered (a hand's margin, a shadow or light taken for a hand), on a board
    clipped at white by glare, under glare or added light, or another doubt (dark pegs, blur,
    tint, the board's edge)."""
    abstain = wrong & (reading.matrix < 0)
    covered = abstain & reading.covered
    clipped = abstain & ~covered & reader.clipped
    lit = abstain & ~covered & ~clipped & (reader.added_light > 5.0)
    return {
        "misread": int((wrong & (reading.matrix >= 0)).sum()),
        "covered": int(covered.sum()),
        "glare_clipped": int(clipped.sum()),
        "glare_clipped_blank": int(_blank(scene, np.argwhere(clipped)).sum()),
        "glare_clipped_faint": int(_blank(scene, np.argwhere(clipped), share=FAINT_SHARE).sum()),
        "glare": int(lit.sum()),
        "other": int((abstain & ~covered & ~clipped & ~lit).sum()),
    }


@dataclass(frozen=True)
class SuiteBoard:
    """One board of the render suite as its random sequence draws it (nothing rendered yet)."""

    colours: tuple[str, str]
    pegs: np.ndarray
    links: list[tuple[int, int, int, int]]
    style: int
    scene_seed: int
    hands: int

    @property
    def spec(self) -> BoardSpec:
        return BoardSpec.twixt(colours=self.colours)

    def scenes(self, width: int, height: int, hands: int | None = None) -> tuple[BoardScene, BoardScene]:
        """(the board without hands, the board with ``hands`` of them: the drawn number by default)."""
        texture, truth = render_board_texture("twixt", self.pegs, self.links, self.colours, style=self.style)
        n_hands = self.hands if hands is None else hands
        clear = compositor_board_scene(self.scene_seed, texture, truth, width, height, hands=0)
        if n_hands == 0:
            return clear, clear
        return clear, compositor_board_scene(self.scene_seed, texture, truth, width, height, hands=n_hands)


def suite_boards(rng: random.Random, boards: int) -> Iterator[SuiteBoard]:
    """The render suite's boards, drawn one by one from ``rng``."""
    for _ in range(boards):
        colours = rng.choice([("red", "black"), ("red", "grey")])
        pegs, links = random_twixt_position(rng, rng.randint(0, 200))
        style = rng.randrange(4)
        yield SuiteBoard(colours, pegs, links, style, rng.randrange(1 << 30), rng.choice([0, 1, 1, 2]))


def suite_board(seed: int, index: int) -> SuiteBoard:
    """Board ``index`` of the render suite run with ``seed`` (the quick and full suites draw the
    same boards, at 1280 x 720 and 1920 x 1080)."""
    return list(suite_boards(random.Random(seed), index + 1))[-1]


def _render_suite(rng: random.Random, boards: int, width: int, height: int) -> dict[str, object]:
    visible_total = correct = misread = exact = 0
    tp = fp = fn = 0
    causes = dict.fromkeys(
        ("misread", "covered", "glare_clipped", "glare_clipped_blank", "glare_clipped_faint"), 0
    ) | {"glare": 0, "other": 0}
    link_causes = {"pegs_unread": 0, "bridge_unseen": 0}
    for i, board in enumerate(suite_boards(rng, boards)):
        spec = board.spec
        clear, scene = board.scenes(width, height)
        truth = scene.truth
        near = near_hands(scene, 2.0) & spec.valid_mask()
        visible = spec.valid_mask() & ~near
        visible_total += int(visible.sum())
        vis_links = {lk for lk in truth.links if _link_visible(lk, visible)}
        loc = _locate(clear.image, spec)
        if loc is None:
            log.info("render board %d: no board found", i)
            fn += len(vis_links)
            continue
        reader = BoardReader(spec, loc)
        reading = reader.read(scene.image)
        ok = reading.matrix == truth.pegs
        correct += int((ok & visible).sum())
        for key, count in _loss_causes(reader, reading, visible & ~ok, scene).items():
            causes[key] += count
        for r1, c1, r2, c2 in vis_links - set(reading.links):
            unread = min(reading.matrix[r1, c1], reading.matrix[r2, c2]) <= 0
            link_causes["pegs_unread" if unread else "bridge_unseen"] += 1
        misread += int((near & (reading.matrix >= 0) & ~ok).sum())
        true_links = set(truth.links)
        seen = set(reading.links)
        tp += len(seen & true_links)
        fp += len(seen - true_links)
        fn += len(vis_links - seen)
        if (ok | ~visible).all() and not (seen - true_links) and vis_links <= seen:
            exact += 1
    return {
        "boards": boards,
        "hole_accuracy": rounded(correct / max(visible_total, 1), 6),
        "board_exact_rate": rounded(exact / max(boards, 1)),
        "link_precision": rounded(tp / max(tp + fp, 1), 5),
        "link_recall": rounded(tp / max(tp + fn, 1), 5),
        "misread_under_hands": misread,
        "losses": {"holes": causes, "links": link_causes},
    }


def _go_suite(rng: random.Random, boards: int, width: int, height: int) -> dict[str, float | int]:
    spec = BoardSpec.go()
    total = correct = 0
    for _ in range(boards):
        stones = random_go_position(rng, rng.randint(0, 250))
        texture, truth = render_board_texture("go", stones, style=rng.randrange(3))
        scene = compositor_board_scene(rng.randrange(1 << 30), texture, truth, width, height)
        total += spec.size * spec.size
        loc = _locate(scene.image, spec)
        if loc is None:
            continue
        reading = BoardReader(spec, loc).read(scene.image)
        correct += int((reading.matrix == truth.pegs).sum())
    return {"boards": boards, "point_accuracy": rounded(correct / max(total, 1), 6)}


def _video_game(
    rng: random.Random, moves: int
) -> list[tuple[tuple[int, int], list[tuple[int, int, int, int]]]]:
    """A legal game of ``moves`` pegs: each (row, col) with the links the mover adds."""
    game = make_game("twixt", ("Red", "Black"), "standard", {"pie": False})
    state = game.initial_state()
    out = []
    for k in range(moves):
        seat = k % 2
        colour = state.colour_of(seat)
        free = game.free_holes(state, colour)
        # Play near the middle and near own pegs, as players do, so links happen.
        h = rng.choice(free)
        x, y = game.board.xy(h)
        state, ruling = game.apply(state, Place(seat, (x, y)))
        assert ruling.applies, ruling
        added = []
        for lid in game.legal_links(state, colour):
            a, b = game.board.link_ends(lid)
            if h not in (a, b) or rng.random() < 0.2:
                continue
            (xa, ya), (xb, yb) = game.board.xy(a), game.board.xy(b)
            state, ruling = game.apply(state, Link(seat, (xa, ya), (xb, yb)))
            if ruling.applies:
                lo, hi = sorted([(ya, xa), (yb, xb)])
                added.append((lo[0], lo[1], hi[0], hi[1]))
        out.append(((y, x), added))
    return out


def _video_suite(
    rng: random.Random, moves: int, width: int, height: int, frames_per_move: int
) -> dict[str, int]:
    spec = BoardSpec.twixt()
    game = _video_game(rng, moves)
    cam = replace(random_camera(rng, width, height, max_tilt=30.0), jpeg=0)
    pegs = np.zeros((24, 24), np.int8)
    links: list[tuple[int, int, int, int]] = []
    texture, truth = render_board_texture("twixt", pegs, links)
    first = render_board_scene(texture, truth, cam, seed=0)
    loc = _locate(first.image, spec)
    if loc is None:
        return {"moves": moves, "moves_exact": 0}
    tracker = TwixtMoveTracker(BoardReader(spec, loc))
    tracker.update(first.image)
    expected = []
    frame = 1
    from referee.twixt.notation import hole_name

    for k, ((r, c), added) in enumerate(game):
        colour = 1 + k % 2
        seat = rng.choice(["bottom", "top"] if colour == 1 else ["left", "right"])
        pitch, margin = truth.geometry.pitch_mm, truth.geometry.margin_mm
        target = (margin + c * pitch, margin + r * pitch)
        expected.append(
            " ".join(
                [hole_name((c, r)), *(f"{hole_name((a[1], a[0]))}-{hole_name((a[3], a[2]))}" for a in added)]
            )
        )
        old = (pegs.copy(), list(links))
        pegs[r, c] = colour
        links = sorted(links + added)
        new_tex, new_truth = render_board_texture("twixt", pegs, links)
        old_tex, old_truth = render_board_texture("twixt", old[0], old[1])
        # The hand reaches in (board unchanged), places (board changed under it), leaves.
        steps = max(frames_per_move - 2, 2)
        for j in range(steps):
            f = (j + 1) / (steps // 2 + 1) if j < steps // 2 else 1.0 - (j - steps // 2) / steps
            tip = (
                target[0] + (1 - f) * 120 * (1 if seat == "right" else -1 if seat == "left" else 0),
                target[1] + (1 - f) * 120 * (1 if seat == "bottom" else -1 if seat == "top" else 0),
            )
            hand = HandSpec(seat, (tip[0] + 4, tip[1] + 4), 80.0, k % 5, k % 6)
            tex, tr = (old_tex, old_truth) if j < steps // 2 else (new_tex, new_truth)
            scene = render_board_scene(tex, tr, cam, [hand], seed=frame)
            frame += 1
            tracker.update(scene.image)
        for _ in range(frames_per_move - steps):
            scene = render_board_scene(new_tex, new_truth, cam, seed=frame)
            frame += 1
            tracker.update(scene.image)
    got = tracker.moves
    exact = sum(1 for a, b in zip(expected, got, strict=False) if a == b)
    if len(got) != len(expected):
        log.info("video: %d moves committed, %d played", len(got), len(expected))
    return {"moves": moves, "moves_exact": exact if len(got) == len(expected) else min(exact, len(got))}


def _speed_suite(rng: random.Random, repeat: int) -> dict[str, float]:
    spec = BoardSpec.twixt()
    pegs, links = random_twixt_position(rng, 120)
    texture, truth = render_board_texture("twixt", pegs, links)
    seed = rng.randrange(1 << 30)
    a = compositor_board_scene(seed, texture, truth, 1920, 1080, distortion=False).image
    free = np.argwhere((pegs == 0) & spec.valid_mask())
    r, c = map(int, free[len(free) // 2])
    pegs2 = pegs.copy()
    pegs2[r, c] = 1
    texture2, truth2 = render_board_texture("twixt", pegs2, links)
    b = compositor_board_scene(seed, texture2, truth2, 1920, 1080, distortion=False).image
    loc = _locate(a, spec)
    if loc is None:
        return {"ms_full_read_1080p_median": float("nan"), "ms_incremental_median": float("nan")}
    reader = BoardReader(spec, loc)
    full, inc = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        reader.read(a)
        full.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        reader.update(b)
        inc.append((time.perf_counter() - t0) * 1000)
    return {
        "ms_full_read_1080p_median": rounded(median(full), 2),
        "ms_full_read_1080p_p95": rounded(percentile(full, 95), 2),
        "ms_incremental_median": rounded(median(inc), 2),
        "ms_incremental_p95": rounded(percentile(inc, 95), 2),
    }


def run(quick: bool, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    if quick:
        render = _render_suite(rng, 16, 1280, 720)
        video = _video_suite(rng, 60, 960, 540, 5)
        go = _go_suite(rng, 6, 1280, 720)
        speed = _speed_suite(rng, 30)
    else:
        render = _render_suite(rng, 100, 1920, 1080)
        video = _video_suite(rng, 60, 1280, 720, 8)
        go = _go_suite(rng, 40, 1920, 1080)
        speed = _speed_suite(rng, 200)
    return {"render": render, "video": video, "go_render": go, "speed": speed}
