"""The legal-move generator is the one list of legal moves: for every rule set, in states
reached by random games, ``Game.legal_targets`` gives exactly the target tuples that
``why_not_targets`` accepts (searched the slow way over every seat, dead ones included),
and ``legal_moves`` exactly the moves ``submit`` takes."""

from __future__ import annotations

import random
from itertools import product

import pytest

from mafiahost.engine.errors import Refused
from mafiahost.engine.game import Game, TargetPools
from mafiahost.rules import available
from mafiahost.sim import new_random_game, play_phase


def brute_force(g, p, ab):
    seats = [q.name for q in g.state.order]
    return [ts for ts in product(seats, repeat=ab.targets)
            if g.why_not_targets(p, ab, ts) is None]


@pytest.mark.parametrize("ruleset", available())
def test_generated_targets_are_exactly_the_accepted_ones(ruleset):
    checked = 0
    for seed in range(6):
        g = new_random_game(ruleset, 12, seed)
        rng = random.Random(seed)
        while not g.state.over and g.state.idx < 14:
            for p in g.state.order:
                for ab in g.rules.by_phase[p.role].get(g.state.phase, ()):
                    if g.why_not_actor(p, ab) is not None or ab.targets > 2:
                        continue
                    assert sorted(g.legal_targets(p, ab)) == sorted(brute_force(g, p, ab)), \
                        (ruleset, seed, g.state.idx, p.name, ab.key)
                    checked += 1
            play_phase(g, rng)
            g.resolve()
    assert checked > 20


@pytest.mark.parametrize("ruleset", ["gemini", "singapore", "mafia-yakuza", "antem"])
def test_every_generated_move_is_taken_by_submit(ruleset):
    for seed in range(3):
        g = new_random_game(ruleset, 12, seed)
        rng = random.Random(seed)
        for _ in range(4):
            if g.state.over:
                break
            for p in g.state.order:
                for ability, ts in g.legal_moves(p.name):
                    copy = Game.replay(g.rules, list(g.events))
                    copy.submit(p.name, ability, ts)      # raises Refused if not legal
            play_phase(g, rng)
            g.resolve()


def test_a_refused_move_is_not_generated():
    g = new_random_game("gemini", 12, 1)
    moves = set()
    for p in g.state.order:
        moves |= {(p.name, a, ts) for a, ts in g.legal_moves(p.name)}
    refused = 0
    for p in g.state.order:
        for ab in g.rules.by_phase[p.role].get(g.state.phase, ()):
            for ts in product([q.name for q in g.state.order], repeat=ab.targets):
                copy = Game.replay(g.rules, list(g.events))
                try:
                    copy.submit(p.name, ab.id, ts)
                except Refused:
                    refused += 1
                    assert (p.name, ab.id, ts) not in moves
                else:
                    assert (p.name, ab.id, ts) in moves
    assert refused > 0


@pytest.mark.parametrize("ruleset", available())
def test_the_random_player_draws_only_generated_moves(ruleset):
    """``random_legal_targets`` gives one of ``legal_targets`` (None exactly when there
    is none), and over many draws every legal tuple of a small pool comes up."""
    for seed in range(4):
        g = new_random_game(ruleset, 12, seed)
        rng = random.Random(seed)
        while not g.state.over and g.state.idx < 10:
            for p in g.state.order:
                for ab in g.rules.by_phase[p.role].get(g.state.phase, ()):
                    if g.why_not_actor(p, ab) is not None:
                        continue
                    legal = set(g.legal_targets(p, ab))
                    draws = {g.random_legal_targets(p, ab, rng.random) for _ in range(40)}
                    if not legal:
                        assert draws == {None}, (ruleset, p.name, ab.key)
                    else:
                        assert draws <= legal, (ruleset, p.name, ab.key, draws - legal)
                        if len(legal) <= 4:
                            assert draws == legal, (ruleset, p.name, ab.key)
            play_phase(g, rng)
            g.resolve()


@pytest.mark.parametrize("ruleset", available())
def test_may_act_is_why_not_actor_without_the_sentence(ruleset):
    """``may_act`` (the generator's and the random player's question) answers yes exactly
    when ``why_not_actor`` finds no reason, for every player (the dead included) and every
    ability of every role in the rule set (not only his own), in states of random games."""
    asked = refused = 0
    for seed in range(4):
        g = new_random_game(ruleset, 12, seed)
        rng = random.Random(seed)
        while not g.state.over and g.state.idx < 12:
            for p in g.state.order:
                for ab in g.rules.abilities.values():
                    ok = g.why_not_actor(p, ab) is None
                    assert g.may_act(p, ab) == ok, (ruleset, seed, g.state.idx, p.name, ab.key)
                    asked += 1
                    refused += not ok
            play_phase(g, rng)
            g.resolve()
    assert asked > refused > 0


