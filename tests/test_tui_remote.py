"""``uno play --join URL`` (issue 24): a seat of a real ``uno serve`` process played from
the terminal over the browser's protocol: the lobby, the table, moves sent to the server,
refusals in the player's language from the server's codes, a dropped link and a held one
(heartbeat, reconnect, a move made meanwhile applied once), the seat's token kept for
the next ``--join``. At 80x24 and 120x40, in Thai and English."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

textual = pytest.importorskip("textual")

from link_proxy import LinkProxy  # noqa: E402
from test_server_support import Client, ServerProcess, autoplay, create_room, free_port  # noqa: E402
from tui_helpers import game_screen, screen_text, until  # noqa: E402

from unogame.cli import main  # noqa: E402
from unogame.i18n import translate  # noqa: E402
from unogame.tui.refusals import reason_text  # noqa: E402
from unogame.tui.remote import SeatTokens, parse_room_url  # noqa: E402
from unogame.tui.remote_app import RemoteApp  # noqa: E402
from unogame.tui.screens.choice import ChoiceScreen  # noqa: E402
from unogame.tui.screens.game import GameScreen  # noqa: E402
from unogame.tui.screens.lobby import LobbyScreen  # noqa: E402
from unogame.tui.words import Words  # noqa: E402

SIZES = [(80, 24), (120, 40)]
SEAT = 2
"""The terminal's seat: the host is 0, a bot 1."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("serve") / "games.sqlite3", free_port(),
                            bot_think=0.05)
    process.start()
    yield process
    process.stop()


def terminal(port: int, code: str, seats: Path, lang: str = "en") -> RemoteApp:
    address = parse_room_url(f"http://127.0.0.1:{port}/r/{code}")
    return RemoteApp(address, "Tui", lang, SeatTokens(seats))


async def my_turn(pilot: Any, app: RemoteApp) -> None:
    """Wait for the terminal's own turn, an ordinary one: a decision pending on it first
    (the colour of a first wild, a Wild Draw Four to accept, a stack, a drawn card) is
    answered with keys, as the game waits for it."""
    def mine() -> bool:
        remote = app.remote
        return remote is not None and isinstance(app.screen, (GameScreen, ChoiceScreen)) \
            and remote.game.view(SEAT)["turn"] == SEAT \
            and remote.game.view(SEAT)["winner"] is None and bool(remote.game.legal_moves(SEAT))

    for _ in range(20):
        await until(pilot, mine, 60)
        await pilot.pause()
        remote = app.remote
        assert remote is not None
        pending = remote.game.view(SEAT)["pending"]
        kinds = {move.text.split()[0] for move in remote.game.legal_moves(SEAT)}
        if pending is None and "draw" in kinds and isinstance(app.screen, GameScreen):
            return
        version = remote.version
        if isinstance(app.screen, ChoiceScreen):
            await pilot.press("r")
        elif "accept" in kinds:
            await pilot.press("a")
        elif "pass" in kinds:
            await pilot.press("k")
        elif "draw" in kinds:
            await pilot.press("d")
        else:
            await pilot.press("enter")
        # the answer lands (or the link was made anew: another remote); if not within
        # 15 s on a loaded machine, the position is looked at again and answered again
        await settled(pilot, lambda seen=remote, at=version: app.remote is not seen
                      or seen.version != at, 15)
    raise AssertionError("no ordinary turn came")


async def settled(pilot: Any, condition: Callable[[], bool], seconds: float) -> bool:
    """:func:`until` that says whether ``condition`` came instead of failing."""
    try:
        await until(pilot, condition, seconds)
    except AssertionError:
        return False
    return True


def events_by(client: Client, kind: str, seat: int) -> list[dict[str, Any]]:
    return [event for message in client.messages if message.get("type") == "update"
            for event in message["events"] if event["type"] == kind and event.get("seat") == seat]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "th"])
