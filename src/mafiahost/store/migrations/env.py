"""Alembic environment for the saved-game store.

The store runs the migrations itself when it opens a database (``store.open_store``):
it passes its connection in ``config.attributes["connection"]``. A developer adding a
migration can also run Alembic by hand with a URL (see docs/hosting.md).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from mafiahost.store.models import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    conn = config.attributes.get("connection")
    if conn is not None:
        context.configure(connection=conn, target_metadata=target_metadata,
                          render_as_batch=conn.dialect.name == "sqlite")
        with context.begin_transaction():
            context.run_migrations()
        return
    url = config.get_main_option("sqlalchemy.url")
    if context.is_offline_mode():
        context.configure(url=url, target_metadata=target_metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(url)
    with engine.connect() as c:
        context.configure(connection=c, target_metadata=target_metadata,
                          render_as_batch=c.dialect.name == "sqlite")
        with context.begin_transaction():
            context.run_migrations()


run()
