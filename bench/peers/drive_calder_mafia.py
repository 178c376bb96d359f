"""Driver for calder/mafia (PyPI ``mafia`` 1.0.0): whole random 12-player games.

Runs inside the peer's own virtualenv (``bench/peers/__init__.py`` makes it). The setup is
the one the engine issue names: godfather and goon (the mafia), roleblocker, doctor, cop,
tracker, watcher, bodyguard and four villagers (the town). Each night every living player
with an action sends it with random legal targets (``Self`` is the player, ``Other`` a
random other living player, ``Player`` any living player) and a random living mafioso sends
the mafia's kill at a random living player; each day every living player votes for a
random other living player; phases alternate until ``game.is_game_over()``.

    python drive_calder_mafia.py GAMES [FIRST_SEED]

``batch.main`` times the games (one outside the count, as our driver does) and prints
the JSON line the benchmark reads; a random other player is drawn by index (the same draw
as ``rng.choice`` of the list of the others, without building it), so the driver's own
work is not charged to the engine.
"""

from __future__ import annotations

import random
import sys

import batch
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


if __name__ == "__main__":
    sys.exit(batch.main(play, sys.argv[1:]))
