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

from .events import PUBLIC

_OPS = {">=": int.__ge__, ">": int.__gt__, "<": int.__lt__, "<=": int.__le__,
        "==": int.__eq__}


def _members(g, alive, group, own, me):
    if isinstance(group, list):
        out = []
        for x in group:
            out.extend(_members(g, alive, x, own, me))
        return out
    if group == "self":
        return [me] if me is not None else []
    if group == "own":
        return [p for p in alive if p.faction == own] if me is None else [me]
    if group == "others":
        mine = set(_members(g, alive, "own", own, me))
        return [p for p in alive if p not in mine]
    if group in g.rules.factions:
        return [p for p in alive if p.faction == group]
    return [p for p in alive if p.role == group]


def holds(g, cond, own, me=None, alive=None) -> bool:
    if alive is None:
        alive = [p for p in g.state.order if p.alive]
    (key, arg), = cond.items()
    if key == "all":
        return all(holds(g, c, own, me, alive) for c in arg)
    if key == "any":
        return any(holds(g, c, own, me, alive) for c in arg)
    if key == "none_alive":
        return not _members(g, alive, arg, own, me)
    if key == "cmp":
        a, op, b = arg
        return _OPS[op](len(_members(g, alive, a, own, me)), len(_members(g, alive, b, own, me)))
    if key == "at_most":
        grp, n = arg
        return len(_members(g, alive, grp, own, me)) <= n
    if key == "only_with":
        rest = _members(g, alive, "others", own, me)
        grp = _members(g, alive, arg["group"], own, me)
        tag = arg.get("tag_not")
        return (len(rest) == arg.get("n", 1) and all(p in grp for p in rest)
                and all(tag not in g.rules.roles[p.role].tags for p in rest))
    raise ValueError(f"unknown victory condition {key!r}")


def winners(g) -> list[str]:
    alive = [p for p in g.state.order if p.alive]
    out = []
    for fid, fac in g.rules.factions.items():
        if fac.solo:
            for p in alive:
                if p.faction == fid and holds(g, fac.win, fid, p, alive):
                    out.append(p.role)
        elif any(p.faction == fid for p in alive) and holds(g, fac.win, fid, None, alive):
            out.append(fid)
    return out


def check(g) -> bool:
    """Emit ``game_over`` and return True when the game has ended."""
    w = winners(g)
    if w or not any(p.alive for p in g.state.order):
        g.emit("game_over", PUBLIC, winners=w)
        return True
    return False
