"""Posts ready to paste: both languages, both formats, and nothing secret in public."""

import copy
import random
import re

import pytest

from mafiahost import render
from mafiahost.engine.events import HOST, PUBLIC
from mafiahost.engine.game import Game
from mafiahost.render import posts
from mafiahost.rules import load
from mafiahost.sim import new_random_game, play_phase

RULESETS = ["vanilla", "classic", "gemini"]
LANG_FMT = [(lang, fmt) for lang in ("ru", "en") for fmt in ("plain", "bbcode")]
GENERIC = re.compile(r"^\s*(?:•\s*)?[a-z_]+: \w+=", re.M)   # "type: field=value" fallback

SEATS = [("Анна", "boss"), ("Борис", "black_doctor"), ("Вера", "commissar"),
         ("Глеб", "doctor"), ("Дина", "civilian"), ("Егор", "civilian"),
         ("Жанна", "maniac"), ("Саша", "sergeant"), ("Зоя", "alcoholic"),
         ("Иван", "recruiter"), ("Кира", "joker"), ("Лев", "lover")]


def played(ruleset, seed, rules=None):
    """A whole random game; returns the game and each phase's events."""
    if rules is None:
        g = new_random_game(ruleset, 12, seed)
    else:
        from mafiahost.rules.setup import deal
        from mafiahost.sim import NAMES
        g = Game(rules, deal(rules, NAMES[:12], seed), seed=seed)
    rng = random.Random(seed)
    phases = []
    while not g.state.over and len(phases) < 60:
        play_phase(g, rng)
        phases.append(g.resolve())
    return g, phases


def gemini_night():
    """Night 1 of a fixed gemini game: the boss covers the black doctor, the commissar
    checks him (reads town), the doctor saves the victim, the sergeant finds the commissar."""
    g = Game(load("gemini"), SEATS, seed=5)
    g.submit("Анна", "cover", ["Борис"])
    g.submit("Вера", "check", ["Борис"])
    g.submit("Борис", "kill", ["Дина"])
    g.submit("Глеб", "heal", ["Дина"])
    g.submit("Саша", "guard", ["Вера"])
    start = len(g.events)
    evs = g.resolve()
    return g, evs, g.events[start - 5:]


# ---- every post, every language and format ---------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("lang,fmt", LANG_FMT)
def test_whole_game_posts(ruleset, lang, fmt):
    g, phases = played(ruleset, 11)
    assert g.state.over
    morning = "Утро после ночи 1" if lang == "ru" else "Morning after Night 1"
    day = "Итоги дня 1" if lang == "ru" else "Day 1 result"
    texts = [posts.phase_post(g, evs, lang, fmt) for evs in phases]
    assert morning in texts[0] and day in texts[1]
    assert any(("Итоги голосования" if lang == "ru" else "Vote count") in t for t in texts)
    final = posts.final_post(g, {"seed": 11, "salt": "соль-42", "commitment": "c0ffee"},
                             lang, fmt)
    assert ("Игра окончена" if lang == "ru" else "Game over") in texts[-1]
    for p in g.state.order:               # every player with his role in the final post
        role = g.rules.roles[p.role]
        assert f"{p.name} — {role.name_ru if lang == 'ru' else role.name_en}" in final
    assert "11" in final and "соль-42" in final and "c0ffee" in final
    labels = {e.phase for e in g.events if e.type == "phase_started"}
    log_part = final.split("Лог игры" if lang == "ru" else "Game log", 1)[1]
    for label in labels:                  # the log goes phase by phase
        kind, _, n = label.partition(" ")
        word = {"ru": {"night": "Ночь", "day": "День"}, "en": {"night": "Night", "day": "Day"}}
        assert f"{word[lang][kind]} {n}" in log_part
    cards = [posts.role_card(g, p.name, lang, fmt) for p in g.state.order]
    pms = [posts.private_messages(g, g.events, p.name, lang, fmt) for p in g.state.order]
    start = posts.start_post(g, "c0ffee", lang, fmt)
    everything = texts + [final, start] + cards + pms
    for t in everything:
        assert "_state" not in t and "{" not in t and "}" not in t
        assert not GENERIC.search(t), GENERIC.search(t).group(0)   # every event has words
    if fmt == "plain":
        how = posts.Writer(g, lang, fmt).vote_how()   # the forum's own markup, to copy
        for t in texts + [final] + pms:
            t = "\n".join(x for x in t.splitlines() if x not in how)
            assert "[" not in t, t
    else:
        assert "[list]" in final and "[spoiler=" in final and "[b]" in texts[0]
        assert all(t.count("[list]") == t.count("[/list]") for t in everything)
    if lang == "en":
        how = posts.Writer(g, lang, fmt).vote_how()   # «Голос против»: the forum's markup
        for t in texts:                   # no Russian sentence left in an English post
            t = "\n".join(x for x in t.splitlines() if x not in how)
            assert not re.search(r"[а-яё]{4,} [а-яё]{4,}", t), t


