"""The Textual app: set up a match, play it against bots or friends on one keyboard.

The app holds the match and whose hand is on the screen (``viewer``); the screens
(``tui/screens/``) draw from it and redraw when ``language`` or ``match_version``
changes. Bots think in Textual thread workers, one at a time, never on the UI thread:
the screen answers keys while the hard bot searches. In hot-seat play (several people)
a "pass the keyboard" screen hides every hand between two people's turns.
"""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from textual import events
from textual.app import App
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Input
from textual.worker import Worker, WorkerState

from ..engine import Game, IllegalMoveError, Move
from ..engine.moves import CATCH
from ..i18n import LANGUAGES
from .keys import latin_character, latin_key_name
from .match import BotAnswer, BotRequest, Match, MatchConfig
from .screens.base import MIN_HEIGHT, MIN_WIDTH
from .screens.game import GameScreen
from .screens.passing import PassScreen
from .screens.quit import QuitScreen
from .screens.score import ScoreScreen
from .screens.setup import SetupScreen
from .words import Words

CATCH_MARGIN = 0.25
"""Seconds a bot's turn move waits beyond the catching bots' reaction time."""


class UnoApp(App[None]):
    """UNO in the terminal."""

    CSS_PATH = "uno.tcss"
    TITLE = "UNO"
    # the screens get these classes; the CSS shows the "too small" notice by them
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (MIN_WIDTH, "-wide")]  # noqa: RUF012
    VERTICAL_BREAKPOINTS = [(0, "-short"), (MIN_HEIGHT, "-tall")]  # noqa: RUF012
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "toggle_language", "ไทย/English", show=False, priority=True),
        Binding("ctrl+q", "ask_quit", show=False, priority=True),
    ]

    language: reactive[str] = reactive("en")
    match_version: reactive[int] = reactive(0)
    """Counts what the screens must redraw for: a move, a new round, another viewer."""

    def __init__(self, config: MatchConfig | None = None, game: Game | None = None,
                 lang: str | None = None) -> None:
        super().__init__()
        self.set_reactive(UnoApp.language, lang or (config.lang if config else "en"))
        self.initial_config = config
        self.initial_game = game
        self.match: Match | None = None
        self.viewer: int | None = None
        """The seat whose view is on the screen (``None``: nobody's hand is shown)."""
        self.thinking: BotRequest | None = None
        """The bot decision running in a worker now (at most one)."""
        self._thinking_for: Match | None = None
        self._due: list[tuple[int, bool]] = []
        """Bot decisions whose delay is over: (seat, on its turn), first come first."""
        self._bot_timers: list[Timer] = []
        self._planned_version = -1
        self._deal_when_idle = False
        self._scored_round = 0
        self._passing_to: int | None = None
        self._last_person: int | None = None

    @property
    def words(self) -> Words:
        match = self.match
        if match is None:
            return Words(self.language)
        return Words(self.language, match.names, match.config.rules.custom_count)

    def on_mount(self) -> None:
        if self.initial_config is not None:
            self.start_match(self.initial_config, self.initial_game)
        else:
            self.push_screen(SetupScreen())

    async def on_event(self, event: events.Event) -> None:
        """A key typed under a Thai layout counts as the key it sits on (except while a
        text field, a player's name, has the focus)."""
        if (isinstance(event, events.Key) and not event.is_forwarded and event.character
                and not isinstance(self.focused, Input)):
            latin = latin_character(event.character)
            if latin != event.character:
                event = events.Key(latin_key_name(latin), latin)
        await super().on_event(event)

    # ------------------------------------------------------------------ the match

    def on_setup_screen_start(self, message: SetupScreen.Start) -> None:
        self.start_match(message.config)

    def start_match(self, config: MatchConfig, game: Game | None = None) -> None:
        self.match = Match(config, game)
        self.viewer = self.match.humans[0] if len(self.match.humans) == 1 else None
        self._scored_round = 0
        self._passing_to = None
        self._last_person = None
        self._planned_version = -1
        if isinstance(self.screen, SetupScreen):
            self.switch_screen(GameScreen())
        else:
            self.push_screen(GameScreen())
        self.call_after_refresh(self.changed)

    def wanted_viewer(self) -> int | None:
        """Whose hand belongs on the screen now."""
        assert self.match is not None
        humans = self.match.humans
        if len(humans) == 1:
            return humans[0]
        game = self.match.game
        if not humans or game.is_round_over:
            return None
        if game.turn in humans:
            return game.turn
        return self.viewer  # bots play on: the keyboard stays with the last person

    def changed(self) -> None:
        """The game or the viewer changed: plan the bots, hand the keyboard on, redraw."""
        match = self.match
        if match is None:
            return
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                screen.message = ""
        self._plan_bots()
        if self.viewer is not None:
            self._last_person = self.viewer
        if len(match.humans) > 1:
            self._hand_on()
        self.match_version += 1
        if match.game.is_round_over and self._scored_round != match.round:
            self._scored_round = match.round
            self.push_screen(ScoreScreen())

    def _hand_on(self) -> None:
        """Hot seat: hide the hand when the keyboard must go to someone else."""
        wanted = self.wanted_viewer()
        if wanted == self.viewer:
            return
        self.viewer = None
        if wanted is None or self._passing_to == wanted:
            return
        passing = [s for s in self.screen_stack if isinstance(s, PassScreen)]
        self._passing_to = wanted
        if passing:  # a jump-in moved the turn on while the keyboard was being passed
            passing[-1].seat = wanted
        else:
            self.push_screen(PassScreen(wanted, self._last_person))

    def take_keyboard(self, seat: int) -> None:
        """The person at ``seat`` has the keyboard now (from the pass screen)."""
        if isinstance(self.screen, PassScreen):
            self.pop_screen()
        self._passing_to = None
        if self.match is not None and self.wanted_viewer() == seat:
            self.viewer = seat
        self.changed()

    def human_move(self, move: Move, seat: int | None = None) -> bool:
        """The person at the keyboard (or ``seat``) makes ``move``; ``False`` if refused."""
        seat = self.viewer if seat is None else seat
        if self.match is None or seat is None:
            return False
        try:
            self.match.push(seat, move)
        except IllegalMoveError:
            self.changed()
            for screen in self.screen_stack:
                if isinstance(screen, GameScreen):
                    screen.message = self.words.t("tui.msg.changed")
            return False
        self.changed()
        return True

    def score_closed(self) -> None:
        """The scoreboard was closed: the next round, or a new match after the last."""
        match = self.match
        if match is None:
            return
        if match.game.is_game_over:
            self.match = None
            self.switch_screen(SetupScreen(match.config))
            return
        if isinstance(self.screen, ScoreScreen):
            self.pop_screen()
        if self.thinking is not None:  # a bot still thinks about the old round
            self._deal_when_idle = True
            return
        self._deal()

    def _deal(self) -> None:
        self._deal_when_idle = False
        if self.match is not None and self.match.game.is_round_over:
            self.match.next_round()
            self.changed()

    # ------------------------------------------------------------------ bots

    def turn_delay(self) -> float:
        """A bot's turn move closes every catch window (D1): while a seat may be caught,
        it waits until the bots that could catch have had their reaction time."""
        assert self.match is not None
        match = self.match
        delay = match.config.bot_delay
        if match.game.catchable:
            catchers = [seat for seat in match.bots_off_turn()
                        if any(m.kind == CATCH for m in match.game.legal_moves(seat))]
            if catchers:
                delay = max(delay,
                            max(match.reaction_delay(s) for s in catchers) + CATCH_MARGIN)
        return delay

    def _plan_bots(self) -> None:
        """After each move: each bot that may act gets its decision after its delay."""
        match = self.match
        if match is None or match.version == self._planned_version:
            return
        self._planned_version = match.version
        for timer in self._bot_timers:
            timer.stop()
        self._bot_timers.clear()
        self._due.clear()
        game = match.game
        if game.is_round_over:
            return
        for seat in match.bots_off_turn():
            self._after(match.reaction_delay(seat), seat, on_turn=False)
        if game.turn in match.bots:
            self._after(self.turn_delay(), game.turn, on_turn=True)

    def _after(self, delay: float, seat: int, on_turn: bool) -> None:
        assert self.match is not None
        callback = partial(self._due_now, self.match, self.match.version, seat, on_turn)
        if delay > 0:
            self._bot_timers.append(self.set_timer(delay, callback))
        else:
            self.call_later(callback)

    def _due_now(self, match: Match, version: int, seat: int, on_turn: bool) -> None:
        if match is self.match and match.version == version:
            self._due.append((seat, on_turn))
            self._think_next()

    def _think_next(self) -> None:
        """Start the first due decision in a worker thread, unless a bot thinks already."""
        match = self.match
        if self.thinking is not None or match is None:
            return
        while self._due:
            seat, on_turn = self._due.pop(0)
            request = match.bot_request(seat, on_turn)
            if request is not None:
                self.thinking = request
                self._thinking_for = match
                self.run_worker(partial(match.think, request), name=f"bot {seat}",
                                group="bots", thread=True, exit_on_error=False)
                return

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group != "bots" or event.state not in (
                WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
            return
        request, match = self.thinking, self._thinking_for
        self.thinking = self._thinking_for = None
        if request is None or match is None:
            return
        result = worker.result
        answer = (result if event.state == WorkerState.SUCCESS and isinstance(result, BotAnswer)
                  else BotAnswer(None, f"{match.names[request.seat]}: {worker.error!r}"))
        moved = match.answer(request, answer)
        if match is self.match:
            for error in match.bot_errors:
                self.notify(self.words.t("tui.msg.bot_error", error=error), severity="error")
            match.bot_errors.clear()
            if moved is not None:
                self.changed()
        if self._deal_when_idle:
            self._deal()
        self._think_next()

    # ------------------------------------------------------------------ app keys

    def action_toggle_language(self) -> None:
        self.language = (LANGUAGES[(LANGUAGES.index(self.language) + 1) % len(LANGUAGES)]
                         if self.language in LANGUAGES else "en")

    def match_in_progress(self) -> bool:
        return self.match is not None and not self.match.game.is_game_over

    def action_ask_quit(self) -> None:
        """Ctrl+Q: at once on the setup screen; during a match, after a yes."""
        if isinstance(self.screen, QuitScreen):
            return
        if not self.match_in_progress():
            self.exit()
            return

        def answered(quit_match: bool | None) -> None:
            if quit_match:
                self.exit()

        self.push_screen(QuitScreen(), answered)
