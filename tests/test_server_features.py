"""Smaller parts of the web front end: the turn timer's stand-in bot, the LAN banner with
its QR code, the pages and API, the translations the page uses, and no CDN (issue 4)."""

from __future__ import annotations

import asyncio
import io
import json
import random
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from test_server_support import Client, ServerThread, choose, create_room, join, run

from unogame.i18n import table
from unogame.server.cli import Reach, print_banner
from unogame.server.rooms import Timing

STATIC = Path(__file__).resolve().parents[1] / "src" / "unogame" / "server" / "static"


@pytest.fixture(scope="module")
def server() -> Any:
    with ServerThread(timing=Timing(think=0.05, reaction_scale=0.05)) as running:
        yield running


def get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.headers["content-type"], response.read()


def test_pages_api_and_qr(server: ServerThread) -> None:
    status, kind, body = get(server.url + "/")
    assert status == 200 and "text/html" in kind
    assert re.search(rb'src="/v/\w+/app.bundle.js"', body)
    status, kind, body = get(server.url + "/r/ABCDE")
    assert status == 200 and b"/app.bundle.js" in body
    meta = json.loads(get(server.url + "/api/meta")[2])
    assert "random" in meta["bot_levels"] and "discard_color" in meta["custom_rules"]
    assert meta["rules"]["target_score"] == 500
    assert meta["seat_purpose"]["WS"] == meta["seat_purpose"]["G7"] == "swap"  # engine's
    assert meta["seat_purpose"]["WC"] == "draw" and meta["event_kinds"]["draw"]["private"] == [
        "cards"]
    th = json.loads(get(server.url + "/api/i18n/th")[2])
    assert th["common.color.R"] == "แดง"
    status, kind, body = get(server.url + "/api/qr.svg?data=http://192.168.1.5:8000/r/ABCDE")
    assert kind.startswith("image/svg+xml") and body.startswith(b"<?xml") and b"<svg" in body
    with pytest.raises(urllib.error.HTTPError):
        get(server.url + "/api/qr.svg?data=" + "x" * 400)
    for name in ("app.js", "cards.js", "style.css", "icon.svg"):
        assert get(f"{server.url}/static/{name}")[0] == 200
    for path in STATIC.glob("*.js"):  # every module the page imports is served as a script
        status, kind, _ = get(f"{server.url}/static/{path.name}")
        assert status == 200 and "javascript" in kind, path.name


def test_meta_gives_the_lan_address_for_invites() -> None:
    with ServerThread(lan_url="http://192.168.1.20:8000") as lan:
        meta = json.loads(get(lan.url + "/api/meta")[2])
        assert meta["lan_url"] == "http://192.168.1.20:8000"


def test_nothing_is_fetched_from_elsewhere() -> None:
    """The page works on a LAN without internet: no URL outside the server itself."""
    for path in STATIC.iterdir():
        if path.suffix == ".png":
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", text), path.name
        assert not re.search(r"url\(\s*[\"']?(https?:)?//", text), path.name
        assert "import(" not in text or path.name == "app.js"


def used_keys() -> set[str]:
    source = "\n".join(path.read_text(encoding="utf-8") for path in STATIC.glob("*.js"))
    keys = set(re.findall(r"t\(\"((?:web|rules|common)\.[a-z0-9_.+-]+)\"", source))
    keys |= set(re.findall(r"\"((?:web)\.[a-z0-9_]+\.?[a-z0-9_]*)\"", source))
    sections = ["goal", "turn", "actions", "wild", "uno", "scoring", "house"]
    keys |= {f"rules.{name}.{part}" for name in sections for part in ("title", "text")}
    return {key for key in keys if not key.endswith(".")}


@pytest.mark.parametrize("language", ["en", "th"])
def test_every_string_of_the_page_is_translated(language: str) -> None:
    strings = table(language)
    own = {**json.loads((STATIC.parents[1] / "i18n" / f"web.{language}.json").read_text()),
           **json.loads((STATIC.parents[1] / "i18n" / f"common.{language}.json").read_text())}
    missing = sorted(key for key in used_keys() if key not in strings)
    assert missing == []
    if language == "th":  # really Thai, not English left over
        english = {**json.loads((STATIC.parents[1] / "i18n" / "web.en.json").read_text())}
        same = [key for key, text in own.items() if english.get(key) == text
                and re.search("[a-z]{4}", text)]
        assert same == []
        assert all(re.search("[\u0e00-\u0e7f]", own[key]) for key in own
                   if key.startswith("rules."))
    levels = json.loads(get_meta_levels())
    for level in levels:
        assert f"common.level.{level}" in strings
    from unogame.engine import CUSTOM_RULES, Rules
    for name in CUSTOM_RULES:
        assert f"common.custom.{name}" in own
    for option in Rules().__dataclass_fields__:
        assert f"common.rule.{option}" in own
    for error in ("stale", "illegal", "not_host", "room_full", "rate_limited", "too_large"):
        assert f"web.error.{error}" in strings or error == "illegal"


def get_meta_levels() -> str:
    from unogame.bots import BOT_LEVELS

    return json.dumps(list(BOT_LEVELS))


