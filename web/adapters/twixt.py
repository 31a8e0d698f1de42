"""Twixt: a new peg (and its links) read on the board is a move; a change no legal move explains
is held back as uncertain. The board's corners can be clicked on the live image."""

from __future__ import annotations

from typing import Any

from referee.twixt.notation import parse_hole, parse_link
from vision.observation import TableObservation
from web.adapters.base import GameAdapter, row
from web.live_game import LiveGame
from web.settings import Settings


class TwixtAdapter(GameAdapter):
    def __init__(self, live: LiveGame, settings: Settings, vision: Any = None) -> None:
        super().__init__(live, settings)
        self.vision = vision
        self.board_status = ""

    def observe(self, obs: TableObservation, frame: Any) -> None:
        event = obs.board
        self.board_status = str(obs.extras.get("board_problem", ""))
        if event is None:
            return
        if event.kind == "move":
            for action in event.actions:
                self.propose(action)
        elif event.kind == "uncertain":
            self.hold({"type": "peg"}, event.reason, event.reason)

    def check_correction(self, fact: dict[str, Any]) -> str | None:
        if fact.get("kind") == "board_corners":
            return None if self.vision is not None else "this session reads no board"
        if fact.get("kind") == "peg":
            try:
                parse_hole(fact.get("hole"))
            except ValueError as exc:
                return str(exc)
            return None
        return f"a Twixt correction is board_corners or peg, not {fact.get('kind')!r}"

    def correct(self, fact: dict[str, Any]) -> None:
        if fact.get("kind") == "board_corners" and self.vision is not None:
            self.vision.set_corners(fact["points"])
        elif fact.get("kind") == "peg":
            state = self.live.snapshot_state()
            turn = int(state.get("turn") or 0)
            seat = 1 - turn if state.get("placed") else turn  # once placed, the next peg is the other's
            self.propose({"type": "peg", "player": seat, "at": str(fact["hole"]).upper()})

    def overlay(self, obs: TableObservation) -> dict[str, Any]:
        if self.vision is None:
            return {}
        return {"lattice": self.vision.lattice()}

    def panel(self) -> dict[str, Any]:
        out = super().panel()
        state = self.live.snapshot_state()
        colours = list(self.live.game.config.options.get("colours") or ["#c62828", "#111111"])
        size = int(self.live.game.config.options.get("size", 24))
        pegs, links = [], []
        for seat, holes in enumerate(state.get("pegs", [])):
            for name in holes:
                col, r = parse_hole(name)
                pegs.append({"col": col, "row": r, "color": colours[self._colour(seat, state)]})
        for seat, names in enumerate(state.get("links", [])):
            for name in names:
                a, b = parse_link(name)
                links.append({"a": list(a), "b": list(b), "color": colours[self._colour(seat, state)]})
        last = list(parse_hole(state["last"])) if state.get("last") else None
        out["board"] = {"size": size, "pegs": pegs, "links": links, "last": last, "colors": colours}
        return out

    @staticmethod
    def _colour(seat: int, state: dict[str, Any]) -> int:
        """After the pie rule's swap the seats have exchanged colours."""
        return seat ^ 1 if state.get("swapped") else seat

    def panel_rows(self) -> list[dict[str, Any]]:
        state = self.live.snapshot_state()
        scores = self.live.game.scores(self.live.state)
        rows = []
        for p in scores.get("players", []):
            rows.append(
                row(
                    f"{p['name']} ({p['colour']})",
                    f"{p['name']} ({p['colour']})",
                    f"{p['pegs']} pegs, {p['links']} links",
                )
            )
        moves = [e["action"] for e in self.live.entries if e.get("kind") == "action" and not e.get("undone")]
        pegs = [a.get("at") for a in moves if a.get("type") == "peg"]
        rows.append(row("Moves", "Coups", " ".join(pegs[-12:]) or "-"))
        rows.append(row("Last move", "Dernier coup", state.get("last") or "-"))
        if state.get("winner") is not None:
            rows.append(row("Winner", "Gagnant", self.live.game.players[int(state["winner"])]))
        if self.board_status:
            rows.append(row("Board", "Plateau", self.board_status))
        return rows


def make_adapter(live: LiveGame, settings: Settings, vision: Any = None) -> TwixtAdapter:
    return TwixtAdapter(live, settings, vision)
