"""Whole games by random legal moves: the demo, the soak tests and the benchmarks.

The random player draws each move from the engine's legal-move generator
(``Game.random_legal_targets``: one of ``Game.legal_targets``, the list behind
``Game.legal_moves``) and records it as ``submit``
would, so a simulated game is a real game with a real event log; nothing is tried and
refused.
"""

from __future__ import annotations

import random

from .engine.errors import Refused
from .engine.game import Game
from .rules import load
from .rules.setup import deal

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Иван", "Кира",
         "Лев", "Мила", "Нина", "Олег", "Пётр", "Рита", "Семён", "Таня", "Ульяна", "Фёдор"]


def new_random_game(ruleset: str, players: int, seed: int, options=None,
                    mafia: int | None = None) -> Game:
    rules = load(ruleset, options)
    names = NAMES[:players] if players <= len(NAMES) else [f"P{i + 1}" for i in range(players)]
    return Game(rules, deal(rules, names, seed, mafia), seed=seed)


def play_phase(g: Game, rng: random.Random) -> None:
    """Random legal moves for the current phase (no resolve). ``rng`` is the random
    players' own generator, not the game's dice."""
    s = g.state
    alive = s.living()
    n = len(alive)
    rnd = rng.random
    if s.phase == "day":
        day = g.rules.day
        aa = day.against_all == "every_day" or (day.against_all == "first_day" and s.number == 1)
        for p in alive:
            r = rnd()
            if r < 0.05:
                continue
            target = "against_all" if aa and r < 0.1 else alive[int(rnd() * n)].name
            try:
                g.vote(p.name, target)
            except Refused:
                pass
    by_phase = g.rules.by_phase
    phase = s.phase
    why_not_actor = g.why_not_actor
    draw = g.random_legal_targets
    for p in s.order:
        abilities = by_phase[p.role][phase]
        if not abilities or (not p.alive and not any(ab.while_dead for ab in abilities)):
            continue
        for ab in abilities:
            if rnd() < 0.1 or why_not_actor(p, ab) is not None:
                continue
            ts = draw(p, ab, rnd)
            if ts is not None:
                g.record(p, ab, ts)


def play_game(g: Game, seed: int, max_phases: int = 200) -> Game:
    rng = random.Random(seed)
    phases = 0
    while not g.state.over and phases < max_phases:
        play_phase(g, rng)
        g.resolve()
        phases += 1
    return g
