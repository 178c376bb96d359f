"""Group commit on a SQLite file (``Store.hot``): plain commands of one process that wait
for the write lock while another writes share its transaction, each in a savepoint of
its own, and one commit makes all of them durable. No command returns before that
commit; a command that fails takes back only its own rows; a failed commit fails every
member; a command on the ORM path (``Store.locked``) commits a shared transaction
before it begins its own."""

from __future__ import annotations

import sqlite3
import threading
import time

from mafiahost.host import GameCache, Host
from mafiahost.store import Store

pytest_plugins = ["test_host_support"]   # its fixtures: sqlite_db

ROLES = {"Анна": "commissar", "Борис": "boss", "Вера": "black_doctor", "Глеб": "doctor",
         "Дина": "civilian", "Егор": "civilian"}


def _games(db: str, n: int) -> tuple[Store, Host, list[int]]:
    st = Store(db)
    h = Host(store=st, cache=GameCache(0))
    return st, h, [h.new_game("gemini", list(ROLES), roles=ROLES, seed=20 + i).game_id
                   for i in range(n)]


def _command(gid: int, first: int) -> dict:
    return {"game_id": gid, "kind": "act", "args": "{}", "ops": "[]", "before": "{}",
            "result": "{}", "first_event": first, "n_events": 0, "undone": False,
            "at": "x"}


def _stored(db: str, gid: int) -> int:
    """How many commands of the game another connection sees (committed ones only)."""
    c = sqlite3.connect(db)
    try:
        return c.execute("SELECT COUNT(*) FROM commands WHERE game_id = ?",
                         (gid,)).fetchone()[0]
    finally:
        c.close()


def _wait_for(cond, what: str, seconds: float = 10) -> None:
    end = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < end, what
        time.sleep(0.001)


def _commits(st: Store, monkeypatch) -> list[int]:
    """The members of every shared transaction ``st`` ends, in order."""
    ends: list[int] = []
    real = Store._end_batch

    def counted(self):
        if self is st and self._batch is not None:
            ends.append(self._batch.members)
        real(self)
    monkeypatch.setattr(Store, "_end_batch", counted)
    return ends


def _first_waits_for_second(st: Store, first, second):
    """Run ``first(hold)`` and ``second()`` in two threads so that ``second`` is waiting
    for the write lock while ``first`` writes: ``first`` calls ``hold()`` inside its
    transaction, which returns once the second thread waits. Returns the two threads'
    outcomes (a value or an exception) and the order in which they returned."""
    inside = threading.Event()
    order: list[str] = []
    out: dict = {}

    def hold():
        inside.set()
        _wait_for(lambda: st._want >= 1, "the second command never waited")

    def run(name, fn, *a):
        try:
            out[name] = fn(*a)
        except Exception as e:  # noqa: BLE001 - handed to the test
            out[name] = e
        order.append(name)
    a = threading.Thread(target=run, args=("first", first, hold))
    a.start()
    assert inside.wait(10)
    b = threading.Thread(target=run, args=("second", second))
    b.start()
    a.join(20)
    b.join(20)
    assert not a.is_alive() and not b.is_alive()
    return out, order


def test_waiting_commands_share_one_commit_and_none_answers_before_it(sqlite_db,
                                                                      monkeypatch):
    st, h, (g1, g2) = _games(sqlite_db, 2)
    ends = _commits(st, monkeypatch)
    n1, n2 = _stored(sqlite_db, g1), _stored(sqlite_db, g2)
    seen_by_first: list[int] = []

    def first(hold):
        with st.hot(g1) as (tx, _row):
            tx.add_command(_command(g1, 100), [])
            hold()
        # returned: the move must be on the disk now, and so must the second one,
        # which committed it
        seen_by_first.append(_stored(sqlite_db, g1))
        return "ok"

    def second():
        assert _stored(sqlite_db, g1) == n1        # not committed while it waits
        with st.hot(g2) as (tx, _row):
            tx.add_command(_command(g2, 100), [])
        return "ok"
    out, order = _first_waits_for_second(st, first, second)
    assert out == {"first": "ok", "second": "ok"}
    assert ends == [2]                             # one commit for both
    assert seen_by_first == [n1 + 1]
    assert (_stored(sqlite_db, g1), _stored(sqlite_db, g2)) == (n1 + 1, n2 + 1)
    st.close()


def test_a_failing_member_takes_back_only_its_own_rows(sqlite_db, monkeypatch):
    st, h, (g1, g2) = _games(sqlite_db, 2)
    ends = _commits(st, monkeypatch)
    n1, n2 = _stored(sqlite_db, g1), _stored(sqlite_db, g2)

    def first(hold):
        with st.hot(g1) as (tx, _row):
            tx.add_command(_command(g1, 100), [])
            hold()
        return "ok"

    def second():
        with st.hot(g2) as (tx, _row):
            tx.add_command(_command(g2, 100), [])
            raise RuntimeError("refused by the rules")
    out, _ = _first_waits_for_second(st, first, second)
    assert out["first"] == "ok" and isinstance(out["second"], RuntimeError)
    assert ends == [1]
    assert (_stored(sqlite_db, g1), _stored(sqlite_db, g2)) == (n1 + 1, n2)
    rev = h.load(g2)[0].rev                        # the failed bump is taken back too
    h.act(g2, "Вера", "kill", ["Дина"])
    assert h.load(g2)[0].rev == rev + 1 and _stored(sqlite_db, g2) == n2 + 1
    st.close()


