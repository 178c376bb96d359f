"""Shared helpers for the web tests (no tests here).

- ``client(db)``: a Starlette test client on a fresh app, logged in or not.
- ``Server``: ``mafiahost serve`` in its own process on a free port (what the browser,
  concurrency and two-process tests drive), with the host key it printed.
- ``csrf_of(html)``: the anti-forgery token of the first form on a page.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent

ROLES6 = {"Анна": "commissar", "Борис": "boss", "Вера": "black_doctor", "Глеб": "doctor",
          "Дина": "civilian", "Егор": "civilian"}

RUNNER = ("import sys; sys.path.insert(0, {src!r}); from mafiahost.cli import main; "
          "sys.exit(main(sys.argv[1:]))")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def csrf_of(html: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', html)
    assert m, "no anti-forgery token on the page"
    return m.group(1)


def make_app(db: str):
    from mafiahost.host import GameCache, Host
    from mafiahost.store import open_store
    from mafiahost.web import create_app
    host = Host(store=open_store(db, wal=True, pool=24), cache=GameCache())
    return create_app(host=host), host


def make_host(host, name: str = "ведущий") -> str:
    """A host account on ``host``'s database; its key."""
    return host.add_host(name)


def login(c, key: str):
    """Log ``c`` in with an account's key, by the login form (as a browser does)."""
    page = c.get("/login")
    r = c.post("/login", data={"csrf": csrf_of(page.text), "key": key})
    assert r.status_code == 303, r.text
    return c


def session_csrf(c) -> str:
    """The anti-forgery token of the host's forms for ``c``'s session."""
    page = c.get("/host")
    assert page.status_code == 200, page.text
    return csrf_of(page.text)


def client(app, host_key: str | None = None):
    """A test client of ``app``; logged in (by the form) with ``host_key``, an account's
    key, when given."""
    import warnings
    warnings.filterwarnings("ignore", message="Using `httpx` with")
    from starlette.testclient import TestClient
    c = TestClient(app, base_url="http://testserver", follow_redirects=False,
                   raise_server_exceptions=False)
    if host_key:
        login(c, host_key)
    return c


class Server:
    """``mafiahost serve --db DB`` in a new process; ``.url``, ``.key``; ``stop()``."""

    def __init__(self, db: str, port: int | None = None, extra=(), env=None):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        e = dict(os.environ)
        e.update(env or {})
        code = RUNNER.format(src=str(ROOT / "src"))
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, "serve", "--db", db, "--port", str(self.port),
             *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=e)
        self.out = []
        self.key = None
        if "--demo" not in extra:          # an account to log in with
            from mafiahost.host import Host
            h = Host(db)
            self.key = h.add_host(f"тест-{self.port}")
        deadline = time.time() + 30
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.out.append(line)
            m = re.search(r"\(type it into the login form\): (\S+)", line)
            if m:
                self.key = m.group(1)
            if "Ctrl+C" in line:
                break
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.url + "/", timeout=1).read()
                return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start:\n" + "".join(self.out))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def chromium_path() -> str | None:
    for p in (os.environ.get("MAFIAHOST_CHROMIUM"), "/usr/bin/chromium",
              "/usr/bin/chromium-browser"):
        if p and Path(p).exists():
            return p
    return None


def need_browser():
    """Playwright and Debian's Chromium, or a skip that says what is missing (a failure
    when ``MAFIAHOST_TEST_BROWSER_REQUIRED`` is set, as on CI)."""
    def missing(why):
        if os.environ.get("MAFIAHOST_TEST_BROWSER_REQUIRED"):
            pytest.fail(why + " (MAFIAHOST_TEST_BROWSER_REQUIRED is set)")
        pytest.skip(why)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing("playwright is not installed (pip install playwright)")
    path = chromium_path()
    if path is None:
        missing("Chromium is missing: apt-get install -y chromium "
                "(the browser tests drive /usr/bin/chromium)")
    return path
