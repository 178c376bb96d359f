"""The store's hot path (``Store.hot``): a move, a vote and an answer are written with
hand-written statements and no ORM object, on the stdlib ``sqlite3`` module for a SQLite
file. It writes exactly the rows the ORM path writes, takes the same locks, and a
command-line move on a current SQLite file never imports SQLAlchemy; an old or a new
database is still created or upgraded by the migrations on open."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest
from test_host_support import ROOT, new_game, show

from mafiahost.host import GameCache, Host
from mafiahost.store import HEAD, Store
from mafiahost.store.hot import GameRecord

pytest_plugins = ["test_host_support"]   # its fixtures: sqlite_db, pg_db, any_db

ROLES = {"Анна": "commissar", "Борис": "boss", "Вера": "black_doctor", "Глеб": "doctor",
         "Дина": "civilian", "Егор": "civilian"}


def _rows(h: Host, gid: int):
    """Every stored row of the game's commands, events and vote records (ids aside)."""
    from sqlalchemy import text
    with h.store.engine.connect() as c:
        cmds = [tuple(r) for r in c.execute(text(
            'SELECT seq, kind, args, ops, "before", result, first_event, n_events, undone '
            "FROM commands WHERE game_id = :g ORDER BY seq"), {"g": gid})]
        evs = [tuple(r) for r in c.execute(text(
            "SELECT e.pos, c.seq, e.type, e.phase, e.body FROM events e JOIN commands c "
            "ON c.id = e.command_id WHERE e.game_id = :g ORDER BY e.pos"), {"g": gid})]
        votes = [tuple(r) for r in c.execute(text(
            "SELECT c.seq, v.phase, v.voter, v.target, v.source, v.status, v.note FROM "
            "vote_records v JOIN commands c ON c.id = v.command_id WHERE v.game_id = :g "
            "ORDER BY v.id"), {"g": gid})]
    return cmds, evs, votes


def _play(h: Host, gid: int) -> None:
    h.act(gid, "Вера", "kill", ["Дина"])
    h.act(gid, "Глеб", "heal", ["Дина"])
    h.act(gid, "Глеб", "heal", ["Анна"], replace=True)
    h.act(gid, "Анна", "check", ["Борис"])
    h.resolve(gid)
    h.vote(gid, "Анна", "Борис")
    h.vote(gid, "Борис", "Анна")
    h.vote(gid, "Анна", "против всех")


def test_the_hot_path_writes_what_the_orm_path_writes(any_db, monkeypatch):
    """The same game played twice, once with the plain commands on the hot path and once
    forced onto the ORM path, leaves the same rows (times aside)."""
    from mafiahost.host import core
    hot = Host(store=Store(any_db), cache=GameCache(0))
    a = hot.new_game("gemini", list(ROLES), roles=ROLES, seed=5).game_id
    _play(hot, a)
    real = core.HostBase._command

    def orm_only(self, game_id, kind, args, fn, guard=None, hot=False):
        return real(self, game_id, kind, args, fn, guard, False)
    monkeypatch.setattr(core.HostBase, "_command", orm_only)
    orm = Host(store=hot.store, cache=GameCache(0))
    b = orm.new_game("gemini", list(ROLES), roles=ROLES, seed=5).game_id
    _play(orm, b)
    monkeypatch.undo()

    ra, rb = _rows(hot, a), _rows(orm, b)
    assert ra == rb
    assert len(ra[0]) == 9 and ra[2]          # every command stored, the votes recorded
    # and the game reads back the same through both paths (a fresh cache)
    def seen(gid):
        return [(e.type, e.phase, e.audience, e.data)
                for e in Host(store=hot.store, cache=GameCache(0)).load(gid)[1].events]
    assert seen(a) == seen(b) and len(seen(a)) > 8
    hot.store.close()


def test_the_hot_row_is_read_only_and_bumps_the_revision(any_db):
    st = Store(any_db)
    h = Host(store=st, cache=GameCache(0))
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=6).game_id
    rev = h.load(gid)[0].rev
    with st.hot(gid) as (_tx, row):
        assert isinstance(row, GameRecord) and row.rev == rev + 1 and row.dealt is False
        assert row.ruleset == "gemini" and row.lang == "ru"
        with pytest.raises(AttributeError):
            row.deadline = "2030-01-01T21:00"
    assert h.load(gid)[0].rev == rev + 1
    with pytest.raises(LookupError):
        with st.hot(gid + 99):
            pass
    st.close()


def test_a_refused_or_failed_hot_command_changes_nothing(any_db):
    st = Store(any_db)
    h = Host(store=st, cache=GameCache(0))
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=7).game_id
    before = _rows(h, gid), h.load(gid)[0].rev
    with pytest.raises(Exception, match="Дина|Глеб|Вера|ход|move"):
        h.act(gid, "Дина", "kill", ["Глеб"])          # a civilian has no kill
    with pytest.raises(RuntimeError):
        with st.hot(gid) as (tx, _row):
            tx.add_command({"game_id": gid, "kind": "act", "args": "{}", "ops": "[]",
                            "before": "{}", "result": "{}", "first_event": 99,
                            "n_events": 0, "undone": False, "at": "x"}, [])
            raise RuntimeError("crash before the commit")
    assert (_rows(h, gid), h.load(gid)[0].rev) == before
    # a write the database refuses (PostgreSQL: sent without waiting, with the COMMIT):
    # the database's error, nothing stored, and the next command runs as usual
    ev = (gid, 0, "action", "night 1", "{}")           # position 0 is taken
    with pytest.raises(Exception) as err:
        with st.hot(gid) as (tx, _row):
            tx.add_command({"game_id": gid, "kind": "act", "args": "{}", "ops": "[]",
                            "before": "{}", "result": "{}", "first_event": 0,
                            "n_events": 1, "undone": False, "at": "x"}, [ev])
    assert st.is_db_error(err.value)
    assert (_rows(h, gid), h.load(gid)[0].rev) == before
    h.act(gid, "Вера", "kill", ["Дина"])
    assert len(_rows(h, gid)[0]) == len(before[0][0]) + 1
    st.close()


