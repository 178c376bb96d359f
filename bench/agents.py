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

``--instructions`` counts instead, with valgrind's callgrind, the instructions each side
costs per phase (a run of G games minus a run of none, in fresh processes, the same
games as above): a reading that the machine's load does not change, for comparing two
versions of the code.

    python bench/agents.py [--games G] [--repeat R] [--quick] [--strict] [--wall]
                           [--instructions] [--ruleset ID ...]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from mafiahost.agents.env import raw_env  # noqa: E402
from mafiahost.rules import available  # noqa: E402
from mafiahost.sim import new_random_game, play_game  # noqa: E402

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


def drive(side: str, ruleset: str, games: int) -> None:
    """One side's games in this process (after one warm-up game outside the count, so a
    run of none pays the same loading): prints the phases played, as JSON."""
    e = raw_env(ruleset=ruleset, players=12)
    engine_game(ruleset, 0) if side == "engine" else env_game(e, 0)
    phases = 0
    for s in range(games):
        phases += (engine_game(ruleset, s) if side == "engine" else env_game(e, s))[1]
    print(json.dumps({"phases": phases}))


def _callgrind(side: str, ruleset: str, games: int) -> tuple[int, int]:
    """(instructions, phases) of a fresh process playing ``games`` games of one side."""
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, PYTHONHASHSEED="0")
        cmd = [sys.executable, str(Path(__file__).resolve()), "--drive", side,
               "--ruleset", ruleset, "--games", str(games)]
        p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={d}/out",
                            *cmd], capture_output=True, text=True, env=env)
        if p.returncode != 0:
            raise RuntimeError(p.stderr[-2000:])
        m = re.search(r"Collected : (\d+)", p.stderr)
        if m is None:
            raise RuntimeError("callgrind printed no count:\n" + p.stderr[-2000:])
        return int(m.group(1)), json.loads(p.stdout.strip().splitlines()[-1])["phases"]


def instructions(ruleset: str, games: int) -> tuple[float, float, int, int]:
    """(engine, env) instructions per phase and the phases each side played."""
    out: list = []
    for side in ("engine", "env"):
        base, _ = _callgrind(side, ruleset, 0)
        full, phases = _callgrind(side, ruleset, games)
        out.append(((full - base) / phases, phases))
    return out[0][0], out[1][0], out[0][1], out[1][1]


def main_instructions(rulesets, games: int, strict: bool) -> int:
    print(f"{'ruleset':14} {'engine M/game':>13} {'env M/game':>11} "
          f"{'engine k/phase':>14} {'env k/phase':>12} {'ratio/phase':>11}")
    worst = 0.0
    for r in rulesets:
        ie, iv, pe, pv = instructions(r, games)
        ratio = iv / ie
        worst = max(worst, ratio)
        print(f"{r:14} {ie * pe / games / 1e6:13.2f} {iv * pv / games / 1e6:11.2f} "
              f"{ie / 1e3:14.1f} {iv / 1e3:12.1f} {ratio:11.2f}")
        sys.stdout.flush()
    print(f"worst ratio {worst:.2f} (limit {LIMIT}: "
          f"{'within' if worst <= LIMIT else 'OVER'}; callgrind instructions, {games} games)")
    return 0 if worst <= LIMIT or not strict else 1


def main(argv=None) -> int:
    global clock
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--wall", action="store_true", help="time by the wall clock")
    ap.add_argument("--ruleset", nargs="*")
    ap.add_argument("--instructions", action="store_true",
                    help="count callgrind instructions per phase instead of timing")
    ap.add_argument("--drive", choices=("engine", "env"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    clock = time.perf_counter if a.wall else time.process_time
    games = 20 if a.quick else a.games
    if a.drive:
        drive(a.drive, a.ruleset[0], a.games)
        return 0
    if a.instructions:
        return main_instructions(a.ruleset or available(), games, a.strict)
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
