"""Lighthouse and axe-core for the slow browser tests and benchmarks/lighthouse_table.py.

The npm packages are pinned in ``tests/browser/node/package.json`` (and its lock file) and
installed there on first use (``npm ci``); without npm, or without the registry, the
callers skip. Lighthouse drives a Chromium that this module starts (Debian's, by path,
with a profile of its own), after Playwright has taken a seat at a table in play in it:
Lighthouse keeps the profile's storage (the seat's token) but the HTTP cache and the
service worker are emptied first, so the page loads as on a first visit.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from browser_support import ARGS, CHROMIUM

NODE_DIR = Path(__file__).resolve().parent / "node"
LIGHTHOUSE = NODE_DIR / "node_modules" / "lighthouse" / "cli" / "index.js"
AXE = NODE_DIR / "node_modules" / "axe-core" / "axe.min.js"


def npm_packages() -> str | None:
    """Installs the pinned packages if needed; None, or why they are not there."""
    if LIGHTHOUSE.exists() and AXE.exists():
        return None
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        return "node and npm are not installed"
    try:
        result = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error",
                                 "--prefer-offline", "--fetch-retries=1",
                                 "--fetch-timeout=60000"],
                                cwd=NODE_DIR, capture_output=True, text=True, timeout=600,
                                check=False)
    except subprocess.TimeoutExpired:
        return "npm ci took more than 10 minutes (no registry?)"
    if result.returncode != 0 or not LIGHTHOUSE.exists():
        return f"npm ci failed: {result.stderr.strip()[-500:]}"
    return None


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class DebuggedChromium:
    """Chromium with a remote-debugging port and a profile folder of its own."""

    def __init__(self, profile: Path) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [str(CHROMIUM), *ARGS, f"--remote-debugging-port={self.port}",
             f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/version",
                                            timeout=1):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    self.close()
                    raise RuntimeError("chromium did not start") from None
                time.sleep(0.1)

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


def lighthouse(prepare: Callable[[Any], str], profile: Path,
               categories: str = "performance,accessibility") -> dict[str, Any]:
    """Lighthouse's report (mobile preset, its simulated slow 4G and 4x slower CPU) of the
    URL that ``prepare(page)`` returns, once it ran in the same profile (Playwright)."""
    from playwright.sync_api import sync_playwright

    chromium = DebuggedChromium(profile)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.connect_over_cdp(chromium.endpoint)
            context = browser.contexts[0]
            page = context.new_page()
            url = prepare(page)
            cdp = context.new_cdp_session(page)
            origin = url.split("/", 3)[:3]
            cdp.send("Network.clearBrowserCache")
            cdp.send("Storage.clearDataForOrigin", {
                "origin": "/".join(origin), "storageTypes": "service_workers,cache_storage"})
            page.goto("about:blank")
            page.close()
            browser.close()  # Playwright's link only; the Chromium goes on
        out = profile.parent / "lighthouse.json"
        result = subprocess.run(
            ["node", str(LIGHTHOUSE), url, f"--port={chromium.port}",
             "--disable-storage-reset", f"--only-categories={categories}", "--output=json",
             f"--output-path={out}", "--quiet", "--max-wait-for-load=30000"],
            capture_output=True, text=True, timeout=300, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"lighthouse failed: {result.stderr[-2000:]}")
        return dict(json.loads(out.read_text(encoding="utf-8")))
    finally:
        chromium.close()


def scores(report: dict[str, Any]) -> dict[str, float]:
    """Each category's score (0-100) and the main metrics (ms, CLS as it is)."""
    found = {name: round(category["score"] * 100) for name, category
             in report["categories"].items() if category["score"] is not None}
    for audit in ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time",
                  "cumulative-layout-shift", "speed-index", "interactive"):
        if audit in report["audits"]:
            found[audit] = report["audits"][audit]["numericValue"]
    return found


def table_in_play(url: str) -> Any:
    """A ``prepare`` for :func:`lighthouse`: Ann creates a 4-seat room filled with bots and
    starts it; Lighthouse loads the room's link."""

    def prepare(page: Any) -> str:
        page.set_viewport_size({"width": 412, "height": 823})
        page.goto(url + "/")
        page.locator("#player-name").wait_for()
        page.fill("#player-name", "Ann")
        page.fill("#seats", "4")
        page.locator("form[data-form=create] button[type=submit]").click()
        page.locator("[data-testid=room-code]").wait_for()
        code = page.locator("[data-testid=room-code]").inner_text().replace(" ", "")
        page.locator("[data-action=start]").click()
        page.locator(".hand button.card").first.wait_for()
        return f"{url}/r/{code}"

    return prepare


def axe_violations(page: Any, impacts: tuple[str, ...] = ("serious", "critical")
                   ) -> list[dict[str, Any]]:
    """axe-core's violations of these impacts on the page as it is now (the page's context
    must be made with ``bypass_csp=True``: axe is added as a script)."""
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate("axe.run(document).then((r) => r.violations.map((v) => ("
                          "{id: v.id, impact: v.impact, help: v.help,"
                          " nodes: v.nodes.map((n) => n.target.join(' '))})))")
    return [violation for violation in found if violation["impact"] in impacts]
