"""A Twin It claim's questions to the judge are asked on the frame its hands land
(:meth:`Claims.judge_ahead`) and their answers kept by the very signatures asked
(:meth:`Claims._p_same_sigs`): the frame that rules finds them there and rules as it would have."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np

from tests.web.tableobs import card, crop, hand_on
from tests.web.test_twinit_adapter import BOTTOM, MIDDLE, TOP, P, Table, claim_entries, pile_game, setup
from vision.observation import CardState, HandObservation, Seat
from web.adapters.twinit import TwinItAdapter
from web.adapters.twinit_claims import SIG_PAIRS_KEPT
from web.adapters.twinit_table import nearest


def counting(adapter) -> list[int]:
    """The sizes of the batches of pairs the adapter's matcher is asked from now on."""
    asked: list[int] = []
    many = adapter.matcher.p_same_many

    def p_same_many(pairs):
        asked.append(len(pairs))
        return many(pairs)

    adapter.matcher.p_same_many = p_same_many
    return asked


def test_a_pair_asked_again_is_answered_from_the_kept_score(tmp_path: Path) -> None:
    _live, ad, _table = pile_game(tmp_path)
    a, b, c = (ad._signature_of(crop(f).copy()) for f in (P[0], P[0], P[1]))
    asked = counting(ad)
    first = ad._p_same_sigs([(a, b), (a, c)])
    assert asked == [2] and first[0] > 0.9 and first[1] < 0.1
    assert ad._p_same_sigs([(a, c), (a, b)]) == [first[1], first[0]]
    assert asked == [2]  # nothing asked again
    # a view that changed in between (the record rewritten, a new view of the place) is another
    # signature, even of the very same pixels: asked anew, never answered from the kept score
    b2 = ad._signature_of(crop(P[0]).copy())
    c2 = ad._signature_of(crop(P[2]).copy())
    assert ad._p_same_sigs([(a, b2), (a, c2), (a, b)]) == [first[0], ad.matcher.compare(a, c2), first[0]]
    assert asked == [2, 2]


def test_the_kept_scores_are_bounded_the_newest_kept(tmp_path: Path) -> None:
    _live, ad, _table = pile_game(tmp_path)
    rng = np.random.default_rng(3)
    sigs = [rng.integers(0, 255, (16, 16, 3), dtype=np.uint8) for _ in range(SIG_PAIRS_KEPT + 10)]
    for k in range(len(sigs) - 1):
        ad._p_same_sigs([(sigs[k], sigs[k + 1])])
    assert len(ad._sig_pairs) == SIG_PAIRS_KEPT
    asked = counting(ad)
    ad._p_same_sigs([(sigs[-2], sigs[-1])])  # the newest: kept
    ad._p_same_sigs([(sigs[0], sigs[1])])  # the oldest: dropped, asked anew
    assert asked == [1]
    assert len(ad._sig_pairs) == SIG_PAIRS_KEPT


def seen(cards: list) -> list:
    """The cards as one frame shows them: each view a crop of its own (a camera's frames never
    share one), so that each frame's views are other signatures."""
    return [dataclasses.replace(c, last_clean_view=c.last_clean_view.copy()) for c in cards]


def wrong_slap(tmp_path: Path, ahead: bool) -> tuple[dict, list[int]]:
    """Ana slaps the card she played and Ben's pile top, two patterns: the landing frame (with the
    claim's questions asked then when ``ahead``), then the frame that rules. Returns the claim's
    entry and the batches of pairs the judge was asked on the ruling frame."""
    live, ad = setup(tmp_path)
    if not ahead:  # (whether or not the slap watch calls it)
        ad.judge_ahead = lambda spots, landed: None
    table = Table(ad)
    for _ in range(6):
        table.show(seen([card(1, P[0], *BOTTOM), card(2, P[1], *TOP)]))
    cards = [card(1, P[0], *MIDDLE), card(2, P[1], *TOP), card(3, P[1], *BOTTOM)]
    for _ in range(6):  # Ana plays her top card; her next card shows on her pile
        table.show(seen(cards))
    covered = [card(1, P[0], *MIDDLE, state=CardState.COVERED), card(2, P[1], *TOP, state=CardState.COVERED)]
    hands = [hand_on(1, "top", covered[0]), hand_on(2, "top", covered[1])]
    table.show([*covered, *seen(cards[2:])], hands)
    assert ad._pending is not None and not claim_entries(live)
    if ahead:
        snapshot, tol = ad.stable.snapshot, 0.25 * ad.stable.card_px
        at = [nearest(snapshot, np.array(xy, np.float64), tol) for xy in (MIDDLE, TOP)]
        assert None not in at
        ad.judge_ahead([snapshot[i] for i in at if i is not None], ad._pending[1])
    asked = counting(ad)
    table.show([*covered, *seen(cards[2:])], hands)
    (entry,) = claim_entries(live)
    return entry, asked


