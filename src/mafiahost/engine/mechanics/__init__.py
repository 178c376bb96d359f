"""The ability library: one module per family of mechanics.

A ruleset ability is a list of effects; each effect names a mechanic registered here with
``@mechanic("name")``. A mechanic is ``fn(ctx, actor, targets, params)`` run during the
night (``ctx`` is ``engine.night.Night``) or, for day mechanics, during the day's count
(``ctx`` is ``engine.day.DayCount``).

Families: kill (direct, delayed, suicide shots, phantom), protect (heal, guard, cover,
shield), block (block, alibi, partner), redirect, check (role, side, compare, seek, frame),
watch, recruit, jail, day (silence, puppet, switch, acquit), items (inventories and coins),
questions (a question put to a player), forced (a move a rule makes a player send).

Other registries, each by name, so a ruleset file says which it uses:
- ``@constraint(name)`` — target rules that are more than data: ``fn(g, p, ab, ts, params)``
  returns None or (ru, en); ``@constraint(name, targets=False)`` for one that never reads
  ``ts`` (asked once per ability by the legal-move generator); such a one may name a
  ``gate``, a cheap necessary condition of its passing read from a ``@fact(name)``
  (``fn(g, player)``: what the player has now, as a container), so that the legal-move
  generator and the random player pass over many abilities at once (``Game.ready_abilities``).
- ``@scheduled(name)`` — delayed effects coming due: ``fn(night, item)``.
- ``@hook(kind, name)`` — ruleset-scoped hooks; a ruleset lists the ones it uses under
  ``hooks:`` (kinds: ``on_eliminated`` ``fn(g, player)``, ``night_start`` /
  ``dawn`` ``fn(night, params)`` (``night_start`` runs when the night is resolved),
  ``night_open`` and ``day_start`` ``fn(g, params)`` (when the phase opens), ``day_count``
  ``fn(daycount, params)``, ``vote_check`` ``fn(g, voter, target, params)`` → None or a
  (ru, en) refusal, ``host_grant`` ``fn(g, player, coins, kind, params)`` → None after paying
  coins the rules leave to the host's judgement, or a (ru, en) refusal having changed nothing)
  and steps may name ``auto:`` hooks of kind ``step`` run at the start of the step.
- ``@condition(name)`` — victory condition primitives beyond the built-in ones.
- ``@tie_policy(name)`` — what a tie at the top of the vote does.

Mechanics that only one ruleset needs live next to it, in ``mafiahost/rules/abilities/
<ruleset>.py``, and register themselves the same way. A name can be registered once.
"""

from __future__ import annotations

from typing import Any, Final

MECHANICS: dict = {}
CONSTRAINTS: dict = {}
TARGETLESS_CONSTRAINTS: set = set()   # constraints that never read the targets
LISTED_CONSTRAINTS: set = set()       # targetless, but their abilities are drawn from the list
GATES: dict = {}           # constraint name -> (fact name, fn(params) -> values or None)
EXACT_GATES: set = set()   # constraints whose gate is their whole test (``exact=True``)
FACTS: dict = {}           # name -> fn(g, player) -> a container the gates look values up in
# fact fn -> its place in a list of the facts asked of one player (``new_facts``): read by
# index where a dictionary keyed by the function was looked up
FACT_SLOTS: Final[dict] = {}
# a list of as many None as there are facts: ``new_facts``' copy (a copy of a list costs
# less than a list made by multiplying)
_NO_FACTS: Final[list] = []
POOL_FILTERS: dict = {}    # constraint fn -> fn(g, p, ab, names, params): the names it allows
PARTNER_CONSTRAINTS: set = set()      # constraints that read other players' moves
SCHEDULED: dict = {}       # effect name -> fn(night, item): delayed effects coming due
HOOKS: dict = {}           # (kind, name) -> fn
VOTER_ONLY_HOOKS: set = set()   # vote_check hooks that read the voter, never the target
VOTE_POOL_FILTERS: dict = {}    # vote_check hook -> fn(g, voter, names, params): those allowed
POSITIONS: dict = {}       # constraint fn -> "first" | "each": how it reads the targets
CONDITIONS: dict = {}      # name -> fn(census, own, me, arg) -> bool
TIE_POLICIES: dict = {}    # name -> fn(g, dc, leaders, for_) -> list of names to lynch (0 or 1)
GUARD_SETTLE: Any = None   # set by protect.py: how a guard meets an attack at dawn

