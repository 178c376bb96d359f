"""«Понедельник начинается в субботу» (seed 003, section #32): mechanics data cannot say.

Nobody is killed: every removal is a lock (``how: locked``) or, for the genie, being taken
away (``how: taken``). A lock made during the night takes effect at once for the rest of
the night (the locked player's later moves fail: "правило тапок"), but the player leaves
the game only at dawn, so the locksmith at step 12 can still let him out. On the first
night every lock is delayed to step 11 of night 2.

Every niichavo ability goes through ``_arrive`` when it reaches its target, which applies,
in this order: the Lucky one exposing a mafia/single visitor, the observer's drink, the
pony's partner being unavailable, the candidate's cover, the alchemist's invulnerability,
Kolobok rolling away, the night guard, and the coin. Copied moves (Janus, the cat), the
troll's swap and the sofa's roles are "plans" run at the start of the step they belong to;
they keep the copied ability's rules, checked when performed. Kolobok's magic lock is chosen
at step 2 and made at step 10 in sending order (``_defer``). The candidate's cover protects
the ward's task: his moves tonight, until the last of them is made (``_task_open``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...engine.events import HOST, PUBLIC
from ...engine.mechanics import condition, constraint, hook, mechanic, scheduled, tie_policy
from ...engine.night import run_ability

# ---- helpers ---------------------------------------------------------------------------


@dataclass
class NiichavoNight:
    """What the night's steps of the institute tell each other (``_x(n)``, the night's
    ``n.notes(NiichavoNight)``; see ``engine.notes``)."""
    step: str | None = None                   # the step being resolved (steps' own hooks)
    locked: dict[str, tuple] = field(default_factory=dict)    # locked -> (by, cause)
    released: set[str] = field(default_factory=set)
    taken: dict[str, str] = field(default_factory=dict)       # taken away -> by
    lock_immune: set[str] = field(default_factory=set)
    immune: set[str] = field(default_factory=set)             # no negative effect tonight
    guards: dict[str, str] = field(default_factory=dict)      # ward -> guard
    ridden: dict[str, str] = field(default_factory=dict)      # ridden -> rider
    rides: dict[str, str] = field(default_factory=dict)       # rider -> ridden
    watch: dict[str, list] = field(default_factory=dict)      # watched -> observers
    seen: dict[str, list] = field(default_factory=dict)       # observer -> visitors seen
    reporters: list[tuple[str, str]] = field(default_factory=list)   # (observer, target)
    kolobok_met: set[str] = field(default_factory=set)
    plans: dict[str, list] = field(default_factory=dict)      # step -> moves planned for it
    swap: dict[str, tuple] = field(default_factory=dict)      # player -> (spec, targets)
    swap_done: set[str] = field(default_factory=set)
    plock_ok: set[str] = field(default_factory=set)
    release_needed: set[str] = field(default_factory=set)
    drinks: dict[str, int] = field(default_factory=dict)      # observer -> drinks seen
    cover: dict[str, str] = field(default_factory=dict)       # covered -> by
    task: dict[str, int] = field(default_factory=dict)        # covered -> task's last step
    acted: dict[str, int] = field(default_factory=dict)       # player -> step index acted
    ordered: dict[str, list] = field(default_factory=dict)    # step -> [(seq, fn)]


def _x(n) -> NiichavoNight:
    return n.notes(NiichavoNight)


def _tags(g, p) -> frozenset:
    return g.rules.roles[p.role].tags


def _side(g, p) -> str:
    return g.rules.factions[p.faction].side


def _main_spec(g, role_id):
    """The role's main ability (the first one in the main slot), or None."""
    ab = g.rules.abilities
    for aid in g.rules.roles[role_id].abilities:
        spec = ab[f"{role_id}.{aid}"]
        if spec.slot == "main" and spec.phase == "night":
            return spec
    return None


def _no(n, actor, why, **kw) -> None:
    ab = None
    if n.current is not None and n.current.actor == actor.name:
        ab = n.g.rules.abilities[n.current.ability].id
    n.g.emit("no_effect", HOST, player=actor.name, ability=ab, why=why, **kw)


def _arrive(n, actor, t, negative=False, kind="other") -> bool:
    """Does ``actor``'s move reach ``t``? Applies every interception of the night."""
    g = n.g
    x = _x(n)
    if t is actor:
        return True
    person = kind != "genie"
    # a ward covered by the candidate does his task: nobody may stop him (the observer's
    # drink, the night guard); the Lucky one's reactions are the exception
    ward = actor.name in x.cover
    # the Lucky one exposes any mafioso or single who comes (the cover does not hide him)
    if person and "lucky" in _tags(g, t) and _side(g, actor) in ("criminal", "single"):
        g.emit("visitor_known", g.to(t), to=t.name, visitor=actor.name,
               side="mafia" if _side(g, actor) == "criminal" else "single")
    # the observer at his post offers every later visitor a drink
    if person:
        for obs in x.watch.get(t.name, ()):
            if obs == actor.name:
                continue
            x.seen.setdefault(obs, []).append(actor.name)
            if ward:
                g.emit("no_effect", HOST, player=obs, ability="watch", why="covered",
                       target=actor.name)
                continue
            if g.chance(f"drink {actor.name}", 0.5):
                op = g.state.players[obs]
                n.block(actor, op)
                x.drinks[obs] = x.drinks.get(obs, 0) + 1
                g.emit("drunk", HOST, player=actor.name, by=obs)
                return False
    rider = x.ridden.get(t.name)
    if rider is not None and rider != actor.name:
        _no(n, actor, "busy_with_pony", target=t.name)
        return False
    if negative and actor.faction != t.faction and "lucky" not in _tags(g, actor) \
            and _task_open(n, t):
        _no(n, actor, "covered", target=t.name, by=x.cover[t.name])
        return False
    if negative and t.name in x.immune:
        _no(n, actor, "invulnerable", target=t.name)
        return False
    if "rolls_away" in _tags(g, t) and t.name not in x.kolobok_met:
        x.kolobok_met.add(t.name)
        if not g.chance(f"kolobok {t.name} stands", 0.25):
            g.emit("rolled_away", HOST, player=t.name, visitor=actor.name)
            return False
    if negative and kind not in ("drink", "recruit", "ask"):
        guard = x.guards.get(t.name)
        if guard is not None and guard != actor.name and guard not in n.dead_now:
            gp = g.state.players[guard]
            if gp.alive and ward:
                g.emit("no_effect", HOST, player=guard, ability="guard", why="covered",
                       target=actor.name)
            elif gp.alive:
                if kind == "lock_direct":
                    g.emit("stunned", HOST, player=actor.name, by=guard, ward=t.name)
                    _lock(n, actor, gp, "guard")
                else:
                    g.emit("scared_off", HOST, player=actor.name, by=guard, ward=t.name)
                return False
    if negative and g.state.has(t, "bonus_coin"):
        if g.chance(f"coin {t.name}", 0.5):
            g.emit("saved", HOST, player=t.name, by="coin", cause=kind)
            return False
    return True


