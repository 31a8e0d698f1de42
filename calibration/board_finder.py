"""Find a Twixt or Go board in an image: its outline, then its hole (or line) lattice.

1. Outline: the image is shrunk and smoothed until holes and pegs vanish, its colours are
   clustered, and every large compact region becomes a candidate quadrilateral (its four longest
   hull sides, intersected). With ``corners`` given (manual fallback), that quadrilateral is used.
2. Lattice: the quadrilateral is rectified to a square; the dark-dot response (a morphological
   black-hat) is projected on both axes and the ``size``-point lattice that best explains each
   profile gives the pitch and offset (the board's margin is not assumed).
3. Refinement: each lattice point is re-centred on its dark blob and a homography from lattice
   coordinates (column, row) to the image is fitted with RANSAC.
   A Go grid (``pattern="lines"``) is then registered on its segments: its points alone fit a
   lattice one pitch off about as well (the board's frame, about a pitch past the outermost
   lines, reads as one more line), so the lattice is moved by the whole pitches that put lines
   between its neighbouring points and none past its outermost ones (:func:`register_grid`).
4. Evidence: the fraction of lattice points darker than the surrounding cell centres. A wrong
   lattice scores about one half; a real board close to one.
5. Lens: the best lattice is refitted on its points measured in the full image (holes' centres;
   a Go grid's lines, crossed between intersections) with one radial term ``k1`` besides the
   homography, kept when an F test says the points call for it (:func:`fit_radial`). A webcam's
   barrel bends the rows of holes a tenth of a pitch and more off any homography at the edges.

Lattice coordinates are (u, v) = (column, row) in units of the pitch; row 0 is the lattice row
nearest the image's top, column 0 its left end.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.errors import InputError

log = logging.getLogger(__name__)

RECT_SIZE = 512
"""Side in pixels of the square the board is rectified to while its lattice is found."""
MIN_EVIDENCE = 0.85
MARGIN = 0.1
"""Margin (fraction of the rectified side) left around the outline when looking for the lattice."""
"""Below this lattice evidence, no board is reported."""


class BoardNotFound(InputError):
    """No board in the image; the message says why."""


@dataclass(frozen=True, eq=False)
class BoardLocation:
    """Where a board is in one image."""

    size: int
    """Lattice points per side."""
    homography: np.ndarray
    """3x3, lattice (column, row) -> image px."""
    corners: np.ndarray
    """(4, 2) image px of the lattice's corner points (row 0 column 0, row 0 column size - 1,
    then the bottom right and bottom left ones): top-left, top-right, bottom-right, bottom-left."""
    evidence: float
    """Fraction of lattice points that look like holes / intersections (0..1)."""
    image_size: tuple[int, int]
    """(width, height) of the image it was found in."""
    k1: float = 0.0
    """The lens's radial term: ``homography`` maps to undistorted px, and an image point ``d`` lies
    at undistorted ``c + (d - c)(1 + k1 |d - c|^2 / R^2)`` (``c`` the image centre, ``R`` its half
    diagonal; :func:`undistort_points`). 0: the homography maps straight to the image."""

    def to_image(self, lattice: np.ndarray) -> np.ndarray:
        """Lattice (column, row) points (..., 2) -> image px (through the lens)."""
        return project(self.homography, lattice, self.k1, self.image_size)

    def holes_px(self) -> np.ndarray:
        """(size, size, 2) image positions of every lattice point (row, column order)."""
        v, u = np.mgrid[0 : self.size, 0 : self.size].astype(np.float64)
        return self.to_image(np.stack([u, v], -1))

    def pitch_px(self) -> float:
        """Mean distance between neighbouring holes in the image."""
        h = self.holes_px()
        return float(
            (
                np.linalg.norm(np.diff(h, axis=1), axis=-1).mean()
                + np.linalg.norm(np.diff(h, axis=0), axis=-1).mean()
            )
            / 2
        )


def order_corners(pts: np.ndarray) -> np.ndarray:
    """Four points ordered top-left, top-right, bottom-right, bottom-left as seen in the image."""
    pts = np.asarray(pts, np.float64).reshape(4, 2)
    centre = pts.mean(0)
    ang = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    # Top-left sits nearest -135 degrees; the rest follow clockwise (increasing angle, y down).
    start = int(np.argmin(np.abs(((ang + 3 * math.pi / 4) + math.pi) % (2 * math.pi) - math.pi)))
    order = np.argsort((ang - ang[start]) % (2 * math.pi))
    return pts[order]


def _gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _quad_from_hull(hull: np.ndarray) -> np.ndarray | None:
    """The quadrilateral whose sides are the four longest sides of a (simplified) convex hull."""
    peri = cv2.arcLength(hull, True)
    poly = cv2.approxPolyDP(hull, 0.01 * peri, True).reshape(-1, 2).astype(np.float64)
    if len(poly) < 4:
        return None
    if len(poly) == 4:
        return order_corners(poly)
    sides = [(np.linalg.norm(poly[(i + 1) % len(poly)] - poly[i]), i) for i in range(len(poly))]
    keep = sorted(i for _, i in sorted(sides, reverse=True)[:4])
    lines = [(poly[i], poly[(i + 1) % len(poly)]) for i in keep]
    out = []
    for k in range(4):
        (p1, p2), (p3, p4) = lines[k], lines[(k + 1) % 4]
        d1, d2 = p2 - p1, p4 - p3
        den = d1[0] * d2[1] - d1[1] * d2[0]
        if abs(den) < 1e-9:
            return None
        t = ((p3[0] - p1[0]) * d2[1] - (p3[1] - p1[1]) * d2[0]) / den
        out.append(p1 + t * d1)
    quad = np.array(out)
    if not cv2.isContourConvex(quad.astype(np.float32).reshape(-1, 1, 2)):
        return None
    return order_corners(quad)


def dot_region_quads(image: np.ndarray, relative: bool = False, pattern: str = "holes") -> list[np.ndarray]:
    """Quadrilaterals around the largest fields of small dark dots (the hole lattice itself):
    immune to glare and to a table the colour of the board, which fool the outline.

    With ``relative``, each dot's depth is taken relative to the brightness around it: a hard
    shadow across a pale board dims its holes' contrast, not their ratio to the board, and the
    shaded part's dots fall under a level set by the lit part's. With ``pattern="lines"``, the
    field is of dark dots and lines (a Go grid, whose crossings are no dots)."""
    h, w = image.shape[:2]
    scale = min(1.0, 1280.0 / max(h, w))
    gray = _gray(image)
    small = (
        gray
        if scale == 1.0
        else cv2.resize(gray, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    )
    out = []
    for k in (9, 15, 23):
        bh_h = cv2.morphologyEx(small, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_RECT, (k, 1)))
        bh_v = cv2.morphologyEx(small, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_RECT, (1, k)))
        resp = np.minimum(bh_h, bh_v).astype(np.float32)
        if pattern == "lines":
            kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
            resp = cv2.morphologyEx(small, cv2.MORPH_BLACKHAT, kernel).astype(np.float32)
        if relative:
            local = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))).astype(np.float32)
            resp = resp / (cv2.GaussianBlur(local, (0, 0), k) + 16.0) * 128.0
        quad = _dot_field_quad(resp, k, small.size)
        if quad is not None:
            out.append(quad / scale)
    return out


def _dot_field_quad(resp: np.ndarray, k: int, area: int) -> np.ndarray | None:
    """The quadrilateral around the largest field of dots (``k`` px apart or less) in a dot
    response of an image of ``area`` px, if that field is large enough to be a board."""
    level = max(8.0, 0.35 * float(np.percentile(resp, 99.5)))
    dots = (resp > level).astype(np.uint8) * 255
    field = cv2.morphologyEx(
        dots, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1,) * 2)
    )
    field = cv2.morphologyEx(field, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k,) * 2))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(field)
    if n < 2:
        return None
    j = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[j, cv2.CC_STAT_AREA] < 0.02 * area:
        return None
    contours, _ = cv2.findContours((labels == j).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return _quad_from_hull(cv2.convexHull(max(contours, key=cv2.contourArea)))


def candidate_quads(image: np.ndarray, max_candidates: int = 6) -> list[np.ndarray]:
    """Board-like quadrilaterals (image px), the most promising first."""
    h, w = image.shape[:2]
    scale = 320.0 / max(h, w)
    small = cv2.resize(
        image, (max(8, round(w * scale)), max(8, round(h * scale))), interpolation=cv2.INTER_AREA
    )
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    small = cv2.medianBlur(small, 5)
    small = cv2.medianBlur(small, 5)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
    area_img = small.shape[0] * small.shape[1]
    found: list[tuple[float, np.ndarray]] = []
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 12, 1.0)
    # Colour with its lightness (Lab), then its hue alone (a, b): glare brightens part of a board
    # towards a white table square, but leaves its hue.
    for feats, k in ((lab, 2), (lab, 3), (lab, 4), (lab[:, 1:].copy(), 2), (lab[:, 1:].copy(), 3)):
        cv2.setRNGSeed(k)
        _c, labels, _centres = cv2.kmeans(feats, k, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
        labels = labels.reshape(small.shape[:2])
        for j in range(k):
            mask = (labels == j).astype(np.uint8) * 255
            mask = cv2.morphologyEx(
                mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
            )
            for open_k in (0, 21):
                m = mask
                if open_k:
                    m = cv2.morphologyEx(
                        mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (open_k,) * 2)
                    )
                contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
                for cnt in contours:
                    area = cv2.contourArea(cnt)
                    if area < 0.03 * area_img or area > 0.97 * area_img:
                        continue
                    hull = cv2.convexHull(cnt)
                    solidity = area / max(cv2.contourArea(hull), 1.0)
                    if solidity < 0.75:
                        continue
                    quad = _quad_from_hull(hull)
                    if quad is None:
                        continue
                    qa = cv2.contourArea(quad.astype(np.float32))
                    fit = min(area, qa) / max(area, qa, 1.0)
                    if fit < 0.8:
                        continue
                    found.append((fit * solidity, quad / scale))
    found.sort(key=lambda t: -t[0])
    out: list[np.ndarray] = []
    for _score, quad in found:
        if all(np.abs(quad - q).max() > 0.02 * max(h, w) for q in out):
            out.append(quad)
        if len(out) >= max_candidates:
            break
    return out


def refine_quad(gray: np.ndarray, quad: np.ndarray, reach: float, rounds: int = 2) -> np.ndarray:
    """Move each side of ``quad`` onto the strongest edge within ``reach`` px along its normal
    (a robust line fit through 48 samples per side), then intersect the sides again."""
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    g = cv2.GaussianBlur(gray, (0, 0), 1.2).astype(np.float32)
    for k in range(rounds):
        r = reach / (2**k)
        offs = np.arange(-r, r + 1.0, 1.0)
        lines = []
        centre = quad.mean(0)
        for i in range(4):
            a, b = quad[i], quad[(i + 1) % 4]
            d = (b - a) / max(np.linalg.norm(b - a), 1e-9)
            n = np.array([-d[1], d[0]])
            if np.dot(centre - a, n) < 0:
                n = -n  # inward normal
            t = np.linspace(0.08, 0.92, 48)
            base = a[None, :] + (b - a)[None, :] * t[:, None]
            pts = base[:, None, :] + offs[None, :, None] * n[None, None, :]
            vals = cv2.remap(
                g, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32), cv2.INTER_LINEAR
            )
            grad = np.abs(np.diff(vals, axis=1))
            j = grad.argmax(1)
            strong = grad.max(1) > 4.0
            if strong.sum() < 8:
                lines.append((a, d))
                continue
            found = base[strong] + ((offs[j] + offs[j + 1]) / 2)[strong, None] * n[None, :]
            vx, vy, x0, y0 = cv2.fitLine(found.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
        out = []
        for i in range(4):
            (p1, d1), (p2, d2) = lines[i - 1], lines[i]
            den = d1[0] * d2[1] - d1[1] * d2[0]
            if abs(den) < 1e-9:
                return quad
            t1 = ((p2[0] - p1[0]) * d2[1] - (p2[1] - p1[1]) * d2[0]) / den
            out.append(p1 + t1 * d1)
        new = np.array(out)
        if np.abs(new - quad).max() > 3 * reach:
            return quad
        quad = new
    return quad


def _profile_lattice(profile: np.ndarray, size: int, span: float) -> tuple[float, float, float]:
    """(offset, pitch, contrast) of the ``size``-point lattice best explaining a 1-D profile whose
    board outline spans ``span`` pixels (the board's edge, or its border lines one pitch in)."""
    n = len(profile)
    xs = np.arange(n, dtype=np.float64)
    start = (n - span) / 2
    pitches = np.arange(span / (size + 3.5), span / (size - 2.5), 0.05)
    best = (0.0, 0.0, -np.inf)
    idx = np.arange(size, dtype=np.float64)
    for p in pitches:
        length = (size - 1) * p
        # The lattice lies within the outline, give or take a little over a pitch.
        lo, hi = max(0.0, start - 1.3 * p), min(n - 1 - length, start + span - length + 1.3 * p)
        offsets = np.arange(lo, hi, 0.25)
        if len(offsets) == 0:
            continue
        pos = offsets[:, None] + idx[None, :] * p
        on = np.interp(pos, xs, profile).mean(1)
        off = np.interp(pos[:, :-1] + p / 2, xs, profile).mean(1)
        score = on - off
        j = int(np.argmax(score))
        if score[j] > best[2]:
            best = (float(offsets[j]), float(p), float(score[j]))
    return best


def dark_response(gray: np.ndarray, pitch: float, pattern: str = "holes") -> np.ndarray:
    """Black-hat response, float32: of dark dots only (``"holes"``: a dot is dark across both
    axes, a printed line only across one), or of dark dots and lines (``"lines"``, a Go grid)."""
    k = max(3, round(1.2 * pitch) | 1)
    if pattern == "lines":
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        return cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, kernel).astype(np.float32)
    bh_h = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_RECT, (k, 1)))
    bh_v = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_RECT, (1, k)))
    return np.minimum(bh_h, bh_v).astype(np.float32)


