"""The web app: host pages, player pages, live updates.

``create_app(db)`` builds a Starlette app on the same database as the command line. Every
request that changes a game calls one method of ``mafiahost.host.Host`` (one transaction,
exactly as the command line does); pages read the game from the host's cache of rebuilt
games. Routes (``ROUTES`` below is the full list; the access test walks it):

    /                              public home page        /login, /logout   host login
    /p/{token}                     a player's page         /p/{token}/act, /vote, /live
    /p, /p/act, /p/vote            the same, the token in ``Authorization: Bearer``
    /host                          the host's games        /host/games       create a game
    /host/games/{gid}              one game                .../preview, /posts, /log,
    /host/games/{gid}/export       the game as JSON        /live, and one POST per command
    /games/{gid}/export.json       a finished game's export, public (anyone may verify it)

A host sees and controls only the games their account owns or co-hosts (``require_game``);
another game is the same 404 as a game that does not exist.
"""

from __future__ import annotations

import json
import os
import re
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import parse_qsl, quote, unquote

import anyio
import yaml
from jinja2 import Environment, FileSystemLoader, select_autoescape
from sqlalchemy.exc import DBAPIError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..engine.errors import Refused, RulesetError
from ..host import (
    AccessDenied,
    GameCache,
    Host,
    HostError,
    NoGame,
    is_late,
    parse_bots,
    parse_roles,
    parse_time,
)
from ..rules import available
from ..store import StoreError, open_store
from ..store.accounts import digest, session_hours
from . import api, views
from .live import Live
from .security import (
    FLASH_COOKIE,
    HOST_COOKIE,
    LANG_COOKIE,
    LOGIN_COOKIE,
    SecurityHeaders,
    new_login_nonce,
    same,
    sign,
    with_headers,
)

HERE = Path(__file__).parent
TEXTS = yaml.safe_load((HERE / "texts.yaml").read_text(encoding="utf-8"))
# the templates read ``t.key`` (a namespace: ``t.copy`` is the word, not dict.copy)
WORDS = {lang: SimpleNamespace(**words) for lang, words in TEXTS.items()}
LANGS = ("ru", "en")
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
MAX_FORM = 256 * 1024

_env = Environment(loader=FileSystemLoader(str(HERE / "templates")),
                   autoescape=select_autoescape(["html"]), trim_blocks=True,
                   lstrip_blocks=True)


THREADS = 24         # worker threads for database work (and connections in the pool)


class Web:
    """The app's state: the host service layer, its secrets, live updates, and a map of
    player tokens to seats (only a shortcut: every use of a token is checked against the
    database inside the transaction that uses it, and a stale entry is dropped)."""

    def __init__(self, host: Host, public_url: str | None = None):
        self.host = host
        self.csrf_key = host.web_key("csrf")
        self.public_url = (public_url or "").rstrip("/") or None
        self.live = Live(host)
        self.rulesets = available()
        self.tokens: dict[str, tuple[int, str]] = {}

    def seat_of(self, token: str) -> tuple[int, str] | None:
        key = digest(token)
        hit = self.tokens.get(key)
        if hit is None:
            hit = self.host.player_link(token)
            if hit is not None:
                if len(self.tokens) > 100_000:
                    self.tokens.clear()
                self.tokens[key] = hit
        return hit

    def forget(self, token: str) -> None:
        self.tokens.pop(digest(token), None)


@dataclass
class Who:
    """The logged-in host of a request: account, name, the session's token and, on a game's
    page, what the account is to that game (``owner`` / ``cohost``)."""
    account: int
    name: str
    token: str
    role: str | None = None


# ---- request helpers -------------------------------------------------------------------------

async def _db(fn, *args):
    """``fn(*args)`` in a worker thread. A database connection found dead (a restarted or
    dropped PostgreSQL connection: SQLAlchemy then discards the pool) is tried once more
    on a new one; the host's commands retry inside their own transaction and never
    surface such an error here, so nothing is done twice."""
    try:
        return await run_in_threadpool(fn, *args)
    except DBAPIError as e:
        if not e.connection_invalidated:
            raise
    return await run_in_threadpool(fn, *args)


_WRITERS: dict = {}


#: SQLite: how many of the process's commands run at once (while one writes, the next
#: ones work out their moves and then join its transaction: ``_command``)
WRITERS = 8


