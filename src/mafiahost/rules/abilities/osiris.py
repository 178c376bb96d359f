"""«Суд Осириса» (seed 003, the last section): what the data cannot say.

- the chameleon copying a role onto another at his own step (``osiris_copy``);
- the maniac who kills the hermit: the maniac dies and the hermit rises as the Mummy
  (``osiris_maniac_kill``, ``osiris_poison`` and the scheduled ``osiris_delayed_kill``);
- the Mummy, whom nothing removes at night (night hook ``osiris_mummy``);
- the hermit taking the night action of the player voted out the day before
  (``osiris_hermit_gains``, ``osiris_hermit_act`` + the library step hook ``run_copies``);
- «Суд Осириса», the rebels' boss left alone removing a random player at step 0
  (step hook ``osiris_trial``);
- the Mummy's «выжить до конца игры»: he wins with whoever ends the game, or alone when he
  is the last one left (victory condition ``osiris_game_ends``).
"""

from __future__ import annotations

from mafiahost.engine.events import HOST
from mafiahost.engine.mechanics import condition, constraint, hook, mechanic, scheduled
from mafiahost.engine.mechanics.copy import defer
from mafiahost.engine.mechanics.protect import heal as _heal
from mafiahost.engine.night import run_ability
from mafiahost.engine.state import FOREVER
from mafiahost.engine.victory import holds

MUMMY = "mummy"
_MUMMY_GUARD = {"against": ["direct", "delayed"]}


def primary_night_ability(g, role):
    """A role's own night action (not a faction's common one), or None."""
    for spec in g.rules.by_phase[role]["night"]:
        if not spec.shared:
            return spec
    return None


# ---- the joker and the chameleon -----------------------------------------------------------

@mechanic("osiris_copy", visits=False)
def copy(n, actor, targets, params):
    """Copy X's role and use its night action on Y now (step 5). The joker, the maniac and
    the hermit are uncopyable; a role without a night action gives nothing."""
    g = n.g
    x, y = targets
    if x.role in params.get("uncopyable", ()):
        spec = "uncopyable"
    else:
        spec = primary_night_ability(g, x.role)
        if spec is not None and spec.targets != 1:
            spec = "uncopyable"
    if spec is None or spec == "uncopyable":
        g.emit("copy_result", g.to(actor), to=actor.name, target=x.name,
               result=spec or "nothing")
        return
    g.emit("copy_result", g.to(actor), to=actor.name, target=x.name, result=spec.id)
    run_ability(n, actor, spec, [y])


# ---- the maniac, the hermit and the Mummy --------------------------------------------------

def guard_mummy(n, p) -> None:
    """Nothing removes the Mummy at night: his own protection from every kill tonight."""
    _heal(n, p, [p], _MUMMY_GUARD)


def rise(n, maniac, hermit) -> None:
    """The maniac killed the hermit: the maniac dies (if still in the game), the hermit
    rises as the Mummy at once and nothing removes him this night."""
    g = n.g
    g.emit("hermit_killed", HOST, player=hermit.name, by=maniac.name)
    if maniac.alive:
        n.attack(None, maniac, "suicide", "killed_hermit")
    g.emit("role_changed", g.to(hermit), player=hermit.name, role=MUMMY, was=hermit.role)
    g.emit("faction_changed", HOST, player=hermit.name, faction=MUMMY)
    guard_mummy(n, hermit)


@hook("night_start", "osiris_mummy")
def mummy_night(n, params):
    for p in n.s.order:
        if p.alive and p.role == MUMMY:
            guard_mummy(n, p)


@mechanic("osiris_maniac_kill")
def maniac_kill(n, actor, targets, params):
    """A direct kill; the maniac's kill on the hermit makes the Mummy instead."""
    t = targets[0]
    if actor.role == "maniac" and t.role == "hermit":
        rise(n, actor, t)
        return
    n.attack(actor, t, "direct", params.get("cause", "kill"), how=params.get("how", "killed"))


@mechanic("osiris_poison")
def poison(n, actor, targets, params):
    """A delayed kill: the victim dies at the kill step of the next night, unless a boss
    heals him that night."""
    g = n.g
    t = targets[0]
    step = g.rules.abilities[n.current.ability].step
    g.emit("poisoned", HOST, player=t.name, by=actor.name)
    g.set_status(t, "poisoned", actor.name, until=n.idx + 2)
    g.emit("scheduled", HOST, item={"effect": "osiris_delayed_kill", "night_idx": n.idx + 2,
                                    "step": step, "target": t.name, "by": actor.name})


