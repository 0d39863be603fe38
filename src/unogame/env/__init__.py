"""Environments for reinforcement learning with the full rules (extra ``[rl]``).

- :mod:`unogame.env.uno_v0`: PettingZoo AEC environment (2-10 players, any rules).
- :class:`SingleAgentUno`: Gymnasium environment, one seat learning against bots.
- :mod:`unogame.env.openspiel_game`: the OpenSpiel game ``python_unogame`` (extra
  ``[openspiel]``).

Actions and observations are documented in docs/ENV.md.
"""

from . import uno_v0
from .actions import ACTION_NAMES, NO_REACTION, NUM_ACTIONS, action_to_move, move_to_action
from .core import UnoCore
from .gym_env import SingleAgentUno

__all__ = ["ACTION_NAMES", "NO_REACTION", "NUM_ACTIONS", "SingleAgentUno", "UnoCore",
           "action_to_move", "move_to_action", "uno_v0"]
