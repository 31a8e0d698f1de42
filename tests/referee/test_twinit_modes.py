"""Twin It's other modes: teams, the cooperative minute and its competitive variant, Motifs Tabous."""

from __future__ import annotations

from typing import Any

import pytest

from referee.errors import InvalidConfig
from referee.registry import make_game
from referee.twinit.game import TwinItGame
from referee.twinit.options import PLACEHOLDER_THRESHOLDS
from referee.twinit.types import Capture, Pile, TableCard, TwinItState
from referee.types import Ruling, Verdict

X, Y, Z, W = "twinit:x", "twinit:y", "twinit:z", "twinit:w"


def make(mode: str, players: list[str], **options: Any) -> TwinItGame:
    g = make_game("twinit", players=players, mode=mode, options=options)
    assert isinstance(g, TwinItGame)
    return g


def step(g: TwinItGame, state: TwinItState, obj: dict[str, Any]) -> tuple[TwinItState, Ruling]:
    action = g.parse_action(obj)
    judged = g.judge(state, action)
    new, ruling = g.apply(state, action)
    assert judged == ruling
    assert g.check_state(new) == [], g.check_state(new)
    assert g.state_from_json(g.state_to_json(new)) == new
    return new, ruling


def run(g: TwinItGame, *objs: dict[str, Any], state: TwinItState | None = None) -> TwinItState:
    state = g.initial_state() if state is None else state
    for obj in objs:
        state, ruling = step(g, state, obj)
        assert ruling.applies, (obj, ruling)
    return state


# -- teams -----------------------------------------------------------------------------------
FOUR = ["Ana", "Ben", "Cy", "Dee"]  # default teams: Ana + Cy, Ben + Dee


def team_game(**options: Any) -> tuple[TwinItGame, TwinItState]:
    g = make("teams", FOUR, cards=40, **options)
    state = run(g, {"type": "deal", "piles": [10, 10, 10, 10], "first": 0, "tops": [X, Y, X, Y]})
    return g, state


def test_two_teammates_each_covering_one_card_win_the_pair() -> None:
    g, state = team_game()
    state, ruling = step(
        g, state, {"type": "claim", "players": ["Ana", "Cy"], "cards": [{"pile": 0}, {"pile": 2}]}
    )
    assert ruling.valid and state.captures[0] == (Capture(X, 2),)
    assert g.scores(state)["teams"] == {"Ana + Cy": 1, "Ben + Dee": 0}
    assert state.turn == 0  # the first hand's player holds the capture and restarts


def test_one_player_covering_both_cards_is_a_team_error() -> None:
    g, state = team_game()
    state = run(g, {"type": "claim", "players": [1, 3], "cards": [{"pile": 1}, {"pile": 3}]}, state=state)
    size = state.piles[1].size
    # Ben covers both X cards alone: an error even though they are identical.
    state, ruling = step(g, state, {"type": "claim", "player": "Ben", "cards": [{"pile": 0}, {"pile": 2}]})
    assert ruling.verdict is Verdict.INVALID and ruling.applies and ruling.reason.code == "one_player_both"
    assert state.captures[1] == () and state.piles[1].size == size + 2
    assert "seulement" in ruling.reason.fr and state.turn == 1


def test_team_error_takes_a_teammates_capture_when_the_player_has_none() -> None:
    g, state = team_game()
    state = run(g, {"type": "claim", "players": [3, 1], "cards": [{"pile": 1}, {"pile": 3}]}, state=state)
    assert state.captures[3] == (Capture(Y, 2),)
    state = run(
        g, {"type": "reveal", "player": 1, "face": Z}, {"type": "reveal", "player": 3, "face": W}, state=state
    )
    size = state.piles[1].size
    state, ruling = step(g, state, {"type": "claim", "players": [1, 3], "cards": [{"pile": 0}, {"pile": 1}]})
    assert ruling.reason.code == "not_identical" and ruling.details["erring"] == 1
    assert ruling.details["forfeit"] == {"capture": [3, 0]}
    assert state.captures[3] == () and state.piles[1].size == size + 2 and state.turn == 1


