"""Who may read and do what: every route of the app, as every kind of user.

The routes are enumerated from the app itself (``app.routes``), and each must have an
entry in ``ACCESS``: a new route without one fails the test, so none escapes it. Users:
the host (key cookie), each of the six roles of game A (their link), a player of another
game (B), and no one. For each user and each route the test checks the status, and that
no response (body and headers, error pages included) holds a secret that user may not
know: another player's link token or anti-forgery token, the host key, the dice seed or
salt, another player's role or private result (unless the rules show it to this user,
i.e. it is in their own card, results or the public posts), or a host-only log line.
What each may do is checked too: no one but the host changes a game by a host route,
a player's move or vote is always their own seat's, and a form without the right
anti-forgery token, or posted from another site, is refused and changes nothing."""

from __future__ import annotations

import re

import pytest
from starlette.routing import Mount, Route
from test_web_support import ROLES6, client, make_app

from mafiahost.render import posts
from mafiahost.web import app as webapp
from mafiahost.web import live

ACCESS = {
    # path: (methods, who may use it)
    "/": ({"GET", "HEAD"}, "public"),
    "/login": ({"GET", "HEAD", "POST"}, "public"),
    "/logout": ({"POST"}, "host"),
    "/p/{token}": ({"GET", "HEAD"}, "player"),
    "/p/{token}/act": ({"POST"}, "player"),
    "/p/{token}/vote": ({"POST"}, "player"),
    "/p/{token}/live": ({"GET", "HEAD"}, "player"),
    "/host": ({"GET", "HEAD"}, "host"),
    "/host/games": ({"POST"}, "host"),
    "/host/games/{gid:int}": ({"GET", "HEAD"}, "host"),
    "/host/games/{gid:int}/preview": ({"GET", "HEAD"}, "host"),
    "/host/games/{gid:int}/posts": ({"GET", "HEAD"}, "host"),
    "/host/games/{gid:int}/log": ({"GET", "HEAD"}, "host"),
    "/host/games/{gid:int}/export": ({"GET", "HEAD"}, "host"),
    "/host/games/{gid:int}/live": ({"GET", "HEAD"}, "host"),
    **{f"/host/games/{{gid:int}}/{c}": ({"POST"}, "host") for c in webapp.COMMANDS},
    "/static": (None, "static"),
    # the player API (web/api.py): the token in the path, or as a bearer header
    "/api/openapi.json": ({"GET", "HEAD"}, "public"),
    "/api/p/{token}": ({"GET", "HEAD"}, "api_player"),
    "/api/p/{token}/act": ({"POST"}, "api_player"),
    "/api/p/{token}/vote": ({"POST"}, "api_player"),
    "/api/me": ({"GET", "HEAD"}, "api_bearer"),
    "/api/me/act": ({"POST"}, "api_bearer"),
    "/api/me/vote": ({"POST"}, "api_bearer"),
}

NAMES_B = ["Олег", "Пётр", "Рита", "Соня", "Тимур", "Ульяна"]


def app_routes(app) -> list[tuple[str, set | None]]:
    """(path, methods) of every route of the app (methods None: a mounted app)."""
    out: dict[str, set | None] = {}
    for r in app.routes:
        if isinstance(r, Route):
            out[r.path] = (out.get(r.path) or set()) | set(r.methods or ())
        elif isinstance(r, Mount):
            out[r.path] = None
        else:
            raise AssertionError(f"unknown kind of route {r!r}")
    return list(out.items())


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    live.KEEPALIVE = 0.2
    db = str(tmp_path_factory.mktemp("access") / "games.db")
    app, host = make_app(db)
    w = app.state.web
    a = host.new_game("gemini", list(ROLES6), roles=ROLES6, seed=7_302_115_948_221_337,
                      name="A").game_id
    roles_b = dict(zip(NAMES_B, ROLES6.values(), strict=True))
    b = host.new_game("gemini", NAMES_B, roles=roles_b, seed=5_550_019_283_746_101).game_id
    for actor, ab, t in [("Анна", "check", "Борис"), ("Борис", "cover", "Вера"),
                         ("Вера", "kill", "Дина"), ("Глеб", "heal", "Дина")]:
        host.act(a, actor, ab, [t])
    host.resolve(a)
    host.vote(a, "Егор", "Вера")
    links_a, links_b = host.links(a), host.links(b)
    yield {"app": app, "host": host, "web": w, "a": a, "b": b, "links_a": links_a,
           "links_b": links_b, "db": db}