HOOK_KINDS = ("on_eliminated", "night_open", "night_start", "dawn", "day_start", "day_count",
              "step", "vote_check", "host_grant")


class Mechanic:
    __slots__ = ("counts_as_out", "cover_aware", "fn", "name", "visits")

    def __init__(self, name, fn, cover_aware, visits, counts_as_out):
        self.name = name
        self.fn = fn
        self.cover_aware = cover_aware   # handles a covered target itself
        self.visits = visits             # leaves a visit the watcher can see
        self.counts_as_out = counts_as_out


def _register(table: dict, key, value, what: str) -> None:
    old = table.get(key)
    if old is not None and getattr(old, "fn", old) is not getattr(value, "fn", value):
        raise ValueError(f"{what} {key!r} is already registered; choose another name")
    table[key] = value


def mechanic(name: str, cover_aware: bool = False, visits: bool = True,
             counts_as_out: bool = True):
    def deco(fn):
        _register(MECHANICS, name, Mechanic(name, fn, cover_aware, visits, counts_as_out),
                  "mechanic")
        return fn
    return deco


def constraint(name: str, targets: bool = True, partner: bool = False,
               listed: bool = False, gate: tuple | None = None, pool=None,
               exact: bool = False, position: str | None = None):
    """``targets=False``: the constraint never reads the targets, so the legal-move
    generator asks it once per ability instead of once per candidate. ``listed=True``
    (with ``targets=False``): asked once as well, but the random player still draws its
    ability's targets from the list of legal tuples, as for a constraint that reads them
    (a refusal draws nothing), so that seeded random games stay as they were before the
    constraint was known not to read them. ``partner=True``:
    it reads other players' moves of the phase, so a move it allowed is checked again
    whenever another move is sent (``Game.submit`` withdraws it if no longer allowed).

    ``gate=(fact, values)`` (with ``targets=False``): the constraint refuses whenever the
    fact (``@fact``, computed once per player for all his abilities) holds none of
    ``values(params)`` (None: no gate for these params). A gate is only ever a shortcut
    to a refusal the constraint itself would give: it must never keep out a move the
    constraint allows (``tests/test_constraint_gates.py`` checks it in random games).
    ``exact=True``: the gate is the constraint's whole test, so where the fact holds one
    of the values the constraint allows too (checked there as well); the random player,
    having asked the gate, does not ask the constraint again.

    ``pool=fn(g, p, ab, names, params)`` (for one that reads the targets): the names of
    ``names`` (a list not to be changed) it allows as an ability's one target, in order,
    as asking it about each would (``names`` itself where it allows them all: its answer
    is read, never changed); the legal-move generator filters a pool with it in one call
    (``tests/test_constraint_gates.py`` checks the two agree).

    ``position`` (for one that reads the targets) says how it reads them, so that the
    list of legal moves of an ability of two targets filters the pools of single targets
    instead of judging every pair (``Game.legal_move_sets``): ``"first"``, it reads the
    first target alone (a tuple passes when its first target passes as a one-target
    tuple); ``"each"``, it judges each target alone, the same way at every position (a
    tuple passes when each of its targets passes as a one-target tuple)
    (``tests/test_constraint_positions.py`` checks both in random games)."""
    if position not in (None, "first", "each"):
        raise ValueError(f"constraint {name!r}: position {position!r}; positions: first, each")
    if position is not None and not targets:
        raise ValueError(f"constraint {name!r}: a position is for a constraint that reads "
                         f"the targets")
    if gate is not None and targets:
        raise ValueError(f"constraint {name!r}: a gate is for a constraint that never reads "
                         f"the targets")

    def deco(fn):
        _register(CONSTRAINTS, name, fn, "constraint")
        if not targets:
            TARGETLESS_CONSTRAINTS.add(name)
            if listed:
                LISTED_CONSTRAINTS.add(name)
        if partner:
            PARTNER_CONSTRAINTS.add(name)
        if gate is not None:
            GATES[name] = gate       # the name is guarded by the constraint's own entry
            if exact:
                EXACT_GATES.add(name)
        if pool is not None:
            POOL_FILTERS[fn] = pool
        if position is not None:
            POSITIONS[fn] = position
        return fn
    return deco


