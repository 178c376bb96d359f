"""Live updates: server-sent events when a game changes.

One poller per process watches the games somebody has a page open on: every
``interval`` seconds it reads their revisions (``games.rev``, one query) and wakes the
streams of the games that changed; a command made in this process wakes it at once.
So several processes on one database see each other's changes within ``interval``.

A stream sends ``update`` only when what its reader may see has changed: for the host, any
change; for a player, their own view (the events the rules show them), so a player cannot
time the others' secret moves by the updates. An update carries no data; the page fetches
itself again.
"""

from __future__ import annotations

import asyncio
import contextlib

from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from ..host import AccessDenied
from ..store import GameRow

KEEPALIVE = 15.0


class Live:
    def __init__(self, host, interval: float = 1.0):
        self.host = host
        self.interval = interval
        self.revs: dict[int, int] = {}
        self.events: dict[int, asyncio.Event] = {}
        self.watchers: dict[int, int] = {}
        self.task: asyncio.Task | None = None
        self.wake: asyncio.Event | None = None

    def _read_revs(self, ids: list[int]) -> dict[int, int]:
        with self.host.store.session() as s:
            return dict(s.execute(select(GameRow.id, GameRow.rev)
                                  .where(GameRow.id.in_(ids))).all())

    async def _poll(self) -> None:
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self.interval)
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
            self.wake = asyncio.Event()
            self.task = asyncio.get_running_loop().create_task(self._poll())

    async def stream(self, game_id: int, fingerprint):
        """The event stream for one page; ``fingerprint()`` (run in a thread) gives what
        the reader sees, and raises ``AccessDenied`` when the credential is gone."""
        self._ensure()
        self.watchers[game_id] = self.watchers.get(game_id, 0) + 1
        try:
            try:
                fp = await run_in_threadpool(fingerprint)
            except AccessDenied:
                yield "event: gone\ndata: -\n\n"
                return
            yield "retry: 3000\n\n"
            while True:
                ev = self.events.get(game_id)
                if ev is None:
                    ev = self.events[game_id] = asyncio.Event()
                try:
                    await asyncio.wait_for(ev.wait(), KEEPALIVE)
                except TimeoutError:
                    yield ": keepalive\n\n"
                    continue
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
