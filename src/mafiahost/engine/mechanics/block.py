"""Blocks: a night block, the lover's alibi and the alcoholic's drinking partner."""

from __future__ import annotations

from . import mechanic


@mechanic("block")
def block(n, actor, targets, params):
    """The target's night action fails if it comes at this step or later."""
    n.block(targets[0], actor)


@mechanic("alibi")
def alibi(n, actor, targets, params):
    """The lover's guest is not home: direct kills miss him; a direct killer who comes to
    the lover takes both (settled in ``Night.settle``)."""
    n.guests[actor.name] = targets[0].name


@mechanic("partner")
def partner(n, actor, targets, params):
    """Drinking partners: poison given to either takes both."""
    t = targets[0]
    n.partners[actor.name] = t.name
    n.partners[t.name] = actor.name
