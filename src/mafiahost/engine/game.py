"""The game: commands in, events out.

``Game.submit`` records a move, ``Game.vote`` a vote, ``Game.resolve`` settles the current
phase and opens the next. Every change goes through ``Game.emit`` which appends an event
and applies it to the state (``engine.state.APPLY``). A refused command raises
``Refused`` with a sentence naming the rule, before any event is emitted.
"""

from __future__ import annotations

from itertools import product
from typing import Any, Final, cast

from mypy_extensions import mypyc_attr

from . import mechanics, victory
from .day import DayCount, check_unvote, check_vote, mark_absent, resolve_day
from .errors import BadForcedRoll, Refused, times_ru
from .events import HOST, PUBLIC, Event
from .mechanics import questions
from .model import AbilitySpec, RulesetSpec
from .night import resolve_night
from .state import APPLY, FOREVER, Action, Player, State

mechanics.load_all()

_APPLY_GET: Final = APPLY.get
# the pool filters of constraints (``mechanics.constraint``), a dict filled as they are
# registered: read as a constant, not a module attribute at each call
_POOL_FILTERS: Final[dict] = mechanics.POOL_FILTERS


def _names(ps) -> str:
    return ", ".join(p if isinstance(p, str) else p.name for p in ps)


def gate_entry(fn: Any, values: Any) -> tuple[Any, tuple, int, int | None]:
    """A gate as ``Game.gated_out`` reads it: (the fact function, the values as a tuple
    (the random player asks ``v in fact`` of each: a range or set answers at once,
    ``isdisjoint`` walks a whole range), the fact's place in ``mechanics.new_facts``'
    list, and the least value when all are whole numbers, else None: a budget (a whole
    number N, ``mechanics.fact``) holds one of them exactly when it holds the least,
    one comparison of two machine integers)."""
    vals = tuple(frozenset(values))
    ints = [v for v in vals if type(v) is int]
    least = min(ints) if ints and len(ints) == len(vals) else None
    return (fn, vals, mechanics.FACT_SLOTS[fn], least)


def _constraint_fns(ab: AbilitySpec) -> list[tuple]:
    """The ability's named constraints as (function, params, depends on the targets),
    looked up once, when the rule set is built (``rules.load``: the registry is complete
    then; an ability made elsewhere gets them at its first use) and kept on the ability
    (``constraint_fns``, and ``reads_targets``: does any depend on the targets, or is any
    ``listed``: either way the random player draws from the list of legal tuples).

    Also ``gates``: ``gate_entry``'s (fact function, values, its place in ``mechanics.
    new_facts``' list, the least value) of the constraints' gates (``mechanics.
    constraint``), kept only for an ability drawn from the list (no targets, or
    ``reads_targets``): for another, the random player draws its targets before asking
    its constraints, so passing over it at a gate would change the draws."""
    out = []
    listed = False
    gates = []
    exact = []          # the checks (by position in ``out``) an exact gate stands for
    for c in ab.constraints:
        name, params = (c, {}) if isinstance(c, str) else next(iter(c.items()))
        out.append((mechanics.CONSTRAINTS[name], params or {},
                    name not in mechanics.TARGETLESS_CONSTRAINTS))
        listed = listed or name in mechanics.LISTED_CONSTRAINTS
        gate = mechanics.GATES.get(name)
        if gate is not None:
            values = gate[1](params or {})
            if values is not None:
                if name in mechanics.EXACT_GATES:
                    exact.append(len(out) - 1)
                gates.append(gate_entry(mechanics.FACTS[gate[0]], values))
    ab.reads_targets = listed or any(c[2] for c in out)
    # the constraints that read the targets, where each reads them one at a time: any
    # of a one-target ability's (its one target is read alone), a two-target ability's
    # where each says how (``mechanics.constraint``'s ``position``); none (an empty list)
    # where no constraint reads them
    positions = mechanics.POSITIONS
    reading = [c for c in out if c[2]]
    ab.positional = [(fn, params, positions.get(fn, "each")) for fn, params, _ in reading] \
        if ab.targets == 1 or all(c[0] in positions for c in reading) else None
    ab.reads_partners = any((c if isinstance(c, str) else next(iter(c)))
                            in mechanics.PARTNER_CONSTRAINTS for c in ab.constraints)
    # the list of legal moves (``Game.legal_move_sets``, ``legal_move_groups``) draws
    # nothing: it asks every gate, of any ability; the random player only those of an
    # ability drawn from the list
    ab.list_gates = tuple(gates)
    ab.list_after = [c for i, c in enumerate(out) if not (gates and i in exact)]
    drawn = ab.targets == 0 or ab.reads_targets
    ab.gates = ab.list_gates if drawn else ()
    ab.after_gates = ab.list_after if drawn else list(out)
    ab.constraint_fns = out
    return out


def _partner_keys(rules: RulesetSpec) -> frozenset:
    """The abilities (by key) with a constraint that reads other players' moves, so that a
    move sent may leave one of theirs no room; found once per rule set."""
    got = rules.partner_reads
    if got is None:
        got = rules.partner_reads = frozenset(
            key for key, ab in rules.abilities.items()
            if any((c if isinstance(c, str) else next(iter(c))) in mechanics.PARTNER_CONSTRAINTS
                   for c in ab.constraints))
    return got


def _redirect_roles(rules: RulesetSpec) -> frozenset:
    """The roles with an ability that redirects another player's move (a mechanic whose
    name says ``redirect``), found once per rule set."""
    got = rules.redirect_roles
    if got is None:
        out = set()
        for rid, role in rules.roles.items():
            for aid in role.abilities:
                spec = rules.abilities.get(f"{rid}.{aid}")
                if spec is not None and any("redirect" in m.name for m, _ in spec.mechs):
                    out.add(rid)
        got = rules.redirect_roles = frozenset(out)
    return got


def _team_tables(rules: RulesetSpec) -> list[tuple[str, frozenset]]:
    """(faction id, the roles that wake with it: tag ``wakes_with:<faction>``) for each
    faction whose members know each other, made once per rule set."""
    got = rules.team_tables
    if got is None:
        got = rules.team_tables = [
            (fid, frozenset(rid for rid, r in rules.roles.items()
                            if f"wakes_with:{fid}" in r.tags))
            for fid, fac in rules.factions.items() if fac.knows_members]
    return got


def _same_outcome(forced, option) -> bool:
    """A forced result names this outcome: equal, and a yes/no never stands for a number."""
    if isinstance(forced, bool) != isinstance(option, bool):
        return False
    return forced == option or (isinstance(option, str) and str(forced) == option)


def setup_problems(rules: RulesetSpec, roles: list[str]) -> list[tuple[str, str, bool]]:
    """Every setup limit of the ruleset that a list of roles breaks, as (ru, en, warning).

    A limit picks roles by ``role`` or ``tag`` and says ``max`` (at most so many),
    ``min_players`` (only in games of at least so many players), ``excludes`` (no role
    with these tags may be in the same game) or ``needs`` (only with some other role that
    has one of these tags). ``warning: true`` marks the seed's recommendations («не
    рекомендуем»): the host may accept them; the others are the seed's rules."""
    n = len(roles)
    specs = rules.roles
    out = []
    for lim in rules.setup.get("limits", ()) or ():
        def picked(r, lim=lim):
            return r == lim.get("role") or lim.get("tag") in specs[r].tags
        chosen = [r for r in roles if picked(r)]
        bad = False
        if "max" in lim and len(chosen) > lim["max"]:
            bad = True
        if "min_players" in lim and chosen and n < lim["min_players"]:
            bad = True
        if "excludes" in lim and chosen and any(
                t in specs[r].tags for r in roles for t in lim["excludes"]):
            bad = True
        if "needs" in lim and chosen and not any(
                t in specs[r].tags for r in roles if not picked(r) for t in lim["needs"]):
            bad = True
        if bad:
            out.append((lim.get("ru", "Расклад ролей нарушает правила."),
                        lim.get("en", "The role setup breaks the rules."),
                        bool(lim.get("warning"))))
    return out


