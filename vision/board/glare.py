"""Holes on a board clipped at white by glare, read by the shape of what still shows.

Glare adds white light on top of the board, its pieces and its holes alike; where the sum passes
255 the camera clips. What stays below white there is the darkest part of each hole: an empty
hole's pit (a small disc at the centre, 0.11 pitch), a piece's body and its darker rim (a disc of
0.3 pitch). So, measured as darkness below white (``255 - value``) on a fine patch around the hole:

- an empty hole is dark at its centre only, the annulus around it (0.2 .. 0.3 pitch) clipped (a
  faint pit counts where it stands well out of its patch's noise);
- a piece is dark over that annulus as well, evenly all round (a finger's edge is not);
- either way the board around (0.38 .. 0.48 pitch) is clipped white (median: a link may cross it).

A piece's colour is told by its darkness's hue: a red piece leaves its red channel nearly white
(``R`` well below the mean of ``B`` and ``G``) and darkens blue and green alike (its paint has little
of either), a black or grey one darkens all three alike. Under tinted light a grey piece darkens its
channels unevenly, in the order of the light's gains (warm light: blue most, red least), so its red
channel too may be nearly white: a piece whose blue and green darkness differ that much is not
read red (nor grey: its red channel is too pale for that); it abstains.
An empty hole's pit is the board's own material in shade: below white its darkness keeps the board's
hue, as every pit on the board does. Where a board's pits lean so (read together, one board's holes),
a dark centre alike in every channel is no sure pit: a hueless piece lifted by glare to a remnant.
Where nothing shows (the glare lifts the pit and the piece past white) the hole is not read:
the reader abstains, it never guesses.
"""

from __future__ import annotations

import numpy as np

SAMPLES = 25
"""Samples across a hole's patch (each way); the patch spans -0.48 .. 0.48 pitch."""
NOISE = 2.5
"""Darkness (0..255) that noise and compression alone may give a clipped patch's parts."""
PIT_DARK = 6.0
"""Least darkness (0..255, mean of the channels) of an empty hole's pit at its centre ..."""
PIT_FAINT = 4.0
"""... or at least this where it is also ``PIT_CONTRAST`` times as dark as the rest of its patch
(annulus and board around) is: where glare clips the board flat, the noise floor there is low
(darkness about 1) and a faint pit still stands out of it ..."""
PIT_CONTRAST = 3.0
PIT_SPREAD = 0.3
"""... with the annulus around it at most this share as dark (blur spreads the pit a little)."""
PIECE_DARK = 7.0
"""Least darkness of a piece's annulus ..."""
PIECE_SPREAD = 0.6
"""... which is at least this share of its centre's (a piece is a disc, not a pit) ..."""
PIECE_ROUND = 0.4
"""... and whose darkest quarter is at most 1 / this as dark as its palest (a piece is round)."""
AROUND = 0.35
"""The board around a hole (median of its ring) is at most this share as dark as the hole itself (a
washed-out peg's blurred rim and its bridges darken that ring a little: at 0.25, grey pegs as plain
as seed 97's board 10, hole 8,16, went unread)."""
RED_MAX = 0.45
"""A piece's red-channel darkness at most this share of its blue and green ones' mean is red ..."""
RED_EVEN = 0.62
"""... if its blue and green darkness are that even too (the lesser at least this share of the
greater: a red piece's paint has little of either, 38 and 34 of 255) ..."""
HUELESS_MIN = 0.58
"""... and at least this share, black or grey."""

PIT_REF = 8
"""Pits read in one batch (one board's clipped holes) from which the board's own pit hue is taken ..."""
PIT_HUED = 0.3
"""... where their median lean (see ``_lean``) reaches this (a board with a hue of its own) ..."""
PIT_LEAN_SHARE = 0.5
"""... a pit leaning less than this share of theirs ..."""
PIT_EVEN = 0.2
"""... and darkened alike in every channel (each within this share of their mean), at least
``PIT_DARK``, is no sure pit: a hueless piece's remnant (a pit less clipped than the rest leans less
than they do, but still leans; a faint one, clipped in every channel, may not lean at all)."""

_g = np.linspace(-0.48, 0.48, SAMPLES)
OFFSET_Y, OFFSET_X = np.meshgrid(_g, _g, indexing="ij")
"""Sample offsets (pitches) of a hole's patch from its centre."""
_r = np.hypot(OFFSET_Y, OFFSET_X)
_CENTRE = _r <= 0.09
_ANNULUS = (_r >= 0.2) & (_r <= 0.3)
_AROUND = (_r >= 0.38) & (_r <= 0.48)
_QUARTERS = [
    _ANNULUS & (OFFSET_Y >= 0) & (OFFSET_X >= 0),
    _ANNULUS & (OFFSET_Y >= 0) & (OFFSET_X < 0),
    _ANNULUS & (OFFSET_Y < 0) & (OFFSET_X >= 0),
    _ANNULUS & (OFFSET_Y < 0) & (OFFSET_X < 0),
]
_eighth = np.floor((np.arctan2(OFFSET_Y, OFFSET_X) + np.pi) / (np.pi / 4)).astype(int) % 8
_OCTANTS = [_eighth == k for k in range(8)]
_CLEAN_PARTS = [m & part for m in (_ANNULUS, _AROUND) for part in _OCTANTS]

CLEAN = 2.0 * NOISE
"""Most darkness (0..255, mean of the channels) of each eighth of an empty hole's annulus and of the
board around it for :func:`clean_pits`."""