async def _command(w: Web, fn, *args):
    """``_db`` for a request that changes a game. On a SQLite file at most ``WRITERS`` of
    the process's commands run at once (``Store.optimistic``). The database takes one
    writer at a time: the commands that finish their rules while another one writes
    wait for the write lock and then share its transaction, and one commit (one
    ``fsync``) stores them all (``Store.hot``'s group commit), so more than two at once
    pay: with 16 clients (``bench/web_load.py``'s load, seven rounds interleaved with the
    code before) the server's CPU a move went from a median of 1.16 ms (two at once,
    each commit in its own transaction) to 0.97 ms (eight, most commits carrying 7-8
    moves). All 24
    threads writing would make the thread that holds the write lock wait for the
    interpreter between its statements (so every other command waits longer for the
    lock). Pages are still read in parallel."""
    if not w.host.store.optimistic:
        return await _db(fn, *args)
    lim = _WRITERS.get(id(w))
    if lim is None:
        lim = _WRITERS[id(w)] = anyio.CapacityLimiter(WRITERS)
    async with lim:
        return await _db(fn, *args)


def web(request: Request) -> Web:
    return request.app.state.web


def lang_of(request: Request) -> str:
    q = request.query_params.get("lang")
    if q in LANGS:
        return q
    c = request.cookies.get(LANG_COOKIE)
    return c if c in LANGS else "ru"


def render(request: Request, name: str, ctx: dict, status: int = 200,
           flash: tuple | None = None) -> HTMLResponse:
    lang = lang_of(request)
    t = WORDS[lang]
    if flash is None:
        flash = _read_flash(request)
    page = _env.get_template(name).render(t=t, lang=lang, flash=flash, path=request.url.path,
                                          **ctx)
    resp = HTMLResponse(page, status_code=status)
    q = request.query_params.get("lang")
    if q in LANGS:
        resp.set_cookie(LANG_COOKIE, q, max_age=365 * 86400, httponly=True, samesite="lax")
    if request.cookies.get(FLASH_COOKIE):
        resp.delete_cookie(FLASH_COOKIE, path=_flash_path(request))
    return resp


def _flash_path(request: Request) -> str:
    p = request.url.path
    m = re.match(r"^(/p/[^/]+|/host)", p)
    return m.group(1) if m else "/"


def _read_flash(request: Request):
    raw = request.cookies.get(FLASH_COOKIE)
    if not raw:
        return None
    try:
        kind, _, text = unquote(raw).partition(":")
    except Exception:  # noqa: BLE001
        return None
    return (kind, text[:2000]) if kind in ("ok", "err") else None


def redirect(request: Request, url: str, flash: tuple | None = None) -> RedirectResponse:
    resp = RedirectResponse(url, status_code=303)
    if flash:
        resp.set_cookie(FLASH_COOKIE, quote(f"{flash[0]}:{flash[1]}"[:1500]), max_age=60,
                        httponly=True, samesite="lax", path=_flash_path(request))
    return resp


def refusal(lang: str, e: Refused) -> str:
    return (e.ru if lang == "ru" else e.en) or e.ru or e.en or str(e)


def not_found(*_):
    raise HTTPException(404)


async def form_of(request: Request) -> dict:
    """The posted form, after the anti-forgery checks (403 on failure)."""
    origin = request.headers.get("origin")
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        raise HTTPException(403)        # the browser says: another site sent this
    if origin == "null":
        # a sandboxed frame or a data: page sends "null"; so does a browser posting our
        # own form from a page with Referrer-Policy: no-referrer, but then it also says
        # Sec-Fetch-Site: same-origin (a header no page can forge)
        if site != "same-origin":
            raise HTTPException(403)
    elif origin is not None:
        host = request.headers.get("host", "")
        if origin.split("://", 1)[-1] != host:
            raise HTTPException(403)
    out: dict[str, list[str]] = {}
    ctype = request.headers.get("content-type", "")
    if ctype.startswith("application/x-www-form-urlencoded"):
        body = await request.body()            # the forms' own encoding: parsed here, lean
        if len(body) > MAX_FORM:
            raise HTTPException(400)
        try:
            pairs = parse_qsl(body.decode(), keep_blank_values=True, max_num_fields=200)
        except (UnicodeDecodeError, ValueError):
            raise HTTPException(400) from None
        for k, v in pairs:
            out.setdefault(k, []).append(v)
        return out
    try:
        form = await request.form(max_files=0, max_fields=200)
    except Exception:  # noqa: BLE001 - a malformed body
        raise HTTPException(400) from None
    for k, v in form.multi_items():
        if isinstance(v, str):
            out.setdefault(k, []).append(v)
    return out


def one(form: dict, key: str, default: str = "") -> str:
    v = form.get(key)
    return v[0].strip() if v else default


# ---- credentials -----------------------------------------------------------------------------

def host_csrf(w: Web, session: str) -> str:
    return sign(w.csrf_key, "session:" + session)


def player_csrf(w: Web, token: str) -> str:
    return sign(w.csrf_key, "player:" + token)


def _session(w: Web, token: str | None, gid: int | None):
    """``(account, name, role)`` for a live session (``role``: what the account is to
    game ``gid``), or None."""
    hit = w.host.session_of(token) if token else None
    if hit is None:
        return None
    role = w.host.host_role(hit[0], gid) if gid is not None else None
    return hit[0], hit[1], role