def test_players_of_two_teams_cannot_claim_together_but_can_tie() -> None:
    g, state = team_game()
    _, mixed = step(g, state, {"type": "claim", "players": [0, 1], "cards": [{"pile": 0}, {"pile": 2}]})
    assert not mixed.applies and mixed.reason.code == "not_one_claimer"
    _, mates = step(g, state, {"type": "tie", "players": [0, 2], "cards": [{"pile": 0}, {"pile": 2}]})
    assert mates.reason.code == "tie_teammates"
    state, tie = step(g, state, {"type": "tie", "players": [0, 1], "cards": [{"pile": 0}, {"pile": 2}]})
    assert tie.valid and state.piles[0].top is None and state.piles[2].top is None


def test_a_team_wins_at_five_captures_between_its_members() -> None:
    g, state = team_game()
    captures = list(state.captures)
    captures[0] = (Capture("twinit:a", 2), Capture("twinit:b", 2))
    captures[2] = (Capture("twinit:c", 2), Capture("twinit:d", 3))
    piles = list(state.piles)
    piles[0] = type(piles[0])(6, X)
    piles[2] = type(piles[2])(5, X)
    state = TwinItState(**{**vars(state), "captures": tuple(captures), "piles": tuple(piles)})
    assert g.check_state(state) == [] and g.outcome(state) is None
    state, ruling = step(g, state, {"type": "claim", "players": [2, 0], "cards": [{"pile": 2}, {"pile": 0}]})
    outcome = g.outcome(state)
    assert ruling.details["won"] and outcome is not None and outcome.winners == (0, 2)


def test_teammates_steal_from_the_other_team_or_complete_their_own_teams_pair() -> None:
    g, state = team_game()
    # Ben + Dee win the pair of Y; a third Y then lies on the table (one card from Ana's pile).
    state = run(
        g,
        {"type": "claim", "players": ["Ben", "Dee"], "cards": [{"pile": 1}, {"pile": 3}]},
        {"type": "reveal", "player": 1, "face": Z},
        {"type": "reveal", "player": 3, "face": W},
        state=state,
    )
    steal_table = TwinItState(**{**vars(state), "table": (TableCard(0, Y),), "next_id": 1})
    steal_table = TwinItState(
        **{**vars(steal_table), "piles": (Pile(state.piles[0].size - 1, X), *state.piles[1:])}
    )
    assert g.check_state(steal_table) == []
    stolen, ruling = step(
        g,
        steal_table,
        {"type": "claim", "players": ["Cy", "Ana"], "cards": [{"capture": [1, 0]}, {"table": 0}]},
    )
    assert ruling.reason.code == "triple_steal" and "Cy + Ana take Ben's pair" in ruling.reason.en
    assert g.scores(stolen)["teams"] == {"Ana + Cy": 1, "Ben + Dee": 0}
    # Had Ben + Dee covered their own pair and the new Y, it is their team's triple, not a steal.
    own, ruling = step(
        g,
        steal_table,
        {"type": "claim", "players": ["Dee", "Ben"], "cards": [{"capture": [1, 0]}, {"table": 0}]},
    )
    assert ruling.reason.code == "triple_own" and "their team's pair" in ruling.reason.en
    assert "la paire de leur équipe" in ruling.reason.fr
    assert g.scores(own)["teams"] == {"Ana + Cy": 0, "Ben + Dee": 1}


