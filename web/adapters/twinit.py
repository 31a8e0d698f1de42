"""Twin It: a card turned onto the table is a play, a pile's new top is a reveal, two hands on two
cards are a claim, and the spread of the stacked cards starts the cooperative minute.

Faces are the referee's identity strings; two cards are identical when their strings are equal.
The identity judge compares crops (it needs no catalogue of the deck), so faces are labels the
adapter gives: a newly seen card gets the label of the known face it surely matches, else a
fresh one. At a slap, the judge compares the two covered cards' last clean views directly; that
comparison is the ruling's evidence (the photo-finish). When it is not sure either way the table
is asked, and its answer rewrites the faces before the claim is played, so the referee's ruling
follows the table.

The table is read from stable snapshots (:mod:`web.adapters.twinit_table`): positions, not track
ids. A player's area is the band along their image edge (their pile and their captures).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

import cv2
import numpy as np

from vision.observation import TableObservation
from web.adapters.base import GameAdapter, photo_finish, row
from web.adapters.twinit_table import (
    Spot,
    Stabiliser,
    Tip,
    arm_tips,
    card_at_tip,
    clusters,
    edge_zone,
    fingertip,
    fresh_views,
    hidden_under_hands,
    nearest,
    on_the_mask,
    same_layout,
    same_places,
    tip_pair,
    under_a_hand,
    visible_spots,
)
from web.live_game import LiveGame
from web.settings import Settings

log = logging.getLogger(__name__)

Compare = Callable[[np.ndarray, np.ndarray], float]
"""Two crops -> the probability that they show the same pattern."""

HOLD_S = 0.45
"""One hand (or two arms vision sees as one) must stay on the same cards, and every other card
stay put, this long to make a claim (an arm carrying a card never holds still that long)."""
TWO_HANDS_HOLD_S = 0.1
CONFIRM_FRAMES = 1
ARRIVAL_S = 0.8
"""Two separate hands on the cards are a slap's own sign (a card is carried with one hand): the
claim is judged once the same cards have stayed hidden this long and over this many frames
after the first (one frame can show a hand passing); at once when the two tips' cards are the
only cards hidden. Only hands that came onto the table at
most :data:`ARRIVAL_S` before count so (a slap lands at once; two hands sweeping the cards
together have been over the table for a while)."""
EDGE_FRACTION = 0.22
"""A card centred within this fraction of an image edge lies in that player's area."""
SPREAD_MIN_CARDS = 6
SPREAD_FRACTION = 0.6
"""The minute starts when at least this fraction of the cards (and 6) lie apart on the table."""
SPREAD_WAIT_S = 1.0
"""The spread hands over once at rest, or from its fullest view after this long in sight (hands
may reach for the cards before the table is ever still)."""
STACK_MAX_CARDS = 3
STACK_HOLD_S = 0.4
"""A table showing this few cards, none in a player's area, this long is the stack before a
spread..."""
STACK_MEMORY_S = 20.0
"""...and a spread counts only this long after the stack was seen."""
SET_SETTLE_S = 1.5
"""Cooperative minute: a set laid in a player's area counts once it has stayed this long (a
third card may still come), or at once with three cards."""
COOP_MODES = ("cooperative", "cooperative-competitive")
RECENT_VIEWS = 48
"""Places whose newest view is kept (a table holds fewer cards in sight)."""
SIGNATURE_BATCH = 4
"""Crops per call of the judge: the inference runtime keeps memory for the largest batch it has
run, so a batch the size of every card under the hands would grow the server for good."""
FRESH_S = 1.0
"""A penalty needs both cards' views seen with no hand on them at most this long before the
hands landed on them (an older view may show a card since covered, moved or turned)."""


class Matcher:
    """Pattern comparisons, with signatures cached when the judge offers them."""

    def __init__(self, compare: Compare, judge: Any = None) -> None:
        self.compare = compare
        self.judge = judge

    def signature(self, crop: np.ndarray) -> Any:
        return self.judge.signature(crop) if self.judge is not None else crop

    def signatures(self, crops: list[np.ndarray]) -> list[Any]:
        """Many signatures, in batches of at most :data:`SIGNATURE_BATCH` when the judge offers
        them."""
        if self.judge is not None and hasattr(self.judge, "signatures"):
            out: list[Any] = []
            for k in range(0, len(crops), SIGNATURE_BATCH):
                out.extend(self.judge.signatures(crops[k : k + SIGNATURE_BATCH]))
            return out
        return [self.signature(c) for c in crops]

    def p_same(self, a: Any, b: Any) -> float:
        if self.judge is not None:
            return float(self.judge.judge_signatures(a, b).p_same)
        return float(self.compare(a, b))


def judge_compare(judge: Any) -> Compare:
    """A :data:`Compare` from a ``PatternJudge`` (``compare(a, b) -> Judgement(verdict, p_same)``)."""

    def compare(a: np.ndarray, b: np.ndarray) -> float:
        return float(judge.compare(a, b).p_same)

    return compare


