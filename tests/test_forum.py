"""Vote counting from forum posts: dumps, markup, quotes, edits, names, deadline, rules."""

import copy
import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
import yaml

from mafiahost.engine.errors import Refused
from mafiahost.engine.game import Game
from mafiahost.forum import DumpError, Post, find_votes, parse_dump, parse_time, unquoted
from mafiahost.render.posts import vote_count_post
from mafiahost.rules import load

DATA = Path(__file__).parent / "data"
DEADLINE = datetime(2024, 3, 12, 22, 0)

GEMINI_SEATS = [("Анна", "boss"), ("Борис", "black_doctor"), ("Вера", "commissar"),
                ("Глеб", "doctor"), ("Дина", "civilian"), ("Нина", "civilian"),
                ("Саша К", "maniac"), ("Саша М", "sergeant"), ("Ёжик", "alcoholic"),
                ("Кот_Бегемот", "recruiter"), ("Егор", "joker"), ("Лев", "lover")]
VANILLA_SEATS = [("Анна", "mafioso"), ("Борис", "mafioso"), ("Вера", "civilian"),
                 ("Глеб", "civilian"), ("Дина", "civilian"), ("Егор", "civilian"),
                 ("Жанна", "civilian"), ("Зоя", "civilian")]


def gemini_day1():
    """Day 1 of a gemini game: Дина was killed in the night, Гриша replaced Глеб."""
    g = Game(load("gemini"), GEMINI_SEATS, seed=1)
    g.submit("Борис", "kill", ["Дина"])
    g.resolve()
    assert not g.state.players["Дина"].alive and g.state.phase == "day"
    g.replace_player("Глеб", "Гриша")
    return g


def vanilla_day1(rules=None):
    g = Game(rules or load("vanilla"), VANILLA_SEATS, seed=2)
    g.submit("Анна", "kill", ["Зоя"])
    g.resolve()
    assert not g.state.players["Зоя"].alive and g.state.phase == "day"
    return g


def thread():
    return parse_dump((DATA / "gemini_day1_thread.txt").read_text(encoding="utf-8"))


def problem_of(report, post_id):
    found = [p for p in report.problems if f"#{post_id} " in p]
    assert len(found) == 1, (post_id, report.problems)
    return found[0]


# ---- reading dumps -------------------------------------------------------------------------

def test_pasted_phpbb_pages_are_read_post_by_post():
    posts = thread()
    assert len(posts) == 17                       # 16 posts, one pasted again after an edit
    assert [p.id for p in posts[:3]] == ["1001", "1002", "1003"]
    assert posts[1].author == "Борис" and posts[1].time == datetime(2024, 3, 12, 11, 5)
    assert posts[9].author == "Саша К"            # a nick with a space
    # the next post's "Re: ..." title line is not part of the previous post
    assert "Re:" not in posts[1].text
    assert posts[1].text.endswith("[spoiler=Голос против]вера[/spoiler]")
    assert posts[-1].id == "1006" and "Нина" in posts[-1].text


def test_json_and_yaml_dumps_read_the_same():
    raw = (DATA / "vanilla_day1_posts.json").read_text(encoding="utf-8")
    from_json = parse_dump(raw)
    from_yaml = parse_dump(yaml.safe_dump(json.loads(raw), allow_unicode=True))
    assert from_json == from_yaml
    assert len(from_json) == 9
    assert from_json[0] == Post("1", "Анна", datetime(2024, 3, 13, 10, 2,
                                                     tzinfo=timezone(timedelta(hours=3))),
                                "Начнём. [color=red]Вера[/color]")
    assert parse_dump(json.dumps({"posts": json.loads(raw)})) == from_json