@scheduled("osiris_delayed_kill")
def delayed_kill(n, item):
    s = n.s
    t = s.players[item["target"]]
    by = s.players[item["by"]]
    if not t.alive:
        return
    if by.role == "maniac" and t.role == "hermit" and not n.is_shielded(t):
        rise(n, by, t)
        return
    n.attack(by, t, "delayed", "poison")


@hook("on_eliminated", "osiris_hermit_gains")
def hermit_gains(g, dead):
    """The hermit takes the night action of the player voted out; a player without one
    leaves him with what he had."""
    if dead.how != "lynched":
        return
    spec = primary_night_ability(g, dead.role)
    if spec is None:
        return
    for h in g.state.order:
        if h.alive and h.role == "hermit":
            g.set_status(h, "held_action", spec.key, until=FOREVER)
            g.emit("action_gained", g.to(h), to=h.name, ability=spec.id, key=spec.key,
                   player=dead.name)


@constraint("osiris_held_targets", targets=False, listed=True)
def held_targets(g, p, ab, ts, params):
    key = g.state.status_value(p, "held_action")
    if key is None:
        return None
    spec = g.rules.abilities[key]
    if spec.targets != ab.targets:
        use = "act" if spec.targets == 1 else "act2"
        return (f"«{ab.name_ru}»: у полученного действия «{spec.name_ru}» целей: "
                f"{spec.targets}; используйте {use}.",
                f"'{ab.name_en}': the held action '{spec.name_en}' takes {spec.targets} "
                f"target(s); use {use}.")
    return None


@mechanic("osiris_hermit_act", visits=False, counts_as_out=False)
def hermit_act(n, actor, targets, params):
    """Step 1: the held action is used at its own step (the library hook ``run_copies``)."""
    g = n.g
    key = g.state.status_value(actor, "held_action")
    if key is None:
        return
    spec = g.rules.abilities[key]
    here = g.rules.abilities[n.current.ability].step if n.current is not None else "0"
    if g.rules.step_index[spec.step] <= g.rules.step_index[here]:
        run_ability(n, actor, spec, targets)
        return
    defer(n, actor, g.rules.abilities[key], targets)


# ---- «Суд Осириса» ----------------------------------------------------------------------------

@hook("step", "osiris_trial")
def trial(n, params):
    """Step 0: the rebels' boss, left the only living member of his mafia after a mate left,
    removes a random other player (never the Mummy, whom nothing removes at night);
    once a game, automatic, unstoppable. It is his night move: a boss who lost tonight's move
    (tied at the vote, or absent) keeps it for a later night; the tied (untouchable tonight)
    are not in the draw."""
    g = n.g
    s = n.s
    for p in s.order:
        if not p.alive or p.role != params.get("role") or s.has(p, "trial_used"):
            continue
        mates = [q for q in s.order if q.faction == p.faction and q is not p]
        if not mates or any(q.alive for q in mates):
            continue
        if n.is_blocked(p) or s.has(p, "no_action"):
            g.emit("blocked", HOST, player=p.name, by=n.blocked_by.get(p.name),
                   ability="osiris_trial")
            continue
        pool = [q.name for q in s.order if q.alive and q is not p and q.role != MUMMY
                and q.name not in n.dead_now and not n.is_shielded(q)]
        if not pool:
            continue
        victim = g.roll("osiris_trial", pool)
        g.set_status(p, "trial_used", True, until=FOREVER)
        g.emit("revenge", HOST, player=p.name, target=victim)
        n.kill_now(s.players[victim], "osiris_trial", how="killed")


# ---- the Mummy's victory -------------------------------------------------------------------

@condition("osiris_game_ends")
def game_ends(census, own, me, arg):
    """The game ends now: another faction's goal holds, or nobody else is left.

    The Mummy's co-win. The engine's ``co_win`` flag is not used: a co-winner is only asked
    when another faction wins, so a Mummy left alone would never end the game."""
    g = census.g
    if all(p is me for p in census.alive):
        return True
    for fid, fac in g.rules.factions.items():
        if fid == own or fac.co_win:
            continue
        if fac.solo:
            if any(p.faction == fid and holds(g, fac.win, fid, p) for p in census.alive):
                return True
        elif census.by_faction.get(fid) and holds(g, fac.win, fid, None):
            return True
    return False
