"""Live updates: server-sent events when a game changes.

On PostgreSQL every command sends ``NOTIFY mafiahost_games, '<game id>'`` right after its
commit (``store.Store.notify``); each app process LISTENs on
one connection of its own (a thread) and wakes the streams of that game at once, whichever
process or command-line call made the change. Nothing is polled; only while the listening
connection is down (the server restarting) the process falls back to reading revisions.

On SQLite (one machine) one poller per process watches the games somebody has a page
open on: every ``interval`` seconds it reads their revisions (``games.rev``, one query) and
wakes the streams of the games that changed; a command made in this process wakes it at
once. So command-line calls and other processes are seen within ``interval``.

A stream sends ``update`` only when what its reader may see has changed: for the host, any
change; for a player, their own view (the events the rules show them), so a player cannot
time the others' secret moves by the updates. An update carries no data; the page fetches
itself again.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time

from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from ..host import AccessDenied
from ..store import GameRow

KEEPALIVE = 15.0
SAFETY_POLL = 30.0      # PostgreSQL: revisions are read only this rarely while listening


class Listener(threading.Thread):
    """``LISTEN mafiahost_games`` on a connection of its own; ``on_change(game_id)`` is
    called (in this thread) for every notification. Reconnects after a lost connection;
    ``up`` says whether it is listening now."""

    def __init__(self, url: str, on_change):
        super().__init__(daemon=True, name="mafiahost-listen")
        self.url = url
        self.on_change = on_change
        self.up = threading.Event()
        self.stopping = False

    def run(self) -> None:
        import psycopg

        from ..store import NOTIFY_CHANNEL
        while not self.stopping:
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self.up.set()
                    while not self.stopping:
                        for n in conn.notifies(timeout=1.0):
                            with contextlib.suppress(ValueError):
                                self.on_change(int(n.payload))
            except Exception:  # noqa: BLE001 - the server went away: retry shortly
                pass
            self.up.clear()
            time.sleep(0.5)


def _libpq_url(store) -> str:
    return store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


class Live:
    def __init__(self, host, interval: float = 1.0):
        self.host = host
        self.interval = interval
        self.revs: dict[int, int] = {}
        self.events: dict[int, asyncio.Event] = {}
        self.watchers: dict[int, int] = {}
        self.task: asyncio.Task | None = None
        self.wake: asyncio.Event | None = None
        self.listener: Listener | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def _changed(self, game_id: int) -> None:
        """In the event loop: a notification said ``game_id`` changed."""
        ev = self.events.pop(game_id, None)
        if ev is not None:
            ev.set()

    def _notified(self, game_id: int) -> None:
        """In the listener's thread."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._changed, game_id)

    def _event(self, game_id: int) -> asyncio.Event:
        ev = self.events.get(game_id)
        if ev is None:
            ev = self.events[game_id] = asyncio.Event()
        return ev

    def _wait(self) -> float:
        if self.listener is not None and self.listener.up.is_set():
            return SAFETY_POLL
        return self.interval

    def _read_revs(self, ids: list[int]) -> dict[int, int]:
        with self.host.store.session() as s:
            return dict(s.execute(select(GameRow.id, GameRow.rev)
                                  .where(GameRow.id.in_(ids))).all())

    async def _poll(self) -> None:
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self._wait())
            self.wake.clear()
            ids = [g for g, n in self.watchers.items() if n > 0]
            if not ids:
                continue
            try:
                revs = await run_in_threadpool(self._read_revs, ids)
            except Exception:  # noqa: BLE001 - a database hiccup: try again next round
                continue
            for gid in ids:
                rev = revs.get(gid)
                if rev != self.revs.get(gid):
                    self.revs[gid] = rev
                    ev = self.events.pop(gid, None)
                    if ev is not None:
                        ev.set()

    def poke(self) -> None:
        """A command changed a game in this process: look now."""
        if self.wake is not None:
            self.wake.set()

    def _ensure(self) -> None:
        if self.task is None or self.task.done():
            self.loop = asyncio.get_running_loop()
            self.wake = asyncio.Event()
            self.task = self.loop.create_task(self._poll())
            store = self.host.store
            if store.dialect == "postgresql" and self.listener is None:
                self.listener = Listener(_libpq_url(store), self._notified)
                self.listener.start()

    async def stream(self, game_id: int, fingerprint):
        """The event stream for one page; ``fingerprint()`` (run in a thread) gives what
        the reader sees, and raises ``AccessDenied`` when the credential is gone."""
        self._ensure()
        self.watchers[game_id] = self.watchers.get(game_id, 0) + 1
        try:
            # the change event is taken before each read of the view, so a change made
            # while the view is being read still wakes the stream
            ev = self._event(game_id)
            try:
                fp = await run_in_threadpool(fingerprint)
            except AccessDenied:
                yield "event: gone\ndata: -\n\n"
                return
            yield "retry: 3000\n\n"
            while True:
                try:
                    await asyncio.wait_for(ev.wait(), KEEPALIVE)
                except TimeoutError:
                    yield ": keepalive\n\n"
                    continue
                ev = self._event(game_id)
                try:
                    new = await run_in_threadpool(fingerprint)
                except AccessDenied:
                    yield "event: gone\ndata: -\n\n"
                    return
                except Exception:  # noqa: BLE001
                    continue
                if new != fp:
                    fp = new
                    yield "event: update\ndata: -\n\n"
        finally:
            self.watchers[game_id] -= 1
            if self.watchers[game_id] <= 0:
                self.watchers.pop(game_id, None)
