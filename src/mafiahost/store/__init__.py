"""Saved games in a database: SQLite by default, PostgreSQL by URL, the same code for both.

``open_store(db)`` opens (and creates or upgrades, with the bundled Alembic migrations) the
database named by ``db``, else ``$MAFIAHOST_DB``, else the SQLite file ``mafiahost.db`` in
the current directory. ``db`` is a file path (SQLite) or a URL (``sqlite:///…``,
``postgresql://…``; PostgreSQL is reached with psycopg 3).

Every host command is one transaction (``Store.command``): it locks the game's row, reads
the events, lets the caller run the engine, writes the command with its new events and
commits; a crash before the commit leaves the game exactly as before the command.
"""

from __future__ import annotations

import json
import os
import threading
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path

from ..engine.events import Event

# SQLAlchemy (and the ORM models) are imported only when something needs them: a plain
# command on a current SQLite file (a move, a vote, an answer) runs on the stdlib
# ``sqlite3`` module alone (``store.hot``), so a command-line call does not pay for
# importing SQLAlchemy. The models and prepared statements are still importable from here
# (``from mafiahost.store import GameRow``): they are made on first use (PEP 562).
_MODEL_NAMES = ("Base", "CommandRow", "EventRow", "GameHostRow", "GameRow", "HostAccountRow",
                "HostSessionRow", "ImportedPostRow", "PlayerLinkRow", "VoteRecordRow",
                "WebKeyRow")
_STATEMENTS: dict = {}


