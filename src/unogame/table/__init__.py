"""One table for every front end: a match's seats, feeds, bots, rounds and absent people.

Layer 3: imports the engine and the bots only; no I/O, no clock, no threads. The front end
(the web server, the terminal game, the simulator) reports what happens around the table
(time passing, people coming and going, their moves) and asks it what to do next. Each
seat only ever gets ``Table.view(seat)``, ``Table.legal_moves(seat)`` and
``Table.feed(seat)`` (``Event.for_seat``): the hidden information gate is here, once.

How a front end drives it::

    table = Table([SeatSpec("Ann"), SeatSpec("Bot 1", "hard")], rules, seed,
                  TableSettings(grace=20, turn_timer=30))
    # a person's move (the server stores it between check() and play())
    move = table.check(seat, "play R7")
    events = table.play(seat, move)           # broadcast [e.for_seat(s) for e in events]
    # time, presence, the host, the scoreboard
    table.advance(seconds)                    # the front end's clock, never the table's
    table.set_present(seat, False)            # after settings.grace a bot stands in
    table.set_hidden(seat, True)              # page in the background: the same, on its turn
    table.set_host(seat)                      # the room's creator is back: they host again
    table.hand_to_bot(host_seat, seat)        # the host hands a disconnected seat over now
    table.press_next(seat)                    # "next round": closes that person's scoreboard
    # what next? (after every change, and at table.wake_at())
    step = table.next_step()
    if isinstance(step, DecisionRequest):     # run the bot anywhere (a worker thread too)
        move, error = step.decide()           # = step.bot.choose(step.view, step.legal)
        play = table.resolve(step, move, error)   # re-checked against the current version
        if play is not None:
            events = table.apply(play)        # (store play.move first if you store moves)
    elif isinstance(step, NextRound):
        events = table.next_round()           # (store the round boundary first)
    # None: wait for a person, for table.wake_at(), or for the request handed out

At most one :class:`DecisionRequest` is out at a time, and until it is resolved the table
calls nothing on its bot (events wait), so it may think on another thread. Off-turn
reactions (UNO, catch, jump-in) are offered in :func:`reaction_window` order with the bots'
``reaction_delay`` and a jitter drawn from the table's seed, before the turn's own bot
decision; a front end only chooses *when* to run a request (``opened`` + ``delay`` is a
pacing hint), never *which*, so the same seed and bot levels play the same round in every
front end. The window is what every seat sees (while a jump-in is possible, every other
seat, a copy of the top card held or not); every bot in it is asked, with nothing to
play too (its request's ``decide`` answers ``None`` at once), and each request's ``delay``
is the window's so far: which requests come, and when, never tells who holds which card.

Each person seat also has a helper bot (the medium bot, told only that seat's events),
built when the seat first asks (until then it costs its round-start view; issue 22):
``Table.hint(seat)`` gives a :class:`~unogame.table.hints.HintRequest` to run anywhere,
which suggests one of the seat's legal moves (the children's helper). An easy bot that
could catch someone waits its ``catch_delay`` (3.5 s) instead of its ``reaction_delay``,
so that a child has time to say UNO; with ``TableSettings.catch_grace`` (a family room) no
bot of any level is asked anything while a person may be caught, until that long after the
position appeared (whether a person may be caught is public).

>>> table = Table([SeatSpec("Ann", "random"), SeatSpec("Ben", "easy")], seed=4)
>>> while table.status == PLAYING:
...     step = table.next_step()
...     assert isinstance(step, DecisionRequest)
...     play = table.resolve(step, *step.decide())
...     if play is not None:
...         _ = table.apply(play)
>>> table.status, table.feed(0)[0]["type"], table.feed(0)[-1]["type"]
('round_over', 'deal', 'round_over')
"""

from .order import reaction_order, reaction_window
from .seats import (
    DEFAULT_BOT_LEVEL,
    SeatSpec,
    TableError,
    TableSettings,
    derived_seed,
    fill_empty_seats,
)
from .steps import (
    MATCH_OVER,
    PLAYING,
    ROUND_CAPPED,
    ROUND_OVER,
    STAND_IN_MOVE,
    TABLE_EVENT_KINDS,
    BotFailure,
    BotPlay,
    DecisionRequest,
    NextRound,
    SeatInfo,
    Step,
)
from .table import Table

__all__ = [
    "DEFAULT_BOT_LEVEL",
    "MATCH_OVER",
    "PLAYING",
    "ROUND_CAPPED",
    "ROUND_OVER",
    "STAND_IN_MOVE",
    "TABLE_EVENT_KINDS",
    "BotFailure",
    "BotPlay",
    "DecisionRequest",
    "NextRound",
    "SeatInfo",
    "SeatSpec",
    "Step",
    "Table",
    "TableError",
    "TableSettings",
    "derived_seed",
    "fill_empty_seats",
    "reaction_order",
    "reaction_window",
]