def setup_violation(rules: RulesetSpec, roles: list[str]):
    """The first setup rule (not a mere recommendation) a list of roles breaks, as (ru, en)."""
    for ru, en, warning in setup_problems(rules, roles):
        if not warning:
            return ru, en
    return None


def setup_warnings(rules: RulesetSpec, roles: list[str]) -> list[tuple[str, str]]:
    """The seed's recommendations a list of roles goes against, as (ru, en) each."""
    return [(ru, en) for ru, en, warning in setup_problems(rules, roles) if warning]


def _accepts(accept, warning: tuple[str, str]) -> bool:
    """``accept`` is True (every warning), False, or texts each naming one warning (a
    case-insensitive substring of its Russian or English sentence)."""
    if isinstance(accept, bool):
        return accept
    text = (warning[0] + " " + warning[1]).lower()
    return any(str(a).lower() in text for a in accept or ())


# the per-target rules of ``Game._pools`` -> a number, the same for abilities alike
# (``AbilitySpec.pool_key``: an int is hashed at once, where a tuple of seven is hashed
# field by field at each look-up)
_POOL_KEYS: Final[dict[tuple, int]] = {}


class TargetPools:
    """The legal target tuples of an ability of one or two targets no constraint of which
    reads its targets, as ``Game._targets`` makes them, not listed: the first target from
    ``first``, the second (``k`` = 2) from ``rest``, never the first one again where the
    ability's targets are ``distinct`` (``Game.legal_move_sets``). Read-only lists (one
    may be the state's own)."""

    __slots__ = ("k", "first", "rest", "distinct")

    def __init__(self, k: int, first: list[str], rest: list[str], distinct: bool) -> None:
        self.k = k
        self.first = first
        self.rest = rest
        self.distinct = distinct

    def tuples(self) -> list[tuple]:
        """The tuples, in seating order of the first target, then the second (what
        ``Game._targets`` lists for any one- or two-target ability, before the
        constraints that read the targets filter them)."""
        if self.k == 1:
            return [(n,) for n in self.first]
        if self.distinct:
            return [(a, b) for a in self.first for b in self.rest if b != a]
        return [(a, b) for a in self.first for b in self.rest]


def _plain_alive(rules: RulesetSpec) -> dict[str, dict[str, list[AbilitySpec] | None]]:
    """role -> phase -> the abilities a living player of the role may use in the phase
    (those not for the dead, in order) where none of them is a faction's shared move, needs
    a status or has a number of uses a game: ``may_act`` asks such a player, out of jail
    and with a move tonight, nothing but whether he has filled the ability's slot (None
    where one asks more). Found once for the rule set (``RulesetSpec.plain_alive``), in
    the shape of ``by_phase``, so that it is read with the same two look-ups."""
    got: dict[str, dict[str, list[AbilitySpec] | None]] = {}
    for role, phases in rules.by_phase.items():
        by: dict[str, list[AbilitySpec] | None] = {}
        for phase, specs in phases.items():
            living = [ab for ab in specs if ab.while_dead is None]
            if any(ab.shared or ab.requires_status or ab.uses_per_game is not None
                   for ab in living):
                by[phase] = None
            else:
                by[phase] = living
        got[role] = by
    rules.plain_alive = got
    return got


