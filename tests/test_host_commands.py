"""The host's commands one by one: dealing or assigning, refusals in the rule's words,
replacing a move, замена and the host's override, posts, the commitment and verify."""

import hashlib
import json
import re

from test_host_support import NAMES12, cli, cli_ok, events_of, new_game, show

from mafiahost.host import Host, verify
from mafiahost.rules import load
from mafiahost.rules.setup import deal

pytest_plugins = ["test_host_support"]   # its fixtures: sqlite_db, any_db


def roles(db, gid):
    return {p["role"]: p["seat"] for p in show(gid, db)["players"]}


def test_dealing_is_the_rule_sets_seeded_deal(sqlite_db):
    gid = new_game(sqlite_db, seed=77)
    seating = [(p["seat"], p["role"]) for p in show(gid, sqlite_db)["players"]]
    assert seating == deal(load("gemini"), NAMES12, 77)
    # without --seed the seed is fresh: two games differ in seed and commitment
    a, b = (Host(sqlite_db).new_game("gemini", NAMES12) for _ in range(2))
    da, db_ = Host(sqlite_db).export(a.game_id), Host(sqlite_db).export(b.game_id)
    assert da["seed"] != db_["seed"] and da["commitment"] != db_["commitment"]


def test_host_assignment_and_its_errors(sqlite_db):
    db = sqlite_db
    names = "Анна,Борис,Вера,Глеб,Дина,Егор"
    code, out = cli("game", "new", "gemini", "--players", names, "--roles",
                    "boss,black_doctor,commissar,doctor,civilian", "--db", db)
    assert code == 2 and "Ролей 5, а игроков 6" in out
    code, out = cli("game", "new", "gemini", "--players", names, "--roles",
                    "boss,black_doctor,commissar,doctor,civilian,wizard", "--db", db)
    assert code == 2
    assert "Роли «wizard» нет в правилах «Удивительное Шоу Мадам Джемини»; есть: " in out
    assert "Комиссар" in out and "=commissar" not in out and ", commissar," not in out
    code, out = cli("game", "new", "nosuch", "--players", names, "--db", db)
    assert code == 2 and "Нет правил «nosuch»" in out
    cli_ok("game", "new", "gemini", "--players", names, "--roles",
           "Анна=boss,Борис=black_doctor,Вера=commissar,Глеб=doctor,Дина=civilian,"
           "Егор=civilian", "--db", db)
    assert {p["seat"]: p["role"] for p in show(1, db)["players"]}["Вера"] == "commissar"
    rep = verify(Host(db).export(1), "en")
    assert rep.ok and any("assigned by the host" in n for n in rep.notes)


def test_moves_refusals_and_replacement(sqlite_db):
    db = sqlite_db
    gid = new_game(db, seed=3)
    r = roles(db, gid)
    code, out = cli("act", gid, r["doctor"], "heal", "Никто", "--db", db)
    assert code == 2 and "Игрока «Никто» нет в игре" in out
    cli_ok("act", gid, r["black_doctor"], "kill", r["civilian"], "--db", db)
    code, out = cli("act", gid, r["black_doctor"], "kill", r["doctor"], "--db", db)
    assert code == 2 and "второй не принимается" in out and "--replace" in out
    out = cli_ok("act", gid, r["black_doctor"], "kill", r["doctor"], "--replace", "--db", db)
    assert "Ход заменён" in out and r["civilian"] in out and r["doctor"] in out
    acts = [e for e in events_of(db, gid) if e["type"] in ("action", "action_withdrawn")]
    assert [e["type"] for e in acts] == ["action", "action_withdrawn", "action"]
    # lower case and е for ё find the player
    cli_ok("act", gid, r["commissar"].lower(), "check", r["boss"].upper(), "--db", db)
    assert "Ход принят" in cli_ok("act", gid, r["doctor"], "heal", r["doctor"], "--db", db)
    assert r["doctor"] not in show(gid, db)["not_acted"]


def test_replacement_and_host_override_are_in_the_log(sqlite_db):
    db = sqlite_db
    gid = new_game(db, seed=3)
    r = roles(db, gid)
    out = cli_ok("game", "replace", gid, r["doctor"], "Новенький", "--db", db)
    assert f"Замена: {r['doctor']} → Новенький" in out
    # the new nick acts for the seat; posts and show use the new nick
    cli_ok("act", gid, "Новенький", "heal", r["commissar"], "--db", db)
    p = next(p for p in show(gid, db)["players"] if p["seat"] == r["doctor"])
    assert p["name"] == "Новенький"
    cli_ok("game", "remove", gid, r["maniac"], "--why", "оскорбления", "--db", db)
    info = {p["seat"]: p for p in show(gid, db)["players"]}
    assert not info[r["maniac"]]["alive"] and info[r["maniac"]]["how"] == "host"
    log = cli_ok("log", gid, "--ids", "--db", db)          # the raw log, for the host
    assert "replaced (public)" in log and "by=Новенький" in log
    assert "how=host" in log and "оскорбления" in log
    words = cli_ok("log", gid, "--db", db)                 # the log in words
    assert "Новенький" in words and "how=host" not in words and "replaced" not in words
    assert r["maniac"] in cli_ok("post", gid, "--db", db)     # the announcement