def read_shapes(
    patches: np.ndarray, red: int | None, hueless: int | None, pit_lean: float | None = None
) -> np.ndarray:
    """(K,) int8 for (K, SAMPLES, SAMPLES, 3) BGR patches around holes on a board clipped at white:
    0 empty, ``red`` or ``hueless`` (the spec's class numbers, None where it has no such class)
    for a piece, -1 where the shape says nothing for sure. The board's pits' lean is measured on
    the patches' own pits (``board_pit_lean``), or ``pit_lean`` where they are too few."""
    dark, pit, lean = _pits(patches)
    grey = dark.mean(-1)
    centre = grey[:, _CENTRE].mean(1)
    ring = grey[:, _ANNULUS].mean(1)
    around = np.median(grey[:, _AROUND], axis=1)
    quarters = np.stack([grey[:, q].mean(1) for q in _QUARTERS], 1)
    clear = around <= np.maximum(AROUND * np.maximum(centre, ring), NOISE)
    out = np.full(len(patches), -1, np.int8)
    # An empty hole's pit is the board's own material in shade: below white its darkness keeps
    # the board's hue (greatest in the channels the board is darkest in), as every other pit on
    # the board shows, if less where glare clips it less. A hueless piece lifted by glare to a
    # small dark centre darkens every channel alike: on a board with a hue, a "pit" without it
    # is not sure.
    ref = _pits_lean(lean, pit)
    ref = pit_lean if ref is None else ref
    if ref is not None and ref >= PIT_HUED:
        d = dark[:, _CENTRE].mean(1)
        mean = d.mean(-1, keepdims=True)
        even = (np.abs(d - mean) <= PIT_EVEN * mean).all(-1)
        # A faint pit (under ``PIT_DARK``, seen by its contrast alone) lies a few levels below white
        # in every channel: clipping leaves it no hue to tell.
        even &= mean[:, 0] >= PIT_DARK
        pit &= ~(even & (lean < PIT_LEAN_SHARE * ref))
    out[pit] = 0
    piece = clear & (ring >= PIECE_DARK) & (ring >= PIECE_SPREAD * centre)
    piece &= quarters.min(1) >= PIECE_ROUND * quarters.max(1)
    b, g, r = (dark[:, _ANNULUS, k].mean(1) for k in range(3))
    share = r / np.maximum(0.5 * (b + g), 1e-6)
    if red is not None:
        even = np.minimum(b, g) >= RED_EVEN * np.maximum(b, g)
        out[piece & (share <= RED_MAX) & even] = red
    if hueless is not None:
        out[piece & (share >= HUELESS_MIN)] = hueless
    return out


def board_pit_lean(patches: np.ndarray) -> float | None:
    """The median lean (see ``_lean``) of the pits :func:`read_shapes` finds among (K, SAMPLES,
    SAMPLES, 3) BGR patches of one board's clipped holes, before its lean test; None where they are
    fewer than ``PIT_REF``."""
    _dark, pit, lean = _pits(patches)
    return _pits_lean(lean, pit)


def _pits(patches: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(darkness below white (K, SAMPLES, SAMPLES, 3), (K,) bool: an empty hole's pit by its shape,
    (K,) its centre's lean) for (K, SAMPLES, SAMPLES, 3) BGR patches."""
    dark = 255.0 - patches.astype(np.float32)
    grey = dark.mean(-1)
    centre = grey[:, _CENTRE].mean(1)
    ring = grey[:, _ANNULUS].mean(1)
    around = np.median(grey[:, _AROUND], axis=1)
    clear = around <= np.maximum(AROUND * np.maximum(centre, ring), NOISE)
    deep = (centre >= PIT_DARK) | (
        (centre >= PIT_FAINT) & (centre >= PIT_CONTRAST * np.maximum(ring, around))
    )
    pit = clear & deep & (ring <= np.maximum(PIT_SPREAD * centre, NOISE))
    return dark, pit, _lean(dark[:, _CENTRE].mean(1))


def _pits_lean(lean: np.ndarray, pit: np.ndarray) -> float | None:
    """The median of ``lean`` over ``pit``, where at least ``PIT_REF`` (0: never); else None."""
    if not PIT_REF or pit.sum() < PIT_REF:
        return None
    return float(np.median(lean[pit]))


def _lean(dark: np.ndarray) -> np.ndarray:
    """(K,) for (K, 3) darkness below white: how far it leans to some channels (the norm of its
    difference from its mean over that mean; 0 for a darkness alike in every channel)."""
    mean = dark.mean(-1, keepdims=True)
    return np.linalg.norm(dark - mean, axis=-1) / np.maximum(mean[:, 0], 1e-6)


def clean_pits(patches: np.ndarray) -> np.ndarray:
    """(K,) bool for (K, SAMPLES, SAMPLES, 3) BGR patches around holes on a board clipped at white:
    an empty hole beyond doubt, its pit plainly dark (``PIT_DARK``) and every eighth of the annulus
    round it and of the board round that within ``CLEAN`` of white. Nothing lies over any part of
    such a hole: a finger as white as the glare over a peg, a gap between two fingers showing a sliver
    of it at the centre as a pit, leaves that sliver across some eighth of the annulus, and a peg half
    covered shows its dark half there."""
    grey = (255.0 - patches.astype(np.float32)).mean(-1)
    centre = grey[:, _CENTRE].mean(1)
    parts = np.stack([grey[:, m].mean(1) for m in _CLEAN_PARTS], 1)
    return (centre >= PIT_DARK) & (parts.max(1) <= CLEAN)
