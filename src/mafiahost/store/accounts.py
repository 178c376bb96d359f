"""Host accounts, their sessions, who hosts which game, and the players' links.

Every secret here (an account's key, a session cookie, a player's link token) is 256 or
192 random bits from ``secrets`` and is stored only as its SHA-256 (``digest``): the
secret is returned once, when it is made, and never read back. A plain hash is enough for
random secrets of this size (no password to guess), and it keeps every lookup one indexed
query. Because only hashes reach the database, no SQL statement, database log line or
database error message can hold a secret.

The functions take a ``Store`` and run their own transaction; ``Host`` (the service
layer) and the command line call them.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import unicodedata
from datetime import UTC, datetime

from ..engine.errors import Refused

# The functions that read and write the tables (``account_rows``, on SQLAlchemy) are
# reached through this module (``accounts.login(...)``) and imported on first use: the
# web app's and the command line's plain paths only need the helpers below.

SESSION_HOURS = 12.0        # a session ends this long after login (MAFIAHOST_SESSION_HOURS)
OWNER, COHOST = "owner", "cohost"


def _pause(kind: str) -> None:
    from . import test_pause
    test_pause(kind)


def digest(secret: str) -> str:
    """The SHA-256 (hex) under which a secret is stored."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_key() -> str:
    """A host account's key: 256 random bits."""
    return secrets.token_urlsafe(32)


def new_token() -> str:
    """A player's link token: 192 random bits."""
    return secrets.token_urlsafe(24)


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(t: datetime) -> str:
    return t.isoformat(timespec="seconds")


def session_hours() -> float:
    try:
        return float(os.environ.get("MAFIAHOST_SESSION_HOURS", SESSION_HOURS))
    except ValueError:
        return SESSION_HOURS


def _fold(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold().replace("ё", "е").strip()


def check_account_name(name: str) -> str:
    name = unicodedata.normalize("NFC", (name or "").strip())
    if not name or len(name) > 64 or any(unicodedata.category(c)[0] in "CZ" and c != " "
                                         for c in name):
        raise Refused("Имя ведущего: от 1 до 64 знаков, без управляющих и невидимых "
                      "символов.",
                      "A host's name: 1 to 64 characters, no control or invisible "
                      "characters.")
    return name


def link_seat(s, token: str) -> tuple[int, str] | None:
    """``(game id, seat)`` for a link token, inside the caller's transaction (an ORM
    session or the store's hot-path transaction)."""
    if not token or len(token) > 64:
        return None
    if getattr(s, "hot", False):
        return s.link_seat(digest(token))
    from .account_rows import link_seat_orm
    return link_seat_orm(s, token)


def __getattr__(name: str):
    from . import account_rows
    try:
        return getattr(account_rows, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