def fact(name: str):
    """``fn(g, player)``: what the player has now that constraints' gates read, as a
    container of values (a set, a dict's keys, anything with ``in``), or as a whole
    number N, a budget: it holds the numbers 0 to N (none when N < 0), asked with one
    comparison where a ``range`` asks several (``Game.gated_out`` reads both kinds)."""
    def deco(fn):
        _register(FACTS, name, fn, "fact")
        if fn not in FACT_SLOTS:        # (a module imported again keeps its place)
            FACT_SLOTS[fn] = len(FACT_SLOTS)
            _NO_FACTS.append(None)
        return fn
    return deco


def new_facts() -> list:
    """A list for the facts asked of one player (``Game.gated_out``), each at its place
    (``FACT_SLOTS``): None where not asked yet."""
    return _NO_FACTS.copy()


def scheduled(name: str):
    def deco(fn):
        _register(SCHEDULED, name, fn, "scheduled effect")
        return fn
    return deco


def hook(kind: str, name: str, voter_only: bool = False, pool=None):
    """``voter_only=True`` (a ``vote_check`` hook): its answer depends on the voter alone,
    never on the target, so the list of legal votes asks it once per voter, not once per
    target (``tests/test_legal_votes.py`` checks that it answers alike for every target).

    ``pool=fn(g, voter, names, params)`` (a ``vote_check`` hook that reads the target):
    the targets of ``names`` (a list not to be changed: players' names, ``against_all``,
    ``abstain``) it allows, in order, as asking it about each would (``names`` itself
    where it allows them all); the list of legal votes filters its candidates with it in
    one call (``tests/test_legal_votes.py``
    checks the two agree)."""
    if kind not in HOOK_KINDS:
        raise ValueError(f"hook kind {kind!r}; kinds: {', '.join(HOOK_KINDS)}")
    if (voter_only or pool is not None) and kind != "vote_check":
        raise ValueError(f"hook {name!r}: voter_only and pool are for a vote_check hook")
    if voter_only and pool is not None:
        raise ValueError(f"hook {name!r}: a voter_only hook needs no pool filter")

    def deco(fn):
        _register(HOOKS, (kind, name), fn, f"{kind} hook")
        if voter_only:
            VOTER_ONLY_HOOKS.add(fn)
        if pool is not None:
            VOTE_POOL_FILTERS[fn] = pool
        return fn
    return deco


def condition(name: str):
    def deco(fn):
        _register(CONDITIONS, name, fn, "victory condition")
        return fn
    return deco


def tie_policy(name: str):
    def deco(fn):
        _register(TIE_POLICIES, name, fn, "tie policy")
        return fn
    return deco


def load_all() -> None:
    """Import every mechanic module so that they register themselves."""
    from .. import day as _day_count  # noqa: F401  (the built-in tie policies)
    from . import (  # noqa: F401
        block,
        check,
        copy,
        day,
        forced,
        items,
        jail,
        kill,
        protect,
        questions,
        recruit,
        redirect,
        revenge,
        targets,
        watch,
    )
