"""Moves that depend on a partner's move (the met sergeant / catcher takes the commissar's /
officer's OTHER action): legality does not depend on the order the host types them in.

Every pair of the senior's and the junior's night moves is sent in both orders; the night
that results is the same: the same moves stand, the same players are out, the same private
results are given."""

import itertools

import pytest

from mafiahost.engine.errors import Refused
from mafiahost.engine.game import Game
from mafiahost.rules import load
from mafiahost.scenario import play

TOWN12 = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Иван", "Кира",
          "Лев", "Мила"]

CASES = {
    # ruleset: (roles in seating order, the junior's meeting move, the senior's moves,
    #           the junior's moves); Анна is the senior, Егор the junior
    "gemini": (["commissar", "boss", "black_doctor", "doctor", "maniac", "sergeant",
                "alcoholic", "joker", "lover", "recruiter", "civilian", "civilian"],
               ["guard", "Анна"], ["check", "shoot"], ["shoot", "guard"]),
    "antem": (["commissar", "boss", "killer_healer", "doctor", "maniac", "sergeant",
               "alcoholic", "joker", "recruiter", "watcher", "bodyguard", "civilian"],
              ["seek", "Анна"], ["check", "shoot"], ["check", "shoot", "seek"]),
    "musketeers": (["officer", "boss", "intriguer", "healer", "maniac", "catcher",
                    "alphonse", "bodyguard", "mafioso", "civilian", "civilian", "civilian"],
                   ["seek", "Анна"], ["check", "shoot"], ["check", "shoot", "seek"]),
}
TARGETS = ["Вера", "Кира"]      # a mafioso (a shot kills him) and a town player (it backfires)


def _night2(ruleset):
    roles, meet, _, _ = CASES[ruleset]
    data = {"ruleset": ruleset, "seed": 3, "players": dict(zip(TOWN12, roles, strict=True)),
            "script": [{"night": 1, "actions": [["Егор", *meet]]},
                       {"day": 1, "excused": list(TOWN12)}]}
    rep = play(data)
    assert rep.ok, rep.failures
    g = rep.game
    assert g.state.phase == "night" and g.state.has(g.state.players["Егор"], "met_" + (
        "officer" if ruleset == "musketeers" else "commissar"))
    return g


def _send(g, moves):
    """Send the moves in order; return the refusals as (actor, the partner's move named)."""
    refused = []
    for actor, ability, target in moves:
        try:
            g.submit(actor, ability, [target])
        except Refused as e:
            refused.append((actor, ability, e.ru))
    return refused


def _night_of(g):
    standing = sorted((a.actor, g.rules.abilities[a.ability].id, tuple(a.targets))
                      for a in g.state.pending)
    evs = g.resolve()
    out = sorted(e.data["player"] for e in evs if e.type == "eliminated")
    results = sorted(repr(sorted(e.data.items())) for e in evs
                     if e.type in ("check_result", "shot_failed", "met", "no_effect", "saved"))
    return standing, out, results


@pytest.mark.parametrize("ruleset", sorted(CASES))
def test_partner_moves_give_the_same_night_in_either_order(ruleset):
    base = _night2(ruleset)
    rules = load(ruleset)
    _, _, senior_moves, junior_moves = CASES[ruleset]
    pairs = 0
    for sa, st, ja, jt in itertools.product(senior_moves, TARGETS, junior_moves, TARGETS):
        senior = ("Анна", sa, st)
        junior = ("Егор", ja, jt)
        nights = []
        for order in ((senior, junior), (junior, senior)):
            g = Game.replay(rules, list(base.events))
            refused = _send(g, order)
            for actor, _ability, text in refused:
                if actor == "Егор":           # the refusal names what the partner did
                    assert "прислал" in text, text
            nights.append((sorted(a for a, _, _ in refused), _night_of(g)))
        assert nights[0][1] == nights[1][1], (ruleset, senior, junior, nights)
        pairs += 1
    assert pairs == len(senior_moves) * len(junior_moves) * len(TARGETS) ** 2
