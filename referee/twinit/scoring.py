"""Twin It scoreboards and outcomes for every mode."""

from __future__ import annotations

from referee.french import join_en, join_fr
from referee.twinit.cooperative import level_for, points
from referee.twinit.options import COMPETITIVE, COOP_COMPETITIVE, COOPERATIVE, TEAMS, Setup
from referee.twinit.types import TwinItState
from referee.types import JSON, Outcome, Reason


def side_name(setup: Setup, side: tuple[int, ...]) -> str:
    return " + ".join(setup.players[s] for s in side)


def scores(setup: Setup, state: TwinItState) -> dict[str, JSON]:
    names = setup.players
    if setup.mode == COOPERATIVE:
        total = sum(points(held) for held in state.captures)
        level = level_for(setup.opts.levels, total)
        return {
            "points": total,
            "pairs": sum(1 for held in state.captures for c in held if c.cards == 2),
            "triples": sum(1 for held in state.captures for c in held if c.cards == 3),
            "level": {"fr": level.fr, "en": level.en, "min": level.min_points},
        }
    if setup.mode == COOP_COMPETITIVE:
        return {"points": {names[s]: points(held) for s, held in enumerate(state.captures)}}
    out: dict[str, JSON] = {"captures": {names[s]: len(held) for s, held in enumerate(state.captures)}}
    if setup.mode == TEAMS:
        out["teams"] = {side_name(setup, t): sum(len(state.captures[s]) for s in t) for t in setup.opts.teams}
    if setup.mode == COMPETITIVE and setup.opts.taboo_player is not None:
        out["taboo"] = {"player": names[setup.opts.taboo_player], "motifs": list(state.taboo)}
    out["turn"] = None if state.turn is None or state.phase == "over" else names[state.turn]
    return out


def outcome(setup: Setup, state: TwinItState) -> Outcome | None:
    if state.phase != "over":
        return None
    if setup.mode == COOPERATIVE:
        total = sum(points(held) for held in state.captures)
        level = level_for(setup.opts.levels, total)
        return Outcome(
            tuple(range(setup.n)),
            Reason(
                "minute_score",
                f"{total} point{'s' if total > 1 else ''} together: level {level.en} ({level.fr}).",
                f"{total} point{'s' if total > 1 else ''} ensemble : niveau « {level.fr} ».",
            ),
        )
    if setup.mode == COOP_COMPETITIVE:
        by_seat = [points(held) for held in state.captures]
        return _most(setup, [(s,) for s in range(setup.n)], by_seat, "point", "point")
    sides = list(setup.sides())
    totals = [sum(len(state.captures[s]) for s in side) for side in sides]
    target = setup.opts.target
    for side, total in zip(sides, totals, strict=True):
        if total >= target:
            who = side_name(setup, side)
            en, fr = (
                ("win", "atteignent {} prises et gagnent")
                if len(side) > 1
                else ("wins", "atteint {} prises et gagne")
            )
            return Outcome(
                side,
                Reason(
                    "five_captures",
                    f"{who} reached {target} captures and {en}.",
                    f"{who} {fr.format(target)}.",
                ),
            )
    return _most(setup, sides, totals, "capture", "prise")


def _most(
    setup: Setup, sides: list[tuple[int, ...]], totals: list[int], en_unit: str, fr_unit: str
) -> Outcome:
    """The side(s) with the most ``en_unit`` (singular; "s" is added for several) win."""
    best = max(totals)
    if best == 0:
        return Outcome(
            (), Reason("draw", f"No {en_unit}s: a draw.", f"Personne n'a de {fr_unit}s : égalité."), draw=True
        )
    if best > 1:
        en_unit, fr_unit = en_unit + "s", fr_unit + "s"
    top = [side_name(setup, side) for side, t in zip(sides, totals, strict=True) if t == best]
    winners = tuple(sorted(s for side, t in zip(sides, totals, strict=True) if t == best for s in side))
    if len(top) > 1:
        en = f"{join_en(top)} share the win with {best} {en_unit} each."
        fr = f"{join_fr(top)} gagnent ex aequo avec {best} {fr_unit} chacun."
    else:
        en = f"{top[0]} {'win' if len(winners) > 1 else 'wins'} with {best} {en_unit}."
        fr = f"{top[0]} {'gagnent' if len(winners) > 1 else 'gagne'} avec {best} {fr_unit}."
    return Outcome(winners, Reason("most", en, fr))