def lattice_evidence(
    resp: np.ndarray,
    lat_to_img: np.ndarray,
    size: int,
    valid: np.ndarray | None = None,
    gray: np.ndarray | None = None,
    counts: bool = False,
    registered: float = 0.0,
    k1: float = 0.0,
) -> float:
    """Fraction of lattice points whose response beats the mean of their four cell centres.

    With ``counts``, the fraction of all points that confirm the lattice (less the outer ring):
    to compare candidate alignments of one image, where more confirmed points win.

    Points that look like nothing (under a hand) or brighter than their cells (a white stone)
    neither confirm nor refute the lattice; at least half the points must decide.

    ``registered`` (0..1): how surely the lattice's placement is known otherwise (a Go grid's
    segments): the outer ring's penalty goes no lower (a busy table or the board's frame just
    outside can look like a ring of holes). ``k1``: the lens's radial term (:class:`BoardLocation`)."""
    v, u = np.mgrid[0:size, 0:size].astype(np.float64)
    pts = np.stack([u, v], -1)
    offs = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    allp = np.concatenate([pts[None], pts[None] + offs[:, None, None, :]], 0)
    h, w = resp.shape
    img = project(lat_to_img, allp, k1, (w, h))
    xi = np.clip(np.round(img[..., 0]).astype(int), 0, w - 1)
    yi = np.clip(np.round(img[..., 1]).astype(int), 0, h - 1)
    vals = resp[yi, xi]
    inside = ((img[..., 0] >= 0) & (img[..., 0] < w) & (img[..., 1] >= 0) & (img[..., 1] < h)).all(0)
    hole, cells = vals[0], vals[1:].mean(0)
    sel = inside if valid is None else inside & valid
    if gray is not None:
        g = gray[yi, xi].astype(np.float32)
        sel &= g[0] <= g[1:].mean(0) + 12.0
    total = int(valid.sum()) if valid is not None else size * size
    pos = int(((hole > 2.0 * cells + 5.0) & sel).sum())
    neg = int(((cells > 2.0 * hole + 5.0) & sel).sum())
    # Points under a hand are flat (neither): they neither confirm nor refute the lattice.
    inner = pos / max(pos + neg, 0.6 * total, 1)
    # The lattice is periodic: one shifted by whole pitches still mostly fits. The ring of points
    # just outside a right lattice never looks like holes; outside a shifted one, a side does.
    confirmed = (hole > 2.0 * cells + 5.0) & sel
    typical = float(np.median(hole[confirmed])) if confirmed.any() else 0.0
    ring = outer_ring_holes(resp, lat_to_img, size, typical, k1)
    if counts:
        return pos / max(total, 1) - 0.5 * ring
    return inner * max(registered, 1.0 - 3.0 * ring, 0.0)


