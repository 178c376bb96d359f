"""Votes from a forum thread, end to end through ``votes import``: a realistic dump with
quotes, an edit, a nickname, a typo, an ambiguous name, a dead voter, a wrong markup and a
late vote; the counted votes reach the game, the late one is kept as a record, problems
are reported, and importing the thread again reads only the new posts. (The parser's own
cases are in the forum tests.)"""

import json

from test_host_support import cli, cli_ok, events_of

pytest_plugins = ["test_host_support"]   # its fixtures: sqlite_db, any_db

PLAYERS = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Саша К", "Саша М",
           "Кира", "Лев", "Мила"]
ROLES = ["commissar", "boss", "black_doctor", "doctor", "civilian", "sergeant", "alcoholic",
         "recruiter", "joker", "lover", "maniac", "civilian"]


def post(pid, author, when, text):
    return (f"Re: Шоу Мадам Джемини — день 1\n#p{pid} Сообщение {author} » {when}\n"
            f"{text}\n")


THREAD = [
    post(1, "Ведущий", "12 мар 2024, 10:00",
         "[b]Утро после ночи 1[/b]\nДина найдена мёртвой. Голосуем до 22:00."),
    post(2, "Борис", "12 мар 2024, 11:05",
         "Вера вчера слишком уверенно всех учила.\n[spoiler=Голос против]вера[/spoiler]"),
    post(3, "Вера", "12 мар 2024, 12:10",
         "[quote=\"Борис\"][spoiler=Голос против]вера[/spoiler][/quote]\nНу-ну.\n"
         "[spoiler=Голос против]Борис, слишком тихий[/spoiler]"),
    post(4, "Глеб", "12 мар 2024, 12:30", "[spoiler=Голос против]Килра[/spoiler]"),
    post(5, "Егор", "12 мар 2024, 13:00", "[spoiler=Голос против]Саша[/spoiler]"),
    post(6, "Дина", "12 мар 2024, 13:20",
         "Я ещё тут, пусть и мёртвая!\n[spoiler=Голос против]Анна[/spoiler]"),
    post(7, "Жужа", "12 мар 2024, 14:00", "[spoiler=Голос против]Лев[/spoiler]"),
    post(8, "Кира", "12 мар 2024, 14:30", "[spoiler=Голос против]Анна[/spoiler]"),
    post(9, "Лев", "12 мар 2024, 15:00", "Мне не нравится [color=red]Анна[/color]"),
    post(8, "Кира", "12 мар 2024, 14:30", "Передумала.\n[spoiler=Голос против]Лев[/spoiler]"),
    post(10, "Мила", "12 мар 2024, 22:30", "[spoiler=Голос против]Борис[/spoiler]"),
]


def setup_day(db):
    roles = ",".join(f"{p}={r}" for p, r in zip(PLAYERS, ROLES, strict=True))
    out = cli_ok("game", "new", "gemini", "--players", ",".join(PLAYERS), "--roles", roles,
                 "--db", db)
    assert "№1" in out
    cli_ok("act", 1, "Вера", "kill", "Дина", "--db", db)
    cli_ok("resolve", 1, "--db", db)
    cli_ok("game", "deadline", 1, "2024-03-12 22:00", "--db", db)


def engine_votes(db):
    return [(e["data"]["voter"], e["data"]["target"]) for e in events_of(db, 1)
            if e["type"] == "vote"]


