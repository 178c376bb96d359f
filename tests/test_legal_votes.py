"""``engine.day.legal_votes`` is exactly the votes ``check_vote`` accepts."""

import random

import pytest

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
