"""Host accounts: each game owned by one account (and optional co-hosts), server-side
sessions, and the players' links stored only as hashes.

The site-wide host key of 0002 (``web_keys.host``) is deleted: it controlled every game.
Existing players' links keep working: their tokens are replaced by their SHA-256 hashes.

Revision ID: 0003
Revises: 0002
"""

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "host_accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(100), nullable=False, unique=True),
        sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("key_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "host_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("host_accounts.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("expires_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "game_hosts",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("host_accounts.id", ondelete="CASCADE"), primary_key=True,
                  index=True),
        sa.Column("role", sa.String(16), nullable=False),          # owner | cohost
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    conn = op.get_bind()
    conn.execute(sa.text("DELETE FROM web_keys WHERE name = 'host'"))
    with op.batch_alter_table("player_links") as b:
        b.add_column(sa.Column("token_hash", sa.String(64), nullable=True))
    rows = conn.execute(sa.text("SELECT game_id, seat, token FROM player_links")).all()
    for gid, seat, token in rows:
        conn.execute(sa.text("UPDATE player_links SET token_hash = :h "
                             "WHERE game_id = :g AND seat = :s"),
                     {"h": hashlib.sha256(token.encode()).hexdigest(), "g": gid, "s": seat})
    with op.batch_alter_table("player_links") as b:
        b.drop_column("token")
        b.alter_column("token_hash", existing_type=sa.String(64), nullable=False)
        b.create_unique_constraint("uq_player_links_token_hash", ["token_hash"])


def downgrade() -> None:
    op.drop_table("game_hosts")
    op.drop_table("host_sessions")
    op.drop_table("host_accounts")
    # the links' tokens cannot be recovered from their hashes: every link must be re-issued
    op.execute("DELETE FROM player_links")
    with op.batch_alter_table("player_links") as b:
        b.drop_constraint("uq_player_links_token_hash", type_="unique")
        b.drop_column("token_hash")
        b.add_column(sa.Column("token", sa.String(64), nullable=False, unique=True))
