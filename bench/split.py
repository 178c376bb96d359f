"""Where a random game's cost goes: the random player's choosing against the rules' own work.

Issue 13 asks every rule set's random 12-player game to cost at most 3x ``gemini``'s. A
random game is two kinds of work: the random player choosing its moves (the gates, the
legal targets, the draws, the votes it tries) and the engine playing them (recording each
move, the immediate day abilities, every resolution, the victory checks, dealing and
freeing the game). This benchmark measures the second alone, for each rule set: it plays
the seeded random games once to record, phase by phase, the moves and votes sent (the
``action`` and ``vote`` events of each phase's choosing), then plays the same games again
from those records, with no choosing: each vote through ``Game.vote`` (its check
included), each move through ``Game.send`` (as ``submit`` sends a move it has judged
legal), and each phase's ``resolve``. Before it measures anything it checks that every
replayed game's event log is the random game's, event for event, so the two runs do the
same rules work.

Reported for each rule set (12 seats, seeds 0..G-1, default options), each side by
callgrind instructions a game (a run of G games minus a run of none, in fresh processes; the
records are loaded in both runs of the replay, so loading them is not counted) and, without
``--instructions-only``, by CPU time (each game's best of ``--repeat`` plays, the two sides
alternating):

- the whole random game, and it divided by ``gemini``'s whole random game (issue 13's
  ratio);
- the rules' work alone (the replay), and it divided by ``gemini``'s whole random game: the
  least the rule set's random game could cost against ``gemini``'s if its random player
  chose for nothing;
- the random player's share of the game (whole minus replay, over whole).

``--quick`` plays fewer games and counts no instructions (CI: its check of the replays
still runs). ``--ruleset`` limits the rule sets (``gemini`` is always measured, as the
reference). A full run of every rule set, with instructions, writes its section of
``docs/performance.md`` (``<!-- bench:split -->``).

    python bench/split.py [--games G] [--repeat R] [--quick] [--instructions-only]
                          [--ruleset ID ...]
"""

from __future__ import annotations

import argparse
import gc
import json
import pickle
import random
import sys
import tempfile
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers  # noqa: E402

import mafiahost  # noqa: E402
from mafiahost.rules import available  # noqa: E402
from mafiahost.sim import new_random_game, play_game, play_phase  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "performance.md"
PLAYERS = 12
MAX_PHASES = 200                 # ``play_game``'s own limit
REFERENCE = "gemini"
clock = time.process_time


def record(ruleset: str, seed: int) -> list[list[tuple]]:
    """The moves and votes the random player sent in each phase of the seeded game, in
    order: ("vote", voter, target) and ("move", actor, ability key, targets, role)."""
    g = new_random_game(ruleset, PLAYERS, seed)
    rng = random.Random(seed)
    phases: list[list[tuple]] = []
    while not g.state.over and len(phases) < MAX_PHASES:
        start = len(g.events)
        play_phase(g, rng)
        sent: list[tuple] = []
        for e in g.events[start:]:
            if e.type == "vote":
                sent.append(("vote", e.data["voter"], e.data["target"]))
            elif e.type == "action":
                d = e.data
                sent.append(("move", d["actor"], d["key"], tuple(d["targets"]), d.get("role")))
        phases.append(sent)
        g.resolve()
    return phases


def replay(ruleset: str, seed: int, phases: list[list[tuple]]):
    """The seeded game played again from ``record``'s moves and votes, with no choosing."""
    g = new_random_game(ruleset, PLAYERS, seed)
    abilities = g.rules.abilities
    players = g.state.players
    for sent in phases:
        for m in sent:
            if m[0] == "vote":
                g.vote(m[1], m[2])
            else:
                g.send(players[m[1]], abilities[m[2]], m[3], m[4])
        g.resolve()
    return g


def random_game(ruleset: str, seed: int):
    return play_game(new_random_game(ruleset, PLAYERS, seed), seed, MAX_PHASES)


def check(ruleset: str, seeds, records) -> None:
    """Every replayed game's event log is the random game's, event for event."""
    for seed, phases in zip(seeds, records, strict=True):
        a = [e.as_dict() for e in random_game(ruleset, seed).events]
        b = [e.as_dict() for e in replay(ruleset, seed, phases).events]
        if a != b:
            pairs = enumerate(zip(a, b, strict=False))
            at = next((i for i, (x, y) in pairs if x != y), min(len(a), len(b)))
            raise SystemExit(f"{ruleset}, seed {seed}: the replay differs from the random game "
                             f"at event {at}: {a[at] if at < len(a) else None} / "
                             f"{b[at] if at < len(b) else None}")


def timed(fn, *args) -> float:
    t = clock()
    g = fn(*args)
    del g               # the game freed inside the count, on both sides
    return clock() - t


def time_row(ruleset: str, seeds, records, repeat: int) -> tuple[float, float]:
    """(random game, replay) CPU seconds a game, each game's best of ``repeat``."""
    random_game(ruleset, 0)
    replay(ruleset, seeds[0], records[0])
    gc.collect()
    whole = rules = 0.0
    for seed, phases in zip(seeds, records, strict=True):
        bw = br = float("inf")
        for _ in range(repeat):
            bw = min(bw, timed(random_game, ruleset, seed))
            br = min(br, timed(replay, ruleset, seed, phases))
        whole += bw
        rules += br
    return whole / len(seeds), rules / len(seeds)


