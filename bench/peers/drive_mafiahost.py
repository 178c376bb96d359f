"""Driver for our engine, the same shape as the peers' drivers: whole random games.

    python drive_mafiahost.py GAMES [FIRST_SEED] RULESET [--players N] [--mafia M]
                              [--option NAME=VALUE ...]

loads the rule set and plays one game outside the count (so the 0-game run that callgrind
subtracts includes loading), makes one full collection of the garbage collector, then plays
GAMES games by ``mafiahost.sim`` (random legal moves
from ``Game.legal_moves``' generator, every resolve, victory checks) and prints one JSON
line: games, seconds (wall time of the games alone), cpu_seconds (the process's CPU time
over the same games: what the benchmark compares), phases played and the build that ran
(``mafiahost.BUILD``: compiled, or pure and why).

The collection (``gc.collect()``, made by every peer's driver too, in ``batch.py``) starts
the games with the collector's counts at zero. Without it the first full collection, which
examines every object the imports and the warm-up game left, falls among the counted games
of a run of N and not in the run of none that callgrind subtracts: a cost of the start-up
charged to the games, by how much depending on the imports (0.6 M instructions a game of
singapore's 20, 0.04 M of gemini's). Collections that the games cause themselves still count.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import mafiahost  # noqa: E402
from mafiahost.sim import new_random_game, play_game  # noqa: E402


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", type=int)
    ap.add_argument("first", type=int, nargs="?", default=0)
    ap.add_argument("ruleset")
    ap.add_argument("--players", type=int, default=12)
    ap.add_argument("--mafia", type=int)
    ap.add_argument("--option", action="append", default=[])
    a = ap.parse_args(argv)
    options = {}
    for o in a.option:
        k, v = o.split("=", 1)
        options[k] = {"true": True, "false": False}.get(v, v)
    play_game(new_random_game(a.ruleset, a.players, 10**6, options or None, a.mafia), 10**6)
    gc.collect()
    t, c = time.perf_counter(), time.process_time()
    phases = 0
    for seed in range(a.first, a.first + a.games):
        g = play_game(new_random_game(a.ruleset, a.players, seed, options or None, a.mafia),
                      seed)
        phases += g.state.idx
    dt, dc = time.perf_counter() - t, time.process_time() - c
    print(json.dumps({"games": a.games, "seconds": dt, "cpu_seconds": dc, "phases": phases,
                      "build": mafiahost.BUILD}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
