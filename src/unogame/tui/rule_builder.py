"""The setup screen's Wild Customizable rule builder: a name, a text and up to four steps
(who x what x how many, DECISIONS.md D17), with the rule's one-line explanation.

The builder only collects the rule; the engine checks it (``CustomRule.from_dict``) and
the setup screen shows why it is refused.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, Select, Static

from ..engine.custom import (
    ALLOWED_WHO,
    COUNT_RANGE,
    MAX_NAME,
    MAX_STEPS,
    MAX_TEXT,
    WHAT,
    CustomRule,
    CustomRuleError,
    Step,
)
from ..i18n import translate
from ..i18n.custom_text import describe

NO_STEP = ""
"""The ``what`` of an unused step row."""


class RuleBuilder(Vertical):
    """Name, text and four step rows; :meth:`data` is the rule's JSON form."""

    # 80 columns: a step takes two rows (what and how many; who), so that the longest
    # choices show whole and the count is on the screen (widths in uno.tcss)
    DEFAULT_CSS = """
    RuleBuilder { height: auto; margin-left: 2; }
    RuleBuilder .row { height: 1; }
    RuleBuilder .field { width: 24; }
    RuleBuilder .who-field { padding-left: 2; }
    RuleBuilder #rule-name, RuleBuilder #rule-text { width: 50; }
    RuleBuilder #rule-explain { height: auto; margin-top: 0; }
    """

    def __init__(self, lang: str, rule: CustomRule | None = None) -> None:
        super().__init__(id="rule-builder")
        self.lang = lang
        start = rule if rule is not None else CustomRule(
            (Step("others", "draw", 1), Step("next", "skip", 1)), "")
        self.start = start

    def compose(self) -> ComposeResult:
        t = self._t
        with Horizontal(classes="row"):
            yield Label(t("tui.setup.rule_name"), id="l-rule-name", classes="field")
            yield Input(self.start.name, id="rule-name", max_length=MAX_NAME, compact=True)
        with Horizontal(classes="row"):
            yield Label(t("tui.setup.rule_text"), id="l-rule-text", classes="field")
            yield Input(self.start.text, id="rule-text", max_length=MAX_TEXT, compact=True)
        for index in range(MAX_STEPS):
            step = self.start.steps[index] if index < len(self.start.steps) else None
            what = step.what if step else NO_STEP
            with Horizontal(classes="row"):
                yield Label(t("tui.setup.rule_step", number=index + 1),
                            id=f"l-step-{index}", classes="field")
                yield Select(self._whats(), value=what, allow_blank=False,
                             id=f"step-what-{index}", classes="step-what", compact=True)
                yield Input(str(step.count if step else 1), type="integer",
                            id=f"step-count-{index}", classes="step-count", compact=True)
            with Horizontal(classes="row", id=f"row-who-{index}"):
                yield Label(t("tui.setup.rule_who"), id=f"l-who-{index}",
                            classes="field who-field")
                yield Select(self._whos(what), value=step.who if step else "",
                             allow_blank=False, id=f"step-who-{index}", classes="step-who",
                             compact=True)
        yield Static("", id="rule-explain")

    def on_mount(self) -> None:
        for index in range(MAX_STEPS):
            self._show_row(index)
        self.explain()

    def _t(self, key: str, **fields: Any) -> str:
        return translate(self.lang, key, **fields)

    def _whats(self) -> list[tuple[str, str]]:
        return [(self._t("tui.setup.no_step"), NO_STEP)] + [
            (self._t(f"common.what.{what}"), what) for what in WHAT]

    def _whos(self, what: str) -> list[tuple[str, str]]:
        if what == NO_STEP:
            return [("-", "")]
        return [(self._t(f"common.who.{who}"), who) for who in ALLOWED_WHO[what]]

    def _show_row(self, index: int) -> None:
        what = self.query_one(f"#step-what-{index}", Select).value
        used = isinstance(what, str) and what != NO_STEP
        self.query_one(f"#row-who-{index}").display = used
        self.query_one(f"#step-count-{index}", Input).display = used and what in COUNT_RANGE

    def on_select_changed(self, event: Select.Changed) -> None:
        select_id = event.select.id or ""
        if select_id.startswith("step-what-"):
            index = int(select_id.removeprefix("step-what-"))
            what = event.value if isinstance(event.value, str) else NO_STEP
            who: Select[str] = self.query_one(f"#step-who-{index}", Select)
            options = self._whos(what)
            value = who.value if who.value in [v for _, v in options] else options[0][1]
            who.set_options(options)
            who.value = value
            self._show_row(index)
        self.explain()

    def on_input_changed(self, _event: Input.Changed) -> None:
        self.explain()

    def data(self) -> dict[str, Any]:
        """The rule as the engine reads it (NOTATION ``rules.custom_rule``, D16)."""
        steps = []
        for index in range(MAX_STEPS):
            what = self.query_one(f"#step-what-{index}", Select).value
            if not isinstance(what, str) or what == NO_STEP:
                continue
            who = self.query_one(f"#step-who-{index}", Select).value
            step: dict[str, Any] = {"what": what, "who": who}
            if what in COUNT_RANGE:
                text = self.query_one(f"#step-count-{index}", Input).value.strip()
                step["count"] = int(text) if text.lstrip("-").isdigit() else text
            steps.append(step)
        return {"name": self.query_one("#rule-name", Input).value.strip(),
                "text": self.query_one("#rule-text", Input).value.strip(), "steps": steps}

    def explain(self) -> None:
        """The explanation line: the steps in words, or why they cannot be applied yet."""
        data = self.data()
        try:
            rule = CustomRule.from_dict({**data, "name": data["name"] or "-"})
            line = describe(rule, self.lang)
        except CustomRuleError:
            line = "…"
        self.query_one("#rule-explain", Static).update(
            Text(self._t("tui.setup.rule_explain", line=line)))

    def relabel(self, lang: str) -> None:
        """Every label in ``lang``, keeping what was entered."""
        self.lang = lang
        self.query_one("#l-rule-name", Label).update(self._t("tui.setup.rule_name"))
        self.query_one("#l-rule-text", Label).update(self._t("tui.setup.rule_text"))
        for index in range(MAX_STEPS):
            self.query_one(f"#l-step-{index}", Label).update(
                self._t("tui.setup.rule_step", number=index + 1))
            self.query_one(f"#l-who-{index}", Label).update(self._t("tui.setup.rule_who"))
            what_select: Select[str] = self.query_one(f"#step-what-{index}", Select)
            what = what_select.value
            _relabel(what_select, self._whats())
            who_select: Select[str] = self.query_one(f"#step-who-{index}", Select)
            _relabel(who_select, self._whos(what if isinstance(what, str) else NO_STEP))
        self.explain()


def _relabel(select: Select[str], options: list[tuple[str, str]]) -> None:
    """New labels for the same options, the chosen one kept and shown in its new label
    (setting the same value again shows the old label: "(no step)" stayed Thai)."""
    value = select.value
    select.set_options(options)
    select.value = value
    select.mutate_reactive(Select.value)  # type: ignore[misc]