def outer_ring_holes(
    resp: np.ndarray, lat_to_img: np.ndarray, size: int, typical: float = 0.0, k1: float = 0.0
) -> float:
    """Fraction of the points one pitch outside the lattice that respond like holes: clearly
    more than their cells, or (beside a busy table) at least half as much as a typical hole."""
    n = size
    ring = [(u, -1) for u in range(1, n - 1)] + [(u, n) for u in range(1, n - 1)]
    ring += [(-1, v) for v in range(1, n - 1)] + [(n, v) for v in range(1, n - 1)]
    pts = np.array(ring, np.float64)
    offs = np.array([[0, 0], [-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    h, w = resp.shape
    img = project(lat_to_img, pts[None] + offs[:, None], k1, (w, h))
    xi = np.clip(np.round(img[..., 0]).astype(int), 0, w - 1)
    yi = np.clip(np.round(img[..., 1]).astype(int), 0, h - 1)
    vals = resp[yi, xi]
    # A hole stands out from its quietest cell (a busy table may sit under the others) and, when
    # the lattice's holes are known, is at least half as dark as a typical one.
    like = vals[0] > 2.0 * vals[1:].min(0) + 5.0
    if typical > 0:
        like &= vals[0] > 0.5 * typical
    return float(like.mean())


def fit_lattice(
    image: np.ndarray, quad: np.ndarray, size: int, valid: np.ndarray | None = None, pattern: str = "holes"
) -> BoardLocation:
    """The ``size`` x ``size`` lattice inside the board outline ``quad`` (TL, TR, BR, BL, image px)."""
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    gray = _gray(image)
    s = RECT_SIZE
    # The outline goes inside a margin: an outline found along printed border lines rather than
    # the board's edge leaves the outer rows of holes outside it.
    m = round(MARGIN * s)
    q = s - 2 * m
    sq = np.array([[m, m], [m + q - 1, m], [m + q - 1, m + q - 1], [m, m + q - 1]], np.float64)
    img_to_rect = cv2.getPerspectiveTransform(quad.astype(np.float32), sq.astype(np.float32)).astype(
        np.float64
    )
    rect = cv2.warpPerspective(gray, img_to_rect, (s, s), flags=cv2.INTER_AREA)
    pitch0 = q / (size + 1.0)
    resp = dark_response(rect, pitch0, pattern)
    x0, px, _cx = _profile_lattice(resp.mean(0), size, q)
    y0, py, _cy = _profile_lattice(resp.mean(1), size, q)
    if px <= 0 or py <= 0:
        raise BoardNotFound(f"no {size} x {size} lattice inside the board outline")
    # The profiles may lock one pitch off (a border line, the board's edge): try the neighbours.
    best = None
    for dx in (0, -1, 1):
        for dy in (0, -1, 1):
            cand = np.array([[px, 0, x0 + dx * px], [0, py, y0 + dy * py], [0, 0, 1]], np.float64)
            cand = _refine(resp, cand, size, (px + py) / 2)
            score = lattice_evidence(resp, cand, size, valid, rect, counts=True)
            if best is None or score > best[0] + 1e-9:
                best = (score, cand)
    assert best is not None
    lat_to_rect = best[1]
    segments = 0.0
    if pattern == "lines":
        moved, segments = register_grid(rect, lat_to_rect, size, (px + py) / 2)
        if moved is not lat_to_rect:
            # The points were fitted with one row or column on the frame: fit them again.
            lat_to_rect = _refine(resp, moved, size, (px + py) / 2)
    lat_to_img = np.linalg.inv(img_to_rect) @ lat_to_rect
    lat_to_img /= lat_to_img[2, 2]
    full = dark_response(gray, _pitch_in_image(lat_to_img, size), pattern)
    # Lines between the points and none past the outermost ones place a grid for sure.
    registered = float(np.clip((segments - SEGMENTS_SURE[0]) / (SEGMENTS_SURE[1] - SEGMENTS_SURE[0]), 0, 1))
    evidence = lattice_evidence(full, lat_to_img, size, valid, gray, registered=registered)
    log.debug("lattice evidence %.3f, grid segments %.3f", evidence, segments)
    if pattern == "lines":
        evidence *= crossing_factor(gray, lat_to_img, size)
    inside = _inside_fraction(lat_to_img, size, quad)
    if inside < 0.9:
        log.debug("lattice leaves its outline (%.2f inside): rejected", inside)
        evidence *= max(0.0, (inside - 0.5) / 0.4) * 0.5
    h, w = gray.shape[:2]
    n = size - 1
    ends = np.array([[[0, 0]], [[n, 0]], [[n, n]], [[0, n]]], np.float64)
    corners = cv2.perspectiveTransform(ends, lat_to_img).reshape(4, 2)
    return BoardLocation(size, lat_to_img, corners, evidence, (w, h))


REGISTER_REACH = 2
"""Whole pitches a grid's registration may move the fitted lattice along each axis."""
REGISTER_MIN_SCORE = 0.7
"""A registration moves the lattice only when the moved one's segment score reaches this ..."""
REGISTER_MIN_GAIN = 0.1
"""... and beats the unmoved one's by this much."""
SEGMENTS_SURE = (0.6, 0.9)
"""A Go grid's segment score from which on (to which) its placement is taken as (fully) sure,
whatever the ring just outside it looks like."""
OUTSIDE_AT = 0.62
"""Where a grid's missing outer segments are looked for: this far (in pitches) past its outermost
lines, beyond the edge of a stone on them (radius under 0.5) and short of the board's edge."""


def grid_segment_score(
    h_lines: np.ndarray,
    v_lines: np.ndarray,
    lat_to_img: np.ndarray,
    size: int,
    levels: tuple[float, float] | None = None,
    k1: float = 0.0,
) -> tuple[float, tuple[float, float]]:
    """How well a Go grid's segments explain a lattice placement, and the line levels used.

    Per axis: the fraction of segments between neighbouring points that show a line, less twice
    the fraction of places just past the outermost points (along the same rows and columns) that
    show one; the mean of the two axes. ``h_lines`` / ``v_lines`` respond to horizontal /
    vertical dark lines only; a line shows where the response passes its ``levels`` (by default
    0.4 of the median over this placement's segments; pass one placement's levels to compare
    others fairly). A lattice one pitch off along x keeps all its horizontal segments but one
    column of them lies in the board's margin, and the grid's own last column lies outside it;
    the board's frame (an edge across that axis) does not look like a horizontal segment. The
    same holds along y."""
    n = size
    idx = np.arange(n, dtype=np.float64)
    mid = np.arange(n - 1, dtype=np.float64) + 0.5
    out = np.array([-OUTSIDE_AT, n - 1 + OUTSIDE_AT])
    h, w = h_lines.shape

    def sample(resp: np.ndarray, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
        pts = np.stack(np.meshgrid(us, vs), -1).reshape(-1, 1, 2)
        img = project(lat_to_img, pts.reshape(-1, 2), k1, (w, h))
        inside = (img[:, 0] >= 0) & (img[:, 0] < w) & (img[:, 1] >= 0) & (img[:, 1] < h)
        xi = np.clip(np.round(img[:, 0]).astype(int), 0, w - 1)
        yi = np.clip(np.round(img[:, 1]).astype(int), 0, h - 1)
        return np.where(inside, resp[yi, xi], 0.0)

    h_in, h_out = sample(h_lines, mid, idx), sample(h_lines, out, idx)
    v_in, v_out = sample(v_lines, idx, mid), sample(v_lines, idx, out)
    if levels is None:
        levels = (max(4.0, 0.4 * float(np.median(h_in))), max(4.0, 0.4 * float(np.median(v_in))))
    lh, lv = levels
    score_h = (h_in > lh).mean() - 2.0 * (h_out > lh).mean()
    score_v = (v_in > lv).mean() - 2.0 * (v_out > lv).mean()
    return float(score_h + score_v) / 2, levels


def line_responses(gray: np.ndarray, pitch: float, slack: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """(horizontal, vertical) dark-line responses of a Go grid, float32, each grown by ``slack`` px
    across its lines (a line is then found within that of where a lattice puts it)."""
    k = max(3, round(1.2 * pitch) | 1)
    # A black-hat along y keeps dark features thin across y: horizontal lines (and stones).
    h_lines = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_RECT, (1, k)))
    v_lines = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_RECT, (k, 1)))
    grow = 2 * max(1, slack) + 1
    h_lines = cv2.dilate(h_lines, cv2.getStructuringElement(cv2.MORPH_RECT, (3, grow))).astype(np.float32)
    v_lines = cv2.dilate(v_lines, cv2.getStructuringElement(cv2.MORPH_RECT, (grow, 3))).astype(np.float32)
    return h_lines, v_lines


CROSSING_TOLERANCE = 0.2
"""How far (in pitches) a line may lie from where a lattice puts it and still confirm it (a lens's
bend before it is modelled, a blurred line's spread)."""


CROSSINGS_SURE = (0.5, 0.9)
"""A Go lattice whose fraction of segments on their lines (:func:`grid_crossings`, the worse axis)
is at most the first keeps no evidence; from the second on, all of it."""


def crossing_factor(gray: np.ndarray, lat_to_img: np.ndarray, size: int, k1: float = 0.0) -> float:
    """The factor (0..1) a Go lattice's evidence is scaled by for how surely it sits on the grid's
    line crossings (:func:`grid_crossings`): points alone cannot tell a lattice slid along the lines."""
    pitch = _pitch_in_image(lat_to_img, size)
    on = min(grid_crossings(gray, lat_to_img, size, pitch, k1))
    lo, hi = CROSSINGS_SURE
    factor = float(np.clip((on - lo) / (hi - lo), 0.0, 1.0))
    if factor < 1.0:
        log.debug("grid crossings %.3f: evidence scaled by %.2f", on, factor)
    return factor


def grid_crossings(
    gray: np.ndarray, lat_to_img: np.ndarray, size: int, pitch: float, k1: float = 0.0
) -> tuple[float, float]:
    """Per axis, the fraction of a Go lattice's deciding segments whose line lies where it puts it.

    A lattice slid along the grid's lines (an outline skewed along a side) keeps every point on a
    line, so dark at its points and bright at its cells as a right one is; only the crossing lines
    tell. Across the middle of each segment between neighbouring points (half a pitch to either
    side) the darkest line must lie within :data:`CROSSING_TOLERANCE` of the segment. Stones
    either side of a segment are symmetric about it and keep its darkest place there; a segment
    showing no clear line (glare, white stones touching) decides nothing.
    Returns (horizontal lines placed, vertical lines placed)."""
    h_lines, v_lines = line_responses(gray, pitch)
    h, w = gray.shape[:2]
    phases = np.linspace(-0.5, 0.5, 11)
    idx = np.arange(size, dtype=np.float64)
    mid = idx[:-1] + 0.5
    out = []
    for resp, across in ((h_lines, 1), (v_lines, 0)):
        us, vs = (mid, idx) if across == 1 else (idx, mid)
        pts = np.stack(np.meshgrid(us, vs), -1).reshape(-1, 2)
        offs = np.zeros((len(phases), 1, 2))
        offs[:, 0, across] = phases
        img = project(lat_to_img, pts[None] + offs, k1, (w, h))
        xi = np.clip(np.round(img[..., 0]).astype(int), 0, w - 1)
        yi = np.clip(np.round(img[..., 1]).astype(int), 0, h - 1)
        prof = resp[yi, xi]
        peak = prof.max(0)
        where = np.abs(phases[prof.argmax(0)])
        clear = (peak > 8.0) & (peak > 2.0 * np.median(prof, 0) + 4.0)
        pos = int((clear & (where <= CROSSING_TOLERANCE + 1e-9)).sum())
        neg = int((clear & (where > CROSSING_TOLERANCE + 1e-9)).sum())
        out.append(pos / max(pos + neg, 1) if pos + neg >= size else 0.5)
    return out[0], out[1]


def register_grid(
    gray: np.ndarray, lat_to_img: np.ndarray, size: int, pitch: float, k1: float = 0.0
) -> tuple[np.ndarray, float]:
    """The fitted Go lattice moved by the whole pitches (up to :data:`REGISTER_REACH` a side)
    that best match the grid's segments (:func:`grid_segment_score`).

    The lattice's shape (pitch, perspective) is found from its points, which a lattice shifted by
    a pitch fits about as well (the board's frame, about a pitch past the outermost lines, reads
    like one more line); the segments between the points tell where the grid starts and ends."""
    h_lines, v_lines = line_responses(gray, pitch)
    here, levels = grid_segment_score(h_lines, v_lines, lat_to_img, size, k1=k1)
    best = (-np.inf, lat_to_img)
    for dx in range(-REGISTER_REACH, REGISTER_REACH + 1):
        for dy in range(-REGISTER_REACH, REGISTER_REACH + 1):
            shift = np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1]], np.float64)
            cand = lat_to_img @ shift
            cand = cand / cand[2, 2]
            # Ties go to the smallest move.
            score = grid_segment_score(h_lines, v_lines, cand, size, levels, k1)[0] - 1e-3 * (
                abs(dx) + abs(dy)
            )
            if score > best[0]:
                best = (score, cand)
    if best[0] < REGISTER_MIN_SCORE or best[0] < here + REGISTER_MIN_GAIN:
        # The segments do not say clearly (a lens bends the grid away from any homography,
        # glare hides the lines): the lattice stays where its points put it.
        return lat_to_img, here
    return best[1], float(best[0])


