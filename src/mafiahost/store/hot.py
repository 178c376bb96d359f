"""The store's hot path: the transaction of a plain command (a move, a vote, an answer)
with hand-written statements and no ORM object (``Store.hot``).

``SqliteTx`` runs on a stdlib ``sqlite3`` connection (no SQLAlchemy import at all, which
is most of a command-line call's start-up); ``CoreTx`` on a SQLAlchemy Core connection
(PostgreSQL, and SQLite URLs the stdlib cannot open as given). Both write exactly the rows
``Store.add_command_fast`` writes through the ORM path, in one transaction begun by the
game row's ``rev`` bump (the write lock on SQLite, the row lock on PostgreSQL).

``bump(expect=rev)`` is the compare-and-set of the optimistic path (``Store.peek``): the
command was worked out on the game at revision ``rev`` outside the write lock, and is
written only if the row is still at ``rev`` (``Conflict`` otherwise, and the command runs
again inside the lock)."""

from __future__ import annotations

from ..engine.events import Event

#: the ``games`` columns, in the order of the table (``models.GameRow``)
GAME_COLUMNS = ("id", "name", "ruleset", "ruleset_version", "options", "seed", "salt",
                "commitment", "dealt", "lang", "fmt", "deadline", "deadline_phase", "rev",
                "created_at", "updated_at")
_COLS = ", ".join(GAME_COLUMNS)
_CMD_COLS = ("game_id", "kind", "args", "ops", "before", "result", "first_event",
             "n_events", "undone", "at")
_VOTE_COLS = ("game_id", "command_id", "phase", "voter", "target", "at", "source",
              "post_key", "status", "note")


class Conflict(Exception):
    """``Store.hot(expect=rev)``: the game's row is no longer at that revision."""


class GameRecord:
    """A game's row as the hot path read it: the columns as attributes, read-only (a
    command that changes the row itself, such as a deadline, runs on the ORM path)."""

    __slots__ = GAME_COLUMNS

    def __init__(self, values):
        for k, v in zip(GAME_COLUMNS, values, strict=True):
            object.__setattr__(self, k, v)
        object.__setattr__(self, "dealt", bool(self.dealt))

    def __setattr__(self, name, value):
        raise AttributeError(f"the hot path's game row is read-only ({name})")

    def bumped(self, rev: int, updated_at: str) -> GameRecord:
        """The same row after a bump to ``rev`` at ``updated_at`` (the only columns a
        plain command's bump changes)."""
        return GameRecord([rev if k == "rev" else updated_at if k == "updated_at"
                           else getattr(self, k) for k in GAME_COLUMNS])


def _q(col: str) -> str:
    return f'"{col}"'


#: a command's row, numbered inside its own statement (``?`` parameters: the command's
#: columns, then the game id again: ``_command_params``)
_INSERT_COMMAND = (f"INSERT INTO commands (seq, {', '.join(_q(k) for k in _CMD_COLS)}) "
                   f"SELECT COALESCE(MAX(seq), 0) + 1, {', '.join('?' * len(_CMD_COLS))} "
                   f"FROM commands WHERE game_id = ? RETURNING id")


def _command_params(f: dict) -> list:
    return [*[f[k] for k in _CMD_COLS], f["game_id"]]


def _pg_command_with_events(params: list, events: list[tuple]) -> str:
    """PostgreSQL: the command and its events in one statement (a data-modifying
    ``WITH``), answering the command's id; the events' values are added to ``params``."""
    values = ", ".join("(?::integer, ?::integer, ?, ?, ?)" for _ in events)
    for row in events:
        params.extend(row)
    return (f"WITH c AS ({_INSERT_COMMAND}), e AS (INSERT INTO events (game_id, pos, "
            f"command_id, type, phase, body) SELECT v.g, v.p, c.id, v.t, v.ph, v.b FROM c, "
            f"(VALUES {values}) AS v (g, p, t, ph, b)) SELECT id FROM c")


