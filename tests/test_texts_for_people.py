"""What people read carries no internal id: every post, private message, role card,
preview, page and refusal of a seeded game of every rule set, in Russian and English.

Ids stay where they are the interface (``--json``, scenario files, the role sheet's id
column, ``log --ids``); here a rule-set id, a phase label such as ``night 1``, an ability,
role or status id with an underscore, or a ``key=value`` dump in a text for people fails.
Russian texts also must not use «(а)»-style endings (neutral wording instead).
"""

from __future__ import annotations

import html as htmlmod
import random
import re

import pytest
from test_web_support import client, make_app

from mafiahost.engine.errors import Refused
from mafiahost.rules import available, load
from mafiahost.sim import NAMES

RULESETS = available()
PHASE_ID = {"ru": re.compile(r"\b(?:night|day|setup) \d+\b"),
            # English prose says "from night 2"; a label leaks as «night 1», 'day 2', now: day 1
            "en": re.compile(r"(?:[«'\"\[(]|: )(?:night|day|setup) \d+\b")}
DUMP = re.compile(r"\b[a-z]+_[a-z_]+\b|(?<![\[\w])[a-z_]{3,}=\S")
GENDER_SLASH = re.compile(r"[а-яё]\((?:а|ой|ась|лась|ла|на|ая|ым|ую|ее|её|ые|одна|ей|ёй|неё|её)\)",
                          re.I)
#: id-like values of these keys in a rule set file are internal ids (items, statuses,
#: slots, the abilities a role uses), as are the keys of its roles, abilities, factions
ID_KEYS = frozenset({"id", "use", "item", "items", "status", "slot", "initial_status",
                     "requires_status", "counter", "kind", "role", "roles", "to", "steps"})
ID_WORD = re.compile(r"^[a-z][a-z0-9_]{2,}$")
#: Latin words that are not ids of the rule set even where a rule set file uses them so
#: (markup, words of the command line the host types)
NOT_IDS = frozenset({"spoiler", "red", "bold", "plain", "bbcode", "night", "day", "main",
                     "true", "false", "none", "any", "all", "self"})


#: a Latin word in a Russian text: an id or English left in (the command line's words the
#: host types, the forum's markup and hash names excepted)
LATIN_RU = re.compile(r"(?<![\w./-])(?!(?:act|vote|late|replace|undo|resolve|preview|mafiahost|"
                      r"export|import|verify|json|game|host|serve|sha|bbcode|plain|url|votes|"
                      r"spoiler|color|red|quote|http|https|www|com|org|txt|size|list|code)\b)"
                      r"[a-z]{3,}(?![\w/])")


#: an English text speaking of a player as "he": neutral ("they") or the player's gender
HE_EN = re.compile(r"\b(?:he|his|him|himself)\b", re.I)


RULESET_IDS = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(
    available(), key=len, reverse=True))) + r")(?![\w-])")


def _words_of(raw, out: set, key: str = "") -> None:
    if isinstance(raw, dict):
        for k, v in raw.items():
            if key in ("roles", "abilities", "factions", "initial_status") \
                    and isinstance(k, str):
                out.add(k)
            _words_of(v, out, str(k))
    elif isinstance(raw, list):
        for v in raw:
            _words_of(v, out, key)
    elif isinstance(raw, str) and key in ID_KEYS:
        out.add(raw)


def internal_ids(ruleset: str) -> set[str]:
    """Every internal id of a rule set: its roles, abilities, factions, items, statuses,
    slots (from its file), its status and counter labels, the ids of the rule sets."""
    import yaml

    from mafiahost.render import labels
    from mafiahost.rules import DATA
    out: set[str] = set(available())
    raw = yaml.safe_load((DATA / f"{ruleset}.yaml").read_text(encoding="utf-8"))
    _words_of({k: v for k, v in raw.items() if k in ("roles", "abilities", "factions",
                                                    "hooks", "setup")}, out)
    r = load(ruleset)
    out |= set(r.ability_ids) | set(r.roles) | set(r.factions)
    words = labels._data()["ru"]
    out |= set(words["status"]) | set(words["counter"])
    return {w for w in out if ID_WORD.match(w) and w not in NOT_IDS}