def _inside_fraction(lat_to_img: np.ndarray, size: int, quad: np.ndarray) -> float:
    """Fraction of the lattice points inside the outline grown by 15 %: a lattice found in the
    outline must lie in it (one that strays out is a pattern that only looks like holes)."""
    centre = quad.mean(0)
    grown = (centre + 1.15 * (quad - centre)).astype(np.float32).reshape(-1, 1, 2)
    v, u = np.mgrid[0:size, 0:size].astype(np.float64)
    pts = cv2.perspectiveTransform(np.stack([u, v], -1).reshape(-1, 1, 2), lat_to_img).reshape(-1, 2)
    inside = [
        cv2.pointPolygonTest(grown, (float(x), float(y)), False) >= 0 for x, y in pts[:: max(1, size // 6)]
    ]
    return float(np.mean(inside))


def _pitch_in_image(lat_to_img: np.ndarray, size: int) -> float:
    c = (size - 1) / 2
    pts = np.array([[[c, c]], [[c + 1, c]], [[c, c + 1]]], np.float64)
    p = cv2.perspectiveTransform(pts, lat_to_img).reshape(3, 2)
    return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2)


def _refine(resp: np.ndarray, lat_to_rect: np.ndarray, size: int, pitch: float) -> np.ndarray:
    """Re-centre lattice points on their dark blobs and fit a homography (RANSAC), growing from
    the centre outwards: a first guess is best in the middle and drifts towards the edges."""
    h, w = resp.shape
    half = max(2, int(0.35 * pitch))
    v, u = np.mgrid[0:size, 0:size].astype(np.float64)
    lat = np.stack([u, v], -1).reshape(-1, 2)
    c = (size - 1) / 2
    ring = np.maximum(np.abs(lat[:, 0] - c), np.abs(lat[:, 1] - c))
    win = np.arange(-half, half + 1)
    for reach in (3.5, 6.5, 9.5, size, size):
        sel = ring <= reach
        pred = cv2.perspectiveTransform(lat[sel].reshape(-1, 1, 2), lat_to_rect).reshape(-1, 2)
        xi = np.round(pred[:, 0]).astype(int)
        yi = np.round(pred[:, 1]).astype(int)
        ok = (xi - half >= 0) & (xi + half < w) & (yi - half >= 0) & (yi + half < h)
        if ok.sum() < 8:
            continue
        ys = yi[ok][:, None, None] + win[None, :, None]
        xs = xi[ok][:, None, None] + win[None, None, :]
        patch = resp[ys, xs]
        patch = patch - patch.min(axis=(1, 2), keepdims=True)
        wsum = patch.sum(axis=(1, 2))
        strong = wsum > 1e-3
        cx = (patch * win[None, None, :]).sum(axis=(1, 2)) / np.maximum(wsum, 1e-6)
        cy = (patch * win[None, :, None]).sum(axis=(1, 2)) / np.maximum(wsum, 1e-6)
        meas = np.stack([xi[ok] + cx, yi[ok] + cy], -1)[strong]
        src = lat[sel][ok][strong]
        if len(src) < 8:
            continue
        hom, _inl = cv2.findHomography(src, meas, cv2.RANSAC, 0.15 * pitch)
        if hom is not None:
            lat_to_rect = hom / hom[2, 2]
    return lat_to_rect


def find_board(
    image: np.ndarray,
    size: int = 24,
    corners: np.ndarray | None = None,
    valid: np.ndarray | None = None,
    min_evidence: float = MIN_EVIDENCE,
    pattern: str = "holes",
    lens: bool = True,
) -> BoardLocation:
    """The board in ``image`` (BGR or gray), with a ``size`` x ``size`` lattice.

    ``corners``: the board given by hand (4 x 2 image px, any order): its outline or its
    lattice's four corner points, within a pitch or so; ``valid``: a
    (size, size) mask of the lattice points that exist (Twixt has no corner holes); ``pattern``:
    ``"holes"`` (Twixt) or ``"lines"`` (a Go grid, read at its intersections). Raises
    :class:`BoardNotFound` saying why when no outline holds a lattice with enough evidence.
    With ``lens``, the found lattice is refitted on its measured points with a radial lens term
    where they call for one (:func:`fit_radial`).
    """
    if image is None or image.ndim not in (2, 3) or min(image.shape[:2]) < 32:
        raise InputError("image: expected a BGR or gray image at least 32 x 32 pixels")
    if size < 3:
        raise InputError(f"board size {size}: expected at least 3")
    gray = _gray(image)
    if corners is not None:
        quads = [order_corners(np.asarray(corners, np.float64))]
        best = _fit_outlines(image, gray, quads, size, valid, pattern)
    else:
        quads = dot_region_quads(image) + candidate_quads(image)
        best = _fit_outlines(image, gray, quads, size, valid, pattern)
        if best is None or best.evidence <= SURE_EVIDENCE:
            # Fields of dots relative to the light around them (a hard shadow across a pale board).
            more = dot_region_quads(image, relative=True)
            if pattern == "lines":
                # A Go grid's own field of lines (its crossings are no dots; a table the board's
                # colour hides its outline).
                more += dot_region_quads(image, pattern="lines")
            again = _fit_outlines(image, gray, more, size, valid, pattern)
            if again is not None and (best is None or again.evidence > best.evidence):
                best = again
            quads += more
        if not quads:
            raise BoardNotFound(
                "no board outline found: no large four-sided region stands out from the table"
            )
    if best is not None and corners is None and best.evidence <= SURE_EVIDENCE:
        best = _refit_from_lattice(image, best, size, valid, pattern)
    if best is not None and best.evidence >= min_evidence and lens:
        # The lattice's shape as the lens bends it (the lattice itself stays: a refit moves no point
        # by half a pitch).
        lat_to_img, k1 = fit_radial(gray, best.homography, size, valid, pattern)
        if pattern == "lines" and k1:
            # Through the lens a Go grid's segments line up again: a lattice a pitch off, which
            # they could not tell under the bend, is moved (and its shape fitted again there).
            moved, _score = register_grid(gray, lat_to_img, size, _pitch_in_image(lat_to_img, size), k1)
            if moved is not lat_to_img:
                log.debug("lens: the grid moved by its segments")
                lat_to_img, k1 = fit_radial(gray, moved, size, valid, pattern, k1=k1)
        if lat_to_img is not best.homography:
            n = size - 1
            ends = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float64)
            corners_px = project(lat_to_img, ends, k1, best.image_size)
            evidence = best.evidence
            if pattern == "lines":
                # The grid as the lens bends it must still sit on its line crossings.
                evidence = min(evidence, crossing_factor(gray, lat_to_img, size, k1))
            best = BoardLocation(size, lat_to_img, corners_px, evidence, best.image_size, k1)
    if best is None or best.evidence < min_evidence:
        got = 0.0 if best is None else best.evidence
        where = (
            "inside the given corners" if corners is not None else f"in any of {len(quads)} board outlines"
        )
        raise BoardNotFound(
            f"no {size} x {size} hole lattice {where}: lattice evidence {got:.2f} below {min_evidence:.2f}"
        )
    return best