def test_lan_banner_prints_the_address_and_a_qr_code() -> None:
    out = io.StringIO()
    print_banner("0.0.0.0", 8123, "/tmp/x.sqlite3", out, Reach("http://192.0.2.7:8123"))
    text = out.getvalue()
    assert "open http://192.0.2.7:8123/ or scan" in text and "เปิด http://192.0.2.7:8123/" in text
    assert text.count("█") + text.count("▀") + text.count("▄") > 50  # the QR code
    assert "On this computer: http://127.0.0.1:8123/" in text
    out = io.StringIO()
    print_banner("127.0.0.1", 8000, "/tmp/x.sqlite3", out)
    assert "http://127.0.0.1:8000/" in out.getvalue()


def test_lan_banner_without_a_network_says_why_phones_cannot_join() -> None:
    out = io.StringIO()
    print_banner("0.0.0.0", 8123, "/tmp/x.sqlite3", out, Reach(None, "no_network"))
    text = out.getvalue()
    assert "on no network" in text and "ไม่ได้ต่อเครือข่าย" in text
    assert "http://127.0.0.1:8123/" in text and "▀" not in text


def test_a_player_gone_past_the_timer_is_played_by_a_bot(server: ServerThread) -> None:
    async def scenario() -> None:
        host = await create_room(server.ws_url, seats=2, timer=5, grace=5)
        guest = await join(server.ws_url, host.room or "", "Guest")
        await host.request({"type": "start"}, "state")
        token = guest.token
        await guest.close()  # the guest's phone sleeps
        started = time.monotonic()
        room = server.manager.rooms[host.room]
        # Whenever it is the host's turn the host plays; the guest's seat is played by a
        # stand-in bot once the guest has been gone for the timer.
        rng = random.Random(1)
        guest_moves = 0
        while guest_moves < 3:
            assert time.monotonic() - started < 40
            await asyncio.sleep(0.1)
            message = host.game()
            if room.game is None:
                continue
            guest_moves = sum(1 for seat, _ in room.game.history if seat == 1)
            if message["status"] == "round_over":
                await host.send({"type": "next_round", "version": message["version"]})
                await asyncio.sleep(0.2)
            elif message["view"]["turn"] == 0 and message["legal"]:
                move = choose(message["legal"], True, rng)
                if move:
                    await host.send({"type": "move", "move": move,
                                     "version": message["version"]})
                    await asyncio.sleep(0.2)
        assert time.monotonic() - started >= 4.5  # not before the timer
        seats = host.last("room")["seats"]
        assert seats[1]["away"] is True
        # The guest comes back: the seat is theirs again, no bot plays it.
        back = await Client.connect(server.ws_url)
        start = len(host.messages)
        await back.request({"type": "resume", "room": host.room, "token": token}, "state")
        await host.wait_for(lambda m: m["type"] == "room" and len(m["seats"]) == 2
                            and m["seats"][1]["connected"] and not m["seats"][1]["away"]
                            and m["status"] != "lobby", start=start)
        assert room.seats[1].gone_since is None
        await back.close()
        await host.close()

    run(scenario())


def test_server_code_is_typed_strictly() -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "src/unogame/server"],
                            cwd=root, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_bot_level_plays_server_side(server: ServerThread) -> None:
    """Bots think in a worker thread and are told what happened meanwhile afterwards."""
    from test_server_support import autoplay

    from unogame.bots import BOT_LEVELS

    async def scenario() -> None:
        levels = list(BOT_LEVELS)  # every level, rule and hard too
        host = await create_room(server.ws_url, seats=len(levels) + 1, bots=levels)
        await host.request({"type": "start"}, "state")

        def moved_on(message: dict[str, Any]) -> bool:
            return message["version"] >= 25

        await autoplay(host, seed=5, deal=True, until=moved_on, timeout=90)
        moves = await server.settled_async(host.room or "", lambda room, moves: moves)
        bot_moves = {seat for seat, _ in moves if seat > 0}  # the stored log, every round
        assert bot_moves, "no bot moved"
        await host.close()

    run(scenario())


def test_uno_serve_checks_the_port_before_saying_where_to_open_it(tmp_path: Path) -> None:
    import argparse
    import io
    import socket

    from unogame.server.cli import cmd_serve

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out, err = io.StringIO(), io.StringIO()
        args = argparse.Namespace(host="127.0.0.1", port=port, db=str(tmp_path / "x.sqlite3"),
                                  bot_think=0.0, max_rooms=10, log_level="warning")
        assert cmd_serve(args, out, err) == 1
    assert "Open" not in out.getvalue()
    assert f"cannot listen on 127.0.0.1:{port}" in err.getvalue() and "--port" in err.getvalue()


def test_the_loopback_banner_says_phones_cannot_open_it() -> None:
    out = io.StringIO()
    print_banner("127.0.0.1", 8000, "/tmp/x.sqlite3", out)
    text = out.getvalue()
    assert "Phones can't reach this address" in text and "uno serve --lan\n" in text
    assert "โทรศัพท์เข้าที่อยู่นี้ไม่ได้" in text
    out = io.StringIO()
    print_banner("127.0.0.1", 8123, "/tmp/x.sqlite3", out)
    assert "uno serve --lan --port 8123" in out.getvalue()
