"""Jail: prisoners lose vote, shots and abilities; all go free when their jailer leaves."""

from __future__ import annotations

from . import hook


@hook("on_eliminated", "release_prisoners")
def release_prisoners(g, dead):
    freed = [p for p in g.state.order
             if p.alive and p.st and g.state.status_value(p, "jailed") == dead.name]
    for p in freed:
        g.clear_status(p, "jailed")
    if freed:
        g.emit("released", "public", players=[p.name for p in freed])