def _ids(ruleset: str) -> dict[str, re.Pattern]:
    """Per language, the pattern of ids that must not reach people: in Russian any of the
    rule set's ids; in English an id with an underscore anywhere, and any id in brackets
    or quotes («Лечение (heal)», "'gag'") — plain English words such as "heal" are prose."""
    words = internal_ids(ruleset)
    alt = "|".join(sorted(map(re.escape, words), key=len, reverse=True))
    r = load(ruleset)
    names_en = " ".join([x.name_en for x in (*r.roles.values(), *r.abilities.values(),
                                             *r.factions.values())]
                        + [s.name_en for s in r.steps])
    # «The one who steals (thief)»: a rule set's own English name may explain itself so
    own = {w for w in words if re.search(r"[(«'\"]" + re.escape(w) + r"[)»'\"]", names_en)}
    quoted = "|".join(sorted(map(re.escape, words - own), key=len, reverse=True)) or "(?!)"
    under = "|".join(sorted((re.escape(w) for w in words if "_" in w or w in available()),
                            key=len, reverse=True))
    return {"ru": re.compile(r"(?<![\w-])(?:" + alt + r")(?![\w-])"),
            "en": re.compile(r"(?<![\w-])(?:" + under + r")(?![\w-])"
                             r"|[(«'\"](?:" + quoted + r")[)»'\"]")}


def _visible(page: str) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return htmlmod.unescape(page)


def _around(text: str, m) -> str:
    return " ".join(text[max(0, m.start() - 120):m.end() + 60].split())


def check(text: str, ruleset: str, where: str, ids: dict, lang: str = "ru") -> None:
    pats = [(ids[lang], "an id"), (PHASE_ID[lang], "a phase label"), (DUMP, "an id dump")]
    if lang == "ru":
        pats.append((LATIN_RU, "an English word"))
    else:
        pats.append((HE_EN, "'he' for a player"))
    for pat, what in pats:
        m = pat.search(text)
        assert m is None, f"{where}: {what} {m.group(0)!r} in: {_around(text, m)}"
    if lang == "ru":
        m = GENDER_SLASH.search(text)
        assert m is None, f"{where}: {m.group(0)!r} (neutral wording) in: {_around(text, m)}"


