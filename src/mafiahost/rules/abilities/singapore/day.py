"""The day: who cannot be voted for, votes made void, the missed-vote fine, the will read in the
morning.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mafiahost.engine.events import HOST, PUBLIC
from mafiahost.engine.mechanics import constraint, hook, mechanic
from mafiahost.engine.mechanics.items import take_item
from mafiahost.engine.state import FOREVER

from .common import purse, spend

if TYPE_CHECKING:
    from mafiahost.engine.game import Game
    from mafiahost.engine.model import AbilitySpec
    from mafiahost.engine.state import Player


def _vote_pool(g: Game, voter: Player, names: list[str], params: dict) -> list[str]:
    """``vote_check`` for the targets ``names`` at once (``legal_votes``)."""
    return g.state.lacking(names, "away")


@hook("vote_check", "singapore_vote_check", pool=_vote_pool)
def vote_check(g: Game, voter: Player, target: str, params: dict):
    t = g.state.players.get(target)
    if t is not None and g.state.has(t, "away"):
        return (f"«{target}» в поездке: его нельзя посадить в тюрьму.",
                f"'{target}' is travelling and cannot be jailed.")
    return None


@hook("day_count", "singapore_count")
def day_count(dc, params):
    """Votes that do not count (bitten, rum, trap) are dropped silently; a player who
    misses the vote more than once pays 1 coin each time."""
    g: Game = dc.g
    s = g.state
    for p in s.order:
        if not p.alive:
            continue
        if s.has(p, "vote_void") and p.name in dc.votes:
            dc.silent_void.add(p.name)     # not counted; shown as cast («не узнает»)
            g.emit("vote_void", HOST, player=p.name, why=s.status_value(p, "vote_void"))
        if p.name not in s.votes and not s.has(p, "voteless") and not s.has(p, "jailed"):
            missed = s.status_value(p, "missed_votes", 0) + 1
            g.set_status(p, "missed_votes", missed)
            if missed > 1 and purse(g, p) >= 1:
                spend(g, p, 1, "missed_vote")


@hook("day_start", "singapore_day_start")
def day_start(g: Game, params: dict):
    """The will: the player named by one killed last night is jailed this morning."""
    s = g.state
    for p in s.order:
        if p.alive or p.died != s.idx - 1 or p.how in ("lynched", "jailed"):
            continue
        name = s.status_value(p, "will")
        named = s.players[name] if name else None
        if named is not None and named.alive and not s.has(named, "jailed") and \
                take_item(g, p, "will", why="opened"):
            # «будет посажен указанный в завещании игрок»: jailed this morning, held like one
            # jailed by the vote (the lawyer may free him tonight, else he leaves at dawn)
            g.emit("will_read", PUBLIC, player=p.name, named=name)
            g.set_status(named, "jailed", "will", until=FOREVER)


@constraint("singapore_gag_allowed")
def gag_allowed(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """«нельзя заткнуть рот одному и тому же персонажу 2 дня подряд»."""
    if not ts:
        return None
    t = g.state.players[ts[0]]
    day = g.state.status_value(t, "gagged_day")
    if day == g.state.number:
        return (f"Игроку {g.display(t.name)} сегодня уже заткнули рот.",
                f"{g.display(t.name)} is already gagged today.")
    if day is not None and day == g.state.number - 1:
        return (f"Игроку {g.display(t.name)} затыкали рот вчера: одному и тому же нельзя два дня "
                f"подряд.",
                f"{g.display(t.name)} was gagged yesterday: not the same one two days running.")
    return None


@mechanic("singapore_gag", visits=False)
def gag(dc, actor: Player, targets, params: dict):
    """A gag: the target does not post today (the forum's side) but still votes and makes his
    day move; who gagged him is not told."""
    g: Game = dc.g
    t = targets[0]
    if not take_item(g, actor, "gag", why="used"):
        return
    g.set_status(t, "gagged_day", g.state.number, until=g.state.idx + 2)
    g.emit("gagged", PUBLIC, player=t.name)
