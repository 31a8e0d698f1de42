"""The Twixt state's JSON form: pegs and links by colour in notation (``"D11"``, ``"D11-E13"``).

{"pegs": [["D11", "E13"], ["K4"]], "links": [["D11-E13"], []], "turn": 0, "placed": true,
 "swapped": false, "last": "E13", "result": null, "winner": null}
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.twixt.geometry import Board
from referee.twixt.notation import parse_hole, parse_link
from referee.twixt.state import TwixtState
from referee.types import JSON


def state_to_json(board: Board, state: TwixtState) -> dict[str, JSON]:
    """``state`` as plain JSON; pegs and links sorted by id."""
    return {
        "pegs": [[board.names[h] for h in sorted(p)] for p in state.pegs],
        "links": [[board.link_names[lid] for lid in sorted(ls)] for ls in state.links],
        "turn": state.turn,
        "placed": state.placed,
        "swapped": state.swapped,
        "last": None if state.last is None else board.names[state.last],
        "result": state.result,
        "winner": state.winner,
    }


def read_state(board: Board, obj: Mapping[str, JSON]) -> TwixtState:
    """The state written in ``obj``, its fields type-checked and its holes and links on ``board``.

    Raises ``ValueError``, ``KeyError`` or a :class:`~referee.errors.RefereeError` on a malformed
    field; whether the position is sound is :meth:`TwixtGame.check_state`'s job.
    """
    if not isinstance(obj, Mapping):
        raise ValueError("not a JSON object")

    def hole_id(text: object) -> int:
        if isinstance(text, str) and text in board.ids:
            return board.ids[text]
        h = board.hole_id(parse_hole(text))
        if h is None:
            raise ValueError(f"hole {text!r} is not on the {board.size} x {board.size} board")
        return h

    def link_id(text: object) -> int:
        if isinstance(text, str) and text in board.link_ids:
            return board.link_ids[text]
        a, c = parse_link(text)
        ha, hc = board.hole_id(a), board.hole_id(c)
        lid = None if ha is None or hc is None else board.link_id(ha, hc)
        if lid is None:
            raise ValueError(f"link {text!r} is not a knight's move on the board")
        return lid

    pegs = obj["pegs"]
    links = obj["links"]
    if not (isinstance(pegs, list) and len(pegs) == 2 and isinstance(links, list) and len(links) == 2):
        raise ValueError("pegs and links must be two lists, one per colour")
    if not all(isinstance(x, list) for x in (*pegs, *links)):
        raise ValueError("each colour's pegs and links must be a list")
    for key in ("turn", "winner"):
        if obj.get(key) is not None and (isinstance(obj[key], bool) or not isinstance(obj[key], int)):
            raise ValueError(f"{key} {obj[key]!r} is not a seat")
    for key in ("placed", "swapped"):
        if not isinstance(obj[key], bool):
            raise ValueError(f"{key} {obj[key]!r} is not true or false")
    result = obj.get("result")
    if result is not None and not isinstance(result, str):
        raise ValueError(f"result {result!r} is not a string")
    last = obj.get("last")
    return TwixtState(
        pegs=(frozenset(map(hole_id, pegs[0])), frozenset(map(hole_id, pegs[1]))),
        links=(frozenset(map(link_id, links[0])), frozenset(map(link_id, links[1]))),
        turn=obj["turn"],
        placed=obj["placed"],
        swapped=obj["swapped"],
        last=None if last is None else hole_id(last),
        result=result,
        winner=obj.get("winner"),
    )