def _refusals(h, gid, g) -> list[Refused]:
    """The refusals a host or player meets most: unknown player, unknown move, a second
    move, a vote at the wrong time, nothing to undo."""
    out = []
    alive = [p.name for p in g.state.order if p.alive]
    tries = [lambda: h.act(gid, "Никто", "убить", [alive[0]]),
             lambda: h.act(gid, alive[0], "летать", [alive[1]]),
             lambda: h.vote(gid, alive[0], "Никто"),
             lambda: h.act(gid, alive[0], "kill", ["Никто"])]
    for t in tries:
        try:
            t()
        except Refused as e:
            out.append(e)
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_internal_id_reaches_people(tmp_path, ruleset):
    app, h = make_app(str(tmp_path / "g.db"))
    ids = _ids(ruleset)
    rules = load(ruleset)
    lo, hi = rules.setup.get("min_players", 4), rules.setup.get("max_players", 30)
    n = min(hi, max(lo, 10))
    key = h.add_host("Ведущий")
    gid = h.new_game(ruleset, NAMES[:n], seed=11, name="",
                     owner=h.host_id("Ведущий")).game_id
    links = h.links(gid)
    hc = client(app, key)
    pc = client(app)
    rng = random.Random(3)
    for step in range(5):
        _, g = h.load(gid)
        if g.state.over:
            break
        for lang in ("ru", "en"):
            q = f"?lang={lang}"
            for path in (f"/host/games/{gid}", f"/host/games/{gid}/posts",
                         f"/host/games/{gid}/preview", "/host"):
                r = hc.get(path + q)
                assert r.status_code == 200, (path, r.status_code)
                check(_visible(r.text), ruleset, f"{path} {lang} step {step}", ids, lang)
            for seat in list(links)[: 4 if step else len(links)]:
                r = pc.get(f"/p/{links[seat]}{q}")
                assert r.status_code == 200
                check(_visible(r.text), ruleset, f"player {seat} {lang} step {step}", ids, lang)
            for fmt in ("plain", "bbcode"):
                texts = [h.post(gid, lang=lang, fmt=fmt), h.vote_count(gid, lang, fmt)]
                texts += list(h.private_messages(gid, lang=lang, fmt=fmt).values())
                texts += list(h.cards(gid, lang=lang, fmt=fmt).values()) if step == 0 else []
                pv = h.preview(gid, lang, fmt)
                texts += [pv["post"], *pv["pms"].values()]
                for t in texts:
                    check(t, ruleset, f"text {lang}/{fmt} step {step}", ids, lang)
            d = h.resolve(gid, preview=True, lang=lang)
            check(d.message, ruleset, "resolve --preview", ids, lang)
        for e in _refusals(h, gid, g):      # what the host typed may be quoted back
            check(e.ru.replace("«kill»", "«…»"), ruleset, "refusal ru", ids)
            check(e.en.replace("'kill'", "'…'"), ruleset, "refusal en", ids, "en")
        for p in g.state.order:
            moves = g.legal_moves(p.name)
            if moves and rng.random() < 0.8:
                ab, ts = rng.choice(moves)
                try:
                    h.act(gid, p.name, ab, list(ts))
                except Refused:
                    pass
        if g.state.phase == "day":
            alive = [p.name for p in g.state.order if p.alive]
            for v in alive:
                try:
                    h.vote(gid, v, rng.choice(alive))
                except Refused:
                    pass
        d = h.resolve(gid)
        for lang in ("ru", "en"):
            check(h.post(gid, lang=lang), ruleset, f"post after resolve {lang}", ids, lang)
        check(d.message, ruleset, "resolve answer", ids, "ru")
    _, g = h.load(gid)
    for lang in ("ru", "en"):
        check(h.post(gid, "final", lang=lang, force=True), ruleset, f"final {lang}", ids, lang)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_id_in_the_texts_of_thirty_games(ruleset):
    """The same checks on the texts of the 30 seeded games and the scenario games of
    ``test_posts_rulesets`` (every phase post, every player's messages, the final post)."""
    from test_posts_rulesets import games

    from mafiahost.render import posts
    ids = _ids(ruleset)
    for g, steps, phases in games(ruleset):
        for lang in ("ru", "en"):
            for evs in steps + phases:
                check(posts.phase_post(g, evs, lang), ruleset, "phase post", ids, lang)
            for p in g.state.order:
                check(posts.private_messages(g, g.events, p.name, lang), ruleset,
                      f"messages to {p.name}", ids, lang)
                check(posts.role_card(g, p.name, lang), ruleset, "card", ids, lang)
            check(posts.final_post(g, {"seed": g.seed}, lang), ruleset, "final", ids, lang)


def test_the_final_log_keeps_original_and_replacement_nicks():
    """Before a замена the log names the seat by its original player, after it by the
    replacement; the roles list names the seat as it is played now."""
    from test_web_support import ROLES6

    from mafiahost.engine.game import Game
    from mafiahost.render import posts
    g = Game(load("gemini"), list(ROLES6.items()), seed=3)
    g.submit("Вера", "kill", ["Дина"])
    g.submit("Анна", "check", ["Глеб"])
    g.resolve()
    g.replace_player("Анна", "Новичок")
    g.vote("Анна", "Вера")
    g.resolve()
    log = posts.final_post(g, None, "ru").split("Лог игры", 1)[1]
    night, _, rest = log.partition("День 1")
    assert "Анна проверяет Глеба" in night and "Новичок" not in night
    assert "Новичок" in rest


