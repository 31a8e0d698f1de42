"""The Mind's example records replay to their end, and a record's bad line names its number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.errors import MalformedRecord
from referee.records import final_state, replay_text

RECORDS = Path(__file__).resolve().parents[2] / "examples" / "records"


@pytest.mark.parametrize("name", ["themind-normal", "themind-blind", "themind-camera"])
def test_example_records_replay_to_their_end(name: str) -> None:
    game, steps = replay_text((RECORDS / f"{name}.jsonl").read_text(encoding="utf-8"))
    state = final_state(game, steps)
    assert game.outcome(state) is not None
    assert not game.check_state(state)
    codes = {s.ruling.reason.code for s in steps}
    assert "star" in codes and ("error" in codes or "blind_count" in codes)


def test_a_card_not_held_stops_the_replay_with_its_line_number() -> None:
    lines = (RECORDS / "themind-normal.jsonl").read_text(encoding="utf-8").splitlines()
    header, deal = lines[0], lines[1]
    held = {c for hand in json.loads(deal)["hands"] for c in hand}
    missing = next(c for c in range(1, 101) if c not in held)
    bad = json.dumps({"type": "play", "player": 0, "card": missing})
    with pytest.raises(MalformedRecord, match=rf"^line 3: illegal action .*does not hold {missing}"):
        replay_text("\n".join([header, deal, bad]))
