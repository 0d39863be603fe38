"""``hard``: information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).

Single-observer IS-MCTS: every iteration samples a *determinization* — a full game
consistent with what this seat has seen (its hand, the discard pile, hand sizes, the cards
it knows in other hands from challenges, swaps and passed hands) — and walks one shared
tree of moves (keyed by seat and move) with UCB over the moves available in that
determinization, expands one move, plays on with a policy to the end of the round (or
``rollout_plies``) and scores the end (1 for the winner; a cut-off position is scored by
hand sizes). The policy is ``medium``'s own turn choice (:mod:`.medium_policy`): the tree
tries its move first at each node, the other seats play only its moves (a model of the
opponents, not a search of their best replies) and the rollouts are played by it; this
seat's moves below the root are widened progressively. With the compiled core the whole
search runs in C (the same generator calls, the same decisions); without it the engine
simulates (``Game.push_unchecked``). Determinizations: :mod:`.determinize`, with the core
preferring hands that explain the others' plays as ``medium`` (:mod:`.belief`); the
search's moves and the older greedy policy: :mod:`.rollout`.

Only on-turn decisions with more than one option are searched; off-turn moves (UNO,
catching, jump-ins) and forced moves come from the ``medium`` rules at once.

>>> from unogame.engine import Game
>>> game = Game.new(2, seed=4)
>>> bot = HardBot(seed=1, budget=2000)
>>> bot.new_round(game.turn, game.view(game.turn), game.rules)
>>> bot.choose(game.view(game.turn), game.legal_moves()) in game.legal_moves()
True
"""

from __future__ import annotations

import math
import random
import time
from array import array
from collections.abc import Sequence
from typing import Any, Final

from .. import native
from ..engine import Game, Move
from ..engine.cards import CARD_COLOR, CARD_POINTS, NUM_CARDS, WILD, card_from_code
from ..engine.moves import CATCH, PLAY, UNO, play_arguments_table
from ..native import game as native_game
from .base import BOT_LEVELS, without_empty_draw
from .determinize import deal_hidden, determinize, public_game, sampled_pending
from .heuristic import MediumBot
from .knowledge import CardTracker
from .medium_policy import medium_move, medium_tree_move
from .rollout import UNO_BIT, fast_rollout_move, rollout_move, search_moves

__all__ = ["ENGINE_BUDGET", "NATIVE_BUDGET", "HardBot", "deal_hidden", "determinize",
           "fast_rollout_move", "public_game", "rollout_move", "search_moves"]


class _EngineSimulator:
    """The search's simulator on engine games (moves as codes)."""

    @staticmethod
    def world(game: Game) -> Any:
        return game

    @staticmethod
    def copy(world: Any) -> Any:
        return world.copy()

    @staticmethod
    def push(game: Any, seat: int, code: int) -> None:
        game.push_unchecked(seat, Move.from_code(code))

    @staticmethod
    def winner(game: Any) -> int:
        return -1 if game.winner is None else game.winner

    @staticmethod
    def turn(game: Any) -> int:
        return game.turn  # type: ignore[no-any-return]

    @staticmethod
    def step(game: Any, mover: int, medium: bool) -> tuple[list[int], int]:
        moves = search_moves(game, mover)
        policy = medium_tree_move(game, mover, moves) if medium else rollout_move(
            game, mover, moves)
        return [move.code for move in moves], policy.code

    @staticmethod
    def rollout(game: Any, plies: int, sharpness: float) -> tuple[int, list[float]]:
        steps = 0
        arguments = play_arguments_table(game.rules)
        while game.winner is None and steps < plies:
            mover = game.turn
            game.push_unchecked(mover, fast_rollout_move(game, mover, arguments))
            steps += 1
        return steps, end_rewards(game, sharpness)

    @staticmethod
    def medium_rollout(game: Any, plies: int, sharpness: float) -> tuple[int, list[float]]:
        steps = 0
        while game.winner is None and steps < plies:
            mover = game.turn
            game.push_unchecked(mover, medium_move(game, mover))
            steps += 1
        return steps, end_rewards(game, sharpness)


