"""Hole coordinates and their notation.

A hole is ``(x, y)``, 0-based: ``x`` is the column counted from the left, ``y`` the row counted
from the top. Its tableref (and T1j) notation is the column letter and the 1-based row number:
``(3, 10)`` is ``"D11"``. Little Golem writes the same hole with two lower-case letters, column
then row: ``"dk"``.

    >>> parse_hole("D11")
    (3, 10)
    >>> hole_name((3, 10)), lg_name((3, 10))
    ('D11', 'dk')
"""

from __future__ import annotations

import re

from referee.errors import MalformedAction

Hole = tuple[int, int]
"""``(x, y)``: column from the left, row from the top, both 0-based."""

MAX_SIZE = 26
"""The largest board notation can name (one letter per column)."""

_HOLE_RE = re.compile(r"^([A-Za-z])([0-9]{1,2})$")
_LG_RE = re.compile(r"^([a-z])([a-z])$")


def hole_name(hole: Hole) -> str:
    """``"D11"`` for ``(3, 10)``."""
    x, y = hole
    return f"{chr(65 + x)}{y + 1}"


def parse_hole(text: object) -> Hole:
    """The hole named ``text`` (``"D11"``, case-insensitive); raises :class:`MalformedAction`.

    Any letter and row 1..99 parse; whether the hole is on the board is a rule, not syntax.
    """
    if not isinstance(text, str):
        raise MalformedAction(f"hole {text!r} is not a string like 'D11'")
    m = _HOLE_RE.match(text.strip())
    if m is None or int(m.group(2)) < 1:
        raise MalformedAction(f"hole {text!r} is not a column letter and a row number like 'D11'")
    return ord(m.group(1).upper()) - 65, int(m.group(2)) - 1


def link_name(a: Hole, b: Hole) -> str:
    """``"D11-E13"``."""
    return f"{hole_name(a)}-{hole_name(b)}"


def parse_link(text: object) -> tuple[Hole, Hole]:
    """The two holes of ``"D11-E13"``; raises :class:`MalformedAction`."""
    if not isinstance(text, str) or text.count("-") != 1:
        raise MalformedAction(f"link {text!r} is not two holes joined by '-' like 'D11-E13'")
    a, b = text.split("-")
    return parse_hole(a), parse_hole(b)


def lg_name(hole: Hole) -> str:
    """Little Golem's two-letter name: ``"dk"`` for ``(3, 10)``."""
    x, y = hole
    return f"{chr(97 + x)}{chr(97 + y)}"


def parse_lg(text: str) -> Hole:
    """The hole of a Little Golem move like ``"dk"``; raises :class:`MalformedAction`."""
    m = _LG_RE.match(text.strip())
    if m is None:
        raise MalformedAction(f"Little Golem move {text!r} is not two lower-case letters like 'dk'")
    return ord(m.group(1)) - 97, ord(m.group(2)) - 97


def transpose(hole: Hole) -> Hole:
    """The hole mirrored over the main diagonal (top-left to bottom-right)."""
    return hole[1], hole[0]