def test_custom_teams_and_their_checks() -> None:
    g = make("teams", ["Ana", "Ben", "Cy", "Dee", "Eli"], teams=[["Ana", "Ben", "Cy"], [3, 4]])
    assert g.setup.opts.teams == ((0, 1, 2), (3, 4))
    with pytest.raises(InvalidConfig, match="4 to 6"):
        make("teams", ["Ana", "Ben", "Cy"])
    with pytest.raises(InvalidConfig, match="at least 2"):
        make("teams", FOUR, teams=[[0, 1, 2], [3]])
    with pytest.raises(InvalidConfig, match="exactly one team"):
        make("teams", FOUR, teams=[[0, 1], [1, 3]])


# -- cooperative minute ---------------------------------------------------------------------
def coop(mode: str = "cooperative", players: list[str] | None = None, **options: Any) -> TwinItGame:
    return make(mode, players or ["Ana", "Ben"], **{"cards": 9, **options})


FACES = [X, X, X, Y, Y, Z, W, "twinit:v", None]


def test_cooperative_scoring_pair_one_point_triple_two() -> None:
    g = coop()
    state = run(g, {"type": "start", "faces": FACES})
    assert len(state.table) == 9 and state.phase == "minute"
    state, triple = step(
        g, state, {"type": "claim", "player": 0, "cards": [{"table": 0}, {"table": 1}, {"table": 2}]}
    )
    assert triple.reason.code == "triple" and triple.details["gained"] == 2
    state, pair = step(
        g, state, {"type": "claim", "player": 1, "cards": [{"table": 3}, {"table": 4}], "at": 30}
    )
    assert pair.reason.code == "pair" and pair.details["points"] == 3
    assert (
        g.scores(state)["points"] == 3 and g.scores(state)["pairs"] == 1 and g.scores(state)["triples"] == 1
    )


def test_cooperative_free_turning_and_completing_a_pair_into_a_triple() -> None:
    g = coop()
    state = run(
        g,
        {"type": "start", "faces": FACES},
        {"type": "claim", "player": 0, "cards": [{"table": 3}, {"table": 4}]},
        state=None,
    )
    # Cards are turned over freely: any card may show a new face.
    state = run(
        g, {"type": "reveal", "card": 6, "face": Y}, {"type": "reveal", "card": 8, "face": Z}, state=state
    )
    state, third = step(
        g, state, {"type": "claim", "player": 1, "cards": [{"capture": [0, 0]}, {"table": 6}]}
    )
    assert third.reason.code == "triple_completed" and third.details["gained"] == 1
    assert state.captures[0] == (Capture(Y, 3),) and g.scores(state)["points"] == 2


def test_cooperative_wrong_set_costs_nothing_and_unknown_faces_are_uncertain() -> None:
    g = coop()
    state = run(g, {"type": "start", "faces": FACES})
    new, wrong = step(g, state, {"type": "claim", "player": 0, "cards": [{"table": 0}, {"table": 3}]})
    assert wrong.verdict is Verdict.INVALID and not wrong.applies and new == state
    _, unsure = step(g, state, {"type": "claim", "player": 0, "cards": [{"table": 7}, {"table": 8}]})
    assert unsure.verdict is Verdict.UNCERTAIN
    _, size = step(g, state, {"type": "claim", "player": 0, "cards": [{"table": 0}]})
    assert size.reason.code == "set_size"
    _, late = step(g, state, {"type": "claim", "player": 0, "cards": [{"table": 0}, {"table": 1}], "at": 61})
    assert late.reason.code == "too_late"
    _, no_deal = step(g, state, {"type": "deal", "piles": [4, 5], "first": 0})
    assert no_deal.reason.code == "spread_not_deal"


