"""The seeded random games' event logs, one digest a rule set: what must not change when
the engine only gets faster (compiled or pure, before or after a change).

    python bench/streams.py [--seeds 30] [--players 12]

prints one line per rule set: its id, the SHA-256 of every game's whole event log (seeds
0..N-1, each event as ``Event.as_dict``), and the phases played; the build that ran
(``mafiahost.BUILD``) first. Compare two runs with ``diff``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import mafiahost  # noqa: E402
from mafiahost.rules import available  # noqa: E402
from mafiahost.sim import new_random_game, play_game  # noqa: E402


def digest(ruleset: str, seeds: int, players: int, options=None, mafia=None) -> tuple[str, int]:
    h = hashlib.sha256()
    phases = 0
    for seed in range(seeds):
        g = play_game(new_random_game(ruleset, players, seed, options, mafia), seed)
        phases += g.state.idx
        for e in g.events:
            h.update(json.dumps(e.as_dict(), sort_keys=True, ensure_ascii=False,
                                default=repr).encode())
            h.update(b"\n")
    return h.hexdigest(), phases


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=30)
    ap.add_argument("--players", type=int, default=12)
    a = ap.parse_args(argv)
    print(f"build: {getattr(mafiahost, 'BUILD', 'pure')}", file=sys.stderr)
    cases = [(r, None, None) for r in available()]
    cases += [("vanilla", None, 3), ("gemini", {"watcher": True}, None)]
    for rs, options, mafia in cases:
        d, phases = digest(rs, a.seeds, a.players, options, mafia)
        label = rs + ("" if options is None else f" {options}") + \
            ("" if mafia is None else f" mafia={mafia}")
        print(f"{label}\t{d}\t{phases}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
