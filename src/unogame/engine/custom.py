"""The Wild Customizable rule composer (R5.7, DECISIONS.md "Wild Customizable rules").

A rule is plain data: a family's *name* and *text* and up to four *steps*, each
*who* x *what* x *how much*. The JSON form (NOTATION's ``rules.custom_rule``, also what a
front end or an observation encoder reads) is::

    {"name": "Grandma's rule", "text": "everyone else draws 1, the next is skipped",
     "steps": [{"who": "others", "what": "draw", "count": 1},
               {"who": "next", "what": "skip", "count": 1}]}

A rule with no steps is a *table rule*: the card acts as a Wild and only its text is
announced. The catalogue rules are presets: :func:`preset` gives each one's steps.

>>> rule = CustomRule.from_dict({"name": "Grandma's rule", "steps": [
...     {"who": "others", "what": "draw", "count": 1}, {"who": "next", "what": "skip"}]})
>>> rule.steps[1], rule.needs_seat
(Step(who='next', what='skip', count=1), False)
>>> CustomRule.from_dict({"name": "x", "steps": [{"who": "next", "what": "draw", "count": 0}]})
Traceback (most recent call last):
...
unogame.engine.custom.CustomRuleError: step 1: draw takes a number from 1 to 20, not 0
>>> preset("next_draw_skip", 3).to_dict()["steps"]
[{'who': 'next', 'what': 'draw', 'count': 3}, {'who': 'next', 'what': 'skip', 'count': 1}]
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from .errors import RulesError

WHO: Final = ("next", "chosen", "others", "everyone", "self")
"""next: the seat after the card's player (direction of play at that step); chosen: a seat
the card's player names in the move; others: every other seat in turn order; everyone:
the others then the card's player; self: the card's player."""

WHAT: Final = ("draw", "skip", "reverse", "play_again", "swap", "pass_hands",
               "discard_color", "reveal", "give")
"""What a step does (DECISIONS.md lists each one's effect)."""

ALLOWED_WHO: Final[dict[str, tuple[str, ...]]] = {
    "draw": WHO,
    "skip": ("next",),
    "reverse": ("everyone",),
    "play_again": ("self",),
    "swap": ("next", "chosen"),
    "pass_hands": ("everyone",),
    "discard_color": ("self",),
    "reveal": WHO,
    "give": ("next", "chosen"),
}
"""For each ``what``, the ``who`` it can act on (first: the usual one)."""

COUNT_RANGE: Final[dict[str, tuple[int, int]]] = {"draw": (1, 20), "skip": (1, 9)}
"""The ``what`` that take a number, and its range; every other step takes none (1)."""

ONCE: Final = frozenset({"skip", "reverse", "play_again", "swap", "pass_hands",
                         "discard_color", "give"})
"""Steps a rule may hold at most once."""

HAND_CHANGES: Final = frozenset({"swap", "pass_hands", "discard_color"})
"""Steps that replace or empty the card player's hand (a ``give`` must come before them)."""

MAX_STEPS: Final = 4
MAX_NAME: Final = 40
MAX_TEXT: Final = 80

PRESET_STEPS: Final[dict[str, tuple[tuple[str, str, bool], ...]]] = {
    "none": (),
    "others_draw": (("others", "draw", True),),
    "next_draw_skip": (("next", "draw", True), ("next", "skip", False)),
    "skip": (("next", "skip", True),),
    "play_again": (("self", "play_again", False),),
    "discard_color": (("self", "discard_color", False),),
    "pass_hands": (("everyone", "pass_hands", False),),
    "chosen_draw": (("chosen", "draw", True),),
}
"""Each catalogue rule as steps: (who, what, whether its count is ``custom_count``)."""

REASONS: Final = {
    "not_object": "a custom rule must be a preset name or an object with name, text, steps",
    "unknown_field": "unknown field {field!r} in the custom rule (name, text, steps)",
    "not_text": "{field} must be text",
    "name_missing": "the rule needs a name",
    "name_too_long": "the name is longer than {limit} characters",
    "text_too_long": "the text is longer than {limit} characters",
    "control_character": "the {field} holds a control character",
    "steps_not_list": "steps must be a list",
    "too_many_steps": "a rule has at most {limit} steps, not {count}",
    "table_needs_text": "a rule without steps (a table rule) needs its text",
    "step_not_object": "step {step}: a step is an object with who, what and count",
    "step_unknown_field": "step {step}: unknown field {field!r} (who, what, count)",
    "unknown_what": "step {step}: unknown what {what!r}",
    "unknown_who": "step {step}: unknown who {who!r}",
    "who_not_allowed": "step {step}: {what} cannot act on {who!r} (only: {allowed})",
    "count_range": "step {step}: {what} takes a number from {low} to {high}, not {count}",
    "count_not_allowed": "step {step}: {what} takes no number",
    "twice": "step {step}: a rule holds {what} only once",
    "play_again_with_skip": "step {step}: play again and skip together: the skip does nothing",
    "reverse_after_skip": "step {step}: reverse comes before skip (skip follows the new direction)",
    "give_after_hand_change": "step {step}: give comes before swap, pass_hands and discard_color",
    "skip_too_many": "with {players} players a rule can pass over at most {limit} players, "
                     "this one passes over {count}",
}
"""Why a rule is refused, by reason key (front ends translate ``common.custom_error.KEY``)."""


class CustomRuleError(RulesError):
    """A custom rule that cannot be applied: ``key`` and ``fields`` name the reason."""

    def __init__(self, key: str, **fields: Any) -> None:
        self.key = key
        self.fields = fields
        super().__init__(REASONS[key].format(**fields))


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a rule: *who* x *what* x *how much* (``count``: 1 when it takes none)."""

    who: str
    what: str
    count: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {"who": self.who, "what": self.what, "count": self.count}


@dataclass(frozen=True, slots=True)
class CustomRule:
    """A Wild Customizable rule: steps applied in order, a name and a text to announce.

    ``preset`` is the catalogue name for a preset (its announcement stays as before), and
    ``""`` for a family's own rule. Build checked rules with :meth:`from_dict`.
    """

    steps: tuple[Step, ...]
    name: str = ""
    text: str = ""
    preset: str = ""

    @classmethod
    def from_dict(cls, data: Any) -> CustomRule:
        """A family's rule from its JSON form; :class:`CustomRuleError` says why not."""
        if not isinstance(data, dict):
            raise CustomRuleError("not_object")
        for key in data:
            if key not in ("name", "text", "steps"):
                raise CustomRuleError("unknown_field", field=key)
        name, text = data.get("name", ""), data.get("text", "")
        for label, value in (("name", name), ("text", text)):
            if not isinstance(value, str):
                raise CustomRuleError("not_text", field=label)
        steps_data = data.get("steps", [])
        if not isinstance(steps_data, list):
            raise CustomRuleError("steps_not_list")
        steps = tuple(_read_step(number, item) for number, item in enumerate(steps_data, 1))
        rule = cls(steps, name, text)
        rule.check()
        return rule

    def check(self) -> None:
        """Refuse a rule that cannot be applied (the reasons of :data:`REASONS`)."""
        if not self.name.strip():
            raise CustomRuleError("name_missing")
        if len(self.name) > MAX_NAME:
            raise CustomRuleError("name_too_long", limit=MAX_NAME)
        if len(self.text) > MAX_TEXT:
            raise CustomRuleError("text_too_long", limit=MAX_TEXT)
        for label, value in (("name", self.name), ("text", self.text)):
            if any(_is_control(char) for char in value):
                raise CustomRuleError("control_character", field=label)
        if len(self.steps) > MAX_STEPS:
            raise CustomRuleError("too_many_steps", limit=MAX_STEPS, count=len(self.steps))
        if not self.steps and not self.text.strip():
            raise CustomRuleError("table_needs_text")
        seen: set[str] = set()
        for number, step in enumerate(self.steps, 1):
            _check_step(number, step)
            what = step.what
            if what in ONCE and what in seen:
                raise CustomRuleError("twice", step=number, what=what)
            if {what, *seen} >= {"skip", "play_again"}:
                raise CustomRuleError("play_again_with_skip", step=number)
            if what == "reverse" and "skip" in seen:
                raise CustomRuleError("reverse_after_skip", step=number)
            if what == "give" and seen & HAND_CHANGES:
                raise CustomRuleError("give_after_hand_change", step=number)
            seen.add(what)

    def check_players(self, players: int, two_player_reverse_skips: bool) -> None:
        """Refuse a family's rule that makes no sense with ``players`` seats (presets keep
        their catalogue behaviour and are not checked)."""
        if self.preset:
            return
        passed = sum(step.count for step in self.steps if step.what == "skip")
        if players == 2 and two_player_reverse_skips and self.has("reverse"):
            passed += 1  # R5.2: with two players a reverse passes over the other player
        if passed > players - 1:
            raise CustomRuleError("skip_too_many", players=players, limit=players - 1,
                                  count=passed)

    def has(self, what: str) -> bool:
        return any(step.what == what for step in self.steps)

    @property
    def needs_seat(self) -> bool:
        """The move names a seat (``play WC C SEAT``): a step acts on the chosen player."""
        return any(step.who == "chosen" for step in self.steps)

    @property
    def needs_color(self) -> bool:
        """The move names a colour to discard (``play WC C D``)."""
        return self.has("discard_color")

    @property
    def needs_card(self) -> bool:
        """The move names a card to give (``play WC C SEAT CARD``), unless the WC is the last
        card (R7.1: the rule does not happen then)."""
        return self.has("give")

    @property
    def arguments(self) -> tuple[str, ...]:
        """What ``play WC`` names after its colour, in the notation's order."""
        return tuple(name for name, needed in (("discard_color", self.needs_color),
                                               ("seat", self.needs_seat),
                                               ("card", self.needs_card)) if needed)

    @property
    def changes_own_hand(self) -> bool:
        """Whether the card player's own hand may change (the ``uno`` suffix depends on it)."""
        return any(step.what in HAND_CHANGES or step.what == "give"
                   or (step.what == "draw" and step.who in ("self", "everyone"))
                   for step in self.steps)

    @property
    def only_discards(self) -> bool:
        """The player's own hand changes only by discarding a colour."""
        return self.needs_color and not any(
            step.what in ("swap", "pass_hands", "give")
            or (step.what == "draw" and step.who in ("self", "everyone"))
            for step in self.steps)

    @property
    def is_plain(self) -> bool:
        """A plain wild that announces nothing: the ``none`` preset."""
        return self.preset == "none"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (a family's rule; a preset writes its name in ``Rules``)."""
        return {"name": self.name, "text": self.text,
                "steps": [step.to_dict() for step in self.steps]}

    def announcement(self) -> dict[str, Any]:
        """The public part of the ``custom`` event when the card is played."""
        if self.preset:
            return {"rule": self.preset}
        return {"rule": "composed" if self.steps else "table", **self.to_dict()}


@cache
def preset(name: str, count: int) -> CustomRule:
    """The catalogue rule ``name`` as a composed rule, N being ``count`` (custom_count)."""
    if name not in PRESET_STEPS:
        raise RulesError(f"unknown custom_rule {name!r} (one of: {', '.join(PRESET_STEPS)})")
    steps = tuple(Step(who, what, count if counted else 1)
                  for who, what, counted in PRESET_STEPS[name])
    return CustomRule(steps, name, "", name)


def rule_of(custom_rule: str | CustomRule, count: int) -> CustomRule:
    """The rule a game's Wild Customizable applies (a preset name expanded)."""
    return custom_rule if isinstance(custom_rule, CustomRule) else preset(custom_rule, count)


def _read_step(number: int, data: Any) -> Step:
    if not isinstance(data, dict):
        raise CustomRuleError("step_not_object", step=number)
    for key in data:
        if key not in ("who", "what", "count"):
            raise CustomRuleError("step_unknown_field", step=number, field=key)
    what = data.get("what")
    if what not in WHAT:
        raise CustomRuleError("unknown_what", step=number, what=what)
    who = data.get("who", ALLOWED_WHO[what][0])
    count = data.get("count", 1)
    if type(count) is not int:
        low, high = COUNT_RANGE.get(what, (1, 1))
        raise CustomRuleError("count_range", step=number, what=what, low=low, high=high,
                              count=count)
    step = Step(who, what, count)
    _check_step(number, step)
    return step


def _check_step(number: int, step: Step) -> None:
    if step.what not in WHAT:
        raise CustomRuleError("unknown_what", step=number, what=step.what)
    if step.who not in WHO:
        raise CustomRuleError("unknown_who", step=number, who=step.who)
    allowed = ALLOWED_WHO[step.what]
    if step.who not in allowed:
        raise CustomRuleError("who_not_allowed", step=number, what=step.what, who=step.who,
                              allowed=", ".join(allowed))
    if step.what in COUNT_RANGE:
        low, high = COUNT_RANGE[step.what]
        if not low <= step.count <= high:
            raise CustomRuleError("count_range", step=number, what=step.what, low=low,
                                  high=high, count=step.count)
    elif step.count != 1:
        raise CustomRuleError("count_not_allowed", step=number, what=step.what)


_BIDI_CONTROLS: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _is_control(char: str) -> bool:
    """Control characters, line breaks and bidi overrides (they could disguise a text)."""
    return unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in _BIDI_CONTROLS


__all__ = ["ALLOWED_WHO", "COUNT_RANGE", "MAX_NAME", "MAX_STEPS", "MAX_TEXT", "REASONS",
           "WHAT", "WHO", "CustomRule", "CustomRuleError", "Step", "preset", "rule_of"]
