"""Twin It states and actions to and from plain JSON (the record format, see docs/records.md, Twin It)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from referee.errors import InvalidState, MalformedAction
from referee.twinit.types import (
    CAPTURE,
    PILE,
    TABLE,
    Action,
    Capture,
    Claim,
    Deal,
    Empty,
    End,
    Loc,
    Pile,
    Play,
    Refill,
    Reveal,
    Start,
    TableCard,
    Tie,
    Turn,
    TwinItState,
)
from referee.types import JSON

PHASES = ("setup", "play", "minute", "over")


# -- locations -------------------------------------------------------------------------------
def loc_to_json(loc: Loc) -> dict[str, JSON]:
    if loc.kind == CAPTURE:
        return {CAPTURE: [loc.key, loc.index]}
    return {loc.kind: loc.key}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Reader:
    """Reads one action object, quoting it whole in every error."""

    def __init__(self, obj: Mapping[str, Any], players: Sequence[str]) -> None:
        self.obj = obj
        self.players = players

    def fail(self, what: str) -> MalformedAction:
        return MalformedAction(f"Twin It action {dict(self.obj)!r}: {what}")

    def get(self, key: str) -> Any:
        if key not in self.obj:
            raise self.fail(f"lacks {key!r}")
        return self.obj[key]

    def seat(self, value: Any, what: str) -> int:
        if _is_int(value) and 0 <= value < len(self.players):
            return value
        if isinstance(value, str) and value in self.players:
            return list(self.players).index(value)
        raise self.fail(
            f"{what} {value!r} is not a player: expected a seat 0..{len(self.players) - 1}"
            f" or one of {list(self.players)!r}"
        )

    def face(self, value: Any, what: str = "face") -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"{what} {value!r} is not a face identity (a non-empty string)")
        return value

    def face_or_none(self, value: Any, what: str) -> str | None:
        return None if value is None else self.face(value, what)

    def faces_of(self, count: int) -> tuple[str | None, ...] | None:
        """The optional ``faces`` field: one face (or null) per covered card."""
        value = self.obj.get("faces")
        if value is None:
            return None
        if not isinstance(value, list) or len(value) != count:
            raise self.fail(f"faces {value!r} is not one face (or null) per card ({count})")
        return tuple(self.face_or_none(v, "face") for v in value)

    def seats(self, key: str) -> tuple[int, ...]:
        value = self.obj.get(key, [])
        if not isinstance(value, list):
            raise self.fail(f"{key} {value!r} is not a list of players")
        return tuple(self.seat(v, key) for v in value)

    def loc(self, value: Any) -> Loc:
        if not isinstance(value, Mapping) or len(value) != 1:
            raise self.fail(
                f"card {value!r} is not a location: expected {{'table': id}}, {{'pile': player}}"
                " or {'capture': [player, index]}"
            )
        ((kind, key),) = value.items()
        if kind == TABLE:
            if not _is_int(key) or key < 0:
                raise self.fail(f"table card id {key!r} is not a non-negative integer")
            return Loc(TABLE, key)
        if kind == PILE:
            return Loc(PILE, self.seat(key, "pile owner"))
        if kind == CAPTURE:
            if not isinstance(key, list) or len(key) != 2 or not _is_int(key[1]) or key[1] < 0:
                raise self.fail(f"capture {key!r} is not [player, index]")
            return Loc(CAPTURE, self.seat(key[0], "capture holder"), key[1])
        raise self.fail(f"card location kind {kind!r} is not one of 'table', 'pile', 'capture'")


def parse_action(obj: Mapping[str, Any], players: Sequence[str]) -> Action:
    """The action in ``obj``; raises :class:`MalformedAction` quoting it."""
    if not isinstance(obj, Mapping):
        raise MalformedAction(f"Twin It action {obj!r} is not a JSON object")
    r = _Reader(obj, players)
    kind = r.get("type")
    if kind == "deal":
        piles = r.get("piles")
        if not isinstance(piles, list) or not all(_is_int(n) and n >= 0 for n in piles):
            raise r.fail(f"piles {piles!r} is not a list of pile sizes")
        if len(piles) != len(players):
            raise r.fail(f"piles has {len(piles)} sizes for {len(players)} players")
        tops = obj.get("tops")
        if tops is not None:
            if not isinstance(tops, list) or len(tops) != len(players):
                raise r.fail(f"tops {tops!r} is not one face (or null) per player")
            tops = tuple(r.face_or_none(t, "top") for t in tops)
        taboo = obj.get("taboo", [])
        if not isinstance(taboo, list):
            raise r.fail(f"taboo {taboo!r} is not a list of faces")
        return Deal(
            tuple(piles), r.seat(r.get("first"), "first"), tops, tuple(r.face(t, "taboo") for t in taboo)
        )
    if kind == "start":
        faces = obj.get("faces")
        if faces is not None:
            if not isinstance(faces, list):
                raise r.fail(f"faces {faces!r} is not a list of faces (or nulls)")
            faces = tuple(r.face_or_none(f, "face") for f in faces)
        return Start(faces)
    if kind == "reveal":
        has_player, has_card = "player" in obj, "card" in obj
        if has_player == has_card:
            raise r.fail("a reveal names either 'player' (a pile top) or 'card' (a table card)")
        loc = r.loc({PILE: obj["player"]} if has_player else {TABLE: obj["card"]})
        return Reveal(loc, r.face(r.get("face")))
    if kind == "play":
        top = r.face_or_none(obj.get("top"), "top")
        return Play(r.seat(r.get("player"), "player"), r.face(r.get("face")), top)
    if kind == "claim":
        cards_raw = r.get("cards")
        if not isinstance(cards_raw, list) or not cards_raw:
            raise r.fail(f"cards {cards_raw!r} is not a list of card locations")
        cards = tuple(r.loc(c) for c in cards_raw)
        if ("player" in obj) == ("players" in obj):
            raise r.fail("a claim names either 'player' (one player's hands) or 'players' (one per card)")
        if "player" in obj:
            players_ = (r.seat(obj["player"], "player"),) * len(cards)
        else:
            players_ = r.seats("players")
            if len(players_) != len(cards):
                raise r.fail(f"players has {len(players_)} entries for {len(cards)} cards")
        forfeit = None
        if obj.get("forfeit") is not None:
            forfeit = r.loc({CAPTURE: obj["forfeit"]})
        at = obj.get("at")
        if at is not None:
            if isinstance(at, bool) or not isinstance(at, int | float) or not 0 <= at < math.inf:
                raise r.fail(f"at {at!r} is not a non-negative number of seconds")
            at = float(at)
        return Claim(players_, cards, r.seats("beaten"), forfeit, at, r.faces_of(len(cards)))
    if kind == "tie":
        r.get("players")
        players_ = r.seats("players")
        cards_raw = r.get("cards")
        if len(players_) != 2 or not isinstance(cards_raw, list) or len(cards_raw) != 2:
            raise r.fail("a tie names two players and two cards")
        return Tie((players_[0], players_[1]), (r.loc(cards_raw[0]), r.loc(cards_raw[1])), r.faces_of(2))
    if kind == "end":
        return End()
    if kind == "turn":
        return Turn(r.seat(r.get("player"), "player"))
    if kind == "empty":
        return Empty(r.seat(r.get("player"), "player"))
    if kind == "refill":
        return Refill(r.seat(r.get("player"), "player"), r.face(r.get("face")))
    raise r.fail(
        f"unknown type {kind!r}: expected deal, start, reveal, play, claim, tie, end, turn, empty or refill"
    )


def action_to_json(action: Action) -> dict[str, JSON]:
    """One record line's object for ``action``."""
    if isinstance(action, Deal):
        out: dict[str, JSON] = {"type": "deal", "piles": list(action.piles), "first": action.first}
        if action.tops is not None:
            out["tops"] = list(action.tops)
        if action.taboo:
            out["taboo"] = list(action.taboo)
        return out
    if isinstance(action, Start):
        return {"type": "start"} if action.faces is None else {"type": "start", "faces": list(action.faces)}
    if isinstance(action, Reveal):
        key = "player" if action.loc.kind == PILE else "card"
        return {"type": "reveal", key: action.loc.key, "face": action.face}
    if isinstance(action, Play):
        out = {"type": "play", "player": action.player, "face": action.face}
        if action.top is not None:
            out["top"] = action.top
        return out
    if isinstance(action, Claim):
        out = {"type": "claim"}
        if len(set(action.players)) == 1:
            out["player"] = action.players[0]
        else:
            out["players"] = list(action.players)
        out["cards"] = [loc_to_json(c) for c in action.cards]
        if action.beaten:
            out["beaten"] = list(action.beaten)
        if action.forfeit is not None:
            out["forfeit"] = [action.forfeit.key, action.forfeit.index]
        if action.at is not None:
            out["at"] = action.at
        if action.faces is not None:
            out["faces"] = list(action.faces)
        return out
    if isinstance(action, Tie):
        out = {
            "type": "tie",
            "players": list(action.players),
            "cards": [loc_to_json(c) for c in action.cards],
        }
        if action.faces is not None:
            out["faces"] = list(action.faces)
        return out
    if isinstance(action, End):
        return {"type": "end"}
    if isinstance(action, Turn):
        return {"type": "turn", "player": action.player}
    if isinstance(action, Empty):
        return {"type": "empty", "player": action.player}
    if isinstance(action, Refill):
        return {"type": "refill", "player": action.player, "face": action.face}
    raise TypeError(f"not a Twin It action: {action!r}")


