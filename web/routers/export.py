"""``GET /api/export.jsonl``: the game's record (JSON lines); ``GET /api/export.T1`` for Twixt."""

from __future__ import annotations

import importlib

from fastapi import APIRouter, HTTPException
from fastapi.responses import PlainTextResponse

from referee.errors import InvalidConfig
from web.context import ContextDep

router = APIRouter(prefix="/api", tags=["export"])


@router.get("/export.jsonl")
def export_jsonl(ctx: ContextDep) -> PlainTextResponse:
    name = f"{ctx.live.game.name}-{ctx.live.game_id}.jsonl"
    return PlainTextResponse(
        ctx.live.record_text(),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/export.T1")
def export_t1(ctx: ContextDep) -> PlainTextResponse:
    if ctx.live.game.name != "twixt":
        raise HTTPException(404, f"a {ctx.live.game.name} game has no .T1 record: only Twixt has")
    try:
        records = importlib.import_module("referee.twixt.records")
    except ImportError as exc:
        raise HTTPException(501, "Twixt .T1 export is not available in this build") from exc
    try:
        text = records.to_t1(ctx.live.game, ctx.live.applied_actions)
    except InvalidConfig as exc:  # a PP game, or a name T1j cannot hold
        raise HTTPException(409, str(exc).splitlines()[0]) from exc
    name = f"twixt-{ctx.live.game_id}.T1"
    return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{name}"'})
