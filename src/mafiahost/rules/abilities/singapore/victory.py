"""Victory primitives."""

from __future__ import annotations

from mafiahost.engine.mechanics import condition

from .common import CLANS, VAMPIRES

MAIN = ("town", "cops", "clan_a", "clan_b", "vampires")


def _main_win(census, fids=MAIN) -> bool:
    from mafiahost.engine.victory import holds
    g = census.g
    for fid in fids:
        fac = g.rules.factions.get(fid)
        if fac is not None and census.by_faction.get(fid) and holds(g, fac.win, fid):
            return True
    return False


@condition("singapore_vampire_bites")
def vampire_bites(census, own, me, arg):
    """The true vampire: the priest gone or bitten, and at least half of the players left
    bitten."""
    g = census.g
    if not any(p.role == "vampire" for p in census.alive):
        return False
    s = g.state
    if any(p.role == "priest" and not s.status_value(p, "bites", 0) for p in census.alive):
        return False
    humans = [p for p in census.alive if p.role not in VAMPIRES]
    bitten = sum(1 for p in humans if s.status_value(p, "bites", 0))
    return bool(humans) and 2 * bitten >= len(census.alive)


@condition("singapore_neutral")
def neutral(census, own, me, arg):
    """Each neutral "survives to the end of the game": his condition is judged when a
    main side wins, or when no main side is left; the last player standing wins."""
    g = census.g
    s = g.state
    if len(census.alive) == 1:
        return True
    main_left = any(p.faction in MAIN for p in census.alive)
    if main_left and not _main_win(census):
        return False
    role = me.role
    alive_roles = {p.role for p in census.alive}
    alive_facs = {p.faction for p in census.alive}
    if role == "maniac":
        return len(s.status_value(me, "professions") or ()) >= 2
    if role == "thug":
        return not (alive_facs & {"clan_a", "clan_b", "cops"}) and "journalist" not in \
            alive_roles
    if role == "thief":
        return "cops" not in alive_facs and "priest" not in alive_roles
    if role == "tour_operator":
        others = [p for p in census.alive if p is not me]
        sent = sum(1 for p in others if s.status_value(p, "travelled"))
        return bool(others) and 2 * sent >= len(census.alive)
    if role == "lawyer":
        clan = s.status_value(me, "freed_clan")
        if clan:
            return _main_win(census, (clan,))
        return True
    if role == "makeup":
        side = s.status_value(me, "side", "town")
        return _main_win(census, CLANS if side == "mafia" else ("town", "cops"))
    return True   # the witch, the lawyer: alive at the end