# ---- the candidate's cover: the ward's task ------------------------------------------------


def _effective_step(g, p, a):
    """The step at which ``p``'s recorded move ``a`` really acts (copies, the cat, the sofa
    act at the copied ability's step; Kolobok's lock at the lockers' step)."""
    ab = g.rules.abilities[a.ability]
    s = g.state
    if ab.id in ("copy", "copy2") and a.targets:
        src = s.players[a.targets[0]]
        spec = None if "uncopyable" in _tags(g, src) else _main_spec(g, src.role)
        return spec.step if spec is not None else None
    if ab.id in ("imagine", "imagine2"):
        if s.number <= 2:
            return "11"
        role = s.status_value(p, "cat_as")
        spec = _main_spec(g, role) if role else None
        return spec.step if spec is not None else None
    if ab.id == "sofa":
        spec = g.rules.abilities.get(f"{s.status_value(p, 'sofa')}.act")
        return spec.step if spec is not None else None
    if ab.id == "magic":
        return "10"
    return ab.step


def _task_open(n, t) -> bool:
    """Is ``t`` a covered ward whose task (his moves tonight) is not done yet?"""
    x = _x(n)
    if t.name not in x.cover:
        return False
    end = x.task.get(t.name)
    if end is None:
        return False
    cur = n.g.rules.step_index[x.step or "6"]
    if cur != end:
        return cur < end
    return x.acted.get(t.name) != end


def _ordered_flush(n, upto=None) -> None:
    """Run the deferred acts of this and earlier steps sent before ``upto`` (a seq)."""
    x = _x(n)
    if not x.ordered:
        return
    rules = n.g.rules
    cur = rules.step_index[x.step or "1"]
    for step in sorted(x.ordered, key=lambda k: rules.step_index[k]):
        k = rules.step_index[step]
        if k > cur:
            break
        items = x.ordered[step]
        if k == cur and upto is not None:
            now = [it for it in items if it[0] < upto]
        else:
            now = list(items)
        for it in now:
            items.remove(it)
            it[1]()
        if not items:
            del x.ordered[step]


def _defer(n, step, actor, fn) -> None:
    """Act at ``step`` in sending order (the seq of ``actor``'s move tonight)."""
    seq = n.current.seq if n.current is not None and n.current.actor == actor.name else None
    if seq is None:
        seq = min((a.seq for a in n.g.state.pending if a.actor == actor.name), default=0)
    _x(n).ordered.setdefault(step, []).append((seq, fn))


# ---- locks -----------------------------------------------------------------------------


def _lock(n, t, by, cause) -> bool:
    """Lock ``t`` tonight: his later moves fail; he leaves at dawn unless let out."""
    g = n.g
    x = _x(n)
    if not t.alive or t.name in x.locked or t.name in x.taken:
        return False
    if t.name in x.lock_immune:
        g.emit("no_effect", HOST, player=by.name if by else None, why="lock_immune",
               target=t.name)
        return False
    x.locked[t.name] = (by.name if by else None, cause)
    n.dead_now.add(t.name)
    g.emit("lock", HOST, player=t.name, by=by.name if by else None, cause=cause)
    if by is not None and by is not t and g.state.has(t, "bonus_tooth"):
        g.set_status(by, "dracula", n.idx + 2, until=n.idx + 2)
    partner = x.rides.get(t.name)
    if partner is not None:
        _lock(n, g.state.players[partner], by, "pony_partner")
    return True


def _schedule_lock(n, t, by, cause) -> None:
    g = n.g
    g.emit("lock_delayed", HOST, player=t.name, by=by.name, cause=cause)
    g.emit("scheduled", HOST, item={"effect": "niichavo_delayed_lock", "night_idx": n.idx + 2,
                                    "step": "11", "target": t.name, "by": by.name,
                                    "cause": cause})


def _cursed(n, actor, t) -> bool:
    """Dracula's tooth: the one who locked its holder drinks his next victim instead."""
    g = n.g
    if g.state.status_value(actor, "dracula") != n.idx:
        return False
    g.clear_status(actor, "dracula")
    n.block(t, actor)
    _x(n).lock_immune.add(t.name)
    g.emit("drunk", HOST, player=t.name, by=actor.name, why="dracula")
    return True


def _try_lock(n, actor, t, cause, delayed=False, direct=True) -> bool:
    """A lock move on ``t``; True when a lock was made or scheduled. An indirect lock
    (Kolobok's magic) is only scared off by the night guard."""
    first = n.s.number == 1
    kind = "lock_delayed" if delayed or first else "lock_direct" if direct else "lock_magic"
    if not _arrive(n, actor, t, negative=True, kind=kind):
        return False
    if _cursed(n, actor, t):
        return False
    if kind == "lock_delayed":
        _schedule_lock(n, t, actor, cause)
        return True
    ok = _lock(n, t, actor, cause)
    if ok and "lucky" in _tags(n.g, t) and t is not actor:
        n.g.emit("locked_together", HOST, player=actor.name, lucky=t.name)
        _lock(n, actor, t, "lucky")
    return ok


