"""The table: players, top card, the round's log, the hand at the keyboard, its keys.

Only ever drawn from ``game.view(viewer)`` of the seat at the keyboard, that seat's legal
moves and the events as that seat may see them: what a seat may not know is never on
the screen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widgets import Static

from ...engine import Move
from ...engine.cards import CARD_CODE
from ...engine.moves import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    COLOR,
    DRAW,
    PASS,
    PLAY,
    SEAT_PURPOSE,
    SWAP_SEAT,
    UNO,
)
from ..cards import COLOR_SYMBOLS, card_label, sort_key
from ..refusals import play_move
from ..rules_text import rules_summary
from ..table_text import direction_words, players_text, table_text
from ..widgets import HandView, KeyFooter, LogView
from .base import UnoScreen
from .choice import ChoiceScreen
from .help import HelpScreen
from .passing import ARMING_SECONDS

COLOR_LETTERS = ("R", "Y", "G", "B")
UNO_MOVE = Move.make(UNO)

_CHOICE_KEYS = "123456789abcdefghijklmnopqrstuvwxyz"
"""Keys for a list of cards to choose from (a card to give)."""


class GameScreen(UnoScreen[None]):
    """The match at the keyboard."""

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
        Binding("pageup", "log_page(-1)", show=False),
        Binding("pagedown", "log_page(1)", show=False),
        Binding("question_mark,f1", "help", show=False),
    ]
    message: reactive[str] = reactive("")
    """A one-off line over the prompt ("not possible now"), cleared by the next move."""
    uno_armed: reactive[bool] = reactive(False)
    """The person pressed U before their second-last card: UNO goes with the play."""

    def __init__(self) -> None:
        super().__init__()
        self.choosing = False
        """A choice dialog of this screen is open."""
        self._last_drawn: str | None = None
        self.chances: frozenset[tuple[str, str]] = frozenset()
        """What the person at the keyboard may do now that others may take away: their
        turn, a jump-in (with the top card), a catch (of a seat)."""

    def content(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="top"):
            yield Static(id="players")
            yield Static(id="table")
        yield LogView(id="log")
        yield HandView(id="hand")
        yield Static(id="prompt")
        yield KeyFooter(id="footer")

    @property
    def hand(self) -> HandView:
        return self.query_one("#hand", HandView)

    def watch_message(self) -> None:
        self._relabel()

    def watch_uno_armed(self) -> None:
        self._relabel()

    def held(self) -> bool:
        """Hot seat: the person at the keyboard is looking at cards they just drew."""
        return self.uno.held is not None and self.uno.held == self.uno.viewer

    def on_key(self, event: events.Key) -> None:
        """While held, P (or Enter, Space) passes the keyboard on, counted half a second
        after the draw (the key that drew cannot also hide the cards)."""
        if self.held() and event.key in ("p", "enter", "space"):
            event.stop()
            event.prevent_default()
            if event.time - self.uno.held_at >= ARMING_SECONDS:
                self.uno.pass_on()

    # -- what the keyboard's seat sees

    def _view(self) -> dict[str, Any] | None:
        match = self.uno.match
        return None if match is None else match.game.view(self.uno.viewer)

    def legal(self) -> list[Move]:
        match, viewer = self.uno.match, self.uno.viewer
        return [] if match is None or viewer is None else match.game.legal_moves(viewer)

    def redraw(self) -> None:
        view = self._view()
        if view is None:
            return
        legal = self.legal()
        viewer = self.uno.viewer
        if self.uno_armed and not any(m.kind == PLAY and m.uno for m in legal):
            self.uno_armed = False
        self._draw_status(view)
        players = self._players_text(view)
        table = self._table_text(view)
        self.query_one("#players", Static).update(players)
        self.query_one("#table", Static).update(table)
        rows = max(len(players.plain.splitlines()), len(table.plain.splitlines()))
        self.query_one("#top").styles.height = rows + 2
        self.query_one("#players").border_title = self.t("tui.players")
        self.query_one("#table").border_title = self.t("tui.table")
        self._draw_log()
        self._draw_hand(view, legal)
        self._call_chances(view, legal)
        self.query_one("#prompt", Static).update(self._prompt(view, legal))
        self.query_one("#footer", KeyFooter).items = self._footer()
        if viewer is not None and any(m.kind == COLOR for m in legal) and not self.choosing:
            self.call_later(self._choose_first_color)

    def _footer(self) -> tuple[tuple[str, str], ...]:
        """The table's keys for the footer, in the screen's language (most needed first;
        help, language and quit last, always shown)."""
        t = self.t
        return (("←→", t("tui.footer.choose")), (t("tui.footer.play_key"), t("tui.footer.play")),
                ("D", t("tui.footer.draw")), ("U", "UNO"), ("C", t("tui.footer.catch")),
                ("PgUp", t("tui.footer.log")), ("?", t("tui.footer.help")),
                ("F2", t("tui.footer.lang")), ("^Q", t("tui.footer.quit")))

    def on_hand_view_clicked(self, message: HandView.Clicked) -> None:
        """A click on a card plays it, as choosing it and Enter do (refused: why)."""
        if self.held() or self.choosing:
            return
        self.hand.cursor = message.index
        self.action_play()

    def _call_chances(self, view: dict[str, Any], legal: list[Move]) -> None:
        """A bell when a chance appears (the turn comes, a jump-in or a catch becomes
        possible: bots take the last two within a second), and the prompt and the hand
        highlighted while one is open."""
        viewer = self.uno.viewer
        chances: set[tuple[str, str]] = set()
        if viewer is not None and view["winner"] is None and not self.held():
            if view["turn"] == viewer:
                chances.add(("turn", ""))
            elif any(m.kind == PLAY for m in legal):
                chances.add(("jump", str(view["discard_pile"][0])))
            chances |= {("catch", str(m.target)) for m in legal if m.kind == CATCH}
        if chances - self.chances:
            self.app.bell()
        self.chances = frozenset(chances)
        self.query_one("#prompt").set_class(bool(chances), "chance")
        self.hand.set_class(("turn", "") in chances, "your-turn")

    def _draw_status(self, view: dict[str, Any]) -> None:
        match = self.uno.match
        assert match is not None
        target = match.config.rules.target_score
        if view["winner"] is None:
            status = self.t("tui.status", round=match.round, target=target,
                            direction=self._direction(view),
                            name=self.words.seat_name(view["turn"]))
        else:
            status = self.t("tui.status.over", round=match.round, target=target)
        line = Text(status, style="bold")
        notice = self.uno.status_notice()
        if notice:  # the link to a room's server is down: said where the eye is
            line = Text.assemble((notice, "bold reverse"), " ", line)
        self.query_one("#status", Static).update(line)

    def _direction(self, view: dict[str, Any]) -> str:
        return direction_words(self.words, view)

    def _players_text(self, view: dict[str, Any]) -> Text:
        return players_text(self.words, view, self.uno.viewer)

    def _table_text(self, view: dict[str, Any]) -> Text:
        return table_text(self.words, view)

    def _draw_log(self) -> None:
        match = self.uno.match
        assert match is not None
        log = self.query_one("#log", LogView)
        log.border_title = self.t("tui.log")
        log.border_subtitle = rules_summary(self.words, match.config.rules)
        log.show([line for event in match.log_for(self.uno.viewer)
                  if (line := self.words.event_line(event)) is not None])

    def _draw_hand(self, view: dict[str, Any], legal: list[Move]) -> None:
        match = self.uno.match
        assert match is not None
        hand = self.hand
        viewer = self.uno.viewer
        if viewer is None:
            hand.cards = ()
            hand.notice = self.t("tui.hand.watching" if not match.humans else "tui.hand.hidden")
            hand.border_title = ""
            return
        cards = view["hands"][viewer]
        hand.notice = ""
        hand.cards = tuple(sorted(cards, key=sort_key))
        hand.playable = frozenset(str(m.card_code) for m in legal if m.kind == PLAY)
        pending = view["pending"]
        drawn = pending.get("card") if pending and pending["kind"] == "drawn" else None
        if self.held():  # the cards just drawn are shown chosen
            drawn = next(iter(self._drawn_by(viewer)[-1:]), None)
        if drawn is not None and drawn != self._last_drawn:
            hand.choose(drawn)
        self._last_drawn = drawn
        hand.border_title = self.t("tui.hand", name=self.words.seat_name(viewer),
                                   count=len(cards))

    def _prompt(self, view: dict[str, Any], legal: list[Move]) -> Text:
        first = self._prompt_line(view, legal)
        if self.chances:  # seen without colour too
            first = f"★ {first}"
        if self.message:
            text = Text(self.message, style="bold reverse")
            text.append("\n" + first)
            return text
        t = self.t
        extras: list[str] = []
        said = self.uno.viewer in view["uno"]  # said already: U is not offered again
        if any(m.kind == UNO for m in legal):
            extras.append(t("tui.keys.uno"))
        elif self.uno_armed:
            extras.append(t("tui.keys.uno_armed"))
        elif not said and any(m.kind == PLAY and m.uno for m in legal):
            extras.append(t("tui.keys.uno_arm"))
        catches = [m.target for m in legal if m.kind == CATCH]
        if catches:
            extras.append(t("tui.keys.catch",
                            names=", ".join(self.words.seat_name(s) for s in catches)))
        text = Text(first, style="bold")
        text.append("\n" + " · ".join(extras))
        return text

    def _prompt_line(self, view: dict[str, Any], legal: list[Move]) -> str:
        t = self.t
        viewer = self.uno.viewer
        pending = view["pending"]
        match = self.uno.match
        assert match is not None
        if view["winner"] is not None:
            return t("tui.status.over", round=match.round,
                     target=match.config.rules.target_score)
        if self.held():
            drawn = self._drawn_by(viewer)
            return t("tui.keys.held", cards=self.words.cards_words(drawn) if drawn else "-")
        if viewer is None or view["turn"] != viewer:
            line = t("tui.keys.wait", name=self.words.seat_name(view["turn"]))
            jump = [m.card_code for m in legal if m.kind == PLAY]
            if jump:
                line += " · " + t("tui.keys.jump_in", card=card_label(str(jump[0])))
            return line
        kind = pending["kind"] if pending else None
        if kind == "drawn":
            must = not any(m.kind == PASS for m in legal)
            return t("tui.keys.drawn_must" if must else "tui.keys.drawn",
                     card=card_label(pending["card"]))
        if kind == "challenge":
            stack = any(m.kind == PLAY for m in legal)
            return t("tui.keys.challenge_stack" if stack else "tui.keys.challenge",
                     name=self.words.seat_name(pending["by"]))
        if kind == "stack":
            stackable = sorted({card_label(str(m.card_code)) for m in legal if m.kind == PLAY})
            if not stackable:
                return t("tui.keys.stack_draw", amount=pending["amount"])
            return t("tui.keys.stack_play", amount=pending["amount"],
                     cards=" ".join(stackable))
        if kind == "color":
            return t("tui.keys.color")
        return t("tui.keys.your_turn")

    def _drawn_by(self, seat: int | None) -> list[str]:
        """The cards ``seat`` drew last, as ``seat`` sees them."""
        match = self.uno.match
        if match is None or seat is None:
            return []
        event = match.last_event("draw", seat)
        return list(event.get("cards", [])) if event else []

    # -- actions

    def action_cursor(self, step: int) -> None:
        self.hand.move(step)

    def action_cursor_to(self, index: int) -> None:
        self.hand.cursor = index

    def action_log_page(self, pages: int) -> None:
        log = self.query_one("#log", LogView)
        if pages < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def _do(self, kind: int) -> None:
        for move in self.legal():
            if move.kind == kind:
                self.uno.human_move(move)
                return
        self.refuse_move(Move.make(kind))

    def refuse(self, text: str | None = None) -> None:
        self.message = text or self.t("tui.msg.not_legal")

    def refuse_move(self, move: Move) -> None:
        """Say why the person at the keyboard may not make ``move`` now (the engine's
        reason, in the screen's language)."""
        viewer = self.uno.viewer
        if self.uno.match is None or viewer is None:
            self.refuse()
            return
        why = self.uno.why_not(viewer, move)
        if why is not None:
            self.refuse(why)

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

    def _said_uno(self) -> bool:
        view, viewer = self._view(), self.uno.viewer
        return view is not None and viewer in view["uno"]

    def action_uno(self) -> None:
        legal = self.legal()
        if UNO_MOVE in legal:
            self.uno.human_move(UNO_MOVE)
        elif not self._said_uno() and any(m.kind == PLAY and m.uno for m in legal):
            self.uno_armed = not self.uno_armed
        else:
            self.refuse_move(UNO_MOVE)

    def action_catch(self) -> None:
        targets = [m.target for m in self.legal() if m.kind == CATCH]
        if not targets:
            self._refuse_catch()
        elif len(targets) == 1:
            self.uno.human_move(Move.make(CATCH, target=targets[0]))
        else:
            self.ask(self.t("tui.choice.catch"), self._seat_options(targets),
                     lambda seat: self.uno.human_move(Move.make(CATCH, target=int(seat))))

    def _refuse_catch(self) -> None:
        """Why nobody can be caught: the engine's reason for an opponent holding one
        card (said UNO, too late), or that nobody holds one."""
        view, viewer = self._view(), self.uno.viewer
        if view is None or viewer is None:
            self.refuse()
            return
        ones = [seat for seat in range(view["players"]) if seat != viewer
                and (len(held) if isinstance(held := view["hands"][seat], list) else held) == 1]
        if ones:
            self.refuse_move(Move.make(CATCH, target=ones[0]))
        else:
            self.refuse(self.t("tui.msg.nobody_to_catch"))

    def action_play(self) -> None:
        code = self.hand.chosen
        if code is None or self.uno.viewer is None:
            self.refuse()
            return
        plays = [m for m in self.legal() if m.kind == PLAY and m.card_code == code]
        if not plays:
            self.refuse_move(play_move(code))
            view = self._view()
            pending = view["pending"] if view else None
            if pending and pending["kind"] == "drawn" and view and view["turn"] == self.uno.viewer:
                self.hand.choose(pending["card"])  # Enter again plays the drawn card
            return
        self._narrow(plays)

    def _narrow(self, plays: list[Move]) -> None:
        """Ask for what tells the candidate plays apart: colour, seat, colour argument."""
        colors = sorted({m.color for m in plays})
        if len(colors) > 1:
            self.ask(self.t("tui.choice.color"), self._color_options(colors),
                     lambda c: self._narrow([m for m in plays if m.color == int(c)]))
            return
        targets = sorted({m.target for m in plays})
        if len(targets) > 1:
            swap = SEAT_PURPOSE.get(plays[0].card_code or "") == SWAP_SEAT
            title = self.t("tui.choice.swap" if swap else "tui.choice.seat")
            self.ask(title, self._seat_options(targets),
                     lambda s: self._narrow([m for m in plays if m.target == int(s)]))
            return
        args = sorted({m.arg for m in plays})
        if len(args) > 1:
            self.ask(self.t("tui.choice.discard_color"), self._color_options(args),
                     lambda c: self._narrow([m for m in plays if m.arg == int(c)]))
            return
        gifts = sorted({m.gift for m in plays})
        if len(gifts) > 1:  # a family's rule gives a card (DECISIONS.md D18)
            options = [(_CHOICE_KEYS[number] if number < len(_CHOICE_KEYS) else "",
                        card_label(CARD_CODE[gift]), str(gift))
                       for number, gift in enumerate(gifts)]
            self.ask(self.t("tui.choice.gift"), options,
                     lambda g: self._narrow([m for m in plays if m.gift == int(g)]))
            return
        with_uno = [m for m in plays if m.uno]
        without = [m for m in plays if not m.uno]
        armed = self.uno_armed and not self._said_uno()  # UNO is said once
        move = (with_uno or without)[0] if armed else (without or with_uno)[0]
        self.uno_armed = False
        if move in self.legal():
            self.uno.human_move(move)
        else:
            self.refuse_move(move)

    def _choose_first_color(self) -> None:
        legal = [m for m in self.legal() if m.kind == COLOR]
        if not legal or self.choosing:
            return
        self.ask(self.t("tui.choice.color"),
                 self._color_options(sorted(m.color for m in legal)),
                 lambda c: self.uno.human_move(Move.make(COLOR, color=int(c))),
                 cancellable=False)

    def _color_options(self, colors: list[int]) -> list[tuple[str, str, str]]:
        return [(COLOR_LETTERS[c].lower(),
                 f"{COLOR_SYMBOLS[COLOR_LETTERS[c]]} {self.words.color_name(COLOR_LETTERS[c])}",
                 str(c))
                for c in colors]

    def _seat_options(self, seats: list[int]) -> list[tuple[str, str, str]]:
        view = self._view()
        assert view is not None
        options = []
        for seat in seats:
            held = view["hands"][seat]
            count = len(held) if isinstance(held, list) else held
            label = (f"{seat}  {self.words.seat_name(seat)} · "
                     f"{self.t('tui.choice.cards', count=count)}")
            options.append((str(seat), label, str(seat)))
        return options

    def ask(self, title: str, options: list[tuple[str, str, str]],
            then: Callable[[str], object], cancellable: bool = True) -> None:
        """A choice dialog; ``then`` gets the chosen value. This screen stays under the
        dialog, so it is the one that hears the answer."""
        self.choosing = True

        def done(value: str | None) -> None:
            self.choosing = False
            if value is not None:
                then(value)
            self._relabel()

        self.app.push_screen(ChoiceScreen(title, options, cancellable), done)
