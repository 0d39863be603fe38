"""The OpenSpiel game ``python_unogame`` (extra ``[openspiel]``): UNO with the full rules as
an imperfect-information Python game, registered with ``pyspiel.register_game`` on import.

Parameters: ``players`` (2-10), ``rules`` (rule options as text, e.g.
``"stacking;custom_rule:skip"``, see :func:`parse_rules`) and ``max_steps`` (the game ends
in a draw, returns 0, after that many decisions). One chance node opens the game: its
outcome is the seed of the deal and of every later reshuffle (``NUM_SEEDS`` equally likely
seeds). Decisions, actions and
observations are those of the PettingZoo environment (docs/ENV.md); the returns are +1 for
the round's winner and -1/(n-1) for the others.

- ``information_state_string(p)``: a digest (32 hex digits, a hash chain) of everything
  ``p`` has seen, in order (its first view, then every event as ``Event.for_seat(p)``
  gives it, and its own "no reaction" choices), then its current view: perfect recall in
  a size that does not grow with the round. ``information_state_tensor`` raises
  (none is provided).
- ``observation_tensor(p)``: the observation array of docs/ENV.md;
  ``observation_string(p)``: ``p``'s current view.
- ``resample_from_infostate(p, sampler)``: the hidden cards dealt again consistently with
  ``p``'s information (what OpenSpiel's IS-MCTS bot asks for).

>>> import pyspiel
>>> from unogame.env import openspiel_game
>>> game = pyspiel.load_game("python_unogame", {"players": 3})
>>> state = game.new_initial_state()
>>> state.apply_action(42)
>>> state.current_player() in (0, 1, 2), len(state.observation_tensor())
(True, 945)
"""

from __future__ import annotations

import hashlib
import inspect
import json
import random
import sys
import urllib.parse
from typing import Any, Final

import numpy as np
import pyspiel

from ..engine import Event, Game, Rules
from ..engine.playout import random_step
from .actions import ACTION_NAMES, NO_REACTION, NUM_ACTIONS
from .core import MAX_STEPS, UnoCore
from .observation import SIZE

NUM_SEEDS: Final = 10_000
"""Outcomes of the opening chance node (the game's seed)."""
DEFAULT_MAX_STEPS: Final = MAX_STEPS
DEPTH_MARGIN: Final = 200
"""Python frames kept free below the recursion limit (:func:`_check_depth`)."""


def _check_depth() -> None:
    """Stop a tree walk that recurses once per move before Python's limit does, with a
    reason: CFR, exploitability, external-sampling MCCFR and Deep CFR's traversals walk
    the whole game, and a round of UNO runs up to ``max_steps`` decisions."""
    limit = sys.getrecursionlimit() - DEPTH_MARGIN
    frame = inspect.currentframe()
    depth = 0
    while frame is not None and depth <= limit:
        frame = frame.f_back
        depth += 1
    if depth > limit:
        raise RecursionError(
            "python_unogame: this algorithm recurses once per move and reached Python's "
            "recursion limit; a round of UNO lasts up to max_steps decisions (docs/ENV.md, "
            "\"OpenSpiel algorithms\"): use outcome-sampling MCCFR with a small max_steps, "
            "or IS-MCTS, NFSP, DQN; CFR, exploitability and Deep CFR need the whole tree")

_GAME_TYPE: Final = pyspiel.GameType(
    short_name="python_unogame",
    long_name="UNO (unogame, full rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "rules": "", "max_steps": DEFAULT_MAX_STEPS},
)


def _event_text(event: dict[str, Any]) -> str:
    return json.dumps(event, sort_keys=True, separators=(",", ":"))


