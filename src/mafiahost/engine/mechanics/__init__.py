"""The ability library: one module per family of mechanics.

A ruleset ability is a list of effects; each effect names a mechanic registered here with
``@mechanic("name")``. A mechanic is ``fn(ctx, act, targets, params)`` run during the night
(``ctx`` is ``engine.night.Night``) or, for day mechanics, during the day's count.

Families: kill (direct, delayed, suicide shots, phantom), protect (heal, guard, cover),
block (block, alibi), redirect, check (role, side, compare, seek), watch, recruit, jail,
vote (silence, puppet, switch, acquit). Target rules that are more than data live in
``constraints`` (``@constraint("name")``); consequences of a player leaving the game live
in ``@on_eliminated`` hooks.
"""

from __future__ import annotations

MECHANICS: dict = {}
CONSTRAINTS: dict = {}
ON_ELIMINATED: list = []
SCHEDULED: dict = {}       # effect name -> fn(night, item): delayed effects coming due
GUARD_SETTLE = None        # set by protect.py: how a guard meets an attack at dawn


class Mechanic:
    __slots__ = ("counts_as_out", "cover_aware", "fn", "name", "visits")

    def __init__(self, name, fn, cover_aware, visits, counts_as_out):
        self.name = name
        self.fn = fn
        self.cover_aware = cover_aware   # handles a covered target itself
        self.visits = visits             # leaves a visit the watcher can see
        self.counts_as_out = counts_as_out


def mechanic(name: str, cover_aware: bool = False, visits: bool = True,
             counts_as_out: bool = True):
    def deco(fn):
        MECHANICS[name] = Mechanic(name, fn, cover_aware, visits, counts_as_out)
        return fn
    return deco


def constraint(name: str):
    def deco(fn):
        CONSTRAINTS[name] = fn
        return fn
    return deco


def scheduled(name: str):
    def deco(fn):
        SCHEDULED[name] = fn
        return fn
    return deco


def on_eliminated(fn):
    ON_ELIMINATED.append(fn)
    return fn


def load_all() -> None:
    """Import every mechanic module so that they register themselves."""
    from . import block, check, day, jail, kill, protect, recruit, redirect, watch  # noqa: F401
