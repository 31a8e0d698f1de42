"""Twixt: every refused ruling, as a table: the ruling names why, in both languages, and changes
nothing."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

import referee.twixt.reasons as reasons
from referee.twixt.actions import AgreeDraw, Pass, Resign, Swap, TwixtAction
from referee.twixt.game import TwixtGame
from referee.twixt.state import TwixtState
from referee.types import Verdict
from tests.referee.test_twixt import game, link, peg, play, position, unlink

Table = Callable[[], tuple[TwixtGame, TwixtState]]


def fresh(mode: str = "standard", **options: object) -> Table:
    return lambda: (g := game(mode, **options), g.initial_state())


def after(table: Table, *actions: TwixtAction) -> Table:
    def build() -> tuple[TwixtGame, TwixtState]:
        g, s = table()
        return g, play(g, actions, s)

    return build


def at(mode: str = "standard", **where: object) -> Table:
    """A 10 x 10 position (red to link, black to peg) from :func:`tests.referee.test_twixt.position`."""
    return lambda: (g := game(mode, size=10), position(g, **where))  # type: ignore[arg-type]


CROSSED = {"red": ["D4", "F5"], "black": ["E4", "F6"], "black_links": ["E4-F6"]}
OWN_CROSS = {"red": ["D4", "F5", "E4", "F6"], "red_links": ["D4-F5"]}
WON = after(
    fresh(size=8, auto_link=True),
    *[peg(i % 2, h) for i, h in enumerate(["C1", "A4", "D3", "A6", "C5", "H3", "D7", "H5", "B8"])],
)
CASES: list[tuple[str, Table, TwixtAction, str, str]] = [
    ("game_over", WON, Resign(1), "The game is over.", "La partie est terminée."),
    ("not_your_turn", fresh(), peg(1, "E5"), "It is not Ben's turn.", "Ce n'est pas au tour de Ben."),
    (
        "already_placed",
        after(fresh(), peg(0, "E5")),
        peg(0, "F7"),
        "Ana has already placed a peg this turn.",
        "",
    ),
    ("off_board", fresh(size=12), peg(0, "M5"), "M5 is not on the 12 x 12 board.", ""),
    ("corner", fresh(), peg(0, "X24"), "X24 is a corner: corners take no peg.", ""),
    ("occupied", after(fresh(), peg(0, "E5")), peg(1, "E5"), "E5 already holds a peg.", ""),
    (
        "opponent_border",
        fresh(),
        peg(0, "A5"),
        "A5 is on Ben's border: Ana may not peg there.",
        "A5 est sur un bord de Ben : Ana ne peut pas y placer de picot.",
    ),
    ("peg_first", at(placed=False, red=["D4", "F5"]), link(0, "D4", "F5"), "", ""),
    (
        "not_own_peg",
        at(**CROSSED),
        link(0, "D4", "E4"),
        "E4 holds no peg of Ana.",
        "Il n'y a pas de picot d'Ana en E4.",
    ),
    ("not_knight", at(red=["D4", "E7"]), link(0, "D4", "E7"), "D4 and E7 are not a knight's move apart.", ""),
    (
        "link_exists",
        at(red=["D4", "F5"], red_links=["D4-F5"]),
        link(0, "F5", "D4"),
        "F5-D4 is already linked.",
        "",
    ),
    (
        "crosses_opponent",
        at("PP", **CROSSED),
        link(0, "D4", "F5"),
        "D4-F5 would cross Ben's link E4-F6.",
        "D4-F5 croiserait le lien E4-F6 de Ben.",
    ),
    (
        "crosses_own",
        at(**OWN_CROSS),
        link(0, "E4", "F6"),
        "",
        "E4-F6 croiserait le lien D4-F5 d'Ana : les règles standard l'interdisent (retirez d'abord D4-F5).",
    ),
    ("no_removal", at("PP", red=["D4", "F5"], red_links=["D4-F5"]), unlink(0, "D4", "F5"), "", ""),
    ("no_such_link", at(red=["D4", "F5"]), unlink(0, "D4", "F5"), "Ana has no link D4-F5.", ""),
    (
        "not_own_link",
        at(**CROSSED),
        unlink(0, "E4", "F6"),
        "E4-F6 is not Ana's link: only own links may be removed.",
        "E4-F6 n'est pas un lien d'Ana : on ne retire que ses propres liens.",
    ),
    ("no_pie", after(fresh(pie=False), peg(0, "E5")), Swap(1), "The pie rule is off in this game.", ""),
    ("swap_unavailable", after(fresh(), peg(0, "E5"), peg(1, "J9")), Swap(1), "", ""),
    ("swap_unavailable", after(fresh(), peg(0, "E5")), Swap(0), "", ""),
    (
        "cannot_pass",
        after(fresh(), peg(0, "E5")),
        Pass(1),
        "Ben still has holes to peg and may not pass.",
        "",
    ),
    ("game_over", after(fresh(), AgreeDraw()), AgreeDraw(), "", ""),
]


@pytest.mark.parametrize(("code", "table", "action", "en", "fr"), CASES, ids=[c[0] for c in CASES])
def test_refused_actions_name_why_and_change_nothing(
    code: str, table: Table, action: TwixtAction, en: str, fr: str
) -> None:
    g, state = table()
    before = g.state_to_json(state)
    ruling = g.judge(state, action)
    new, applied = g.apply(state, action)
    assert applied == ruling and ruling.reason.code == code, ruling.reason.en
    assert (ruling.verdict, ruling.applies) == (Verdict.INVALID, False)
    assert new is state and g.state_to_json(state) == before
    reason = ruling.reason
    assert reason.en.endswith(".") and reason.fr.endswith(".") and reason.en != reason.fr
    assert " de A" not in reason.fr and " de E" not in reason.fr  # 'de' elides before a vowel
    assert reason.en == (en or reason.en) and reason.fr == (fr or reason.fr)


def test_every_refusal_code_is_in_the_table() -> None:
    with open(reasons.__file__, encoding="utf-8") as f:
        codes = set(re.findall(r'refused\(\s*"([a-z_]+)"', f.read()))
    assert codes == {c[0] for c in CASES}