# ---- callgrind ------------------------------------------------------------------------------
def drive(side: str, ruleset: str, games: int, path: str) -> None:
    """One side's games in this process, after one warm-up game of that side outside the
    count (so a run of none pays the same loading). The replay loads its records from
    ``path`` whatever ``games`` is, so the run of none loads them too."""
    if side == "replay":
        records = pickle.loads(Path(path).read_bytes())

        def play(seed: int):
            return replay(ruleset, seed, records[seed])
    else:
        def play(seed: int):
            return random_game(ruleset, seed)
    play(0)
    gc.collect()
    for seed in range(games):
        g = play(seed)
        del g


def _count(side: str, ruleset: str, games: int, path: str) -> int:
    """The instructions of a fresh process playing ``games`` games of one side."""
    return peers.callgrind([sys.executable, str(Path(__file__).resolve()), "--drive", side,
                            "--ruleset", ruleset, "--games", str(games), "--records", path])


def instruction_row(ruleset: str, games: int, records) -> tuple[float, float]:
    """(random game, replay) instructions a game."""
    with tempfile.TemporaryDirectory() as d:
        path = str(Path(d) / "records.pickle")
        Path(path).write_bytes(pickle.dumps(records))
        out = []
        for side in ("random", "replay"):
            out.append((_count(side, ruleset, games, path)
                        - _count(side, ruleset, 0, path)) / games)
    return out[0], out[1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--instructions-only", action="store_true")
    ap.add_argument("--ruleset", nargs="*")
    ap.add_argument("--drive", choices=["random", "replay"], help=argparse.SUPPRESS)
    ap.add_argument("--records", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.drive:
        drive(a.drive, a.ruleset[0], a.games, a.records)
        return 0
    games = 5 if a.quick else a.games
    rulesets = a.ruleset or available()
    rulesets = [REFERENCE] + [r for r in rulesets if r != REFERENCE]
    seeds = list(range(games))
    icg = not a.quick and peers.have_valgrind()
    print(f"build: {mafiahost.BUILD}; {games} games of {PLAYERS} seats a rule set"
          + ("" if icg else "; no instruction counts (--quick)" if a.quick
             else "; valgrind not found: no instruction counts"))
    rows = []
    for r in rulesets:
        records = [record(r, s) for s in seeds]
        check(r, seeds, records)
        ti = None if a.instructions_only else time_row(r, seeds, records, a.repeat)
        ii = instruction_row(r, games, records) if icg else None
        rows.append((r, ti, ii))
    ref = rows[0]
    print(f"{'rule set':14} {'by':5} {'random game':>12} {'/ gemini':>9} {'rules only':>11} "
          f"{'/ gemini':>9} {'choosing':>9}")
    out = {}
    for r, ti, ii in rows:
        for by, got, ref_got, unit in (("time", ti, ref[1], 1e3), ("instr", ii, ref[2], 1e-6)):
            if got is None:
                continue
            whole, rules = got
            gw = ref_got[0]
            w, rs = ((f"{whole * unit:.3f} ms", f"{rules * unit:.3f} ms") if by == "time"
                     else (f"{whole * unit:.2f} M", f"{rules * unit:.2f} M"))
            print(f"{r:14} {by:5} {w:>12} {whole / gw:>8.2f}x {rs:>11} "
                  f"{rules / gw:>8.2f}x {(whole - rules) / whole:>8.0%}")
            out.setdefault(r, {})[by] = {"random_game": whole, "rules_only": rules,
                                         "random_game_over_gemini": whole / gw,
                                         "rules_only_over_gemini": rules / gw}
    print(json.dumps(out))
    if not a.quick and not a.ruleset and icg and not a.instructions_only:
        from run import write_section
        write_section(DOC, "split", section(rows, games, a.repeat))
        print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


def section(rows, games: int, repeat: int) -> str:
    ref = rows[0]
    text = (
        "Measured by `python bench/split.py`: each rule set's seeded random 12-player games "
        f"(seeds 0-{games - 1}, default options) played whole by the engine's random player, "
        "and the same games played again from the moves and votes it sent (recorded phase by "
        "phase; each vote through `Game.vote`, each move through `Game.send`, then "
        "`resolve`), with no choosing. The benchmark first checks that every replayed game's "
        "event log is the random game's, event for event. Instructions a game by callgrind "
        "(a run of the games minus a run of none); CPU time, each game's best of "
        f"{repeat} plays, the sides alternating. Every ratio is against `gemini`'s whole "
        "random game (issue 13: at most 3x). *Rules only / gemini* is what the rule set's "
        "random game would cost against gemini's if its random player chose for nothing; "
        "*choosing* is the random player's share of the game. The time here is each game's "
        "best play: it leaves out what lands in only some of a game's plays (a collection "
        "of the garbage collector's oldest generation, a busy neighbour), so it reads lower "
        "than the batches of \"Every rule set against gemini\" above; the instructions are "
        "the reading to compare with theirs.")
    lines = [
        "### A random game: the random player's choosing and the rules' work",
        "",
        *textwrap.wrap(text, 90),
        "",
        f"Build measured: **{mafiahost.BUILD}**.",
        "",
        "| rule set | random game, M instr. | / gemini | rules only, M instr. | / gemini "
        "| choosing | random game, ms | / gemini | rules only, ms | / gemini | choosing |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r, ti, ii in sorted(rows, key=lambda x: x[0]):
        iw, ir = ii
        tw, tr = ti
        lines.append(
            f"| {r} | {iw / 1e6:.2f} | {iw / ref[2][0]:.2f}x | {ir / 1e6:.2f} | "
            f"{ir / ref[2][0]:.2f}x | {(iw - ir) / iw:.0%} | {tw * 1e3:.3f} | "
            f"{tw / ref[1][0]:.2f}x | {tr * 1e3:.3f} | {tr / ref[1][0]:.2f}x | "
            f"{(tw - tr) / tw:.0%} |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