def test_post_wrapper_and_author_header_formats():
    wrapped = ('[post author="Саша М" time="12.03.2024 18:00" id=12]'
               '[spoiler=Голос против]Лев[/spoiler][/post]\n'
               "[post author=Лев time=2024-03-12T18:05]привет[/post]")
    posts = parse_dump(wrapped)
    assert [(p.id, p.author, p.time, p.text) for p in posts] == [
        ("12", "Саша М", datetime(2024, 3, 12, 18, 0), "[spoiler=Голос против]Лев[/spoiler]"),
        (None, "Лев", datetime(2024, 3, 12, 18, 5), "привет")]
    headed = ("Автор: Анна | 12.03.2024 21:15 | #7\n[color=red]Борис[/color]\n\n"
              "Автор: Борис\nДата: 12 марта 2024 в 21:20\n#8\nНе я!\n"
              "Вера написал(а) 12.03.2024 в 21:30:\nПривет\n"
              "Глеб написал(а):\nэто строка текста, а не заголовок (нет даты)\n"
              "Post by Lev » Tue Mar 12, 2024 9:45 pm\nhi")
    posts = parse_dump(headed)
    assert [(p.id, p.author, p.time) for p in posts] == [
        ("7", "Анна", datetime(2024, 3, 12, 21, 15)),
        ("8", "Борис", datetime(2024, 3, 12, 21, 20)),
        (None, "Вера", datetime(2024, 3, 12, 21, 30)),
        (None, "Lev", datetime(2024, 3, 12, 21, 45))]
    assert posts[0].text == "[color=red]Борис[/color]"
    assert posts[1].text == "Не я!"
    assert "Глеб написал(а):" in posts[2].text


def test_unreadable_dumps_are_refused_with_a_sentence():
    with pytest.raises(DumpError) as e:
        parse_dump('[{"time": "2024-03-12T10:00", "text": "x"}]')
    assert "author" in e.value.ru and "Post 1" in e.value.en
    with pytest.raises(DumpError) as e:
        parse_dump('[{"author": "Анна", "time": "вчера", "text": "x"}]')
    assert "вчера" in e.value.ru
    with pytest.raises(DumpError) as e:
        parse_dump("просто текст без заголовков")
    assert "Автор: Ник" in e.value.ru
    with pytest.raises(DumpError):
        parse_dump("[post author=Анна]не закрыт")
    assert isinstance(e.value, Refused)


def test_times():
    msk = timezone(timedelta(hours=3))
    assert parse_time("2024-03-12T21:15:00+03:00") == datetime(2024, 3, 12, 21, 15, tzinfo=msk)
    assert parse_time("12 мар 2024, 21:15") == datetime(2024, 3, 12, 21, 15)
    assert parse_time("Tue Mar 12, 2024 12:05 am") == datetime(2024, 3, 12, 0, 5)
    assert parse_time("12.03.24 9:05") == datetime(2024, 3, 12, 9, 5)
    assert parse_time(1710267300) == datetime(2024, 3, 12, 18, 15, tzinfo=UTC)
    assert parse_time("Сегодня, 21:15") is None


def test_quotes_nested_and_unclosed():
    text, open_ = unquoted("a [quote=X]b [quote]c[/quote] d[/quote] e [code]f[/code] g")
    assert text.split() == ["a", "e", "g"] and not open_
    text, open_ = unquoted("a [quote]b")
    assert text.strip() == "a" and open_


# ---- finding votes -------------------------------------------------------------------------

def test_realistic_thread_gives_the_right_votes():
    g = gemini_day1()
    report = find_votes(thread(), g, DEADLINE, aliases={"Бегемот": "Кот_Бегемот"})
    assert [(v, t, p.id) for v, t, p in report.votes] == [
        ("Борис", "Вера", "1002"),        # lower case
        ("Вера", "Борис", "1003"),        # a reason after the name; a quoted vote ignored
        ("Егор", "Нина", "1006"),         # the edited text, at the post's place
        ("Глеб", "Борис", "1009"),        # the replacement's nick; a typo "Борсис"
        ("Лев", "against_all", "1011"),   # against all, allowed on day 1
        ("Саша М", "Лев", "1012"),        # the post's last vote
        ("Вера", "Анна", "1015"),         # a vote change ("Анну")
    ]
    assert len(report.problems) == 8
    assert "самозванец" in problem_of(report, 1005)   # author "Ежик" for "Ёжик": an ё/е twin
    assert "не по правилам" in problem_of(report, 1004)          # red in a spoiler game
    assert "не в игре" in problem_of(report, 1007)                  # the dead
    assert "заменён" in problem_of(report, 1008)                 # the replaced nick
    amb = problem_of(report, 1010)
    assert "неоднозначно" in amb and "Саша К" in amb and "Саша М" in amb
    assert "не игрок" in problem_of(report, 1013)                # a spectator
    assert "не имя игрока" in problem_of(report, 1014)           # unknown name
    assert "после срока" in problem_of(report, 1016)             # late
    # nothing from the host's post (the example is in [code]) nor from quotes
    assert not any("#1001" in p or "#1002" in p or "#1003" in p for p in report.problems)
    # what was read by a close spelling or an alias is told to the host
    assert any("Борсис" in n and "Борис" in n for n in report.notes)
    assert any("#1012 " in n and "последний" in n for n in report.notes)


