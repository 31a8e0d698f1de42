"""The live app's settings: one validated value, built by the CLI and injected into the app.

Tests build a :class:`Settings` with a few fields and hand it to :func:`web.app.create_app`.

    >>> Settings(game="themind", players=("Ana", "Ben")).needs_token
    False
"""

from __future__ import annotations

import ipaddress
import secrets
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1"}


class Settings(BaseModel):
    """Everything the live app needs to know at start-up; frozen once built."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: str = "twinit"
    """Registry name of the game refereed (``twinit``, ``trio``, ``themind``, ``lineit``, ``twixt``)."""
    mode: str | None = None
    """The game's mode; ``None`` for its default."""
    players: tuple[str, ...] = ("Ana", "Ben")
    """Player names in seating order (clockwise from the bottom edge of the image)."""
    options: dict[str, object] = Field(default_factory=dict)
    """Game options passed to the referee."""
    seats: tuple[str, ...] = ()
    """Image edge of each player (``bottom``, ``left``, ``top``, ``right``); empty: the default
    order for the player count."""
    source: str | None = None
    """Camera index, device path, stream URL or video file; ``None`` when the app gets frames
    from elsewhere (the demo)."""
    profile: Path | None = None
    """A calibration profile file."""
    deck: Path | None = None
    """An enrolled Twin It deck's folder (``tableref enroll``): slaps are judged against it;
    ``None``: by the pair judge alone."""
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=0, le=65535)
    data_dir: Path = Path(".tableref")
    """Where the event store (SQLite) lives."""
    token: str = Field(default_factory=lambda: secrets.token_urlsafe(16))
    """Needed by every state-changing request when the app listens beyond loopback."""
    max_body_bytes: int = Field(16 * 1024, ge=256)
    """Requests with a larger body are refused with 413."""
    stream_fps: float = Field(30.0, gt=0, le=60)
    """Most frames per second the MJPEG stream sends."""
    overlay_hz: float = Field(10.0, gt=0, le=60)
    """Most overlay (vision) messages per second pushed to viewers."""
    jpeg_quality: int = Field(70, ge=10, le=100)
    lang: Literal["en", "fr"] = "en"
    """The page's default language."""
    retry_initial_s: float = Field(0.5, gt=0)
    retry_max_s: float = Field(8.0, gt=0)
    retry_on_end: bool = True
    """Re-open the source when its stream ends (a camera or URL); off for a finite demo."""
    coop_seconds: float = Field(60.0, gt=0)
    """Length of Twin It's cooperative minute."""
    uncertain_below: float = Field(0.8, gt=0, lt=1)
    """A judgement less sure than this (either way) asks the table."""
    resume: bool = True
    """Resume the last unfinished game of the same kind from the store."""

    @field_validator("players")
    @classmethod
    def _players_named(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        names = tuple(p.strip() for p in value)
        if any(not p for p in names):
            raise ValueError(f"player names must be non-empty: {list(value)!r}")
        return names

    @field_validator("seats")
    @classmethod
    def _seats_known(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        bad = [s for s in value if s not in ("bottom", "left", "top", "right")]
        if bad:
            raise ValueError(f"unknown seats {bad!r}: expected bottom, left, top or right")
        return value

    @property
    def needs_token(self) -> bool:
        """True when the app listens beyond the loopback interface."""
        if self.host in LOOPBACK_NAMES:
            return False
        try:
            return not ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return True

    @property
    def db_path(self) -> Path:
        return self.data_dir / "events.sqlite"

    def seat_of_player(self) -> tuple[str, ...]:
        """The image edge of each player, in seat order."""
        if self.seats:
            return self.seats
        order = (
            ("bottom", "top", "left", "right")
            if len(self.players) <= 2
            else (
                "bottom",
                "left",
                "top",
                "right",
            )
        )
        return tuple(order[i % 4] for i in range(len(self.players)))
