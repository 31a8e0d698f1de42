"""The refereed game of a live session: its state, its log, questions to the table, undo, timers.

Every change goes to the :class:`~web.store.EventStore` first, then to the listeners (the page).
A restart rebuilds the same state by replaying the stored log (:meth:`LiveGame.open`).

Actions arrive as the referee's JSON objects from three origins: ``vision`` (a game adapter),
``table`` (a player's tap: an answer, a correction, an undo) and ``replay``. A question holds
the two actions between which the table chooses ("same pattern?" yes -> one, no -> the other).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.errors import MalformedAction, RefereeError
from referee.protocol import Game
from referee.records import write_record
from referee.types import JSON, Ruling, Verdict
from web.store import EventStore

log = logging.getLogger(__name__)

Listener = Callable[[dict[str, Any]], None]

LOG_SHOWN = 40
"""How many log entries the state message carries."""


class TableRequestError(ValueError):
    """A request from the table that cannot be carried out (unknown question, nothing to undo)."""


@dataclass
class Timer:
    """A countdown kept on the server's monotonic clock."""

    label: str
    seconds: float
    started_mono: float
    started_wall: float
    seq: int
    ended: bool = False
    backdated_s: float = 0.0
    """How long before it was started the countdown was dated from (the spread, seen earlier)."""

    def remaining(self, now: float) -> float:
        return max(0.0, self.seconds - (now - self.started_mono))


@dataclass
class _Applied:
    seq: int
    action: Any