def users(world):
    out = [("host", None, None), ("nobody", None, None)]
    out += [(f"A:{seat}", seat, tok) for seat, tok in world["links_a"].items()]
    seat_b = NAMES_B[0]
    out.append((f"B:{seat_b}", seat_b, world["links_b"][seat_b]))
    return out


def secrets_for(world, who: str, seat: str | None) -> list[str]:
    """The strings this user must never receive."""
    host, w = world["host"], world["web"]
    if who == "host":
        return []
    out = [w.csrf_key, w.host_key, webapp.host_csrf(w)]
    for game in ("a", "b"):
        row, _ = host.load(world[game])
        out += [str(row.seed), row.salt]
    mine = world["links_a"].get(seat) if who.startswith("A:") else \
        world["links_b"].get(seat) if who.startswith("B:") else None
    for tok in list(world["links_a"].values()) + list(world["links_b"].values()):
        if tok != mine:
            out += [tok, webapp.player_csrf(w, tok)]
    # what the rules show this user: their card and results, and the public posts
    allowed = ""
    game = world["a"] if who.startswith("A:") else world["b"] if who.startswith("B:") else None
    for lang in ("ru", "en"):
        if game is not None:
            _, g = host.load(game)
            allowed += posts.role_card(g, seat, lang) + posts.private_messages(
                g, g.events, seat, lang)
        for gg in (world["a"], world["b"]):
            row, g = host.load(gg)
            allowed += posts.start_post(g, row.commitment, lang)
            allowed += "".join(t for _, t in webapp.views.phase_posts(g, lang))
            allowed += posts.vote_count_post(g, lang)
            allowed += " ".join(webapp.TEXTS[lang].values())
    for gg in (world["a"], world["b"]):
        _, g = host.load(gg)
        for p in g.state.order:
            if gg == game and p.name == seat:
                continue
            role = g.rules.roles[p.role]
            for s in (role.name_ru, role.name_en, f"[{p.role}]", f">{p.role}<"):
                if s not in allowed:
                    out.append(s)
            for lang in ("ru", "en"):
                for line in posts.private_messages(g, g.events, p.name, lang).splitlines():
                    line = line.strip()
                    if line and not line.endswith(":") and line not in allowed:
                        out.append(line)
    out.append(" (host) ")            # a host-only log line
    return [s for s in out if s]


def check_clean(resp, forbidden: list[str], where: str) -> None:
    text = resp.text + " ".join(f"{k}: {v}" for k, v in resp.headers.items())
    for s in forbidden:
        assert s not in text, f"{where}: a secret leaked: {s!r}"
    assert "Traceback" not in text and "File \"" not in text, where


def urls_for(path: str, world, token: str | None) -> list[str]:
    """Concrete URLs for a route: own token / other tokens / a made-up token; both games
    and a game that does not exist."""
    if "{token}" in path:
        toks = [token] if token else []
        # a made-up token of the right form and one of the wrong form
        toks += ["x" * 32, "bad"]
        return [path.replace("{token}", t) for t in dict.fromkeys(toks)]
    if "{gid:int}" in path:
        return [path.replace("{gid:int}", str(g)) for g in (world["a"], world["b"], 999)]
    return [path]


def get(c, url):
    if url.endswith("/live"):
        with c.stream("GET", url, timeout=5) as r:
            if r.status_code != 200:
                r.read()
                return r
            body = b""
            for chunk in r.iter_bytes():
                body += chunk
                if b"\n\n" in body:
                    break
            r._content = body
            return r
    return c.get(url)


def test_every_route_is_in_the_access_table(world):
    found = app_routes(world["app"])
    for path, methods in found:
        assert path in ACCESS, f"route {path} has no entry in ACCESS: say who may use it"
        want = ACCESS[path][0]
        if want is not None:
            assert methods == want, (path, methods)
    assert {p for p, _ in found} == set(ACCESS)