def test_the_sleepwalker_shot_is_offered_only_where_a_sleepwalker_sits():
    """classic's second shot (for the sleepwalker) is not offered, nor taken, in a game
    that seats no sleepwalker; with one seated it is, also once he is dead (the seating
    decides, so the list tells nobody who he is or whether he lives)."""
    from mafiahost.rules import load

    rules = load("classic")
    names = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя"]
    without = ["mafioso", "mafioso", "civilian", "civilian", "civilian", "civilian",
               "doctor", "civilian"]
    with_sw = ["mafioso", "mafioso", "sleepwalker"] + without[3:]

    def offered(roles):
        g = Game(rules, list(zip(names, roles, strict=True)), seed=1, accept_warnings=True)
        g.submit("Анна", "kill", ("Глеб",))        # the second shot comes after the first
        return {a for a, _ in g.legal_moves("Борис")}, g

    moves, g = offered(without)
    assert "extra_kill" not in moves
    with pytest.raises(Refused, match="Лунатик"):
        g.submit("Борис", "extra_kill", ("Дина",))
    moves, _ = offered(with_sw)
    assert "extra_kill" in moves


def straightforward_moves(g, name):
    """``Game.legal_moves`` the slow and obvious way: every ability of the player's role in
    this phase that ``why_not_actor`` lets him use, every tuple of seats (the dead
    included) that ``why_not_targets`` accepts, in seating order, each role a role-naming
    move may name; then the answers to his open questions."""
    from mafiahost.engine.mechanics import questions

    p = g.player(name)
    seats = [q.name for q in g.state.order]
    out = []
    for ab in g.rules.abilities.values():
        if ab.role != p.role or ab.phase != g.state.phase or g.why_not_actor(p, ab):
            continue
        for ts in product(seats, repeat=ab.targets):
            if g.why_not_targets(p, ab, ts) is None:
                if ab.names_role:
                    out.extend((ab.id, ts + (r,)) for r in g.role_options(ab))
                else:
                    out.append((ab.id, ts))
    return out + questions.answer_moves(g, name)


def _compare_along_games(ruleset, players, seeds, phases):
    """Every player's ``legal_moves`` against ``straightforward_moves`` at the start of each
    phase and after each move sent in it (random legal moves, one player at a time, as the
    environment sends them), in seeded games."""
    compared = nonempty = pooled = 0
    for seed in seeds:
        g = new_random_game(ruleset, players, seed)
        rng = random.Random(seed)
        while not g.state.over and g.state.idx < phases:
            for turn in range(3):
                for q in g.state.order:
                    got = g.legal_moves(q.name)
                    assert got == straightforward_moves(g, q.name), \
                        (ruleset, seed, g.state.idx, turn, q.name)
                    # the same list with some abilities' targets as their pools
                    sets = g.legal_move_sets(q.name)
                    assert [(aid, ts) for aid, got_ in sets for ts in (
                        got_.tuples() if isinstance(got_, TargetPools) else got_)] == got, \
                        (ruleset, seed, g.state.idx, turn, q.name)
                    pooled += sum(isinstance(got_, TargetPools) for _aid, got_ in sets)
                    compared += 1
                    nonempty += bool(got)
                for q in g.state.order:          # one random legal move each, if any
                    moves = [m for m in g.legal_moves(q.name) if m[0] != "answer"]
                    if moves and rng.random() < 0.7:
                        aid, ts = moves[int(rng.random() * len(moves))]
                        ab = g.rules.abilities[f"{q.role}.{aid}"]
                        if ab.names_role:
                            g.send(q, ab, ts[:-1], ts[-1])
                        else:
                            g.send(q, ab, ts)
                        if g.state.over:
                            break
                if g.state.over:
                    break
            if g.state.over:
                break
            if g.state.phase == "day":
                alive = g.state.living()
                for q in alive:
                    try:
                        g.vote(q.name, alive[int(rng.random() * len(alive))].name)
                    except Refused:
                        pass
            g.resolve()
    return compared, nonempty, pooled


@pytest.mark.parametrize("ruleset", available())
def test_legal_moves_is_the_straightforward_list(ruleset):
    """The generator's fast paths (the player's own checks asked once, target-free
    constraints before any target is made, pools instead of a search) give exactly the
    list that the obvious search gives, in the same order, for every player (the dead
    included), at every point of a phase."""
    seeds = range(3) if ruleset == "singapore" else range(6)
    compared, nonempty, pooled = _compare_along_games(ruleset, 12, seeds, 12)
    assert compared > 100 and nonempty > 20
    # ``legal_move_sets`` gave some abilities' targets as pools (every rule set has a
    # killing or checking move that no constraint of its reads the targets of)
    assert pooled > 10


def test_legal_moves_is_the_straightforward_list_singapore_20_seats():
    """singapore at 20 seats deals the roles 12 seats never do (recruiters, the witch, the
    maniac, whose move names a role)."""
    compared, nonempty, pooled = _compare_along_games("singapore", 20, range(2), 10)
    assert compared > 100 and nonempty > 20 and pooled > 10


@pytest.mark.parametrize("ruleset", available())
def test_actor_abilities_are_those_may_act_allows(ruleset):
    """``Game._actor_abilities`` (the generator's per-player filter) keeps exactly the
    abilities of the role and phase that ``may_act`` allows, in order."""
    for seed in range(4):
        g = new_random_game(ruleset, 12, seed)
        rng = random.Random(seed)
        while not g.state.over and g.state.idx < 12:
            for p in g.state.order:
                want = [ab for ab in g.rules.by_phase[p.role].get(g.state.phase, ())
                        if g.may_act(p, ab)]
                assert g._actor_abilities(p) == want, (ruleset, seed, g.state.idx, p.name)
            play_phase(g, rng)
            g.resolve()