async def require_host(request: Request, gid: int | None = None) -> tuple[Web, Who]:
    """The logged-in host (403 without a live session); with ``gid``, only a host of
    that game (404 otherwise: another host's game looks like one that does not exist)."""
    w = web(request)
    tok = request.cookies.get(HOST_COOKIE)
    hit = await _db(_session, w, tok, gid) if tok else None
    if hit is None:
        raise HTTPException(403)
    if gid is not None and hit[2] is None:
        raise HTTPException(404)
    return w, Who(hit[0], hit[1], tok or "", hit[2])


async def require_game(request: Request) -> tuple[Web, Who, int]:
    gid = _game_id(request)
    w, who = await require_host(request, gid)
    return w, who, gid


async def host_form(request: Request, gid: int | None = None) -> tuple[Web, Who, dict]:
    w, who = await require_host(request, gid)
    form = await form_of(request)
    if not same(one(form, "csrf"), host_csrf(w, who.token)):
        raise HTTPException(403)
    return w, who, form


def token_of(request: Request) -> str:
    """The player's token: from the path (``/p/{token}``), or for a program from the
    ``Authorization: Bearer`` header (the ``/p``, ``/p/act``, ``/p/vote`` routes)."""
    token = request.path_params.get("token")
    if token is None:
        auth = request.headers.get("authorization", "")
        scheme, _, token = auth.partition(" ")
        if scheme.lower() != "bearer":
            raise HTTPException(404)
        token = token.strip()
    if not TOKEN_RE.match(token):
        raise HTTPException(404)
    return token


def bearer(request: Request) -> bool:
    return "token" not in request.path_params


def _with_seat(w: Web, token: str, fn):
    """``fn(game id, seat, check)`` for the seat of ``token``; AccessDenied when the token
    names no seat (now). ``check`` verifies the token inside ``fn``'s transaction."""
    for _ in range(2):
        hit = w.seat_of(token)
        if hit is None:
            raise AccessDenied()
        gid, seat = hit
        try:
            with w.host.store.checking_link(digest(token), hit):
                return fn(gid, seat, Host.link_check(token, gid, seat))
        except (AccessDenied, NoGame):
            w.forget(token)              # reissued or gone: look it up once more
    raise AccessDenied()


# ---- public pages ----------------------------------------------------------------------------

async def home(request: Request):
    w = web(request)
    tok = request.cookies.get(HOST_COOKIE)
    is_host = bool(tok) and await _db(w.host.session_of, tok) is not None
    return render(request, "home.html", {"is_host": is_host})


async def login_page(request: Request, error: bool = False, status: int = 200):
    # a key is never taken from a URL (it would stay in logs, history and Referer):
    # only the POST form logs in
    key_in_url = "key" in request.query_params
    nonce = request.cookies.get(LOGIN_COOKIE) or new_login_nonce()
    resp = render(request, "login.html", {"csrf": nonce, "error": error,
                                          "key_in_url": key_in_url},
                  status=400 if key_in_url and not error else status)
    resp.set_cookie(LOGIN_COOKIE, nonce, httponly=True, samesite="strict", max_age=3600)
    return resp


async def login(request: Request):
    w = web(request)
    form = await form_of(request)
    if not same(one(form, "csrf"), request.cookies.get(LOGIN_COOKIE)):
        raise HTTPException(403)
    hit = await _db(w.host.login, one(form, "key"))
    if hit is None:
        return await login_page(request, error=True, status=403)
    old = request.cookies.get(HOST_COOKIE)
    if old:                              # one browser, one session
        await _db(w.host.logout, old)
    resp = redirect(request, "/host")
    resp.set_cookie(HOST_COOKIE, hit[0], httponly=True, samesite="lax",
                    secure=request.url.scheme == "https",
                    max_age=int(session_hours() * 3600))
    return resp


async def logout(request: Request):
    w, who, _ = await host_form(request)
    await _db(w.host.logout, who.token)
    resp = redirect(request, "/")
    resp.delete_cookie(HOST_COOKIE)
    return resp


# ---- player pages ----------------------------------------------------------------------------

def _player_page(w: Web, token: str, gid: int, seat: str, lang: str) -> dict:
    with w.host.reading(gid, Host.link_check(token, gid, seat)) as (row, g):
        data = views.player_page(row, g, seat, lang)
    data["csrf"] = player_csrf(w, token)
    data["base"] = f"/p/{token}"
    data["export_url"] = f"/games/{gid}/export.json" if data.get("over") else None
    return data


async def player(request: Request):
    w, token = web(request), token_of(request)
    lang = lang_of(request)
    try:
        data = await _db(
            _with_seat, w, token, lambda gid, seat, _c: _player_page(w, token, gid, seat, lang))
    except AccessDenied:
        raise HTTPException(404) from None
    return render(request, "player.html", data)