@pytest.mark.parametrize("kind", ["host", "nobody", "A", "B"])
def test_every_get_route_as_every_user(world, kind):
    app, w = world["app"], world["web"]
    for who, seat, tok in users(world):
        if not who.startswith(kind):
            continue
        c = client(app, w.host_key if who == "host" else None)
        forbidden = secrets_for(world, who, seat)
        for path, methods in app_routes(app):
            rule = ACCESS[path][1]
            if methods is None:                     # static files
                for f in ("app.css", "app.js"):
                    r = c.get(f"/static/{f}")
                    assert r.status_code == 200
                    check_clean(r, forbidden, f"{who} /static/{f}")
                assert c.get("/static/../host.py").status_code == 404
                continue
            if "GET" not in methods:
                r = c.get(path.replace("{token}", tok or "x" * 32)
                          .replace("{gid:int}", str(world["a"])))
                assert r.status_code in (404, 405), (who, path, r.status_code)
                check_clean(r, forbidden, f"{who} GET {path}")
                continue
            for url in urls_for(path, world, tok):
                r = get(c, url)
                where = f"{who} GET {url}"
                check_clean(r, forbidden, where)
                if rule == "public":
                    assert r.status_code == 200, where
                elif rule == "host":
                    if who != "host":
                        assert r.status_code == 403, where
                    elif "/999" in url:
                        assert r.status_code == 404, where
                    else:
                        assert r.status_code == 200, where
                elif rule == "player":
                    if tok and url.startswith(f"/p/{tok}"):
                        assert r.status_code == 200, where
                        if url == f"/p/{tok}":
                            assert f"<h1>{seat}" in r.text
                    else:
                        assert r.status_code == 404, where
                        assert "Страница не найдена" in r.text
                elif rule == "api_player":
                    if tok and url == f"/api/p/{tok}":
                        assert r.status_code == 200, where
                        assert r.json()["seat"] == seat
                    else:
                        assert r.status_code == 404, where
                elif rule == "api_bearer":          # no bearer header here
                    assert r.status_code == 401, where
                    if tok:
                        rb = c.get(url, headers={"authorization": f"Bearer {tok}"})
                        assert rb.status_code == 200 and rb.json()["seat"] == seat
                        check_clean(rb, forbidden, where + " bearer")


def _rev(world, game):
    from mafiahost.store import GameRow
    with world["host"].store.session() as s:
        return s.get(GameRow, world[game]).rev


def _forms(world, path: str) -> dict:
    """A meaningful form for each POST route (so a refusal is about access, not input)."""
    name = path.rsplit("/", 1)[1]
    return {"act": {"actor": "Егор", "ability": "check", "target": "Анна"},
            "vote": {"voter": "Егор", "target": "Анна"},
            "deadline": {"when": "2030-01-01 21:00"},
            "replace": {"seat": "Дина", "nick": "Новичок"},
            "remove": {"player": "Дина", "why": "x"},
            "absent": {"player": "Дина"}, "excuse": {"player": "Дина"},
            "reissue": {"seat": "Дина"}, "games": {"ruleset": "vanilla",
                                                   "players": "a,b,c,d,e,f"},
            "login": {"key": "nope"}}.get(name, {})


def test_every_post_route_refuses_everyone_without_the_right_credential(world):
    """No POST changes anything unless made with the right credential and anti-forgery
    token: wrong users, missing or foreign tokens, another site's Origin."""
    app, w = world["app"], world["web"]
    for who, seat, tok in users(world):
        c = client(app, w.host_key if who == "host" else None)
        forbidden = secrets_for(world, who, seat)
        for path, methods in app_routes(app):
            if methods is None or "POST" not in methods:
                continue
            rule = ACCESS[path][1]
            for url in urls_for(path, world, tok):
                before = (_rev(world, "a"), _rev(world, "b"))
                form = _forms(world, url)
                own_player = rule == "player" and tok and url.startswith(f"/p/{tok}/")
                # 1) no anti-forgery token at all
                r = c.post(url, data=form)
                check_clean(r, forbidden, f"{who} POST {url}")
                if path == "/login" and who != "host":
                    assert r.status_code == 403
                # 2) someone else's anti-forgery token (the host's, another player's)
                foreign = webapp.player_csrf(w, world["links_a"]["Глеб"]) \
                    if who == "host" else webapp.host_csrf(w)
                r2 = c.post(url, data={**form, "csrf": foreign})
                check_clean(r2, forbidden, f"{who} POST {url} foreign csrf")
                # 3) the right token, from another site
                if who == "host" and rule == "host":
                    right = webapp.host_csrf(w)
                elif own_player:
                    right = webapp.player_csrf(w, tok)
                else:
                    right = None
                if right:
                    r3 = c.post(url, data={**form, "csrf": right},
                                headers={"origin": "https://evil.example"})
                    assert r3.status_code == 403, (who, url)
                # the API takes JSON only: a form is refused (415) or the token (401/404)
                refused = (401, 403, 404, 415) if rule.startswith("api") else (403, 404)
                assert r.status_code in refused, (who, url, r.status_code)
                assert r2.status_code in refused, (who, url, r2.status_code)
                assert (_rev(world, "a"), _rev(world, "b")) == before, (who, url)


