"""Bots that play a seat of any rule set: ``random`` and ``sensible``.

A bot's ``moves(game, seat, rng)`` sends the seat's moves and vote for the current phase
(``Game.submit``, ``Game.vote``: the engine's own checks) and returns the events they made;
``plan(game, seat, rng)`` only chooses them, as ``[("move", ability, targets) |
("vote", target)]``, for a caller that sends them itself (the host sends each as a
player's command). Both choose only from the engine's one list of legal moves
(``Game.legal_moves``) and legal votes (``engine.day.legal_votes``), and know only what the
seat was told (``Game.view``): its role, its teams, its own results.

``random``: for each move slot of the seat one legal move, uniformly (or none, like a
player who skips, with probability ``skip``), and one legal vote, uniformly.

``sensible``: killers never aim at their own side (the seat and the teammates it was told
of), and prefer players their own checks showed guilty; protectors protect others;
checkers check someone they have not checked; mafia (any team that knows its members)
votes for a non-member; the town votes for a player its own results show guilty, else at
random among the others. An ability of a kind it does not know (a rule set's own
mechanic) is played as ``random`` plays it.
"""

from __future__ import annotations

import random as _random

from ..engine.day import legal_votes
from ..engine.errors import Refused

KILL = {"kill", "shoot", "poison", "kill_now"}
HARM = {"block", "silence", "recruit", "frame", "redirect", "puppet"}
PROTECT = {"heal", "guard", "cover", "shield", "protect", "alibi"}
CHECK = {"check", "compare", "seek", "watch"}
GUILTY = {"mafia", "negative", "single", "criminal"}


def kind_of(ab) -> str | None:
    """``kill``, ``harm``, ``protect``, ``check`` by the ability's mechanics; None when
    none of them is known."""
    names = {m.name for m, _ in ab.mechs} if ab.mechs else \
        {e.mechanic for e in ab.effects}
    if not names:
        return None
    if names & KILL:
        return "kill"
    if names & PROTECT:
        return "protect"
    if names & CHECK:
        return "check"
    if names & HARM:
        return "harm"
    return None


class Known:
    """What a seat was told, as a bot uses it."""

    def __init__(self, g, seat: str):
        self.mates: set[str] = set()
        self.checked: set[str] = set()
        self.guilty: set[str] = set()
        self.innocent: set[str] = set()
        rules = g.rules
        for e in g.view(seat):
            t, d = e.type, e.data
            if t == "team" and seat in d.get("members", ()):
                self.mates.update(d.get("members", ()))
            elif t in ("met", "town_mafia"):
                self.mates.update(d.get("players") or d.get("members") or ())
            elif t == "check_result" and d.get("to") == seat:
                tg = d.get("target")
                self.checked.add(tg)
                r = d.get("result")
                if not isinstance(r, str):
                    continue
                if r in rules.roles:
                    fac = rules.factions.get(rules.roles[r].faction)
                    r = "town" if fac is None or fac.side == "town" else "criminal"
                if r in GUILTY:
                    self.guilty.add(tg)
                elif r in ("town", "positive"):
                    self.innocent.add(tg)
            elif t == "watch_result" and d.get("to") == seat:
                self.checked.add(d.get("target"))
        self.mates.discard(seat)
        self.side = rules.factions[g.state.players[seat].faction].side \
            if g.state.players[seat].faction in rules.factions else "single"


class _Answer:
    """Stands for an answer to a question in a slot group (no ability spec behind it)."""
    mechs = ()
    effects = ()

    def __init__(self, qid):
        self.id = "answer"
        self.qid = qid


def _slots(g, seat: str, moves):
    """Legal moves grouped by the slot they fill (one move a slot); the answers to one
    question are a group of their own."""
    p = g.state.players[seat]
    groups: dict[tuple, list] = {}
    answers: dict = {}
    for aid, ts in moves:
        ab = g.rules.abilities.get(f"{p.role}.{aid}")
        if ab is None:                   # ("answer", (question id, option))
            qa = answers.setdefault(ts[0], _Answer(ts[0]))
            groups.setdefault(("answer", ts[0]), []).append((qa, ts))
            continue
        groups.setdefault(g.slot_of(p, ab), []).append((ab, ts))
    return list(groups.values())