def _late_guard(lang: str):
    def guard(s, row, g):
        label = views.label_of(g)
        dl = parse_time(row.deadline) if row.deadline_phase == label else None
        if dl is not None:
            from datetime import datetime
            if is_late(datetime.now().astimezone(), dl):
                from ..render.posts import deadline_words
                now = datetime.now(dl.tzinfo) if dl.tzinfo else datetime.now()
                raise HostError(f"Срок этой фазы истёк в {deadline_words(dl, 'ru')} (сейчас "
                                f"{deadline_words(now, 'ru')}): ход не принят. Напишите "
                                f"ведущему.",
                                f"This phase's deadline passed at {deadline_words(dl, 'en')} "
                                f"(now {deadline_words(now, 'en')}): the move is not taken. "
                                f"Write to the host.")
    return guard


def _both(*guards):
    def guard(s, row, g):
        for x in guards:
            x(s, row, g)
    return guard


async def player_post(request: Request, kind: str):
    w, token = web(request), token_of(request)
    form = await form_of(request)
    # a program sending the token in a header needs no anti-forgery token: a browser
    # never adds that header to another site's request
    if not bearer(request) and not same(one(form, "csrf"), player_csrf(w, token)):
        raise HTTPException(403)
    lang = lang_of(request)

    def command(gid, seat, check):
        if kind == "answer":
            return w.host.answer(gid, seat, one(form, "question"), one(form, "answer"), lang,
                                 guard=check)
        if kind == "act":
            targets = [t.strip() for t in form.get("target", []) if t.strip()]
            # never ``replace`` here: a player may change a sent move only where the rule
            # set says so (``forum.replace_moves``), which ``Host.act`` applies itself
            return w.host.act(gid, seat, one(form, "ability"), targets, False, lang,
                              hints=False, guard=_both(check, _late_guard(lang)))
        return w.host.vote(gid, seat, one(form, "target"), None, False, lang, hints=False,
                           guard=check, source="web")

    try:
        done = await _command(w, _with_seat, w, token, command)
    except AccessDenied:
        raise HTTPException(404) from None
    except Refused as e:
        msg = refusal(lang, e)
        if request.headers.get("accept") == "application/json" or bearer(request):
            return JSONResponse({"ok": False, "error": msg}, status_code=409)
        try:
            data = await _db(
                _with_seat, w, token,
                lambda gid, seat, _c: _player_page(w, token, gid, seat, lang))
        except AccessDenied:
            raise HTTPException(404) from None
        return render(request, "player.html", data, status=409, flash=("err", msg))
    w.live.poke()
    if request.headers.get("accept") == "application/json" or bearer(request):
        return JSONResponse({"ok": True, "message": done.message})
    anchor = {"act": "move", "answer": "questions"}.get(kind, "vote")
    return redirect(request, f"/p/{token}#{anchor}",
                    ("ok", done.message))


async def player_act(request: Request):
    return await player_post(request, "act")


async def player_vote(request: Request):
    return await player_post(request, "vote")


async def player_answer(request: Request):
    return await player_post(request, "answer")


async def player_live(request: Request):
    w, token = web(request), token_of(request)

    def fingerprint():
        def look(gid, seat, check):
            with w.host.reading(gid, check) as (_row, g):
                return gid, views.player_fingerprint(g, seat)
        return _with_seat(w, token, look)
    try:
        gid, _ = await _db(fingerprint)
    except AccessDenied:
        raise HTTPException(404) from None
    return StreamingResponse(w.live.stream(gid, lambda: fingerprint()[1]),
                             media_type="text/event-stream", headers={"x-accel-buffering": "no"})


# ---- host pages ------------------------------------------------------------------------------

def _game_id(request: Request) -> int:
    try:
        gid = int(request.path_params["gid"])
    except (KeyError, ValueError):
        raise HTTPException(404) from None
    return gid


async def host_home(request: Request):
    w, who = await require_host(request)

    def work():
        mine = w.host.hosted_games(who.account)
        games = [dict(x, role=mine[x["id"]]) for x in w.host.list_games() if x["id"] in mine]
        return games, (w.host.reminders(24, games=list(mine)) if mine else []), \
            w.host.account_tz(who.account)
    games, due, tz = await _db(work)
    lang = lang_of(request)
    return render(request, "host_games.html", {"games": views.games_list(games, lang),
                                               "reminders": views.reminders(due, lang),
                                               "csrf": host_csrf(w, who.token),
                                               "rulesets": views.ruleset_choices(lang),
                                               "who": who, "tz": tz})