def test_found_votes_apply_in_order_and_make_the_count():
    g = gemini_day1()
    report = find_votes(thread(), g, DEADLINE, aliases={"Бегемот": "Кот_Бегемот"})
    for voter, target, _post in report.votes:
        g.vote(voter, target)
    assert g.state.votes == {"Борис": "Вера", "Вера": "Анна",
                             "Егор": "Нина", "Глеб": "Борис", "Лев": "against_all",
                             "Саша М": "Лев"}
    post = vote_count_post(g)
    assert "Борис — 1: Гриша" in post             # the replacement's nick, not the seat's
    assert "Против всех — 1: Лев" in post
    assert "Анна, Нина, Саша К, Ёжик, Кот_Бегемот" in post   # not voted, in seating order
    # importing the same thread again changes nothing: every vote is already in
    again = find_votes(thread(), g, DEADLINE, aliases={"Бегемот": "Кот_Бегемот"})
    assert again.votes == []


def test_without_a_deadline_a_late_vote_counts_and_a_timeless_one_is_refused_with_one():
    g = gemini_day1()
    report = find_votes(thread(), g, None, aliases={"Бегемот": "Кот_Бегемот"})
    assert ("Нина", "Лев") in [(v, t) for v, t, _ in report.votes]
    posts = [Post(None, "Нина", None, "[spoiler=Голос против]Лев[/spoiler]")]
    report = find_votes(posts, gemini_day1(), DEADLINE)
    assert report.votes == [] and "нет времени" in report.problems[0]


def test_red_names_quotes_edits_and_engine_rules_in_a_vanilla_game():
    g = vanilla_day1()
    posts = parse_dump((DATA / "vanilla_day1_posts.json").read_text(encoding="utf-8"))
    deadline = datetime(2024, 3, 13, 22, 0)       # naive: read in the posts' zone (+03:00)
    report = find_votes(posts, g, deadline)
    assert [(v, t, p.id) for v, t, p in report.votes] == [
        ("Анна", "Вера", "1"),            # pasted again changed, no edit line: the edit's
                                          # time is unknown, so the first text counts
        ("Вера", "Анна", "2"),            # a hex red; the quoted red name does not count
        ("Глеб", "Борис", "3"),           # "Бориса" in [b] inside red: declension
        ("Егор", "Анна", "6"),            # author "егор"; a Latin "a" in "Аннa"
        ("Жанна", "Глеб", "7"),           # the red text that is a name, not «ВНИМАНИЕ»
    ]
    assert "против всех" in problem_of(report, 4)          # no against-all in vanilla
    assert "не в игре" in problem_of(report, 5)                # Зоя is dead
    assert "после срока" in problem_of(report, 8)
    assert len(report.problems) == 3
    en = find_votes(posts, g, deadline, lang="en")
    assert "is out of the game" in [p for p in en.problems if "#5 " in p][0]


