"""Twin It: cards appearing become plays and reveals, two hands on two cards become a claim, the
spread of the stacked cards starts the cooperative minute.

Faces are the referee's identity strings; two cards are identical when their strings are equal.
The identity judge compares crops (it needs no catalogue), so faces are labels the adapter gives:
a new card gets the label of the known face it matches surely, else a fresh one. At a slap the
judge compares the two covered cards' last clean views directly; that comparison is the ruling's
evidence (the photo-finish). When it is not sure either way the table is asked, and its answer
rewrites the faces before the claim is played, so the referee's ruling follows the table.

Zones: a card whose centre lies near an image edge belongs to the player sitting there (their
pile top or their captures); elsewhere it is a table card.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.observation import CardState, TableObservation, TrackedCard
from web.adapters.base import GameAdapter, photo_finish, row
from web.live_game import LiveGame
from web.settings import Settings

log = logging.getLogger(__name__)

Compare = Callable[[np.ndarray, np.ndarray], float]
"""Two crops -> the probability that they show the same pattern."""

SLAP_WINDOW_S = 0.8
"""Hands landing on cards within this window make one claim."""
EDGE_FRACTION = 0.2
"""A card centred within this fraction of an image edge lies in that seat's zone."""
SPREAD_MIN_CARDS = 6
"""The cooperative minute starts when at least this many cards lie apart on the table..."""
SPREAD_FRACTION = 0.6
"""...and at least this fraction of the expected cards..."""
SPREAD_STABLE_S = 0.3
"""...and their count has held this long; the minute starts from the first frame of the spread."""
COOP_MODES = ("cooperative", "cooperative-competitive")


