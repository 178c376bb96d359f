"""«Мафия по миру Антема» (seed 003, section #36): what the ruleset file cannot say in data.

- The hermit (``antem_hermit_takes``, ``antem_hermit_copy``, ``antem_hermit_has``): from the
  second night he holds the night action of one of those who died the night before (the
  dice pick among them; never the recruiter), keeps it through nights without victims, and
  performs it with ``engine.night.run_ability`` as if he were that role.
- The commissar's shot spares an inactive hermit (no action yet); the sergeant's search
  that finds the watcher makes them a "town mafia"; the met heir checks two players.
- The boss's cover that the joker's earlier redirect cannot touch, the watcher who does not
  notice a covered mafioso at all, the recruiter who is never exposed while covered.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...engine.events import HOST
from ...engine.mechanics import constraint, fact, hook, mechanic
from ...engine.mechanics.check import check as lib_check
from ...engine.mechanics.check import junior_void
from ...engine.mechanics.kill import shoot as lib_shoot
from ...engine.mechanics.protect import cover as lib_cover
from ...engine.mechanics.recruit import recruit as lib_recruit
from ...engine.night import run_ability


@dataclass
class AntemNight:
    """What tonight's moves tell the dawn (``n.notes(AntemNight)``)."""
    watches: list[tuple[str, str]] = field(default_factory=list)   # (watcher, target)


HERMIT = "hermit"
UNCOPYABLE = ("recruiter",)


# ---- refusals --------------------------------------------------------------------------

@constraint("antem_not_own_faction")
def not_own_faction(g, p, ab, ts, params):
    """The killer-healer kills only the enemies of his mafia."""
    for t in ts:
        if g.state.players[t].faction == p.faction:
            return (f"«{ab.name_ru}»: убивать можно только врагов своей мафии, а «{t}» — свой.",
                    f"'{ab.name_en}': only enemies of your mafia; '{t}' is one of yours.")
    return None


def _copied_spec(g, p, ab):
    role = g.state.status_value(p, "hermit_role") if p.st else None
    if role is None:
        return None, None
    return role, g.rules.abilities.get(f"{role}.{ab.id}")


@fact("antem_hermit_holds")
def hermit_holds(g, p) -> set:
    """The ids of the night actions the hermit may send now: those of the role he holds
    that are not for the dead and whose status he has (what ``antem_hermit_has`` allows);
    none before he holds a role. The gate of ``antem_hermit_has``, whose entry names the
    ability's id (``{antem_hermit_has: {id: check}}``)."""
    s = g.state
    role = s.status_value(p, "hermit_role") if p.st else None
    out: set = set()
    if role is None:
        return out
    for a in g.rules.by_phase[role]["night"]:
        if not a.while_dead and (not a.requires_status or s.has(p, a.requires_status)):
            out.add(a.id)
    return out


def _hermit_gate(params: dict):
    return (params["id"],) if "id" in params else None


@constraint("antem_hermit_has", targets=False, gate=("antem_hermit_holds", _hermit_gate),
            exact=True)
def hermit_has(g, p, ab, ts, params):
    """The hermit may send only an action of the role he holds (``antem_hermit_targets``:
    under that role's target rules). Never reads the targets: asked once per ability.
    Its gate (the fact ``antem_hermit_holds``, where the entry names the ability's id)
    is its whole test: the legal moves and the random player pass over an action he does
    not hold without making this refusal's sentences."""
    role, spec = _copied_spec(g, p, ab)
    if role is None:
        return ("У Отшельника пока нет действия: в первую ночь он неактивен, а потом берёт "
                "действие одного из погибших предыдущей ночью.",
                "The hermit holds no action yet: inactive the first night, later takes the "
                "action of one who died the night before.")
    rname = g.rules.roles[role]
    if spec is None or spec.phase != "night" or spec.while_dead:
        own = ", ".join(a.id for a in g.rules.by_phase[role]["night"]) or "нет"
        return (f"Отшельник сейчас владеет действием роли «{rname.name_ru}»; её действия: {own}.",
                f"The hermit holds the action of '{rname.name_en}'; its actions: {own}.")
    if spec.requires_status and not g.state.has(p, spec.requires_status):
        return (f"«{spec.name_ru}» ещё недоступна: {spec.requires_ru or spec.requires_status}.",
                f"'{spec.name_en}' is not available yet: "
                f"{spec.requires_en or spec.requires_status}.")
    return None


@constraint("antem_hermit_targets")
def hermit_targets(g, p, ab, ts, params):
    """The hermit's action under the target rules of the role he holds (a copied `heal a
    fellow mafioso` means himself, and so on); ``antem_hermit_has`` refuses first where he
    holds no such action."""
    _role, spec = _copied_spec(g, p, ab)
    if spec is None:
        return None
    return g.why_not_targets(p, spec, ts)


# ---- night mechanics ---------------------------------------------------------------------

@mechanic("antem_shoot", cover_aware=True)
def shoot(n, actor, targets, params):
    """The commissar's shot; the hermit counts as an active single only once he holds an
    action — before that the shot does nothing to either."""
    if junior_void(n, actor, params):
        return
    t = targets[0]
    if t.role == HERMIT and n.s.status_value(t, "hermit_role") is None:
        n.g.emit("no_effect", HOST, player=actor.name, ability="shoot", why="inactive hermit",
                 target=t.name)
        n.g.emit("shot_failed", n.g.to(actor), to=actor.name, target=t.name)
        return
    lib_shoot(n, actor, targets, params)


@mechanic("antem_check", cover_aware=True)
def check_one(n, actor, targets, params):
    """The commissar's (or the met sergeant's) status check: the library ``check`` with
    ``reveal: status``; void for the sergeant if the commissar replaced his shot."""
    if junior_void(n, actor, params):
        return
    lib_check(n, actor, targets, params)


