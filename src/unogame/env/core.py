"""The environment's core: one game, whose decision it is, and one narrow ``step``.

Every front of :mod:`unogame.env` (the PettingZoo, Gymnasium and OpenSpiel games) drives a
:class:`UnoCore` and nothing else: ``reset(seed)``, then ``seat``/``legal_actions()``/
``observe(seat)`` to read and :meth:`UnoCore.step` to act. A compiled core can replace
this class behind the same methods.

Decisions (docs/ENV.md, "Turns and reactions"): before each decision of the player to act,
after every move it makes (and after a deal or a jump-in), each other seat that has a legal
off-turn move (``uno``, ``catch``, a jump-in) gets one step, in
:func:`~unogame.env.reaction.reaction_order`, with its options plus ``NO_REACTION``.

>>> core = UnoCore(players=2)
>>> core.reset(seed=3)
>>> while not core.over:
...     core.step(core.legal_actions()[0])
>>> sorted(core.returns), core.game.winner is not None
([-1.0, 1.0], True)
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from ..bots.ismcts import determinize, public_game
from ..engine import Event, Game, IllegalMoveError, Move, Rules
from ..engine.cards import CARD_COPIES, card_from_code
from ..engine.moves import TURN_KINDS
from .actions import NO_REACTION, NUM_ACTIONS, action_to_move, move_to_action
from .observation import SeatMemory, encode, rules_features
from .reaction import reaction_order

RewardKind = Literal["share", "points"]
REWARDS: Final = ("share", "points")


class UnoCore:
    """One round (or, with ``match=True``, one match to ``rules.target_score``)."""

    def __init__(self, players: int, rules: Rules | None = None, match: bool = False,
                 reward: RewardKind = "share", max_steps: int = 50_000) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        self.players = players
        self.rules = rules if rules is not None else Rules()
        self.match = match
        self.reward: RewardKind = reward
        self.max_steps = max_steps
        self._rules_part = rules_features(self.rules)
        self.game = Game.new(players, self.rules, 0)
        self.seat = -1
        """The seat that decides now (-1 once the episode is over)."""
        self.on_turn = True
        """Whether that decision is the turn of the player to act (else a reaction)."""
        self.over = False
        self.truncated = False
        self.rewards = [0.0] * players
        """Rewards of the last step, by seat."""
        self.returns = [0.0] * players
        """Rewards summed over the episode, by seat."""
        self.steps = 0
        self.round = 0
        """Rounds dealt in this episode (a new round: bots start afresh)."""
        self.events: list[Event] = []
        """The events of the last step (empty after a reset or a new deal)."""
        self._queue: list[int] = []
        self._legal: list[Move] = []
        self._memories: list[SeatMemory] = []
        self._match_points = [0.0] * players

    # ---------------------------------------------------------------- episode

    def reset(self, seed: int) -> None:
        """A new game dealt from ``seed`` (same seed, same actions: same episode)."""
        self.start_from(Game.new(self.players, self.rules, seed))

    def start_from(self, game: Game) -> None:
        """An episode from a given game (a NOTATION position, say) of this core's size and
        rules; the seats remember only what their views show."""
        if game.players != self.players or game.rules != self.rules:
            raise ValueError("the game must have this core's players and rules")
        self.game = game
        self.over = self.truncated = False
        self.rewards = [0.0] * self.players
        self.returns = [0.0] * self.players
        self._match_points = [0.0] * self.players
        self.steps = 0
        self.round = 0
        self._new_round()

    def _new_round(self) -> None:
        game = self.game
        self.round += 1
        self._memories = [SeatMemory(seat, self.players) for seat in range(self.players)]
        for seat, memory in enumerate(self._memories):
            memory.new_round(game.view(seat))
        self._queue = reaction_order(game)
        self._next_decision()

    # ---------------------------------------------------------------- reading

    def legal_moves(self) -> list[Move]:
        """The moves of the deciding seat (without "no reaction")."""
        return self._legal

    def legal_actions(self) -> list[int]:
        """The deciding seat's actions, ascending (off turn, ``NO_REACTION`` last)."""
        if self.over:
            return []
        seat, players = self.seat, self.players
        actions = sorted({move_to_action(move, seat, players) for move in self._legal})
        if not self.on_turn:
            actions.append(NO_REACTION)
        return actions

    def action_mask(self) -> npt.NDArray[np.int8]:
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[self.legal_actions()] = 1
        return mask

    def observe(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation: from ``game.view(seat)`` and its own events only."""
        view = self.game.view(seat)
        memory = self._memories[seat]
        memory.tracker.sync(view)
        return encode(view, memory, self.rules, self._rules_part)

    # ---------------------------------------------------------------- copies

    def clone(self) -> UnoCore:
        """An independent copy (for search: OpenSpiel clones states all the time)."""
        other = copy.copy(self)
        other.detach()
        return other

    def detach(self) -> None:
        """Take own copies of the mutable state (after a shallow ``copy.copy``)."""
        self.game = self.game.copy()
        self.rewards = self.rewards[:]
        self.returns = self.returns[:]
        self.events = []
        self._queue = self._queue[:]
        self._memories = [memory.copy() for memory in self._memories]
        self._match_points = self._match_points[:]

    def __deepcopy__(self, memo: dict[int, object]) -> UnoCore:
        return self.clone()

    def resample(self, seat: int, rng: random.Random) -> UnoCore:
        """A copy in which every card ``seat`` cannot see is dealt again at random,
        consistently with its view and what it knows (IS-MCTS determinization).

        ``seat`` sees the same observation and has the same legal actions in the copy;
        the other seats remember only what their new views show.
        """
        view = self.game.view(seat)
        memory = self._memories[seat]
        memory.tracker.sync(view)
        template = public_game(view, seat, self.rules)
        world = determinize(view, memory.tracker, template, memory.tracker.unseen(view), rng)
        pending = self.game.pending
        if pending is not None and pending.kind == "drawn" and seat != self.game.turn:
            world = _with_drawn_card(world, seat, rng)
        other = self.clone()
        other.enter_world(world, seat)
        return other

    def enter_world(self, world: Game, seat: int) -> None:
        """Play on in ``world``, a determinization of ``seat``'s view, from the same
        decision: the other seats remember only what their new views show (and the
        public cards played)."""
        self.game = world
        played = self._memories[seat].played
        for index in range(self.players):
            if index != seat:
                fresh = SeatMemory(index, self.players)
                fresh.new_round(world.view(index))
                fresh.played = played[:]
                self._memories[index] = fresh
        if not self.over:
            self._legal = world.legal_moves(self.seat)

    # ---------------------------------------------------------------- acting

    def step(self, action: int) -> None:
        """The deciding seat takes ``action``; play goes on to the next decision.

        An action that is not legal now raises ``ValueError`` and changes nothing.
        """
        if self.over:
            raise ValueError("the episode is over: reset first")
        seat = self.seat
        action = int(action)
        if action == NO_REACTION and not self.on_turn:
            move = None
        else:
            try:
                move = action_to_move(action, seat, self.players)
            except ValueError as error:
                raise ValueError(f"illegal action {action}: {error}") from None
            if move is None or move not in self._legal:
                raise ValueError(f"illegal action {action} ({move}) for seat {seat}; legal: "
                                 f"{self.legal_actions()}")
        self.rewards = [0.0] * self.players
        self.events = []
        self.steps += 1
        if move is not None:
            if self._apply(seat, move):  # the episode ended, or a new round was dealt
                return
            if self.on_turn or move.kind in TURN_KINDS:  # a new moment to react to
                self._queue = reaction_order(self.game)
        if self.steps >= self.max_steps:
            self.over = self.truncated = True
            self.seat = -1
            return
        self._next_decision()

    def _apply(self, seat: int, move: Move) -> bool:
        """Push the move and tell every seat its events; True if the round ended."""
        game = self.game
        winner_score = game.scores[:]
        try:
            events = game.push(seat, move)
        except IllegalMoveError as error:  # legal_moves said yes: a broken invariant
            raise RuntimeError(f"engine refused a legal move: {error}") from error
        self.events = events
        memories = self._memories
        for event in events:
            for other, memory in enumerate(memories):
                memory.observe(event.for_seat(other))
        if game.winner is None:
            return False
        self._end_round(game.winner, game.scores[game.winner] - winner_score[game.winner])
        return True

    def _end_round(self, winner: int, points: int) -> None:
        players = self.players
        if self.reward == "share":
            share = [1.0 if seat == winner else -1.0 / (players - 1) for seat in range(players)]
        else:
            share = [float(points) if seat == winner else -points / (players - 1)
                     for seat in range(players)]
        game = self.game
        if not self.match:
            self._pay(share)
            return
        for seat in range(players):
            self._match_points[seat] += share[seat]
        if game.game_winner is None:
            game.next_round()
            self._new_round()
            return
        if self.reward == "share":
            self._pay([1.0 if seat == game.game_winner else -1.0 / (players - 1)
                       for seat in range(players)])
        else:
            self._pay(self._match_points)

    def _pay(self, rewards: list[float]) -> None:
        self.rewards = list(rewards)
        self.returns = [total + reward for total, reward in zip(self.returns, rewards,
                                                                 strict=True)]
        self.over = True
        self.seat = -1
        self._legal = []

    def _next_decision(self) -> None:
        game = self.game
        queue = self._queue
        while queue:
            seat = queue.pop(0)
            legal = game.legal_moves(seat)
            if legal:
                self.seat, self.on_turn, self._legal = seat, False, legal
                return
        self.seat, self.on_turn = game.turn, True
        self._legal = game.legal_moves(game.turn)


def _with_drawn_card(world: Game, observer: int, rng: random.Random) -> Game:
    """``world`` with the hidden card of a pending ``drawn`` decision chosen: a playable
    card of the player to act's sampled hand. A view of another seat does not show that
    card (D8), so a sample may have none: one is then swapped in from a place ``observer``
    cannot see (the draw pile, another hand), or, failing that, a wild card replaces one."""
    position = world.position()
    turn = world.turn
    hands = position["hands"]
    hand = hands[turn]

    def playable(code: str) -> bool:
        return world.is_playable(card_from_code(code))

    choices = [code for code in hand if playable(code)]
    if not choices:
        places = [position["draw_pile"], *(cards for index, cards in enumerate(hands)
                                           if index not in (turn, observer))]
        sources = [(place, index) for place in places
                   for index, code in enumerate(place) if playable(code)]
        slot = rng.randrange(len(hand))
        if sources:
            place, index = rng.choice(sources)
            hand[slot], place[index] = place[index], hand[slot]
        else:
            held = Counter(code for cards in (*hands, position["draw_pile"],
                                              position["discard_pile"]) for code in cards)
            hand[slot] = next(code for code in ("W", "WC", "W+4", "WS")
                              if held[code] < CARD_COPIES[card_from_code(code)])
        choices = [hand[slot]]
    position["pending"] = {"kind": "drawn", "card": rng.choice(choices)}
    rebuilt = Game.from_position(position, world.rules, world.seed)
    rebuilt.dealer_draws = world.dealer_draws
    return rebuilt
