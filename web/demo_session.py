"""The demo's live session: the renderer's Twin It scenario played in real time through the whole
pipeline (frames -> card finder and tracker -> identity judge -> adapter -> referee -> store ->
page). When the stacked cards are spread, the competitive game hands over to the cooperative
minute. The scenario's truth never reaches the pipeline or the referee: it goes only to
``on_truth`` (tests and the benchmark's scoring).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

from referee.registry import make_game
from vision.render.scene import release_caches
from web.app import build_context
from web.capture import PlayedFrame, played_source, scenario_source
from web.context import AppContext
from web.live_game import LiveGame
from web.settings import Settings

log = logging.getLogger(__name__)

DEMO_GAMES = {"twinit": "twinit_demo_scenario", "twixt": "twixt_scenario"}


class DemoUnavailable(ValueError):
    """The renderer has no scenario for this game (yet)."""


def load_scenario(game: str, seed: int) -> Any:
    name = DEMO_GAMES.get(game)
    if name is None:
        raise DemoUnavailable(f"no demo scenario for {game!r}: expected one of {', '.join(DEMO_GAMES)}")
    try:
        module = importlib.import_module("vision.render.scenario")
    except ImportError as exc:
        raise DemoUnavailable("the scenario renderer (vision.render.scenario) is not available") from exc
    factory = getattr(module, name, None)
    if factory is None:
        raise DemoUnavailable(f"vision.render.scenario has no {name}() for the {game} demo")
    return factory(seed)


NAMES = ("Ana", "Ben", "Chloé", "David", "Emma", "Farid")


def demo_settings(scenario: Any, game: str, **overrides: Any) -> Settings:
    """The fixed facts of the scenario's play, from what its script says of the table (players,
    their seats, the number of cards dealt), never from its per-frame truth."""
    info = dict(getattr(scenario, "info", None) or {})
    seats = tuple(info.get("seats") or ())
    count = int(info.get("players") or len(seats) or 2)
    options: dict[str, Any] = {}
    for item in getattr(scenario, "actions", None) or []:
        action = item.get("action", {})
        if action.get("type") == "deal":
            options["cards"] = int(sum(action.get("piles") or []))
            break
    base: dict[str, Any] = {
        "game": game,
        "players": NAMES[:count],
        "mode": "competitive" if game == "twinit" else None,
        "options": options,
        "seats": seats,
        "retry_on_end": False,
        "resume": False,
    }
    base.update(overrides)
    return Settings(**base)


def build_demo(
    game: str = "twinit",
    seed: int = 0,
    fps: float = 15.0,
    speed: float = 1.0,
    on_truth: Callable[[float, float, Any], None] | None = None,
    repeat: int = 1,
    played: Sequence[Sequence[PlayedFrame]] | None = None,
    **overrides: Any,
) -> AppContext:
    """The demo's context. ``repeat`` > 1 plays scenarios of seeds ``seed, seed + 1, ...`` back
    to back, each a new game (the benchmark's long run). ``played``: each scenario's frames
    rendered beforehand (:func:`web.capture.prerender`), played as a webcam's MJPEG stream
    instead of rendered while they play. ``overrides`` are :class:`Settings` fields
    (``deck=DIR``: Twin It judged against that enrolled deck)."""
    scenario = load_scenario(game, seed)
    settings = demo_settings(scenario, game, **overrides)
    restart: list[Callable[[Settings], None]] = []

    def scenarios() -> Any:
        yield scenario
        for k in range(1, repeat):
            following = load_scenario(game, seed + k)
            for hook in restart:
                hook(demo_settings(following, game, **overrides))
            yield following

    source = chained_source(scenarios, fps, on_truth, speed, played)
    if game == "twixt":
        from web.wiring import collaborators_for

        process, factory = collaborators_for(settings)
        return build_context(settings, source, process, factory)

    from web.wiring import adapter_factory_for

    # with settings.deck (an enrolled deck's folder), slaps are judged against that deck
    ctx, new_game = twinit_context(settings, source, adapter_factory_for("twinit", settings.deck))
    restart.append(new_game)
    return ctx


def twinit_context(
    settings: Settings, source: Any, adapter_factory: Any
) -> tuple[AppContext, Callable[[Settings], None]]:
    """A Twin It session that hands over to the cooperative minute when the stack is spread,
    and a hook that starts a new game with new fixed facts (the next scenario of a long run)."""
    from vision.pipeline import TablePipeline

    pipeline = TablePipeline()
    ctx = build_context(settings, source, pipeline.process, adapter_factory)
    current = {"settings": settings}

    def hand_over(count: int, first_mono: float, obs: Any, frame: Any) -> None:
        """The stacked cards are spread: the cooperative minute is a game of its own."""
        facts = current["settings"]
        options = {"cards": count, "seconds": facts.coop_seconds}
        coop_game = make_game("twinit", facts.players, "cooperative", options)
        live = LiveGame.open(coop_game, ctx.live.store, resume=False)
        coop = adapter_factory(live, facts)
        coop.spread_hint = first_mono
        competitive = ctx.session.adapter
        if competitive is not None:  # the spread it saw at rest, and its view of the table since
            coop.stable = competitive.stable
            coop.spread_snapshot = list(competitive.stable.snapshot)
        log.info("spread of %d cards: the cooperative minute starts", count)
        ctx.session.switch(live, coop)
        coop.observe(obs, frame)

    adapter = ctx.session.adapter
    if adapter is not None and not adapter.coop:
        adapter.on_spread = hand_over

    def new_game(facts: Settings) -> None:
        current["settings"] = facts
        pipeline.reset()
        game_ = make_game("twinit", facts.players, facts.mode, facts.options)
        live = LiveGame.open(game_, ctx.live.store, resume=False)
        fresh = adapter_factory(live, facts)
        fresh.on_spread = hand_over
        ctx.session.switch(live, fresh)

    return ctx, new_game


def chained_source(
    scenarios: Callable[[], Any],
    fps: float,
    on_truth: Callable[[float, float, Any], None] | None,
    speed: float,
    played: Sequence[Sequence[PlayedFrame]] | None = None,
) -> Any:
    """Scenarios played one after the other in real time, each from its own t = 0; the frames'
    timestamps keep rising across them. With ``played``, the k-th scenario's frames are
    ``played[k]`` (rendered beforehand), else each frame is rendered as it plays."""

    def open_() -> Any:
        offset = 0.0
        for k, scenario in enumerate(scenarios()):
            last = 0.0
            source = (
                played_source(played[k], on_truth, speed)
                if played is not None
                else scenario_source(scenario, fps, on_truth, speed)
            )
            for t, image in source():
                last = t
                yield offset + t, image
            offset += last + 1.0 / fps
            release_caches()  # the game over's faces, textures and maps

    return open_
