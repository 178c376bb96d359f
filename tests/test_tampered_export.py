"""Tampered and hostile exports: ``verify`` fails on any change to what the first post's
commitment binds (seed, salt, seating, a role, the ``dealt`` flag, an option, the number
of mafia, the rule set), whether the roles were dealt or given by the host, and on any
change to a recorded move or roll; it says what it checked in the game's language.
``import`` of a malformed or hostile file answers one sentence and stores nothing."""

from __future__ import annotations

import copy
import json

import pytest
from test_host_support import cli

from mafiahost.host import Host, verify
from mafiahost.store import GameRow

pytest_plugins = ["test_host_support"]   # its fixtures: sqlite_db, any_db

ROLES = {"Анна": "commissar", "Борис": "boss", "Вера": "black_doctor", "Глеб": "doctor",
         "Дина": "civilian", "Егор": "civilian"}


def _played(h: Host, dealt: bool, lang="ru") -> dict:
    names = list(ROLES) if not dealt else \
        ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя"]
    gid = h.new_game("gemini", names, roles=None if dealt else ROLES, seed=424242,
                     lang=lang).game_id
    _, g = h.load(gid)
    for p in g.state.order:
        for ab, ts in g.legal_moves(p.name)[:1]:
            h.act(gid, p.name, ab, list(ts))
    h.resolve(gid)
    return h.export(gid)


def _swap_roles(d):
    seat = d["commands"][0]["ops"][0][1]
    seat[0][1], seat[1][1] = seat[1][1], seat[0][1]


def _flip_dealt(d):
    d["dealt"] = not d["dealt"]


TAMPER = {
    "seed": lambda d: d.__setitem__("seed", d["seed"] + 1),
    "salt": lambda d: d.__setitem__("salt", "00" + d["salt"][2:]),
    "two roles swapped": _swap_roles,
    "seating order": lambda d: d["commands"][0]["ops"][0][1].reverse(),
    "dealt flag": _flip_dealt,
    "an option": lambda d: d.__setitem__("options", {"nonexistent_option": 1}),
    "mafia count": lambda d: d["commands"][0]["args"].__setitem__("mafia", 1),
    "scheme downgraded": lambda d: d.__setitem__("commitment_scheme", "seed-v1"),
    "a move's target": lambda d: next(op for c in d["commands"][1:] for op in c["ops"]
                                      if op[0] == "submit").__setitem__(3, ["Анна"]),
}


@pytest.mark.parametrize("dealt", [True, False], ids=["dealt", "assigned"])
@pytest.mark.parametrize("what", list(TAMPER))
def test_any_change_to_the_deal_fails_verify(sqlite_db, dealt, what):
    h = Host(sqlite_db)
    data = _played(h, dealt)
    assert verify(data).ok, verify(data).problems
    bad = copy.deepcopy(data)
    TAMPER[what](bad)
    if bad == data:
        pytest.skip("this change is a no-op for this game")
    rep = verify(bad)
    assert not rep.ok, (what, rep.notes)
    # nothing stored by a failed import
    n = len(h.list_games())
    with pytest.raises(Exception) as e:
        h.import_game(bad)
    assert "не прошёл проверку" in str(e.value) or "Файл" in str(e.value)
    assert len(h.list_games()) == n


def test_verify_explains_in_the_games_language(sqlite_db):
    h = Host(sqlite_db)
    ru = verify(_played(h, True, "ru"))
    en = verify(_played(h, False, "en"))
    assert ru.ok and en.ok
    assert any("рассадку и роль каждого игрока" in n for n in ru.notes)
    assert any("Раздача повторена из зерна" in n for n in ru.notes)
    assert any("the seating and every player's role" in n for n in en.notes)
    assert any("assigned by the host" in n for n in en.notes)
    assert any("compare it with the post" in n for n in en.notes)


def test_the_final_post_links_the_export_and_the_public_page_serves_it(sqlite_db,
                                                                        monkeypatch):
    h = Host(sqlite_db)
    gid = h.new_game("vanilla", ["Ян", "Юля", "Эмма", "Шура"],
                     roles={"Ян": "mafioso", "Юля": "civilian", "Эмма": "civilian",
                            "Шура": "civilian"}, seed=5).game_id
    h.remove(gid, "Ян", "правила")
    final = h.post(gid, "final")
    assert f"game-{gid}.json" in final and "mafiahost verify" in final
    assert "mafiahost export" not in final          # the host's command is not for the post
    monkeypatch.setenv("MAFIAHOST_PUBLIC_URL", "https://mafia.example")
    assert f"https://mafia.example/games/{gid}/export.json" in h.post(gid, "final")
    from test_web_support import client

    from mafiahost.web import create_app
    app = create_app(host=h)
    r = client(app).get(f"/games/{gid}/export.json")
    assert r.status_code == 200 and verify(r.json()).ok


HOSTILE_FILES = {
    "a list": [],
    "a string": "mafiahost-game",
    "unknown format_version": {"format": "mafiahost-game", "format_version": 99},
    "junk commands": None,          # made from a real export below
    "junk vote records": None,
    "unreadable deadline": None,
    "a huge seed": None,
    "a name with a line break": None,
}


@pytest.mark.parametrize("what", list(HOSTILE_FILES))
def test_hostile_import_is_one_sentence_and_changes_nothing(sqlite_db, tmp_path, what):
    h = Host(sqlite_db)
    good = _played(h, True)
    data = HOSTILE_FILES[what]
    if data is None:
        data = copy.deepcopy(good)
        if what == "junk commands":
            data["commands"][1] = {"seq": "x", "kind": 5, "ops": "rm -rf"}
        elif what == "junk vote records":
            data["vote_records"] = [1, "two", {"voter": ["x"]}]
        elif what == "unreadable deadline":
            data["deadline"] = "в пятницу вечером"
        elif what == "a huge seed":
            data["seed"] = 10 ** 40
        elif what == "a name with a line break":
            data["commands"][0]["ops"][0][1][0][0] = "Анна\n[b]фейк"
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with h.store.session() as s:
        before = s.query(GameRow).count()
    for cmd in (["import", path, "--db", sqlite_db], ["verify", path]):
        code, out = cli(*cmd)
        assert code in (1, 2), (what, out)
        assert "Traceback" not in out and out.strip(), (what, out)
    with h.store.session() as s:
        assert s.query(GameRow).count() == before


def test_missing_and_unreadable_files_are_one_sentence(sqlite_db, tmp_path):
    for args in (["import", tmp_path / "nope.json", "--db", sqlite_db],
                 ["verify", tmp_path / "nope.json"]):
        code, out = cli(*args)
        assert code == 2 and "Не могу прочитать файл игры" in out and "Traceback" not in out
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe{not json")
    code, out = cli("verify", bad)
    assert code == 2 and "Не могу прочитать" in out
