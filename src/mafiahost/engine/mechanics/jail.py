"""Jail: prisoners lose vote, shots and abilities; all go free when their jailer leaves."""

from __future__ import annotations

from . import on_eliminated


@on_eliminated
def release_prisoners(g, dead):
    freed = [p for p in g.state.order if p.alive and g.state.status_value(p, "jailed") == dead.name]
    for p in freed:
        g.clear_status(p, "jailed")
    if freed:
        g.emit("released", "public", players=[p.name for p in freed])
