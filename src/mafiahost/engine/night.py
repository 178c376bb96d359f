"""Night resolution: the ruleset's steps in order, first-sent first-served inside a step.

What an earlier step does (block, redirect, cover, protect, frame) is left as marks on the
``Night`` object and as statuses, visible to every later step. Attacks are collected and
settled at dawn against every protection of the night, in the order they were made; the
dead leave the game at dawn. Delayed effects (poison) are scheduled into a later night.
No rule is special-cased here: every action runs its ability's effects, each a mechanic
from ``engine.mechanics``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import mechanics
from .events import HOST
from .notes import NoteBook, T
from .state import Action, Player, State

if TYPE_CHECKING:
    from .game import Game
    from .model import AbilitySpec, StepSpec


class Attack:
    __slots__ = ("at_lover", "attacker", "cause", "how", "kind", "step", "target")

    def __init__(self, attacker: Player | None, target: Player, kind: str, cause: str,
                 at_lover=False, how: str = "killed", step: StepSpec | None = None) -> None:
        self.step = step           # the night step it was made at (first_wins steps)
        self.attacker = attacker   # Player or None
        self.target = target       # Player
        self.how = how             # how the victim leaves: killed | locked | denounced ...
        self.kind = kind           # direct | delayed | suicide | sure | now
        self.cause = cause         # ability id or rule that made the attack
        self.at_lover = at_lover


class Night:
    """Everything the night's steps tell each other."""

    __slots__ = (
        "attacks",
        "blocked_by",
        "covered",
        "current",
        "dead_now",
        "dawn",
        "deferred",
        "dying",
        "framed",
        "killed_by",
        "no_deflect",
        "notebook",
        "g",
        "guards",
        "guests",
        "heals",
        "idx",
        "insert_at",
        "partners",
        "poisons",
        "protected",
        "redirects",
        "s",
        "step",
        "visits",
        "watchers",
        "went_out",
    )

    def __init__(self, g: Game) -> None:
        self.g = g
        self.s: State = g.state
        self.idx: int = g.state.idx
        self.attacks: list[Attack] = []
        self.visits: list[tuple] = []          # (visible visitor name | "?", target name, actor)
        self.redirects: dict[str, tuple] = {}  # actor -> (new target, joker name)
        self.went_out: set[str] = set()
        self.partners: dict[str, str] = {}     # block partners sharing poison (a <-> b)
        self.guests: dict[str, str] = {}       # lover -> guest of the night
        self.heals: dict[str, list] = {}       # target -> [(healer, params)]
        self.guards: dict[str, list] = {}      # ward -> [(guard, params)]
        self.poisons: list[tuple] = []         # (poisoner, target) given tonight
        self.dead_now: set[str] = set()        # died at once (phantom): no action tonight
        self.blocked_by: dict[str, str] = {}
        self.covered: dict[str, str] = {}      # covered -> by
        self.protected: set[str] = set()       # untouchable by kills (beauty)
        self.framed: set[str] = set()
        self.dying: set[str] = set()
        self.current: Action | None = None
        self.watchers: list[tuple] = []        # (watcher name, target name)
        self.dawn: list = []                   # callbacks(night) mechanics asked for at dawn
        self.notebook = NoteBook()             # a ruleset's own typed notes (notes())
        self.step: StepSpec | None = None      # the step being resolved
        self.killed_by: dict[str, Attack] = {}
        self.no_deflect: dict[str, int] = {}   # redirected actor -> players-left limit
        self.deferred: list[tuple] = []        # (Action, step, attacks made before it)
        self.insert_at: int | None = None      # where a deferred move's attacks go

    def notes(self, kind: type[T]) -> T:
        """This night's notes of a rule set: an instance of the dataclass ``kind`` (every
        field with a default), made on first use (see ``engine.notes``)."""
        return self.notebook.get(kind)

    # ---- marks ---------------------------------------------------------------------
    def mark(self, p: Player, status: str, value=None) -> None:
        self.g.set_status(p, status, value, until=self.idx)

    def is_shielded(self, p: Player) -> bool:
        return self.s.has(p, "shielded")

    def is_covered_against(self, target: Player, actor: Player | None) -> bool:
        by = self.covered.get(target.name)
        return by is not None and (actor is None or actor.faction != target.faction)

    def block(self, target: Player, by: Player) -> None:
        self.blocked_by.setdefault(target.name, by.name)
        self.mark(target, "blocked", by.name)

    def is_blocked(self, p: Player) -> bool:
        return p.name in self.blocked_by or self.s.has(p, "blocked")

    def attack(self, attacker: Player | None, target: Player, kind: str, cause: str,
               at_lover: bool = False, how: str = "killed") -> None:
        atk = Attack(attacker, target, kind, cause, at_lover, how, self.step)
        if self.insert_at is None:
            self.attacks.append(atk)
        else:                    # a deferred move's attack keeps its place in the night
            self.attacks.insert(self.insert_at, atk)
            self.insert_at += 1

    def kill_now(self, target: Player, cause: str, how: str = "killed") -> None:
        """A removal that happens at once (step 0): the victim's own action is lost."""
        self.dead_now.add(target.name)
        self.attack(None, target, "now", cause, how=how)

    def on_dawn(self, fn) -> None:
        """Run ``fn(night)`` at dawn, before attacks are settled (once per night)."""
        if fn not in self.dawn:
            self.dawn.append(fn)

    # ---- settling attacks ------------------------------------------------------------
    def would_die(self, p: Player) -> bool:
        """Would ``p`` die from the attacks made so far, given the protections so far?"""
        return p.name in self.dying_so_far()

    def dying_so_far(self) -> set[str]:
        """Who the attacks made so far would kill, judged as ``settle`` will judge them (in
        the order made; on a ``first_wins`` step a killer killed by an earlier attack of the
        same step does not kill), given the protections made so far. Changes nothing."""
        return set(self.deaths_so_far())

    def deaths_so_far(self) -> dict[str, Attack]:
        """``dying_so_far`` with the attack that kills each one."""
        dead: dict[str, Attack] = {}
        for a in self.attacks:
            t = a.target
            if not t.alive or t.name in dead:
                continue
            if a.attacker is not None and self._removed_before(a, dead.get(a.attacker.name)):
                continue
            if self._lethal(a, commit=False):
                dead[t.name] = a
        return dead

    def attacked_before(self, p: Player, step) -> bool:
        """Was ``p`` attacked at a night step before ``step`` (so that he may be removed
        before he moves, with the rule set's ``removed_earlier: no_move``)?"""
        index = self.g.rules.step_index
        at = index[step.id]
        for a in self.attacks:
            if a.target is p and a.step is not None and index[a.step.id] < at:
                return True
        return False

    def _removed_before(self, a: Attack, first: Attack | None) -> str | None:
        """Why attack ``a`` is not made, its attacker being killed by ``first``: inside a
        ``first_wins`` step by an attack made earlier in it ("killed_first"); with the rule
        set's ``removed_earlier: no_move``, by one made at an earlier step ("removed_earlier")."""
        if first is None or a.step is None or first.step is None:
            return None
        if first.step is a.step:
            return "killed_first" if a.step.first_wins else None
        if self.g.rules.removed_earlier == "no_move":
            index = self.g.rules.step_index
            if index[first.step.id] < index[a.step.id]:
                return "removed_earlier"
        return None

    def _lethal(self, a: Attack, commit: bool) -> bool:
        t = a.target
        g = self.g
        if a.kind in ("suicide", "now"):   # the shooter's own death; a death already done
            return True
        if self.is_shielded(t) or self.is_covered_against(t, a.attacker):
            if commit:
                g.emit("saved", HOST, player=t.name, by="shield" if self.is_shielded(t)
                       else self.covered[t.name], cause=a.cause)
            return False
        if a.kind == "sure":            # only immunity stops it (the guard's last stand)
            return True
        if a.kind == "direct":
            if t.name in self.guests.values() and not a.at_lover:
                if commit:
                    g.emit("saved", HOST, player=t.name, by="alibi", cause=a.cause)
                return False
            if t.name in self.protected:
                if commit:
                    g.emit("saved", HOST, player=t.name, by="protected", cause=a.cause)
                return False
            for guard, params in self.guards.get(t.name, ()):
                if params.get("unless_healed") and self._healer(t, a) is not None:
                    continue         # a healed ward is not "to be killed": the heal saves him
                if guard.alive and guard.name not in self.dying and guard.name not in self.dead_now:
                    if mechanics.GUARD_SETTLE(self, guard, params, a, commit):
                        return False
        healer = self._healer(t, a)
        if healer is not None:
            if commit:
                g.emit("saved", HOST, player=t.name, by=healer.name, cause=a.cause)
            return False
        return True

    def _healer(self, t: Player, a: Attack) -> Player | None:
        """The first healer of ``t`` tonight whose heal stops attack ``a``, if any."""
        if a.kind in ("direct", "delayed"):
            for healer, params in self.heals.get(t.name, ()):
                if a.kind in params.get("against", ("direct",)):
                    return healer
        return None

    def settle(self) -> None:
        g = self.g
        i = 0
        while i < len(self.attacks):          # chain attacks may be appended while settling
            a = self.attacks[i]
            i += 1
            t = a.target
            if not t.alive or t.name in self.dying:
                continue
            if a.attacker is not None:
                first = self.killed_by.get(a.attacker.name)
                why = self._removed_before(a, first)
                if why:
                    g.emit("no_effect", HOST, player=a.attacker.name, why=why,
                           target=t.name, ability=a.cause)
                    continue
            if self._lethal(a, commit=True):
                self.dying.add(t.name)
                self.killed_by[t.name] = a
                g.emit("dies", HOST, player=t.name, by=a.attacker.name if a.attacker else None,
                       cause=a.cause)
                # a killer at the lover's takes both (direct kills only)
                guest = self.guests.get(t.name)
                if guest is not None and a.kind == "direct":
                    self.attack(a.attacker, g.state.players[guest], "direct", a.cause,
                                at_lover=True)


