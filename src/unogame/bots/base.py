"""The bot interface: a bot sees only its seat's view, its legal moves and its own events.

A front end (or the simulator) owns the :class:`~unogame.engine.Game`. For each seat a bot
plays, it forwards the events that seat may see (``Event.for_seat``) to :meth:`Bot.observe`,
and asks :meth:`Bot.choose` whenever that seat has legal moves. On its turn a bot must
return a move; off its turn (``uno``, ``catch``, jump-ins) it may return ``None``.
A front end waits ``reaction_delay`` seconds before applying an off-turn move, so that
people can still press UNO or catch first.

>>> from unogame.engine import Game
>>> game = Game.new(3, seed=2)
>>> bot = RandomBot(seed=1)
>>> move = bot.choose(game.view(game.turn), game.legal_moves(game.turn))
>>> move in game.legal_moves(game.turn)
True
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any, Final

from ..engine import Game, Move, Rules
from ..engine.moves import ACCEPT, CATCH, COLOR, DRAW, PASS, PLAY, UNO


class Bot:
    """Base class for bots. Deterministic for a given seed."""

    level = "base"
    reaction_delay: float = 1.0
    """Seconds a front end waits before applying this bot's off-turn moves."""
    catch_delay: float | None = None
    """Seconds a front end waits before asking this bot off turn when it could catch
    someone (``None``: :attr:`reaction_delay`); the longer of the two counts."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.seat: int | None = None
        self.rules: Rules = Rules()
        """The game's rule options (public knowledge): given to :meth:`new_round`."""

    def new_round(self, seat: int, view: dict[str, Any], rules: Rules | None = None) -> None:
        """A round starts (or the bot joins one): reset what it remembers.

        ``rules`` are the game's rule options; bots that simulate the game need them.
        """
        self.seat = seat
        if rules is not None:
            self.rules = rules

    def observe(self, event: dict[str, Any]) -> None:
        """An event as this bot's seat sees it (``Event.for_seat(seat)``)."""

    def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move | None:
        """The move to make now, or ``None`` to do nothing (only allowed off turn)."""
        raise NotImplementedError


class RandomBot(Bot):
    """A uniformly random legal move on its turn; off turn, it says UNO or catches at random."""

    level = "random"

    def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move | None:
        if not legal:
            return None
        seat = self.seat if self.seat is not None else _seat_of(view)
        if view["turn"] != seat and self.rng.random() < 0.5:
            return None  # off turn, acting is optional
        return legal[int(self.rng.random() * len(legal))]


class RuleBot(Bot):
    """``rule``, the trivial baseline (issue 23): say UNO, catch, play any legal card (at
    random; its ``uno`` variant when there is one; jump in when it can), draw only when
    forced. A colour is named at random and a challenge is never made. It keeps no memory,
    which makes it the floor a learned agent must clear: ``random`` draws voluntarily, so
    beating ``random`` mostly shows an agent learned not to draw.
    """

    level = "rule"
    reaction_delay = 1.5

    def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move | None:
        if not legal:
            return None
        for kind in (UNO, CATCH):
            for move in legal:
                if move.kind == kind:
                    return move
        plays = [move for move in legal if move.kind == PLAY]
        if plays:  # on turn, a stack or a jump-in alike
            said = [move for move in plays if move.uno]
            return self._any(said or plays)
        seat = self.seat if self.seat is not None else _seat_of(view)
        if view["turn"] != seat:
            return None
        colors = [move for move in legal if move.kind == COLOR]
        if colors:
            return self._any(colors)
        for kind in (DRAW, PASS, ACCEPT):
            for move in legal:
                if move.kind == kind:
                    return move
        return self._any(legal)

    def _any(self, moves: Sequence[Move]) -> Move:
        return moves[int(self.rng.random() * len(moves))]


def draw_brings_nothing(view: dict[str, Any]) -> bool:
    """Whether a draw now brings no card (R4.5): the draw pile is empty and the discard pile
    holds only its top card, so there is nothing to reshuffle."""
    return view["draw_pile"] == 0 and len(view["discard_pile"]) <= 1


def without_empty_draw(view: dict[str, Any], moves: Sequence[Move]) -> list[Move]:
    """``moves`` less the voluntary draw when it would bring nothing and a play remains.

    Such a draw only passes the turn: a seat that keeps choosing it while the others cannot
    play stalls the round forever (the piles never refill, since nobody plays). A draw
    taking a stack (``pending``) is not voluntary and stays.
    """
    if (view["pending"] is not None or not draw_brings_nothing(view)
            or not any(move.kind == PLAY for move in moves)):
        return list(moves)
    return [move for move in moves if move.kind != DRAW]


def _seat_of(view: dict[str, Any]) -> int:
    """The seat a view belongs to: the only hand shown as a list."""
    for seat, hand in enumerate(view["hands"]):
        if isinstance(hand, list):
            return seat
    raise ValueError("a spectator's view belongs to no seat")


