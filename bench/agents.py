"""The PettingZoo environment's cost against the engine's own random player.

For each rule set, the same games (rule set, 12 seats, seeds 0..G-1) are played twice in
one run: by ``mafiahost.sim.play_game`` (the engine's random player) and through
``mafiahost.agents.env`` with random agents (each turn: observe, then a uniform choice among
the legal actions of the mask, ``agents.random_action``). Reported per game and per phase,
and the ratio of the two per-phase times (the goal: at most 2x).

The noise of a shared machine is taken out game by game: each game is played ``--repeat``
times on each side, the two sides alternating, and each game's best time counts (a game
takes milliseconds, so most of its plays run undisturbed). The clock is this process's CPU
time (``time.process_time``: both sides run in this one thread, and the time other
programs hold the cores does not count), or the wall clock with ``--wall``.
``--quick`` plays fewer games (CI); ``--strict`` exits 1 when a ratio is over the limit.
A full run (without ``--quick``) writes its section of ``docs/performance.md``
(``<!-- bench:agents -->``): the times, and with ``--instructions`` the instruction counts
too (both measured in that run).

After the warm-up each side's process makes one full collection of the garbage collector
(``gc.collect()``), so the games start with its counts at zero: the objects that the imports
and the warm-up leave in its young generations are examined then, not by whichever
collection first falls among the counted games. Without it, that one collection landed in
vanilla's environment runs and not in its engine runs: 1.85 M instructions in 20 games, 9 k
of the 200 k a phase read there, a cost of the start-up. Collections the games
cause themselves still count, on both sides.

``--instructions`` counts, with valgrind's callgrind, the instructions each side costs
per phase (a run of G games minus a run of none, in fresh processes, the same games as
above): a reading that the machine's load does not change, for comparing two versions of
the code. With ``--quick`` it counts instead of timing (20 games).

    python bench/agents.py [--games G] [--repeat R] [--quick] [--strict] [--wall]
                           [--instructions] [--ruleset ID ...]
"""

from __future__ import annotations

import argparse
import gc
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

from mafiahost.agents.env import random_action, raw_env  # noqa: E402
from mafiahost.rules import available  # noqa: E402
from mafiahost.sim import new_random_game, play_game  # noqa: E402

LIMIT = 2.0
clock = time.process_time
ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "performance.md"
SECTION = "agents"
# the hand-written section this benchmark's own replaces (once: then its markers hold it)
OLD_HEADING = "## Programs' seats (`bench/agents.py`)"


def engine_game(ruleset: str, seed: int) -> tuple[float, int]:
    """One game by the engine's random player: (time, phases)."""
    t = clock()
    g = play_game(new_random_game(ruleset, 12, seed), seed)
    phases = g.state.idx           # the phases played (one a phase_started event)
    # the game freed inside the count, as the environment frees its last game in its
    # next ``reset`` (inside ``env_game``'s count): both sides pay for a game's teardown
    del g
    t = clock() - t
    return t, phases


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
        e.step(random_action(e.observe(a), rng))
    t = clock() - t
    return t, e.game.state.idx


def measure(ruleset: str, seeds, repeat: int) -> tuple[float, int, float, int]:
    """(engine time, engine phases, env time, env phases), each game's best of
    ``repeat`` plays."""
    e = raw_env(ruleset=ruleset, players=12)
    engine_game(ruleset, 0)
    env_game(e, 0)                      # warm: the rule set loaded, caches made
    gc.collect()                        # see the module's text
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
    gc.collect()                        # see the module's text
    phases = 0
    for s in range(games):
        phases += (engine_game(ruleset, s) if side == "engine" else env_game(e, s))[1]
    print(json.dumps({"phases": phases}))


def _callgrind(side: str, ruleset: str, games: int) -> tuple[int, int]:
    """(instructions, phases) of a fresh process playing ``games`` games of one side."""
    with tempfile.TemporaryDirectory() as d:
        # one BLAS thread: NumPy's idle BLAS threads would add a varying count
        env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
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


