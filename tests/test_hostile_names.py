"""Hostile names: a player's name or nick holding BBCode (``[url=…]``, ``[spoiler=…]``,
unbalanced tags), HTML or control characters cannot change the structure of any post,
page, private message or vote count.

Each game is played twice, event for event: once with plain names and once with every
name (and a replacement's nick) swapped for a hostile one. Every text is rendered from
both, in both languages and both formats: the first post, every phase's post, the vote
count of every day, the final post (with the host's log), every role card and every
private message. The BBCode tags and the line count of each hostile text must be exactly
those of the plain one, and the hostile names must be there (neutralised, not dropped).
The web pages are checked with names that pass creation: no tag of a name reaches the
HTML."""

from __future__ import annotations

import random
import re

import pytest
from test_web_support import client, make_app

from mafiahost.engine.events import Event
from mafiahost.engine.game import Game
from mafiahost.render import posts
from mafiahost.rules import load
from mafiahost.rules.setup import deal
from mafiahost.sim import NAMES, play_phase
from mafiahost.web import views

HOSTILE = [
    "[url=http://evil.example]Анна[/url]",
    "[spoiler=Голос против]Борис",
    "Вера[/b][/spoiler][/quote]",
    "<script>alert(1)</script>Глеб",
    "[color=red]Дина[/color][img]http://x/y.png[/img]",
    "Егор\n[b]Итоги: победа мафии[/b]",        # a line break: only an import could bring it
    "Жанна\u202e\u200b",                          # direction override, zero-width space
    "[*]Зоя[list]",
    "Иван]]][[",
    "Кира[size=200]",
    "Лев[code]",
    "Мила[/list]",
]
NICK_PLAIN, NICK_HOSTILE = "Новичок", "[url=javascript:alert(1)]Новичок[/url]"
TAG = re.compile(r"\[/?[*a-zA-Z]+(?:=[^\]\n]*)?\]")


def _swap(x, table):
    if isinstance(x, str):
        return table.get(x, x)
    if isinstance(x, list):
        return [_swap(v, table) for v in x]
    if isinstance(x, tuple):
        return tuple(_swap(v, table) for v in x)
    if isinstance(x, dict):
        return {_swap(k, table): _swap(v, table) for k, v in x.items()}
    return x


def twin_games(ruleset: str, n: int, seed: int):
    """The same game with plain and with hostile names (events swapped name for name)."""
    rules = load(ruleset)
    plain = NAMES[:n]
    g = Game(rules, deal(rules, plain, seed), seed=seed)
    rng = random.Random(seed)
    g.replace_player(plain[-1], NICK_PLAIN)
    phases = 0
    while not g.state.over and phases < 40:
        play_phase(g, rng)
        g.resolve()
        phases += 1
    table = dict(zip(plain, HOSTILE[:n], strict=True)) | {NICK_PLAIN: NICK_HOSTILE}
    evs = [Event(e.type, e.phase, _swap(e.audience, table) if not isinstance(e.audience, str)
                 else table.get(e.audience, e.audience), _swap(e.data, table))
           for e in g.events]
    h = Game.replay(rules, evs)
    return g, h, table


def texts(g, lang: str, fmt: str) -> list[tuple[str, str]]:
    out = [("start", posts.start_post(g, "c0ffee", lang, fmt)),
           ("final", posts.final_post(g, {"seed": 1, "salt": "s", "commitment": "c"},
                                      lang, fmt))]
    out += [(f"phase {label}", t) for label, t in views.phase_posts(g, lang, fmt)]
    for i, p in enumerate(g.state.order):
        out.append((f"card {i}", posts.role_card(g, p.name, lang, fmt)))
        out.append((f"pm {i}", posts.private_messages(g, g.events, p.name, lang, fmt)))
    # the vote count of every day, as it stood after the day's last vote
    rules = g.rules
    last_vote = {}
    for i, e in enumerate(g.events):
        if e.type == "vote":
            last_vote[e.phase] = i
    for phase, i in last_vote.items():
        sub = Game.replay(rules, g.events[:i + 1])
        out.append((f"count {phase}", posts.vote_count_post(sub, lang, fmt)))
    return out


@pytest.mark.parametrize("ruleset,n,seed", [("gemini", 12, 3), ("classic", 12, 8),
                                            ("mafia-yakuza", 12, 5), ("vanilla", 8, 2)])
