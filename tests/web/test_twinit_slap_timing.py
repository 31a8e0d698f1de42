"""When the Twin It adapter says a slap has landed: the still tips' tolerance is a speed (a camera at
30 fps sees hands move less between two frames than one at 10 fps), and an arm cut off by the
image's edge whose mask lies still."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.web.tableobs import card, hand_on
from tests.web.test_twinit_adapter import BOTTOM, MIDDLE, TOP, P, claim_entries, claims, pile_game
from vision.observation import CardState, HandObservation, Seat
from web.adapters.twinit_slaps import FRAME_S, TIP_STEP_PX, mask_still, tolerance


def test_tolerances_are_speeds_never_looser_than_at_10_fps() -> None:
    assert tolerance(3.0, 0.1, 80.0) == pytest.approx(24.0)  # 10 fps: 0.3 of a card
    assert tolerance(3.0, 1 / 30, 80.0) == pytest.approx(8.0)  # 30 fps: a third of it
    assert tolerance(3.0, 0.35, 80.0) == tolerance(3.0, FRAME_S, 80.0)  # slow vision: as at 10 fps
    assert tolerance(0.8, 1 / 30, 80.0) == TIP_STEP_PX  # never finer than the tips are found


def test_an_arm_moving_slowly_at_30_fps_is_no_still_arm(tmp_path: Path) -> None:
    """An arm moving 6 pixels a frame at 30 fps (2.25 cards a second: a carry's first steps) lies
    within 0.08 of a card of where it lay the frame before, still by the 10 fps rule; as a speed it
    moves: it waits HOLD_S (0.45 s), not STILL_S."""
    live, _ad, table = pile_game(tmp_path)
    middle = card(1, P[0], *MIDDLE)
    covered = [card(3, P[1], *BOTTOM, state=CardState.COVERED), card(2, P[1], *TOP, state=CardState.COVERED)]
    for k in range(12):  # 0.4 s
        arm = HandObservation(7, Seat("bottom"), (2, 3), (600 + 6 * k, 20, 80, 700))
        table.show([middle, *covered], [arm], dt=1 / 30)
        assert claims(live) == 0, k


def _arm(width: int) -> np.ndarray:
    """An arm from the top edge across the whole image (its hand cut off by the bottom edge)."""
    mask = np.zeros((720, 1280), np.uint8)
    cv2.line(mask, (640, 0), (640, 719), 1, width)
    return mask


def _ben_arriving(tmp_path: Path, dt: float | None = None) -> tuple:
    """Ana's pile game with Ben's arm come in from the top edge over three cards in sight: the live
    game, the table driver, and the same cards with the two of one pattern covered."""
    live, _ad, table = pile_game(tmp_path)
    cards = [card(1, P[0], *MIDDLE), card(2, P[1], *TOP), card(3, P[1], *BOTTOM)]
    covered = [cards[0], card(2, P[1], *TOP, state=CardState.COVERED)]
    covered.append(card(3, P[1], *BOTTOM, state=CardState.COVERED))
    arriving = np.zeros((720, 1280), np.uint8)
    cv2.line(arriving, (640, 0), (640, 150), 1, 60)
    shown = {} if dt is None else {"dt": dt}
    table.show(cards, [HandObservation(1, Seat("top"), (), (610, 0, 60, 150))], mask=arriving, **shown)
    return live, table, covered


def _reaching_across(tmp_path: Path, widths: list[int]) -> list[int]:
    """Ben's arm comes in from the top and lies across Ana's pile at the bottom edge, over the
    two cards of one pattern; the claims counted after each frame of ``widths`` (its mask's width)."""
    live, table, covered = _ben_arriving(tmp_path)
    counts = []
    for width in widths:
        hands = (HandObservation(1, Seat("bottom"), (2, 3), (640 - width // 2, 0, width, 720)),)
        table.show(covered, hands, mask=_arm(width))
        counts.append(claims(live))
    return counts


def test_an_arm_cut_off_by_the_edge_lying_still_is_ruled_after_still_s_not_hold_s(tmp_path: Path) -> None:
    """Its tip at the image's edge shows nothing of its hand, but its mask does not change: it
    is ruled once still for STILL_S (three frames at 10 fps), not after HOLD_S (0.45 s; the live
    bench's slaps on a far pile or capture waited so, 0.3 to 0.5 s after their hands were down)."""
    assert _reaching_across(tmp_path, [70] * 7) == [0, 0, 1, 1, 1, 1, 1]


def test_an_arm_cut_off_by_the_edge_whose_mask_moves_is_no_claim_until_it_lies_still(tmp_path: Path) -> None:
    """The same arm, its tip in the same place, but its mask changing (80 and 70 pixels wide by
    turns): an arm carrying cards past the far edge, however long it stays over them; once it lies
    still, it is ruled after STILL_S."""
    assert _reaching_across(tmp_path, [70, 80] * 4 + [70]) == [0] * 9
    assert _reaching_across(tmp_path / "still", [70, 80, 70, 80] + [80] * 4) == [0] * 5 + [1] * 3


def test_mask_still_allows_only_a_sliver_of_change() -> None:
    assert mask_still(_arm(70)[::4, ::4], _arm(70)[::4, ::4])
    assert not mask_still(_arm(80)[::4, ::4], _arm(70)[::4, ::4])
    assert not mask_still(np.zeros((180, 320), bool), np.zeros((180, 320), bool))  # no arm
    assert not mask_still(_arm(70)[::4, ::4], None)


def _two_arms(root_b: bool = True, b_at: int = 600, reach: bool = True) -> np.ndarray:
    """Both of Ana's arms from the bottom edge, vision's mask one blob: the left reaching Ben's
    pile at the top (round end at y 20), the right hand lying on Ana's pile (the bottom edge);
    they touch above the edge. ``root_b``: the right arm crosses the edge (else its hand alone
    shows); ``b_at``: its left side; ``reach``: the left arm is all in (else still coming)."""
    mask = np.zeros((720, 1280), np.uint8)
    end = (640, 70) if reach else (560, 250)
    cv2.polylines(mask, [np.array([(500, 719), (500, 330), end], np.int32)], False, 1, 100)
    cv2.circle(mask, end, 50, 1, -1)
    cv2.rectangle(mask, (b_at, 600), (b_at + 120, 719 if root_b else 690), 1, -1)
    cv2.rectangle(mask, (540, 600), (b_at + 10, 650), 1, -1)  # where they touch
    return mask


def _two_arm_slap(tmp_path: Path, root_b: bool = True, rest_s: float = 0.0) -> list[int]:
    """Ana's two arms land on the pair (her pile and Ben's) as one blob whose tips show only the
    left hand's: the claims counted after each frame from the one they land on. ``rest_s``: her
    right hand lay at her edge, beside her pile, this long before."""
    live, _ad, table = pile_game(tmp_path)
    middle = card(1, P[0], *MIDDLE)
    top, bottom = card(2, P[1], *TOP), card(3, P[1], *BOTTOM)
    hidden = [card(2, P[1], *TOP, state=CardState.COVERED), card(3, P[1], *BOTTOM, state=CardState.COVERED)]
    arms = HandObservation(7, Seat("bottom"), (2, 3), (450, 20, 280, 700))
    for _ in range(round(rest_s / 0.1)):  # her right hand at her edge, right of where it will lie
        resting = np.zeros((720, 1280), np.uint8)
        cv2.rectangle(resting, (680, 600), (800, 719), 1, -1)
        hand = HandObservation(8, Seat("bottom"), (), (680, 600, 120, 120))
        table.show([middle, top, bottom], [hand], mask=resting)
    coming = HandObservation(7, Seat("bottom"), (3,), (450, 200, 280, 520))
    table.show([middle, top, hidden[1]], [coming], mask=_two_arms(root_b, reach=False))
    counts = []
    for _ in range(4):
        table.show([middle, *hidden], [arms], mask=_two_arms(root_b))
        counts.append(claims(live))
    return counts


def test_two_arms_vision_sees_as_one_blob_are_ruled_the_frame_after_they_land(tmp_path: Path) -> None:
    """One blob with two arms crossing its edge (two runs along it) is both hands of a player: once
    still for a frame on the cards it hid, it is ruled, as two hands are, not after STILL_S (the
    live bench's slaps on cards side by side or one hand over the other waited 0.2 s so: 220 ms
    against 120 for the others)."""
    assert _two_arm_slap(tmp_path) == [0, 1, 1, 1]


def test_one_arm_blob_with_one_run_at_its_edge_still_waits_still_s(tmp_path: Path) -> None:
    """The same blob but for the right arm's crossing of the edge: one arm, which may be carrying
    a card, waits STILL_S."""
    assert _two_arm_slap(tmp_path, root_b=False) == [0, 0, 1, 1]


def test_two_arms_one_of_which_lay_at_the_edge_before_are_no_slap_sign(tmp_path: Path) -> None:
    """An arm that lay at the player's edge a second before the other came over the cards did not
    come with it: the two arms are no sign of a slap, no claim on the frame after."""
    counts = _two_arm_slap(tmp_path, rest_s=1.0)
    assert counts[1] == 0


def test_arm_roots_are_runs_an_arm_wide_along_the_blobs_own_edge() -> None:
    from web.adapters.twinit_table import arm_roots, arm_tips

    memory: list = []
    arm_tips(_two_arms(), 80.0, memory=memory, now=1.0)
    roots = arm_roots(memory, 80.0, now=1.0)
    assert [(r[0], r[1], r[2]) for r, _ in roots] == [("bottom", 452, 551), ("bottom", 600, 723)]
    assert {i for _, i in roots} == {0}  # one blob
    assert len(arm_roots(memory, 80.0 * 1.3, now=1.0)) == 1  # the left arm is under 1.3 cards wide
    later = arm_roots(memory, 80.0, before=roots, now=2.0)
    assert [r[3] for r, _ in later] == [1.0, 1.0]  # the same arms: they came at 1.0


def _two_hands_over_three(tmp_path: Path, rate: float, gaps: list[float]) -> list[int]:
    """Ana's two hands land on her pile and Ben's, her arm over the card between them (three
    cards hidden), at a camera of ``rate`` frames a second; the claims counted after each frame
    ``gaps`` seconds after the one before, from the landing frame's."""
    live, _ad, table = pile_game(tmp_path)
    cards = [card(1, P[0], *MIDDLE), card(2, P[1], *TOP), card(3, P[1], *BOTTOM)]
    for _ in range(10):
        table.show(cards, dt=1 / rate)
    hidden = [card(1, P[0], *MIDDLE, state=CardState.COVERED)]
    hidden += [card(2, P[1], *TOP, state=CardState.COVERED), card(3, P[1], *BOTTOM, state=CardState.COVERED)]
    hands = [hand_on(1, "bottom", hidden[1]), hand_on(2, "bottom", hidden[2])]
    counts = []
    for gap in [1 / rate, *gaps]:
        table.show(hidden, hands, dt=gap)
        counts.append(claims(live))
    return counts


def test_two_hands_hold_counts_the_cameras_frames_not_its_jitter(tmp_path: Path) -> None:
    """Two hands over more than their two cards wait TWO_HANDS_HOLD_S (0.1 s): at 10 fps one frame,
    though it came 30 ms early (the live bench's capture times jitter); at 30 fps three frames."""
    assert _two_hands_over_three(tmp_path / "10", 10.0, [0.07, 0.1]) == [0, 1, 1]
    assert _two_hands_over_three(tmp_path / "30", 30.0, [1 / 30] * 3) == [0, 0, 0, 1]


def test_an_arm_cut_off_by_the_edge_changing_slowly_at_30_fps_is_no_still_arm(tmp_path: Path) -> None:
    """Ben's arm across the table, its hand cut off by the bottom edge, gathering cards there: its
    mask grows 1.1 % a frame at 30 fps (under MASK_STILL between two frames, 3.3 % a tenth of a
    second). Compared with the mask a tenth of a second before, it moves: no claim after STILL_S,
    as at 10 fps (seed 7 at 30 fps, 17.8 s: such an arm was put to the table as a claim)."""
    live, table, covered = _ben_arriving(tmp_path, dt=1 / 30)
    before = None
    for k in range(12):  # 0.4 s, under HOLD_S
        mask = _arm(70)
        cv2.rectangle(mask, (676, 300), (771, 300 + 8 * k), 1, -1)  # the hand's side, gathering
        small = mask[::4, ::4]
        if before is not None:  # still by MASK_STILL from one frame to the next
            assert mask_still(small, before), k
        before = small
        hands = (HandObservation(1, Seat("top"), (2, 3), (605, 0, 170, 720)),)
        table.show(covered, hands, mask=mask, dt=1 / 30)
        assert claims(live) == 0, k


def _one_arm_after(tmp_path: Path, over_s: float) -> tuple[int, int]:
    """Ben's arm over the table ``over_s`` by no card, then over his pile and Ana's, of one
    pattern, for 0.7 s: the claims and the questions then."""
    live, _ad, table = pile_game(tmp_path)
    middle, top, bottom = card(1, P[0], *MIDDLE), card(2, P[1], *TOP), card(3, P[1], *BOTTOM)
    for _ in range(round(over_s / 0.1)):
        table.show([middle, top, bottom], [HandObservation(7, Seat("top"), (), (900, 0, 80, 300))])
    covered = [card(2, P[1], *TOP, state=CardState.COVERED), card(3, P[1], *BOTTOM, state=CardState.COVERED)]
    for _ in range(7):
        table.show([middle, *covered], [HandObservation(7, Seat("top"), (2, 3), (600, 0, 80, 720))])
    return claims(live), len(live.questions)


def test_one_arm_that_came_0_7_s_before_it_hid_the_cards_is_no_claim(tmp_path: Path) -> None:
    """An arm that has been over the table 0.7 s when it hides two cards is a play or a carry on
    its way (a one-arm claim hides its cards 0.1 to 0.4 s after its arm is first seen; a play's arm
    0.9 s or more, which live timing brings a frame or two nearer): no claim, no question."""
    assert _one_arm_after(tmp_path, 0.7) == (0, 0)


def test_one_arm_that_came_0_3_s_before_it_hid_the_cards_is_still_a_claim(tmp_path: Path) -> None:
    assert sum(_one_arm_after(tmp_path, 0.3)) == 1


def _asked_per_frame(live, ad, frames) -> list[tuple[int, int]]:
    """Each frame shown (a callable): the pairs the judge was asked while the adapter saw it, and
    the claims ruled by then."""
    asked: list[tuple[int, int]] = []
    many = ad.matcher.p_same_many
    single = ad.matcher.p_same
    count = [0]

    def p_same_many(pairs):
        count[0] += len(pairs)
        return many(pairs)

    def p_same(a, b):
        count[0] += 1
        return single(a, b)

    ad.matcher.p_same_many, ad.matcher.p_same = p_same_many, p_same
    for show in frames:
        count[0] = 0
        show()
        asked.append((count[0], claims(live)))
    return asked


def test_a_wrong_slaps_questions_to_the_judge_are_asked_on_the_frame_its_hands_land(tmp_path: Path) -> None:
    """Ana's two hands on the card she played and Ben's pile top, two patterns: the pair and the
    penalty's checks (each card's views against older ones) are asked on the landing frame; the
    frame that rules asks the judge nothing (it was the slowest frame of a penalty live)."""
    live, ad, table = pile_game(tmp_path)
    bottom = card(3, P[1], *BOTTOM)
    covered = [card(1, P[0], *MIDDLE, state=CardState.COVERED), card(2, P[1], *TOP, state=CardState.COVERED)]
    hands = [hand_on(1, "top", covered[0]), hand_on(2, "top", covered[1])]
    asked = _asked_per_frame(live, ad, [lambda: table.show([*covered, bottom], hands)] * 2)
    assert asked[0][0] > 1 and asked[1] == (0, 1), asked  # ruled on the second frame, asking nothing
    assert claim_entries(live)[0]["ruling"]["verdict"] == "invalid"


def test_one_arms_pairs_are_asked_while_it_lies_still_not_on_the_frame_that_rules(tmp_path: Path) -> None:
    """One arm still over three cards: every pair of their views is asked a frame after it landed;
    the frame that rules (STILL_S later) asks the judge at most the claimed pair's own score."""
    live, ad, table = pile_game(tmp_path)
    covered = [
        card(1, P[0], *MIDDLE, state=CardState.COVERED),
        card(2, P[1], *TOP, state=CardState.COVERED),
        card(3, P[1], *BOTTOM, state=CardState.COVERED),
    ]
    arm = [HandObservation(7, Seat("top"), (1, 2, 3), (600, 0, 80, 700))]
    asked = _asked_per_frame(live, ad, [lambda: table.show(covered, arm)] * 7)
    ruling = next(k for k, (_n, ruled) in enumerate(asked) if ruled)
    assert ruling == 2 and asked[ruling][0] <= 1, asked  # STILL_S after the landing: the pair's own
    # score at most (judged from the views before the landing, kept apart)
    assert sum(n for n, _ in asked[:ruling]) >= 3, asked  # the three pairs, asked before
    assert claim_entries(live)[0]["ruling"]["verdict"] == "valid"
