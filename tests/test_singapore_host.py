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
