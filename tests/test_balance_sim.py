"""The simulation against the exact answer, the lean path against the full one, and the
stopping rule's independence from how the batches were run."""

from __future__ import annotations

import math
import random

import pytest

from mafiahost.balance import exact
from mafiahost.balance.policies import UniformPolicy, make_policy
from mafiahost.balance.simulate import (
    Job,
    LeanGame,
    Outcome,
    Paired,
    Setup,
    counts_only_vanilla,
    paired_difference,
    play,
    play_game,
    run,
    widest,
    wilson,
)
from mafiahost.engine.errors import Refused
from mafiahost.engine.game import Game

CONFIGS = [(n, m) for n in range(6, 21) for m in range(1, 5) if 2 * m < n]
GAMES = 120


def _engine_rates():
    """Mafia wins of vanilla with the uniform policy, played by ``Game`` (the full path:
    the engine with its event log), for every N in 6..20 and M in 1..4."""
    out = {}
    for n, m in CONFIGS:
        s = Setup("vanilla", n, mafia=m)
        wins = 0
        for seed in range(1000 * n + 10 * m, 1000 * n + 10 * m + GAMES):
            o = play(s, "uniform", seed, lean=False)
            assert o.over
            wins += o.winners == ("mafia",)
        out[n, m] = wins
    return out


@pytest.fixture(scope="module")
def engine_rates():
    return _engine_rates()


def _z(wins, p):
    return (wins - GAMES * p) / math.sqrt(GAMES * p * (1 - p)) if 0 < p < 1 else 0.0


def _chi2_bound(k, z=3.719):
    """The upper 1e-4 point of chi-square with ``k`` degrees of freedom (Wilson-Hilferty)."""
    c = 2 / (9 * k)
    return k * (1 - c + z * math.sqrt(c)) ** 3


def test_engine_uniform_vanilla_within_4_standard_errors_of_exact(engine_rates):
    """57 setups x 120 games (6,840 games played by the engine, a few seconds). Each setup
    alone only catches gross errors (4 SE is about ±0.18 at p = 1/2), so the same games are
    also pooled: the summed deviation must be within 4 of its standard error (about ±0.012
    in win rate: a systematic bias, such as a tie rule or a kill that may hit the mafia),
    and the sum of squared z-scores within chi-square's 1e-4 tail (deviations of mixed
    sign, such as a wrong phase order)."""
    dev = var = chi2 = 0.0
    for (n, m), wins in engine_rates.items():
        p = float(exact.vanilla(n, m).mafia_wins)
        se = math.sqrt(p * (1 - p) / GAMES)
        assert abs(wins / GAMES - p) <= 4 * se + 1e-12, (n, m, wins, p)
        dev += wins - GAMES * p
        var += GAMES * p * (1 - p)
        chi2 += _z(wins, p) ** 2
    assert abs(dev) <= 4 * math.sqrt(var)
    assert chi2 <= _chi2_bound(len(engine_rates))


def test_the_engine_test_has_the_power_to_fail(engine_rates):
    """The same games measured against wrong models — the day first instead of the night,
    or the mafia winning only when the town is gone — fail the test above by far."""
    bound = _chi2_bound(len(engine_rates))
    for first, win in (("day", "parity"), ("night", "town_gone")):
        zs = [_z(w, float(exact.vanilla(n, m, first, win).mafia_wins))
              for (n, m), w in engine_rates.items()]
        assert sum(z * z for z in zs) > 2 * bound, (first, win)
        assert any(abs(z) > 4 for z in zs)


def test_counts_only_model_agrees_with_exact():
    for n, m in [(8, 1), (12, 3), (17, 2), (20, 4)]:
        games = 4000
        w = counts_only_vanilla(n, m, games, seed=n * 7 + m)
        p = float(exact.vanilla(n, m).mafia_wins)
        assert abs(w / games - p) <= 4 * math.sqrt(p * (1 - p) / games)
    p = float(exact.vanilla(9, 2, "day", "town_gone").mafia_wins)
    w = counts_only_vanilla(9, 2, 4000, 3, "day", "town_gone")
    assert abs(w / 4000 - p) <= 4 * math.sqrt(p * (1 - p) / 4000)


@pytest.mark.parametrize("ruleset, players, options", [
    ("vanilla", 11, ()), ("gemini", 12, ()), ("classic", 12, ()),
    ("classic", 12, (("yakuza", True),)), ("mafia-yakuza", 14, ()), ("niichavo", 12, ()),
    ("singapore", 12, ()),
])
@pytest.mark.parametrize("policy", ["random", "uniform", "sensible"])
def test_lean_path_gives_the_same_outcomes_as_the_full_path(ruleset, players, options, policy):
    s = Setup(ruleset, players, options=options)
    kept = 0
    for seed in range(8):
        full = play(s, policy, seed, lean=False)
        lean = play(s, policy, seed, lean=True)
        assert lean == full, seed
        g = LeanGame(s.rules(), s.seating(seed), seed=seed)
        play_game(g, make_policy(policy), random.Random(seed))
        kept = max(kept, len(g.events))
    full_g = Game(s.rules(), s.seating(0), seed=0)
    play_game(full_g, make_policy(policy), random.Random(0))
    assert kept < len(full_g.events)


