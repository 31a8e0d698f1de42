"""``serve``/``demo --deck DIR``: Twin It judged against an enrolled deck; bad decks refused with one
line and exit code 2, before anything is built."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from calibration.deck import EnrolledDeck
from calibration.enroll import enroll
from models.training.augment import AugmentConfig, camera_crop
from vision.identity import PatternJudge, enrolled
from vision.identity import render_decks as rd
from vision.identity.enrolled import ClosedSetRule, EnrolledJudge
from web.app import build_context, create_app
from web.cli import main
from web.enrolled_twinit import HEAD_ROWS, bounded_judge
from web.settings import Settings
from web.wiring import collaborators_for

ROUGH = AugmentConfig(min_px=50, max_px=70)
CLEAN = AugmentConfig(min_px=110, max_px=120, light=0.2, corner_jitter=0.01)
PATTERNS = 6


def _faces() -> rd.RenderedTwinItDeck:
    return rd.twinit_decks(rd.TWINIT_BENCH_SEEDS[:1], rd.TWINIT_BENCH_STYLES)[0]


def _crop(faces: rd.RenderedTwinItDeck, k: int, rng: np.random.Generator, cfg: AugmentConfig) -> np.ndarray:
    return camera_crop(rd.shrink(faces.image(faces.patterns[k]), 220), rng, cfg)


@pytest.fixture(scope="module")
def tiny_deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six rendered faces enrolled from clean crops (as ``tableref enroll --folder`` does)."""
    folder = tmp_path_factory.mktemp("enrolled") / "deck-twinit"
    faces, rng = _faces(), np.random.default_rng(3)
    crops = {f"c{k}": _crop(faces, k, rng, CLEAN) for k in range(PATTERNS)}
    enroll(EnrolledDeck.create(folder, "twinit"), crops, judge=PatternJudge())
    return folder


def _rough_pair() -> tuple[np.ndarray, np.ndarray]:
    """Two rough camera crops of one face (pattern 5): the pair judge alone leaves them uncertain."""
    faces, rng = _faces(), np.random.default_rng(2)
    return _crop(faces, 5, rng, ROUGH), _crop(faces, 5, rng, ROUGH)


def _context(tmp_path: Path, deck: Path | None):
    settings = Settings(
        game="twinit", mode="competitive", options={"cards": 10}, data_dir=tmp_path, deck=deck, resume=False
    )
    process, factory = collaborators_for(settings)
    return build_context(settings, None, process, factory)


def _rule(judge: PatternJudge, folder: Path | None = None) -> ClosedSetRule:
    """A closed-set rule of its own (the calibrated one may be missing or change): a crop matching
    its group at 0.5 or more, by a logit margin of 2 over any other group."""
    return ClosedSetRule(merge_at=judge.same_at, p_floor=0.5, same_margin=2.0, different_margin=2.0)


