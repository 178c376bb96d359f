"""Who may read and do what: every route of the app, as every kind of user.

The routes are enumerated from the app itself (``app.routes``), and each must have an
entry in ``ACCESS``: a new route without one fails the test, so none escapes it. Users:
no one; each of the six players of game A (their link; one of them dead); a player of
game B; the owner of A, a co-host of A and the owner of B (each logged in by the form
with their own account's key); a host whose session ended by logout, and one whose
session ended when the administrator rotated the account's key. For each user and each
route the test checks the status, and that no response (body and headers, error pages
included) holds a secret that user may not know: an account key, another session's
anti-forgery token, another player's link token or anti-forgery token, the form-signing
key, the dice seed or salt of a game they do not host (until it is over), another
player's role or private result (unless the rules show it to this user), or a host-only
log line. What each may do is checked too: no one but a host of the game changes it by a
host route, a player's move or vote is always their own seat's, and a form without the
right anti-forgery token, or posted from another site (or ``Origin: null``), is refused
and changes nothing."""

from __future__ import annotations

import re

import pytest
from starlette.routing import Mount, Route
from test_web_support import ROLES6, client, csrf_of, make_app

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
    "/p/{token}/answer": ({"POST"}, "player"),
    "/p/{token}/live": ({"GET", "HEAD"}, "player"),
    "/p": ({"GET", "HEAD"}, "bearer"),
    "/p/act": ({"POST"}, "bearer"),
    "/p/vote": ({"POST"}, "bearer"),
    "/p/answer": ({"POST"}, "bearer"),
    "/games/{gid:int}/export.json": ({"GET", "HEAD"}, "finished"),
    "/host": ({"GET", "HEAD"}, "host"),
    "/host/games": ({"POST"}, "host"),
    "/host/settings": ({"POST"}, "host"),
    "/host/games/{gid:int}": ({"GET", "HEAD"}, "game host"),
    "/host/games/{gid:int}/preview": ({"GET", "HEAD"}, "game host"),
    "/host/games/{gid:int}/posts": ({"GET", "HEAD"}, "game host"),
    "/host/games/{gid:int}/log": ({"GET", "HEAD"}, "game host"),
    "/host/games/{gid:int}/export": ({"GET", "HEAD"}, "game host"),
    "/host/games/{gid:int}/live": ({"GET", "HEAD"}, "game host"),
    **{f"/host/games/{{gid:int}}/{c}": ({"POST"}, "game host") for c in webapp.COMMANDS},
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
HOSTS = {"owner A": "Хозяйка", "cohost A": "Помощник", "owner B": "Чужой",
         "logged out": "Ушедший", "rotated": "Сменивший"}


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
    keys = {who: host.add_host(name) for who, name in HOSTS.items()}
    acc = {who: host.host_id(name) for who, name in HOSTS.items()}
    a = host.new_game("gemini", list(ROLES6), roles=ROLES6, seed=7_302_115_948_221_337,
                      name="A", owner=acc["owner A"]).game_id
    host.set_game_host(a, HOSTS["cohost A"], "cohost")
    roles_b = dict(zip(NAMES_B, ROLES6.values(), strict=True))
    b = host.new_game("gemini", NAMES_B, roles=roles_b, seed=5_550_019_283_746_101,
                      owner=acc["owner B"]).game_id
    # a finished game: its export is public
    c = host.new_game("vanilla", ["Ян", "Юля", "Эмма", "Шура"],
                      roles={"Ян": "mafioso", "Юля": "civilian", "Эмма": "civilian",
                             "Шура": "civilian"}, seed=11, owner=acc["owner B"]).game_id
    host.remove(c, "Ян", "правила")
    for actor, ab, t in [("Анна", "check", "Борис"), ("Борис", "cover", "Вера"),
                         ("Вера", "kill", "Дина"), ("Глеб", "heal", "Анна")]:
        host.act(a, actor, ab, [t])
    host.resolve(a)                                   # Дина is killed: a dead player
    host.vote(a, "Егор", "Вера")
    links_a, links_b = host.links(a), host.links(b)
    assert not host.load(a)[1].state.players["Дина"].alive
    clients = {}
    for who in HOSTS:
        clients[who] = client(app, keys[who])
    # sessions that ended: by logout, and by the administrator's key rotation
    csrf = csrf_of(clients["logged out"].get("/host").text)
    cookie = clients["logged out"].cookies.get("mh_session")
    assert clients["logged out"].post("/logout", data={"csrf": csrf}).status_code == 303
    clients["logged out"].cookies.set("mh_session", cookie)
    host.rotate_host_key(HOSTS["rotated"])
    sessions = {who: c_.cookies.get("mh_session") for who, c_ in clients.items()}
    yield {"app": app, "host": host, "web": w, "a": a, "b": b, "c": c, "links_a": links_a,
           "links_b": links_b, "db": db, "keys": keys, "clients": clients,
           "sessions": sessions}