def test_a_penalty_judged_ahead_is_ruled_alike_with_nothing_asked_on_the_ruling_frame(tmp_path: Path) -> None:
    """The penalty's checks (the pair, each card's views against older ones and the record) asked
    on the landing frame: the ruling frame asks the judge nothing, and rules the same."""
    plain, asked_plain = wrong_slap(tmp_path / "plain", ahead=False)
    ahead, asked_ahead = wrong_slap(tmp_path / "ahead", ahead=True)
    assert plain["ruling"]["verdict"] == ahead["ruling"]["verdict"] == "invalid"
    assert plain["evidence"]["checks"] == ahead["evidence"]["checks"]
    assert plain["evidence"]["checks"]["sound_views"] is True
    assert plain["evidence"]["p_same"] == ahead["evidence"]["p_same"]
    assert sum(asked_plain) > 0 and sum(asked_ahead) == 0, (asked_plain, asked_ahead)


def test_an_arms_hidden_pairs_judged_ahead_pick_the_same_pair_asking_nothing(tmp_path: Path) -> None:
    """One arm over the three cards: every pair of their views asked a frame ahead, the choice of
    the claimed pair asks the judge nothing more and picks the same two (Ben's two pile cards)."""
    picked = []
    for ahead in (False, True):
        _live, ad, _table = pile_game(tmp_path / str(ahead))
        snapshot = ad.stable.snapshot
        hidden = sorted(range(len(snapshot)))
        assert len(hidden) == 3
        if ahead:
            ad.pick_ahead([snapshot[i] for i in hidden])
        asked = counting(ad)
        pair = ad._pick_pair(hidden, snapshot, [])
        assert pair is not None
        picked.append(sorted(tuple(int(v) for v in snapshot[i].center) for i in pair))
        assert (sum(asked) == 0) == ahead, asked
    assert picked[0] == picked[1] == sorted([TOP, BOTTOM])


def test_a_view_used_again_keeps_its_signature_while_newer_views_are_signed(tmp_path: Path) -> None:
    """A claim's view signed long ago (the far pile's card, seen whole for a while) and used on the
    landing frame stays the same signature while the next frame signs many new views: its pairs'
    scores asked ahead are found on the frame that rules (seed 1 at 83.4 s, s15 cache, asked 22
    pairs again on its ruling frame)."""
    from web.adapters.twinit_claims import RECENT_VIEWS, SIGS_SLACK

    _live, ad, _table = pile_game(tmp_path)
    ad.matcher.signature = lambda view: view.astype(np.float32)  # a new object per signing, as a judge's
    rng = np.random.default_rng(5)
    fresh = [rng.integers(0, 255, (16, 16, 3), dtype=np.uint8) for _ in range(2 * RECENT_VIEWS + 1)]
    claimed = rng.integers(0, 255, (16, 16, 3), dtype=np.uint8)
    first = ad._signature_of(claimed)
    for view in fresh[:RECENT_VIEWS]:
        ad._signature_of(view)
    assert ad._signature_of(claimed) is first  # used on the landing frame
    for view in fresh[RECENT_VIEWS : 2 * RECENT_VIEWS - 1]:  # the next frame: views enough to trim
        ad._signature_of(view)  # the kept signatures (all but the claim's newest RECENT_VIEWS)
    assert len(ad._sigs) <= RECENT_VIEWS + SIGS_SLACK
    assert ad._signature_of(claimed) is first


def test_a_pile_card_of_unknown_face_labelled_ahead_is_labelled_alike_asking_nothing(tmp_path: Path) -> None:
    """A claimed pile card whose face the referee does not know yet is labelled from its view on the
    ruling frame (a pile read back, or its top not read yet): its pairs with every known face asked
    on the landing frame, the label asks nothing more and is the same (seed 1 at 83.4 s, s15
    cache: 22 pairs on the ruling frame)."""
    faces = []
    for ahead in (False, True):
        _live, ad, _table = pile_game(tmp_path / str(ahead))
        view = np.array(ad.labels[ad.live.snapshot_state()["piles"][1][1]], copy=True)  # Ben's top's look
        ad.matcher.signature = lambda view: view.astype(np.float32)  # a new object per signing
        if ahead:
            ad._label_ahead([{"pile": 1}], [view], {"piles": [[3, "twinit:x"], [0, None]]})
        asked = counting(ad)
        faces.append(ad.label(view))
        assert (sum(asked) == 0) == ahead, asked
    assert faces[0] == faces[1]


def one_arm_scene(
    tmp_path: Path, plain: bool
) -> tuple[Any, TwinItAdapter, Table, tuple[list, list], list[int]]:
    """Ana's played card and Ben's pile top (two patterns) that one arm from Ana's far edge is
    about to lie on, Ben's other card in sight; with ``plain`` the adapter's pick-ahead call is a
    no-op. Returns the game, the adapter, the table, the frame with the arm (cards and hands) and
    the list the judge's calls go to (pairs asked; a single pair's call counts 1)."""
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
    return live, ad, table, ([*covered, *seen(cards[2:])], arm), calls


