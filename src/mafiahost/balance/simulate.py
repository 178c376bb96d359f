"""Simulated win rates: whole games played by the engine itself, in fixed seed batches.

Game ``i`` of a job is dealt, rolled and played from seed ``seed + i`` alone, so a game is
the same wherever it runs. Games are grouped in batches of ``batch`` consecutive seeds; the
stopping rule is looked at after each batch *in batch order*, so the result — the stopping
point included — is the same whether the batches ran in this process, on K local
processes (``--workers K``) or on a Ray cluster. A second setup (``--compare``) plays the
same seeds (common random numbers): the same dice seed, deal seed and players' seed, so
the difference between the two setups is measured on paired games.

The lean path (``LeanGame``) keeps no event log: the current phase's events, and of the
past only what the seats were told privately (their memory). It gives the same outcomes
as the full path (``tests/test_balance_sim.py`` plays both on the same seeds).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field

from ..engine.dice import Dice
from ..engine.errors import Refused
from ..engine.game import Game
from ..rules import load
from ..rules.setup import role_list
from ..sim import NAMES
from .policies import make_policy

Z95 = 1.959963984540054


# ---- the setup ------------------------------------------------------------------------

@dataclass(frozen=True)
class Setup:
    """What a designer varies: rule set, player count, an explicit role list, options."""

    ruleset: str
    players: int
    roles: tuple[str, ...] | None = None
    options: tuple[tuple[str, object], ...] = ()
    mafia: int | None = None

    def rules(self):
        return load(self.ruleset, dict(self.options) or None)

    def role_list(self) -> list[str]:
        rules = self.rules()
        if self.roles is None:
            return role_list(rules, self.players, self.mafia)
        lo, hi = rules.setup.get("min_players", 4), rules.setup.get("max_players", 30)
        if not lo <= self.players <= hi:
            raise Refused(f"Правила «{rules.id}» рассчитаны на {lo}–{hi} игроков, а не на "
                          f"{self.players}.",
                          f"Ruleset '{rules.id}' is for {lo}-{hi} players, not {self.players}.")
        bad = [r for r in self.roles if r not in rules.roles]
        if bad:
            have = ", ".join(rules.roles)
            raise Refused(f"В правилах «{rules.id}» нет ролей: {', '.join(bad)}; есть: {have}.",
                          f"Ruleset '{rules.id}' has no role(s) {', '.join(bad)}; it has: "
                          f"{have}.")
        if len(self.roles) > self.players:
            raise Refused(f"Ролей ({len(self.roles)}) больше, чем игроков ({self.players}).",
                          f"More roles ({len(self.roles)}) than players ({self.players}).")
        fill = rules.setup.get("fill", "civilian")
        return list(self.roles) + [fill] * (self.players - len(self.roles))

    def seating(self, seed: int) -> list[tuple[str, str]]:
        """The seeded deal: the same shuffle as ``rules.setup.deal``."""
        roles = self.role_list()
        d = Dice(seed ^ 0x5EED)
        for i in range(len(roles) - 1, 0, -1):
            j = d.below(i + 1)
            roles[i], roles[j] = roles[j], roles[i]
        n = self.players
        names = NAMES[:n] if n <= len(NAMES) else [f"P{i + 1}" for i in range(n)]
        return list(zip(names, roles, strict=True))

    def label(self) -> str:
        parts = [f"{self.ruleset} {self.players}"]
        if self.mafia is not None:
            parts.append(f"mafia={self.mafia}")
        parts += [f"{k}={v}" for k, v in self.options]
        if self.roles is not None:
            parts.append("roles=" + ",".join(self.roles))
        return " ".join(parts)

    def winner_ids(self) -> list[str]:
        """What can win: every team faction in the deal, and every solo role in it."""
        rules = self.rules()
        out: list[str] = []
        for r in dict.fromkeys(self.role_list()):
            fac = rules.factions[rules.roles[r].faction]
            wid = r if fac.solo else rules.roles[r].faction
            if wid not in out:
                out.append(wid)
        order = list(rules.factions)
        return sorted(out, key=lambda w: (order.index(rules.roles[w].faction)
                                          if w in rules.roles else order.index(w), w))


# ---- one game -------------------------------------------------------------------------

class LeanGame(Game):
    """A game that keeps no event log. Of the phases past it keeps only what the seats
    were told privately (teams, check and watch results: the players' memory, which bots
    read through ``Game.view`` and some rule code reads too, e.g. mafia-yakuza's order
    through the host); the current phase's events stay until the next phase starts (the
    engine's ``resolve`` and phase-local rule code read them). No host log, no public
    log, no rolls, no statuses, no sent moves. Same commands, state and dice as ``Game``."""

    DROP = frozenset({"action", "action_withdrawn"})

    def emit(self, type: str, audience, **data):
        if type == "phase_started":
            drop = self.DROP
            self.events = [e for e in self.events
                           if isinstance(e.audience, tuple) and e.type not in drop]
        return super().emit(type, audience, **data)


@dataclass
class Outcome:
    winners: tuple[str, ...]
    roles: tuple[str, ...]
    alive: tuple[bool, ...]
    phases: int
    days: int
    over: bool


def players_seed(seed: int) -> int:
    """The players' own generator's seed (never the game's dice)."""
    return (seed * 0x9E3779B1 + 0x51A7) & 0xFFFFFFFFFFFF


def play(setup: Setup, policy: str, seed: int, lean: bool = True,
         max_phases: int = 200) -> Outcome:
    """One whole game of ``setup`` from ``seed`` by ``policy`` players."""
    rules = setup.rules()
    cls = LeanGame if lean else Game
    g = cls(rules, setup.seating(seed), seed=seed)
    return play_game(g, make_policy(policy), random.Random(players_seed(seed)), max_phases)


def play_game(g: Game, pol, rng: random.Random, max_phases: int = 200) -> Outcome:
    """Play ``g`` to its end (or ``max_phases``); survival is counted by the role each
    player was dealt (a sergeant who became the commissar's heir is still a sergeant)."""
    s = g.state
    dealt = tuple(p.role for p in s.order)
    phases = days = 0
    while not s.over and phases < max_phases:
        if s.phase == "day":
            days += 1
        for p in list(s.order):
            pol.moves(g, p.name, rng)
        g.resolve()
        phases += 1
    return Outcome(tuple(s.winners or ()), dealt, tuple(p.alive for p in s.order), phases,
                   days, bool(s.over))


# ---- tallies --------------------------------------------------------------------------

@dataclass
class Tally:
    """Counts over games of one setup (addable; a batch's result)."""

    games: int = 0
    unfinished: int = 0
    nobody: int = 0
    wins: Counter = field(default_factory=Counter)
    alive: Counter = field(default_factory=Counter)
    seats: Counter = field(default_factory=Counter)
    phases: Counter = field(default_factory=Counter)
    days: Counter = field(default_factory=Counter)

    def add(self, o: Outcome) -> None:
        self.games += 1
        if not o.over:
            self.unfinished += 1
        elif not o.winners:
            self.nobody += 1
        for w in set(o.winners):
            self.wins[w] += 1
        for r, a in zip(o.roles, o.alive, strict=True):
            self.seats[r] += 1
            if a:
                self.alive[r] += 1
        self.phases[o.phases] += 1
        self.days[o.days] += 1

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.unfinished += other.unfinished
        self.nobody += other.nobody
        for a, b in ((self.wins, other.wins), (self.alive, other.alive),
                     (self.seats, other.seats), (self.phases, other.phases),
                     (self.days, other.days)):
            a.update(b)


@dataclass
class Paired:
    """Per winner id, the 2x2 table of paired games: [both, only A, only B, neither].

    An id first seen in a later game (a role that appears mid-game, e.g. atlantis's
    awakened Wise) gets a row whose earlier games count as 'neither'."""

    games: int = 0
    table: dict = field(default_factory=dict)

    def _row(self, w) -> list:
        row = self.table.get(w)
        if row is None:
            row = self.table[w] = [0, 0, 0, self.games]
        return row

    def add(self, ids, a: Outcome, b: Outcome) -> None:
        for w in (*ids, *a.winners, *b.winners):
            self._row(w)
        for w, row in self.table.items():
            x, y = w in a.winners, w in b.winners
            row[0 if x and y else 1 if x else 2 if y else 3] += 1
        self.games += 1

    def merge(self, other: Paired) -> None:
        for w in other.table:
            self._row(w)
        for w, row in self.table.items():
            theirs = other.table.get(w) or [0, 0, 0, other.games]
            for i in range(4):
                row[i] += theirs[i]
        self.games += other.games


def reported_ids(setup: Setup, tally: Tally) -> list[str]:
    """The sides a result reports: the deal's team factions and solo roles, then any other
    id that won a game (a role some player became during it)."""
    ids = setup.winner_ids()
    return ids + sorted(w for w in tally.wins if w not in ids)


# ---- intervals ------------------------------------------------------------------------

def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    zz = z * z
    den = 1 + zz / n
    centre = (p + zz / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + zz / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def paired_difference(row, z: float = Z95) -> tuple[float, float, float]:
    """Difference of two paired proportions p_A - p_B with Newcombe's (1998, method 10)
    square-and-add interval, built from the two Wilson intervals and the correlation of
    the pairs (as in Fagerland, Lydersen & Laake, "Statistical analysis of contingency
    tables", ch. 8)."""
    both, only_a, only_b, neither = row
    n = both + only_a + only_b + neither
    if n == 0:
        return (0.0, -1.0, 1.0)
    p1, p2 = (both + only_a) / n, (both + only_b) / n
    l1, u1 = wilson(both + only_a, n, z)
    l2, u2 = wilson(both + only_b, n, z)
    den = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    # the correlation of the pairs, with Newcombe's continuity correction
    a = both * neither - only_a * only_b
    a = a - n / 2 if a > n / 2 else (0 if a >= 0 else a)
    phi = a / math.sqrt(den) if den else 0.0
    d = p1 - p2
    dl = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    du = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return (d, max(-1.0, d - dl), min(1.0, d + du))


# ---- jobs and batches -----------------------------------------------------------------

@dataclass(frozen=True)
class Job:
    setups: tuple[Setup, ...]          # one, or two for a comparison
    policy: str = "random"
    seed: int = 1
    batch: int = 200
    lean: bool = True
    max_phases: int = 200


def run_batch(job: Job, index: int) -> tuple[list[Tally], Paired]:
    """Batch ``index`` of ``job``: games ``seed + index*batch`` ... (a picklable task)."""
    tallies = [Tally() for _ in job.setups]
    paired = Paired()
    ids = None
    if len(job.setups) == 2:
        a, b = (s.winner_ids() for s in job.setups)
        ids = list(dict.fromkeys(a + b))
    start = job.seed + index * job.batch
    for seed in range(start, start + job.batch):
        outs = [play(s, job.policy, seed, job.lean, job.max_phases) for s in job.setups]
        for t, o in zip(tallies, outs, strict=True):
            t.add(o)
        if ids is not None:
            paired.add(ids, outs[0], outs[1])
    return tallies, paired


@dataclass
class Result:
    job: Job
    tallies: list[Tally]
    paired: Paired
    batches: int
    stopped: str                       # "precision" | "games"
    precision: float
    runner: str = "serial"

    @property
    def games(self) -> int:
        return self.tallies[0].games


def widest(setups, result_tallies: list[Tally], paired: Paired) -> float:
    """The largest half-width among the win-rate intervals (and paired differences)."""
    worst = 0.0
    for setup, t in zip(setups, result_tallies, strict=True):
        for w in reported_ids(setup, t):
            lo, hi = wilson(t.wins[w], t.games)
            worst = max(worst, (hi - lo) / 2)
    for row in paired.table.values():
        _, lo, hi = paired_difference(row)
        worst = max(worst, (hi - lo) / 2)
    return worst


def run(job: Job, precision: float = 0.01, max_games: int = 100_000, workers: int = 1,
        ray: str | None = None) -> Result:
    """Play batches until every interval is at most ±``precision`` wide or ``max_games``
    games are played. The batches' results are taken in batch order, so the stopping
    point does not depend on ``workers`` or on Ray."""
    if precision <= 0:
        raise Refused("Точность должна быть больше нуля (например 0.01 — это ±1%).",
                      "The precision must be above zero (0.01 means ±1%).")
    if max_games < 1:
        raise Refused("Число партий должно быть не меньше 1.",
                      "The number of games must be at least 1.")
    if workers < 1:
        raise Refused("Процессов должно быть не меньше 1.", "Workers must be at least 1.")
    if job.batch < 1:
        raise Refused("В пакете должна быть хотя бы одна партия.",
                      "A batch must hold at least one game.")
    for s in job.setups:
        s.seating(job.seed)           # a bad setup is refused here, before any work
    max_batches = max(1, math.ceil(max_games / job.batch))
    total = [Tally() for _ in job.setups]
    paired = Paired()
    stopped = "games"
    done = 0
    runner = "serial"
    if ray is not None:
        from .cluster import ray_map
        results = ray_map(job, max_batches, ray, workers)
        runner = f"ray {ray}"
    elif workers > 1:
        results = _process_map(job, max_batches, workers)
        runner = f"{workers} processes"
    else:
        results = (run_batch(job, i) for i in range(max_batches))
    try:
        for tallies, pr in results:
            for t, b in zip(total, tallies, strict=True):
                t.merge(b)
            paired.merge(pr)
            done += 1
            if widest(job.setups, total, paired) <= precision:
                stopped = "precision"
                break
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return Result(job, total, paired, done, stopped, precision, runner)


def _process_map(job: Job, n: int, workers: int):
    """Batches 0..n-1 on ``workers`` local processes, yielded in batch order; at most
    2*workers batches run ahead of the one being read."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor
    ctx = mp.get_context("forkserver") if "forkserver" in mp.get_all_start_methods() \
        else mp.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as ex:
        pending: list = []
        nxt = 0
        try:
            while nxt < n or pending:
                while nxt < n and len(pending) < 2 * workers:
                    pending.append(ex.submit(run_batch, job, nxt))
                    nxt += 1
                yield pending.pop(0).result()
        finally:
            for f in pending:
                f.cancel()


# ---- the counts-only model (a peer for the benchmark and a check) ---------------------

def counts_only_vanilla(players: int, mafia: int, games: int, seed: int = 1,
                        first: str = "night", win: str = "parity") -> int:
    """Mafia wins in ``games`` games of the uniform vanilla model played on counts alone
    (no engine): the peer the benchmark compares the engine with."""
    rng = random.Random(seed)
    rnd = rng.random
    town_gone = win == "town_gone"
    wins = 0
    for _ in range(games):
        n, m = players, mafia
        day = first == "day"
        while True:
            if day:
                if rnd() * n < m:
                    m -= 1
            n -= 1
            if m == 0:
                break
            if (m == n) if town_gone else (2 * m >= n):
                wins += 1
                break
            day = not day
    return wins
