"""The state's indexes are kept with what they index: ``State.filled`` (each player's own
slots filled this phase, read by the list of legal moves and the random player) with
``State.slots``, and ``State.holders`` (each status's holders, read by the pool filters
by status) with the players' ``st``. After every move, withdrawal and phase of random
games of every rule set, after a replay of the log, and around a replacement's check
(``Game.why_not_without``) each is exactly what a scan finds; ``lacking`` and
``holding`` answer as ``State.has`` asked of each name."""

from __future__ import annotations

import random

import pytest

from mafiahost.engine.game import Game
from mafiahost.rules import available
from mafiahost.sim import new_random_game, play_phase


def scanned(s) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for k in s.slots:
        if len(k) == 2:
            out.setdefault(k[0], set()).add(k[1])
    return out


def kept(s) -> dict[str, set[str]]:
    return {n: set(v) for n, v in s.filled.items() if v}


def held(s) -> dict[str, dict[str, int]]:
    """``holders`` from the players' statuses."""
    out: dict[str, dict[str, int]] = {}
    for p in s.order:
        for k, v in p.st.items():
            out.setdefault(k, {})[p.name] = v[0]
    return out


def check(g, where) -> None:
    s = g.state
    assert kept(s) == scanned(s), where
    # (a status swept from ``st`` at a phase's start leaves ``holders`` too; one that ran
    # out since is in both, and read as not held by either)
    whole = held(s)
    for k, v in s.holders.items():      # a status asked about: its holders, all of them
        assert v == whole.get(k, {}), (where, k)
    names = [p.name for p in s.order] + ["abstain"]
    before = set(s.holders)
    statuses = {k for p in s.order for k in p.st} | {"jailed", "away"}
    for status in statuses:
        has = [n for n in names if n in s.players and s.has(s.players[n], status)]
        assert s.holding(names[:-1], status) == has, (where, status)
        for keep in ("", names[0]):
            assert s.lacking(names, status, keep) == [
                n for n in names if n not in has or n == keep], (where, status, keep)
    # (the questions above made an index of every status; the game goes on with those it
    # had, so that one made at its first question is checked as well)
    for k in set(s.holders) - before:
        del s.holders[k]


@pytest.mark.parametrize("ruleset", available())
def test_the_indexes_are_what_a_scan_finds_after_every_move(ruleset):
    moves = withdrawn = 0
    for seed in range(4):
        g = new_random_game(ruleset, 12, seed)
        rng = random.Random(seed)
        while not g.state.over and g.state.idx < 16:
            # the players' moves one at a time, each checked (the random player's draws,
            # in turn, with every legal move listed)
            for p in list(g.state.order):
                moves_now = g.legal_moves(p.name)
                if not moves_now:
                    continue
                aid, ts = moves_now[rng.randrange(len(moves_now))]
                before = len(g.events)
                try:
                    g.submit(p.name, aid, list(ts))
                except Exception:       # a move another one's made illegal meanwhile
                    continue
                moves += 1
                withdrawn += sum(e.type == "action_withdrawn" for e in g.events[before:])
                check(g, (ruleset, seed, g.state.idx, p.name, aid))
                if rng.random() < 0.3:
                    # the same move sent again in place of the first: withdrawn, then sent
                    before = len(g.events)
                    try:
                        g.submit(p.name, aid, list(ts), replace=True)
                    except Exception:
                        continue
                    withdrawn += sum(e.type == "action_withdrawn" for e in g.events[before:])
                    check(g, (ruleset, seed, g.state.idx, p.name, aid, "again"))
            play_phase(g, rng)
            check(g, (ruleset, seed, g.state.idx, "random player"))
            g.resolve()
            check(g, (ruleset, seed, g.state.idx, "resolved"))
        # the log applied again to a new state gives the same
        again = Game.replay(g.rules, list(g.events))
        assert kept(again.state) == kept(g.state) == scanned(again.state)
        check(again, (ruleset, seed, "replayed"))
    assert moves > 0 and withdrawn > 0


def test_a_replacement_check_leaves_the_indexes_as_they_were():
    checked = 0
    for seed in range(6):
        g = new_random_game("singapore", 12, seed)
        rng = random.Random(seed)
        while not g.state.over and g.state.idx < 10:
            play_phase(g, rng)
            s = g.state
            for key, a in list(s.slots.items()):
                if len(key) != 2:
                    continue
                p = s.players[key[0]]
                ab = g.rules.abilities[a.ability]
                before = kept(s)
                g.why_not_without(a, p, ab, a.targets)
                assert kept(s) == before == scanned(s)
                checked += 1
            g.resolve()
    assert checked > 0


def test_a_move_withdrawn_empties_its_slot_in_filled():
    """A move withdrawn with nothing sent in its place (a partner's move that no longer
    fits, ``Game._recheck_partners``) leaves its slot empty in ``filled`` too."""
    g = new_random_game("singapore", 12, 0)
    s = g.state
    for p in s.order:
        own = {a.id for a in g.rules.by_phase[p.role].get(s.phase, ()) if not a.shared}
        move = next(((aid, ts) for aid, ts in g.legal_moves(p.name) if aid in own), None)
        if move is None:
            continue
        aid, ts = move
        g.submit(p.name, aid, list(ts))
        a = s.pending[-1]
        assert aid in {g.rules.abilities[x.ability].id for x in s.pending}
        assert kept(s) == scanned(s) and kept(s).get(p.name)
        g.emit("action_withdrawn", (p.name,), actor=p.name, seq=a.seq, ability=aid,
               by=p.name, why="partner")
        assert kept(s) == scanned(s) and not kept(s).get(p.name)
        return
    raise AssertionError("no move to send")


def test_a_status_run_out_leaves_the_holders_at_the_sweep():
    """A status that runs out is swept from ``st`` at a later phase's start, and from the
    holders of a status asked about; until then both read it as not held."""
    g = new_random_game("singapore", 12, 1)
    s = g.state
    p, q = s.order[0], s.order[1]
    g.set_status(p, "away", "test", until=s.idx)          # for this phase only
    assert s.lacking([p.name, q.name], "away") == [q.name]  # asked: an index is made
    assert s.holders["away"] == {p.name: s.idx}
    g.set_status(q, "away", "test")                       # kept from now
    rng = random.Random(1)
    for _ in range(3):
        play_phase(g, rng)
        g.resolve()
        check(g, ("phase", s.idx))
    assert s.lacking([p.name, q.name], "away") == [p.name]
    assert s.holders["away"] == held(s)["away"] == {q.name: s.holders["away"][q.name]}