def test_old_demo_calls_still_work():
    g, phases = played("vanilla", 3)
    assert render.phase_post(g, phases[0], "en").startswith("Morning after Night 1")
    assert "Roles:" in render.final_post(g, "en")
    assert "Роли:" in render.final_post(g)
    assert "Зерно: 9" in render.final_post(g, {"seed": 9})


# ---- nothing secret in public ---------------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
def test_public_posts_depend_on_public_events_only(ruleset):
    for seed in range(12):
        g, phases = played(ruleset, seed)
        for evs in phases:
            public = [e for e in evs if e.audience == PUBLIC]
            for lang, fmt in LANG_FMT:
                assert posts.phase_post(g, evs, lang, fmt) == \
                    posts.phase_post(g, public, lang, fmt)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_private_messages_show_only_the_players_own_events(ruleset):
    for seed in range(8):
        g, _ = played(ruleset, seed)
        for p in g.state.order:
            own = [e for e in g.events if e.audience not in (PUBLIC, HOST)
                   and e.visible_to(p.name)]
            assert posts.private_messages(g, g.events, p.name) == \
                posts.private_messages(g, own, p.name)


def test_hidden_roles_stay_hidden_until_the_final_post():
    rules = copy.copy(load("gemini"))
    rules.reveal_roles = False
    for seed in range(6):
        g, phases = played("gemini", seed, rules)
        role_names = {r.name_ru for r in rules.roles.values()} | \
            {r.name_en for r in rules.roles.values()}
        for evs in phases:
            if any(e.type == "game_over" for e in evs):
                continue                  # the end names a single winner by his role
            for lang, fmt in LANG_FMT:
                text = posts.phase_post(g, evs, lang, fmt)
                leaked = [r for r in role_names if r in text]
                assert not leaked, (leaked, text)
        dead = [p for p in g.state.order if not p.alive]
        final = posts.final_post(g, None)
        for p in dead:                    # the log names the hidden roles at the end
            assert f"{p.name} выбывает: " in final
            assert rules.roles[p.role].name_ru in final


def test_morning_post_and_private_messages_of_a_known_night():
    g, evs, night = gemini_night()
    post = posts.phase_post(g, evs)
    assert "Этой ночью никто не погиб." in post
    news, _, rest = post.partition("\n\n")     # then the living, the next phase, voting
    assert rest.startswith("В игре (") and "Начинается: День 1." in rest
    for secret in ("Глеб", "Лечение", "спас", "Вера", "Саша", "Борис", "Босс", "Комиссар",
                   "Дина"):
        assert secret not in news and secret not in rest.split("Начинается:")[1]
    assert posts.private_messages(g, night, "Вера") == "\n".join([
        "Ночь 1:",
        "Ход принят: Проверка → Борис.",
        "Проверка: Борис — положительный статус.",      # the boss's cover: a mafioso reads town
        "Знакомство: Саша знает, кто вы, и вы знаете, кто это.",
    ])
    saw = posts.private_messages(g, night, "Саша")
    assert "Проверка: Вера — Комиссар." in saw and "Знакомство: Вера знает" in saw
    assert posts.private_messages(g, night, "Дина") == ""        # saved, but not told
    assert posts.private_messages(g, evs, "Глеб") == ""          # the heal result is secret
    assert "Ход принят: Лечение → Дина." in posts.private_messages(g, night, "Глеб")
    en = posts.private_messages(g, night, "Вера", "en", "bbcode")
    assert en.startswith("[b]Night 1:[/b]") and "Check: Борис — positive status." in en
    final = posts.final_post(g, None)     # the host's log shows it all at the end
    assert "Дина спасается (Глеб): «Убийство» не удаётся." in final
    assert "Вера проверяет Бориса: положительный статус." in final


