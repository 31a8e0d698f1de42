"""The FastAPI app: built by a factory that receives its collaborators (Frigate's habit), so tests
build it from a minimal config.

    >>> ctx = build_context(Settings(game="themind", data_dir=tmp))   # doctest: +SKIP
    >>> app = create_app(ctx)                                          # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from referee.registry import make_game
from web.context import AppContext
from web.hub import Hub
from web.live_game import LiveGame
from web.routers import actions, events, export, state, undo, video
from web.session import FrameSource, LiveSession, Processor
from web.settings import Settings
from web.store import EventStore

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent / "static"


def build_context(
    settings: Settings,
    open_source: FrameSource | None = None,
    process: Processor | None = None,
    adapter_factory: Any = None,
    store: EventStore | None = None,
) -> AppContext:
    """The live game (resumed from the store when it can be), its session and the hub."""
    game = make_game(settings.game, settings.players, settings.mode, settings.options)
    store = store or EventStore(settings.db_path)
    live = LiveGame.open(game, store, resume=settings.resume)
    hub = Hub()
    adapter = adapter_factory(live, settings) if adapter_factory is not None else None
    session = LiveSession(settings, live, hub, open_source, process, adapter)
    return AppContext(settings, session, hub)


class BodyLimit:
    """Refuses request bodies over ``limit`` bytes with 413, before any handler reads them."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(send, self.limit)
            return
        # No declared length (chunked): read the body here, up to the limit, then replay it.
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            body.extend(message.get("body", b""))
            more = message.get("more_body", False)
            if len(body) > self.limit:
                await _too_large(send, self.limit)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _too_large(send: Send, limit: int) -> None:
    body = f'{{"error": "request body too large: at most {limit} bytes"}}'.encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def create_app(ctx: AppContext, start_session: bool = True) -> FastAPI:
    """The app for one live session. ``start_session`` runs its threads with the server."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        ctx.hub.attach(asyncio.get_running_loop())
        if start_session:
            ctx.session.start()
        try:
            yield
        finally:
            ctx.session.stop()
            ctx.hub.detach()

    app = FastAPI(title="tableref", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.ctx = ctx
    for module in (state, video, events, actions, undo, export):
        app.include_router(module.router)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
            problems.append(f"{where}: {err.get('msg', 'invalid')}")
        return JSONResponse({"error": "invalid request: " + "; ".join(problems)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.add_middleware(BodyLimit, limit=ctx.settings.max_body_bytes)
    return app