def test_a_terminal_seat_plays_a_room_of_uno_serve(server: ServerProcess, tmp_path: Path,
                                                   lang: str, size: tuple[int, int]) -> None:
    async def scenario() -> None:
        host = await create_room(server.ws_url, "Host", seats=3, bots=["random"])
        assert host.room is not None
        app = terminal(server.port, host.room, tmp_path / "seats.json", lang)
        async with app.run_test(size=size) as pilot:
            # the lobby: the room's code, its seats, the terminal's own marked
            await until(pilot, lambda: "▶ 3. Tui" in screen_text(app), 30)
            text = screen_text(app)
            assert isinstance(app.screen, LobbyScreen)
            assert host.room in text and "1. Host" in text
            assert translate(lang, "tui.remote.waiting") in text
            await host.request({"type": "start"}, "state")
            playing = asyncio.create_task(autoplay(host, 1, deal=True, timeout=120))
            try:
                await my_turn(pilot, app)
                screen = game_screen(app)
                view = app.remote.game.view(SEAT) if app.remote else {}
                hand = view["hands"][SEAT]
                assert sorted(screen.hand.cards) == sorted(hand)  # the server's hand
                assert len(hand) == host.game()["view"]["hands"][SEAT]  # as the host counts it
                text = screen_text(app)
                assert "Tui" in text and "Host" in text and "Bot 1" in text
                # an unplayable card: the reason asked of the server, in the player's language
                legal = {move.card_code for move in app.remote.game.legal_moves(SEAT)} \
                    if app.remote else set()
                unplayable = [card for card in hand if card not in legal]
                if unplayable:
                    card = unplayable[0]
                    while screen.hand.chosen != card:
                        await pilot.press("right")
                    await pilot.press("enter")
                    await until(pilot, lambda: app.last_why is not None)
                    answer = app.last_why or {}
                    assert answer["card"] == card
                    reason = answer["refusal"]
                    if reason is not None:  # none: a bot's move made the card playable
                        expected = reason_text(
                            Words(lang, app.remote.names if app.remote else []),
                            reason["code"], {**reason["params"], "card": card}, "?")
                        assert expected != "?" and screen.message == expected
                        assert expected.split()[-1] in screen_text(app)
                # a key the server refuses: its code, said in the player's language
                await pilot.press("k")
                await until(pilot, lambda: app.last_error is not None and bool(screen.message))
                refusal = app.last_error["refusal"] if app.last_error else {}
                assert refusal["code"] == "pass_only_drawn", refusal
                said = translate(lang, f"web.why.{refusal['code']}")
                assert screen.message == said
                if lang == "th":
                    assert re.search("[\u0e00-\u0e7f]", said) and refusal["text"] != said
                # a move goes to the server: the host sees the terminal draw
                before = len(events_by(host, "draw", SEAT))
                await pilot.press("d")
                await host.wait_for(lambda _m: len(events_by(host, "draw", SEAT)) > before, 10)
            finally:
                playing.cancel()
            await host.close()

    asyncio.run(scenario())


def test_a_dropped_link_comes_back_into_the_same_seat(server: ServerProcess,
                                                       tmp_path: Path) -> None:
    async def scenario() -> None:
        host = await create_room(server.ws_url, "Host", seats=3, bots=["random"])
        assert host.room is not None
        app = terminal(server.port, host.room, tmp_path / "seats.json", "th")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.link.state == "open" and app.remote is not None)
            await host.request({"type": "start"}, "state")
            playing = asyncio.create_task(autoplay(host, 2, deal=True, timeout=120))
            try:
                await my_turn(pilot, app)
                app.link.drop()  # the Wi-Fi went
                await until(pilot, lambda: app.link.connections == 2 and app.link.state == "open")
                assert app.remote is not None and app.remote.seat == SEAT
                await my_turn(pilot, app)
                before = len(events_by(host, "draw", SEAT))
                await pilot.press("d")
                await host.wait_for(lambda _m: len(events_by(host, "draw", SEAT)) > before, 10)
                names = [seat["name"] for seat in host.last("room")["seats"]]
                assert names == ["Host", "Bot 1", "Tui"]  # no second seat was taken
            finally:
                playing.cancel()
            await host.close()
        # the next --join is back in the same seat too (its token was kept)
        assert SeatTokens(tmp_path / "seats.json").get(app.address)
        again = terminal(server.port, host.room, tmp_path / "seats.json", "en")
        async with again.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: again.remote is not None and again.remote.seat == SEAT
                        and isinstance(again.screen, GameScreen), 30)

    asyncio.run(scenario())