SURE_EVIDENCE = 0.97
"""A lattice with more evidence than this ends the search through outlines."""


def _fit_outlines(
    image: np.ndarray,
    gray: np.ndarray,
    quads: list[np.ndarray],
    size: int,
    valid: np.ndarray | None,
    pattern: str,
) -> BoardLocation | None:
    """The lattice with the most evidence in any of ``quads``, each tried moved onto the strongest
    nearby edges (the board's edge or its printed border lines: the lattice fit needs the
    outline's orientation to be exact) and as found; the first sure one ends the search."""
    reach = 0.015 * max(image.shape[:2])
    best: BoardLocation | None = None
    tries = (q for found in quads for q in (order_corners(refine_quad(gray, found, reach)), found))
    for quad in tries:
        try:
            loc = fit_lattice(image, quad, size, valid, pattern)
        except BoardNotFound:
            continue
        log.debug("candidate %s evidence %.3f", quad.round(1).tolist(), loc.evidence)
        if best is None or loc.evidence > best.evidence:
            best = loc
        if loc.evidence > SURE_EVIDENCE:
            break
    return best


REFIT_ROUNDS = 3
"""How many times an unsure lattice is fitted again inside an outline drawn from itself."""


def _refit_from_lattice(
    image: np.ndarray, loc: BoardLocation, size: int, valid: np.ndarray | None, pattern: str
) -> BoardLocation:
    """``loc`` fitted again inside the outline one pitch outside its own outermost points, while
    that raises its evidence: an outline found on a busy table (a checked cloth, a shadow across
    the board) may be skewed enough to smear the lattice's profiles, while the lattice it gave,
    roughly right, draws the board's outline better."""
    n = size - 1
    ends = np.array([[[-1, -1]], [[n + 1, -1]], [[n + 1, n + 1]], [[-1, n + 1]]], np.float64)
    for _ in range(REFIT_ROUNDS):
        quad = cv2.perspectiveTransform(ends, loc.homography).reshape(4, 2)
        try:
            again = fit_lattice(image, quad, size, valid, pattern)
        except BoardNotFound:
            break
        log.debug("lattice refitted in its own outline: evidence %.3f -> %.3f", loc.evidence, again.evidence)
        if again.evidence <= loc.evidence:
            break
        loc = again
    return loc


