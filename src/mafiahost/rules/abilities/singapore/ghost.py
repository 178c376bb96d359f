"""The ghost (II 4.10): «Призрак. (изначально не существует, купить нельзя.) Появляется из
простого мирного после его убийства или посадки. … Ночью может делать один единственный ход -
выпить жизнь. Идет в дом указанного им персонажа и если застает в доме свою цель - выпивает её
жизнь и получает роль своей цели. (застать персонажа в доме можно лишь в случае неотправки
ночного хода игроком или в случае когда игрок пишет что сидит дома или ничего не делает)»

A plain civilian who leaves (killed, jailed, blown up, bled out, poisoned, drained) becomes the
role ``ghost``: out of the game (no vote, not counted for victory), with one night move
(``while_dead: always``). Finding the target at home, he drains his life (a sure attack) and,
when the target dies at dawn, comes back into the game with the target's role and side.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mafiahost.engine.events import PUBLIC
from mafiahost.engine.mechanics import hook, mechanic
from mafiahost.engine.state import Player

if TYPE_CHECKING:
    from mafiahost.engine.game import Game

# the ways of leaving that make a plain civilian a ghost («после его убийства или посадки»)
RISES_FROM = ("killed", "jailed", "lynched", "blown", "blood", "venom", "drained")


@dataclass
class GhostNotes:
    """Tonight's drinks: (ghost, target) found at home."""

    drinks: list[tuple[Player, Player]] = field(default_factory=list)


@hook("on_eliminated", "singapore_ghost_rises")
def ghost_rises(g, p):
    if p.role != "civilian" or p.how not in RISES_FROM:
        return
    if p.st.get("jailed") is not None:
        g.clear_status(p, "jailed")        # out of jail: a ghost is nobody's prisoner
    g.emit("role_changed", g.to(p), player=p.name, role="ghost", was=p.role)
    g.emit("ghost_risen", PUBLIC, player=p.name)


@mechanic("singapore_drink_life")
def drink_life(n, actor: Player, targets, params: dict):
    """A target who sent a move tonight is not at home: the ghost learns it and nothing
    happens; one at home has his life drunk (a sure attack, cause ``drink_life``)."""
    g: Game = n.g
    t = targets[0]
    if any(a.actor == t.name for a in n.s.pending):
        g.emit("drink_missed", g.to(actor), to=actor.name, target=t.name)
        return
    n.attack(actor, t, "sure", "drink_life", how=params.get("how", "drained"))
    n.notes(GhostNotes).drinks.append((actor, t))


@hook("dawn", "singapore_ghost_dawn")
def ghost_dawn(n, params):
    """A ghost whose target dies tonight comes back with the target's role and side."""
    g: Game = n.g
    for ghost, t in n.notes(GhostNotes).drinks:
        if ghost.alive or ghost.role != "ghost" or not n.would_die(t):
            continue
        g.emit("revived", PUBLIC, player=ghost.name, by=t.name)
        if g.rules.reveal_roles:    # the post shows the drained one's role, now the ghost's
            g.set_status(ghost, "revealed", True)
        members = [m for m in g.faction_members(t.faction) if m is not t]
        knows = g.rules.factions[t.faction].knows_members
        told = [ghost] + (members if knows else [])
        if ghost.faction != t.faction:     # first: the clan is told of its member's role
            g.emit("faction_changed", g.to(ghost), player=ghost.name, faction=t.faction)
        g.emit("role_changed", g.to(*told), player=ghost.name, role=t.role, was=ghost.role)
        if knows:
            team = [m for m in g.faction_members(t.faction) if m is not t]
            g.emit("team", g.to(*team), faction=t.faction, members=[m.name for m in team])
