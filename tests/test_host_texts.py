"""What the host reads from the service layer: every command kind in words (undo, log),
the bots' line in the game's language, a refused move's hint that can help."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mafiahost.engine.errors import Refused
from mafiahost.host import Host
from mafiahost.host.phases import COMMAND_WORDS

HOST = Path(__file__).parents[1] / "src" / "mafiahost" / "host"
ROLES = {"Анна": "commissar", "Борис": "boss", "Вера": "black_doctor", "Глеб": "doctor",
         "Дина": "civilian", "Егор": "civilian"}


def _kinds_in_the_code() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in HOST.glob("*.py"))
    return set(re.findall(r'_command\(\s*game_id,\s*"(\w+)"', text)) | \
        set(re.findall(r'add_command\(\s*s,\s*row\.id,\s*"(\w+)"', text))


def test_every_command_kind_the_host_can_log_has_words():
    kinds = _kinds_in_the_code()
    assert {"act", "vote", "resolve", "schedule", "votes_host", "new", "gender"} <= kinds
    for k in kinds:
        assert k in COMMAND_WORDS, f"no words for the command kind {k!r}"
        ru, en = COMMAND_WORDS[k]
        assert re.search("[а-яё]", ru) and not re.search(r"\b[a-z]+_[a-z]+\b", ru + en)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_undo_names_each_command_in_words(tmp_path, lang):
    h = Host(str(tmp_path / "g.db"))
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=1, lang=lang).game_id
    said = {
        "schedule": (lambda: h.set_schedule(gid, "day=+1 23:00"),
                     "расписание сроков", "the schedule of deadlines"),
        "votes_host": (lambda: h.set_host_nick(gid, "Ведущий_1"),
                       "ник ведущего на форуме: Ведущий_1", "the host's forum nick: Ведущий_1"),
        "votes_alias": (lambda: h.add_alias(gid, "Анюта", "Анна"),
                        "ник Анюта игрока Анна", "the nick Анюта of Анна"),
    }
    for kind, (do, ru, en) in said.items():
        do()
        msg = h.undo(gid, dry_run=True).message
        assert (ru if lang == "ru" else en) in msg, msg
        assert f"«{kind}»" not in msg and f"'{kind}'" not in msg
        h.undo(gid)
        log = "\n".join(h.log(gid, undone=True, lang=lang))
        assert f"«{kind}»" not in log and f"'{kind}'" not in log, log


def test_the_bots_line_is_in_the_games_language(tmp_path):
    h = Host(str(tmp_path / "g.db"))
    names = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жора", "Зоя", "Ира", "Костя"]
    for lang, word, other in (("en", "Bots: ", "Боты"), ("ru", "Боты: ", "Bots")):
        gid = h.new_game("gemini", names, seed=3, lang=lang,
                         bots={"Глеб": "sensible", "Дина": "random"}).game_id
        msg = h.resolve(gid).message
        assert word in msg and other not in msg, msg


def test_a_move_on_an_unknown_name_suggests_the_closest_not_replace(tmp_path):
    h = Host(str(tmp_path / "g.db"))
    gid = h.new_game("gemini", list(ROLES), roles=ROLES, seed=1).game_id
    h.act(gid, "Глеб", "heal", ["Дина"])
    with pytest.raises(Refused) as e:
        h.act(gid, "Глеб", "лечение", ["Дианаа"])
    assert "Может быть, Дина?" in e.value.ru and "Did you mean Дина?" in e.value.en
    assert "--replace" not in e.value.ru + e.value.en
    with pytest.raises(Refused) as e:
        h.act(gid, "Глеб", "лечение", ["Никто"])
    assert "--replace" not in e.value.ru and "игроки: Анна, Борис" in e.value.ru
    with pytest.raises(Refused) as e:                  # a known name: replacing helps
        h.act(gid, "Глеб", "лечение", ["Анна"])
    assert "--replace" in e.value.ru


OSIRIS = {"Аня": "civilian", "Боря": "civilian", "Вика": "maniac", "Гриша": "civilian",
          "Даша": "brute", "Егор": "thief", "Жанна": "hermit", "Зиновий": "loyal_boss",
          "Инна": "chameleon", "Кирилл": "civilian", "Лена": "joker", "Миша": "rebel_boss"}


def _osiris(tmp_path, **kw):
    h = Host(str(tmp_path / "g.db"))
    gid = h.new_game("osiris", list(OSIRIS), roles=OSIRIS, seed=42, name="Суд Осириса #1",
                     **kw).game_id
    for n in ("Аня", "Вика", "Даша", "Жанна", "Инна", "Лена"):
        h.set_gender(gid, n, "ж")
    return h, gid


def test_the_first_post_carries_the_first_phases_deadline(tmp_path, capsys):
    from datetime import datetime

    from mafiahost.cli import main
    year = datetime.now().year + 1
    db = str(tmp_path / "g.db")
    assert main(["game", "new", "osiris", "--players", ",".join(OSIRIS), "--seed", "1",
                 "--deadline", f"{year}-12-03 21:00", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "Игра начинается: Ночь 1.\nНочные ходы — до 21:00 (МСК) 3 декабря" in out
    assert "Ночные ходы — до 21:00 (МСК) 3 декабря" in Host(db).post(1, "start")


def test_votes_read_names_as_moves_do_and_the_count_shows_local_time(tmp_path):
    from datetime import datetime
    h, gid = _osiris(tmp_path)
    h.resolve(gid)
    h.set_deadline(gid, f"{datetime.now().year + 1}-12-04 21:00")
    d = h.vote(gid, "Аня", "Дашу")
    assert "Голос: Аня → Даша. («Дашу» прочитано как Даша.)" == d.message
    with pytest.raises(Refused) as e:
        h.vote(gid, "Боря", "Дафна")
    assert "Может быть, Даша?" in e.value.ru
    count = h.vote_count(gid)
    assert "Голосование до 21:00 (МСК) 4 декабря" in count
    assert "Даша — 1: Аня" in count


def test_two_who_find_each_other_meet_once_in_each_message(tmp_path):
    h, gid = _osiris(tmp_path)
    h.act(gid, "Вика", "поиск", ["Жанну"])
    h.act(gid, "Жанна", "поиск", ["Вику"])
    h.resolve(gid)
    pms = h.private_messages(gid)
    for seat in ("Вика", "Жанна"):
        assert pms[seat].count("Знакомство:") == 1, pms[seat]


def test_a_held_action_and_the_final_post_speak_plainly(tmp_path):
    h, gid = _osiris(tmp_path)
    h.resolve(gid)
    for v in OSIRIS:
        h.vote(gid, v, "Аня" if v != "Аня" else "Даша")
    h.resolve(gid)
    h.resolve(gid)
    for v in ("Боря", "Вика", "Гриша", "Егор", "Жанна", "Зиновий", "Инна", "Кирилл", "Лена",
              "Миша"):
        if h.load(gid)[1].state.players[v].alive:
            h.vote(gid, v, "Даша")
    h.vote(gid, "Даша", "Боря")
    h.resolve(gid)
    pm = h.private_messages(gid, "Жанна")["Жанна"]
    assert "По итогам голосования выбывает Даша, и ночное действие Даши переходит к вам" in pm
    assert "вынесен" not in pm and " его " not in pm
    final = h.post(gid, "final", force=True)
    assert final.startswith("Итоги игры «Суд Осириса #1»")


def test_the_end_tells_the_host_which_file_to_attach(tmp_path):
    h = Host(str(tmp_path / "g.db"))
    gid = h.new_game("vanilla", ["Ян", "Юля", "Эмма", "Шура"], seed=5,
                     roles={"Ян": "mafioso", "Юля": "civilian", "Эмма": "civilian",
                            "Шура": "civilian"}).game_id
    g = h.load(gid)[1]
    while not g.state.over:
        if g.state.phase == "day":
            for v in ("Юля", "Эмма", "Шура", "Ян"):
                if g.state.players[v].alive:
                    h.vote(gid, v, "Ян" if v != "Ян" else "Юля")
        d = h.resolve(gid)
        g = h.load(gid)[1]
    assert f"mafiahost export {gid} -o game-{gid}.json" in d.message
    assert f"game-{gid}.json, приложенный к этому посту" in d.post
    assert "mafiahost export" not in d.post


@pytest.mark.parametrize("ruleset", __import__("mafiahost.rules", fromlist=["available"])
                         .available())
def test_each_side_has_its_own_goal_on_the_cards(ruleset):
    """A goal copied from another side (mafia-yakuza's town read «остался хотя бы один
    представитель клана») tells a player the wrong goal: factions of different sides
    (town, criminal, single) never share a goal text (two rival clans of one side may),
    and the English and Russian goals of a side are both given or both absent."""
    from mafiahost.rules import load
    r = load(ruleset)
    for lang in ("ru", "en"):
        seen: dict[str, tuple[str, str]] = {}
        for fid, f in r.factions.items():
            goal = getattr(f, f"goal_{lang}", "") or ""
            if goal:
                other = seen.get(goal)
                assert other is None or other[1] == f.side, \
                    f"{ruleset}: {fid} and {other[0]} share: {goal}"
                seen[goal] = (fid, f.side)
    for fid, f in r.factions.items():
        assert bool(getattr(f, "goal_ru", "")) == bool(getattr(f, "goal_en", "")), fid


def test_a_card_gives_no_target_count_for_a_move_on_nobody(tmp_path):
    h = Host(str(tmp_path / "g.db"))
    names = ["Аня", "Боря", "Вика", "Гриша", "Даша", "Егор", "Жанна", "Зиновий", "Инна",
             "Кирилл", "Лена", "Миша", "Нина", "Олег"]
    gid = h.new_game("mafia-yakuza", names, seed=7).game_id
    cards = h.cards(gid)
    assert all("целей: 0" not in c for c in cards.values())
    assert "Игровое описание — днём. Обязательное описание" in cards["Аня"]
    assert "Цель: В конце игры остался хотя бы один мирный житель" in cards["Гриша"]


def test_a_move_that_takes_effect_at_once_counts_as_sent(tmp_path):
    """mafia-yakuza's day description is applied when sent (not pending): the preview's
    «Ещё не прислали ход» must not list whoever sent it."""
    h = Host(str(tmp_path / "g.db"))
    names = ["Аня", "Боря", "Вика", "Гриша", "Даша", "Егор", "Жанна", "Зиновий", "Инна",
             "Кирилл", "Лена", "Миша", "Нина", "Олег"]
    gid = h.new_game("mafia-yakuza", names, seed=7).game_id
    for p in names[:-2]:
        h.act(gid, p, "описание", [])
    assert h.show(gid)["not_acted"] == ["Нина", "Олег"]
    warn = "\n".join(h.preview(gid)["warnings"])
    assert "Ещё не прислали ход: Нина, Олег —" in warn


YAKUZA14 = ["Аня", "Боря", "Вика", "Гриша", "Даша", "Егор", "Жанна", "Зиновий", "Инна",
            "Кирилл", "Лена", "Миша", "Нина", "Олег"]


def test_what_the_day_gave_at_once_reaches_the_next_messages(tmp_path):
    """An item found by day is told at once in the game (an immediate event): the default
    ``pm`` after the day's resolve carries it, «день 1» names the phase as «day 1» does,
    and the acknowledgements of moves are not repeated."""
    h = Host(str(tmp_path / "g.db"))
    gid = h.new_game("mafia-yakuza", YAKUZA14, seed=7).game_id
    who = next(p.name for p in h.load(gid)[1].state.order if p.role == "doctor")
    for p in YAKUZA14:
        h.act(gid, p, "описание", [])
    h.act(gid, who, "находка: бронежилет", [])
    h.resolve(gid)
    pm = h.private_messages(gid)[who]
    assert "Вы получаете: Бронежилет ×1." in pm and "Ход принят" not in pm
    assert h.private_messages(gid, who, phase="день 1") == \
        h.private_messages(gid, who, phase="day 1")
    with pytest.raises(Refused) as e:
        h.private_messages(gid, phase="ночь 9")
    assert "«ночь 1»" in e.value.ru
    assert h.post(gid, "phase", "День 1") == h.post(gid, "phase", "day 1")


def test_a_card_carries_what_the_deal_tells_the_player(tmp_path):
    h = Host(str(tmp_path / "g.db"))
    gid = h.new_game("mafia-yakuza", YAKUZA14, seed=7).game_id
    g = h.load(gid)[1]
    com = next(p.name for p in g.state.order if p.role == "commissar")
    sgt = next(p.name for p in g.state.order if p.role == "sergeant")
    assert f"Знакомство: {sgt} знает, кто вы" in h.cards(gid, com)[com]


def test_a_weighted_count_says_so(tmp_path):
    h = Host(str(tmp_path / "g.db"))
    gid = h.new_game("mafia-yakuza", YAKUZA14, seed=7).game_id
    g = h.load(gid)[1]
    auth = next(p.name for p in g.state.order if p.role == "authority")
    for p in YAKUZA14:
        h.act(gid, p, "описание", [])
    target = next(p for p in YAKUZA14 if p != auth)
    h.vote(gid, auth, target)
    d = h.resolve(gid)
    assert f"• {target} — 2: {auth}" in d.post
    assert "Голоса посчитаны с их весом" in d.post
    assert "Голоса посчитаны с их весом" not in h.post(
        h.new_game("gemini", ["А", "Б", "В", "Г", "Д", "Е"], seed=1).game_id)


def test_the_pages_leave_out_moves_with_no_target_now(tmp_path):
    """antem's hermit holds no action the first night: neither the host's «Может сейчас»
    nor «Ещё не прислали ход» lists him, and his page gives one line for the twelve taken
    moves instead of twelve empty forms; the page without a deadline says «Срок: не
    задан» once; the new-game form's more options say what they are."""
    from test_web_support import client, make_app
    app, h = make_app(str(tmp_path / "g.db"))
    key = h.add_host("Ведущий")
    names = ["Аня", "Боря", "Вика", "Гриша", "Даша", "Егор", "Жанна", "Зиновий", "Инна",
             "Кирилл", "Лена", "Миша"]
    gid = h.new_game("antem", names, seed=5, owner=h.host_id("Ведущий")).game_id
    g = h.load(gid)[1]
    hermit = next(p.name for p in g.state.order if p.role == "hermit")
    assert hermit not in h.show(gid)["not_acted"]
    row = next(p for p in h.show(gid)["players"] if p["seat"] == hermit)
    assert row["can_use"] == []
    hc = client(app, key)
    page = hc.get(f"/host/games/{gid}").text
    assert "Срок: не задан" in page and "срок не задан" not in page
    assert "Ещё: роли, боты, опции правил" in hc.get("/host").text
    pc = client(app)
    tok = h.links(gid)[hermit]
    html = pc.get(f"/p/{tok}").text
    assert html.count('class="move"') == 0
    assert "Сейчас у вас нет хода." in html
    assert "Сейчас без допустимых целей: Проверка (взятая), Две проверки (взятые)" in html