class Bot:
    name = "bot"
    skip = 0.0

    def plan(self, g, seat: str, rng) -> list[tuple]:
        raise NotImplementedError

    def moves(self, g, seat: str, rng=None) -> list:
        """Send this seat's moves and vote for the current phase; the events made."""
        rng = rng or _random.Random()
        out = []
        for item in self.plan(g, seat, rng):
            try:
                if item[0] == "vote":
                    out.append(g.vote(seat, item[1]))
                else:
                    out.append(g.submit(seat, item[1], item[2]))
            except Refused:
                continue      # the state changed under an earlier choice (a shared shot)
        return out


class RandomBot(Bot):
    name = "random"
    skip = 0.0

    def plan(self, g, seat, rng):
        st = g.state
        if st.over:
            return []
        out: list[tuple] = []
        for group in _slots(g, seat, g.legal_moves(seat)):
            if self.skip and rng.random() < self.skip:
                continue
            ab, ts = group[int(rng.random() * len(group))]
            out.append(("move", ab.id, tuple(ts)))
        votes = legal_votes(g, st.players[seat])
        if votes:
            out.append(("vote", votes[int(rng.random() * len(votes))]))
        return out


class SensibleBot(Bot):
    name = "sensible"

    def plan(self, g, seat, rng):
        st = g.state
        if st.over:
            return []
        k = Known(g, seat)
        own = k.mates | {seat}
        out: list[tuple] = []
        for group in _slots(g, seat, g.legal_moves(seat)):
            known = [(ab, ts) for ab, ts in group if kind_of(ab) is not None]
            pool = known or group
            ab, _ = pool[int(rng.random() * len(pool))]
            options = [ts for a, ts in group if a is ab]
            kind = kind_of(ab)
            pick = options
            if kind in ("kill", "harm"):
                pick = [ts for ts in options if not set(ts) & own]
                if kind == "kill":
                    hot = [ts for ts in pick if set(ts) & k.guilty]
                    pick = hot or [ts for ts in pick if not set(ts) & k.innocent] or pick
            elif kind == "protect":
                pick = [ts for ts in options if seat not in ts]
                friends = [ts for ts in pick if set(ts) & (k.mates | k.innocent)]
                pick = friends or pick
            elif kind == "check":
                pick = [ts for ts in options if not set(ts) & (k.checked | own)]
            if not pick:
                if kind == "kill":
                    continue          # rather no shot than one at the own side
                pick = options
            ts = pick[int(rng.random() * len(pick))]
            out.append(("move", ab.id, tuple(ts)))
        votes = legal_votes(g, st.players[seat])
        if votes:
            seats = [v for v in votes if v in st.players and v != seat]
            if k.side != "town" and k.mates:
                pool = [v for v in seats if v not in own]
            else:
                hot = [v for v in seats if v in k.guilty]
                pool = hot or [v for v in seats if v not in own and v not in k.innocent] \
                    or [v for v in seats if v not in own]
            pool = pool or votes
            out.append(("vote", pool[int(rng.random() * len(pool))]))
        return out


BOTS = {"random": RandomBot, "sensible": SensibleBot}


def get_bot(name: str) -> Bot:
    """A bot by name: ``random`` or ``sensible``."""
    cls = BOTS.get(name)
    if cls is None:
        raise ValueError(f"no bot {name!r}; bots: {', '.join(BOTS)}")
    return cls()


def play_phase(g, bots: dict, rng) -> None:
    """Every seat's bot sends its moves for the current phase, in seating order
    (``bots``: seat -> Bot; a seat without one sends nothing)."""
    for p in g.state.order:
        b = bots.get(p.name)
        if b is not None:
            b.moves(g, p.name, rng)


def play_game(g, bots: dict, seed: int = 0, max_phases: int = 200):
    """A whole game by bots (for tests and balance runs)."""
    rng = _random.Random(seed)
    n = 0
    while not g.state.over and n < max_phases:
        play_phase(g, bots, rng)
        g.resolve()
        n += 1
    return g
