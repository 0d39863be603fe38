"""What the terminal game says: translated strings and one log line per event.

No Textual here, so the log's wording can be tested without a screen.

>>> words = Words("en", ["Ann", "Bob"])
>>> words.event_line({"type": "catch", "seat": 1, "target": 0})
'Bob catches Ann!'
>>> Words("th", ["Ann", "Bob"]).color_name("R")
'แดง'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.custom import CustomRule, Step
from ..i18n import translate
from ..i18n.custom_text import describe
from .cards import card_label


def rule_line(rule: CustomRule, lang: str) -> str:
    """A family's rule in one line: name, explanation, and its text in quotes.

    >>> grandma = CustomRule((Step("others", "draw"), Step("next", "skip")), "Grandma's rule")
    >>> rule_line(grandma, "en")
    "Grandma's rule: Every other player draws 1, then the next player is skipped"
    """
    line = f"{rule.name}: {describe(rule, lang)}"
    return f"{line} — “{rule.text}”" if rule.text else line


class Words:
    """The strings of one language, with the seats' names filled in."""

    def __init__(self, lang: str, names: Sequence[str] = (), custom_count: int = 2) -> None:
        self.lang = lang
        self.names = list(names)
        self.custom_count = custom_count

    def t(self, key: str, **fields: Any) -> str:
        return translate(self.lang, key, **fields)

    def tc(self, common_key: str, own_key: str, **fields: Any) -> str:
        """The web game's shared wording (``common.*``) when it exists, else our own."""
        text = translate(self.lang, common_key, **fields)
        return text if text != common_key else translate(self.lang, own_key, **fields)

    def seat_name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else str(seat)

    def color_name(self, letter: str | None) -> str:
        return self.t(f"tui.color.{letter}") if letter else self.t("tui.table.color_none")

    @staticmethod
    def cards_words(codes: Sequence[str]) -> str:
        return " ".join(card_label(code) for code in codes) or "-"

    def custom_words(self, rule: str) -> str:
        return self.t(f"tui.custom.{rule}", count=self.custom_count)

    def announced(self, event: dict[str, Any]) -> str:
        """A Wild Customizable's announcement: a preset in words, or a family's rule by
        its name, its explanation and its text (DECISIONS.md D20)."""
        if "name" not in event:
            return self.custom_words(event["rule"])
        rule = CustomRule(tuple(Step(**step) for step in event["steps"]), event["name"],
                          event.get("text", ""))
        return rule_line(rule, self.lang)

    def event_line(self, event: dict[str, Any]) -> str | None:
        """One log line for an event as the viewer sees it (``None``: not worth a line)."""
        kind = event["type"]
        seat = event.get("seat")
        name = self.seat_name(seat) if isinstance(seat, int) else ""
        t = self.t
        if kind == "deal":
            return t("tui.log.deal", round=event.get("round", 1),
                     dealer=self.seat_name(event["dealer"]), top=card_label(event["top"]))
        if kind == "play":
            return self._play_line(event, name)
        if kind == "draw":
            return self._draw_line(event, name)
        if kind == "challenge":
            by = self.seat_name(event["by"])
            key = "tui.log.challenge_guilty" if event["guilty"] else "tui.log.challenge_innocent"
            line = t(key, name=name, by=by)
            if "hand" in event:
                line += " · " + t("tui.log.challenge_hand", by=by,
                                  cards=self.cards_words(event["hand"]))
            return line
        if kind == "color":
            return t("tui.log.color", name=name, color=self.color_name(event["color"]))
        if kind == "catch":
            return t("tui.log.catch", name=name, target=self.seat_name(event["target"]))
        if kind == "swap":
            first, second = event["seats"]
            return t("tui.log.swap", a=self.seat_name(first), b=self.seat_name(second))
        if kind == "custom":
            return t("tui.log.custom", name=name, rule=self.announced(event))
        if kind == "reverse":
            return t("tui.log.reverse", name=name)
        if kind == "reveal":
            return t("tui.log.reveal", name=name, cards=self.cards_words(event["hand"]))
        if kind == "give":
            if "card" in event:
                return t("tui.log.give_card", name=name, to=self.seat_name(event["to"]),
                         card=card_label(event["card"]))
            return t("tui.log.give", name=name, to=self.seat_name(event["to"]))
        if kind == "discard":
            return t("tui.log.discard", name=name, cards=self.cards_words(event["cards"]))
        if kind == "reshuffle":
            return t("tui.log.reshuffle", count=event["count"])
        if kind == "round_over":
            line = t("tui.log.round_over", name=self.seat_name(event["winner"]),
                     round=event.get("round", 1), points=sum(event["points"]))
            if event.get("game_winner") is not None:
                line += " " + t("tui.log.game_over", name=self.seat_name(event["game_winner"]))
            return line
        if kind == "pass":
            return t("tui.log.pass", name=name)
        if kind == "accept":
            return t("tui.log.accept", name=name)
        if kind == "uno":
            return t("tui.log.says_uno", name=name)
        if kind == "skip":
            return t("tui.log.skip", name=name)
        if kind == "pass_hands":
            return t("tui.log.pass_hands")
        return None

    def _play_line(self, event: dict[str, Any], name: str) -> str:
        card = card_label(event["card"])
        if event.get("jump_in"):
            line = self.t("tui.log.jump_in", name=name, card=card)
        elif event["card"].startswith("W"):
            line = self.t("tui.log.play_color", name=name, card=card,
                          color=self.color_name(event["color"]))
        else:
            line = self.t("tui.log.play", name=name, card=card)
        if str(event.get("move", "")).endswith(" uno"):
            line += " · " + self.t("tui.log.says_uno", name=name)
        return line

    def _draw_line(self, event: dict[str, Any], name: str) -> str | None:
        reason = event.get("reason", "turn")
        if event.get("cards"):
            line = self.t("tui.log.draw_cards", name=name, cards=self.cards_words(event["cards"]))
        elif event["count"] == 0:
            return self.t("tui.log.draw_none", name=name) if reason == "turn" else None
        else:
            line = self.t("tui.log.draw", name=name, count=event["count"])
        if reason != "turn":
            line += " " + self.t(f"tui.log.reason.{reason}")
        return line


__all__ = ["Words"]