class TwinItAdapter(GameAdapter):
    def __init__(
        self,
        live: LiveGame,
        settings: Settings,
        compare: Compare,
        same_at: float | None = None,
        different_below: float | None = None,
        judge: Any = None,
    ) -> None:
        super().__init__(live, settings)
        self.matcher = Matcher(compare, judge)
        self.sure = settings.uncertain_below if same_at is None else same_at
        self.different_below = 1.0 - settings.uncertain_below if different_below is None else different_below
        self.coop = live.game.mode in COOP_MODES
        options = live.game.config.options
        self.expected_cards = int(options.get("cards", 135))
        self.seconds = float(options.get("seconds", settings.coop_seconds))
        self.stable = Stabiliser()
        self.labels: dict[str, Any] = {}
        """Face label -> the signature of its first clean view."""
        self.next_label = 0
        self.pile_at: dict[int, np.ndarray] = {}
        """Seat -> where its pile lies."""
        self.table_at: dict[int, np.ndarray] = {}
        """Referee table card id -> where it lies."""
        self.captures_at: dict[int, list[np.ndarray]] = {}
        """Seat -> where its capture cards lie."""
        self.seq_of: dict[tuple[str, int], int] = {}
        """("table", id) | ("pile", seat) -> the applied action that gave its face."""
        self.view_at: dict[tuple[str, int], np.ndarray] = {}
        self.face_shown: dict[int, str] = {}
        """Track -> face label, for the overlay and corrections."""
        self._pending: tuple[list[np.ndarray], float] | None = None
        """The places hidden under hands, and when they were first hidden together."""
        self._pending_frames = 0
        self._pending_two = False
        self._arms: list[tuple[np.ndarray, str, float]] = []
        """Last frame's arm blobs and the edge each came in from."""
        self._hands_since: float | None = None
        """When hands came onto the table (``None`` while there are none)."""
        self._pending_seen: list[Spot] = []
        self._strays_of: list[Spot] | None = None
        self._strays: list[float] = []
        """When (recent frames, since the table memory was last made) a card was seen where the
        memory holds none: it lags behind the table then (a card just laid, carried, not at rest)."""
        self._claimed: list[np.ndarray] | None = None
        self._sigs: dict[int, tuple[np.ndarray, Any]] = {}
        """id(view) -> (view, signature): the last clean views' signatures, made while the hands
        come down so that the slap's comparison needs only the pair head."""
        self._spread_first: float | None = None
        self._spread_counts: list[tuple[float, int]] = []
        """(mono, cards seen) of each frame since the spread began."""
        self._spread_best: list[Spot] = []
        """The spread's fullest view so far (competitive play, before the hand-over)."""
        self._stack_at: float | None = None
        self._stack_from: float | None = None
        self._stack_shown = False
        """Whether the run of stack-like views has shown a card in the middle yet."""
        self._frame: Any = None
        self._observed = 0.0
        self.recent: list[Spot] = []
        """The newest unhidden view at each place a card was seen."""
        self.clean_views: list[Spot] = []
        """The newest view at each place with no hand anywhere on the card, dated."""
        self.spread_hint: float | None = None
        """Set when a competitive game handed over at a spread: the minute's first frame."""
        self.spread_snapshot: list[Spot] | None = None
        """Set with ``spread_hint``: the spread as the competitive game saw it at rest."""
        self.spread_mono: float | None = None
        self.on_spread: Callable[[int, float, TableObservation, Any], None] | None = None
        """Competitive play: called (count, first mono, obs, frame) when a stack is spread."""
        self._sets_done: list[np.ndarray] = []
        self._set_seen: dict[tuple[int, ...], float] = {}
        self._ended = False
        self.latencies: list[dict[str, float]] = []
        photo_finish([None, None], "")  # loads the caption font now, not at the first slap
        if live.entries:
            self._restore()
        self.unplayed: list[np.ndarray] = []
        self._leaving: list[np.ndarray] = []
        """Where won table cards lay, until a stable view shows them gone."""
        """Centres of new table cards not played yet, oldest first."""

    # -- faces ---------------------------------------------------------------------------------
    def _fresh(self) -> str:
        self.next_label += 1
        return f"twinit:m{self.next_label:03d}"

    def label(self, view: np.ndarray) -> str:
        """The known face this view surely shows, else a new label."""
        sig = self.matcher.signature(view)
        best, best_p = None, 0.0
        for face, ref in self.labels.items():
            p = self.matcher.p_same(sig, ref)
            if p > best_p:
                best, best_p = face, p
        if best is not None and best_p >= self.sure:
            return best
        face = self._fresh()
        self.labels[face] = sig
        return face

    # -- memory kept in the log ---------------------------------------------------------------------
    def _propose_seen(self, action: dict[str, Any], seen: list[tuple[str, Spot]]) -> tuple[int, Any] | None:
        """Proposes ``action`` with where its cards lie and their views (PNG blobs) as evidence, so
        a restart finds the table it left (:meth:`_restore`)."""
        if not self.live.judge(action).applies:
            return self.propose(action)  # held back, with the referee's reason
        places = []
        for key, spot in seen:
            ok, png = cv2.imencode(".png", spot.view) if isinstance(spot.view, np.ndarray) else (False, None)
            blob = self.live.store.put_blob(self.live.game_id, png.tobytes(), "image/png") if ok else None
            places.append({"key": key, "at": [round(float(v), 1) for v in spot.center], "view": blob})
        return self.propose(action, {"places": places})

    def _restore(self) -> None:
        """After a restart: each face's first view, where each pile and table card lies and the
        action that gave its face, replayed from the log's applied actions and their evidence."""
        numbers = [0]
        for entry in self.live.entries:
            if entry.get("kind") != "action":
                continue
            action = entry["action"]
            for face in _faces_in(action):
                if face.startswith("twinit:m") and face[8:].isdigit():
                    numbers.append(int(face[8:]))
            if entry.get("undone") or not entry["ruling"].get("applies"):
                continue
            if action.get("type") == "claim":
                for loc in action.get("cards") or []:
                    if isinstance(loc, Mapping) and "table" in loc:
                        self.table_at.pop(int(loc["table"]), None)
            for place in (entry.get("evidence") or {}).get("places") or []:
                self._restore_place(entry, place)
        self.next_label = max(numbers)
        log.info(
            "Twin It adapter restored: %d faces, %d piles, %d table cards",
            len(self.labels),
            len(self.pile_at),
            len(self.table_at),
        )

    def _restore_place(self, entry: Mapping[str, Any], place: Mapping[str, Any]) -> None:
        action = entry["action"]
        kind, _, index = str(place.get("key", "")).partition(":")
        if kind == "play":
            key = ("table", int(entry["ruling"].get("details", {}).get("card", -1)))
            face = action.get("face")
        elif kind == "pile":
            key = ("pile", int(index))
            tops = action.get("tops") or []
            face = tops[key[1]] if action["type"] == "deal" and key[1] < len(tops) else action.get("face")
        elif kind == "table":
            key = ("table", int(index))
            faces = action.get("faces") or []
            face = faces[key[1]] if action["type"] == "start" and key[1] < len(faces) else action.get("face")
        else:
            return
        center = np.asarray(place.get("at", (0.0, 0.0)), dtype=np.float64)
        (self.pile_at if key[0] == "pile" else self.table_at)[key[1]] = center
        self.seq_of[key] = int(entry["seq"])
        blob = self.live.store.blob(int(place["view"])) if place.get("view") is not None else None
        view = cv2.imdecode(np.frombuffer(blob[1], np.uint8), cv2.IMREAD_COLOR) if blob else None
        if view is None:
            return
        self.view_at[key] = view
        if isinstance(face, str) and face not in self.labels:
            self.labels[face] = self.matcher.signature(view)

    # -- the frame -----------------------------------------------------------------------------
    def observe(self, obs: TableObservation, frame: Any) -> None:
        mono = float(getattr(frame, "mono", obs.timestamp))
        self._observed = time.monotonic()
        self._frame = frame
        self.zone = edge_zone(obs.width, obs.height, EDGE_FRACTION)
        self._note_views(obs, getattr(frame, "image", None), mono)
        phase = self.live.snapshot_state().get("phase")
        seen = visible_spots(obs)
        if len(seen) <= STACK_MAX_CARDS and all(self.zone(s.center) is None for s in seen):
            if self._stack_from is None:
                self._stack_from, self._stack_shown = mono, False
            # a view with no card at all (hands sweeping, a glitch) never makes a stack by itself
            self._stack_shown = self._stack_shown or bool(seen)
            if self._stack_shown and mono - self._stack_from >= STACK_HOLD_S - 1e-6:
                self._stack_at = mono
        else:
            self._stack_from = None
        if self.coop and phase == "setup":
            self._watch_spread(obs, mono)
            return
        if not self.coop and self.on_spread is not None and self._spread_seen(obs, mono):
            return
        if self.stable.snapshot and not self.coop:
            self._watch_slap(obs, mono)
        snapshot = self.stable.update(obs, mono, allow_hands=True, image=getattr(self._frame, "image", None))
        if self.coop:
            if phase == "minute" and self.stable.snapshot:
                self._coop_sets(self.stable.snapshot, mono)
        elif snapshot is not None:
            self._competitive(snapshot)

    def _note_views(self, obs: TableObservation, image: np.ndarray | None, mono: float) -> None:
        """The newest unhidden view of every place a card lies (a slap is judged from these), and
        the newest view with no hand on the card at all (a penalty needs those)."""
        if image is None or not obs.cards:
            return
        tol = 0.25 * self.stable.card_px
        for spot in fresh_views(visible_spots(obs), image, obs, mono):
            # (a view with a finger over a corner is kept: an older view may show another card,
            # a pile's top taken while the hand was still there)
            if under_a_hand(obs, spot.center) is not None and on_the_mask(obs.hand_mask, spot.center):
                continue  # (with a mask: a merged arms' box takes in cards in plain sight)
            _keep_at(self.recent, spot, tol)
            if spot.clean and spot.seen is not None:
                _keep_at(self.clean_views, spot, tol)

    def _latest_view(self, spot: Spot) -> np.ndarray:
        i = nearest(self.recent, spot.center, 0.25 * self.stable.card_px)
        return self.recent[i].view if i is not None else spot.view

    def _clean_view(self, spot: Spot, since: float) -> np.ndarray | None:
        """The card's view with no hand on it, if seen at ``since`` or later, else ``None``."""
        i = nearest(self.clean_views, spot.center, 0.25 * self.stable.card_px)
        if i is None:
            return None
        seen = self.clean_views[i].seen
        return self.clean_views[i].view if seen is not None and seen >= since - 1e-6 else None

    # -- competitive play ------------------------------------------------------------------------
    def _seat_of_zone(self, point: np.ndarray) -> int | None:
        edge = self.zone(point)
        return self.player_at(edge) if edge else None

    def _competitive(self, snapshot: list[Spot]) -> None:
        state = self.live.snapshot_state()
        tol = 0.5 * self.stable.card_px
        if state.get("phase") == "setup":
            self._deal(snapshot)
            return
        if state.get("phase") != "play":
            return
        # captures laid down since the last claim
        for spot in snapshot:
            seat = self._seat_of_zone(spot.center)
            if seat is None or np.linalg.norm(spot.center - self.pile_at.get(seat, spot.center + 1e6)) <= tol:
                continue
            known = self.captures_at.setdefault(seat, [])
            if not any(np.linalg.norm(spot.center - p) <= tol for p in known):
                known.append(spot.center)
        # new cards in the middle, oldest first: each is the play of the player whose turn it is
        self._reveal_piles(snapshot)
        # a won card still lying where it was until its winner takes it is no new play
        self._leaving = [p for p in self._leaving if nearest(snapshot, p, tol) is not None]
        fresh = [
            s
            for s in snapshot
            if self.zone(s.center) is None
            and not any(np.linalg.norm(s.center - p) <= tol for p in self.table_at.values())
            and not any(np.linalg.norm(s.center - p) <= tol for p in self._leaving)
        ]
        self.unplayed = [c for c in self.unplayed if any(np.linalg.norm(s.center - c) <= tol for s in fresh)]
        for spot in fresh:
            if not any(np.linalg.norm(spot.center - c) <= tol for c in self.unplayed):
                self.unplayed.append(spot.center)
        for center in list(self.unplayed):
            i = nearest(fresh, center, tol)
            turn = self.live.snapshot_state().get("turn")
            if i is None or turn is None or not self._play(fresh[i], int(turn)):
                break
            self.unplayed.remove(center)
            self._reveal_piles(snapshot)

    def _reveal_piles(self, snapshot: list[Spot]) -> None:
        """Pile tops (and cards turned over by a ruling) the referee does not know yet, read where
        they lie; a turned card is read once its view has changed."""
        tol = 0.5 * self.stable.card_px
        state = self.live.snapshot_state()
        for card, face in state.get("table", []):
            if face is not None or card not in self.table_at:
                continue
            i = nearest(snapshot, self.table_at[card], tol)
            if i is None:
                continue
            old = self.view_at.get(("table", card))
            sig = self.matcher.signature(snapshot[i].view)
            if old is not None and self.matcher.p_same(sig, self.matcher.signature(old)) >= self.sure:
                continue  # not turned over yet
            new_face = self.label(snapshot[i].view)
            result = self._propose_seen(
                {"type": "reveal", "card": card, "face": new_face}, [(f"table:{card}", snapshot[i])]
            )
            if result:
                self.seq_of[("table", card)] = result[0]
                self.view_at[("table", card)] = snapshot[i].view
                self.face_shown[snapshot[i].track] = new_face
        for seat, (size, top) in enumerate(state.get("piles", [])):
            if size == 0 or top is not None or seat not in self.pile_at:
                continue
            i = nearest(snapshot, self.pile_at[seat], tol)
            if i is None:
                continue
            face = self.label(snapshot[i].view)
            result = self._propose_seen(
                {"type": "reveal", "player": seat, "face": face}, [(f"pile:{seat}", snapshot[i])]
            )
            if result:
                self.seq_of[("pile", seat)] = result[0]
                self.view_at[("pile", seat)] = snapshot[i].view
                self.face_shown[snapshot[i].track] = face

    def _deal(self, snapshot: list[Spot]) -> None:
        tops: dict[int, Spot] = {}
        for spot in snapshot:
            seat = self._seat_of_zone(spot.center)
            if seat is not None and seat not in tops:
                tops[seat] = spot
        n = self.live.game.num_players
        if len(tops) < n:
            return
        total = self.expected_cards
        sizes = [total // n + (1 if i < total % n else 0) for i in range(n)]
        faces = [self.label(tops[i].view) for i in range(n)]
        result = self._propose_seen(
            {"type": "deal", "piles": sizes, "first": 0, "tops": faces},
            [(f"pile:{i}", tops[i]) for i in range(n)],
        )
        if result:
            for i in range(n):
                self.pile_at[i] = tops[i].center
                self.seq_of[("pile", i)] = result[0]
                self.view_at[("pile", i)] = tops[i].view
                self.face_shown[tops[i].track] = faces[i]

    def _play(self, spot: Spot, player: int) -> bool:
        face = self.label(spot.view)
        result = self._propose_seen({"type": "play", "player": player, "face": face}, [("play", spot)])
        if result is None:
            return False
        seq, ruling = result
        card = int(ruling.details.get("card", -1))
        self.table_at[card] = spot.center
        self.seq_of[("table", card)] = seq
        self.view_at[("table", card)] = spot.view
        self.face_shown[spot.track] = face
        return True

    # -- slaps -----------------------------------------------------------------------------------
    def _signature_of(self, view: np.ndarray) -> Any:
        cached = self._sigs.get(id(view))
        if cached is not None and cached[0] is view:
            return cached[1]
        sig = self.matcher.signature(view)
        self._remember_sig(view, sig)
        return sig

    def _remember_sig(self, view: np.ndarray, sig: Any) -> None:
        self._sigs[id(view)] = (view, sig)
        if len(self._sigs) > 2 * RECENT_VIEWS:
            for key in list(self._sigs)[: len(self._sigs) - RECENT_VIEWS]:
                del self._sigs[key]

    def _prepare(self, spots: list[Spot]) -> None:
        """Signatures of these cards' last clean views, in one batch, before they are needed."""
        views = [self._latest_view(s) for s in spots]
        todo = [v for v in views if not (id(v) in self._sigs and self._sigs[id(v)][0] is v)]
        if todo:
            for view, sig in zip(todo, self.matcher.signatures(todo), strict=True):
                self._remember_sig(view, sig)

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
        if len(hidden) < 2:
            self._pending = None
            if not hidden:
                self._claimed = None
            return
        landed = [t for t in tips if mono - t[2] <= ARRIVAL_S]  # arms that just came onto the table
        tipped = tip_pair(landed, hidden, snapshot, self.stable.card_px)
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
        else:
            self._pending_frames += 1
        if self._claimed is not None:
            return
        hold = TWO_HANDS_HOLD_S if tipped is not None else HOLD_S
        confirm = CONFIRM_FRAMES
        if tipped is not None and len(hidden) == 2:
            hold = 0.0  # exactly the two cards under two arms that just landed: the next frame,
            # or this one when their views surely show one pattern (only a penalty waits)
            if self._pending_frames == 0 and self._surely_same([snapshot[i] for i in tipped], mono):
                confirm = 0
        if self._pending_frames < confirm or mono - self._pending[1] < hold - 1e-6:
            return
        self._claimed = places
        pair = tipped if tipped is not None else self._pick_pair(sorted(hidden), snapshot, tips)
        if pair is None:
            return
        spots = [snapshot[i] for i in pair]
        # the claimed cards leave the snapshot: carrying them away is not another claim
        self.stable.snapshot = [s for i, s in enumerate(snapshot) if i not in pair]
        # a penalty only for the very two cards two arm tips lie on; cards picked among more, or
        # under arms vision cannot tell apart, may not be the claimed ones: the table's call
        sure_cards = tipped is not None and len(hidden) == 2
        self._claim(spots, [hidden[i][1] for i in pair], self._pending[1], sure_cards=sure_cards)

    def _evidence(self, spots: list[Spot], landed: float) -> tuple[list[np.ndarray], bool]:
        """The two cards' views a slap is judged from, and whether they are fresh: both seen with
        no hand on them at most :data:`FRESH_S` before the hands landed; else the newest views."""
        clean = [self._clean_view(s, landed - FRESH_S) for s in spots]
        if all(c is not None for c in clean):
            return [c for c in clean if c is not None], True
        return [self._latest_view(s) for s in spots], False

    def _surely_same(self, spots: list[Spot], landed: float) -> bool:
        crops, _ = self._evidence(spots, landed)
        return self.matcher.p_same(self._signature_of(crops[0]), self._signature_of(crops[1])) >= self.sure

    def _tips(self, obs: TableObservation, mono: float) -> list[Tip]:
        """Arm tips from the hands' mask; without one, each hand box's far end."""
        if not obs.hands:
            self._arms.clear()
            return []
        if obs.hand_mask is not None:
            return arm_tips(obs.hand_mask, self.stable.card_px, memory=self._arms, now=mono)
        since = self._hands_since if self._hands_since is not None else mono
        return [(fingertip(h), str(h.seat), since) for h in obs.hands]

    def _pick_pair(self, hidden: list[int], snapshot: list[Spot], tips: list[Tip]) -> list[int] | None:
        """The two cards claimed: the only two hidden, or the only surely identical pair among
        more (arms cover cards on their way), or the only one among them with the card an arm's
        tip lies on; otherwise held back as uncertain (an arm carrying a card over others makes
        no question: answered "no", it would penalise a player who claimed nothing)."""
        if len(hidden) == 2:
            return hidden
        sigs = {i: self._signature_of(self._latest_view(snapshot[i])) for i in hidden}
        scored = [
            (self.matcher.p_same(sigs[a], sigs[b]), [a, b])
            for k, a in enumerate(hidden)
            for b in hidden[k + 1 :]
        ]
        sure = [pair for p, pair in scored if p >= self.sure]
        if len(sure) == 1:
            return sure[0]
        found = {card_at_tip(t, s, dict.fromkeys(hidden), snapshot, self.stable.card_px) for t, s, _ in tips}
        anchors = found - {None}
        if len(anchors) == 1:
            anchor = anchors.pop()
            ranked = sorted(((p, pair) for p, pair in scored if anchor in pair), key=lambda x: -x[0])
            sure_here = [pair for p, pair in ranked if p >= self.sure]
            if len(sure_here) == 1:
                return sure_here[0]
        self.hold(
            {"type": "claim"},
            f"hands over {len(hidden)} cards: which two are claimed is not clear",
            f"des mains sur {len(hidden)} cartes : on ne sait pas lesquelles sont réclamées",
        )
        return None

    def _loc_of(self, spot: Spot, other_face: str | None, state: Mapping[str, Any]) -> dict[str, Any] | None:
        tol = 0.5 * self.stable.card_px
        for card, at in self.table_at.items():
            if np.linalg.norm(spot.center - at) <= tol:
                return {"table": card}
        for seat, at in self.pile_at.items():
            if np.linalg.norm(spot.center - at) <= tol:
                return {"pile": seat}
        seat = self._seat_of_zone(spot.center)
        if seat is not None:
            held = state.get("captures", [[]] * (seat + 1))[seat]
            if held:
                same = [i for i, (motif, n) in enumerate(held) if motif == other_face and n == 2]
                return {"capture": [seat, same[0] if same else len(held) - 1]}
        return None

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
        locs = [self._loc_of(spots[0], None, state), self._loc_of(spots[1], None, state)]
        faces = [self._face_at(state, loc) if loc else None for loc in locs]
        if locs[0] and "capture" in locs[0]:
            locs[0] = self._loc_of(spots[0], faces[1], state)
        if locs[1] and "capture" in locs[1]:
            locs[1] = self._loc_of(spots[1], faces[0], state)
        if any(loc is None for loc in locs):
            self.hold(
                {"type": "claim"},
                "hands on a card the referee does not know",
                "des mains sur une carte que l'arbitre ne connaît pas",
            )
            return
        faces = [self._face_at(state, loc) for loc in locs]
        # both cards seen whole, with no hand on them, just before the hands landed: those views
        # are the evidence (a penalty needs them); else the newest views, which only rule "same"
        crops, fresh = self._evidence(spots, landed_mono)
        p_same = self.matcher.p_same(self._signature_of(crops[0]), self._signature_of(crops[1]))
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
            "checks": {"two_tips": sure_cards, "fresh_views": fresh, "settled_table": settled},
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
        # the referee rules on face labels: when vision's call needs them rewritten and neither
        # card's can be, the referee would rule the other way; the table decides instead
        relabel = same != labels_same and not (same_fix if same else diff_fix)
        if (same or penalise) and not relabel:
            if same != labels_same:
                for fix in same_fix if same else diff_fix:
                    self.live.amend(fix["target"], fix["action"], "vision", quiet=True)
            _seq, ruling = self.live.act(
                action, "vision", {**evidence, "judged": "same" if same else "different"}
            )
            self._after_claim(locs, players, ruling)
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

    def _amendments(
        self, locs: list[dict[str, Any]], faces: list[str | None], same: bool
    ) -> list[dict[str, Any]]:
        """Rewrites of one card's face so that it equals (or differs from) the other's: the second
        card's, or the first's when the second's face cannot be rewritten (a won pair's)."""
        for target, other in ((1, 0), (0, 1)):
            loc, face, ref = locs[target], faces[target], faces[other]
            key = (
                ("table", loc["table"])
                if "table" in loc
                else ("pile", loc["pile"])
                if "pile" in loc
                else None
            )
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
        if action["type"] == "play" or (action["type"] == "reveal" and key[0] == "pile"):
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

    def _after_claim(self, locs: list[dict[str, Any]], players: list[int], ruling: Any) -> None:
        if not ruling.applies:
            return
        for loc in locs:
            if "table" in loc:
                at = self.table_at.pop(loc["table"], None)
                if at is not None:
                    self._leaving.append(at)
        state = self.live.snapshot_state()
        for seat, held in enumerate(state.get("captures", [])):
            spots = self.captures_at.get(seat, [])
            keep = 2 * len(held) + sum(1 for _, n in held if n == 3)
            if len(spots) > keep:
                self.captures_at[seat] = spots[: max(0, keep)]

    # -- the cooperative minute ------------------------------------------------------------------
    def _spread_seen(self, obs: TableObservation, mono: float) -> bool:
        """Competitive play: the stack was spread; hands over to the minute (``on_spread``).
        Hands hiding some of the spread for a frame do not start it again; when hands reach for
        the cards before the spread is ever still, it hands over from the fullest view of the
        spread once the spread has been in sight :data:`SPREAD_WAIT_S`."""
        seen = visible_spots(obs)
        need = max(SPREAD_MIN_CARDS, int(SPREAD_FRACTION * self.expected_cards))
        if not self._stack_recent(mono) or (len(seen) < need and self._spread_first is None):
            self._spread_first, self._spread_counts, self._spread_best = None, [], []
            return False
        if len(seen) >= need:
            if self._spread_first is None:
                self._spread_first = mono
            self._spread_counts.append((mono, len(seen)))
            if len(seen) >= len(self._spread_best):
                self._spread_best = fresh_views(seen, getattr(self._frame, "image", None), obs, mono)
        snapshot = self.stable.update(obs, mono, allow_hands=True, image=getattr(self._frame, "image", None))
        if snapshot is None or len(snapshot) < need:
            assert self._spread_first is not None
            if mono - self._spread_first < SPREAD_WAIT_S - 1e-6 or len(self._spread_counts) < 3:
                return True
            snapshot = self.stable.snapshot = list(self._spread_best)
        hook, self.on_spread = self.on_spread, None
        assert hook is not None
        hook(len(snapshot), self._spread_done(), obs, self._frame)
        return True

    def _spread_done(self) -> float | None:
        """When the spread's last card came down: the first frame that showed (all but one of)
        the most cards the spread showed. The table may not be still again for long (hands
        reach for the cards at once), so this does not wait for a still layout; that layout's
        first frame is the fallback."""
        if not self._spread_counts:
            return self.stable.since if self.stable.since is not None else self._spread_first
        most = max(n for _, n in self._spread_counts)
        return next(m for m, n in self._spread_counts if n >= most - 1)

    def _stack_recent(self, mono: float) -> bool:
        return self._stack_at is not None and mono - self._stack_at <= STACK_MEMORY_S

    def _watch_spread(self, obs: TableObservation, mono: float) -> None:
        need = max(SPREAD_MIN_CARDS, int(SPREAD_FRACTION * self.expected_cards))
        count = len(visible_spots(obs))
        if count >= need and self._spread_first is None:
            self._spread_first = mono
        elif count < need and self.spread_hint is None:
            self._spread_first = None
            self._spread_counts = []
        if count >= need and self.spread_hint is None:
            self._spread_counts.append((mono, count))
        snapshot = self.stable.update(obs, mono, allow_hands=True, image=getattr(self._frame, "image", None))
        if snapshot is None and self.spread_snapshot is not None:
            # handed over at rest: hands may reach for the cards before the table is still again
            snapshot, self.spread_snapshot = self.spread_snapshot, None
        if snapshot is None or len(snapshot) < need:
            return
        if self.spread_hint is None and not self._stack_recent(mono):
            return
        first = self.spread_hint if self.spread_hint is not None else self._spread_done()
        ordered = sorted(
            snapshot, key=lambda s: (round(s.center[1] / max(1.0, self.stable.card_px)), s.center[0])
        )
        faces: list[str | None] = [self.label(s.view) for s in ordered]
        faces += [None] * max(0, self.expected_cards - len(faces))
        result = self._propose_seen(
            {"type": "start", "faces": faces[: self.expected_cards]},
            [(f"table:{i}", spot) for i, spot in enumerate(ordered[: self.expected_cards])],
        )
        if result is None:
            return
        for i, spot in enumerate(ordered[: self.expected_cards]):
            self.table_at[i] = spot.center
            self.seq_of[("table", i)] = result[0]
            self.view_at[("table", i)] = spot.view
            self.face_shown[spot.track] = faces[i] or ""
        self.spread_mono = first if first is not None else mono
        self.spread_hint = None
        self.live.start_timer("coop", self.seconds, "vision", started_mono=self.spread_mono)

    def _coop_sets(self, snapshot: list[Spot], mono: float) -> None:
        """Sets laid in a player's area: matched to the table cards that left their places."""
        tol = 0.5 * self.stable.card_px
        in_zones = [
            s
            for s in snapshot
            if self._seat_of_zone(s.center) is not None
            and not any(np.linalg.norm(s.center - d) <= tol for d in self._sets_done)
            and not any(np.linalg.norm(s.center - p) <= tol for p in self.table_at.values())
        ]
        for group in clusters(in_zones, 1.2 * self.stable.card_px):
            spots = [in_zones[i] for i in group]
            grid = 0.25 * self.stable.card_px
            key = tuple(sorted(round(float(v) / grid) for s in spots for v in s.center))
            first = self._set_seen.setdefault(key, mono)
            if len(spots) < 2 or (len(spots) < 3 and mono - first < SET_SETTLE_S):
                continue
            self._coop_claim(spots[:3], mono)

    def _coop_claim(self, spots: list[Spot], mono: float) -> None:
        tol = 0.5 * self.stable.card_px
        snapshot = self.stable.snapshot
        empty = [
            card
            for card, at in self.table_at.items()
            if not any(np.linalg.norm(s.center - at) <= tol for s in snapshot)
        ]
        chosen: list[int] = []
        for spot in spots:
            sig = self.matcher.signature(spot.view)
            options = [c for c in empty if c not in chosen]
            if not options:
                break
            scores = [
                self.matcher.p_same(sig, self.matcher.signature(self.view_at[("table", c)])) for c in options
            ]
            chosen.append(options[int(np.argmax(scores))])
        self._sets_done.extend(s.center for s in spots)
        if len(chosen) != len(spots):
            self.hold(
                {"type": "claim"},
                "a set whose cards did not come from the table",
                "un lot dont les cartes ne viennent pas de la table",
            )
            return
        seat = self._seat_of_zone(spots[0].center)
        action: dict[str, Any] = {
            "type": "claim",
            "players": [seat] * len(chosen),
            "cards": [{"table": c} for c in chosen],
        }
        if self.live.timer is not None:
            action["at"] = round(max(0.0, mono - self.live.timer.started_mono), 3)
        result = self.propose(action, force=True)
        if result is not None:
            for c in chosen:
                self.table_at.pop(c, None)

    def tick(self, now: float) -> None:
        timer = self.live.timer
        if not self.coop or self._ended or timer is None or not timer.ended:
            return
        self._ended = True
        self.propose({"type": "end"})

    # -- the page ------------------------------------------------------------------------------
    def identity_of(self, track_id: int, identity: str | None) -> str | None:
        return self.face_shown.get(track_id, identity)

    def check_correction(self, fact: Mapping[str, Any]) -> str | None:
        if fact.get("kind") != "card":
            return f"a Twin It correction is about a card, not {fact.get('kind')!r}"
        if self._key_of_track(int(fact["track_id"])) is None:
            return f"card {fact['track_id']} is not a table card or pile top the referee knows"
        return None

    def _key_of_track(self, track: int) -> tuple[str, int] | None:
        spot = next((s for s in self.stable.snapshot if s.track == track), None)
        if spot is None:
            return None
        tol = 0.5 * self.stable.card_px
        for card, at in self.table_at.items():
            if np.linalg.norm(spot.center - at) <= tol:
                return ("table", card)
        for seat, at in self.pile_at.items():
            if np.linalg.norm(spot.center - at) <= tol:
                return ("pile", seat)
        return None

    def correct(self, fact: Mapping[str, Any]) -> None:
        key = self._key_of_track(int(fact["track_id"]))
        face = str(fact["identity"])
        if not face.startswith("twinit:"):
            face = f"twinit:{face}"
        if key is None or key not in self.seq_of:
            return
        action = self._rewrite(self.seq_of[key], key, face)
        if action is not None:
            self.face_shown[int(fact["track_id"])] = face
            self.live.amend(self.seq_of[key], action, "table")

    def panel_rows(self) -> list[dict[str, Any]]:
        state = self.live.snapshot_state()
        scores = self.live.game.scores(self.live.state)
        names = self.live.game.players
        rows = []
        if self.coop and isinstance(scores, Mapping):
            for key, en, fr in (
                ("points", "Points", "Points"),
                ("pairs", "Pairs", "Paires"),
                ("triples", "Triples", "Triples"),
            ):
                if key in scores:
                    rows.append(row(en, fr, scores[key]))
            level = scores.get("level")
            if isinstance(level, Mapping):
                rows.append({**row("Level", "Niveau", level.get("en", "")), "value_fr": level.get("fr", "")})
        for seat, held in enumerate(state.get("captures", [])):
            if seat < len(names):
                sets = ", ".join(f"{n}x" for _, n in held) or "-"
                rows.append(
                    row(f"{names[seat]}: captures", f"{names[seat]} : prises", f"{len(held)} ({sets})")
                )
        rows.append(row("Cards on the table", "Cartes sur la table", len(state.get("table", []))))
        if state.get("turn") is not None and state.get("phase") == "play":
            rows.append(row("Next to play", "À jouer", names[state["turn"]]))
        if state.get("taboo"):
            rows.append(row("Taboo motifs", "Motifs tabous", ", ".join(state["taboo"])))
        if self.live.game.mode == "teams":
            teams = self.live.game.config.options.get("teams")
            rows.append(row("Team mode", "Mode par équipes", str(teams or "alternate seats")))
        return rows


def _square(crop: np.ndarray) -> bool:
    """A Twin It card's crop is square (the finder makes oblong crops for oblong quads)."""
    h, w = crop.shape[:2]
    return abs(w - h) <= 0.12 * max(w, h)


def _keep_at(views: list[Spot], spot: Spot, tol: float) -> None:
    """``spot`` replaces the view kept at its place (within ``tol`` pixels); at most
    :data:`RECENT_VIEWS` places are kept, the longest unseen dropped first."""
    i = nearest(views, spot.center, tol)
    if i is not None:
        del views[i]
    views.append(spot)
    if len(views) > RECENT_VIEWS:
        del views[: len(views) - RECENT_VIEWS]


def _faces_in(action: Mapping[str, Any]) -> list[str]:
    """Every face label an action names."""
    out = [action["face"]] if isinstance(action.get("face"), str) else []
    for key in ("tops", "faces"):
        out += [f for f in action.get(key) or [] if isinstance(f, str)]
    return out


def make_twinit_adapter(
    compare: Compare, same_at: float | None = None, different_below: float | None = None, judge: Any = None
) -> Callable[[LiveGame, Settings], TwinItAdapter]:
    def factory(live: LiveGame, settings: Settings) -> TwinItAdapter:
        return TwinItAdapter(live, settings, compare, same_at, different_below, judge)

    return factory


def judge_adapter(judge: Any) -> Callable[[LiveGame, Settings], TwinItAdapter]:
    """The adapter factory for a ``PatternJudge``, with the judge's own calibrated thresholds."""
    return make_twinit_adapter(
        judge_compare(judge), getattr(judge, "same_at", None), getattr(judge, "different_below", None), judge
    )
