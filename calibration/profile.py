"""A calibration profile: what tableref learned about one table and one camera, kept as JSON.

It holds the board (kind, size, colours, outline corners and the lattice homography), optional
camera intrinsics (from a printed chessboard) used to undistort frames, and the table plane with
its seats (which image edge belongs to which player) for the card games. One file per table and
camera (:func:`profile_path`), written by ``tableref calibrate`` and reused next time.

    >>> profile = CalibrationProfile(table="kitchen", camera="usb0", image_size=(1920, 1080))
    >>> profile.save(path)                                    # doctest: +SKIP
    >>> CalibrationProfile.load(path) == profile              # doctest: +SKIP
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from calibration.board_finder import BoardLocation
from calibration.errors import InputError

VERSION = 1
EDGES = ("top", "bottom", "left", "right")


def _matrix(obj: Any, shape: tuple[int, ...], what: str) -> np.ndarray:
    try:
        arr = np.asarray(obj, np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{what}: expected numbers of shape {shape}") from exc
    if arr.shape != shape or not np.isfinite(arr).all():
        raise InputError(f"{what}: expected finite numbers of shape {shape}, got shape {arr.shape}")
    return arr


@dataclass(frozen=True, eq=False)
class BoardCalibration:
    """Where the board is in this camera's image."""

    kind: str
    """``"twixt"`` or ``"go"``."""
    size: int
    colours: tuple[str, str]
    corners: np.ndarray
    """(4, 2) image px of the lattice's corner points: top-left, top-right, bottom-right, bottom-left."""
    homography: np.ndarray
    """3x3, lattice (column, row) -> image px (in undistorted images when intrinsics exist)."""
    evidence: float
    """Lattice evidence when found (0..1)."""
    k1: float = 0.0
    """The lens's radial term the lattice was fitted with (see :class:`BoardLocation`)."""

    def location(self, image_size: tuple[int, int]) -> BoardLocation:
        return BoardLocation(
            self.size, self.homography.copy(), self.corners.copy(), self.evidence, image_size, self.k1
        )

    @classmethod
    def from_location(cls, kind: str, colours: tuple[str, str], loc: BoardLocation) -> BoardCalibration:
        return cls(
            kind,
            loc.size,
            tuple(colours),  # type: ignore[arg-type]
            loc.corners.copy(),
            loc.homography.copy(),
            loc.evidence,
            loc.k1,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "size": self.size,
            "colours": list(self.colours),
            "corners": self.corners.round(3).tolist(),
            "homography": self.homography.tolist(),
            "evidence": round(self.evidence, 4),
            "k1": self.k1,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> BoardCalibration:
        if obj.get("kind") not in ("twixt", "go"):
            raise InputError(f"board kind {obj.get('kind')!r}: expected 'twixt' or 'go'")
        size = obj.get("size")
        if isinstance(size, bool) or not isinstance(size, int) or not 3 <= size <= 40:
            raise InputError(f"board size {size!r}: expected an integer 3..40")
        colours = obj.get("colours")
        if not isinstance(colours, list) or len(colours) != 2 or not all(isinstance(c, str) for c in colours):
            raise InputError(f"board colours {colours!r}: expected two colour names")
        return cls(
            obj["kind"],
            size,
            (colours[0], colours[1]),
            _matrix(obj.get("corners"), (4, 2), "board corners"),
            _matrix(obj.get("homography"), (3, 3), "board homography"),
            float(obj.get("evidence", 0.0)),
            _radial(obj.get("k1", 0.0)),
        )


def _radial(value: Any) -> float:
    """A board's radial lens term from a profile (absent in older ones: 0)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InputError(f"board k1 {value!r}: expected a number")
    if abs(value) > 0.5:
        raise InputError(f"board k1 {value!r}: expected a radial term within -0.5..0.5")
    return float(value)


@dataclass(frozen=True, eq=False)
class Intrinsics:
    """A camera's matrix and lens distortion (OpenCV's model)."""

    camera_matrix: np.ndarray
    """3x3."""
    distortion: np.ndarray
    """(5,) k1, k2, p1, p2, k3."""
    rms: float
    """Reprojection error of the calibration, px."""
    image_size: tuple[int, int]
    """(width, height) the calibration was made at."""

    def to_json(self) -> dict[str, Any]:
        return {
            "camera_matrix": self.camera_matrix.tolist(),
            "distortion": self.distortion.ravel().tolist(),
            "rms": round(self.rms, 5),
            "image_size": list(self.image_size),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Intrinsics:
        dist = np.asarray(obj.get("distortion"), np.float64).ravel()
        if dist.size not in (4, 5, 8, 12, 14) or not np.isfinite(dist).all():
            raise InputError(f"distortion {obj.get('distortion')!r}: expected 4, 5, 8, 12 or 14 numbers")
        size = obj.get("image_size")
        if not isinstance(size, list) or len(size) != 2:
            raise InputError(f"intrinsics image_size {size!r}: expected [width, height]")
        return cls(
            _matrix(obj.get("camera_matrix"), (3, 3), "camera matrix"),
            dist,
            float(obj.get("rms", math.nan)),
            (int(size[0]), int(size[1])),
        )


@dataclass(frozen=True, eq=False)
class TablePlane:
    """The table's plane and who sits where, for the card games."""

    homography: np.ndarray | None = None
    """3x3, table mm -> image px, when known (e.g. from the board, or from four marked points)."""
    seats: Mapping[str, int] = field(default_factory=dict)
    """Image edge (top, bottom, left, right) -> player seat index."""

    def to_json(self) -> dict[str, Any]:
        return {
            "homography": None if self.homography is None else self.homography.tolist(),
            "seats": dict(self.seats),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> TablePlane:
        seats = obj.get("seats", {})
        if not isinstance(seats, Mapping):
            raise InputError(f"seats {seats!r}: expected an object edge -> player seat")
        for edge, seat in seats.items():
            if edge not in EDGES or isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
                raise InputError(f"seat {edge!r}: {seat!r}: expected an edge of {EDGES} and a seat index")
        hom = obj.get("homography")
        return cls(None if hom is None else _matrix(hom, (3, 3), "table homography"), dict(seats))


@dataclass(frozen=True, eq=False)
class CalibrationProfile:
    """Everything known about one table seen by one camera."""

    table: str
    camera: str
    image_size: tuple[int, int]
    """(width, height) of the frames the profile applies to."""
    board: BoardCalibration | None = None
    intrinsics: Intrinsics | None = None
    plane: TablePlane = field(default_factory=TablePlane)
    created: str = ""
    """ISO time the profile was first written."""
    updated: str = ""
    """ISO time of the last change (a re-found board, new seats)."""

    def with_board(self, board: BoardCalibration) -> CalibrationProfile:
        return replace(self, board=board, updated=_now())

    def with_seats(self, seats: Mapping[str, int]) -> CalibrationProfile:
        return replace(self, plane=replace(self.plane, seats=dict(seats)), updated=_now())

    def to_json(self) -> dict[str, Any]:
        return {
            "version": VERSION,
            "table": self.table,
            "camera": self.camera,
            "image_size": list(self.image_size),
            "board": None if self.board is None else self.board.to_json(),
            "intrinsics": None if self.intrinsics is None else self.intrinsics.to_json(),
            "plane": self.plane.to_json(),
            "created": self.created or _now(),
            "updated": self.updated or self.created or _now(),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> CalibrationProfile:
        if not isinstance(obj, Mapping):
            raise InputError("calibration profile: expected a JSON object")
        if obj.get("version") != VERSION:
            raise InputError(f"calibration profile version {obj.get('version')!r}: expected {VERSION}")
        size = obj.get("image_size")
        if (
            not isinstance(size, list)
            or len(size) != 2
            or not all(isinstance(v, int) and v > 0 for v in size)
        ):
            raise InputError(f"image_size {size!r}: expected [width, height] in pixels")
        return cls(
            str(obj.get("table", "")),
            str(obj.get("camera", "")),
            (size[0], size[1]),
            None if obj.get("board") is None else BoardCalibration.from_json(obj["board"]),
            None if obj.get("intrinsics") is None else Intrinsics.from_json(obj["intrinsics"]),
            TablePlane.from_json(obj.get("plane") or {}),
            str(obj.get("created", "")),
            str(obj.get("updated", "")),
        )

    def save(self, path: str | Path) -> Path:
        """Write the profile as JSON (atomically: a temporary file, then a rename)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")
        tmp.replace(path)
        return path

    @classmethod
    def load(cls, path: str | Path) -> CalibrationProfile:
        path = Path(path)
        try:
            obj = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError as exc:
            raise InputError(f"calibration profile {str(path)!r} does not exist") from exc
        except (OSError, json.JSONDecodeError) as exc:
            raise InputError(f"calibration profile {str(path)!r} is not readable JSON: {exc}") from exc
        try:
            return cls.from_json(obj)
        except InputError as exc:
            raise InputError(f"calibration profile {str(path)!r}: {exc}") from exc


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def profile_path(directory: str | Path, table: str, camera: str) -> Path:
    """The profile file of ``table`` seen by ``camera`` in ``directory``."""

    def slug(text: str) -> str:
        return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "default"

    return Path(directory) / f"{slug(table)}--{slug(camera)}.json"
