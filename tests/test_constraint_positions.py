"""A constraint's ``position`` (``mechanics.constraint(position=...)``) says how it reads the
targets: ``"first"``, the first target alone; ``"each"``, every target alone, the same way.
The list of legal moves of a two-target ability whose constraints all say so filters the
pools of single targets with them instead of judging every pair (``Game._target_pools``),
so a position must never be wrong: these tests ask every such constraint about every pair
of seats in random games and compare its answer with the answers for the single targets
its position names."""

import itertools
import random

import pytest

from mafiahost.engine import mechanics
from mafiahost.engine.game import TargetPools, _constraint_fns
from mafiahost.rules import available, load
from mafiahost.sim import new_random_game, play_phase


def _positioned(rules):
    """(ability, fn, params, position) for each constraint with a position of each
    two-target ability of the rule set."""
    out = []
    for ab in rules.abilities.values():
        if ab.targets != 2:
            continue
        for fn, params, _per_target in _constraint_fns(ab):
            where = mechanics.POSITIONS.get(fn)
            if where is not None:
                out.append((ab, fn, params, where))
    return out


def _breaks(g, p, ab, fn, params, where, seats):
    """The pairs of ``seats`` on which ``fn``'s answer differs from the one its position
    ``where`` gives (the first target's alone, or every target's)."""
    out = []
    for ts in itertools.product(seats, repeat=2):
        whole = fn(g, p, ab, ts, params) is None
        singles = ts[:1] if where == "first" else ts
        parts = all(fn(g, p, ab, (t,), params) is None for t in singles)
        if whole != parts:
            out.append(ts)
    return out


RULESETS = [r for r in available() if _positioned(load(r))]


def test_the_positions_are_used():
    """The rule sets whose two-target moves are listed from filtered pools."""
    assert {"indians", "musketeers", "niichavo", "osiris", "singapore"} <= set(RULESETS)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_constraint_reads_the_targets_as_its_position_says(ruleset):
    """Every seat (the dead too) asked about every pair of seats, at each phase of random
    games; and the abilities whose constraints all have a position are listed as their
    filtered pools where they have any legal target."""
    asked = refused = pooled = 0
    for seed in range(3):
        g = new_random_game(ruleset, 12, seed)
        rng = random.Random(seed)
        positioned = _positioned(g.rules)
        while not g.state.over and g.state.idx < 12:
            for p in g.state.order:         # at the phase's start, before any move
                mine = {ab.id for ab, *_ in positioned
                        if ab.role == p.role and ab.positional is not None}
                for aid, got in g.legal_move_sets(p.name):
                    if aid in mine:
                        assert isinstance(got, TargetPools), (ruleset, aid)
                        pooled += 1
            play_phase(g, rng)
            seats = [q.name for q in g.state.order]
            for p in g.state.order:         # after the phase's moves
                for ab, fn, params, where in positioned:
                    assert _breaks(g, p, ab, fn, params, where, seats) == [], \
                        (ruleset, seed, g.state.idx, p.name, ab.key, fn.__name__)
                    asked += 1
                    refused += sum(fn(g, p, ab, (t,), params) is not None for t in seats)
            g.resolve()
    assert asked > 100 and refused > 0 and pooled > 0


def test_a_wrong_position_is_caught():
    """The check above fails for a position that is wrong: singapore's ``free_target``
    refuses a prisoner at any position (``"each"``); said to read the first target alone,
    it is caught on a pair whose second target is in jail."""
    from mafiahost.rules.abilities.singapore.cops import free_target

    caught = False
    for seed in range(6):
        g = new_random_game("singapore", 12, seed)
        rng = random.Random(seed)
        ab = next(ab for ab, fn, *_ in _positioned(g.rules) if fn is free_target)
        while not g.state.over and g.state.idx < 12 and not caught:
            play_phase(g, rng)
            seats = [q.name for q in g.state.order]
            p = g.state.order[0]
            assert _breaks(g, p, ab, free_target, {}, "each", seats) == []
            caught = bool(_breaks(g, p, ab, free_target, {}, "first", seats))
            g.resolve()
        if caught:
            break
    assert caught


def test_a_position_is_only_for_a_constraint_that_reads_the_targets():
    with pytest.raises(ValueError, match="position"):
        mechanics.constraint("test_bad_position", targets=False, position="first")
    with pytest.raises(ValueError, match="position"):
        mechanics.constraint("test_bad_position", position="second")