def resolve_night(g: Game) -> None:
    n = Night(g)
    s = g.state
    rules = g.rules
    abilities = rules.abilities
    by_step: dict[str | None, list[Action]] = {}
    for a in s.pending:
        by_step.setdefault(abilities[a.ability].step, []).append(a)
    idx = s.idx
    due = [x for x in s.schedule if x["night_idx"] == idx] if s.schedule else ()
    for fn, params in rules.hooks.get("night_start", ()):
        fn(n, params)
    for step in rules.steps:
        moves = by_step.get(step.id)
        if not (moves or step.auto or due):
            continue          # nothing happens at this step tonight
        n.step = step
        for fn, params in step.auto:
            fn(n, params)
        if due:
            for item in due:
                if item["step"] == step.id:
                    g.emit("schedule_done", HOST, item=item)
                    mechanics.SCHEDULED[item["effect"]](n, item)
        if moves:
            for a in moves:
                perform(n, a)
    n.step = None
    if n.deferred:
        _run_deferred(n)
    for fn in n.dawn:
        fn(n)
    for fn, params in rules.hooks.get("dawn", ()):
        fn(n, params)
    n.settle()
    dying = n.dying
    if not dying:
        return
    hows: dict = {}
    for atk in n.attacks:
        if atk.target.name in dying:
            hows.setdefault(atk.target.name, atk.how)
    players = s.players
    for p in sorted([players[x] for x in dying], key=_seat):
        g.eliminate(p, hows.get(p.name, "killed"))