class SqliteTx:
    """A write transaction on a stdlib ``sqlite3`` connection (begun IMMEDIATE by
    ``Store.hot``)."""

    hot = True
    dialect = "sqlite"

    def __init__(self, conn, link: str | None = None):
        """``link``: as ``PgTx``'s, the hash of the player's link this transaction will
        check (``Store.checking_link``): read by the bump's own statement (one statement
        less while the file's write lock is held), and ``link_seat`` answers from it."""
        self.c = conn
        self._link = link
        self._seat: tuple | None = None

    def execute(self, sql: str, params=()):
        return self.c.execute(sql, params)

    def read(self, game_id: int) -> GameRecord:
        r = self.c.execute(f"SELECT {_COLS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if r is None:
            raise LookupError(game_id)
        return GameRecord(r)

    def bump(self, game_id: int, now: str, expect: int | None = None) -> GameRecord:
        cols, link = _COLS, ()
        if self._link is not None:
            cols += _LINK_COLS
            link = (self._link, self._link)
        if expect is None:
            r = self.c.execute(f"UPDATE games SET rev = rev + 1, updated_at = ? WHERE id = ? "
                               f"RETURNING {cols}", (now, game_id, *link)).fetchone()
        else:
            r = self.c.execute(f"UPDATE games SET rev = rev + 1, updated_at = ? WHERE id = ? "
                               f"AND rev = ? RETURNING {cols}",
                               (now, game_id, expect, *link)).fetchone()
            if r is None:
                raise Conflict(game_id)
        if r is None:
            raise LookupError(game_id)
        if link:
            n = len(GAME_COLUMNS)
            self._seat = (r[n], r[n + 1])
            r = r[:n]
        return GameRecord(r)

    def events(self, game_id: int) -> list[Event]:
        from . import event_from_json
        return [event_from_json(t, p, b) for t, p, b in self.c.execute(
            "SELECT type, phase, body FROM events WHERE game_id = ? ORDER BY pos",
            (game_id,))]

    def add_command(self, f: dict, events: list[tuple]) -> int:
        (cid,) = self.c.execute(_INSERT_COMMAND, _command_params(f)).fetchone()
        if events:
            self.c.executemany("INSERT INTO events (game_id, pos, command_id, type, phase, "
                               "body) VALUES (?, ?, ?, ?, ?, ?)",
                               [(g, p, cid, t, ph, b) for g, p, t, ph, b in events])
        return cid

    def add_vote_records(self, rows: list[dict]) -> None:
        self.c.executemany(
            f"INSERT INTO vote_records ({', '.join(_q(k) for k in _VOTE_COLS)}) "
            f"VALUES ({', '.join('?' * len(_VOTE_COLS))})",
            [tuple(r.get(k) for k in _VOTE_COLS) for r in rows])

    def add_imported_posts(self, game_id: int, cid: int, keys: list[str]) -> None:
        self.c.executemany("INSERT INTO imported_posts (game_id, post_key, command_id) "
                           "VALUES (?, ?, ?)", [(game_id, k, cid) for k in keys])

    def link_seat(self, token_hash: str) -> tuple[int, str] | None:
        if self._seat is not None and token_hash == self._link:
            seat, self._seat = self._seat, None               # read by the bump
            return seat if seat[0] is not None else None
        r = self.c.execute("SELECT game_id, seat FROM player_links WHERE token_hash = ?",
                           (token_hash,)).fetchone()
        return (r[0], r[1]) if r else None


#: the bump's own read of a link (SQLite: scalar subqueries in ``RETURNING``)
_LINK_COLS = (", (SELECT game_id FROM player_links WHERE token_hash = ?), "
              "(SELECT seat FROM player_links WHERE token_hash = ?)")


class CoreTx:
    """A write transaction on a SQLAlchemy Core connection (``engine.begin()``): the same
    statements as ``SqliteTx`` in the driver's own parameter style, each one round trip
    (the row bump, the notification and the row read are one statement on PostgreSQL).
    A connection lost underneath raises SQLAlchemy's ``DBAPIError`` with
    ``connection_invalidated`` set, which the host's command retries once."""

    hot = True

    def __init__(self, conn, dialect: str):
        self.c = conn
        self.dialect = dialect
        self.pg = dialect == "postgresql"

    def execute(self, statement, params=None):
        """A SQLAlchemy statement (``text()``, ``select()``…) in this transaction."""
        return self.c.execute(statement, params) if params is not None \
            else self.c.execute(statement)

    def _sql(self, sql: str, params):
        if self.pg:
            sql = sql.replace("?", "%s")
        return self.c.exec_driver_sql(sql, params)

    def bump(self, game_id: int, now: str, expect: int | None = None) -> GameRecord:
        if expect is None:
            r = self._sql(f"UPDATE games SET rev = rev + 1, updated_at = ? WHERE id = ? "
                          f"RETURNING {_COLS}", (now, game_id)).fetchone()
        else:
            r = self._sql(f"UPDATE games SET rev = rev + 1, updated_at = ? WHERE id = ? "
                          f"AND rev = ? RETURNING {_COLS}", (now, game_id, expect)).fetchone()
            if r is None:
                raise Conflict(game_id)
        if r is None:
            raise LookupError(game_id)
        return GameRecord(tuple(r))

    def events(self, game_id: int) -> list[Event]:
        from . import event_from_json
        return [event_from_json(t, p, b) for t, p, b in self._sql(
            "SELECT type, phase, body FROM events WHERE game_id = ? ORDER BY pos",
            (game_id,))]

    def add_command(self, f: dict, events: list[tuple]) -> int:
        params = _command_params(f)
        if self.pg and events:
            # one statement, one round trip: the command and its events
            (cid,) = self._sql(_pg_command_with_events(params, events),
                               tuple(params)).fetchone()
            return cid
        (cid,) = self._sql(_INSERT_COMMAND, tuple(params)).fetchone()
        if events:
            self._sql("INSERT INTO events (game_id, pos, command_id, type, phase, body) "
                      "VALUES (?, ?, ?, ?, ?, ?)",
                      [(g, p, cid, t, ph, b) for g, p, t, ph, b in events])
        return cid

    def add_vote_records(self, rows: list[dict]) -> None:
        self._sql(f"INSERT INTO vote_records ({', '.join(_q(k) for k in _VOTE_COLS)}) "
                  f"VALUES ({', '.join('?' * len(_VOTE_COLS))})",
                  [tuple(r.get(k) for k in _VOTE_COLS) for r in rows])

    def add_imported_posts(self, game_id: int, cid: int, keys: list[str]) -> None:
        self._sql("INSERT INTO imported_posts (game_id, post_key, command_id) "
                  "VALUES (?, ?, ?)", [(game_id, k, cid) for k in keys])

    def link_seat(self, token_hash: str) -> tuple[int, str] | None:
        r = self._sql("SELECT game_id, seat FROM player_links WHERE token_hash = ?",
                      (token_hash,)).fetchone()
        return (r[0], r[1]) if r else None


#: ``PgTx.add_command``'s answer: the command's id is PostgreSQL's, read back in SQL by
#: what follows it in the same transaction (``currval`` of the ``commands.id`` sequence,
#: which only this session's last insert sets), so the insert need not wait for it
NEW_COMMAND = "currval(pg_get_serial_sequence('commands', 'id'))"


class PendingId:
    """The id of the command ``PgTx.add_command`` has sent but not waited for."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<the command just inserted>"


PENDING = PendingId()


class PgTx:
    """A write transaction on a psycopg connection in pipeline mode (PostgreSQL's hot
    path, ``Store.hot``): the same statements as ``CoreTx``, sent without waiting for an
    answer nobody needs yet. A statement whose answer is read (the row bump, a link, the
    events) waits for everything sent before it; the writes (the command, its events,
    vote records) are sent with the ``COMMIT`` and answered together. So a move costs
    three round trips to the server: ``BEGIN`` with the bump, the link check, the writes
    with the commit (``CoreTx``: six). Statements repeated on a connection are prepared
    by psycopg (its ``prepare_threshold``)."""

    hot = True
    dialect = "postgresql"

    def __init__(self, conn, pipeline, sa_dialect=None, link: str | None = None):
        """``link``: the hash of the player's link this transaction will check (the web
        app says so beforehand: ``Store.checking_link``); its row is read right after
        the bump, in the same round trip, and ``link_seat`` answers from it."""
        self.c = conn
        self.p = pipeline
        self.cur = conn.cursor()
        self._sa_dialect = sa_dialect
        self._link = link
        self._link_cur = None

    def _sql(self, sql: str, params=()):
        return self.cur.execute(sql.replace("?", "%s"), params)

    def execute(self, statement, params=None):
        """A statement in this transaction, answered before it returns (a ``text()`` or
        other SQLAlchemy statement, or plain SQL with ``?`` parameters): psycopg's cursor."""
        if isinstance(statement, str):
            cur = self._sql(statement, params or ())
        else:
            comp = statement.compile(dialect=self._sa_dialect)
            cur = self.c.execute(str(comp), {**comp.params, **(params or {})})
        self.p.sync()
        return cur

    def begin(self) -> None:
        self.cur.execute("BEGIN")

    def commit(self) -> None:
        """Queued: sent with the writes when the pipeline ends."""
        self.cur.execute("COMMIT")

    def bump(self, game_id: int, now: str, expect: int | None = None) -> GameRecord:
        if expect is None:
            cur = self._sql(f"UPDATE games SET rev = rev + 1, updated_at = ? WHERE id = ? "
                            f"RETURNING {_COLS}", (now, game_id))
        else:
            cur = self._sql(f"UPDATE games SET rev = rev + 1, updated_at = ? WHERE id = ? "
                            f"AND rev = ? RETURNING {_COLS}", (now, game_id, expect))
        if self._link is not None:     # after the bump: read under the game's row lock
            self._link_cur = self.c.cursor()
            self._link_cur.execute(_LINK_SQL, (self._link,))
        r = cur.fetchone()
        if r is None:
            if expect is not None:
                raise Conflict(game_id)
            raise LookupError(game_id)
        return GameRecord(r)

    def events(self, game_id: int) -> list[Event]:
        from . import event_from_json
        return [event_from_json(t, p, b) for t, p, b in self.c.execute(
            "SELECT type, phase, body FROM events WHERE game_id = %s ORDER BY pos",
            (game_id,)).fetchall()]

    def add_command(self, f: dict, events: list[tuple]) -> PendingId:
        params = _command_params(f)
        sql = _pg_command_with_events(params, events) if events else _INSERT_COMMAND
        self._sql(sql, tuple(params))        # not waited for: sent with the COMMIT
        return PENDING

    def add_vote_records(self, rows: list[dict]) -> None:
        cols = [k for k in _VOTE_COLS if k != "command_id"]
        sql = (f"INSERT INTO vote_records ({', '.join(_q(k) for k in cols)}, "
               f"\"command_id\") VALUES ({', '.join('%s' for _ in cols)}, {NEW_COMMAND})")
        for r in rows:
            self._check(r.get("command_id"))
            self.c.execute(sql, tuple(r.get(k) for k in cols))

    def add_imported_posts(self, game_id: int, cid, keys: list[str]) -> None:
        self._check(cid)
        for k in keys:
            self.c.execute(f"INSERT INTO imported_posts (game_id, post_key, command_id) "
                           f"VALUES (%s, %s, {NEW_COMMAND})", (game_id, k))

    @staticmethod
    def _check(cid) -> None:
        if cid is not PENDING:
            raise ValueError("PgTx writes rows of the command it has just inserted only")

    def link_seat(self, token_hash: str) -> tuple[int, str] | None:
        if self._link_cur is not None and token_hash == self._link:
            cur, self._link_cur = self._link_cur, None        # read with the bump
        else:
            cur = self.c.execute(_LINK_SQL, (token_hash,))
        r = cur.fetchone()
        return (r[0], r[1]) if r else None


