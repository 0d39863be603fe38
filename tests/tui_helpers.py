"""Helpers for the terminal game's pilot tests (tests/test_tui*.py)."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from typing import Any

from rich.console import Console
from textual import events

from unogame.engine import Game, Rules
from unogame.tui.app import UnoApp
from unogame.tui.match import MatchConfig, SeatConfig
from unogame.tui.screens.choice import ChoiceScreen
from unogame.tui.screens.game import GameScreen
from unogame.tui.screens.passing import PassScreen

LEVEL = "random"
FAST = {"bot_delay": 0.0, "reaction_delay": 0.0}
FROZEN = {"bot_delay": 1000.0, "reaction_delay": 1000.0}
"""Bots that never get to move during a test (for still screens)."""


def screen_text(app: UnoApp) -> str:
    """The screen as plain text, the way Textual's own screenshot renders it."""
    console = Console(width=app.size.width, height=app.size.height, file=io.StringIO(),
                      record=True, force_terminal=True, color_system=None,
                      legacy_windows=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return console.export_text()


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())


async def until(pilot: Any, condition: Callable[[], bool], seconds: float = 60.0) -> None:
    """Wait for ``condition``, letting the app settle between looks; it returns as soon as
    the condition holds, so the deadline is generous for a loaded machine."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    looks = 0
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("the app never reached the expected state")
        looks += 1
        await pilot.pause(0.001 if looks < 300 else 0.02)


def send_keys(app: UnoApp, *keys: str, at: float | None = None) -> None:
    """Keys as a person faster than the app types them: queued at once, no waiting for
    the app between them (``pilot.press`` waits after each); ``at``: when they were
    pressed, on the clock of Textual's event times (default: now)."""
    for key in keys:
        event = events.Key(key, "\r" if key == "enter" else key if len(key) == 1 else None)
        if at is not None:
            event.time = at
        event.set_sender(app)
        app.post_message(event)


async def quickly(condition: Callable[[], bool], seconds: float = 60.0) -> None:
    """Wait for ``condition`` without waiting for the screen to settle (as ``until``
    does), so that what follows comes as soon as a person could act."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("the app never reached the expected state")
        await asyncio.sleep(0.001)


def config(*seats: SeatConfig, seed: int = 1, **options: Any) -> MatchConfig:
    return MatchConfig(seats=list(seats), seed=seed, **options)


async def shown(pilot: Any, app: UnoApp, kind: type) -> None:
    """Wait for a screen of ``kind`` to be on top and drawn."""
    await until(pilot, lambda: isinstance(app.screen, kind))
    await pilot.pause()


async def ready(pilot: Any, app: UnoApp) -> None:
    """Wait for the game screen to be up and drawn."""
    await shown(pilot, app, GameScreen)
    await pilot.pause()


async def game_mounted(pilot: Any, app: UnoApp) -> None:
    """Wait for the game screen to be mounted, on top or under a dialog: a match from the
    setup screen without a seed may turn up a Wild, whose colour dialog covers it."""
    await until(pilot, lambda: any(isinstance(s, GameScreen) and s.is_mounted
                                   for s in app.screen_stack))
    await pilot.pause()


async def fill_log(pilot: Any, app: UnoApp, lines: int = 40) -> None:
    """Draws and passes (else the first legal move) for every seat until seat 0's log holds
    ``lines`` lines or the round is over: a log long enough to scroll."""
    match = app.match
    assert match is not None
    game = match.game
    while len(match.log_for(0)) < lines and not game.is_round_over:
        seat = game.turn
        legal = game.legal_moves(seat)
        match.push(seat, next((m for m in legal if m.kind in (1, 2)), legal[0]))  # draw, pass
        app.changed()
        await pilot.pause()


def game_screen(app: UnoApp) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


async def human_turn(pilot: Any, app: UnoApp) -> None:
    """Make one legal turn move for the person at the keyboard, with keys only."""
    assert app.match is not None and app.viewer is not None
    legal = app.match.game.legal_moves(app.viewer)
    kinds = {str(move).split()[0] for move in legal}
    if "color" in kinds:
        await shown(pilot, app, ChoiceScreen)
        await pilot.press("r")
        return
    if "challenge" in kinds:
        await pilot.press("a")
        await pass_on(pilot, app)
        return
    screen = game_screen(app)
    plays = [move for move in legal if move.kind == 0]
    if plays:
        index = screen.hand.cards.index(str(plays[0].card_code))
        size = len(screen.hand.cards)
        right = (index - screen.hand.cursor) % size
        steps = ["right"] * right if right <= size - right else ["left"] * (size - right)
        await pilot.press(*steps, "enter")
        for _ in range(3):  # colour, seat, colour argument
            await pilot.pause()
            if isinstance(app.screen, ChoiceScreen):
                await pilot.press(app.screen.options[0][0])
        return
    if "pass" in kinds:
        await pilot.press("k")
        return
    await pilot.press("d")
    await pass_on(pilot, app)


async def pass_on(pilot: Any, app: UnoApp) -> None:
    """Hot seat: if the person's draw ended their turn, their screen holds the drawn
    cards; wait until it takes keys, press P."""
    if app.held is None:
        return
    loop = asyncio.get_running_loop()
    wait_until = loop.time() + 0.6  # the hold counts keys half a second after the draw
    await until(pilot, lambda: loop.time() > wait_until)
    await pilot.press("p")
    await until(pilot, lambda: app.held is None)




async def take_keyboard(pilot: Any, app: UnoApp) -> None:
    """On the pass screen: wait until it takes keys, press its own key (P)."""
    await shown(pilot, app, PassScreen)
    screen = app.screen
    assert isinstance(screen, PassScreen)
    await until(pilot, lambda: screen.armed)
    await pilot.press("p")
    await until(pilot, lambda: not isinstance(app.screen, PassScreen))
    await pilot.pause()


def one_person(position: dict[str, Any], rules: Rules | None = None) -> UnoApp:
    """Ann and bots that never move, at a table set up from ``position``."""
    rules = rules or Rules()
    seats = [SeatConfig("Ann")] + [SeatConfig(f"Bot {i}", LEVEL)
                                   for i in range(1, position["players"])]
    return UnoApp(config(*seats, rules=rules, **FROZEN),
                  game=Game.from_position(position, rules))
