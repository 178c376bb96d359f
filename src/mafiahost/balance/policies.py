"""How the simulated players play: one policy object per game, asked seat by seat.

A policy is any object with ``moves(game, seat_name, rng) -> None`` that sends that seat's
votes and moves for the current phase through the engine's own commands (``vote``,
``submit``/``record``), exactly as a host would record them; ``rng`` is the players'
generator (never the game's dice). The simulation asks every seat in seating order each
phase, then resolves the phase. A bot from ``mafiahost.agents`` plugs in the same way.

* ``uniform`` — the model of the exact tables: every lynch falls on a uniformly random
  living player (everyone votes for one player drawn uniformly), and every move (night,
  or a day ability) picks uniformly among its legal targets outside the actor's own
  faction (among all legal targets when every legal one is inside it). Every player
  always acts. For ``vanilla`` this is Migdał's model, so simulation meets the exact
  answer there (``tests/test_balance_sim.py``).
* ``random`` — ``mafiahost.sim``'s random player: votes for a random living player
  (5% no vote, 5% 'against all' where allowed), uses each ability 90% of the time on
  random living targets, own side included.
* ``sensible`` — ``mafiahost.agents``' sensible bot (``get_bot("sensible")``): killers never
  aim at their own side and prefer the players their checks showed guilty, protectors
  protect others, checkers check someone unchecked, a team that knows its members votes for
  a non-member, the town votes for a player its own results show guilty, else at random
  among the others. It knows only what its seat was told (``Game.view``).
"""

from __future__ import annotations

import random
from typing import Protocol

from ..engine.day import against_all_today
from ..engine.errors import Refused
from ..engine.game import Game
from ..sim import random_moves, random_vote


class Policy(Protocol):
    def moves(self, game: Game, seat: str, rng: random.Random) -> None: ...


class RandomPolicy:
    """``mafiahost.sim``'s random player, one seat at a time."""

    name = "random"

    def moves(self, game: Game, seat: str, rng: random.Random) -> None:
        s = game.state
        p = s.players[seat]
        if s.phase == "day" and p.alive:
            random_vote(game, p, s.living(), against_all_today(game), rng.random)
        random_moves(game, p, rng.random)


def _seats(game: Game, ts) -> list:
    """The players a move names (a role-naming move also carries a role id)."""
    players = game.state.players
    return [players[t] for t in ts if isinstance(t, str) and t in players]


def _targets_outside(game: Game, seat: str, moves):
    """Split legal moves into those with every target outside the actor's faction."""
    own = game.state.players[seat].faction
    out = [mv for mv in moves if all(q.faction != own for q in _seats(game, mv[1]))]
    return out or list(moves)


def _grouped(game: Game, seat: str) -> dict[str, list]:
    """The seat's legal moves by ability (answers to open questions under ``answer``)."""
    by_ability: dict[str, list] = {}
    for ab, ts in game.legal_moves(seat):
        by_ability.setdefault(ab, []).append((ab, ts))
    return by_ability


def _send(game: Game, seat: str, ab: str, ts) -> None:
    try:
        if ab == "answer":
            game.answer(seat, *ts)
        else:
            game.submit(seat, ab, ts)
    except Refused:
        pass          # an earlier move this phase filled the slot


class UniformPolicy:
    """The uniform model: one uniformly random lynch a day, uniform moves at others."""

    name = "uniform"

    def __init__(self) -> None:
        self._day: tuple | None = None     # (game, phase index, the day's target)

    def lynch_target(self, game: Game, rng: random.Random) -> str:
        s = game.state
        if self._day is None or self._day[0] is not game or self._day[1] != s.idx:
            alive = [q.name for q in s.order if q.alive]
            self._day = (game, s.idx, alive[int(rng.random() * len(alive))])
        return self._day[2]

    def moves(self, game: Game, seat: str, rng: random.Random) -> None:
        s = game.state
        p = s.players[seat]
        if s.phase == "day" and p.alive:
            try:
                game.vote(seat, self.lynch_target(game, rng))
            except Refused:
                pass
        _uniform_moves(game, seat, rng)


def _uniform_moves(game: Game, seat: str, rng: random.Random) -> None:
    for ab, moves in _grouped(game, seat).items():
        pool = moves if ab == "answer" else _targets_outside(game, seat, moves)
        ab, ts = pool[int(rng.random() * len(pool))]
        _send(game, seat, ab, ts)


POLICIES = ("random", "sensible", "uniform")


def make_policy(name: str) -> Policy:
    """A fresh policy object by name (one per game; policies may keep state)."""
    if name == "uniform":
        return UniformPolicy()
    if name == "random":
        return RandomPolicy()
    if name == "sensible":
        from ..agents import get_bot  # issue 14's bots: the one sensible player
        return get_bot("sensible")
    raise Refused(f"Нет стратегии «{name}»; есть: {', '.join(POLICIES)}.",
                  f"There is no policy '{name}'; the policies are: {', '.join(POLICIES)}.")