def test_penalty_votes_are_shown_as_penalties():
    """gemini counts a non-voter's vote against himself: the count says so, and never
    lists him as voting for himself."""
    from test_web_support import ROLES6

    from mafiahost.engine.game import Game
    from mafiahost.render import posts
    g = Game(load("gemini"), list(ROLES6.items()), seed=1)
    g.resolve()
    g.vote("Анна", "Вера")
    g.vote("Борис", "Вера")
    text = posts.phase_post(g, g.resolve())
    assert "• Вера — 3: Анна, Борис, штрафной голос за неучастие в голосовании" in text
    assert "• Дина — 1: штрафной голос за неучастие в голосовании" in text
    assert "Дина — 1: Дина" not in text


def test_times_people_read_are_local_words_with_the_zone(tmp_path):
    """A late vote's refusal names the deadline as players read it, and the host's page
    says when each link was issued the same way — never an ISO 8601 stamp."""
    from datetime import datetime, timedelta

    from test_web_support import ROLES6

    from mafiahost.host.deadlines import zone
    app, h = make_app(str(tmp_path / "g.db"))
    key = h.add_host("Ведущий")
    gid = h.new_game("gemini", list(ROLES6), roles=ROLES6, seed=1,
                     owner=h.host_id("Ведущий")).game_id
    h.links(gid)
    h.resolve(gid)
    dl = (datetime.now(zone()) + timedelta(days=1)).replace(hour=21, minute=0, second=0,
                                                            microsecond=0)
    h.set_deadline(gid, dl.strftime("%Y-%m-%d %H:%M"))
    late = (dl + timedelta(hours=1)).isoformat()
    iso = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d")
    with pytest.raises(Refused) as e:
        h.vote(gid, "Анна", "Вера", at=late)
    assert "до 21:00 (МСК)" in e.value.ru and not iso.search(e.value.ru), e.value.ru
    assert "21:00 (MSK)" in e.value.en and not iso.search(e.value.en), e.value.en
    page = _visible(client(app, key).get(f"/host/games/{gid}").text)
    assert "выдана" in page and not iso.search(page), iso.search(page)


@pytest.mark.parametrize("ruleset", ["gemini", "mafia-yakuza"])
def test_engine_refusals_about_a_player_use_neutral_words(ruleset):
    """The sentences a dead player's move, a dead target, a second move and a replaced
    dead seat get: no «выбыл(а)», «сделал(а)» — wording that fits any player."""
    from mafiahost.engine.game import Game
    rules = load(ruleset)
    names = NAMES[:12]
    from mafiahost.rules.setup import deal
    g = Game(rules, deal(rules, names, 5, None), seed=5)
    texts = []
    first = g.state.order[0].name
    g.host_remove(first, "")
    for p in g.state.order[1:]:
        for ab, ts in g.legal_moves(p.name)[:1]:
            g.submit(p.name, ab, list(ts))
            for call in (lambda p=p, ab=ab, ts=ts: g.submit(p.name, ab, list(ts)),
                         lambda ab=ab, ts=ts: g.submit(first, ab, list(ts)),
                         lambda: g.replace_player(first, "Новичок")):
                try:
                    call()
                except Refused as e:
                    texts.append(e.ru)
    assert texts
    for t in texts:
        assert not GENDER_SLASH.search(t) and "мёртв" not in t, t


