"""The store: migrations create exactly the models' schema, the database is chosen by
--db / MAFIAHOST_DB / the default file, and a game loaded from the database replays to the
same state as the game that was played."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_host_support import cli, cli_ok, new_game

from mafiahost.engine.game import Game
from mafiahost.sim import new_random_game, play_phase
from mafiahost.store import HEAD, MIGRATIONS, Base, Store, database_url, normalize

pytest_plugins = ["test_host_support"]   # its fixtures: sqlite_db, any_db


def test_head_constant_is_the_latest_migration():
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(cfg).get_current_head() == HEAD


def test_migrations_create_exactly_the_models(any_db):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    store = Store(any_db)
    with store.engine.connect() as c:
        diff = compare_metadata(MigrationContext.configure(c), Base.metadata)
    assert diff == []
    with store.engine.connect() as c:
        from sqlalchemy import text
        assert c.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD
    store.close()


def test_database_choice(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MAFIAHOST_DB", raising=False)
    assert database_url() == f"sqlite:///{tmp_path / 'mafiahost.db'}"
    monkeypatch.setenv("MAFIAHOST_DB", "other.db")
    assert database_url() == f"sqlite:///{tmp_path / 'other.db'}"
    assert database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"
    # the command line takes MAFIAHOST_DB too
    gid = new_game(str(tmp_path / "other.db"), seed=1)
    code, out = cli("game", "list")
    assert code == 0 and f"{gid:4}  gemini" in out
    assert (tmp_path / "other.db").exists() and not (tmp_path / "mafiahost.db").exists()


def test_unreachable_database_is_a_sentence():
    code, out = cli("game", "list", "--db", "postgresql://nobody@127.0.0.1:1/none")
    assert code == 2 and "Cannot open the database" in out


def test_unknown_game_names_the_games(sqlite_db):
    gid = new_game(sqlite_db, seed=1)
    code, out = cli("game", "show", 99, "--db", sqlite_db)
    assert code == 2 and "Игры №99 нет" in out and f"игры: {gid}" in out


@settings(max_examples=25, deadline=None)
@given(ruleset=st.sampled_from(["vanilla", "classic", "gemini"]), seed=st.integers(0, 10**6))
def test_events_read_back_from_json_replay_to_the_same_game(ruleset, seed):
    """What the store writes and reads (JSON) rebuilds the game, and the rebuilt game goes
    on exactly as the original would, phase after phase."""
    g = new_random_game(ruleset, 12, seed)
    rng = random.Random(seed)
    for _ in range(12):
        if g.state.over:
            break
        stored = [normalize(e) for e in g.events]
        copy = Game.replay(g.rules, stored)
        a, b = random.Random(seed), random.Random(seed)
        play_phase(g, a)
        play_phase(copy, b)
        ea, eb = g.resolve(), copy.resolve()
        assert [json.loads(json.dumps([e.type, e.phase, e.data], default=list)) for e in ea] \
            == [[e.type, e.phase, e.data] for e in (normalize(x) for x in eb)]
        rng.random()


def test_loading_gives_the_state_the_host_saw(sqlite_db):
    db = sqlite_db
    gid = new_game(db, seed=9)
    info = json.loads(cli_ok("game", "show", gid, "--json", "--db", db))
    r = {p["role"]: p["seat"] for p in info["players"]}
    cli_ok("act", gid, r["maniac"], "poison", r["commissar"], "--db", db)
    cli_ok("resolve", gid, "--db", db)
    from mafiahost.host import Host
    row, g = Host(db).load(gid)
    assert g.state.phase == "day" and g.state.number == 1
    again = Game.replay(g.rules, [normalize(e) for e in g.events])
    assert [(p.name, p.alive, sorted(p.st)) for p in again.state.order] == \
        [(p.name, p.alive, sorted(p.st)) for p in g.state.order]
    assert again.state.schedule == g.state.schedule and g.state.schedule


def test_processes_opening_a_new_postgresql_database_at_once_all_succeed(pg_db):
    """``serve --workers`` and a command beside it may open a new database together: one
    process migrates while the others wait for it (an advisory lock), so none of them
    fails on a half-made schema."""
    import subprocess
    import sys
    from pathlib import Path
    src = str(Path(__file__).resolve().parents[1] / "src")
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from mafiahost.store import open_store; "
            "open_store(sys.argv[2]); print('ok')")
    procs = [subprocess.Popen([sys.executable, "-c", code, src, pg_db], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [o.strip() for o, _ in outs] == ["ok"] * 4, [e[-500:] for _, e in outs]
