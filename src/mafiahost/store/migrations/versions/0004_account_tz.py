"""A host account's time zone (an IANA name such as ``Europe/Moscow``, or an offset such
as ``+03:00``): the zone its new games' deadlines are read and set in. Empty for every
existing account, which keeps today's default (``MAFIAHOST_TZ``, else Moscow), so every
existing game keeps its deadlines as they were.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("host_accounts") as b:
        b.add_column(sa.Column("tz", sa.String(64), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("host_accounts") as b:
        b.drop_column("tz")
