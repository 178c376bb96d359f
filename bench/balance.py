"""Benchmark of the balance simulation: games per second, in ratios measured in one run.

* Parallel efficiency: the same job (fixed seed batches) on 1 and on 2 local processes;
  efficiency = rate(2) / (2 * rate(1)). The two runs must give the identical result. The
  2-process time includes starting the processes (about a second), which dominates the
  ``--quick`` run.
* The engine against a counts-only model of the same game: vanilla with the uniform
  policy played by the engine (``Game``, lean path and full path with its event log)
  against ``counts_only_vanilla``, which plays the same model on two integers.

    python bench/balance.py            # prints the table and rewrites docs/balance-bench.md
    python bench/balance.py --quick    # fewer games, no file written (CI)

The machine has 2 cores shared with whatever else runs: the 2-process figure is only as
good as the second core is free (the table says how many cores the OS reports).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from mafiahost.balance.simulate import (  # noqa: E402
    Job,
    Setup,
    counts_only_vanilla,
    play,
    run,
)


def _rate(fn, games: int) -> float:
    t = time.perf_counter()
    fn()
    return games / (time.perf_counter() - t)


def parallel(games: int, batch: int):
    job = Job((Setup("gemini", 12),), "random", seed=1, batch=batch)
    out = {}
    results = {}
    for k in (1, 2):
        t = time.perf_counter()
        r = run(job, precision=1e-9, max_games=games, workers=k)
        out[k] = r.games / (time.perf_counter() - t)
        results[k] = (r.games, dict(r.tallies[0].wins), dict(r.tallies[0].phases))
    assert results[1] == results[2], "1 and 2 workers must give the same result"
    return out


def engine_vs_counts(games: int, n: int = 12, m: int = 3):
    s = Setup("vanilla", n, mafia=m)

    def engine(lean):
        def go():
            for seed in range(games):
                play(s, "uniform", seed, lean=lean)
        return go
    for seed in range(20):            # warm up: rules loaded, caches filled
        play(s, "uniform", seed)
    lean = _rate(engine(True), games)
    full = _rate(engine(False), games)
    k = games * 50
    counts = _rate(lambda: counts_only_vanilla(n, m, k), k)
    return lean, full, counts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    games = 200 if args.quick else 4000
    par = parallel(games, 50 if args.quick else 100)
    lean, full, counts = engine_vs_counts(100 if args.quick else 1500)
    eff = par[2] / (2 * par[1])
    rows = [
        ("gemini 12, random policy, 1 process", f"{par[1]:.0f} games/s", "1.00"),
        ("gemini 12, random policy, 2 processes", f"{par[2]:.0f} games/s",
         f"{par[2] / par[1]:.2f} (efficiency {eff:.2f})"),
        ("vanilla 12/3 uniform, engine, lean path", f"{lean:.0f} games/s", "1.00"),
        ("vanilla 12/3 uniform, engine, full event log", f"{full:.0f} games/s",
         f"{full / lean:.2f}"),
        ("vanilla 12/3 uniform, counts-only model", f"{counts:.0f} games/s",
         f"{counts / lean:.0f}"),
    ]
    w = max(len(r[0]) for r in rows)
    lines = [f"{'case':{w}}  {'rate':>14}  ratio", "-" * (w + 30)]
    lines += [f"{a:{w}}  {b:>14}  {c}" for a, b, c in rows]
    text = "\n".join(lines)
    print(text)
    if not args.quick:
        doc = ROOT / "docs" / "balance-bench.md"
        doc.write_text(
            "# Balance simulation: measured\n\n"
            f"`python bench/balance.py` on {platform.python_implementation()} "
            f"{platform.python_version()}, {os.cpu_count()} cores reported (shared).\n"
            "Ratios are against the first row of each group, measured in the same run.\n\n"
            "```\n" + text + "\n```\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
