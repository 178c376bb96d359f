"""The seeded random games' event logs, one digest a rule set: what must not change when
the engine only gets faster (compiled or pure, before or after a change).

    python bench/streams.py [--seeds 30] [--players 12] [--env]

prints one line per rule set: its id, the SHA-256 of every game's whole event log (seeds
0..N-1, each event as ``Event.as_dict``), and the phases played; the build that ran
(``mafiahost.BUILD``) first. ``--env`` adds a digest of the same seeds played through the
PettingZoo environment by random agents: each turn's seat, observation vector, action mask,
rewards, terminations, truncations and infos, then the game's event log. Compare two runs
with ``diff`` (an older commit's: ``PYTHONPATH=<its worktree>/src``, with ``--no-path``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

if "--no-path" not in sys.argv:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import mafiahost  # noqa: E402
from mafiahost.rules import available  # noqa: E402
from mafiahost.sim import new_random_game, play_game  # noqa: E402


def _log(h, g) -> None:
    for e in g.events:
        h.update(json.dumps(e.as_dict(), sort_keys=True, ensure_ascii=False,
                            default=repr).encode())
        h.update(b"\n")


def digest(ruleset: str, seeds: int, players: int, options=None, mafia=None) -> tuple[str, int]:
    h = hashlib.sha256()
    phases = 0
    for seed in range(seeds):
        g = play_game(new_random_game(ruleset, players, seed, options, mafia), seed)
        phases += g.state.idx
        _log(h, g)
    return h.hexdigest(), phases


def env_digest(ruleset: str, seeds: int, players: int, options=None, mafia=None) -> str:
    from mafiahost.agents.env import raw_env
    h = hashlib.sha256()
    e = raw_env(ruleset=ruleset, players=players, options=options, mafia=mafia)
    for seed in range(seeds):
        rng = random.Random(seed)
        e.reset(seed=seed)
        while e.agents:
            a = e.agent_selection
            if e.terminations[a] or e.truncations[a]:
                e.step(None)
                continue
            obs = e.observe(a)
            h.update(a.encode())
            h.update(obs["observation"].tobytes())
            h.update(obs["action_mask"].tobytes())
            # ``agents.random_action``'s draw, written out (an older commit may lack it)
            legal = obs["action_mask"].view(bool).nonzero()[0]
            e.step(int(legal[int(rng.random() * len(legal))]))
            h.update(json.dumps([e.rewards, e.terminations, e.truncations, e.infos],
                                sort_keys=True, default=repr).encode())
        _log(h, e.game)
    return h.hexdigest()


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=30)
    ap.add_argument("--players", type=int, default=12)
    ap.add_argument("--env", action="store_true",
                    help="also digest the games played through the environment")
    ap.add_argument("--no-path", action="store_true",
                    help="use the mafiahost on PYTHONPATH, not this checkout's")
    a = ap.parse_args(argv)
    print(f"build: {getattr(mafiahost, 'BUILD', 'pure')}", file=sys.stderr)
    cases = [(r, None, None) for r in available()]
    cases += [("vanilla", None, 3), ("gemini", {"watcher": True}, None)]
    for rs, options, mafia in cases:
        d, phases = digest(rs, a.seeds, a.players, options, mafia)
        label = rs + ("" if options is None else f" {options}") + \
            ("" if mafia is None else f" mafia={mafia}")
        env = f"\t{env_digest(rs, a.seeds, a.players, options, mafia)}" if a.env else ""
        print(f"{label}\t{d}\t{phases}{env}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
