"""PostgreSQL's one-statement path (``HostBase._command_one_shot``, ``Store.one_shot``): a
plain command on a game the process has cached with its row is worked out on that game
and written by one statement that stores it only if the row is still at the cached
revision and the player's link still names the seat. It writes exactly the rows the
other paths write; a change made elsewhere meanwhile, a reissued link, a refusal and a
lost connection each end as they do on the transaction path."""

from __future__ import annotations

import pytest
from test_host_support import _kill_backends
from test_store_hot import ROLES, _play, _rows

from mafiahost.host import AccessDenied, GameCache, Host
from mafiahost.store import Store
from mafiahost.store.accounts import digest

pytest_plugins = ["test_host_support"]   # its fixtures: pg_db


def _acted(h: Host, gid: int) -> list[tuple[str, str]]:
    fresh = Host(store=h.store, cache=GameCache(0))
    return [(e.data["actor"], e.data["ability"]) for e in fresh.load(gid)[1].events
            if e.type == "action"]


def _count(monkeypatch) -> dict:
    """How many commands ``Store.one_shot`` stored (and was asked to)."""
    n = {"asked": 0, "stored": 0}
    real = Store.one_shot

    def counted(self, *a, **k):
        n["asked"] += 1
        r = real(self, *a, **k)
        n["stored"] += r is not None
        return r
    monkeypatch.setattr(Store, "one_shot", counted)
    return n


def test_one_statement_writes_what_the_other_paths_write(pg_db, monkeypatch):
    """The same game played with a cache (the one-statement path for every plain command
    after the first since a host command) and without one (the transaction path): the
    same rows, vote records included, and the same game read back."""
    n = _count(monkeypatch)
    st = Store(pg_db)
    cached = Host(store=st, cache=GameCache(16))
    a = cached.new_game("gemini", list(ROLES), roles=ROLES, seed=5).game_id
    _play(cached, a)
    assert n["stored"] >= 4                # 3 moves and 2 votes after the first of each
    plain = Host(store=st, cache=GameCache(0))
    b = plain.new_game("gemini", list(ROLES), roles=ROLES, seed=5).game_id
    stored = n["stored"]
    _play(plain, b)
    assert n["stored"] == stored           # no cache: never asked
    assert _rows(cached, a) == _rows(plain, b)

    def seen(gid):
        return [(e.type, e.phase, e.audience, e.data)
                for e in Host(store=st, cache=GameCache(0)).load(gid)[1].events]
    assert seen(a) == seen(b)
    # and the cache holds the game as stored
    assert [(e.type, e.data) for e in cached.load(a)[1].events] == \
        [(e.type, e.data) for e in Host(store=st, cache=GameCache(0)).load(a)[1].events]
    st.close()


def test_a_command_stored_elsewhere_meanwhile_makes_it_run_again(pg_db, monkeypatch):
    """Another process stores a command after this one cached the game: the statement
    finds the row at another revision and stores nothing; the move then runs in a
    transaction on the game as stored: both are stored, in the order of their commits."""
    n = _count(monkeypatch)
    st = Store(pg_db)
    h = Host(store=st, cache=GameCache(16))
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=9).game_id
    h.act(gid, "Анна", "check", ["Борис"])                   # caches the game with its row
    other = Host(store=Store(pg_db), cache=GameCache(0))     # another process
    other.act(gid, "Глеб", "heal", ["Дина"])
    asked = n["asked"]
    h.act(gid, "Вера", "kill", ["Дина"])
    assert n["asked"] == asked + 1 and n["stored"] == 0
    assert _acted(h, gid) == [("Анна", "check"), ("Глеб", "heal"), ("Вера", "kill")]
    assert [e.data.get("actor") for e in h.load(gid)[1].events if e.type == "action"] == \
        ["Анна", "Глеб", "Вера"]
    h.act(gid, "Борис", "cover", ["Вера"])                   # cached again: one statement
    assert n["stored"] == 1
    other.store.close()
    st.close()


