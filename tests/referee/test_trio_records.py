"""Trio's example records replay to their end, and a record's bad line names its number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.errors import MalformedRecord
from referee.records import final_state, replay_text

RECORDS = Path(__file__).resolve().parents[2] / "examples" / "records"


@pytest.mark.parametrize("name", ["trio-simple", "trio-picante", "trio-teams", "trio-camera"])
def test_example_records_replay_to_a_win(name: str) -> None:
    game, steps = replay_text((RECORDS / f"{name}.jsonl").read_text(encoding="utf-8"))
    state = final_state(game, steps)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners
    assert steps[-1].ruling.reason.code == "trio_wins"
    assert not game.check_state(state)


def test_an_illegal_line_stops_the_replay_with_its_number() -> None:
    text = (RECORDS / "trio-simple.jsonl").read_text(encoding="utf-8").splitlines()
    # The third line is the first reveal; the same reveal by somebody else is out of turn.
    header, deal, first, *_ = text
    player = json.loads(first)["player"]
    wrong = {**json.loads(first), "player": (player + 1) % 3}
    with pytest.raises(MalformedRecord, match=r"^line 3: illegal action .*turn"):
        replay_text("\n".join([header, deal, json.dumps(wrong)]))