def _cause_words(g, e, lang: str) -> str:
    """What the log must call a death's cause: the move of the role of whoever made it
    (the sheriff's «Выстрел», the yakuza's «Выстрел якудза»), else a side or an order
    (``terms.causes``), a role, a faction, an item."""
    from mafiahost.render import posts
    d = e.data
    cause, by = d["cause"], d.get("by")
    w = posts.Writer(g, lang)
    ru = lang == "ru"
    if by in g.state.players:
        role = _role_then(g, e, by)
        spec = g.rules.abilities.get(f"{role}.{cause}")
        if spec is not None:
            return spec.name_ru if ru else spec.name_en
    causes = w.m["terms"].get("causes", {})
    if cause in causes:
        return causes[cause]
    if cause in g.rules.roles:
        return w.role_name(cause)
    if cause in g.rules.factions:
        return w.faction_name(cause)
    return w.who(cause)


def _role_then(g, e, seat: str) -> str:
    """``seat``'s role when event ``e`` happened (roles change: recruitment, heirs)."""
    role = next(r for n, r, *_ in g.events[0].data["players"] if n == seat)
    for x in g.events:
        if x is e:
            break
        if x.type == "role_changed" and x.data.get("player") == seat:
            role = x.data["role"]
    return role


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_death_in_the_final_log_is_named_by_its_real_cause(ruleset):
    """In the seeded games of every rule set, each death's line of the final log names
    its cause in words and by whoever caused it: the sheriff's shot as the sheriff's, not
    as the mafia's (a move's name is looked up in the killer's role, never the victim's),
    a side's shot as that side's («выстрел якудза»), never by an id."""
    from test_posts_rulesets import games

    from mafiahost.render import posts
    ids = _ids(ruleset)
    seen = 0
    for g, _steps, _phases in games(ruleset):
        deaths = [e for e in g.events if e.type == "dies"]
        for lang in ("ru", "en"):
            w = posts.Writer(g, lang)
            for e in deaths:
                line = w.event_line("log", e)
                if line is None:            # the rule set tells it by its own event
                    continue
                want = _cause_words(g, e, lang)
                assert want and want.casefold() in line.casefold(), (lang, e.data, line, want)
                check(line, ruleset, "death", ids, lang)
                seen += 1
    if ruleset in ("classic", "gemini", "mafia-yakuza", "singapore", "antem"):
        assert seen, "the seeded games of a rule set with kills have deaths"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_roll_says_what_it_was_for(ruleset):
    """Each roll of the seeded games has words for what it decided (``terms.rolls``): the
    log never falls back to the bare «бросок», and never shows the rule set's label."""
    from test_posts_rulesets import games

    from mafiahost.render import posts
    missing = set()
    for g, _steps, _phases in games(ruleset):
        for lang in ("ru", "en"):
            w = posts.Writer(g, lang)
            for e in g.events:
                if e.type == "roll" and w.roll_words(e.data["why"]) == w.term("roll_other"):
                    missing.add(e.data["why"])
    assert not missing, sorted(missing)


def test_genders_given_by_the_host_choose_the_words(tmp_path):
    """`--players "Анна:ж,Борис:м"`: the names are stored without the mark, the host's
    sentences take the player's gender («выведена», «не отписался»), a name is declined
    by it (a woman's «Ник» stays «Ник»), neutral wording where none was given; a bad mark
    is one sentence and no game; `game gender` changes it and undo takes it back; the
    export still verifies."""
    from test_web_support import ROLES6

    from mafiahost.host.core import HostError
    from mafiahost.render import posts
    app, h = make_app(str(tmp_path / "g.db"))
    marked = ["Анна:ж", "Борис:м", "Вера", "Глеб", "Ник:ж", "Егор"]
    roles = dict(zip([n.split(":")[0] for n in marked], ROLES6.values(), strict=True))
    with pytest.raises(HostError) as e:
        h.new_game("gemini", ["Анна:жена"] + marked[1:], roles=None, seed=1)
    assert "после двоеточия" in e.value.ru and not h.list_games()
    gid = h.new_game("gemini", marked, roles=roles, seed=1).game_id
    _, g = h.load(gid)
    assert [p.name for p in g.state.order] == ["Анна", "Борис", "Вера", "Глеб", "Ник", "Егор"]
    w = posts.Writer(g)
    assert (w.gender("Анна"), w.gender("Борис"), w.gender("Вера")) == ("f", "m", None)
    assert format(w.name("Ник"), "acc") == "Ник" and format(w.name("Борис"), "acc") == "Бориса"
    assert h.remove(gid, "Анна").message == "Анна выведена из игры ведущим."
    assert h.remove(gid, "Вера").message == "Вера выбывает из игры по решению ведущего."
    assert h.set_gender(gid, "Вера", "ж").message == "Вера: пол — женский."
    _, g = h.load(gid)
    assert posts.Writer(g).gender("Вера") == "f"
    h.undo(gid)
    _, g = h.load(gid)
    assert posts.Writer(g).gender("Вера") is None
    with pytest.raises(HostError):
        h.set_gender(gid, "Вера", "средний")
    h.replace_player(gid, "Борис", "Зина:ж")
    _, g = h.load(gid)
    assert g.display("Борис") == "Зина" and posts.Writer(g).gender("Борис") == "f"
    from mafiahost.host.exchange import verify
    rep = verify(h.export(gid))
    assert rep.ok, rep.problems


