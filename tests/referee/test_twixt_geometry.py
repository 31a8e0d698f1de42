"""Twixt board geometry: the crossing table against brute-force segment intersection, holes,
borders and notation."""

from __future__ import annotations

import itertools

import pytest

from referee.errors import MalformedAction
from referee.twixt.geometry import CANONICAL, CROSSING, DIRECTIONS, Board, board
from referee.twixt.notation import hole_name, lg_name, parse_hole, parse_lg, transpose

Point = tuple[int, int]


def orient(a: Point, b: Point, c: Point) -> int:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Brute force: the two segments meet at a point inside both (sharing a peg is not crossing).

    Knight links never pass through a hole and two of them are never collinear and overlapping,
    so a proper crossing is strict sign changes on both sides.
    """
    if len({p1, p2, q1, q2}) < 4:
        return False
    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return d1 * d2 < 0 and d3 * d4 < 0


@pytest.mark.parametrize("j", range(8))
def test_relative_crossing_table_matches_brute_force(j: int) -> None:
    dx, dy = DIRECTIONS[j]
    expected = set()
    for ox, oy in itertools.product(range(-4, 5), repeat=2):
        for k, (ex, ey) in enumerate(CANONICAL):
            if segments_cross((0, 0), (dx, dy), (ox, oy), (ox + ex, oy + ey)):
                expected.add((ox, oy, k))
    assert set(CROSSING[j]) == expected
    assert len(CROSSING[j]) == 9


@pytest.mark.parametrize("size", [6, 7])
def test_board_crossings_match_brute_force_on_every_pair_of_links(size: int) -> None:
    b = Board(size)
    links = sorted(b.crosses)
    ends = {lid: tuple(b.xy(h) for h in b.link_ends(lid)) for lid in links}
    pairs = 0
    for l1, l2 in itertools.combinations(links, 2):
        brute = segments_cross(*ends[l1], *ends[l2])
        assert (l2 in b.crosses[l1]) == brute, (ends[l1], ends[l2])
        assert (l1 in b.crosses[l2]) == brute
        pairs += 1
    assert pairs == len(links) * (len(links) - 1) // 2 > 1000


def test_every_knight_pair_of_holes_is_one_link() -> None:
    b = Board(7)
    holes = [b.xy(h) for h in b.holes]
    count = 0
    for p, q in itertools.combinations(holes, 2):
        knight = sorted((abs(p[0] - q[0]), abs(p[1] - q[1]))) == [1, 2]
        lid = b.link_id(b.hole_id(p), b.hole_id(q))
        assert (lid is not None) == knight
        if lid is not None:
            assert lid == b.link_id(b.hole_id(q), b.hole_id(p))
            assert set(b.link_ends(lid)) == {b.hole_id(p), b.hole_id(q)}
            count += 1
    assert count == len(b.crosses)


def test_standard_board_has_572_holes_and_each_colour_its_border_lines() -> None:
    b = board(24)
    assert len(b.holes) == 24 * 24 - 4
    assert b.hole_id((0, 0)) is None and b.hole_id((23, 23)) is None and b.hole_id((23, 0)) is None
    rows, cols = b.border
    # colour 0 owns the top and bottom rows, colour 1 the left and right columns; no corners
    assert {b.xy(h)[1] for h in rows} == {0, 23} and len(rows) == 44
    assert {b.xy(h)[0] for h in cols} == {0, 23} and len(cols) == 44
    assert b.allowed[0] == b.hole_set - cols and b.allowed[1] == b.hole_set - rows
    assert b.hole_id((5, 0)) in b.allowed[0] and b.hole_id((5, 0)) not in b.allowed[1]


def test_notation_round_trips() -> None:
    assert parse_hole("D11") == (3, 10) == parse_hole("d11")
    assert hole_name((3, 10)) == "D11"
    assert parse_lg("fj") == (5, 9) and lg_name((5, 9)) == "fj"
    assert transpose((5, 9)) == (9, 5)
    for bad in ("", "11", "D", "D0", "DD1", 7):
        with pytest.raises(MalformedAction):
            parse_hole(bad)
    with pytest.raises(MalformedAction):
        parse_lg("F10")


def test_board_size_is_bounded() -> None:
    with pytest.raises(ValueError):
        Board(4)
    with pytest.raises(ValueError):
        Board(27)
