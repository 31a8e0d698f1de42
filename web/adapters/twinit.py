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
The referee's record is checked against the camera's table (resync): a new card that surely came
from another pile than the turn player's logs the table's turn first (a missed capture's restart),
and a card the referee turned over that stays unchanged is read again, so a drift heals instead of
lasting the game; so does a pile the referee waits on that the table shows empty.
Slaps are watched in :mod:`web.adapters.twinit_slaps` and judged in
:mod:`web.adapters.twinit_claims`, the cooperative minute in :mod:`web.adapters.twinit_minute`, the
resync in :mod:`web.adapters.twinit_resync`, the pattern comparisons in :mod:`web.adapters.twinit_match`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from typing import Any

import cv2
import numpy as np

from vision.observation import TableObservation
from web.adapters.base import GameAdapter, photo_finish, row
from web.adapters.twinit_claims import RECENT_VIEWS
from web.adapters.twinit_match import Compare, Matcher, judge_compare
from web.adapters.twinit_minute import (
    COOP_MODES,
    STACK_HOLD_S,
    STACK_MAX_CARDS,
    Minute,
    SpreadMark,
    SpreadView,
)
from web.adapters.twinit_resync import Resync, WonTop
from web.adapters.twinit_slaps import Slaps
from web.adapters.twinit_table import (
    Spot,
    Stabiliser,
    edge_zone,
    fresh_views,
    hands_within,
    nearest,
    on_the_mask,
    under_a_hand,
    visible_spots,
)
from web.adapters.twinit_views import REACH_CARDS, PlaceViews
from web.live_game import LiveGame
from web.settings import Settings

log = logging.getLogger(__name__)

EDGE_FRACTION = 0.22
"""A card centred within this fraction of an image edge lies in that player's area."""


class TwinItAdapter(Resync, Slaps, Minute, GameAdapter):
    """Twin It's adapter: faces, the table memory kept in the log, competitive play; slaps
    (:class:`web.adapters.twinit_slaps.Slaps`), the minute (:class:`web.adapters.twinit_minute.Minute`)
    and the resync (:class:`web.adapters.twinit_resync.Resync`) are mixed in."""

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
        self.top_view_of: dict[int, np.ndarray] = {}
        """Table card id -> the view its face was recorded by while it was its pile's top (a played
        card the referee knew before it moved): a penalty on it needs its view now to match."""
        self.face_shown: dict[int, str] = {}
        """Track -> face label, for the overlay and corrections."""
        self._pending: tuple[list[np.ndarray], float] | None = None
        """The places hidden under hands, and when they were first hidden together."""
        self._pending_frames = 0
        self._pending_two = False
        self._tips_before: list[np.ndarray] = []
        """The arm tips of the frame vision saw before this one."""
        self._tips_mono = 0.0
        """When that frame was captured."""
        self._still_from: float | None = None
        """Since when (a frame's capture) the arm tips have lain still, ``None`` while they move."""
        self._still_frames = 0
        """How many frames since then showed them still."""
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
        self._pairs_p: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, float]] = {}
        """(id, id) of two views -> (the views, their p(same)): a slap's pair judged once."""
        self._sig_pairs: dict[tuple[int, int], tuple[Any, Any, float]] = {}
        """(id, id) of two signatures -> (the signatures, their p(same)): the pairs a claim asks of
        the judge, asked on the frame the hands land and reused on the frame that rules
        (:meth:`Claims._p_same_sigs`)."""
        self._sigs: dict[int, tuple[np.ndarray, Any]] = {}
        """id(view) -> (view, signature): the last clean views' signatures, made while the hands
        come down so that the slap's comparison needs only the pair head."""
        self._spread_first: float | None = None
        self._spread_counts: list[tuple[float, int]] = []
        """(mono, cards seen) of each frame since the spread began."""
        self._spread_marks: list[SpreadMark] = []
        """The last frames that showed the spread (their cards, when, the frames skipped before)."""
        self._spread_best: SpreadView | None = None
        """The spread's fullest view so far (before the hand-over)."""
        self._spread_last: SpreadView | None = None
        self._spread_rest: tuple[float, SpreadView] | None = None
        """When the spread was first seen at rest, and its fuller view then."""
        self._stack_at: float | None = None
        self._spread_whole_at: float | None = None
        self._turned_since: dict[int, float] = {}
        self._empty_since: dict[int, float] = {}
        self._refill_since: dict[int, float] = {}
        """Seat whose pile the referee counts empty -> since when a card lies there."""
        """Seat whose pile's next card the referee waits for -> since when no card lies there."""
        """Table card the referee turned over -> when the camera was first seen to still show it."""
        """When nearly every card was last seen spread apart (see ``Minute._whole_spread``)."""
        self._regiven: set[int] = set()
        """Penalised claims whose forfeit :meth:`_regive` has looked at."""
        self._gone_since: dict[int, float] = {}
        """Seat whose pile's top the referee knows -> since when no card lies there (or when its
        place was last looked at, :meth:`Resync._resync_gone`)."""
        self._stack_from: float | None = None
        self._stack_shown = False
        """Whether the run of stack-like views has shown a card in the middle yet."""
        self._frame: Any = None
        self._mark: tuple[float, int | None] | None = None
        self._prev_mark: tuple[float, int | None] | None = None
        """(mono, capture index) of this frame and of the one vision saw before it."""
        self._obs: TableObservation | None = None
        self._observed = 0.0
        self.recent: list[Spot] = []
        """The newest unhidden view at each place a card was seen."""
        self.clean_views: list[Spot] = []
        """The newest view at each place with no hand anywhere on the card, dated."""
        self.place_views = PlaceViews()
        """Each place's last few clean views, marked sound or not (a penalty needs them)."""
        self.spread_hint: float | None = None
        """Set when a competitive game handed over at a spread: the minute's first frame."""
        self.spread_snapshot: list[Spot] | None = None
        """Set with ``spread_hint``: the spread as the competitive game saw it at rest."""
        self.spread_mono: float | None = None
        self.on_spread: Callable[[int, float, TableObservation, Any], None] | None = None
        """Competitive play: called (count, first mono, obs, frame) when a stack is spread."""
        self._labelling: tuple[Future[list[str]], list[Spot], float, float] | None = None
        """The spread's cards being labelled off the vision thread: the job, the cards in table
        order, when the spread was done and the frame that began it (``Minute._watch_spread``)."""
        self._sets_done: list[np.ndarray] = []
        self._set_seen: dict[tuple[int, ...], float] = {}
        self._ended = False
        self.latencies: list[dict[str, float]] = []
        photo_finish([None, None], "")  # loads the caption font now, not at the first slap
        if live.entries:
            self._restore()
        self.unplayed: list[np.ndarray] = []
        """Centres of new table cards not played yet, oldest first."""
        self._leaving: list[np.ndarray] = []
        """Where won table cards lay, until a stable view shows them gone."""
        self._won_top: dict[int, WonTop] = {}
        """Seat -> its pile's top card a claim won, until it has gone (:meth:`Resync._watch_won_tops`)."""
        self._followed = len(live.entries)
        """Entries of the log :meth:`Resync._follow_record` has looked at."""
        self._claims_done: set[int] = set()
        """Applied claims whose cards the adapter has taken off its own table."""
        self.won_views: dict[str, list[np.ndarray]] = {}
        """Captured face -> the views its cards were recorded by when won, newest first: a steal is
        judged against them when the capture's view under the hand is a poor one
        (:meth:`Claims._capture_as_won`)."""

    # -- faces ---------------------------------------------------------------------------------
    def _fresh(self) -> str:
        self.next_label += 1
        return f"twinit:m{self.next_label:03d}"

    def label(self, view: np.ndarray) -> str:
        """The known face this view surely shows, else a new label (:meth:`labels_for` of one view,
        on the vision thread: its signature and its pairs with the labels through the claims'
        caches, which a claim's landing frame may have filled, :meth:`Claims.judge_ahead`)."""
        sig = self._signature_of(view)
        known = list(self.labels)
        scores = self._p_same_sigs([(sig, self.labels[f]) for f in known])
        face = self._surest(zip(known, scores, strict=True))
        if face is None:
            face = self._fresh()
            self.labels[face] = sig
        return face

    def _surest(self, candidates: Iterable[tuple[str, float]]) -> str | None:
        """The face of the highest p(same) among ``(face, p)`` candidates if it is sure, else None."""
        best, best_p = None, 0.0
        for face, q in candidates:
            if q > best_p:
                best, best_p = face, q
        return best if best is not None and best_p >= self.sure else None

    def labels_for(self, views: list[np.ndarray]) -> list[str]:
        """:meth:`label` of each view in turn (a view may match a label an earlier one just made),
        with the judge called in batches: signatures ``twinit_match.SIGNATURE_BATCH`` crops a call, every
        comparison in one batch (the minute's start labels every card in one frame; one call per
        card and label kept the vision thread busy for most of a second)."""
        if not views:
            return []
        sigs = self.matcher.signatures(views)
        known = list(self.labels.items())
        pairs = [(sig, ref) for sig in sigs for _, ref in known]
        pairs += [(sigs[i], sigs[j]) for i in range(len(sigs)) for j in range(i)]
        p = iter(self.matcher.p_same_many(pairs))
        vs_known = [[next(p) for _ in known] for _ in sigs]
        vs_earlier = [[next(p) for _ in range(i)] for i in range(len(sigs))]
        out: list[str] = []
        made: list[tuple[int, str]] = []
        """(view index, face) of the labels made here, in order."""
        for i, sig in enumerate(sigs):
            candidates = [(face, vs_known[i][k]) for k, (face, _) in enumerate(known)]
            candidates += [(face, vs_earlier[i][j]) for j, face in made]
            best = self._surest(candidates)
            if best is not None:
                out.append(best)
                continue
            face = self._fresh()
            self.labels[face] = sig
            made.append((i, face))
            out.append(face)
        return out

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
        index = getattr(frame, "index", None)
        self._prev_mark, self._mark = self._mark, (mono, index if isinstance(index, int) else None)
        self._observed = time.monotonic()
        self._frame = frame
        self._obs = obs
        self.zone = edge_zone(obs.width, obs.height, EDGE_FRACTION)
        self._note_views(obs, getattr(frame, "image", None), mono)
        phase = self.live.snapshot_state().get("phase")
        seen = visible_spots(obs)
        if self._stack_like(seen, obs):
            if self._stack_from is None:
                self._stack_from, self._stack_shown = mono, False
            # a view with no card at all (hands sweeping, a glitch) never makes a stack by itself
            self._stack_shown = self._stack_shown or any(self.zone(s.center) is None for s in seen)
            held = self._stack_shown and mono - self._stack_from >= STACK_HOLD_S - 1e-6
            if held and self._piles_low():
                self._stack_at = mono
        else:
            self._stack_from = None
        if self.coop and phase == "setup":
            self._watch_spread(obs, mono)
            return
        if not self.coop and self.on_spread is not None and self._spread_seen(obs, mono):
            return
        if not self.coop and phase == "play":
            self._follow_record()
            self._watch_won_tops(obs)
        if self.stable.snapshot and not self.coop:
            self._watch_slap(obs, mono)
        snapshot = self.stable.update(obs, mono, allow_hands=True, image=getattr(self._frame, "image", None))
        if self.coop:
            if phase == "minute" and self.stable.snapshot:
                self._coop_sets(self.stable.snapshot, mono)
        elif snapshot is not None:
            self._competitive(snapshot)
        if not self.coop and phase == "play" and not obs.hands:
            self._resync_turned(mono)
            self._resync_piles(obs, mono)
        else:  # a hand reaching for a card to turn over, or over a pile: its wait starts again
            reached = [
                c for c in self._turned_since if c in self.table_at and under_a_hand(obs, self.table_at[c])
            ]
            for card in reached:
                self._turned_since[card] = mono
            self._empty_since = {
                s: t
                for s, t in self._empty_since.items()
                if s in self.pile_at and under_a_hand(obs, self.pile_at[s]) is None
            }
            self._refill_since = {
                s: t
                for s, t in self._refill_since.items()
                if s in self.pile_at and under_a_hand(obs, self.pile_at[s]) is None
            }
            self._gone_since = {
                s: t
                for s, t in self._gone_since.items()
                if s in self.pile_at and under_a_hand(obs, self.pile_at[s]) is None
            }

    def _stack_like(self, seen: list[Spot], obs: TableObservation) -> bool:
        """At most :data:`STACK_MAX_CARDS` cards in sight in the middle, none in a player's area,
        the referee counting the piles low (:meth:`_piles_low`). Cards the finder still reports in
        the players' areas where this frame shows none (tracks left behind where won cards lay,
        gathered with the rest) are no cards there (seed 3's replay: three such tracks hid the
        whole stack, and the minute started 6.3 s late, from the whole spread once the referee
        counted the last piles empty)."""
        middle = sum(1 for s in seen if self.zone(s.center) is None)
        if middle > STACK_MAX_CARDS:
            return False
        in_areas = [s for s in seen if self.zone(s.center) is not None]
        if not in_areas:
            return True
        if not self._piles_low():
            return False
        return not any(self._cameras_show(fresh_views(in_areas, getattr(self._frame, "image", None), obs)))

    def _note_views(self, obs: TableObservation, image: np.ndarray | None, mono: float) -> None:
        """The newest unhidden view of every place a card lies (a slap is judged from these), and
        the newest view with no hand on the card at all (a penalty needs those)."""
        if image is None or not obs.cards:
            return
        tol = 0.25 * self.stable.card_px
        # the judge's resolution band goes by a card's size in the camera image, not its crop's
        self.matcher.card_px = self.stable.card_px
        seen = visible_spots(obs)
        for spot in seen:
            self.matcher.note_source(spot.view, spot.quad)
        for spot in fresh_views(seen, image, obs, mono):
            self.matcher.note_source(spot.view, spot.quad)
            # (a view with a finger over a corner is kept: an older view may show another card,
            # a pile's top taken while the hand was still there)
            if under_a_hand(obs, spot.center) is not None and on_the_mask(obs.hand_mask, spot.center):
                continue  # (with a mask: a merged arms' box takes in cards in plain sight)
            _keep_at(self.recent, spot, tol)
            if spot.clean and spot.seen is not None:
                _keep_at(self.clean_views, spot, tol)
                if not self.coop:  # (only a competitive game's penalties and resync read them)
                    reach = REACH_CARDS * self.stable.card_px
                    spot.sound = not hands_within(obs, spot.quad, spot.track, reach)
                    self.place_views.add(spot, tol)

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
            if any(np.linalg.norm(spot.center - p) <= tol for p in self._leaving):
                continue  # a stolen capture's card, not taken yet
            known = self.captures_at.setdefault(seat, [])
            if not any(np.linalg.norm(spot.center - p) <= tol for p in known):
                known.append(spot.center)
        # new cards in the middle, oldest first: each is the play of the player whose turn it is
        self._reveal_piles(snapshot)
        # a won card still lying where it was until its winner takes it is no new play (nor while
        # a hand lies over its place: the winner's hands stay on it a moment after the ruling, and
        # the card seen again when they lift was played by nobody: the live bench's seed 4, 69.3 s)
        obs = self._obs
        self._leaving = [
            p
            for p in self._leaving
            if nearest(snapshot, p, tol) is not None or (obs is not None and under_a_hand(obs, p) is not None)
        ]
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
            if i is not None and not self._really_there(fresh[i], snapshot):
                self.unplayed.remove(center)  # no card where the finder keeps one: no play
                continue
            turn = self.live.snapshot_state().get("turn")
            if i is not None and turn is not None:
                turn = self._turn_of(fresh[i], snapshot, int(turn))
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
            if i is None or self._still_won(seat, snapshot[i].view):
                continue
            self._won_top.pop(seat, None)
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
        faces = self.labels_for([tops[i].view for i in range(n)])
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
        piles = self.live.snapshot_state().get("piles", [])
        known_top = player < len(piles) and piles[player][0] > 0 and piles[player][1] is not None
        top_view = self.view_at.get(("pile", player)) if known_top else None
        face = self.label(spot.view)
        result = self._propose_seen({"type": "play", "player": player, "face": face}, [("play", spot)])
        if result is None:
            return False
        seq, ruling = result
        card = int(ruling.details.get("card", -1))
        self.table_at[card] = spot.center
        self.seq_of[("table", card)] = seq
        self.view_at[("table", card)] = spot.view
        if top_view is not None:
            self.top_view_of[card] = top_view
        self.face_shown[spot.track] = face
        return True

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