@pytest.mark.parametrize("ruleset", ["singapore", "vanilla", "classic", "musketeers"])
def test_not_acted_leaves_out_whom_a_partner_covered(ruleset):
    """When one mafioso sends the team's shot, his partners are no longer listed as not
    having sent a move (in singapore they may still shop — that is not a missing move)."""
    from mafiahost.engine.game import Game
    from mafiahost.host.core import not_acted
    from mafiahost.rules.setup import deal
    rules = load(ruleset)
    g = Game(rules, deal(rules, NAMES[:12], 3, None), seed=3)
    team = {}
    for p in g.state.order:
        for ab in rules.by_phase[p.role]["night"]:
            if ab.id == "kill":             # the team's shot: shared, or one shooter a clan
                team.setdefault((p.faction, ab.id), []).append(p)
    (key, members), = [(k, v) for k, v in team.items() if len(v) > 1][:1]
    first, partner = members[0], members[1]
    assert g.display(partner.name) in not_acted(g)
    ts = next(t for a, t in g.legal_moves(first.name) if a == key[1])
    g.submit(first.name, key[1], list(ts))
    if ruleset == "musketeers":             # each mafioso names the shot: still his to send
        assert g.display(partner.name) in not_acted(g)
        return
    assert g.display(partner.name) not in not_acted(g)
    assert g.display(first.name) not in not_acted(g)       # he has sent his move


def test_the_host_page_lists_the_reminders_due(tmp_path):
    """The web host page says which of the account's games have a deadline passed or due
    within a day, in words with the zone, and who has not acted yet; another account's
    game is not listed."""
    from datetime import datetime, timedelta

    from test_web_support import ROLES6

    from mafiahost.host.deadlines import zone
    app, h = make_app(str(tmp_path / "g.db"))
    key = h.add_host("Ведущий")
    h.add_host("Другой")
    gid = h.new_game("gemini", list(ROLES6), roles=ROLES6, seed=1, name="Осень",
                     owner=h.host_id("Ведущий")).game_id
    other = h.new_game("gemini", list(ROLES6), roles=ROLES6, seed=2, name="Чужая",
                       owner=h.host_id("Другой")).game_id
    soon = (datetime.now(zone()) + timedelta(hours=3)).strftime("%Y-%m-%d %H:%M")
    h.set_deadline(gid, soon)
    h.set_deadline(other, soon)
    page = _visible(client(app, key).get("/host").text)
    assert "Напоминания" in page and f"№{gid} «Осень»" in page and "(МСК)" in page
    assert "Чужая" not in page and "Ещё не сходили: Анна" in page
    en = _visible(client(app, key).get("/host?lang=en").text)
    assert "Reminders" in en and "(MSK)" in en
