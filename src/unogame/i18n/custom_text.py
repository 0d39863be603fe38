"""A Wild Customizable rule in words: its one-line explanation and why it is refused.

The web client does the same in ``static/custom_rule.js`` with the same keys.

>>> from unogame.engine.custom import CustomRule
>>> grandma = CustomRule.from_dict({"name": "Grandma's rule", "steps": [
...     {"who": "others", "what": "draw", "count": 1}, {"who": "next", "what": "skip"}]})
>>> describe(grandma, "en")
'Every other player draws 1, then the next player is skipped'
>>> describe(grandma, "th")
'ผู้เล่นคนอื่นทุกคนจั่ว 1 ใบ แล้ว คนถัดไปถูกข้าม'
"""

from __future__ import annotations

from typing import Any

from ..engine.custom import CustomRule, CustomRuleError, Step
from . import translate


def step_text(step: Step, language: str) -> str:
    """One step in words, e.g. "every other player draws 1"."""
    key = f"common.step.{step.what}.{step.who}"
    if step.what == "skip" and step.count == 1:
        key += ".one"
    return translate(language, key, count=step.count)


def describe(rule: CustomRule, language: str) -> str:
    """The rule's one-line explanation (a table rule: a plain wild, the text is the rule)."""
    if not rule.steps:
        line = translate(language, "common.step.table")
    else:
        line = translate(language, "common.step.then").join(
            step_text(step, language) for step in rule.steps)
    return line[:1].upper() + line[1:]


def reason(error: CustomRuleError, language: str) -> str:
    """Why a rule was refused, in ``language`` (actions and players named in words)."""
    fields: dict[str, Any] = dict(error.fields)
    if "what" in fields:
        fields["what"] = translate(language, f"common.what.{fields['what']}")
    if "who" in fields:
        fields["who"] = translate(language, f"common.who.{fields['who']}")
    if "allowed" in fields:
        fields["allowed"] = ", ".join(translate(language, f"common.who.{who}")
                                      for who in str(fields["allowed"]).split(", "))
    if fields.get("field") in ("name", "text"):
        fields["field"] = translate(language, f"common.custom.{fields['field']}")
    return translate(language, f"common.custom_error.{error.key}", **fields)
