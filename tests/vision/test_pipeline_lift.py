"""A hand that put a card down beside another and rises off both: the card it only rested on
is not carried off with it. Found again where it lay, with fingers still over a corner (its look
then unsure), it keeps its id."""

from __future__ import annotations

from vision.pipeline import TablePipeline
from web.bench.cards import _ScenarioScore


def test_a_card_a_rising_hand_leaves_keeps_its_id() -> None:
    """The rendered Twin It scenario, 6 s to 9 s, through the whole pipeline (the real finder):
    a player carries a card to the table, their hand resting over a card already there; the
    hand rises (its motion over that card looks like a carry) and the card shows again where it
    lay, first under the fingers' tips."""
    from vision.render.scenario import twinit_demo_scenario

    scenario = twinit_demo_scenario(0)
    pipe = TablePipeline()
    score = _ScenarioScore()
    for t, image, truth in scenario.frames(fps=10.0, start=6.0, end=9.0):
        score.add(pipe.process(image, t), truth)
    assert score.switches == 0
    assert score.tp >= 18