def test_cooperative_level_from_the_threshold_table() -> None:
    g = coop(players=["Ana", "Ben"], cards=40)
    faces = [f"twinit:p{i // 2:02d}" for i in range(40)]  # 20 pairs
    state = run(g, {"type": "start", "faces": faces})
    low = PLACEHOLDER_THRESHOLDS[2]
    for k in range(low[1]):
        state = run(
            g,
            {"type": "claim", "player": k % 2, "cards": [{"table": 2 * k}, {"table": 2 * k + 1}]},
            state=state,
        )
    assert g.scores(state)["points"] == low[1]
    assert g.scores(state)["level"]["fr"] == "Apprentis"
    state, over = step(g, state, {"type": "end"})
    assert over.reason.code == "minute_over"
    outcome = g.outcome(state)
    assert outcome is not None and outcome.winners == (0, 1) and "Apprentis" in outcome.reason.fr
    _, after = step(g, state, {"type": "claim", "player": 0, "cards": [{"table": 38}, {"table": 39}]})
    assert after.reason.code == "game_over"


def test_cooperative_claim_may_carry_the_faces_seen() -> None:
    g = coop()
    state = run(g, {"type": "start", "faces": FACES})
    cards = [{"table": 7}, {"table": 8}]
    state, ruling = step(
        g, state, {"type": "claim", "player": 0, "cards": cards, "faces": [None, "twinit:v"]}
    )
    assert ruling.reason.code == "pair" and g.scores(state)["points"] == 1


def test_cooperative_levels_are_configurable() -> None:
    levels = {"2": [{"min": 0, "fr": "Bof", "en": "Meh"}, {"min": 1, "fr": "Bravo", "en": "Well done"}]}
    g = coop(levels=levels)
    state = run(
        g,
        {"type": "start", "faces": FACES},
        {"type": "claim", "player": 0, "cards": [{"table": 3}, {"table": 4}]},
    )
    assert g.scores(state)["level"] == {"fr": "Bravo", "en": "Well done", "min": 1}
    with pytest.raises(InvalidConfig, match="start at 0"):
        coop(levels={"2": [{"min": 1, "fr": "a", "en": "a"}]})


def test_placeholder_scale_runs_from_debutants_to_genies_for_every_count() -> None:
    for n, thresholds in PLACEHOLDER_THRESHOLDS.items():
        g = coop(players=[f"P{i}" for i in range(n)])
        assert [lv.fr for lv in g.setup.opts.levels] == [
            "Débutants",
            "Apprentis",
            "Observateurs",
            "Experts",
            "Génies",
        ]
        assert [lv.min_points for lv in g.setup.opts.levels] == list(thresholds)


def test_competitive_minute_counts_each_player_and_forbids_stealing() -> None:
    g = coop("cooperative-competitive", players=["Ana", "Ben", "Cy"])
    state = run(
        g,
        {"type": "start", "faces": FACES},
        {"type": "claim", "player": "Ana", "cards": [{"table": 0}, {"table": 1}]},
        {"type": "claim", "player": "Ben", "cards": [{"table": 3}, {"table": 4}]},
    )
    _, steal = step(
        g, state, {"type": "claim", "player": "Ben", "cards": [{"capture": [0, 0]}, {"table": 2}]}
    )
    assert not steal.applies and steal.reason.code == "no_stealing" and "vol" in steal.reason.fr
    _, shared = step(g, state, {"type": "claim", "players": [1, 2], "cards": [{"table": 5}, {"table": 6}]})
    assert shared.reason.code == "one_collector"
    state = run(
        g, {"type": "claim", "player": "Ana", "cards": [{"capture": [0, 0]}, {"table": 2}]}, state=state
    )
    assert g.scores(state) == {"points": {"Ana": 2, "Ben": 1, "Cy": 0}}
    state = run(g, {"type": "end"}, state=state)
    outcome = g.outcome(state)
    assert outcome is not None and outcome.winners == (0,)


# -- Motifs Tabous ---------------------------------------------------------------------------
def taboo_game() -> tuple[TwinItGame, TwinItState]:
    g = make("competitive", ["Ana", "Ben", "Cy"], cards=33, taboo_player="Ana")
    state = run(g, {"type": "deal", "piles": [10, 10, 10], "first": 0, "tops": [X, X, Y], "taboo": [X, Z, W]})
    return g, state


