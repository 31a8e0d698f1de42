"""Twin It slaps: hands landing on two cards are a claim. :class:`Slaps` watches the hands frame by
frame (arm tips, which cards they hide, whether they have landed and stay) and says when a slap has
landed and on which cards; :class:`web.adapters.twinit_claims.Claims` judges and rules it.

:class:`Slaps` is mixed into :class:`web.adapters.twinit.TwinItAdapter` and works on its state
(the stable table snapshot, the views noted each frame, where each referee card lies).
"""

from __future__ import annotations

import numpy as np

from vision.observation import TableObservation
from web.adapters.twinit_claims import Claims
from web.adapters.twinit_table import (
    Root,
    Spot,
    Tip,
    alone_in_reach,
    arm_roots,
    arm_tips,
    fingertip,
    hand_off_the_cards,
    hidden_under_hands,
    nearest,
    on_blob,
    same_layout,
    same_places,
    tip_pair,
    tips_at_rest,
    tips_on,
    tips_still,
    visible_spots,
)

HOLD_S = 0.45
"""One hand (or two arms vision sees as one) must stay on the same cards, and every other card
stay put, this long to make a claim (an arm carrying a card never holds still that long)."""
TWO_HANDS_HOLD_S = 0.1
"""Two hands' cards must stay hidden this long, counted in the camera's frame intervals
(:data:`RATE_FRAMES`): a frame captured a little late or early does not add a frame to the wait
(offline replay of the six games with capture times jittered by up to 30 ms: 9 two-hand slaps over
more than two cards were ruled a frame later, the gap to the confirming frame under 0.1 s)."""
RATE_FRAMES = 9
"""The camera's frame interval is the median gap between vision's last this many frames."""
CONFIRM_FRAMES = 1
ARRIVAL_S = 0.8
"""Two separate hands on the cards are a slap's own sign (a card is carried with one hand): the
claim is judged once the same cards have stayed hidden this long and over this many frames
after the first (one frame can show a hand passing); at once when the two tips' cards are the
only cards hidden. Only hands that came onto the table at
most :data:`ARRIVAL_S` before count so (a slap lands at once; two hands sweeping the cards
together have been over the table for a while). So too one arm: it hides the cards it claims at
most this long after it came onto the table (an arm playing a card or carrying won ones has been
over the table a while when it passes over two cards; the live bench's seed 3 asked the table
five times so), and within :data:`ONE_ARM_ARRIVAL_S` when it is alone."""
ONE_ARM_ARRIVAL_S = 0.6
"""One arm (or two arms vision sees as one) claims only the cards it hides at most this long after
it came onto the table. In the offline replay of the eight live games (seeds 0-7, every frame at
10 fps, 8676901's pipeline) the one-arm claims hid their cards 0.1 to 0.4 s after their arm was
first seen; the arms playing or carrying a card that :data:`ARRIVAL_S` refused, 0.9 to 1.8 s (a
play's hand lands on its pile 0.8 s after it sets off, and reaches the table later). With
:data:`ARRIVAL_S` the margin to a play was one frame: live, where the first frame that shows an arm
and the first that shows the cards hidden fall at other times, such plays were put to the table as
claims on two table cards (the live bench's runs at d4f130e: seed 3 at 51.61 s, seed 4 at 73.71 s)."""
REST_TIPS = 0.3
"""Two arm tips on the claimed cards have landed once each lies within this fraction of a card of
where a tip lay the frame before: hands still coming down over the cards move 0.8 to 1 card
between two frames at 10 fps, the last few centimetres down a tenth to a fifth (the rendered
slaps of the live bench's games); ruling before they stop ruled a slap that had not landed.
A distance between two frames, not a speed: a landing hand slows down, so with frames less than
0.1 s apart (a 10 fps camera's jitter) a speed times the gap is too tight (offline replay of the
six games with capture times jittered by up to 30 ms: two slaps ruled a frame later, 20 -> 130
ms). At 30 fps it was too loose for the live bench's rendered slaps before 8ed043d, whose hands
paused in the air over the cards before coming down (the replay of seed 2's first 60 s at 30 fps:
4 of 5 slaps ruled 0.1 to 0.2 s before their hands were down); its slaps now sweep in without
stopping, their tips 0.5 to 10 cards (median 1.8, the six games' 47 slaps) from where they lay the
frame before the landing at 10 fps: two hands are ruled on the frame after they land (not measured
at 30 fps on this motion)."""
STILL_S = 0.2
"""One arm whose tips have lain still (:data:`STILL_SPEED`) this long, over :data:`STILL_FRAMES`
frames, on the same hidden cards needs not wait :data:`HOLD_S`: an arm playing or carrying a card lands on it
and moves off with it within a frame or two (the live bench's one-arm slaps waited 0.3 to 0.4 s
after their hands were down, the slowest rulings of the bench)."""
STILL_FRAMES = 2
"""... and over this many frames after the first (at 5 fps vision, one still pair of frames 0.2 s
apart could be a carry's first slow step)."""
STILL_SPEED = 0.8
"""Tips lie still when each lies within this many cards a second (times the time since the frame
before, :data:`FRAME_S` at most; :data:`TIP_STEP_PX` at least) of a tip of the frame before (and
each tip of the frame before of one now): a slap's hands, once down, move not a pixel between two
frames; a carried card's hand moves a tenth of a card or more in the first 0.1 s of its carry."""
FRAME_S = 0.1
"""The frame interval the speeds above were measured at (10 fps): a longer gap between two frames
(slow vision) counts as this long, so a slow frame rate never loosens them; a shorter one (a
camera at 30 fps) tightens them in proportion."""
TIP_STEP_PX = 4.0
"""Arm tips are found on the hand mask every this many pixels (:func:`arm_tips`): a tolerance
never goes below it."""
EDGE_PX = 8
"""A tip this close to the image's edge is cut off there (an arm reaching across the table: seed 1
of the live bench, 42.3 s, carrying won cards from the far pile, its tip at the edge for 0.3 s)."""
MASK_STILL = 0.02
"""An arm cut off by the image's edge lies still when its tips do and at most this fraction of the
hands' mask (every :data:`TIP_STEP_PX`-th pixel) changed since the frame before: its hand is
out of sight, but a hand that moves moves its arm (a tenth of a card sideways changes a tenth of a
card on each side of an arm one to two cards wide: 10 to 20 % of its mask); a still arm changes
only along its outline (the rendered slaps of the live bench: 0 pixels). An arm reaching across
the whole image shows nothing of a move along itself, but such a hand that moves to take cards
back towards its player leaves the far edge, and its tip is then seen whole again (the live
bench's slaps by a player on a far pile or capture, seeds 1, 4 and 5, waited :data:`HOLD_S`
with their tips at the far edge)."""


