"""A card the finder reports over table cards the referee knows, still in sight at their places,
is no play: a card lying there would hide them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from tests.web.tableobs import card, table_image
from tests.web.test_twinit_adapter import BOTTOM, MIDDLE, TOP, P, pile_game
from web.adapters.twinit_table import rectify


def plays(live) -> list[dict]:
    return [e["action"] for e in live.entries if e["action"]["type"] == "play"]


def test_a_quad_straddling_two_table_cards_and_the_gap_between_them_is_no_play(tmp_path: Path) -> None:
    """The live bench's seed 3, 73.2-77.3 s: the finder kept a quad over half of one table card,
    the gap beside it and the edge of the next one, its own view cut from those very pixels (so
    the frame "showed" it). Taken as a play, it put the player's pile a card short for the rest
    of the game."""
    live, _ad, table = pile_game(tmp_path)  # Ana played P[0] to MIDDLE; Ben's turn
    beside = (MIDDLE[0] + 100, MIDDLE[1])
    real = [card(1, P[0], *MIDDLE), card(2, P[1], *beside), card(3, P[1], *BOTTOM), card(4, P[2], *TOP)]
    table.settle(real)  # Ben turns his top card over beside Ana's; his next card shows
    assert len(plays(live)) == 2 and live.snapshot_state()["turn"] == 0
    image = table_image(real)
    ghost = card(9, P[3], MIDDLE[0] + 50, MIDDLE[1])
    ghost = dataclasses.replace(ghost, last_clean_view=rectify(image, ghost.quad))
    for _ in range(8):
        table.show([*real, ghost], image=image)
    assert len(plays(live)) == 2, plays(live)
    assert live.snapshot_state()["turn"] == 0
    assert any("over cards still in sight" in h["en"] for h in table.adapter.held)


def test_a_card_played_beside_table_cards_touching_one_is_a_play(tmp_path: Path) -> None:
    """A card laid close beside a table card, over an eighth of it at most, is a play."""
    live, _ad, table = pile_game(tmp_path)
    real = [card(1, P[0], *MIDDLE), card(2, P[1], MIDDLE[0] + 70, MIDDLE[1]), card(3, P[1], *BOTTOM)]
    table.settle([*real, card(4, P[2], *TOP)])
    assert len(plays(live)) == 2, plays(live)
