"""The Textual app: set up a match, play it against bots or friends on one keyboard.

Screens only ever read ``game.view(seat)`` of the seat at the keyboard, that seat's legal
moves and the events as that seat may see them (``Event.for_seat``): what a seat may not
know is never on the screen. In hot-seat play (several people) a "pass to NAME" screen
hides everything between two people's turns.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any, ClassVar, cast

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, Vertical, VerticalScroll
from textual.events import Key
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from ..bots import BOT_LEVELS
from ..engine import CUSTOM_RULES, Game, IllegalMoveError, Move, Rules, RulesError
from ..engine import moves as engine_moves
from ..engine.moves import ACCEPT, CATCH, CHALLENGE, COLOR, DRAW, PASS, PLAY, UNO
from ..i18n import LANGUAGES, translate
from .cards import COLOR_SYMBOLS, card_label, card_text, color_text, sort_key
from .match import Match, MatchConfig, SeatConfig

COLOR_LETTERS = ("R", "Y", "G", "B")
HOUSE_RULES = ("stacking", "seven_zero", "jump_in", "draw_until_playable", "must_play_drawn")
ON_RULES = ("challenge", "two_player_reverse_skips")
UNO_MOVE = Move.make(UNO)


def default_level() -> str:
    """The bot level offered first: ``medium`` when it exists, else the first one."""
    return "medium" if "medium" in BOT_LEVELS else next(iter(BOT_LEVELS))


class UnoApp(App[None]):
    """UNO in the terminal."""

    CSS_PATH = "uno.tcss"
    TITLE = "UNO"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "toggle_language", "ไทย/English", show=False, priority=True),
    ]

    def __init__(self, config: MatchConfig | None = None, game: Game | None = None,
                 lang: str | None = None) -> None:
        super().__init__()
        self.lang = lang or (config.lang if config else "en")
        self.initial_config = config
        self.initial_game = game
        self.match: Match | None = None
        self.viewer: int | None = None
        """The seat whose view is on the screen (``None``: nobody's hand is shown)."""
        self._bot_timers: list[Timer] = []
        self._generation = 0
        self._scored_round = 0
        self._passing_to: int | None = None
        self._last_person: int | None = None

    def t(self, key: str, **fields: Any) -> str:
        return translate(self.lang, key, **fields)

    def tc(self, common_key: str, own_key: str, **fields: Any) -> str:
        """The web game's shared wording (``common.*``) when it exists, else our own."""
        text = translate(self.lang, common_key, **fields)
        return text if text != common_key else translate(self.lang, own_key, **fields)

    def on_mount(self) -> None:
        if self.initial_config is not None:
            self.start_match(self.initial_config, self.initial_game)
        else:
            self.push_screen(SetupScreen())

    # ------------------------------------------------------------------ the match

    def start_match(self, config: MatchConfig, game: Game | None = None) -> None:
        self.match = Match(config, game)
        self.viewer = self.match.humans[0] if len(self.match.humans) == 1 else None
        self._scored_round = 0
        self._passing_to = None
        if isinstance(self.screen, SetupScreen):
            self.switch_screen(GameScreen())
        else:
            self.push_screen(GameScreen())
        self.call_after_refresh(self.after_change)

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

    def after_change(self) -> None:
        """The game changed: plan the bots' moves, hand the keyboard on, redraw."""
        match = self.match
        if match is None:
            return
        for timer in self._bot_timers:
            timer.stop()
        self._bot_timers.clear()
        self._generation += 1
        generation = self._generation
        game = match.game
        if not game.is_round_over:
            if game.turn in match.bots:
                self._later(self._turn_delay(), partial(self._bot_turn, generation))
            for seat in match.bots_off_turn():
                self._later(match.reaction_delay(seat),
                            partial(self._bot_reaction, seat, generation))
        if self.viewer is not None:
            self._last_person = self.viewer
        if len(match.humans) > 1:
            wanted = self.wanted_viewer()
            if wanted != self.viewer:
                self.viewer = None
                if wanted is not None and self._passing_to != wanted:
                    self._passing_to = wanted
                    self.push_screen(PassScreen(wanted, self._last_person), self._passed)
        self.refresh_game()
        if game.is_round_over and self._scored_round != match.round:
            self._scored_round = match.round
            self.push_screen(ScoreScreen(), self._after_score)

    def _turn_delay(self) -> float:
        """A bot's turn move closes every catch window (D1): while a seat may be caught,
        it waits until the bots that could catch have had their reaction time."""
        assert self.match is not None
        match = self.match
        delay = match.config.bot_delay
        if match.game.catchable:
            catchers = [seat for seat in match.bots_off_turn()
                        if any(m.kind == CATCH for m in match.game.legal_moves(seat))]
            if catchers:
                delay = max(delay, max(match.reaction_delay(s) for s in catchers) + 0.25)
        return delay

    def _later(self, delay: float, callback: Callable[[], None]) -> None:
        """Run ``callback`` after ``delay`` seconds (at once, after pending messages, if 0).

        Stale callbacks do nothing: each carries the generation it was planned in.
        """
        if delay > 0:
            self._bot_timers.append(self.set_timer(delay, callback))
        else:
            self.call_later(callback)

    def _passed(self, _result: None) -> None:
        self._passing_to = None
        if self.wanted_viewer() is not None:
            self.viewer = self.wanted_viewer()
        self.after_change()

    def _bot_turn(self, generation: int) -> None:
        if generation != self._generation or self.match is None:
            return
        moved = self.match.bot_turn(self.match.game.turn) is not None
        self._report_bot_errors()
        if moved:
            self.after_change()

    def _bot_reaction(self, seat: int, generation: int) -> None:
        if generation != self._generation or self.match is None:
            return
        moved = self.match.bot_reaction(seat) is not None
        self._report_bot_errors()
        if moved:
            self.after_change()

    def _report_bot_errors(self) -> None:
        if self.match is not None and self.match.bot_errors:
            for error in self.match.bot_errors:
                self.notify(self.t("tui.msg.bot_error", error=error), severity="error")
            self.match.bot_errors.clear()

    def _after_score(self, _result: None) -> None:
        match = self.match
        if match is None:
            return
        if match.game.is_game_over:
            last = match.config
            self.match = None
            self.switch_screen(SetupScreen(last))
            return
        match.next_round()
        self.after_change()

    def human_move(self, move: Move) -> bool:
        """The person at the keyboard makes ``move``; ``False`` (and a message) if refused."""
        if self.match is None or self.viewer is None:
            return False
        try:
            self.match.push(self.viewer, move)
        except IllegalMoveError:
            self.show_message(self.t("tui.msg.changed"))
            self.refresh_game()
            return False
        self.show_message("")
        self.after_change()
        return True

    def show_message(self, text: str) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                screen.message = text

    def refresh_game(self) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                screen.redraw()

    def action_toggle_language(self) -> None:
        self.lang = LANGUAGES[(LANGUAGES.index(self.lang) + 1) % len(LANGUAGES)] \
            if self.lang in LANGUAGES else "en"
        for screen in self.screen_stack:
            if isinstance(screen, SetupScreen):
                screen.relabel()
            elif isinstance(screen, GameScreen | ScoreScreen | PassScreen | HelpScreen):
                screen.redraw()

    # ------------------------------------------------------------------ words

    def seat_name(self, seat: int) -> str:
        assert self.match is not None
        return self.match.names[seat]

    def color_name(self, letter: str | None) -> str:
        return self.t(f"tui.color.{letter}") if letter else self.t("tui.table.color_none")

    def cards_words(self, codes: list[str]) -> str:
        return " ".join(card_label(code) for code in codes) or "-"

    def event_line(self, event: dict[str, Any]) -> str | None:
        """One log line for an event as the viewer sees it (``None``: not worth a line)."""
        assert self.match is not None
        kind = event["type"]
        seat = event.get("seat")
        name = self.seat_name(seat) if isinstance(seat, int) else ""
        t = self.t
        if kind == "deal":
            return t("tui.log.deal", round=event["round"], dealer=self.seat_name(event["dealer"]),
                     top=card_label(event["top"]))
        if kind == "play":
            card = card_label(event["card"])
            if event.get("jump_in"):
                line = t("tui.log.jump_in", name=name, card=card)
            elif event["card"].startswith("W"):
                line = t("tui.log.play_color", name=name, card=card,
                         color=self.color_name(event["color"]))
            else:
                line = t("tui.log.play", name=name, card=card)
            if event["move"].endswith(" uno"):
                line += " · " + t("tui.log.says_uno", name=name)
            return line
        if kind == "draw":
            reason = event.get("reason", "turn")
            if event.get("cards"):
                line = t("tui.log.draw_cards", name=name, cards=self.cards_words(event["cards"]))
            elif event["count"] == 0:
                return t("tui.log.draw_none", name=name) if reason == "turn" else None
            else:
                line = t("tui.log.draw", name=name, count=event["count"])
            if reason != "turn":
                line += " " + t(f"tui.log.reason.{reason}")
            return line
        if kind == "pass":
            return t("tui.log.pass", name=name)
        if kind == "challenge":
            by = self.seat_name(event["by"])
            key = "tui.log.challenge_guilty" if event["guilty"] else "tui.log.challenge_innocent"
            line = t(key, name=name, by=by)
            if "hand" in event:
                line += " · " + t("tui.log.challenge_hand", by=by,
                                  cards=self.cards_words(event["hand"]))
            return line
        if kind == "accept":
            return t("tui.log.accept", name=name)
        if kind == "color":
            return t("tui.log.color", name=name, color=self.color_name(event["color"]))
        if kind == "uno":
            return t("tui.log.says_uno", name=name)
        if kind == "catch":
            return t("tui.log.catch", name=name, target=self.seat_name(event["target"]))
        if kind == "skip":
            return t("tui.log.skip", name=name)
        if kind == "swap":
            first, second = event["seats"]
            return t("tui.log.swap", a=self.seat_name(first), b=self.seat_name(second))
        if kind == "pass_hands":
            return t("tui.log.pass_hands")
        if kind == "custom":
            return t("tui.log.custom", name=name, rule=self.custom_words(event["rule"]))
        if kind == "discard":
            return t("tui.log.discard", name=name, cards=self.cards_words(event["cards"]))
        if kind == "reshuffle":
            return t("tui.log.reshuffle", count=event["count"])
        if kind == "round_over":
            winner = self.seat_name(event["winner"])
            line = t("tui.log.round_over", name=winner, round=event["round"],
                     points=sum(event["points"]))
            if event.get("game_winner") is not None:
                line += " " + t("tui.log.game_over", name=self.seat_name(event["game_winner"]))
            return line
        return None

    def custom_words(self, rule: str) -> str:
        count = self.match.config.rules.custom_count if self.match else 2
        return self.t(f"tui.custom.{rule}", count=count)


# ---------------------------------------------------------------------- game screen


class PlayersPanel(Static):
    pass


class TablePanel(Static):
    pass


class LogPanel(Widget):
    """The last events, as many as fit, newest at the bottom."""

    def render(self) -> Text:
        app = cast(UnoApp, self.app)
        if app.match is None:
            return Text()
        height = max(self.content_size.height, 1)
        lines: list[str] = []
        for event in app.match.log_for(app.viewer, 60):
            line = app.event_line(event)
            if line:
                lines.append(line)
        return Text("\n".join(lines[-height:]), no_wrap=True, overflow="ellipsis")


class HandPanel(Static):
    pass


class GameScreen(Screen[None]):
    """The table: players, top card, log, the hand at the keyboard and its controls."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", show=False),
        Binding("right", "cursor(1)", show=False),
        Binding("home", "cursor_to(0)", show=False),
        Binding("end", "cursor_to(-1)", show=False),
        Binding("enter,space", "play", show=False),
        Binding("d", "draw", show=False),
        Binding("k", "keep", show=False),
        Binding("u", "uno", show=False),
        Binding("c", "catch", show=False),
        Binding("h", "challenge", show=False),
        Binding("a", "accept", show=False),
        Binding("question_mark,f1", "help", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.cursor = 0
        self.message = ""
        self.uno_armed = False
        self._hand: list[str] = []
        self._choosing = False
        self._last_drawn: str | None = None

    @property
    def uno_app(self) -> UnoApp:
        return cast(UnoApp, self.app)

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="top"):
            yield PlayersPanel(id="players")
            yield TablePanel(id="table")
        yield LogPanel(id="log")
        yield HandPanel(id="hand")
        yield Static(id="prompt")

    def on_mount(self) -> None:
        self.redraw()

    # -- what the keyboard's seat sees

    def _view(self) -> dict[str, Any] | None:
        app = self.uno_app
        if app.match is None:
            return None
        return app.match.game.view(app.viewer)

    def _legal(self) -> list[Move]:
        app = self.uno_app
        if app.match is None or app.viewer is None:
            return []
        return app.match.game.legal_moves(app.viewer)

    def redraw(self) -> None:
        app = self.uno_app
        view = self._view()
        if view is None or not self.is_mounted:
            return
        assert app.match is not None
        t = app.t
        legal = self._legal()
        viewer = app.viewer
        hand = view["hands"][viewer] if viewer is not None else []
        self._hand = sorted(hand, key=sort_key)
        pending = view["pending"]
        drawn = pending.get("card") if pending and pending["kind"] == "drawn" else None
        if drawn is not None and drawn != self._last_drawn and drawn in self._hand:
            self.cursor = self._hand.index(drawn)
        self._last_drawn = drawn
        self.cursor = min(self.cursor, max(len(self._hand) - 1, 0))
        if self.uno_armed and not any(m.kind == PLAY and m.uno for m in legal):
            self.uno_armed = False

        # status line
        direction = t("tui.direction.cw" if view["direction"] == 1 else "tui.direction.ccw")
        rules = app.match.config.rules
        if view["winner"] is None:
            status = t("tui.status", round=app.match.round, target=rules.target_score,
                       direction=direction, name=app.seat_name(view["turn"]))
        else:
            status = t("tui.status.over", round=app.match.round, target=rules.target_score)
        self.query_one("#status", Static).update(Text(status, style="bold"))

        # players
        players = Text(no_wrap=True)
        for seat in range(view["players"]):
            held = view["hands"][seat]
            count = len(held) if isinstance(held, list) else held
            marker = "▶" if seat == view["turn"] and view["winner"] is None else " "
            name = app.seat_name(seat)
            flags = ""
            if seat in view["uno"]:
                flags = t("tui.players.uno")
            elif seat in view["catchable"]:
                flags = t("tui.players.catchable")
            style = "bold reverse" if marker == "▶" else ("bold" if seat == viewer else "")
            name_text = Text(name, style=style)
            name_text.truncate(9, overflow="ellipsis", pad=True)
            flags_text = Text(flags, style="bold")
            flags_text.truncate(5, pad=True)
            cell = Text.assemble(str(seat), (marker, "bold"), name_text, f"{count:>3} ",
                                 flags_text,
                                 f"{view['scores'][seat]:>4}")
            if seat:
                players.append("\n" if seat % 2 == 0 else "  ")
            players.append(cell)
        panel = self.query_one("#players", PlayersPanel)
        panel.update(players)
        panel.border_title = t("tui.players")

        # table
        top = view["discard_pile"][0] if view["discard_pile"] else None
        table = Text(no_wrap=True, overflow="ellipsis")
        table.append(f"{t('tui.table.top')}: ")
        table.append_text(card_text(top) if top else Text("-"))
        table.append(f"\n{t('tui.table.color')}: ")
        if view["color"]:
            table.append_text(color_text(view["color"], app.color_name(view["color"])))
        else:
            table.append(t("tui.table.color_none"))
        table.append(f"\n{t('tui.table.draw')}: {view['draw_pile']}\n{direction}")
        if pending and pending["kind"] != "color":  # the colour line says "to choose"
            kind = pending["kind"]
            turn_name = app.seat_name(view["turn"])
            if kind == "challenge":
                line = t("tui.table.pending.challenge", name=app.seat_name(pending["by"]))
            elif kind == "stack":
                line = t("tui.table.pending.stack", amount=pending["amount"])
            else:
                line = t(f"tui.table.pending.{kind}", name=turn_name)
            table.append(f"\n{line}", style="bold")
        table_panel = self.query_one("#table", TablePanel)
        table_panel.update(table)
        rows = max(len(players.plain.splitlines()), len(table.plain.splitlines()))
        self.query_one("#top").styles.height = rows + 2
        table_panel.border_title = t("tui.table")
        self.query_one("#log", LogPanel).border_title = t("tui.log")
        self.query_one("#log", LogPanel).refresh()

        # hand
        playable = {m.card_code for m in legal if m.kind == PLAY}
        hand_text = Text()
        for index, code in enumerate(self._hand):
            hand_text.append_text(card_text(code, dim=code not in playable,
                                            selected=index == self.cursor))
        hand_panel = self.query_one("#hand", HandPanel)
        if viewer is None:
            hand_panel.update(Text(t("tui.hand.watching") if not app.match.humans
                                   else t("tui.hand.hidden"), style="italic"))
            hand_panel.border_title = ""
        else:
            hand_panel.update(hand_text)
            hand_panel.border_title = t("tui.hand", name=app.seat_name(viewer), count=len(hand))

        self.query_one("#prompt", Static).update(self._prompt(view, legal))
        if (viewer is not None and any(m.kind == COLOR for m in legal)
                and not self._choosing):
            self.call_after_refresh(self._choose_first_color)

    def _prompt(self, view: dict[str, Any], legal: list[Move]) -> Text:
        app = self.uno_app
        t = app.t
        viewer = app.viewer
        pending = view["pending"]
        lines: list[str] = []
        if view["winner"] is not None:
            lines.append(t("tui.status.over", round=app.match.round if app.match else 1,
                           target=app.match.config.rules.target_score if app.match else 0))
        elif viewer is not None and view["turn"] == viewer:
            kind = pending["kind"] if pending else None
            if kind == "drawn":
                must = not any(m.kind == PASS for m in legal)
                lines.append(t("tui.keys.drawn_must" if must else "tui.keys.drawn",
                               card=card_label(pending["card"])))
            elif kind == "challenge":
                stack = any(m.kind == PLAY for m in legal)
                lines.append(t("tui.keys.challenge_stack" if stack else "tui.keys.challenge",
                               name=app.seat_name(pending["by"])))
            elif kind == "stack":
                lines.append(t("tui.keys.stack", amount=pending["amount"]))
            elif kind == "color":
                lines.append(t("tui.keys.color"))
            else:
                lines.append(t("tui.keys.your_turn"))
        else:
            line = t("tui.keys.wait", name=app.seat_name(view["turn"]))
            jump = [m.card_code for m in legal if m.kind == PLAY]
            if jump:
                line += " · " + t("tui.keys.jump_in", card=card_label(str(jump[0])))
            lines.append(line)
        extras: list[str] = []
        if any(m.kind == UNO for m in legal):
            extras.append(t("tui.keys.uno"))
        elif self.uno_armed:
            extras.append(t("tui.keys.uno_armed"))
        elif any(m.kind == PLAY and m.uno for m in legal):
            extras.append(t("tui.keys.uno_arm"))
        catches = [m.target for m in legal if m.kind == CATCH]
        if catches:
            extras.append(t("tui.keys.catch", names=", ".join(app.seat_name(s) for s in catches)))
        extras.append(t("tui.keys.general"))
        text = Text(lines[0], style="bold")
        text.append("\n" + " · ".join(extras))
        if self.message:
            text = Text(self.message, style="bold reverse")
            text.append("\n" + lines[0])
        return text

    # -- actions

    def action_cursor(self, step: int) -> None:
        if self._hand:
            self.cursor = (self.cursor + step) % len(self._hand)
            self.redraw()

    def action_cursor_to(self, index: int) -> None:
        if self._hand:
            self.cursor = index % len(self._hand)
            self.redraw()

    def _do(self, kind: int) -> None:
        for move in self._legal():
            if move.kind == kind:
                self.uno_app.human_move(move)
                return
        self._refuse()

    def _refuse(self, text: str | None = None) -> None:
        self.message = text or self.uno_app.t("tui.msg.not_legal")
        self.redraw()
        self.message = ""

    def action_draw(self) -> None:
        self._do(DRAW)

    def action_keep(self) -> None:
        self._do(PASS)

    def action_challenge(self) -> None:
        self._do(CHALLENGE)

    def action_accept(self) -> None:
        self._do(ACCEPT)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_uno(self) -> None:
        legal = self._legal()
        if UNO_MOVE in legal:
            self.uno_app.human_move(UNO_MOVE)
        elif any(m.kind == PLAY and m.uno for m in legal):
            self.uno_armed = not self.uno_armed
            self.redraw()
        else:
            self._refuse()

    def action_catch(self) -> None:
        app = self.uno_app
        targets = [m.target for m in self._legal() if m.kind == CATCH]
        if not targets:
            self._refuse()
        elif len(targets) == 1:
            app.human_move(Move.make(CATCH, target=targets[0]))
        else:
            self._ask(app.t("tui.choice.catch"), self._seat_options(targets),
                      lambda seat: app.human_move(Move.make(CATCH, target=int(seat))))

    def action_play(self) -> None:
        app = self.uno_app
        if not self._hand or app.viewer is None:
            return
        code = self._hand[self.cursor]
        plays = [m for m in self._legal() if m.kind == PLAY and m.card_code == code]
        if not plays:
            self._refuse(app.t("tui.msg.not_playable", card=card_label(code)))
            return
        self._narrow(plays)

    def _narrow(self, plays: list[Move]) -> None:
        """Ask for what tells the candidate plays apart: colour, seat, colour argument."""
        app = self.uno_app
        colors = sorted({m.color for m in plays})
        if len(colors) > 1:
            self._ask(app.t("tui.choice.color"), self._color_options(colors),
                      lambda c: self._narrow([m for m in plays if m.color == int(c)]))
            return
        targets = sorted({m.target for m in plays})
        if len(targets) > 1:
            code = plays[0].card_code or ""
            swap = engine_moves.SEAT_PURPOSE.get(code) == engine_moves.SWAP_SEAT
            title = app.t("tui.choice.swap" if swap else "tui.choice.seat")
            self._ask(title, self._seat_options(targets),
                      lambda s: self._narrow([m for m in plays if m.target == int(s)]))
            return
        args = sorted({m.arg for m in plays})
        if len(args) > 1:
            self._ask(app.t("tui.choice.discard_color"), self._color_options(args),
                      lambda c: self._narrow([m for m in plays if m.arg == int(c)]))
            return
        with_uno = [m for m in plays if m.uno]
        without = [m for m in plays if not m.uno]
        move = (with_uno or without)[0] if self.uno_armed else (without or with_uno)[0]
        self.uno_armed = False
        if move in self._legal():
            app.human_move(move)
        else:
            self._refuse(app.t("tui.msg.changed"))

    def _choose_first_color(self) -> None:
        legal = [m for m in self._legal() if m.kind == COLOR]
        if not legal or self._choosing:
            return
        self._ask(self.uno_app.t("tui.choice.color"),
                  self._color_options(sorted(m.color for m in legal)),
                  lambda c: self.uno_app.human_move(Move.make(COLOR, color=int(c))),
                  cancellable=False)

    def _color_options(self, colors: list[int]) -> list[tuple[str, str, str]]:
        app = self.uno_app
        return [(COLOR_LETTERS[c].lower(),
                 f"{COLOR_SYMBOLS[COLOR_LETTERS[c]]} {app.color_name(COLOR_LETTERS[c])}",
                 str(c))
                for c in colors]

    def _seat_options(self, seats: list[int]) -> list[tuple[str, str, str]]:
        app = self.uno_app
        view = self._view()
        assert view is not None
        options = []
        for seat in seats:
            held = view["hands"][seat]
            count = len(held) if isinstance(held, list) else held
            label = f"{seat}  {app.seat_name(seat)} · {app.t('tui.choice.cards', count=count)}"
            options.append((str(seat), label, str(seat)))
        return options

    def _ask(self, title: str, options: list[tuple[str, str, str]],
             then: Callable[[str], object], cancellable: bool = True) -> None:
        self._choosing = True

        def done(value: str | None) -> None:
            self._choosing = False
            if value is not None:
                then(value)
            self.redraw()

        self.app.push_screen(ChoiceScreen(title, options, cancellable), done)



# ---------------------------------------------------------------------- other screens


class ChoiceScreen(ModalScreen[str | None]):
    """Pick one option: by its key, or with the arrows and Enter."""

    def __init__(self, title: str, options: list[tuple[str, str, str]],
                 cancellable: bool = True) -> None:
        super().__init__()
        self.title_text = title
        self.options = options
        self.cancellable = cancellable

    def compose(self) -> ComposeResult:
        app = cast(UnoApp, self.app)
        with Vertical(id="choice"):
            yield Label(Text(self.title_text), id="choice-title")
            yield OptionList(*[Option(Text(f"[{key.upper()}] {label}"), id=value)
                               for key, label, value in self.options], id="choice-list")
            if self.cancellable:
                yield Label(app.t("tui.choice.cancel"), classes="hint")

    def on_key(self, event: Key) -> None:
        for key, _label, value in self.options:
            if event.character is not None and event.character.lower() == key:
                event.stop()
                self.dismiss(value)
                return
        if event.key == "escape" and self.cancellable:
            event.stop()
            self.dismiss(None)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)


class PassScreen(Screen[None]):
    """Hot seat: nothing of the game shows until the next person says they are ready."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "ready", show=False),
                                             Binding("u", "uno", show=False)]

    def __init__(self, seat: int, previous: int | None = None) -> None:
        super().__init__()
        self.seat = seat
        self.previous = previous
        """The person who just gave up the keyboard: they may still say UNO (R6.2)."""

    def _previous_may_say_uno(self) -> bool:
        app = cast(UnoApp, self.app)
        return (app.match is not None and self.previous is not None
                and UNO_MOVE in app.match.game.legal_moves(self.previous))

    def action_uno(self) -> None:
        app = cast(UnoApp, self.app)
        if app.match is not None and self.previous is not None and self._previous_may_say_uno():
            app.match.push(self.previous, UNO_MOVE)
            app.after_change()
            self.redraw()

    def compose(self) -> ComposeResult:
        with Center(id="pass-box"):
            yield Static(id="pass")

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        app = cast(UnoApp, self.app)
        name = app.seat_name(self.seat)
        text = Text(app.t("tui.pass.title", name=name) + "\n\n", style="bold")
        text.append(app.t("tui.pass.body", name=name))
        if self.previous is not None and self._previous_may_say_uno():
            text.append("\n\n" + app.t("tui.pass.uno", name=app.seat_name(self.previous)),
                        style="bold")
        self.query_one("#pass", Static).update(text)

    def action_ready(self) -> None:
        self.dismiss(None)


