"""Whole games by random legal moves: the demo, the soak tests and the benchmarks.

The random player draws each move from the engine's legal-move generator
(``Game.random_legal_targets``: one of ``Game.legal_targets``, the list behind
``Game.legal_moves``) and sends it as ``submit`` does after its checks (``Game.send``:
a partner's move it leaves no room for is withdrawn, an immediate day ability takes
effect at once, a role-naming move names a role), so a simulated game is a real game
with a real event log; nothing is tried and refused.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .engine.day import against_all_today
from .engine.errors import Refused
from .engine.game import Game
from .engine.mechanics import new_facts
from .engine.model import AbilitySpec
from .engine.state import Player
from .rules import load
from .rules.setup import deal

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Иван", "Кира",
         "Лев", "Мила", "Нина", "Олег", "Пётр", "Рита", "Семён", "Таня", "Ульяна", "Фёдор"]


def new_random_game(ruleset: str, players: int, seed: int, options=None,
                    mafia: int | None = None) -> Game:
    rules = load(ruleset, options)
    names = NAMES[:players] if players <= len(NAMES) else [f"P{i + 1}" for i in range(players)]
    return Game(rules, deal(rules, names, seed, mafia), seed=seed)


def play_phase(g: Game, rng: random.Random) -> None:
    """Random legal moves for the current phase (no resolve). ``rng`` is the random
    players' own generator, not the game's dice."""
    s = g.state
    alive = s.living()
    rnd = rng.random
    if s.phase == "day":
        # ``random_vote`` for each living player, inlined
        aa = against_all_today(g)
        for p in alive:
            r = rnd()
            if r < 0.05:
                continue
            target = "against_all" if aa and r < 0.1 else alive[int(rnd() * len(alive))].name
            try:
                g.vote(p.name, target)
            except Refused:
                pass
    phase = s.phase
    by_phase = g.rules.by_phase
    dead_movers = g.rules.dead_movers
    for p in s.order:
        abilities = by_phase[p.role][phase]
        if abilities and (p.alive or (p.role, phase) in dead_movers):
            _moves(g, p, abilities, rnd)


def random_vote(g: Game, p: Player, alive: list[Player], aa: bool,
                rnd: Callable[[], float]) -> None:
    """The random player's vote: none 5% of the time, 'against all' 5% when allowed,
    else a uniformly random living player."""
    r = rnd()
    if r < 0.05:
        return
    target = "against_all" if aa and r < 0.1 else alive[int(rnd() * len(alive))].name
    try:
        g.vote(p.name, target)
    except Refused:
        pass


def random_moves(g: Game, p: Player, rnd: Callable[[], float]) -> None:
    """The random player's moves this phase: each usable ability 90% of the time, on
    targets drawn uniformly from the legal ones (``Game.random_legal_targets``, one of
    ``Game.legal_targets``), a role-naming move naming one of its roles uniformly."""
    abilities = g.rules.by_phase[p.role][g.state.phase]
    if abilities and (p.alive or (p.role, g.state.phase) in g.rules.dead_movers):
        _moves(g, p, abilities, rnd)


def _moves(g: Game, p: Player, abilities: list[AbilitySpec],
           rnd: Callable[[], float]) -> None:
    # An ability's gates (``mechanics.constraint``: cheap facts a constraint of it would
    # refuse on, found once for the player until a move is sent) are asked before
    # ``may_act``; they are kept only for abilities whose targets are drawn from the list
    # of legal ones (``Game.random_legal_targets``), so passing over one draws nothing, as
    # drawing for it would.
    facts: list | None = None        # made at the first gate asked (``new_facts``)
    s = g.state
    me = p.name
    # his own slots filled this phase (``State.filled``, kept as moves are sent and
    # withdrawn; read-only), read again after each move he sends
    mine = s.filled.get(me)
    for ab in abilities:
        if rnd() < 0.1:
            continue
        if mine is not None and not ab.shared and ab.slot in mine:
            continue        # his move in this slot is sent: ``may_act`` says no first
        gates = ab.gates
        if gates:
            if facts is None:
                facts = new_facts()
            if g.gated_out(p, gates, facts):
                continue        # a gate refuses it (so would its constraint)
        if not g.may_act(p, ab):
            continue
        ts = g.random_legal_targets(p, ab, rnd, bool(gates))
        if ts is not None:
            role = None
            if ab.names_role:                 # a role-naming move names one of its roles
                roles = g.role_options(ab)
                role = roles[int(rnd() * len(roles))]
            g.send(p, ab, ts, role)
            facts = None
            mine = s.filled.get(me)


def play_game(g: Game, seed: int, max_phases: int = 200) -> Game:
    rng = random.Random(seed)
    phases = 0
    while not g.state.over and phases < max_phases:
        play_phase(g, rng)
        g.resolve()
        phases += 1
    return g
