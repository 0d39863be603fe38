"""The environment's core: one game, whose decision it is, and one narrow ``step``.

Every front of :mod:`unogame.env` (the PettingZoo, Gymnasium and OpenSpiel games) drives a
:class:`UnoCore` and nothing else: ``reset(seed)``, then ``seat``/``legal_actions()``/
``observe(seat)`` to read and :meth:`UnoCore.step` to act. A compiled core can replace
this class behind the same methods.

Decisions (docs/ENV.md, "Turns and reactions"): before each decision of the player to act,
after every move it makes (and after a deal or a jump-in), each other seat that has a legal
off-turn move (``uno``, ``catch``, a jump-in) gets one step, in
:func:`~unogame.env.reaction.reaction_order`, with its options plus ``NO_REACTION``.

The fast path (docs/ENV.md, "Speed"): the game is a :class:`~unogame.native.game.NativeGame`
when the compiled core plays the rules (``native=None``, the default), and then a step stays
in C from the action id to the next decision (``unogame.native._envobs.Stepper``: the push,
the seats' memories, the reaction order, the legal actions; ``stepper=False`` keeps these
in Python). Otherwise each decision's legal actions and mask are computed once, the seats'
memories (:class:`~unogame.env.memory.SeenCards`) follow their own events, and an
observation is written from the game's int readers only when asked
(:mod:`unogame.env.encoder`). Both paths give the same episodes
(``tests/test_env_differential.py``).

>>> core = UnoCore(players=2)
>>> core.reset(seed=3)
>>> while not core.over:
...     core.step(core.legal_actions()[0])
>>> sorted(core.returns), core.game.winner is not None
([-1.0, 1.0], True)
"""

from __future__ import annotations

import copy
import functools
import random
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt

from ..bots.knowledge import CardTracker
from ..engine import Event, Game, IllegalMoveError, Move, Rules
from ..engine.cards import CARD_POINTS, CARD_RANK, WILD_SWAP, card_from_code
from ..engine.moves import PLAY, TURN_KINDS
from ..native import supports
from ..native.game import EV_ROUND_OVER, NativeGame
from . import encoder
from .actions import ACTION_NAMES, NO_REACTION, NUM_ACTIONS, action_to_move, code_to_action
from .cap import capped_rewards
from .memory import SeenCards
from .observation import SIZE, rules_features
from .reaction import jump_window
from .worlds import sample_world

RewardKind = Literal["share", "points"]
REWARDS: Final = ("share", "points")
STEPPER: Final[Any] = getattr(encoder.NATIVE, "Stepper", None)
"""The C step (``unogame.native._envobs.Stepper``), or ``None`` without the compiled core."""
STEP_ROUND_OVER: Final = -1
STEP_ILLEGAL: Final = -2
STEP_TRUNCATED: Final = -4
MAX_STEPS: Final = 20_000
"""Decisions after which an episode is cut (a truncation), in every API."""
_NEW_MASK: Final = functools.partial(np.zeros, NUM_ACTIONS, np.int8)


