"""No secret in any log line.

A whole game is played over HTTP against ``mafiahost serve`` on PostgreSQL with every log
on: uvicorn's access log (``--access-log``), SQLAlchemy's echo of every statement with
its parameters (``MAFIAHOST_SQL_ECHO=1``), and PostgreSQL logging every statement of the
game's database (``ALTER DATABASE … SET log_statement = 'all'``, parameters included).
The host logs in by the form, creates the game, issues a new link, logs out and in again;
the administrator rotates a key on the command line; the players play by their links
(one of them as a program, with the token in a bearer header) until the game is over.

Then every log is searched for every account key (old and new), every session cookie,
every player's link token (old and re-issued), every anti-forgery token and the
form-signing key: none may appear. A canary planted in a request path and in the game's
name must be found in all three logs, so a log that wrote nothing (or a grep that cannot
see) fails the test instead of passing it."""

from __future__ import annotations

import glob
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from test_host_support import _admin, drop_pg, pg_url
from test_web_support import ROLES6, ROOT, RUNNER, free_port

from mafiahost.host import Host

pytest_plugins = ["test_host_support"]

CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def pg_log_file() -> Path:
    path = os.environ.get("MAFIAHOST_TEST_PG_LOG")
    cands = [path] if path else sorted(glob.glob("/var/log/postgresql/postgresql-*-main.log"))
    for c in cands:
        p = Path(c)
        if p.is_file() and os.access(p, os.R_OK):
            return p
    why = ("PostgreSQL's log file is not readable here (set MAFIAHOST_TEST_PG_LOG to it)")
    if os.environ.get("MAFIAHOST_TEST_PG_REQUIRED"):
        pytest.fail(why)
    pytest.skip(why)


@pytest.fixture
def logged_pg():
    url = pg_url()
    log = pg_log_file()
    name = url.rsplit("/", 1)[1]
    with _admin() as c:
        c.execute(f'ALTER DATABASE "{name}" SET log_statement = \'all\'')
        c.execute(f'ALTER DATABASE "{name}" SET log_parameter_max_length = -1')
    try:
        yield url, log
    finally:
        drop_pg(url)


class Site:
    """A browser-like client: cookies kept, no redirects followed."""

    def __init__(self, base: str):
        import httpx
        self.c = httpx.Client(base_url=base, follow_redirects=False, timeout=30)

    def get(self, path, **kw):
        return self.c.get(path, **kw)

    def post(self, path, data, **kw):
        return self.c.post(path, data=data, **kw)


