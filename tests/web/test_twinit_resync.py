"""Twin It's resync (:mod:`web.adapters.twinit_resync`): a penalty that gave back another capture
than the referee's choice."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.web.tableobs import card, hand_on
from tests.web.test_twinit_adapter import BOTTOM, TOP, Table, setup
from vision.observation import CardState

X, Y, W, V, S, U, T, Q, R = (f"twinit:p{n:03d}" for n in (11, 12, 13, 14, 15, 16, 17, 18, 19))


def penalised_record(live, forfeit: list[int] | None = None) -> int:
    """Ben holds a three-card steal and a later pair and claims wrongly; the referee gives back
    ``forfeit`` (by default his newest capture: the pair). He then plays his pile down to what the
    referee counts empty. Returns the penalised claim's sequence number."""
    wrong = {"type": "claim", "players": [1, 1], "cards": [{"pile": 0}, {"pile": 1}]}
    actions = [
        {"type": "deal", "piles": [5, 4], "first": 0, "tops": [X, X]},
        {"type": "claim", "players": [0, 0], "cards": [{"pile": 0}, {"pile": 1}]},
        {"type": "reveal", "player": 0, "face": Y},
        {"type": "reveal", "player": 1, "face": X},
        {"type": "claim", "players": [1, 1], "cards": [{"capture": [0, 0]}, {"pile": 1}]},
        {"type": "reveal", "player": 1, "face": Y},
        {"type": "claim", "players": [1, 1], "cards": [{"pile": 0}, {"pile": 1}]},
        {"type": "reveal", "player": 0, "face": W},
        {"type": "reveal", "player": 1, "face": V},
        {**wrong, "forfeit": forfeit} if forfeit else wrong,
    ]
    seq = 0
    for action in actions:
        seq, ruling = live.act(action, "vision")
        assert ruling.applies, (action, ruling)
    given = ruling.details["forfeit_cards"]
    assert given == (2 if forfeit is None else 3)
    plays = [
        {"type": "play", "player": 1, "face": V},
        {"type": "reveal", "player": 1, "face": U},
        {"type": "play", "player": 0, "face": W},
        {"type": "reveal", "player": 0, "face": S},
        {"type": "play", "player": 1, "face": U},
        {"type": "reveal", "player": 1, "face": T},
        {"type": "play", "player": 0, "face": S},
        {"type": "reveal", "player": 0, "face": Q},
        {"type": "play", "player": 1, "face": T},
    ]
    if given == 3:
        plays += [
            {"type": "reveal", "player": 1, "face": R},
            {"type": "play", "player": 0, "face": Q},
            {"type": "play", "player": 1, "face": R},
        ]
    for action in plays:
        assert live.act(action, "vision")[1].applies, action
    assert live.snapshot_state()["piles"][1] == [0, None]
    return seq


def test_a_pile_counted_empty_that_shows_a_card_after_a_penalty_gave_back_the_bigger_capture(
    tmp_path: Path,
) -> None:
    """The referee counts Ben's pile empty, no card lost track of, but a card lies there with no
    hand over the table: Ben gave back his three-card steal, not the pair. The penalised claim is
    amended to forfeit the steal (every later action still applies), and the card is read as his
    pile's top."""
    live, ad = setup(tmp_path, cards=9)
    claim = penalised_record(live)
    assert live.snapshot_state()["piles"][1] == [0, None]
    ad.pile_at = {0: np.array(BOTTOM, float), 1: np.array(TOP, float)}
    table = Table(ad)
    shown = [card(1, S, *BOTTOM), card(2, X, *TOP)]
    for _ in range(10):
        table.show(shown)
    assert live.snapshot_state()["piles"][1] == [0, None]  # not yet: the table may still change
    for _ in range(30):
        table.show(shown)
    amends = [e for e in live.entries if e.get("kind") == "amend"]
    assert [a["target"] for a in amends] == [claim]
    fixed = next(e for e in live.entries if e.get("seq") == claim)["action"]
    assert fixed["forfeit"] == [1, 0]
    size, top = live.snapshot_state()["piles"][1]
    assert size == 1 and top is not None
    # nothing else to give back: the record is left alone from then on
    for _ in range(40):
        table.show(shown)
    assert len([e for e in live.entries if e.get("kind") == "amend"]) == 1