def users(world):
    """(who, seat, token, client) for every kind of user."""
    out = [("nobody", None, None, client(world["app"]))]
    for who in HOSTS:
        out.append((who, None, None, world["clients"][who]))
    out += [(f"A:{seat}", seat, tok, client(world["app"]))
            for seat, tok in world["links_a"].items()]
    seat_b = NAMES_B[0]
    out.append((f"B:{seat_b}", seat_b, world["links_b"][seat_b], client(world["app"])))
    return out


def hosted(world, who: str) -> set[int]:
    return {"owner A": {world["a"]}, "cohost A": {world["a"]},
            "owner B": {world["b"], world["c"]}}.get(who, set())


def host_csrf_of(world, who: str) -> str | None:
    tok = world["sessions"].get(who)
    return webapp.host_csrf(world["web"], tok) if tok else None


def secrets_for(world, who: str, seat: str | None) -> list[str]:
    """The strings this user must never receive."""
    host, w = world["host"], world["web"]
    mine = hosted(world, who)
    out = [w.csrf_key, *world["keys"].values()]
    out += [webapp.host_csrf(w, t) for k, t in world["sessions"].items() if k != who and t]
    out += [t for k, t in world["sessions"].items() if t]         # cookies are never echoed
    for game in ("a", "b"):
        if world[game] not in mine:
            row, _ = host.load(world[game])
            out += [str(row.seed), row.salt]
    own = world["links_a"].get(seat) if who.startswith("A:") else \
        world["links_b"].get(seat) if who.startswith("B:") else None
    for tok in list(world["links_a"].values()) + list(world["links_b"].values()):
        if tok != own:
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
            allowed += posts.start_post(g, row.commitment, lang, "plain", row.name)
            allowed += "".join(t for _, t in webapp.views.phase_posts(g, lang))
            allowed += posts.vote_count_post(g, lang)
            allowed += " ".join(webapp.TEXTS[lang].values())
    for gg in (world["a"], world["b"]):
        if gg in mine:
            continue
        _, g = host.load(gg)
        for p in g.state.order:
            if gg == game and p.name == seat:
                continue
            role = g.rules.roles[p.role]
            if not mine:              # a host of another game sees these role names anyway
                for s in (role.name_ru, role.name_en, f"[{p.role}]", f">{p.role}<"):
                    if s not in allowed:
                        out.append(s)
            for lang in ("ru", "en"):
                for line in posts.private_messages(g, g.events, p.name, lang).splitlines():
                    line = line.strip()
                    if line and not line.endswith(":") and line not in allowed:
                        out.append(line)
    if not mine:
        out.append(" (host) ")            # a host-only log line
    return [s for s in out if s]


def check_clean(resp, forbidden: list[str], where: str) -> None:
    text = resp.text + " ".join(f"{k}: {v}" for k, v in resp.headers.items())
    for s in forbidden:
        assert s not in text, f"{where}: a secret leaked: {s!r}"
    assert "Traceback" not in text and "File \"" not in text, where