def one_arm_on_two(tmp_path: Path, ahead: bool) -> tuple[dict, list[int], int]:
    """One arm (:func:`one_arm_scene`) lies on the two cards until the claim is put to the table;
    with ``ahead``, the frame before the one that rules asks the claim's questions
    (:meth:`Claims.pick_ahead` of the two cards). Returns the question, the judge's calls on the
    ruling frame and the frames shown with the arm."""
    live, ad, table, (frame, arm), calls = one_arm_scene(tmp_path, plain=not ahead)
    for shown in range(1, 12):
        if ahead and shown == RULED_AT:
            snapshot, tol = ad.stable.snapshot, 0.25 * ad.stable.card_px
            at = sorted(nearest(snapshot, np.array(xy, np.float64), tol) for xy in (MIDDLE, TOP))
            assert ad._pending is not None and None not in at
            ad.pick_ahead([snapshot[i] for i in at], ad._pending[1])
        calls.clear()
        table.show(frame, arm)
        if live.questions:
            break
    asked = list(calls)
    (question,) = live.questions.values()
    return question, asked, shown


RULED_AT = 3
"""The frame (counted from the arm's first) on which the one-arm claim below is put to the table
(its tips still over :data:`twinit_slaps.STILL_FRAMES` frames and :data:`twinit_slaps.STILL_S`,
0.1 s frames)."""


def test_one_arm_on_exactly_two_cards_judged_ahead_asks_nothing_on_the_ruling_frame(tmp_path: Path) -> None:
    """One arm over exactly two cards: its claim's pair (and, not surely the same, a capture's
    checks) asked by :meth:`Claims.pick_ahead` ahead of the frame that rules, which asks the judge
    nothing and asks the table the same question (s15 offline replay, seed 5 12.6 s: its deciding
    frame took 231 ms, the pair not judged ahead)."""
    plain, asked_plain, at_plain = one_arm_on_two(tmp_path / "plain", ahead=False)
    ahead, asked_ahead, at_ahead = one_arm_on_two(tmp_path / "ahead", ahead=True)
    assert at_plain == at_ahead == RULED_AT
    assert plain["evidence"]["p_same"] == ahead["evidence"]["p_same"] < 0.5
    assert plain["evidence"]["checks"] == ahead["evidence"]["checks"]
    assert plain["evidence"]["checks"]["two_tips"] is False
    assert sum(asked_plain) > 0 and sum(asked_ahead) == 0, (asked_plain, asked_ahead)


def test_a_kept_pair_does_not_keep_its_signatures_alive(tmp_path: Path) -> None:
    """A pair's score is found again only by the very two signatures asked: once neither the
    adapter's kept signatures nor anything else holds one of them, the pair holds it no longer
    (M's s16 measure: the 256 pairs kept up to 7.8 MB of the verifier's views alive), and such
    pairs are the first dropped when the kept pairs are full."""
    import gc
    import weakref

    _live, ad, _table = pile_game(tmp_path)
    rng = np.random.default_rng(4)
    gone, kept = (rng.integers(0, 255, (16, 16, 3), dtype=np.uint8) for _ in range(2))
    ad._p_same_sigs([(gone, kept)])
    watch = weakref.ref(gone)
    del gone
    gc.collect()
    assert watch() is None
    others = [rng.integers(0, 255, (16, 16, 3), dtype=np.uint8) for _ in range(SIG_PAIRS_KEPT + 1)]
    ad._p_same_sigs([(kept, others[0])])  # an old live pair, then enough newer ones to fill the kept
    for k in range(1, SIG_PAIRS_KEPT):
        ad._p_same_sigs([(others[k], others[k + 1])])
    assert len(ad._sig_pairs) == SIG_PAIRS_KEPT
    asked = counting(ad)
    ad._p_same_sigs([(kept, others[0])])  # the dead pair went, not this older live one
    assert asked == []


def test_the_kept_signatures_stay_near_the_views_kept(tmp_path: Path) -> None:
    """The kept signatures are cut back to :data:`RECENT_VIEWS` once they pass it by
    :data:`SIGS_SLACK`, not by twice as many (M's s16 measure: 48 -> 96 kept swung ~9 MB)."""
    from web.adapters.twinit_claims import RECENT_VIEWS, SIGS_SLACK

    _live, ad, _table = pile_game(tmp_path)
    rng = np.random.default_rng(6)
    views = [rng.integers(0, 255, (16, 16, 3), dtype=np.uint8) for _ in range(3 * RECENT_VIEWS)]
    most = 0
    for view in views:
        ad._signature_of(view)
        most = max(most, len(ad._sigs))
    assert most == RECENT_VIEWS + SIGS_SLACK
    assert ad._signature_of(views[-1]) is ad._sigs[id(views[-1])][1]  # the newest kept
