"""PettingZoo's order-enforcing wrapper, with the attributes read at every step forwarded
directly.

:class:`~pettingzoo.utils.wrappers.OrderEnforcingWrapper` reaches the wrapped env's
``agent_selection``, ``agents``, ``terminations``, ``truncations``, ``infos``, ``rewards``
and ``_cumulative_rewards`` through ``__getattr__``, which Python calls only after the
ordinary lookup has failed and raised an ``AttributeError``: about eight of them per step
of the AEC loop, which cost more than the step itself. :class:`OrderEnforcing` is that
wrapper (a subclass: the same checks, errors and warnings) with these names as properties
and ``step()`` and ``last()`` handed to the wrapped env once it has been reset.

>>> from unogame.env import uno_v0
>>> env = uno_v0.env(players=2)
>>> env.agents
Traceback (most recent call last):
...
AttributeError: agents cannot be accessed before reset
>>> env.reset(seed=1)
>>> env.agents, isinstance(env, OrderEnforcingWrapper)
(['player_0', 'player_1'], True)
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.wrappers import OrderEnforcingWrapper

FORWARDED = ("agent_selection", "agents", "terminations", "truncations", "infos", "rewards",
             "_cumulative_rewards")
"""The wrapped env's attributes read through properties (the AEC loop reads them)."""


def _forwarded(name: str) -> property:
    def read(self: OrderEnforcing) -> Any:
        if self._has_reset:
            return getattr(self.env, name)
        return self.__getattr__(name)  # the wrapper's "cannot be accessed before reset"

    def write(self: OrderEnforcing, value: Any) -> None:
        setattr(self.env, name, value)

    return property(read, write, doc=f"The wrapped env's ``{name}``.")


class OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]
    """:class:`OrderEnforcingWrapper` without ``__getattr__`` on the AEC loop's path."""

    agent_selection = _forwarded("agent_selection")
    agents = _forwarded("agents")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")
    rewards = _forwarded("rewards")
    _cumulative_rewards = _forwarded("_cumulative_rewards")

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:  # else the wrapper's errors and warnings
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:  # the wrapper's own errors
            return super().last(observe)  # type: ignore[no-any-return]
        return self.env.last(observe)  # type: ignore[no-any-return]