def urls_for(path: str, world, token: str | None) -> list[str]:
    """Concrete URLs for a route: own token / other tokens / a made-up token; every game
    and a game that does not exist."""
    if "{token}" in path:
        toks = [token] if token else []
        # a made-up token of the right form and one of the wrong form
        toks += ["x" * 32, "bad"]
        return [path.replace("{token}", t) for t in dict.fromkeys(toks)]
    if "{gid:int}" in path:
        return [path.replace("{gid:int}", str(g))
                for g in (world["a"], world["b"], world["c"], 999)]
    return [path]


def get(c, url, headers=None):
    if url.endswith("/live"):
        with c.stream("GET", url, timeout=5, headers=headers) as r:
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
    return c.get(url, headers=headers)


def _gid_of(world, url: str) -> int | None:
    m = re.search(r"/games/(\d+)", url)
    return int(m.group(1)) if m else None


def expected_get(world, who: str, tok: str | None, rule: str, url: str,
                 bearer: bool) -> int:
    gid = _gid_of(world, url)
    live_host = who in ("owner A", "cohost A", "owner B")
    if rule == "public":
        return 200
    if rule == "finished":
        return 200 if gid == world["c"] else 404
    if rule == "host":
        return 200 if live_host else 403
    if rule == "game host":
        if not live_host:
            return 403
        if gid == world["c"] and url.endswith("/preview") and gid in hosted(world, who):
            return 303                 # nothing to resolve: back to the game with a sentence
        return 200 if gid in hosted(world, who) else 404
    if rule == "player":
        return 200 if tok and url.startswith(f"/p/{tok}") else 404
    if rule == "bearer":
        return 200 if tok and bearer else 404
    if rule == "api_player":
        return 200 if tok and url == f"/api/p/{tok}" else 404
    if rule == "api_bearer":
        return 200 if tok and bearer else 401
    raise AssertionError(rule)


def test_every_route_is_in_the_access_table(world):
    found = app_routes(world["app"])
    for path, methods in found:
        assert path in ACCESS, f"route {path} has no entry in ACCESS: say who may use it"
        want = ACCESS[path][0]
        if want is not None:
            assert methods == want, (path, methods)
    assert {p for p, _ in found} == set(ACCESS)


@pytest.mark.parametrize("kind", ["nobody", "owner", "cohost", "logged", "rotated", "A",
                                  "B"])
def test_every_get_route_as_every_user(world, kind):
    app = world["app"]
    for who, seat, tok, c in users(world):
        if not who.startswith(kind):
            continue
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
                for bearer in ([False, True] if rule in ("bearer", "api_bearer")
                               else [False]):
                    headers = {"authorization": f"Bearer {tok or 'x' * 32}"} \
                        if bearer else None
                    r = get(c, url, headers)
                    where = f"{who} GET {url}{' (bearer)' if bearer else ''}"
                    check_clean(r, forbidden, where)
                    want = expected_get(world, who, tok, rule, url, bearer)
                    assert r.status_code == want, (where, r.status_code, want)
                    if want == 404 and not rule.startswith("api"):
                        assert "Страница не найдена" in r.text, where
                    if rule.startswith("api") and want == 200:
                        assert r.json()["seat"] == seat, where
                    if rule in ("player", "bearer") and want == 200 and \
                            not url.endswith("/live"):
                        assert f"<h1>{seat}" in r.text, where


def _revs(world):
    from mafiahost.store import GameRow
    with world["host"].store.session() as s:
        return tuple(s.get(GameRow, world[g]).rev for g in ("a", "b", "c"))


def _links(world):
    from mafiahost.store import PlayerLinkRow
    with world["host"].store.session() as s:
        return sorted(s.query(PlayerLinkRow.game_id, PlayerLinkRow.seat,
                              PlayerLinkRow.token_hash).all())


def _accounts(world) -> list:
    """Every account with its settings (a refused POST changes none: the time zone)."""
    return [(a["name"], a["tz"]) for a in world["host"].host_accounts()]


