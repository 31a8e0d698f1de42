"""Camera intrinsics from photos of a printed chessboard (``cv2.calibrateCamera``), and undistortion."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import cv2
import numpy as np

from calibration.errors import InputError
from calibration.profile import Intrinsics

log = logging.getLogger(__name__)


def find_chessboard(image: np.ndarray, pattern: tuple[int, int]) -> np.ndarray | None:
    """(N, 1, 2) float32 inner corners of a chessboard with ``pattern`` (columns, rows) inner
    corners, refined to sub-pixel; ``None`` when not found."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    ok, corners = cv2.findChessboardCorners(
        gray, pattern, cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE
    )
    if not ok:
        return None
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    return cv2.cornerSubPix(gray, corners, (5, 5), (-1, -1), crit)


def calibrate_camera(
    images: Sequence[np.ndarray], pattern: tuple[int, int] = (9, 6), square_mm: float = 25.0
) -> Intrinsics:
    """Intrinsics from several views of the chessboard; at least three must show it."""
    if not images:
        raise InputError("chessboard images: expected at least three, got none")
    obj = np.zeros((pattern[0] * pattern[1], 3), np.float32)
    obj[:, :2] = np.mgrid[0 : pattern[0], 0 : pattern[1]].T.reshape(-1, 2) * square_mm
    size = (images[0].shape[1], images[0].shape[0])
    obj_pts, img_pts = [], []
    for i, img in enumerate(images):
        if (img.shape[1], img.shape[0]) != size:
            raise InputError(
                f"chessboard image {i}: size {img.shape[1]}x{img.shape[0]}, expected {size[0]}x{size[1]}"
            )
        corners = find_chessboard(img, pattern)
        if corners is None:
            log.info("no %dx%d chessboard in image %d", pattern[0], pattern[1], i)
            continue
        obj_pts.append(obj)
        img_pts.append(corners)
    if len(obj_pts) < 3:
        raise InputError(
            f"chessboard images: a {pattern[0]}x{pattern[1]} chessboard was found in {len(obj_pts)} of "
            f"{len(images)}, expected at least 3"
        )
    rms, k, dist, _r, _t = cv2.calibrateCamera(obj_pts, img_pts, size, None, None)
    return Intrinsics(k, dist.ravel(), float(rms), size)


def undistort(image: np.ndarray, intr: Intrinsics) -> np.ndarray:
    """The image with lens distortion removed (same camera matrix)."""
    if (image.shape[1], image.shape[0]) != intr.image_size:
        raise InputError(
            f"image of {image.shape[1]}x{image.shape[0]}: intrinsics were made at "
            f"{intr.image_size[0]}x{intr.image_size[1]}"
        )
    return cv2.undistort(image, intr.camera_matrix, intr.distortion)