@scheduled("niichavo_delayed_lock")
def delayed_lock(n, item):
    g = n.g
    x = _x(n)
    t = g.state.players[item["target"]]
    by = g.state.players[item["by"]]
    if not t.alive:
        return
    why = None
    if x.ridden.get(t.name):
        why = "busy_with_pony"
    elif _task_open(n, t) and by.faction != t.faction:
        why = "covered"
    elif t.name in x.immune:
        why = "invulnerable"
    elif x.guards.get(t.name) and x.guards[t.name] not in n.dead_now:
        g.emit("scared_off", HOST, player=by.name, by=x.guards[t.name], ward=t.name)
        return
    elif g.state.has(t, "bonus_coin") and g.chance(f"coin {t.name}", 0.5):
        why = "coin"
    if why:
        g.emit("no_effect", HOST, player=by.name, why=why, target=t.name, ability="delayed")
        return
    ok = _lock(n, t, by, item.get("cause", "delayed"))
    # «Если кто-то попытается запереть его ночью, то он запрется вместе с ним»: a delayed
    # lock (every first-night lock) takes its locker along when it fires
    if ok and "lucky" in _tags(g, t) and by is not t and by.alive:
        g.emit("locked_together", HOST, player=by.name, lucky=t.name)
        _lock(n, by, t, "lucky")


# ---- plans: moves run at another step (copies, swaps, the sofa) -------------------------


def _plan(n, step, actor, spec, targets) -> None:
    x = _x(n)
    rules = n.g.rules
    cur = _current_step(n)
    if cur is not None and rules.step_index[step] <= rules.step_index[cur]:
        _run_plan(n, actor, spec, targets)
        return
    x.plans.setdefault(step, []).append((actor, spec, targets))


def _current_step(n):
    return _x(n).step


def _run_plan(n, actor, spec, targets) -> None:
    g = n.g
    if not actor.alive or actor.name in n.dead_now:
        g.emit("no_effect", HOST, player=actor.name, ability=spec.id, why="dead")
        return
    if spec.blockable and n.is_blocked(actor):
        g.emit("blocked", HOST, player=actor.name, by=n.blocked_by.get(actor.name),
               ability=spec.id)
        return
    if any(not t.alive for t in targets):
        g.emit("no_effect", HOST, player=actor.name, ability=spec.id, why="dead")
        return
    # a move made with another role's ability (Janus, the cat, a swap) keeps that ability's
    # own rules on targets; the rest (the troll's list, the cover's own team) are checked
    # by the mechanics themselves, at performance, where a failure tells nobody anything
    if spec.self_target == "forbidden" and any(t is actor for t in targets):
        g.emit("no_effect", HOST, player=actor.name, ability=spec.id, why="self_target")
        return
    if spec.distinct_targets and len({t.name for t in targets}) != len(targets):
        g.emit("no_effect", HOST, player=actor.name, ability=spec.id, why="same_targets")
        return
    saved = n.current
    n.current = None
    run_ability(n, actor, spec, targets)
    n.current = saved


@hook("step", "niichavo_plans")
def plans(n, params):
    x = _x(n)
    step = str(params.get("step"))
    prev = x.step
    if prev is not None:
        _ordered_flush(n)          # deferred acts of the step that just ended
    x.step = step
    if step == "12":
        _self_release_exempt(n)
    elif step == "13":
        # a locksmith who could not let himself out is locked again for the rest of the night
        n.dead_now.update(name for name in x.locked if name not in x.released)
    for item in x.plans.pop(step, ()):
        if callable(item):
            item()
        else:
            _run_plan(n, *item)


def _self_release_exempt(n) -> None:
    """«...освободить от запирания в эту ночь выбранного игрока или себя»: a locksmith
    locked tonight (not in the director's office) may still let himself out."""
    g = n.g
    x = _x(n)
    for a in g.state.pending:
        if g.rules.abilities[a.ability].id != "release" or list(a.targets) != [a.actor]:
            continue
        lock = x.locked.get(a.actor)
        if lock is not None and lock[1] != "guard" and a.actor not in x.taken:
            n.dead_now.discard(a.actor)


def _swapped(n, actor) -> bool:
    """The troll swapped this player's main move: perform the other one's instead."""
    x = _x(n)
    sw = x.swap
    if not sw or actor.name not in sw or actor.name in x.swap_done:
        return False
    cur = n.current
    if cur is None or cur.actor != actor.name:
        return False
    if n.g.rules.abilities[cur.ability].slot != "main":
        return False
    x.swap_done.add(actor.name)
    if actor.name in x.cover:
        # the candidate's ward does his own task: the swap does not reach his move
        _no(n, actor, "covered_swap")
        return False
    spec, targets = sw[actor.name]
    n.g.emit("swapped_move", HOST, player=actor.name, ability=spec.id if spec else None)
    if spec is not None:
        _run_plan(n, actor, spec, targets)
    return True


def nmech(name, visits=True):
    """Register a niichavo mechanic: the troll's swap is checked before the body runs."""
    def deco(body):
        def fn(n, actor, targets, params):
            x = _x(n)
            if n.current is not None and n.current.actor == actor.name:
                # the slipper rule for deferred acts (Kolobok's lock) sent before this move
                _ordered_flush(n, n.current.seq)
                if actor.name in n.dead_now:
                    _no(n, actor, "dead")
                    return
            x.acted[actor.name] = n.g.rules.step_index[x.step or "1"]
            if _swapped(n, actor):
                return
            body(n, actor, targets, params)
        fn.__doc__ = body.__doc__
        mechanic(name, cover_aware=True, visits=visits)(fn)
        return body
    return deco


# ---- town ------------------------------------------------------------------------------

_SIDE_WORD = {"criminal": "mafia", "single": "single", "town": "town"}
_MAFIA = "mafia"


