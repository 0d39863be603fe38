"""The Textual app: set up a match, play it against bots or friends on one keyboard.

The app holds the match and whose hand is on the screen (``viewer``); the screens
(``tui/screens/``) draw from it and redraw when ``language`` or ``match_version``
changes. Bots think in Textual thread workers, one at a time, never on the UI thread:
the screen answers keys while the hard bot searches. In hot-seat play (several people)
a "pass the keyboard" screen hides every hand between two people's turns.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import ClassVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input
from textual.worker import Worker, WorkerState

from ..bots import Bot
from ..engine import Game, Move
from ..engine.moves import ACCEPT, CHALLENGE, DRAW
from ..i18n import LANGUAGES
from ..table import DecisionRequest, NextRound, TableError
from .keys import latin_character, latin_key_name
from .match import Match, MatchConfig, SeenMatch
from .refusals import refusal_text
from .saving import save
from .screens.base import MIN_HEIGHT, MIN_WIDTH
from .screens.game import GameScreen
from .screens.help import HelpScreen
from .screens.passing import PassScreen
from .screens.quit import QuitScreen
from .screens.score import ScoreScreen
from .screens.setup import SetupScreen
from .words import Words

NOTICE_KEYS = frozenset({"f2", "ctrl+q", "ctrl+c"})
"""The keys that act while the "too small" notice covers the screen."""
DRAWING_MOVES = frozenset({DRAW, ACCEPT, CHALLENGE})
"""A person's moves that may draw them cards and end their turn."""


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
                 lang: str | None = None, bots: Mapping[int, Bot] | None = None,
                 save_to: Path | None = None, resumed: Match | None = None) -> None:
        super().__init__()
        self.save_to = save_to
        """Where the match is saved after every move (``None``: not saved)."""
        self.resumed = resumed
        """A saved match to go on with (``uno play --resume``)."""
        self.save_error: str | None = None
        self.set_reactive(UnoApp.language, lang or (config.lang if config else "en"))
        self.initial_config = config
        self.initial_game = game
        self.match: SeenMatch | None = None
        """The match on the screen: a :class:`Match` at this keyboard (a room's seat in
        ``RemoteApp``)."""
        self.viewer: int | None = None
        """The seat whose view is on the screen (``None``: nobody's hand is shown)."""
        self.bots = bots
        self.thinking: DecisionRequest | None = None
        """The table's bot request running in a worker now (the table hands out one)."""
        self._thinking_for: Match | None = None
        self._paced: DecisionRequest | None = None
        """The request handed out, waiting for its pace before it runs."""
        self._pace_timer: Timer | None = None
        self._seen_version = -1
        self._opened_at = time.monotonic()
        """When the current position appeared (the bots' pace counts from it)."""
        self._scored_round = 0
        self._passing_to: int | None = None
        self._last_person: int | None = None
        self.held: int | None = None
        """Hot seat: the person whose own move just drew cards and ended their turn; their
        hand stays on the screen, the drawn cards shown, until they pass the keyboard on."""
        self.held_at = 0.0
        """When the hold began, on the clock of the keys' own times."""

    @property
    def local(self) -> Match | None:
        """The match, when it is played at this keyboard (its table, its bots)."""
        return self.match if isinstance(self.match, Match) else None

    @property
    def words(self) -> Words:
        match = self.match
        if match is None:
            return Words(self.language)
        return Words(self.language, match.names, match.config.rules.custom_count)

    def on_mount(self) -> None:
        self.open_first()

    def open_first(self) -> None:
        """The first screen (Textual calls every class's ``on_mount``: a subclass
        overrides this instead)."""
        if self.resumed is not None:
            self.match, self.resumed = self.resumed, None
            self.show_match()
        elif self.initial_config is not None:
            self.start_match(self.initial_config, self.initial_game)
        else:
            self.push_screen(SetupScreen())

    def too_small(self) -> bool:
        """The "too small" notice covers the screen."""
        return self.size.width < MIN_WIDTH or self.size.height < MIN_HEIGHT

    async def on_event(self, event: events.Event) -> None:
        """A key typed under a Thai layout counts as the key it sits on (except while a
        text field, a player's name, has the focus). Behind the "too small" notice only
        F2 and Ctrl+Q act (a key there played cards nobody could see)."""
        if (isinstance(event, events.Key) and not event.is_forwarded and self.too_small()
                and event.key not in NOTICE_KEYS):
            return
        if (isinstance(event, events.Key) and not event.is_forwarded and event.character
                and not isinstance(self.focused, Input)):
            latin = latin_character(event.character)
            if latin != event.character:
                pressed = event.time  # the pass screen judges a key by when it was pressed
                event = events.Key(latin_key_name(latin), latin)
                event.time = pressed
        await super().on_event(event)

    # ------------------------------------------------------------------ the match

    def on_setup_screen_start(self, message: SetupScreen.Start) -> None:
        self.start_match(message.config)

    def start_match(self, config: MatchConfig, game: Game | None = None) -> None:
        self._stop_pace()
        self.match = Match(config, game, self.bots)
        self.bots = None  # given for the first match only
        self.show_match()

    def show_match(self) -> None:
        """The table of the new ``match`` replaces the screen before it."""
        assert self.match is not None
        self.viewer = self.match.humans[0] if len(self.match.humans) == 1 else None
        self._scored_round = 0
        self._passing_to = None
        self._last_person = None
        self.held = None
        self._seen_version = -1
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
        if match.version != self._seen_version:  # a new position: its pace starts now
            self._seen_version = match.version
            self._opened_at = time.monotonic()
            self._save()
        if self.viewer is not None:
            self._last_person = self.viewer
        if len(match.humans) > 1:
            self._hand_on()
        self.match_version += 1
        if match.game.is_round_over and self._scored_round != match.round:
            self._scored_round = match.round
            self.push_screen(ScoreScreen())
        self._drive()

    def _save(self) -> None:
        """The match at this keyboard, saved after every move and deal (atomically)."""
        match = self.local
        if match is None or self.save_to is None:
            return
        try:
            save(match, self.save_to)
            self.save_error = None
        except OSError as error:  # said once; the match goes on
            if self.save_error is None:
                self.save_error = str(error)
                self.notify(self.words.t("tui.msg.not_saved", error=error), severity="error")

    def _hand_on(self) -> None:
        """Hot seat: hide the hand when the keyboard must go to someone else."""
        wanted = self.wanted_viewer()
        if self.held is not None:
            assert self.match is not None
            if wanted != self.held and not self.match.game.is_round_over:
                return  # the drawn cards stay on the screen until a key passes it on
            self.held = None
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

    def pass_on(self) -> None:
        """The held person has seen what they drew: the keyboard goes on."""
        if self.held is not None:
            self.held = None
            self.changed()

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
        match = self.local
        if match is None:
            return False
        held_before = self._hand_size(seat)
        try:
            match.push(seat, move)
        except TableError:
            game = match.game
            why = (refusal_text(self.words, game, seat, move)
                   if move not in game.legal_moves(seat) else self.words.t("tui.msg.changed"))
            self.changed()
            for screen in self.screen_stack:
                if isinstance(screen, GameScreen):
                    screen.message = why
            return False
        game = match.game
        if (len(match.humans) > 1 and not game.is_round_over and game.turn != seat
                and move.kind in DRAWING_MOVES and self._hand_size(seat) > held_before
                and seat == self.viewer):
            # hot seat: the cards drawn (not playable, or a penalty) are seen before the
            # pass screen hides the hand
            self.held = seat
            self.held_at = Message().time  # stamped on the clock of the keys' times
        self.changed()
        return True

    def status_notice(self) -> str:
        """A line before the table's status (a remote seat's link); empty here."""
        return ""

    def score_footer(self, match_over: bool) -> str:
        """What Enter does on the scoreboard."""
        return self.words.t("tui.score.again" if match_over else "tui.score.next")

    def why_not(self, seat: int, move: Move) -> str | None:
        """Why ``seat`` may not make ``move`` now, in the screen's language (``None``: the
        answer comes later, as a message)."""
        match = self.local
        if match is None:
            return self.words.t("tui.msg.not_legal")
        return refusal_text(self.words, match.game, seat, move)

    def _hand_size(self, seat: int) -> int:
        assert self.match is not None
        held = self.match.game.view(seat)["hands"][seat]
        return len(held) if isinstance(held, list) else int(held)

    def score_closed(self) -> None:
        """The scoreboard was closed: the next round, or a new match after the last."""
        match = self.local
        if match is None:
            return
        if match.game.is_game_over:
            self._stop_pace()
            self.match = None
            self.switch_screen(SetupScreen(match.config))
            return
        if isinstance(self.screen, ScoreScreen):
            self.pop_screen()
        match.scoreboard_closed()
        self.call_later(self._drive)  # once the scoreboard is gone

    def _deal(self) -> None:
        match = self.local
        if match is not None and match.game.is_round_over:
            match.next_round()
            self.changed()

    # ------------------------------------------------------------------ bots

    def _drive(self) -> None:
        """Ask the table what next: a bot's decision (run after its pace, in a worker),
        the next round (once the scoreboard is closed), or nothing (a person's turn)."""
        match = self.local
        if match is None or self.thinking is not None:
            return
        table = match.table
        if self._paced is not None:
            if self._paced.version == table.version:
                return  # its pace timer runs
            self._stop_pace()
        step = table.next_step()
        if isinstance(step, DecisionRequest):
            self._paced = step
            wait = match.pace(step) - (time.monotonic() - self._opened_at)
            if wait > 0:
                self._pace_timer = self.set_timer(wait, partial(self._think, step))
            else:
                self.call_later(self._think, step)
        elif isinstance(step, NextRound) and self._scored_round == match.round \
                and not isinstance(self.screen, ScoreScreen):
            self._deal()

    def _stop_pace(self) -> None:
        """Take back the request waiting for its pace: the position moved on."""
        if self._pace_timer is not None:
            self._pace_timer.stop()
            self._pace_timer = None
        if self._paced is not None and self.local is not None:
            self.local.table.cancel(self._paced)
        self._paced = None

    def _think(self, request: DecisionRequest) -> None:
        """The request's pace is over: its bot thinks in a worker thread."""
        match = self.local
        if request is not self._paced or match is None:
            return
        self._pace_timer = None
        self._paced = None
        if request.version != match.table.version:
            match.table.cancel(request)
            self._drive()
            return
        self.thinking = request
        self._thinking_for = match
        self.run_worker(request.decide, name=f"bot {request.seat}", group="bots",
                        thread=True, exit_on_error=False)

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
        if event.state == WorkerState.SUCCESS and isinstance(result, tuple):
            move, error = result
        else:
            move, error = None, worker.error
        play = match.table.resolve(request, move, error)
        if match is not self.match:  # a bot of the previous match has finished
            self._drive()
            return
        for failure in match.new_failures():
            self.notify(self.words.t("tui.msg.bot_error", error=failure), severity="error")
        if play is not None:
            match.apply(play)
            self.changed()
        else:
            self._drive()

    # ------------------------------------------------------------------ app keys

    def action_toggle_language(self) -> None:
        self.language = (LANGUAGES[(LANGUAGES.index(self.language) + 1) % len(LANGUAGES)]
                         if self.language in LANGUAGES else "en")

    def match_in_progress(self) -> bool:
        return self.match is not None and not self.match.game.is_game_over

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Ctrl+P's commands: its Quit asks as Ctrl+Q does, its Keys is our Help (keys
        with what they do, the match's rules; Esc closes it)."""
        words = self.words
        for command in super().get_system_commands(screen):
            if command.callback == self.action_quit:
                yield SystemCommand(words.t("tui.palette.quit"), words.t("tui.palette.quit_help"),
                                    self.action_ask_quit)
            elif command.title == "Keys":
                yield SystemCommand(words.t("tui.palette.keys"), words.t("tui.palette.keys_help"),
                                    self.action_keys)
            else:
                yield command

    async def action_quit(self) -> None:
        """Every way to quit asks first during a match."""
        self.action_ask_quit()

    def action_keys(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

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
