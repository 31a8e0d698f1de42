"""Runs the app with uvicorn for the ``serve`` and ``demo`` commands: checks the port first,
prints the URL (and the token when it listens beyond loopback), opens a browser if asked."""

from __future__ import annotations

import errno
import logging
import socket
import sys
import threading
import webbrowser

import uvicorn

from web.app import create_app
from web.cli import CliError
from web.context import AppContext

log = logging.getLogger(__name__)


class PortInUse(CliError):
    """The port cannot be bound."""


def check_port(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise PortInUse(f"port {port} on {host} is in use: pass another --port") from exc
            raise PortInUse(f"cannot listen on {host}:{port}: {exc.strerror}") from exc


def url_of(ctx: AppContext) -> str:
    host = ctx.settings.host
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{ctx.settings.port}/"


def open_browser(url: str) -> None:
    """Opens ``url`` in a browser if one can open; never fails when none can."""

    def go() -> None:
        try:
            if not webbrowser.open(url):
                log.info("no browser could open %s", url)
        except Exception as exc:  # no display, no browser: the URL is printed anyway
            log.info("no browser could open %s: %s", url, exc)

    threading.Thread(target=go, daemon=True).start()


def serve(ctx: AppContext, browser: bool, banner: str) -> int:
    """Serves until interrupted; returns the exit code."""
    settings = ctx.settings
    check_port(settings.host, settings.port)
    url = url_of(ctx)
    out = sys.stdout
    out.write(f"{banner}\n  open {url}\n")
    if settings.needs_token:
        out.write(f"  players who may change the game open {url}#token={settings.token}\n")
        out.write(f"  (start-up token: {settings.token}; without it a viewer can only watch)\n")
    out.write("  stop with Ctrl+C\n")
    out.flush()
    app = create_app(ctx)
    config = uvicorn.Config(
        app, host=settings.host, port=settings.port, log_level="warning", access_log=False
    )
    server = uvicorn.Server(config)
    if browser:
        open_browser(url)
    server.run()
    return 0
