"""The dashboard in a real Chromium (Debian's, driven by Playwright): live video with overlays
from the real pipeline, rulings pushed, a question answered with a tap, a card corrected with a
tap, undo, French, the cooperative countdown and its sound, a phone-sized screenshot."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from tests.web.test_api import legal_actions
from vision.pipeline import TablePipeline
from vision.render.scene import render
from vision.render.scene_layout import random_scene
from web.app import build_context, create_app
from web.settings import Settings

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(os.environ.get("TABLEREF_SHOTS", "/tmp/tableref-shots"))


def chromium_path() -> str:
    found = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if not found:
        # Never a skip: CI installs it (scripts/ensure-chromium); a missing browser fails the run.
        pytest.fail(
            "Debian's chromium is missing: run `bash scripts/ensure-chromium` (apt-get install chromium)"
        )
    return found


def scene_source():
    image, _truth = render(random_scene(0, deck="twinit", layout="rows", n_cards=6, hands=0))

    def open_() -> Iterator[tuple[float, object]]:
        t0 = time.monotonic()
        while True:
            time.sleep(0.1)
            yield time.monotonic() - t0, image

    return open_


@pytest.fixture
def served(tmp_path: Path):
    settings = Settings(game="lineit", players=("Ana", "Ben", "Cy"), data_dir=tmp_path, stream_fps=10)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    pipeline = TablePipeline()
    ctx = build_context(settings, scene_source(), pipeline.process)
    server = uvicorn.Server(uvicorn.Config(create_app(ctx), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield ctx, f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(10)


def test_the_dashboard_in_chromium(served) -> None:
    from playwright.sync_api import expect, sync_playwright

    ctx, url = served
    actions = legal_actions(ctx, 2)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.add_init_script("localStorage.setItem('tableref.lang', 'en')")
            page.goto(url)
            expect(page.locator("#link-pill")).to_have_text("connected")
            expect(page.locator("#game-title")).to_have_text("Line-it")
            # live video and the pipeline's card outlines arrive
            page.wait_for_function("document.getElementById('video').naturalWidth > 0", timeout=15000)
            page.wait_for_function(
                "window.tableref.vision && window.tableref.vision.cards.length > 0", timeout=20000
            )
            # a ruling pushed by the server shows at once
            ctx.live.act(actions[0], "vision")
            expect(page.locator("#ruling .verdict")).to_have_text("Valid")
            # an uncertain observation asks the table; a tap answers it
            ctx.live.ask(
                {"en": "Is that a new round?", "fr": "Nouvelle manche ?"}, actions[1], None, "vision"
            )
            expect(page.locator(".question")).to_contain_text("Is that a new round?")
            page.screenshot(path=str(SHOTS / "dashboard-question.png"))
            page.locator(".question button.yes").click()
            expect(page.locator(".question")).to_have_count(0)
            assert ctx.live.entries[-1]["evidence"]["answered"] == "yes"
            # a tap on a recognised card corrects it
            card = page.evaluate("window.tableref.vision.cards[0]")
            box = page.locator("#overlay").bounding_box()
            v = page.evaluate("[window.tableref.vision.width, window.tableref.vision.height]")
            cx = sum(q[0] for q in card["quad"]) / 4 * box["width"] / v[0] + box["x"]
            cy = sum(q[1] for q in card["quad"]) / 4 * box["height"] / v[1] + box["y"]
            page.mouse.click(cx, cy)
            page.fill("#correct-input", "lineit:57:heart")
            page.click("#correct-ok")
            expect(page.locator("#log")).to_contain_text("lineit:57:heart")
            assert ctx.live.corrections[-1]["track_id"] == card["id"]
            # undo from the page
            page.click("#undo-btn")
            expect(page.locator("#log li.undone")).to_have_count(1)
            # what the camera cannot see is entered in a form: judged, logged, told in a toast
            expect(page.locator("#manual-box")).to_be_visible()
            page.select_option("#manual-type", label="End the turn")
            page.select_option("#manual-fields select[name=player]", label="Ben")
            shown = page.locator("#log li").count()
            page.click("#manual-ok")
            expect(page.locator("#toast")).to_be_visible()
            expect(page.locator("#log li")).to_have_count(shown + 1)
            last = ctx.live.entries[-1]
            assert last["origin"] == "table" and last["action"] == {"type": "end_turn", "player": 1}
            # a bad value is refused with the reason, and changes nothing
            page.select_option("#manual-type", label="Play a card from the hand")
            page.fill("#manual-fields input[name=card]", "999:nothing")
            page.click("#manual-ok")
            expect(page.locator("#toast")).to_contain_text("Error")
            expect(page.locator("#log li")).to_have_count(shown + 1)
            # French
            page.click("#lang-btn")
            expect(page.locator("#undo-btn")).to_have_text("Annuler la dernière action")
            french = {"valid": "Valide", "invalid": "Refusé"}[last["ruling"]["verdict"]]
            expect(page.locator("#ruling .verdict")).to_have_text(french)
            # a countdown: big, and a sound when it ends
            ctx.live.start_timer("coop", 1.5, "vision")
            expect(page.locator("#timer-box")).to_be_visible()
            page.wait_for_function("window.tableref.rang >= 1", timeout=5000)
            expect(page.locator("#timer")).to_have_text("Temps écoulé !")
            page.screenshot(path=str(SHOTS / "dashboard.png"), full_page=True)
            # usable on a phone: one column, nothing wider than the screen
            phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
            phone.goto(url)
            expect(phone.locator("#link-pill")).to_have_text("connected")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, width
            phone.screenshot(path=str(SHOTS / "dashboard-phone.png"), full_page=True)
        finally:
            browser.close()