@pytest.mark.parametrize("fmt", ["plain", "bbcode"])
def test_hostile_names_change_no_structure_in_any_post(ruleset, n, seed, fmt):
    g, h, table = twin_games(ruleset, n, seed)
    for lang in ("ru", "en"):
        a, b = texts(g, lang, fmt), texts(h, lang, fmt)
        assert [k for k, _ in a] == [k for k, _ in b]
        seen = False
        for (where, x), (_, y) in zip(a, b, strict=True):
            assert TAG.findall(y) == TAG.findall(x), f"{ruleset} {fmt} {lang} {where}"
            assert y.count("\n") == x.count("\n"), f"{ruleset} {fmt} {lang} {where}"
            assert "\u202e" not in y and "\u200b" not in y
            assert "[url=http://evil" not in y and "[/spoiler][/quote]" not in y
            seen = seen or "［url=http://evil.example］Анна［/url］" in y
        assert seen, "the hostile names must be shown (neutralised), not dropped"


def test_neutral_keeps_ordinary_names():
    for name in NAMES + ["Ёжик", "Mr. Smith", "Кот-Бегемот", "O'Neil", "Дракоша 2"]:
        assert posts.neutral(name) == name
    assert posts.neutral("a[b]c") == "a［b］c"
    assert posts.neutral("a\nb\u202ec") == "a\ufffdb\ufffdc"


def _web_game(host, names, owner):
    roles = dict(zip(names, ["commissar", "boss", "black_doctor", "doctor", "civilian",
                             "civilian"], strict=True))
    gid = host.new_game("gemini", names, roles=roles, seed=4, owner=owner,
                        fmt="bbcode").game_id
    links = host.links(gid)
    host.act(gid, names[2], "kill", [names[4]])
    host.resolve(gid)
    host.vote(gid, names[0], names[2])
    host.replace_player(gid, names[5], NICK_HOSTILE if names[0] != "Анна" else NICK_PLAIN)
    return gid, [links[n] for n in names]


@pytest.fixture
def web_game(tmp_path):
    app, host = make_app(str(tmp_path / "games.db"))
    valid = [x for x in HOSTILE if x.isprintable()][:6]
    key = host.add_host("Ведущий")
    owner = host.host_id("Ведущий")
    bad, bad_links = _web_game(host, valid, owner)
    good, good_links = _web_game(host, NAMES[:6], owner)
    return app, host, key, valid, (bad, bad_links), (good, good_links)


def _tags(html: str) -> list:
    from html.parser import HTMLParser
    out: list = []

    class P(HTMLParser):
        def handle_starttag(self, tag, attrs):
            out.append((tag, sorted(k for k, _ in attrs)))

        def handle_endtag(self, tag):
            out.append("/" + tag)
    P().feed(html)
    return out


def test_hostile_names_change_no_structure_of_any_page(web_game):
    app, host, key, valid, (bad, bad_links), (good, good_links) = web_game
    hc = client(app, key)
    pairs = [(client(app).get(f"/p/{b}").text, client(app).get(f"/p/{g}").text)
             for b, g in zip(bad_links, good_links, strict=True)]
    for sub in ("", "/posts", "/log", "/preview"):
        rb, rg = hc.get(f"/host/games/{bad}{sub}"), hc.get(f"/host/games/{good}{sub}")
        assert rb.status_code == rg.status_code == 200, sub
        pairs.append((rb.text, rg.text))
    for html_bad, html_good in pairs:
        assert _tags(html_bad) == _tags(html_good)
        assert "<script>alert" not in html_bad and "<img" not in html_bad
    assert any("&lt;script&gt;alert(1)&lt;/script&gt;Глеб" in b for b, _ in pairs)


def test_replacement_and_import_names_are_checked(web_game, tmp_path):
    app, host, key, valid, (gid, _), _good = web_game
    from mafiahost.engine.errors import Refused
    with pytest.raises(Refused, match="невидимые|управляющие"):
        host.replace_player(gid, valid[1], "Бо\u202eрис")
    data = host.export(gid)
    first = data["commands"][0]
    first["ops"][0][1][0][0] = "Анна\nфейк"
    from mafiahost.host import verify
    rep = verify(data)
    assert not rep.ok
    with pytest.raises(Refused):
        host.import_game(data)