def parse_rules(text: str) -> Rules:
    """Rules from the ``rules`` parameter: options separated by ``;``, each ``name:value``
    or a bare ``name`` for true (OpenSpiel's parameter syntax has no room for commas), e.g.
    ``"stacking;jump_in;custom_rule:skip;custom_count:3;challenge:false"``. A family's
    rule is its JSON object, ``custom_rule:{"name": ..., "steps": [...]}`` (read as JSON,
    so its text may hold ``;``), or that JSON percent-encoded (``custom_rule:%7B%22name...``,
    what :func:`rules_parameter` writes: OpenSpiel's game string has no room for its commas).
    """
    options: dict[str, Any] = {}
    at = 0
    while at < len(text):
        end = text.find(";", at)
        end = len(text) if end < 0 else end
        item = text[at:end].strip()
        name, _, value = item.partition(":")
        if value[:3].upper() == "%7B":
            try:
                options[name] = json.loads(urllib.parse.unquote(value))
            except json.JSONDecodeError as error:
                raise ValueError(f"rules parameter: {name} is not a JSON object: {error}") \
                    from None
        elif value.startswith("{"):
            start = text.index("{", at)
            try:
                options[name], end = json.JSONDecoder().raw_decode(text, start)
            except json.JSONDecodeError as error:
                raise ValueError(f"rules parameter: {name} is not a JSON object: {error}") \
                    from None
            after = text.find(";", end)
            after = len(text) if after < 0 else after
            if text[end:after].strip():
                raise ValueError(f"rules parameter: {text[end:after].strip()!r} after {name}")
            end = after
        elif not item:
            pass
        elif not value:
            options[name] = True
        elif value in ("true", "false"):
            options[name] = value == "true"
        elif value.isdigit():
            options[name] = int(value)
        else:
            options[name] = value
        at = end + 1
    return Rules.from_dict(options)


def rules_parameter(rules: Rules) -> str:
    """The ``rules`` parameter text for a :class:`Rules` (the inverse of :func:`parse_rules`)."""
    parts = []
    for name, value in rules.to_dict().items():
        if isinstance(value, dict):
            parts.append(f"{name}:{urllib.parse.quote(json.dumps(value), safe='')}")
        elif value is True:
            parts.append(name)
        elif value is False:
            parts.append(f"{name}:false")
        else:
            parts.append(f"{name}:{value}")
    return ";".join(parts)


def recall(digest: bytes, text: str) -> bytes:
    """The digest of a seat's information after one more thing seen: a hash chain, so an
    information state has a fixed size however long the round (two histories give the same
    digest only if they are the same, barring a 128-bit collision)."""
    return hashlib.blake2b(digest + text.encode(), digest_size=16).digest()


