"""Protection: heal, guard (bodyguard with saves or dying instead), cover, untouchable."""

from __future__ import annotations

from .. import mechanics
from ..events import HOST
from . import mechanic


@mechanic("heal")
def heal(n, actor, targets, params):
    """params: ``against`` — attack kinds it stops (direct, delayed);
    ``cures_poison`` — poison given tonight to the target never takes hold."""
    t = targets[0]
    n.heals.setdefault(t.name, []).append((actor, params))


@mechanic("guard")
def guard(n, actor, targets, params):
    """Guard a ward from direct kills. params ``mode``: ``die_instead`` (the guard dies in
    the ward's place) or ``saves`` (the status ``saves_left`` is spent per attack; with none
    left the guard dies, saving the ward and killing the attacker); ``foils_poison``;
    ``unless_healed`` — a ward the doctor heals against this attack "cannot be killed", so
    the guard is not spent (classic: «погибает вместо него, если он должен быть убит»),
    whatever the order the moves were sent in."""
    t = targets[0]
    n.guards.setdefault(t.name, []).append((actor, params))


def settle_guard(n, guard, params, attack, commit) -> bool:
    """Meet ``attack`` on the ward; True when the ward is saved."""
    g = n.g
    if not commit:
        return True
    if params.get("mode") == "die_instead":
        g.emit("saved", HOST, player=attack.target.name, by=guard.name, cause=attack.cause)
        n.attack(attack.attacker, guard, "direct", "guard")
        return True
    left = g.state.status_value(guard, "saves_left", 0)
    if left > 0:
        g.set_status(guard, "saves_left", left - 1)
        g.emit("saved", HOST, player=attack.target.name, by=guard.name, cause=attack.cause,
               saves_left=left - 1)
        return True
    g.emit("saved", HOST, player=attack.target.name, by=guard.name, cause=attack.cause,
           last_stand=True)
    n.attack(None, guard, "sure", "last_stand")
    if attack.attacker is not None and attack.attacker is not guard:
        n.attack(guard, attack.attacker, "sure", "last_stand")
    return True


mechanics.GUARD_SETTLE = settle_guard


@mechanic("cover", cover_aware=True)
def cover(n, actor, targets, params):
    """The boss's cover: the target is immune to every outside action tonight, reads as
    town to checks and is unseen by the watcher (the joker's redirect still works)."""
    t = targets[0]
    n.covered[t.name] = actor.name
    n.mark(t, "covered", actor.name)


@mechanic("shield", cover_aware=True, visits=False)
def shield(n, actor, targets, params):
    """Untouchable by every action tonight ("спаси себя", once a game in some rulesets):
    actions after this one that target the player have no effect, and kills fail."""
    n.mark(targets[0], "shielded", actor.name)


@mechanic("protect")
def protect(n, actor, targets, params):
    """Untouchable by kills tonight (the beauty's visit)."""
    t = targets[0]
    n.protected.add(t.name)
    n.mark(t, "protected", actor.name)
