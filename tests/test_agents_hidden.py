"""The hidden-information check: clean observations pass it, planted leaks fail it."""

from __future__ import annotations

import copy
import importlib

import pytest

from mafiahost.agents.hidden import violations
from mafiahost.agents.observation import event_record, observation
from mafiahost.rules import available
from mafiahost.sim import new_random_game, play_game

# the module (the package's name ``observation`` is the function)
observation_module = importlib.import_module("mafiahost.agents.observation")


def _game(ruleset="gemini", seed=4, n=12):
    return play_game(new_random_game(ruleset, n, seed), seed)


@pytest.mark.parametrize("ruleset", available())
def test_clean_observations_pass(ruleset):
    for seed in range(3):
        g = _game(ruleset, seed)
        for p in g.state.order:
            assert violations(g, p.name, observation(g, p.name)) == [], (ruleset, seed)


def test_every_event_leaks_when_planted(monkeypatch):
    """The observation made from the whole log (the host's view) fails the check."""
    g = _game()
    seat = g.state.order[0].name
    monkeypatch.setattr(observation_module, "told",
                        lambda g, seat, start=0: list(g.events[start:]))
    bad = violations(g, seat, observation(g, seat, texts=False))
    assert any("rules tell no player" in v for v in bad)      # dice, statuses, ...
    assert any("meant for others" in v for v in bad)          # another seat's moves


def test_one_planted_private_result_of_another_seat_fails():
    g = _game()
    res = [e for e in g.events if e.type == "check_result"]
    assert res
    e = res[0]
    other = next(p.name for p in g.state.order if p.name != e.data["to"])
    obs = observation(g, other, texts=False)
    assert violations(g, other, obs) == []
    # put the other seat's check result where it happened in the log
    told = [x for x in g.events if x.visible_to(other) or x is e]
    obs["events"] = [event_record(x) for x in told]
    bad = violations(g, other, obs)
    assert len(bad) == 1 and "check_result" in bad[0]


def test_hidden_roles_and_fields_fail():
    g = next(gg for gg in (_game("gemini", s) for s in range(10))
             if any(e.type == "eliminated" for e in gg.events))
    assert not g.rules.reveal_roles
    seat = g.state.order[0].name
    obs = observation(g, seat, texts=False)
    leak = copy.deepcopy(obs)
    for ev in leak["events"]:
        if ev["type"] == "eliminated":
            ev["fields"]["role"] = "boss"            # a hidden role written into the morning news
            break
    # the record no longer matches the game's own event: it is an invented one
    assert violations(g, seat, leak)
    leak = copy.deepcopy(obs)
    leak["players"][1]["role"] = "boss"
    assert any("beyond seat" in v for v in violations(g, seat, leak))
    leak = copy.deepcopy(obs)
    leak["seed"] = 1
    assert any("secret field" in v for v in violations(g, seat, leak))
    leak = copy.deepcopy(obs)
    other = next(p for p in g.state.order if p.role != g.state.players[seat].role)
    leak["role"]["id"] = other.role
    assert any("not the seat's own" in v for v in violations(g, seat, leak))


def test_revealed_role_in_a_game_that_hides_roles(monkeypatch):
    """An engine change that put the role into a public elimination is caught."""
    g = _game("gemini", 1)
    elim = next(e for e in g.events if e.type == "eliminated")
    elim.data["role"] = g.state.players[elim.data["player"]].role
    seat = g.state.order[0].name
    bad = violations(g, seat, observation(g, seat, texts=False))
    assert any("does not reveal roles" in v for v in bad)


def test_the_environment_run_finds_a_planted_leak(monkeypatch):
    pytest.importorskip("pettingzoo")
    from mafiahost.agents import hidden
    clean = hidden.run(["vanilla"], 3)["vanilla"]
    assert clean["violations"] == 0 and clean["events"] > 0
    monkeypatch.setattr(observation_module, "told",
                        lambda g, seat, start=0: list(g.events[start:]))
    rep = hidden.run(["vanilla"], 3)["vanilla"]
    assert rep["violations"] > 0


def test_the_run_checks_the_events_of_every_observation_not_only_the_last(monkeypatch):
    """A leak that shows only while the game goes on (an observation that holds another
    seat's private event once, and not in the final one) is caught along the way."""
    pytest.importorskip("pettingzoo")
    from mafiahost.agents import hidden
    real = observation_module.told

    def leaky(g, seat, start=0):
        out = real(g, seat, start)
        if start:       # an observation in the course of the game, never the final one
            extra = [e for e in g.events[start:] if e.type == "action"
                     and e.data["actor"] != seat and e not in out][:1]
            out = sorted(out + extra, key=g.events.index)
        return out
    monkeypatch.setattr(observation_module, "told", leaky)
    rep = hidden.run(["vanilla"], 3)["vanilla"]
    assert rep["violations"] > 0 and "meant for others" in str(rep["first"])
