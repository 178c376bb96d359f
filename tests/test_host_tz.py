"""A host account's time zone: kept in the account (migration 0004), set by
``host add --tz`` / ``host tz`` / the web settings form, used for that host's games'
deadlines (typed and scheduled), shown to players in local words."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta

import pytest
from test_web_support import client, csrf_of, make_app

from mafiahost.cli import main
from mafiahost.engine.errors import Refused
from mafiahost.host import GameCache, Host
from mafiahost.store import HEAD, Store

ROLES = {"Анна": "commissar", "Борис": "boss", "Вера": "black_doctor", "Глеб": "doctor",
         "Дина": "civilian", "Егор": "civilian"}
YEAR = datetime.now().year + 1


def test_an_owners_zone_reads_the_deadline_and_names_it(tmp_path):
    h = Host(str(tmp_path / "g.db"))
    h.add_host("Оля", "Asia/Yekaterinburg")                 # UTC+5 = МСК+2
    h.add_host("Пётр")                                      # the default: Moscow
    mine = h.new_game("gemini", list(ROLES), roles=ROLES, seed=1,
                      owner=h.host_id("Оля")).game_id
    other = h.new_game("gemini", list(ROLES), roles=ROLES, seed=1,
                       owner=h.host_id("Пётр")).game_id
    d = h.set_deadline(mine, f"{YEAR}-12-25 21:00")
    assert "до 21:00 (МСК+2) 25 декабря" in d.message
    assert h.show(mine)["deadline"].endswith("+05:00")
    d = h.set_deadline(other, f"{YEAR}-12-25 21:00")
    assert "до 21:00 (МСК) 25 декабря" in d.message
    assert h.show(other)["deadline"].endswith("+03:00")
    # a later change of the zone: new deadlines follow it, the one set keeps its moment
    assert h.set_host_tz("оля", "+07:00") == "+07:00"
    assert h.show(mine)["deadline"].endswith("+05:00")
    assert "до 21:00 (МСК+4) 26 декабря" in h.set_deadline(mine, f"{YEAR}-12-26 21:00").message


def test_the_schedule_counts_in_the_owners_zone(tmp_path):
    h = Host(str(tmp_path / "g.db"))
    h.add_host("Оля", "Asia/Novosibirsk")                   # UTC+7
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=1, owner=h.host_id("Оля"),
                     schedule="day=+1 23:00, night=+1 10:00").game_id
    h.resolve(gid)
    dl = datetime.fromisoformat(h.show(gid)["deadline"])
    assert dl.utcoffset() == timedelta(hours=7) and (dl.hour, dl.minute) == (23, 0)


def test_a_wrong_zone_is_one_sentence_and_changes_nothing(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    h = Host(db)
    with pytest.raises(Refused) as e:
        h.add_host("Оля", "Марс/База")
    assert "Не знаю часовой пояс «Марс/База»" in e.value.ru and "Europe/Moscow" in e.value.ru
    assert h.host_accounts() == []
    h.add_host("Оля", "MSK")
    assert h.host_tz("Оля") == "Europe/Moscow"
    assert main(["host", "tz", "Оля", "Mars/Base", "--db", db]) == 2
    assert "Не знаю часовой пояс «Mars/Base»" in capsys.readouterr().out
    assert h.host_tz("Оля") == "Europe/Moscow"
    assert main(["host", "tz", "Оля", "Asia/Omsk", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "Часовой пояс ведущего «Оля»: Asia/Omsk" in out and "(МСК+3)" in out
    assert main(["host", "tz", "Оля", "-", "--db", db]) == 0
    assert "по умолчанию" in capsys.readouterr().out and h.host_tz("Оля") == ""


def test_game_new_deadline_is_read_in_the_owners_zone(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    assert main(["host", "add", "Оля", "--tz", "Asia/Yekaterinburg", "--db", db]) == 0
    assert main(["game", "new", "gemini", "--players", ",".join(ROLES), "--owner", "Оля",
                 "--deadline", f"{YEAR}-12-25 21:00", "--db", db]) == 0
    capsys.readouterr()
    assert main(["game", "show", "1", "--db", db]) == 0
    assert "Срок: 21:00 (МСК+2) 25 декабря" in capsys.readouterr().out


def test_the_web_settings_form_sets_the_zone(tmp_path):
    app, host = make_app(str(tmp_path / "games.db"))
    key = host.add_host("Ведущий")
    c = client(app, key)
    page = c.get("/host").text
    assert "Часовой пояс" in page and "Настройки ведущего" in page
    r = c.post("/host/settings", data={"csrf": csrf_of(page), "tz": "Asia/Yekaterinburg"})
    assert r.status_code == 303
    page = c.get(r.headers["location"]).text
    assert "Часовой пояс сохранён: Asia/Yekaterinburg." in page
    assert 'value="Asia/Yekaterinburg"' in page
    assert host.host_tz("Ведущий") == "Asia/Yekaterinburg"
    r = c.post("/host/settings", data={"csrf": csrf_of(page), "tz": "Марс"})
    assert "Не знаю часовой пояс" in c.get(r.headers["location"]).text
    assert host.host_tz("Ведущий") == "Asia/Yekaterinburg"
    # without the form's token: refused, nothing changed
    assert c.post("/host/settings", data={"tz": "UTC"}).status_code == 403
    assert host.host_tz("Ведущий") == "Asia/Yekaterinburg"


def test_a_database_at_migration_0003_keeps_every_game_working(tmp_path):
    """Made by Alembic at 0003 with a game (its commands and events written by today's
    code, then the schema put back to 0003's), an account owning it and a deadline:
    upgraded on open, the account has the default zone and the game plays on."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from mafiahost.store import MIGRATIONS
    path = tmp_path / "old.db"
    h = Host(store=Store(str(path)), cache=GameCache(0))
    h.add_host("Ведущий")
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=5,
                     owner=h.host_id("Ведущий")).game_id
    h.set_deadline(gid, f"{YEAR}-12-25 21:00")
    h.act(gid, "Вера", "kill", ["Дина"])
    h.store.close()
    eng = create_engine(f"sqlite:///{path}")
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with eng.begin() as c:
        cfg.attributes["connection"] = c
        command.downgrade(cfg, "0003")
    eng.dispose()
    con = sqlite3.connect(path)
    assert con.execute("SELECT version_num FROM alembic_version").fetchone() == ("0003",)
    assert "tz" not in [r[1] for r in con.execute("PRAGMA table_info(host_accounts)")]
    con.close()
    st = Store(str(path))
    con = sqlite3.connect(path)
    assert con.execute("SELECT version_num FROM alembic_version").fetchone() == (HEAD,)
    con.close()
    h = Host(store=st, cache=GameCache(0))
    assert h.host_tz("Ведущий") == ""
    assert h.show(gid)["deadline"].endswith("+03:00")
    h.act(gid, "Глеб", "heal", ["Дина"])
    d = h.resolve(gid)
    assert "Дина" in d.post
    assert h.load(gid)[1].state.phase == "day"
    assert "(МСК)" in h.set_deadline(gid, f"{YEAR}-12-27 21:00").message
    h.set_host_tz("Ведущий", "Asia/Yekaterinburg")
    assert "(МСК+2)" in h.set_deadline(gid, f"{YEAR}-12-27 21:00").message
    st.close()
