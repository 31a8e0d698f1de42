"""``tableref bench live --enrolled``: the scenarios' deck enrolled by the rendered enrolment, kept
in a cache keyed by what shapes it, and handed to the bench's server."""

from __future__ import annotations

from pathlib import Path

import pytest

from calibration.deck import EnrolledDeck
from web.bench import live, live_deck
from web.enrolled_twinit import check_deck


def test_the_scenarios_deal_from_deck_0_in_style_0() -> None:
    assert live_deck.scenario_deck(0) == (0, 0)


def test_a_small_deck_is_enrolled_once_then_taken_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, figures = live_deck.enrolled_deck(0, root=tmp_path, limit=9)
    assert folder.parent == tmp_path and not figures["cached"]
    assert figures["cards"] == 9 and figures["deck_seed"] == 0 and figures["style"] == 0
    assert 7 <= figures["cut_out"] <= 9  # the finder cuts out (nearly) every card of a row layout
    deck = check_deck(folder)
    assert deck.deck == "twinit" and len(deck.readable_ids()) == figures["enrolled"] == figures["cut_out"]
    assert len(deck.cards) == 9  # the cards the finder missed are listed, unreadable
    assert figures["seconds"] >= figures["render_find_s"] > 0
    assert figures["patterns"] == sum(figures["multiplicities"].values()) >= 1
    assert isinstance(figures["rules"], bool)
    if figures["cut_out"] < figures["cards"]:
        assert not figures["rules"]  # an incomplete closed set never rules

    again, cached = live_deck.enrolled_deck(0, root=tmp_path, limit=9)
    assert again == folder and cached["cached"] and cached["cut_out"] == figures["cut_out"]
    assert sorted(EnrolledDeck.load(again).cards) == sorted(deck.cards)

    monkeypatch.setattr(live_deck, "fingerprint", lambda: "0123456789abcdef")  # the finder changed
    fresh, refigured = live_deck.enrolled_deck(0, root=tmp_path, limit=9)
    assert fresh != folder and not refigured["cached"]


def test_the_fingerprint_follows_the_files_that_shape_the_crops(tmp_path: Path) -> None:
    (tmp_path / "vision").mkdir()
    (tmp_path / "vision" / "finder.py").write_text("A = 1\n")
    before = live_deck.fingerprint(tmp_path, ("vision",))
    (tmp_path / "vision" / "notes.txt").write_text("not code\n")
    assert live_deck.fingerprint(tmp_path, ("vision",)) == before
    (tmp_path / "vision" / "finder.py").write_text("A = 2\n")
    assert live_deck.fingerprint(tmp_path, ("vision",)) != before


def test_the_bench_server_is_given_the_deck(tmp_path: Path) -> None:
    """A deck folder that is not there stops the server at once, its log naming the folder."""
    missing = tmp_path / "no-deck"
    with pytest.raises(RuntimeError, match=r"(?s)the bench server stopped: .*--deck .*no such folder"):
        live._start("demo", live._free_port(), tmp_path / "demo", seed=0, fps=10.0, deck=missing)
    assert str(missing) in (tmp_path / "demo-server.log").read_text()