def instruction_rows(rulesets, games: int) -> list[tuple]:
    """(rule set, engine M/game, env M/game, engine k/phase, env k/phase, ratio), printed
    as they come."""
    print(f"{'ruleset':14} {'engine M/game':>13} {'env M/game':>11} "
          f"{'engine k/phase':>14} {'env k/phase':>12} {'ratio/phase':>11}")
    rows = []
    for r in rulesets:
        ie, iv, pe, pv = instructions(r, games)
        row = (r, ie * pe / games / 1e6, iv * pv / games / 1e6, ie / 1e3, iv / 1e3, iv / ie)
        rows.append(row)
        print(f"{r:14} {row[1]:13.2f} {row[2]:11.2f} {row[3]:14.1f} {row[4]:12.1f} "
              f"{row[5]:11.2f}")
        sys.stdout.flush()
    worst = max((x[5] for x in rows), default=0.0)
    print(f"worst ratio {worst:.2f} (limit {LIMIT}: "
          f"{'within' if worst <= LIMIT else 'OVER'}; callgrind instructions, {games} games)")
    return rows


def time_rows(rulesets, games: int, repeat: int, wall: bool) -> list[tuple]:
    """(rule set, engine ms/game, env ms/game, engine ms/phase, env ms/phase, ratio),
    printed as they come."""
    print(f"{'ruleset':14} {'engine ms/game':>14} {'env ms/game':>12} "
          f"{'engine ms/phase':>15} {'env ms/phase':>13} {'ratio/phase':>11}")
    rows = []
    for r in rulesets:
        te, pe, tv, pv = measure(r, range(games), repeat)
        row = (r, te / games * 1000, tv / games * 1000, te / pe * 1000, tv / pv * 1000,
               (tv / pv) / (te / pe))
        rows.append(row)
        print(f"{r:14} {row[1]:14.2f} {row[2]:12.2f} {row[3]:15.3f} {row[4]:13.3f} "
              f"{row[5]:11.2f}")
        sys.stdout.flush()
    worst = max((x[5] for x in rows), default=0.0)
    print(f"worst ratio {worst:.2f} (limit {LIMIT}: "
          f"{'within' if worst <= LIMIT else 'OVER'}; "
          f"{'wall clock' if wall else 'CPU time'}, best of {repeat} per game)")
    return rows