async def host_settings(request: Request):
    """The account's settings: its time zone (for its new games' deadlines)."""
    w, who, form = await host_form(request)
    lang = lang_of(request)
    try:
        tz = await _db(w.host.set_host_tz, who.name, one(form, "tz")[:64])
    except Refused as e:
        return redirect(request, "/host", ("err", refusal(lang, e)))
    t = TEXTS[lang]
    return redirect(request, "/host", ("ok", t["tz_saved"].format(tz=tz or t["tz_default"])))


def _base(request: Request) -> str:
    w = web(request)
    if w.public_url:
        return w.public_url
    return f"{request.url.scheme}://{request.headers.get('host', request.url.netloc)}"


def links_page(request: Request, w: Web, who: Who, gid: int, made: dict[str, str],
               message: str, status: int = 200):
    """The links just made, shown this once (the server keeps only their hashes)."""
    def names():
        with w.host.reading(gid) as (_row, g):
            return {seat: g.display(seat) for seat in made}
    return names, lambda shown: render(
        request, "host_links.html",
        {"gid": gid, "csrf": host_csrf(w, who.token), "flash_msg": message,
         "links": [(shown.get(seat, seat), _base(request) + "/p/" + tok)
                   for seat, tok in made.items()]}, status=status, flash=("ok", message))


async def show_links(request, w, who, gid, made, message):
    names, page = links_page(request, w, who, gid, made, message)
    return page(await _db(names))


async def host_create(request: Request):
    w, who, form = await host_form(request)
    lang = lang_of(request)
    players = [x.strip() for x in re.split(r"[,\n]", one(form, "players")) if x.strip()]
    try:
        roles = parse_roles(one(form, "roles"), players) if one(form, "roles") else None
        options = {}
        for line in one(form, "options").splitlines():
            if "=" in line:
                k, _, v = line.partition("=")
                try:                    # as on the command line: a YAML scalar
                    val = yaml.safe_load(v.strip())
                except yaml.YAMLError:
                    val = v.strip()
                options[k.strip()] = val if isinstance(val, (str, int, float, bool)) \
                    else v.strip()
        mafia = int(one(form, "mafia")) if one(form, "mafia") else None
        seed = int(one(form, "seed")) if one(form, "seed") else None
    except ValueError:
        return redirect(request, "/host", ("err", TEXTS[lang]["bad_form"]))
    glang = one(form, "lang", "ru")
    fmt = one(form, "fmt", "plain")
    try:
        # bot seats: the same text, reading and refusals as ``game new --bots``
        bots = parse_bots(one(form, "bots"), players) or None
        done = await _db(
            lambda: w.host.new_game(one(form, "ruleset"), players, roles=roles, bots=bots,
                                    options=options, mafia=mafia, seed=seed,
                                    name=one(form, "name")[:200],
                                    lang=glang if glang in LANGS else "ru",
                                    fmt=fmt if fmt in ("plain", "bbcode") else "plain",
                                    owner=who.account,
                                    accept_warnings=one(form, "accept_warnings") == "1"))
        made = await _db(w.host.links, done.game_id)
    except (Refused, RulesetError) as e:
        msg = refusal(lang, e) if isinstance(e, Refused) else str(e)
        return redirect(request, "/host", ("err", msg))
    return await show_links(request, w, who, done.game_id, made, done.message)


def _host_game(w: Web, gid: int, lang: str) -> dict:
    dates = w.host.link_dates(gid)
    hosts = w.host.game_hosts(gid)
    from ..host.deadlines import local_words
    from ..host.phases import chain_words, undo_chain, warnings
    with w.host.store.session() as s:
        chain = undo_chain(s, gid)
    with w.host.reading(gid) as (row, g):
        data = views.host_game(row, g, lang)
        data["undo"] = chain_words(g, row, chain, lang) if chain else ""
        data["warnings"] = warnings(g, row, lang)
    for p in data["players"]:
        at = dates.get(p["seat"])
        p["link_at"] = local_words(at, lang) if at else None
    data["hosts"] = hosts
    return data


async def host_game(request: Request):
    w, who, gid = await require_game(request)
    try:
        data = await _db(_host_game, w, gid, lang_of(request))
    except NoGame:
        raise HTTPException(404) from None
    return render(request, "host_game.html", {"g": data, "csrf": host_csrf(w, who.token),
                                              "who": who})


async def host_preview(request: Request):
    w, who, gid = await require_game(request)
    lang = lang_of(request)

    def work():
        data = w.host.preview(gid, lang)
        with w.host.reading(gid) as (row, g):
            return data, views.host_game(row, g, lang)
    try:
        data, head = await _db(work)
    except NoGame:
        raise HTTPException(404) from None
    except Refused as e:
        return redirect(request, f"/host/games/{gid}", ("err", refusal(lang, e)))
    return render(request, "host_preview.html", {"p": data, "g": head,
                                                 "csrf": host_csrf(w, who.token)})