@nmech("niichavo_ask")
def ask(n, actor, targets, params):
    """«Где ты был с 8 до 11?»: the side of the target; the night guard, the observer, the
    Lucky one join the director's group, an unhired pony and the locksmith with 50%."""
    g = n.g
    t = targets[0]
    if not _arrive(n, actor, t, kind="ask"):
        g.emit("check_result", g.to(actor), to=actor.name, target=t.name, result="no_answer")
        return
    g.emit("check_result", g.to(actor), to=actor.name, target=t.name,
           result=_SIDE_WORD[_side(g, t)])
    if actor.role != "director" and not g.state.has(actor, "director_heir"):
        return
    head = g.state.status_value(actor, "director_heir") or actor.name
    if g.state.has(t, "in_group"):
        return
    role = t.role
    ok = False
    if role in ("night_guard", "observer", "lucky") and t.faction == "town":
        ok = True
    elif role == "pony" and t.faction == "town":
        ok = g.chance(f"pony {t.name} joins", 0.5)
    elif role == "locksmith" and t.faction == "locksmith":
        ok = g.chance(f"locksmith {t.name} joins", 0.5)
        if ok:
            g.emit("faction_changed", g.to(t), player=t.name, faction="town")
            g.set_status(t, "joined", actor.name)
    if ok:
        g.set_status(t, "in_group", head)
        members = [p for p in g.state.order if p.alive and
                   (p.name == head or g.state.status_value(p, "in_group") == head)]
        if actor not in members:
            members.append(actor)
        names = [p.name for p in members]
        g.emit("team", g.to(*members), faction="director_group", members=names)


@nmech("niichavo_director_lock")
def director_lock(n, actor, targets, params):
    """Lock a mafioso or single; a town target makes the director lock himself."""
    g = n.g
    t = targets[0]
    if t.faction == "town":
        if not _arrive(n, actor, t, negative=True,
                       kind="lock_delayed" if n.s.number == 1 else "lock_direct"):
            return
        g.emit("wrong_shot", HOST, player=actor.name, target=t.name)
        if n.s.number == 1:
            _schedule_lock(n, actor, actor, "director_grief")
        else:
            _lock(n, actor, actor, "director_grief")
        return
    _try_lock(n, actor, t, "director")


@nmech("niichavo_guard")
def guard(n, actor, targets, params):
    """Follow the ward: a direct locker is stunned and locked, anything else harmful is
    scared off (not a drink, a recruitment or the director's question)."""
    t = targets[0]
    if _arrive(n, actor, t):
        _x(n).guards[t.name] = actor.name


@nmech("niichavo_block")
def nblock(n, actor, targets, params):
    """The target cannot go out for the rest of the night (Maxwell's demon, the thug)."""
    t = targets[0]
    if _arrive(n, actor, t, negative=True):
        n.block(t, actor)
        n.g.emit("shut_in", HOST, player=t.name, by=actor.name, why=params.get("why", "block"))


@nmech("niichavo_ride")
def ride(n, actor, targets, params):
    """The pony's partner is busy: blocked and unavailable to every other move tonight;
    a lock on the pony takes the partner too."""
    t = targets[0]
    if not _arrive(n, actor, t, negative=True):
        return
    x = _x(n)
    n.block(t, actor)
    x.ridden[t.name] = actor.name
    x.rides[actor.name] = t.name
    n.mark(t, "ridden", actor.name)


@nmech("niichavo_watch", visits=False)
def watch(n, actor, targets, params):
    """Stand at the target's door: every later visitor is offered a drink (50%) and
    remembered (the observer only; a 25% chance one is forgotten)."""
    x = _x(n)
    x.watch.setdefault(targets[0].name, []).append(actor.name)
    if actor.role == "observer":
        x.seen.setdefault(actor.name, [])
        x.reporters.append((actor.name, targets[0].name))


@nmech("niichavo_send")
def send(n, actor, targets, params):
    """Send X to Y: X's move lands on Y; if X was already going to Y both get drunk:
    neither acts and neither votes next day."""
    g = n.g
    a, b = targets
    going = [p for p in g.state.pending if p.actor == a.name and p.targets
             and g.rules.abilities[p.ability].slot == "main"]
    drink = bool(going) and going[0].targets[0] == b.name
    if not _arrive(n, actor, a, negative=True, kind="drink" if drink else "other"):
        return
    if drink:
        for p in (a, b):
            n.block(p, actor)
            g.set_status(p, "voteless", "hangover", until=n.idx + 1)
            g.emit("vote_lost", PUBLIC, player=p.name, why="hangover")
        g.emit("drunk_together", HOST, players=[a.name, b.name], by=actor.name)
        return
    n.redirects[a.name] = (b.name, actor.name)
    g.emit("redirect_set", g.to(actor), to=actor.name, player=a.name, onto=b.name)


@nmech("niichavo_question", visits=False)
def question(n, actor, targets, params):
    """One question to the host: is the director in the game; how many town / mafia /
    singles are left; has anyone been hired yet."""
    g = n.g
    x = _x(n)
    gone = set(x.locked) - x.released | set(x.taken)
    alive = [p for p in g.state.order if p.alive and p.name not in gone]
    q = params["q"]
    if q == "director":
        result = "yes" if any(p.role == "director" for p in alive) else "no"
    elif q == "recruit":
        result = "yes" if g.state.counters.get("hired") else "no"
    else:
        want = {"town": ("town",), "mafia": ("criminal",), "singles": ("single",)}[q]
        result = sum(1 for p in alive if _side(g, p) in want)
    g.emit("answer", g.to(actor), to=actor.name, question=q, result=result)


