"""Twin It's resync: the referee's record checked against the camera's table, so a drift heals
instead of lasting the game. Each disagreement that lasts is logged as a correction action: the
table's turn (a new card surely came from another pile than the turn player's), a card the
referee turned over that the table never did, a pile the referee waits on that the table shows
empty, a card back on a pile counted empty. A new card the frame does not show is no play.

:class:`Resync` is mixed into :class:`web.adapters.twinit.TwinItAdapter` and works on its state.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.observation import CardState, TableObservation
from web.adapters.twinit_table import Spot, center_of, nearest, rectify, under_a_hand, visible_spots

log = logging.getLogger(__name__)

RESYNC_S = 3.0
"""The referee's table and the camera's disagreeing this long (no hand over the table) is a
drift to heal, not a card about to be turned."""

OVER_KNOWN = 0.4
"""A new card with this much of its area over table cards still in sight is no card."""

WON_GONE_S = 0.5
"""A won pile top's track gone from the finder this long, another track in sight at its place:
the won card has gone (a shorter loss is the finder's flicker as hands lift)."""

WON_REACH = 1.5
"""A won pile top seen this many cards (or fewer) off its place is on its way off the pile."""


@dataclass
class WonTop:
    """A pile top a claim won, until it has gone from its pile (:meth:`Resync._watch_won_tops`)."""

    view: np.ndarray | None
    """The view the referee recorded the card by."""
    state: str = "slap"
    """``"slap"``, ``"lying"``, ``"carried"`` or ``"taken"``."""
    near: set[int] = field(default_factory=set)
    """The tracks seen near the pile's place when the claimers' hands lifted (and those looked at
    since)."""
    track: int | None = None
    """The won card's track: the card under the claimers' hands (else the first seen at the place
    once they lifted)."""
    gone_since: float | None = None
    """Since when that track has been gone from the finder (with no hand over the place)."""
    taken_at: float | None = None
    """The frame (capture time) that found it gone: a view of its place seen before then may
    still show it (:meth:`Resync._still_won`)."""


def _track_at(obs: TableObservation, at: np.ndarray, within: float) -> int | None:
    """The track of the card the finder keeps nearest ``at`` (within ``within`` pixels), seen or
    covered."""
    best, best_d = None, within
    for card in obs.cards:
        if card.state == CardState.GONE:
            continue
        d = float(np.linalg.norm(center_of(card.quad) - at))
        if d <= best_d:
            best, best_d = card.track_id, d
    return best


class Resync:
    """Corrections logged when the referee's table and the camera's disagree."""

    def _follow_record(self) -> None:
        """Claims applied since the last frame that the adapter did not rule itself (the table's
        answer to a question) take their cards off the adapter's table too (:meth:`_after_claim`):
        a won table card's place otherwise stayed the adapter's, the next card played there no play
        and a claim on it refused."""
        entries = self.live.entries
        if self._followed >= len(entries):
            return
        for entry in entries[self._followed :]:
            action = entry.get("action") if entry.get("kind") == "action" else None
            if (
                action is not None
                and action.get("type") == "claim"
                and entry["ruling"].get("applies")
                and not entry.get("undone")
            ):
                locs = [loc for loc in action.get("cards") or [] if isinstance(loc, Mapping)]
                self._after_claim(locs, entry["seq"], entry["ruling"].get("verdict") == "valid")
        self._followed = len(entries)

    def _watch_won_tops(self, obs: TableObservation) -> None:
        """Each pile top a claim won, until it is gone: under the claimers' hands (``"slap"``),
        lying on its pile once they lift (``"lying"``: the winner takes the cards a moment later),
        under a hand again (``"carried"``: the winner's hand comes down on it, and it lies there
        until the hand moves off with it), then gone (``"taken"``): that hand lifted, or the card
        was seen leaving its place (:meth:`_won_card_left`: slid or carried off with no hand seen
        over the place)."""
        seen = visible_spots(obs)
        reach = WON_REACH * self.stable.card_px
        mono = self._mark[0] if self._mark is not None else obs.timestamp
        for seat, won in list(self._won_top.items()):
            at = self.pile_at.get(seat)
            if at is None:
                del self._won_top[seat]
                continue
            covered = under_a_hand(obs, at) is not None
            if won.state == "slap" and won.track is None:  # (the card under the claimers' hands)
                won.track = _track_at(obs, at, 0.5 * self.stable.card_px)
            if won.state == "slap" and not covered:
                won.state = "lying"
                won.near = {s.track for s in seen if np.linalg.norm(s.center - at) <= reach}
            if won.state == "lying" and won.track is None:  # (else the first track seen there)
                i = nearest(seen, at, 0.5 * self.stable.card_px)
                won.track = seen[i].track if i is not None else None
            if won.state in ("lying", "carried") and self._won_card_left(won, obs, seen, at, covered):
                won.state, won.taken_at = "taken", mono
            elif won.state == "lying" and covered:
                won.state = "carried"
            elif won.state == "carried" and not covered:
                won.state, won.taken_at = "taken", mono

    def _won_card_left(
        self, won: WonTop, obs: TableObservation, seen: list[Spot], at: np.ndarray, covered: bool
    ) -> bool:
        """Whether the won card was seen leaving its pile's place: its track (the card under the
        claimers' hands) is now more than half a card off it (the live bench's seed 3, 84.0 s:
        carried off by a hand vision saw beside the pile, not over it), or gone from the finder
        for :data:`WON_GONE_S`, with no hand over the place and another track in sight there
        (seed 1, 5.6 s on the scenario's new slap: taken by the claimers' hands as they lifted;
        the pile's next card, of the same pattern, showed there under another track, and the
        steal on it at 9.6 s was held back; seed 3, 27.8 s: the finder lost the won card for one
        frame as the hands lifted), or a card new
        near the place (a track not seen within :data:`WON_REACH` cards of it then) lies in sight
        off the place but within that reach and surely shows the won card's pattern, its view cut
        from this frame (seed 3, 4.5 s: slid off with no hand over it, while the pile's next card,
        of the same pattern, kept the place's track). Each new track is looked at once."""
        off = 0.5 * self.stable.card_px
        if won.track is not None:
            card = obs.card(won.track)
            mono = self._mark[0] if self._mark is not None else obs.timestamp
            if card is not None and card.state != CardState.GONE:
                won.gone_since = None
                if float(np.linalg.norm(center_of(card.quad) - at)) > off:
                    return True
            elif covered:
                won.gone_since = None  # (under a hand: the finder cannot tell)
            else:
                won.gone_since = mono if won.gone_since is None else won.gone_since
                i = nearest(seen, at, off)
                other = i is not None and seen[i].track != won.track
                if other and mono - won.gone_since >= WON_GONE_S - 1e-6:
                    return True
        if won.view is None:
            return False
        reach = WON_REACH * self.stable.card_px
        for spot in seen:
            d = float(np.linalg.norm(spot.center - at))
            if spot.track in won.near or not off < d <= reach:
                continue
            won.near.add(spot.track)
            image = getattr(self._frame, "image", None)
            cut = isinstance(image, np.ndarray) and image.ndim == 3
            view = rectify(image, spot.quad) if cut else spot.view
            if self.matcher.p_same(self._signature_of(view), self._signature_of(won.view)) >= self.sure:
                return True
        return False

    def _still_won(self, seat: int, view: np.ndarray, seen: float | None = None) -> bool:
        """Whether ``view``, seen on ``seat``'s pile, surely shows the top card a claim won there,
        not carried off yet: it is not the pile's next card (read from it, the live bench's seed 4
        logged the won faces as the piles' next tops after each claim on piles: 1.5 s, 67.2 s), nor
        a card back on a pile counted empty. Nor while the winner's hand lies on it to take it
        (``"carried"``): the card seen there is still the won one (the live bench's seed 3, 28.6 s:
        both won tops read as their piles' next cards under the winner's hand, and that hand's
        landing ruled a second, spurious claim on them, two cards out of both piles' counts).
        Nor a view ``seen`` (its capture time) before the card was found gone: a slap's evidence
        is its cards' views from before the hands landed, and a won card that leaves while they
        lie there was still in those views."""
        won = self._won_top.get(seat)
        if won is None or won.view is None:
            return False
        if won.state == "taken" and (seen is None or won.taken_at is None or seen > won.taken_at + 1e-6):
            return False
        return self.matcher.p_same(self._signature_of(view), self._signature_of(won.view)) >= self.sure

    def _resync_turned(self, mono: float) -> None:
        """The referee's table against the camera's: a card the referee had turned over (three
        identical faces in sight) whose place has shown the same card, with no hand over the
        table, for :data:`RESYNC_S` was never turned: the table saw no third identical face (the
        faces' labels had drifted: two different cards given one). Its face is read as it lies,
        as a face of its own, and play goes on (a referee waiting for it refused every play for
        the rest of the game: the full bench's seed 1)."""
        state = self.live.snapshot_state()
        waiting = {card for card, face in state.get("table", []) if face is None and card in self.table_at}
        self._turned_since = {c: t for c, t in self._turned_since.items() if c in waiting}
        tol = 0.5 * self.stable.card_px
        for card in sorted(waiting):
            since = self._turned_since.setdefault(card, mono)
            i = nearest(self.stable.snapshot, self.table_at[card], tol)
            old = self.view_at.get(("table", card))
            if i is None or old is None or mono - since < RESYNC_S - 1e-6:
                continue
            spot = self.stable.snapshot[i]
            view = self._latest_view(spot)
            if self.matcher.p_same(self.matcher.signature(view), self.matcher.signature(old)) < self.sure:
                continue  # turned over after all: read the usual way (_reveal_piles)
            face = self._fresh()
            self.labels[face] = self.matcher.signature(view)
            result = self._propose_seen(
                {"type": "reveal", "card": card, "face": face}, [(f"table:{card}", spot)]
            )
            if result:
                log.info("resync: table card %d was never turned over; read as %s", card, face)
                self.seq_of[("table", card)] = result[0]
                self.view_at[("table", card)] = view
                self.face_shown[spot.track] = face
                self._turned_since.pop(card, None)

    def _resync_piles(self, obs: TableObservation, mono: float) -> None:
        """The referee's piles against the camera's: a pile whose next card the referee waits for,
        whose place has shown no card, with no hand over the table, for :data:`RESYNC_S`, is empty
        on the table (captures the camera missed took its cards). The table's empty pile is logged
        as a correction (a referee waiting for that card refused every later play: the full
        bench's seeds 0 and 1)."""
        state = self.live.snapshot_state()
        waiting = {
            seat
            for seat, (size, top) in enumerate(state.get("piles", []))
            if size > 0 and top is None and seat in self.pile_at
        }
        self._empty_since = {s: t for s, t in self._empty_since.items() if s in waiting}
        seen = visible_spots(obs)
        self._resync_refills(state, seen, mono)
        self._resync_gone(state, seen, mono)
        for seat in sorted(waiting):
            if nearest(seen, self.pile_at[seat], self.stable.card_px) is not None:
                self._empty_since.pop(seat, None)  # a card lies there: it will be read
                continue
            since = self._empty_since.setdefault(seat, mono)
            if mono - since < RESYNC_S - 1e-6:
                continue
            self._empty_since.pop(seat, None)
            if self.propose({"type": "empty", "player": seat}, {"resync": "no card at the pile's place"}):
                log.info("resync: %s's pile is empty on the table", self.live.game.players[seat])

    def _resync_gone(self, state: Mapping[str, Any], seen: list[Spot], mono: float) -> None:
        """A pile whose top the referee knows, whose place has shown no card, with no hand over the
        table, for :data:`RESYNC_S`, and where this frame, cut where its top lay, surely shows
        another pattern than that top: the pile is empty on the table (its last card went
        unseen), and so logged. A finder that misses a pile's card for a while never empties it:
        the frame still shows the card where it lay. Looked at once every :data:`RESYNC_S`."""
        known = {
            seat
            for seat, (size, top) in enumerate(state.get("piles", []))
            if size > 0 and top is not None and seat in self.pile_at
        }
        self._gone_since = {s: t for s, t in self._gone_since.items() if s in known}
        for seat in sorted(known):
            if nearest(seen, self.pile_at[seat], self.stable.card_px) is not None:
                self._gone_since.pop(seat, None)
                continue
            since = self._gone_since.setdefault(seat, mono)
            if mono - since < RESYNC_S - 1e-6:
                continue
            self._gone_since[seat] = mono  # looked at: the next look RESYNC_S later
            if not self._top_gone(seat):
                continue
            self._gone_since.pop(seat, None)
            if self.propose({"type": "empty", "player": seat}, {"resync": "no card at the pile's place"}):
                log.info("resync: %s's pile is empty on the table", self.live.game.players[seat])

    def _top_gone(self, seat: int) -> bool:
        """Whether this frame, cut where ``seat``'s pile top was last seen whole, surely shows
        another pattern than the view the referee recorded that top by, and than the last views
        of that place (the card lying there, should the record have drifted from it)."""
        view = self.view_at.get(("pile", seat))
        image = getattr(self._frame, "image", None)
        place = self.place_views.near(self.pile_at[seat], 0.5 * self.stable.card_px)
        if view is None or place is None or not isinstance(image, np.ndarray) or image.ndim != 3:
            return False
        sig = self.matcher.signature(rectify(image, place.views[-1].quad))
        refs = [view, *(v.view for v in place.views[-2:])]
        scores = self.matcher.p_same_many([(sig, self._signature_of(ref)) for ref in refs])
        return all(p < self.different_below for p in scores)

    def _resync_refills(self, state: Mapping[str, Any], seen: list[Spot], mono: float) -> None:
        """A pile the referee counts empty whose place has shown a card, with no hand over the
        table, for :data:`RESYNC_S`: a penalty the camera missed gave cards back (after
        :meth:`_resync_piles`: one of the cards the referee lost track of is logged as that pile's
        top), or a penalty gave back another capture than the referee's (:meth:`_regive`); else
        the card is one the referee never counted there (a penalty it missed, a play it logged
        that never happened: the live bench's seed 4, whose missed wrong claim at 50.7 s left
        Ana's pile three cards short, so that every later claim on her pile was refused): logged
        as the pile's top all the same (:meth:`_refill`; the referee counts it as found)."""
        tol = 0.5 * self.stable.card_px
        empty = {
            seat
            for seat, (size, _top) in enumerate(state.get("piles", []))
            if size == 0 and seat in self.pile_at
        }
        self._refill_since = {s: t for s, t in self._refill_since.items() if s in empty}
        for seat in sorted(empty):
            i = nearest(seen, self.pile_at[seat], tol)
            held = self.captures_at.get(seat, [])
            if i is None or any(np.linalg.norm(seen[i].center - p) <= tol for p in held):
                self._refill_since.pop(seat, None)
                continue
            since = self._refill_since.setdefault(seat, mono)
            if mono - since < RESYNC_S - 1e-6:
                continue
            self._refill_since.pop(seat, None)
            spot = seen[i]
            view = self._latest_view(spot)
            if self._still_won(seat, view):
                continue  # the won card, not carried off yet
            if state.get("lost") or not self._regive(seat, Spot(spot.center, spot.quad, view, spot.track)):
                self._refill(seat, spot, view)

    def _regive(self, seat: int, spot: Spot | None = None) -> bool:
        """A pile the referee counts empty, with no card lost track of, shows a card: the seat's
        last penalty gave back a bigger capture than the referee's choice (it takes the newest
        capture when nobody says which; the player chose). That penalised claim is amended to give
        back the biggest capture the seat held then, if every action of the record still applies
        after it and the pile is no longer empty (an offline replay of the live bench's seed 0: a
        pair given back for the three-card steal the player gave left the pile one card short, and
        the claim on its last card was refused: "the top of Ben's pile is not on the table").
        With ``spot`` (the card seen there), the pile's new top is read from its view at once."""
        entries = [
            e
            for e in self.live.entries
            if e.get("kind") == "action" and not e.get("undone") and e["ruling"].get("applies")
        ]
        target = None
        for entry in reversed(entries):
            details = entry["ruling"].get("details") or {}
            forfeit = details.get("forfeit")
            if (
                entry["action"].get("type") == "claim"
                and details.get("erring") == seat
                and isinstance(forfeit, Mapping)
                and list(forfeit.get("capture") or [])[:1] == [seat]
            ):
                target = entry
                break
        if target is None or target["seq"] in self._regiven:
            return False
        self._regiven.add(target["seq"])
        used = int(target["ruling"]["details"]["forfeit"]["capture"][1])
        game = self.live.game
        state = game.initial_state()
        for entry in entries:
            if entry["seq"] == target["seq"]:
                break
            new, ruling = game.apply(state, self.live.parse(entry["action"]))
            if ruling.applies:
                state = new
        held = game.state_to_json(state)["captures"][seat]
        if used >= len(held):
            return False
        bigger = sorted(
            (j for j in range(len(held)) if held[j][1] > held[used][1]), key=lambda j: (-held[j][1], j)
        )
        baseline = self._replayed(entries, target["seq"], target["action"])
        for j in bigger:
            action = {**target["action"], "forfeit": [seat, j]}
            replay = self._replayed(entries, target["seq"], action)
            if replay is None or baseline is None or replay[0] != baseline[0]:
                continue  # an action of the record would no longer apply
            if replay[1]["piles"][seat][0] == 0:
                continue
            self.live.amend(target["seq"], action, "vision")
            log.info(
                "resync: %s gave back capture #%d (%d cards), not #%d",
                self.live.game.players[seat],
                j + 1,
                held[j][1],
                used + 1,
            )
            if spot is not None:
                self._reveal_top(seat, spot)
            return True
        return False

    def _reveal_top(self, seat: int, spot: Spot) -> bool:
        """Logs the card ``spot`` shows as ``seat``'s pile top, when the referee counts cards in
        that pile but does not know its top."""
        size, top = self.live.snapshot_state()["piles"][seat]
        if size == 0 or top is not None:
            return False
        face = self.label(spot.view)
        result = self._propose_seen(
            {"type": "reveal", "player": seat, "face": face}, [(f"pile:{seat}", spot)]
        )
        if not result:
            return False
        self.seq_of[("pile", seat)] = result[0]
        self.view_at[("pile", seat)] = spot.view
        self.face_shown[spot.track] = face
        return True

    def _replayed(
        self, entries: list[Mapping[str, Any]], seq: int, action: Mapping[str, Any]
    ) -> tuple[list[int], dict[str, Any]] | None:
        """The sequence numbers of ``entries`` that apply, and the referee's state (JSON), when the
        action ``seq`` is ``action``; ``None`` when that action itself does not apply."""
        game = self.live.game
        state = game.initial_state()
        kept: list[int] = []
        for entry in entries:
            new, ruling = game.apply(
                state, self.live.parse(action if entry["seq"] == seq else entry["action"])
            )
            if not ruling.applies:
                if entry["seq"] == seq:
                    return None
                continue
            state = new
            kept.append(entry["seq"])
        return kept, game.state_to_json(state)

    def _refill(self, seat: int, spot: Spot, view: np.ndarray) -> bool:
        """Logs that ``seat``'s pile, counted empty, shows the card ``view`` (one the referee lost
        track of, else one it had not counted)."""
        face = self.label(view)
        result = self._propose_seen(
            {"type": "refill", "player": seat, "face": face},
            [(f"pile:{seat}", Spot(spot.center, spot.quad, view, spot.track))],
        )
        if not result:
            return False
        log.info("resync: %s's pile shows a card again", self.live.game.players[seat])
        self.seq_of[("pile", seat)] = result[0]
        self.view_at[("pile", seat)] = view
        self.face_shown[spot.track] = face
        return True

    def _turn_of(self, spot: Spot, snapshot: list[Spot], turn: int) -> int:
        """Who played the new card ``spot``: the player on turn, unless the card is surely the top
        card only one other pile showed, and that pile's place now shows another card (or none).
        Then the referee's turn has drifted from the table's (a won capture it missed restarts
        play with the winner): the table's turn is logged as a correction, then the play."""
        state = self.live.snapshot_state()
        sig = self._signature_of(spot.view)
        tol = 0.5 * self.stable.card_px
        came_from = []
        for seat, (size, _top) in enumerate(state.get("piles", [])):
            old = self.view_at.get(("pile", seat))
            if size == 0 or old is None or seat not in self.pile_at:
                continue
            if self.matcher.p_same(sig, self._signature_of(old)) >= self.sure:
                came_from.append(seat)
        if len(came_from) != 1 or came_from[0] == turn:
            return turn
        seat = came_from[0]
        at = nearest(snapshot, self.pile_at[seat], tol)
        if (
            at is not None
            and self.matcher.p_same(
                self._signature_of(snapshot[at].view), self._signature_of(self.view_at[("pile", seat)])
            )
            >= self.sure
        ):
            return turn  # that pile still shows the card: the new one is another like it
        if self.propose({"type": "turn", "player": seat}, {"resync": "the card came from this pile"}) is None:
            return turn
        log.info("resync: the turn was %d's, the card came from %d's pile", turn, seat)
        return seat

    def _really_there(self, spot: Spot, snapshot: list[Spot] | None = None) -> bool:
        """Whether the frame shows the card the finder reports: its view cut from this frame is
        not surely another pattern than the finder's own last view of it. A track can stay
        "visible" where a carried card passed and nothing lies now (the full bench's seed 1: a
        play nobody made put the referee one turn out of step for the rest of the game). Nor is
        it a card when it lies over table cards the referee knows, still in sight at their places
        in ``snapshot`` (:meth:`_over_known_cards`)."""
        if snapshot is not None and self._over_known_cards(spot, snapshot):
            self.hold(
                {"type": "play"},
                "a card the finder reports over cards still in sight",
                "une carte signalée par-dessus des cartes encore visibles",
            )
            return False
        if self._camera_shows(spot):
            return True
        self.hold(
            {"type": "play"},
            "a card the finder reports where the camera shows none",
            "une carte signalée là où la caméra n'en montre pas",
        )
        return False

    def _over_known_cards(self, spot: Spot, snapshot: list[Spot]) -> bool:
        """Whether at least :data:`OVER_KNOWN` of the card's area lies over table cards the
        referee knows that are still in sight at their places: a card there would hide them. The
        finder's quad straddling two cards and the gap between them (the live bench's seed 3,
        73.2-77.3 s: taken as a play, it put the player's pile a card short, and the claim on
        its last card was refused)."""
        quad = np.asarray(spot.quad, dtype=np.float32).reshape(4, 2)
        area = float(cv2.contourArea(quad))
        if area <= 0.0:
            return False
        tol = 0.5 * self.stable.card_px
        reach = 1.5 * self.stable.card_px
        covered = 0.0
        for other in snapshot:
            if other is spot or float(np.linalg.norm(other.center - spot.center)) > reach:
                continue
            if not any(np.linalg.norm(other.center - at) <= tol for at in self.table_at.values()):
                continue
            inter, _ = cv2.intersectConvexConvex(quad, np.asarray(other.quad, dtype=np.float32).reshape(4, 2))
            covered += float(inter)
        return covered >= OVER_KNOWN * area

    def _camera_shows(self, spot: Spot) -> bool:
        """Whether this frame shows the card the finder reports at ``spot`` (whose view was cut
        from this frame): that view is not surely another pattern than the finder's own last
        view of the card. ``True`` when there is nothing to compare (a hand lies on the card)."""
        return self._cameras_show([spot])[0]

    def _cameras_show(self, spots: list[Spot]) -> list[bool]:
        """:meth:`_camera_shows` for each spot, with the judge called once for them all."""
        out = [True] * len(spots)
        crops: list[np.ndarray] = []
        todo: list[int] = []
        for i, spot in enumerate(spots):
            card = self._obs.card(spot.track) if self._obs is not None else None
            own = card.last_clean_view if card is not None else None
            if own is None or spot.view is own:
                continue
            if own.shape != spot.view.shape:
                own = cv2.resize(own, (spot.view.shape[1], spot.view.shape[0]), interpolation=cv2.INTER_AREA)
            crops += [spot.view, own]
            todo.append(i)
        if todo:
            sigs = self.matcher.signatures(crops)
            ps = self.matcher.p_same_many([(sigs[2 * k], sigs[2 * k + 1]) for k in range(len(todo))])
            for i, p in zip(todo, ps, strict=True):
                out[i] = p >= self.different_below
        return out
