"""Pick one option: by its key, or with the arrows and Enter."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import Key
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from .base import UnoModal


class ChoiceScreen(UnoModal[str | None]):
    """A colour, a seat... ``options`` are ``(key, label, value)``; dismisses with the value
    (``None``: cancelled with Esc, when ``cancellable``)."""

    def __init__(self, title: str, options: list[tuple[str, str, str]],
                 cancellable: bool = True) -> None:
        super().__init__()
        self.title_text = title
        self.options = options
        self.cancellable = cancellable

    def content(self) -> ComposeResult:
        with Vertical(id="choice"):
            yield Label(Text(self.title_text), id="choice-title")
            yield OptionList(*[Option(Text(f"[{key.upper()}] {label}"), id=value)
                               for key, label, value in self.options], id="choice-list")
            if self.cancellable:
                yield Label(self.t("tui.choice.cancel"), classes="hint")

    def on_key(self, event: Key) -> None:
        for key, _label, value in self.options:
            if event.character is not None and event.character.lower() == key:
                event.stop()
                self._answer(value)
                return
        if event.key == "escape" and self.cancellable:
            event.stop()
            self._answer(None)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._answer(event.option.id)

    def _answer(self, value: str | None) -> None:
        if self.app.screen is self:  # not taken away meanwhile (a remote match ended)
            self.dismiss(value)
