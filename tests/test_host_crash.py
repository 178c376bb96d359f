"""A real ``kill -9`` in the middle of a command: the game reloads to the state before it
(or after it), never between, and every acknowledged move is kept.

The command runs in a subprocess with the test hook MAFIAHOST_TEST_PAUSE=<command>: it
stops inside its transaction after writing its events and before the commit, touches a
marker file and sleeps; the test then kills it with SIGKILL."""

import json
import os
import signal
import time

import pytest
from test_host_support import cli_ok, events_of, new_game, run_cli_subprocess

from mafiahost.host import Host

pytest_plugins = ["test_host_support"]   # its fixtures: sqlite_db, any_db


def roles(db, gid):
    info = json.loads(cli_ok("game", "show", gid, "--json", "--db", db))
    return {p["role"]: p["seat"] for p in info["players"]}


def kill_inside(argv, kind, marker):
    """Run ``mafiahost ARGV`` in a subprocess and SIGKILL it inside ``kind``'s transaction."""
    proc = run_cli_subprocess(argv, env={"MAFIAHOST_TEST_PAUSE": kind,
                                         "MAFIAHOST_TEST_PAUSE_FILE": str(marker),
                                         "MAFIAHOST_TEST_PAUSE_SECONDS": "120"})
    t0 = time.monotonic()
    while not marker.exists():
        if proc.poll() is not None:
            pytest.fail(f"the command ended before the pause: {proc.communicate()}")
        if time.monotonic() - t0 > 60:
            proc.kill()
            pytest.fail("the command never reached the pause")
        time.sleep(0.02)
    assert int(marker.read_text()) == proc.pid
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    marker.unlink()


def test_kill_during_resolve_keeps_every_acknowledged_move(any_db, tmp_path):
    db = any_db
    gid = new_game(db, seed=5)
    r = roles(db, gid)
    # acknowledged moves: two in this process, one by a separate process
    cli_ok("act", gid, r["black_doctor"], "kill", r["civilian"], "--db", db)
    cli_ok("act", gid, r["commissar"], "check", r["boss"], "--db", db)
    p = run_cli_subprocess(["act", gid, r["doctor"], "heal", r["civilian"], "--db", db])
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0 and "Ход принят" in out, (out, err)
    before = events_of(db, gid)
    moves = [(e["data"]["actor"], e["data"]["ability"]) for e in before
             if e["type"] == "action"]
    assert moves == [(r["black_doctor"], "kill"), (r["commissar"], "check"),
                     (r["doctor"], "heal")]
    outcome = Host(db).resolve(gid, preview=True).events
    assert outcome and any(e.type == "check_result" for e in outcome)

    kill_inside(["resolve", gid, "--db", db], "resolve", tmp_path / "marker")
    now = events_of(db, gid)
    assert now == before                       # the half-written resolve left no trace
    assert json.loads(cli_ok("game", "show", gid, "--json", "--db", db))["phase"] == "night"

    # a move killed mid-command is not there either, and the game goes on normally
    kill_inside(["act", gid, r["boss"], "cover", r["black_doctor"], "--db", db], "act",
                tmp_path / "marker")
    assert events_of(db, gid) == before
    cli_ok("resolve", gid, "--db", db)
    after = events_of(db, gid)
    assert after[:len(before)] == before
    assert [(e["type"], e["data"]) for e in after[len(before):]] == \
        [(e.type, json.loads(json.dumps(e.data, ensure_ascii=False))) for e in outcome]