_LINK_SQL = "SELECT game_id, seat FROM player_links WHERE token_hash = %s"


# ---- PostgreSQL: a plain command in one statement ----------------------------------------

class NotOneShot(Exception):
    """``OneShotTx``: the command asked for something only a transaction can answer (a
    statement of its own, a link the web app did not name): it runs on ``PgTx``."""


class OneShotTx:
    """What a plain command's guard and rules see on PostgreSQL's one-statement path
    (``Store.one_shot``): no connection at all. The game and its row come from the
    process's cache at revision ``rev``; the only thing a guard may ask is the player's
    link the web app named beforehand (``Store.checking_link(hash, seat)``), answered
    from that hint and checked by the statement that writes the command (``link``),
    together with the revision: the command is stored only if both still hold."""

    hot = True
    dialect = "postgresql"

    def __init__(self, hint: tuple | None):
        self._hint = hint                      # (token hash, game id, seat) or None
        self.link: tuple | None = None         # the same, once a guard asked for it

    def link_seat(self, token_hash: str) -> tuple[int, str] | None:
        if self._hint is None or self._hint[0] != token_hash:
            raise NotOneShot("a link the web app did not name")
        self.link = self._hint
        return self._hint[1], self._hint[2]

    def execute(self, *_a, **_k):
        raise NotOneShot("a statement of its own")

    def events(self, game_id: int):
        raise NotOneShot("the events")


