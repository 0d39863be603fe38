"""Doctests of this package need its extras; skip the modules whose libraries are missing."""

from importlib.util import find_spec

collect_ignore = [
    name for name, needs in [("openspiel_game.py", "pyspiel"), ("policy.py", "sb3_contrib"),
                             ("ppo_policy.py", "sb3_contrib")]
    if find_spec(needs) is None
]
if find_spec("pettingzoo") is None or find_spec("gymnasium") is None:
    collect_ignore += ["__init__.py", "uno_v0.py", "gym_env.py", "actions.py", "core.py",
                       "observation.py", "reaction.py", "render.py"]
