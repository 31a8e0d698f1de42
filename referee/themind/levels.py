"""The end of a level or of the game: game over, the blind count, level rewards and victory."""

from __future__ import annotations

from dataclasses import replace

from referee.themind.setup import Setup, cards_text
from referee.themind.state import MindState
from referee.themind.tables import MAX_LIVES, MAX_STARS, REWARDS, blind_count, lives_lost
from referee.types import JSON, Reason, Ruling, Verdict

REWARD_FR = {"life": "une vie", "star": "une étoile de lancer"}
REWARD_EN = {"life": "a life", "star": "a throwing star"}


def settle(
    setup: Setup, state: MindState, verdict: Verdict, code: str, en: str, fr: str, details: dict[str, JSON]
) -> tuple[Ruling, MindState]:
    """Ends the game or the level when the action did; builds the ruling."""
    details = {**details, "lives": state.lives, "stars": state.stars}
    if state.lives <= 0:
        new = replace(state, lives=0, phase="lost")
        return _ruling(
            verdict,
            code,
            en + " No lives left: game over.",
            fr + " Plus de vie : partie perdue.",
            {**details, "lives": 0, "game_over": True},
        ), new
    if any(state.counts):
        return _ruling(verdict, code, en, fr, details), state
    if setup.blind:
        if not setup.known:
            new = replace(state, phase="reveal")
            return _ruling(
                verdict,
                code,
                en + " Every card is down: turn the pile over.",
                fr + " Toutes les cartes sont posées : retournez la pile.",
                details,
            ), new
        return count_blind(setup, state, verdict, en, fr, details)
    return _complete(setup, state, verdict, code, en, fr, details)


def count_blind(
    setup: Setup, state: MindState, verdict: Verdict, en: str, fr: str, details: dict[str, JSON]
) -> tuple[Ruling, MindState]:
    """The blind count once every card is down: lives lost, then the level completed or the game lost."""
    played = [p.card for p in state.pile if p.card is not None]
    line = blind_count(played, setup.slide_under)
    lost = lives_lost(line)
    tops = cards_text([c.card for c in line if c.under])
    if lost:
        verdict = Verdict.INVALID
        en += (
            f" Pile turned over: {lost} card{'s' if lost > 1 else ''} ({tops}) had lower cards slid under: "
            f"the team loses {lost} li{'ves' if lost > 1 else 'fe'}."
        )
        fr += (
            f" Pile retournée : {lost} carte{'s' if lost > 1 else ''} ({tops}) "
            f"{'ont' if lost > 1 else 'a'} des cartes glissées dessous : "
            f"l'équipe perd {lost} vie{'s' if lost > 1 else ''}."
        )
    else:
        en += " Pile turned over: every card in rising order."
        fr += " Pile retournée : toutes les cartes dans l'ordre croissant."
    details = {**details, "line": [c.to_json() for c in line], "order": played, "lives_lost": lost}
    state = replace(state, lives=max(0, state.lives - lost))
    code = "blind_count"
    if state.lives == 0:
        return _ruling(
            verdict,
            code,
            (en + " No lives left: game over.").strip(),
            (fr + " Plus de vie : partie perdue.").strip(),
            {**details, "lives": 0, "game_over": True},
        ), replace(state, phase="lost")
    return _complete(setup, state, verdict, code, en.strip(), fr.strip(), details)


def _complete(
    setup: Setup, state: MindState, verdict: Verdict, code: str, en: str, fr: str, details: dict[str, JSON]
) -> tuple[Ruling, MindState]:
    level = state.level
    reward = REWARDS.get(level)
    lives, stars = state.lives, state.stars
    if reward == "life":
        lives = min(MAX_LIVES, lives + 1)
    elif reward == "star":
        stars = min(MAX_STARS, stars + 1)
    en += f" Level {level} complete"
    fr += f" Niveau {level} terminé"
    if reward is not None:
        capped = (reward == "life" and lives == state.lives) or (reward == "star" and stars == state.stars)
        en += f", reward: {REWARD_EN[reward]}" + (" (already at the limit)" if capped else "")
        fr += f", récompense : {REWARD_FR[reward]}" + (" (déjà au maximum)" if capped else "")
        details = {**details, "reward": reward, "capped": capped}
    cleared = replace(
        state,
        lives=lives,
        stars=stars,
        hands=((),) * setup.n,
        counts=(0,) * setup.n,
        pile=(),
        discards=(),
        charged=None,
    )
    details = {**details, "level_complete": level, "lives": lives, "stars": stars}
    if level >= setup.levels:
        en += f". All {setup.levels} levels done: the team wins The Mind!"
        fr += f". Les {setup.levels} niveaux sont réussis : l'équipe gagne The Mind !"
        return _ruling(verdict, code, en, fr, {**details, "victory": True}), replace(cleared, phase="won")
    return _ruling(verdict, code, en + ".", fr + ".", details), replace(
        cleared, level=level + 1, phase="deal"
    )


def _ruling(verdict: Verdict, code: str, en: str, fr: str, details: dict[str, JSON]) -> Ruling:
    return Ruling(verdict, Reason(code, en.strip(), fr.strip()), True, details)
