"""The tables of a saved game (SQLAlchemy 2 declarative models).

A game is its ruleset id and version, options, seed (with the salt and the public
commitment to it) and its ordered events; every event belongs to the host command that
produced it, so ``undo`` removes exactly the last command's events. Deadlines and forum
votes (late ones included) are store-level data beside the events: the engine never sees
a clock.

The schema is created and upgraded by the Alembic migrations in ``migrations/versions``;
these models must match the latest migration (``tests/test_host_store.py`` checks it).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    ruleset: Mapped[str] = mapped_column(String(64))
    ruleset_version: Mapped[int] = mapped_column(Integer)
    options: Mapped[str] = mapped_column(Text, default="{}")          # JSON
    seed: Mapped[int] = mapped_column(BigInteger)                      # 0 <= seed < 2**63
    salt: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))               # sha256 hex
    dealt: Mapped[bool] = mapped_column(Boolean, default=True)        # dealt from the seed
    lang: Mapped[str] = mapped_column(String(8), default="ru")
    fmt: Mapped[str] = mapped_column(String(16), default="plain")
    deadline: Mapped[str | None] = mapped_column(String(40), nullable=True)   # ISO 8601
    deadline_phase: Mapped[str | None] = mapped_column(String(40), nullable=True)
    rev: Mapped[int] = mapped_column(Integer, default=0)   # bumped by every command (lock)
    created_at: Mapped[str] = mapped_column(String(40))
    updated_at: Mapped[str] = mapped_column(String(40))


class CommandRow(Base):
    __tablename__ = "commands"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)             # 1, 2, ... within the game
    kind: Mapped[str] = mapped_column(String(32))          # new, act, vote, resolve, ...
    args: Mapped[str] = mapped_column(Text, default="{}")  # JSON: what the host typed
    ops: Mapped[str] = mapped_column(Text, default="[]")   # JSON: engine calls, for verify
    before: Mapped[str] = mapped_column(Text, default="{}")  # JSON: store fields to restore
    result: Mapped[str] = mapped_column(Text, default="{}")  # JSON: notes (import problems)
    first_event: Mapped[int] = mapped_column(Integer)      # position of its first event
    n_events: Mapped[int] = mapped_column(Integer, default=0)
    undone: Mapped[bool] = mapped_column(Boolean, default=False)
    at: Mapped[str] = mapped_column(String(40))

    __table_args__ = (Index("ix_commands_game_seq", "game_id", "seq", unique=True),)


class EventRow(Base):
    __tablename__ = "events"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    pos: Mapped[int] = mapped_column(Integer, primary_key=True)   # 0, 1, 2 ... in order
    command_id: Mapped[int] = mapped_column(ForeignKey("commands.id", ondelete="CASCADE"),
                                            index=True)
    type: Mapped[str] = mapped_column(String(40))
    phase: Mapped[str] = mapped_column(String(40))
    body: Mapped[str] = mapped_column(Text)   # JSON: {"audience": ..., "data": {...}}


class VoteRecordRow(Base):
    """A vote as it came in: from the command line or a forum post, counted or late."""

    __tablename__ = "vote_records"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         index=True)
    command_id: Mapped[int] = mapped_column(ForeignKey("commands.id", ondelete="CASCADE"),
                                            index=True)
    phase: Mapped[str] = mapped_column(String(40))
    voter: Mapped[str] = mapped_column(String(200))
    target: Mapped[str] = mapped_column(String(200))
    at: Mapped[str | None] = mapped_column(String(40), nullable=True)
    source: Mapped[str] = mapped_column(String(16))       # cli | forum
    post_key: Mapped[str | None] = mapped_column(String(200), nullable=True)
    status: Mapped[str] = mapped_column(String(16))       # counted | late | refused
    note: Mapped[str] = mapped_column(Text, default="")


class ImportedPostRow(Base):
    """A forum post already read by ``votes import`` (re-importing a longer dump of the
    same thread reads only the new posts)."""

    __tablename__ = "imported_posts"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    post_key: Mapped[str] = mapped_column(String(200), primary_key=True)
    command_id: Mapped[int] = mapped_column(ForeignKey("commands.id", ondelete="CASCADE"),
                                            index=True)


class WebKeyRow(Base):
    """A secret of the web app, shared by every process on the database: the key that
    signs the forms' anti-forgery tokens (``csrf``)."""

    __tablename__ = "web_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[str] = mapped_column(String(40))


class PlayerLinkRow(Base):
    """A player's private invitation link for one seat of one game. Only the SHA-256 of
    its unguessable token (``secrets``) is stored: the link is shown once when it is made
    and can be re-issued (which ends the old one), never read back."""

    __tablename__ = "player_links"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    seat: Mapped[str] = mapped_column(String(200), primary_key=True)
    created_at: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str] = mapped_column(String(64))

    __table_args__ = (UniqueConstraint("token_hash", name="uq_player_links_token_hash"),)


class HostAccountRow(Base):
    """A host's account: a name and the SHA-256 of the account's key (256 random bits,
    shown once when made or rotated, never stored in clear)."""

    __tablename__ = "host_accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[str] = mapped_column(String(40))
    key_at: Mapped[str] = mapped_column(String(40))        # when the key was last made
    tz: Mapped[str] = mapped_column(String(64), default="", server_default="")  # "" = default


class HostSessionRow(Base):
    """A logged-in browser: the SHA-256 of its session cookie, its account, its expiry.
    Logout deletes the row; rotating the account's key deletes all of the account's."""

    __tablename__ = "host_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("host_accounts.id",
                                                       ondelete="CASCADE"), index=True)
    created_at: Mapped[str] = mapped_column(String(40))
    expires_at: Mapped[str] = mapped_column(String(40))


class GameHostRow(Base):
    """Who hosts a game: one ``owner`` and any number of ``cohost`` accounts."""

    __tablename__ = "game_hosts"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("host_accounts.id",
                                                       ondelete="CASCADE"),
                                            primary_key=True, index=True)
    role: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[str] = mapped_column(String(40))
