"""The setup screen: players, bots and their levels, house rules, the custom card, the
target score and the seed. F2 relabels all of it in the other language, keeping what
was entered; an error names the field as the screen labels it."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static

from ...bots.base import level_names
from ...engine import CUSTOM_RULES, Rules, RulesError
from ...engine.custom import CustomRule, CustomRuleError
from ...i18n.custom_text import describe, reason
from ..match import MatchConfig, SeatConfig
from ..rule_builder import RuleBuilder
from ..rules_text import HOUSE_RULES, ON_RULES
from ..words import Words
from .base import UnoScreen

MAX_SEATS = 10
OWN_RULE = "__own__"
"""The custom card's choice that opens the rule builder (a family's own rule)."""
NUMBER_FIELDS = {"custom_count": ("custom-count", "tui.setup.custom_count", 1, 20),
                 "target_score": ("target", "tui.setup.target", 1, 1_000_000)}
"""Rule option → (input id, label key, lowest, highest)."""
LABELS = {"l-players": "tui.setup.players", "l-rules": "tui.setup.rules",
          "l-custom": "tui.setup.custom", "l-count": "tui.setup.custom_count",
          "l-target": "tui.setup.target", "l-seed": "tui.setup.seed_label"}


def default_level() -> str:
    """The bot level offered first: ``medium`` when it exists, else the first one."""
    levels = level_names()
    return "medium" if "medium" in levels else levels[0]


class SetupError(ValueError):
    """What is wrong with the form, as a translation key and its fields."""

    def __init__(self, key: str, **fields: Any) -> None:
        super().__init__(key)
        self.key = key
        self.fields = fields


class RuleToggle(Widget, can_focus=True):
    """A rule that is on ``[x]`` or off ``[ ]`` (readable without colour)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "flip", show=False)]
    value: reactive[bool] = reactive(False)
    label: reactive[str] = reactive("", layout=True)
    """(Its width follows the label: a longer one in another language is not cut.)"""

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


class StartButton(Button):
    """A button that counts every press. Textual's Button drops a press that comes while
    its 0.2 s "pressed" flash is on, so Start pressed again at once after a refusal (the
    rule named, Enter again) did nothing and the form kept its old error."""

    def action_press(self) -> None:
        self.press()

    async def _on_click(self, event: events.Click) -> None:
        event.stop()
        event.prevent_default()  # Button's own handler would drop it during the flash
        self.press()


