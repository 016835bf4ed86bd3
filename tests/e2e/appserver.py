"""The app as a lawyer runs it, for the browser tests: ``streamlit run app.py`` as a subprocess over
a data directory, Debian's chromium driven by Playwright, and small helpers to wait and look.

Why a module and not fixtures in each test file: every browser module starts one server and one
browser (they are the slow part) and they must be started the same way.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
STEP_TIMEOUT_MS = 60_000
START_TIMEOUT_S = 60


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def app_server(home: Path, log_dir: Path, extra_env: Mapping[str, str] | None = None) -> Iterator[str]:
    """``streamlit run app.py`` on a free loopback port over ``home``; yields its URL. ``extra_env``
    adds to the app's environment (``scripts/tryout_ui.py`` turns the model warm-up off with it)."""
    port = free_port()
    env = {
        **os.environ,
        "LEXGATE_HOME": str(home),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        **(extra_env or {}),
    }
    log = (log_dir / "streamlit.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.address", "127.0.0.1",
         "--server.port", str(port), "--server.headless", "true"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).status == 200:
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not start; see {log.name}")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@contextmanager
def browser_page(viewport: tuple[int, int] = (1440, 1500)) -> Iterator[Any]:
    """One chromium page (Playwright), with the step timeout set."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        pg = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        pg.set_default_timeout(STEP_TIMEOUT_MS)
        try:
            yield pg
        finally:
            browser.close()


def goto(pg: Any, url: str) -> None:
    pg.goto(url)
    pg.wait_for_selector("[data-testid=stApp]")
    pg.wait_for_selector("[data-testid=stSidebarNav]")
    pg.wait_for_timeout(800)


def idle(pg: Any) -> None:
    """Wait until the script has finished its run (no 'running' indicator)."""
    pg.wait_for_timeout(300)
    pg.wait_for_function(
        "() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=STEP_TIMEOUT_MS
    )
    pg.wait_for_timeout(300)


def page_and_log(pg: Any, log_dir: Path, chars: int = 3000) -> str:
    """The page's visible text and the app server log's tail: what a failed wait saw instead (CI keeps
    no screenshots)."""
    try:
        text = str(pg.evaluate("() => document.body.innerText"))
    except Exception as err:  # the page itself may be gone
        text = f"(page text unavailable: {err})"
    path = log_dir / "streamlit.log"
    log = path.read_text(encoding="utf-8", errors="replace") if path.exists() else "(no log)"
    return f"page text:\n{text[-chars:]}\n--- app server log (tail):\n{log[-chars:]}"


def shot(pg: Any, name: str, full_page: bool = False) -> None:
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)