_CMD_TYPES = {"game_id": "integer", "first_event": "integer", "n_events": "integer",
              "undone": "boolean"}
_VOTE_VALS = tuple(k for k in _VOTE_COLS if k not in ("game_id", "command_id"))


def one_shot_sql(game_id: int, rev: int, now: str, link: tuple | None, fields: dict | None,
                 events: list[tuple], records: list[dict], posts: list[str]):
    """``(sql, params)``: the whole plain command as one statement (data-modifying
    ``WITH``s, one implicit transaction in autocommit mode, one round trip): the game
    row's ``rev`` bumped only if it is still ``rev`` and the player's ``link`` (token
    hash, game id, seat), when given, still names that seat; then, only if the row was
    bumped, the command (``fields``, None: nothing to store), its events, vote records
    and imported posts. Answers the new ``rev``, or no row. The command's ``seq`` is
    read in the same snapshot as the row: every command bumps the row, so a row still at
    ``rev`` means no command was stored since that snapshot. For ``lean_exec``: every
    value is a ``$n`` parameter cast in the text, and the text depends only on how many
    events, records and posts it writes (``_one_shot_text``)."""
    params: list = [now, game_id, rev]
    if link is not None:
        params += link
    if fields is not None:
        params.append(game_id)
        params += [fields[k] for k in _CMD_COLS]
        for _g, n, t, ph, b in events:
            params += (n, t, ph, b)
        for r in records:
            params += [r.get(k) for k in _VOTE_VALS]
        params += posts
    shape = (link is not None, fields is not None, len(events), len(records), len(posts))
    sql = _ONE_SHOT.get(shape)
    if sql is None:
        if len(_ONE_SHOT) > 500:
            _ONE_SHOT.clear()
        sql = _ONE_SHOT[shape] = _one_shot_text(*shape)
    return sql, params