def section(trows, irows, games: int, igames: int, repeat: int, wall: bool) -> str:
    """This benchmark's section of docs/performance.md."""
    import mafiahost
    worst_t = max(x[5] for x in trows)
    lines = [
        OLD_HEADING,
        "",
        f"The same games (rule set, 12 seats, seeds 0–{games - 1}) played by the engine's own",
        "random player (`sim.play_game`) and through the PettingZoo environment with random",
        "agents (each turn: `observe`, then a uniform choice among the mask's legal actions, "
        "`agents.random_action`);",
        f"each game played {repeat} time{'s' if repeat != 1 else ''} on each side, "
        "alternating, its best "
        f"{'wall-clock' if wall else 'CPU'} time counted",
        f"(`python bench/agents.py --games {games} --repeat {repeat}"
        f"{' --instructions' if irows else ''}`; build: {mafiahost.BUILD}; load average "
        f"{os.getloadavg()[0]:.1f} at the end). Goal of issue 14: at most {LIMIT:g}× per phase.",
        "",
        "| rule set | engine ms/game | env ms/game | engine ms/phase | env ms/phase "
        "| ratio/phase |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r, a, b, c, d, q in trows:
        lines.append(f"| {r} | {a:.2f} | {b:.2f} | {c:.3f} | {d:.3f} | {q:.2f} |")
    lines += ["", f"Worst {worst_t:.2f}× by time ({'met' if worst_t <= LIMIT else 'not met'})."]
    if irows:
        worst_i = max(x[5] for x in irows)
        lines += [
            "",
            "By instructions (valgrind's callgrind: a fresh process playing "
            f"{igames} games minus one playing none,",
            "each side, the same seeds; a reading the machine's load does not change):",
            "",
            "| rule set | engine M/game | env M/game | engine k/phase | env k/phase "
            "| ratio/phase |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for r, a, b, c, d, q in irows:
            lines.append(f"| {r} | {a:.2f} | {b:.2f} | {c:.1f} | {d:.1f} | {q:.2f} |")
        lines += ["", f"Worst {worst_i:.2f}× by instructions "
                      f"({'met' if worst_i <= LIMIT else 'not met'})."]
    lines += [
        "",
        "Where a turn goes: the environment's per-step work (the seats' vectors kept up to",
        "date from the new events, the legal lists and mask of the seat whose turn it is,",
        "decoding and sending the action, the phase's turns) is `agents/core.py`, compiled",
        "by mypyc with the engine; `agents/env.py` is a thin PettingZoo `AECEnv` subclass",
        "whose `step` and `observe` are the core's. What remains is the engine's own work",
        "that the environment asks for and the random player does not: the whole list of",
        "legal moves and votes for every turn (`Game.legal_move_sets`, `legal_votes`),",
        "where the random player draws one move per ability without listing them (the",
        "environment's list gives a pool-made ability's targets as their pools); in",
        "singapore (22–32 abilities a seat a phase, each with its purse, stock and item",
        "checks) that list is most of the environment's phase. A list kept across turns",
        "needs to know which of a seat's moves another seat's move can change, which the",
        "rule sets' constraints do not declare. `docs/agents.md` has the details.",
        "",
        "The hidden-information check (`python -m mafiahost.agents.hidden`, every",
        "observation's events checked at every phase) plays its games through the same",
        "environment: 1,000 games a rule set in CI.",
    ]
    return "\n".join(lines)


def write_doc(text: str) -> None:
    """Write this benchmark's section (``bench/run.py``'s ``write_section``); the first
    time, in place of the hand-written section it replaces."""
    sys.path.insert(0, str(ROOT / "bench"))
    from run import write_section
    start = f"<!-- bench:{SECTION} -->"
    doc = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
    if start not in doc and OLD_HEADING in doc:
        head, rest = doc.split(OLD_HEADING, 1)
        cut = [i for i in (rest.find("\n<!-- bench:"), rest.find("\n## ")) if i >= 0]
        tail = rest[min(cut) + 1:] if cut else ""
        DOC.write_text(head + f"{start}\n<!-- /bench:{SECTION} -->\n\n" + tail,
                       encoding="utf-8")
    write_section(DOC, SECTION, text)


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
                    help="count callgrind instructions per phase (with --quick: instead of "
                         "timing)")
    ap.add_argument("--instruction-games", type=int, default=20,
                    help="games per callgrind count in a full run")
    ap.add_argument("--drive", choices=("engine", "env"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    clock = time.perf_counter if a.wall else time.process_time
    games = 20 if a.quick else a.games
    if a.drive:
        drive(a.drive, a.ruleset[0], a.games)
        return 0
    rulesets = a.ruleset or available()
    if a.quick and a.instructions:
        rows = instruction_rows(rulesets, games)
        return 0 if max(x[5] for x in rows) <= LIMIT or not a.strict else 1
    trows = time_rows(rulesets, games, a.repeat, a.wall)
    worst = max(x[5] for x in trows)
    irows = []
    if a.instructions:
        irows = instruction_rows(rulesets, a.instruction_games)
        worst = max(worst, max(x[5] for x in irows))
    if not a.quick and not a.ruleset:
        write_doc(section(trows, irows, games, a.instruction_games, a.repeat, a.wall))
    return 0 if worst <= LIMIT or not a.strict else 1


if __name__ == "__main__":
    sys.exit(main())
