"""`mafiahost demo` plays 200 seeded games of each rule set to a victory without an error."""

import pytest

from mafiahost.cli import main
from mafiahost.sim import new_random_game, play_game

CASES = [("vanilla", 12, None), ("classic", 12, None), ("classic", 16, {"yakuza": True}),
         ("gemini", 12, None), ("gemini", 12, {"watcher": True}), ("gemini", 8, None),
         ("indians", 12, None), ("indians", 8, None), ("osiris", 12, None), ("osiris", 8, None),
         ("niichavo", 12, None), ("niichavo", 16, None), ("atlantis", 12, None),
         ("atlantis", 8, None), ("odessa", 12, None), ("odessa", 8, None),
         ("musketeers", 12, None), ("musketeers", 8, None), ("antem", 12, None),
         ("antem", 8, None), ("mafia-yakuza", 12, None), ("mafia-yakuza", 20, None),
         ("singapore", 12, None), ("singapore", 22, None)]


@pytest.mark.parametrize("ruleset,players,options", CASES)
def test_200_seeded_games_end(ruleset, players, options):
    for seed in range(200):
        g = play_game(new_random_game(ruleset, players, seed, options), seed)
        assert g.state.over, (ruleset, seed)
        alive = [p for p in g.state.order if p.alive]
        # a declared winner is a faction (or a single's role) of the game
        for w in g.state.winners:
            assert w in g.rules.factions or w in g.rules.roles
        if not g.state.winners:
            assert not alive, (ruleset, seed, "ended with living players but no winner")


@pytest.mark.parametrize("ruleset", ["vanilla", "classic", "gemini", "indians", "osiris",
                                     "niichavo", "atlantis", "odessa", "musketeers", "antem",
                                     "mafia-yakuza", "singapore"])
def test_demo_command_prints_russian_posts(ruleset, capsys):
    assert main(["demo", ruleset, "--players", "12", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Утро после ночи 1" in out
    assert "Игра окончена" in out
    assert "Роли:" in out


def test_demo_english(capsys):
    assert main(["demo", "vanilla", "--seed", "2", "--lang", "en"]) == 0
    assert "Game over" in capsys.readouterr().out