def test_live_count_keeps_secret_day_effects():
    g, _evs, _ = gemini_night()
    g.vote("Вера", "Борис")
    g.vote("Борис", "Вера")
    g.vote("Глеб", "Борис")
    g.vote("Дина", "against_all")
    g.vote("Егор", "Борис")
    g.vote("Егор", "Вера")                # a change moves Егор to Вера
    g.submit("Анна", "switch_vote", ["Вера", "Лев"])      # the boss's secret switch
    live = posts.vote_count_post(g, deadline="22:00 МСК")
    assert live.splitlines()[:6] == [
        "Подсчёт голосов — день 1",
        "Голосование до 22:00 МСК.",
        "• Борис — 2: Вера, Глеб",
        "• Вера — 2: Борис, Егор",
        "Против всех — 1: Дина",
        "Ещё не проголосовали (7): Анна, Жанна, Саша, Зоя, Иван, Кира, Лев",
    ]
    assert "Лев —" not in live and "switch" not in live
    assert "получит голос против себя" in live            # gemini's non-voter rule
    bb = posts.vote_count_post(g, "en", "bbcode")
    assert "[*][b]Борис[/b] — 2: Вера, Глеб" in bb and "Against all — 1: Дина" in bb
    result = posts.phase_post(g, g.resolve())             # the switch shows with the result
    assert "Голос Веры засчитан против: Лев." in result


def test_replaced_player_appears_under_the_new_nick():
    g, evs, night = gemini_night()
    g.replace_player("Вера", "Верочка")
    g.vote("Вера", "Борис")                # votes go by seat; posts show the nick
    live = posts.vote_count_post(g)
    assert "Борис — 1: Верочка" in live
    assert "Проверка: Борис — положительный статус." in posts.private_messages(g, night, "Верочка")
    card = posts.role_card(g, "Верочка")
    assert card.startswith("Ваша роль: Комиссар")
    assert "Верочка — Комиссар" in posts.final_post(g)


def test_role_cards_tell_role_goal_abilities_and_team():
    g = Game(load("gemini"), SEATS, seed=5)
    boss = posts.role_card(g, "Анна")
    assert boss.splitlines()[0] == "Ваша роль: Босс"
    assert "Сторона: Мафия." in boss and "Цель: Живых мирных меньше" in boss
    assert "Покрытие — ночью, шаг «2. Босс выбирает подопечного»." in boss
    assert "Подмена голоса — днём, целей: 2." in boss
    assert "Ваша команда (Мафия): Анна, Борис, Иван." in boss
    town = posts.role_card(g, "Саша", "en", "bbcode")
    assert "[b]Your role: Sergeant-bodyguard[/b]" in town
    assert "only after meeting the living commissar" in town
    assert "team" not in town.lower()                      # the town knows no team
    maniac = posts.role_card(g, "Жанна")
    assert "после выноса на голосовании" in maniac         # the phantom of the opera


def test_start_post_has_players_how_to_vote_and_the_commitment_only():
    g = Game(load("gemini"), SEATS, seed=5)
    start = posts.start_post(g, "9f86d081884c7d65")
    assert "9f86d081884c7d65" in start
    assert all(f"{i}. {name}" in start for i, (name, _r) in enumerate(SEATS, 1))
    assert "[spoiler=Голос против]Имя[/spoiler]" in start
    for r in g.rules.roles.values():
        assert r.name_ru not in start
    bb = posts.start_post(g, "9f86", "en", "bbcode")
    assert "[code][spoiler=Голос против]Name[/spoiler][/code]" in bb


def test_texts_can_be_overridden_by_a_host_file(tmp_path, monkeypatch):
    f = tmp_path / "texts.yaml"
    f.write_text("ru:\n  post:\n    nobody_died: 'Тихая ночь, все живы.'\n"
                 "formats:\n  bbcode:\n    title: '[u]{text}[/u]'\n", encoding="utf-8")
    monkeypatch.setenv(posts.ENV, str(f))
    g, evs, _ = gemini_night()
    assert posts.phase_post(g, evs, "ru", "bbcode").splitlines()[:2] == [
        "[u]Утро после ночи 1[/u]", "Тихая ночь, все живы."]
    assert "Nobody died tonight." in posts.phase_post(g, evs, "en")


def test_bad_language_or_format_is_a_sentence():
    g, evs, _ = gemini_night()
    with pytest.raises(ValueError, match="use one of ru, en"):
        posts.phase_post(g, evs, "de")
    with pytest.raises(ValueError, match="use one of plain, bbcode"):
        posts.vote_count_post(g, "ru", "html")


@pytest.fixture
def fresh_texts():
    posts._load.cache_clear()
    yield
    posts._load.cache_clear()


def test_a_rule_sets_own_sentences_are_used(tmp_path, monkeypatch, fresh_texts):
    monkeypatch.setattr(posts, "HERE", tmp_path)
    for name in ("messages.yaml", "formats.yaml"):
        (tmp_path / name).write_text((posts.Path(posts.__file__).parent / name)
                                     .read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "messages_gemini.yaml").write_text(
        "ru:\n  pm:\n    check_result: 'Мадам Джемини шепчет: {target} — {result}.'\n",
        encoding="utf-8")
    g, _evs, night = gemini_night()
    whisper = "Мадам Джемини шепчет: Борис — положительный статус."
    assert whisper in posts.private_messages(g, night, "Вера")
    v, _phases = played("vanilla", 1)
    assert "Мадам" not in posts.final_post(v)