def test_posts_languages_and_formats(sqlite_db):
    db = sqlite_db
    gid = new_game(db, seed=3)
    c = show(gid, db)["commitment"]
    assert c in cli_ok("post", gid, "--start", "--lang", "en", "--db", db)
    bb = cli_ok("post", gid, "--start", "--format", "bbcode", "--db", db)
    assert "[b]" in bb and c in bb
    code, out = cli("post", gid, "--final", "--db", db)
    assert code == 2 and "раскрывает роли" in out
    code, out = cli("post", gid, "--phase", "night 1", "--db", db)
    assert code == 2 and "night 1" in out
    r = roles(db, gid)
    cli_ok("act", gid, r["black_doctor"], "kill", r["civilian"], "--db", db)
    cli_ok("act", gid, r["commissar"], "check", r["boss"], "--db", db)
    morning = cli_ok("resolve", gid, "--db", db)
    assert r["civilian"] in morning
    assert cli_ok("post", gid, "--phase", "night 1", "--db", db).strip() in morning
    pm = cli_ok("pm", gid, r["commissar"], "--db", db)
    assert r["boss"] in pm and f"=== {r['commissar']} ===" in pm
    cards = cli_ok("cards", gid, r["boss"], "--db", db)
    assert r["black_doctor"] in cards                         # known teammates


def test_commitment_and_verify_catch_tampering(sqlite_db, tmp_path):
    db = sqlite_db
    gid = new_game(db, seed=12345)
    r = roles(db, gid)
    cli_ok("act", gid, r["maniac"], "poison", r["commissar"], "--db", db)
    cli_ok("act", gid, r["recruiter"], "recruit", r["alcoholic"], "--db", db)
    cli_ok("resolve", gid, "--db", db)
    data = Host(db).export(gid)
    # the commitment binds the deal (seed, seating, roles, options, dealt), salted
    from mafiahost.host.core import deal_payload
    seating = data["commands"][0]["ops"][0][1]
    assert data["commitment_scheme"] == "deal-v2"
    assert data["commitment"] == hashlib.sha256(
        (f"mafiahost-deal-v2:{data['salt']}:"
         + deal_payload(12345, "gemini", data["ruleset_version"], {}, True, None, seating))
        .encode()).hexdigest()
    assert verify(data).ok
    rolls = [(c, e) for c in data["commands"] for e in c["events"] if e["type"] == "roll"]
    assert rolls                                              # the recruitment roll
    _, roll = rolls[0]
    roll["data"]["result"] = not roll["data"]["result"]
    rep = verify(data, "en")
    assert not rep.ok and any("differs" in p for p in rep.problems)
    assert any("the seed gives" in p for p in rep.problems)
    data = Host(db).export(gid)
    data["commands"][0]["ops"][0][1][0][1] = "maniac"           # a forged deal
    assert any("not the deal" in p for p in verify(data, "en").problems)
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, out = cli("import", path, "--db", db)
    assert code == 2 and "не прошёл проверку" in out


def test_seat_names_a_reader_could_confuse_are_refused_at_creation(sqlite_db):
    db = sqlite_db
    for names, says in [("Анна,Борис,Aнна,Глеб,Дина,Егор", "не различить"),
                        ("Анна,Борис,Вера,Глеб,Дина,против всех", "служебное"),
                        ("Анна,Борис,Ве\u200bра,Глеб,Дина,Егор", "невидимые")]:
        code, out = cli("game", "new", "vanilla", "--players", names, "--db", db)
        assert code == 2 and says in out, out
    assert cli_ok("game", "list", "--db", db).count("vanilla") == 0
    cli_ok("game", "new", "vanilla", "--players", "Саша,Маша,Вера,Глеб,Дина,Егор", "--db", db)
    assert cli_ok("game", "list", "--db", db).count("vanilla") == 1


def test_the_rules_recommendations_are_warnings_the_host_may_accept(sqlite_db):
    """classic C51 «не рекомендуем вводить одиночку … меньше десяти участников»: refused with
    the warning, played with --accept-warnings; C50 (one single only) stays refused."""
    nine = NAMES12[:9]
    one_single = "mafioso,mafioso,maniac," + ",".join(["civilian"] * 6)
    args = ("game", "new", "classic", "--players", ",".join(nine), "--roles", one_single,
            "--seed", 3, "--db", sqlite_db)
    code, out = cli(*args)
    assert code == 2 and "не рекомендуют" in out and "может её принять" in out
    assert Host(sqlite_db).list_games() == []                  # nothing was stored
    out = cli_ok(*args, "--accept-warnings")
    gid = int(re.search(r"№(\d+)", out).group(1))
    first = events_of(sqlite_db, gid)[0]
    assert first["type"] == "game_started" and "одиночку" in first["data"][
        "warnings_accepted"][0][0]
    report = verify(Host(sqlite_db).export(gid))
    assert report.ok, report.problems
    two = "mafioso,maniac,ripper," + ",".join(["civilian"] * 6)
    code, out = cli("game", "new", "classic", "--players", ",".join(nine), "--roles", two,
                    "--db", sqlite_db, "--accept-warnings")
    assert code == 2 and "только один одиночка" in out