def test_a_held_link_is_found_by_the_heartbeat_and_a_move_made_meanwhile_counts_once(
        server: ServerProcess, tmp_path: Path) -> None:
    """A link that drops every packet and closes nothing (a phone's Wi-Fi): "Reconnecting…"
    on the table after 2.5 s, a new socket after 6 s; the draw pressed meanwhile is applied
    once the link is back, and only once."""
    async def scenario() -> None:
        host = await create_room(server.ws_url, "Host", seats=3, bots=["random"])
        assert host.room is not None
        proxy = LinkProxy(server.port)
        app = terminal(proxy.port, host.room, tmp_path / "seats.json", "en")
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: app.link.state == "open" and app.remote is not None)
                await host.request({"type": "start"}, "state")
                playing = asyncio.create_task(autoplay(host, 3, deal=True, timeout=120))
                try:
                    await my_turn(pilot, app)
                    version = app.remote.version if app.remote else -1
                    held = asyncio.get_running_loop().time()
                    proxy.hold()
                    await pilot.press("d")
                    quiet = translate("en", "tui.remote.link_quiet")
                    await until(pilot, lambda: app.link.state in ("quiet", "down"), 20)
                    assert asyncio.get_running_loop().time() - held >= 2.0
                    if app.link.state == "quiet":  # said on the table while it lasts
                        await until(pilot, lambda: quiet in screen_text(app)
                                    or app.link.state != "quiet", 10)
                        assert quiet in screen_text(app) or app.link.state != "quiet"
                    await until(pilot, lambda: app.link.state == "down", 20)
                    down = translate("en", "tui.remote.link_down")
                    await until(pilot, lambda: down in screen_text(app), 10)
                    proxy.resume()
                    await until(pilot, lambda: app.link.state == "open"
                                and app.remote is not None and app.remote.version > version, 60)
                    await host.wait_for(lambda _m: bool(events_by(host, "draw", SEAT)), 10)
                    await asyncio.sleep(1.0)
                    turn_draws = [e for e in events_by(host, "draw", SEAT)
                                  if e.get("reason", "turn") == "turn"]
                    assert len(turn_draws) >= 1
                    draws_at = [m for m in host.messages if m.get("type") == "update"
                                and m["version"] == version + 1
                                and any(e["type"] == "draw" and e.get("seat") == SEAT
                                        for e in m["events"])]
                    assert len(draws_at) == 1  # applied once, on the version it was made on
                    assert quiet not in screen_text(app)
                finally:
                    playing.cancel()
        finally:
            proxy.close()
        await host.close()

    asyncio.run(scenario())


def test_join_refuses_a_link_without_a_room(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--join", "http://127.0.0.1:8000/"]) == 2
    assert "/r/CODE" in capsys.readouterr().err
    assert parse_room_url("http://h:1/r/hk7p 3rxd").code == "HK7P3RXD"


# ---------------------------------------------------------------- the screens, fed messages


def fed_app(lang: str = "en") -> RemoteApp:
    """A seat whose server never answers (a closed port): the test hands it the server's
    messages itself, as the link would."""
    return RemoteApp(parse_room_url(f"http://127.0.0.1:{free_port()}/r/ABCD2345"), "Tui", lang,
                     SeatTokens(Path("/nonexistent/seats.json")))


def room_message() -> dict[str, Any]:
    return {"type": "room", "room": "ABCD2345", "status": "playing", "host": 0, "you": SEAT,
            "rules": {"target_score": 100},
            "seats": [{"name": "Host", "kind": "human", "connected": True},
                      {"name": "Bot 1", "kind": "bot", "connected": True},
                      {"name": "Tui", "kind": "human", "connected": True}]}


def state_message() -> dict[str, Any]:
    from unogame.engine import Game

    game = Game.from_position({"players": 3, "hands": [["R1", "G2"], ["B7", "Y3"],
                                                       ["W", "R5", "B2"]],
                               "draw_pile": ["Y1", "G5"], "discard_pile": ["R9"],
                               "color": "R", "turn": SEAT})
    return {"type": "state", "status": "playing", "version": 7, "round": 1,
            "view": game.view(SEAT), "legal": [m.text for m in game.legal_moves(SEAT)],
            "log": [{"type": "deal", "dealer": 1, "top": "R9", "turn": SEAT, "direction": 1}]}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "th"])
