"""``kill -9`` inside the transactions that change who may do what, on SQLite and
PostgreSQL: a key rotation killed before its commit leaves the old key and its sessions
working and the new key unknown; re-issued links killed before the commit leave the old
links working. After the kill the database is as before, never in between. (Commands on
a game are killed the same way in ``test_host_crash.py``.)"""

from __future__ import annotations

from test_host_crash import kill_inside
from test_host_support import new_game

from mafiahost.host import Host

pytest_plugins = ["test_host_support"]   # its fixtures: sqlite_db, any_db


def test_kill_during_key_rotation_changes_nothing(any_db, tmp_path):
    h = Host(any_db)
    key = h.add_host("Марина")
    session = h.login(key)[0]
    kill_inside(["host", "key", "Марина", "--rotate", "--db", any_db], "rotate",
                tmp_path / "marker")
    h2 = Host(any_db)
    assert h2.session_of(session) is not None        # the session survives: no commit
    assert h2.login(key) is not None                 # the old key still logs in
    # and a rotation that completes ends them
    new = h2.rotate_host_key("Марина")
    assert h2.session_of(session) is None and h2.login(key) is None
    assert h2.login(new) is not None


def test_kill_during_link_reissue_keeps_the_old_links(any_db, tmp_path):
    gid = new_game(any_db, seed=9)
    h = Host(any_db)
    old = h.links(gid)
    kill_inside(["host", "links", gid, "--db", any_db], "links", tmp_path / "marker")
    h2 = Host(any_db)
    for seat, tok in old.items():
        assert h2.player_link(tok) == (gid, seat)
    assert h2.links(gid) == {}                     # no seat lost its link