def test_serve_with_a_deck_judges_slaps_against_it(
    tmp_path: Path, tiny_deck: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(enrolled, "load_rule", _rule)
    a, b = _rough_pair()
    plain = PatternJudge()
    assert plain.compare(a, b).p_same < plain.same_at  # the pair judge alone cannot call it

    with_deck = _context(tmp_path / "with", tiny_deck)
    adapter = with_deck.session.adapter
    assert isinstance(adapter.matcher.judge, EnrolledJudge)
    assert adapter.matcher.judge.deck.folder == tiny_deck
    sa, sb = adapter.matcher.signatures([a, b])
    expected = EnrolledJudge(PatternJudge(), EnrolledDeck.load(tiny_deck)).compare(a, b).p_same
    assert adapter.matcher.p_same_many([(sa, sb)]) == [pytest.approx(expected, abs=1e-6)]
    assert expected >= adapter.sure  # the deck settles it: both crops match face 5's reference
    labels = adapter.labels_for([a, b])
    assert labels[0] == labels[1]  # one face

    without = _context(tmp_path / "without", None).session.adapter
    assert not isinstance(without.matcher.judge, EnrolledJudge)
    labels = without.labels_for([a, b])
    assert labels[0] != labels[1]  # two faces: the views' p(same) is below the "same" threshold


def _panel(ctx) -> list[dict]:
    with TestClient(create_app(ctx, start_session=False)) as client:
        return client.get("/api/state").json()["panel"]["rows"]


def test_the_page_says_the_game_runs_with_an_enrolled_deck(
    tmp_path: Path, tiny_deck: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(enrolled, "load_rule", _rule)
    assert _panel(_context(tmp_path / "with", tiny_deck))[0] == {
        "en": "Deck",
        "fr": "Jeu",
        "value": f"enrolled, {PATTERNS} cards",
        "value_fr": f"enregistré, {PATTERNS} cartes",
    }
    monkeypatch.setattr(enrolled, "load_rule", lambda judge, folder=None: None)  # no calibrated rule
    row = _panel(_context(tmp_path / "unruled", tiny_deck))[0]
    assert row["value"] == f"enrolled, {PATTERNS} cards (not used)"
    assert row["value_fr"] == f"enregistré, {PATTERNS} cartes (pas utilisé)"
    assert all(r["en"] != "Deck" for r in _panel(_context(tmp_path / "without", None)))


class Counted:
    """An inference session whose calls are counted (rows of the first input of each)."""

    def __init__(self, session: Any, rows: list[int]) -> None:
        self.session, self.rows = session, rows

    def run(self, out: Any, feeds: dict[str, np.ndarray]) -> Any:
        self.rows.append(len(next(iter(feeds.values()))))
        return self.session.run(out, feeds)


def test_the_enrolled_judge_runs_its_networks_in_small_batches(tiny_deck: Path) -> None:
    """Loading a deck and judging many pairs never runs more than 4 crops or HEAD_ROWS head rows a
    call (the runtime would keep memory for the largest batch for good), with the same values."""
    judge = bounded_judge()
    rows: dict[str, list[int]] = {"embed": [], "head": []}
    for name, seen in rows.items():
        setattr(judge, f"_{name}", Counted(getattr(judge, f"_{name}"), seen))
    deck = EnrolledDeck.load(tiny_deck)
    deck.groups = None  # made again: every reference signed and every pair scored
    helped = EnrolledJudge(judge, deck)
    assert max(rows["embed"]) <= 4 * 4 < PATTERNS * 4  # 4 crops of 4 turns, where one call took all 6
    sigs = helped.refs
    pairs = [(sigs[i], sigs[j]) for i in range(PATTERNS) for j in range(PATTERNS)]
    bounded = judge.p_same_many(pairs)
    assert max(rows["head"]) <= HEAD_ROWS < len(pairs) * 4
    np.testing.assert_allclose(bounded, PatternJudge().p_same_many(pairs), atol=1e-6)


def _bad_deck(kind: str, base: Path) -> Path:
    """A ``--deck`` folder that is missing, holds no enrolled deck, or holds a Trio deck."""
    folder = base / kind
    if kind != "missing":
        folder.mkdir(parents=True)
    if kind == "trio-deck":
        (folder / "deck.json").write_text(json.dumps({"deck": "trio", "cards": {}}))
    return folder


@pytest.mark.parametrize("command", ["serve", "demo"])
@pytest.mark.parametrize(
    ("kind", "says"),
    [
        ("missing", "no such folder"),
        ("not-a-deck", "no deck.json in it"),
        ("trio-deck", "holds a 'trio' deck"),
    ],
)
def test_a_bad_deck_is_refused_with_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, kind: str, says: str
) -> None:
    deck = _bad_deck(kind, tmp_path / "decks")
    data = tmp_path / "data"
    code = main([command, "--deck", str(deck), "--data", str(data), "--no-browser", "--port", "0"])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err.count("\n") == 0 and says in err and str(deck) in err, err
    assert "expected an enrolled Twin It deck" in err
    assert not data.exists()  # nothing built, no event store


@pytest.mark.parametrize(("command", "game"), [("serve", "trio"), ("demo", "twixt")])
def test_a_deck_for_another_game_is_refused(
    tmp_path: Path, tiny_deck: Path, capsys: pytest.CaptureFixture[str], command: str, game: str
) -> None:
    data = tmp_path / "data"
    argv = [command, "--game", game, "--deck", str(tiny_deck), "--data", str(data), "--no-browser"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"only Twin It is judged with an enrolled deck, not {game!r}" in err
    assert not data.exists()


def test_enrolled_is_the_live_bench_s_option_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "cards", "--quick", "--enrolled"]) == 2
    assert "--enrolled: only the live bench enrols a deck" in capsys.readouterr().err