def test_taboo_cards_are_drawn_before_the_deal() -> None:
    g = make("competitive", ["Ana", "Ben", "Cy"], cards=33, taboo_player="Ana")
    _, missing = step(g, g.initial_state(), {"type": "deal", "piles": [11, 11, 11], "first": 0})
    assert missing.reason.code == "taboo_cards"
    _, same = step(
        g, g.initial_state(), {"type": "deal", "piles": [10, 10, 10], "first": 0, "taboo": [X, X, Z]}
    )
    assert same.reason.code == "taboo_cards"
    _, state = taboo_game()
    assert state.aside == 3 and state.taboo == (X, Z, W)
    with pytest.raises(InvalidConfig, match="competitive"):
        make("teams", ["Ana", "Ben", "Cy", "Dee"], taboo_player="Ana")


def test_a_taboo_pair_is_an_error_for_the_winner_only() -> None:
    g, state = taboo_game()
    new, ruling = step(g, state, {"type": "claim", "player": "Ana", "cards": [{"pile": 0}, {"pile": 1}]})
    assert ruling.verdict is Verdict.INVALID and ruling.applies and ruling.reason.code == "taboo"
    assert new.captures[0] == () and "tabous" in ruling.reason.fr
    # Ben may take it, and so frees Ana of that taboo.
    state, freed = step(g, state, {"type": "claim", "player": "Ben", "cards": [{"pile": 0}, {"pile": 1}]})
    assert freed.valid and state.taboo == (Z, W)
    assert g.scores(state)["taboo"] == {"player": "Ana", "motifs": [Z, W]}
    # Now Ana may capture that motif.
    state = run(
        g, {"type": "reveal", "player": 0, "face": Y}, {"type": "reveal", "player": 1, "face": X}, state=state
    )
    state = run(g, {"type": "play", "player": 1, "face": X}, state=state)
    state = run(g, {"type": "reveal", "player": 1, "face": Z}, state=state)
    state, ok = step(
        g, state, {"type": "claim", "player": "Ana", "cards": [{"table": 0}, {"capture": [1, 0]}]}
    )
    assert ok.reason.code == "triple_steal"


def test_other_taboo_motifs_stay_after_one_is_freed() -> None:
    g, state = taboo_game()
    state = run(
        g,
        {"type": "play", "player": 0, "face": Z, "top": W},
        {"type": "play", "player": 1, "face": W, "top": Z},
        state=state,
    )
    _, ruling = step(g, state, {"type": "claim", "player": 0, "cards": [{"table": 1}, {"pile": 0}]})
    assert ruling.reason.code == "taboo"
    state, ok = step(g, state, {"type": "claim", "player": 2, "cards": [{"table": 0}, {"pile": 1}]})
    assert ok.valid and state.taboo == (X, W)


@pytest.mark.parametrize(
    ("claims", "winners", "en", "fr"),
    [
        ([], (), "No points: a draw.", "Personne n'a de points : égalité."),
        ([("Ben", 3, 4)], (1,), "Ben wins with 1 point.", "Ben gagne avec 1 point."),
        (
            [("Ana", 0, 1), ("Cy", 3, 4)],
            (0, 2),
            "Ana and Cy share the win with 1 point each.",
            "Ana et Cy gagnent ex aequo avec 1 point chacun.",
        ),
    ],
)
def test_competitive_minute_outcome_words(
    claims: list[tuple[str, int, int]], winners: tuple[int, ...], en: str, fr: str
) -> None:
    g = coop("cooperative-competitive", players=["Ana", "Ben", "Cy"])
    state = run(g, {"type": "start", "faces": FACES})
    for who, a, b in claims:
        state = run(g, {"type": "claim", "player": who, "cards": [{"table": a}, {"table": b}]}, state=state)
    outcome = g.outcome(run(g, {"type": "end"}, state=state))
    assert outcome is not None and outcome.winners == winners
    assert (outcome.reason.en, outcome.reason.fr) == (en, fr)
