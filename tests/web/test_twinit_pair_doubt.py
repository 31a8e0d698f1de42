"""One arm over two cards with no two tips singling them out, while another hand of the claimer
lies on neither card: the claimed pair is in doubt; no question whose "no" would penalise."""

from __future__ import annotations

from pathlib import Path

from tests.web.tableobs import card
from tests.web.test_twinit_adapter import BOTTOM, MIDDLE, TOP, P, pile_game
from vision.observation import CardState, HandObservation, Seat


def test_one_arm_over_two_different_cards_with_the_claimers_other_hand_elsewhere_is_held(
    tmp_path: Path,
) -> None:
    """The live bench's seed 4, 67.2 s (new slap): one arm lay over Chloé's pile and the capture
    beside it on its way there; the player's other hand lay on a table card vision saw only the
    edge of. The table was asked whether the pile and the capture match (another pattern): a
    "no" penalises a right claim. Held back instead."""
    live, _ad, table = pile_game(tmp_path)
    covered = [card(1, P[0], *MIDDLE, state=CardState.COVERED), card(2, P[1], *TOP, state=CardState.COVERED)]
    arm = HandObservation(7, Seat("top"), (1, 2), (600, 0, 80, 400))
    other = HandObservation(8, Seat("top"), (), (900, 0, 60, 300))
    for _ in range(7):
        table.show([*covered, card(3, P[1], *BOTTOM)], [arm, other])
    assert not live.questions, list(live.questions.values())
    assert not [e for e in live.entries if e["action"]["type"] == "claim"]
    assert any("lies on neither card" in h["en"] for h in table.adapter.held)
