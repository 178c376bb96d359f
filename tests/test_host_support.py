"""Shared helpers for the hosting tests (no tests here).

- ``cli(argv)``: run the command line in this process, return (exit code, output).
- ``run_cli_subprocess(argv, env)``: the command line in a fresh Python process.
- ``pg_url()``: a fresh, uniquely named PostgreSQL database (dropped by ``drop_pg``), or a
  pytest skip with the reason when no server is reachable.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent

NAMES12 = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Иван", "Кира",
           "Лев", "Мила"]


# ---- running the command line ---------------------------------------------------------------

def cli(*argv) -> tuple[int, str]:
    """``mafiahost ARGV`` in this process: (exit code, what it printed)."""
    from mafiahost.cli import main
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main([str(a) for a in argv])
    return code, buf.getvalue()


def cli_ok(*argv) -> str:
    code, out = cli(*argv)
    assert code == 0, f"mafiahost {' '.join(map(str, argv))} -> {code}:\n{out}"
    return out


def show(gid, db) -> dict:
    return json.loads(cli_ok("game", "show", gid, "--json", "--db", db))


RUNNER = ("import sys; sys.path.insert(0, {here!r}); sys.path.insert(0, {src!r}); "
          "from mafiahost.cli import main; "
          "sys.exit(main(sys.argv[1:]))")


def run_cli_subprocess(argv, env=None, **kw) -> subprocess.Popen:
    """The command line in a new Python process (this checkout's sources)."""
    code = RUNNER.format(here=str(HERE), src=str(ROOT / "src"))
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.Popen([sys.executable, "-c", code, *map(str, argv)], env=e,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


# ---- PostgreSQL -----------------------------------------------------------------------------

PG_BASE = os.environ.get("MAFIAHOST_TEST_PG", "postgresql://postgres@127.0.0.1:5432")


def _admin():
    import psycopg
    return psycopg.connect(PG_BASE + "/postgres", autocommit=True, connect_timeout=3)


def _kill_backends(url: str) -> int:
    """Terminate every server connection to the database of ``url`` (a lost connection,
    as the fault tests make it): how many there were."""
    name = url.rsplit("/", 1)[1]
    with _admin() as c:
        return len(c.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             "WHERE datname = %s AND pid <> pg_backend_pid()",
                             (name,)).fetchall())


def pg_url() -> str:
    """Create a uniquely named database and return its URL; skip when no server answers."""
    try:
        conn = _admin()
    except Exception as e:  # noqa: BLE001
        why = (f"no PostgreSQL server reachable at {PG_BASE} ({str(e).strip()[:120]}); "
               f"set MAFIAHOST_TEST_PG to a server URL to run this test")
        if os.environ.get("MAFIAHOST_TEST_PG_REQUIRED"):
            pytest.fail(why + " (MAFIAHOST_TEST_PG_REQUIRED is set)")
        pytest.skip(why)
    name = f"mafiahost_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{PG_BASE}/{name}"


def drop_pg(url: str) -> None:
    from mafiahost.store import _STORES, database_url
    st = _STORES.pop(database_url(url), None)
    if st is not None:
        st.close()
    name = url.rsplit("/", 1)[1]
    with _admin() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def sqlite_db(tmp_path):
    return str(tmp_path / "games.db")


@pytest.fixture
def pg_db():
    url = pg_url()
    try:
        yield url
    finally:
        drop_pg(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request, tmp_path):
    if request.param == "sqlite":
        yield str(tmp_path / "games.db")
        return
    url = pg_url()
    try:
        yield url
    finally:
        drop_pg(url)


def new_game(db, *extra, seed=11, players=NAMES12, ruleset="gemini") -> int:
    out = cli_ok("game", "new", ruleset, "--players", ",".join(players), "--seed", seed,
                 "--db", db, *extra)
    import re
    return int(re.search(r"(?:№|Game )(\d+)", out).group(1))


def events_of(db, gid) -> list[dict]:
    """Every stored event of the game, in order, as plain dicts."""
    from mafiahost.host import Host
    data = Host(db).export(gid)
    return [e for c in data["commands"] for e in c["events"]]
