"""The PettingZoo environment's cost against the engine's own random player.

For each rule set, the same games (rule set, 12 seats, seeds 0..G-1) are played twice in
one run: by ``mafiahost.sim.play_game`` (the engine's random player) and through
``mafiahost.agents.env`` with random agents (each turn: observe, then a uniform choice among
the legal actions of the mask). Reported per game and per phase, and the ratio of the two
per-phase times (the goal: at most 2x). Each side is timed ``--repeat`` times, alternating,
and the best time counts (the usual way to take out the noise of a shared machine).
``--quick`` plays fewer games (CI); ``--strict`` exits 1 when a ratio is over the limit.

    python bench/agents.py [--games G] [--repeat R] [--quick] [--strict] [--ruleset ID ...]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from mafiahost.agents.env import raw_env
from mafiahost.rules import available
from mafiahost.sim import new_random_game, play_game

LIMIT = 2.0


def engine_games(ruleset: str, seeds) -> tuple[float, int]:
    phases = 0
    t = time.perf_counter()
    for s in seeds:
        g = play_game(new_random_game(ruleset, 12, s), s)
        phases += sum(1 for e in g.events if e.type == "phase_started")
    return time.perf_counter() - t, phases


def env_games(ruleset: str, seeds) -> tuple[float, int]:
    e = raw_env(ruleset=ruleset, players=12)
    phases = 0
    t = time.perf_counter()
    for s in seeds:
        rng = random.Random(s)
        e.reset(seed=s)
        while e.agents:
            a = e.agent_selection
            if e.terminations[a] or e.truncations[a]:
                e.step(None)
                continue
            mask = e.observe(a)["action_mask"]
            legal = mask.nonzero()[0]
            e.step(int(legal[int(rng.random() * len(legal))]))
        phases += sum(1 for ev in e.game.events if ev.type == "phase_started")
    return time.perf_counter() - t, phases


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--ruleset", nargs="*")
    a = ap.parse_args(argv)
    games = 20 if a.quick else a.games
    seeds = range(games)
    rulesets = a.ruleset or available()
    print(f"{'ruleset':14} {'engine ms/game':>14} {'env ms/game':>12} "
          f"{'engine ms/phase':>15} {'env ms/phase':>13} {'ratio/phase':>11}")
    worst = 0.0
    for r in rulesets:
        te = tv = float("inf")
        for _ in range(a.repeat):
            t, pe = engine_games(r, seeds)
            te = min(te, t)
            t, pv = env_games(r, seeds)
            tv = min(tv, t)
        ratio = (tv / pv) / (te / pe)
        worst = max(worst, ratio)
        print(f"{r:14} {te / games * 1000:14.2f} {tv / games * 1000:12.2f} "
              f"{te / pe * 1000:15.3f} {tv / pv * 1000:13.3f} {ratio:11.2f}")
    print(f"worst ratio {worst:.2f} (limit {LIMIT}: "
          f"{'within' if worst <= LIMIT else 'OVER'})")
    return 0 if worst <= LIMIT or not a.strict else 1


if __name__ == "__main__":
    sys.exit(main())
