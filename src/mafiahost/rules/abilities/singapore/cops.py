"""Cops and jail: the cover, the lawyer, interrogation, releases, blood writing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mafiahost.engine.events import HOST, PUBLIC
from mafiahost.engine.mechanics import constraint, hook, mechanic, tie_policy
from mafiahost.engine.mechanics.questions import answer_handler, ask

from .cards import ministry_cover_pay
from .common import COPS, Notes, counter, earn, is_clan, set_counter
from .economy import _take_order

if TYPE_CHECKING:
    from mafiahost.engine.game import Game
    from mafiahost.engine.model import AbilitySpec
    from mafiahost.engine.state import Player


@constraint("singapore_cover_rules")
def cover_rules(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    if ts:
        t = g.state.players[ts[0]]
        if t.faction == p.faction:
            return ("Копы не могут прикрывать друг друга.", "The cops cannot cover each other.")
        if counter(g, "last_cover:" + p.faction) == [ts[0], g.state.number - 1]:
            return ("Нельзя прикрывать одну цель две ночи подряд.",
                    "Not the same target two nights in a row.")
    return None


HARMFUL = ("singapore_kill", "singapore_seek", "singapore_poison", "singapore_bite")


@mechanic("singapore_cover")
def cover(n, actor: Player, targets, params: dict):
    """The cops' cover, «охрана одного жителя ночью»: «блокируется ночное действие всех
    игроков осуществляющих ход после Прикрытия» — every player (but the cops) whose move
    lands on the resident at a later step is blocked; the resident himself still acts.
    He is also guarded from kills and poison tonight. 2 coins to the coverer if a kill,
    poison or bite was stopped («удачное прикрытие»)."""
    g: Game = n.g
    t = targets[0]
    n.heals.setdefault(t.name, []).append((actor, {"against": ["direct", "delayed"]}))
    abilities = g.rules.abilities
    idx = g.rules.step_index
    here = idx[n.step.id]
    stopped = False
    for a in n.s.pending:
        ab = abilities[a.ability]
        if not a.targets or ab.step is None or idx[ab.step] <= here:
            continue
        aimed = n.redirects.get(a.actor, (a.targets[0],))[0]
        q = n.s.players[a.actor]
        if aimed != t.name or q is t or q.faction == actor.faction:
            continue
        n.block(q, actor)
        stopped = stopped or any(m.name in HARMFUL for m, _ in ab.mechs)
    if stopped:
        n.notes(Notes).covers.append((actor, t))
    set_counter(g, "last_cover:" + actor.faction, [t.name, n.s.number])
    ministry_cover_pay(n, actor, t)


def _lawyer(g):
    """The lawyer who can free prisoners now: alive and not in jail himself."""
    for q in g.state.order:
        if q.alive and q.role == "lawyer" and not g.state.has(q, "jailed"):
            return q
    return None


def _free(g, p, by) -> None:
    g.clear_status(p, "jailed")
    g.set_status(p, "jail_freed", by.name if by is not None else True)
    g.set_status(p, "freed_now", True, until=g.state.idx)     # his purchase yields (economy)
    g.emit("released", PUBLIC, players=[p.name], by=by.name if by is not None else None)


def _free_targets(g: Game, p: Player, ab: AbilitySpec, names: list[str],
                  params: dict) -> list[str]:
    """``free_target`` asked of each of ``names`` as a one-target move's target, at once."""
    return g.state.lacking(names, "jailed", keep=p.name)