@nmech("niichavo_release")
def release(n, actor, targets, params):
    """The locksmith lets a player (or himself) out of tonight's lock."""
    g = n.g
    t = targets[0]
    x = _x(n)
    if not _arrive(n, actor, t):
        return
    if t.name in x.locked and x.locked[t.name][1] == "guard":
        # stunned by the night guard: locked in the director's office for good
        g.emit("check_result", g.to(actor), to=actor.name, target=t.name, result="cannot")
        x.release_needed.add(actor.name)
    elif t.name in x.locked and t.name not in x.released:
        x.released.add(t.name)
        n.dead_now.discard(t.name)
        x.release_needed.add(actor.name)
        g.emit("unlocked", HOST, player=t.name, by=actor.name)
        g.emit("check_result", g.to(actor), to=actor.name, target=t.name, result="released")
    else:
        g.emit("check_result", g.to(actor), to=actor.name, target=t.name, result="not_needed")


# ---- mafia -----------------------------------------------------------------------------


@nmech("niichavo_cover")
def cover(n, actor, targets, params):
    """The candidate sees to it that his subordinate does his task tonight: until the
    ward's moves are made, harmful moves of outsiders on him fail, and nobody stops his
    moves (the observer's drink, the night guard, the troll's swap, the messenger's
    sending). The Lucky one's reactions are not stopped. A ward must be of the
    performer's own, non-solo team (a copy by the cat covers a town player)."""
    g = n.g
    t = targets[0]
    fac = g.rules.factions[actor.faction]
    if t.faction != actor.faction or fac.solo:
        _no(n, actor, "not_own_team", target=t.name)
        return
    if not _arrive(n, actor, t):
        return
    x = _x(n)
    x.cover[t.name] = actor.name
    ends = [g.rules.step_index[st] for a in g.state.pending if a.actor == t.name
            for st in [_effective_step(g, t, a)] if st is not None]
    if ends:
        x.task[t.name] = max(ends)
    n.mark(t, "covered", actor.name)
    if t.name in n.redirects:
        joker = n.redirects.pop(t.name)[1]
        g.emit("no_effect", HOST, player=joker, ability="send", why="covered", target=t.name)


@nmech("niichavo_swap")
def swap(n, actor, targets, params):
    """The troll swaps the main moves of two players; each does the other's move at his
    own step. No effect if either has already acted tonight."""
    g = n.g
    a, b = targets
    x = _x(n)
    for q in (a, b):
        # «Не может забаламутить своих сомафников, Посланца и Януса» (for whoever swaps)
        mates = _side(g, actor) == "criminal" and q.faction == actor.faction
        if mates or q.role in ("messenger", "janus"):
            _no(n, actor, "unswappable", target=q.name)
            return
    if not (_arrive(n, actor, a, negative=True) and _arrive(n, actor, b, negative=True)):
        return
    rules = g.rules
    now = rules.step_index[x.step or "4"]
    moves = {}
    for p in (a, b):
        mine = [q for q in g.state.pending if q.actor == p.name
                and rules.abilities[q.ability].slot == "main"]
        if mine and rules.step_index[rules.abilities[mine[0].ability].step] < now:
            _no(n, actor, "too_late", target=p.name)
            return
        moves[p.name] = (rules.abilities[mine[0].ability],
                         [g.state.players[t] for t in mine[0].targets]) if mine else (None, [])
    x.swap[a.name] = moves[b.name]
    x.swap[b.name] = moves[a.name]
    g.emit("swap_set", HOST, players=[a.name, b.name], by=actor.name)


@nmech("niichavo_invent")
def invent(n, actor, targets, params):
    """Vybegallo's invention: the target is locked tonight or tomorrow night (dice)."""
    g = n.g
    t = targets[0]
    when = "next_night" if n.s.number == 1 else g.roll(f"invention on {t.name}",
                                                        ["this_night", "next_night"])
    _try_lock(n, actor, t, "invention", delayed=when == "next_night")


@nmech("niichavo_hire")
def hire(n, actor, targets, params):
    """Hire Janus, the messenger, an unhired pony outside the director's group or Kolobok:
    50% the first time a player is tried, 75% the second, then 100%."""
    g = n.g
    t = targets[0]
    if not _arrive(n, actor, t, negative=True, kind="recruit"):
        g.emit("recruit_failed", g.to(actor), player=t.name, to=actor.name)
        return
    ok_role = t.role in ("janus", "messenger", "pony", "kolobok")
    if not ok_role or t.faction == _MAFIA or g.state.has(t, "in_group"):
        g.emit("recruit_failed", g.to(actor), player=t.name, to=actor.name)
        return
    tries = g.state.status_value(t, "hr_tries", 0) + 1
    g.set_status(t, "hr_tries", tries)
    p = {1: 0.5, 2: 0.75}.get(tries, 1.0)
    if p < 1.0 and not g.chance(f"hire {t.name} (try {tries})", p):
        g.emit("recruit_failed", g.to(actor), player=t.name, to=actor.name)
        return
    # «принимает цель мафии»: the hired join the mafia, whoever hires (the cat imagining
    # the HR head learns that the hiring worked, not the mafia's members)
    team = g.faction_members(_MAFIA) + [t]
    told = team if actor in team else team + [actor]
    g.emit("recruited", g.to(*told), player=t.name, faction=_MAFIA, to=t.name)
    g.set_status(t, "recruited", actor.name)
    if t.role == "kolobok":
        g.emit("role_changed", g.to(t), player=t.name, role="kolobok_hired", was="kolobok")
    g.emit("counter", HOST, key="hired", value=g.state.counters.get("hired", 0) + 1)
    g.emit("team", g.to(*team), faction=_MAFIA, members=[p.name for p in team])