# -- lens: one radial term -----------------------------------------------------------------------

RADIAL_MAX = 0.12
"""Largest radial term tried (in units of the image's half diagonal; a strong webcam barrel is ~0.04)."""
RADIAL_F = 30.0
"""A radial term is kept only when it explains this many times more of the lattice's squared
residual than one more free parameter explains by chance (an F test against a plain homography
on the same measured points; the measuring noise alone leaves residual either way)."""
RADIAL_MIN = 0.002
"""A fitted radial term smaller than this is no lens worth modelling."""


def _lens_frame(image_size: tuple[int, int]) -> tuple[np.ndarray, float]:
    """(image centre, half diagonal) that normalise image px for the radial term."""
    w, h = image_size
    return np.array([w / 2.0, h / 2.0]), 0.5 * math.hypot(w, h)


def undistort_points(pts: np.ndarray, k1: float, image_size: tuple[int, int]) -> np.ndarray:
    """Image px (..., 2) -> undistorted px: ``c + (d - c)(1 + k1 |d - c|^2 / R^2)`` with ``c`` the
    image centre and ``R`` its half diagonal (``k1 > 0``: barrel distortion)."""
    p = np.asarray(pts, np.float64)
    if k1 == 0.0:
        return p.copy()
    c, r = _lens_frame(image_size)
    d = p - c
    return c + d * (1.0 + k1 * (d * d).sum(-1, keepdims=True) / (r * r))