def _forms(world, path: str) -> dict:
    """A meaningful form for each POST route (so a refusal is about access, not input)."""
    name = path.rsplit("/", 1)[1]
    return {"act": {"actor": "Егор", "ability": "check", "target": "Анна"},
            "vote": {"voter": "Егор", "target": "Анна"},
            "deadline": {"when": "2030-01-01 21:00"},
            "replace": {"seat": "Вера", "nick": "Новичок"},
            "remove": {"player": "Вера", "why": "x"},
            "absent": {"player": "Вера"}, "excuse": {"player": "Вера"},
            "reissue": {"seat": "Вера"}, "cohost": {"name": HOSTS["owner B"]},
            "votes": {"dump": "Автор: Егор | 12.03.2024 21:15\n[spoiler=Голос против]Анна"
                              "[/spoiler]"},
            "games": {"ruleset": "vanilla", "players": "a,b,c,d,e,f"},
            "settings": {"tz": "Asia/Omsk"},
            "login": {"key": "nope"}}.get(name, {})


def test_every_post_route_refuses_everyone_without_the_right_credential(world):
    """No POST changes anything unless made with the right credential and anti-forgery
    token: wrong users, missing or foreign tokens, another site's Origin, Origin null, a
    host of another game, an ended session."""
    app, w = world["app"], world["web"]
    for who, seat, tok, c in users(world):
        forbidden = secrets_for(world, who, seat)
        for path, methods in app_routes(app):
            if methods is None or "POST" not in methods:
                continue
            rule = ACCESS[path][1]
            for url in urls_for(path, world, tok):
                before = (_revs(world), _links(world), _accounts(world))
                form = _forms(world, url)
                own_player = rule == "player" and tok and url.startswith(f"/p/{tok}/")
                own_host = host_csrf_of(world, who) if who in HOSTS else None
                # 1) no anti-forgery token at all
                r = c.post(url, data=form)
                check_clean(r, forbidden, f"{who} POST {url}")
                if path == "/login":
                    assert r.status_code == 403
                # 2) someone else's anti-forgery token (a host's, a player's)
                foreign = webapp.player_csrf(w, world["links_a"]["Глеб"]) \
                    if who in HOSTS else host_csrf_of(world, "owner A")
                r2 = c.post(url, data={**form, "csrf": foreign})
                check_clean(r2, forbidden, f"{who} POST {url} foreign csrf")
                # 3) the right token, from another site or from a null origin
                right = own_host if rule in ("host", "game host") else \
                    webapp.player_csrf(w, tok) if own_player else None
                gid = _gid_of(world, url)
                if right:
                    foreign_game = rule == "game host" and gid not in hosted(world, who)
                    for origin in ("https://evil.example", "null"):
                        r3 = c.post(url, data={**form, "csrf": right},
                                    headers={"origin": origin})
                        assert r3.status_code in ((403, 404) if foreign_game else (403,)), \
                            (who, url, origin, r3.status_code)
                    # 4) the right token from this site, but a host of another game or
                    #    an ended session
                    if rule == "game host" and gid not in hosted(world, who):
                        r4 = c.post(url, data={**form, "csrf": right})
                        assert r4.status_code in (403, 404), (who, url, r4.status_code)
                        check_clean(r4, forbidden, f"{who} POST {url} right csrf")
                    if who in ("logged out", "rotated") and path != "/login":
                        r4 = c.post(url, data={**form, "csrf": right})
                        assert r4.status_code == 403, (who, url, r4.status_code)
                if rule == "bearer":
                    # a bearer request with a made-up token
                    r5 = c.post(url, data=form, headers={"authorization": "Bearer " + "x" * 32})
                    assert r5.status_code == 404, (who, url)
                # the API takes JSON only: a form is refused (415), or the token (401/404)
                refused = (401, 403, 404, 415) if rule.startswith("api") else (403, 404)
                assert r.status_code in refused, (who, url, r.status_code)
                assert r2.status_code in refused, (who, url, r2.status_code)
                after = (_revs(world), _links(world), _accounts(world))
                assert after == before, (who, url)