_ONE_SHOT: dict[tuple, str] = {}


def _one_shot_text(link: bool, fields: bool, n_events: int, n_records: int,
                   n_posts: int) -> str:
    """``one_shot_sql``'s statement for that shape (its parameters in the same order)."""
    n = 0

    def p(cast: str = "text") -> str:
        nonlocal n
        n += 1
        return f"${n}::{cast}"
    now, gid0, rev = p(), p("integer"), p("integer")
    cond = ""
    if link:
        cond = (f" AND EXISTS (SELECT 1 FROM player_links WHERE token_hash = {p()} "
                f"AND game_id = {p('integer')} AND seat = {p()})")
    parts = [f"g AS (UPDATE games SET rev = rev + 1, updated_at = {now} WHERE id = "
             f"{gid0} AND rev = {rev}{cond} RETURNING rev)"]
    if fields:
        gid = p("integer")
        vals = ", ".join(p(_CMD_TYPES.get(k, "text")) for k in _CMD_COLS)
        parts.append(f"c AS (INSERT INTO commands (seq, {', '.join(_q(k) for k in _CMD_COLS)}) "
                     f"SELECT (SELECT COALESCE(MAX(seq), 0) + 1 FROM commands WHERE "
                     f"game_id = {gid}), {vals} FROM g RETURNING id)")
        if n_events:
            rows = ", ".join(f"({p('integer')}, {p()}, {p()}, {p()})" for _ in range(n_events))
            parts.append(f"e AS (INSERT INTO events (game_id, pos, command_id, type, phase, "
                         f"body) SELECT {gid}, v.p, c.id, v.t, v.ph, v.b FROM c, (VALUES "
                         f"{rows}) AS v (p, t, ph, b))")
        if n_records:
            cols = ", ".join(_q(k) for k in _VOTE_VALS)
            rows = ", ".join("(" + ", ".join(p() for _ in _VOTE_VALS) + ")"
                             for _ in range(n_records))
            parts.append(f"r AS (INSERT INTO vote_records (game_id, command_id, {cols}) "
                         f"SELECT {gid}, c.id, v.* FROM c, (VALUES {rows}) AS v ({cols}))")
        if n_posts:
            rows = ", ".join(f"({p()})" for _ in range(n_posts))
            parts.append(f"i AS (INSERT INTO imported_posts (game_id, post_key, command_id) "
                         f"SELECT {gid}, v.k, c.id FROM c, (VALUES {rows}) AS v (k))")
    return f"WITH {', '.join(parts)} SELECT rev FROM g"