def test_a_penalty_that_gave_back_the_biggest_capture_is_left_alone(tmp_path: Path) -> None:
    """The same table, but the penalty already gave back Ben's biggest capture: nothing is rewritten
    (the card there is not the referee's to explain by the forfeit); the card is logged as his
    pile's top all the same, a card the referee had not counted."""
    live, ad = setup(tmp_path, cards=9)
    penalised_record(live, forfeit=[1, 0])
    ad.pile_at = {0: np.array(BOTTOM, float), 1: np.array(TOP, float)}
    table = Table(ad)
    for _ in range(40):
        table.show([card(1, S, *BOTTOM), card(2, X, *TOP)])
    assert not [e for e in live.entries if e.get("kind") == "amend"]
    last = live.entries[-1]
    assert last["action"]["type"] == "refill" and last["ruling"]["details"]["found"] is True
    assert live.snapshot_state()["piles"][1] == [1, last["action"]["face"]]
    assert live.snapshot_state()["captures"][1] == [[Y, 2]]  # his captures as the referee ruled them


def test_a_slap_on_a_pile_counted_empty_after_a_penalty_gives_back_the_bigger_capture_first(
    tmp_path: Path,
) -> None:
    """The same record; Ana slaps the card on Ben's pile (counted empty) with the identical top of
    her own before the periodic resync: the penalty is amended, the card read as Ben's top, then the
    claim is ruled (before: refused, "the top of Ben's pile is not on the table")."""
    live, ad = setup(tmp_path, cards=9)
    claim = penalised_record(live)
    ad.pile_at = {0: np.array(BOTTOM, float), 1: np.array(TOP, float)}
    table = Table(ad)
    shown = [card(1, Q, *BOTTOM), card(2, Q, *TOP)]
    for _ in range(8):
        table.show(shown)
    assert not [e for e in live.entries if e.get("kind") == "amend"]
    covered = [card(1, Q, *BOTTOM, state=CardState.COVERED), card(2, Q, *TOP, state=CardState.COVERED)]
    table.slap(covered, [hand_on(1, "bottom", covered[0]), hand_on(2, "bottom", covered[1])])
    assert next(e for e in live.entries if e.get("seq") == claim)["action"]["forfeit"] == [1, 0]
    actions = [e for e in live.entries if e.get("kind") == "action"]
    assert [e["action"]["type"] for e in actions[-2:]] == ["reveal", "claim"]
    assert actions[-2]["action"]["player"] == 1
    last = actions[-1]
    assert last["ruling"]["verdict"] == "valid" and last["ruling"]["applies"]
    assert sorted(map(str, last["action"]["cards"])) == sorted(map(str, [{"pile": 0}, {"pile": 1}]))


def test_a_pile_whose_top_is_known_that_the_table_shows_empty_is_logged_empty(tmp_path: Path) -> None:
    """Ben's pile top is known (dealt), then his pile's place shows no card (its last card went
    unseen): after :data:`RESYNC_S` with no hand over the table, where the frame cut at its place
    surely shows another pattern than that top, the pile is logged empty. A finder that misses
    the card while the frame still shows it there empties nothing."""
    from tests.web.tableobs import table_image
    from tests.web.test_twinit_adapter import MIDDLE, P, pile_game

    live, _ad, table = pile_game(tmp_path)
    cards = [card(1, P[0], *MIDDLE), card(2, P[1], *TOP), card(3, P[1], *BOTTOM)]
    assert live.snapshot_state()["piles"][1][1] is not None
    missed = cards[::2]  # the finder misses Ben's card: the camera's frame still shows it
    for _ in range(50):
        table.show(missed, image=table_image(cards))
    assert live.snapshot_state()["piles"][1][0] > 0 and live.entries[-1]["action"]["type"] != "empty"
    for _ in range(35):
        table.show(missed)  # now no card there at all (a look every RESYNC_S)
    assert live.entries[-1]["action"] == {"type": "empty", "player": 1}
    assert live.snapshot_state()["piles"][1] == [0, None]