@nmech("niichavo_genie", visits=False)
def genie(n, actor, targets, params):
    """The genie takes three random players: each 50% taken away, 25% loses the day's
    vote, 25% nothing. The Lucky one is immune."""
    g = n.g
    x = _x(n)
    # the genie leaves the bottle only now: a releaser locked earlier tonight never frees
    # it, and the bottle can still be found
    g.emit("counter", HOST, key="genie_used", value=actor.name)
    pool = [p.name for p in g.state.order if p.alive and p is not actor
            and p.name not in x.locked and p.name not in x.taken]
    picked = []
    for _ in range(min(3, len(pool))):
        name = g.roll("genie picks", pool)
        pool.remove(name)
        picked.append(name)
    for name in picked:
        t = g.state.players[name]
        if "lucky" in _tags(g, t):
            g.emit("no_effect", HOST, player=actor.name, why="lucky_immune", target=name)
            continue
        fate = g.roll(f"genie: {name}", ["taken", "taken", "voteless", "nothing"])
        if fate == "nothing" or not _arrive(n, actor, t, negative=True, kind="genie"):
            continue
        if fate == "taken":
            x.taken[name] = actor.name
            n.dead_now.add(name)
            g.emit("taken", HOST, player=name, by=actor.name)
        else:
            g.set_status(t, "voteless", "genie", until=n.idx + 1)
            g.emit("vote_lost", PUBLIC, player=name, why="genie")


# ---- singles ---------------------------------------------------------------------------


@nmech("niichavo_plock")
def plock(n, actor, targets, params):
    """The pervert locks a player (a direct lock, first sent first served)."""
    if _try_lock(n, actor, targets[0], "pervert"):
        _x(n).plock_ok.add(actor.name)


@nmech("niichavo_copy", visits=False)
def copy(n, actor, targets, params):
    """Janus copies X's main move and uses it on the others; the director, the cat, the
    Lucky one and the HR head cannot be copied."""
    g = n.g
    src, rest = targets[0], list(targets[1:])
    if "uncopyable" in _tags(g, src):
        g.emit("copy_result", g.to(actor), to=actor.name, target=src.name, result="uncopyable")
        return
    # the seed's only answer is 'uncopyable'; otherwise Janus simply acts (he is not told
    # the copied role, nor that a civilian had nothing to copy)
    spec = _main_spec(g, src.role)
    if spec is None:
        _no(n, actor, "nothing_to_copy", copied=src.role)
        return
    if spec.targets != len(rest):
        _no(n, actor, "targets", copied=src.role)
        return
    _plan(n, spec.step, actor, spec, rest)


@nmech("niichavo_imagine", visits=False)
def imagine(n, actor, targets, params):
    """The cat acts with the ability the dice gave him, at that ability's step."""
    g = n.g
    if n.s.number <= 2:
        # nights 1-2: the targets are named blind; after the lockers (step 11) the dice
        # pick a player blocked this very night and the cat acts with his ability
        ts = list(targets)
        _x(n).plans.setdefault("11", []).append(lambda: _cat_blind(n, actor, ts))
        return
    role = g.state.status_value(actor, "cat_as")
    spec = _main_spec(g, role) if role else None
    if spec is None:
        _no(n, actor, "nothing_imagined")
        return
    _plan(n, spec.step, actor, spec, list(targets))


def _cat_blind(n, cat, targets) -> None:
    g = n.g
    s = g.state
    k = len(targets)
    pool = [p.name for p in s.order if p.name in n.blocked_by and p is not cat
            and p.role != "cat" and _main_spec(g, p.role) is not None
            and _main_spec(g, p.role).targets == k]
    if pool:
        role = s.players[g.roll("cat imagines", pool)].role
        g.set_status(cat, "cat_as", role)
        g.emit("imagined", g.to(cat), to=cat.name, role=role)
    else:
        role = s.status_value(cat, "cat_as")      # nobody blocked: he keeps last night's
    spec = _main_spec(g, role) if role else None
    if spec is None or spec.targets != k:
        g.emit("no_effect", HOST, player=cat.name, ability="imagine", why="nothing_imagined")
        return
    _run_plan(n, cat, spec, targets)


@nmech("niichavo_magic")
def magic(n, actor, targets, params):
    """Kolobok's magic blow: the dice decide: locked, forgets to go, or no vote tomorrow.
    The Lucky one is immune."""
    g = n.g
    t = targets[0]
    if "lucky" in _tags(g, t):
        _no(n, actor, "lucky_immune", target=t.name)
        return
    fate = g.roll(f"magic on {t.name}", ["locked", "forgets", "voteless"])
    if fate == "locked":
        # the dice choose at step 2; the lock itself is made with the lockers at step 10,
        # in sending order (the guard, the cover, the pony can stop it there)
        _defer(n, "10", actor, lambda: _magic_lock(n, actor, t))
        return
    if not _arrive(n, actor, t, negative=True):
        return
    if fate == "forgets":
        n.block(t, actor)
        g.emit("shut_in", HOST, player=t.name, by=actor.name, why="forgets")
    else:
        g.set_status(t, "voteless", "magic", until=n.idx + 1)
        g.emit("vote_lost", PUBLIC, player=t.name, why="magic")


def _magic_lock(n, actor, t) -> None:
    g = n.g
    if not actor.alive or actor.name in n.dead_now:
        g.emit("no_effect", HOST, player=actor.name, ability="magic", why="dead")
        return
    if n.is_blocked(actor):
        g.emit("blocked", HOST, player=actor.name, by=n.blocked_by.get(actor.name),
               ability="magic")
        return
    if not t.alive or t.name in n.dead_now:
        g.emit("no_effect", HOST, player=actor.name, ability="magic", why="dead")
        return
    _x(n).acted[actor.name] = g.rules.step_index["10"]
    _try_lock(n, actor, t, "magic", direct=False)


# ---- bonuses ---------------------------------------------------------------------------


@nmech("niichavo_sofa", visits=False)
def sofa(n, actor, targets, params):
    """The sofa's role for the night: the thug stuns (pony's step), the crazy alchemist
    makes invulnerable (guard's step), the shaman curses (Janus's step)."""
    g = n.g
    role = g.state.status_value(actor, "sofa")
    spec = g.rules.abilities.get(f"{role}.act")
    if spec is None:
        _no(n, actor, "no_sofa_role")
        return
    _plan(n, spec.step, actor, spec, list(targets))


@nmech("niichavo_shield")
def shield(n, actor, targets, params):
    """Invulnerable to every harmful move tonight (the crazy alchemist)."""
    t = targets[0]
    if _arrive(n, actor, t):
        _x(n).immune.add(t.name)
        n.mark(t, "invulnerable", actor.name)


