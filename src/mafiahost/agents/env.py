"""A PettingZoo AEC environment for every rule set: ``mafiahost.agents.env(ruleset=…)``.

Agents are the seats (their names). A phase is played in rounds: every seat with a legal
move or vote this phase takes a turn in seating order; a turn sends one move or vote, or
passes (action 0). A seat votes at most once a phase here (a forum's vote changes are not
offered); a seat that sent something comes round again (at most ``turns`` turns a phase);
one that passed, or has nothing left, is done for the phase. When everybody is
done the engine resolves the phase and the next one opens. Seats stay agents until the
game ends (the dead may still act where the rules say so), then every agent is terminated
with its reward: +1 when its faction (or, for a single, its role) is among the winners, -1
otherwise, 0 for all when nobody won; a game longer than ``max_phases`` is truncated.

The observation is a dict: ``observation`` (a float32 vector, layout in ``docs/agents.md``)
made only from the events the seat was told, and ``action_mask`` (int8) of the legal
actions (``Codec``) — the engine's ``Game.legal_moves`` and vote check. ``env.observe_json(
agent)`` gives the same JSON observation as the player API. ``random_action(observation,
rng)`` is a random agent: a uniform choice among the mask's legal actions.

The class here is a thin shell (PettingZoo's ``AECEnv`` is a Python class, which a compiled
class cannot inherit from): the work of every step is in ``agents/core.py``, compiled with
the engine.
"""

from __future__ import annotations

import sys
import types
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine.game import Game, TargetPools
from ..rules import load
from ..sim import NAMES
from .core import MAX_NUMBER, Board, Core, Knowledge, random_action
from .observation import observation as json_observation

__all__ = ["MAX_NUMBER", "Board", "Knowledge", "MafiaEnv", "env", "random_action", "raw_env"]


class MafiaEnv(AECEnv):
    """One game of a rule set as a PettingZoo AEC environment (see the module's text)."""

    metadata = {"name": "mafiahost_v1", "render_modes": ["ansi", "human"],
                "is_parallelizable": False}

    def __init__(self, ruleset: str = "vanilla", players: Any = 12, seed: int | None = None,
                 options: dict | None = None, mafia: int | None = None,
                 max_phases: int = 200, turns: int = 4, render_mode: str | None = None):
        super().__init__()
        self.rules = load(ruleset, options)
        if isinstance(players, int):
            names = NAMES[:players] if players <= len(NAMES) else \
                [f"P{i + 1}" for i in range(players)]
        else:
            names = [str(p) for p in players]
        self.possible_agents = list(names)
        self.agents = list(names)
        self.mafia = mafia
        self.max_phases = max_phases
        self.turns = turns
        self.render_mode = render_mode
        self._first_seed = 0 if seed is None else int(seed)
        self._next_seed = self._first_seed
        core = self.core = Core(self, self.rules, self.possible_agents, mafia, max_phases,
                                turns)
        # a turn goes straight into the compiled core (no Python frame of this class's own
        # on the way): ``step`` and ``observe`` are the core's, set on the instance
        self.step = core.step
        self.observe = core.observe
        self.codec = core.codec
        self.role_index = core.role_index
        self.faction_index = core.faction_index
        self.layout = core.layout
        pos = self.layout["size"]
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, shape=(pos,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(self.codec.size,), dtype=np.int8)})
        self.observation_spaces = {a: obs_space for a in names}
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in names}
        self._started = False

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # the game's state, kept by the core
    @property
    def game(self) -> Game | None:
        return self.core.game if self._started else None

    @property
    def voted(self) -> set[str]:
        return self.core.voted

    # ---- the game ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._next_seed = int(seed)
        gseed = self._next_seed
        self._next_seed += 1
        self.seed_used = gseed
        core = self.core
        core.reset(gseed)
        self._started = True
        # the core's own lists and dicts: it changes them in place (also as done agents
        # step and leave, ``Core.dead_step``)
        self.agents = core.agents
        self.rewards = core.rewards
        self._cumulative_rewards = core.cumulative
        self.terminations = core.terminations
        self.truncations = core.truncations
        self.infos = core.infos
        self.agent_selection = core.selection

    def legal_of(self, seat: str):
        """(legal moves, legal votes) of ``seat`` now (``Game.legal_moves``)."""
        core = self.core
        core.legal(seat)
        return [(aid, ts) for aid, got in core.cur_moves
                for ts in (got.tuples() if isinstance(got, TargetPools) else got)], \
            core.cur_votes

    def step(self, action) -> None:
        """A turn (``Core.step``; the instance's own ``step`` is the core's)."""
        self.core.step(action)

    # ---- what a seat sees ----------------------------------------------------------------
    def observe(self, agent):
        """The seat's observation (``Core.observe``; the instance's own ``observe`` is
        the core's)."""
        return self.core.observe(agent)

    def vector_from_scratch(self, agent: str) -> np.ndarray:
        """The seat's vector made in one pass over the whole log, as a check of the one
        kept up to date step by step (``observe``): the two are always equal."""
        return self.core.vector_from_scratch(agent)

    def observe_json(self, agent: str, texts: bool = False) -> dict:
        """The same observation as the player API gives (``docs/agents.md``)."""
        return json_observation(self.core.game, agent, texts=texts)

    def render(self):
        g = self.game
        if g is None:
            return None
        st = g.state
        line = f"{st.phase} {st.number}: " + ", ".join(
            f"{p.name}{'' if p.alive else '†'}" for p in st.order)
        if self.render_mode == "human":
            print(line)
            return None
        return line

    def close(self) -> None:
        pass


def raw_env(**kw) -> MafiaEnv:
    return MafiaEnv(**kw)


def env(**kw):
    """``env(ruleset=…, players=…, seed=…)``: the AEC environment with PettingZoo's
    order-enforcing wrapper (as PettingZoo's own environments are given)."""
    e = raw_env(**kw)
    return wrappers.OrderEnforcingWrapper(e)


class _CallableModule(types.ModuleType):
    """This module, callable as ``env``: importing ``mafiahost.agents.env`` (for
    ``raw_env``, say) makes the package's attribute ``env`` this module instead of the
    package's function ``env``, so ``from mafiahost.agents import env; env(...)`` still
    works whichever was imported first."""

    def __call__(self, **kw):
        return env(**kw)


sys.modules[__name__].__class__ = _CallableModule
