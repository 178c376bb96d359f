"""Several app processes on one PostgreSQL database, as `docs/deploy.md` runs them.

Two `mafiahost serve` processes (two workers, each with its own game cache) play a whole
`vanilla` game: every player's move and vote and the host's every resolve go to the two
processes in turn, and each must start from the other's last commit. Live updates cross
processes: a host's page and a player's page stream from one process while the changes
are made through the other; the update arrives through PostgreSQL's LISTEN/NOTIFY (the
fallback revision check runs only every 30 s, so an update within the wait below can only
have come from the notification). Also: `serve --workers 2 --public-url` serves the site
with links on the public address.
"""

from __future__ import annotations

import http.client
import queue
import re
import threading
import urllib.parse

from test_host_support import drop_pg, pg_url
from test_web_support import Server, csrf_of, login

from mafiahost.host import Host
from mafiahost.store import open_store
from mafiahost.web.live import SAFETY_POLL

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна"]
ROLES = {"Анна": "mafioso", "Борис": "mafioso", "Вера": "civilian", "Глеб": "civilian",
         "Дина": "civilian", "Егор": "civilian", "Жанна": "civilian"}
WAIT = 10.0            # seconds, well under SAFETY_POLL


class Site:
    """A cookie-keeping HTTP client of one server (the host's session lives in the
    database, so it is valid on every worker)."""

    def __init__(self, base: str, cookies: dict | None = None):
        u = urllib.parse.urlsplit(base)
        self.host, self.port = u.hostname, u.port
        self.cookies = cookies if cookies is not None else {}

    def request(self, method: str, path: str, data: dict | list | None = None):
        c = http.client.HTTPConnection(self.host, self.port, timeout=30)
        headers = {}
        if self.cookies:
            headers["cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data)
            headers["content-type"] = "application/x-www-form-urlencoded"
        c.request(method, path, body, headers)
        r = c.getresponse()

        class R:
            status_code = r.status
            text = r.read().decode()
            location = r.getheader("location", "")
        for h, v in r.getheaders():
            if h.lower() == "set-cookie":
                k, _, rest = v.partition("=")
                self.cookies[k] = rest.split(";", 1)[0]
        c.close()
        return R

    def get(self, path):
        return self.request("GET", path)

    def post(self, path, data):
        return self.request("POST", path, data)


class Stream:
    """An open server-sent event stream; ``updates`` gets a line per ``event: update``."""

    def __init__(self, site: Site, path: str):
        self.updates: queue.Queue = queue.Queue()
        self.ready = threading.Event()
        self.conn = http.client.HTTPConnection(site.host, site.port, timeout=120)
        headers = {"accept": "text/event-stream"}
        if site.cookies:
            headers["cookie"] = "; ".join(f"{k}={v}" for k, v in site.cookies.items())
        self.conn.request("GET", path, headers=headers)
        self.resp = self.conn.getresponse()
        assert self.resp.status == 200, self.resp.status
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        assert self.ready.wait(WAIT), "the stream did not open"

    def _read(self):
        try:
            for raw in self.resp:
                line = raw.decode().strip()
                if line.startswith("retry:"):
                    self.ready.set()
                if line == "event: update":
                    self.updates.put(line)
        except Exception:  # noqa: BLE001 - closed at the end of the test
            pass

    def drain(self):
        while not self.updates.empty():
            self.updates.get_nowait()

    def wait_update(self, what: str):
        try:
            self.updates.get(timeout=WAIT)
        except queue.Empty:
            raise AssertionError(f"no live update within {WAIT} s after {what}") from None

    def close(self):
        self.conn.close()


def _act(site: Site, token: str, ability: str, target: str):
    page = site.get(f"/p/{token}")
    assert page.status_code == 200, page.text
    r = site.post(f"/p/{token}/act", {"csrf": csrf_of(page.text), "ability": ability,
                                      "target": target})
    assert r.status_code in (200, 303), r.text


def _vote(site: Site, token: str, target: str):
    page = site.get(f"/p/{token}")
    r = site.post(f"/p/{token}/vote", {"csrf": csrf_of(page.text), "target": target})
    assert r.status_code in (200, 303), r.text


def _resolve(site: Site, gid: int):
    page = site.get(f"/host/games/{gid}")
    assert page.status_code == 200, page.text
    r = site.post(f"/host/games/{gid}/resolve", {"csrf": csrf_of(page.text)})
    assert r.status_code == 303, r.text
    assert "err" not in r.location, r.location


def test_two_workers_play_a_whole_game_with_live_updates_across_them():
    assert WAIT < SAFETY_POLL
    url = pg_url()
    try:
        with Server(url) as a, Server(url) as b:
            host = Host(store=open_store(url))
            gid = host.new_game("vanilla", NAMES, roles=ROLES, seed=7,
                                owner=host.host_id(f"тест-{a.port}")).game_id
            links = host.links(gid)
            # the host logs in once (on a); the session is valid on both workers
            sa = Site(a.url)

            class Shim:      # ``login`` speaks the TestClient's .get/.post
                def get(self, p):
                    return sa.get(p)

                def post(self, p, data):
                    return sa.post(p, data)
            login(Shim(), a.key)
            sites = [sa, Site(b.url, sa.cookies)]
            # a host's page on a, a player's page (Вера's) on b
            host_live = Stream(sites[0], f"/host/games/{gid}/live")
            vera_live = Stream(Site(b.url), f"/p/{links['Вера']}/live")
            turn = 0

            def next_site():
                nonlocal turn
                turn += 1
                return sites[turn % 2], sites[(turn + 1) % 2]

            lynch_order = ["Анна", "Борис"]
            for night in (1, 2):
                _, g = host.load(gid)
                shooter = next(p.name for p in g.state.order
                               if p.alive and p.faction == "mafia")
                victim = next(p.name for p in g.state.order
                              if p.alive and p.faction == "town" and p.name != "Вера")
                site, other = next_site()
                host_live.drain()
                _act(site, links[shooter], "kill", victim)
                if site is sites[1]:           # made on b, seen on a
                    host_live.wait_update(f"a move on the other worker (night {night})")
                site, other = next_site()
                host_live.drain()
                vera_live.drain()
                _resolve(site, gid)            # the morning: every page changes
                vera_live.wait_update(f"the night {night} resolved")
                host_live.wait_update(f"the night {night} resolved")
                # day: every living player votes for the next mafioso, alternating workers
                _, g = host.load(gid)
                target = lynch_order[night - 1]
                for p in g.state.order:
                    if p.alive:
                        site, _ = next_site()
                        other = next(q.name for q in g.state.order
                                     if q.alive and q.faction == "town")
                        _vote(site, links[p.name], target if p.name != target else other)
                site, _ = next_site()
                vera_live.drain()
                _resolve(site, gid)
                vera_live.wait_update(f"the day {night} resolved")
                _, g = host.load(gid)
                assert not g.state.players[target].alive
            _, g = Host(store=host.store).load(gid)     # straight from the database
            assert g.state.over and g.state.winners == ["town"]
            acts = [e for e in g.events if e.type == "action"]
            votes = [e for e in g.events if e.type == "vote"]
            assert len(acts) == 2 and len(votes) == 6 + 4     # nothing lost, nothing doubled
            # both workers show the finished game the same way
            pages = [re.sub(r'value="[^"]+"', "", s.get(f"/p/{links['Вера']}").text)
                     for s in (Site(a.url), Site(b.url))]
            assert pages[0] == pages[1]
            host_live.close()
            vera_live.close()
    finally:
        drop_pg(url)


def test_serve_with_workers_and_a_public_url():
    url = pg_url()
    try:
        public = "https://mafia.example.org"
        with Server(url, extra=["--workers", "2", "--public-url", public]) as srv:
            host = Host(store=open_store(url))
            gid = host.new_game("vanilla", NAMES, roles=ROLES, seed=3,
                                owner=host.host_id(f"тест-{srv.port}")).game_id
            token = host.links(gid)["Вера"]
            s = Site(srv.url)
            for _ in range(4):           # whichever worker answers
                page = s.get(f"/p/{token}")
                assert page.status_code == 200 and "Вера" in page.text
            assert any(public in line for line in srv.out), srv.out
    finally:
        drop_pg(url)