# -- states ----------------------------------------------------------------------------------
def state_to_json(state: TwinItState) -> dict[str, JSON]:
    return {
        "phase": state.phase,
        "piles": [[p.size, p.top] for p in state.piles],
        "table": [[c.id, c.face] for c in state.table],
        "captures": [[[c.motif, c.cards] for c in held] for held in state.captures],
        "turn": state.turn,
        "last_winner": state.last_winner,
        "next_id": state.next_id,
        "taboo": list(state.taboo),
        "aside": state.aside,
        **({"lost": state.lost} if state.lost else {}),
        **({"found": state.found} if state.found else {}),
    }


def state_from_json(obj: Mapping[str, Any]) -> TwinItState:
    """The state in ``obj`` (shape only; the game checks its invariants)."""

    def bad(what: str) -> InvalidState:
        text = repr(dict(obj)) if isinstance(obj, Mapping) else repr(obj)
        return InvalidState(f"Twin It state {text[:200]}: {what}")

    if not isinstance(obj, Mapping):
        raise bad("not a JSON object")
    try:
        phase = obj["phase"]
        if phase not in PHASES:
            raise bad(f"phase {phase!r} is not one of {PHASES}")
        # Built first, then type-checked in one pass each (the hot path of replays and tests).
        piles = tuple(Pile(s, t) for s, t in obj["piles"])
        if not all(type(p.size) is int and (p.top is None or type(p.top) is str) for p in piles):
            raise TypeError("a pile is not [size, top face or null]")
        table = tuple(TableCard(i, f) for i, f in obj["table"])
        if not all(type(c.id) is int and (c.face is None or type(c.face) is str) for c in table):
            raise TypeError("a table card is not [id, face or null]")
        captures = tuple(tuple(Capture(m, n) for m, n in held) for held in obj["captures"])
        if not all(type(c.motif) is str and type(c.cards) is int for held in captures for c in held):
            raise TypeError("a capture is not [motif, cards]")
        return TwinItState(
            phase=phase,
            piles=piles,
            table=table,
            captures=captures,
            turn=opt_int(obj["turn"]),
            last_winner=opt_int(obj["last_winner"]),
            next_id=int_(obj["next_id"]),
            taboo=tuple(str_(t) for t in obj["taboo"]),
            aside=int_(obj["aside"]),
            lost=int_(obj.get("lost", 0)),
            found=int_(obj.get("found", 0)),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, InvalidState):
            raise
        raise bad(f"malformed ({exc})") from exc


def int_(value: Any) -> int:
    if not _is_int(value):
        raise TypeError(f"{value!r} is not an integer")
    return value


def opt_int(value: Any) -> int | None:
    return None if value is None else int_(value)


def str_(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not a string")
    return value
