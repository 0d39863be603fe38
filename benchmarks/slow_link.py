"""The home page on a slow phone link (issue 24, item 2). Not a test: it prints figures.

Chromium's own network emulation (CDP ``Network.emulateNetworkConditions``: ``--latency``
ms added to every request, ``--kbit`` kbit/s each way) between a fresh page and a real
``uno serve`` process. Printed per load: requests, bytes on the wire (compressed sizes as
sent), and seconds until the page is usable (the home form drawn and the WebSocket open).
``cold``: a first visit (empty cache); ``warm``: the same browser profile again (HTTP cache,
and the service worker where the page has one). Loads of each tree alternate.

    PYTHONPATH=src .venv/bin/python benchmarks/slow_link.py --tree /work/main/src --tree src
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(src: str, port: int, db: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": src}
    process = subprocess.Popen([sys.executable, "-m", "unogame", "serve", "--port", str(port),
                                "--db", db], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return process
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("the server did not start") from None
            time.sleep(0.2)


def load(context: Any, url: str, latency: float, kbit: float) -> dict[str, float]:
    """One load of the home page in ``context``, throttled; its requests, bytes, seconds."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    per_second = kbit * 1000 / 8
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": latency, "downloadThroughput": per_second,
        "uploadThroughput": per_second})
    requests: list[str] = []
    sizes: dict[str, float] = {}
    opened: list[float] = []
    cdp.on("Network.requestWillBeSent", lambda e: requests.append(e["request"]["url"]))
    cdp.on("Network.loadingFinished",
           lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
    cdp.on("Network.webSocketHandshakeResponseReceived",
           lambda e: opened.append(time.monotonic()))
    started = time.monotonic()
    page.goto(url, wait_until="commit")
    page.locator("#player-name").wait_for(timeout=60_000)
    drawn = time.monotonic()
    while not opened and time.monotonic() - started < 60:
        page.wait_for_timeout(20)
    usable = max(drawn, opened[0] if opened else drawn) - started
    page.wait_for_timeout(1500)  # what the page fetches after it is usable counts too
    page.close()
    return {"requests": len(requests), "kbytes": sum(sizes.values()) / 1000,
            "usable_s": usable}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", action="append", required=True,
                        help="a source tree (PYTHONPATH) whose server is measured")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--latency", type=float, default=400.0, help="ms per request")
    parser.add_argument("--kbit", type=float, default=400.0, help="kbit/s each way")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        servers = {}
        for number, tree in enumerate(args.tree):
            port = free_port()
            servers[tree] = (port, start_server(tree, port, str(Path(folder) / f"{number}.db")))
        try:
            for run in range(args.runs):
                for tree, (port, _) in servers.items():
                    profile = Path(folder) / f"profile-{run}-{port}"
                    context = playwright.chromium.launch_persistent_context(
                        str(profile), executable_path=CHROMIUM, args=ARGS,
                        viewport={"width": 390, "height": 844}, locale="en-US")
                    try:
                        url = f"http://127.0.0.1:{port}/"
                        for kind in ("cold", "warm"):
                            figures = load(context, url, args.latency, args.kbit)
                            results.setdefault((tree, kind), []).append(figures)
                    finally:
                        context.close()
        finally:
            for _, process in servers.values():
                process.terminate()
                process.wait(10)
    print(f"latency {args.latency:.0f} ms, {args.kbit:.0f} kbit/s, {args.runs} runs (median)")
    for (tree, kind), runs in results.items():
        each = ", ".join(f"{run['usable_s']:.2f}" for run in runs)
        median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        print(f"{tree:30} {kind:5} requests {median['requests']:4.0f}  "
              f"{median['kbytes']:7.1f} kB  usable {median['usable_s']:5.2f} s  "
              f"(usable each run: {each})")


if __name__ == "__main__":
    main()