MASK_GAP_S = 0.05
"""A still arm's mask (:data:`MASK_STILL`) is compared with the newest mask vision saw at least this
long before (half of :data:`FRAME_S`: the frame before at 10 fps unless two captures come under
50 ms apart; two frames back at 30 fps, 0.067 s). The frame before at 30 fps shows a third of the
change an arm makes in 0.1 s: in a replay of seed 7 at 30 fps (not a bench game) an arm reaching
past the far edge to gather won cards, its mask changing 0.4 to 1.9 % between two frames (0.9 to
2.8 % over two, 1.7 to 3.9 % over three; 2.8 % at 10 fps), passed as still and was put to the
table as a claim after STILL_S."""
MASKS_KEPT_S = 0.5
"""How far back the hands' masks are kept (a slow vision's frames are 0.1 to 0.3 s apart)."""


def tolerance(speed: float, gap: float, card_px: float) -> float:
    """How far (pixels) a tip may move between two frames ``gap`` seconds apart at ``speed`` cards
    a second: the gap counts :data:`FRAME_S` at most, and the tolerance is :data:`TIP_STEP_PX` at
    least."""
    return max(TIP_STEP_PX, speed * min(max(gap, 0.0), FRAME_S) * card_px)


def mask_still(now: np.ndarray | None, before: np.ndarray | None) -> bool:
    """Whether two frames' subsampled hand masks are the same but for :data:`MASK_STILL` of the
    mask's pixels."""
    if now is None or before is None or now.shape != before.shape:
        return False
    area = int(np.count_nonzero(now))
    return area > 0 and int(np.count_nonzero(now != before)) <= MASK_STILL * area