class UnoGame(pyspiel.Game):  # type: ignore[misc]
    """``python_unogame``: one round of UNO for ``players`` under ``rules``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_GAME_TYPE.parameter_specification, **(params or {})}
        self.players = int(params["players"])
        if not 2 <= self.players <= 10:
            raise ValueError("players must be from 2 to 10")
        self.rules = parse_rules(str(params["rules"]))
        self.max_steps = int(params["max_steps"])
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_SEEDS,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_steps,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> UnoState:
        return UnoState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Any = None) -> UnoObserver | UnoInfoStateObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return UnoInfoStateObserver()
        return UnoObserver()


class UnoState(pyspiel.State):  # type: ignore[misc]
    """A state: the opening chance node, then a :class:`~unogame.env.core.UnoCore`."""

    def __init__(self, game: UnoGame) -> None:
        super().__init__(game)
        # Only plain values here: OpenSpiel clones a state by deep-copying its attributes.
        self.players = game.players
        self.rules = game.rules
        self.max_steps = game.max_steps
        self.core: UnoCore | None = None
        self.logs: list[bytes] = []
        """By seat: the digest of what the seat has seen, its first view, every event and
        its own "no reaction" choices in order (perfect recall in a fixed size)."""

    # ---------------------------------------------------------------- the game's course

    def current_player(self) -> int:
        core = self.core
        if core is None:
            return int(pyspiel.PlayerId.CHANCE)
        if core.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return core.seat

    def is_terminal(self) -> bool:
        return self.core is not None and self.core.over

    def _legal_actions(self, player: int) -> list[int]:
        core = self.core
        if core is None or core.over or player != core.seat:
            return []
        return core.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        probability = 1.0 / NUM_SEEDS
        return [(seed, probability) for seed in range(NUM_SEEDS)]

    def _apply_action(self, action: int) -> None:
        if self.core is None:
            # the engine's game: OpenSpiel pickles states (the core's are not picklable)
            self.core = UnoCore(self.players, self.rules, max_steps=self.max_steps,
                                native=False)
            self.core.copy_history = False
            self.core.reset(int(action))
            self.logs = [recall(b"", _event_text(self.core.game.view(seat)))
                         for seat in range(self.players)]
            return
        core = self.core
        if core.steps % 64 == 0:
            _check_depth()
        seat = core.seat
        core.step(int(action))
        if action == NO_REACTION and seat >= 0:
            self.logs[seat] = recall(self.logs[seat], "no reaction")
        self._log(core.events)

    def _log(self, events: list[Event]) -> None:
        logs = self.logs
        for seat in range(len(logs)):
            for event in events:
                logs[seat] = recall(logs[seat], _event_text(event.for_seat(seat)))

    def returns(self) -> list[float]:
        core = self.core
        if core is None or not core.over:
            return [0.0] * self.players
        return list(core.returns)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        return ACTION_NAMES[action]

    def __str__(self) -> str:
        if self.core is None:
            return "chance: the seed of the deal"
        return json.dumps(self.core.game.position(), sort_keys=True)

    # ---------------------------------------------------------------- search

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> UnoState:
        """A state with the same information state for ``player_id``, the cards it cannot
        see dealt again at random (seeded from ``probability_sampler``)."""
        state = UnoState(self.get_game())
        if self.core is None:
            return state
        rng = random.Random(int(probability_sampler() * 2**52))
        state.core = self.core.resample(player_id, rng)
        state.logs = [self.logs[player_id] if seat == player_id
                      else recall(b"", _event_text(state.core.game.view(seat)))
                      for seat in range(self.players)]
        return state

    def info_state_text(self, player: int) -> str:
        if self.core is None:
            return "chance"
        return self.logs[player].hex() + "\n" + _event_text(self.core.game.view(player))

    def observation_text(self, player: int) -> str:
        if self.core is None:
            return "chance"
        return _event_text(self.core.game.view(player))

    def observation_array(self, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        if self.core is None:
            return np.zeros(SIZE, dtype=np.float32)
        return self.core.observe(player)


class UnoObserver:
    """OpenSpiel's observer: the observation array and the current view as text."""

    def __init__(self) -> None:
        self.tensor = np.zeros(SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: UnoState, player: int) -> None:
        self.tensor[:] = state.observation_array(player)

    def string_from(self, state: UnoState, player: int) -> str:
        return state.observation_text(player)


class UnoInfoStateObserver:
    """The information-state observer: text only (perfect recall). There is no
    information-state tensor: asking for one raises (it used to be an empty list)."""

    def __init__(self) -> None:
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: UnoState, player: int) -> None:
        raise NotImplementedError(
            "python_unogame provides no information_state_tensor (a perfect-recall tensor "
            "of a round of any length has no fixed size): use observation_tensor (the "
            "observation of docs/ENV.md, which holds the seat's memory) or "
            "information_state_string")

    def string_from(self, state: UnoState, player: int) -> str:
        return state.info_state_text(player)


pyspiel.register_game(_GAME_TYPE, UnoGame)


class PlayoutEvaluator:
    """An IS-MCTS evaluator (OpenSpiel's ``Evaluator`` interface: ``evaluate`` and
    ``prior``): a fast random playout of the engine (``unogame.engine.playout``, plays
    before voluntary draws) for at most ``max_moves`` moves; a cut-off playout scores the
    seat with the fewest cards as the winner. Uniform priors."""

    def __init__(self, seed: int = 0, max_moves: int = 200) -> None:
        self.rng = random.Random(seed)
        self.max_moves = max_moves

    def evaluate(self, state: UnoState) -> np.ndarray[Any, np.dtype[np.float64]]:
        core = state.core
        players = state.players
        if core is None:
            return np.zeros(players)
        if core.over:
            return np.array(core.returns)
        game = core.game.copy()
        assert isinstance(game, Game)  # OpenSpiel's cores play the engine's game
        moves = 0
        while game.winner is None and moves < self.max_moves:
            moves += random_step(game, self.rng)
        sizes = game.hand_sizes()
        winner = game.winner if game.winner is not None else min(range(players),
                                                                   key=sizes.__getitem__)
        loss = -1.0 / (players - 1)
        return np.array([1.0 if seat == winner else loss for seat in range(players)])

    def prior(self, state: UnoState) -> list[tuple[int, float]]:
        actions = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]
