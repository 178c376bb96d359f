"""Redirects: send X's night action to Y (the joker)."""

from __future__ import annotations

from . import mechanic


@mechanic("redirect", cover_aware=True, counts_as_out=False)
def redirect(n, actor, targets, params):
    """X's action tonight lands on Y; a watcher at Y sees the redirector as the visitor,
    and a watcher at the redirector does not see him go out. params: ``fails_on`` (roles
    the joke fails on), ``no_deflect`` and ``min_alive`` (see below)."""
    x, y = targets
    if x.role in params.get("fails_on", ()):
        # a role the joke fails on (the chameleon in indians and osiris): the joker knows
        n.g.emit("redirect_failed", n.g.to(actor), to=actor.name, player=x.name)
        return
    n.redirects[x.name] = (y.name, actor.name)
    if params.get("no_deflect"):
        # "не может переводить действие с себя": an action aimed at the redirector himself
        # is not moved (unless only ``min_alive`` players are left)
        n.no_deflect[x.name] = params.get("min_alive", 3)
    n.g.emit("redirect_set", n.g.to(actor), to=actor.name, player=x.name, onto=y.name)