class ScoreScreen(ModalScreen[None]):
    """The scoreboard between rounds and at the end of the match."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "next", show=False)]

    def compose(self) -> ComposeResult:
        with Vertical(id="score-box"):
            yield Static(id="score")

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        app = cast(UnoApp, self.app)
        match = app.match
        if match is None:
            return
        game = match.game
        view = game.view(app.viewer)  # the round is over: every hand is shown
        round_over = match.last_event("round_over", app.viewer)
        points = round_over["points"] if round_over else [0] * game.players
        hands = round_over["hands"] if round_over else [[] for _ in range(game.players)]
        t = app.t
        winner = view["winner"]
        table = Table(box=None, pad_edge=False, expand=False)
        table.add_column(t("tui.score.player"))
        table.add_column(t("tui.score.cards"), max_width=34, overflow="ellipsis", no_wrap=True)
        table.add_column(t("tui.score.points"), justify="right")
        table.add_column(t("tui.score.total"), justify="right")
        for seat in range(game.players):
            style = "bold reverse" if seat == winner else ""
            table.add_row(Text(app.seat_name(seat), style=style),
                          app.cards_words(sorted(hands[seat], key=sort_key)),
                          f"+{sum(points)}" if seat == winner else str(points[seat]),
                          str(view["scores"][seat]))
        title = Text(t("tui.score.title", round=match.round,
                       name=app.seat_name(winner) if winner is not None else "?"), style="bold")
        footer = Text()
        if view["game_winner"] is not None:
            footer.append(t("tui.score.match_over", name=app.seat_name(view["game_winner"])) + "\n",
                          style="bold")
            footer.append(t("tui.score.again"))
        else:
            footer.append(t("tui.score.target", target=match.config.rules.target_score) + "\n")
            footer.append(t("tui.score.next"))
        self.query_one("#score", Static).update(Group(title, Text(), table, Text(), footer))

    def action_next(self) -> None:
        self.dismiss(None)


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,question_mark", "close", show=False)]

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Static(id="help")

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        app = cast(UnoApp, self.app)
        text = Text(app.t("tui.help.title") + "\n\n", style="bold")
        text.append(app.t("tui.help.body") + "\n\n")
        text.append(app.t("tui.help.close"), style="italic")
        self.query_one("#help", Static).update(text)

    def action_close(self) -> None:
        self.dismiss(None)


# ---------------------------------------------------------------------- setup


class RuleToggle(Widget, can_focus=True):
    """A rule that is on ``[x]`` or off ``[ ]`` (readable without colour)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "flip", show=False)]
    value: reactive[bool] = reactive(False)
    label: reactive[str] = reactive("")

    def __init__(self, label: str, value: bool, id: str) -> None:
        super().__init__(id=id)
        self.set_reactive(RuleToggle.label, label)
        self.set_reactive(RuleToggle.value, value)

    def render(self) -> Text:
        return Text.assemble(("[x] " if self.value else "[ ] ", "bold"), self.label)

    def action_flip(self) -> None:
        self.value = not self.value

    def on_click(self) -> None:
        self.action_flip()


