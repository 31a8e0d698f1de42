"""A hidden card's place seen bare (no hand on it, only the table's colours) holds no card: the
track is gone at once, and a hand that comes down there later does not cover it."""

from __future__ import annotations

from tests.vision._pipeline_helpers import truth_quads_window
from vision.observation import CardState
from vision.pipeline import TablePipeline
from web.bench.cards import _ScenarioScore, _TruthFinder


def test_a_track_whose_place_is_bare_is_gone_and_no_later_hand_covers_it() -> None:
    """The rendered Twin It scenario, 37 s to 41.6 s: a player's hand carries a card to their
    captures and rises; the hand's rise moves one hidden track along with it, to a place where
    no card lies (the table shows there once the hand has gone). Then the next claim's arm comes
    down over that place. With the true card quads, the hands cover no place without a card."""
    from vision.render.scenario import twinit_demo_scenario

    scenario = twinit_demo_scenario(0)
    finder = _TruthFinder()
    pipe = TablePipeline(find=finder)
    score = _ScenarioScore()
    gone_when_bare = False
    for t, image, truth in scenario.frames(fps=10.0, start=37.0, end=41.6):
        finder.truth = truth
        obs = pipe.process(image, t)
        if t >= 38.9 - 1e-9:
            score.add(obs, truth)
            if t < 39.7:  # no hand over the table yet: the stray track's place is bare
                gone_when_bare |= any(c.state is CardState.GONE for c in obs.cards)
    assert gone_when_bare
    assert score.fp_no_card == 0
    assert score.tp >= 40


def test_a_track_a_hand_lies_partly_over_whose_place_shows_bare_is_gone() -> None:
    """The rendered Twin It scenario, 69.5 s to 72 s, with the true card quads: a player carries
    a card to the table; at 71.2 s a hidden track lies where the hand is over part of its place
    and the rest, in sight, shows the bare table. No card is there: the track is gone, not
    "covered" by the hand."""
    score = truth_quads_window(69.5, 72.0)
    assert score.fp_no_card <= 2  # 4 when such a place counted as covered
    assert score.tp >= 28
