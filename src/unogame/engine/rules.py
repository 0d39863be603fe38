"""Rule options: the leaflet's rules by default, house rules as options (NOTATION, DECISIONS.md).

>>> Rules().to_dict()
{}
>>> Rules.from_dict({"stacking": True, "custom_rule": "skip"}).to_dict()
{'stacking': True, 'custom_rule': 'skip'}
>>> Rules.from_dict({"custom_rule": {"name": "Claps", "text": "everyone claps"}}).custom.steps
()
>>> Rules.from_dict({"stakcing": True})
Traceback (most recent call last):
...
unogame.engine.errors.RulesError: unknown rule option 'stakcing'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Final

from .custom import CustomRule, rule_of
from .errors import RulesError

CUSTOM_RULES: Final = {
    "none": "a plain wild: only the colour is chosen",
    "others_draw": "every other player draws N cards, in turn order; the next player then plays",
    "next_draw_skip": "the next player draws N cards and loses their turn",
    "skip": "the next N players lose their turn",
    "play_again": "the same player takes another turn",
    "discard_color": "the player also discards every card of a colour they name (play WC C D)",
    "pass_hands": "every hand passes to the next player in the direction of play",
    "chosen_draw": "a player of your choice draws N cards (play WC C SEAT)",
}
"""The Wild Customizable catalogue (R5.7): rule name to its exact effect (N = custom_count)."""

CUSTOM_RULES_WITH_SEAT: Final = frozenset({"chosen_draw"})
CUSTOM_RULES_WITH_COLOR: Final = frozenset({"discard_color"})


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options of a game. Every default is the leaflet's rule."""

    hand_size: int = 7
    """R2.2: cards dealt to each player."""
    target_score: int = 500
    """R3.2: reaching this score wins the game."""
    must_play_drawn: bool = False
    """R4.4: a playable drawn card must be played."""
    stacking: bool = False
    """R5.1 house rule: Draw Two on Draw Two, Wild Draw Four on Wild Draw Four."""
    challenge: bool = True
    """R5.4: a Wild Draw Four may be challenged."""
    uno_penalty: int = 2
    """R6.2: cards drawn by a player caught without saying UNO."""
    two_player_reverse_skips: bool = True
    """R5.2: with two players a Reverse acts like a Skip."""
    custom_rule: str | CustomRule = "none"
    """R5.7: the Wild Customizable rule: a preset name from CUSTOM_RULES, or a family's own
    rule (``custom.CustomRule``; JSON: an object with name, text and steps)."""
    custom_count: int = 2
    """R5.7: N in the custom rules that draw or skip."""
    seven_zero: bool = False
    """House rule: a 7 swaps hands with a chosen player, a 0 passes every hand along."""
    jump_in: bool = False
    """House rule: a player holding the identical card may play it out of turn."""
    draw_until_playable: bool = False
    """House rule: drawing goes on until a playable card comes."""

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if field.name == "custom_rule" and isinstance(value, CustomRule):
                if value.preset:
                    raise RulesError(f"write the preset {value.preset!r} by its name")
                value.check()
                continue
            expected = bool if field.type in ("bool", bool) else (
                int if field.type in ("int", int) else str
            )
            if type(value) is not expected:
                raise RulesError(
                    f"rule option {field.name!r} must be {expected.__name__}, not {value!r}"
                )
        if not 1 <= self.hand_size <= 20:
            raise RulesError("hand_size must be from 1 to 20")
        if self.target_score < 1:
            raise RulesError("target_score must be at least 1")
        if not 0 <= self.uno_penalty <= 20:
            raise RulesError("uno_penalty must be from 0 to 20")
        if not 1 <= self.custom_count <= 20:
            raise RulesError("custom_count must be from 1 to 20")
        if isinstance(self.custom_rule, str) and self.custom_rule not in CUSTOM_RULES:
            raise RulesError(
                f"unknown custom_rule {self.custom_rule!r} "
                f"(one of: {', '.join(CUSTOM_RULES)})"
            )

    @classmethod
    def from_dict(cls, options: dict[str, Any] | None) -> Rules:
        """Rules from a scenario's ``rules`` object (only what differs from the defaults)."""
        if options is None:
            return cls()
        if not isinstance(options, dict):
            raise RulesError("rules must be a JSON object")
        names = {field.name for field in fields(cls)}
        for key in options:
            if key not in names:
                raise RulesError(f"unknown rule option {key!r}")
        if not isinstance(options.get("custom_rule", ""), str):  # a family's rule (D16)
            custom = options["custom_rule"]
            if not isinstance(custom, CustomRule):
                options = {**options, "custom_rule": CustomRule.from_dict(custom)}
        return cls(**options)

    @property
    def custom(self) -> CustomRule:
        """The Wild Customizable rule as steps (a preset expanded with ``custom_count``)."""
        return rule_of(self.custom_rule, self.custom_count)

    def to_dict(self) -> dict[str, Any]:
        """The options that differ from the defaults (a family's rule as its JSON object)."""
        default = asdict(Rules())
        options = {field.name: getattr(self, field.name) for field in fields(self)}
        if not isinstance(self.custom_rule, str):
            options["custom_rule"] = self.custom_rule.to_dict()
        return {key: value for key, value in options.items() if default[key] != value}