@dataclass
class _Cover:
    time: float
    mono: float
    seat: str
    track: int


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
    ) -> None:
        super().__init__(live, settings)
        self.compare = compare
        self.sure = settings.uncertain_below if same_at is None else same_at
        self.different_below = 1.0 - settings.uncertain_below if different_below is None else different_below
        self.face_of: dict[int, str] = {}
        """Track -> the face label it was recognised as."""
        self.loc_of: dict[int, dict[str, Any]] = {}
        """Track -> where the referee has it: {"table": id} | {"pile": seat} | {"capture": [seat, i]}."""
        self.seq_of: dict[int, int] = {}
        """Track -> the applied action that introduced its face (amended on a correction)."""
        self.exemplar: dict[str, np.ndarray] = {}
        self.groups: dict[int, list[list[int]]] = {}
        """Seat -> its captures as lists of tracks, in the order won."""
        self.covers: list[_Cover] = []
        self.claimed: set[int] = set()
        self.next_label = 0
        self.spread_mono: float | None = None
        self.spread_hint: float | None = None
        """Set when a competitive game handed over at a spread: the minute's first frame."""
        self.latencies: list[dict[str, float]] = []
        self.coop = live.game.mode in COOP_MODES
        self.expected_cards = int(live.game.config.options.get("cards", 135))
        self.seconds = float(live.game.config.options.get("seconds", settings.coop_seconds))
        self._ended = False
        self._spread_since: tuple[float, int] | None = None
        self.on_spread: Callable[[int, float, TableObservation, Any], None] | None = None
        """Competitive play: called (count, first mono, obs, frame) when a stack is spread."""

    # -- faces ---------------------------------------------------------------------------------
    def _fresh(self) -> str:
        self.next_label += 1
        return f"twinit:m{self.next_label:03d}"

    def label(self, card: TrackedCard) -> str:
        """The face of a newly seen card: the known face it matches surely, else a new label."""
        if card.track_id in self.face_of:
            return self.face_of[card.track_id]
        crop = card.last_clean_view
        best, best_p = None, 0.0
        if crop is not None:
            for face, ref in self.exemplar.items():
                p = self.compare(crop, ref)
                if p > best_p:
                    best, best_p = face, p
        face = best if best is not None and best_p >= self.sure else self._fresh()
        self.face_of[card.track_id] = face
        if crop is not None and face not in self.exemplar:
            self.exemplar[face] = crop
        return face

    def zone(self, card: TrackedCard, obs: TableObservation) -> str | None:
        """The seat edge whose zone holds the card's centre, or ``None`` for the table."""
        cx, cy = np.asarray(card.quad, dtype=float).mean(axis=0)
        fx, fy = cx / max(1, obs.width), cy / max(1, obs.height)
        edges = {"left": fx, "right": 1 - fx, "top": fy, "bottom": 1 - fy}
        edge = min(edges, key=edges.get)
        return edge if edges[edge] < EDGE_FRACTION else None

    # -- the frame -----------------------------------------------------------------------------
    def observe(self, obs: TableObservation, frame: Any) -> None:
        mono = float(getattr(frame, "mono", obs.timestamp))
        phase = self.live.snapshot_state().get("phase")
        if self.coop and phase == "setup":
            self._maybe_spread(obs, mono)
            return
        if not self.coop and self.on_spread is not None:
            unknown = [c for c in self._visible(obs) if c.track_id not in self.face_of]
            first = self._spread_ready(len(unknown), SPREAD_MIN_CARDS, mono)
            if first is not None:
                self.on_spread(len(unknown), first, obs, frame)
                self.on_spread = None
                return
        for event in obs.events:
            if event.kind == "covered":
                self.covers.append(_Cover(event.time, mono, str(event.seat), event.track_id))
            elif event.kind == "uncovered":
                self.claimed.discard(event.track_id)
        self._new_cards(obs)
        self._maybe_claim(obs, mono)

    def _visible(self, obs: TableObservation) -> list[TrackedCard]:
        return [c for c in obs.cards if c.state == CardState.VISIBLE and c.last_clean_view is not None]

    def _new_cards(self, obs: TableObservation) -> None:
        state = self.live.snapshot_state()
        for card in self._visible(obs):
            tid = card.track_id
            zone = self.zone(card, obs)
            where = self.loc_of.get(tid)
            if self.coop:
                if where and "table" in where and self._face_at(state, where) is None:
                    face = self.label(card)
                    result = self.propose({"type": "reveal", "card": where["table"], "face": face})
                    if result:
                        self.seq_of[tid] = result[0]
                continue
            if state.get("phase") == "setup":
                continue
            if where is None:
                if zone is None and state.get("turn") is not None:
                    self._play(card, state)
                elif zone is not None:
                    self._reveal_pile(card, zone, state)
            elif "pile" in where and zone is None:
                # the pile's top card moved onto the table: that is the play
                self._play(card, state)
            elif "table" in where and self._face_at(state, where) is None:
                self.face_of.pop(tid, None)
                face = self.label(card)
                result = self.propose({"type": "reveal", "card": where["table"], "face": face})
                if result:
                    self.seq_of[tid] = result[0]
            state = self.live.snapshot_state()
        if state.get("phase") == "setup" and not self.coop:
            self._maybe_deal(obs)

    def _maybe_deal(self, obs: TableObservation) -> None:
        tops: dict[int, TrackedCard] = {}
        for card in self._visible(obs):
            zone = self.zone(card, obs)
            seat = self.player_at(zone) if zone else None
            if seat is not None and seat not in tops:
                tops[seat] = card
        n = self.live.game.num_players
        if len(tops) < n:
            return
        total = self.expected_cards
        sizes = [total // n + (1 if i < total % n else 0) for i in range(n)]
        faces = [self.label(tops[i]) for i in range(n)]
        result = self.propose({"type": "deal", "piles": sizes, "first": 0, "tops": faces})
        if result:
            for i in range(n):
                tid = tops[i].track_id
                self.loc_of[tid] = {"pile": i}
                self.seq_of[tid] = result[0]

    def _play(self, card: TrackedCard, state: Mapping[str, Any]) -> None:
        face = self.label(card)
        player = state.get("turn")
        result = self.propose({"type": "play", "player": player, "face": face})
        if result is None:
            return
        seq, ruling = result
        self.loc_of[card.track_id] = {"table": int(ruling.details.get("card", state.get("next_id", 0)))}
        self.seq_of[card.track_id] = seq

    def _reveal_pile(self, card: TrackedCard, zone: str, state: Mapping[str, Any]) -> None:
        seat = self.player_at(zone)
        if seat is None or any(card.track_id in g for g in self.groups.get(seat, [])):
            return
        piles = state.get("piles") or []
        if seat >= len(piles) or piles[seat][0] == 0 or piles[seat][1] is not None:
            return
        face = self.label(card)
        result = self.propose({"type": "reveal", "player": seat, "face": face})
        if result:
            self.loc_of[card.track_id] = {"pile": seat}
            self.seq_of[card.track_id] = result[0]

    @staticmethod
    def _face_at(state: Mapping[str, Any], where: Mapping[str, Any]) -> str | None:
        if "table" in where:
            return next((f for i, f in state.get("table", []) if i == where["table"]), None)
        if "pile" in where:
            piles = state.get("piles", [])
            return piles[where["pile"]][1] if where["pile"] < len(piles) else None
        if "capture" in where:
            seat, index = where["capture"]
            held = state.get("captures", [])[seat]
            return held[index][0] if index < len(held) else None
        return None

    # -- slaps ---------------------------------------------------------------------------------
    def _maybe_claim(self, obs: TableObservation, mono: float) -> None:
        if not self.covers:
            return
        latest = self.covers[-1].time
        self.covers = [
            c for c in self.covers if latest - c.time <= SLAP_WINDOW_S and c.track not in self.claimed
        ]
        by_track: dict[int, _Cover] = {}
        for cover in self.covers:
            if cover.track in self._claimable():
                by_track.setdefault(cover.track, cover)
        need = 2
        if len(by_track) < need:
            return
        if self.coop and len(by_track) == 2 and obs.timestamp - latest < SLAP_WINDOW_S / 2:
            return  # a third hand may still come for a triple
        chosen = sorted(by_track.values(), key=lambda c: c.time)[: 3 if self.coop else 2]
        self.claimed.update(c.track for c in chosen)
        self.covers = [c for c in self.covers if c.track not in self.claimed]
        self._claim(chosen, obs, max(c.mono for c in chosen))

    def _claimable(self) -> set[int]:
        out = {t for t, w in self.loc_of.items() if "table" in w or "pile" in w}
        for seat_groups in self.groups.values():
            for group in seat_groups:
                out.add(group[0])
        return out

    def _loc(self, track: int) -> dict[str, Any] | None:
        for seat, seat_groups in self.groups.items():
            for i, group in enumerate(seat_groups):
                if track in group:
                    return {"capture": [seat, i]}
        return self.loc_of.get(track)

    def _claim(self, covers: list[_Cover], obs: TableObservation, landed_mono: float) -> None:
        players = [self.player_at(c.seat) for c in covers]
        if any(p is None for p in players):
            self.hold(
                {"type": "claim"},
                "a hand came from an edge where no player sits",
                "une main vient d'un bord où personne n'est assis",
            )
            return
        locs = [self._loc(c.track) for c in covers]
        crops = []
        for c in covers:
            card = obs.card(c.track)
            crops.append(card.last_clean_view if card is not None else None)
        p_same = self._p_same(crops)
        state = self.live.snapshot_state()
        faces = [self._face_at(state, w) if w else None for w in locs]
        action: dict[str, Any] = {"type": "claim", "players": players, "cards": locs}
        if self.coop and self.live.timer is not None:
            action["at"] = round(max(0.0, landed_mono - self.live.timer.started_mono), 3)
        seat_name = self.live.game.players[players[0]]
        caption = f"{seat_name}: p(same) {p_same:.2f}"
        blob = self.live.store.put_blob(self.live.game_id, photo_finish(crops, caption))
        evidence = {
            "image": f"/api/evidence/{blob}.jpg",
            "p_same": round(p_same, 4),
            "seat": players[0],
            "tracks": [c.track for c in covers],
            "landed_mono": landed_mono,
        }
        labels_same = all(f is not None and f == faces[0] for f in faces)
        same_fix = self._amendments(covers, faces, same=True)
        diff_fix = self._amendments(covers, faces, same=False)
        if p_same >= self.sure or p_same < self.different_below:
            same = p_same >= self.sure
            if same != labels_same:
                for fix in same_fix if same else diff_fix:
                    self.live.amend(fix["target"], fix["action"], "vision")
            result = self.live.act(action, "vision", {**evidence, "judged": "same" if same else "different"})
        else:
            self.live.ask(
                {
                    "en": f"Do these cards show the same pattern? ({seat_name} claimed them)",
                    "fr": f"Ces cartes montrent-elles le même motif ? ({seat_name} les a réclamées)",
                },
                action,
                action,
                "vision",
                evidence,
                amend_yes=[] if labels_same else same_fix,
                amend_no=diff_fix if labels_same else [],
            )
            result = None
        self.latencies.append({"landed_mono": landed_mono})
        if result is not None:
            self._after_claim(covers, players, result[1])

    def _p_same(self, crops: list[np.ndarray | None]) -> float:
        if any(c is None for c in crops):
            return 0.5
        ps = [self.compare(crops[0], c) for c in crops[1:]]
        return float(min(ps))

    def _amendments(self, covers: list[_Cover], faces: list[str | None], same: bool) -> list[dict[str, Any]]:
        """Rewrites of the later cards' faces so that they equal (or differ from) the first's."""
        fixes = []
        first = faces[0]
        for cover, face in zip(covers[1:], faces[1:], strict=True):
            target = self.seq_of.get(cover.track)
            if target is None:
                continue
            if same and first is not None and face != first:
                new_face = first
            elif not same and face == first:
                new_face = self._fresh()
            else:
                continue
            action = self._rewrite(target, cover.track, new_face)
            if action is not None:
                fixes.append({"target": target, "action": action})
                self.face_of[cover.track] = new_face
        return fixes

    def _rewrite(self, seq: int, track: int, face: str) -> dict[str, Any] | None:
        entry = next((e for e in self.live.entries if e.get("seq") == seq), None)
        if entry is None:
            return None
        action = dict(entry["action"])
        if action["type"] in ("play", "reveal"):
            action["face"] = face
            return action
        if action["type"] == "deal" and "pile" in self.loc_of.get(track, {}):
            tops = list(action.get("tops") or [])
            tops[self.loc_of[track]["pile"]] = face
            action["tops"] = tops
            return action
        if action["type"] == "start":
            where = self.loc_of.get(track, {})
            faces = list(action.get("faces") or [])
            if "table" in where and where["table"] < len(faces):
                faces[where["table"]] = face
                action["faces"] = faces
                return action
        return None

    def _after_claim(self, covers: list[_Cover], players: list[int], ruling: Any) -> None:
        """Moves the claimed tracks into their new capture (or forgets a lost capture)."""
        details = ruling.details
        state = self.live.snapshot_state()
        tracks = [c.track for c in covers]
        if ruling.valid:
            claimer = int(details.get("claimer", players[0]))
            members: list[int] = []
            for seat_groups in self.groups.values():
                for group in list(seat_groups):
                    if any(t in group for t in tracks):
                        seat_groups.remove(group)
                        members.extend(group)
            members.extend(t for t in tracks if t not in members)
            for t in tracks:
                self.loc_of.pop(t, None)
            self.groups.setdefault(claimer, []).append(members)
        for seat, held in enumerate(state.get("captures", [])):
            seat_groups = self.groups.get(seat, [])
            while len(seat_groups) > len(held):
                lost = seat_groups.pop()
                for t in lost:
                    self.loc_of.pop(t, None)
        for loc in details.get("turned_over", []):
            for t, w in list(self.loc_of.items()):
                if w == loc:
                    self.face_of.pop(t, None)

    # -- the cooperative minute ------------------------------------------------------------------
    def _spread_ready(self, count: int, need: int, mono: float) -> float | None:
        """The first mono time of a spread of ``need`` cards or more once its count holds still."""
        if count < need:
            self._spread_since = None
            return None
        if self._spread_since is None:
            self._spread_since = (mono, count)
            self._spread_count_since = mono
            return None
        first, last_count = self._spread_since
        if count != last_count:
            self._spread_since = (first, count)
            self._spread_count_since = mono
            return None
        return first if mono - self._spread_count_since >= SPREAD_STABLE_S else None

    def _maybe_spread(self, obs: TableObservation, mono: float) -> None:
        visible = self._visible(obs)
        need = max(SPREAD_MIN_CARDS, int(SPREAD_FRACTION * self.expected_cards))
        first = self.spread_hint
        if first is None:
            first = self._spread_ready(len(visible), need, mono)
        if first is None:
            return
        visible.sort(key=lambda c: tuple(np.asarray(c.quad, dtype=float).mean(axis=0)[::-1]))
        faces: list[str | None] = [self.label(c) for c in visible]
        faces += [None] * max(0, self.expected_cards - len(faces))
        result = self.propose({"type": "start", "faces": faces[: self.expected_cards]})
        if result is None:
            return
        for i, card in enumerate(visible[: self.expected_cards]):
            self.loc_of[card.track_id] = {"table": i}
            self.seq_of[card.track_id] = result[0]
        self.spread_mono = first
        self.spread_hint = None
        self.live.start_timer("coop", self.seconds, "vision", started_mono=first)

    def tick(self, now: float) -> None:
        timer = self.live.timer
        if not self.coop or self._ended or timer is None or not timer.ended:
            return
        self._ended = True
        self.propose({"type": "end"})

    # -- the page ------------------------------------------------------------------------------
    def identity_of(self, track_id: int, identity: str | None) -> str | None:
        return self.face_of.get(track_id, identity)

    def check_correction(self, fact: Mapping[str, Any]) -> str | None:
        if fact.get("kind") != "card":
            return f"a Twin It correction is about a card, not {fact.get('kind')!r}"
        if int(fact["track_id"]) not in self.face_of:
            return f"card {fact['track_id']} has no recognised face to correct"
        return None

    def correct(self, fact: Mapping[str, Any]) -> None:
        track = int(fact["track_id"])
        face = str(fact["identity"])
        if not face.startswith("twinit:"):
            face = f"twinit:{face}"
        self.face_of[track] = face
        target = self.seq_of.get(track)
        if target is not None:
            action = self._rewrite(target, track, face)
            if action is not None:
                self.live.amend(target, action, "table")

    def panel_rows(self) -> list[dict[str, Any]]:
        state = self.live.snapshot_state()
        scores = self.live.game.scores(self.live.state)
        names = self.live.game.players
        rows = []
        if isinstance(scores, Mapping):
            for key, value in scores.items():
                if isinstance(value, list | dict):
                    continue
                rows.append(row(str(key), str(key), value))
        for seat, held in enumerate(state.get("captures", [])):
            if seat < len(names):
                rows.append(row(f"{names[seat]}: captures", f"{names[seat]} : prises", len(held)))
        rows.append(row("Cards on the table", "Cartes sur la table", len(state.get("table", []))))
        if state.get("turn") is not None:
            rows.append(row("Next to play", "À jouer", names[state["turn"]]))
        if state.get("taboo"):
            rows.append(row("Taboo motifs", "Motifs tabous", ", ".join(state["taboo"])))
        if self.live.game.mode == "teams":
            teams = self.live.game.config.options.get("teams")
            rows.append(row("Team mode", "Mode par équipes", str(teams or "alternate seats")))
        return rows


def make_twinit_adapter(
    compare: Compare, same_at: float | None = None, different_below: float | None = None
) -> Callable[[LiveGame, Settings], TwinItAdapter]:
    def factory(live: LiveGame, settings: Settings) -> TwinItAdapter:
        return TwinItAdapter(live, settings, compare, same_at, different_below)

    return factory


def judge_adapter(judge: Any) -> Callable[[LiveGame, Settings], TwinItAdapter]:
    """The adapter factory for a ``PatternJudge``, with the judge's own calibrated thresholds."""
    return make_twinit_adapter(
        judge_compare(judge), getattr(judge, "same_at", None), getattr(judge, "different_below", None)
    )