@nmech("niichavo_curse")
def curse(n, actor, targets, params):
    """The shaman's curse: 50% the target's move fails and he does not vote tomorrow."""
    g = n.g
    t = targets[0]
    if not _arrive(n, actor, t, negative=True):
        return
    if g.chance(f"curse {t.name}", 0.5):
        n.block(t, actor)
        g.set_status(t, "voteless", "curse", until=n.idx + 1)
        g.emit("vote_lost", PUBLIC, player=t.name, why="curse")


# ---- constraints -----------------------------------------------------------------------


@constraint("niichavo_awake", targets=False)
def awake(g, p, ab, ts, params):
    """On the sofa a player has the sofa's role instead of his own."""
    if p.st and g.state.has(p, "sofa"):
        return ("Этой ночью вы спите на диване: вместо своей роли у вас роль дивана.",
                "Tonight you sleep on the sofa: you have the sofa's role instead of your own.")
    return None


@constraint("niichavo_troll_targets", position="each")
def troll_targets(g, p, ab, ts, params):
    """Fellow mafiosi (whom the troll knows) are refused at once; the messenger and Janus
    are not refused here (that would tell him their roles): the swap fails at night."""
    for t in ts:
        q = g.state.players[t]
        if q.faction == p.faction and _side(g, p) == "criminal":
            return ("Тролль не может забаламутить своих сомафников.",
                    "The troll cannot swap fellow mafiosi.")
    return None


@constraint("niichavo_cat_targets")
def cat_targets(g, p, ab, ts, params):
    if g.state.number <= 2:
        return None          # nights 1-2: targets named blind (the dice pick at step 11)
    role = g.state.status_value(p, "cat_as")
    spec = _main_spec(g, role) if role else None
    if spec is None:
        return ("Кот пока никем себя не вообразил.",
                "The cat has not imagined being anyone yet.")
    if spec.targets != len(ts):
        return (f"Сейчас Кот воображает себя ролью «{g.rules.roles[role].name_ru}»: "
                f"целей нужно {spec.targets}.",
                f"The cat now imagines being '{g.rules.roles[role].name_en}': "
                f"it takes {spec.targets} target(s).")
    return None


# ---- night start and dawn --------------------------------------------------------------


@hook("night_start", "niichavo_night")
def night_start(n, params):
    _x(n)


@hook("dawn", "niichavo_dawn")
def dawn(n, params):
    g = n.g
    s = g.state
    x = _x(n)
    # the observer's report: 25% that he forgets one visitor
    for obs, target in x.reporters:
        seen = list(dict.fromkeys(x.seen.get(obs, [])))
        if seen and g.chance(f"observer {obs} forgets someone", 0.25):
            seen.remove(g.roll(f"observer {obs} forgets", seen))
        g.emit("watch_result", g.to(obs), to=obs, target=target, visitors=seen)
    # three drunk players: the observer is out of action the next night
    for obs, k in x.drinks.items():
        p = s.players[obs]
        if p.role != "observer":
            continue
        total = s.status_value(p, "drinks", 0) + k
        if total >= 3:
            g.set_status(p, "drinks", 0)
            g.set_status(p, "no_action", "hangover", until=n.idx + 2)
            g.emit("passed_out", g.to(p), to=obs)
        else:
            g.set_status(p, "drinks", total)
    # the pervert's two forms
    for a in s.pending:
        p = s.players[a.actor]
        ab = g.rules.abilities[a.ability]
        if not p.alive:
            continue
        if p.role == "pervert" and ab.id == "lock":
            idle = 0 if p.name in x.plock_ok else s.status_value(p, "idle", 0) + 1
            g.set_status(p, "idle", idle)
            if idle >= 2:
                g.set_status(p, "idle", 0)
                g.emit("role_changed", g.to(p), player=p.name, role="locksmith", was="pervert")
                g.emit("faction_changed", HOST, player=p.name, faction="locksmith")
        elif p.role == "locksmith" and ab.id == "release":
            idle = 0 if p.name in x.release_needed else s.status_value(p, "idle", 0) + 1
            g.set_status(p, "idle", idle)
            if idle >= 2 and not s.has(p, "joined"):
                g.set_status(p, "idle", 0)
                g.emit("role_changed", g.to(p), player=p.name, role="pervert", was="locksmith")
                g.emit("faction_changed", HOST, player=p.name, faction="single")
    # who was blocked tonight (the cat's source for tomorrow)
    for name in n.blocked_by:
        g.set_status(s.players[name], "was_blocked", True, until=n.idx + 1)
    for name, (_by, cause) in x.locked.items():
        if name not in x.released:
            n.attack(None, s.players[name], "now", cause, how="locked")
    for name in x.taken:
        n.attack(None, s.players[name], "now", "genie", how="taken")


# ---- the day ---------------------------------------------------------------------------


@hook("day_start", "niichavo_cat")
def cat_dreams(g, params):
    """The cat's ability for the coming night: nights 1-2 a blocked player's; later one
    removed last night, else a blocked one; else he keeps the last one."""
    s = g.state
    cats = [p for p in s.order if p.alive and p.role == "cat"]
    night = s.number + 1
    if not cats or night <= 2:
        return               # nights 1-2: dealt at night from that night's blocked players
    removed = [p for p in s.order if not p.alive and p.died == s.idx - 1
               and _main_spec(g, p.role) is not None and p.role != "cat"
               and _main_spec(g, p.role).targets > 0]
    blocked = [p for p in s.order if s.has(p, "was_blocked") and p.role != "cat"
               and _main_spec(g, p.role) is not None and _main_spec(g, p.role).targets > 0]
    pool = removed or blocked
    for cat in cats:
        if not pool:
            continue
        name = g.roll("cat imagines", [p.name for p in pool])
        role = s.players[name].role
        g.set_status(cat, "cat_as", role)
        g.emit("imagined", g.to(cat), to=cat.name, role=role)


