"""Checks: what a checker sees. Cover reads town, a frame reads mafioso; never the truth
when the rules say otherwise."""

from __future__ import annotations

from ..events import HOST
from ..state import FOREVER
from . import constraint, mechanic


def seen_role(n, target, checker) -> str:
    """The role a role-check shows: framed -> mafioso, covered -> civilian."""
    if target.name in n.framed:
        return n.g.rules.options.get("frame_shows", "mafioso")
    if n.is_covered_against(target, checker):
        return "civilian"
    return n.g.role(target).appears_as or target.role


def seen_side(n, target, checker) -> str:
    """The side a side-check shows: town | criminal | single."""
    if target.name in n.framed:
        return "criminal"
    if n.is_covered_against(target, checker):
        return "town"
    return n.g.rules.factions[target.faction].side


_SIDE_WORD = {"criminal": "mafia", "single": "single", "town": "town"}


@mechanic("check", cover_aware=True)
def check(n, actor, targets, params):
    """params ``reveal``: ``role`` (the role id), ``side`` (mafia | single | town),
    ``status`` (``negative`` for the sides listed in ``negative``, default criminal and
    single; else ``positive``), ``leader`` (the role id if a leader, else ``not_leader``);
    ``tell_target``: the target learns who checked him (priest); ``jail``: a criminal seen
    is jailed at once."""
    g = n.g
    t = targets[0]
    reveal = params.get("reveal", "role")
    if reveal == "status":
        negative = params.get("negative", ("criminal", "single"))
        result = "negative" if seen_side(n, t, actor) in negative else "positive"
    elif reveal == "side":
        result = _SIDE_WORD[seen_side(n, t, actor)]
    else:
        result = seen_role(n, t, actor)
        if reveal == "leader" and "leader" not in g.rules.roles[result].tags:
            result = "not_leader"
    g.emit("check_result", g.to(actor), to=actor.name, target=t.name, result=result)
    if params.get("tell_target"):
        g.emit("visitor_known", g.to(t), to=t.name, visitor=actor.name,
               role=g.role(actor).id)
    if params.get("jail"):
        side = seen_side(n, t, actor)
        real = g.rules.factions[t.faction].side
        if side == "criminal" and real != "single" and not g.state.has(t, "jailed"):
            g.set_status(t, "jailed", actor.name, until=FOREVER)
            g.emit("jailed", "public", player=t.name)


@mechanic("compare", cover_aware=True)
def compare(n, actor, targets, params):
    """Same side or not (the journalist): special roles ignored, frames count."""
    g = n.g
    a, b = targets
    same = seen_side(n, a, actor) == seen_side(n, b, actor)
    g.emit("check_result", g.to(actor), to=actor.name, target=a.name, target2=b.name,
           result="same" if same else "different")


@mechanic("frame")
def frame(n, actor, targets, params):
    """Every check of the target tonight shows a mafioso (the snitch)."""
    t = targets[0]
    n.framed.add(t.name)
    n.mark(t, "framed", actor.name)


@mechanic("seek", cover_aware=True)
def seek(n, actor, targets, params):
    """Is the target the sought role? Finding him alive, both learn each other (``met``)."""
    g = n.g
    t = targets[0]
    want = params.get("role", "commissar")
    found = t.role == want and not n.is_covered_against(t, actor)
    g.emit("check_result", g.to(actor), to=actor.name, target=t.name,
           result=want if found else "not_" + want)
    if found:
        g.emit("met", g.to(actor, t), players=[actor.name, t.name])
        status = params.get("status", "met_" + want)
        g.set_status(actor, status, t.name)
        g.set_status(t, status, actor.name)


@constraint("one_per_pair", targets=False, partner=True)
def one_per_pair(g, p, ab, ts, params):
    """Of the roles listed, only one may use this ability a night (the commissar and his
    sergeant share one shot). A ``senior`` role is never refused for it: his partner's move,
    sent before, gives way (withdrawn by ``Game.submit``), so the order typed does not matter."""
    if p.role in params.get("senior", ()):
        return None
    roles = params.get("roles", ())
    for a in g.state.pending:
        if g.rules.abilities[a.ability].id == ab.id and a.actor != p.name \
                and g.state.players[a.actor].role in roles:
            return (f"«{ab.name_ru}»: этой ночью выстрел пары уже сделал {a.actor}.",
                    f"'{ab.name_en}': {a.actor} already took the pair's shot tonight.")
    return None


def senior_sent(g, params) -> set[str]:
    """The ability ids the senior of a pair (``senior`` roles) has sent tonight."""
    seniors = params.get("senior", ("commissar",))
    abilities = g.rules.abilities
    return {abilities[a.ability].id for a in g.state.pending
            if g.state.players[a.actor].role in seniors}


@constraint("partner_other_action", targets=False, partner=True)
def partner_other_action(g, p, ab, ts, params):
    """The junior of a pair (the sergeant, the catcher) takes the senior's OTHER action
    («если Комиссар проверяет, то Сержант может стрелять, и наоборот»): the pair has this
    ability only when the senior's move tonight is ``after``. Whatever the order the host
    types them in: before the senior has sent a move the junior's is taken (and is void at
    dawn if the senior sends none, ``junior_void``); once both are in it must be the other
    action — sent second it is refused with what the senior sent; sent first, a senior's
    move that leaves it no room withdraws it (the senior chooses; ``Game.submit``).
    params: ``senior``, ``junior`` roles, ``after``."""
    if p.role not in params.get("junior", (p.role,)):
        return None
    after = params.get("after", "check")
    sent = senior_sent(g, params)
    if not sent or after in sent:
        return None
    senior = g.rules.roles[params.get("senior", ("commissar",))[0]]
    did = next(a for a in g.state.pending if g.state.players[a.actor].role
               in params.get("senior", ("commissar",)))
    did_ab = g.rules.abilities[did.ability]
    other_ru = "проверку" if after == "check" else "выстрел"
    other_en = "a check" if after == "check" else "a shot"
    return (f"«{ab.name_ru}»: это второе действие роли «{senior.name_ru}», а {senior.name_ru} "
            f"({did.actor}) этой ночью прислал ход «{did_ab.name_ru}»: ход «{ab.name_ru}» "
            f"доступен, только когда {senior.name_ru} присылает {other_ru}.",
            f"'{ab.name_en}': this is the other action of the {senior.name_en}, and the "
            f"{senior.name_en} ({did.actor}) sent '{did_ab.name_en}' tonight: '{ab.name_en}' is "
            f"yours only when the {senior.name_en} sends {other_en}.")


def junior_void(n, actor, params) -> bool:
    """At resolution: the junior's move is void when the senior's move is no longer the
    other action (he replaced it after the junior sent his)."""
    if actor.role not in params.get("junior", ()):
        return False
    after = params.get("after", "check")
    if after in senior_sent(n.g, params):
        return False
    n.g.emit("no_effect", HOST, player=actor.name, ability="check" if after == "shoot"
             else "shoot", why="partner_changed")
    return True


@mechanic("no_op", visits=False, counts_as_out=False)
def no_op(n, actor, targets, params):
    n.g.emit("no_effect", HOST, player=actor.name, why="no_op")
