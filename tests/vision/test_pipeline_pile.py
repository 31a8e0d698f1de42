"""A pile: a hand that carries a card off a place where a card was then found (the pile's next
card) leaves, the next time, the pile's next card under the hand; it is covered by the hand from
the frame the carried card leaves its place, and keeps its track once in sight."""

from __future__ import annotations

from vision.cards.geometry import quad_iou
from vision.observation import CardState
from vision.pipeline import TablePipeline


def test_the_next_card_of_a_pile_is_covered_by_the_hand_that_carries_its_top_card_off() -> None:
    """The rendered Twin It scenario (seed 0), 0 s to 10.7 s, through the whole pipeline: a
    player carries the top card of their pile off at 1.9 s (the card found there at 2.5 s makes
    the place a pile) and again at 10.3 s; at 10.4 s the hand, carrying the card away, still
    hides most of the pile's next card."""
    from vision.render.scenario import twinit_demo_scenario

    scenario = twinit_demo_scenario(0)
    pipe = TablePipeline()
    seen: dict[float, tuple] = {}
    for t, image, truth in scenario.frames(fps=10.0, start=0.0, end=10.6):
        obs = pipe.process(image, t)
        seen[round(t, 1)] = (obs, truth)
    obs, truth = seen[10.4]
    [pile_card] = [c for c in truth.cards if c.covered_by_hands and c.visible_fraction > 0.05]
    covered = [obs.card(tid) for hand in obs.hands for tid in hand.covers]
    under = [c for c in covered if c is not None and quad_iou(c.quad, pile_card.quad) >= 0.5]
    assert len(under) == 1, "the pile's next card is covered by the hand"
    assert under[0].state is CardState.COVERED
    assert any(e.kind == "covered" and e.track_id == under[0].track_id for e in obs.events)
    # Once in sight, it is found where it lay and keeps its track.
    obs, truth = seen[10.6]
    card = obs.card(under[0].track_id)
    assert card is not None and card.state is CardState.VISIBLE
    assert quad_iou(card.quad, pile_card.quad) >= 0.8
