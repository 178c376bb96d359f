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
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import (
    bindparam,
    create_engine,
    delete,
    event,
    func,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from ..engine.events import Event
from .models import (
    Base,
    CommandRow,
    EventRow,
    GameHostRow,
    GameRow,
    HostAccountRow,
    HostSessionRow,
    ImportedPostRow,
    PlayerLinkRow,
    VoteRecordRow,
    WebKeyRow,
)

__all__ = ["HEAD", "Base", "CommandRow", "EventRow", "GameHostRow", "GameRow",
           "HostAccountRow", "HostSessionRow", "ImportedPostRow",
           "PlayerLinkRow", "Store", "StoreError", "VoteRecordRow", "WebKeyRow",
           "database_url", "db_error_sentence", "event_from_json", "event_to_json",
           "now_iso", "open_store"]

DEFAULT_FILE = "mafiahost.db"
HEAD = "0003"       # the latest migration; tests check it is the Alembic head
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


class Store:
    def __init__(self, db: str | None = None, wal: bool = True, pool: int | None = None):
        """``wal``: on SQLite, use the write-ahead log (readers never wait for the writer,
        a commit appends to the log instead of rewriting pages through a rollback
        journal) with ``synchronous=FULL``: a commit returns only after the log is on the
        disk, so an acknowledged move survives a power cut, not only a crash of the
        process (``NORMAL`` in WAL mode may lose the last commits on a power cut). Every
        command and the web app open SQLite so; ``wal=False`` keeps SQLite's rollback
        journal (tests of the old files). ``pool``: how many connections to keep (a web
        process serves many requests at once)."""
        self.url = database_url(db)
        kw = {}
        if self.url.startswith("sqlite"):
            kw["connect_args"] = {"timeout": 60}
        if pool:
            kw.update(pool_size=pool, max_overflow=pool // 2)
        # writers of this process queue on a lock instead of polling SQLite's busy
        # handler (which sleeps up to 100 ms between tries); other processes still
        # wait on SQLite's own lock
        self._writer = threading.Lock() if self.url.startswith("sqlite") else None
        if os.environ.get("MAFIAHOST_SQL_ECHO"):      # every statement to the log
            kw["echo"] = True
        try:
            self.engine: Engine = create_engine(self.url, **kw)
        except Exception as e:  # noqa: BLE001 - any driver/URL error becomes a sentence
            raise StoreError(f"Cannot use the database '{db}': {e}") from None
        if self.engine.dialect.name == "sqlite":
            _sqlite_transactions(self.engine, wal)
        # PostgreSQL: every command tells the other processes which game changed
        # (``NOTIFY mafiahost_games, '<id>'``; the web app's live updates LISTEN)
        self._notify = self.engine.dialect.name == "postgresql"
        self.Session = sessionmaker(self.engine, expire_on_commit=False)
        self.migrate()

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def migrate(self) -> None:
        """Create or upgrade the schema to the latest migration (a no-op when current)."""
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
        self.engine.dispose()

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
            with self._writer:
                with self._locked(game_id) as x:
                    yield x
            return
        with self._locked(game_id) as x:
            yield x

    @contextmanager
    def _locked(self, game_id: int):
        with self.Session() as s, s.begin():
            _IMMEDIATE.on = True      # SQLite: BEGIN IMMEDIATE takes the write lock at once
            try:
                s.connection()        # (a deferred BEGIN could meet a stale WAL snapshot)
            finally:
                _IMMEDIATE.on = False
            n = s.execute(_BUMP, {"gid": game_id, "now": now_iso()}).rowcount
            if not n:
                raise LookupError(game_id)
            if self._notify:
                # delivered to every LISTENing process at the commit, never on a rollback
                s.execute(_NOTIFY, {"gid": str(game_id)})
            yield s, s.get(GameRow, game_id)

    # ---- reading -----------------------------------------------------------------------
    @staticmethod
    def events(s: Session, game_id: int) -> list[Event]:
        rows = s.execute(select(EventRow.type, EventRow.phase, EventRow.body)
                         .where(EventRow.game_id == game_id).order_by(EventRow.pos))
        return [event_from_json(t, p, b) for t, p, b in rows]

    @staticmethod
    def commands(s: Session, game_id: int, live_only: bool = True) -> list[CommandRow]:
        q = select(CommandRow).where(CommandRow.game_id == game_id)
        if live_only:
            q = q.where(CommandRow.undone.is_(False))
        return list(s.scalars(q.order_by(CommandRow.seq)))

    @staticmethod
    def last_command(s: Session, game_id: int) -> CommandRow | None:
        return s.scalars(select(CommandRow).where(CommandRow.game_id == game_id,
                                                  CommandRow.undone.is_(False))
                         .order_by(CommandRow.seq.desc()).limit(1)).first()

    # ---- writing -----------------------------------------------------------------------
    @staticmethod
    def add_command(s: Session, game_id: int, kind: str, args: dict, ops: list,
                    first: int, events: list[Event], before: dict | None = None,
                    result: dict | None = None) -> CommandRow:
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
    def add_command_fast(s: Session, game_id: int, kind: str, args: dict, ops: list,
                         first: int, events: list[Event], before: dict | None = None,
                         result: dict | None = None) -> int:
        """``add_command`` with prepared statements and no ORM object: the command's id
        (the hot path of every move and vote)."""
        seq = (s.execute(_MAX_SEQ, {"gid": game_id}).scalar() or 0) + 1
        cid = s.execute(_ADD_CMD, {
            "game_id": game_id, "seq": seq, "kind": kind, "args": _dumps(args),
            "ops": _dumps(ops), "before": _dumps(before or {}),
            "result": _dumps(result or {}), "first_event": first,
            "n_events": len(events), "undone": False, "at": now_iso()}).scalar_one()
        if events:
            s.execute(_ADD_EVENT, [
                {"game_id": game_id, "pos": first + i, "command_id": cid, "type": e.type,
                 "phase": e.phase, "body": event_to_json(e)} for i, e in enumerate(events)])
        return cid

    @staticmethod
    def drop_command_effects(s: Session, cmd: CommandRow) -> None:
        """Delete what ``cmd`` wrote (its events and vote records) and mark it undone."""
        for t in (EventRow, VoteRecordRow, ImportedPostRow):
            s.execute(delete(t).where(t.command_id == cmd.id))
        cmd.undone = True


_G, _C = GameRow.__table__, CommandRow.__table__
_BUMP = (update(_G).where(_G.c.id == bindparam("gid"))
         .values(rev=_G.c.rev + 1, updated_at=bindparam("now")))
NOTIFY_CHANNEL = "mafiahost_games"
_NOTIFY = text(f"SELECT pg_notify('{NOTIFY_CHANNEL}', :gid)")
_MAX_SEQ = select(func.max(_C.c.seq)).where(_C.c.game_id == bindparam("gid"))
_ADD_CMD = _C.insert().returning(_C.c.id)
_ADD_EVENT = EventRow.__table__.insert()
ADD_VOTE_RECORD = VoteRecordRow.__table__.insert()


def _dumps(x) -> str:
    return json.dumps(x, ensure_ascii=False, default=_jsonable)


_IMMEDIATE = threading.local()     # set while ``Store.locked`` begins its transaction


def _sqlite_transactions(engine: Engine, wal: bool = True) -> None:
    """Let SQLAlchemy, not the sqlite3 module, begin transactions (the documented recipe),
    so every statement of a command is inside its one transaction. A write transaction
    (``Store.locked``) begins IMMEDIATE: it waits for the write lock up front."""
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