def _seat(p: Player) -> int:
    return p.seat


def _run_deferred(n: Night) -> None:
    """The moves of players attacked at an earlier step (``removed_earlier: no_move``),
    judged at dawn with every protection of the night: a player an earlier step's attack
    removes makes no later move. Protections come first (a doctor shot at step 4 who
    heals himself at step 8 is saved by it, as a heal of anyone else would save him):
    they are made, then withdrawn for each one whose maker dies all the same, until none
    changes; then the other moves, each judged as it comes, run at their own step, their
    attacks keeping their place in the night's order."""
    g = n.g
    index = g.rules.step_index
    abilities = g.rules.abilities

    def removed(a, step) -> bool:
        first = n.deaths_so_far().get(a.actor)
        return first is not None and first.step is not None and \
            index[first.step.id] < index[step.id]

    def void(a) -> None:
        g.emit("no_effect", HOST, player=a.actor, ability=abilities[a.ability].id,
               why="removed_earlier")

    # moves that only leave a protection for dawn (heal, guard)
    protective = [d for d in n.deferred if abilities[d[0].ability].only_protections]
    made: list[tuple] = []
    for a, step, _pos in protective:
        before = {id(e) for es in (*n.heals.values(), *n.guards.values()) for e in es}
        n.step = step
        perform(n, a, deferred=True)
        made.append((a, step, [(table, k, e) for table in (n.heals, n.guards)
                               for k, es in table.items() for e in es
                               if id(e) not in before]))
    changed = True
    while changed:
        changed = False
        for item in list(made):
            a, step, entries = item
            if removed(a, step):
                for table, k, e in entries:
                    table[k].remove(e)
                made.remove(item)
                void(a)
                changed = True
    inserted = 0
    for d in n.deferred:
        if d in protective:
            continue
        a, step, pos = d
        if removed(a, step):
            void(a)
            continue
        n.step = step
        n.insert_at = pos + inserted
        perform(n, a, deferred=True)
        inserted = n.insert_at - pos
        n.insert_at = None
    n.step = None