def test_a_link_reissued_after_the_app_looked_it_up_is_refused(pg_db, monkeypatch):
    """The web app found the seat of a link and names it (``checking_link``); the link is
    reissued before the move is written: the statement stores nothing, and the
    transaction path refuses the move (``AccessDenied``); nothing is stored."""
    n = _count(monkeypatch)
    st = Store(pg_db)
    h = Host(store=st, cache=GameCache(16))
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=8).game_id
    old = h.links(gid)["Вера"]
    h.act(gid, "Анна", "check", ["Борис"])
    with st.checking_link(digest(old), (gid, "Вера")):        # still valid: one statement
        h.act(gid, "Вера", "kill", ["Дина"], guard=Host.link_check(old, gid, "Вера"))
    assert n["stored"] == 1
    new = h.reissue_link(gid, "Вера")
    before = _rows(h, gid)
    with st.checking_link(digest(old), (gid, "Вера")), pytest.raises(AccessDenied):
        h.act(gid, "Вера", "kill", ["Глеб"], replace=True,
              guard=Host.link_check(old, gid, "Вера"))
    assert n["stored"] == 1 and _rows(h, gid) == before
    # a seat the app got wrong is the same refusal
    with st.checking_link(digest(new), (gid, "Глеб")), pytest.raises(AccessDenied):
        h.act(gid, "Глеб", "heal", ["Дина"], guard=Host.link_check(new, gid, "Глеб"))
    assert _rows(h, gid) == before
    with st.checking_link(digest(new), (gid, "Вера")):
        h.act(gid, "Вера", "kill", ["Глеб"], replace=True,
              guard=Host.link_check(new, gid, "Вера"))
    assert _acted(h, gid)[-1] == ("Вера", "kill") and len(_rows(h, gid)[0]) == \
        len(before[0]) + 1
    st.close()


def test_a_refusal_stores_nothing_and_a_guard_that_asks_the_database_still_runs(
        pg_db, monkeypatch):
    n = _count(monkeypatch)
    st = Store(pg_db)
    h = Host(store=st, cache=GameCache(16))
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=7).game_id
    h.act(gid, "Анна", "check", ["Борис"])
    before = _rows(h, gid)
    with pytest.raises(Exception, match="Дина|Глеб|ход|move"):
        h.act(gid, "Дина", "kill", ["Глеб"])               # a civilian has no kill
    assert _rows(h, gid) == before and n["asked"] == 0
    # a guard that reads the database runs inside the transaction path
    from sqlalchemy import text
    seen = []

    def asks(s, row, g):
        s.execute(text("SELECT 1"))
        seen.append(type(s).__name__)
    h.act(gid, "Глеб", "heal", ["Дина"])                   # caches the row again
    h.act(gid, "Вера", "kill", ["Дина"], guard=asks)
    assert seen == ["PgTx"] and _acted(h, gid)[-2:] == [("Глеб", "heal"), ("Вера", "kill")]
    st.close()


def test_a_lost_connection_stores_the_command_exactly_once(pg_db, monkeypatch):
    """The statement's connection is lost. Before it ran (the server dropped every pooled
    connection): nothing was stored, and the move runs again on a new connection. After
    it committed (the answer lost on the way): the stored command is found and the move
    is done, not stored twice."""
    import psycopg
    from sqlalchemy.exc import DBAPIError
    st = Store(pg_db, pool=4)
    h = Host(store=st, cache=GameCache(16))
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=3).game_id
    h.act(gid, "Анна", "check", ["Борис"])
    assert _kill_backends(pg_db) >= 1
    h.act(gid, "Вера", "kill", ["Дина"])
    assert _acted(h, gid) == [("Анна", "check"), ("Вера", "kill")]
    h.act(gid, "Глеб", "heal", ["Дина"])                   # cached again

    real = Store.one_shot

    def answer_lost(self, *a, **k):
        real(self, *a, **k)
        raise DBAPIError.instance(None, None, psycopg.OperationalError("lost"),
                                  psycopg.Error, connection_invalidated=True)
    monkeypatch.setattr(Store, "one_shot", answer_lost)
    done = h.act(gid, "Борис", "cover", ["Вера"])
    assert "Борис" in done.message
    assert _acted(h, gid) == [("Анна", "check"), ("Вера", "kill"), ("Глеб", "heal"),
                              ("Борис", "cover")]
    monkeypatch.undo()
    h.act(gid, "Глеб", "heal", ["Анна"], replace=True)
    assert _acted(h, gid)[-1] == ("Глеб", "heal") and len(_acted(h, gid)) == 5
    st.close()