@mechanic("antem_checks", cover_aware=True)
def checks(n, actor, targets, params):
    """One status check per target (the met heir's two checks a night)."""
    for t in targets:
        lib_check(n, actor, [t], params)


@mechanic("antem_seek", cover_aware=True)
def seek(n, actor, targets, params):
    """The sergeant seeks the commissar: finding him, both meet (`met_commissar`); finding
    the watcher, the watcher joins him in a "town mafia" (both learn each other). Anyone
    else (the hermit with a copied search) only learns whether it was the commissar."""
    g = n.g
    t = targets[0]
    seekers = params.get("seekers", ("sergeant", "sergeant_heir", "commissar_heir"))
    mine = actor.role in seekers
    result = "commissar" if t.role == "commissar" else "not_commissar"
    if mine and t.role == params.get("recruits", "watcher"):
        result = t.role
    g.emit("check_result", g.to(actor), to=actor.name, target=t.name, result=result)
    if not mine:
        return
    if result == "commissar" and not g.state.has(actor, "met_commissar"):
        g.emit("met", g.to(actor, t), players=[actor.name, t.name])
        g.set_status(actor, "met_commissar", t.name)
        g.set_status(t, "met_commissar", actor.name)
    elif result != "not_commissar" and result != "commissar" \
            and not g.state.has(t, "town_mafia"):
        g.emit("met", g.to(actor, t), players=[actor.name, t.name])
        g.emit("town_mafia", g.to(actor, t), members=[actor.name, t.name])
        g.set_status(actor, "town_mafia", t.name)
        g.set_status(t, "town_mafia", actor.name)


@mechanic("antem_cover", cover_aware=True)
def cover(n, actor, targets, params):
    """The boss's cover; the joker "cannot do anything" to the covered either, so a
    redirect already set on the covered mafioso's action is void."""
    t = targets[0]
    lib_cover(n, actor, targets, params)
    red = n.redirects.get(t.name)
    if red is not None and n.s.players[red[1]].faction != t.faction:
        del n.redirects[t.name]
        n.g.emit("no_effect", HOST, player=red[1], ability="redirect", why="untouchable",
                 target=t.name)


@mechanic("antem_watch", cover_aware=True, counts_as_out=False, visits=False)
def watch(n, actor, targets, params):
    """The watcher: every visitor of the target and whether the target went out; a
    mafioso covered by the boss is not noticed at all (neither as a visitor nor watched)."""
    n.notes(AntemNight).watches.append((actor.name, targets[0].name))
    n.on_dawn(_watch_report)


def _watch_report(n):
    g = n.g
    for w, t in n.notes(AntemNight).watches:
        target = n.s.players[t]
        visitors: list[str] = []
        went = False
        if not n.is_covered_against(target, n.s.players[w]):
            for visible, tgt, real in n.visits:
                if tgt == t and real != w and visible != "?" and visible not in visitors:
                    visitors.append(visible)
            went = t in n.went_out
        g.emit("watch_result", (w,), to=w, target=t, visitors=visitors, went_out=went)


@mechanic("antem_recruit")
def recruit(n, actor, targets, params):
    """50% on the alcoholic and the joker; a single, the commissar or the sergeant visited
    learns who came — unless the recruiter is covered by the boss tonight."""
    if actor.name in n.covered:
        params = {**params, "reveal_to": ()}
    lib_recruit(n, actor, targets, params)


@mechanic("antem_hermit_copy", cover_aware=True, visits=False, counts_as_out=False)
def hermit_copy(n, actor, targets, params):
    """The hermit performs the held role's ability of the same id, as that role would."""
    g = n.g
    ab = g.rules.abilities[n.current.ability]
    role, spec = _copied_spec(g, actor, ab)
    if spec is None:
        g.emit("no_effect", HOST, player=actor.name, ability=ab.id, why="condition")
        return
    orig = [n.s.players[x] for x in n.current.targets]
    if actor.name in n.redirects:
        targets = orig          # run_ability applies the joker's redirect (once) itself
    g.emit("hermit_acts", HOST, player=actor.name, role=role, ability=spec.id)
    run_ability(n, actor, spec, targets)


# ---- the hermit takes an action ------------------------------------------------------------

def _copyable(g, role: str) -> bool:
    if role in UNCOPYABLE or role == HERMIT:
        return False
    mine = {a.id for a in g.rules.by_phase[HERMIT]["night"]}
    return any(a.id in mine and not a.while_dead for a in g.rules.by_phase[role]["night"])


@hook("day_start", "antem_hermit_takes")
def hermit_takes(g, params):
    """After each night (seed step 1: "Отшельник получает роль на следующий ход") a living
    hermit takes the action of one who died that night — the dice pick if several; nobody
    eligible (no victims, or only civilians and the recruiter): he keeps the last one."""
    s = g.state
    night = s.idx - 1
    for h in s.order:
        if not h.alive or h.role != HERMIT:
            continue
        dead = [p for p in s.order if not p.alive and p.died == night and p.how != "lynched"
                and _copyable(g, p.role)]
        if not dead:
            continue
        src = dead[0] if len(dead) == 1 else s.players[g.roll("hermit", [p.name for p in dead])]
        g.set_status(h, "hermit_role", src.role)
        if "saves_left" in g.rules.roles[src.role].initial_status:
            g.set_status(h, "saves_left", s.status_value(src, "saves_left", 0))
        actions = [a.id for a in g.rules.by_phase[src.role]["night"]]
        g.emit("action_gained", g.to(h), to=h.name, role=src.role, abilities=actions)
        g.emit("hermit_source", HOST, player=h.name, source=src.name, role=src.role)
