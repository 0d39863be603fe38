"""Text rendering of an environment: the public table and the deciding seat's hand.

It shows what the deciding seat sees (its view), never another hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .core import UnoCore


def render_text(core: UnoCore) -> str:
    """A few lines: top card, colour, direction, hand sizes, and the deciding seat's hand."""
    game = core.game
    seat = core.seat if core.seat >= 0 else None
    view = game.view(seat)
    sizes = " ".join(
        f"{other}:{len(hand) if isinstance(hand, list) else hand}"
        + ("!" if other in view["uno"] else "")
        for other, hand in enumerate(view["hands"])
    )
    lines = [f"top {view['discard_pile'][0] if view['discard_pile'] else '-'} "
             f"colour {view['color'] or '-'} direction {view['direction']:+d} "
             f"turn {view['turn']} cards {sizes} scores {view['scores']}"]
    if seat is not None:
        what = "turn" if core.on_turn else "reaction"
        lines.append(f"seat {seat} ({what}) holds {' '.join(view['hands'][seat])}")
    else:
        lines.append(f"over: round won by {view['winner']}")
    return "\n".join(lines)


def render(core: UnoCore, mode: str | None) -> str | None:
    """``ansi``: the text; ``human``: the text printed; ``None``: nothing."""
    if mode is None:
        return None
    text = render_text(core)
    if mode == "ansi":
        return text
    print(text)
    return None