class UnoCore:
    """One round (or, with ``match=True``, one match to ``rules.target_score``)."""

    def __init__(self, players: int, rules: Rules | None = None, match: bool = False,
                 reward: RewardKind = "share", max_steps: int = MAX_STEPS,
                 native: bool | None = None, stepper: bool | None = None,
                 round_cap: int | None = None) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if round_cap is not None and (match or not isinstance(round_cap, int)
                                      or round_cap < 1):
            raise ValueError("round_cap: a positive number of decisions, for single rounds "
                             "(match=False)")
        self.round_cap = round_cap
        self.copy_history = True
        """Whether a copy's engine game keeps the undo records (``pop``, ``record``);
        OpenSpiel, which keeps a clone per step in its tests, turns it off so that each
        clone has a fixed size."""
        """Decisions after which an undecided round ends, scored from the hands
        (:mod:`unogame.env.cap`); ``None``: no cap."""
        self.players = players
        self.rules = rules if rules is not None else Rules()
        self.match = match
        self.reward: RewardKind = reward
        self.max_steps = max_steps
        self._limit = max_steps if round_cap is None else min(max_steps, round_cap)
        can = encoder.NATIVE is not None and supports(self.rules)
        if native and not can:
            raise ValueError("the compiled core is not available or cannot play these rules")
        self.native = can and native is not False
        """Whether games are played through the compiled core."""
        if stepper and not (self.native and STEPPER is not None):
            raise ValueError("the C step needs the compiled core")
        self.stepper = self.native and STEPPER is not None and stepper is not False
        """Whether a core game is stepped in C (``unogame.native._envobs.Stepper``)."""
        self._fast: Any = None  # the Stepper of the core game being played, if stepped in C
        self._fast_events = False  # whether the last step's events are still in _fast
        self._rules_part = rules_features(self.rules)
        self._game: Game | NativeGame = Game.new(players, self.rules, 0)
        self._state: Any = None
        self._custom_swaps = any(step.what in ("swap", "pass_hands")
                                 for step in self.rules.custom.steps)
        self.seat = -1
        """The seat that decides now (-1 once the episode is over)."""
        self._on_turn = True
        self.over = False
        self.truncated = False
        self.rewards = [0.0] * players
        """Rewards of the last step, by seat."""
        self.returns = [0.0] * players
        """Rewards summed over the episode, by seat."""
        self._steps = 0
        self.round = 0
        """Rounds dealt in this episode (a new round: bots start afresh)."""
        self._events: list[Event] = []
        self._raw: list[tuple[Any, ...]] | None = None  # the core's events, not read yet
        self._queue: list[int] = []
        self._codes: dict[int, int] = {}  # the deciding seat's legal actions -> move codes
        self._actions: list[int] = []
        self._mask: npt.NDArray[np.int8] | None = None
        self._seen = SeenCards(players)
        self._action_of: dict[int, int] = {}  # move code << 4 | seat -> action
        self._round_scores = [0] * players
        self._match_points = [0.0] * players

    @property
    def on_turn(self) -> bool:
        """Whether the decision is the turn of the player to act (else a reaction)."""
        fast = self._fast
        return self._on_turn if fast is None else bool(fast.on_turn)

    @property
    def steps(self) -> int:
        """Decisions taken in this episode."""
        fast = self._fast
        return self._steps if fast is None else int(fast.steps)

    @steps.setter
    def steps(self, steps: int) -> None:
        self._steps = steps
        if self._fast is not None:
            self._fast.steps = steps

    @property
    def events(self) -> list[Event]:
        """The events of the last step (empty after a reset)."""
        if self._fast_events:
            game = self._game
            assert isinstance(game, NativeGame)
            self._events, self._fast_events = game.events_of(self._fast.raw_events()), False
        raw = self._raw
        if raw is not None:
            game = self._game
            assert isinstance(game, NativeGame)
            self._events, self._raw = game.events_of(raw), None
        return self._events

    @property
    def game(self) -> Game | NativeGame:
        """The game being played (read it; act only through :meth:`step`)."""
        return self._game

    @game.setter
    def game(self, game: Game | NativeGame) -> None:
        self._game = game
        self._state = game.state if isinstance(game, NativeGame) else None
        self._fast, self._fast_events = None, False  # a stepper belongs to its state

    # ---------------------------------------------------------------- episode

    def reset(self, seed: int) -> None:
        """A new game dealt from ``seed`` (same seed, same actions: same episode)."""
        if self.native and -(1 << 63) <= seed < 1 << 63:
            self.start_from(NativeGame.new(self.players, self.rules, seed))
        else:
            self.start_from(Game.new(self.players, self.rules, seed))

    def start_from(self, game: Game | NativeGame) -> None:
        """An episode from a given game (a NOTATION position, say) of this core's size and
        rules; the seats remember only what their views show."""
        if game.players != self.players or game.rules != self.rules:
            raise ValueError("the game must have this core's players and rules")
        self.game = game
        if self.stepper and self._state is not None:
            self._fast = STEPPER(self._state, self._rules_part, self._custom_swaps,
                                 self._limit, _NEW_MASK)
        self.over = self.truncated = False
        self.rewards = [0.0] * self.players
        self.returns = [0.0] * self.players
        self._match_points = [0.0] * self.players
        self._events, self._raw = [], None
        self.steps = 0
        self.round = 0
        self._new_round()

    def _new_round(self) -> None:
        game = self._game
        self.round += 1
        fast = self._fast
        if fast is not None:
            if self.reward == "points":  # only points pay by the round's scores
                self._round_scores = list(game.scores)
            self.seat = fast.new_round()
            return
        state = self._state
        self._seen.new_round(state.export()["discard"] if state is not None
                             else game.discard_cards)
        self._round_scores = list(game.scores)
        self._queue = self._reaction_order()
        self._next_decision()

    def _legal_codes(self, seat: int) -> list[int]:
        state = self._state
        if state is not None:
            codes: list[int] = state.legal_moves(seat)
            return codes
        return [move.code for move in self._game.legal_moves(seat)]

    def _reaction_order(self) -> list[int]:
        """:func:`~unogame.table.reaction_order` of the game, read through move codes."""
        state = self._state
        if state is not None:
            turn, direction = state.turn, encoder.direction(state)
        else:
            turn, direction = self._game.turn, self._game.direction
        players = self.players
        seats = [(turn + step * direction) % players for step in range(1, players)]
        if self._jump_window():
            return seats
        return [seat for seat in seats if self._legal_codes(seat)]

    def _jump_window(self) -> bool:
        """:func:`~unogame.env.reaction.jump_window` of the game being played."""
        return self.rules.jump_in and jump_window(self._game, self._state)

    # ---------------------------------------------------------------- reading

    def legal_moves(self) -> list[Move]:
        """The moves of the deciding seat (without "no reaction")."""
        fast = self._fast
        codes = self._codes.values() if fast is None else fast.codes()
        return [Move.from_code(code) for code in codes]

    def legal_actions(self) -> list[int]:
        """The deciding seat's actions, ascending (off turn, ``NO_REACTION`` last)."""
        fast = self._fast
        actions: list[int] = self._actions[:] if fast is None else fast.actions()
        return actions

    def action_mask(self) -> npt.NDArray[np.int8]:
        """The deciding seat's legal actions as 0/1 (built once per decision: the same
        array until the next step; do not change it)."""
        fast = self._fast
        if fast is not None:
            return fast.mask()  # type: ignore[no-any-return]
        mask = self._mask
        if mask is None:
            ones = bytearray(NUM_ACTIONS)  # faster than numpy for a few entries
            for action in self._actions:
                ones[action] = 1
            mask = self._mask = np.frombuffer(ones, dtype=np.int8)
        return mask

    def observe(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation: what ``game.view(seat)`` shows and its own events tell
        (:mod:`unogame.env.encoder`; equal to ``observation.encode`` of the view)."""
        fast = self._fast
        if fast is not None:
            obs = np.empty(SIZE, dtype=np.float32)
            fast.observe(seat, obs)
            return obs
        state = self._state
        if state is not None:
            return encoder.encode_state(state, seat, self._seen, self._rules_part)
        game = self._game
        assert isinstance(game, Game)
        return encoder.encode_game(game, seat, self._seen, self._rules_part)

    def tracker(self, seat: int) -> CardTracker:
        """A :class:`~unogame.bots.knowledge.CardTracker` of what ``seat`` knows (its own
        hand and the cards it knows in other hands; no inferred limits)."""
        tracker = CardTracker(seat, self.players)
        view = self._game.view(seat)
        tracker.reset(seat, view["hands"][seat])
        known = self._seen.known if self._fast is None else self._fast.memory()[1]
        tracker.known = [cards[:] for cards in known[seat]]
        tracker.sync(view)
        return tracker

    # ---------------------------------------------------------------- copies

    def clone(self) -> UnoCore:
        """An independent copy (for search: OpenSpiel clones states all the time)."""
        other = copy.copy(self)
        other.detach()
        return other

    def detach(self) -> None:
        """Take own copies of the mutable state (after a shallow ``copy.copy``)."""
        fast = self._fast
        game = self._game
        if self.copy_history or not isinstance(game, Game):
            self.game = game.copy()
        else:  # the same position without the undo records: a copy of fixed size
            self.game = game.resample({}, game.draw_cards, game.seed)
        if fast is not None:
            self._fast = fast.copy(self._state)
        self.rewards = self.rewards[:]
        self.returns = self.returns[:]
        self._events, self._raw = [], None
        self._queue = self._queue[:]
        self._codes = dict(self._codes)
        self._actions = self._actions[:]
        self._mask = None
        self._seen = self._seen.copy()
        self._match_points = self._match_points[:]

    def __deepcopy__(self, memo: dict[int, object]) -> UnoCore:
        return self.clone()

    def resample(self, seat: int, rng: random.Random) -> UnoCore:
        """A copy in which every card ``seat`` cannot see is dealt again at random,
        consistently with its view and what it knows (IS-MCTS determinization).

        ``seat`` sees the same observation and has the same legal actions in the copy;
        the other seats remember only what their new views show.
        """
        world = sample_world(self._game, seat, self.tracker(seat), rng)
        other = self.clone()
        other.enter_world(world, seat)
        return other

    def enter_world(self, world: Game, seat: int) -> None:
        """Play on in ``world``, a determinization of ``seat``'s view, from the same
        decision: the other seats remember only what their new views show (and the
        public cards played)."""
        self._leave_fast()
        self.game = world
        known = self._seen.known
        for index in range(self.players):
            if index != seat:
                known[index] = [[] for _ in range(self.players)]
        if not self.over and not self._set_decision(self.seat, self.on_turn):
            self._next_decision()  # the reacting seat has no move in this world

    def _leave_fast(self) -> None:
        """Hand the C step's decision and memories to the Python path."""
        fast = self._fast
        if fast is None:
            return
        played, known, has_known, queue = fast.memory()
        actions, codes = fast.actions(), fast.codes()
        self._seen, self._queue = SeenCards.restore(played, known, has_known), queue
        self._on_turn, self._steps = bool(fast.on_turn), int(fast.steps)
        self._codes = {code_to_action(code, self.seat, self.players): code for code in codes}
        self._actions, self._mask = actions, None
        self._events, self._raw = self.events, None
        self._fast, self._fast_events = None, False

    # ---------------------------------------------------------------- acting

    def step(self, action: int) -> None:
        """The deciding seat takes ``action``; play goes on to the next decision.

        An action that is not legal now raises ``ValueError`` and changes nothing.
        """
        if self.over:
            raise ValueError("the episode is over: reset first")
        fast = self._fast
        if fast is not None:
            seat = fast.step(action)
            if seat >= 0:
                self.seat = seat
                self._fast_events = True
            elif seat == STEP_ILLEGAL:
                self._refuse(int(action))
            else:
                self._fast_events = True
                self._fast_ended(seat)
            return
        seat = self.seat
        action = int(action)
        code = self._codes.get(action)
        if code is None and (action != NO_REACTION or self._on_turn):
            self._refuse(action)
        self.rewards = [0.0] * self.players
        self._events, self._raw = [], None
        self._steps += 1
        self._mask = None
        if code is not None:
            if self._apply(seat, code):  # the episode ended, or a new round was dealt
                return
            if self._on_turn or code & 7 in TURN_KINDS:  # a new moment to react to
                self._queue = self._reaction_order()
        if self._steps >= self._limit:
            self._truncate()
            return
        self._next_decision()

    def _refuse(self, action: int) -> None:
        """Raise the ``ValueError`` of an illegal action (nothing has changed)."""
        try:
            move = action_to_move(action, self.seat, self.players)
        except ValueError as error:
            raise ValueError(f"illegal action {action}: {error}") from None
        raise ValueError(f"illegal action {action} ({ACTION_NAMES[action]}: {move}) for "
                         f"seat {self.seat}; legal: {self.legal_actions()}")

    def _truncate(self) -> None:
        if self.round_cap is not None and self.round_cap <= self.max_steps:
            game = self._game
            hands = game.position()["hands"]
            self._pay(capped_rewards(game.hand_sizes(), [
                sum(CARD_POINTS[card_from_code(code)] for code in hand) for hand in hands],
                self.reward))
            return
        self.over = self.truncated = True
        self.seat = -1
        self._codes, self._actions, self._mask = {}, [], None

    def _fast_ended(self, status: int) -> None:
        """The C step ended the round (or reached ``max_steps``)."""
        if status == STEP_TRUNCATED:
            self._truncate()
            return
        assert status == STEP_ROUND_OVER, status
        game = self._game
        winner = game.winner
        assert winner is not None
        points = (game.scores[winner] - self._round_scores[winner]
                  if self.reward == "points" else 0)
        self._end_round(winner, points)

    def _apply(self, seat: int, code: int) -> bool:
        """Push the move and tell every seat its events; True if the round ended."""
        game = self._game
        seen = self._seen
        state = self._state
        if code & 7 == PLAY and self._may_swap(code):
            seen.take_hands(state.export()["hands"] if state is not None
                            else game.card_hands)  # type: ignore[union-attr]
        if state is not None:
            try:
                raw = state.push(seat, code)
            except ValueError as error:  # legal_moves said yes: a broken invariant
                raise RuntimeError(f"the core refused a legal move: {error}") from error
            seen.observe_raw(raw)
            if raw and raw[-1][0] == EV_ROUND_OVER:  # read now: it reads the state
                self._events = game.events_of(raw)  # type: ignore[union-attr]
            else:
                self._raw = raw  # made into events only if asked
        else:
            try:
                events = game.push(seat, Move.from_code(code))
            except IllegalMoveError as error:  # legal_moves said yes: a broken invariant
                raise RuntimeError(f"engine refused a legal move: {error}") from error
            self._events = events
            seen.observe(events)
        winner = game.winner
        if winner is None:
            seen.trim(game.hand_sizes())
            return False
        self._end_round(winner, game.scores[winner] - self._round_scores[winner])
        return True

    def _may_swap(self, code: int) -> bool:
        """Whether a play may swap or pass hands (a 7 or 0 under ``seven_zero``, a Wild
        Swap Hands, a Wild Customizable whose rule does)."""
        card = (code >> 3 & 63) - 1
        if card >= WILD_SWAP:
            return card == WILD_SWAP or self._custom_swaps
        return self.rules.seven_zero and CARD_RANK[card] in (0, 7)

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
            self._events = self.events  # read first: a round_over event reads the state
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
        self._codes = {}
        self._actions = []
        self._mask = None

    def _next_decision(self) -> None:
        queue = self._queue
        while queue:
            seat = queue.pop(0)
            if self._set_decision(seat, False):
                return
        self._set_decision(self._game.turn, True)

    def _set_decision(self, seat: int, on_turn: bool) -> bool:
        """``seat`` decides now if it has a legal move (its actions read once)."""
        codes = self._legal_codes(seat)
        if not codes and not on_turn and not self._jump_window():
            return False
        cache = self._action_of
        by_action = {}
        for code in codes:
            key = code << 4 | seat
            action = cache.get(key)
            if action is None:
                action = cache[key] = code_to_action(code, seat, self.players)
            by_action[action] = code
        actions = sorted(by_action)
        if not on_turn:
            actions.append(NO_REACTION)
        self.seat, self._on_turn = seat, on_turn
        self._codes, self._actions, self._mask = by_action, actions, None
        return True
