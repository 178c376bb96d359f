"""Hashes of what the environment and the random player do, to compare two versions of the
code: a change made for speed must leave every one of them as it was.

For every rule set (or those named) and seeds 0..S-1, at 12 seats: through the environment
with random agents (``agents.random_action``), each turn's observation vector, action mask,
rewards, terminations, truncations and infos (refusals included), then the game's event log;
and the engine's random player's game (``sim.play_game``), its event log. One SHA-256 per
rule set and side, printed as JSON (``--out FILE`` writes it too); ``--against FILE``
compares with an earlier run and exits 1 on any difference.

    python bench/digest.py [--seeds S] [--ruleset ID ...] [--out FILE] [--against FILE]

Run it once on the old code (a worktree of the old commit, ``PYTHONPATH=<worktree>/src``)
and once on the new, compiled and with ``MAFIAHOST_PURE=1``.
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


def _events(g) -> str:
    return json.dumps([(e.type, e.phase, e.audience if isinstance(e.audience, str)
                        else sorted(e.audience), e.data) for e in g.events],
                      sort_keys=True, default=str, ensure_ascii=False)


def env_digest(ruleset: str, seeds: int) -> str:
    from mafiahost.agents.env import raw_env
    h = hashlib.sha256()
    e = raw_env(ruleset=ruleset, players=12)
    for s in range(seeds):
        rng = random.Random(s)
        e.reset(seed=s)
        while e.agents:
            a = e.agent_selection
            if e.terminations[a] or e.truncations[a]:
                e.step(None)
                continue
            obs = e.observe(a)
            h.update(a.encode())
            h.update(obs["observation"].tobytes())
            h.update(obs["action_mask"].tobytes())
            # the same draw as ``random_action`` (written out: the old code may lack it)
            legal = obs["action_mask"].view(bool).nonzero()[0]
            e.step(int(legal[int(rng.random() * len(legal))]))
            h.update(json.dumps([e.rewards, e.terminations, e.truncations, e.infos],
                                sort_keys=True, default=str).encode())
        h.update(_events(e.core.game).encode())
    return h.hexdigest()


def engine_digest(ruleset: str, seeds: int) -> str:
    from mafiahost.sim import new_random_game, play_game
    h = hashlib.sha256()
    for s in range(seeds):
        h.update(_events(play_game(new_random_game(ruleset, 12, s), s)).encode())
    return h.hexdigest()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--ruleset", nargs="*")
    ap.add_argument("--out")
    ap.add_argument("--against")
    ap.add_argument("--no-path", action="store_true",
                    help="use the mafiahost on PYTHONPATH, not this checkout's")
    a = ap.parse_args(argv)
    from mafiahost.rules import available
    out = {}
    for r in a.ruleset or available():
        out[r] = {"env": env_digest(r, a.seeds), "engine": engine_digest(r, a.seeds)}
        print(r, out[r]["env"][:12], out[r]["engine"][:12], flush=True)
    if a.out:
        Path(a.out).write_text(json.dumps(out, indent=1))
    if a.against:
        old = json.loads(Path(a.against).read_text())
        diff = [f"{r} {side}" for r in out for side in out[r]
                if old.get(r, {}).get(side) != out[r][side]]
        print("differ: " + ", ".join(diff) if diff else "all the same")
        return 1 if diff else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