def distort_points(pts: np.ndarray, k1: float, image_size: tuple[int, int]) -> np.ndarray:
    """Undistorted px (..., 2) -> image px, the inverse of :func:`undistort_points` (fixed point)."""
    p = np.asarray(pts, np.float64)
    if k1 == 0.0:
        return p.copy()
    c, r = _lens_frame(image_size)
    u = p - c
    d = u.copy()
    for _ in range(12):
        d = u / (1.0 + k1 * (d * d).sum(-1, keepdims=True) / (r * r))
    return c + d


def project(
    lat_to_img: np.ndarray, pts: np.ndarray, k1: float = 0.0, image_size: tuple[int, int] = (0, 0)
) -> np.ndarray:
    """Lattice (u, v) points (..., 2) -> image px through the homography, then the lens."""
    p = np.asarray(pts, np.float64)
    out = cv2.perspectiveTransform(p.reshape(-1, 1, 2), lat_to_img).reshape(p.shape)
    return distort_points(out, k1, image_size) if k1 else out


def _lattice_residuals(
    params: np.ndarray, xn: np.ndarray, axis: np.ndarray, target: np.ndarray
) -> np.ndarray:
    """Per constraint: the lattice coordinate (u or v, by ``axis``) of normalised image points
    ``xn`` after the lens (``params[8]``) and the image -> lattice homography (``params[:8]``),
    less its ``target``."""
    g = np.append(params[:8], 1.0).reshape(3, 3)
    q = xn * (1.0 + params[8] * (xn * xn).sum(1))[:, None]
    w = q @ g[:, :2].T + g[:, 2]
    uv = w[:, :2] / w[:, 2:3]
    return uv[np.arange(len(xn)), axis] - target


