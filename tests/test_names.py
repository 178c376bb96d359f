"""The Russian name matcher: folding, exact authors, lenient targets, names at creation."""

import pytest

from mafiahost.engine.errors import Refused
from mafiahost.names import NameRefused, Roster, author_key, fold, special, validate_names

SEATS = ["Анна", "Борис", "Вера", "Глеб", "Саша К", "Саша М", "Ёж", "Ксюша", "Дракоша",
         "Ниндзя", "Grom", "Кот_Бегемот", "Котофей", "Марфа", "Александр", "Лёха", "Фрося"]


@pytest.fixture(scope="module")
def roster():
    return Roster(SEATS)


def test_fold_reads_case_yo_lookalikes_and_invisible_characters_as_one_name():
    assert fold("Анна") == fold("анна") == fold("Aнна") == fold("АННА") == fold("Ан\u200bна")
    assert fold("Лёха") == fold("Леха")
    assert fold("Фрoся") == fold("Фрося")                  # a Latin o
    assert fold("\u202eВера\u200f") == fold("вера")        # direction marks
    assert fold("Кот_Бегемот") == fold("кот бегемот")
    assert fold("Саша") != fold("Маша")
    # authors: case only
    assert author_key("ФРОСЯ") == author_key("Фрося")
    assert author_key("Фрoся") != author_key("Фрося")
    assert author_key("Леха") != author_key("Лёха")


@pytest.mark.parametrize("typed, seat, how", [
    ("Анну", "Анна", "form"), ("aнну", "Анна", "form"), ("Бориса", "Борис", "form"),
    ("Веру!!", "Вера", "form"), ("Ежа", "Ёж", "form"), ("Ксюшу", "Ксюша", "form"),
    ("Дракоши", "Дракоша", "form"), ("против Дракоши", "Дракоша", "form"),
    ("Ниндзю", "Ниндзя", "form"), ("Сашу М", "Саша М", "form"), ("Котофея", "Котофей", "form"),
    ("Леху", "Лёха", "form"), ("Грома", "Grom", "translit"), ("гром", "Grom", "translit"),
    ("Бегемота", "Кот_Бегемот", "part"), ("Алекс", "Александр", "prefix"),
    ("Саню", "Александр", "short"), ("Глебушку", "Глеб", "short"),
    ("Ёжика", "Ёж", "short"), ("Борса", "Борис", "close"), ("Вера", "Вера", "exact"),
    ("ГЛЕБ", "Глеб", "exact"), ("grom", "Grom", "exact"),
])
def test_targets_are_read_as_a_russian_reader_reads_them(roster, typed, seat, how):
    m = roster.target(typed)
    assert (m.seat, m.how) == (seat, how)
    assert m.exact == (how in ("exact", "alias"))


def test_ambiguous_names_are_never_guessed(roster):
    m = roster.target("Сашу")                     # Саша К or Саша М
    assert m.seat is None and m.how == "ambiguous" and m.candidates == ("Саша К", "Саша М")
    two = roster.target("Котофея или Марфу")
    assert two.seat is None and two.how == "several" and two.candidates == ("Котофей", "Марфа")
    assert roster.target("Марфу, Веру").how == "several"
    unknown = roster.target("Глобуса")
    assert unknown.seat is None and unknown.how == "unknown" and "Глеб" in unknown.candidates
    assert roster.target("Зинаида").seat is None
    assert roster.target("  ").how == "empty"


def test_edit_distance_is_small_and_short_names_must_be_exact():
    r = Roster(["Лев", "Анна"])
    assert r.target("Лес").seat is None           # three letters: no typo allowed
    assert (r.target("Ана").seat, r.target("Ана").how) == ("Анна", "close")
    assert r.target("Инга").seat is None          # two letters off a four-letter name
    assert r.target("Анан").seat == "Анна"        # a transposition


def test_leading_name_and_the_rest(roster):
    m = roster.leading("Веру, она мафия")
    assert m.seat == "Вера" and m.rest == "она мафия"
    m = roster.leading("Сашу М потому что молчит")
    assert m.seat == "Саша М" and m.rest == "потому что молчит"


def test_special_votes():
    assert special("против всех") == "against_all" == special("Всех")
    assert special("воздерживаюсь") == "abstain"
    assert special("Вера") is None


def test_authors_are_exact_and_lookalikes_are_impostors():
    r = Roster(["Фрося", "Лёха", "Глеб"], nicks={"Глеб": "Гриша"},
               aliases={"Лёшка": "Лёха"}, former={"Глеб": "Глеб"}, host_nicks=["Ведущий_Кот"])
    assert r.author("фрося").seat == "Фрося"
    assert r.author("Лёшка").how == "alias" and r.author("Лёшка").seat == "Лёха"
    assert r.author("ведущий_кот").how == "host"
    old = r.author("Глеб")
    assert old.seat is None and old.how == "former" and old.like == "Глеб"
    assert r.author("Гриша").seat == "Глеб"
    for fake, like in [("Фрoся", "Фрося"), ("Фро\u200bся", "Фрося"), ("Леха", "Лёха"),
                       ("Гришa", "Глеб"), ("\u200fФрося", "Фрося")]:
        a = r.author(fake)
        assert (a.seat, a.how, a.like) == (None, "impostor", like), fake
    assert r.author("Прохожий").how == "stranger"


def test_aliases_must_point_to_a_player():
    with pytest.raises(NameRefused) as e:
        Roster(["Анна"], aliases={"Аня": "Маша"})
    assert "Маша" in e.value.ru and "Маша" in e.value.en


@pytest.mark.parametrize("names, word", [
    (["Анна", "анна"], "не различить"), (["Анна", "Aнна"], "не различить"),
    (["Лёха", "Леха"], "не различить"), (["Вера", "Ве\u200bра"], "невидимые"),
    (["Анна", "против всех"], "служебное"), (["abstain", "Вера"], "служебное"),
    (["Анна", "Вер\x07а"], "управляющие"), (["А" * 65], "64"), (["Анна", " "], "Пустое"),
])
def test_bad_names_at_creation_are_refused_with_a_sentence(names, word):
    with pytest.raises(Refused) as e:
        validate_names(names)
    assert word in e.value.ru and e.value.en


def test_good_names_pass():
    validate_names(["Саша", "Маша", "Саша К", "Grom", "Кот_Бегемот", "А" * 64])


def test_a_latin_nick_spelled_a_little_differently_in_cyrillic():
    r = Roster(["KotPharaon", "Анубис", "Shadow"])
    assert (r.target("Котофараона").seat, r.target("Котофараона").how) == ("KotPharaon",
                                                                          "translit")
    assert r.target("Шадоу").seat == "Shadow"
    assert r.target("Шлем").seat is None
    assert Roster(["Костян", "Инна"]).target("Костю").seat == "Костян"   # both Константин


def test_a_letter_without_a_unicode_name_reads_as_no_name(roster):
    """pymorphy3 raises on a letter that has no Unicode name (Tangut «𗀀»): such a word
    is read as no name, and is declined as written, never a crash (a vote ``"𗀀A"``, whose
    Latin A folds to a Cyrillic а, once made the player API answer 500)."""
    from mafiahost.names import parse
    from mafiahost.render.wording import decline
    odd = "\U00017000"
    assert parse(odd + "а") == []
    assert roster.target(odd + "A").seat is None
    # one character too many, as any other typo: a close match
    assert roster.target("Веру" + odd).seat == "Вера"
    assert decline("Вася" + odd, "gent") == "Вася" + odd
    assert parse("веру")                # an ordinary word is still read
