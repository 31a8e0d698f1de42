"""The event store: every action, ruling, question, correction and undo, appended to SQLite (WAL).

An event is written (and committed) before anyone is shown it, so after a crash or ``kill -9`` a
restart rebuilds the game by replaying the log. Evidence images (photo-finishes) are kept beside
the events so a resumed page still shows them.

    >>> store = EventStore(":memory:")
    >>> gid = store.new_game("themind", {"game": "themind", "players": ["Ana", "Ben"], "mode": "normal",
    ...                                   "options": {}})
    >>> store.append(gid, "action", {"action": {"type": "deal"}})
    1
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    header TEXT NOT NULL,
    created REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    wall REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_game ON events(game_id, seq);
CREATE TABLE IF NOT EXISTS blobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    mime TEXT NOT NULL,
    data BLOB NOT NULL
);
"""


@dataclass(frozen=True)
class StoredEvent:
    """One line of the log."""

    seq: int
    """Global, increasing sequence number."""
    kind: str
    """``action``, ``question``, ``answer``, ``undo``, ``correction``, ``timer``..."""
    body: dict[str, Any]
    """The event's JSON body."""
    wall: float
    """Wall-clock time it was written (seconds since the epoch)."""


@dataclass(frozen=True)
class StoredGame:
    id: int
    name: str
    header: dict[str, Any]
    created: float
    finished: bool


class EventStore:
    """A thread-safe, append-only SQLite log of games and their events."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # WAL with synchronous=NORMAL: a commit is in the log file before the call returns, so a
        # crash or kill -9 of the process loses nothing (only a power cut may lose the newest
        # commits); FULL's fsync per event cost milliseconds on every ruling's way to the page.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- games ---------------------------------------------------------------------------------
    def new_game(self, name: str, header: Mapping[str, Any]) -> int:
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO games(name, header, created) VALUES (?, ?, ?)",
                (name, json.dumps(dict(header)), time.time()),
            )
            return int(cur.lastrowid)

    def game(self, game_id: int) -> StoredGame | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, name, header, created, finished FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        return _game(row) if row else None

    def latest_game(self, name: str, header: Mapping[str, Any] | None = None) -> StoredGame | None:
        """The newest unfinished game called ``name`` (with this exact header, when given)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, name, header, created, finished FROM games WHERE name = ? AND finished = 0 "
                "ORDER BY id DESC",
                (name,),
            ).fetchall()
        for row in rows:
            game = _game(row)
            if header is None or game.header == dict(header):
                return game
        return None

    def finish_game(self, game_id: int) -> None:
        with self._lock:
            self._db.execute("UPDATE games SET finished = 1 WHERE id = ?", (game_id,))

    # -- events --------------------------------------------------------------------------------
    def append(self, game_id: int, kind: str, body: Mapping[str, Any]) -> int:
        """Writes one event and commits it; returns its sequence number."""
        text = json.dumps(dict(body), ensure_ascii=False)
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO events(game_id, kind, body, wall) VALUES (?, ?, ?, ?)",
                (game_id, kind, text, time.time()),
            )
            return int(cur.lastrowid)

    def events(self, game_id: int, after: int = 0) -> list[StoredEvent]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, kind, body, wall FROM events WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, after),
            ).fetchall()
        return [StoredEvent(int(s), str(k), json.loads(b), float(w)) for s, k, b, w in rows]

    # -- evidence images -----------------------------------------------------------------------
    def put_blob(self, game_id: int, data: bytes, mime: str = "image/jpeg") -> int:
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO blobs(game_id, mime, data) VALUES (?, ?, ?)", (game_id, mime, data)
            )
            return int(cur.lastrowid)

    def blob(self, blob_id: int) -> tuple[str, bytes] | None:
        with self._lock:
            row = self._db.execute("SELECT mime, data FROM blobs WHERE id = ?", (blob_id,)).fetchone()
        return (str(row[0]), bytes(row[1])) if row else None


def _game(row: tuple) -> StoredGame:
    return StoredGame(int(row[0]), str(row[1]), json.loads(row[2]), float(row[3]), bool(row[4]))