def test_uniform_policy_lynches_one_player_everyone_votes_for():
    s = Setup("vanilla", 9, mafia=2)
    g = Game(s.rules(), s.seating(5), seed=5)
    g.resolve()                       # night 1 with no shot: nobody dies
    pol, rng = UniformPolicy(), random.Random(1)
    for p in g.state.order:
        pol.moves(g, p.name, rng)
    assert len(set(g.state.votes.values())) == 1
    assert len(g.state.votes) == 9


def _result_key(r):
    return (r.games, r.batches, r.stopped, [(t.games, dict(t.wins), dict(t.alive),
                                             dict(t.phases)) for t in r.tallies],
            r.paired.table)


def test_the_stopping_point_and_result_are_the_same_for_any_number_of_workers():
    a = Setup("vanilla", 10, mafia=2)
    b = Setup("vanilla", 10, mafia=2, options=(("mafia_win", "town_gone"),))
    job = Job((a, b), "uniform", seed=3, batch=40)
    one = run(job, precision=0.06, max_games=2000, workers=1)
    two = run(job, precision=0.06, max_games=2000, workers=2)
    assert one.stopped == "precision" and 1 < one.batches < 50
    assert _result_key(one) == _result_key(two)
    # the rule really stopped at the first batch where every interval was narrow enough
    before = run(job, precision=0.06, max_games=(one.batches - 1) * 40)
    assert before.stopped == "games"
    assert widest((a, b), before.tallies, before.paired) > 0.06


def test_compare_plays_the_same_seeds_common_random_numbers():
    a = Setup("classic", 12)
    b = Setup("classic", 12, options=(("yakuza", True),))
    r = run(Job((a, b), "random", seed=11, batch=20), precision=1.0, max_games=20)
    assert r.games == 20
    for seed in (11, 20, 30):
        oa, ob = play(a, "random", seed), play(b, "random", seed)
        assert play(a, "random", seed) == oa and play(b, "random", seed) == ob
    town = r.paired.table["town"]
    assert sum(town) == 20
    assert town[0] + town[1] == r.tallies[0].wins["town"]
    assert town[0] + town[2] == r.tallies[1].wins["town"]


def test_wilson_and_newcombe_intervals():
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    # identical outcomes: no difference, and a much narrower interval than unpaired
    d, lo, hi = paired_difference([30, 0, 0, 70])
    assert d == 0 and -0.03 < lo < 0 < hi < 0.03
    # Cavo et al. 2012 (Fagerland, Lydersen & Laake, ch. 8): -0.0621 (-0.1186 to -0.0046)
    d, lo, hi = paired_difference([59, 6, 16, 80])
    assert (round(d, 4), round(lo, 4), round(hi, 4)) == (-0.0621, -0.1186, -0.0046)
    # a side first seen in a later batch: its earlier games are 'neither'
    x = Outcome(("town",), (), (), 1, 1, True)
    y = Outcome(("maniac",), (), (), 1, 1, True)
    p, q = Paired(), Paired()
    p.add(["town"], x, x)
    q.add(["town"], y, x)
    p.merge(q)
    assert p.games == 2
    assert p.table == {"town": [1, 0, 1, 0], "maniac": [0, 1, 0, 1]}


def test_bad_setups_are_refused_before_any_game():
    with pytest.raises(Refused, match="no role"):
        run(Job((Setup("gemini", 12, roles=("boss", "wizard")),)), 0.01, 100)
    with pytest.raises(Refused, match="6-16 players"):
        run(Job((Setup("gemini", 40),)), 0.01, 100)
    with pytest.raises(Refused, match="above zero"):
        run(Job((Setup("vanilla", 8),)), 0, 100)
    with pytest.raises(Refused, match="no policy"):
        make_policy("clever")


@pytest.mark.parametrize("ruleset", ["singapore", "osiris", "indians", "atlantis", "odessa",
                                     "musketeers", "antem", "niichavo", "mafia-yakuza",
                                     "gemini", "classic"])
def test_every_rule_set_plays_under_every_policy_and_its_winners_are_reported(ruleset):
    """Every winner a game declares is one of the ids the report lists for the setup (team
    factions and solo roles of the deal), for answers to questions and role-naming moves
    too (singapore's recruitment asks the invited)."""
    from mafiahost.balance.report import summary
    s = Setup(ruleset, 12)
    for policy in ("uniform", "random", "sensible"):
        r = run(Job((s,), policy, seed=1, batch=3), precision=1.0, max_games=3)
        shown = summary(r)["setups"][0]["winners"]
        assert set(s.winner_ids()) <= set(shown)
        won: dict[str, int] = {}
        for seed in (1, 2, 3):          # the same games, played one by one
            o = play(s, policy, seed)
            assert o.over, (policy, seed)
            for w in o.winners:
                won[w] = won.get(w, 0) + 1
        assert {w: v["wins"] for w, v in shown.items() if v["wins"]} == won, policy
