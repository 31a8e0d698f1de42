"""The slap watch asks a one-arm claim's questions to the judge ahead of the frame that rules it."""

from __future__ import annotations

from pathlib import Path

from tests.web.tableobs import card
from tests.web.test_twinit_adapter import BOTTOM, MIDDLE, TOP, P, Table, setup
from tests.web.test_twinit_judge_ahead import seen
from vision.observation import CardState, HandObservation, Seat


def one_arm_on_two(tmp_path: Path, plain: bool) -> tuple[dict, list[int], int]:
    """One arm from Ana's far edge lies still on the card she played and Ben's pile top (two
    patterns) until the claim is put to the table, with the slap watch as it is or (``plain``)
    its pick-ahead call made a no-op. Returns the question, the judge's calls on the frame that
    put it (pairs asked; a single pair's call counts 1) and how many frames showed the arm."""
    live, ad = setup(tmp_path)
    if plain:
        ad.pick_ahead = lambda spots, landed=None: None
    table = Table(ad)
    for _ in range(6):
        table.show(seen([card(1, P[0], *BOTTOM), card(2, P[1], *TOP)]))
    cards = [card(1, P[0], *MIDDLE), card(2, P[1], *TOP), card(3, P[1], *BOTTOM)]
    for _ in range(6):
        table.show(seen(cards))
    covered = [card(1, P[0], *MIDDLE, state=CardState.COVERED), card(2, P[1], *TOP, state=CardState.COVERED)]
    arm = [HandObservation(7, Seat("top"), (1, 2), (600, 0, 80, 400))]
    single, many = ad.matcher.p_same, ad.matcher.p_same_many
    calls: list[int] = []
    ad.matcher.p_same = lambda a, b: calls.append(1) or single(a, b)
    ad.matcher.p_same_many = lambda pairs: calls.append(len(pairs)) or many(pairs)
    shown = 0
    while not live.questions and shown < 11:
        calls.clear()
        table.show([*covered, *seen(cards[2:])], arm)
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
