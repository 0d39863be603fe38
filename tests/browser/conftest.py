"""The browser tests share the server helpers of the tests folder, and one Chromium."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from browser_support import ARGS, CHROMIUM


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for the tests of a module (each test opens contexts of its own, so no
    cookie or storage is shared). Not for longer: a live sync Playwright leaves the
    thread's asyncio loop marked as running, and ``asyncio.run`` in the tests after it
    would refuse to start (a conftest in a folder without ``__init__.py`` has no package
    scope: "package" would mean the whole session)."""
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (scripts/test does it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(autouse=True)
def _close_left_contexts(request: pytest.FixtureRequest) -> Iterator[None]:
    """What a test left open (a failed test skips its own closing) goes with it, so that
    no page of it goes on reconnecting during the next test."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()
