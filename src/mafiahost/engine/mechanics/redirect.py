"""Redirects: send X's night action to Y (the joker)."""

from __future__ import annotations

from . import mechanic


@mechanic("redirect", cover_aware=True, counts_as_out=False)
def redirect(n, actor, targets, params):
    """X's action tonight lands on Y; a watcher at Y sees the redirector as the visitor,
    and a watcher at the redirector does not see him go out."""
    x, y = targets
    n.redirects[x.name] = (y.name, actor.name)
    n.g.emit("redirect_set", n.g.to(actor), to=actor.name, player=x.name, onto=y.name)