_BONUS = ["coin", "tooth", "book", "sofa"]
_SOFA = ["thug", "alchemist", "mayor", "shaman"]


@hook("day_start", "niichavo_bonus")
def deal_bonus(g, params):
    """КуБик deals one bonus for the coming night to one player."""
    s = g.state
    alive = [p.name for p in s.order if p.alive]
    if not alive:
        return
    p = s.players[g.roll("bonus holder", alive)]
    bonus = g.roll("bonus", _BONUS)
    night = s.idx + 1
    extra = {}
    if bonus == "sofa":
        role = g.roll("sofa role", _SOFA)
        extra["role"] = role
        g.set_status(p, "sofa", role, until=night)
        if role == "mayor":
            g.set_status(p, "mayor", night + 1, until=night + 1)
        else:
            g.set_status(p, "sofa_active", role, until=night)
    else:
        g.set_status(p, "bonus_" + bonus, True, until=night)
    g.emit("bonus", g.to(p), to=p.name, bonus=bonus, **extra)


def _unremovable(g, p) -> bool:
    return p.role == "director" or g.state.status_value(p, "mayor") == g.state.idx


@hook("day_count", "niichavo_day")
def day_count(dc, params):
    """Votes lock (no kills); the director and a sofa mayor cannot be voted out; the
    mayor's vote counts twice."""
    g = dc.g
    s = g.state
    dc.lynch_how = "locked"
    for p in s.order:
        if p.alive and _unremovable(g, p):
            dc.acquit.add(p.name)
            if p.role != "director":
                dc.weights[p.name] = 2


ENDGAME_PLAYERS = 3     # "в конце игры" for a one-vote tie: three or fewer players left


@tie_policy("niichavo_tie")
def tie(g, dc, leaders):
    """Once a game the tied all stay; later the one whose majority formed first leaves.
    «Это правило не касается случаев в конце игры, когда остались только невыносящие
    персонажи или когда максимальное количество голосов равно 1»: in those endgame cases the
    dice pick. Option ``one_vote_tie``: ``endgame`` (default) reads "one vote at most" as an
    end-of-game case only (at most ``ENDGAME_PLAYERS`` players left), so a quiet mid-game
    day (each silent player one vote against himself) is an ordinary tie; ``anytime``
    applies it whenever the top is one vote."""
    s = g.state
    alive = [p for p in s.order if p.alive]
    best = max(dc.counts[x] for x in leaders)
    one_vote = best <= 1 and (g.rules.options.get("one_vote_tie", "endgame") == "anytime"
                              or len(alive) <= ENDGAME_PLAYERS)
    if one_vote or not any("remover" in _tags(g, p) for p in alive):
        g.emit("tie_rule", PUBLIC, rule="endgame_dice", players=list(leaders))
        return g.roll("tie", leaders)
    if not s.counters.get("tie_spared"):
        g.emit("counter", HOST, key="tie_spared", value=1)
        g.emit("no_lynch", PUBLIC, why="tie")
        return None
    # when did each candidate get the last vote he kept? the earliest majority leaves
    day_start = max(i for i, e in enumerate(g.events) if e.type == "phase_started")
    when = {}
    for i, e in enumerate(g.events[day_start:]):
        if e.type == "vote":
            when[e.data["voter"]] = i
    last = {}
    for cand in leaders:
        voters = dc.for_.get(cand, ())
        last[cand] = max((when.get(v, 1 << 30) for v in voters), default=1 << 30)
    first = min(last.values())
    early = [c for c in leaders if last[c] == first]
    g.emit("tie_rule", PUBLIC, rule="earlier_majority", players=list(leaders))
    return early[0] if len(early) == 1 else g.roll("tie", early)


@condition("niichavo_one_harmless_left")
def one_harmless_left(census, own, me, arg):
    """Singles and the maniac: at most one other player left, and he cannot remove anyone."""
    rest = [p for p in census.alive if p is not me and (me is not None or p.faction != own)]
    return len(rest) <= 1 and all("remover" not in census.roles[p.role].tags for p in rest)


# ---- eliminations ----------------------------------------------------------------------


@hook("on_eliminated", "niichavo_out")
def on_out(g, p):
    s = g.state
    if p.role == "director":
        group = [q for q in s.order if q.alive and s.status_value(q, "in_group") == p.name]
        if group:
            heir = s.players[g.roll("director's heir", [q.name for q in group])]
            g.set_status(heir, "director_heir", p.name)
            g.emit("heir", g.to(*group), to=heir.name, player=heir.name, was=p.name)
    if p.role == "candidate" and not s.counters.get("bottle_found") \
            and not s.counters.get("genie_used"):
        # «кто-то другой из его мафии»: the hired (pony, messenger, Janus, Kolobok) too
        heirs = [q.name for q in s.order if q.alive and q.faction == p.faction
                 and f"{q.role}.genie" in g.rules.abilities]
        if heirs:
            finder = s.players[g.roll("bottle finder", heirs)]
            g.emit("counter", HOST, key="bottle_found", value=finder.name)
            g.set_status(finder, "bottle", True)
            g.emit("bottle_found", g.to(finder), to=finder.name)
    if p.role == "pervert" and s.phase == "day":
        # «Совершенно невыносим днем»: the director (and a sofa mayor) stay
        voters = [v for v in (s.status_value(p, "lynch_voters") or ()) if v != p.name
                  and not _unremovable(g, s.players[v])]
        if voters and g.chance(f"pervert {p.name} takes his voters", 0.5):
            g.emit("takes_voters", PUBLIC, player=p.name, voters=voters)
            for v in voters:
                g.eliminate(s.players[v], "locked")


@constraint("niichavo_bottle_unused", targets=False, listed=True)
def bottle_unused(g, p, ab, ts, params):
    if g.state.counters.get("genie_used"):
        return ("Джинна уже выпустили: бутылка пуста.",
                "The genie has already been released: the bottle is empty.")
    return None