class SetupScreen(Screen[None]):
    """Choose players, bots and their levels, house rules, the custom card, the target."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+s", "start", show=False)]

    def __init__(self, last: MatchConfig | None = None) -> None:
        super().__init__()
        self.last = last
        """The previous match, whose choices the form starts from."""

    def compose(self) -> ComposeResult:
        app = cast(UnoApp, self.app)
        t = app.t
        level = default_level()
        last = self.last
        rules = last.rules if last else Rules()
        seats = last.seats if last else []
        yield Static(t("tui.setup.title"), id="setup-title")
        with VerticalScroll(id="setup"):
            with Horizontal(classes="row"):
                yield Label(t("tui.setup.players"), classes="field", id="l-players")
                yield Select([(str(n), n) for n in range(2, 11)],
                             value=len(seats) if seats else 4, allow_blank=False,
                             id="setup-players", compact=True)
            for seat in range(10):
                default_name = (t("tui.player_name", number=1) if seat == 0
                                else t("tui.bot_name", number=seat))
                kind = "" if seat == 0 else level
                if seat < len(seats):
                    default_name = seats[seat].name
                    kind = seats[seat].level or ""
                with Horizontal(classes="row seat", id=f"row-{seat}"):
                    yield Label(t("tui.setup.seat", seat=seat), classes="field")
                    yield Input(default_name, id=f"name-{seat}", compact=True,
                                classes="name", max_length=12)
                    kinds = [(t("tui.setup.human"), "")] + [
                        (t("tui.setup.bot", level=app.tc(f"common.level.{name}", name)), name)
                        for name in BOT_LEVELS]
                    yield Select(kinds, value=kind, allow_blank=False,
                                 id=f"kind-{seat}", compact=True)
            yield Label(t("tui.setup.rules"), classes="section", id="l-rules")
            for rule in HOUSE_RULES + ON_RULES:
                yield RuleToggle(app.tc(f"common.rule.{rule}", f"tui.rule.{rule}"),
                                 getattr(rules, rule), id=f"rule-{rule}")
            with Horizontal(classes="row"):
                yield Label(t("tui.setup.custom"), classes="field", id="l-custom")
                yield Select([(app.tc(f"common.custom.{name}", f"tui.custom.{name}", count="N"),
                               name) for name in CUSTOM_RULES], value=rules.custom_rule,
                             allow_blank=False,
                             id="custom", compact=True)
            with Horizontal(classes="row"):
                yield Label(t("tui.setup.custom_count"), classes="field", id="l-count")
                yield Input(str(rules.custom_count), type="integer", id="custom-count",
                            compact=True)
            with Horizontal(classes="row"):
                yield Label(t("tui.setup.target"), classes="field", id="l-target")
                yield Input(str(rules.target_score), type="integer", id="target", compact=True)
            with Horizontal(classes="row"):
                yield Label(t("tui.setup.seed"), classes="field", id="l-seed")
                yield Input("", type="integer", id="seed", compact=True)
            yield Button(t("tui.setup.start"), id="start", variant="primary", compact=True)
            yield Static("", id="setup-error")
        yield Static(t("tui.setup.hint"), id="setup-hint")

    def on_mount(self) -> None:
        self._show_seats()
        self.query_one("#setup-players", Select).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "setup-players":
            self._show_seats()

    def _players(self) -> int:
        value = self.query_one("#setup-players", Select).value
        return value if isinstance(value, int) else 4

    def _show_seats(self) -> None:
        count = self._players()
        for seat in range(10):
            self.query_one(f"#row-{seat}").display = seat < count

    def relabel(self) -> None:
        """Another language: relabel in place, keeping what was entered."""
        app = cast(UnoApp, self.app)
        t = app.t
        self.query_one("#setup-title", Static).update(t("tui.setup.title"))
        self.query_one("#setup-hint", Static).update(t("tui.setup.hint"))
        for widget_id, key in (("l-players", "tui.setup.players"), ("l-rules", "tui.setup.rules"),
                               ("l-custom", "tui.setup.custom"), ("l-target", "tui.setup.target"),
                               ("l-count", "tui.setup.custom_count"),
                               ("l-seed", "tui.setup.seed")):
            self.query_one(f"#{widget_id}", Label).update(t(key))
        for rule in HOUSE_RULES + ON_RULES:
            self.query_one(f"#rule-{rule}", RuleToggle).label = app.tc(
                f"common.rule.{rule}", f"tui.rule.{rule}")
        self.query_one("#start", Button).label = t("tui.setup.start")

    def config(self) -> MatchConfig:
        """The match described by the form; ``ValueError`` names what is wrong."""
        app = cast(UnoApp, self.app)
        seats = []
        for seat in range(self._players()):
            name = self.query_one(f"#name-{seat}", Input).value.strip()
            kind = self.query_one(f"#kind-{seat}", Select).value
            level = kind if isinstance(kind, str) and kind else None
            if not name:
                name = (app.t("tui.player_name", number=seat + 1) if level is None
                        else app.t("tui.bot_name", number=seat))
            seats.append(SeatConfig(name, level))
        options: dict[str, Any] = {
            rule: self.query_one(f"#rule-{rule}", RuleToggle).value
            for rule in HOUSE_RULES + ON_RULES}
        custom = self.query_one("#custom", Select).value
        options["custom_rule"] = custom if isinstance(custom, str) else "none"
        options["custom_count"] = _number(self.query_one("#custom-count", Input).value, "N")
        options["target_score"] = _number(self.query_one("#target", Input).value, "target")
        seed_text = self.query_one("#seed", Input).value.strip()
        seed = int(seed_text) if seed_text else random.randrange(1_000_000)
        if self.last is not None:  # options without a field here stay as they were
            options = {**self.last.rules.to_dict(), **options}
        try:
            rules = Rules(**options)
        except RulesError as error:
            raise ValueError(str(error)) from None
        config = MatchConfig(seats=seats, rules=rules, seed=seed, lang=app.lang)
        if self.last is not None:
            config.bot_delay = self.last.bot_delay
            config.reaction_delay = self.last.reaction_delay
        config.check()
        return config

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self.action_start()

    def action_start(self) -> None:
        app = cast(UnoApp, self.app)
        try:
            config = self.config()
        except ValueError as error:
            self.query_one("#setup-error", Static).update(
                Text(app.t("tui.setup.error", error=error), style="bold reverse"))
            return
        app.start_match(replace(config, lang=app.lang))


def _number(text: str, what: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ValueError(f"{what}: {text!r} is not a whole number") from None
