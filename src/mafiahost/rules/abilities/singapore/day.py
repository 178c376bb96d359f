"""The day: who cannot be voted for, votes made void, the missed-vote fine, the will read in the
morning.
"""

from __future__ import annotations

from mafiahost.engine.events import HOST, PUBLIC
from mafiahost.engine.mechanics import hook
from mafiahost.engine.mechanics.items import take_item

from .common import purse, spend


@hook("vote_check", "singapore_vote_check")
def vote_check(g, voter, target, params):
    t = g.state.players.get(target)
    if t is not None and g.state.has(t, "away"):
        return (f"«{target}» в поездке: его нельзя посадить в тюрьму.",
                f"'{target}' is travelling and cannot be jailed.")
    return None


@hook("day_count", "singapore_count")
def day_count(dc, params):
    """Votes that do not count (bitten, rum, trap) are dropped silently; a player who
    misses the vote more than once pays 1 coin each time."""
    g = dc.g
    s = g.state
    for p in s.order:
        if not p.alive:
            continue
        if s.has(p, "vote_void") and p.name in dc.votes:
            dc.silent_void.add(p.name)     # not counted; shown as cast («не узнает»)
            g.emit("vote_void", HOST, player=p.name, why=s.status_value(p, "vote_void"))
        if p.name not in s.votes and not s.has(p, "voteless"):
            missed = s.status_value(p, "missed_votes", 0) + 1
            g.set_status(p, "missed_votes", missed)
            if missed > 1 and purse(g, p) >= 1:
                spend(g, p, 1, "missed_vote")


@hook("day_start", "singapore_day_start")
def day_start(g, params):
    """The will: the player named by one killed last night is jailed this morning."""
    s = g.state
    for p in s.order:
        if p.alive or p.died != s.idx - 1 or p.how in ("lynched", "jailed"):
            continue
        name = s.status_value(p, "will")
        if name and s.players[name].alive and take_item(g, p, "will", why="opened"):
            g.emit("will_read", PUBLIC, player=p.name, named=name)
            g.eliminate(s.players[name], "jailed")
