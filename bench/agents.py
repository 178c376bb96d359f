"""The PettingZoo environment's cost against the engine's own random player.

For each rule set, the same games (rule set, 12 seats, seeds 0..G-1) are played twice in
one run: by ``mafiahost.sim.play_game`` (the engine's random player) and through
``mafiahost.agents.env`` with random agents (each turn: observe, then a uniform choice among
the legal actions of the mask). Reported per game and per phase, and the ratio of the two
per-phase times (the goal: at most 2x).

The noise of a shared machine is taken out game by game: each game is played ``--repeat``
times on each side, the two sides alternating, and each game's best time counts (a game
takes milliseconds, so most of its plays run undisturbed). The clock is this process's CPU
time (``time.process_time``: both sides run in this one thread, and the time other
programs hold the cores does not count), or the wall clock with ``--wall``.
``--quick`` plays fewer games (CI); ``--strict`` exits 1 when a ratio is over the limit.

    python bench/agents.py [--games G] [--repeat R] [--quick] [--strict] [--wall]
                           [--ruleset ID ...]
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
clock = time.process_time


def engine_game(ruleset: str, seed: int) -> tuple[float, int]:
    """One game by the engine's random player: (time, phases)."""
    t = clock()
    g = play_game(new_random_game(ruleset, 12, seed), seed)
    t = clock() - t
    return t, sum(1 for e in g.events if e.type == "phase_started")


def env_game(e, seed: int) -> tuple[float, int]:
    """The same seat count and seed through the environment with random agents."""
    t = clock()
    rng = random.Random(seed)
    e.reset(seed=seed)
    while e.agents:
        a = e.agent_selection
        if e.terminations[a] or e.truncations[a]:
            e.step(None)
            continue
        mask = e.observe(a)["action_mask"]
        legal = mask.nonzero()[0]
        e.step(int(legal[int(rng.random() * len(legal))]))
    t = clock() - t
    return t, sum(1 for ev in e.game.events if ev.type == "phase_started")


def measure(ruleset: str, seeds, repeat: int) -> tuple[float, int, float, int]:
    """(engine time, engine phases, env time, env phases), each game's best of
    ``repeat`` plays."""
    e = raw_env(ruleset=ruleset, players=12)
    engine_game(ruleset, 0)
    env_game(e, 0)                      # warm: the rule set loaded, caches made
    te = tv = 0.0
    pe = pv = 0
    for s in seeds:
        be = bv = float("inf")
        for _ in range(repeat):
            t, pe_s = engine_game(ruleset, s)
            be = min(be, t)
            t, pv_s = env_game(e, s)
            bv = min(bv, t)
        te += be
        tv += bv
        pe += pe_s
        pv += pv_s
    return te, pe, tv, pv


def main(argv=None) -> int:
    global clock
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--wall", action="store_true", help="time by the wall clock")
    ap.add_argument("--ruleset", nargs="*")
    a = ap.parse_args(argv)
    clock = time.perf_counter if a.wall else time.process_time
    games = 20 if a.quick else a.games
    seeds = range(games)
    rulesets = a.ruleset or available()
    print(f"{'ruleset':14} {'engine ms/game':>14} {'env ms/game':>12} "
          f"{'engine ms/phase':>15} {'env ms/phase':>13} {'ratio/phase':>11}")
    worst = 0.0
    for r in rulesets:
        te, pe, tv, pv = measure(r, seeds, a.repeat)
        ratio = (tv / pv) / (te / pe)
        worst = max(worst, ratio)
        print(f"{r:14} {te / games * 1000:14.2f} {tv / games * 1000:12.2f} "
              f"{te / pe * 1000:15.3f} {tv / pv * 1000:13.3f} {ratio:11.2f}")
        sys.stdout.flush()
    print(f"worst ratio {worst:.2f} (limit {LIMIT}: "
          f"{'within' if worst <= LIMIT else 'OVER'}; "
          f"{'wall clock' if a.wall else 'CPU time'}, best of {a.repeat} per game)")
    return 0 if worst <= LIMIT or not a.strict else 1


if __name__ == "__main__":
    sys.exit(main())
