"""``GET /api/state``: everything the page shows, as one JSON object."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from web.context import ContextDep

router = APIRouter(prefix="/api", tags=["state"])


@router.get("/state")
def get_state(ctx: ContextDep) -> dict[str, Any]:
    return ctx.session.state_message()


@router.get("/health")
def health(ctx: ContextDep) -> dict[str, Any]:
    return {"ok": True, "source": ctx.session.status_json()}
