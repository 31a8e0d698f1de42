"""``POST /api/undo``: the last applied action undone (an event in the log like any other)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException

from web.context import ContextDep, WriterDep
from web.live_game import TableRequestError

router = APIRouter(prefix="/api", tags=["undo"])


@router.post("/undo")
def undo(ctx: ContextDep, _: WriterDep) -> dict[str, Any]:
    try:
        target = ctx.live.undo()
    except TableRequestError as exc:
        raise HTTPException(409, str(exc)) from exc
    return {"undone": target}
