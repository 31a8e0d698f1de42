"""``tableref render``: an image and its truth, a scenario's frames, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from web.cli import main


def test_render_writes_an_image_and_its_truth(tmp_path: Path) -> None:
    out, truth = tmp_path / "scene.png", tmp_path / "scene.json"
    rc = main(
        [
            "render",
            "--seed",
            "4",
            "--deck",
            "lineit",
            "--layout",
            "rows",
            "--hands",
            "1",
            "--width",
            "640",
            "--height",
            "360",
            "--out",
            str(out),
            "--truth",
            str(truth),
        ]
    )
    assert rc == 0
    img = cv2.imread(str(out))
    assert img.shape == (360, 640, 3)
    data = json.loads(truth.read_text())
    assert data["width"] == 640 and len(data["hands"]) == 1
    assert data["cards"] and all(c["identity"].startswith("lineit:") for c in data["cards"])
    assert all(len(c["quad"]) == 4 for c in data["cards"])


def test_render_scenario_to_a_folder(tmp_path: Path) -> None:
    frames, truth = tmp_path / "frames", tmp_path / "demo.json"
    rc = main(
        [
            "render",
            "--scenario",
            "twinit_demo",
            "--seed",
            "1",
            "--width",
            "480",
            "--height",
            "270",
            "--video",
            str(frames),
            "--start",
            "5",
            "--end",
            "5.5",
            "--fps",
            "4",
            "--truth",
            str(truth),
        ]
    )
    assert rc == 0
    assert sorted(p.name for p in frames.glob("*.jpg")) == [f"frame_0000{i}.jpg" for i in range(3)]
    lines = (frames / "truth.jsonl").read_text().splitlines()
    assert [json.loads(line)["time"] for line in lines] == [5.0, 5.25, 5.5]
    scenario = json.loads(truth.read_text())
    assert scenario["actions"][0]["action"]["type"] == "deal"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--out", "/no/such/folder/x.png"], "cannot write image"),
        (["--out", "scene.gif"], "expected a .png"),
        (["--hands", "9"], "--hands 9"),
        (["--width", "10"], "size 10x720"),
        (["--video", "x.mp4"], "--video needs --scenario"),
        (["--scenario", "twinit_demo", "--players", "7"], "--players 7"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["render", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


def test_render_scenario_to_a_video(tmp_path: Path) -> None:
    video = tmp_path / "demo.mp4"
    rc = main(["render", "--scenario", "twixt_demo", "--width", "320", "--height", "180",
               "--video", str(video), "--start", "1", "--end", "2", "--fps", "3"])  # fmt: skip
    assert rc == 0
    cap = cv2.VideoCapture(str(video))
    frames = 0
    while cap.read()[0]:
        frames += 1
    cap.release()
    assert frames == 4
    lines = video.with_suffix(".jsonl").read_text().splitlines()
    assert len(lines) == 4 and json.loads(lines[0])["board"]["kind"] == "twixt"
