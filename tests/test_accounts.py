"""Host accounts on the command line (the administrator), and the migration that brought
them: keys shown once and stored only as hashes, rotation, owners and co-hosts, players'
links re-issued, and an old database upgraded with its players' links still working."""

from __future__ import annotations

import hashlib
import re
import secrets
import sqlite3

from test_host_support import cli, cli_ok, new_game

from mafiahost.host import Host
from mafiahost.store import Store

pytest_plugins = ["test_host_support"]   # its fixtures: sqlite_db, any_db


def key_of(out: str) -> str:
    m = re.search(r"Ключ / key: (\S+)", out)
    assert m, out
    return m.group(1)


def test_host_add_list_and_rotate(sqlite_db):
    db = sqlite_db
    key = key_of(cli_ok("host", "add", "Марина", "--db", db))
    assert len(key) >= 40
    code, out = cli("host", "add", "марина", "--db", db)       # the same name, any case
    assert code == 2 and "уже есть" in out
    h = Host(db)
    assert h.login(key) is not None
    # the key cannot be read back: only a new one can be made
    code, out = cli("host", "key", "Марина", "--db", db)
    assert code == 2 and "--rotate" in out and key not in out
    sess = h.login(key)[0]
    new = key_of(cli_ok("host", "key", "Марина", "--rotate", "--db", db))
    assert new != key
    assert h.login(key) is None and h.session_of(sess) is None      # old key, old session
    assert h.login(new) is not None
    out = cli_ok("host", "list", "--db", db)
    assert "Марина" in out and key not in out and new not in out
    code, out = cli("host", "key", "Никто", "--rotate", "--db", db)
    assert code == 2 and "Ведущего «Никто» нет" in out
    code, out = cli("host", "add", "a\x07b", "--db", db)
    assert code == 2 and "управляющих" in out


def test_owners_cohosts_and_links_on_the_command_line(sqlite_db):
    db = sqlite_db
    cli_ok("host", "add", "Марина", "--db", db)
    cli_ok("host", "add", "Олег", "--db", db)
    gid = new_game(db, seed=3)
    h = Host(db)
    assert h.game_hosts(int(gid)) == []                 # made on the command line: no owner
    cli_ok("host", "owner", gid, "Марина", "--db", db)
    cli_ok("host", "cohost", gid, "Олег", "--db", db)
    assert h.game_hosts(int(gid)) == [("Марина", "owner"), ("Олег", "cohost")]
    code, out = cli("host", "cohost", gid, "Марина", "--drop", "--db", db)
    assert code == 2 and "владелец" in out
    cli_ok("host", "cohost", gid, "Олег", "--drop", "--db", db)
    assert h.game_hosts(int(gid)) == [("Марина", "owner")]
    # game new --owner
    code, out = cli("game", "new", "vanilla", "--players", "a,b,c,d,e,f", "--owner", "Олег",
                    "--db", db)
    assert code == 0, out
    new = max(x["id"] for x in h.list_games())
    assert h.game_hosts(new) == [("Олег", "owner")]
    # links: printed once; re-issuing ends the old ones
    first = h.links(int(gid))
    out = cli_ok("host", "links", gid, "--public-url", "https://m.example", "--db", db)
    toks = dict(re.findall(r"^\s+(\S+)\s+https://m\.example/p/(\S+)$", out, re.M))
    assert set(toks) == set(first)
    for seat, tok in first.items():
        assert h.player_link(tok) is None
        assert h.player_link(toks[seat]) == (int(gid), seat)
    assert h.links(int(gid)) == {}                       # nothing to read back


def test_migration_from_0002_keeps_links_and_drops_the_site_key(tmp_path):
    """An 0002 database (a site-wide key, links in clear) upgraded: the site key is gone,
    each link is now its hash and still opens its seat."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from mafiahost.store import MIGRATIONS
    path = tmp_path / "old.db"
    eng = create_engine(f"sqlite:///{path}")
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with eng.begin() as c:
        cfg.attributes["connection"] = c
        command.upgrade(cfg, "0002")
    eng.dispose()
    tok = secrets.token_urlsafe(24)
    con = sqlite3.connect(path)
    con.execute("INSERT INTO games (id, name, ruleset, ruleset_version, options, seed, salt, "
                "commitment, dealt, lang, fmt, rev, created_at, updated_at) VALUES "
                "(1, '', 'vanilla', 1, '{}', 1, 's', 'c', 1, 'ru', 'plain', 0, 'x', 'x')")
    con.execute("INSERT INTO player_links VALUES (1, 'Анна', ?, 'x')", (tok,))
    con.execute("INSERT INTO web_keys VALUES ('host', 'oldsitekey', 'x')")
    con.commit()
    con.close()
    st = Store(str(path))
    st.close()
    con = sqlite3.connect(path)
    dump = "\n".join(con.iterdump())
    assert tok not in dump and "oldsitekey" not in dump
    assert hashlib.sha256(tok.encode()).hexdigest() in dump
    con.close()
    h = Host(str(path))
    assert h.player_link(tok) == (1, "Анна")
