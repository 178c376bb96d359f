"""Properties of any game played by legal moves (Hypothesis picks rule set, size, seed)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from mafiahost.engine import victory
from mafiahost.sim import new_random_game, play_game

GAMES = st.tuples(st.sampled_from(["vanilla", "classic", "gemini"]),
                  st.integers(min_value=6, max_value=16), st.integers(0, 10**6))


def _play(case):
    ruleset, n, seed = case
    if ruleset == "classic":
        n = max(n, 6)
    return play_game(new_random_game(ruleset, n, seed), seed)


@settings(max_examples=60, deadline=None)
@given(GAMES)
def test_dead_players_never_act_and_the_game_ends(case):
    g = _play(case)
    assert g.state.over
    out = {}
    phase_of_death = {}
    for e in g.events:
        if e.type == "eliminated":
            out[e.data["player"]] = e.phase
            phase_of_death[e.data["player"]] = e.phase
        if e.type == "action":
            name = e.data["actor"]
            spec = g.rules.abilities[e.data["key"]]
            if name in out:
                # only an ability meant for the dead, the night after a lynch
                assert spec.while_dead == "lynched_last_day", (e, out[name])
        if e.type == "vote":
            assert e.data["voter"] not in out, e


@settings(max_examples=60, deadline=None)
@given(GAMES)
def test_private_results_reach_only_their_owner(case):
    g = _play(case)
    for e in g.events:
        if "to" in e.data and e.type != "phase_started":
            assert e.audience not in ("public",), e
            if isinstance(e.audience, tuple):
                assert e.data["to"] in e.audience, e
        if e.audience == "public":
            assert not any(k.startswith("_") for k in e.data), e
            assert e.type not in ("roll", "check_result", "saved", "dies", "status"), e


@settings(max_examples=60, deadline=None)
@given(GAMES)
def test_declared_winners_satisfy_their_condition_at_the_end(case):
    g = _play(case)
    assert sorted(victory.winners(g)) == sorted(g.state.winners)
