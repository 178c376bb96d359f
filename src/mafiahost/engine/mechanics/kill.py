"""Eliminations: direct kills, commissar-style shots, poison (delayed kill), phantom."""

from __future__ import annotations

from ..events import HOST
from . import mechanic, scheduled


@mechanic("kill")
def kill(n, actor, targets, params):
    """A direct kill, settled at dawn against the night's protections.

    params: ``only_tagged_not`` — no effect on a target whose role has this tag (the
    ripper spares plain citizens); ``if_killed_tag`` — a conditional extra shot that fires
    only if the faction's shot this night is killing a player with this tag (sleepwalker).
    """
    t = targets[0]
    g = n.g
    cond = params.get("if_killed_tag")
    if cond:
        hit = [x.target for x in n.attacks
               if x.attacker is not None and x.cause == params.get("after", "kill")
               and cond in g.role(x.target).tags and n.would_die(x.target)]
        if not hit:
            g.emit("no_effect", HOST, player=actor.name, ability="extra_kill",
                   why="condition")
            return
    fac = params.get("as_faction")
    if fac:
        # a town player who "behaves as a mafioso" (the sleepwalker): his shot is the
        # faction's only if no member sent one, and only if a member could act at all
        abilities = g.rules.abilities
        players = g.state.players
        members_shot = any(abilities[a.ability].shared and abilities[a.ability].owner == fac
                           and players[a.actor].faction == fac for a in g.state.pending)
        able = any(not n.is_blocked(m) and g.can_use_effects(m) and m.name not in n.dead_now
                   for m in g.faction_members(fac))
        if members_shot or not able:
            g.emit("no_effect", HOST, player=actor.name, ability="kill",
                   why="members_shot" if members_shot else "blocked")
            return
    spare = params.get("only_tagged_not")
    if spare and spare in g.role(t).tags:
        g.emit("no_effect", HOST, player=actor.name, ability="kill", why="spared", target=t.name)
        return
    n.attack(actor, t, "direct", params.get("cause", "kill"), how=params.get("how", "killed"))


@mechanic("shoot", cover_aware=True)
def shoot(n, actor, targets, params):
    """The commissar's shot: hits only ``hits`` sides; a covered target survives and both
    learn of it; a shot at anyone else kills the shooter (a suicide nobody can stop)."""
    t = targets[0]
    g = n.g
    if n.is_covered_against(t, actor):
        g.emit("shot_failed", g.to(actor), to=actor.name, target=t.name)
        g.emit("attacked", g.to(t), to=t.name)
        return
    side = g.rules.factions[t.faction].side
    if side in params.get("hits", ("criminal", "single")):
        n.attack(actor, t, "direct", "shoot", how=params.get("how", "killed"))
    elif params.get("wrong_target") == "suicide":
        g.emit("wrong_shot", HOST, player=actor.name, target=t.name)
        n.attack(actor, actor, "suicide", "wrong_shot")


@mechanic("poison")
def poison(n, actor, targets, params):
    """Delayed kill: the target dies at this step of the next night unless cured.
    A drinking partner of the target (alcoholic's pair) is poisoned too."""
    t = targets[0]
    step = n.g.rules.abilities[n.current.ability].step
    victims = [t]
    mate = n.partners.get(t.name)
    if mate is not None and mate not in (v.name for v in victims):
        victims.append(n.s.players[mate])
    for v in victims:
        n.poisons.append((actor, v, step, params))
    n.on_dawn(_settle_poisons)


def _settle_poisons(n):
    g = n.g
    for actor, v, step, _params in n.poisons:
        if any(hp.get("cures_poison") for _, hp in n.heals.get(v.name, ())):
            g.emit("cured", HOST, player=v.name)
            continue
        if any(gp.get("foils_poison") and gd.alive for gd, gp in n.guards.get(v.name, ())):
            g.emit("poison_foiled", HOST, player=v.name)
            continue
        g.emit("poisoned", HOST, player=v.name, by=actor.name)
        g.set_status(v, "poisoned", actor.name, until=n.idx + 2)
        g.emit("scheduled", HOST, item={"effect": "delayed_kill", "night_idx": n.idx + 2,
                                        "step": step, "target": v.name, "by": actor.name,
                                        "how": _params.get("how", "killed")})


@scheduled("delayed_kill")
def delayed_kill(n, item):
    t = n.s.players[item["target"]]
    if t.alive:
        n.attack(n.s.players[item["by"]], t, "delayed", item.get("cause", "poison"),
                 how=item.get("how", "killed"))


@mechanic("kill_now", cover_aware=True)
def kill_now(n, actor, targets, params):
    """A death at once, before anyone acts (phantom of the opera at step 0): unstoppable,
    and the victim's own action this night is lost."""
    n.kill_now(targets[0], params.get("cause", "phantom"), how=params.get("how", "killed"))


@mechanic("revive", cover_aware=True)
def revive(n, actor, targets, params):
    """Bring a dead player back into the game (the ability needs ``targets_dead``)."""
    t = targets[0]
    if t.alive:
        return
    n.g.emit("revived", "public", player=t.name, by=actor.name)
