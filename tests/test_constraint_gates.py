"""A constraint's gate (``mechanics.constraint(gate=...)``) is only a shortcut to a refusal
the constraint itself gives: wherever a gate refuses, its constraint refuses too, so the
random player passing over an ability at a gate (``sim._moves``) changes nothing."""

import random

import pytest

from mafiahost.engine import mechanics
from mafiahost.engine.game import _constraint_fns, gate_entry
from mafiahost.rules import available
from mafiahost.sim import new_random_game, play_phase


def _gate_refusals(g, checked, admitted):
    """Ask every gate of every ability of every player now; count (asked, refused). An
    exact gate (``mechanics.constraint(exact=True)``) that admits: its constraint allows
    (added to ``admitted``)."""
    asked = refused = 0
    for p in g.state.order:
        for ab in g.rules.abilities.values():
            for c in ab.constraints:
                name, params = (c, {}) if isinstance(c, str) else next(iter(c.items()))
                gate = mechanics.GATES.get(name)
                if gate is None:
                    continue
                values = gate[1](params or {})
                if values is None:
                    continue
                asked += 1
                fact = mechanics.FACTS[gate[0]]
                why = mechanics.CONSTRAINTS[name](g, p, ab, (), params or {})
                gate_ = (gate_entry(fact, values),)
                if g.gated_out(p, gate_, mechanics.new_facts()):    # the gate refuses
                    refused += 1
                    assert why is not None, (g.rules.id, g.state.idx, p.name, ab.key, name)
                    checked.add(name)
                elif name in mechanics.EXACT_GATES:     # an exact gate admits: so does it
                    assert why is None, (g.rules.id, g.state.idx, p.name, ab.key, name)
                    admitted.add(name)
    return asked, refused


@pytest.mark.parametrize("ruleset", available())
def test_a_gate_refuses_only_where_its_constraint_refuses(ruleset):
    asked = refused = 0
    checked: set = set()
    admitted: set = set()
    for seed in range(3):
        g = new_random_game(ruleset, 12, seed)
        rng = random.Random(seed)
        while not g.state.over and g.state.idx < 14:
            a, r = _gate_refusals(g, checked, admitted)
            asked, refused = asked + a, refused + r
            play_phase(g, rng)           # moves sent: the facts change within the phase
            a, r = _gate_refusals(g, checked, admitted)
            asked, refused = asked + a, refused + r
            g.resolve()
    gated = {name for ab in g.rules.abilities.values() for name in
             ((c if isinstance(c, str) else next(iter(c))) for c in ab.constraints)
             if name in mechanics.GATES}
    if gated:
        assert refused > 0 and asked > refused, (asked, refused)
    if gated & mechanics.EXACT_GATES:
        assert admitted, "no exact gate was seen admitting"


def test_gates_are_kept_only_for_abilities_drawn_from_the_list():
    """An ability whose targets the random player draws before asking its constraints
    (targets, none read by a constraint) keeps no gates: passing over it would change the
    draws. singapore's bloodlust names (three targets, a targetless constraint) is one.
    The list of legal moves, which draws nothing, asks every gate of every ability
    (``list_gates``)."""
    g = new_random_game("singapore", 12, 0)
    kept = 0
    for ab in g.rules.abilities.values():
        _constraint_fns(ab)
        if ab.targets and not ab.reads_targets:
            assert ab.gates == (), ab.key
        else:
            assert ab.gates == ab.list_gates and ab.after_gates == ab.list_after, ab.key
        kept += bool(ab.gates)
    assert kept > 0
    lust = next(ab for ab in g.rules.abilities.values() if ab.id == "lust_names")
    assert lust.gates == () and any(
        (c if isinstance(c, str) else next(iter(c))) in mechanics.GATES
        for c in lust.constraints)
    assert lust.list_gates


@pytest.mark.parametrize("ruleset", ["indians", "singapore"])
def test_a_pool_filter_keeps_what_its_constraint_allows_of_each(ruleset):
    """A constraint's ``pool`` filter (``mechanics.constraint(pool=...)``) keeps, of a
    list of names, exactly those the constraint allows as a one-target move's target, in
    order: asked of every seat (dead ones too) in random games."""
    filtered = dropped = 0
    for seed in range(3):
        g = new_random_game(ruleset, 12, seed)
        rng = random.Random(seed)
        while not g.state.over and g.state.idx < 14:
            play_phase(g, rng)
            names = [q.name for q in g.state.order]
            for p in g.state.order:
                for ab in g.rules.abilities.values():
                    for fn, params, _per_target in _constraint_fns(ab):
                        pf = mechanics.POOL_FILTERS.get(fn)
                        if pf is None or ab.targets != 1:
                            continue
                        want = [n for n in names if fn(g, p, ab, (n,), params) is None]
                        assert pf(g, p, ab, list(names), params) == want, (ab.key, p.name)
                        filtered += 1
                        dropped += len(names) - len(want)
            g.resolve()
    assert filtered > 0 and dropped > 0


def test_the_duel_pool_keeps_out_women_hunters_and_past_opponents():
    """indians' duel pool (``_duel_pool``) against its constraint asked target by target,
    through a day where one declares herself a woman, one goes hunting, a pair has fought
    before, and then a duel is declared (states the random games above rarely reach
    before their first duel)."""
    from mafiahost.rules.abilities.indians import duel_rules

    g = new_random_game("indians", 12, 1)
    while not (g.state.phase == "day" and g.state.number >= 2):
        g.resolve()
    order = [q.name for q in g.state.order]
    pf = mechanics.POOL_FILTERS[duel_rules]

    def agree(kept_out):
        for p in g.state.order:
            if p.role + ".duel" not in g.rules.abilities:
                continue
            ab = g.rules.abilities[p.role + ".duel"]
            want = [n for n in order if duel_rules(g, p, ab, (n,), {}) is None]
            assert pf(g, p, ab, list(order), {}) == want, (p.name, want)
            for n in kept_out:
                assert n not in want
        return want

    agree([])
    g.set_status(g.state.players[order[1]], "dueled:" + order[2], True)
    g.submit(order[3], "woman")
    g.submit(order[4], "hunt")
    agree([order[3], order[4]])
    p1 = g.state.players[order[1]]
    ab1 = g.rules.abilities[p1.role + ".duel"]
    assert order[2] not in pf(g, p1, ab1, list(order), {})
    assert order[2] in pf(g, g.state.players[order[6]],
                          g.rules.abilities[g.state.players[order[6]].role + ".duel"],
                          list(order), {})
    g.submit(order[5], "duel", (order[7],))
    assert agree([]) == []                    # one duel a day