def test_a_command_line_move_does_not_import_sqlalchemy(sqlite_db):
    gid = new_game(sqlite_db, "--roles", ",".join(f"{n}={r}" for n, r in ROLES.items()),
                   players=list(ROLES))
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from mafiahost.cli import main; "
            "rc = main(sys.argv[2:]); "
            "print('SQLALCHEMY' if any(m.split('.')[0] == 'sqlalchemy' for m in sys.modules) "
            "else 'NO-SQLALCHEMY'); sys.exit(rc)")
    r = subprocess.run([sys.executable, "-c", code, str(ROOT / "src"), "act", str(gid),
                        "Вера", "kill", "Дину", "--db", sqlite_db], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Ход принят" in r.stdout and "NO-SQLALCHEMY" in r.stdout
    # the move is stored: the host sees it
    assert "Вера" not in show(gid, sqlite_db)["not_acted"]


def test_an_old_or_new_sqlite_file_is_still_migrated_on_open(tmp_path):
    """The stdlib check on open only skips the migrations when the file is at the head:
    a new file is created, a file made by an older release (here: the schema of
    migration 0002, made by Alembic itself) is upgraded, and both then take moves."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from mafiahost.store import MIGRATIONS
    new, old = tmp_path / "new.db", tmp_path / "old.db"
    eng = create_engine(f"sqlite:///{old}")
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with eng.begin() as c:
        cfg.attributes["connection"] = c
        command.upgrade(cfg, "0002")
    eng.dispose()
    for path in (new, old):
        st = Store(str(path))
        c = sqlite3.connect(path)
        assert c.execute("SELECT version_num FROM alembic_version").fetchone() == (HEAD,)
        assert c.execute("SELECT count(*) FROM sqlite_master WHERE name = 'game_hosts'"
                         ).fetchone() == (1,)
        c.close()
        h = Host(store=st, cache=GameCache(0))
        gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=8).game_id
        h.act(gid, "Вера", "kill", ["Дина"])
        h.act(gid, "Глеб", "heal", ["Дина"])
        assert [e.data["actor"] for e in h.load(gid)[1].events if e.type == "action"] == \
            ["Вера", "Глеб"]
        st.close()


def test_a_move_worked_out_on_a_game_that_changed_meanwhile_is_redone(sqlite_db):
    """The optimistic path: a move is worked out on the game outside the write lock; when
    another process stores a command in between, the compare-and-set of the revision
    fails and the move is worked out again on the game as it is now: both moves are
    stored, in the order they were committed, and the cache holds the game as stored."""
    st = Store(sqlite_db)
    h = Host(store=st)
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=9).game_id
    other = Host(store=Store(sqlite_db), cache=GameCache(0))    # another process
    calls = []

    def meanwhile(s, row, g):
        calls.append(row.rev)
        if len(calls) == 1:
            other.act(gid, "Глеб", "heal", ["Дина"])
    h.act(gid, "Вера", "kill", ["Дина"], guard=meanwhile)
    assert len(calls) >= 2 and calls[-1] > calls[0]      # worked out again, later revision
    fresh = Host(store=Store(sqlite_db), cache=GameCache(0))
    acted = [e.data["actor"] for e in fresh.load(gid)[1].events if e.type == "action"]
    assert acted == ["Глеб", "Вера"]
    cached = [e.data["actor"] for e in h.load(gid)[1].events if e.type == "action"]
    assert cached == acted
    st.close()
    other.store.close()
    fresh.store.close()


def test_a_link_read_with_the_bump_is_still_checked(any_db):
    """``Store.checking_link``: the web app names the link a move will check, and the
    row bump reads it (SQLite: in the bump's statement; PostgreSQL: in its round trip).
    The check itself is unchanged: a link reissued after the app looked it up is
    refused inside the transaction, and nothing is stored."""
    from mafiahost.host import AccessDenied
    from mafiahost.store.accounts import digest
    st = Store(any_db)
    h = Host(store=st, cache=GameCache(0))
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=8).game_id
    old = h.links(gid)["Вера"]
    new = h.reissue_link(gid, "Вера")
    before = _rows(h, gid)
    with st.checking_link(digest(old)), pytest.raises(AccessDenied):
        h.act(gid, "Вера", "kill", ["Дина"], guard=Host.link_check(old, gid, "Вера"))
    assert _rows(h, gid) == before
    seen: list[str] = []
    if st.path is not None:          # SQLite: no statement of its own for the link
        st._lite_conn().set_trace_callback(seen.append)
    with st.checking_link(digest(new)):
        h.act(gid, "Вера", "kill", ["Дина"], guard=Host.link_check(new, gid, "Вера"))
    assert ("Вера", "kill") in [(e.data["actor"], e.data["ability"])
                                for e in h.load(gid)[1].events if e.type == "action"]
    if st.path is not None:
        st._lite_conn().set_trace_callback(None)
        inside = seen[seen.index("BEGIN IMMEDIATE"):]
        assert not any(q.startswith("SELECT game_id, seat FROM player_links")
                       for q in inside)
        assert "FROM player_links" in next(q for q in inside if q.startswith("UPDATE games"))
    st.close()
