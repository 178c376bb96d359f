"""``undo`` after each kind of command restores the game exactly, compared event by event
(and the store-level data: deadline, vote records, imported posts)."""

import json

import pytest
from test_host_support import cli, cli_ok, new_game

from mafiahost.host import Host

pytest_plugins = ["test_host_support"]   # its fixtures: sqlite_db, any_db


def snapshot(db, gid):
    data = Host(db).export(gid)
    return {"events": [e for c in data["commands"] for e in c["events"]],
            "commands": [(c["seq"], c["kind"]) for c in data["commands"]],
            "deadline": (data["deadline"], data["deadline_phase"]),
            "votes": data["vote_records"], "posts": data["imported_posts"]}


def roles(db, gid):
    info = json.loads(cli_ok("game", "show", gid, "--json", "--db", db))
    return {p["role"]: p["seat"] for p in info["players"]}


def dump(posts):
    return json.dumps([{"author": a, "time": t, "text": x, "id": i} for i, (a, t, x) in
                       enumerate(posts, 1)], ensure_ascii=False)


def check_undo(db, gid, *argv):
    """Run ``argv``, check it changed something, undo, check everything is as before; then
    run it again so the game moves on."""
    before = snapshot(db, gid)
    cli_ok(*argv, "--db", db)
    after = snapshot(db, gid)
    assert after != before, argv
    out = cli_ok("undo", gid, "--db", db)
    assert "Отменено" in out
    assert snapshot(db, gid) == before, argv
    cli_ok(*argv, "--db", db)
    assert snapshot(db, gid)["events"] == after["events"]


def test_undo_after_each_kind_of_command(sqlite_db, tmp_path):
    db = sqlite_db
    gid = new_game(db, seed=3)
    code, out = cli("undo", gid, "--db", db)
    assert code == 2 and "Отменять нечего" in out
    r = roles(db, gid)
    check_undo(db, gid, "game", "deadline", gid, "2030-01-01 21:00")
    check_undo(db, gid, "act", gid, r["black_doctor"], "kill", r["civilian"])
    check_undo(db, gid, "act", gid, r["black_doctor"], "kill", r["doctor"], "--replace")
    check_undo(db, gid, "act", gid, r["commissar"], "check", r["boss"])
    check_undo(db, gid, "game", "replace", gid, r["doctor"], "Новенький")
    check_undo(db, gid, "resolve", gid)                  # night -> morning
    check_undo(db, gid, "game", "absent", gid, r["lover"])
    check_undo(db, gid, "game", "excuse", gid, r["joker"])
    check_undo(db, gid, "vote", gid, r["boss"], r["maniac"])
    check_undo(db, gid, "vote", gid, r["boss"], "против всех")     # a changed vote
    f = tmp_path / "thread.json"
    vote = f"[spoiler=Голос против]{r['boss']}[/spoiler]"
    f.write_text(dump([(r["maniac"], "2030-01-01T10:00", vote),
                       (r["alcoholic"], "2030-01-01T10:05", "просто болтаю")]),
                 encoding="utf-8")
    check_undo(db, gid, "votes", "import", gid, f)
    check_undo(db, gid, "game", "remove", gid, r["sergeant"], "--why", "мастерский произвол")
    for p in ("commissar", "recruiter", "alcoholic", "joker", "lover", "doctor",
              "black_doctor", "civilian"):
        cli("vote", gid, r[p], r["maniac"], "--db", db)
    check_undo(db, gid, "resolve", gid)                  # day -> lynch -> night
    # undo walks back several commands in turn, each exactly
    states = []
    for argv in (("act", gid, r["commissar"], "check", r["joker"]),
                 ("act", gid, r["black_doctor"], "kill", r["civilian"])):
        states.append(snapshot(db, gid))
        cli_ok(*argv, "--db", db)
    for s in reversed(states):
        cli_ok("undo", gid, "--db", db)
        assert snapshot(db, gid) == s
    log = cli_ok("log", gid, "--undone", "--db", db)
    assert "[отменено]" in log
    assert "[undone]" in cli_ok("log", gid, "--undone", "--ids", "--db", db)


@pytest.mark.parametrize("kind", ["act", "vote"])
def test_refused_command_changes_nothing_and_is_not_undoable(sqlite_db, kind):
    db = sqlite_db
    gid = new_game(db, seed=3)
    r = roles(db, gid)
    before = snapshot(db, gid)
    argv = ("act", gid, r["doctor"], "kill", r["boss"]) if kind == "act" else \
        ("vote", gid, r["doctor"], r["boss"])
    code, out = cli(*argv, "--db", db)
    assert code == 2
    assert ("нет хода «kill»" in out) if kind == "act" else ("только днём" in out)
    assert snapshot(db, gid) == before
    assert cli("undo", gid, "--db", db)[0] == 2
