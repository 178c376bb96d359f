"""A question put to a player (engine/mechanics/questions.py): asked by a rule set, answered
by the player (engine, host command, player's page) or by default when he is silent, listed
among the legal moves and in the host's still-missing list; and moves that name a role."""

from __future__ import annotations

import pytest
from test_web_support import client, csrf_of, make_app

from mafiahost.engine.errors import Refused
from mafiahost.engine.game import Game
from mafiahost.host import not_acted
from mafiahost.rules import load

SEATS = {"Анна": "boss_a", "Борис": "recruiter_a", "Вера": "sheriff", "Глеб": "investigator",
         "Дина": "doctor", "Егор": "priest", "Жанна": "vampire", "Зоя": "civilian",
         "Иван": "civilian", "Кира": "journalist"}


def invited() -> Game:
    g = Game(load("singapore"), list(SEATS.items()), seed=3)
    g.submit("Борис", "recruit", ["Зоя"])
    g.resolve()
    return g


def test_the_question_is_a_legal_move_of_the_one_asked_only():
    g = invited()
    assert ("answer", ("1", "join")) in g.legal_moves("Зоя")
    assert ("answer", ("1", "refuse")) in g.legal_moves("Зоя")
    assert not [m for m in g.legal_moves("Иван") if m[0] == "answer"]
    assert "Зоя" in not_acted(g)
    n = len(g.events)
    with pytest.raises(Refused):
        g.answer("Иван", 1, "join")
    with pytest.raises(Refused):
        g.answer("Зоя", 1, "maybe")
    with pytest.raises(Refused):
        g.answer("Зоя", 7, "join")
    assert len(g.events) == n                        # refused answers change nothing
    g.submit("Зоя", "answer", ("1", "join"))          # through submit, as a legal move
    assert g.state.players["Зоя"].role == "apprentice_a"
    assert not [m for m in g.legal_moves("Зоя") if m[0] == "answer"]


def test_silence_takes_the_default_when_the_phase_it_is_due_in_is_resolved():
    g = invited()
    g.resolve()                                      # day 1 ends without an answer
    ans = [e.data for e in g.events if e.type == "question_answered"]
    assert ans == [{"id": 1, "to": "Зоя", "kind": "singapore_recruit", "answer": "refuse",
                    "by": "default", "said_ru": "отказаться", "said_en": "refuse"}]
    assert g.state.players["Зоя"].role == "civilian" and not g.state.questions


def test_replay_rebuilds_open_questions():
    g = invited()
    again = Game.replay(g.rules, list(g.events))
    assert again.state.questions == g.state.questions
    assert again.legal_moves("Зоя") == g.legal_moves("Зоя")


def test_a_role_naming_move_lists_each_role_and_reads_russian_names():
    g = Game(load("singapore"), list({**SEATS, "Иван": "witness"}.items()), seed=3)
    g.submit("Анна", "kill", ["Зоя"])
    g.submit("Иван", "watch", ["Зоя"])
    g.resolve()
    g.resolve()
    g.submit("Иван", "take_weapon", [])
    g.resolve()
    g.resolve()
    kills = [ts for ab, ts in g.legal_moves("Иван") if ab == "kill"]
    assert ("Вера", "sheriff") in kills and ("Вера", "doctor") in kills
    with pytest.raises(Refused):
        g.submit("Иван", "kill", ["Вера"])           # the role is missing
    ev = g.submit("Иван", "kill", ["Вера", "шериф"])
    assert ev.data["role"] == "sheriff" and ev.data["targets"] == ["Вера"]


def test_host_command_and_player_page_answer(tmp_path):
    app, host = make_app(str(tmp_path / "games.db"))
    gid = host.new_game("singapore", list(SEATS), roles=SEATS, seed=5).game_id
    host.act(gid, "Борис", "recruit", ["Зоя"])
    host.resolve(gid)
    info = host.show(gid)
    assert [q["seat"] for q in info["questions"]] == ["Зоя"]
    c = client(app)
    url = f"/p/{host.links(gid)['Зоя']}"
    html = c.get(url).text
    assert "Вопросы к вам" in html and 'value="join"' in html
    r = c.post(f"{url}/answer", data={"csrf": csrf_of(html), "question": "1",
                                      "answer": "join"})
    assert r.status_code == 303
    _, g = host.load(gid)
    assert g.state.players["Зоя"].role == "apprentice_a"
    assert host.show(gid)["questions"] == []
