"""The slap watch asks a one-arm claim's questions to the judge ahead of the frame that rules it."""

from __future__ import annotations

from pathlib import Path

from tests.web.test_twinit_judge_ahead import one_arm_scene


def one_arm_on_two(tmp_path: Path, plain: bool) -> tuple[dict, list[int], int]:
    """One arm from Ana's far edge lies still on the card she played and Ben's pile top (two
    patterns, :func:`one_arm_scene`) until the claim is put to the table, with the slap watch as
    it is or (``plain``) its pick-ahead call made a no-op. Returns the question, the judge's calls
    on the frame that put it and how many frames showed the arm."""
    live, _ad, table, (frame, arm), calls = one_arm_scene(tmp_path, plain)
    shown = 0
    while not live.questions and shown < 11:
        calls.clear()
        table.show(frame, arm)
        shown += 1
    (question,) = live.questions.values()
    return question, list(calls), shown


def test_one_arm_lying_still_on_exactly_two_cards_has_its_claim_judged_before_the_ruling_frame(
    tmp_path: Path,
) -> None:
    """One arm on exactly two cards: its first still frame asks what the claim will ask
    (:meth:`Claims.pick_ahead` with the time they were hidden, C's judge_ahead for two cards), so
    the frame that puts it to the table asks the judge nothing, on the same frame, with the same
    evidence (s15 offline replay, seed 5 12.6 s: its deciding frame took 231 ms)."""
    plain, asked_plain, at_plain = one_arm_on_two(tmp_path / "plain", plain=True)
    ahead, asked_ahead, at_ahead = one_arm_on_two(tmp_path / "ahead", plain=False)
    assert at_plain == at_ahead
    assert plain["evidence"]["p_same"] == ahead["evidence"]["p_same"] < 0.5
    assert plain["evidence"]["checks"] == ahead["evidence"]["checks"]
    assert sum(asked_plain) > 0 and sum(asked_ahead) == 0, (asked_plain, asked_ahead)
