"""A whole 12-player gemini game hosted through the command line alone, from dealing to the
final post, on SQLite and on PostgreSQL; then exported, verified and imported again."""

import json
import random
import re

from test_host_support import NAMES12, cli, cli_ok, events_of, show

pytest_plugins = ["test_host_support"]   # its fixtures: sqlite_db, any_db


def play_night(gid, db, rng):
    info = show(gid, db)
    alive = [p["seat"] for p in info["players"] if p["alive"]]
    sent = 0
    for p in info["players"]:
        for ab in p["can_use"]:
            for _ in range(6):   # a few random targets; refusals are normal and change nothing
                ts = [rng.choice(alive) for _ in range(ab["targets"])]
                code, out = cli("act", gid, p["seat"], ab["id"], *ts, "--db", db)
                if code == 0:
                    assert "Ход принят" in out
                    sent += 1
                    break
                # the rule, in the game's language
                assert code == 2 and out.strip() and "Traceback" not in out
            else:
                continue
            break                                          # one move per player
    return sent


def play_day(gid, db):
    info = show(gid, db)
    alive = [p for p in info["players"] if p["alive"]]
    bad = [p["seat"] for p in alive if p["faction"] != "town"]
    target = bad[0] if bad else alive[0]["seat"]
    for p in alive:
        if p["seat"] != target:
            cli_ok("vote", gid, p["seat"], target, "--db", db)
    cli_ok("vote", gid, target, alive[0]["seat"] if alive[0]["seat"] != target
           else alive[1]["seat"], "--db", db)
    votes = cli_ok("votes", "count", gid, "--db", db)
    assert target in votes
    return target


def test_whole_gemini_game_through_the_cli(any_db, tmp_path):
    db = any_db
    out = cli_ok("game", "new", "gemini", "--players", ",".join(NAMES12), "--db", db,
                 "--name", "cli game")
    gid = int(re.search(r"№(\d+)", out).group(1))
    info = show(gid, db)
    commitment = info["commitment"]
    assert commitment in out                          # the first post carries the commitment
    roles = sorted(p["role"] for p in info["players"])
    assert len(roles) == 12 and roles.count("civilian") == 2 and "maniac" in roles
    cards = cli_ok("cards", gid, "--db", db)
    assert all(f"=== {n} ===" in cards for n in NAMES12)
    assert cli_ok("post", gid, "--db", db).strip() == cli_ok(
        "post", gid, "--start", "--db", db).strip()

    rng = random.Random(4)
    moves = phases = 0
    while not show(gid, db)["over"] and phases < 30:
        phase = show(gid, db)["phase"]
        if phase == "night":
            moves += play_night(gid, db, rng)
        else:
            play_day(gid, db)
        preview = cli_ok("resolve", gid, "--preview", "--db", db)
        assert "PREVIEW" in preview or "ПРЕДПРОСМОТР" in preview
        before = events_of(db, gid)
        assert events_of(db, gid) == before               # the preview committed nothing
        cli_ok("resolve", gid, "--db", db)
        phases += 1
        if phase == "night" and phases == 1:
            assert cli_ok("pm", gid, "--db", db).strip()  # the first night's results
    assert moves >= 10
    info = show(gid, db)
    assert info["over"] and info["winners"], info
    final = cli_ok("post", gid, "--db", db)
    data = json.loads(cli_ok("export", gid, "--db", db))
    assert str(data["seed"]) in final and data["salt"] in final      # the seed is revealed
    for p in info["players"]:
        assert p["seat"] in final
    log = cli_ok("log", gid, "--ids", "--db", db)
    assert log.count("\n") > len(events_of(db, gid))          # every event, under its command

    path = tmp_path / "game.json"
    cli_ok("export", gid, "-o", path, "--db", db)
    code, out = cli("verify", path)
    assert code == 0 and "ПРОВЕРЕНО" in out and "рассадку и роль каждого игрока" in out, out
    # a tampered file does not verify
    bad = json.loads(path.read_text(encoding="utf-8"))
    bad["seed"] += 1
    (tmp_path / "bad.json").write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
    code, out = cli("verify", tmp_path / "bad.json")
    assert code == 1 and "Хэш не сходится" in out
    # import makes an identical second game
    out = cli_ok("import", path, "--db", db)
    gid2 = int(re.search(r"№(\d+)", out).group(1))
    assert events_of(db, gid2) == events_of(db, gid)
    listed = cli_ok("game", "list", "--db", db)
    assert "cli game" in listed and str(gid2) in listed
