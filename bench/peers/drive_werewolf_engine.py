"""Driver for PyPI ``werewolf-engine`` 0.1.0: whole random 12-player games, 3 werewolves.

Runs inside the peer's own virtualenv (``bench/peers/__init__.py`` makes it). Vanilla-like
setup, the same as our ``vanilla`` with 12 players and 3 mafia: three werewolves and nine
villagers. Each night every werewolf, in the engine's turn order, picks a random target
from ``get_available_targets`` (the last pick is the pack's kill, as the engine has it);
each day every living player votes for a random other living player (the engine refuses
self-votes); a tie lynches nobody (the engine's rule). Until ``game_over``.

The engine deals roles with the global ``random`` module, so it is seeded per game.

    python drive_werewolf_engine.py GAMES [FIRST_SEED]

``batch.main`` times the games (one outside the count, as our driver does) and prints
the JSON line the benchmark reads; a random other player is drawn by index (the same draw
as ``rng.choice`` of the list of the others, without building it), so the driver's own
work is not charged to the engine.
"""

from __future__ import annotations

import random
import sys

import batch
from werewolf_engine import Game, GameConfig, Phase

NAMES = [f"P{i:02d}" for i in range(12)]
CONFIG = {"werewolf": 3, "villager": 9}


def play(seed: int, max_phases: int = 200) -> int:
    random.seed(seed)                 # the engine's dealing uses the global generator
    rng = random.Random(seed)
    game = Game(NAMES, GameConfig(role_counts=dict(CONFIG)))
    game.start()
    phases = 0
    while game.phase != Phase.END and phases < max_phases:
        if game.phase == Phase.NIGHT:
            nm = game.night_manager
            while game.phase == Phase.NIGHT:
                actor = nm.current_actor
                targets = nm.get_available_targets(actor)
                if targets:
                    game.night_action(actor.id, rng.choice(targets).id)
                else:
                    game.night_skip(actor.id)
        else:
            alive = [p for p in game.players if p.is_alive()]
            n = len(alive) - 1
            for k, p in enumerate(alive):
                i = rng._randbelow(n)     # rng.choice of the others, without their list
                game.day_vote(p.id, alive[i if i < k else i + 1].id)
        phases += 1
    return phases


if __name__ == "__main__":
    sys.exit(batch.main(play, sys.argv[1:]))
