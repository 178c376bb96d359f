"""The bare endpoint the web benchmark compares the app with: Starlette, one POST route
that inserts one row and commits, nothing else (no game, no rules, no page).

It opens the database exactly as the app does (``mafiahost.store.open_store``: SQLite in
WAL mode with ``synchronous=FULL``, or PostgreSQL through psycopg, the same connection
pool size), runs the insert in Starlette's thread pool as the app runs its commands, and
answers with a small JSON body as the app answers a move. So the ratio app / bare is the
price of everything the app does on top of storing a row: reading the form, checking the
player's link and the anti-forgery token, the rules, the events, the answer.

    python bench/bare_app.py DB PORT
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


def make_app(db: str):
    import contextlib
    import threading

    import anyio
    from sqlalchemy import Column, Integer, MetaData, Table, Text
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from mafiahost.store import open_store
    from mafiahost.web.app import THREADS

    store = open_store(db, pool=THREADS)
    meta = MetaData()
    rows = Table("bare_moves", meta, Column("id", Integer, primary_key=True),
                 Column("body", Text))
    meta.create_all(store.engine)
    insert = rows.insert()
    # SQLite has one writer at a time: writers of this process queue on a lock, as the
    # app's do (``Store.locked``), instead of sleeping in SQLite's busy handler
    lock = threading.Lock() if store.dialect == "sqlite" else contextlib.nullcontext()

    def write(body: str) -> None:
        with lock, store.engine.begin() as c:
            c.execute(insert, {"body": body})

    async def move(request):
        body = (await request.body()).decode()
        await run_in_threadpool(write, body)
        return JSONResponse({"ok": True})

    async def home(request):
        return JSONResponse({"ok": True})

    @contextlib.asynccontextmanager
    async def lifespan(app):
        # as in the app: as many worker threads as pooled connections
        anyio.to_thread.current_default_thread_limiter().total_tokens = THREADS
        yield

    return Starlette(routes=[Route("/", home), Route("/move", move, methods=["POST"])],
                     lifespan=lifespan)


def main(argv: list[str]) -> int:
    import uvicorn
    db, port = argv[0], int(argv[1])
    app = make_app(db)
    print("bare endpoint ready; Ctrl+C", flush=True)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
