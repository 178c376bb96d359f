"""The timed batch every peer driver runs: ``python drive_<peer>.py GAMES [FIRST_SEED]``.

Imported by the drivers from their own folder (a script's folder is on its ``sys.path``), so
it runs inside the peer's own virtualenv and uses nothing but the standard library. One game
(seed 10**6) is played before the count, as our driver does, so first-use costs (caches,
lazy imports) are charged to nobody, and one full collection of the garbage collector
(``gc.collect()``) is made, so the games start with its counts at zero (see
``drive_mafiahost.py``); then GAMES games from FIRST_SEED, and one JSON line:
games, seconds (wall time of the games alone), cpu_seconds (the process's CPU time over the
same games: what the benchmark compares) and the phases played.
"""

from __future__ import annotations

import gc
import json
import time
from collections.abc import Callable


def main(play: Callable[[int], int], argv: list[str]) -> int:
    """Run the batch: ``play(seed)`` plays one whole game and returns its phases."""
    games = int(argv[0])
    first = int(argv[1]) if len(argv) > 1 else 0
    play(10**6)
    gc.collect()
    t, c = time.perf_counter(), time.process_time()
    phases = sum(play(first + i) for i in range(games))
    dt, dc = time.perf_counter() - t, time.process_time() - c
    print(json.dumps({"games": games, "seconds": dt, "cpu_seconds": dc, "phases": phases}))
    return 0
