"""Singapore through the host: what the rule set asks of the host that a scenario cannot show."""

from test_host_support import cli

from mafiahost.host import Host

pytest_plugins = ["test_host_support"]   # its fixtures: sqlite_db, any_db

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Иван", "Кира", "Лев",
         "Мила", "Нина", "Олег", "Павел", "Рита", "Семён", "Тина", "Ульяна", "Фёдор", "Харитон",
         "Цветана", "Чеслав"]


def test_fewer_than_22_players_is_a_warning_not_a_refusal(sqlite_db):
    # «В игре участвуют 22-23 человека»: 10 players is allowed, with the host told
    done = Host(sqlite_db).new_game("singapore", NAMES[:10], seed=1)
    assert "22–23" in done.message and "здесь 10" in done.message
    assert done.data["notice"]
    for n in (22, 23):
        done = Host(sqlite_db).new_game("singapore", NAMES[:n], seed=1)
        assert "22–23" not in done.message and "notice" not in done.data
    code, out = cli("game", "new", "singapore", "--players", ",".join(NAMES[:12]),
                    "--db", sqlite_db)
    assert code == 0 and "22–23" in out


def test_player_page_offers_blood_writing_and_the_will():
    """The player's page has forms for the will (a will bought earlier) and for writing in
    blood (the day after one is killed while free), as the host's command line has."""
    from mafiahost.engine.game import Game
    from mafiahost.rules import load
    from mafiahost.web.views import player_moves

    roles = ["boss_a", "mafioso_a", "sheriff", "investigator", "doctor", "priest", "vampire",
             "civilian", "civilian", "journalist"]
    seating = list(zip(NAMES[:10], roles, strict=True))
    g = Game(load("singapore"), seating, seed=3)
    g.submit("Зоя", "buy_will")
    g.resolve()
    will = next(m for m in player_moves(g, "Зоя", "ru") if m["id"] == "write_will")
    assert will["usable"] and "Борис" in [s for s, _ in will["options"][0]]
    assert not any(m["id"] == "blood" and m.get("usable") for m in player_moves(g, "Иван", "ru"))
    g.submit("Зоя", "write_will", ("Борис",))
    g.resolve()                     # day 1
    g.submit("Анна", "kill", ("Иван",))
    g.resolve()                     # night 2: Иван is killed while free
    assert not g.state.players["Иван"].alive
    blood = next(m for m in player_moves(g, "Иван", "ru") if m["id"] == "blood")
    assert blood["usable"] and "Анна" in [s for s, _ in blood["options"][0]]


def test_host_grants_description_coins_only_as_the_rules_say(sqlite_db):
    """E8: «Описание ночного хода - 1-2 монеты (… описывается только удачное убийство
    исполнителем)»; «Оплачивается только 1 описание в день от 1 одинокого персонажа а также 1
    описание от одного клана»; the artistic article's second coin."""
    h = Host(sqlite_db)
    roles = (["boss_a", "mafioso_a", "sheriff", "investigator", "doctor", "priest",
                      "vampire", "civilian", "civilian", "journalist"])
    gid = h.new_game("singapore", NAMES[:10], roles=roles, seed=5).game_id
    h.act(gid, "Зоя", "buy_cross")
    h.resolve(gid)                                  # night 1: nothing happened
    code, out = cli("grant", str(gid), "Анна", "2", "night", "--db", sqlite_db)
    assert code == 2 and "исполнителю удачного убийства" in out
    h.resolve(gid)                                  # day 1
    h.act(gid, "Анна", "kill", ["Иван"])
    h.act(gid, "Кира", "journal", ["Анна"])
    h.resolve(gid)                                  # night 2: Анна kills Иван
    for bad, why in ((["Анна", "3", "night"], "1 или 2"), (["Анна", "2", "poem"], "не подходит"),
                     (["Вера", "1", "article"], "нет статьи"), (["Иван", "1", "day"], "не в игре")):
        code, out = cli("grant", str(gid), *bad, "--db", sqlite_db)
        assert code == 2 and why in out, (bad, out)
    code, out = cli("grant", str(gid), "Анна", "2", "night", "--db", sqlite_db)
    assert code == 0, out
    code, out = cli("grant", str(gid), "Кира", "1", "article", "--db", sqlite_db)
    assert code == 0, out
    code, out = cli("grant", str(gid), "Кира", "1", "article", "--db", sqlite_db)
    assert code == 2 and "уже доплачено" in out
    code, out = cli("grant", str(gid), "Борис", "1", "night", "--db", sqlite_db)
    assert code == 2 and "исполнителю" in out
    g = h.load(gid)[1]
    paid = [(e.data["by"] if e.type == "treasury_changed" else e.data["to"], e.data["delta"])
            for e in g.events if e.type in ("treasury_changed", "coins_changed")
            and str(e.data.get("why", "")).startswith("grant:")]
    assert paid == [("Анна", 2), ("Кира", 1)]


def test_host_marks_a_role_revealed_in_the_thread(sqlite_db):
    """S27 «Выпустить можно только того игрока чья роль в игре не вскрыта»: a role revealed by
    speech (claimed or exposed in the thread) is the host's mark, `game reveal`; the lawyer's
    release then refuses him, and taking the mark back (or undo) allows it again."""
    h = Host(sqlite_db)
    roles = ["boss_a", "mafioso_a", "sheriff", "investigator", "doctor", "priest", "vampire",
             "psycho", "civilian", "journalist", "lawyer", "civilian", "civilian"]
    gid = h.new_game("singapore", NAMES[:13], roles=roles, seed=2).game_id
    h.resolve(gid)                                  # night 1
    for voter in ("Нина", "Анна", "Кира"):
        h.vote(gid, voter, "Мила")
    h.resolve(gid)                                  # day 1: Мила is held for the lawyer
    code, out = cli("game", "reveal", str(gid), "Мила", "--db", sqlite_db)
    assert code == 0 and "вскрытая" in out, out
    code, out = cli("game", "reveal", str(gid), "Мила", "--db", sqlite_db)
    assert code == 2 and "уже отмечена" in out, out
    code, out = cli("act", str(gid), "Лев", "release", "Мила", "--db", sqlite_db)
    assert code == 2 and "вскрыта" in out, out
    code, out = cli("undo", str(gid), "--dry-run", "--db", sqlite_db)
    assert "роль вскрыта" in out and "reveal" not in out, out
    code, out = cli("game", "reveal", str(gid), "Мила", "--undo", "--db", sqlite_db)
    assert code == 0 and "снята" in out, out
    h.act(gid, "Лев", "release", ["Мила"])          # accepted now
    code, out = cli("game", "reveal", str(gid), "Кира", "--undo", "--db", sqlite_db)
    assert code == 2 and "не отмечена" in out, out
    other = h.new_game("gemini", NAMES[:12], seed=1).game_id
    code, out = cli("game", "reveal", str(other), "Анна", "--db", sqlite_db)
    assert code == 2 and "нечего" in out and "Traceback" not in out, out
