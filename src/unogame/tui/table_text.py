"""The table screen's two top panels as text: the players and the table's centre.

No Textual here: drawn only from a seat's view (``game.view(viewer)``).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from .cards import card_text, color_text
from .words import Words


def direction_words(words: Words, view: dict[str, Any]) -> str:
    return words.t("tui.direction.cw" if view["direction"] == 1 else "tui.direction.ccw")


def players_text(words: Words, view: dict[str, Any], viewer: int | None) -> Text:
    """Each seat: number, turn mark, name, cards held, UNO/CATCH, points; two a row."""
    players = Text(no_wrap=True)
    for seat in range(view["players"]):
        held = view["hands"][seat]
        count = len(held) if isinstance(held, list) else held
        turn = seat == view["turn"] and view["winner"] is None
        flags = ""
        if seat in view["uno"]:
            flags = words.t("tui.players.uno")
        elif seat in view["catchable"]:
            flags = words.t("tui.players.catchable")
        style = "bold reverse" if turn else ("bold" if seat == viewer else "")
        name_text = Text(words.seat_name(seat), style=style)
        name_text.truncate(9, overflow="ellipsis", pad=True)
        flags_text = Text(flags, style="bold")
        flags_text.truncate(5, pad=True)
        cell = Text.assemble(str(seat), ("▶" if turn else " ", "bold"), name_text,
                             f"{count:>3} ", flags_text, f"{view['scores'][seat]:>4}")
        if seat:
            players.append("\n" if seat % 2 == 0 else "  ")
        players.append(cell)
    return players


def table_text(words: Words, view: dict[str, Any]) -> Text:
    """Top card, colour to match, draw pile, direction and what is pending."""
    t = words.t
    top = view["discard_pile"][0] if view["discard_pile"] else None
    table = Text(no_wrap=True, overflow="ellipsis")
    table.append(f"{t('tui.table.top')}: ")
    table.append_text(card_text(top) if top else Text("-"))
    table.append(f"\n{t('tui.table.color')}: ")
    if view["color"]:
        table.append_text(color_text(view["color"], words.color_name(view["color"])))
    else:
        table.append(t("tui.table.color_none"))
    table.append(f"\n{t('tui.table.draw')}: {view['draw_pile']}\n{direction_words(words, view)}")
    pending = view["pending"]
    if pending and pending["kind"] != "color":  # the colour line says "to choose"
        kind = pending["kind"]
        if kind == "challenge":
            line = t("tui.table.pending.challenge",
                     name=words.seat_name(pending["by"]))
        elif kind == "stack":
            line = t("tui.table.pending.stack", amount=pending["amount"])
        else:
            line = t(f"tui.table.pending.{kind}", name=words.seat_name(view["turn"]))
        table.append(f"\n{line}", style="bold")
    return table


__all__ = ["direction_words", "players_text", "table_text"]
