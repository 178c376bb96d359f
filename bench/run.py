"""Benchmarks: resolved nights per second and whole random games per second.

One core, one process. Every number is reported twice: as a rate, and as a ratio against
a fixed pure-Python baseline measured in the same process right before it, so results from
different machines can be compared (a faster machine raises both the rate and the baseline).

    python bench/run.py            # prints a table and rewrites docs/performance.md
    python bench/run.py --quick    # fewer repetitions, no file written
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from mafiahost.engine.game import Game  # noqa: E402
from mafiahost.sim import new_random_game, play_game, play_phase  # noqa: E402

CASES = [
    ("vanilla", 12, None, 3, "vanilla, 12 players, 3 mafia"),
    ("gemini", 12, {"watcher": True}, None, "gemini, 12 players, full role list (watcher on)"),
    ("gemini", 12, None, None, "gemini, 12 players, default list"),
    ("classic", 12, None, None, "classic, 12 players"),
]


def baseline(n=200_000) -> float:
    """A fixed mix of dict, list and attribute work: operations per second."""
    class Obj:
        __slots__ = ("a", "b")

        def __init__(self):
            self.a = 0
            self.b = {}
    t = time.perf_counter()
    o = Obj()
    xs = []
    for i in range(n):
        o.a += i & 7
        o.b[i & 255] = o.a
        if i & 3 == 0:
            xs.append((i, o.a))
    return n / (time.perf_counter() - t)


def best_of(fn, reps):
    best = 0.0
    for _ in range(reps):
        best = max(best, fn())
    return best


def games_per_second(ruleset, players, options, mafia, count=200):
    new_random_game(ruleset, players, 0, options, mafia)  # load and warm the ruleset

    def run():
        t = time.perf_counter()
        for seed in range(count):
            play_game(new_random_game(ruleset, players, seed, options, mafia), seed)
        return count / (time.perf_counter() - t)
    return run


def nights_per_second(ruleset, players, options, mafia, count=200):
    """Resolve prepared nights: the moves are recorded first, only ``resolve`` is timed."""
    prepared = []
    for seed in range(count):
        g = new_random_game(ruleset, players, seed, options, mafia)
        rng = random.Random(seed)
        play_phase(g, rng)
        prepared.append((g.rules, list(g.events)))

    def run():
        games = [Game.replay(r, ev) for r, ev in prepared]
        t = time.perf_counter()
        for g in games:
            g.resolve()
        return len(games) / (time.perf_counter() - t)
    return run


def write_section(path: Path, name: str, body: str) -> None:
    """Replace the text between this section's markers in ``path``, keeping the others,
    so each benchmark script owns one section of docs/performance.md."""
    start, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Performance\n"
    block = f"{start}\n{body}\n{end}"
    if start in text and end in text:
        head, rest = text.split(start, 1)
        text = head + block + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    reps = 2 if args.quick else 7
    rows = []
    for ruleset, players, options, mafia, label in CASES:
        base = best_of(baseline, 3)
        gps = best_of(games_per_second(ruleset, players, options, mafia), reps)
        nps = best_of(nights_per_second(ruleset, players, options, mafia), reps)
        rows.append((label, gps, nps, base))
        print(f"{label:50} {gps:8.0f} games/s  {nps:8.0f} nights/s  "
              f"(baseline {base / 1e6:.1f} Mops/s)")
    if args.quick:
        return 0
    lines = [
        "## Engine",
        "",
        "Measured by `python bench/run.py` on one core, one process: whole games played by",
        "random legal moves (dealing, moves, votes, every resolve, victory checks) and",
        "nights resolved from recorded moves. Each figure is the best of 7 runs of 200 games.",
        "The ratio column divides the rate by a fixed pure-Python baseline measured in the",
        "same process (operations per second of a dict/list/attribute loop, in millions), so",
        "numbers from different machines can be compared.",
        "",
        f"Machine: {platform.machine()}, Python {platform.python_version()}.",
        "",
        "| setup | games/s | games per baseline Mop | nights/s | nights per baseline Mop |",
        "|---|---:|---:|---:|---:|",
    ]
    for label, gps, nps, base in rows:
        lines.append(f"| {label} | {gps:.0f} | {gps / (base / 1e6):.0f} | {nps:.0f} | "
                     f"{nps / (base / 1e6):.0f} |")
    gem = next(r for r in rows if r[0].startswith("gemini, 12 players, full"))
    lines += [
        "",
        f"Target from the engine issue: at least 1,000 whole `gemini` games per second "
        f"(12 players, full role list). Measured: {gem[1]:.0f} "
        f"({'met' if gem[1] >= 1000 else 'not met'} on this machine).",
        "",
        "How the hot path stays fast: slotted plain objects for players, actions and events;",
        "abilities bound to their mechanic functions once at load; victory conditions compiled",
        "to closures once; no per-event validation or deep copies; statuses are a dict of",
        "`[until, value]` checked against the phase index instead of being swept each phase.",
    ]
    write_section(ROOT / "docs" / "performance.md", "engine", "\n".join(lines))
    print("wrote docs/performance.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
