"""Victory: each faction's condition, evaluated after every phase; several may win.

A condition is a small tree from the ruleset file:
  {all: [...]}, {any: [...]}, {none_alive: [groups]}, {cmp: [groupA, op, groupB]},
  {at_most: [group, n]}, {only_with: {group: G, tag_not: T, n: 1}}
A group is a faction id, a role id, ``self`` (a single's own player), ``own`` (the
faction being checked), ``others`` (every living player outside ``own``/``self``) or a list.
A non-solo faction wins only with at least one living member; a solo faction (the
singles) is checked for each living member, and the winner id is the role id.
"""

from __future__ import annotations

from . import mechanics
from .events import PUBLIC

_OPS = {">=": int.__ge__, ">": int.__gt__, "<": int.__lt__, "<=": int.__le__,
        "==": int.__eq__}


class _Census:
    """Living players counted by faction and role: the counts the state keeps up to date
    as players leave, return or change side (``State.alive_by_faction``/``alive_by_role``),
    read here without recounting."""

    __slots__ = ("alive", "by_faction", "by_role", "factions", "g", "roles")

    def __init__(self, g, alive):
        s = g.state
        self.g = g
        self.alive = alive
        self.factions = g.rules.factions
        self.roles = g.rules.roles
        self.by_faction = s.alive_by_faction
        self.by_role = s.alive_by_role

    def count(self, group, own, me) -> int:
        if isinstance(group, list):
            return sum(self.count(x, own, me) for x in group)
        if group == "self":
            return 1 if me is not None else 0
        if group == "own":
            return 1 if me is not None else self.by_faction.get(own, 0)
        if group == "others":
            return len(self.alive) - self.count("own", own, me)
        if group in self.factions:
            return self.by_faction.get(group, 0)
        return self.by_role.get(group, 0)


def holds(g, cond, own, me=None) -> bool:
    """Does the condition tree ``cond`` hold now for faction ``own`` (or single ``me``)?"""
    return _compiled(cond, g.rules.factions)(_Census(g, g.state.living()), own, me)


def _group(group, factions):
    """A group as a function of (census, own, me) giving its living count: what
    ``_Census.count`` answers, with the group's kind decided once."""
    if isinstance(group, list):
        parts = [_group(x, factions) for x in group]
        if len(parts) == 2:
            f1, f2 = parts
            return lambda c, own, me: f1(c, own, me) + f2(c, own, me)
        return lambda c, own, me: sum(f(c, own, me) for f in parts)
    if group == "self":
        return lambda c, own, me: 1 if me is not None else 0
    if group == "own":
        return lambda c, own, me: 1 if me is not None else c.by_faction.get(own, 0)
    if group == "others":
        return lambda c, own, me: len(c.alive) - (1 if me is not None
                                                  else c.by_faction.get(own, 0))
    if group in factions:
        return lambda c, own, me: c.by_faction.get(group, 0)
    return lambda c, own, me: c.by_role.get(group, 0)


def _compile(cond, factions):
    """A condition tree as a function of (census, own, me); compiled once per tree and
    rule set (a group names a faction or else a role of ``factions``' rule set)."""
    (key, arg), = cond.items()
    if key in ("all", "any"):
        parts = [_compile(c, factions) for c in arg]
        if len(parts) == 2:
            f1, f2 = parts
            if key == "all":
                return lambda c, own, me: f1(c, own, me) and f2(c, own, me)
            return lambda c, own, me: f1(c, own, me) or f2(c, own, me)
        if key == "all":
            return lambda c, own, me: all(f(c, own, me) for f in parts)
        return lambda c, own, me: any(f(c, own, me) for f in parts)
    if key == "none_alive":
        n = _group(arg, factions)
        return lambda c, own, me: n(c, own, me) == 0
    if key == "cmp":
        a, op, b = arg
        f = _OPS[op]
        ga, gb = _group(a, factions), _group(b, factions)
        return lambda c, own, me: f(ga(c, own, me), gb(c, own, me))
    if key == "at_most":
        grp, n = arg
        gn = _group(grp, factions)
        return lambda c, own, me: gn(c, own, me) <= n
    if key in mechanics.CONDITIONS:
        fn = mechanics.CONDITIONS[key]
        return lambda c, own, me: fn(c, own, me, arg)
    if key == "only_with":
        def only_with(c, own, me):
            rest = [p for p in c.alive if p is not me and (me is not None or p.faction != own)]
            tag = arg.get("tag_not")
            grp = arg["group"]
            return (len(rest) == arg.get("n", 1)
                    and all(p.faction == grp or p.role == grp for p in rest)
                    and all(tag not in c.roles[p.role].tags for p in rest))
        return only_with
    raise ValueError(f"unknown victory condition {key!r}")


_COMPILED: dict[tuple[int, int], tuple] = {}


def _compiled(cond, factions):
    key = (id(cond), id(factions))
    hit = _COMPILED.get(key)
    if hit is None or hit[0] is not cond or hit[1] is not factions:
        hit = _COMPILED[key] = (cond, factions, _compile(cond, factions))
    return hit[2]


def _conditions(rules) -> list[tuple]:
    """(faction id, faction, compiled condition) for each faction of the rule set, made
    once per rule set (its conditions do not change after loading)."""
    got = rules.win_fns
    if got is None:
        factions = rules.factions
        got = rules.win_fns = [(fid, fac, _compiled(fac.win, factions))
                               for fid, fac in factions.items()]
    return got


def winners(g) -> list[str]:
    alive = g.state.living()
    census = _Census(g, alive)
    out = []
    co = []
    for fid, fac, win in _conditions(g.rules):
        if fac.co_win:
            co.append((fid, fac, win))
            continue
        if fac.solo:
            for p in alive:
                if p.faction == fid and win(census, fid, p):
                    out.append(p.role)
            if fac.posthumous:
                # a dead single who earned it (a status) may still win
                for p in g.state.order:
                    if not p.alive and p.faction == fid and fac.posthumous in p.st \
                            and win(census, fid, p):
                        out.append(p.role)
        elif census.by_faction.get(fid) and win(census, fid, None):
            out.append(fid)
    if out:
        for fid, fac, win in co:
            if fac.solo:
                out.extend(p.role for p in alive if p.faction == fid and win(census, fid, p))
            elif census.by_faction.get(fid) and win(census, fid, None):
                out.append(fid)
    return out


def check(g) -> bool:
    """Emit ``game_over`` and return True when the game has ended.

    Winning depends only on who is alive and on which side, so nothing is evaluated when
    that has not changed since the last check."""
    s = g.state
    if s.census == g.checked_census:
        return False
    g.checked_census = s.census
    w = winners(g)
    if w or not s.living():
        g.emit("game_over", PUBLIC, winners=w)
        return True
    return False