def _host_posts(w: Web, gid: int, lang: str) -> dict:
    h = w.host
    out = {"sections": [], "pms": {}, "cards": {}}
    with h.reading(gid) as (row, g):
        head = views.host_game(row, g, lang)
        over = g.state.over
        plain = views.phase_posts(g, lang, "plain")
        bb = views.phase_posts(g, lang, "bbcode")
        from ..render import posts as P
        start = (P.start_post(g, row.commitment, lang, "plain", row.name),
                 P.start_post(g, row.commitment, lang, "bbcode", row.name))
        day = g.state.phase == "day" and not over
    t = TEXTS[lang]
    out["sections"].append(("latest", t["latest_post"], h.post(gid, lang=lang, fmt="plain"),
                            h.post(gid, lang=lang, fmt="bbcode")))
    if day:
        out["sections"].append(("votes", t["vote_count"], h.vote_count(gid, lang, "plain"),
                                h.vote_count(gid, lang, "bbcode")))
    if over:
        out["sections"].append(("final", t["final_post"],
                                h.post(gid, "final", lang=lang, fmt="plain"),
                                h.post(gid, "final", lang=lang, fmt="bbcode")))
    for (label, a), (_, b) in zip(plain, bb, strict=True):
        out["sections"].append(("phase", f"{t['phase_post']}: {label}", a, b))
    out["sections"].append(("start", t["start_post"], *start))
    pm_plain = h.private_messages(gid, lang=lang, fmt="plain")
    pm_bb = h.private_messages(gid, lang=lang, fmt="bbcode")
    out["pms"] = [(k, v, pm_bb.get(k, "")) for k, v in pm_plain.items()]
    cp = h.cards(gid, lang=lang, fmt="plain")
    cb = h.cards(gid, lang=lang, fmt="bbcode")
    out["cards"] = [(k, v, cb.get(k, "")) for k, v in cp.items()]
    out["g"] = head
    return out


async def host_posts(request: Request):
    w, who, gid = await require_game(request)
    try:
        data = await _db(_host_posts, w, gid, lang_of(request))
    except NoGame:
        raise HTTPException(404) from None
    return render(request, "host_posts.html", {**data, "csrf": host_csrf(w, who.token)})


async def host_log(request: Request):
    w, who, gid = await require_game(request)

    def work():
        lines = w.host.log(gid, True)
        with w.host.reading(gid) as (row, g):
            return lines, views.host_game(row, g, lang_of(request))
    try:
        lines, head = await _db(work)
    except NoGame:
        raise HTTPException(404) from None
    return render(request, "host_log.html", {"lines": lines, "g": head,
                                             "csrf": host_csrf(w, who.token)})


def _export_response(data: dict, gid: int) -> Response:
    return Response(json.dumps(data, ensure_ascii=False, indent=1),
                    media_type="application/json",
                    headers={"content-disposition": f'attachment; filename="game-{gid}.json"'})


async def host_export(request: Request):
    w, _who, gid = await require_game(request)
    try:
        data = await _db(w.host.export, gid)
    except NoGame:
        raise HTTPException(404) from None
    return _export_response(data, gid)


async def public_export(request: Request):
    """A finished game's export, for anyone (the final post links it): the seed is public
    by then, and every player can run ``mafiahost verify`` on it. 404 before the end."""
    w = web(request)
    gid = _game_id(request)

    def work():
        with w.host.reading(gid) as (_row, g):
            if not g.state.over:
                raise NoGame("", "")
        return w.host.export(gid)
    try:
        data = await _db(work)
    except NoGame:
        raise HTTPException(404) from None
    return _export_response(data, gid)


async def host_live(request: Request):
    w, _who, gid = await require_game(request)

    def fingerprint():
        try:
            with w.host.store.session() as s:
                return w.host._row(s, gid).rev
        except NoGame:
            raise AccessDenied() from None
    try:
        await _db(fingerprint)
    except AccessDenied:
        raise HTTPException(404) from None
    return StreamingResponse(w.live.stream(gid, fingerprint), media_type="text/event-stream",
                             headers={"x-accel-buffering": "no"})


# ---- the host's commands: one POST each, one Host method each --------------------------------
# each returns (Done, where): where is None (the game's page), "posts", or ("links", made):
# links just made, shown once on the answer page

def _cmd_resolve(w, gid, f, lang, who):
    return w.host.resolve(gid, lang=lang), "posts"


def _cmd_undo(w, gid, f, lang, who):
    return w.host.undo(gid, lang), None


def _cmd_deadline(w, gid, f, lang, who):
    when = None if one(f, "clear") else (one(f, "when").replace("T", " ") or None)
    return w.host.set_deadline(gid, when), None


def _cmd_act(w, gid, f, lang, who):
    targets = [t for t in f.get("target", []) if t.strip()]
    actor, ability = one(f, "actor"), one(f, "ability")
    if one(f, "move"):                      # "seat|ability" from the host's move list
        actor, _, ability = one(f, "move").partition("|")
    return w.host.act(gid, actor, ability, targets,
                      one(f, "replace") == "1", lang), None


