"""The match's rules in words: every rule for Help, one line for the table.

No Textual here.

>>> from unogame.engine import Rules
>>> from unogame.engine.custom import CustomRule, Step
>>> grandma = CustomRule((Step("others", "draw"), Step("next", "skip")), "Grandma's rule")
>>> rules = Rules(stacking=True, jump_in=True, custom_rule=grandma)
>>> rules_summary(Words("en"), rules)
"Rules: stacking · jump in · W★ Grandma's rule · to 500 · ? all"
>>> rules_summary(Words("en"), Rules())
'Rules: standard · to 500 · ? all'
>>> rules_lines(Words("en"), rules)[-1]  # doctest: +ELLIPSIS
"Wild Customizable (W★): Grandma's rule: Every other player draws 1, then the next ..."
"""

from __future__ import annotations

from ..engine import Rules
from ..engine.custom import CustomRule
from ..i18n.custom_text import describe
from .words import Words, rule_line

HOUSE_RULES = ("stacking", "seven_zero", "jump_in", "draw_until_playable", "must_play_drawn")
"""House rules, off unless chosen."""
ON_RULES = ("challenge", "two_player_reverse_skips")
"""Rules on unless switched off."""


def _rule_name(words: Words, rule: str) -> str:
    return words.tc(f"common.rule.{rule}", f"tui.rule.{rule}")


def _custom_words(words: Words, rules: Rules) -> str | None:
    """The Wild Customizable's rule, or ``None`` for a plain wild."""
    custom = rules.custom_rule
    if isinstance(custom, CustomRule):
        return rule_line(custom, words.lang)
    if custom == "none":
        return None
    return describe(rules.custom, words.lang)


def rules_lines(words: Words, rules: Rules) -> list[str]:
    """Every rule of the match that differs from plain UNO, one per line, and the
    target score."""
    lines = [words.t("tui.rules.target", target=rules.target_score)]
    lines += [_rule_name(words, rule) for rule in HOUSE_RULES if getattr(rules, rule)]
    lines += [words.t("tui.rules.off", rule=_rule_name(words, rule))
              for rule in ON_RULES if not getattr(rules, rule)]
    custom = _custom_words(words, rules)
    if custom is not None:
        lines.append(words.t("tui.rules.custom", rule=custom))
    if len(lines) == 1:
        lines.append(words.t("tui.rules.standard_long"))
    return lines


def rules_summary(words: Words, rules: Rules) -> str:
    """The match's rules in one short line for the table."""
    parts = [words.t(f"tui.rules.short.{rule}") for rule in HOUSE_RULES if getattr(rules, rule)]
    parts += [words.t(f"tui.rules.short.no_{rule}") for rule in ON_RULES
              if not getattr(rules, rule)]
    custom = rules.custom_rule
    if isinstance(custom, CustomRule):
        parts.append(f"W★ {custom.name}")
    elif custom != "none":
        parts.append(f"W★ {words.custom_words(custom)}")
    if not parts:
        parts.append(words.t("tui.rules.short.standard"))
    parts.append(words.t("tui.rules.short.target", target=rules.target_score))
    return words.t("tui.rules.summary", rules=" · ".join(parts))


__all__ = ["HOUSE_RULES", "ON_RULES", "rules_lines", "rules_summary"]
