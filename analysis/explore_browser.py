"""Headless Chromium for the explorer page: the DOM after the page's scripts ran, and a
screenshot. Used by the browser test (tests/integration/explore) and by
``scripts/explorer-screenshots.sh`` for the pictures under docs/img/. Debian's ``chromium``
package (scripts/apt-packages.txt) provides the browser."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

#: Browser names tried in order (Debian's package installs ``chromium``).
BROWSERS = ("chromium", "chromium-browser", "google-chrome")

#: Milliseconds of page time the browser grants the scripts before it dumps or shoots
#: (virtual time: it advances as soon as the page is idle, so a quick page is quick).
SCRIPT_BUDGET_MS = 20000


def find_browser() -> str | None:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def _command(browser: str, profile: str) -> list[str]:
    return [
        browser,
        "--headless",
        "--no-sandbox",  # root in containers and CI: Chromium's sandbox needs user namespaces
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        f"--user-data-dir={profile}",
        f"--virtual-time-budget={SCRIPT_BUDGET_MS}",
    ]


def _run(args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS="disabled:")
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env, check=False)


def rendered_dom(page: Path, browser: str, timeout: float = 120.0) -> tuple[str, str]:
    """The page's DOM once its scripts ran (``--dump-dom``) and the browser's stderr, where
    Chromium logs the page's console errors."""
    with tempfile.TemporaryDirectory() as profile:
        done = _run(
            [*_command(browser, profile), "--enable-logging=stderr", "--dump-dom", page.resolve().as_uri()], timeout
        )
    if done.returncode != 0:
        raise RuntimeError(f"{browser} --dump-dom exited with {done.returncode}: {done.stderr[-2000:]}")
    return done.stdout, done.stderr


def screenshot(
    page: Path, png: Path, browser: str, size: tuple[int, int] = (1400, 2400), timeout: float = 120.0
) -> Path:
    """A PNG of the page's top ``size`` pixels (width, height) once its scripts ran."""
    png.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        done = _run(
            [
                *_command(browser, profile),
                f"--window-size={size[0]},{size[1]}",
                f"--screenshot={png.resolve()}",
                page.resolve().as_uri(),
            ],
            timeout,
        )
    if done.returncode != 0 or not png.exists():
        raise RuntimeError(f"{browser} --screenshot exited with {done.returncode}: {done.stderr[-2000:]}")
    return png
