"""Twin It claims: the two cards a slap lands on, judged from their last clean views against each
other (and against the referee's record of them), and the ruling, its evidence (the photo-finish) and
the policy of when a penalty may be given without asking the table.

:class:`Claims` is mixed into :class:`web.adapters.twinit.TwinItAdapter` (through
:class:`web.adapters.twinit_slaps.Slaps`, which watches the hands and says when and on which cards a
slap has landed) and works on its state (the stable table snapshot, the views noted each frame, where
each referee card lies).
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from web.adapters.base import photo_finish
from web.adapters.twinit_resync import WonTop
from web.adapters.twinit_table import (
    Spot,
    Tip,
    card_at_tip,
)

RECENT_VIEWS = 48
"""Places whose newest view is kept (a table holds fewer cards in sight)."""
SIGS_SLACK = 8
"""Signatures kept beyond :data:`RECENT_VIEWS` before the oldest used are dropped back to it (one
signature with the verifier's views is ~0.2 MB: a slack of another 48 swung the adapter's memory
by ~9 MB within a game)."""
PAIRS_KEPT = 8
"""Pairs of views whose p(same) is kept (:meth:`Claims._p_same_views`)."""
SIG_PAIRS_KEPT = 256
"""Pairs of signatures whose p(same) is kept (:meth:`Claims._p_same_sigs`): a claim's checks ask
up to ~30 (its views against older ones, the record, the captures as won), the choice among an
arm's hidden cards every pair of them (36 for 9 cards), a new view's label one pair per face known
(up to ~70 late in a game): a label made between the landing frame and the ruling frame must not
push the claim's pairs out. The pairs hold their signatures weakly: a pair is found again only by
the very two signatures asked, so one no longer held elsewhere (its view's signature dropped from
the kept ones) can never be asked again, and its entry is dropped first."""
FRESH_S = 1.0
"""A penalty needs both cards' views seen with no hand on them at most this long before the
hands landed on them (an older view may show a card since covered, moved or turned)."""


WON_VIEWS = 4
"""Views kept of each captured face (its cards' views when the capture was won)."""


def place_key(loc: dict[str, Any]) -> tuple[str, int] | None:
    """A claimed card's place as the adapter keys its records: ``("table", i)`` or ``("pile", i)``
    (``None`` for a won card's place)."""
    if "table" in loc:
        return ("table", loc["table"])
    if "pile" in loc:
        return ("pile", loc["pile"])
    return None


class Claims:
    """Claims judged and ruled (or put to the table)."""

    def _signature_of(self, view: np.ndarray) -> Any:
        """The judge's signature of ``view``, kept for the newest views used (:data:`RECENT_VIEWS`):
        a view used again is kept as newly used, so that a claim's views, signed long before
        and used on the frame its hands land, are the very same signatures on the frame that
        rules (and their pairs' scores kept, :meth:`_p_same_sigs`)."""
        cached = self._sigs.get(id(view))
        if cached is not None and cached[0] is view:
            self._sigs[id(view)] = self._sigs.pop(id(view))  # newly used: kept last
            return cached[1]
        sig = self.matcher.signature(view)
        self._remember_sig(view, sig)
        return sig

    def _remember_sig(self, view: np.ndarray, sig: Any) -> None:
        self._sigs[id(view)] = (view, sig)
        if len(self._sigs) > RECENT_VIEWS + SIGS_SLACK:
            for key in list(self._sigs)[: len(self._sigs) - RECENT_VIEWS]:
                del self._sigs[key]

    def _p_same_views(self, a: np.ndarray, b: np.ndarray) -> float:
        """The judge's p(same) of two views, kept for the very same two views: a slap's pair is
        judged on the frame its hands land (:meth:`_surely_same`, or ahead of a later decision)
        and again on the frame that rules (a pair head call of 15 to 20 ms on the ruling frame)."""
        key = (id(a), id(b))
        known = self._pairs_p.get(key)
        if known is not None and known[0] is a and known[1] is b:
            return known[2]
        p = self.matcher.p_same(self._signature_of(a), self._signature_of(b))
        self._pairs_p[key] = (a, b, p)
        for stale in list(self._pairs_p)[: max(0, len(self._pairs_p) - PAIRS_KEPT)]:
            del self._pairs_p[stale]
        return p

    def _p_same_sigs(self, pairs: list[tuple[Any, Any]]) -> list[float]:
        """The judge's p(same) of signature pairs (:meth:`Matcher.p_same_many`), kept for the very
        same two signatures (:data:`SIG_PAIRS_KEPT` pairs, the oldest dropped first): a claim's
        checks are asked on the frame its hands land (:meth:`judge_ahead`) and again on the frame
        that rules, from the same views. A view or record that changed in between is another
        signature: asked anew, never answered from the cache."""
        out: list[float | None] = []
        todo: list[tuple[Any, Any]] = []
        for a, b in pairs:
            known = self._sig_pairs.get((id(a), id(b)))
            if known is not None and known[0]() is a and known[1]() is b:
                out.append(known[2])
                self._sig_pairs[(id(a), id(b))] = self._sig_pairs.pop((id(a), id(b)))  # newly used
            else:
                out.append(None)
                todo.append((a, b))
        if todo:
            fresh = iter(self.matcher.p_same_many(todo))
            for k, (a, b) in enumerate(pairs):
                if out[k] is None:
                    p = float(next(fresh))
                    out[k] = p
                    self._sig_pairs[(id(a), id(b))] = (_weak(a), _weak(b), p)
            if len(self._sig_pairs) > SIG_PAIRS_KEPT:  # pairs whose signature is gone first
                for key in [k for k, (ra, rb, _p) in self._sig_pairs.items() if ra() is None or rb() is None]:
                    del self._sig_pairs[key]
            for stale in list(self._sig_pairs)[: max(0, len(self._sig_pairs) - SIG_PAIRS_KEPT)]:
                del self._sig_pairs[stale]
        return [float(p) for p in out if p is not None]

    def judge_ahead(self, spots: list[Spot], landed: float, penalty: bool = True) -> None:
        """Asks the judge now what a claim on these two cards, landed at ``landed``, will ask on the
        frame that rules it (:meth:`_claim`): a pile card's label when its face is not known yet,
        the pair, and for a pair not surely the same, each card's views against older ones and the
        record (:meth:`_sound_evidence`) and a capture's card against the seat's captures as won
        (:meth:`_capture_as_won`, :meth:`_another_capture`). Called on the frame the
        hands land: every view it reads was taken before then, so the ruling frame finds the
        answers kept (a record changed in between only costs a new question). Rules nothing.
        ``penalty``: whether the claim may be penalised (two arm tips single its cards out); a
        claim that may not never asks for :meth:`_sound_evidence`."""
        if len(spots) != 2:
            return
        state = self.live.snapshot_state()
        locs = self._claimed_locs(spots, state)
        if any(loc is None for loc in locs):
            return
        located = [loc for loc in locs if loc is not None]
        crops, fresh = self._evidence(spots, landed)
        self._label_ahead(located, crops, state)
        p_same = self._p_same_views(crops[0], crops[1])
        if p_same >= self.sure:
            return  # ruled "same" from the pair alone
        if penalty and fresh and all(_square(c) for c in crops) and p_same < self.different_below:
            self._sound_evidence(spots, located, landed)
        if self._capture_as_won(located, crops, p_same, state) is None:
            self._another_capture(located, crops, state)
        for k, loc in enumerate(located):
            if "capture" in loc:  # (every capture of the seat: the one named may change on the ruling
                # frame, when the other card's face is read then from its view)
                self._against_won(crops[k], int(loc["capture"][0]), state)

    def _label_ahead(
        self, locs: list[dict[str, Any]], crops: list[np.ndarray], state: Mapping[str, Any]
    ) -> None:
        """A claimed pile card whose face the referee does not know (its top not read, or the pile
        counted empty) is labelled from its view on the ruling frame (:meth:`_claim`): its pairs
        with every face known, asked now."""
        for loc, crop in zip(locs, crops, strict=True):
            if "pile" in loc:
                count, face = state["piles"][loc["pile"]]
                if count == 0 or face is None:
                    sig = self._signature_of(crop)
                    self._p_same_sigs([(sig, ref) for ref in self.labels.values()])

    def pick_ahead(self, spots: list[Spot], landed: float | None = None) -> None:
        """Asks the judge now what :meth:`_pick_pair` will ask when one arm (or two vision sees as
        one) hides more than two cards: every pair of their newest views. ``spots`` in the order
        of the stable snapshot, as :meth:`_pick_pair` pairs them. One arm on exactly two cards
        (hidden since ``landed``): what its claim will ask (:meth:`judge_ahead`; one arm's claim
        is never penalised). Rules nothing."""
        if len(spots) == 2 and landed is not None:
            self.judge_ahead(spots, landed, penalty=False)
            return
        if len(spots) <= 2:
            return
        sigs = [self._signature_of(self._latest_view(s)) for s in spots]
        self._p_same_sigs([(a, b) for k, a in enumerate(sigs) for b in sigs[k + 1 :]])

    def _prepare(self, spots: list[Spot]) -> None:
        """Signatures of these cards' last clean views, in one batch, before they are needed."""
        views = [self._latest_view(s) for s in spots]
        todo = [v for v in views if not (id(v) in self._sigs and self._sigs[id(v)][0] is v)]
        if todo:
            for view, sig in zip(todo, self.matcher.signatures(todo), strict=True):
                self._remember_sig(view, sig)

    def _evidence(self, spots: list[Spot], landed: float) -> tuple[list[np.ndarray], bool]:
        """The two cards' views a slap is judged from, and whether they are fresh: both seen with
        no hand on them at most :data:`FRESH_S` before the hands landed; else the newest views."""
        clean = [self._clean_view(s, landed - FRESH_S) for s in spots]
        if all(c is not None for c in clean):
            return [c for c in clean if c is not None], True
        return [self._latest_view(s) for s in spots], False

    def _view_seen(self, view: np.ndarray) -> float | None:
        """When ``view``, one of the kept views, was cut from a frame (``None``: not known)."""
        for spot in (*self.clean_views, *self.recent):
            if spot.view is view:
                return spot.seen
        return None

    def _sound_evidence(self, spots: list[Spot], locs: list[dict[str, Any]], landed: float) -> bool:
        """Whether each card has a view a penalty may rest on (:mod:`web.adapters.twinit_views`):
        taken with no hand within reach at most :data:`FRESH_S` before the hands landed,
        showing the same pattern as an older clean view of that place (taken a frame or more
        apart: the card had settled there), and not another pattern than the card the referee
        recorded there (a record that drifted from the table: the referee does not know the card
        the hand lies on); and whether those two views still show different patterns. Otherwise
        the table is asked (the live bench's seed 1 once penalised two identical cards; offline
        replays of seeds 2 and 3 claimed, on true pairs, a place whose recorded card was not the
        one lying there, p(same) 0.0). The record alone confirms nothing: it may have been made
        from the very moment the view was taken (a card revealed under a moving card, the slap's
        hands already within reach of it in every later frame), and in a real-time replay of
        seed 1 such a card, revealed 0.7 s before the slap, was penalised against its identical
        twin at p(same) 0.04 with every other check passed."""
        tol = 0.25 * self.stable.card_px
        found = [self.place_views.evidence(s.center, tol, landed - FRESH_S) for s in spots]
        if any(e is None or not _square(e.view.view) for e in found):
            return False
        pairs: list[tuple[Any, Any]] = []
        owners: list[tuple[int, bool]] = []
        """(card, whether the reference is the referee's record) of each pair but the last."""
        for k, (ev, loc) in enumerate(zip(found, locs, strict=True)):
            assert ev is not None
            sig = self._signature_of(ev.view.view)
            key = place_key(loc)
            known = self.view_at.get(key) if key is not None else None
            for ref in ev.older[:2]:
                pairs.append((sig, self._signature_of(ref.view)))
                owners.append((k, False))
            if known is not None:
                pairs.append((sig, self._signature_of(known)))
                owners.append((k, True))
            top = self.top_view_of.get(loc["table"]) if "table" in loc else None
            if top is not None:
                # a played card the referee knew as its pile's top: its view now must show the
                # face recorded then (the live bench's seed 1 at 78.1 s penalised a true pair of
                # twins at p(same) 0.05: the card just played from Ben's pile, recorded there as
                # one face, labelled another on the table, its record made from that very view)
                pairs.append((sig, self._signature_of(top)))
                owners.append((k, True))
            if known is None and "capture" in loc:
                # a won card's place: the look of the face the referee records on top of that
                # capture (its place may still show the capture below, the won cards not laid yet:
                # the live bench's seed 5 at 69.4 s penalised a true pair so)
                face = self._face_at(self.live.snapshot_state(), loc)
                label = self.labels.get(face) if face is not None else None
                if label is None:
                    return False  # nothing tells which card should lie there
                pairs.append((sig, label))
                owners.append((k, True))
        views = [e.view.view for e in found if e is not None]
        pairs.append((self._signature_of(views[0]), self._signature_of(views[1])))
        scores = self._p_same_sigs(pairs)
        for k, ev in enumerate(found):
            assert ev is not None
            older = [p for (i, rec), p in zip(owners, scores, strict=False) if i == k and not rec]
            record = [p for (i, rec), p in zip(owners, scores, strict=False) if i == k and rec]
            if any(p < self.sure for p in record):
                return False  # the referee's record of the place is not the card lying there
            if not any(p >= self.sure for p in older):
                return False  # no older view of the place shows this card: one moment's view
        return scores[-1] < self.different_below

    def _surely_same(self, spots: list[Spot], landed: float) -> bool:
        crops, _ = self._evidence(spots, landed)
        return self._p_same_views(crops[0], crops[1]) >= self.sure

    def _capture_as_won(
        self, locs: list[dict[str, Any]], crops: list[np.ndarray], p_same: float, state: Mapping[str, Any]
    ) -> tuple[int, np.ndarray, float] | None:
        """A steal judged against the stolen capture as it was won: (the capture card's index in
        the pair, the view of the capture judged, p(same)) when the other card's view surely shows
        the face of the capture its hand lies on, else ``None``.

        The view of a capture card under a hand is often a poor one (a card of the capture laid
        over the other, cut by the image's edge, half under the claimer's arm: the live bench's
        seed 1 at 9.6 s, p(same) 0.83 on a true steal); the views of its cards when the capture was
        won (:attr:`won_views`) are whole ones. They stand in for it only when the poor view is
        still that capture's: the two views now are not surely different, the capture's view is
        not surely another pattern than its cards as won, and every other capture of that seat
        surely is another pattern than it (a hand on another capture than the one whose face
        matches is a wrong claim, and it is not judged so). Only "same" is ruled so, never a
        penalty."""
        if p_same < self.different_below:
            return None  # the views now say two patterns: the hand may lie on another card
        caps = [k for k, loc in enumerate(locs) if "capture" in loc]
        if len(caps) != 1:
            return None
        k = caps[0]
        seat, index = locs[k]["capture"]
        held = state.get("captures", [])[seat]
        won = [self.won_views.get(face, []) for face, _n in held]
        if not won[index] or not all(won[j] for j in range(len(held)) if j != index):
            return None  # a capture whose cards the adapter did not see won (a restart, a resync)
        own = self._signature_of(crops[k])
        other = self._signature_of(crops[1 - k])
        pairs = [(other, self._signature_of(v)) for v in won[index]]
        pairs += [(own, self._signature_of(v)) for j in range(len(held)) for v in won[j]]
        scores = self._p_same_sigs(pairs)
        to_other, rest = scores[: len(won[index])], scores[len(won[index]) :]
        own_p: list[list[float]] = []
        for views in won:
            own_p.append(rest[: len(views)])
            rest = rest[len(views) :]
        if max(own_p[index]) < self.different_below:
            return None  # the capture's view shows another pattern than its cards as won
        if any(max(own_p[j]) >= self.different_below for j in range(len(held)) if j != index):
            return None  # it may be another capture of the seat's
        best = int(np.argmax(to_other))
        if to_other[best] < self.sure:
            return None
        return k, won[index][best], float(to_other[best])

    def _pick_pair(
        self, hidden: list[int], snapshot: list[Spot], tips: list[Tip], size: tuple[int, int] | None = None
    ) -> list[int] | None:
        """The two cards claimed: the only two hidden, or the only surely identical pair among
        more (arms cover cards on their way), or the only one among them with the card an arm's
        tip lies on; or, with no pair surely identical, a steal of the capture the tip lies on
        (:meth:`_steal_at_tip`); otherwise held back as uncertain (an arm carrying a card over
        others makes no question: answered "no", it would penalise a player who claimed
        nothing)."""
        if len(hidden) == 2:
            return hidden
        sigs = {i: self._signature_of(self._latest_view(snapshot[i])) for i in hidden}
        pairs = [[a, b] for k, a in enumerate(hidden) for b in hidden[k + 1 :]]
        # every pair in one batch of the judge's head (arms over many cards: 36 calls were one each)
        scored = list(zip(self._p_same_sigs([(sigs[a], sigs[b]) for a, b in pairs]), pairs, strict=True))
        sure = [pair for p, pair in scored if p >= self.sure]
        if len(sure) == 1:
            return sure[0]
        found = {
            card_at_tip(t, s, dict.fromkeys(hidden), snapshot, self.stable.card_px, size) for t, s, _ in tips
        }
        anchors = found - {None}
        if len(anchors) == 1:
            anchor = anchors.pop()
            ranked = sorted(((p, pair) for p, pair in scored if anchor in pair), key=lambda x: -x[0])
            sure_here = [pair for p, pair in ranked if p >= self.sure]
            if len(sure_here) == 1:
                return sure_here[0]
            if not sure:
                steal = self._steal_at_tip(anchor, ranked, snapshot)
                if steal is not None:
                    return steal
        self.hold(
            {"type": "claim"},
            f"hands over {len(hidden)} cards: which two are claimed is not clear",
            f"des mains sur {len(hidden)} cartes : on ne sait pas lesquelles sont réclamées",
        )
        return None

    def _steal_at_tip(
        self, anchor: int, ranked: list[tuple[float, list[int]]], snapshot: list[Spot]
    ) -> list[int] | None:
        """The pair of the capture card an arm's tip lies on (``anchor``) and the only other hidden
        card not surely another pattern than it (``ranked``: every hidden pair with the anchor and
        its p(same)), when the capture's cards as won surely show that card's face
        (:meth:`_capture_as_won`, which then rules the claim): a steal whose capture card under
        the hand, a card of the capture laid over the other, is a poor view (offline, seed 5 at
        9.6 s: the far capture at the tip, p(same) 0.97 with Ana's pile top under her arm, 0.00
        with a table card under it, held as "which two are claimed is not clear"). ``None`` when
        the capture's cards as won do not surely show the other card: the pair is picked only
        for a steal the as-won views call "same" (:meth:`_claim` then judges it from its own
        evidence views, and never penalises a pair picked among more)."""
        state = self.live.snapshot_state()
        maybe = [(p, pair) for p, pair in ranked if p >= self.different_below]
        if len(maybe) != 1:
            return None  # no card, or more than one, may show the anchor's pattern
        p_same, pair = maybe[0]
        spots = [snapshot[i] for i in pair]
        locs = self._claimed_locs(spots, state)
        located = [loc for loc in locs if loc is not None]
        if len(located) != 2 or "capture" not in located[pair.index(anchor)]:
            return None
        crops = [self._latest_view(s) for s in spots]
        if self._capture_as_won(located, crops, p_same, state) is None:
            return None
        return pair

    def _loc_of(self, spot: Spot, other_face: str | None, state: Mapping[str, Any]) -> dict[str, Any] | None:
        tol = 0.5 * self.stable.card_px
        for card, at in self.table_at.items():
            if np.linalg.norm(spot.center - at) <= tol:
                return {"table": card}
        for seat, at in self.pile_at.items():
            if np.linalg.norm(spot.center - at) <= tol:
                return {"pile": seat}
        seat = self._seat_of_zone(spot.center)
        if seat is not None and any(np.linalg.norm(spot.center - p) <= tol for p in self._leaving):
            return None  # a stolen capture's card, where it lay until its winner takes it
        if seat is not None:
            held = state.get("captures", [[]] * (seat + 1))[seat]
            if held:
                same = [i for i, (motif, n) in enumerate(held) if motif == other_face and n == 2]
                return {"capture": [seat, same[0] if same else len(held) - 1]}
        return None

    def _claimed_locs(self, spots: list[Spot], state: Mapping[str, Any]) -> list[dict[str, Any] | None]:
        """Where the referee has the two claimed cards (:meth:`_loc_of`; a capture card is the
        capture of the other card's face when its seat holds one)."""
        locs = [self._loc_of(spots[0], None, state), self._loc_of(spots[1], None, state)]
        faces = [self._face_at(state, loc) if loc else None for loc in locs]
        if locs[0] and "capture" in locs[0]:
            locs[0] = self._loc_of(spots[0], faces[1], state)
        if locs[1] and "capture" in locs[1]:
            locs[1] = self._loc_of(spots[1], faces[0], state)
        return locs

    def _face_at(self, state: Mapping[str, Any], loc: Mapping[str, Any]) -> str | None:
        if "table" in loc:
            return next((f for i, f in state.get("table", []) if i == loc["table"]), None)
        if "pile" in loc:
            return state["piles"][loc["pile"]][1]
        seat, index = loc["capture"]
        return state["captures"][seat][index][0]

    def _claim(
        self, spots: list[Spot], seats: list[str], landed_mono: float, sure_cards: bool = True
    ) -> None:
        players = [self.player_at(s) for s in seats]
        if any(p is None for p in players):
            self.hold(
                {"type": "claim"},
                "a hand came from an edge where no player sits",
                "une main vient d'un bord où personne n'est assis",
            )
            return
        state = self.live.snapshot_state()
        locs = self._claimed_locs(spots, state)
        if any(loc is None for loc in locs):
            self.hold(
                {"type": "claim"},
                "hands on a card the referee does not know",
                "des mains sur une carte que l'arbitre ne connaît pas",
            )
            return
        # both cards seen whole, with no hand on them, just before the hands landed: those views
        # are the evidence (a penalty needs them); else the newest views, which only rule "same"
        crops, fresh = self._evidence(spots, landed_mono)
        for loc, spot, crop in zip(locs, spots, crops, strict=True):
            # a pile the referee counts empty, under a hand on a card the camera saw there: the
            # card is back (a missed penalty); logged before the claim it is part of
            # (or, with no card lost, a penalty gave back a bigger capture than the referee's;
            # else, the card seen whole just before, one the referee never counted there)
            # ... and a pile top the referee waits for, seen whole just before the hands landed,
            # is read from that view (the claim would be refused on a face not known yet)
            seen = self._view_seen(crop)
            if "pile" in loc and state["piles"][loc["pile"]][0] == 0:
                if self._still_won(loc["pile"], crop, seen):
                    pass  # the card a claim won there, not carried off yet: no card back
                elif state.get("lost"):
                    self._refill(loc["pile"], spot, crop)
                elif (
                    not self._regive(
                        loc["pile"], Spot(spot.center, spot.quad, crop, spot.track) if fresh else None
                    )
                    and fresh
                ):  # none lost nor given back: a card the referee never counted there, seen whole
                    self._refill(loc["pile"], spot, crop)
                state = self.live.snapshot_state()
            elif (
                "pile" in loc
                and state["piles"][loc["pile"]][1] is None
                and fresh
                and not self._still_won(loc["pile"], crop, seen)  # (the won card, not taken yet)
            ):
                self._reveal_top(loc["pile"], Spot(spot.center, spot.quad, crop, spot.track))
                state = self.live.snapshot_state()
        faces = [self._face_at(state, loc) for loc in locs]
        p_same = self._p_same_views(crops[0], crops[1])
        # a penalty only for the very two cards two arm tips lie on, judged different from whole,
        # fresh, square views (an oblong crop is a card cut short or two cards merged)
        # ... and a table memory that held every card in sight before the hands landed (else the
        # card a hand lies on may be one the memory lacks, and the hidden one another)
        settled = not any(landed_mono - FRESH_S <= m < landed_mono for m in self._strays)
        penalise = (
            sure_cards
            and fresh
            and settled
            and all(_square(c) for c in crops)
            and p_same < self.different_below
        )
        # ... and each card's view one a real table trusts (:meth:`_sound_evidence`; ``None``:
        # not looked at, no penalty in view anyway)
        sound = self._sound_evidence(spots, locs, landed_mono) if penalise else None
        penalise = penalise and bool(sound)
        action: dict[str, Any] = {"type": "claim", "players": players, "cards": locs}
        taken = self.live.judge(action)
        if not taken.applies:  # no penalty nor capture: the referee's table is not the camera's
            self.hold(
                {"type": "claim"},
                f"a claim the referee cannot take: {taken.reason.en}",
                f"une réclamation que l'arbitre ne peut pas prendre : {taken.reason.fr}",
            )
            return
        name = self.live.game.players[players[0]]
        blob = self.live.store.put_blob(
            self.live.game_id, photo_finish(crops, f"{name}: p(same) {p_same:.2f}")
        )
        evidence = {
            "image": f"/api/evidence/{blob}.jpg",
            "p_same": round(p_same, 4),
            "seat": players[0],
            "landed_mono": landed_mono,
            "places": [[round(float(v), 1) for v in spot.center] for spot in spots],
            "checks": {
                "two_tips": sure_cards,
                "fresh_views": fresh,
                "settled_table": settled,
                "sound_views": sound,
            },
            # where the time went: the deciding frame captured, its vision done, the ruling decided
            "timing": {
                "captured": round(float(getattr(self._frame, "mono", 0.0)), 4),
                "observed": round(self._observed, 4),
                "decided": round(time.monotonic(), 4),
            },
        }
        labels_same = faces[0] is not None and faces[0] == faces[1]
        same_fix = self._amendments(locs, faces, same=True)
        diff_fix = self._amendments(locs, faces, same=False)
        self.latencies.append({"landed_mono": landed_mono})
        same = p_same >= self.sure
        as_won = self._capture_as_won(locs, crops, p_same, state) if not same else None
        if as_won is not None:  # a steal judged against the capture as it was won
            k, view, p_won = as_won
            shown = list(crops)
            shown[k] = view
            blob = self.live.store.put_blob(
                self.live.game_id, photo_finish(shown, f"{name}: p(same) {p_won:.2f} (capture as won)")
            )
            evidence = {**evidence, "image": f"/api/evidence/{blob}.jpg", "p_same_as_won": round(p_won, 4)}
            evidence["checks"] = {**evidence["checks"], "capture_as_won": True}
            same = True
        if not same and self._another_capture(locs, crops, state):
            self.hold(
                {"type": "claim"},
                "the card under the hand shows another capture of that player than the one claimed: "
                "which capture is claimed is not clear",
                "la carte sous la main montre une autre prise de ce joueur que celle réclamée : "
                "on ne sait pas laquelle est réclamée",
            )
            return
        if not same and not sure_cards and self._hand_off_the_pair(spots, seats[0]):
            self._hold_pair_unclear()
            return
        # the referee rules on face labels: when vision's call needs them rewritten and neither
        # card's can be, the referee would rule the other way; the table decides instead
        relabel = same != labels_same and not (same_fix if same else diff_fix)
        if (same or penalise) and not relabel:
            if same != labels_same:
                for fix in same_fix if same else diff_fix:
                    self.live.amend(fix["target"], fix["action"], "vision", quiet=True)
            seq, ruling = self.live.act(
                action, "vision", {**evidence, "judged": "same" if same else "different"}
            )
            if ruling.applies:
                self._after_claim(locs, seq, ruling.verdict.value == "valid")
        else:
            self.live.ask(
                {
                    "en": f"Do these two cards show the same pattern? ({name} claimed them)",
                    "fr": f"Ces deux cartes montrent-elles le même motif ? ({name} les a réclamées)",
                },
                action,
                action,
                "vision",
                evidence,
                amend_yes=[] if labels_same else same_fix,
                amend_no=diff_fix if labels_same else [],
            )

    def _another_capture(
        self, locs: list[dict[str, Any]], crops: list[np.ndarray], state: Mapping[str, Any]
    ) -> bool:
        """Whether the claimed capture card's view surely shows another capture of its seat (one
        of the views its cards were recorded by when won) and surely not the capture the claim
        names (the one of the other card's face, :meth:`_loc_of`): the hand's card is then not the
        claimed capture, which may lie out of sight (the live bench's seeds 0, 77.8 s and 5,
        69.4 s: the claimed capture at the image's bottom edge, never in the table memory, the
        hidden card beside it another capture of the seat under the arm; the table was asked
        about that card and the pile's, another pattern, and "no" would penalise a right
        steal). With no such views (a restart, a resync) nothing is said."""
        caps = [k for k, loc in enumerate(locs) if "capture" in loc]
        if len(caps) != 1:
            return False
        seat, index = locs[caps[0]]["capture"]
        held = state.get("captures", [])[seat]
        if index >= len(held) or not self.won_views.get(held[index][0]):
            return False
        best = [max(p, default=0.0) for p in self._against_won(crops[caps[0]], seat, state)]
        if best[index] >= self.different_below:
            return False  # it may be the claimed capture's card
        return any(p >= self.sure for j, p in enumerate(best) if j != index)

    def _against_won(self, crop: np.ndarray, seat: int, state: Mapping[str, Any]) -> list[list[float]]:
        """p(same) of a capture card's view against the views each capture of ``seat`` was won by
        (:attr:`won_views`), per capture in the seat's order."""
        held = state.get("captures", [])[seat]
        won = [self.won_views.get(face, []) for face, _n in held]
        own = self._signature_of(crop)
        scores = iter(self._p_same_sigs([(own, self._signature_of(v)) for views in won for v in views]))
        return [[next(scores) for _ in views] for views in won]

    def _hold_pair_unclear(self) -> None:
        """Hold the claim: a hand of the claimer lies on neither card, so which two are claimed is not
        clear (asking the table about two other cards could penalise a right claim)."""
        self.hold(
            {"type": "claim"},
            "a hand of the claimer lies on neither card: which two are claimed is not clear",
            "une main du joueur n'est sur aucune des deux cartes : on ne sait pas lesquelles sont réclamées",
        )

    def _hand_off_the_pair(self, spots: list[Spot], seat: str) -> bool:
        """Whether a hand from the claimer's edge lies on neither of the two cards (its box holds
        neither centre): with no two arm tips singling the cards out, the claimed pair is then in
        doubt, one card maybe under that hand (the live bench's seed 4, 67.2 s on the new slap:
        one arm over Chloé's pile and the capture beside it on its way, the other hand on a table
        card vision saw only the edge of; the table was asked about the pile and the capture,
        another pattern, and "no" would have penalised a right claim)."""
        obs = self._obs
        if obs is None:
            return False
        for hand in obs.hands:
            if str(hand.seat) != seat:
                continue
            if not any(_in_box(hand.bbox, s.center) for s in spots):
                return True
        return False

    def _amendments(
        self, locs: list[dict[str, Any]], faces: list[str | None], same: bool
    ) -> list[dict[str, Any]]:
        """Rewrites of one card's face so that it equals (or differs from) the other's: the second
        card's, or the first's when the second's face cannot be rewritten (a won pair's)."""
        for target, other in ((1, 0), (0, 1)):
            loc, face, ref = locs[target], faces[target], faces[other]
            key = place_key(loc)
            if key is None or key not in self.seq_of:
                continue
            if same and ref is not None and face != ref:
                new_face = ref
            elif not same and face == ref:
                new_face = self._fresh()
            else:
                return []
            action = self._rewrite(self.seq_of[key], key, new_face)
            if action:
                return [{"target": self.seq_of[key], "action": action}]
        return []

    def _rewrite(self, seq: int, key: tuple[str, int], face: str) -> dict[str, Any] | None:
        entry = next((e for e in self.live.entries if e.get("seq") == seq), None)
        if entry is None:
            return None
        action = dict(entry["action"])
        if action["type"] == "play" or (action["type"] in ("reveal", "refill") and key[0] == "pile"):
            action["face"] = face
            return action
        if action["type"] == "deal" and key[0] == "pile":
            tops = list(action.get("tops") or [])
            tops[key[1]] = face
            action["tops"] = tops
            return action
        if action["type"] == "start" and key[0] == "table":
            faces = list(action.get("faces") or [])
            faces[key[1]] = face
            action["faces"] = faces
            return action
        return None

    def _keep_won_views(self, locs: list[dict[str, Any]], seq: int) -> None:
        """The views of the cards the applied claim ``seq`` won, kept under the capture's face
        (:attr:`won_views`): the views the referee recorded them by (a stolen capture's, those kept
        when it was won)."""
        entry = next((e for e in reversed(self.live.entries) if e.get("seq") == seq), None)
        motif = ((entry or {}).get("ruling") or {}).get("details", {}).get("motif") if entry else None
        if not isinstance(motif, str):
            return
        views: list[np.ndarray] = []
        for loc in locs:
            key = place_key(loc)
            view = self.view_at.get(key) if key is not None else None
            if view is not None:
                views.append(view)
        if views:  # (a triple steal: the stolen capture's views, kept under the same face, stay)
            self.won_views[motif] = [*views, *self.won_views.get(motif, [])][:WON_VIEWS]

    def _after_claim(self, locs: list[dict[str, Any]], seq: int, won: bool) -> None:
        """The applied claim ``seq`` on these cards (``won``: a capture, not a penalty): a table
        card the referee no longer has leaves the adapter's table (it may lie where it was a
        while: no new play; a wrong claim's cards stay, and so do their places), a won pile top
        leaves its pile (it may lie on the pile a while: not the pile's next card,
        :meth:`Resync._still_won`)."""
        if seq in self._claims_done:
            return
        self._claims_done.add(seq)
        if won:
            self._keep_won_views(locs, seq)
        state = self.live.snapshot_state()
        on_table = {card for card, _face in state.get("table", [])}
        entry = next((e for e in reversed(self.live.entries) if e.get("seq") == seq), None)
        places = ((entry or {}).get("evidence") or {}).get("places") or []
        for k, loc in enumerate(locs):
            if "capture" in loc and won and k < len(places):
                # the stolen capture's cards lie in its loser's area until the winner takes them:
                # no capture of the loser's there (the full live bench's seed 2, 77.5 s, in a
                # real-time run: the winner's hand come to gather them was ruled a second steal,
                # of the loser's other capture)
                self._leaving.append(np.asarray(places[k], dtype=np.float64))
            if "table" in loc and loc["table"] not in on_table:
                at = self.table_at.pop(loc["table"], None)
                if at is not None:
                    self._leaving.append(at)
            elif "pile" in loc and won:
                seat = int(loc["pile"])
                self._won_top[seat] = WonTop(self.view_at.get(("pile", seat)))
        for seat, held in enumerate(state.get("captures", [])):
            spots = self.captures_at.get(seat, [])
            keep = 2 * len(held) + sum(1 for _, n in held if n == 3)
            if len(spots) > keep:
                self.captures_at[seat] = spots[: max(0, keep)]


def _weak(obj: Any) -> Callable[[], Any]:
    """A weak reference to ``obj`` (a strong one when its type takes none)."""
    try:
        return weakref.ref(obj)
    except TypeError:
        return lambda: obj


def _in_box(box: tuple[int, int, int, int], point: np.ndarray, margin: float = 8.0) -> bool:
    """Whether ``point`` lies in the box (x, y, w, h), ``margin`` pixels wider (as
    :func:`twinit_table.under_a_hand` counts it)."""
    x, y, w, h = box
    return x - margin <= point[0] <= x + w + margin and y - margin <= point[1] <= y + h + margin


def _square(crop: np.ndarray) -> bool:
    """A Twin It card's crop is square (the finder makes oblong crops for oblong quads)."""
    h, w = crop.shape[:2]
    return abs(w - h) <= 0.12 * max(w, h)
