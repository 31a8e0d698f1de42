"""What every router receives: the settings and the live session's parts, as typed dependencies."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException, Request

from web.hub import Hub
from web.live_game import LiveGame
from web.session import LiveSession
from web.settings import Settings


@dataclass(frozen=True)
class AppContext:
    settings: Settings
    session: LiveSession
    hub: Hub

    @property
    def live(self) -> LiveGame:
        """The game refereed now (a demo hands over from its competitive game to the minute)."""
        return self.session.live


def get_context(request: Request) -> AppContext:
    return request.app.state.ctx


ContextDep = Annotated[AppContext, Depends(get_context)]


def token_of(request: Request) -> str | None:
    """The token a request carries: ``Authorization: Bearer``, ``X-Tableref-Token`` or ``?token=``."""
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.headers.get("x-tableref-token") or request.query_params.get("token")


def require_writer(request: Request, ctx: ContextDep) -> None:
    """Lets a state change through: always on loopback, with the start-up token beyond it."""
    if not ctx.settings.needs_token:
        return
    given = token_of(request)
    if not given or not hmac.compare_digest(given, ctx.settings.token):
        raise HTTPException(403, "this viewer can only watch: changing the game needs the start-up token")


WriterDep = Annotated[None, Depends(require_writer)]
