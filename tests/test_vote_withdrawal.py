"""Withdrawing a vote («снимаю голос») and the host's correction of a misread vote, in the
engine: what the count, the change limit and a replay see."""

import pytest

from mafiahost.engine.errors import Refused
from mafiahost.engine.game import Game
from mafiahost.render.posts import vote_count_post
from mafiahost.rules import load
from mafiahost.rules.setup import deal

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Игорь", "Кира"]


def yakuza_day():
    rules = load("mafia-yakuza")             # day first; two vote changes a day (1.2.1.1)
    g = Game(rules, deal(rules, NAMES, 3), 3)
    assert g.state.phase == "day"
    return g


def test_a_withdrawn_vote_is_gone_and_spends_a_change():
    g = yakuza_day()
    g.vote("Анна", "Борис")
    g.unvote("Анна")
    assert "Анна" not in g.state.votes
    assert "Борис — 1" not in vote_count_post(g)
    g.vote("Анна", "Вера")                   # a vote after a withdrawal: no change
    g.vote("Анна", "Глеб")                   # the second change
    with pytest.raises(Refused) as e:
        g.vote("Анна", "Дина")
    assert "не более 2" in e.value.ru
    with pytest.raises(Refused):
        g.unvote("Анна")                     # taking it back would be a third change
    again = Game.replay(g.rules, g.events)
    assert again.state.votes == g.state.votes and again.state.vote_changes == {"Анна": 2}


def test_nothing_to_withdraw_is_refused_with_a_sentence():
    g = yakuza_day()
    with pytest.raises(Refused) as e:
        g.unvote("Борис")
    assert "нет голоса" in e.value.ru and e.value.en


def test_a_fixed_vote_corrects_without_spending_a_change():
    g = yakuza_day()
    g.vote("Вера", "Анна")
    g.vote("Вера", "Борис")
    g.vote("Вера", "Глеб")                   # two changes spent
    g.vote("Вера", "Дина", fixed=True)       # the host's correction of a misread post
    g.unvote("Вера", fixed=True)
    assert "Вера" not in g.state.votes and g.state.vote_changes["Вера"] == 2
    assert Game.replay(g.rules, g.events).state.votes == g.state.votes