def test_a_match_that_ends_under_a_dialog_goes_back_to_the_room(lang: str,
                                                                size: tuple[int, int]) -> None:
    """The server ends the match while the colour dialog of a wild is open: the last
    scoreboard comes over it, Enter goes back to the room (the table and the dialog
    gone), and a key there acts on the room, not on the dialog."""
    async def scenario() -> None:
        from unogame.tui.screens.choice import ChoiceScreen
        from unogame.tui.screens.score import ScoreScreen

        app = fed_app(lang)
        async with app.run_test(size=size) as pilot:
            app.received({"type": "joined", "room": "ABCD2345", "seat": SEAT, "token": None})
            app.received(room_message())
            state = state_message()
            app.received(state)
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            await pilot.pause()
            screen = game_screen(app)
            asked: list[dict[str, Any]] = []
            app.link.send = lambda message: asked.append(message) is None  # type: ignore[method-assign]
            screen.hand.choose("B2")
            await pilot.press("enter")  # asks the server why B2 cannot be played
            assert asked == [{"type": "why", "card": "B2"}]
            app.received({"type": "why", "card": "B2", "version": 7, "refusal": {
                "code": "no_match", "rule": "R4.2", "params": {"top": "R9", "color": "R"}}})
            await pilot.pause()  # the answer, in the language
            assert screen.message == translate(lang, "web.why.no_match", card="B2", top="R9",
                                               color=Words(lang).color_name("R"))
            del app.link.send
            screen.hand.choose("W")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
            view = {**state["view"], "winner": 0, "game_winner": 0, "scores": [120, 0, 0]}
            app.received({"type": "update", "status": "match_over", "version": 8, "round": 1,
                          "view": view, "legal": [],
                          "events": [{"type": "round_over", "winner": 0,
                                      "points": [120, 0, 0], "scores": [120, 0, 0],
                                      "hands": [[], ["B7", "Y3"], ["W", "R5", "B2"]]}]})
            await until(pilot, lambda: isinstance(app.screen, ScoreScreen))
            await pilot.pause()
            text = screen_text(app)
            assert translate(lang, "tui.score.match_over", name="Host") in text
            assert translate(lang, "tui.remote.score_back").split(" · ")[0] in text
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("r")
            await pilot.pause()
            assert app.is_running and isinstance(app.screen, LobbyScreen)
            assert translate(lang, "tui.remote.match_over") in screen_text(app)

    asyncio.run(scenario())


def test_an_update_right_after_the_first_state_waits_for_the_table() -> None:
    """The server's next message can come before the table is on the screen (a bot moves
    at once): it is drawn once the table is there (it raised NoMatches '#status' and the
    link died with it)."""
    async def scenario() -> None:
        app = fed_app()
        async with app.run_test(size=(80, 24)) as pilot:
            app.received({"type": "joined", "room": "ABCD2345", "seat": SEAT, "token": None})
            app.received(room_message())
            state = state_message()
            app.received(state)
            view = {**state["view"], "turn": 0, "discard_pile": ["R5", "R9"],
                    "hands": [2, 2, ["W", "B2"]]}
            app.received({"type": "update", "status": "playing", "version": 8, "round": 1,
                          "view": view, "legal": ["play W R"], "why": {},
                          "events": [{"type": "play", "seat": SEAT, "card": "R5"}]})
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            await pilot.pause()
            assert game_screen(app).hand.cards == ("B2", "W")
            assert "Host" in screen_text(app).splitlines()[0]

    asyncio.run(scenario())


def test_the_terminals_beat_is_the_pages_text() -> None:
    """The terminal pings with the page's very text (compact JSON), the one the server
    answers where it arrives, without waking its reading task."""
    from unogame.server.connections import BEAT_TEXT
    from unogame.tui.remote import BEAT, wire_text

    assert wire_text(BEAT).encode() == BEAT_TEXT
