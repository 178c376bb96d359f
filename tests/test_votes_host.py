"""Issue 10 through the command line: the corpus imported with ``votes import --json``, the
count in ``votes list --json``, the host's nick, aliases, a human's fix, re-imports."""

import json

import pytest
from test_host_support import cli, cli_ok, events_of
from votes_corpus import THREADS, accuracy, meta, names

pytest_plugins = ["test_host_support"]   # its fixtures: sqlite_db, any_db


def open_day(db, name):
    """The thread's game in the store, at its day, as ``votes_corpus.game`` builds it."""
    m = meta(name)
    cli_ok("game", "new", m["ruleset"], "--players", ",".join(m["players"]), "--seed",
           m["seed"], "--db", db)
    if json.loads(cli_ok("game", "show", 1, "--json", "--db", db))["phase"].startswith("night"):
        cli_ok("resolve", 1, "--db", db)
    for who in m["removed"]:
        cli_ok("game", "remove", 1, who, "--why", "corpus", "--db", db)
    for seat, nick in m["replaced"].items():
        cli_ok("game", "replace", 1, seat, nick, "--db", db)
    cli_ok("game", "deadline", 1, m["deadline"], "--db", db)
    cli_ok("votes", "host", 1, m["host"], "--db", db)
    for nick, seat in m["aliases"].items():
        cli_ok("votes", "alias", 1, nick, seat, "--db", db)
    return m


@pytest.mark.parametrize("name", names())
def test_each_thread_imports_to_the_careful_hosts_count(sqlite_db, name):
    db = sqlite_db
    m = open_day(db, name)
    out = json.loads(cli_ok("votes", "import", 1, THREADS / m["dump"], "--json", "--db", db))
    assert {"posts", "counted", "skipped"} <= set(out)
    for c in out["counted"]:
        assert {"post", "author", "seat", "target", "form"} <= set(c)
    for s in out["skipped"]:
        assert s["post"] and s["reason"] and s["why"]
    # the host's posts are never reported; impostors always are
    assert not any(s["author"] == m["host"] for s in out["skipped"])
    imp = {pid for pid, a in m["posts"].items() if any(c.startswith("impostor")
                                                        for c in a["cases"])}
    assert imp <= {s["post"] for s in out["skipped"] if s["reason"] == "impostor"}
    listed = json.loads(cli_ok("votes", "list", 1, "--json", "--db", db))
    right, total, wrong = accuracy(name, listed["current"])
    assert not wrong and right == total
    assert [v["voter"] for v in listed["votes"] if v["status"] == "counted"] == [
        c["seat"] for c in out["counted"]]


def test_reimporting_a_growing_dump_reads_only_the_new_posts(sqlite_db, tmp_path):
    db = sqlite_db
    m = open_day(db, "yakuza_day1")
    posts = json.loads((THREADS / m["dump"]).read_text(encoding="utf-8"))
    half = tmp_path / "half.json"
    half.write_text(json.dumps(posts[:60], ensure_ascii=False), encoding="utf-8")
    first = json.loads(cli_ok("votes", "import", 1, half, "--json", "--db", db))
    assert first["posts"] == 60
    before = events_of(db, 1)
    again = json.loads(cli_ok("votes", "import", 1, half, "--json", "--db", db))
    assert again["posts"] == 0 and again["counted"] == [] and events_of(db, 1) == before
    full = json.loads(cli_ok("votes", "import", 1, THREADS / m["dump"], "--json", "--db", db))
    assert full["posts"] == len(posts) - 60
    assert not {c["post"] for c in full["counted"]} & {c["post"] for c in first["counted"]}
    current = json.loads(cli_ok("votes", "list", 1, "--json", "--db", db))["current"]
    assert accuracy("yakuza_day1", current)[2] == []


def test_a_human_fixes_one_reading_without_undo(sqlite_db):
    db = sqlite_db
    m = open_day(db, "gemini_day1")
    out = json.loads(cli_ok("votes", "import", 1, THREADS / m["dump"], "--json", "--db", db))
    amb = next(s for s in out["skipped"] if s["reason"] == "ambiguous")   # Ёж: «Сашу»
    assert amb["seat"] == "Ёж" and "votes fix" in amb["why"]
    # Ёж voted «Сашу К» later, so the fix is recorded but his later vote stands
    said = cli_ok("votes", "fix", 1, amb["post"], "Саша М", "--db", db)
    assert "более поздний" in said
    current = json.loads(cli_ok("votes", "list", 1, "--json", "--db", db))["current"]
    assert current["Ёж"] == "Саша К"
    # the post edited after the deadline with no original: the host decides it counts
    late = next(s for s in out["skipped"] if s["reason"] == "edited_late")
    assert late["seat"] == "Ниндзя"
    cli_ok("votes", "fix", 1, "#" + late["post"], "Кота", "--db", db)
    current = json.loads(cli_ok("votes", "list", 1, "--json", "--db", db))["current"]
    assert current["Ниндзя"] == "Кот_Бегемот"
    # and back: the post is no vote after all
    cli_ok("votes", "fix", 1, late["post"], "нет", "--db", db)
    assert json.loads(cli_ok("votes", "list", 1, "--json", "--db", db))["current"][
        "Ниндзя"] is None
    code, said = cli("votes", "fix", 1, late["post"], "Сашу", "--db", db)
    assert code == 2 and "Саша К" in said and "Саша М" in said     # never guessed
    code, said = cli("votes", "fix", 1, "99999", "Анну", "--db", db)
    assert code == 2 and "не импортирован" in said
    stranger = next(s for s in out["skipped"] if s["reason"] == "spectator")
    code, said = cli("votes", "fix", 1, stranger["post"], "Анну", "--db", db)
    assert code == 2 and "votes alias" in said
    # the game replays and verifies with the fixes in it
    cli_ok("undo", 1, "--db", db)
    assert json.loads(cli_ok("votes", "list", 1, "--json", "--db", db))["current"][
        "Ниндзя"] == "Кот_Бегемот"


def test_host_nick_and_alias_are_checked(sqlite_db):
    db = sqlite_db
    open_day(db, "gemini_day1")
    code, out = cli("votes", "host", 1, "Фрoся", "--db", db)
    assert code == 2 and "ник игрока" in out
    code, out = cli("votes", "alias", 1, "Анна", "Вера", "--db", db)
    assert code == 2 and "уже имя" in out
    cli_ok("votes", "alias", 1, "Верунчик", "Вера", "--db", db)
