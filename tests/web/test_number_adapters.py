"""The Mind, Trio and Line-it adapters on hand-built observations: plays from the hand that laid a
card, reads held back when unsure, corrections, and each game's panel."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from referee.registry import make_game
from tests.web.tableobs import Captured, card, hand_on, obs
from web.adapters.lineit import LineItAdapter
from web.adapters.themind import TheMindAdapter
from web.adapters.trio import TrioAdapter
from web.live_game import LiveGame
from web.settings import Settings
from web.store import EventStore


def live_for(tmp_path: Path, game: str, players=("Ana", "Ben"), **options) -> tuple[LiveGame, Settings]:
    settings = Settings(game=game, players=players, options=options, data_dir=tmp_path)
    live = LiveGame.open(make_game(game, players, None, options), EventStore(settings.db_path))
    return live, settings


def read(c, identity: str | None, sure: float = 0.99):
    return replace(c, identity=identity, identity_confidence=sure)


def test_the_mind_play_comes_from_the_hand_that_laid_it(tmp_path: Path) -> None:
    live, settings = live_for(tmp_path, "themind", hands="unknown")
    ad = TheMindAdapter(live, settings)
    ad.observe(obs(1, 0.0, []), Captured(0.0))
    assert live.snapshot_state()["phase"] == "play"
    laid = read(card(7, "twinit:p035", 640, 360), "themind:12")
    ad.observe(obs(2, 0.5, [laid], hands=(hand_on(1, "top", laid),)), Captured(0.5))
    ad.observe(obs(3, 1.0, [laid]), Captured(1.0))
    plays = [e["action"] for e in live.entries if e["action"]["type"] == "play"]
    assert plays == [{"type": "play", "player": 1, "card": 12}]
    rows = {r["en"]: r["value"] for r in ad.panel()["rows"]}
    assert rows["Level"] == 1 and rows["Cards played"] == 1


def test_the_mind_holds_back_an_unsure_read_and_takes_a_correction(tmp_path: Path) -> None:
    live, settings = live_for(tmp_path, "themind", hands="unknown")
    ad = TheMindAdapter(live, settings)
    ad.observe(obs(1, 0.0, []), Captured(0.0))
    blurry = read(card(8, "twinit:p035", 640, 360), "themind:13", sure=0.4)
    ad.observe(obs(2, 0.5, [blurry], hands=(hand_on(1, "bottom", blurry),)), Captured(0.5))
    assert not [e for e in live.entries if e["action"]["type"] == "play"]
    assert "not read surely" in ad.panel()["rows"][-1]["value"]
    assert ad.check_correction({"kind": "card", "track_id": 8, "identity": "trio:3"})
    fact = {"kind": "card", "track_id": 8, "identity": "themind:31"}
    assert ad.check_correction(fact) is None
    ad.correct(fact)
    ad.observe(obs(3, 1.0, [blurry]), Captured(1.0))
    plays = [e["action"] for e in live.entries if e["action"]["type"] == "play"]
    assert plays == [{"type": "play", "player": 0, "card": 31}]


def test_trio_and_line_it_panels_show_their_games(tmp_path: Path) -> None:
    live, settings = live_for(tmp_path / "trio", "trio", players=("Ana", "Ben", "Cy"), hands="unknown")
    trio = TrioAdapter(live, settings)
    centre = [card(20 + i, "twinit:p035", 500 + 90 * (i % 3), 300 + 110 * (i // 3)) for i in range(9)]
    trio.observe(obs(1, 0.0, centre), Captured(0.0))
    assert live.snapshot_state()["dealt"] is True
    assert any(r["en"] == "Ana: trios" for r in trio.panel()["rows"])
    live2, settings2 = live_for(tmp_path / "lineit", "lineit")
    lineit = LineItAdapter(live2, settings2)
    names = ["lineit:54:leaf", "lineit:98:leaf", "lineit:3:diamond", "lineit:14:leaf"]
    market = [read(card(30 + i, "twinit:p035", 400 + 120 * i, 360), n) for i, n in enumerate(names)]
    lineit.observe(obs(1, 0.0, market), Captured(0.0))
    rows = {r["en"]: r["value"] for r in lineit.panel()["rows"]}
    assert rows["Market"] == "54:leaf 98:leaf 3:diamond 14:leaf", rows
