"""``engine.day.legal_votes`` is exactly the votes ``check_vote`` accepts."""

import random

import pytest

from mafiahost.engine import mechanics
from mafiahost.engine.day import check_vote, legal_votes
from mafiahost.rules import available
from mafiahost.sim import new_random_game, play_phase


@pytest.mark.parametrize("ruleset", available())
def test_legal_votes_agree_with_check_vote(ruleset):
    days = 0
    for seed in range(4):
        g = new_random_game(ruleset, 12, seed)
        rng = random.Random(seed)
        for _ in range(60):
            if g.state.over:
                break
            day = g.state.phase == "day"
            days += day
            for p in g.state.order:
                cands = [q.name for q in g.state.order if q.alive] + ["against_all", "abstain"]
                want = [t for t in cands if check_vote(g, p, t) is None] if day else []
                assert legal_votes(g, p) == want, (seed, p.name)
            play_phase(g, rng)
            g.resolve()
    assert days


def _voter_only_hooks(rules):
    return [(fn, params) for fn, params in rules.hooks.get("vote_check", ())
            if fn in mechanics.VOTER_ONLY_HOOKS]


def test_voter_only_hooks_never_read_the_target():
    """A ``vote_check`` hook registered ``voter_only`` (asked once per voter by
    ``legal_votes``) answers alike for every target, in random games of the one rule set
    that has one (singapore's kidnapped voter), with a voter it refuses planted each day so
    that the comparison is not only of Nones; ``legal_votes`` then agrees with
    ``check_vote``."""
    rulesets = [r for r in available() if _voter_only_hooks(new_random_game(r, 12, 0).rules)]
    assert rulesets == ["singapore"]
    refused = 0
    for seed in range(6):
        g = new_random_game("singapore", 12, seed)
        hooks = _voter_only_hooks(g.rules)
        rng = random.Random(seed)
        for _ in range(40):
            if g.state.over:
                break
            if g.state.phase == "day":
                alive = [q for q in g.state.order if q.alive]
                g.set_status(alive[int(rng.random() * len(alive))], "kidnapped",
                             until=g.state.idx)
                cands = [q.name for q in g.state.order] + ["against_all", "abstain"]
                for p in g.state.order:
                    for fn, params in hooks:
                        answers = {repr(fn(g, p, t, params)) for t in cands}
                        assert len(answers) == 1, (seed, p.name, answers)
                        refused += answers != {"None"}
                    want = [t for t in cands if check_vote(g, p, t) is None]
                    assert legal_votes(g, p) == want, (seed, p.name)
            play_phase(g, rng)
            g.resolve()
    assert refused


def _pooled_hooks(rules):
    return [(fn, params) for fn, params in rules.hooks.get("vote_check", ())
            if fn in mechanics.VOTE_POOL_FILTERS]


@pytest.mark.parametrize("ruleset", ["indians", "singapore"])
def test_vote_pool_filters_are_their_hooks(ruleset):
    """A ``vote_check`` hook's pool filter (``legal_votes`` filters the candidates with it
    in one call) allows exactly the targets the hook allows, in order, for every voter at
    the start of a day and again after the day's random moves and votes (a duel
    challenged, in indians; a player away, planted each day in singapore, so that the
    comparison is not only of lists kept whole); ``legal_votes`` then agrees with
    ``check_vote``."""
    assert {r for r in available() if _pooled_hooks(new_random_game(r, 12, 0).rules)} == \
        {"indians", "singapore"}
    cut = 0
    for seed in range(8):
        g = new_random_game(ruleset, 12, seed)
        hooks = _pooled_hooks(g.rules)
        rng = random.Random(seed)
        for _ in range(40):
            if g.state.over:
                break
            day = g.state.phase == "day"
            if day and ruleset == "singapore":
                alive = [q for q in g.state.order if q.alive]
                g.set_status(alive[int(rng.random() * len(alive))], "away", until=g.state.idx)
            for moment in range(2):
                if moment:
                    play_phase(g, rng)
                if not day or g.state.over:
                    continue
                cands = [q.name for q in g.state.order] + ["against_all", "abstain"]
                for p in g.state.order:
                    for fn, params in hooks:
                        want = [t for t in cands if fn(g, p, t, params) is None]
                        got = mechanics.VOTE_POOL_FILTERS[fn](g, p, cands, params)
                        assert got == want, (seed, p.name)
                        cut += len(got) < len(cands)
                    assert legal_votes(g, p) == \
                        [t for t in cands if g.state.players.get(t, p).alive
                         and check_vote(g, p, t) is None], (seed, p.name)
            if not g.state.over:
                g.resolve()
    assert cut
