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

    seating = list(zip(NAMES[:10], ["boss_a", "mafioso_a", "sheriff", "investigator", "doctor",
                                    "priest", "vampire", "civilian", "civilian", "journalist"]))
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