#: ``lean_exec``'s prepared statements: their names by statement text
_PREPARED: dict[str, tuple[bytes, bytes]] = {}


def lean_exec(raw, sql: str, params=()):
    """Run ``sql`` (``$n`` parameters, each cast in the text) with ``params`` on a psycopg
    connection's libpq connection itself (``psycopg.pq``: no cursor, no adapters; the
    call waits for the answer without holding the interpreter), as a statement prepared
    on that connection under a name made from its text (prepared the first time the
    connection is asked for it). Values go as text: None is NULL, a bool ``t``/``f``.
    The result (``PGresult``: ``ntuples``, ``get_value`` give bytes); a database error
    raises psycopg's exception for it, a lost connection ``OperationalError``."""
    import hashlib

    import psycopg
    from psycopg import pq
    named = _PREPARED.get(sql)
    if named is None:
        if len(_PREPARED) > 1000:
            _PREPARED.clear()
        named = _PREPARED[sql] = (
            b"mh_" + hashlib.sha1(sql.encode()).hexdigest()[:20].encode(), sql.encode())
    enc = raw.info.encoding
    values = [None if v is None else (b"t" if v else b"f") if isinstance(v, bool)
              else str(v).encode(enc) for v in params]
    pg = raw.pgconn
    res = pg.exec_prepared(named[0], values)
    if res.status == pq.ExecStatus.FATAL_ERROR and \
            res.error_field(pq.DiagnosticField.SQLSTATE) == b"26000":   # not prepared yet
        made = pg.prepare(named[0], named[1])
        if made.status == pq.ExecStatus.COMMAND_OK:
            res = pg.exec_prepared(named[0], values)
        else:
            res = made
    if pg.status == pq.ConnStatus.BAD:
        raise psycopg.OperationalError("the connection to the database was lost")
    if res.status not in (pq.ExecStatus.TUPLES_OK, pq.ExecStatus.COMMAND_OK):
        raise psycopg.errors.error_from_result(res, raw.info.encoding)
    return res