def test_announcements_the_rules_require():
    from mafiahost.engine.events import Event
    g, _evs, _ = gemini_night()
    day = [Event("vote_lost", "night 2", PUBLIC, {"player": "Егор", "why": "silenced"}),
           Event("jailed", "night 2", PUBLIC, {"player": "Иван"}),
           Event("released", "night 2", PUBLIC, {"players": ["Иван", "Кира"]}),
           Event("replaced", "night 2", PUBLIC, {"player": "Лев", "by": "Лёва", "was": "Лев"}),
           Event("eliminated", "night 2", PUBLIC,
                 {"player": "Зоя", "how": "host", "why": "absent_twice", "role": "alcoholic"}),
           Event("executed_by", "night 2", PUBLIC, {"player": "Зоя", "by": "Глеб"}),
           Event("roll", "night 2", HOST, {"why": "executor", "result": "Глеб", "_state": 7})]
    post = posts.phase_post(g, day)
    assert post.splitlines() == [
        "Утро после ночи 2",
        "Егор не голосует сегодня (без голоса).",
        "Иван отправляется в тюрьму.",
        "Заключённые выходят на свободу: Иван, Кира.",
        "Замена: Лев → Лёва (дальше за это место играет Лёва).",
        # gemini hides roles until the log (reveal_roles: false), even if an event carried one
        "Зоя выбывает по решению ведущего (мастерский произвол: два дня подряд без "
        "отписки).",
        "Приговор над Зоей приводит в исполнение Глеб.",
    ]


def test_live_count_lists_who_cannot_vote_and_says_when_it_is_not_day():
    g, _evs, _ = gemini_night()
    g.mark_absent("Зоя")
    live = posts.vote_count_post(g, "en")
    assert "Not voting today: Зоя" in live and "Зоя," not in live.split("Not voted yet")[1]
    g.resolve()
    assert posts.vote_count_post(g).splitlines()[1] == "Сейчас не день: голосования нет."


def test_mafia_yakuza_card_names_the_finds_once_and_lists_items_apart():
    """Every mafia-yakuza role has the 15 finds (the host records them from the day
    description) and the item uses: the card names the finds in one line and lists the items
    under their own heading, not 25 lines of the same kind among the role's own moves."""
    names = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Иван"]
    roles = ["boss", "magister", "commissar", "doctor", "sheriff", "sergeant", "judge",
             "authority", "maniac"]
    g = Game(load("mafia-yakuza"), list(zip(names, roles, strict=True)), seed=1)
    for lang, finds, items in (("ru", "Находки", "Предметы (когда найдены)"),
                               ("en", "Finds", "Items (once found)")):
        card = posts.role_card(g, "Глеб", lang)
        lines = card.splitlines()
        own = lines[lines.index("Способности:" if lang == "ru" else "Abilities:") + 1:
                    lines.index(items)]
        assert sum(1 for x in own if x.startswith("• " + finds)) == 1, card
        assert not any("Находка:" in x or "Find:" in x for x in lines), card
        assert any(("Бронежилет" if lang == "ru" else "Bulletproof vest") in x for x in own)
        after = lines[lines.index(items) + 1:]
        assert sum(1 for x in after if x.startswith("• ")) == 10, card
        assert any(x.startswith("• " + ("Лечение" if lang == "ru" else "Heal")) for x in own)


def test_a_card_leaves_out_a_move_for_a_role_the_game_does_not_seat():
    """mafia-yakuza's order to the killer (the killer is dealt from 16 players) and the classic
    mafia's second shot (for the sleepwalker) are on the card only when that role is seated."""
    names = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Иван"]
    roles = ["boss", "magister", "commissar", "doctor", "sheriff", "sergeant", "judge",
             "authority", "maniac"]
    g = Game(load("mafia-yakuza"), list(zip(names, roles, strict=True)), seed=1)
    assert "Заказ Киллеру" not in posts.role_card(g, "Глеб", "ru")
    assert "Order to the killer" not in posts.role_card(g, "Глеб", "en")
    roles[-1] = "killer"
    g = Game(load("mafia-yakuza"), list(zip(names, roles, strict=True)), seed=1)
    assert "Заказ Киллеру" in posts.role_card(g, "Глеб", "ru")
