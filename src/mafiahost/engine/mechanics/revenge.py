"""Revenge at death: a victim who takes his killer along.

A role tagged ``takes_shooter`` (or ``takes_shooter_if:<item>`` while he holds that item),
killed tonight by an attack whose cause is one of the hook's ``causes`` (the rule set's
guns), takes the one who shot him along: the shooter is attacked with a ``sure`` attack
(only immunity, a shield or a cover stops it), cause ``params["cause"]``. Used as a dawn
hook listed after the rule set's own dawn hooks (which settle vests and immunities first).
"""

from __future__ import annotations

from ..events import HOST
from . import hook
from .items import items_of


def takes_shooter(g, p) -> bool:
    """Does ``p`` (his role's tags, his items now) take his killer along?"""
    for tag in g.role(p).tags:
        if tag == "takes_shooter":
            return True
        if tag.startswith("takes_shooter_if:") and items_of(g, p).get(tag.split(":", 1)[1]):
            return True
    return False


@hook("dawn", "dies_with_shooter")
def dies_with_shooter(n, params):
    """params: ``causes`` (the attacks that count as shots), ``cause`` and ``how`` of the
    shooter's death (default ``revenge`` / ``killed``)."""
    g = n.g
    causes = set(params.get("causes", ()))
    seen: set[str] = set()
    for a in list(n.attacks):
        t = a.target
        k = a.attacker
        if not t.alive or t.name in seen or a.kind in ("suicide", "now"):
            continue
        if not n._lethal(a, commit=False):
            continue
        seen.add(t.name)
        if k is None or k is t or a.cause not in causes or not takes_shooter(g, t):
            continue
        g.emit("took_along", HOST, player=t.name, killer=k.name)
        n.attack(t, k, "sure", params.get("cause", "revenge"), how=params.get("how", "killed"))