def position_key(view: dict[str, Any], seat: int) -> bytes:
    """What ``seat`` sees of a position that a move can change (its hand in any order, the
    other hands' sizes, the whole discard pile, the draw pile's size, colour, direction,
    turn, pending decision), compact: equal keys, the same position to this seat."""
    hands = view["hands"]
    numbers = [view["draw_pile"], "RYGB".find(view["color"]) + 1 if view["color"] else 0,
               view["direction"] + 1, view["turn"],
               *(len(hand) if isinstance(hand, list) else hand for hand in hands),
               *sorted(card_from_code(code) for code in hands[seat]), NUM_CARDS,
               *(card_from_code(code) for code in view["discard_pile"])]
    pending = repr(sorted(view["pending"].items())) if view["pending"] is not None else ""
    return array("H", numbers).tobytes() + pending.encode()


def is_turn_move_event(event: dict[str, Any]) -> bool:
    """Whether an event (as a seat sees it) is its ``seat``'s turn move."""
    kind = event["type"]
    if kind == "play":
        return not event.get("jump_in", False)
    if kind == "draw":
        return event.get("reason") in ("turn", "stack")
    return kind in ("pass", "challenge", "accept", "color")


def end_rewards(game: Game, sharpness: float) -> list[float]:
    """1 for the winner; a round cut off is scored by ``exp(-sharpness * hand size)``."""
    if game.winner is not None:
        rewards = [0.0] * game.players
        rewards[game.winner] = 1.0
        return rewards
    weights = [math.exp(-sharpness * len(hand)) for hand in game.card_hands]
    total = sum(weights)
    return [weight / total for weight in weights]


class _NativeSimulator:
    """The same simulator in the compiled core: the same moves and rewards, faster."""

    @staticmethod
    def world(game: Game) -> Any:
        return native_game.state_from_game(game)

    @staticmethod
    def sample(template: Any, view: dict[str, Any], tracker: CardTracker,
               pool: Sequence[int], rng: random.Random, rules: Any, tries: int) -> Any:
        """The determinization as a core state, built from the sampled cards directly."""
        seed, hands, draw = deal_hidden(view, tracker, pool, rng, rules, tries)
        pending = sampled_pending(view, hands)
        return template.sample(seed, hands, draw, pending)

    @staticmethod
    def copy(world: Any) -> Any:
        return world.copy()

    @staticmethod
    def push(game: Any, seat: int, code: int) -> None:
        game.push(seat, code, False)

    @staticmethod
    def winner(game: Any) -> int:
        return game.winner  # type: ignore[no-any-return]

    @staticmethod
    def turn(game: Any) -> int:
        return game.turn  # type: ignore[no-any-return]

    @staticmethod
    def step(game: Any, mover: int, medium: bool) -> tuple[list[int], int]:
        return game.search_step(mover, medium)  # type: ignore[no-any-return]

    @staticmethod
    def rollout(game: Any, plies: int, sharpness: float) -> tuple[int, list[float]]:
        return game.rollout(plies, sharpness)  # type: ignore[no-any-return]

    @staticmethod
    def medium_rollout(game: Any, plies: int, sharpness: float) -> tuple[int, list[float]]:
        return game.medium_rollout(plies, sharpness)  # type: ignore[no-any-return]


def _simulator(rules: Any) -> type[_EngineSimulator] | type[_NativeSimulator]:
    """The compiled core when it is loaded and plays the rules, else the engine."""
    return _NativeSimulator if native.supports(rules) else _EngineSimulator


class _Node:
    __slots__ = ("avail", "children", "parent", "reward", "seat", "visits")

    def __init__(self, parent: _Node | None, seat: int) -> None:
        self.parent = parent
        self.seat = seat
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0


ENGINE_BUDGET: Final = 8_000
"""The default budget when the engine simulates (a median under 100 ms with the medium
policy: 20,000 took a median of 200 ms)."""
NATIVE_BUDGET: Final = 360_000
"""The default budget when the compiled core searches (the whole loop in C): 45 times as
many simulated moves in less time (a CPU median of 40-70 ms on one core; the decisions
differ from ENGINE_BUDGET's, so give ``budget`` to compare the two simulators)."""