def _cmd_vote(w, gid, f, lang, who):
    return w.host.vote(gid, one(f, "voter"), one(f, "target"), late=one(f, "late") == "1",
                       lang=lang), None


def _cmd_replace(w, gid, f, lang, who):
    seat, nick = one(f, "seat"), one(f, "nick")[:200]
    done = w.host.replace_player(gid, seat, nick)
    _, g = w.host.load(gid)
    seat = w.host.seat(g, seat)
    # the person who left loses the seat's link; the newcomer's is shown once
    return done, ("links", w.host.issue_links(gid, [seat]))


def _cmd_remove(w, gid, f, lang, who):
    return w.host.remove(gid, one(f, "player"), one(f, "why")[:500]), None


def _cmd_absent(w, gid, f, lang, who):
    return w.host.mark_absent(gid, one(f, "player")), None


def _cmd_excuse(w, gid, f, lang, who):
    return w.host.excuse(gid, one(f, "player")), None


def _cmd_reissue(w, gid, f, lang, who):
    seat = one(f, "seat")
    made = w.host.issue_links(gid, [seat] if seat else None)
    from ..host import Done
    return Done(gid, TEXTS[lang]["done"] + f": {TEXTS[lang]['reissue']} "
                     f"({', '.join(made)})."), ("links", made)


def _cmd_cohost(w, gid, f, lang, who):
    """The owner adds (or removes) a co-host by account name."""
    if who.role != "owner":
        raise HostError(TEXTS["ru"]["owner_only"], TEXTS["en"]["owner_only"])
    name = one(f, "name")
    if one(f, "drop"):
        w.host.drop_game_host(gid, name)
    else:
        w.host.set_game_host(gid, name, "cohost")
    from ..host import Done
    return Done(gid, TEXTS[lang]["done"] + f": {TEXTS[lang]['hosts']} — {name}."), None


def _cmd_votes(w, gid, f, lang, who):
    """A pasted thread dump: the same import as ``votes import`` on the command line."""
    aliases = dict(a.split("=", 1) for a in one(f, "aliases").splitlines() if "=" in a)
    d = w.host.import_votes(gid, one(f, "dump")[:2_000_000], aliases=aliases, lang=lang)
    lines = [d.message] + [f"! {p}" for p in d.data.get("problems", ())] + \
        [f"~ {p}" for p in d.data.get("notes", ())]
    d.message = "\n".join(lines)
    return d, None


COMMANDS = {"resolve": _cmd_resolve, "undo": _cmd_undo, "deadline": _cmd_deadline,
            "act": _cmd_act, "vote": _cmd_vote, "replace": _cmd_replace,
            "remove": _cmd_remove, "absent": _cmd_absent, "excuse": _cmd_excuse,
            "reissue": _cmd_reissue, "cohost": _cmd_cohost, "votes": _cmd_votes}


def host_command(name: str):
    fn = COMMANDS[name]

    async def endpoint(request: Request):
        gid = _game_id(request)
        w, who, form = await host_form(request, gid)
        lang = lang_of(request)
        try:
            done, where = await _command(w, fn, w, gid, form, lang, who)
        except NoGame:
            raise HTTPException(404) from None
        except Refused as e:
            return redirect(request, f"/host/games/{gid}", ("err", refusal(lang, e)))
        w.live.poke()
        if isinstance(where, tuple):
            return await show_links(request, w, who, gid, where[1], done.message)
        url = f"/host/games/{gid}" + ("/posts" if where == "posts" else "")
        return redirect(request, url, ("ok", done.message))
    endpoint.__name__ = f"host_{name}"
    return endpoint


# ---- errors ----------------------------------------------------------------------------------

async def http_error(request: Request, exc: HTTPException):
    t = TEXTS[lang_of(request)]
    msg = {404: t["not_found"], 403: t["forbidden"], 400: t["bad_form"]}.get(
        exc.status_code, t["server_error"])
    if exc.status_code == 403 and request.method == "POST":
        msg = t["bad_form"] + " / " + t["forbidden"]
    return render(request, "error.html", {"message": msg, "code": exc.status_code},
                  status=exc.status_code, flash=())


async def store_error(request: Request, exc: Exception):
    """The database cannot be reached (after the command's one retry): a sentence, 503.
    The log gets the kind of failure only, never the statement, its parameters or a
    path (a path may hold a player's token)."""
    import logging
    orig = getattr(exc, "orig", exc)
    logging.getLogger("mafiahost.web").warning("database failure: %s", type(orig).__name__)
    t = TEXTS[lang_of(request)]
    return render(request, "error.html", {"message": t["db_unavailable"], "code": 503},
                  status=503, flash=())


