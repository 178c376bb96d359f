"""Faults: a dropped PostgreSQL connection is retried once inside the command, and a
second drop is a clear sentence with nothing changed; the web app answers a database
failure with its own 503 page (with the security headers) and logs no statement; a full
database or disk, and a file that cannot be written, are one sentence each."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import event, text
from test_host_support import _admin, _kill_backends, cli
from test_web_support import client

from mafiahost.host import GameCache, Host
from mafiahost.store import Store, StoreError

pytest_plugins = ["test_host_support"]   # its fixtures: sqlite_db, pg_db

ROLES = {"Анна": "commissar", "Борис": "boss", "Вера": "black_doctor", "Глеб": "doctor",
         "Дина": "civilian", "Егор": "civilian"}


def _moves(h, gid):
    return [(e.data["actor"], e.data["ability"]) for e in h.load(gid)[1].events
            if e.type == "action"]


def test_dropped_connections_are_retried_once_inside_the_command(pg_db):
    h = Host(store=Store(pg_db, pool=4), cache=GameCache(0))
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=1).game_id
    h.act(gid, "Вера", "kill", ["Дина"])
    assert _kill_backends(pg_db) >= 1           # every pooled connection is now dead
    h.act(gid, "Глеб", "heal", ["Дина"])        # the command runs again on a new one
    assert _moves(h, gid) == [("Вера", "kill"), ("Глеб", "heal")]
    # a connection lost inside the command, once: retried, stored exactly once
    lost = {"n": 0}

    def drop_once(s, *_):
        if lost["n"] == 0:
            lost["n"] += 1
            s.execute(text("SELECT pg_terminate_backend(pg_backend_pid())"))
    h.act(gid, "Анна", "check", ["Борис"], guard=drop_once)
    assert _moves(h, gid)[-1] == ("Анна", "check") and len(_moves(h, gid)) == 3

    # lost twice: a sentence, nothing changed
    def drop_always(s, *_):
        s.execute(text("SELECT pg_terminate_backend(pg_backend_pid())"))
    with pytest.raises(StoreError, match="связь прервалась дважды"):
        h.act(gid, "Борис", "cover", ["Вера"], guard=drop_always)
    assert len(_moves(h, gid)) == 3
    h.store.close()


def test_the_web_app_answers_a_dead_database_with_its_own_page(pg_db, caplog):
    from mafiahost.web import create_app
    st = Store(pg_db, pool=2)
    h = Host(store=st, cache=GameCache(0))
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=2).game_id
    tok = h.links(gid)["Анна"]
    app = create_app(host=h)
    c = client(app)
    assert c.get(f"/p/{tok}").status_code == 200
    # the pooled connections dropped: the page is read again on a new one
    assert _kill_backends(pg_db) >= 1
    assert c.get(f"/p/{tok}").status_code == 200
    name = pg_db.rsplit("/", 1)[1]
    with _admin() as a:
        a.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
    try:
        _kill_backends(pg_db)
        with caplog.at_level(logging.DEBUG):
            r = c.get(f"/p/{tok}")
        assert r.status_code == 503
        assert "База данных сейчас недоступна" in r.text
        assert r.headers["referrer-policy"] == "no-referrer"
        assert "script-src 'self'" in r.headers["content-security-policy"]
        logged = "\n".join(rec.getMessage() for rec in caplog.records
                           if not rec.name.startswith("httpx"))   # the test's own client
        assert tok not in logged and "SELECT" not in logged
    finally:
        with _admin() as a:
            a.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
    assert c.get(f"/p/{tok}").status_code == 200       # and it recovers by itself
    st.close()


def test_a_full_database_is_one_sentence_and_changes_nothing(sqlite_db):
    h = Host(sqlite_db)
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=3).game_id
    st = Store(sqlite_db)
    with st.engine.connect() as c:
        pages = c.execute(text("PRAGMA page_count")).scalar()

    @event.listens_for(st.engine, "connect")
    def _full(dbapi_conn, _rec):             # SQLite's own limit: SQLITE_FULL when reached
        dbapi_conn.execute(f"PRAGMA max_page_count = {pages}")
    st.engine.dispose()
    full = Host(store=st, cache=GameCache(0))
    before = _moves(h, gid)
    with pytest.raises(StoreError, match="переполнены"):
        for i in range(50):                    # enough writes to need a new page
            full.set_deadline(gid, f"2030-01-{1 + i % 28:02d} 21:00")
            full.act(gid, "Вера", "kill", ["Дина"], replace=True)
    assert _moves(h, gid)[:len(before)] == before
    st.close()


def test_a_file_that_cannot_be_written_is_a_sentence(sqlite_db):
    h = Host(sqlite_db)
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=4).game_id
    code, out = cli("export", gid, "-o", "/dev/full", "--db", sqlite_db)
    assert code == 2 and "Не могу записать файл /dev/full" in out and "Traceback" not in out