@constraint("singapore_free_target", pool=_free_targets, position="each")
def free_target(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """«На посаженного игрока нельзя воздействовать другими ходами кроме как допрос и
    убийство»."""
    for t in ts:
        q = g.state.players[t]
        if q is not p and g.state.has(q, "jailed"):
            return (f"«{t}» в тюрьме: на посаженного действуют только допрос и убийство.",
                    f"'{t}' is in jail: only an interrogation or a kill reaches a prisoner.")
    return None


def _jailed(g: Game, p: Player, ab: AbilitySpec, names: list[str],
            params: dict) -> list[str]:
    """``jailed_target`` asked of each of ``names`` as a one-target move's target, at
    once."""
    return g.state.holding(names, "jailed")


@constraint("singapore_jailed_target", pool=_jailed)
def jailed_target(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    q = g.state.players[ts[0]]
    if not g.state.has(q, "jailed"):
        return (f"«{ab.name_ru}»: «{q.name}» не в тюрьме; цель — посаженный днём.",
                f"'{ab.name_en}': '{q.name}' is not in jail; the target is the one jailed by the "
                f"day.")
    return None


@constraint("singapore_release_ok")
def release_ok(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    why = jailed_target(g, p, ab, ts, params)
    if why is not None:
        return why
    q = g.state.players[ts[0]]
    if g.state.has(q, "revealed"):
        return (f"Роль игрока «{q.name}» в игре вскрыта: адвокат выпускает только того, чья роль "
                f"не вскрыта.",
                f"The role of '{q.name}' has been revealed in the game: the lawyer frees only "
                f"a player whose role is not revealed.")
    if g.state.status_value(q, "jail_freed"):
        return (f"«{q.name}» уже выпускали из тюрьмы: повторно не выпускают.",
                f"'{q.name}' was freed from jail before: not a second time.")
    return None


@constraint("singapore_blood_free", targets=False, listed=True)
def blood_free(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """«Каждый убитый на свободе персонаж»: not one jailed, killed in jail or turned."""
    if p.how not in ("killed", "venom", "blood") or g.state.has(p, "jailed"):
        return ("Кровью пишет только убитый на свободе (не посаженный и не убитый в тюрьме).",
                "Only one killed while free writes in blood (not one jailed or killed in jail).")
    return None


@mechanic("singapore_release")
def release(n, actor: Player, targets, params: dict):
    """The lawyer frees the freshly jailed: +3 coins; a mafia order pays the 9-coin bribe;
    freeing a mafioso ties the lawyer's win to that clan."""
    g: Game = n.g
    t = targets[0]
    if not t.alive or not g.state.has(t, "jailed"):
        g.emit("no_effect", HOST, player=actor.name, ability="release", why="not_jailed")
        return
    _free(g, t, actor)
    earn(g, actor, 3, "release")
    _take_order(n, actor, "lawyer", t)
    if is_clan(t) and not g.state.status_value(actor, "freed_clan"):
        g.set_status(actor, "freed_clan", t.faction)


@mechanic("singapore_interrogate")
def interrogate(n, actor: Player, targets, params: dict):
    """The cops question the prisoner: a mafioso names one accomplice (his choice: the
    dice); a prisoner freed or shot before the morning says nothing."""
    g: Game = n.g
    t = targets[0]
    if not g.state.has(t, "jailed") or n.would_die(t):
        g.emit("no_effect", HOST, player=actor.name, ability="interrogate",
               why="not_jailed" if not g.state.has(t, "jailed") else "dead")
        return
    mates = []
    if is_clan(t) and not t.role.startswith("apprentice"):
        mates = [q.name for q in g.faction_members(t.faction) if q is not t]
    if len(mates) > 1:
        # «копы узнают одного из его подельников (выбор посаженного)»: the prisoner is asked;
        # the dice choose only for his silence (by the end of the next day)
        default = g.roll("accomplice", mates)
        ask(g, t, "singapore_accomplice", [(m, m, m) for m in mates], default,
            due=g.state.idx + 1, about=mates, cop=actor.name)
        return
    _tell_cops(g, actor, t, mates[0] if mates else None)


def _tell_cops(g, actor, t, accomplice) -> None:
    cops = [q for q in g.faction_members(actor.faction)] or [actor]
    g.emit("interrogation_result", g.to(*cops), to=actor.name, target=t.name,
           accomplice=accomplice)


@answer_handler("singapore_accomplice")
def accomplice_answer(g, q, answer) -> None:
    """The prisoner's (or the dice's) choice is told to the cops."""
    cop = g.state.players[q["data"]["cop"]]
    _tell_cops(g, cop, g.state.players[q["to"]], answer)


@mechanic("singapore_blood", visits=False)
def blood(dc, actor: Player, targets, params: dict):
    """A name written in blood: a tie today jails him."""
    g: Game = dc.g
    t = targets[0]
    g.set_status(t, "blood_named", actor.name, until=g.state.idx)
    g.emit("blood_written", PUBLIC, player=actor.name, named=t.name)


@tie_policy("singapore_blood")
def blood_tie(g, dc, leaders):
    """A tie jails the tied player whose name is written in blood; none or several: nobody."""
    named = [x for x in leaders if g.state.has(g.state.players[x], "blood_named")]
    if len(named) == 1:
        g.emit("blood_tie", PUBLIC, player=named[0])
        return named[0]
    g.emit("no_lynch", PUBLIC, why="tie")
    return None


@hook("night_open", "singapore_jail_evening")
def jail_evening(g: Game, params: dict):
    """The evening: the lawyer frees himself, and the priest («выпускается адвокатом
    вечером»), once a game each; both may then send this night's moves."""
    for p in list(g.state.order):
        if not (p.alive and g.state.has(p, "jailed")) or g.state.status_value(p, "jail_freed") \
                or g.state.has(p, "revealed"):      # «только того игрока чья роль … не вскрыта»
            continue
        if p.role == "lawyer":
            _free(g, p, p)
        elif p.role == "priest":
            lawyer = _lawyer(g)
            if lawyer is not None:
                _free(g, p, lawyer)


@hook("dawn", "singapore_jail_dawn")
def jail_dawn(n, params):
    """Dawn: a cop who never killed a town player is freed by the lawyer («на следующее
    утро»), once a game; every other prisoner still held leaves (how: jailed), unless a
    kill of this night takes him first."""
    g: Game = n.g
    s = n.s
    for p in list(s.order):
        if not (p.alive and s.has(p, "jailed")) or n.would_die(p):
            continue
        if p.faction == "cops" and p.role in COPS and not s.status_value(p, "jail_freed") \
                and not s.status_value(p, "killed_town") and not s.has(p, "revealed"):
            lawyer = _lawyer(g)
            if lawyer is not None:
                _free(g, p, lawyer)
                continue
        g.eliminate(p, "jailed")