@dataclass
class LiveGame:
    """One game refereed live. Thread-safe: vision and web threads call it concurrently."""

    game: Game
    store: EventStore
    game_id: int
    clock: Callable[[], float] = time.monotonic
    state: Any = None
    entries: list[dict[str, Any]] = field(default_factory=list)
    questions: dict[int, dict[str, Any]] = field(default_factory=dict)
    corrections: list[dict[str, Any]] = field(default_factory=list)
    timer: Timer | None = None
    version: int = 0
    resumed_events: int = 0

    def __post_init__(self) -> None:
        self._lock = threading.RLock()
        self._applied: list[_Applied] = []
        self._listeners: list[Listener] = []
        if self.state is None:
            self.state = self.game.initial_state()

    # -- opening ---------------------------------------------------------------------------------
    @classmethod
    def open(cls, game: Game, store: EventStore, resume: bool = True, clock=time.monotonic) -> LiveGame:
        """The last unfinished game with the same fixed facts, resumed from its log; else a new one."""
        stored = store.latest_game(game.name, game.header()) if resume else None
        if stored is None:
            gid = store.new_game(game.name, game.header())
            log.info("new %s game %d", game.name, gid)
            return cls(game, store, gid, clock)
        live = cls(game, store, stored.id, clock)
        events = store.events(stored.id)
        for event in events:
            live._replay(event.seq, event.kind, event.body, event.wall)
        live.resumed_events = len(events)
        log.info("resumed %s game %d from %d events", game.name, stored.id, len(events))
        return live

    def _replay(self, seq: int, kind: str, body: Mapping[str, Any], wall: float) -> None:
        if kind == "action":
            action = self.game.parse_action(body["action"])
            new_state, ruling = self.game.apply(self.state, action)
            if ruling.applies:
                self.state = new_state
                self._applied.append(_Applied(seq, action))
            self.entries.append(self._entry(seq, body, ruling, wall))
        elif kind == "question":
            self.questions[seq] = {"id": seq, **body}
        elif kind == "answer":
            self.questions.pop(int(body["question"]), None)
        elif kind == "undo":
            self._undo_seq(int(body["target"]))
            self.entries.append({"seq": seq, "kind": "undo", "target": body["target"], "wall": wall})
        elif kind == "amend":
            self._amend_seq(int(body["target"]), self.game.parse_action(body["action"]))
            self.entries.append({"seq": seq, "kind": "amend", "target": body["target"], "wall": wall})
        elif kind == "correction":
            self.corrections.append({"seq": seq, **body})
            self.entries.append({"seq": seq, "kind": "correction", "fact": dict(body), "wall": wall})
        elif kind == "timer":
            self._timer_event(seq, body, wall)
        self.version += 1

    # -- listeners ---------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def _changed(self, event: dict[str, Any]) -> None:
        self.version += 1
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a broken viewer never stops the game
                log.exception("state listener failed")

    # -- actions -----------------------------------------------------------------------------------
    def parse(self, action: Mapping[str, JSON]) -> Any:
        """The referee's action from JSON; raises :class:`MalformedAction` (a 4xx on the web)."""
        if not isinstance(action, Mapping):
            raise MalformedAction(f"action {action!r} is not a JSON object")
        return self.game.parse_action(action)

    def act(
        self,
        action: Mapping[str, JSON],
        origin: str,
        evidence: Mapping[str, Any] | None = None,
    ) -> tuple[int, Ruling]:
        """Judges and applies ``action``; logs it (even when refused) before telling anyone."""
        parsed = self.parse(action)
        with self._lock:
            new_state, ruling = self.game.apply(self.state, parsed)
            body = {"action": self.game.action_to_json(parsed), "origin": origin}
            if evidence:
                body["evidence"] = dict(evidence)
            seq = self.store.append(self.game_id, "action", body)
            if ruling.applies:
                self.state = new_state
                self._applied.append(_Applied(seq, parsed))
            entry = self._entry(seq, body, ruling, time.time())
            self.entries.append(entry)
            if self.game.outcome(self.state) is not None:
                log.info("game %d is over", self.game_id)
            self._changed({"type": "ruling", "entry": entry})
        return seq, ruling

    def judge(self, action: Mapping[str, JSON]) -> Ruling:
        """The ruling ``action`` would get now, changing nothing."""
        parsed = self.parse(action)
        with self._lock:
            return self.game.judge(self.state, parsed)

    def ask(
        self,
        question: Mapping[str, str],
        if_yes: Mapping[str, JSON] | None,
        if_no: Mapping[str, JSON] | None,
        origin: str,
        evidence: Mapping[str, Any] | None = None,
        amend_yes: list[dict[str, Any]] | None = None,
        amend_no: list[dict[str, Any]] | None = None,
    ) -> int:
        """Puts a question to the table (``question`` holds ``en`` and ``fr``); each answer plays
        its action (or nothing), after rewriting the actions listed in ``amend_yes`` / ``amend_no``
        (``{"target": seq, "action": {...}}``: a recognised face corrected by the answer). Both
        actions are checked now, so a bad one never waits."""
        for action in (if_yes, if_no):
            if action is not None:
                self.parse(action)
        body = {
            "question": {"en": question["en"], "fr": question["fr"]},
            "if_yes": dict(if_yes) if if_yes is not None else None,
            "if_no": dict(if_no) if if_no is not None else None,
            "origin": origin,
            "evidence": dict(evidence or {}),
            "amend_yes": list(amend_yes or []),
            "amend_no": list(amend_no or []),
        }
        with self._lock:
            seq = self.store.append(self.game_id, "question", body)
            self.questions[seq] = {"id": seq, **body}
            self._changed({"type": "question", "question": self.questions[seq]})
        return seq

    def answer(self, question_id: int, yes: bool, origin: str = "table") -> tuple[int, Ruling] | None:
        """The table's answer: logs it, then plays the chosen action (if any)."""
        with self._lock:
            question = self.questions.get(question_id)
            if question is None:
                raise TableRequestError(f"no open question {question_id}")
            self.store.append(self.game_id, "answer", {"question": question_id, "yes": yes, "origin": origin})
            del self.questions[question_id]
            for fix in question.get("amend_yes" if yes else "amend_no") or []:
                if any(a.seq == fix["target"] for a in self._applied):
                    self.amend(int(fix["target"]), fix["action"], origin)
            action = question["if_yes"] if yes else question["if_no"]
            if action is None:
                self._changed({"type": "answer", "question": question_id, "yes": yes})
                return None
            evidence = {**question.get("evidence", {}), "answered": "yes" if yes else "no"}
            return self.act(action, origin, evidence)

    def undo(self, origin: str = "table") -> int:
        """Undoes the last applied action; returns the undone action's sequence number."""
        with self._lock:
            if not self._applied:
                raise TableRequestError("there is no action to undo")
            target = self._applied[-1].seq
            seq = self.store.append(self.game_id, "undo", {"target": target, "origin": origin})
            self._undo_seq(target)
            self.entries.append({"seq": seq, "kind": "undo", "target": target, "wall": time.time()})
            self._changed({"type": "undo", "target": target})
            return target

    def _undo_seq(self, target: int) -> None:
        self._applied = [a for a in self._applied if a.seq != target]
        for entry in self.entries:
            if entry.get("seq") == target:
                entry["undone"] = True
        self._rebuild()

    def amend(
        self, target: int, action: Mapping[str, JSON], origin: str = "table", quiet: bool = False
    ) -> int:
        """Rewrites the applied action ``target`` (e.g. the face a card was recognised as) and
        replays the game from there; logged like any other change. ``quiet``: the viewers are not
        sent the state now (an action that follows at once sends it)."""
        parsed = self.parse(action)
        with self._lock:
            if not any(a.seq == target for a in self._applied):
                raise TableRequestError(f"action {target} is not an applied action of this game")
            body = {"target": target, "action": self.game.action_to_json(parsed), "origin": origin}
            seq = self.store.append(self.game_id, "amend", body)
            self._amend_seq(target, parsed)
            self.entries.append({"seq": seq, "kind": "amend", "target": target, "wall": time.time()})
            if quiet:
                self.version += 1
            else:
                self._changed({"type": "amend", "target": target})
            return seq

    def _amend_seq(self, target: int, action: Any) -> None:
        for applied in self._applied:
            if applied.seq == target:
                applied.action = action
        for entry in self.entries:
            if entry.get("seq") == target:
                entry["action"] = self.game.action_to_json(action)
                entry["amended"] = True
        self._rebuild()

    def _rebuild(self) -> None:
        """The state replayed from the applied actions; one that no longer applies is dropped."""
        state = self.game.initial_state()
        kept = []
        for applied in self._applied:
            new_state, ruling = self.game.apply(state, applied.action)
            if ruling.applies:
                state = new_state
                kept.append(applied)
            else:
                log.warning("action %d no longer applies after a correction: dropped", applied.seq)
        self._applied = kept
        self.state = state

    def applied_seq_of(self, predicate: Callable[[Mapping[str, JSON]], bool]) -> int | None:
        """The newest applied action (as JSON) matching ``predicate``."""
        with self._lock:
            for applied in reversed(self._applied):
                if predicate(self.game.action_to_json(applied.action)):
                    return applied.seq
        return None

    def correct(self, fact: Mapping[str, JSON], origin: str = "table") -> int:
        """Logs a correction of a recognised fact (a card's identity, a peg...)."""
        body = {**dict(fact), "origin": origin}
        with self._lock:
            seq = self.store.append(self.game_id, "correction", body)
            self.corrections.append({"seq": seq, **body})
            self.entries.append({"seq": seq, "kind": "correction", "fact": body, "wall": time.time()})
            self._changed({"type": "correction", "fact": body})
            return seq

    # -- timers ------------------------------------------------------------------------------------
    def start_timer(self, label: str, seconds: float, origin: str, started_mono: float | None = None) -> int:
        """Starts a countdown (``started_mono``: when it really started, on this clock; the page
        says so when that was earlier than now)."""
        now = self.clock()
        start = now if started_mono is None else started_mono
        backdated = round(max(0.0, now - start), 3)
        body = {"op": "start", "label": label, "seconds": seconds, "wall": time.time() - (now - start)}
        body["origin"] = origin
        body["backdated_s"] = backdated
        with self._lock:
            seq = self.store.append(self.game_id, "timer", body)
            self.timer = Timer(label, seconds, start, body["wall"], seq, backdated_s=backdated)
            self._changed({"type": "timer", "timer": self.timer_json()})
            return seq

    def end_timer_if_due(self) -> bool:
        """Marks a running timer ended once its time is up; True when that happens now."""
        with self._lock:
            timer = self.timer
            if timer is None or timer.ended or timer.remaining(self.clock()) > 0:
                return False
            self.store.append(self.game_id, "timer", {"op": "end", "label": timer.label, "origin": "clock"})
            timer.ended = True
            self._changed({"type": "timer_end", "timer": self.timer_json()})
            return True

    def _timer_event(self, seq: int, body: Mapping[str, Any], wall: float) -> None:
        if body.get("op") == "start":
            elapsed = max(0.0, time.time() - float(body["wall"]))
            self.timer = Timer(
                str(body["label"]),
                float(body["seconds"]),
                self.clock() - elapsed,
                float(body["wall"]),
                seq,
                backdated_s=float(body.get("backdated_s", 0.0)),
            )
        elif body.get("op") == "end" and self.timer is not None:
            self.timer.ended = True

    def timer_json(self) -> dict[str, Any] | None:
        timer = self.timer
        if timer is None:
            return None
        remaining = timer.remaining(self.clock())
        return {
            "label": timer.label,
            "seconds": timer.seconds,
            "remaining": round(remaining, 3),
            "running": not timer.ended and remaining > 0,
            "started_mono": round(timer.started_mono, 4),
            "backdated_s": timer.backdated_s,
            "ended": timer.ended,
        }

    # -- views -------------------------------------------------------------------------------------
    def _entry(self, seq: int, body: Mapping[str, Any], ruling: Ruling, wall: float) -> dict[str, Any]:
        return {
            "seq": seq,
            "kind": "action",
            "action": body["action"],
            "origin": body.get("origin", "vision"),
            "evidence": body.get("evidence"),
            "ruling": ruling.to_json(),
            "wall": wall,
        }

    def snapshot_state(self) -> dict[str, Any]:
        """The referee's state as JSON."""
        with self._lock:
            return self.game.state_to_json(self.state)

    @property
    def applied_actions(self) -> list[Any]:
        with self._lock:
            return [a.action for a in self._applied]

    def snapshot(self) -> dict[str, Any]:
        """The whole game as the page shows it (plain JSON)."""
        with self._lock:
            outcome = self.game.outcome(self.state)
            return {
                "version": self.version,
                "game": {
                    "name": self.game.name,
                    "title": getattr(self.game, "title", self.game.name),
                    **self.game.config.to_json(),
                },
                "game_id": self.game_id,
                "state": self.game.state_to_json(self.state),
                "scores": self.game.scores(self.state),
                "outcome": outcome.to_json() if outcome else None,
                "log": [dict(e) for e in self.entries[-LOG_SHOWN:]][::-1],
                "questions": list(self.questions.values()),
                "timer": self.timer_json(),
                "can_undo": bool(self._applied),
            }

    def record_text(self) -> str:
        """The game as a tableref record (JSON lines): the actions that apply, undone ones left out."""
        with self._lock:
            return write_record(self.game, [a.action for a in self._applied])

    def last_ruling(self) -> Ruling | None:
        with self._lock:
            for entry in reversed(self.entries):
                if entry.get("kind") == "action":
                    return Ruling.from_json(entry["ruling"])
        return None


def is_uncertain(ruling: Ruling) -> bool:
    return ruling.verdict is Verdict.UNCERTAIN


__all__ = ["LiveGame", "RefereeError", "TableRequestError", "Timer", "is_uncertain"]
