"""Saved games: games, commands, events, vote records, imported forum posts.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(200), nullable=False, server_default=""),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("ruleset_version", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False, server_default="{}"),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("salt", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("dealt", sa.Boolean, nullable=False),
        sa.Column("lang", sa.String(8), nullable=False, server_default="ru"),
        sa.Column("fmt", sa.String(16), nullable=False, server_default="plain"),
        sa.Column("deadline", sa.String(40), nullable=True),
        sa.Column("deadline_phase", sa.String(40), nullable=True),
        sa.Column("rev", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "commands",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("args", sa.Text, nullable=False),
        sa.Column("ops", sa.Text, nullable=False),
        sa.Column("before", sa.Text, nullable=False),
        sa.Column("result", sa.Text, nullable=False),
        sa.Column("first_event", sa.Integer, nullable=False),
        sa.Column("n_events", sa.Integer, nullable=False),
        sa.Column("undone", sa.Boolean, nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
    )
    op.create_index("ix_commands_game_seq", "commands", ["game_id", "seq"], unique=True)
    op.create_table(
        "events",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("pos", sa.Integer, primary_key=True),
        sa.Column("command_id", sa.Integer,
                  sa.ForeignKey("commands.id", ondelete="CASCADE"), nullable=False),
        sa.Column("type", sa.String(40), nullable=False),
        sa.Column("phase", sa.String(40), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.create_index("ix_events_command_id", "events", ["command_id"])
    op.create_table(
        "vote_records",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("command_id", sa.Integer,
                  sa.ForeignKey("commands.id", ondelete="CASCADE"), nullable=False),
        sa.Column("phase", sa.String(40), nullable=False),
        sa.Column("voter", sa.String(200), nullable=False),
        sa.Column("target", sa.String(200), nullable=False),
        sa.Column("at", sa.String(40), nullable=True),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("post_key", sa.String(200), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("note", sa.Text, nullable=False),
    )
    op.create_index("ix_vote_records_game_id", "vote_records", ["game_id"])
    op.create_index("ix_vote_records_command_id", "vote_records", ["command_id"])
    op.create_table(
        "imported_posts",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("post_key", sa.String(200), primary_key=True),
        sa.Column("command_id", sa.Integer,
                  sa.ForeignKey("commands.id", ondelete="CASCADE"), nullable=False),
    )
    op.create_index("ix_imported_posts_command_id", "imported_posts", ["command_id"])


def downgrade() -> None:
    for t in ("imported_posts", "vote_records", "events", "commands", "games"):
        op.drop_table(t)
