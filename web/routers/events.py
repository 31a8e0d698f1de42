"""State pushed to any number of viewers: WebSocket ``/api/ws`` and Server-Sent Events
``/api/events``. Each starts with the whole state, then every change as it happens."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import StreamingResponse

from web.context import AppContext

router = APIRouter(prefix="/api", tags=["events"])


def _hello(ctx: AppContext) -> str:
    return json.dumps({"type": "state", "state": ctx.session.state_message()}, ensure_ascii=False)


@router.websocket("/ws")
async def websocket(ws: WebSocket) -> None:
    ctx: AppContext = ws.app.state.ctx
    await ws.accept()
    queue = ctx.hub.subscribe()
    try:
        await ws.send_text(_hello(ctx))
        receiver = asyncio.create_task(_drain(ws))
        while not receiver.done():
            getter = asyncio.create_task(queue.get())
            done, _ = await asyncio.wait({getter, receiver}, return_when=asyncio.FIRST_COMPLETED)
            if getter in done:
                await ws.send_text(getter.result())
            else:
                getter.cancel()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        ctx.hub.unsubscribe(queue)


async def _drain(ws: WebSocket) -> None:
    """Reads (and ignores) what the viewer sends, so a closed socket is noticed."""
    try:
        while True:
            await ws.receive_text()
    except (WebSocketDisconnect, RuntimeError):
        return


@router.get("/events")
async def server_sent_events(request: Request) -> StreamingResponse:
    ctx: AppContext = request.app.state.ctx
    queue = ctx.hub.subscribe()

    async def stream() -> AsyncIterator[str]:
        try:
            yield f"data: {_hello(ctx)}\n\n"
            while not await request.is_disconnected():
                try:
                    text = await asyncio.wait_for(queue.get(), 15.0)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                yield f"data: {text}\n\n"
        finally:
            ctx.hub.unsubscribe(queue)

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})