def test_ruleset_markup_convention_decides_what_is_a_vote():
    rules = copy.copy(load("vanilla"))
    rules.forum = {"vote_markup": ["red"]}
    g = vanilla_day1(rules)
    posts = [Post("1", "Вера", None, "[spoiler=Голос против]Анна[/spoiler]"),
             Post("2", "Глеб", None, "[color=red]Анна[/color]"),
             Post("3", "Дина", None, "[spoiler=Мысли вслух]Анна[/spoiler]")]
    report = find_votes(posts, g)
    assert [(v, t) for v, t, _ in report.votes] == [("Глеб", "Анна")]
    assert len(report.problems) == 1 and "не по правилам" in problem_of(report, 1)


def test_vote_change_limit_is_the_engines():
    rules = copy.copy(load("vanilla"))
    rules.day = copy.copy(rules.day)
    rules.day.vote_changes = 1
    g = vanilla_day1(rules)
    posts = [Post(str(i), "Вера", datetime(2024, 3, 13, 10, i), f"[color=red]{t}[/color]")
             for i, t in enumerate(["Анна", "Борис", "Борис", "Глеб"], 1)]
    report = find_votes(posts, g)
    # the repeated "Борис" changes nothing and spends no change; "Глеб" is a second change
    assert [(v, t, p.id) for v, t, p in report.votes] == [("Вера", "Анна", "1"),
                                                          ("Вера", "Борис", "2")]
    assert "не более 1" in problem_of(report, 4)
    for v, t, _ in report.votes:
        g.vote(v, t)                  # the engine accepts exactly these, in this order


def test_names_are_never_guessed():
    g = gemini_day1()
    posts = [Post("1", "Анна", None, "[spoiler=Голос против]Пина[/spoiler]"),   # Дина/Нина
             Post("2", "Борис", None, "[spoiler=Голос против][/spoiler]"),
             Post("3", "Вера", None, "[spoiler=Голос против]Ёжик[/spoiler]"),
             Post("4", "Лев", None, "[spoiler=Голос]голосую против Кота_Бегемота[/spoiler]")]
    report = find_votes(posts, g)
    assert [(v, t) for v, t, _ in report.votes] == [("Вера", "Ёжик"), ("Лев", "Кот_Бегемот")]
    amb = problem_of(report, 1)
    assert "Дина" in amb and "Нина" in amb
    assert "не имя игрока" in problem_of(report, 2)


def test_not_day_is_one_problem():
    g = Game(load("vanilla"), VANILLA_SEATS, seed=2)
    report = find_votes([Post("1", "Вера", None, "[color=red]Анна[/color]")], g)
    assert report.votes == [] and report.problems == ["Сейчас не день: голоса не принимаются."]


def test_an_unclosed_quote_hides_the_rest_and_is_reported():
    g = vanilla_day1()
    posts = [Post("1", "Вера", None, "[quote=Анна]ну и ну [color=red]Глеб[/color]")]
    report = find_votes(posts, g)
    assert report.votes == [] and "не закрыта" in report.problems[0]


def test_importing_a_growing_thread_twice_adds_only_the_new_votes():
    g = gemini_day1()
    posts = thread()
    early = [p for p in posts if p.time <= datetime(2024, 3, 12, 15, 30)]
    first = find_votes(early, g, DEADLINE, aliases={"Бегемот": "Кот_Бегемот"})
    for v, t, _ in first.votes:
        g.vote(v, t)
    assert [p.id for _v, _t, p in first.votes] == ["1002", "1003", "1006", "1009"]
    second = find_votes(posts, g, DEADLINE, aliases={"Бегемот": "Кот_Бегемот"})
    assert [p.id for _v, _t, p in second.votes] == ["1011", "1012", "1015"]
    # given only the new posts, the same votes come out
    later = [p for p in posts if p not in early]
    third = find_votes(later, g, DEADLINE, aliases={"Бегемот": "Кот_Бегемот"})
    assert [(v, t, p.id) for v, t, p in third.votes] == [
        (v, t, p.id) for v, t, p in second.votes]


def test_votes_typed_by_hand_first_are_kept():
    g = gemini_day1()
    g.vote("Вера", "Лев")                         # the host typed a vote the thread lacks
    report = find_votes(thread(), g, DEADLINE, aliases={"Бегемот": "Кот_Бегемот"})
    assert len(report.votes) == 7
    assert ("Вера", "Борис") in [(v, t) for v, t, _ in report.votes]
    for v, t, _ in report.votes:
        g.vote(v, t)
    assert g.state.votes["Вера"] == "Анна"


