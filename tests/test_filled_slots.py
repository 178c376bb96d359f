"""``State.filled`` (each player's own slots filled this phase, read by the list of legal
moves for every seat) is kept with ``State.slots``: after every move, withdrawal and
phase of random games of every rule set, after a replay of the log, and around a
replacement's check (``Game.why_not_without``) it is exactly what a scan of the slots
finds."""

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


def check(g, where) -> None:
    assert kept(g.state) == scanned(g.state), where


@pytest.mark.parametrize("ruleset", available())
def test_filled_is_the_slots_scanned_after_every_move(ruleset):
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
    assert moves > 0 and withdrawn > 0


def test_a_replacement_check_leaves_filled_as_it_was():
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
