"""Driver for calder/mafia (PyPI ``mafia`` 1.0.0): whole random 12-player games.

Runs inside the peer's own virtualenv (``bench/peers/__init__.py`` makes it). The setup is
the one the engine issue names: godfather and goon (the mafia), roleblocker, doctor, cop,
tracker, watcher, bodyguard and four villagers (the town). Each night every living player
with an action sends it with random legal targets (``Self`` is the player, ``Other`` a
random other living player, ``Player`` any living player) and a random living mafioso sends
the mafia's kill at a random living player; each day every living player votes for a
random other living player; phases alternate until ``game.is_game_over()``.

    python drive_calder_mafia.py GAMES [FIRST_SEED]

One game (seed 10**6) is played before the count, as our driver does, so first-use costs
(caches, lazy imports) are not charged to the peer; a random other player is drawn by index
(the same draw as ``rng.choice`` of the list of the others, without building that list),
so the driver's own work is not charged to the engine either.

prints one JSON line: games, seconds (wall time of the games alone, after the import),
cpu_seconds (the process's CPU time over the same games: what the benchmark compares, as
it does not count the time the process waits for a core on a loaded machine) and the
phases played.
"""

from __future__ import annotations

import json
import random
import sys
import time

import mafia
from mafia import placeholders

SETUP = ["Godfather", "Goon", "Roleblocker", "Doctor", "Cop", "Tracker", "Watcher",
         "Bodyguard", "Villager", "Villager", "Villager", "Villager"]
NAMES = [f"P{i:02d}" for i in range(12)]


def new_game(seed: int):
    game = mafia.Game(seed=seed)
    town = game.add_faction(mafia.Town())
    maf = game.add_faction(mafia.Mafia("Mafia"))
    rng = random.Random(seed)
    roles = SETUP[:]
    rng.shuffle(roles)
    for name, role in zip(NAMES, roles, strict=True):
        cls = getattr(mafia, role)
        faction = maf if role in ("Godfather", "Goon") else town
        game.add_player(name, cls(faction))
    game.begin()
    return game, maf, rng


def other(alive, me, rng):
    """A random living player other than ``me`` (who is among ``alive``), or None: the draw
    ``rng.choice([p for p in alive if p is not me])`` makes, without the list."""
    n = len(alive) - 1
    if n < 1:
        return None
    i = rng._randbelow(n)
    return alive[i] if alive.index(me) > i else alive[i + 1]


def _fill(action, player, alive, rng):
    """The action with each placeholder target replaced by a random legal player."""
    targets = []
    for t in action.raw_targets:
        if isinstance(t, placeholders.Self):
            targets.append(player)
        elif isinstance(t, placeholders.Other):
            o = other(alive, player, rng)
            if o is None:
                return None
            targets.append(o)
        else:
            targets.append(rng.choice(alive))
    return action.with_targets(targets)


def play(seed: int, max_phases: int = 200) -> int:
    game, maf, rng = new_game(seed)
    number = 0
    phases = 0
    while phases < max_phases:
        night = mafia.Night(number)
        alive = game.players
        for p in alive:
            a = p.action
            if a is not None:
                a = _fill(a, p, alive, rng)
                if a is not None:
                    night.add_action(a)
        members = [p for p in alive if p.faction is maf]
        if members:
            shooter = rng.choice(members)
            kill = _fill(shooter.faction_action, shooter, alive, rng)
            night.add_action(mafia.FactionAction(maf, kill))
        game.resolve(night)
        phases += 1
        if game.is_game_over():
            break
        number += 1
        day = mafia.Day(number)
        alive = game.players
        for p in alive:
            o = other(alive, p, rng)
            if o is not None:
                day.set_vote(p, o)
        game.resolve(day)
        phases += 1
        if game.is_game_over():
            break
    return phases


def main(argv: list[str]) -> int:
    games = int(argv[0])
    first = int(argv[1]) if len(argv) > 1 else 0
    play(10**6)                       # outside the count, as our driver's first game
    t, c = time.perf_counter(), time.process_time()
    phases = sum(play(first + i) for i in range(games))
    dt, dc = time.perf_counter() - t, time.process_time() - c
    print(json.dumps({"games": games, "seconds": dt, "cpu_seconds": dc, "phases": phases}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