class HardBot(MediumBot):
    """IS-MCTS over determinizations, ``medium`` for off-turn and forced moves.

    ``budget`` bounds the search by the number of moves simulated (tree and rollouts), so
    that it is deterministic for a seed and takes about the same time in every position;
    ``iterations`` (simulations) and ``time_limit`` (seconds), if set, stop it earlier
    (anytime). The default budget answers in a median of well under 100 ms on one core.
    """

    level = "hard"
    reaction_delay = 1.0
    exploration = 0.7
    """The UCB constant (rewards are win chances from 0 to 1)."""
    cutoff_sharpness = 0.6
    """A cut-off rollout scores each seat by ``exp(-sharpness * hand size)``, normalized."""
    prior_margin = 0.0
    """Keep the ``medium`` move unless the search finds one this much better (win rate):
    0, a tie only (a margin of 0.03 cost 3-5 points of 4-player win rate)."""
    widening = 4
    """A node below the root gets its k-th child once it has k*k*widening visits."""
    opponent_widening = -1
    """``widening`` at the other seats' moves; -1: they play the policy's move only (a
    model of the opponents rather than a search of their best replies: with the ``medium``
    policy, 33.5% of 4-player rounds against three ``medium`` where searching their
    replies too (4) won 28.5%)."""
    policy = "medium"
    """The move the tree tries first at each node, the other seats' moves and the rollouts'
    moves: ``"medium"`` (:func:`.medium_policy.medium_move`, every seat modelled as the
    ``medium`` bot) or ``"greedy"`` (the cheaper :func:`.rollout.rollout_move`)."""
    flat = False
    """Flat Monte Carlo instead of the tree: every determinization played once from every
    root move, then ``medium`` for every seat (31% of 4-player rounds against three
    ``medium`` at the default budget: below the tree)."""

    belief_tries = 16
    """Hands dealt per seat and determinization until one explains the seat's kept
    decisions (:mod:`.belief`: the others are modelled as ``medium``); 1: no preference.
    With the compiled core only: the engine's search deals once (in Python the tries
    would double its time)."""
    keeps_decisions = True

    root_halving = False
    """Sequential halving at the root: the budget in ceil(log2(moves)) parts, the worse
    half of the root moves dropped after each (the tree's budget goes to the close calls)."""

    def __init__(self, seed: int = 0, budget: int | None = None,
                 iterations: int | None = None, time_limit: float | None = None,
                 rollout_plies: int | None = None, search: bool = True) -> None:
        super().__init__(seed)
        self.use_search = search
        self.budget = budget
        """Moves simulated per decision (tree and rollouts): the deterministic budget;
        ``None``: NATIVE_BUDGET when the compiled core simulates, else ENGINE_BUDGET."""
        self.iterations = iterations
        self.time_limit = time_limit
        self.rollout_plies = rollout_plies
        """A rollout's plies before it is cut off and scored by hand sizes; ``None``: 400
        with the ``medium`` policy (the round's end, nearly always), 40 with ``greedy``."""
        self.last_iterations = 0
        self.last_visits: dict[Move, int] = {}
        """Determinizations played from each root move in the last search."""
        self.positions_left: dict[bytes, int] = {}
        """This round's searched positions (:func:`position_key`), by the times this seat
        moved on from them."""
        self._deciding: bytes | None = None
        """The position of the last searched decision, until this seat's turn move is seen
        (a request the table drops or takes back is asked again: no position left)."""

    def new_round(self, seat: int, view: dict[str, Any], rules: Any = None) -> None:
        super().new_round(seat, view, rules)
        self.positions_left.clear()
        self._deciding = None

    def observe(self, event: dict[str, Any]) -> None:
        super().observe(event)
        if (self._deciding is not None and event.get("seat") == self.seat
                and is_turn_move_event(event)):
            key = self._deciding
            self.positions_left[key] = self.positions_left.get(key, 0) + 1
            self._deciding = None

    @property
    def plies(self) -> int:
        """The rollout cut-off in use (see ``rollout_plies``)."""
        if self.rollout_plies is not None:
            return self.rollout_plies
        return 400 if self.policy == "medium" else 40

    void_bonus = 6.0
    """How much the heuristic prefers a colour the next player has shown it lacks."""

    def color_bonus(self, color: int, following: int) -> float:
        """Prefer colours the next player lacks (it drew on them, R4.3)."""
        limit = self.tracker.allowance[following][color]
        if limit is None:
            return 0.0
        return self.void_bonus / (1 + limit)

    def choose_color(self, hand: list[int], played: int, following: int) -> int:
        counts = [0.0, 0.0, 0.0, 0.0]
        removed = False
        for card in hand:
            if card == played and not removed:
                removed = True
            elif card < WILD:
                counts[CARD_COLOR[card]] += 3 + CARD_POINTS[card] / 100
        for color in range(4):
            counts[color] += self.color_bonus(color, following)
        return max(range(4), key=counts.__getitem__)

    def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move | None:
        if not legal:
            return None
        seat = self._my_seat(view)
        if view["turn"] != seat:
            self.tracker.sync(view)
            return self.off_turn(view, legal)
        self._deciding = None
        for move in legal:
            if move.kind == CATCH:
                return move
        if len(view["hands"][seat]) == 1:
            for move in legal:
                if move.kind == UNO:
                    return move
        self.tracker.sync(view)
        template = public_game(view, seat, self.rules)
        # an empty draw is never searched, so no searcher (hard's tree, learned's network)
        # can pass forever while it holds a play
        options = without_empty_draw(view, search_moves(template, seat))
        prior = MediumBot.choose(self, view, legal)
        if len(options) <= 1 or not self.use_search:
            return prior
        key = self._deciding = position_key(view, seat)
        if key in self.positions_left:
            # The same position again: the cards went round (the piles nearly spent, the
            # others drawing back what this seat plays). The same choice would repeat the
            # cycle forever; a random one leaves it.
            return options[int(self.rng.random() * len(options))]
        move = self.search(view, template, options, prior)
        return move if move in legal else prior

    def search(self, view: dict[str, Any], template: Game, options: list[Move],
               prior: Move | None = None) -> Move:
        """Run IS-MCTS from this seat's information set.

        Each sampled determinization is played once from every root move still searched
        (all of them, or with ``root_halving`` the better half after each part of the
        budget; common random numbers: the rollouts are deterministic, so root moves are
        compared on the same deals); below the root, moves are chosen by UCB over the moves
        available in the determinization, the tree shared by all of them. The answer is the
        root move with the best mean reward, unless ``prior`` (the ``medium`` choice) scores
        within ``prior_margin`` of it.
        """
        if self.policy not in ("medium", "greedy"):
            raise ValueError(f"policy must be 'medium' or 'greedy', not {self.policy!r}")
        simulator = _simulator(template.rules)
        deadline = (time.perf_counter() + self.time_limit) if self.time_limit else None
        budget = self.budget if self.budget is not None else (
            NATIVE_BUDGET if simulator is _NativeSimulator else ENGINE_BUDGET)
        option_codes = [move.code for move in options]
        outcome = None
        if simulator is _NativeSimulator:
            outcome = self._core_search(view, template, option_codes, budget, deadline)
        if outcome is None:
            outcome = self._python_search(view, template, option_codes, budget, deadline)
        done, visits, rewards = outcome
        self.last_iterations = done
        self.last_visits = dict(zip(options, visits, strict=True))
        most = max(visits)  # with root halving, the moves searched to the end
        means = {move: reward / count
                 for move, count, reward in zip(options, visits, rewards, strict=True)
                 if count and (count == most or not self.root_halving)}
        best = max(means, key=means.__getitem__)
        if prior is not None:
            if prior.kind == PLAY and not prior.uno and Move.from_code(
                    prior.code | UNO_BIT) in means:
                prior = Move.from_code(prior.code | UNO_BIT)
            if prior in means and means[prior] >= means[best] - self.prior_margin:
                return prior
        return best

    def _core_search(self, view: dict[str, Any], template: Game, option_codes: list[int],
                     budget: int, deadline: float | None
                     ) -> tuple[int, list[int], list[float]] | None:
        """:meth:`_python_search` in the compiled core, whole (determinizations, tree,
        rollouts), the same generator calls: the same result; ``None`` for a hand-written
        position the core refuses."""
        tracker = self.tracker
        seat = tracker.seat
        hands = view["hands"]
        sizes = [len(hand) if isinstance(hand, list) else hand for hand in hands]
        pending = sampled_pending(view, {other: [] for other in range(len(hands))})
        version, words, gauss = self.rng.getstate()
        try:
            base = native_game.SampleTemplate(template).sample(0, {}, [], pending)
            done, visits, rewards, words = native_game.search(
                base, seat, option_codes, list(tracker.unseen(view)), sizes,
                [list(known) for known in tracker.known],
                [[-1 if limit is None else limit for limit in limits]
                 for limits in tracker.allowance],
                list(tracker.named), view["draw_pile"], pending is not None,
                self.exploration, self.cutoff_sharpness, self.plies, self.widening,
                self.opponent_widening, budget,
                self.iterations if self.iterations is not None else 1 << 30,
                deadline or 0.0, words, self.policy == "medium", self.flat,
                self.root_halving, tracker.decisions.core_decisions(), self.belief_tries)
        except ValueError:
            return None
        self.rng.setstate((version, words, gauss))
        return done, visits, rewards

    def _python_search(self, view: dict[str, Any], template: Game, option_codes: list[int],
                       budget: int, deadline: float | None
                       ) -> tuple[int, list[int], list[float]]:
        """The search loop in Python (the reference of the core's): iterations done, and
        visits and summed rewards by root move."""
        if self.flat:
            return self._python_flat_search(view, template, option_codes, budget, deadline)
        rng = self.rng
        seat = self.tracker.seat
        worlds = _Worlds(view, self.tracker, template, rng, self.belief_tries)
        root = _Node(None, -1)
        root_children = []
        for code in option_codes:
            child = _Node(root, seat)
            root.children[code << 4 | seat] = child
            root_children.append(child)
        exploration = self.exploration
        sharpness = self.cutoff_sharpness
        plies = self.plies
        medium = self.policy == "medium"
        widening = self.widening
        opponent_widening = self.opponent_widening
        done = 0
        steps_left = budget
        iterations = self.iterations if self.iterations is not None else 1 << 30
        alive = list(range(len(option_codes)))
        phases = 1
        while self.root_halving and (1 << phases) < len(option_codes):
            phases += 1
        phase_budget = budget // phases
        halved = 0
        while done < iterations and steps_left > 0:
            if (self.root_halving and len(alive) > 1
                    and budget - steps_left >= phase_budget * (halved + 1)):
                alive = _halve(root_children, alive)
                halved += 1
            world = worlds.sample()
            simulator = worlds.simulator
            for index in alive:
                root_code, node = option_codes[index], root_children[index]
                done += 1
                game = simulator.copy(world)
                simulator.push(game, seat, root_code)
                made = 1
                # selection and expansion, below the root widened progressively: the
                # rollout policy's move first, other moves as the node gathers visits
                while simulator.winner(game) < 0:
                    mover = simulator.turn(game)
                    moves, policy = simulator.step(game, mover, medium)
                    children = node.children
                    expand = -1
                    if (policy << 4 | mover) not in children:
                        expand = policy
                    else:
                        present = [m for m in moves if (m << 4 | mover) in children]
                        widen = widening if mover == seat else opponent_widening
                        if (len(present) < len(moves) and widen >= 0
                                and len(present) * len(present) * widen <= node.visits):
                            untried = [m for m in moves if (m << 4 | mover) not in children]
                            expand = untried[int(rng.random() * len(untried))]
                        else:
                            moves = present
                    if expand >= 0:
                        child = _Node(node, mover)
                        children[expand << 4 | mover] = child
                        for other in moves:
                            sibling = children.get(other << 4 | mover)
                            if sibling is not None and sibling is not child:
                                sibling.avail += 1
                        simulator.push(game, mover, expand)
                        made += 1
                        node = child
                        break
                    best_child: _Node | None = None
                    best_move = moves[0]
                    best_value = -1.0
                    for move in moves:
                        child = children[move << 4 | mover]
                        child.avail += 1
                        value = (child.reward / child.visits
                                 + exploration * math.sqrt(math.log(child.avail) / child.visits))
                        if value > best_value:
                            best_child, best_move, best_value = child, move, value
                    assert best_child is not None
                    simulator.push(game, mover, best_move)
                    made += 1
                    node = best_child
                rollout_plies, rewards = (simulator.medium_rollout if medium
                                          else simulator.rollout)(game, plies, sharpness)
                steps_left -= made + rollout_plies
                # backpropagation
                while node is not root:
                    node.visits += 1
                    node.reward += rewards[node.seat]
                    assert node.parent is not None
                    node = node.parent
                root.visits += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        return (done, [child.visits for child in root_children],
                [child.reward for child in root_children])

    def _python_flat_search(self, view: dict[str, Any], template: Game,
                            option_codes: list[int], budget: int, deadline: float | None
                            ) -> tuple[int, list[int], list[float]]:
        """Flat Monte Carlo in Python (the reference of the core's ``flat.c``): every
        determinization played once from every root move, then every seat playing
        ``medium`` (:func:`.medium_policy.medium_move`) to the end of the round."""
        seat = self.tracker.seat
        worlds = _Worlds(view, self.tracker, template, self.rng, self.belief_tries)
        visits = [0] * len(option_codes)
        rewards = [0.0] * len(option_codes)
        done = 0
        steps_left = budget
        iterations = self.iterations if self.iterations is not None else 1 << 30
        while done < iterations and steps_left > 0:
            world = worlds.sample()
            simulator = worlds.simulator
            for index, root_code in enumerate(option_codes):
                done += 1
                game = simulator.copy(world)
                simulator.push(game, seat, root_code)
                plies, ends = simulator.medium_rollout(game, self.plies,
                                                       self.cutoff_sharpness)
                visits[index] += 1
                rewards[index] += ends[seat]
                steps_left -= 1 + plies
            if deadline is not None and time.perf_counter() > deadline:
                break
        return done, visits, rewards


