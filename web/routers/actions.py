"""What the table changes by hand: an action (what vision missed), the answer to a question, a
correction of a recognised fact, a timer. Every one is an event in the log.

Bodies are validated; a bad one gets a 4xx with a clear message and changes nothing.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, HTTPException
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field

from referee.errors import RefereeError
from web.action_forms import FormError, build_action, forms_for
from web.context import ContextDep, WriterDep
from web.live_game import TableRequestError

router = APIRouter(prefix="/api", tags=["actions"])


class ActionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: dict[str, Any] = Field(description="the referee's action as JSON, with a 'type' key")


class AnswerBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    yes: bool


class CorrectionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["card", "peg", "board_corners"]
    track_id: int | None = Field(None, ge=0)
    identity: str | None = Field(None, min_length=1, max_length=64)
    hole: str | None = Field(None, min_length=2, max_length=8)
    color: str | None = Field(None, max_length=16)
    points: list[tuple[float, float]] | None = Field(None, min_length=4, max_length=4)


FormValue = str | int | list[str | int] | None


class FormBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    values: dict[str, FormValue] = Field(default_factory=dict, max_length=16)


class TimerBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    op: Literal["start"]
    seconds: float = Field(60.0, gt=0, le=3600)
    label: str = Field("timer", min_length=1, max_length=32)


def _result(seq: int, ruling: Any) -> dict[str, Any]:
    return {"seq": seq, "ruling": ruling.to_json()}


@router.post("/actions")
def post_action(body: ActionBody, ctx: ContextDep, _: WriterDep) -> dict[str, Any]:
    try:
        seq, ruling = ctx.live.act(body.action, origin="table")
    except RefereeError as exc:
        raise HTTPException(400, str(exc)) from exc
    return _result(seq, ruling)


@router.post("/questions/{question_id}/answer")
def answer(question_id: int, body: AnswerBody, ctx: ContextDep, _: WriterDep) -> dict[str, Any]:
    try:
        result = ctx.live.answer(question_id, body.yes)
    except TableRequestError as exc:
        raise HTTPException(404, str(exc)) from exc
    return {"answered": question_id, **(_result(*result) if result else {})}


@router.post("/corrections")
def correct(body: CorrectionBody, ctx: ContextDep, _: WriterDep) -> dict[str, Any]:
    fact = body.model_dump(exclude_none=True)
    if body.kind == "card" and (body.track_id is None or body.identity is None):
        raise HTTPException(422, "a card correction needs track_id and identity")
    if body.kind == "peg" and body.hole is None:
        raise HTTPException(422, "a peg correction needs hole (e.g. 'L10')")
    if body.kind == "board_corners" and body.points is None:
        raise HTTPException(422, "board corners need 4 points [x, y] in image pixels")
    adapter = ctx.session.adapter
    if adapter is not None and hasattr(adapter, "check_correction"):
        problem = adapter.check_correction(fact)
        if problem:
            raise HTTPException(422, problem)
    seq = ctx.live.correct(fact)
    if adapter is not None and hasattr(adapter, "correct"):
        adapter.correct(fact)
    return {"seq": seq}


@router.post("/timer")
def timer(body: TimerBody, ctx: ContextDep, _: WriterDep) -> dict[str, Any]:
    seq = ctx.live.start_timer(body.label, body.seconds, origin="table")
    return {"seq": seq, "timer": ctx.live.timer_json()}


@router.get("/forms")
def forms(ctx: ContextDep) -> dict[str, Any]:
    """The forms of the game refereed now: what the table enters by hand."""
    game = ctx.live.game
    return {"game": game.name, "forms": [f.to_json() for f in forms_for(game.name, game.mode)]}


@router.post("/forms/{action_type}")
def post_form(
    body: FormBody,
    ctx: ContextDep,
    _: WriterDep,
    action_type: str = PathParam(min_length=1, max_length=32, pattern=r"^[a-z_]+$"),
) -> dict[str, Any]:
    """One form filled in at the table: checked, built into the referee's action, then judged and
    logged like any other action (origin ``table``)."""
    game = ctx.live.game
    try:
        action = build_action(game.name, action_type, body.values, game.players, game.mode)
    except FormError as exc:
        raise HTTPException(422, str(exc)) from exc
    try:
        seq, ruling = ctx.live.act(action, origin="table")
    except RefereeError as exc:
        raise HTTPException(400, str(exc)) from exc
    return {"action": action, **_result(seq, ruling)}