class SetupScreen(UnoScreen[None]):
    """Choose the match; Enter or Ctrl+S starts it (the app hears :class:`Start`)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+s", "start", show=False)]

    @dataclass
    class Start(Message):
        """The form describes a match: start it."""

        config: MatchConfig

    def __init__(self, last: MatchConfig | None = None) -> None:
        super().__init__()
        self.last = last
        """The previous match, whose choices the form starts from."""
        self.error: SetupError | None = None
        self.started = False
        """Start was accepted: the match is on its way (every press counts, only once)."""
        self._shown_lang = ""

    def content(self) -> ComposeResult:
        t = self.t
        level = default_level()
        rules = self.last.rules if self.last else Rules()
        seats = self.last.seats if self.last else []
        yield Static(id="setup-title")
        with VerticalScroll(id="setup"):
            with Horizontal(classes="row"):
                yield Label(id="l-players", classes="field")
                yield Select([(str(n), n) for n in range(2, MAX_SEATS + 1)],
                             value=len(seats) if seats else 4, allow_blank=False,
                             id="setup-players", compact=True)
            for seat in range(MAX_SEATS):
                name = self._default_name(seat, None if seat == 0 else level)
                kind = "" if seat == 0 else level
                if seat < len(seats):
                    name = seats[seat].name
                    kind = seats[seat].level or ""
                with Horizontal(classes="row seat", id=f"row-{seat}"):
                    yield Label(id=f"l-seat-{seat}", classes="field")
                    yield Input(name, id=f"name-{seat}", compact=True, classes="name",
                                max_length=12)
                    yield Select(self._kinds(), value=kind, allow_blank=False,
                                 id=f"kind-{seat}", compact=True)
            yield Label(id="l-rules", classes="section")
            for rule in HOUSE_RULES + ON_RULES:
                yield RuleToggle("", getattr(rules, rule), id=f"rule-{rule}")
            with Horizontal(classes="row"):
                yield Label(id="l-custom", classes="field")
                own = isinstance(rules.custom_rule, CustomRule)
                yield Select(self._customs(), value=OWN_RULE if own else rules.custom_rule,
                             allow_blank=False, id="custom", compact=True)
            yield Static("", id="custom-explain")
            yield RuleBuilder(self.words.lang,
                              rules.custom_rule if isinstance(rules.custom_rule, CustomRule)
                              else None)
            with Horizontal(classes="row"):
                yield Label(id="l-count", classes="field")
                yield Input(str(rules.custom_count), type="integer", id="custom-count",
                            compact=True)
            with Horizontal(classes="row"):
                yield Label(id="l-target", classes="field")
                yield Input(str(rules.target_score), type="integer", id="target",
                            compact=True)
            with Horizontal(classes="row"):
                yield Label(id="l-seed", classes="field")
                yield Input("", type="integer", id="seed", compact=True)
            yield StartButton(t("tui.setup.start"), id="start", variant="primary", compact=True)
            yield Static("", id="setup-error")
        yield Static(id="setup-hint")

    def on_mount(self) -> None:
        self._show_seats()
        self._show_custom()
        self.query_one("#setup-players", Select).focus()

    def _default_name(self, seat: int, level: str | None) -> str:
        return (self.t("tui.player_name", number=seat + 1) if level is None
                else self.t("tui.bot_name", number=seat))

    def _kinds(self) -> list[tuple[str, str]]:
        return [(self.t("tui.setup.human"), "")] + [
            # a level named with --bot-level has no translation: it shows as its name
            (self.t("tui.setup.bot", level=self.words.tc(f"common.level.{name}", name)), name)
            for name in self._levels()]

    def _levels(self) -> list[str]:
        """The built-in and named levels, then any other the last match seated (``--bots
        policy:PATH`` or a plugin level), so that the form can show its seats again."""
        seated = [seat.level for seat in self.last.seats if seat.level] if self.last else []
        return list(dict.fromkeys([*level_names(), *seated]))

    def _customs(self) -> list[tuple[str, str]]:
        return [(self.words.tc(f"common.custom.{name}", f"tui.custom.{name}", count="N"), name)
                for name in CUSTOM_RULES] + [(self.t("tui.setup.own_rule"), OWN_RULE)]

    def _show_custom(self) -> None:
        """The builder for an own rule; a preset's explanation otherwise."""
        custom = self.query_one("#custom", Select).value
        own = custom == OWN_RULE
        self.query_one(RuleBuilder).display = own
        explain = self.query_one("#custom-explain", Static)
        explain.display = not own
        if isinstance(custom, str) and not own:
            count = self.query_one("#custom-count", Input).value.strip()
            rules = Rules(custom_rule=custom,
                          custom_count=int(count) if count.isdigit() and 1 <= int(count) <= 20
                          else 2)
            explain.update(Text(self.t("tui.setup.rule_explain",
                                       line=describe(rules.custom, self.words.lang))))

    def on_select_changed(self, event: Select.Changed) -> None:
        select_id = event.select.id or ""
        if select_id == "setup-players":
            self._show_seats()
        elif select_id == "custom":
            self._show_custom()
        elif select_id.startswith("kind-"):
            self._name_follows_kind(int(select_id.removeprefix("kind-")), event.value)

    def _name_follows_kind(self, seat: int, kind: object) -> None:
        """A seat still named "Bot N" that becomes a person's is named "Player N+1", and
        the other way round; a name someone typed stays."""
        name = self.query_one(f"#name-{seat}", Input)
        level = kind if isinstance(kind, str) and kind else None
        defaults = {self._default_name(seat, None), self._default_name(seat, default_level())}
        if name.value in defaults:
            name.value = self._default_name(seat, level)

    def _players(self) -> int:
        value = self.query_one("#setup-players", Select).value
        return value if isinstance(value, int) else 4

    def _show_seats(self) -> None:
        count = self._players()
        for seat in range(MAX_SEATS):
            self.query_one(f"#row-{seat}").display = seat < count

    def redraw(self) -> None:
        """Label everything in the app's language, keeping what was entered (a name
        still at its default follows the language)."""
        t = self.t
        previous = self._shown_lang
        self._shown_lang = self.words.lang
        self.query_one("#setup-title", Static).update(t("tui.setup.title"))
        self.query_one("#setup-hint", Static).update(t("tui.setup.hint"))
        for widget_id, key in LABELS.items():
            self.query_one(f"#{widget_id}", Label).update(t(key))
        for seat in range(MAX_SEATS):
            self.query_one(f"#l-seat-{seat}", Label).update(t("tui.setup.seat", seat=seat))
            self._relabel_select(f"#kind-{seat}", self._kinds())
            name = self.query_one(f"#name-{seat}", Input)
            if previous and previous != self.words.lang:
                kind = self.query_one(f"#kind-{seat}", Select).value
                level = kind if isinstance(kind, str) and kind else None
                old = Words(previous)
                was = (old.t("tui.player_name", number=seat + 1) if level is None
                       else old.t("tui.bot_name", number=seat))
                if name.value == was:
                    name.value = self._default_name(seat, level)
        self._relabel_select("#custom", self._customs())
        self.query_one(RuleBuilder).relabel(self.words.lang)
        self._show_custom()
        for rule in HOUSE_RULES + ON_RULES:
            self.query_one(f"#rule-{rule}", RuleToggle).label = self.words.tc(
                f"common.rule.{rule}", f"tui.rule.{rule}")
        self.query_one("#start", Button).label = t("tui.setup.start")
        self._show_error()

    def _relabel_select(self, selector: str, options: list[tuple[str, Any]]) -> None:
        select: Select[Any] = self.query_one(selector, Select)
        value = select.value
        select.set_options(options)
        select.value = value
        # the same value again: its watcher shows the option's new label
        select.mutate_reactive(Select.value)  # type: ignore[misc]

    def _show_error(self) -> None:
        box = self.query_one("#setup-error", Static)
        if self.error is None:
            box.update("")
            return
        fields = {key: self.t(value) if key == "field" else value
                  for key, value in self.error.fields.items()}
        box.update(Text(self.t("tui.setup.error", error=self.t(self.error.key, **fields)),
                        style="bold reverse"))

    def config(self) -> MatchConfig:
        """The match described by the form; :class:`SetupError` says what is wrong."""
        seats = []
        for seat in range(self._players()):
            name = self.query_one(f"#name-{seat}", Input).value.strip()
            kind = self.query_one(f"#kind-{seat}", Select).value
            level = kind if isinstance(kind, str) and kind else None
            seats.append(SeatConfig(name or self._default_name(seat, level), level))
        options: dict[str, Any] = {
            rule: self.query_one(f"#rule-{rule}", RuleToggle).value
            for rule in HOUSE_RULES + ON_RULES}
        custom = self.query_one("#custom", Select).value
        options["custom_rule"] = custom if isinstance(custom, str) else "none"
        if custom == OWN_RULE:
            try:
                rule = CustomRule.from_dict(self.query_one(RuleBuilder).data())
                rule.check_players(len(seats), options["two_player_reverse_skips"])
            except CustomRuleError as error:
                raise SetupError("tui.setup.error.custom",
                                 reason=reason(error, self.words.lang)) from None
            options["custom_rule"] = rule
        for option, (input_id, label, low, high) in NUMBER_FIELDS.items():
            text = self.query_one(f"#{input_id}", Input).value
            options[option] = _whole_number(text, label, low, high)
        seed_text = self.query_one("#seed", Input).value.strip()
        seed = (_whole_number(seed_text, "tui.setup.seed_label", 0, 2**63 - 1) if seed_text
                else random.randrange(1_000_000))
        if self.last is not None:  # options without a field here stay as they were
            options = {**self.last.rules.to_dict(), **options}
        try:
            rules = Rules(**options)
        except RulesError as error:
            raise SetupError("tui.setup.error.rules", detail=str(error)) from None
        config = MatchConfig(seats=seats, rules=rules, seed=seed, lang=self.words.lang)
        if self.last is not None:
            config.bot_delay = self.last.bot_delay
            config.reaction_delay = self.last.reaction_delay
        try:
            config.check()
        except ValueError as error:
            raise SetupError("tui.setup.error.rules", detail=str(error)) from None
        return config

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "custom-count":
            self._show_custom()

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self.action_start()

    def action_start(self) -> None:
        if self.started:  # a double tap on Start: the match has been asked for already
            return
        try:
            config = self.config()
        except SetupError as error:
            self.error = error
            self._show_error()
            return
        self.error = None
        self._show_error()
        self.started = True
        self.post_message(self.Start(config))


def _whole_number(text: str, label: str, low: int, high: int) -> int:
    """``text`` as a whole number from ``low`` to ``high``; the error names the field by
    its label's key."""
    try:
        number = int(text.strip())
    except ValueError:
        raise SetupError("tui.setup.error.number", field=label, value=text.strip()) from None
    if not low <= number <= high:
        raise SetupError("tui.setup.error.range", field=label, low=low, high=high)
    return number