def test_players_act_only_for_themselves_and_hosts_do_everything(world):
    app, w, host = world["app"], world["web"], world["host"]
    a = world["a"]
    # every player of A votes by their own link: the vote is always their seat's; the
    # dead player's vote is refused
    for seat, tok in world["links_a"].items():
        c = client(app)
        n0 = len(host.load(a)[1].events)
        r = c.post(f"/p/{tok}/vote", data={"csrf": webapp.player_csrf(w, tok),
                                           "target": "Вера", "voter": "Анна"})
        assert r.status_code in (303, 409), r.text
        if seat == "Дина":
            assert r.status_code == 409
        _, g = host.load(a)
        for e in g.events[n0:]:
            if e.type == "vote":
                assert e.data["voter"] == seat
        check_clean(r, secrets_for(world, f"A:{seat}", seat), f"vote {seat}")
    # a program votes with the token in a header (no anti-forgery token needed)
    tok = world["links_a"]["Егор"]
    r = client(app).post("/p/vote", data={"target": "Борис"},
                         headers={"authorization": f"Bearer {tok}"})
    assert r.status_code == 200 and r.json()["ok"], r.text
    assert host.load(a)[1].state.votes["Егор"] == "Борис"
    # the co-host of A may run every command of A (on game B: its owner)
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
    b = world["b"]
    hc = world["clients"]["owner B"]
    csrf = host_csrf_of(world, "owner B")
    old = dict(world["links_b"])
    shown = {}
    for name, form in steps:
        rev = _revs(world)[1]
        r = hc.post(f"/host/games/{b}/{name}", data={**form, "csrf": csrf})
        if name in ("replace", "reissue"):
            # the new link is shown on the answer, once
            assert r.status_code == 200, (name, r.text[:2000])
            found = re.findall(r'value="http://testserver/p/([^"]+)"', r.text)
            assert len(found) == 1
            shown[form["seat"]] = found[0]
        else:
            assert r.status_code == 303, (name, r.text)
            page = hc.get(r.headers["location"])
            assert "Не принято" not in page.text, (name, page.text[:2000])
        if name != "reissue":
            assert _revs(world)[1] > rev, name
    # the replaced player's old link no longer opens the seat; the new one does
    for seat in ("Соня", "Тимур"):
        assert client(app).get(f"/p/{old[seat]}").status_code == 404
        assert client(app).get(f"/p/{shown[seat]}").status_code == 200
    # the co-host runs A's commands, but only the owner appoints co-hosts
    cc = world["clients"]["cohost A"]
    ccsrf = host_csrf_of(world, "cohost A")
    r = cc.post(f"/host/games/{a}/deadline", data={"csrf": ccsrf, "when": "2031-01-01 21:00"})
    assert r.status_code == 303
    r = cc.post(f"/host/games/{a}/cohost", data={"csrf": ccsrf, "name": HOSTS["owner B"]})
    assert r.status_code == 303
    assert host.host_role(host.host_id(HOSTS["owner B"]), a) is None
    # a game made on the web belongs to the one who made it
    r = hc.post("/host/games", data={"csrf": csrf, "ruleset": "vanilla",
                                     "players": "a,b,c,d,e,f", "mafia": "1"})
    assert r.status_code == 200
    new = int(re.search(r'href="/host/games/(\d+)"', r.text).group(1))
    assert host.host_role(host.host_id(HOSTS["owner B"]), new) == "owner"
    assert world["clients"]["owner A"].get(f"/host/games/{new}").status_code == 404
    assert f"/host/games/{new}\"" not in world["clients"]["owner A"].get("/host").text