def test_votes_import_end_to_end(sqlite_db, tmp_path):
    db = sqlite_db
    setup_day(db)
    dump = tmp_path / "thread.txt"
    dump.write_text("Удивительное Шоу Мадам Джемини — игровая тема\n\n" + "\n".join(THREAD),
                    encoding="utf-8")
    code, out = cli("votes", "import", 1, dump, "--alias", "Жужа=Жанна", "--db", db)
    assert code == 0, out
    # Кира's post pasted again changed, without an edit line, imported after the
    # deadline: the edit's time is unknown, so the first text counts (and is noted)
    assert engine_votes(db) == [("Борис", "Вера"), ("Вера", "Борис"), ("Глеб", "Кира"),
                                ("Жанна", "Лев"), ("Кира", "Анна")]
    assert "#8" in out and "время правки неизвестно" in out
    problems = [line for line in out.splitlines() if line.startswith("  ! ")]
    text = "\n".join(problems)
    assert "Саша" in text and "неоднозначно" in text           # ambiguous: never guessed
    assert "Дина" in text                                     # the dead do not vote
    assert "#10" in text and "после срока" in text            # late
    assert "#9" in text                                       # red name in a spoiler game
    assert len(problems) == 4, out
    assert "Килра" in out                                     # the typo's reading is noted
    assert "засчитано голосов: 5" in out and "после срока: 1" in out
    # the live count was printed: each candidate with voters, and who has not voted
    assert "Лев" in out.split("\n\n", 1)[1] and "Мила" in out.split("\n\n", 1)[1]
    records = cli_ok("votes", "list", 1, "--db", db)
    assert "Мила → Борис  late" in records

    # the same dump again: nothing new, nothing changes
    before = events_of(db, 1)
    out = cli_ok("votes", "import", 1, dump, "--alias", "Жужа=Жанна", "--db", db)
    assert "Прочитано новых сообщений: 0" in out
    assert events_of(db, 1) == before
    # a longer dump of the same thread: only the new post is read
    longer = THREAD + [post(11, "Саша К", "12 мар 2024, 16:00",
                            "[spoiler=Голос против]мила[/spoiler]")]
    dump.write_text("\n".join(longer), encoding="utf-8")
    out = cli_ok("votes", "import", 1, dump, "--alias", "Жужа=Жанна", "--db", db)
    assert "Прочитано новых сообщений: 1" in out
    assert engine_votes(db)[-1] == ("Саша К", "Мила")
    cli_ok("undo", 1, "--db", db)
    assert events_of(db, 1) == before


def test_votes_by_hand_respect_the_deadline(sqlite_db):
    db = sqlite_db
    setup_day(db)
    info = json.loads(cli_ok("game", "show", 1, "--json", "--db", db))
    assert info["deadline"] == "2024-03-12T22:00:00"
    code, out = cli("vote", 1, "Анна", "Лев", "--db", db)        # now is long past 2024
    assert code == 2 and "истёк" in out and "--late" in out
    assert engine_votes(db) == []
    cli_ok("vote", 1, "Анна", "Лев", "--at", "2024-03-12 21:59", "--db", db)
    cli_ok("vote", 1, "Глеб", "против всех", "--late", "--db", db)
    assert engine_votes(db) == [("Анна", "Лев"), ("Глеб", "against_all")]
    assert "late, counted by the host" in cli_ok("votes", "list", 1, "--db", db)
    # the deadline belongs to its phase: after the day it is gone
    cli_ok("resolve", 1, "--db", db)
    assert json.loads(cli_ok("game", "show", 1, "--json", "--db", db))["deadline"] is None


def test_export_import_keeps_the_vote_records_with_their_commands(sqlite_db, tmp_path):
    db = sqlite_db
    setup_day(db)
    before = events_of(db, 1)
    dump = tmp_path / "thread.txt"
    dump.write_text("\n".join(THREAD), encoding="utf-8")
    cli_ok("votes", "import", 1, dump, "--alias", "Жужа=Жанна", "--db", db)
    path = tmp_path / "game.json"
    cli_ok("export", 1, "-o", path, "--db", db)
    cli_ok("import", path, "--db", db)
    assert events_of(db, 2) == events_of(db, 1)
    assert cli_ok("votes", "list", 2, "--db", db) == cli_ok("votes", "list", 1, "--db", db)
    # the same dump again reads nothing in the copy either
    assert "Прочитано новых сообщений: 0" in cli_ok("votes", "import", 2, dump, "--db", db)
    out = cli_ok("undo", 2, "--db", db)           # the import (the empty one left no command)
    assert "votes_import" in out
    assert events_of(db, 2) == before
    assert cli_ok("votes", "list", 2, "--db", db).strip() == ""
