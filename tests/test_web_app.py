"""The pages and commands of the web app, through its HTTP interface (in process)."""

from __future__ import annotations

import re

import pytest
from test_web_support import ROLES6, client, csrf_of, make_app, session_csrf


@pytest.fixture
def site(tmp_path):
    app, host = make_app(str(tmp_path / "games.db"))
    w = app.state.web
    key = host.add_host("Ведущий")
    gid = host.new_game("gemini", list(ROLES6), roles=ROLES6, seed=99,
                        owner=host.host_id("Ведущий")).game_id
    return {"app": app, "host": host, "w": w, "gid": gid, "links": host.links(gid),
            "key": key}


def player(site, name):
    c = client(site["app"])
    tok = site["links"][name]
    return c, tok, f"/p/{tok}"


def test_player_page_shows_card_goal_team_and_legal_moves(site):
    c, _, url = player(site, "Вера")
    html = c.get(url).text
    assert "Ваша роль: Чёрный доктор" in html and "Цель:" in html
    assert "Ваша команда (Мафия): Борис, Вера." in html          # known teammates
    _, g = site["host"].load(site["gid"])
    legal = {ab for ab, _ in g.legal_moves("Вера")}
    shown = set(re.findall(r'name="ability" value="([^"]+)"', html))
    assert shown == legal
    c2, _, url2 = player(site, "Дина")
    html2 = c2.get(url2).text
    assert "Сейчас у вас нет хода" in html2 and "Ваша команда" not in html2


def test_move_is_acknowledged_after_it_is_stored_and_refusal_uses_the_rule(site):
    c, tok, url = player(site, "Глеб")
    csrf = csrf_of(c.get(url).text)
    r = c.post(f"{url}/act", data={"csrf": csrf, "ability": "heal", "target": "Глеб"})
    assert r.status_code == 303
    _, g = site["host"].load(site["gid"])
    assert [e.data for e in g.events if e.type == "action"][-1]["actor"] == "Глеб"
    page = c.get(r.headers["location"]).text
    assert "Ход принят" in page and "Ход отправлен" in page
    # a second move in the same night: the rule's sentence, nothing stored
    n = len(g.events)
    r = c.post(f"{url}/act", data={"csrf": csrf, "ability": "heal", "target": "Анна"})
    assert r.status_code == 409
    assert "ход в этой фазе уже есть" in r.text
    assert len(site["host"].load(site["gid"])[1].events) == n
    # a target the rules refuse: the engine's sentence
    c2, _, url2 = player(site, "Анна")
    csrf2 = csrf_of(c2.get(url2).text)
    r = c2.post(f"{url2}/act", data={"csrf": csrf2, "ability": "check", "target": "Нет"},
                headers={"accept": "application/json"})
    assert r.status_code == 409 and "Нет" in r.json()["error"]
    # a player cannot ask for --replace: the rule set does not allow changing a move
    r = c.post(f"{url}/act", data={"csrf": csrf, "ability": "heal", "target": "Анна",
                                   "replace": "1"})
    assert r.status_code == 409


def test_player_cannot_act_for_someone_else(site):
    c, tok, url = player(site, "Вера")
    csrf = csrf_of(c.get(url).text)
    r = c.post(f"{url}/act", data={"csrf": csrf, "ability": "kill", "target": "Дина",
                                   "actor": "Анна"})
    assert r.status_code == 303
    _, g = site["host"].load(site["gid"])
    acts = [e.data for e in g.events if e.type == "action"]
    assert [a["actor"] for a in acts] == ["Вера"]


def test_host_resolve_preview_posts_log_undo(site):
    gid = site["gid"]
    hc = client(site["app"], site["key"])
    csrf = session_csrf(hc)
    site["host"].act(gid, "Вера", "kill", ["Дина"])
    page = hc.get(f"/host/games/{gid}").text
    assert "Вера — Убийство → Дина" in page and "<code>kill</code>" not in page
    prev = hc.get(f"/host/games/{gid}/preview").text
    assert "Ничего не записано" in prev and "Дина выбывает: убийство" in prev
    assert "eliminated" not in prev
    assert site["host"].load(gid)[1].state.phase == "night"          # preview wrote nothing
    r = hc.post(f"/host/games/{gid}/resolve", data={"csrf": csrf})
    assert r.status_code == 303 and r.headers["location"].endswith("/posts")
    posts = hc.get(r.headers["location"]).text
    assert "Утро после ночи 1" in posts and "[b]" in posts or "[" in posts
    log = hc.get(f"/host/games/{gid}/log").text
    assert "итоги фазы «Ночь 1»" in log and "Дина выбывает" in log   # in words
    assert "eliminated" not in log
    r = hc.post(f"/host/games/{gid}/undo", data={"csrf": csrf})
    assert r.status_code == 303
    assert site["host"].load(gid)[1].state.phase == "night"
    assert "Отменено" in hc.get(r.headers["location"]).text
    exp = hc.get(f"/host/games/{gid}/export")
    assert exp.json()["format"] == "mafiahost-game"


def test_deadline_refuses_late_moves_and_votes_from_players(site):
    gid = site["gid"]
    hc = client(site["app"], site["key"])
    r = hc.post(f"/host/games/{gid}/deadline", data={"csrf": session_csrf(hc),
                                                      "when": "2001-01-01T10:00"})
    assert r.status_code == 303                      # a past deadline is refused...
    assert "уже прошёл" in hc.get(r.headers["location"]).text
    assert site["host"].load(gid)[0].deadline is None
    site["host"].set_deadline(gid, "2001-01-01 10:00", allow_past=True)   # ...unless asked
    c, _, url = player(site, "Глеб")
    page = c.get(url).text
    assert "Фаза закрыта: срок истёк в 10:00 (МСК) 1 января 2001" in page
    r = c.post(f"{url}/act", data={"csrf": csrf_of(page), "ability": "heal",
                                   "target": "Анна"})
    assert r.status_code == 409 and "истёк в 10:00 (МСК) 1 января 2001" in r.text


