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
* ``sensible`` — the bots of ``mafiahost.agents`` when that package provides them, else the
  fallback below: killers never aim at their own side, protectors protect someone else,
  checkers check someone they have not checked, the mafia vote for a non-mafioso, and the
  town votes for a player its own check results showed guilty, else at random.
"""

from __future__ import annotations

import random
from typing import Protocol

from ..engine.errors import Refused
from ..engine.game import Game
from ..sim import against_all_today, random_moves, random_vote


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


class SensiblePolicy:
    """A minimal sensible player (used when ``mafiahost.agents`` has no such bot).

    Killers (an ability with a kill effect) aim outside their own faction; protectors
    (protect/heal effects) protect someone other than themselves; checkers check someone
    they have not checked yet; every other ability is used on a random legal target. By
    day the mafia (any criminal side that knows its members) vote for a player outside
    their faction, and everyone else votes for a player his own check results showed
    guilty, if one is alive, else for a random living player other than himself."""

    name = "sensible"

    def moves(self, game: Game, seat: str, rng: random.Random) -> None:
        s = game.state
        p = s.players[seat]
        if s.phase == "day" and p.alive:
            target = self._vote(game, seat, rng)
            if target is not None:
                try:
                    game.vote(seat, target)
                except Refused:
                    pass
        checked = _checked_by(game, seat)
        for aid, moves in _grouped(game, seat).items():
            spec = game.rules.abilities.get(f"{p.role}.{aid}")
            kinds = {e.mechanic for e in spec.effects} if spec is not None else set()
            pool = moves
            if any("kill" in k or "shoot" in k for k in kinds):
                pool = _targets_outside(game, seat, moves)
            elif any("protect" in k or "heal" in k or "guard" in k for k in kinds):
                pool = [mv for mv in moves if seat not in mv[1]] or moves
            elif any("check" in k for k in kinds):
                pool = [mv for mv in moves if not set(mv[1]) & checked] or moves
            ab, ts = pool[int(rng.random() * len(pool))]
            _send(game, seat, ab, ts)

    @staticmethod
    def _vote(game: Game, seat: str, rng: random.Random) -> str | None:
        s = game.state
        me = s.players[seat]
        alive = [q for q in s.order if q.alive]
        fac = game.rules.factions[me.faction]
        if fac.knows_members and fac.side != "town":
            pool = [q for q in alive if q.faction != me.faction]
        else:
            guilty = _found_guilty(game, seat)
            pool = [q for q in alive if q.name in guilty] \
                or [q for q in alive if q.name != seat]
        if not pool:
            return None
        return pool[int(rng.random() * len(pool))].name


def _checked_by(game: Game, seat: str) -> set[str]:
    return {ev.data.get("target") for ev in game.events
            if ev.type == "check_result" and ev.data.get("to") == seat}


def _found_guilty(game: Game, seat: str) -> set[str]:
    """Players this seat's own check results named as a non-town faction or role."""
    rules = game.rules
    out = set()
    for ev in game.events:
        if ev.type != "check_result" or ev.data.get("to") != seat:
            continue
        r = ev.data.get("result")
        fac = rules.factions.get(r) if isinstance(r, str) else None
        if fac is None and isinstance(r, str) and r in rules.roles:
            fac = rules.factions[rules.roles[r].faction]
        if fac is not None and fac.side != "town":
            out.add(ev.data.get("target"))
    return out


POLICIES = ("random", "sensible", "uniform")


def make_policy(name: str) -> Policy:
    """A fresh policy object by name (one per game or batch; policies may keep state)."""
    if name == "uniform":
        return UniformPolicy()
    if name == "random":
        return RandomPolicy()
    if name == "sensible":
        bot = _agents_policy("sensible")
        return bot if bot is not None else SensiblePolicy()
    raise Refused(f"Нет стратегии «{name}»; есть: {', '.join(POLICIES)}.",
                  f"There is no policy '{name}'; the policies are: {', '.join(POLICIES)}.")


def _agents_policy(name: str):
    """A bot from ``mafiahost.agents`` (issue 14), when that package is installed."""
    try:
        from .. import agents  # type: ignore[attr-defined]
    except ImportError:
        return None
    get = getattr(agents, "get_bot", None) or getattr(agents, "bot", None)
    if get is None:
        return None
    return get(name)