def test_logout_and_rotation_end_sessions_at_once(world):
    app, host = world["app"], world["host"]
    key = host.add_host("Временный")
    c1, c2 = client(app, key), client(app, key)
    assert c1.get("/host").status_code == 200 and c2.get("/host").status_code == 200
    # logout ends this browser's session only
    r = c1.post("/logout", data={"csrf": csrf_of(c1.get("/host").text)})
    assert r.status_code == 303
    assert c1.get("/host").status_code == 403 and c2.get("/host").status_code == 200
    # a new key ends every session, and the old key no longer logs in
    new = host.rotate_host_key("Временный")
    assert c2.get("/host").status_code == 403
    page = c1.get("/login")
    r = c1.post("/login", data={"csrf": csrf_of(page.text), "key": key})
    assert r.status_code == 403
    assert client(app, new).get("/host").status_code == 200


def test_sessions_expire(world, monkeypatch):
    app, host = world["app"], world["host"]
    key = host.add_host("Краткий")
    monkeypatch.setenv("MAFIAHOST_SESSION_HOURS", "-1")        # expired as soon as made
    c = client(app)
    page = c.get("/login")
    assert c.post("/login", data={"csrf": csrf_of(page.text), "key": key}).status_code == 303
    assert c.get("/host").status_code == 403


def test_error_pages_are_generic(world):
    c = client(world["app"])
    for url in ("/nope", "/p/" + "A" * 40, "/host/games/1", "/static/nope.css"):
        r = c.get(url)
        assert r.status_code in (403, 404)
        assert "Traceback" not in r.text and "sqlalchemy" not in r.text.lower()
    # a crash inside a page is a generic 500, nothing from the exception, and the page
    # carries the security headers
    app = world["app"]
    tok = world["links_a"]["Анна"]
    orig = webapp.views.player_page
    webapp.views.player_page = lambda *a, **k: 1 / 0
    try:
        r = client(app).get(f"/p/{tok}")
    finally:
        webapp.views.player_page = orig
    assert r.status_code == 500
    assert "Что-то пошло не так" in r.text
    assert "ZeroDivision" not in r.text and tok not in r.text.replace(f"/p/{tok}", "")
    assert r.headers["referrer-policy"] == "no-referrer"
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["cache-control"] == "no-store"


def test_security_headers(world):
    r = client(world["app"]).get(f"/p/{world['links_a']['Анна']}")
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["cache-control"] == "no-store"
    assert r.headers["x-frame-options"] == "DENY"
    assert "<script>" not in r.text and "<!--" not in r.text


def test_secrets_are_stored_only_as_hashes(world):
    """No key, session or link token is in the database in clear."""
    import sqlite3
    con = sqlite3.connect(world["db"])
    dump = "\n".join(con.iterdump())
    con.close()
    for k in world["keys"].values():
        assert k not in dump
    for t in world["sessions"].values():
        if t:
            assert t not in dump
    for t in list(world["links_a"].values()) + list(world["links_b"].values()):
        assert t not in dump


def test_null_origin_is_refused_unless_the_browser_vouches_same_origin(world):
    """``Origin: null`` (a sandboxed frame, a data: page) is refused; a browser posting
    our own form from a no-referrer page sends it too, but with ``Sec-Fetch-Site:
    same-origin``, which no page can forge. ``Sec-Fetch-Site: cross-site`` is refused."""
    c = world["clients"]["owner A"]
    a = world["a"]
    csrf = host_csrf_of(world, "owner A")
    url, form = f"/host/games/{a}/deadline", {"csrf": csrf, "when": "2032-01-01 21:00"}
    before = _revs(world)
    for headers in ({"origin": "null"},
                    {"origin": "null", "sec-fetch-site": "cross-site"},
                    {"sec-fetch-site": "cross-site"},
                    {"sec-fetch-site": "same-site"},
                    {"origin": "https://evil.example", "sec-fetch-site": "same-origin"}):
        assert c.post(url, data=form, headers=headers).status_code == 403, headers
    assert _revs(world) == before
    r = c.post(url, data=form, headers={"origin": "null", "sec-fetch-site": "same-origin"})
    assert r.status_code == 303 and _revs(world)[0] == before[0] + 1