class Slaps(Claims):
    """Claims read from hands on cards, judged and ruled (or put to the table)."""

    _masks: tuple[tuple[float, np.ndarray], ...] = ()
    """The hands' masks of the frames vision saw last (when, the mask every :data:`TIP_STEP_PX`-th
    pixel), back to :data:`MASKS_KEPT_S`; emptied by a frame with no arm tips."""
    _gaps: tuple[float, ...] = ()
    """The gaps between vision's last :data:`RATE_FRAMES` frames (seconds)."""
    _roots: tuple[tuple[Root, int], ...] = ()
    """Where the arms of the frame before crossed their edges (:func:`arm_roots`)."""
    _picked_for: float | None = None
    """When the hidden cards whose pairs were last judged ahead (:meth:`Claims.pick_ahead`) were
    first hidden together."""

    def _watch_slap(self, obs: TableObservation, mono: float) -> None:
        """Cards hidden under hands together, and staying so, are a claim: at once (a few frames)
        with two separate hands, after :data:`HOLD_S` with one."""
        snapshot = self.stable.snapshot
        tol = 0.25 * self.stable.card_px
        if not obs.hands:
            self._hands_since = None
        elif self._hands_since is None:
            self._hands_since = mono
        hidden = hidden_under_hands(obs, snapshot, tol) if obs.hands else {}
        if self._strays_of is not snapshot:  # the memory was (re)made: it holds what was in sight
            self._strays, self._strays_of = [], snapshot
        if any(nearest(snapshot, s.center, tol) is None for s in visible_spots(obs)):
            self._strays.append(mono)  # a card in sight where the table memory has none
            del self._strays[: max(0, len(self._strays) - 64)]
        tips = self._tips(obs, mono)  # every frame with hands: an arm's edge is the one it came in from
        self._roots = (
            tuple(arm_roots(self._arms, self.stable.card_px, self._roots, mono))
            if tips and isinstance(obs.hand_mask, np.ndarray)
            else ()
        )
        before, self._tips_before = self._tips_before, [t[0] for t in tips]
        before_mono, self._tips_mono = self._tips_mono, mono
        gap = mono - before_mono
        if 0.0 < gap <= 1.0:
            self._gaps = (*self._gaps[-(RATE_FRAMES - 1) :], gap)
        mask = obs.hand_mask
        small = (
            np.ascontiguousarray(mask[:: int(TIP_STEP_PX), :: int(TIP_STEP_PX)])
            if isinstance(mask, np.ndarray) and mask.ndim == 2 and tips
            else None
        )
        # the arm's mask :data:`MASK_GAP_S` or more before (at 30 fps two frames back: the frame
        # before shows a third of a slow arm's change)
        mask_before = next((m for at, m in reversed(self._masks) if mono - at >= MASK_GAP_S - 1e-6), None)
        self._masks = (
            (*((at, m) for at, m in self._masks if mono - at <= MASKS_KEPT_S), (mono, small))
            if small is not None
            else ()
        )
        # (a tip cut off by the image's edge shows nothing of the hand's moves: its arm must lie
        # still too)
        inside = all(
            EDGE_PX <= t[0][0] <= obs.width - 1 - EDGE_PX and EDGE_PX <= t[0][1] <= obs.height - 1 - EDGE_PX
            for t in tips
        )
        if not (inside or mask_still(small, mask_before)) or not tips_still(
            self._tips_before, before, tolerance(STILL_SPEED, gap, self.stable.card_px)
        ):
            self._still_from, self._still_frames = None, 0
        else:
            self._still_frames += 1
            if self._still_from is None:
                self._still_from = before_mono  # still since the frame before
        if len(hidden) < 2:
            self._pending = None
            if not hidden:
                self._claimed = None
            return
        # arms that came onto the table just before they hid the cards (dated from the first frame
        # that showed these cards hidden: waiting for the hands to stop, on a slow machine, never
        # makes an arm's arrival too old)
        hid = self._pending[1] if self._pending is not None else mono
        landed = [t for t in tips if min(hid, mono) - t[2] <= ARRIVAL_S]
        size = (obs.width, obs.height)
        tipped = tip_pair(landed, hidden, snapshot, self.stable.card_px, size)
        two_arms = tipped is None and self._two_arms(hidden, snapshot, min(hid, mono))
        places = [snapshot[i].center for i in (tipped or sorted(hidden))]
        seen = visible_spots(obs)
        if tipped is not None:  # two hands: no card moved (one the finder misses for a frame is no move)
            still = all(nearest([*self._pending_seen, *snapshot], s.center, tol) is not None for s in seen)
        else:  # one arm: the very same cards in sight
            still = same_layout(seen, self._pending_seen, tol)
        if (
            self._pending is None
            or self._pending_two != (tipped is not None)
            or not same_places(places, self._pending[0], tol)
            or not still
        ):
            self._pending = (places, mono)
            self._pending_two = tipped is not None
            self._pending_frames = 0
            self._pending_seen = seen
            self._prepare([snapshot[i] for i in hidden])
            if tipped is not None:  # what a claim on the pair two hands lie on will ask the judge,
                # asked now from the views it will be ruled on (the ruling frame finds the answers)
                self.judge_ahead([snapshot[i] for i in tipped], mono)
        else:
            self._pending_frames += 1
            if (
                tipped is None
                and self._claimed is None
                and self._still_frames >= 1
                and self._picked_for != self._pending[1]
            ):  # one arm lying still on two cards or more: what its claim will ask the judge (on
                # two, Claims.judge_ahead; on more, every pair _pick_pair will weigh), asked once
                # while it waits for STILL_S or HOLD_S
                self._picked_for = self._pending[1]
                self.pick_ahead([snapshot[i] for i in sorted(hidden)], self._pending[1])
        if self._claimed is not None:
            return
        hold = TWO_HANDS_HOLD_S if tipped is not None else HOLD_S
        confirm = CONFIRM_FRAMES
        if tipped is not None and len(hidden) == 2:
            hold = 0.0  # exactly the two cards under two arms that just landed: the next frame,
            # or this one when their views surely show one pattern (only a penalty waits)
            if self._pending_frames == 0 and self._surely_same([snapshot[i] for i in tipped], mono):
                confirm = 0
        if (  # two arms vision sees as one, still since the frame before, which hid the same cards
            two_arms and self._still_from is not None and self._still_from >= self._pending[1] - 1e-6
        ):
            hold = 0.0
        # one arm lying still on the same cards since (the later of) it stopped and they were hidden
        if (
            tipped is None
            and self._still_from is not None
            and self._still_frames >= STILL_FRAMES
            and mono - max(self._still_from, self._pending[1]) >= STILL_S - 1e-6
        ):
            hold = 0.0
        if tipped is None and not inside and small is not None and self._still_from is None:
            return  # an arm cut off by the image's edge, its mask moving: carrying, not claiming
            # (seed 5 at 12.1 s: the claimer's arm gathering a steal the watch had held, reaching
            # past the far edge, was put to the table after HOLD_S on the won capture and a table
            # card under it; live so too, "9.6 ruled 2.5 s late on the wrong table card")
        held = mono - self._pending[1] >= hold - 1e-6
        if tipped is not None and self._gaps:  # two hands: as many frames as the hold is intervals
            held = held or self._pending_frames >= round(hold / max(float(np.median(self._gaps)), 1e-3))
        if self._pending_frames < confirm or not held:
            return
        late = ONE_ARM_ARRIVAL_S + 1e-6
        if tipped is None and tips and all(self._pending[1] - since > late for *_, since in tips):
            return  # one arm over the table a while before it hid these cards: a play or a carry
        on_cards = tips_on(landed, tipped, hidden, snapshot, self.stable.card_px, size) if tipped else {}
        if tipped is not None and not tips_at_rest(
            list(on_cards.values()), before, REST_TIPS * self.stable.card_px
        ):
            return  # two hands over the cards still coming down: a slap lands when they stop
        self._claimed = places
        if tipped is None and hand_off_the_cards(landed, hidden, snapshot, self.stable.card_px, size):
            # one hand on a hidden card, the other on none the referee knows (the finder lost
            # it): the hidden cards are not the claimed pair (seed 7, 28.6 s: the table was asked
            # about the one hand's card and a card under the other's arm)
            self._hold_pair_unclear()
            return
        pair = tipped if tipped is not None else self._pick_pair(sorted(hidden), snapshot, tips, size)
        if pair is None:
            return
        spots = [snapshot[i] for i in pair]
        # the claimed cards leave the snapshot: carrying them away is not another claim
        self.stable.snapshot = [s for i, s in enumerate(snapshot) if i not in pair]
        # a penalty only for the very two cards two arm tips lie on: the only two hidden, or the
        # only two hidden within any hand's reach, each under its palm (the others under arms);
        # cards picked among more, or under arms vision cannot tell apart, may not be the claimed
        # ones: the table's call
        sure_cards = tipped is not None and (
            len(hidden) == 2 or alone_in_reach(tips, tipped, hidden, snapshot, self.stable.card_px, size)
        )
        # who claimed: the edge each arm came in from (a player reaching across to a pile by another
        # edge makes one arm blob touching both, that vision may give to the other edge)
        if tipped is None:  # one arm (or two vision sees as one): the tips that lie on the pair
            on_cards = tips_on(tips, pair, hidden, snapshot, self.stable.card_px, size)
        edges = {tip[1] for tip in on_cards.values()}
        one = edges.pop() if len(edges) == 1 else None  # every tip from one edge: that player's
        seats = [on_cards[i][1] if i in on_cards else one or hidden[i][1] for i in pair]
        self._claim(spots, seats, self._pending[1], sure_cards=sure_cards)

    def _two_arms(self, hidden: dict[int, tuple[int, str]], snapshot: list[Spot], hid: float) -> bool:
        """Whether every hidden card lies under one blob of the hands' mask that is two arms from
        one edge (:func:`arm_roots`: two runs along it), both come onto the table at most
        :data:`ARRIVAL_S` before the cards were hidden: both hands of a player, side by side or one
        over the other, whose tips vision cannot tell apart (one hand's fingers are the blob's
        only tips, or the other's are cut off by the image's edge)."""
        arms: dict[int, int] = {}
        for root, index in self._roots:
            if hid - root[3] <= ARRIVAL_S + 1e-6:
                arms[index] = arms.get(index, 0) + 1
        for index, count in arms.items():
            blob = self._arms[index][0]
            if count >= 2 and all(on_blob(blob, snapshot[i].center, int(TIP_STEP_PX)) for i in hidden):
                return True
        return False

    def _tips(self, obs: TableObservation, mono: float) -> list[Tip]:
        """Arm tips from the hands' mask; without one, each hand box's far end."""
        if not obs.hands:
            self._arms.clear()
            return []
        if obs.hand_mask is not None:
            return arm_tips(obs.hand_mask, self.stable.card_px, memory=self._arms, now=mono)
        since = self._hands_since if self._hands_since is not None else mono
        return [(fingertip(h), str(h.seat), since) for h in obs.hands]
