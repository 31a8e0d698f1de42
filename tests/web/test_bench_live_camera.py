"""The live bench's camera: the scenario rendered beforehand to JPEG, played as a webcam's MJPEG."""

from pathlib import Path

import cv2
import numpy as np

from web.capture import PlayedFrame, played_source, prerender


def _frames(folder: Path, times: list[float]) -> list[PlayedFrame]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for k, t in enumerate(times):
        image = np.full((48, 64, 3), 40 * k, np.uint8)
        path = folder / f"{k}.jpg"
        path.write_bytes(cv2.imencode(".jpg", image)[1].tobytes())
        out.append(PlayedFrame(t, path, (f"event {k}",)))
    return out


def test_played_frames_come_at_their_time_decoded_with_their_truth(tmp_path: Path) -> None:
    frames = _frames(tmp_path, [0.0, 0.05, 0.1])
    truths: list[tuple[float, float, tuple]] = []
    got = []
    for t, image in played_source(frames, lambda t, mono, truth: truths.append((t, mono, truth.events)))():
        got.append((t, image))
    assert [t for t, _ in got] == [0.0, 0.05, 0.1]
    assert [int(image.mean()) for _, image in got] == [0, 40, 80]
    assert all(image.shape == (48, 64, 3) and image.dtype == np.uint8 for _, image in got)
    assert [(t, ev) for t, _, ev in truths] == [
        (0.0, ("event 0",)),
        (0.05, ("event 1",)),
        (0.1, ("event 2",)),
    ]
    start = truths[0][1]
    # each frame's capture clock is at or after its time on the player's clock (real time)
    assert all(mono - start >= t - 0.01 for t, mono, _ in truths)
    assert truths[-1][1] - start >= 0.09


def test_a_player_behind_goes_on_from_the_newest_frame_due(tmp_path: Path) -> None:
    frames = _frames(tmp_path, [0.0, 0.1, 0.2, 0.3, 0.4])
    now = [100.0]

    def clock() -> float:
        return now[0]

    source = played_source(frames, clock=clock)()
    t0, _ = next(source)
    now[0] += 0.33  # the consumer took 330 ms on frame 0: frames 1 and 2 are gone, 3 is due
    t1, image = next(source)
    now[0] += 0.1
    t2, _ = next(source)
    assert (t0, t1, t2) == (0.0, 0.3, 0.4)
    assert int(image.mean()) == 120


def test_prerendered_frames_are_the_scenarios_frames_at_k_over_fps_and_are_kept(tmp_path: Path) -> None:
    import pickle

    from web.demo_session import load_scenario

    fps = 0.05  # 6 frames over the demo's 103 s
    frames, cached = prerender("twinit", 0, fps, tmp_path, workers=2)
    assert not cached
    scenario = load_scenario("twinit", 0)
    assert [f.t for f in frames] == [k / fps for k in range(int(scenario.duration * fps) + 1)]
    for frame in frames[2:4]:
        image, truth = scenario.render_at(frame.t)
        decoded = cv2.imdecode(np.frombuffer(frame.path.read_bytes(), np.uint8), cv2.IMREAD_COLOR)
        assert decoded.shape == image.shape
        assert np.abs(decoded.astype(np.int16) - image).mean() < 3.0  # JPEG at q95
        assert frame.events == tuple(truth.events)
    (folder,) = [p for p in tmp_path.iterdir()]
    assert folder.name.startswith("twinit-seed0-0.05fps-q95-")
    # found again: the same frames, checked against the renderer (its middle frame rendered anew)
    again, cached = prerender("twinit", 0, fps, tmp_path)
    assert cached and again == frames
    # a folder whose checksum is not the renderer's frame is rendered again
    index = folder / "index.pkl"
    meta = pickle.loads(index.read_bytes())
    t, events, crc = meta["frames"][len(frames) // 2]
    meta["frames"][len(frames) // 2] = (t, events, crc ^ 1)
    index.write_bytes(pickle.dumps(meta))
    third, cached = prerender("twinit", 0, fps, tmp_path, workers=1)
    assert not cached and third == frames
    assert pickle.loads(index.read_bytes())["frames"][len(frames) // 2][2] == crc


def test_chained_scenarios_play_their_frames_rendered_beforehand(tmp_path: Path) -> None:
    from web.demo_session import chained_source

    first = _frames(tmp_path / "a", [0.0, 0.05])
    second = _frames(tmp_path / "b", [0.0, 0.05, 0.1])

    class NoRender:
        def render_at(self, t: float) -> None:
            raise AssertionError("a scenario played from its frames is not rendered")

    truths: list[float] = []
    source = chained_source(
        lambda: iter([NoRender(), NoRender()]),
        20.0,
        lambda t, mono, truth: truths.append(t),
        1.0,
        [first, second],
    )
    got = [(round(t, 3), int(image.mean())) for t, image in source()]
    # the second scenario's times go on after the first's last frame and one frame period
    assert got == [(0.0, 0), (0.05, 40), (0.1, 0), (0.15, 40), (0.2, 80)]
    assert truths == [0.0, 0.05, 0.0, 0.05, 0.1]


def test_the_bench_knows_its_cameras() -> None:
    import pytest

    from web.bench import live

    with pytest.raises(ValueError, match="camera 'webcam'"):
        live.run(quick=True, seed=0, camera="webcam")