def test_players_act_only_for_themselves_and_the_host_may_do_everything(world):
    app, w, host = world["app"], world["web"], world["host"]
    a = world["a"]
    # every player of A votes by their own link: the vote is always their seat's
    for seat, tok in world["links_a"].items():
        c = client(app)
        n0 = len(host.load(a)[1].events)
        r = c.post(f"/p/{tok}/vote", data={"csrf": webapp.player_csrf(w, tok),
                                           "target": "Вера", "voter": "Анна"})
        assert r.status_code in (303, 409), r.text
        _, g = host.load(a)
        for e in g.events[n0:]:
            if e.type == "vote":
                assert e.data["voter"] == seat
        check_clean(r, secrets_for(world, f"A:{seat}", seat), f"vote {seat}")
    # the host's every command route works with the host's credential (on game B)
    hc = client(app, w.host_key)
    csrf = webapp.host_csrf(w)
    b = world["b"]
    old_link = host.links(b)["Соня"]
    steps = [("deadline", {"when": "2030-01-01 21:00"}),
             ("act", {"actor": "Олег", "ability": "check", "target": "Пётр"}),
             ("undo", {}),
             ("act", {"actor": "Олег", "ability": "check", "target": "Пётр"}),
             ("replace", {"seat": "Соня", "nick": "Новичок"}),
             ("reissue", {"seat": "Тимур"}),
             ("remove", {"player": "Ульяна", "why": "правила"}),
             ("resolve", {}),
             ("absent", {"player": "Пётр"}),
             ("excuse", {"player": "Рита"}),
             ("vote", {"voter": "Олег", "target": "Пётр"})]
    for name, form in steps:
        rev = _rev(world, "b")
        r = hc.post(f"/host/games/{b}/{name}", data={**form, "csrf": csrf})
        assert r.status_code == 303, (name, r.text)
        page = hc.get(r.headers["location"])
        assert "Не принято" not in page.text, (name, page.text[:2000])
        if name != "reissue":
            assert _rev(world, "b") > rev, name
    # the replaced player's old link no longer opens the seat
    assert client(app).get(f"/p/{old_link}").status_code == 404
    assert client(app).get(f"/p/{host.links(b)['Соня']}").status_code == 200
    r = hc.post("/host/games", data={"csrf": csrf, "ruleset": "vanilla",
                                     "players": "a,b,c,d,e,f", "mafia": "1"})
    assert r.status_code == 303 and re.match(r"/host/games/\d+$", r.headers["location"])
    r = hc.post("/logout", data={"csrf": csrf})
    assert r.status_code == 303
    assert hc.get("/host").status_code == 403


def test_error_pages_are_generic(world):
    c = client(world["app"])
    for url in ("/nope", "/p/" + "A" * 40, "/host/games/1", "/static/nope.css"):
        r = c.get(url)
        assert r.status_code in (403, 404)
        assert "Traceback" not in r.text and "sqlalchemy" not in r.text.lower()
    # a crash inside a page is a generic 500, nothing from the exception
    app = world["app"]
    w = app.state.web
    tok = world["links_a"]["Анна"]
    orig = webapp.views.player_page
    webapp.views.player_page = lambda *a, **k: 1 / 0
    try:
        r = client(app).get(f"/p/{tok}")
    finally:
        webapp.views.player_page = orig
    assert r.status_code == 500
    assert "ZeroDivision" not in r.text and tok not in r.text.replace(f"/p/{tok}", "")
    assert w.host_key not in r.text


def test_security_headers(world):
    r = client(world["app"]).get(f"/p/{world['links_a']['Анна']}")
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["cache-control"] == "no-store"
    assert r.headers["x-frame-options"] == "DENY"
    assert "<script>" not in r.text and "<!--" not in r.text
