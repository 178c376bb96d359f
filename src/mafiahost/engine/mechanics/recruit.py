"""Recruitment: a chance to bring an eligible player over to the recruiter's faction."""

from __future__ import annotations

from . import mechanic


@mechanic("recruit")
def recruit(n, actor, targets, params):
    """params: ``eligible`` role ids, ``chance`` (0..1), ``reveal_to`` role ids that learn
    who came. A recruited player keeps his role and takes the recruiter's faction goal."""
    g = n.g
    t = targets[0]
    if t.role in params.get("reveal_to", ()):
        g.emit("visitor_known", g.to(t), to=t.name, visitor=actor.name, role=actor.role)
    if t.role not in params.get("eligible", ()) or t.faction == actor.faction:
        return
    if g.chance(f"recruit {t.name}", params.get("chance", 1.0)):
        team = [p for p in g.faction_members(actor.faction)] + [t]
        g.emit("recruited", g.to(*team), player=t.name, faction=actor.faction, to=t.name)
        g.set_status(t, "recruited", actor.name)
        g.emit("team", g.to(*team), faction=actor.faction, members=[p.name for p in team])
    else:
        g.emit("recruit_failed", g.to(actor), player=t.name, to=actor.name)