def _fit_lens(
    xn: np.ndarray, axis: np.ndarray, target: np.ndarray, g0: np.ndarray, with_k1: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Levenberg-Marquardt on :func:`_lattice_residuals` from ``g0`` (image -> lattice, normalised
    px), trimming outliers twice; ``(params, inliers)``."""
    params = np.append((g0 / g0[2, 2]).ravel()[:8], 0.0)
    keep = np.ones(len(xn), bool)
    free = np.arange(9 if with_k1 else 8)
    for _round in range(3):
        lam = 1e-3
        x, a, t = xn[keep], axis[keep], target[keep]
        res = _lattice_residuals(params, x, a, t)
        cost = float(res @ res)
        for _ in range(30):
            jac = np.empty((len(res), len(free)))
            for j, k in enumerate(free):
                step = 1e-6 * max(1.0, abs(params[k]))
                p2 = params.copy()
                p2[k] += step
                jac[:, j] = (_lattice_residuals(p2, x, a, t) - res) / step
            jtj = jac.T @ jac
            grad = jac.T @ res
            while True:
                try:
                    delta = np.linalg.solve(jtj + lam * np.diag(np.diag(jtj) + 1e-12), -grad)
                except np.linalg.LinAlgError:
                    delta = np.zeros(len(free))
                trial = params.copy()
                trial[free] += delta
                res2 = _lattice_residuals(trial, x, a, t)
                cost2 = float(res2 @ res2)
                if cost2 < cost or lam > 1e8:
                    break
                lam *= 10.0
            if cost2 >= cost:
                break
            done = cost - cost2 < 1e-10 * max(cost, 1e-12)
            params, res, cost, lam = trial, res2, cost2, max(lam / 10.0, 1e-9)
            if done:
                break
        full = np.abs(_lattice_residuals(params, xn, axis, target))
        limit = max(3.0 * 1.4826 * float(np.median(full[keep])), 0.03)
        new = full < limit
        if new.sum() < 0.5 * len(xn) or np.array_equal(new, keep):
            break
        keep = new
    return params, keep


def _hole_constraints(
    resp: np.ndarray, lat_to_img: np.ndarray, k1: float, size: int, valid: np.ndarray | None, pitch: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(image px (M, 2), axis (M,), target (M,)): each lattice point re-centred on its dark blob
    (the weighted centre of the response within a third of a pitch), as two constraints."""
    h, w = resp.shape
    v, u = np.mgrid[0:size, 0:size].astype(np.float64)
    lat = np.stack([u, v], -1).reshape(-1, 2)
    if valid is not None:
        lat = lat[valid.ravel()]
    pred = project(lat_to_img, lat, k1, (w, h))
    half = max(2, int(0.35 * pitch))
    win = np.arange(-half, half + 1)
    xi, yi = np.round(pred[:, 0]).astype(int), np.round(pred[:, 1]).astype(int)
    ok = (xi - half >= 0) & (xi + half < w) & (yi - half >= 0) & (yi + half < h)
    patch = resp[yi[ok][:, None, None] + win[None, :, None], xi[ok][:, None, None] + win[None, None, :]]
    peak = patch.max(axis=(1, 2))
    patch = patch - patch.min(axis=(1, 2), keepdims=True)
    wsum = patch.sum(axis=(1, 2))
    strong = (peak > 0.3 * float(np.median(peak))) & (wsum > 1e-3)
    cx = (patch * win[None, None, :]).sum(axis=(1, 2)) / np.maximum(wsum, 1e-6)
    cy = (patch * win[None, :, None]).sum(axis=(1, 2)) / np.maximum(wsum, 1e-6)
    meas = np.stack([xi[ok] + cx, yi[ok] + cy], -1)[strong]
    src = lat[ok][strong]
    pts = np.repeat(meas, 2, axis=0)
    axis = np.tile([0, 1], len(meas))
    return pts, axis, src.ravel()


def _line_constraints(
    gray: np.ndarray, lat_to_img: np.ndarray, k1: float, size: int, pitch: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(image px (M, 2), axis (M,), target (M,)): points on a grid's lines, each found across its
    line halfway between two intersections (the darkest point of a short profile across it, a
    narrow dip with the board on both sides; a stone's edge or body is no line): on row ``v`` a
    point has lattice ``v`` as its target (axis 1), on column ``u`` its ``u`` (axis 0)."""
    h, w = gray.shape
    g = cv2.GaussianBlur(gray, (0, 0), 0.8).astype(np.float32)
    n = size
    mids = np.arange(n - 1) + 0.5
    idx = np.arange(n, dtype=np.float64)
    offs = np.linspace(-0.3, 0.3, 25)
    out_pts, out_axis, out_t = [], [], []
    for ax in (0, 1):
        # ax 1: rows (v fixed, u runs over the mids); ax 0: columns.
        a, b = np.meshgrid(mids, idx)  # b: the fixed coordinate
        if ax == 1:
            base = np.stack([a, b], -1).reshape(-1, 2)
            normal = np.array([0.0, 1.0])
        else:
            base = np.stack([b, a], -1).reshape(-1, 2)
            normal = np.array([1.0, 0.0])
        samples = base[:, None, :] + offs[None, :, None] * normal[None, None, :]
        img = project(lat_to_img, samples, k1, (w, h))
        vals = cv2.remap(g, img[..., 0].astype(np.float32), img[..., 1].astype(np.float32), cv2.INTER_LINEAR)
        inside = (
            (img[..., 0] >= 1) & (img[..., 0] < w - 2) & (img[..., 1] >= 1) & (img[..., 1] < h - 2)
        ).all(1)
        j = vals.argmin(1)
        low = vals[np.arange(len(vals)), j]
        ends = np.concatenate([vals[:, :3], vals[:, -3:]], 1)
        top = np.median(ends, 1)
        depth = top - low
        # Narrow: a fifth of a pitch from the dip, the profile is back near the board.
        k = 8
        left = vals[np.arange(len(vals)), np.clip(j - k, 0, len(offs) - 1)]
        right = vals[np.arange(len(vals)), np.clip(j + k, 0, len(offs) - 1)]
        narrow = (np.minimum(left, right) > low + 0.6 * depth) & (j >= k) & (j < len(offs) - k)
        flat = np.abs(vals[:, :3].mean(1) - vals[:, -3:].mean(1)) < 0.35 * depth
        good = inside & narrow & flat & (depth > 8.0)
        # Sub-sample: a parabola through the dip.
        jj = np.clip(j, 1, len(offs) - 2)
        y0, y1, y2 = (vals[np.arange(len(vals)), jj + s] for s in (-1, 0, 1))
        den = y0 - 2 * y1 + y2
        frac = np.where(np.abs(den) > 1e-6, 0.5 * (y0 - y2) / np.where(np.abs(den) > 1e-6, den, 1.0), 0.0)
        off = offs[jj] + np.clip(frac, -1, 1) * (offs[1] - offs[0])
        lat_pts = base + off[:, None] * normal[None, :]
        pts = project(lat_to_img, lat_pts, k1, (w, h))
        out_pts.append(pts[good])
        out_axis.append(np.full(int(good.sum()), ax))
        out_t.append(base[good, ax])
    return np.concatenate(out_pts), np.concatenate(out_axis), np.concatenate(out_t)


def fit_radial(
    gray: np.ndarray,
    lat_to_img: np.ndarray,
    size: int,
    valid: np.ndarray | None = None,
    pattern: str = "holes",
    rounds: int = 2,
    k1: float = 0.0,
) -> tuple[np.ndarray, float]:
    """The lattice refitted on its measured points, with one radial lens term where the points
    call for it: ``(lat_to_img, k1)``, ``lat_to_img`` mapping the lattice to undistorted px (see
    :func:`undistort_points`; ``k1`` 0 when no lens is kept).

    A lens bends a board's straight rows of holes (or grid lines) into curves no homography
    follows: towards the board's edges its holes drift off the lattice by a tenth of a pitch and
    more. The points are measured where the current model puts them (holes: the centre of each
    dark blob; a Go grid: its lines, crossed halfway between intersections, which a stone or an
    edge's T crossing does not pull as they pull an intersection's blob), and a homography alone
    and one with the term are fitted (Levenberg-Marquardt, outliers trimmed), twice. The term is
    kept when it passes an F test (:data:`RADIAL_F`); a refit that moves any lattice point by
    more than half a pitch is no refinement, and the lattice stays as given (``lat_to_img`` through
    the lens ``k1`` it comes with)."""
    h, w = gray.shape[:2]
    c, r = _lens_frame((w, h))
    norm = np.array([[1 / r, 0, -c[0] / r], [0, 1 / r, -c[1] / r], [0, 0, 1]])
    pitch = _pitch_in_image(lat_to_img, size)
    resp = dark_response(gray, pitch, pattern) if pattern == "holes" else None
    cur_h, cur_k = lat_to_img, k1
    for _ in range(rounds):
        if resp is not None:
            pts, axis, target = _hole_constraints(resp, cur_h, cur_k, size, valid, pitch)
        else:
            pts, axis, target = _line_constraints(gray, cur_h, cur_k, size, pitch)
        if len(pts) < 40:
            break
        xn = (pts - c) / r
        # Image (normalised, undistorted) -> lattice, to start from.
        g0 = np.linalg.inv(norm @ cur_h)
        plain, keep0 = _fit_lens(xn, axis, target, g0, False)
        lens, keep1 = _fit_lens(xn, axis, target, g0, True)
        keep = keep0 & keep1
        if keep.sum() < 40:
            break
        xk = xn[keep]
        r0 = _lattice_residuals(plain, xk, axis[keep], target[keep])
        r1 = _lattice_residuals(lens, xk, axis[keep], target[keep])
        f_stat = float((r0 @ r0 - r1 @ r1) / max((r1 @ r1) / max(len(r1) - 9, 1), 1e-12))
        k1 = float(lens[8])
        use = lens if f_stat >= RADIAL_F and RADIAL_MIN <= abs(k1) <= RADIAL_MAX else plain
        log.debug("radial fit: k1 %.4f (F %.1f), kept %.4f", k1, f_stat, use[8])
        g = np.append(use[:8], 1.0).reshape(3, 3)
        cur_h = np.linalg.inv(norm) @ np.linalg.inv(g)
        cur_h /= cur_h[2, 2]
        cur_k = float(use[8])
    v, u = np.mgrid[0:size, 0:size].astype(np.float64)
    lat = np.stack([u, v], -1)
    moved = np.linalg.norm(project(cur_h, lat, cur_k, (w, h)) - project(lat_to_img, lat, k1, (w, h)), axis=-1)
    if not np.isfinite(moved).all() or moved.max() > 0.5 * pitch:
        log.debug("radial fit moved the lattice %.2f pitches: not kept", float(np.nanmax(moved)) / pitch)
        return lat_to_img, k1
    return cur_h, cur_k
