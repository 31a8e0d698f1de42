"""Live video: ``GET /video.mjpg`` (MJPEG, one encoding shared by every viewer) and the newest
still frame ``GET /api/frame.jpg``; evidence images ``GET /api/evidence/{id}.jpg``."""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response, StreamingResponse

from web.context import ContextDep

router = APIRouter(tags=["video"])
BOUNDARY = "tablerefframe"


@router.get("/video.mjpg")
async def video(request: Request, ctx: ContextDep) -> StreamingResponse:
    hub = ctx.hub

    async def frames() -> AsyncIterator[bytes]:
        seq = -1
        while True:
            if await request.is_disconnected():
                break
            seq, jpeg = await hub.next_frame(seq, timeout=2.0)
            if jpeg is None:
                continue
            yield (
                f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n".encode()
                + jpeg
                + b"\r\n"
            )

    return StreamingResponse(
        frames(),
        media_type=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
        headers={"Cache-Control": "no-store"},
    )


@router.get("/api/frame.jpg")
def still(ctx: ContextDep) -> Response:
    if ctx.hub.frame is None:
        raise HTTPException(404, "no frame yet: the source has not given one")
    return Response(ctx.hub.frame, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


@router.get("/api/evidence/{blob_id}.jpg")
def evidence(blob_id: int, ctx: ContextDep) -> Response:
    found = ctx.live.store.blob(blob_id)
    if found is None:
        raise HTTPException(404, f"no evidence image {blob_id}")
    mime, data = found
    return Response(data, media_type=mime, headers={"Cache-Control": "max-age=86400"})