@mypyc_attr(allow_interpreted_subclasses=True)   # balance.simulate.LeanGame
class Game:
    def __init__(self, rules: RulesetSpec, seating: list[tuple[str, str]], seed: int = 0,
                 open_first: bool = True, accept_warnings=False,
                 replaying: list[Event] | None = None):
        """``rules`` comes with its options already applied (``mafiahost.rules.load``).

        A seating against the seed's rules is refused; one against its recommendations
        only (``setup_warnings``) is refused unless ``accept_warnings`` accepts each of
        them (True, or texts naming them); the accepted ones are kept in ``game_started``.

        With ``open_first=False`` the first phase is not opened yet: the caller may force
        the rolls made when it opens (``state.dice.forced``) and then call ``open_next``.

        ``replaying``: the game is rebuilt from these events instead (``replay``; the
        other arguments but ``rules`` are not read)."""
        self.rules = rules
        if replaying is not None:
            self._rebuild(replaying)
            return
        self.options = dict(rules.options)
        seen = set()
        rows = []
        roles = rules.roles
        for name, role in seating:
            if name in seen:
                raise Refused(f"Имя «{name}» встречается дважды.", f"Name '{name}' appears twice.")
            seen.add(name)
            spec = roles.get(role)
            if spec is None:
                raise Refused(
                    f"Роли «{role}» нет в правилах «{rules.id}»; есть: {_names(rules.roles)}.",
                    f"Ruleset '{rules.id}' has no role '{role}'; it has: {_names(rules.roles)}.")
            rows.append((name, role, spec.faction))
        problems = setup_problems(rules, [r for _, r, _ in rows]) \
            if rules.setup.get("limits") else []
        for ru, en, warning in problems:
            if not warning:
                raise Refused(ru, en)
        warnings = [(ru, en) for ru, en, warning in problems if warning]
        for w in warnings:
            if not _accepts(accept_warnings, w):
                raise Refused(
                    f"{w[0]} Это рекомендация правил, а не запрет: ведущий может её принять.",
                    f"{w[1]} This is the rules' recommendation, not a rule: the host may "
                    f"accept it.")
        self.seed = seed
        self.state = State(rows, seed)
        self.events: list[Event] = []
        self.label = ""
        self.checked_census = -1
        extra = {"warnings_accepted": [list(w) for w in warnings]} if warnings else {}
        self.emit("game_started", HOST, ruleset=rules.id, version=rules.version,
                  players=[[n, r] for n, r, _ in rows], options=dict(self.options), seed=seed,
                  **extra)
        for p in self.state.order:
            initial = roles[p.role].initial_status
            if initial:
                for k, v in initial.items():
                    self.set_status(p, k, v)
        self._tell_teams()
        self.pending_phase: tuple[str, int] | None = (rules.first_phase, 1)
        if open_first:
            self.open_next()

    @classmethod
    def replay(cls, rules: RulesetSpec, events: list[Event]) -> Game:
        """Rebuild a game from its event list alone (the first event is ``game_started``).

        Nothing is decided again: every roll, death and status comes from the events, so
        the rebuilt state equals the original one (``tests/test_replay.py`` checks it)."""
        if events[0].type != "game_started":
            raise ValueError("an event list starts with game_started")
        return cls(rules, [], replaying=events)

    def _rebuild(self, events: list[Event]) -> None:
        g = self
        rules = self.rules
        first = events[0]
        g.options = dict(first.data.get("options") or {})
        g.seed = first.data.get("seed", 0)
        rows = [(n, r, rules.roles[r].faction) for n, r in first.data["players"]]
        g.state = State(rows, g.seed)
        g.events = []
        g.label = ""
        g.checked_census = -1
        g.pending_phase = None
        for ev in events:
            g.events.append(ev)
            f = APPLY.get(ev.type)
            if f is not None:
                f(g.state, ev.data)
            if ev.type == "phase_started":
                g.label = ev.phase

    # ---- events --------------------------------------------------------------------
    def emit(self, type: str, audience, **data) -> Event:
        ev = Event(type, self.label, audience, data)
        self.events.append(ev)
        f = _APPLY_GET(type)
        if f is not None:
            f(self.state, data)
            if type == "phase_started":
                self.label = f"{data['phase']} {data['number']}"
                ev.phase = self.label
        return ev

    def set_status(self, p: Player, status: str, value=None, until: int = FOREVER) -> None:
        # ``emit("status", HOST, ...)`` and its apply (``state._status``), made here at
        # once: the commonest event of a game
        ev = Event("status", self.label, HOST,
                   {"player": p.name, "status": status, "until": until, "value": value})
        self.events.append(ev)
        self.state.hold(p, status, until, value)

    def set_counter(self, key: str, value) -> None:
        # ``emit("counter", HOST, key=key, value=value)`` and its apply
        # (``state._counter``), made here at once
        self.events.append(Event("counter", self.label, HOST, {"key": key, "value": value}))
        self.state.counters[key] = value

    def log_event(self, type: str, audience, data: dict) -> Event:
        """``emit`` for an event the state does not apply (a type not in ``state.APPLY``):
        made and logged at once, without the keyword round trip."""
        ev = Event(type, self.label, audience, data)
        self.events.append(ev)
        return ev

    def clear_status(self, p: Player, status: str) -> None:
        if status in p.st:
            self.emit("status_cleared", HOST, player=p.name, status=status)

    def _forced(self, why: str):
        """The forced result for the roll ``why``, if any: the first keyed one
        (``{why: result}``, for a roll of that kind) else the next plain one (by order)."""
        forced = self.state.dice.forced
        kind = why.split(" ", 1)[0]
        for i, f in enumerate(forced):
            if isinstance(f, dict) and len(f) == 1:
                k = str(next(iter(f)))
                if k == why or k == kind:
                    forced.pop(i)
                    return True, f[k]
        for i, f in enumerate(forced):
            if not isinstance(f, dict):
                forced.pop(i)
                return True, f
        return False, None

    def roll(self, why: str, options: list):
        """One roll of the game's dice over ``options`` (forced results first).

        A forced result must be one of the options, compared strictly: ``true`` is not
        ``1``, so a forced ``true`` is refused for a 1/2/3 roll."""
        dice = self.state.dice
        n = len(options)
        i = dice.below(n)
        result = options[i]
        if dice.forced:
            found, f = self._forced(why)
            if found:
                hit = [o for o in options if _same_outcome(f, o)]
                if not hit:
                    allowed = _names(map(str, options))
                    raise BadForcedRoll(
                        f"Заданный результат броска «{f}» ({why}) не из возможных: {allowed}.",
                        f"Forced roll '{f}' ({why}) is not one of: {allowed}.")
                self.emit("roll", HOST, why=why, options=list(options), result=hit[0],
                          _state=dice.state, forced=True)
                return hit[0]
        self.emit("roll", HOST, why=why, options=list(options), result=result,
                  _state=dice.state)
        return result

    def chance(self, why: str, p: int | float) -> bool:
        """True with probability ``p`` (one roll event, forced ``true``/``false`` allowed)."""
        dice = self.state.dice
        r = dice.below(1 << 20) < int(p * (1 << 20))
        if dice.forced:
            found, f = self._forced(why)
            if found:
                if not isinstance(f, bool):
                    raise BadForcedRoll(f"Бросок «{why}» ждёт true или false, задано «{f}».",
                                  f"Roll '{why}' expects true or false, got '{f}'.")
                self.emit("roll", HOST, why=why, options=[True, False], chance=p, result=f,
                          _state=dice.state, forced=True)
                return f
        self.emit("roll", HOST, why=why, options=[True, False], chance=p, result=r,
                  _state=dice.state)
        return r

    def to(self, *players) -> tuple:
        return tuple(p if isinstance(p, str) else p.name for p in players)

    # ---- queries ---------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self.state.phase

    def player(self, name: str) -> Player:
        p = self.state.players.get(name)
        if p is None:
            raise Refused(
                f"Игрока «{name}» нет в игре; игроки: {_names(self.state.order)}.",
                f"There is no player '{name}'; the players are: {_names(self.state.order)}.")
        return p

    def role(self, p: Player):
        return self.rules.roles[p.role]

    def abilities_of(self, p: Player) -> list[AbilitySpec]:
        ab = self.rules.abilities
        return [ab[f"{p.role}.{a}"] for a in self.rules.roles[p.role].abilities]

    def faction_members(self, faction: str, alive_only: bool = True) -> list[Player]:
        return [p for p in self.state.order if p.faction == faction and (p.alive or not alive_only)]

    def can_use_effects(self, p: Player) -> bool:
        """Not jailed (prisoners lose every ability)."""
        return not self.state.has(p, "jailed")

    # ---- commands --------------------------------------------------------------------
    def submit(self, actor: str, ability: str, targets=(), replace: bool = False) -> Event:
        """Record a move. Raises ``Refused`` (and changes nothing) when the rules forbid it.

        With ``replace``, a move that fills the same slot as one already sent (the player's
        own, or his faction's common shot) is withdrawn first (an ``action_withdrawn``
        event) and the new one is recorded as sent now, behind every move already sent."""
        if self.state.over:
            raise Refused("Игра окончена: ходы больше не принимаются.",
                          "The game is over: no more moves are taken.")
        p = self.player(actor)
        ab = self.rules.abilities.get(f"{p.role}.{ability}")
        if ab is None and ability == "answer":      # an answer to a question put to him
            if len(targets) != 2:
                raise Refused("Ответ: номер вопроса и ответ.",
                              "An answer: the question's number and the answer.")
            self.answer(actor, targets[0], targets[1])
            return self.events[-1]
        if ab is None and ability in self.rules.ability_ids:
            role = self.rules.roles[p.role]
            own = _names(role.abilities)
            raise Refused(
                f"У роли «{role.name_ru}» нет способности «{ability}»; её способности: "
                f"{own or 'нет'}.",
                f"Role '{role.name_en}' has no ability '{ability}'; its abilities: "
                f"{own or 'none'}.")
        if ab is None:
            raise Refused(
                f"Способности «{ability}» нет в правилах «{self.rules.id}»; есть: "
                f"{_names(self.rules.ability_ids)}.",
                f"Ruleset '{self.rules.id}' has no ability '{ability}'; it has: "
                f"{_names(self.rules.ability_ids)}.")
        ts = tuple(targets)
        named: str | None = None
        if ab.names_role:
            if len(ts) != ab.targets + 1:
                raise Refused(
                    f"«{ab.name_ru}»: укажите целей: {ab.targets} и затем роль.",
                    f"'{ab.name_en}': give {ab.targets} target(s) and then a role.")
            named = self.role_named(ab, ts[-1])
            ts = ts[:-1]
        for t in ts:
            self.player(t)
        old = self.state.slots.get(self.slot_of(p, ab)) if replace else None
        if old is not None:
            why = self.why_not_without(old, p, ab, ts)
            if why is not None:
                raise Refused(*why)
            self.emit("action_withdrawn", self.to(p, old.actor), actor=old.actor, seq=old.seq,
                      ability=self.rules.abilities[old.ability].id, by=p.name)
            ev = self.record(p, ab, ts, named)
            self._recheck_partners(p)
            return ev
        why = self.why_not(p, ab, ts)
        if why is not None:
            raise Refused(*why)
        return self.send(p, ab, ts, named)

    def send(self, p: Player, ab: AbilitySpec, ts: tuple, role: str | None = None) -> Event:
        """Send a move already judged legal by ``why_not``, as ``submit`` does after its
        checks: record it, withdraw a partner's move it leaves no room for, and play an
        immediate ability's effect now. ``role``: the role a role-naming move names."""
        ev = self.record(p, ab, ts, role)
        self._recheck_partners(p)
        if ab.immediate:
            dc = DayCount(self, dict(self.state.votes))
            targets = [self.state.players[t] for t in ts]
            for mech, params in ab.mechs:
                mech.fn(dc, p, targets, params)
        return ev

    def role_options(self, ab: AbilitySpec) -> tuple[str, ...]:
        """The roles a role-naming move may name."""
        return ab.role_options or tuple(self.rules.roles)

    def role_named(self, ab: AbilitySpec, given: str) -> str:
        """The role id a player typed (an id, or the role's Russian or English name)."""
        def fold(x: str) -> str:
            return x.strip().lower().replace("ё", "е")
        want = fold(str(given))
        roles = self.rules.roles
        for rid in self.role_options(ab):
            r = roles[rid]
            if want in (fold(rid), fold(r.name_ru), fold(r.name_en)):
                return rid
        names = ", ".join(roles[r].name_ru for r in self.role_options(ab))
        names_en = ", ".join(roles[r].name_en for r in self.role_options(ab))
        raise Refused(f"«{ab.name_ru}»: роль «{given}» не подходит; можно назвать: {names}.",
                      f"'{ab.name_en}': '{given}' is not a role to name; allowed: {names_en}.")

    def answer(self, name: str, qid, given: str) -> Event:
        """A player's answer to a question put to him (``mechanics.questions``)."""
        if self.state.over:
            raise Refused("Игра окончена: ответы больше не принимаются.",
                          "The game is over: no more answers are taken.")
        p = self.player(name)
        questions.answer(self, p.name, qid, given)
        return next(e for e in reversed(self.events) if e.type == "question_answered")
    def _recheck_partners(self, by: Player) -> None:
        """A move that depends on a partner's (a ``partner`` constraint) and that the move
        just sent leaves no room for is withdrawn (``action_withdrawn`` why ``partner``):
        whichever of the two the host typed first, the same moves stand."""
        s = self.state
        keys = _partner_keys(self.rules)
        if not keys or not s.pending:
            return
        me = by.name
        hits = [a for a in s.pending if a.ability in keys and a.actor != me]
        abilities = self.rules.abilities
        for a in hits:
            ab = abilities[a.ability]
            if ab.constraint_fns is None:
                _constraint_fns(ab)
            q = s.players[a.actor]
            if self.why_not_without(a, q, ab, tuple(a.targets)) is not None:
                self.emit("action_withdrawn", self.to(q, by), actor=a.actor, seq=a.seq,
                          ability=ab.id, by=by.name, why="partner")

    def why_not_without(self, old, p: Player, ab: AbilitySpec, ts: tuple):
        """``why_not`` as if the move ``old`` had not been sent (for a replacement)."""
        s = self.state
        key = next(k for k, v in s.slots.items() if v is old)
        s.free_slot(key)
        try:
            return self.why_not(p, ab, ts)
        finally:
            s.fill_slot(key, old)

    def replace_player(self, name: str, by: str) -> Event:
        """Замена: a new person takes over a seat. The seat keeps its name in the log;
        ``display(name)`` gives who plays it now."""
        p = self.player(name)
        if by in self.state.players or by in self.state.aliases.values():
            raise Refused(f"Имя «{by}» уже занято в этой игре.", f"'{by}' is already taken.")
        if not p.alive:
            raise Refused(f"«{name}» уже не в игре: заменять некого.",
                          f"'{name}' is out: there is no one to replace.")
        return self.emit("replaced", PUBLIC, player=p.name, by=by,
                         was=self.display(p.name))

    def set_gender(self, name: str, gender: str | None) -> Event:
        """The grammatical gender the host gives the person who plays seat ``name`` now
        (``m``, ``f``; None: not given), for the texts only: no rule reads it."""
        p = self.player(name)
        if gender not in ("m", "f", None):
            raise Refused("Пол игрока — «м» или «ж».", "A player's gender is 'm' or 'f'.")
        return self.emit("gender_set", HOST, player=p.name, by=self.display(p.name),
                         gender=gender)

    def display(self, name: str) -> str:
        return self.state.aliases.get(name, name)

    def seat_of(self, name: str) -> str | None:
        """The seat played under ``name``: the seat's own name or the current player's nick
        (after a замена); None when neither matches exactly."""
        s = self.state
        if name in s.players:
            return name
        for seat, nick in s.aliases.items():
            if nick == name:
                return seat
        return None

    def why_not(self, p: Player, ab: AbilitySpec, ts: tuple):
        """None when ``p`` may use ``ab`` on ``ts`` now, else (ru, en) sentences."""
        why = self.why_not_actor(p, ab)
        if why is None:
            why = self.why_not_targets(p, ab, ts)
        return why

    def why_not_actor(self, p: Player, ab: AbilitySpec):
        """The checks that do not depend on the targets: may ``p`` use ``ab`` at all now?"""
        s = self.state
        rules = self.rules
        if ab.role != p.role:
            role = rules.roles[p.role]
            own = _names(role.abilities)
            return (f"У роли «{role.name_ru}» нет способности «{ab.id}»; её способности: "
                    f"{own or 'нет'}.",
                    f"Role '{role.name_en}' has no ability '{ab.id}'; its abilities: "
                    f"{own or 'none'}.")
        if ab.phase != s.phase:
            when = "ночью" if ab.phase == "night" else "днём"
            now = "ночь" if s.phase == "night" else "день"
            return (f"«{ab.name_ru}» действует только {when}, а сейчас {now}.",
                    f"'{ab.name_en}' is a {ab.phase} ability and it is {s.phase} now.")
        if not p.alive:
            if not self._dead_may_act(p, ab):
                return (f"«{p.name}» уже не в игре и больше не ходит.",
                        f"'{p.name}' is out of the game (dead or removed) and cannot act.")
        elif ab.while_dead is not None:
            when = {"lynched_last_day": "после выноса на голосовании",
                    "killed_last_night": "после гибели прошлой ночью",
                    "always": "выбывшим из игры"}[ab.while_dead]
            return (f"«{ab.name_ru}» можно использовать только {when}.",
                    f"'{ab.name_en}' can only be used {ab.while_dead.replace('_', ' ')}.")
        if p.st and (s.has(p, "jailed") and not ab.while_jailed or s.has(p, "no_action")
                     or ab.requires_status and not s.has(p, ab.requires_status)) \
                or ab.requires_status and not p.st:
            return self._status_refusal(p, ab)
        if ab.uses_per_game is not None and s.uses.get((p.name, ab.id), 0) >= ab.uses_per_game:
            times = "один раз" if ab.uses_per_game == 1 else times_ru(ab.uses_per_game)
            return (f"«{ab.name_ru}» можно использовать {times} за игру; уже использовано.",
                    f"'{ab.name_en}' can be used {ab.uses_per_game} time(s) a game; used up.")
        a = s.slots.get(("faction", ab.owner or p.faction, ab.id) if ab.shared
                        else (p.name, ab.slot))
        if a is not None:
            if ab.shared:
                return (f"«{ab.name_ru}»: у группировки один такой ход за ночь, он уже "
                        f"сделан ({a.actor}).",
                        f"'{ab.name_en}': one per faction a night, already sent by {a.actor}.")
            done = rules.abilities[a.ability]
            made = s.counters.get("forced_made") or ()    # engine/mechanics/forced.py
            if isinstance(made, list) and a.seq in made:
                return (f"«{self.display(p.name)}»: ход этой ночи задан правилами "
                        f"(«{done.name_ru}»); другой не принимается.",
                        f"{self.display(p.name)}: tonight's move is set by the rules "
                        f"('{done.name_en}'); another is not taken.")
            return (f"«{self.display(p.name)}»: ход в этой фазе уже есть "
                    f"(«{done.name_ru}»); второй не принимается.",
                    f"{self.display(p.name)} already acted this phase ('{done.name_en}'); "
                    f"a second move is not taken.")
        return None

    def may_act(self, p: Player, ab: AbilitySpec) -> bool:
        """``why_not_actor(p, ab) is None``, without making the refusal's sentence: the
        question the legal-move generator and the random player ask for every ability
        (``tests/test_legal_moves.py`` checks that the two agree)."""
        s = self.state
        if ab.role != p.role or ab.phase != s.phase:
            return False
        if not p.alive:
            if not self._dead_may_act(p, ab):
                return False
        elif ab.while_dead is not None:
            return False
        st = p.st
        if st:
            idx = s.idx
            v = st.get("jailed")
            if v is not None and v[0] >= idx and not ab.while_jailed:
                return False
            v = st.get("no_action")
            if v is not None and v[0] >= idx:
                return False
            if ab.requires_status:
                v = st.get(ab.requires_status)
                if v is None or v[0] < idx:
                    return False
        elif ab.requires_status:
            return False
        if ab.uses_per_game is not None and s.uses.get((p.name, ab.id), 0) >= ab.uses_per_game:
            return False
        return (("faction", ab.owner or p.faction, ab.id) if ab.shared
                else (p.name, ab.slot)) not in s.slots

    def last_night_idx(self) -> int:
        """The phase index of the most recent night before the current phase."""
        s = self.state
        return s.idx - 1 if s.phase == "day" else s.idx - 2

    def _dead_may_act(self, p: Player, ab: AbilitySpec) -> bool:
        """A few abilities are for the dead: the phantom after a lynch (``lynched_last_day``:
        the night after), a last word written in blood (``killed_last_night``), the moves of
        a role the dead take on and play on with (``always``: a ghost)."""
        s = self.state
        if ab.while_dead == "lynched_last_day":
            return p.how == "lynched" and p.died == s.idx - 1
        if ab.while_dead == "killed_last_night":
            return p.how != "lynched" and p.died == self.last_night_idx()
        if ab.while_dead == "always":      # a role that plays on after leaving (a ghost)
            return True
        return False

    def _status_refusal(self, p: Player, ab: AbilitySpec):
        s = self.state
        if s.has(p, "jailed"):
            return (f"«{p.name}» в тюрьме: заключённые не голосуют, не стреляют и не "
                    f"пользуются способностями.",
                    f"'{p.name}' is in jail: prisoners cannot vote, shoot or use abilities.")
        if s.has(p, "no_action"):
            if s.status_value(p, "no_action") == "tie":
                return (f"«{p.name}» — игрок, лишённый ночного хода в эту ночь: при ничьей на "
                        f"дневном "
                        f"голосовании все набравшие равное число голосов блокируются на "
                        f"следующую ночь.",
                        f"'{p.name}' has lost this night's action: a tie at the day's vote "
                        f"blocks every tied player for the next night.")
            return (f"«{p.name}» — игрок, лишённый ночного хода в эту ночь.",
                    f"'{p.name}' has lost this night's action.")
        return (f"«{ab.name_ru}» ещё недоступна: {ab.requires_ru or ab.requires_status}.",
                f"'{ab.name_en}' is not available yet: {ab.requires_en or ab.requires_status}.")

    def why_not_targets(self, p: Player, ab: AbilitySpec, ts: tuple):
        """The checks on the targets, and the ability's named constraints."""
        s = self.state
        rules = self.rules
        if len(ts) != ab.targets:
            return (f"«{ab.name_ru}» требует целей: {ab.targets}, указано: {len(ts)}.",
                    f"'{ab.name_en}' takes {ab.targets} target(s), got {len(ts)}.")
        if ab.distinct_targets and len(set(ts)) != len(ts):
            return ("Цели должны быть разными игроками.", "The targets must be different players.")
        players = s.players
        n_alive = None
        for t in ts:
            tp = players[t]
            if ab.targets_dead:
                if tp.alive or (ab.targets_dead == "last_night"
                                and tp.died != self.last_night_idx()):
                    return (f"«{ab.name_ru}»: цель — игрок, погибший прошлой ночью.",
                            f"'{ab.name_en}': the target must be a player killed last night.")
            elif not tp.alive:
                return (f"«{t}» уже не в игре; цель должна быть в игре.",
                        f"'{t}' is out of the game (dead or removed); the target must be in it.")
            if t == p.name:
                if ab.self_target == "forbidden":
                    return (f"«{ab.name_ru}»: нельзя выбрать себя.",
                            f"'{ab.name_en}': you cannot target yourself.")
                if ab.self_target == "only_if_few":
                    if n_alive is None:
                        n_alive = sum(1 for q in s.order if q.alive)
                    if n_alive > ab.min_alive_self:
                        return (f"«{ab.name_ru}»: себя можно выбрать, только когда в игре "
                                f"осталось {ab.min_alive_self} игрока.",
                                f"'{ab.name_en}': yourself only when {ab.min_alive_self} "
                                f"players are left.")
            if tp.st and ab.phase == "night" and s.status_value(tp, "shielded") == "tie" \
                    and (t != ts[0] or not self.may_be_redirected(p)):
                return (f"Игрок «{t}» после ничьей на дневном голосовании неуязвим этой ночью: "
                        f"ходы других игроков на него не действуют.",
                        f"'{t}' tied at the day's vote and is untouchable tonight: other "
                        f"players' moves do not reach them.")
            if ab.target_faction == "own" and tp.faction != p.faction:
                fac = rules.factions[p.faction]
                return (f"«{ab.name_ru}»: цель должна быть из своей группировки ({fac.name_ru}).",
                        f"'{ab.name_en}': the target must be a fellow {fac.name_en} member.")
        if ts:
            if ab.not_same_twice and s.status_value(p, "last:" + ab.slot) == ts[0]:
                return (f"«{ab.name_ru}»: нельзя выбирать одну и ту же цель две ночи подряд.",
                        f"'{ab.name_en}': not the same target two nights in a row.")
            if ab.self_not_twice and ts[0] == p.name and s.has(p, "self:" + ab.id):
                return (f"«{ab.name_ru}»: себя можно выбрать не более одного раза подряд.",
                        f"'{ab.name_en}': yourself at most once in a row.")
        checks = ab.constraint_fns
        if checks is None:
            checks = _constraint_fns(ab)
        for fn, params, _per_target in checks:
            why = fn(self, p, ab, ts, params)
            if why is not None:
                return why
        return None

    def may_be_redirected(self, p: Player) -> bool:
        """Could another player's move this night send ``p``'s move onto another first
        target? True when the game seats, besides ``p``, a role with a redirecting move:
        a move aimed at a tied player (untouchable) is then not known to be void when sent.
        Judged by the seating, not by who is alive, so the answer tells nobody anything."""
        roles = _redirect_roles(self.rules)
        if roles:
            for q in self.state.order:
                if q is not p and q.role in roles:
                    return True
        return False

    @staticmethod
    def slot_of(p: Player, ab: AbilitySpec) -> tuple:
        """The one-move-per-phase slot a move fills: the player's, or his faction's."""
        if ab.shared:
            return ("faction", ab.owner or p.faction, ab.id)
        return (p.name, ab.slot)

    def record(self, p: Player, ab: AbilitySpec, ts, role: str | None = None) -> Event:
        """Record a move already judged legal by ``why_not``."""
        name = p.name
        aid = ab.id
        slot = ("faction", ab.owner or p.faction, aid) if ab.shared else (name, ab.slot)
        d = {"actor": name, "ability": aid, "targets": list(ts), "key": ab.key,
             "slot": list(slot)}
        if role is not None:
            d["role"] = role
        # ``emit("action", (name,), **d)`` and its apply (``state._action``), made here at
        # once: the move is recorded as applying the event would record it
        ev = Event("action", self.label, (name,), d)
        self.events.append(ev)
        s = self.state
        s.seq += 1
        a = Action(s.seq, name, ab.key, tuple(ts), role)
        if s.phase == "day":
            s.day_actions.append(a)
        else:
            s.pending.append(a)
        key = (name, aid)
        uses = s.uses
        uses[key] = uses.get(key, 0) + 1
        s.fill_slot(slot, a)
        return ev

    def vote(self, voter: str, target: str, fixed: bool = False) -> Event:
        """A day vote. ``fixed``: the host corrects a misread vote (a forum post read
        wrongly); it is not a change of mind, so it spends no vote change."""
        p = self.state.players.get(voter) or self.player(voter)
        why = check_vote(self, p, target, fixed)
        if why is not None:
            raise Refused(*why)
        if fixed:
            return self.emit("vote", PUBLIC, voter=p.name, target=target, fixed=True)
        return self.cast_vote(p, target)

    def cast_vote(self, p: Player, target: str) -> Event:
        """``vote`` after its check: a vote ``check_vote`` accepts from ``p`` now, as one
        of ``day.legal_votes`` for this very state is (a program's choice from the list,
        ``agents``), recorded without being judged a second time."""
        # ``emit("vote", PUBLIC, voter=..., target=...)`` and its apply (``state._vote``),
        # made here at once
        name = p.name
        ev = Event("vote", self.label, PUBLIC, {"voter": name, "target": target})
        self.events.append(ev)
        s = self.state
        votes = s.votes
        if name in votes:
            s.vote_changes[name] = s.vote_changes.get(name, 0) + 1
        votes[name] = target
        return ev

    def unvote(self, voter: str, fixed: bool = False) -> Event:
        """The voter takes his vote back («снимаю голос»): he has no vote until he votes
        again. Taking a vote back is a change of mind (it spends a vote change where the
        day limits them) unless ``fixed`` (the host corrects a misread vote)."""
        p = self.player(voter)
        why = check_unvote(self, p, fixed=fixed)
        if why is not None:
            raise Refused(*why)
        return self.emit("vote_withdrawn", PUBLIC, voter=p.name, fixed=fixed)

    def mark_absent(self, name: str) -> None:
        """Day rule: a player who did not post in the day's first stage."""
        mark_absent(self, self.player(name))

    def excuse(self, name: str) -> None:
        p = self.player(name)
        if self.state.phase != "day":
            raise Refused("Освободить от голосования можно только днём.",
                          "A player can only be excused from the vote by day.")
        self.set_status(p, "excused", until=self.state.idx)

    def mark_revealed(self, name: str, revealed: bool = True) -> None:
        """The host's record that a living player's role has become known in the thread
        (he claimed it, or was exposed): the status ``revealed``, which rules such as
        singapore's «только того игрока, чья роль в игре не вскрыта» read, as they read it
        when a rule of the game itself reveals a role. ``revealed=False`` takes it back.
        Refused in a rule set where no rule reads it (``setup.host_marks_revealed``)."""
        p = self.player(name)
        if not self.rules.setup.get("host_marks_revealed"):
            raise Refused("В этих правилах ни одно правило не зависит от того, вскрыта ли роль "
                          "игрока: отмечать нечего.",
                          "No rule of this rule set depends on whether a player's role is "
                          "revealed: there is nothing to mark.")
        if not p.alive:
            raise Refused(f"«{name}» уже не в игре: отмечать нечего.",
                          f"'{name}' is out: there is nothing to mark.")
        has = self.state.has(p, "revealed")
        if revealed and has:
            raise Refused(f"Роль «{name}» уже отмечена как вскрытая.",
                          f"The role of '{name}' is already marked revealed.")
        if not revealed and not has:
            raise Refused(f"Роль «{name}» не отмечена как вскрытая: снимать нечего.",
                          f"The role of '{name}' is not marked revealed: nothing to take back.")
        if revealed:
            self.set_status(p, "revealed", True)
        else:
            self.clear_status(p, "revealed")

    def host_remove(self, name: str, why: str = "") -> list[Event]:
        """The host's override (мастерский произвол): the player leaves the game."""
        p = self.player(name)
        if not p.alive:
            raise Refused(f"«{name}» уже не в игре.", f"'{name}' is already out.")
        start = len(self.events)
        self.eliminate(p, "host", why=why)
        victory.check(self)
        return self.events[start:]

    def recheck_victory(self) -> None:
        """Have the next victory check evaluate the conditions again although nobody left,
        returned or changed side: for a rule set whose condition reads a status (a bite
        counted, a trip made), called where that status changes (``victory.check`` skips
        the conditions while the census is unchanged)."""
        self.checked_census = -1

    def host_grant(self, name: str, coins, kind: str) -> list[Event]:
        """Coins the rules leave to the host's judgement (a literary description of a kill):
        the rule set's ``host_grant`` hooks say who may receive how many for ``kind``, and
        pay; refused (nothing changes) by the first that says no."""
        if self.state.over:
            raise Refused("Игра окончена.", "The game is over.")
        p = self.player(name)
        hooks = self.rules.hooks.get("host_grant", ())
        if not hooks:
            raise Refused("В этих правилах ведущий не начисляет монет за описания.",
                          "In these rules the host awards no coins for descriptions.")
        try:
            n = int(coins)
        except (TypeError, ValueError):
            raise Refused(f"Число монет — целое число, а не «{coins}».",
                          f"The number of coins is a whole number, not '{coins}'.") from None
        start = len(self.events)
        for fn, params in hooks:
            why = fn(self, p, n, kind, params)
            if why is not None:
                raise Refused(*why)
        return self.events[start:]

    def resolve(self, open_next: bool = True) -> list[Event]:
        """Settle the current phase, check victory, open the next phase.

        With ``open_next=False`` the next phase is left to ``open_next`` (so that the rolls
        made when it opens can be forced separately, as the scenario runner does)."""
        if self.state.over:
            raise Refused("Игра окончена.", "The game is over.")
        if self.pending_phase is not None:
            raise Refused("Следующая фаза ещё не открыта.", "The next phase is not open yet.")
        start = len(self.events)
        s = self.state
        if s.questions:
            questions.settle_due(self)  # silent players: their questions' default answers
        if s.over:
            return self.events[start:]
        if s.phase == "night":
            resolve_night(self)
            nxt = ("day", s.number)
        else:
            resolve_day(self)
            nxt = ("night", s.number + 1 if self.rules.first_phase == "night" else s.number)
        if not victory.check(self):
            self.pending_phase = nxt
            if open_next:
                self.open_next()
        return self.events[start:]

    def open_next(self) -> list[Event]:
        """Open the phase a ``resolve(open_next=False)`` (or the game's creation) left
        pending: its ``phase_started`` event and whatever happens when it opens."""
        start = len(self.events)
        if self.pending_phase is not None:
            nxt, self.pending_phase = self.pending_phase, None
            self.start_phase(*nxt)
        return self.events[start:]

    # ---- shared steps ----------------------------------------------------------------
    def start_phase(self, phase: str, number: int) -> None:
        if self.rules.first_phase == "day" and phase == "day" and self.state.idx > 0:
            number = self.state.number + 1
        self.emit("phase_started", PUBLIC, phase=phase, number=number)
        for fn, params in self.rules.hooks.get("day_start" if phase == "day" else "night_open",
                                               ()):
            fn(self, params)

    def eliminate(self, p: Player, how: str, **extra) -> None:
        if not p.alive:
            return
        if self.rules.reveal_roles:
            self.emit("eliminated", PUBLIC, player=p.name, how=how, role=p.role, **extra)
        else:
            self.emit("eliminated", PUBLIC, player=p.name, how=how, **extra)
            self.emit("role_hidden", HOST, player=p.name, role=p.role)
        for fn, _params in self.rules.hooks.get("on_eliminated", ()):
            fn(self, p)
        for sc in self.rules.successions:
            if sc.when_dies != p.role:
                continue
            for h in self.state.order:
                if h.alive and h.role == sc.heir:
                    new = sc.becomes
                    if sc.if_status and not self.state.has(h, sc.if_status):
                        new = sc.otherwise
                    if new:
                        self.emit("role_changed", self.to(h), player=h.name, role=new,
                                  was=h.role)

    def _tell_teams(self) -> None:
        order = self.state.order
        for fid, wakers in _team_tables(self.rules):
            shown = [p for p in order if p.faction == fid]
            if wakers:
                shown += [p for p in order if p.role in wakers]
            if not shown:
                continue
            names = [p.name for p in shown]
            for q in shown:
                self.emit("team", (q.name,), to=q.name, faction=fid, members=names)

    # ---- the legal-move generator ----------------------------------------------------
    def legal_moves(self, name: str) -> list[tuple[str, tuple]]:
        """Every (ability, targets) the player may send now: what a move form offers, what
        the random player draws from, what an agent's action mask is made of. The one list
        of legal moves: a move is in it exactly when ``submit`` would take it (without
        ``replace``; ``tests/test_legal_moves.py`` checks the two agree).

        A role-naming move (``names_role``) is listed once per role it may name, the role
        id after the targets; an answer to an open question is ``("answer", (id,
        option))``. ``legal_move_groups`` gives the same list by ability."""
        return [(aid, ts) for aid, tss in self.legal_move_groups(name) for ts in tss]

    def legal_move_groups(self, name: str) -> list[tuple[str, list[tuple]]]:
        """``legal_moves`` by ability, in the same order: (ability id, its target tuples),
        the abilities with none left out, the answers last as ``("answer", [(id,
        option), ...])``; ``legal_moves`` is their concatenation."""
        return cast(list[tuple[str, list[tuple]]], self._move_groups(self.player(name), False))

    def legal_move_sets(self, name: str) -> list[tuple[str, list[tuple] | TargetPools]]:
        """``legal_move_groups`` with the target tuples of an ability that no constraint
        of which reads its targets given as their pools (``TargetPools``), not listed:
        for a program that reads the set of legal moves, not each move (the action mask
        of ``agents``). ``TargetPools.tuples`` lists them, in the same order."""
        return self._move_groups(self.player(name), True)

    def legal_move_sets_of(self, p: Player) -> list[tuple[str, list[tuple] | TargetPools]]:
        """``legal_move_sets`` of the player ``p`` (held by the caller: not looked up)."""
        return self._move_groups(p, True)

    def _move_groups(self, p: Player, pooled: bool
                     ) -> list[tuple[str, list[tuple] | TargetPools]]:
        s = self.state
        out: list[tuple[str, list[tuple] | TargetPools]] = []
        # the target pools, shared by abilities alike: made at the second ability with
        # targets (most seats have one a phase, and a dict that is never read again
        # costs more than the pools it would keep)
        pools: dict | None = None
        targeted = 0
        facts: list | None = None       # the gates' facts about ``p``, each asked once
        for ab in self._actor_abilities(p):
            aid = ab.id
            if ab.constraint_fns is None:
                _constraint_fns(ab)
            gates = ab.list_gates
            if gates:
                if facts is None:
                    facts = mechanics.new_facts()
                if self.gated_out(p, gates, facts):
                    continue            # a gate refuses it: so would one of its constraints
            if ab.targets:
                targeted += 1
                if targeted == 2:
                    pools = {}
                if pooled and not ab.names_role and ab.targets <= 2 \
                        and (not ab.reads_targets or ab.positional is not None):
                    tp = self._target_pools(p, ab, pools, bool(gates))
                    if tp is not None:
                        out.append((aid, tp))
                    continue
                tss = self._targets(p, ab, pools, bool(gates))
                if tss:
                    if ab.names_role:
                        roles = self.role_options(ab)
                        tss = [ts + (r,) for ts in tss for r in roles]
                    out.append((aid, tss))
            else:                       # no targets: legal when no constraint refuses
                # (less those an exact gate, asked above, stands for)
                checks = ab.list_after if gates else (ab.constraint_fns or [])
                for fn, params, _per_target in checks:
                    if fn(self, p, ab, (), params) is not None:
                        break
                else:
                    out.append((aid, [()] if not ab.names_role else
                                [(r,) for r in self.role_options(ab)]))
        if s.questions:
            answers = questions.answer_moves(self, p.name)
            if answers:
                out.append(("answer", [ts for _a, ts in answers]))
        return out

    def gated_out(self, p: Player, gates: tuple[tuple[Any, tuple, int, int | None], ...],
                  facts: list) -> bool:
        """Does one of an ability's ``gates`` (``AbilitySpec.gates``: ``gate_entry``'s
        (fact function, values, the fact's place in ``facts``, the least value)) refuse
        ``p``: a fact about him holds none of its values? Each fact is asked once and kept
        in ``facts`` (``mechanics.new_facts``: a list read by index), which the caller
        makes anew when ``p`` sends a move."""
        for fn, values, i, least in gates:
            f = facts[i]
            if f is None:
                f = facts[i] = fn(self, p)
            if isinstance(f, int):
                # a budget (``mechanics.fact``): it holds the whole numbers 0..f
                if least is not None:
                    if f < least:
                        return True
                    continue
                for v in values:
                    if v <= f:
                        break
                else:
                    return True
            elif not f:
                return True     # an empty fact holds none of the values
            else:
                for v in values:
                    if v in f:
                        break
                else:
                    return True
        return False

    def _actor_abilities(self, p: Player) -> list[AbilitySpec]:
        """The abilities of ``p``'s role in this phase that ``may_act`` allows, in the
        role's order: ``may_act`` for each, with what depends on the player alone (in jail,
        without a move tonight) asked once (``tests/test_legal_moves.py`` keeps the two
        equal). Read-only: for a living player out of jail whose abilities in the phase ask
        nothing but his slots (``_plain_alive``), the list of them kept for the rule set
        while he has filled none."""
        s = self.state
        abilities = self.rules.by_phase[p.role].get(s.phase, ())
        if not abilities:
            return []
        st = p.st
        idx = s.idx
        jailed = False
        if st:
            v = st.get("no_action")
            if v is not None and v[0] >= idx:
                return []
            v = st.get("jailed")
            jailed = v is not None and v[0] >= idx
        alive = p.alive
        slots = s.slots
        me = p.name
        # his own moves' slots, for the test below (read-only)
        mine = s.filled.get(me)
        if alive and not jailed:
            table = self.rules.plain_alive
            if table is None:
                table = _plain_alive(self.rules)
            plain = table[p.role].get(s.phase)
            if plain is not None:
                # nothing but his slots to ask: the list itself while none is filled
                if not mine:
                    return plain
                return [ab for ab in plain if ab.slot not in mine]
        uses = s.uses
        out = []
        for ab in abilities:
            if alive:
                if ab.while_dead is not None:
                    continue
            elif ab.while_dead is None or not self._dead_may_act(p, ab):
                continue        # (an ability not for the dead: no call to learn it)
            if jailed and not ab.while_jailed:
                continue
            rs = ab.requires_status
            if rs:
                v = st.get(rs) if st else None
                if v is None or v[0] < idx:
                    continue
            if ab.uses_per_game is not None and uses.get((me, ab.id), 0) >= ab.uses_per_game:
                continue
            if not slots:       # no move sent yet this phase: no slot is filled
                pass
            elif ab.shared:
                if ("faction", ab.owner or p.faction, ab.id) in slots:
                    continue
            elif mine is not None and ab.slot in mine:
                continue
            out.append(ab)
        return out

    def _pools(self, p: Player, ab: AbilitySpec,
               memo: dict | None = None) -> tuple[list[str], list[str]]:
        """(first, other): the seats the per-target rules of ``why_not_targets`` allow at
        the first target position and at the others (alive, or the dead the ability may
        name; oneself; own faction; at the first also not the same target twice and
        oneself not twice in a row; by night no player tied at the day's vote, except at the
        first when a joker may redirect the move). Read-only lists (one may be the state's
        own). With ``memo`` (one player, one unchanged state: a ``legal_moves`` call), the
        abilities whose per-target rules are alike share their pools."""
        if memo is not None:
            key = ab.pool_key
            if key < 0:         # the ability's rules never change: its key found once
                rules = (ab.targets_dead, ab.target_faction, ab.self_target,
                         ab.min_alive_self, ab.phase, ab.not_same_twice and ab.slot,
                         ab.self_not_twice and ab.id)
                key = _POOL_KEYS.get(rules, -1)
                if key < 0:
                    key = _POOL_KEYS[rules] = len(_POOL_KEYS)
                ab.pool_key = key
            hit = memo.get(key)
            if hit is None:
                hit = memo[key] = self._pools(p, ab)
            return hit
        s = self.state
        me = p.name
        if ab.targets_dead:
            order = s.order
            if ab.targets_dead == "last_night":
                ln = self.last_night_idx()
                base = [q for q in order if not q.alive and q.died == ln]
            else:
                base = [q for q in order if not q.alive]
            if ab.target_faction == "own":
                base = [q for q in base if q.faction == p.faction]
            names = [q.name for q in base]
        elif ab.target_faction == "own":
            fac = p.faction
            names = [q.name for q in s.living() if q.faction == fac]
        else:
            names = s.living_names()
        st = ab.self_target
        if st == "forbidden" or (st == "only_if_few" and
                                 len(s.living()) > ab.min_alive_self):
            pool = [n for n in names if n != me]
        else:
            pool = names
        first = pool
        if ab.phase == "night":
            # a player tied at the day's vote is untouchable tonight (``why_not_targets``)
            players = s.players
            idx = s.idx
            tied = []
            for n in pool:
                v = players[n].st.get("shielded")    # ``status_value``, read in place
                if v is not None and v[0] >= idx and v[1] == "tie":
                    tied.append(n)
            if tied:
                pool = [n for n in pool if n not in tied]
                if not self.may_be_redirected(p):
                    first = pool
        if ab.not_same_twice:
            last = s.status_value(p, "last:" + ab.slot)
            if last is not None:
                first = [n for n in first if n != last]
        if ab.self_not_twice and s.has(p, "self:" + ab.id):
            first = [n for n in first if n != me]
        return first, pool

    def legal_targets(self, p: Player, ab: AbilitySpec) -> list[tuple]:
        """The target tuples ``why_not_targets`` accepts for ``p`` using ``ab`` now, in
        seating order (the caller has checked ``why_not_actor``).

        Generated, not searched: the per-target rules make one pool of seats per position
        (``_pools``) and only the named constraints are asked about each candidate (those
        that never read the targets, once)."""
        return self._targets(p, ab, None)

    def _targets(self, p: Player, ab: AbilitySpec, memo: dict | None,
                 gated: bool = False) -> list[tuple]:
        """``legal_targets``, the pools shared through ``memo`` (see ``_pools``).
        ``gated``: the caller has asked the ability's gates and none refused, so the
        constraints an exact gate stands for are not asked again (``AbilitySpec.
        after_gates``)."""
        k = ab.targets
        checks = ab.constraint_fns
        if checks is None:
            checks = _constraint_fns(ab)
        if gated:
            checks = ab.after_gates
        if k == 0:
            for fn, params, _per_target in checks:
                if fn(self, p, ab, (), params) is not None:
                    return []
            return [()]
        got = self._open_pools(p, ab, memo, checks)
        if got is None:
            return []
        first, pool = got
        distinct = ab.distinct_targets
        if k == 1:
            if not ab.reads_targets:
                return TargetPools(1, first, pool, distinct).tuples()
            # one target: each per-target constraint filters the pool of names (in one
            # call where it has a ``pool`` filter): the same tuples, in the same order
            names = first
            for fn, params, per_target in checks:
                if per_target:
                    names = self._allowed(p, ab, names, fn, params)
                    if not names:
                        return []
            return [(n,) for n in names]
        if k == 2:
            cands: list[tuple] = TargetPools(2, first, pool, distinct).tuples()
        elif not distinct:
            cands = list(product(first, *([pool] * (k - 1))))
        elif k == 3:
            cands = [(a, b, c) for a in first for b in pool if b != a
                     for c in pool if c != a and c != b]
        else:
            cands = [ts for ts in product(first, *([pool] * (k - 1))) if len(set(ts)) == k]
        if ab.reads_targets:
            for fn, params, per_target in checks:
                if per_target:
                    cands = [ts for ts in cands if fn(self, p, ab, ts, params) is None]
                    if not cands:
                        break
        return cands

    def _allowed(self, p: Player, ab: AbilitySpec, names: list[str], fn: Any,
                 params: Any) -> list[str]:
        """The names of ``names`` the constraint ``fn`` (one that reads the targets)
        allows as a one-target move's target, in order: its pool filter's one call where it
        has one (``mechanics.constraint``'s ``pool``), else asked of each."""
        pf = _POOL_FILTERS.get(fn)
        if pf is not None:
            got: list[str] = pf(self, p, ab, names, params)
            return got
        return [n for n in names if fn(self, p, ab, (n,), params) is None]

    def _open_pools(self, p: Player, ab: AbilitySpec, memo: dict | None,
                    checks: list[tuple]) -> tuple[list[str], list[str]] | None:
        """The start of ``_targets`` and ``_target_pools``: the constraints of ``checks``
        that never read the targets, asked once before any pool or candidate is made
        (given no targets: any of them refusing leaves nothing, whatever the others would
        keep), then the pools (``_pools``); None where no tuple can be made."""
        for fn, params, per_target in checks:
            if not per_target and fn(self, p, ab, (), params) is not None:
                return None
        first, pool = self._pools(p, ab, memo)
        return (first, pool) if first else None

    def _target_pools(self, p: Player, ab: AbilitySpec, memo: dict | None,
                      gated: bool) -> TargetPools | None:
        """``_targets`` of an ability of one or two targets that names no role, as its
        pools, not listed (``legal_move_sets``); None where ``_targets`` would list none.
        For an ability no constraint of which reads the targets, or whose constraints
        read them one at a time (``AbilitySpec.positional``): those filter the pools, the
        first target's by each of them, the second's by those that judge every target
        (``"each"``), so the pools stand for exactly the pairs they would let through."""
        checks = ab.list_after if gated else ab.constraint_fns
        if checks is None:
            checks = _constraint_fns(ab)
        got = self._open_pools(p, ab, memo, checks)
        if got is None:
            return None
        first, pool = got
        k = ab.targets
        positional = ab.positional
        if positional is not None:
            for fn, params, where in positional:
                first = self._allowed(p, ab, first, fn, params)
                if not first:
                    return None
                if k == 2 and where == "each":
                    pool = self._allowed(p, ab, pool, fn, params)
        distinct = ab.distinct_targets
        if k == 2 and (not pool or (distinct and len(pool) == 1 and len(first) == 1
                                    and first[0] == pool[0])):
            return None                 # no second target, or only the first one again
        return TargetPools(k, first, pool, distinct)

    def random_legal_targets(self, p: Player, ab: AbilitySpec, rnd,
                             gated: bool = False) -> tuple | None:
        """One of ``legal_targets(p, ab)``, each equally likely (``rnd()`` in [0, 1) is the
        caller's generator), or None when there is none: what the random player sends.

        When no constraint reads the targets, drawn straight from the generated pools
        without building the list: the first target from its pool, each next one from the
        pool less the targets already chosen (when they must differ). Every first target
        is in the pool, so every prefix has as many completions as any other and the draw
        is uniform over the legal tuples.

        ``gated``: the caller has asked the ability's gates (``AbilitySpec.gates``) and
        none refused, so a constraint an exact gate stands for is not asked again."""
        checks = ab.constraint_fns
        if checks is None:
            checks = _constraint_fns(ab)
        k = ab.targets
        if k == 0 and gated:
            # ``legal_targets`` without the constraints the gates answered: [()] or []
            for fn, params, _per_target in ab.after_gates:
                if fn(self, p, ab, (), params) is not None:
                    return None
            rnd()           # the draw of one of the one tuple, as below
            return ()
        if k == 0 or ab.reads_targets:
            legal = self._targets(p, ab, None, gated)
            return legal[int(rnd() * len(legal))] if legal else None
        first, pool = self._pools(p, ab)
        if k > 1 and not set(first) <= set(pool):
            # a tied first target that a joker may redirect, not a later one: drawn from
            # the list, as the pools' prefixes no longer have equally many completions
            legal = self.legal_targets(p, ab)
            return legal[int(rnd() * len(legal))] if legal else None
        n = len(pool)
        if not first or (k > 1 and ab.distinct_targets and n < k):
            return None
        ts = [first[int(rnd() * len(first))]]
        if k > 1:
            if ab.distinct_targets:
                rest = [x for x in pool if x != ts[0]]
                for _ in range(k - 1):
                    ts.append(rest.pop(int(rnd() * len(rest))))
            else:
                ts += [pool[int(rnd() * n)] for _ in range(k - 1)]
        out = tuple(ts)
        for fn, params, _per_target in checks:
            if fn(self, p, ab, out, params) is not None:
                return None
        return out

    def view(self, name: str | None) -> list[Event]:
        """The events ``name`` may see (``None``: the public). Checks show what the rules
        make the checker see, never the truth, because only those events exist."""
        if name is not None:
            self.player(name)
        return [e for e in self.events if e.visible_to(name)]
