"""Copying: an action taken from another role, performed later in the night.

A copying mechanic (a chameleon, a hermit holding a dead player's action) calls
``defer(n, actor, spec, targets)``; the step hook ``run_copies`` (listed under a step's
``auto:`` with ``{step: <id>}``) performs every deferred action whose ability belongs to
that step, with the copier as the actor: dead, removed-tonight and blocked copiers fail as
they would with their own move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..events import HOST
from ..night import run_ability
from . import hook


@dataclass
class Copies:
    """The night's deferred copied actions: (copier, ability key, target names)."""

    deferred: list[tuple[str, str, list[str]]] = field(default_factory=list)


def defer(n, actor, spec, targets) -> None:
    """Perform ``spec`` (another role's ability) for ``actor`` at ``spec``'s own step."""
    n.notes(Copies).deferred.append((actor.name, spec.key, [t.name for t in targets]))


@hook("step", "run_copies")
def run_copies(n, params):
    g = n.g
    s = n.s
    step = str(params["step"])
    for name, key, tnames in n.notes(Copies).deferred:
        spec = g.rules.abilities[key]
        if spec.step != step:
            continue
        actor = s.players[name]
        if name in n.dead_now or not actor.alive:
            g.emit("no_effect", HOST, player=name, ability=spec.id, why="dead")
        elif n.is_blocked(actor):
            g.emit("blocked", HOST, player=name, by=n.blocked_by.get(name), ability=spec.id)
        else:
            run_ability(n, actor, spec, [s.players[t] for t in tnames])
