"""The witch's curses (and what they do when the night starts)."""

from __future__ import annotations

from mafiahost.engine.events import HOST
from mafiahost.engine.mechanics import constraint, hook, mechanic
from mafiahost.engine.mechanics.items import take_item

from .common import counter, cursed, is_clan, usable


@constraint("singapore_uncursed")
def uncursed(g, p, ab, ts, params):
    for a in g.state.pending:
        if a.actor == p.name and a.targets and ts and a.targets[0] == ts[0]:
            return ("На одном персонаже не может быть двух проклятий.",
                    "A character cannot carry two curses.")
    if ts and cursed(g, g.state.players[ts[0]]):
        return ("На одном персонаже не может быть двух проклятий одновременно.",
                "A character cannot carry two curses at once.")
    return None


@mechanic("singapore_curse")
def curse(n, actor, targets, params):
    """The witch's curse for 2 nights and 2 days; a cross stops it once."""
    g = n.g
    t = targets[0]
    if cursed(g, t):
        g.emit("no_effect", HOST, player=actor.name, ability="curse", why="cursed")
        return
    if usable(g, t, "cross"):
        take_item(g, t, "cross", why="curse")
        g.emit("no_effect", HOST, player=actor.name, ability="curse", why="cross")
        return
    kind = params["kind"]
    g.set_status(t, "curse", [kind, actor.name], until=n.idx + 4)
    g.emit("cursed", g.to(t) if kind not in ("fear",) else HOST, to=t.name, kind=kind)


@hook("night_start", "singapore_night_start")
def night_start(n, params):
    """Before the evening: the curses that act on the night (panic, veil, suicide)."""
    g = n.g
    s = n.s
    for p in s.order:
        if not p.alive or s.has(p, "jailed"):
            continue
        c = cursed(g, p)
        if c == "panic":
            n.block(p, p)
            for a in s.pending:
                if a.targets and a.targets[0] == p.name and a.actor != p.name:
                    n.block(s.players[a.actor], p)
        elif c == "veil":
            last = counter(g, "last_confessed")
            if last and last != p.name and s.players[last].alive:
                witch = s.players[g.state.status_value(p, "curse")[1]]
                n.redirects[p.name] = (last, witch.name)
        elif c == "suicide" and (is_clan(p) or "armed" in g.role(p).tags):
            n.attack(p, p, "direct", "suicide_curse")