def bot_move(game: Game, seat: int, bot: Bot) -> Move | None:
    """Ask ``bot`` for ``seat``'s move, handing it only the view and the legal moves."""
    legal = game.legal_moves(seat)
    if not legal:
        return None
    bot.rules = game.rules
    if bot.seat is None:
        bot.new_round(seat, game.view(seat), game.rules)
    return bot.choose(game.view(seat), legal)


def play_next(game: Game, bots: Sequence[Bot],
              before: Callable[[int], None] | None = None) -> int | None:
    """One move of a plain round between ``bots`` (one per seat, no table: no reaction
    delays): the player to act, else the first other seat with a move to make; every bot
    observes the move's events as its seat sees them. ``before(seat)`` runs before a seat
    is asked. Returns the seat that moved (``None``: nobody had a move).

    >>> game = Game.new(3, seed=2)
    >>> turn = game.turn
    >>> play_next(game, [RandomBot(seed) for seed in range(3)]) == turn
    True
    """
    for seat in [game.turn] + [s for s in range(game.players) if s != game.turn]:
        legal = game.legal_moves(seat)
        if not legal:
            continue
        if before is not None:
            before(seat)
        move = bots[seat].choose(game.view(seat), legal)
        if move is None:
            continue
        for event in game.push(seat, move):
            for other, bot in enumerate(bots):
                bot.observe(event.for_seat(other))
        return seat
    return None


BOT_LEVELS: dict[str, type[Bot]] = {"random": RandomBot, "rule": RuleBot}
"""Bot classes by level name, weakest first; ``easy``, ``medium`` and ``hard`` register here too."""


BOT_PLUGIN_GROUP = "unogame.bots"
"""Entry-point group of parametrised levels ``NAME:ARGUMENT`` (``policy:PATH`` from
``unogame.env``): each entry point is a factory ``(argument, seed) -> Bot``. Packages of
higher layers add levels this way, so this layer imports none of them."""


NAMED_LEVELS: dict[str, str] = {}
"""Levels an operator named (``uno serve --bot-level NAME=SPEC``): ``NAME`` plays as
``SPEC`` (``policy:PATH``, a plugin level or a built-in one). Rooms offer these names and
the built-in levels only: a path or plugin argument sent by a browser is never loaded."""

_LEVEL_NAME: Final = re.compile(r"[a-z][a-z0-9_-]{0,31}")


def add_named_level(name: str, spec: str) -> None:
    """Offer ``spec`` as the level ``name`` (rooms, ``uno play``). The bot is made once now,
    so a wrong path or plugin fails here, with its error, and not in a game."""
    if not _LEVEL_NAME.fullmatch(name):
        raise ValueError(f"bot level name {name!r}: lower-case letters, digits, - and _, "
                         "starting with a letter (at most 32)")
    if name in BOT_LEVELS or name in NAMED_LEVELS:
        raise ValueError(f"bot level {name!r} exists already")
    make_bot(spec)
    NAMED_LEVELS[name] = spec


def add_bot_levels(specs: Sequence[str]) -> str | None:
    """The ``--bot-level NAME=SPEC`` flags of ``uno serve`` and ``uno play``: each level
    named (its bot made once now, so a bad path fails at start); the problem with the first
    bad one, else ``None``."""
    for text in specs:
        name, equals, spec = text.partition("=")
        if not equals or not spec:
            return f"--bot-level {text!r}: give NAME=SPEC, e.g. ppo=policy:model.zip"
        try:
            add_named_level(name.strip(), spec.strip())
        except (ValueError, OSError, ImportError) as error:
            return f"--bot-level {text!r}: {error}"
    return None


def level_names() -> list[str]:
    """The levels a room may seat: the built-in ones, then the operator's named ones."""
    return [*BOT_LEVELS, *NAMED_LEVELS]


def make_bot(level: str, seed: int = 0) -> Bot:
    """A new bot of the named level (``random``, ``rule``, ``easy``, ``medium``, ``hard``,
    ``learned``, a level named by :func:`add_named_level`, or a plugin level such as
    ``policy:PATH``)."""
    if level in NAMED_LEVELS:
        return make_bot(NAMED_LEVELS[level], seed)
    if isinstance(level, str) and ":" in level:
        return _plugin_bot(level, seed)
    try:
        return BOT_LEVELS[level](seed)
    except KeyError:
        raise ValueError(
            f"unknown bot level {level!r} (one of: {', '.join(level_names())}, or policy:PATH)"
        ) from None


def _plugin_bot(level: str, seed: int) -> Bot:
    from importlib.metadata import entry_points

    name, _, argument = level.partition(":")
    found = entry_points(group=BOT_PLUGIN_GROUP, name=name)
    if not found:
        raise ValueError(f"unknown bot level {level!r}: no {name!r} bot plugin is installed")
    bot = next(iter(found)).load()(argument, seed)
    if not isinstance(bot, Bot):
        raise ValueError(f"bot plugin {name!r} made {bot!r}, not a Bot")
    return bot