async def server_error(request: Request, exc: Exception):
    """Anything unexpected: a generic 500, nothing from the exception. This answer is made
    outside the middleware stack, so it carries the security headers itself."""
    lang = "ru"
    try:
        lang = lang_of(request)
    except Exception:  # noqa: BLE001 - a request too broken to read still gets the page
        pass
    t = WORDS[lang]
    page = _env.get_template("error.html").render(
        t=t, lang=lang, flash=None, path="/", message=t.server_error, code=500)
    resp = HTMLResponse(page, status_code=500)
    resp.raw_headers[:] = with_headers(resp.raw_headers)
    return resp


# ---- the app ---------------------------------------------------------------------------------

def routes() -> list:
    r = [
        Route("/", home),
        Route("/login", login_page, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/p/{token}", player, methods=["GET"]),
        Route("/p/{token}/act", player_act, methods=["POST"]),
        Route("/p/{token}/vote", player_vote, methods=["POST"]),
        Route("/p/{token}/answer", player_answer, methods=["POST"]),
        Route("/p/{token}/live", player_live, methods=["GET"]),
        Route("/p", player, methods=["GET"]),              # the token as a bearer header
        Route("/p/act", player_act, methods=["POST"]),
        Route("/p/vote", player_vote, methods=["POST"]),
        Route("/p/answer", player_answer, methods=["POST"]),
        Route("/games/{gid:int}/export.json", public_export, methods=["GET"]),
        Route("/host", host_home, methods=["GET"]),
        Route("/host/games", host_create, methods=["POST"]),
        Route("/host/settings", host_settings, methods=["POST"]),
        Route("/host/games/{gid:int}", host_game, methods=["GET"]),
        Route("/host/games/{gid:int}/preview", host_preview, methods=["GET"]),
        Route("/host/games/{gid:int}/posts", host_posts, methods=["GET"]),
        Route("/host/games/{gid:int}/log", host_log, methods=["GET"]),
        Route("/host/games/{gid:int}/export", host_export, methods=["GET"]),
        Route("/host/games/{gid:int}/live", host_live, methods=["GET"]),
    ]
    for name in COMMANDS:
        r.append(Route(f"/host/games/{{gid:int}}/{name}", host_command(name), methods=["POST"]))
    r += api.routes()                  # the player API (web/api.py)
    r.append(Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"))
    return r


def settle() -> None:
    """Before a server process serves (``serve``, each of ``serve --workers``): load what
    every request will use (every rule set as dealt by default, every page's template),
    then move everything alive into the collector's permanent generation
    (``gc.freeze``), after a full collection so that no garbage is kept.

    A process's long-lived objects (modules, rule sets, templates: about 100,000) are
    never freed, yet every full collection walks them all: on a loaded machine that is
    a pause of 50-170 ms in which no request moves (every thread waits for the
    interpreter), and in a web process full collections come often, because every
    move leaves a few objects behind in the game cache. Frozen, they are not walked; the
    collector still frees every cycle made afterwards (games dropped from the cache,
    requests)."""
    import gc

    from ..rules import load
    for rid in available():
        try:
            load(rid)
        except Exception:  # noqa: BLE001 - a broken rule set is refused when used, not here
            pass
    for name in _env.list_templates():
        _env.get_template(name)
    gc.collect()
    gc.freeze()


@asynccontextmanager
async def _lifespan(app):
    # as many worker threads as pooled connections: a thread never waits for a connection
    anyio.to_thread.current_default_thread_limiter().total_tokens = THREADS
    if app.state.settle:
        settle()
    yield


def create_app(db: str | None = None, *, host: Host | None = None,
               public_url: str | None = None, server: bool = False) -> Starlette:
    """The app on database ``db`` (a path or URL; default as the command line: the
    ``MAFIAHOST_DB`` variable, else ``./mafiahost.db``). SQLite is opened in WAL mode.
    ``server``: a server process's app (``serve``), which ``settle``s its memory before
    it serves (tests and embedders leave their process's collector alone)."""
    if host is None:
        size = int(os.environ.get("MAFIAHOST_GAME_CACHE", "512"))
        host = Host(store=open_store(db, wal=True, pool=THREADS), cache=GameCache(size))
    app = Starlette(
        routes=routes(),
        middleware=[Middleware(SecurityHeaders)],
        exception_handlers={HTTPException: http_error, StoreError: store_error,
                            DBAPIError: store_error, Exception: server_error},
        lifespan=_lifespan,
    )
    app.state.web = Web(host, public_url or os.environ.get("MAFIAHOST_PUBLIC_URL"))
    app.state.settle = server
    if server:
        host.store.notify_in_background()
    return app


def app_from_env() -> Starlette:
    """For ``uvicorn --factory mafiahost.web.app:app_from_env`` (several workers)."""
    return create_app(os.environ.get("MAFIAHOST_DB"), server=True)