def test_english_on_request_and_remembered(site):
    c, _, url = player(site, "Анна")
    r = c.get(url + "?lang=en")
    assert "Your role: Commissar" in r.text and "Your move" in r.text
    assert "Your role" in c.get(url).text                  # the cookie remembers
    assert "Ваша роль" in c.get(url + "?lang=ru").text


def test_votes_by_day_and_the_count(site):
    host, gid = site["host"], site["gid"]
    host.resolve(gid)
    c, _, url = player(site, "Егор")
    html = c.get(url).text
    assert "Подсчёт голосов" in html and 'action="' + url + '/vote"' in html
    r = c.post(f"{url}/vote", data={"csrf": csrf_of(html), "target": "Вера"})
    assert r.status_code == 303
    assert host.load(gid)[1].state.votes["Егор"] == "Вера"
    html = c.get(url).text
    assert "Голос: <b>Вера</b>" in html
    recs = host.vote_records(gid)
    assert recs[-1]["source"] == "web"


def test_new_game_from_the_form_and_links(site):
    w = site["w"]
    hc = client(site["app"], site["key"])
    page = hc.get("/host").text
    r = hc.post("/host/games", data={"csrf": csrf_of(page), "ruleset": "gemini",
                                     "players": "А1\nБ2\nВ3\nГ4\nД5\nЕ6\nЖ7\nЗ8"})
    # the links are shown on the answer, this once; the game's page never shows them
    assert r.status_code == 200 and "больше их не покажет" in r.text
    links = re.findall(r'value="(http://testserver/p/[^"]+)"', r.text)
    assert len(links) == 8 and len(set(links)) == 8
    gid = int(re.search(r'href="/host/games/(\d+)"', r.text).group(1))
    game = hc.get(f"/host/games/{gid}").text
    assert not any(u.rsplit("/", 1)[1] in game for u in links)
    assert client(site["app"]).get(links[0][len("http://testserver"):]).status_code == 200
    assert w.host.host_role(w.host.host_id("Ведущий"), gid) == "owner"
    r = hc.post("/host/games", data={"csrf": csrf_of(page), "ruleset": "gemini",
                                     "players": "А1,Б2"})
    assert r.status_code == 303 and r.headers["location"] == "/host"
    assert "6–16" in hc.get("/host").text                   # the rule set's own sentence


def test_the_form_accepts_the_rules_warnings_only_when_ticked(site):
    hc = client(site["app"], site["key"])
    page = hc.get("/host").text
    assert 'name="accept_warnings"' in page
    form = {"csrf": csrf_of(page), "ruleset": "classic",
            "players": "А1,Б2,В3,Г4,Д5,Е6,Ж7,З8,И9",
            "roles": "mafioso,mafioso,maniac,civilian,civilian,civilian,civilian,civilian,"
                     "civilian"}
    r = hc.post("/host/games", data=form)
    assert r.status_code == 303 and r.headers["location"] == "/host"
    assert "не рекомендуют вводить одиночку" in hc.get("/host").text
    r = hc.post("/host/games", data={**form, "accept_warnings": "1"})
    assert r.status_code == 200 and "больше их не покажет" in r.text    # created: its links


def test_login_with_the_key_and_a_wrong_key(site):
    c = client(site["app"])
    assert c.get("/host").status_code == 403
    page = c.get("/login")
    r = c.post("/login", data={"csrf": csrf_of(page.text), "key": "wrong"})
    assert r.status_code == 403 and "Ключ не подходит" in r.text
    r = c.post("/login", data={"csrf": csrf_of(page.text), "key": site["key"]})
    assert r.status_code == 303
    assert c.get("/host").status_code == 200
    # the session cookie is not the key, and the key is never taken from a URL
    assert site["key"] not in str(c.cookies.values())
    c2 = client(site["app"])
    r = c2.get("/login", params={"key": site["key"]})
    assert r.status_code == 400 and "не принимается" in r.text
    assert "set-cookie" not in r.headers or "mh_session" not in r.headers["set-cookie"]
    assert c2.get("/host").status_code == 403


def test_forms_offer_no_shot_at_oneself_and_no_abstain_where_it_counts_against(site):
    """The forms offer a subset of the engine's legal moves: not a shot or a check on
    oneself; and in gemini (non-voters count against themselves) no «воздерживаюсь»."""
    from mafiahost.web import views
    h, gid = site["host"], site["gid"]
    _, g = h.load(gid)
    assert any("Анна" in ts for ab, ts in g.legal_moves("Анна") if ab == "check")
    moves = {m["id"]: m for m in views.player_moves(g, "Анна", "ru")}
    seats = [s for col in moves["check"]["options"] for s, _n in col]
    assert "Анна" not in seats and "Борис" in seats
    h.act(gid, "Вера", "kill", ["Дина"])
    h.resolve(gid)
    _, g = h.load(gid)
    assert g.rules.day.nonvoters_against_self
    vote = views.player_vote(g, "Анна", "ru")
    assert "abstain" not in [v for v, _n in vote["options"]]
    assert views.player_vote(g, "Дина", "ru") is None          # the dead do not vote