def test_no_secret_reaches_any_log(logged_pg, tmp_path):
    url, pglog = logged_pg
    canary = "canary" + uuid.uuid4().hex
    admin = Host(url)
    key = admin.add_host("Ведущая")
    spare = admin.add_host("Запасной")
    start = pglog.stat().st_size
    port = free_port()
    out = open(tmp_path / "server.log", "w")
    env = dict(os.environ, MAFIAHOST_SQL_ECHO="1")
    proc = subprocess.Popen(
        [sys.executable, "-c", RUNNER.format(src=str(ROOT / "src")), "serve", "--db", url,
         "--port", str(port), "--access-log"], stdout=out, stderr=subprocess.STDOUT,
        env=env)
    secrets: set[str] = {key, spare}
    try:
        base = f"http://127.0.0.1:{port}"
        site = Site(base)
        for _ in range(300):
            try:
                site.get("/")
                break
            except Exception:  # noqa: BLE001 - not up yet
                time.sleep(0.1)
        # the canary, planted in a path (the access log) and in the game's name (SQL)
        assert site.get(f"/{canary}").status_code == 404
        # the host logs in by the form
        page = site.get("/login")
        r = site.post("/login", {"csrf": CSRF.search(page.text).group(1), "key": key})
        assert r.status_code == 303
        secrets.add(site.c.cookies.get("mh_session"))
        home = site.get("/host").text
        csrf = CSRF.search(home).group(1)
        secrets.add(csrf)
        r = site.post("/host/games", {"csrf": csrf, "ruleset": "gemini", "name": canary,
                                      "players": "\n".join(ROLES6),
                                      "roles": ", ".join(f"{k}={v}"
                                                         for k, v in ROLES6.items())})
        assert r.status_code == 200, r.text[:500]
        links = dict(re.findall(r'<tr><td>([^<]+)</td>\s*<td class="linkcell"><input '
                                r'class="copyable" readonly value="[^"]*/p/([^"]+)"', r.text))
        assert set(links) == set(ROLES6), r.text[:3000]
        gid = int(re.search(r'href="/host/games/(\d+)"', r.text).group(1))
        secrets |= set(links.values())
        # a new link for one seat (the old one is a secret too)
        r = site.post(f"/host/games/{gid}/reissue", {"csrf": csrf, "seat": "Дина"})
        new = re.search(r'/p/([^"]+)"', r.text).group(1)
        secrets.add(new)
        links["Дина"] = new
        # log out, in again (a new session)
        site.post("/logout", {"csrf": csrf})
        page = site.get("/login")
        site.post("/login", {"csrf": CSRF.search(page.text).group(1), "key": key})
        secrets.add(site.c.cookies.get("mh_session"))
        csrf = CSRF.search(site.get("/host").text).group(1)
        secrets.add(csrf)
        # the administrator rotates the spare account's key on the command line
        secrets.add(admin.rotate_host_key("Запасной"))
        # the players play to the end; Егор is a program with a bearer header
        phases = 0
        while phases < 30:
            _, g = admin.load(gid)
            if g.state.over:
                break
            alive = [p.name for p in g.state.order if p.alive]
            for seat in alive:
                tok = links[seat]
                bearer = seat == "Егор"
                pc = Site(base)
                if bearer:
                    hdr = {"authorization": f"Bearer {tok}"}
                    path, form = "/p", {}
                else:
                    hdr = {}
                    path = f"/p/{tok}"
                    pcsrf = CSRF.search(pc.get(path).text)
                    form = {"csrf": pcsrf.group(1)} if pcsrf else {}
                    secrets |= set(form.values())
                if g.state.phase == "night":
                    moves = g.legal_moves(seat)
                    if moves:
                        ab, ts = moves[0]
                        pc.c.post(f"{path}/act", data={**form, "ability": ab,
                                                       "target": list(ts)}, headers=hdr)
                else:
                    target = next(x for x in alive if x != seat) if seat != alive[1] \
                        else alive[0]
                    pc.c.post(f"{path}/vote", data={**form, "target": alive[1]
                                                    if seat != alive[1] else target},
                              headers=hdr)
            r = site.post(f"/host/games/{gid}/resolve", {"csrf": csrf})
            assert r.status_code == 303, r.text[:500]
            phases += 1
        _, g = admin.load(gid)
        assert g.state.over, "the game should end"
        assert site.get(f"/games/{gid}/export.json").status_code == 200
        secrets.add(admin.web_key("csrf"))
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        out.close()
    server_log = (tmp_path / "server.log").read_text(encoding="utf-8", errors="replace")
    with open(pglog, encoding="utf-8", errors="replace") as f:
        f.seek(start)
        pg = f.read()
    access = "\n".join(x for x in server_log.splitlines() if '"GET ' in x or '"POST ' in x)
    echo = "\n".join(x for x in server_log.splitlines() if "sqlalchemy" in x.lower()
                     or "INSERT" in x or "SELECT" in x or "UPDATE" in x or "[" in x)
    # every log wrote, and the grep sees: the canary is where it was planted
    assert canary in access, "the access log did not record the planted path"
    assert canary in echo, "SQLAlchemy's echo did not record the game's name"
    assert canary in pg, "PostgreSQL's log did not record the game's name"
    for s in secrets:
        assert s and len(s) >= 16
        for name, text in (("server", server_log), ("postgresql", pg)):
            assert s not in text, f"a secret reached the {name} log"
    assert "/p/…" in access                               # the players' requests, redacted