def test_withdrawals_in_every_form_and_a_bare_changed_mind_only_with_a_vote():
    g = vanilla_day1()
    t = datetime(2024, 3, 13, 10, 0)
    posts = [Post("1", "Вера", t, "[color=red]Анна[/color]"),
             Post("2", "Вера", t, "[color=red]снимаю голос[/color]"),
             Post("3", "Глеб", t, "[b]Бориса[/b]"),
             Post("4", "Глеб", t, "Передумал. Снимаю."),
             Post("5", "Дина", t, "передумала"),            # no vote to take back: chatter
             Post("6", "Егор", t, "голос: Анну"),
             Post("7", "Егор", t, "Снимаю свой голос с Анны")]
    report = find_votes(posts, g)
    assert [(v, t, p.id) for v, t, p in report.votes] == [
        ("Вера", "Анна", "1"), ("Вера", None, "2"), ("Глеб", "Борис", "3"),
        ("Глеб", None, "4"), ("Егор", "Анна", "6"), ("Егор", None, "7")]
    assert report.skipped == []
    # «передумал» is a reading the host is told about; «снимаю голос» is plain
    assert [n for n in report.notes if "снятие" in n] == [
        n for n in report.notes if "#4 " in n and "снятие" in n]
    assert any("#4 " in n for n in report.notes)


def test_edit_lines_of_every_forum_are_read():
    from mafiahost.forum import edits
    for line in ["Последний раз редактировалось Вера 12 мар 2024, 21:40, всего "
                 "редактировалось 1 раз.",
                 "Last edited by Vera on Tue Mar 12, 2024 9:40 pm, edited 1 time in total.",
                 "Последний раз редактировалось Вера; 12.03.2024 в 21:40.",
                 "Last edited by Vera; 03-12-2024 at 09:40 PM.",
                 "Сообщение отредактировал Вера - 12.3.2024, 21:40",
                 "Edited by Vera, 12 March 2024 - 09:40 PM."]:
        text, times = edits("[color=red]Анна[/color]\n\n" + line)
        assert text == "[color=red]Анна[/color]" and times == [datetime(2024, 3, 12, 21, 40)]


def test_a_vote_against_oneself_and_a_russian_name_in_latin_letters():
    g = vanilla_day1()
    t = datetime(2024, 3, 13, 10, 0)
    report = find_votes([Post("1", "Вера", t, "[color=red]себя[/color]"),
                         Post("2", "Глеб", t, "vote: Borisa")], g)
    assert [(v, t, p.id) for v, t, p in report.votes] == [("Вера", "Вера", "1"),
                                                          ("Глеб", "Борис", "2")]
    assert len(report.notes) == 2


def test_bold_and_red_emphasis_is_no_vote_but_an_unknown_short_name_is_reported():
    g = vanilla_day1()
    t = datetime(2024, 3, 13, 10, 0)
    report = find_votes([Post("1", "Вера", t, "[b]Хинт:[/b] люблю кофе"),
                         Post("2", "Глеб", t, "[color=red]это очень важно всем[/color]"),
                         Post("3", "Дина", t, "[b]Вася[/b]")], g)
    assert report.votes == []
    assert [s["post"] for s in report.skipped] == ["3"]
    assert report.skipped[0]["reason"] == "unknown"


def test_a_vote_word_inside_the_markup_and_a_nick_that_is_a_short_form():
    rules = copy.copy(load("vanilla"))
    rules.forum = {"vote_markup": ["red"]}
    g = vanilla_day1(rules)
    t = datetime(2024, 3, 13, 10, 0)
    report = find_votes([Post("1", "Вера", t, "[color=red][b]Голос: Бориса[/b][/color]"),
                         Post("2", "Глеб", t, "Мой голос — [color=red]Анну[/color]. Прости.")],
                        g)
    assert [(v, t) for v, t, _ in report.votes] == [("Вера", "Борис"), ("Глеб", "Анна")]
