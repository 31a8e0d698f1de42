"""``tableref replay`` on every example record, and its one-line errors (exit code 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from web.cli import main

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples" / "records").glob("*"))


def test_there_are_example_records_for_every_game() -> None:
    from referee.registry import game_names

    stems = {p.name.split("-")[0].split(".")[0].lower() for p in EXAMPLES}
    assert set(game_names()) <= stems, f"missing examples for {set(game_names()) - stems}"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_record_replays(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--json", str(path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines and lines[-1]["final"] is True
    assert all("ruling" in line for line in lines[:-1])


def test_replay_prints_rulings_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in EXAMPLES if p.name.startswith("lineit"))
    assert main(["replay", "--lang", "fr", str(path)]) == 0
    out = capsys.readouterr().out
    assert "le marché est constitué" in out and out.splitlines()[-1].startswith("outcome:")


def bad_record(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


HEADER = json.dumps(
    {"record": "tableref", "version": 1, "game": "lineit", "players": ["A", "B"], "mode": "standard"}
)


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ([HEADER, "{not json"], "line 2: not JSON"),
        (
            [HEADER, json.dumps({"type": "take", "player": 0, "card": "1:heart", "to": "line"})],
            "line 2: illegal",
        ),
        ([HEADER, json.dumps({"type": "juggle"})], "line 2: unknown Line-it action"),
        ([json.dumps({"game": "lineit"})], "line 1: not a tableref record header"),
        ([HEADER.replace('"lineit"', '"chess"')], "line 1: unknown game 'chess'"),
    ],
)
def test_a_bad_line_stops_the_replay_with_exit_2_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str], expected: str
) -> None:
    assert main(["replay", str(bad_record(tmp_path, lines))]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and expected in err, err


def test_a_missing_record_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    err = capsys.readouterr().err.strip()
    assert "nope.jsonl" in err and len(err.splitlines()) == 1