def perform(n: Night, a: Action, deferred: bool = False) -> None:
    """Run one recorded move: the gates (dead, jailed, blocked, doomed), then its effects."""
    g = n.g
    s = n.s
    players = s.players
    actor = players[a.actor]
    rules = g.rules
    ab = rules.abilities[a.ability]
    # a move that only attacks is judged at dawn anyway (``settle``)
    if not deferred and not ab.only_attacks and n.step is not None \
            and rules.removed_earlier == "no_move" and n.attacked_before(actor, n.step):
        n.deferred.append((a, n.step, len(n.attacks)))
        return
    n.current = a
    if n.dead_now and a.actor in n.dead_now and actor.alive:
        g.emit("no_effect", HOST, player=a.actor, ability=ab.id, why="dead")
        return
    st = actor.st
    if st and actor.alive and s.has(actor, "jailed"):
        g.emit("no_effect", HOST, player=a.actor, ability=ab.id, why="jailed")
        return
    if ab.shared:
        # a faction's common action fails only when no member of the faction can act
        owner = ab.owner or actor.faction
        for m in s.order:
            if m.faction == owner and m.alive and not n.is_blocked(m) \
                    and g.can_use_effects(m) and m.name not in n.dead_now:
                break
        else:
            g.emit("blocked", HOST, player=a.actor, by=n.blocked_by.get(a.actor), ability=ab.id)
            return
    elif ab.blockable and (a.actor in n.blocked_by or st and s.has(actor, "blocked")):
        g.emit("blocked", HOST, player=a.actor, by=n.blocked_by.get(a.actor), ability=ab.id)
        return
    if ab.wasted_if_doomed and n.would_die(actor):
        g.emit("no_effect", HOST, player=a.actor, ability=ab.id, why="shot")
        return
    ts = a.targets
    run_ability(n, actor, ab, [players[ts[0]]] if len(ts) == 1 else [players[t] for t in ts])
    if ts and (ab.not_same_twice or ab.self_not_twice):
        first = ts[0]
        if ab.not_same_twice:
            g.set_status(actor, "last:" + ab.slot, first, until=n.idx + 2)
        if ab.self_not_twice and first == actor.name:
            g.set_status(actor, "self:" + ab.id, True, until=n.idx + 2)


def run_ability(n: Night, actor: Player, ab: AbilitySpec, targets: list[Player]) -> None:
    """Apply ``ab``'s effects for ``actor`` on ``targets``: redirects, visits, immunity.

    Copying mechanics (a hermit taking a dead player's action, a chameleon) call this
    with another role's ability spec."""
    g = n.g
    s = n.s
    name = actor.name
    visible = name
    if name in n.redirects and targets:
        new, joker = n.redirects[name]
        limit = n.no_deflect.get(name)
        if limit is not None and targets[0].name == joker and \
                sum(1 for q in s.order if q.alive) > limit:
            g.emit("no_effect", HOST, player=joker, ability="redirect", why="deflect",
                   target=name)
        else:
            g.emit("redirected", HOST, player=name, ability=ab.id, was=targets[0].name,
                   onto=new)
            targets = [s.players[new]] + targets[1:]
            visible = joker
    if visible == name and name in n.covered:
        visible = "?"
    if ab.counts_out:
        n.went_out.add(name)
    if ab.visits:
        for t in targets:
            n.visits.append((visible, t.name, name))
    covered = n.covered
    for mech, params in ab.mechs:
        untouchable = False
        for t in targets:
            if (t.st and s.has(t, "shielded")) or (
                    not mech.cover_aware and t.name in covered and actor.faction != t.faction):
                untouchable = True
                break
        if untouchable:
            g.emit("no_effect", HOST, player=name, ability=ab.id, why="untouchable")
            continue
        mech.fn(n, actor, targets, params)
