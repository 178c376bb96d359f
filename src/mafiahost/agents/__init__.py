"""Seats that programs play: one observation per seat, a PettingZoo environment, bots.

``observation(game, seat)`` (``agents.observation``), ``env(ruleset=…, players=…, seed=…)``
(``agents.env``, needs the ``agents`` extra: PettingZoo, Gymnasium, NumPy), ``get_bot(name)``
(``agents.bots``: ``random`` and ``sensible``), ``random_action(observation, rng)`` (a random
agent for the environment). See ``docs/agents.md``.
"""

from __future__ import annotations

from .observation import SCHEMA, observation


def env(**kw):
    """The PettingZoo AEC environment (``mafiahost.agents.env.env``)."""
    from .env import env as make
    return make(**kw)


def random_action(mask, rng) -> int:
    """A uniform choice among an observation's legal actions
    (``mafiahost.agents.core.random_action``)."""
    from .core import random_action as choose
    return choose(mask, rng)


def get_bot(name: str):
    from .bots import get_bot as get
    return get(name)


__all__ = ["SCHEMA", "env", "get_bot", "observation", "random_action"]