def _halve(children: list[_Node], alive: list[int]) -> list[int]:
    """Sequential halving at the root: the better half (rounded up) of the root moves still
    searched, by mean reward (ties to the earlier move), kept in their order."""
    means = [children[i].reward / children[i].visits if children[i].visits else 0.0
             for i in alive]
    chosen: set[int] = set()
    for _ in range((len(alive) + 1) // 2):
        best = -1
        for k in range(len(alive)):
            if k not in chosen and (best < 0 or means[k] > means[best]):
                best = k
        chosen.add(best)
    return [alive[k] for k in range(len(alive)) if k in chosen]


class _Worlds:
    """A search's determinizations: core states while the core plays the rules and the
    position, else engine games (``simulator`` says which)."""

    def __init__(self, view: dict[str, Any], tracker: CardTracker, template: Game,
                 rng: random.Random, tries: int = 1) -> None:
        self.view = view
        self.tries = tries
        self.tracker = tracker
        self.template = template
        self.rng = rng
        self.pool = tracker.unseen(view)
        self.simulator: type[_EngineSimulator] | type[_NativeSimulator] = _simulator(
            template.rules)
        self.native_template = (native_game.SampleTemplate(template)
                                if self.simulator is _NativeSimulator else None)

    def sample(self) -> Any:
        if self.native_template is not None:
            try:
                return _NativeSimulator.sample(self.native_template, self.view, self.tracker,
                                               self.pool, self.rng, self.template.rules,
                                               self.tries)
            except ValueError:  # a hand-written position the core refuses
                self.native_template = None
                self.simulator = _EngineSimulator
        return determinize(self.view, self.tracker, self.template, self.pool, self.rng)


BOT_LEVELS["hard"] = HardBot
