"""``uno play --join`` as a person runs it (issue 24): the real command in tmux at 80x24,
driven by ``tmux send-keys`` and read by ``tmux capture-pane``, plays a whole match in a
room of a real ``uno serve`` process against the room's host (a WebSocket client playing
on its own) and a bot. Slow (a match of a few rounds): ``-m slow``."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from test_server_support import ServerProcess, autoplay, create_room, free_port

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts" / "screens24"
TARGET = 60
"""The match's target score: a few rounds."""


class Host:
    """The room's creator in a thread of its own: creates the room, starts the game when
    told, then plays every move and presses "next round" until the match is over."""

    def __init__(self, ws_url: str) -> None:
        self.ws_url = ws_url
        self.code: str | None = None
        self.created = threading.Event()
        self.start = threading.Event()
        self.final: dict[str, Any] | None = None
        self.terminal_moves: list[str] = []
        """The kinds of the events of the terminal's seat the host saw."""
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self.thread.start()

    async def _run(self) -> None:
        try:
            host = await create_room(self.ws_url, "Host", seats=3, bots=["random"],
                                     rules={"target_score": TARGET})
            self.code = host.room
            self.created.set()
            while not self.start.is_set():
                await asyncio.sleep(0.05)
            await host.request({"type": "start"}, "state")
            self.final = await autoplay(host, 7, deal=True, timeout=400)
            await asyncio.sleep(1.0)
            self.terminal_moves = [event["type"] for message in host.messages
                                   if message.get("type") == "update"
                                   for event in message["events"] if event.get("seat") == 2]
            await host.close()
        except BaseException as error:  # said by the test
            self.error = error
            self.created.set()


class Tmux:
    """One tmux server of its own (``-L``), so nothing else's sessions are touched."""

    def __init__(self, name: str) -> None:
        self.socket = name

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True,
                              capture_output=True, text=True).stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "uno")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "uno", *keys)

    def exited(self) -> bool:
        return self.run("display-message", "-p", "-t", "uno", "#{pane_dead}").strip() == "1"

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def wait_for(condition: Any, seconds: float, what: str, tmux: Tmux) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}; the screen:\n{tmux.screen()}")
        time.sleep(0.1)


def test_a_whole_match_from_tmux_with_join(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "games.sqlite3", free_port(), bot_think=0.05)
    server.start()
    tmux = Tmux(f"uno24-{os.getpid()}")
    try:
        host = Host(server.ws_url)
        assert host.created.wait(30) and host.code, host.error
        url = f"http://127.0.0.1:{server.port}/r/{host.code}"
        command = (f"env PYTHONPATH={ROOT / 'src'} {sys.executable} -m unogame play "
                   f"--join {url} --names Tmux --seats-file {tmp_path / 'seats.json'}")
        tmux.run("new-session", "-d", "-s", "uno", "-x", "80", "-y", "24", command)
        tmux.run("set-option", "-t", "uno", "remain-on-exit", "on")  # a crash stays readable
        wait_for(lambda: "Waiting for the host" in tmux.screen(), 30, "no lobby", tmux)
        lobby = tmux.screen()
        assert host.code in lobby and "▶ 3. Tmux" in lobby
        host.start.set()
        moves = played = 0
        rounds_seen: set[str] = set()
        deadline = time.monotonic() + 400
        while host.final is None and host.error is None:
            assert time.monotonic() < deadline, tmux.screen()
            screen = tmux.screen()
            lines = screen.splitlines()
            prompt = "\n".join(lines[-3:-1])  # above the key footer
            if "wins the match" in screen:
                time.sleep(0.25)
                continue  # the last scoreboard: read below
            if "Enter: next round" in screen:
                rounds_seen.add(next(line for line in lines if " wins" in line))
                tmux.keys("Enter")
            elif "Choose the colour" in screen:
                tmux.keys("r")
            elif "played a Wild Draw Four" in prompt:
                tmux.keys("a")
            elif "You drew" in prompt:
                tmux.keys("k" if "K keep" in prompt else "Enter")
            elif "Stack of" in prompt:
                tmux.keys("d")
            elif "Your turn" in prompt:
                # the chosen card, else the next one, else draw: a refusal says why
                tmux.keys("Enter" if moves % 3 != 2 else "d")
                if moves % 3 == 0:
                    tmux.keys("Right")
                moves += 1
                played += 1
            time.sleep(0.25)
        assert host.error is None, host.error
        assert host.final is not None and host.final["status"] == "match_over"
        assert host.final["view"]["game_winner"] is not None
        # the terminal's last scoreboard says who won the match; Enter: back to the room
        wait_for(lambda: "wins the match" in tmux.screen(), 30, "no final scoreboard", tmux)
        final = tmux.screen()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "term-tmux-join-match-over-80x24.txt").write_text(final, encoding="utf-8")
        names = ["Host", "Bot 1", "Tmux"]
        assert f"{names[host.final['view']['game_winner']]} wins the match" in final
        assert played > 0
        time.sleep(1.5)  # the host's count of the terminal's moves
        assert "play" in host.terminal_moves and "draw" in host.terminal_moves, \
            host.terminal_moves
        tmux.keys("Enter")
        wait_for(lambda: "The match is over" in tmux.screen(), 15, "not back in the room", tmux)
        tmux.keys("C-q")  # no match in progress: quits at once
        wait_for(tmux.exited, 15, "did not quit", tmux)
    finally:
        tmux.close()
        server.stop()
