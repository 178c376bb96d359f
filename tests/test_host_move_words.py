"""Moves typed as players write them: Russian words, the role sheet's names, English ids;
case and ё/е free; the answer and the refusals name moves in words, never by id."""

import pytest
from test_host_support import NAMES12, new_game, show

from mafiahost.host import Host, HostError
from mafiahost.host.ability_words import ability_id

pytest_plugins = ["test_host_support"]


def seats(db, gid):
    return {p["role"]: p["seat"] for p in show(gid, db)["players"]}


@pytest.mark.parametrize("word,role,expected", [
    ("убить", "black_doctor", "kill"), ("Выстрел", "black_doctor", "kill"),
    ("kill", "black_doctor", "kill"), ("УБИТЬ", "black_doctor", "kill"),
    ("проверка", "commissar", "check"), ("проверить", "commissar", "check"),
    ("Check", "commissar", "check"), ("стрелять", "commissar", "shoot"),
    ("лечение", "doctor", "heal"), ("лечить", "doctor", "heal"), ("HEAL", "doctor", "heal"),
    ("вербовка", "recruiter", "recruit"), ("завербовать", "recruiter", "recruit"),
])
def test_words_name_the_actors_ability(sqlite_db, word, role, expected):
    gid = new_game(sqlite_db, seed=5)
    _, g = Host(sqlite_db).load(gid)
    actor = seats(sqlite_db, gid)[role]
    assert ability_id(g, actor, word) == expected


def test_unknown_word_lists_the_moves_in_words(sqlite_db):
    gid = new_game(sqlite_db, seed=5)
    _, g = Host(sqlite_db).load(gid)
    actor = seats(sqlite_db, gid)["commissar"]
    with pytest.raises(HostError) as e:
        ability_id(g, actor, "летать")
    assert "«Проверка»" in e.value.ru and "'Check'" in e.value.en
    assert "check" not in e.value.ru and "shoot" not in e.value.ru.lower()


def test_act_in_russian_records_the_id_and_answers_in_words(sqlite_db):
    db = sqlite_db
    gid = new_game(db, seed=5)
    r = seats(db, gid)
    h = Host(db)
    victim = next(n for n in NAMES12 if n not in (r["black_doctor"], r["doctor"]))
    d = h.act(gid, r["black_doctor"].upper(), "убить", [victim.lower()])
    assert d.message.startswith(f"Ход принят: {r['black_doctor']} — ")
    assert d.message.endswith(f" → {victim}.")
    assert "kill" not in d.message
    d = h.act(gid, r["doctor"], "Лечение", [victim])
    assert "heal" not in d.message and "Лечение" in d.message
    ex = h.export(gid)
    ops = [op for c in ex["commands"] for op in c["ops"] if op[0] == "submit"]
    assert [op[2] for op in ops] == ["kill", "heal"]
    with pytest.raises(HostError) as e:
        h.act(gid, r["doctor"], "лечить", [r["doctor"]])
    assert "heal" not in e.value.ru and "heal" not in e.value.en


def test_act_reads_names_as_players_write_them(sqlite_db):
    """«act 1 Вера убить Анну»: the target in the accusative, found by ``names.Roster``;
    the answer says how the name was read."""
    db = sqlite_db
    gid = new_game(db, seed=5)
    r = seats(db, gid)
    killer = r["black_doctor"]
    victim = next(n for n in NAMES12 if n.endswith("а") and n != killer)
    accusative = victim[:-1] + "у"
    d = Host(db).act(gid, killer, "убить", [accusative])
    assert d.message.endswith(f"→ {victim}. («{accusative}» прочитано как {victim}.)")
    ex = Host(db).export(gid)
    assert [op for c in ex["commands"] for op in c["ops"]][-1][3] == [victim]


def test_a_lynched_phantom_gets_his_message_at_once(sqlite_db):
    """gemini: the maniac lynched by day still has «Фантом оперы» that night; the private
    messages of that resolve tell him so, with the voters he may choose from."""
    roles = {"Анна": "commissar", "Борис": "boss", "Вера": "black_doctor", "Глеб": "maniac",
             "Дина": "civilian", "Егор": "civilian", "Жанна": "doctor"}
    h = Host(sqlite_db)
    gid = h.new_game("gemini", list(roles), roles=roles, seed=1).game_id
    h.resolve(gid)
    for v in ("Анна", "Борис", "Вера", "Дина"):
        h.vote(gid, v, "Глеб")
    for v in ("Егор", "Жанна", "Глеб"):
        h.vote(gid, v, "Анна")
    h.resolve(gid)
    pms = h.private_messages(gid)
    note = pms["Глеб"]
    assert "у вас остался ход «Фантом оперы»" in note
    assert "Анна, Борис, Вера, Дина." in note and "Егор" not in note
    assert all("Фантом" not in t for n, t in pms.items() if n != "Глеб")


def test_a_held_action_is_typed_by_its_own_name():
    """The osiris hermit holds the night action of the last player voted out («Знает, что
    это за действие»): the host types it as the player writes it, by that action's own name
    («кража Жанна»), as well as «Полученное действие»."""
    from mafiahost.engine.game import Game
    from mafiahost.rules import load
    roles = ["loyal_boss", "chameleon", "thief", "rebel_boss", "joker", "brute", "maniac",
             "hermit", "civilian", "civilian", "civilian", "civilian"]
    names = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Иван", "Кира",
             "Лев", "Мила"]
    g = Game(load("osiris"), list(zip(names, roles, strict=True)), seed=1)
    with pytest.raises(HostError):                 # nothing held yet: no such move
        ability_id(g, "Зоя", "кража способности")
    g.resolve()                                     # night 1
    for voter in ("Иван", "Кира", "Лев"):
        g.vote(voter, "Вера")
    g.resolve()                                     # day 1: the thief is voted out
    assert g.state.status_value(g.state.players["Зоя"], "held_action") == "thief.steal"
    for word in ("кража способности", "Кража", "steal", "полученное действие"):
        assert ability_id(g, "Зоя", word) == "act", word
    g.submit("Зоя", ability_id(g, "Зоя", "кража"), ("Жанна",))
