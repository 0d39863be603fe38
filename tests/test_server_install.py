"""Phones join from the first command and the game installs (issue 24, items 1 and 2):
``uno serve --lan`` as a real process (its printed link and QR code, the lobby's address),
and the static files: compressed, versioned, revalidated; the manifest, the service
worker and the modules as one script (checked against Node's own ES modules).

No test sends anything to an address other than 127.0.0.1: the detected network
address is faked with UNOGAME_LAN_ADDRESS (192.0.2.0/24 is reserved for documentation).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_server_support import ServerThread, free_port, stop_process

from unogame.server.app import STATIC_DIR
from unogame.server.assets import Assets, module_graph
from unogame.server.bundle import NotBundled, bundle

FAKE_LAN = "192.0.2.7"


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, Any, bytes]:
    """Status, headers (names in any case) and body of a GET."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


class Serve:
    """``uno serve`` with these options in a subprocess; what it printed."""

    def __init__(self, tmp: Path, *options: str, lan: str | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        env = {**os.environ, **(env or {})}
        env.pop("UNOGAME_LAN_ADDRESS", None)
        if lan is not None:
            env["UNOGAME_LAN_ADDRESS"] = lan
        self.process = subprocess.Popen(
            [sys.executable, "-m", "unogame", "serve", "--port", str(self.port),
             "--db", str(tmp / f"{self.port}.sqlite3"), *options],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                if fetch(self.url + "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("uno serve did not start: " + self.finish()[1])
            time.sleep(0.05)

    def finish(self) -> tuple[str, str]:
        """Stops it; what it printed (stdout, stderr)."""
        stop_process(self.process)
        out = self.process.stdout.read() if self.process.stdout else b""
        err = self.process.stderr.read() if self.process.stderr else b""
        return out.decode(), err.decode()

    def meta(self) -> dict[str, Any]:
        return dict(json.loads(fetch(self.url + "/api/meta")[2]))


def qr_blocks(text: str) -> int:
    return text.count("█") + text.count("▀") + text.count("▄")


# ---------------------------------------------------------------- 1. phones join


def test_uno_serve_lan_prints_the_network_link_and_its_qr_code(tmp_path: Path) -> None:
    serve = Serve(tmp_path, "--lan", lan=FAKE_LAN)
    try:
        meta = serve.meta()
        page = fetch(serve.url + "/")[0]  # served on 0.0.0.0: this computer too
    finally:
        out, _ = serve.finish()
    link = f"http://{FAKE_LAN}:{serve.port}/"
    assert f"open {link} or scan this QR code" in out
    assert f"เปิด {link} หรือสแกนคิวอาร์โค้ดนี้" in out
    assert qr_blocks(out) > 200, out
    assert f"On this computer: http://127.0.0.1:{serve.port}/" in out
    assert meta["lan_url"] == f"http://{FAKE_LAN}:{serve.port}" and meta["lan_problem"] is None
    assert page == 200


def test_uno_serve_lan_without_a_network_says_why_phones_cannot_join(tmp_path: Path) -> None:
    serve = Serve(tmp_path, "--lan", lan="")
    try:
        meta = serve.meta()
    finally:
        out, _ = serve.finish()
    assert "on no network" in out and "ไม่ได้ต่อเครือข่าย" in out and qr_blocks(out) == 0
    assert f"open http://127.0.0.1:{serve.port}/ on this computer" in out
    assert meta["lan_url"] is None and meta["lan_problem"] == "no_network"


def test_plain_uno_serve_stays_local_and_says_how_to_let_phones_in(tmp_path: Path) -> None:
    serve = Serve(tmp_path, lan=FAKE_LAN)
    try:
        meta = serve.meta()
    finally:
        out, _ = serve.finish()
    assert f"Open http://127.0.0.1:{serve.port}/ in a browser on this computer." in out
    assert f"uno serve --lan --port {serve.port}" in out and "โทรศัพท์" in out
    assert qr_blocks(out) == 0 and FAKE_LAN not in out
    assert meta["lan_url"] is None and meta["lan_problem"] == "local"


def test_lan_and_host_together_are_refused(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "unogame", "serve", "--lan", "--host",
                             "127.0.0.1", "--port", str(free_port()),
                             "--db", str(tmp_path / "x.sqlite3")],
                            capture_output=True, text=True, timeout=30, check=False)
    assert result.returncode == 2 and "--lan" in result.stderr and "--host" in result.stderr


def test_the_readme_plays_with_lan() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    commands = [line for line in readme.splitlines() if "pip install -q -e ." in line]
    assert commands and commands[0].rstrip().endswith("uno serve --lan")


# ---------------------------------------------------------------- 2. static files


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    with ServerThread() as running:
        yield running


def test_static_files_are_gzipped_versioned_and_kept(server: ServerThread) -> None:
    assets: Assets = server.app.state.assets
    status, headers, page = fetch(server.url + "/", {"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Cache-Control"] == "no-cache" and "ETag" in headers
    html = gzip.decompress(page).decode() if headers.get("Content-Encoding") == "gzip" \
        else page.decode()
    scripts = re.findall(r'<script type="module" src="([^"]+)"', html)
    styles = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
    assert scripts == [f"/v/{assets.version}/app.bundle.js"] and len(styles) == 2
    for url in [*scripts, *styles]:
        status, headers, body = fetch(server.url + url, {"Accept-Encoding": "gzip, br"})
        assert status == 200 and headers["Content-Encoding"] == "gzip", url
        assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert "Accept-Encoding" in headers["Vary"]
        raw = gzip.decompress(body)
        assert len(body) < len(raw) / 2.5, url  # text shrinks to well under half
        status, plain, same = fetch(server.url + url)  # no Accept-Encoding: as it is
        assert "Content-Encoding" not in plain and same == raw
        status, _, empty = fetch(server.url + url, {"If-None-Match": headers["ETag"]})
        assert status == 304 and empty == b""
    # another release's files are not served as this one's (a page would mix releases)
    assert fetch(f"{server.url}/v/0123456789ab/style.css")[0] == 404
    status, headers, _ = fetch(server.url + "/static/style.css", {"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Cache-Control"] == "no-cache" and "ETag" in headers
    status, headers, body = fetch(server.url + "/api/i18n/th", {"Accept-Encoding": "gzip"})
    assert headers["Content-Encoding"] == "gzip" and headers["Cache-Control"] == "no-cache"
    strings = json.loads(gzip.decompress(body))
    assert strings["web.offline_retry"] == "ลองอีกครั้ง"
    assert not any(key.startswith(("tui.", "serve.")) for key in strings)  # not the page's


def test_a_new_release_has_new_urls(tmp_path: Path) -> None:
    folder = tmp_path / "static"
    shutil.copytree(STATIC_DIR, folder)
    before = Assets(folder)
    (folder / "style.css").write_text((folder / "style.css").read_text() + "\n/* new */\n")
    after = Assets(folder)
    assert before.version != after.version
    assert after.url("style.css").encode() in after.index_pages["en"].raw
    assert before.url("style.css").encode() not in after.index_pages["en"].raw


def test_the_page_asks_for_its_strings_and_meta_with_its_scripts(server: ServerThread) -> None:
    for wanted, language in (("th-TH,th;q=0.9,en;q=0.5", "th"), ("en-US,en", "en"),
                             ("de,en-GB;q=0.5", "en"), ("", "en")):
        _, headers, page = fetch(server.url + "/r/ABCDEFGH", {"Accept-Language": wanted})
        assert f'<link rel="preload" href="/api/i18n/{language}" as="fetch"'.encode() in page
        assert b'<link rel="preload" href="/api/meta" as="fetch" crossorigin>' in page
        assert "Accept-Language" in headers["Vary"]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_names_the_game_and_its_icons(server: ServerThread) -> None:
    status, headers, body = fetch(server.url + "/manifest.webmanifest")
    assert status == 200 and headers["Content-Type"].startswith("application/manifest+json")
    manifest = json.loads(body)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["short_name"] == "UNO" and "ภาษาไทย" in manifest["description"]
    sizes = {}
    for icon in manifest["icons"]:
        status, headers, data = fetch(server.url + icon["src"])
        assert status == 200 and headers["Content-Type"] == icon["type"]
        if icon["type"] == "image/png":
            width, height = png_size(data)
            assert icon["sizes"] == f"{width}x{height}"
            sizes.setdefault(icon["purpose"], set()).add(width)
    assert sizes == {"any": {192, 512}, "maskable": {512}}
    page = fetch(server.url + "/")[2]
    assert b'<link rel="manifest" href="/manifest.webmanifest">' in page


def test_the_service_worker_keeps_this_release_and_its_offline_page(
        server: ServerThread) -> None:
    assets: Assets = server.app.state.assets
    status, headers, body = fetch(server.url + "/sw.js")
    assert status == 200 and headers["Cache-Control"] == "no-cache"
    assert "javascript" in headers["Content-Type"]
    script = body.decode()
    files = json.loads(re.search(r"const FILES = (\[.*\]);", script).group(1))  # type: ignore[union-attr]
    assert f'const VERSION = "{assets.version}"' in script
    offline = assets.url("offline.html")
    assert offline in files and assets.url("app.bundle.js") in files
    for url in files:
        assert fetch(server.url + url)[0] == 200, url
    page = fetch(server.url + offline)[2].decode()
    assert "server can&#x27;t be reached" in page and "ติดต่อเซิร์ฟเวอร์ของเกมไม่ได้" in page
    assert "{{" not in page and f'href="{assets.url("offline.css")}"' in page


# ---------------------------------------------------------------- the modules as one script


def test_the_unbundled_page_preloads_its_whole_module_graph() -> None:
    assets = Assets(STATIC_DIR, bundled=False)
    page = assets.index_pages["en"].raw.decode()
    preloaded = re.findall(r'<link rel="modulepreload" href="/v/\w+/([\w.]+)">', page)
    sources = {path.name: path.read_text(encoding="utf-8") for path in STATIC_DIR.glob("*.js")}
    reached = set()
    todo = ["app.js"]
    while todo:  # every import, followed by hand (not by the server's own function)
        name = todo.pop()
        for found in re.finditer(r'from "\./([\w.]+)"|^import "\./([\w.]+)"', sources[name],
                                 re.M):
            module = found.group(1) or found.group(2)
            if module not in reached:
                reached.add(module)
                todo.append(module)
    assert set(preloaded) == reached and len(preloaded) == len(reached) > 20
    assert '<script type="module" src="/v/' in page and "/app.js" in page
    assert module_graph(sources) == preloaded


def test_the_page_modules_are_bundled() -> None:
    assets = Assets(STATIC_DIR)
    assert assets.not_bundled is None, assets.not_bundled


NODE = shutil.which("node")

SAMPLE = {
    "main.js": 'import "./log.js";\nimport { twice, name as label } from "./b.js";\n'
               'import { say } from "./log.js";\nsay(`main ${twice(2)} ${label}`);\n',
    "b.js": 'import { say } from "./log.js";\nimport { base } from "./c.js";\n'
            'say("b");\nexport function twice(x) { return x * 2 + base; }\n'
            'const name = "bee";\nconst timer = 1;\nexport { name };\n',
    "c.js": 'import { say } from "./log.js";\nsay("c");\nexport const base = 100;\n'
            'const timer = 2;\nexport class Thing {}\n',
    "log.js": 'export const lines = [];\nexport function say(text) { lines.push(text); '
              'console.log(text); }\nsay("log");\n',
}


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_bundle_evaluates_as_the_modules_do(tmp_path: Path) -> None:
    """Node runs the sample as ES modules and as the bundle: the same output, in order
    (two modules with the same private name, an aliased import, an export list)."""
    for name, source in SAMPLE.items():
        (tmp_path / name.replace(".js", ".mjs")).write_text(source.replace(".js\"", ".mjs\""))
    (tmp_path / "bundle.mjs").write_text(bundle(SAMPLE, "main.js"))
    runs = [subprocess.run([str(NODE), str(tmp_path / name)], capture_output=True, text=True,
                           timeout=30, check=True).stdout for name in ("main.mjs", "bundle.mjs")]
    assert runs[0] == runs[1] == "log\nc\nb\nmain 104 bee\n"


@pytest.mark.parametrize(("change", "why"), [
    ({"log.js": 'import { twice } from "./b.js";\nexport function say() {}\n'}, "cycle"),
    ({"c.js": "export let base = 1;\n"}, "export let"),
    ({"c.js": 'export default 3;\n'}, "export default"),
    ({"b.js": 'import * as log from "./log.js";\n'}, "import * as log"),
    ({"b.js": 'const x = import("./c.js");\n'}, "dynamic import"),
    ({"main.js": 'import { nothing } from "./log.js";\n'}, "does not export"),
])
def test_what_the_bundle_would_change_is_not_bundled(change: dict[str, str], why: str) -> None:
    with pytest.raises(NotBundled, match=re.escape(why)):
        bundle({**SAMPLE, **change}, "main.js")