def __getattr__(name: str):
    if name in _MODEL_NAMES:
        from . import models
        return getattr(models, name)
    if name in ("ADD_VOTE_RECORD", "_BUMP", "_NOTIFY", "_MAX_SEQ", "_ADD_CMD", "_ADD_EVENT"):
        if not _STATEMENTS:
            _STATEMENTS.update(_statements())
        return _STATEMENTS[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["HEAD", "Base", "CommandRow", "EventRow", "GameHostRow", "GameRow",
           "HostAccountRow", "HostSessionRow", "ImportedPostRow",
           "PlayerLinkRow", "Store", "StoreError", "VoteRecordRow", "WebKeyRow",
           "database_url", "db_error_sentence", "event_from_json", "event_to_json",
           "now_iso", "open_store"]

DEFAULT_FILE = "mafiahost.db"
HEAD = "0004"       # the latest migration; tests check it is the Alembic head
MIGRATIONS = Path(__file__).parent / "migrations"


#: The PostgreSQL advisory lock that serialises schema migrations across processes.
MIGRATION_LOCK = 0x6D616669   # 'mafi'


class StoreError(Exception):
    """A database that cannot be used (bad URL, unreachable server, a lost connection, a
    full disk): a sentence."""


def db_error_sentence(e: Exception, committing: bool = False) -> str:
    """One sentence for a database failure, Russian / English. It names the kind of
    failure only: never the statement or its parameters (nor the driver's full text)."""
    orig = getattr(e, "orig", e)
    text = str(orig).lower()
    if "full" in text or "no space" in text or "disk i/o" in text:
        return ("Диск или база данных переполнены: ничего не записано. Освободите место и "
                "повторите. / The disk or the database is full: nothing was written. Free "
                "some space and try again.")
    if committing:
        return ("Связь с базой данных прервалась во время записи: не известно, записана ли "
                "команда — посмотрите game show и повторите её, если нужно. / The "
                "connection to the database broke while committing: whether the command was "
                "stored is unknown — look at game show and repeat it if needed.")
    if getattr(e, "connection_invalidated", False) or "connect" in text or \
            "terminat" in text or "closed" in text:
        return ("База данных недоступна (связь прервалась дважды): ничего не изменено, "
                "повторите позже. / The database cannot be reached (the connection broke "
                "twice): nothing was changed; try again later.")
    if "locked" in text or "busy" in text:
        return ("База данных занята другой записью: ничего не изменено, повторите. / The "
                "database is busy with another write: nothing was changed; try again.")
    return (f"База данных отказала ({type(orig).__name__}): ничего не изменено. / The "
            f"database failed ({type(orig).__name__}): nothing was changed.")


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def database_url(db: str | None = None) -> str:
    """The SQLAlchemy URL for ``db`` (a path or URL), ``$MAFIAHOST_DB`` or the default file."""
    db = db or os.environ.get("MAFIAHOST_DB") or DEFAULT_FILE
    if "://" not in db:
        return "sqlite:///" + str(Path(db).expanduser().resolve())
    for plain in ("postgresql://", "postgres://"):
        if db.startswith(plain):
            return "postgresql+psycopg://" + db[len(plain):]
    return db


def event_to_json(e: Event) -> str:
    aud = e.audience if isinstance(e.audience, str) else list(e.audience)
    return json.dumps({"audience": aud, "data": e.data}, ensure_ascii=False,
                      separators=(",", ":"), default=_jsonable)


def _jsonable(x):
    if isinstance(x, (set, frozenset, tuple)):
        return list(x)
    raise TypeError(f"cannot store {type(x).__name__} in an event")


def event_from_json(type_: str, phase: str, body: str) -> Event:
    b = json.loads(body)
    aud = b["audience"]
    return Event(type_, phase, aud if isinstance(aud, str) else tuple(aud), b["data"])


def normalize(e: Event) -> Event:
    """The event as it reads back from the database (tuples become lists)."""
    return event_from_json(e.type, e.phase, event_to_json(e))


def sqlite_path(url: str) -> str | None:
    """The file of a plain ``sqlite:///path`` URL (what the stdlib ``sqlite3`` module can
    open the same way SQLAlchemy does), or None (another database, an in-memory one, a
    URL with query options)."""
    if not url.startswith("sqlite:///") or "?" in url:
        return None
    path = url[len("sqlite:///"):]
    return path if path and path != ":memory:" else None


class Store:
    def __init__(self, db: str | None = None, wal: bool = True, pool: int | None = None):
        """``wal``: on SQLite, use the write-ahead log (readers never wait for the writer,
        a commit appends to the log instead of rewriting pages through a rollback
        journal) with ``synchronous=FULL``: a commit returns only after the log is on the
        disk, so an acknowledged move survives a power cut, not only a crash of the
        process (``NORMAL`` in WAL mode may lose the last commits on a power cut). Every
        command and the web app open SQLite so; ``wal=False`` keeps SQLite's rollback
        journal (tests of the old files). ``pool``: how many connections to keep (a web
        process serves many requests at once).

        On a SQLite file the SQLAlchemy engine is made only when a command needs it (the
        plain commands run on ``sqlite3`` connections opened with the same settings:
        ``hot``); on PostgreSQL it is made at once."""
        self.url = database_url(db)
        self._db, self._wal, self._pool = db, wal, pool
        self.path = sqlite_path(self.url)
        self._engine = None
        self._session = None
        self._lite = threading.local()        # this thread's sqlite3 connection
        self._lite_all: list = []             # every one of them (closed by ``close``)
        self._lite_lock = threading.Lock()
        self._notify_conn = None              # PostgreSQL: ``notify``'s own connection
        self._notify_lock = threading.Lock()
        # writers of this process queue on a lock instead of polling SQLite's busy
        # handler (which sleeps up to 100 ms between tries); other processes still
        # wait on SQLite's own lock
        self._writer = threading.Lock() if self.url.startswith("sqlite") else None
        # SQLite: plain commands of this process share one write transaction while more
        # of them are waiting for it (group commit: ``hot``)
        self._batch: _Batch | None = None
        self._want = 0                        # threads waiting for ``_writer``
        self._want_lock = threading.Lock()
        if self.path is None:
            self.engine                       # noqa: B018 - a bad URL is a sentence now
        # PostgreSQL: every command tells the other processes which game changed
        # (``NOTIFY mafiahost_games, '<id>'`` after its commit: ``notify``; the web
        # app's live updates LISTEN)
        self._notify = self.url.startswith("postgresql")
        self._notifier: _Notifier | None = None
        self._psycopg3: bool | None = None
        self._hint = threading.local()        # ``checking_link``
        self._raw_lock = threading.Lock()     # PostgreSQL: ``_raw``'s kept connections
        self._raw_free: list = []
        # at most the pool's overflow: every thread still finds a connection in the pool
        self._raw_kept = (pool or 10) // 2
        self.migrate()

    @property
    def engine(self):
        """The SQLAlchemy engine (made on first use)."""
        if self._engine is None:
            from sqlalchemy import create_engine
            kw: dict = {}
            if self.url.startswith("sqlite"):
                kw["connect_args"] = {"timeout": 60}
            if self._pool:
                kw.update(pool_size=self._pool, max_overflow=self._pool // 2)
            if os.environ.get("MAFIAHOST_SQL_ECHO"):      # every statement to the log
                kw["echo"] = True
            try:
                engine = create_engine(self.url, **kw)
            except Exception as e:  # noqa: BLE001 - any driver/URL error becomes a sentence
                raise StoreError(f"Cannot use the database '{self._db}': {e}") from None
            if engine.dialect.name == "sqlite":
                _sqlite_transactions(engine, self._wal)
            self._engine = engine
        return self._engine

    @property
    def Session(self):  # noqa: N802 - a sessionmaker, named as one
        if self._session is None:
            from sqlalchemy.orm import sessionmaker
            self._session = sessionmaker(self.engine, expire_on_commit=False)
        return self._session

    @property
    def dialect(self) -> str:
        if self.url.startswith("sqlite"):
            return "sqlite"
        return self.engine.dialect.name

    def migrate(self) -> None:
        """Create or upgrade the schema to the latest migration (a no-op when current)."""
        if self.path is not None:
            try:
                c = self._lite_conn()
                r = c.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND "
                              "name = 'alembic_version'").fetchone()
                if r and c.execute("SELECT version_num FROM alembic_version"
                                   ).fetchone() == (HEAD,):
                    return                    # current: SQLAlchemy is not needed
            except Exception as e:  # noqa: BLE001
                raise StoreError(f"Cannot open the database {self.url!r}: "
                                 f"{str(e).splitlines()[0]}") from None
        from sqlalchemy import inspect, text
        try:
            with self.engine.connect() as c:
                current = None
                if inspect(c).has_table("alembic_version"):
                    current = c.execute(text("SELECT version_num FROM alembic_version")).scalar()
        except Exception as e:  # noqa: BLE001
            raise StoreError(f"Cannot open the database {self.engine.url!r}: "
                             f"{str(e).splitlines()[0]}") from None
        if current == HEAD:
            return
        from alembic import command
        from alembic.config import Config
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as c:
            if self.dialect == "postgresql":
                # several processes may open a new database at once (``serve --workers``,
                # a command beside the web app): one migrates, the others wait for it
                # and then find the schema current
                c.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
                if inspect(c).has_table("alembic_version") and c.execute(
                        text("SELECT version_num FROM alembic_version")).scalar() == HEAD:
                    return
            cfg.attributes["connection"] = c
            command.upgrade(cfg, "head")

    def close(self) -> None:
        with self._lite_lock:
            conns, self._lite_all = self._lite_all, []
        for c in conns:
            try:
                c.close()
            except Exception:  # noqa: BLE001 - closing is best effort
                pass
        self._lite = threading.local()
        self._drop_kept()
        notifier, self._notifier = self._notifier, None
        if notifier is not None:
            notifier.stop()
        with self._notify_lock:
            self._drop_notify_conn()
        if self._engine is not None:
            self._engine.dispose()

    # ---- transactions ------------------------------------------------------------------
    @contextmanager
    def session(self):
        """A read transaction."""
        with self.Session() as s, s.begin():
            yield s

    @contextmanager
    def locked(self, game_id: int):
        """A write transaction holding the game's row: the first statement bumps the row's
        ``rev``, which takes the write lock on SQLite and a row lock on PostgreSQL, so two
        commands on one game run one after the other."""
        if self._writer is not None:
            with self._writing():
                self._end_batch()         # the plain commands' shared transaction first
                with self._locked(game_id) as x:
                    yield x
            return
        with self._locked(game_id) as x:
            yield x
        if self._notify:
            self.notify(game_id)

    @contextmanager
    def _locked(self, game_id: int):
        from . import models
        with self.Session() as s, s.begin():
            _IMMEDIATE.on = True      # SQLite: BEGIN IMMEDIATE takes the write lock at once
            try:
                s.connection()        # (a deferred BEGIN could meet a stale WAL snapshot)
            finally:
                _IMMEDIATE.on = False
            st = __getattr__("_BUMP")
            n = s.execute(st, {"gid": game_id, "now": now_iso()}).rowcount
            if not n:
                raise LookupError(game_id)
            yield s, s.get(models.GameRow, game_id)

    @property
    def optimistic(self) -> bool:
        """Whether a plain command works on its game before it takes the write lock
        (``peek``, then ``hot(expect=rev)``): on a SQLite file, whose one write lock is
        shared by every game, so that the lock is held only while the rows are written."""
        return self.path is not None

    def peek(self, game_id: int):
        """``(tx, row)`` to read with outside any write transaction (a SQLite file only):
        what a plain command reads before ``hot(game_id, expect=row.rev)``. LookupError
        when there is no such game."""
        from .hot import SqliteTx
        tx = SqliteTx(self._lite_conn())
        return tx, tx.read(game_id)

    @contextmanager
    def hot(self, game_id: int, expect: int | None = None):
        """The write transaction of a plain command (a move, a vote, an answer): the same
        promise as ``locked`` (the row's ``rev`` bumped first, one transaction, a
        notification on PostgreSQL) with hand-written statements and no ORM object:
        ``(tx, row)``, ``row`` a read-only ``GameRecord``. On a SQLite file it runs on the
        stdlib ``sqlite3`` module (this thread's connection, opened as the engine opens
        its own); elsewhere on a SQLAlchemy Core connection. With ``expect`` the bump
        happens only if the row's revision is still ``expect`` (``hot.Conflict``
        otherwise: another command came first)."""
        from .hot import CoreTx, SqliteTx
        if self.path is None and self.psycopg:
            with self._pg_hot(game_id, expect) as x:
                yield x
            if self._notify:
                self.notify(game_id)
            return
        if self.path is None:
            with self.engine.begin() as c:
                tx = CoreTx(c, self.dialect)
                yield tx, tx.bump(game_id, now_iso(), expect)
            if self._notify:
                self.notify(game_id)
            return
        assert self._writer is not None
        left: _Batch | None = None            # a shared transaction on this thread's
        try:                                  # connection, left open for the others
            with self._writing():
                b = self._batch
                if b is None:
                    c = self._lite_conn()
                    c.execute("BEGIN IMMEDIATE")
                    b = self._batch = _Batch(c)
                c = b.conn
                saved = False
                try:
                    c.execute("SAVEPOINT hot")
                    saved = True
                    tx = SqliteTx(c, getattr(self._hint, "link", None))
                    yield tx, tx.bump(game_id, now_iso(), expect)
                    c.execute("RELEASE hot")
                except BaseException:
                    self._take_back(b, saved)
                    if self._batch is b and not self._more(b):
                        with suppress(Exception):     # the others' failure: theirs
                            self._end_batch()
                    if self._batch is b and b.conn is getattr(self._lite, "conn", None):
                        left = b
                    raise
                b.members += 1
                follower = self._more(b)
                if not follower:
                    self._end_batch()
            if follower:
                b.wait()
        finally:
            # this thread's connection is not used outside the lock (``peek``) while
            # the others write on it: wait until their commit
            if left is not None:
                left.done.wait()

    def _take_back(self, b: _Batch, saved: bool) -> None:
        """A failed command's rows out of the shared transaction (its savepoint), or,
        when SQLite dropped the whole transaction or the connection fails, the
        transaction given up: every member fails."""
        c = b.conn
        try:
            if c.in_transaction:
                if saved:
                    c.execute("ROLLBACK TO hot")
                    c.execute("RELEASE hot")
                return
        except Exception:  # noqa: BLE001 - the transaction cannot go on
            with suppress(Exception):
                c.execute("ROLLBACK")
        if self._batch is b:
            self._batch = None
        b.fail()

    #: the most plain commands one shared SQLite transaction takes (``hot``)
    BATCH = 16

    @contextmanager
    def _writing(self):
        """Hold ``_writer`` (SQLite), counted while waiting for it (``_more``)."""
        with self._want_lock:
            self._want += 1
        try:
            self._writer.acquire()
        finally:
            with self._want_lock:
                self._want -= 1
        try:
            yield
        finally:
            self._writer.release()

    def _more(self, b: _Batch) -> bool:
        """Whether the holder of ``_writer`` leaves the shared transaction open for the
        next one: another thread is waiting for the lock (it will join the transaction,
        or commit it before a command of its own), and the transaction is not full."""
        return self._want > 0 and b.members < self.BATCH

    def _end_batch(self) -> None:
        """Commit the plain commands' shared SQLite transaction, if one is open (with
        ``_writer`` held), and wake its members: each answers only now, after the one
        commit that made all of them durable."""
        b, self._batch = self._batch, None
        if b is None:
            return
        c = b.conn
        try:
            c.execute("COMMIT" if b.members else "ROLLBACK")
        except BaseException as e:
            if c.in_transaction:
                with suppress(Exception):
                    c.execute("ROLLBACK")
            b.fail(e)
            raise
        b.ok()

    @property
    def psycopg(self) -> bool:
        """Whether this is PostgreSQL through psycopg 3 (the hot path's own statements,
        ``_pg_hot``, ``link_seat``)."""
        if self._psycopg3 is None:
            self._psycopg3 = self.path is None and self.engine.dialect.name == "postgresql" \
                and self.engine.dialect.driver == "psycopg"
        return self._psycopg3

    @contextmanager
    def _raw(self):
        """A pooled connection's own psycopg connection, in autocommit mode (our
        statements begin and end the transaction, so psycopg never waits for the
        answer to a ``BEGIN`` of its own). A few of them stay checked out of the pool
        between uses, already in autocommit mode (``_RAW_KEPT``: a use then costs no
        pool check-out and check-in, nor two mode switches); the others go back to the
        pool. A driver error comes out as SQLAlchemy's ``DBAPIError``,
        ``connection_invalidated`` when the connection is lost: the pool then drops it
        and every connection as old, as SQLAlchemy does itself, the kept ones too, and
        the host's command retries it as on the other paths."""
        import psycopg
        from psycopg import pq
        fairy = None
        with self._raw_lock:
            if self._raw_free:
                fairy = self._raw_free.pop()
        if fairy is None:
            fairy = self.engine.raw_connection()
            fairy.driver_connection.autocommit = True
        raw = fairy.driver_connection
        try:
            yield raw
        except psycopg.Error as e:
            from sqlalchemy.exc import DBAPIError
            lost = bool(raw.closed or raw.broken)
            if lost:
                self.engine.pool._invalidate(fairy, e)
                self._drop_kept()
            raise DBAPIError.instance(None, None, e, psycopg.Error,
                                      connection_invalidated=lost) from None
        finally:
            if not raw.closed and not raw.broken:
                if raw.pgconn.transaction_status == pq.TransactionStatus.IDLE:
                    with self._raw_lock:
                        if self._raw_free is not None and \
                                len(self._raw_free) < self._raw_kept:
                            self._raw_free.append(fairy)
                            fairy = None
                if fairy is not None:
                    try:
                        raw.autocommit = False
                    except psycopg.Error:
                        fairy.invalidate()
            if fairy is not None:
                fairy.close()

    def _drop_kept(self) -> None:
        """The kept connections of ``_raw`` given up (one was found lost: the server
        restarted, or dropped them all), or back to the pool (``close``)."""
        with self._raw_lock:
            kept, self._raw_free = self._raw_free, []
        for fairy in kept:
            with suppress(Exception):
                fairy.invalidate()

    @contextmanager
    def checking_link(self, token_hash: str, seat: tuple[int, str] | None = None):
        """Within the block, this thread's plain commands will check the player's link
        with this hash (the web app's moves, votes and answers): the link's row is then
        read with the game row's bump, still after it, under the row's lock (PostgreSQL:
        in the bump's round trip; SQLite: by the bump's own statement), not by a
        statement of its own. ``seat``: ``(game id, seat)`` the app found for the link;
        on PostgreSQL a command on a cached game then checks the link in the one
        statement that writes it (``one_shot``). Only a hint: the check itself is the
        command's, as everywhere."""
        self._hint.link = token_hash
        self._hint.seat = (token_hash, *seat) if seat is not None else None
        try:
            yield
        finally:
            self._hint.link = None
            self._hint.seat = None

    @contextmanager
    def _pg_hot(self, game_id: int, expect: int | None):
        """``hot`` on PostgreSQL through psycopg: the statements in pipeline mode
        (``hot.PgTx``), ``BEGIN`` sent with the bump, the writes with the ``COMMIT``."""
        import psycopg

        from .hot import PgTx
        with self._raw() as raw:
            try:
                with raw.pipeline() as p:
                    tx = PgTx(raw, p, self.engine.dialect,
                              getattr(self._hint, "link", None))
                    tx.begin()
                    yield tx, tx.bump(game_id, now_iso(), expect)
                    tx.commit()        # sent with the queued writes: one answer
            except BaseException:
                if not raw.closed and not raw.broken:
                    with suppress(psycopg.Error):
                        raw.execute("ROLLBACK")
                raise

    @property
    def one_shot_ok(self) -> bool:
        """Whether a plain command worked out on a cached game may be written in one
        statement (``one_shot``): PostgreSQL through psycopg."""
        return self.path is None and self.psycopg

    def link_hint(self) -> tuple | None:
        """``(token hash, game id, seat)``: the link this thread's plain command will
        check and the seat the web app found for it (``checking_link``), or None."""
        return getattr(self._hint, "seat", None)

    def one_shot(self, game_id: int, row, link: tuple | None, fields: dict | None,
                 events: list[tuple], records: list[dict], posts: list[str]):
        """PostgreSQL: a plain command worked out on the game as of its ``row`` (a
        ``GameRecord`` from the process's cache) written in one statement, one round
        trip, its own transaction (``hot.one_shot_sql``, run by ``hot.lean_exec``):
        stored only if the game's row is still at ``row.rev`` and the player's ``link``
        still names the seat; the statement returns once the commit is on the disk, as
        ``hot``'s ``COMMIT`` does. The bumped row, or None when nothing was written
        (another command came first, the link changed, no such game): the command then
        runs on ``hot``. A lost connection raises SQLAlchemy's ``DBAPIError``
        (``connection_invalidated``): whether it committed is then unknown (``landed``
        tells)."""
        from .hot import lean_exec, one_shot_sql
        now = now_iso()
        sql, params = one_shot_sql(game_id, row.rev, now, link, fields, events, records,
                                   posts)
        with self._raw() as raw:
            res = lean_exec(raw, sql, params)
        if not res.ntuples:
            return None
        if self._notify:
            self.notify(game_id)
        return row.bumped(int(res.get_value(0, 0)), now)

    def landed(self, game_id: int, fields: dict):
        """After ``one_shot`` lost its connection: the game's row (a ``GameRecord``) if
        the command with exactly these ``fields`` is stored (its events start at
        ``first_event``: no other live command's do), else None."""
        from .hot import _COLS, GameRecord
        with self._raw() as raw:
            r = raw.execute(
                f"SELECT {_COLS} FROM games WHERE id = %s AND EXISTS (SELECT 1 FROM "
                f"commands WHERE game_id = %s AND first_event = %s AND n_events = %s AND "
                f"kind = %s AND args = %s AND ops = %s AND at = %s AND NOT undone)",
                (game_id, game_id, fields["first_event"], fields["n_events"], fields["kind"],
                 fields["args"], fields["ops"], fields["at"])).fetchone()
        return GameRecord(r) if r is not None else None

    def notify(self, game_id: int) -> None:
        """PostgreSQL: tell every LISTENing process that the game changed, after the
        command's commit: one round trip on a connection of its own (``autocommit``; the
        simple query protocol runs both statements as one transaction) that does not wait
        for the disk (``synchronous_commit`` off: a lost notification only delays a live
        update until the safety poll). Sent inside the command's transaction, it would
        hold PostgreSQL's one notification lock through the commit's flush to the disk,
        so that no two commands could commit at once. A failure here is not the
        command's: the command is stored. In a web process (``notify_in_background``)
        the notification is handed to a thread of its own and the command answers at
        once."""
        if self._notifier is not None:
            self._notifier.add(int(game_id))
            return
        self._notify_now([int(game_id)])

    def notify_in_background(self) -> None:
        """From now on ``notify`` only queues the game's id: one thread sends the
        notifications, every game changed since its last one in one statement (a web
        process: the move's answer does not wait for a round trip that is not the
        move's). The command line keeps ``notify`` in the command (its process ends
        with the command). ``close`` sends what is still queued."""
        if self._notify and self._notifier is None:
            self._notifier = _Notifier(self)

    def _notify_now(self, game_ids) -> None:
        sql = ("SET LOCAL synchronous_commit TO OFF; SELECT "
               + ", ".join(f"pg_notify('{NOTIFY_CHANNEL}', '{int(g)}')" for g in game_ids))
        import psycopg
        from psycopg import pq
        with self._notify_lock:
            for _ in range(2):              # a dropped connection: once more on a new one
                try:
                    if self._notify_conn is None or self._notify_conn.closed:
                        url = self.engine.url.set(drivername="postgresql")
                        self._notify_conn = psycopg.connect(
                            url.render_as_string(hide_password=False), autocommit=True,
                            connect_timeout=5)
                    pg = self._notify_conn.pgconn  # libpq itself: no cursor, no adapters
                    res = pg.exec_(sql.encode())
                    if res.status != pq.ExecStatus.TUPLES_OK:
                        raise psycopg.errors.error_from_result(res)
                    return
                except Exception:  # noqa: BLE001 - the live update waits for the poll
                    self._drop_notify_conn()

    def _drop_notify_conn(self) -> None:
        c, self._notify_conn = self._notify_conn, None
        if c is not None:
            try:
                c.close()
            except Exception:  # noqa: BLE001 - closing is best effort
                pass

    def link_seat(self, token_hash: str) -> tuple[int, str] | None:
        """``(game id, seat)`` of a player's link by its token's hash, read on its own
        (no ORM): the web app's first look at a token."""
        from .hot import CoreTx, SqliteTx
        if self.path is not None:
            return SqliteTx(self._lite_conn()).link_seat(token_hash)
        if self.psycopg:                   # one statement, no transaction, no SQLAlchemy
            from .hot import lean_exec
            with self._raw() as raw:
                res = lean_exec(raw, "SELECT game_id, seat FROM player_links WHERE "
                                     "token_hash = $1::text", (token_hash,))
                if not res.ntuples:
                    return None
                return int(res.get_value(0, 0)), res.get_value(0, 1).decode(raw.info.encoding)
        # one statement outside any transaction (no BEGIN / ROLLBACK round trips)
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
            return CoreTx(c, self.dialect).link_seat(token_hash)

    def _lite_conn(self):
        """This thread's stdlib ``sqlite3`` connection to the file, opened with the
        engine's settings (foreign keys, WAL, ``synchronous=FULL``, a 60 s busy timeout,
        transactions begun by us)."""
        c = getattr(self._lite, "conn", None)
        if c is None:
            import sqlite3
            c = sqlite3.connect(self.path, timeout=60, isolation_level=None,
                                check_same_thread=False)
            c.execute("PRAGMA foreign_keys=ON")
            if self._wal:
                c.execute("PRAGMA journal_mode=WAL")
                c.execute("PRAGMA synchronous=FULL")      # durable at each commit
            self._lite.conn = c
            with self._lite_lock:
                self._lite_all.append(c)
        return c

    def is_db_error(self, e: BaseException) -> bool:
        """Whether ``e`` is the database's failure (either driver stack)."""
        import sqlite3
        if isinstance(e, sqlite3.Error):
            return True
        import sys
        exc = sys.modules.get("sqlalchemy.exc")   # not imported: it cannot be its error
        return exc is not None and isinstance(e, exc.DBAPIError)

    # ---- reading -----------------------------------------------------------------------
    @staticmethod
    def events(s, game_id: int) -> list[Event]:
        if getattr(s, "hot", False):
            return s.events(game_id)
        from sqlalchemy import select

        from .models import EventRow
        rows = s.execute(select(EventRow.type, EventRow.phase, EventRow.body)
                         .where(EventRow.game_id == game_id).order_by(EventRow.pos))
        return [event_from_json(t, p, b) for t, p, b in rows]

    @staticmethod
    def commands(s, game_id: int, live_only: bool = True) -> list:
        from sqlalchemy import select

        from .models import CommandRow
        q = select(CommandRow).where(CommandRow.game_id == game_id)
        if live_only:
            q = q.where(CommandRow.undone.is_(False))
        return list(s.scalars(q.order_by(CommandRow.seq)))

    @staticmethod
    def last_command(s, game_id: int):
        from sqlalchemy import select

        from .models import CommandRow
        return s.scalars(select(CommandRow).where(CommandRow.game_id == game_id,
                                                  CommandRow.undone.is_(False))
                         .order_by(CommandRow.seq.desc()).limit(1)).first()

    # ---- writing -----------------------------------------------------------------------
    @staticmethod
    def add_command(s, game_id: int, kind: str, args: dict, ops: list,
                    first: int, events: list[Event], before: dict | None = None,
                    result: dict | None = None):
        from sqlalchemy import func, select

        from .models import CommandRow, EventRow
        seq = (s.scalar(select(func.max(CommandRow.seq))
                        .where(CommandRow.game_id == game_id)) or 0) + 1
        cmd = CommandRow(game_id=game_id, seq=seq, kind=kind, args=_dumps(args),
                         ops=_dumps(ops), before=_dumps(before or {}),
                         result=_dumps(result or {}), first_event=first,
                         n_events=len(events), undone=False, at=now_iso())
        s.add(cmd)
        s.flush()
        if events:
            s.execute(EventRow.__table__.insert(), [
                {"game_id": game_id, "pos": first + i, "command_id": cmd.id, "type": e.type,
                 "phase": e.phase, "body": event_to_json(e)} for i, e in enumerate(events)])
        return cmd

    @staticmethod
    def add_command_fast(s, game_id: int, kind: str, args: dict, ops: list,
                         first: int, events: list[Event], before: dict | None = None,
                         result: dict | None = None) -> int:
        """``add_command`` with prepared statements and no ORM object: the command's id
        (the hot path of every move and vote)."""
        fields = Store.command_fields(game_id, kind, args, ops, first, len(events), before,
                                      result)
        if getattr(s, "hot", False):
            return s.add_command(fields, [
                (game_id, first + i, e.type, e.phase, event_to_json(e))
                for i, e in enumerate(events)])
        seq = (s.execute(__getattr__("_MAX_SEQ"), {"gid": game_id}).scalar() or 0) + 1
        cid = s.execute(__getattr__("_ADD_CMD"), {**fields, "seq": seq}).scalar_one()
        if events:
            s.execute(__getattr__("_ADD_EVENT"), [
                {"game_id": game_id, "pos": first + i, "command_id": cid, "type": e.type,
                 "phase": e.phase, "body": event_to_json(e)} for i, e in enumerate(events)])
        return cid

    @staticmethod
    def command_fields(game_id: int, kind: str, args: dict, ops: list, first: int,
                       n_events: int, before: dict | None = None,
                       result: dict | None = None) -> dict:
        """A command's row as the hot paths write it (its ``seq`` aside)."""
        return {"game_id": game_id, "kind": kind, "args": _dumps(args), "ops": _dumps(ops),
                "before": _dumps(before or {}), "result": _dumps(result or {}),
                "first_event": first, "n_events": n_events, "undone": False,
                "at": now_iso()}

    @staticmethod
    def add_vote_records(s, game_id: int, cid: int, records: list[dict]) -> None:
        rows = [{"game_id": game_id, "command_id": cid, **r} for r in records]
        if getattr(s, "hot", False):
            s.add_vote_records(rows)
        else:
            s.execute(__getattr__("ADD_VOTE_RECORD"), rows)

    @staticmethod
    def add_imported_posts(s, game_id: int, cid: int, keys: list[str]) -> None:
        if getattr(s, "hot", False):
            s.add_imported_posts(game_id, cid, keys)
            return
        from .models import ImportedPostRow
        for k in keys:
            s.add(ImportedPostRow(game_id=game_id, post_key=k, command_id=cid))
        s.flush()

    @staticmethod
    def drop_command_effects(s, cmd) -> None:
        """Delete what ``cmd`` wrote (its events and vote records) and mark it undone."""
        from sqlalchemy import delete

        from .models import EventRow, ImportedPostRow, VoteRecordRow
        for t in (EventRow, VoteRecordRow, ImportedPostRow):
            s.execute(delete(t).where(t.command_id == cmd.id))
        cmd.undone = True


NOTIFY_CHANNEL = "mafiahost_games"


class _Batch:
    """The write transaction that plain commands of one process share on a SQLite file
    (``Store.hot``: group commit). While a command writes its rows, the next ones
    finish their rules and wait for the write lock; rather than commit (one ``fsync``
    each, one after the other), the holder leaves the transaction open for them, each
    command's rows inside a savepoint of their own (a refused or failing command takes
    back only its rows), and the last of them commits for all: one ``fsync`` for the
    lot. No command answers before that commit: each member waits for it (``wait``),
    and fails if it fails, so an acknowledged move is on the disk as before."""

    __slots__ = ("conn", "done", "error", "members")

    def __init__(self, conn):
        self.conn = conn
        self.members = 0
        self.done = threading.Event()
        self.error: BaseException | None = None

    def ok(self) -> None:
        self.done.set()

    def fail(self, e: BaseException | None = None) -> None:
        import sqlite3
        self.error = sqlite3.OperationalError(
            str(e) if e is not None else "the shared transaction was rolled back")
        self.done.set()

    def wait(self) -> None:
        self.done.wait()
        if self.error is not None:
            import sqlite3
            raise sqlite3.OperationalError(str(self.error))


class _Notifier(threading.Thread):
    """``Store.notify_in_background``'s thread: sends ``NOTIFY`` for every game id queued
    since its last round trip, in one statement."""

    def __init__(self, store: Store):
        super().__init__(daemon=True, name="mafiahost-notify")
        self.store = store
        self.cv = threading.Condition()
        self.pending: dict[int, None] = {}      # ordered, each game once
        self.stopping = False
        self.start()

    def add(self, game_id: int) -> None:
        with self.cv:
            self.pending[game_id] = None
            self.cv.notify()

    def stop(self) -> None:
        with self.cv:
            self.stopping = True
            self.cv.notify()
        self.join(10)

    def run(self) -> None:
        while True:
            with self.cv:
                while not self.pending and not self.stopping:
                    self.cv.wait()
                ids, self.pending = list(self.pending), {}
                stopping = self.stopping
            if ids:
                self.store._notify_now(ids)
            if stopping:
                return


def _statements() -> dict:
    """The ORM path's prepared statements (made when first used)."""
    from sqlalchemy import bindparam, func, select, text, update

    from .models import CommandRow, EventRow, GameRow, VoteRecordRow
    _G, _C = GameRow.__table__, CommandRow.__table__
    return {
        "_BUMP": (update(_G).where(_G.c.id == bindparam("gid"))
                  .values(rev=_G.c.rev + 1, updated_at=bindparam("now"))),
        "_NOTIFY": text(f"SELECT pg_notify('{NOTIFY_CHANNEL}', :gid)"),
        "_MAX_SEQ": select(func.max(_C.c.seq)).where(_C.c.game_id == bindparam("gid")),
        "_ADD_CMD": _C.insert().returning(_C.c.id),
        "_ADD_EVENT": EventRow.__table__.insert(),
        "ADD_VOTE_RECORD": VoteRecordRow.__table__.insert(),
    }


def _dumps(x) -> str:
    return json.dumps(x, ensure_ascii=False, default=_jsonable)


_IMMEDIATE = threading.local()     # set while ``Store.locked`` begins its transaction


def _sqlite_transactions(engine, wal: bool = True) -> None:
    """Let SQLAlchemy, not the sqlite3 module, begin transactions (the documented recipe),
    so every statement of a command is inside its one transaction. A write transaction
    (``Store.locked``) begins IMMEDIATE: it waits for the write lock up front."""
    from sqlalchemy import event

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _rec):
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        if wal:
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")      # durable at each commit
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE" if getattr(_IMMEDIATE, "on", False)
                             else "BEGIN")


def test_pause(kind: str) -> None:
    """The crash tests' hook: with ``MAFIAHOST_TEST_PAUSE=<kind>`` the transaction of that
    kind stops before its commit, writes the process id to ``MAFIAHOST_TEST_PAUSE_FILE``
    and sleeps ``MAFIAHOST_TEST_PAUSE_SECONDS`` (the test kills it there)."""
    if os.environ.get("MAFIAHOST_TEST_PAUSE") != kind:
        return
    path = os.environ.get("MAFIAHOST_TEST_PAUSE_FILE")
    if path:                      # written whole, then renamed: never seen half-made
        with open(path + ".tmp", "w") as f:
            f.write(str(os.getpid()))
        os.replace(path + ".tmp", path)
    import time
    time.sleep(float(os.environ.get("MAFIAHOST_TEST_PAUSE_SECONDS", "60")))


_STORES: dict[str, Store] = {}


def open_store(db: str | None = None, wal: bool = True, pool: int | None = None) -> Store:
    """The store for ``db`` (one per URL in a process); ``wal``, ``pool`` as in ``Store``."""
    url = database_url(db)
    st = _STORES.get(url)
    if st is None:
        st = _STORES[url] = Store(db, wal, pool)
    return st
