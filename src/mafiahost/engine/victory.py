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
    return _compiled(cond)(_Census(g, g.state.living()), own, me)


def _compile(cond):
    """A condition tree as a function of (census, own, me); compiled once per tree."""
    (key, arg), = cond.items()
    if key in ("all", "any"):
        parts = [_compile(c) for c in arg]
        if key == "all":
            return lambda c, own, me: all(f(c, own, me) for f in parts)
        return lambda c, own, me: any(f(c, own, me) for f in parts)
    if key == "none_alive":
        return lambda c, own, me: c.count(arg, own, me) == 0
    if key == "cmp":
        a, op, b = arg
        f = _OPS[op]
        return lambda c, own, me: f(c.count(a, own, me), c.count(b, own, me))
    if key == "at_most":
        grp, n = arg
        return lambda c, own, me: c.count(grp, own, me) <= n
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


_COMPILED: dict[int, tuple] = {}


def _compiled(cond):
    hit = _COMPILED.get(id(cond))
    if hit is None or hit[0] is not cond:
        hit = _COMPILED[id(cond)] = (cond, _compile(cond))
    return hit[1]


def winners(g) -> list[str]:
    alive = g.state.living()
    census = _Census(g, alive)
    out = []
    co = []
    for fid, fac in g.rules.factions.items():
        win = _compiled(fac.win)
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