class _FailingCommit:
    """A connection whose COMMIT fails as a full disk does."""

    def __init__(self, conn):
        self._c = conn

    def execute(self, sql, *a):
        if sql == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return self._c.execute(sql, *a)

    def __getattr__(self, name):
        return getattr(self._c, name)


def test_a_failed_commit_fails_every_member_and_stores_nothing(sqlite_db, monkeypatch):
    st, h, (g1, g2) = _games(sqlite_db, 2)
    ends = _commits(st, monkeypatch)
    n1, n2 = _stored(sqlite_db, g1), _stored(sqlite_db, g2)

    def first(hold):
        with st.hot(g1) as (tx, _row):
            tx.add_command(_command(g1, 100), [])
            st._batch.conn = _FailingCommit(st._batch.conn)
            hold()
        return "ok"

    def second():
        with st.hot(g2) as (tx, _row):
            tx.add_command(_command(g2, 100), [])
        return "ok"
    out, _ = _first_waits_for_second(st, first, second)
    assert ends == [2]
    for name in ("first", "second"):
        assert isinstance(out[name], sqlite3.OperationalError), out
        assert st.is_db_error(out[name]) and "full" in str(out[name])
    assert (_stored(sqlite_db, g1), _stored(sqlite_db, g2)) == (n1, n2)
    h.act(g1, "Вера", "kill", ["Дина"])              # the next command runs as usual
    assert _stored(sqlite_db, g1) == n1 + 1
    st.close()


def test_an_orm_command_commits_the_shared_transaction_first(sqlite_db, monkeypatch):
    st, h, (g1, g2) = _games(sqlite_db, 2)
    ends = _commits(st, monkeypatch)
    n1 = _stored(sqlite_db, g1)

    def first(hold):
        with st.hot(g1) as (tx, _row):
            tx.add_command(_command(g1, 100), [])
            hold()
        return "ok"

    def second():
        h.set_deadline(g2, "2030-01-01 21:00")       # Store.locked, the ORM path
        return "ok"
    out, order = _first_waits_for_second(st, first, second)
    assert out == {"first": "ok", "second": "ok"}, out
    assert ends == [1] and _stored(sqlite_db, g1) == n1 + 1
    assert h.load(g2)[0].deadline
    st.close()


def test_many_threads_store_every_move_with_fewer_commits(sqlite_db, monkeypatch):
    """Eight threads sending a move each to games of their own, at once: every move is
    stored and answered, as a fresh reader sees them; the commits are counted."""
    st, h, games = _games(sqlite_db, 8)
    ends = _commits(st, monkeypatch)
    errors: list = []
    go = threading.Barrier(len(games))

    def move(gid):
        try:
            go.wait(10)
            h.act(gid, "Вера", "kill", ["Дина"])
        except Exception as e:  # noqa: BLE001
            errors.append(e)
    threads = [threading.Thread(target=move, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors
    assert sum(ends) == len(games) and all(m >= 1 for m in ends)
    fresh = Host(store=Store(sqlite_db), cache=GameCache(0))
    for gid in games:
        assert [(e.data["actor"], e.data["ability"]) for e in fresh.load(gid)[1].events
                if e.type == "action"] == [("Вера", "kill")]
    fresh.store.close()
    st.close()


def test_a_failing_opener_waits_until_the_others_commit_on_its_connection(sqlite_db,
                                                                        monkeypatch):
    """The shared transaction runs on the connection of the thread that began it. When
    that thread's own command fails and others are waiting, they go on writing on that
    connection: the thread returns only after their commit (its connection is then free
    again for what it reads next outside the lock)."""
    st, h, (g1, g2) = _games(sqlite_db, 2)
    ends = _commits(st, monkeypatch)
    n1, n2 = _stored(sqlite_db, g1), _stored(sqlite_db, g2)
    seen: list[tuple[int, bool]] = []

    def first(hold):
        try:
            with st.hot(g1) as (tx, _row):
                tx.add_command(_command(g1, 100), [])
                hold()
                raise RuntimeError("refused by the rules")
        finally:
            seen.append((_stored(sqlite_db, g2), st._lite_conn().in_transaction))

    def second():
        with st.hot(g2) as (tx, _row):
            tx.add_command(_command(g2, 100), [])
        return "ok"
    out, _ = _first_waits_for_second(st, first, second)
    assert isinstance(out["first"], RuntimeError) and out["second"] == "ok"
    assert seen == [(n2 + 1, False)] and ends == [1]
    assert (_stored(sqlite_db, g1), _stored(sqlite_db, g2)) == (n1, n2 + 1)
    st.close()
