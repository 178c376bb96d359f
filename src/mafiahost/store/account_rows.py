"""The host accounts' tables (``accounts`` is the interface): accounts, sessions, who
hosts which game, the players' links, through SQLAlchemy."""

from __future__ import annotations

import secrets
from datetime import timedelta

from sqlalchemy import delete, func, select

from ..engine.errors import Refused
from .accounts import (
    COHOST,
    OWNER,
    _fold,
    _iso,
    _now,
    _pause,
    check_account_name,
    digest,
    new_key,
    session_hours,
)
from .models import GameHostRow, GameRow, HostAccountRow, HostSessionRow, PlayerLinkRow


def _account(s, name: str) -> HostAccountRow:
    f = _fold(name)
    for row in s.scalars(select(HostAccountRow)):
        if _fold(row.name) == f:
            return row
    names = ", ".join(r for r in s.scalars(select(HostAccountRow.name)
                                           .order_by(HostAccountRow.name)))
    raise Refused(f"Ведущего «{name}» нет; есть: {names or 'пока ни одного'} "
                  f"(добавить: mafiahost host add ИМЯ).",
                  f"There is no host '{name}'; hosts: {names or 'none yet'} "
                  f"(add one: mafiahost host add NAME).")


# ---- accounts (the command line: the administrator) -------------------------------------------

def add_account(store, name: str, tz: str = "") -> str:
    """A new host account (``tz``: its time zone, already checked; "" = the default);
    returns its key (shown once)."""
    name = check_account_name(name)
    key = new_key()
    with store.session() as s:
        f = _fold(name)
        if any(_fold(n) == f for n in s.scalars(select(HostAccountRow.name))):
            raise Refused(f"Ведущий «{name}» уже есть; новый ключ: "
                          f"mafiahost host key «{name}» --rotate.",
                          f"Host '{name}' exists already; a new key: "
                          f"mafiahost host key '{name}' --rotate.")
        now = _iso(_now())
        s.add(HostAccountRow(name=name, key_hash=digest(key), created_at=now, key_at=now,
                             tz=tz))
    return key


def set_tz(store, name: str, tz: str) -> str:
    """Account ``name``'s time zone (already checked; "" = the default); returns the
    account's name as stored."""
    with store.session() as s:
        row = _account(s, name)
        row.tz = tz
        return row.name


def tz_of(store, name: str) -> str:
    with store.session() as s:
        return _account(s, name).tz or ""


def account_tz(store, account: int) -> str:
    """The time zone of the account with this id ("" = the default)."""
    with store.session() as s:
        return s.scalar(select(HostAccountRow.tz).where(HostAccountRow.id == account)) or ""


def game_tz(s, game_id: int) -> str:
    """Inside a transaction: the time zone of the game's owner ("" = the default: no owner,
    or an owner who has not set one)."""
    return s.scalar(select(HostAccountRow.tz)
                    .join(GameHostRow, GameHostRow.account_id == HostAccountRow.id)
                    .where(GameHostRow.game_id == game_id, GameHostRow.role == OWNER)) or ""


def rotate_key(store, name: str) -> str:
    """A new key for ``name``; the old key and every session of the account end at once."""
    key = new_key()
    with store.session() as s:
        row = _account(s, name)
        row.key_hash = digest(key)
        row.key_at = _iso(_now())
        s.execute(delete(HostSessionRow).where(HostSessionRow.account_id == row.id))
        s.flush()
        _pause("rotate")
    return key


def list_accounts(store) -> list[dict]:
    now = _iso(_now())
    out = []
    with store.session() as s:
        for row in s.scalars(select(HostAccountRow).order_by(HostAccountRow.id)):
            owned = s.scalars(select(GameHostRow.game_id).where(
                GameHostRow.account_id == row.id, GameHostRow.role == OWNER)
                .order_by(GameHostRow.game_id)).all()
            co = s.scalars(select(GameHostRow.game_id).where(
                GameHostRow.account_id == row.id, GameHostRow.role == COHOST)
                .order_by(GameHostRow.game_id)).all()
            n = s.scalar(select(func.count()).select_from(HostSessionRow).where(
                HostSessionRow.account_id == row.id, HostSessionRow.expires_at > now))
            out.append({"name": row.name, "created_at": row.created_at,
                        "key_at": row.key_at, "games": list(owned), "cohost": list(co),
                        "sessions": n, "tz": row.tz or ""})
    return out


def account_id(store, name: str) -> int:
    with store.session() as s:
        return _account(s, name).id


# ---- sessions (the web app) -------------------------------------------------------------------

def login(store, key: str) -> tuple[str, int, str] | None:
    """``(session token, account id, account name)`` for a right key, else None. The
    token goes into the browser's cookie; the database keeps only its hash."""
    if not key or len(key) > 200:
        return None
    token = secrets.token_urlsafe(32)
    now = _now()
    with store.session() as s:
        row = s.scalars(select(HostAccountRow).where(
            HostAccountRow.key_hash == digest(key))).first()
        if row is None:
            return None
        s.execute(delete(HostSessionRow).where(HostSessionRow.account_id == row.id,
                                               HostSessionRow.expires_at <= _iso(now)))
        s.add(HostSessionRow(token_hash=digest(token), account_id=row.id,
                             created_at=_iso(now),
                             expires_at=_iso(now + timedelta(hours=session_hours()))))
        return token, row.id, row.name


def session_account(store, token: str | None) -> tuple[int, str] | None:
    """``(account id, name)`` of a live session, or None (unknown, ended or expired)."""
    if not token or len(token) > 200:
        return None
    with store.session() as s:
        r = s.execute(select(HostSessionRow.account_id, HostSessionRow.expires_at,
                             HostAccountRow.name)
                      .join(HostAccountRow, HostAccountRow.id == HostSessionRow.account_id)
                      .where(HostSessionRow.token_hash == digest(token))).first()
    if r is None or r[1] <= _iso(_now()):
        return None
    return r[0], r[2]


def logout(store, token: str | None) -> None:
    if token:
        with store.session() as s:
            s.execute(delete(HostSessionRow).where(HostSessionRow.token_hash == digest(token)))


# ---- who hosts which game ---------------------------------------------------------------------

def set_owner(s, game_id: int, account: int) -> None:
    """Inside the transaction that creates the game: ``account`` owns it."""
    s.add(GameHostRow(game_id=game_id, account_id=account, role=OWNER,
                      created_at=_iso(_now())))


def game_role(store, account: int, game_id: int) -> str | None:
    """``owner``, ``cohost`` or None: what ``account`` is to the game."""
    with store.session() as s:
        return s.scalar(select(GameHostRow.role).where(GameHostRow.game_id == game_id,
                                                       GameHostRow.account_id == account))


def games_of(store, account: int) -> dict[int, str]:
    """The games ``account`` hosts: game id -> its role (owner / cohost)."""
    with store.session() as s:
        return dict(s.execute(select(GameHostRow.game_id, GameHostRow.role)
                              .where(GameHostRow.account_id == account)).all())


def hosts_of(store, game_id: int) -> list[tuple[str, str]]:
    """(account name, role) of every host of the game, the owner first."""
    with store.session() as s:
        rows = s.execute(select(HostAccountRow.name, GameHostRow.role)
                         .join(GameHostRow, GameHostRow.account_id == HostAccountRow.id)
                         .where(GameHostRow.game_id == game_id)).all()
    return sorted(((n, r) for n, r in rows), key=lambda x: (x[1] != OWNER, x[0]))


def _game(s, game_id: int) -> GameRow:
    row = s.get(GameRow, game_id)
    if row is None:
        raise Refused(f"Игры №{game_id} нет.", f"There is no game {game_id}.")
    return row


def set_host(store, game_id: int, name: str, role: str) -> None:
    """Make account ``name`` the owner (the previous owner becomes a co-host) or a
    co-host of the game."""
    with store.session() as s:
        _game(s, game_id)
        acc = _account(s, name)
        cur = s.get(GameHostRow, (game_id, acc.id))
        if role == OWNER:
            for old in s.scalars(select(GameHostRow).where(GameHostRow.game_id == game_id,
                                                           GameHostRow.role == OWNER)):
                old.role = COHOST
        if cur is None:
            s.add(GameHostRow(game_id=game_id, account_id=acc.id, role=role,
                              created_at=_iso(_now())))
        else:
            cur.role = role


def drop_host(store, game_id: int, name: str) -> None:
    """Account ``name`` no longer hosts the game (the owner cannot be dropped: give the
    game to another owner first)."""
    with store.session() as s:
        _game(s, game_id)
        acc = _account(s, name)
        cur = s.get(GameHostRow, (game_id, acc.id))
        if cur is None:
            raise Refused(f"«{acc.name}» не ведёт игру №{game_id}.",
                          f"'{acc.name}' does not host game {game_id}.")
        if cur.role == OWNER:
            raise Refused(f"«{acc.name}» — владелец игры №{game_id}; сначала передайте "
                          f"игру другому ведущему (host owner).",
                          f"'{acc.name}' owns game {game_id}; give the game to another "
                          f"host first (host owner).")
        s.delete(cur)


# ---- players' links ---------------------------------------------------------------------------

_LINK = select(PlayerLinkRow.game_id, PlayerLinkRow.seat)


def link_seat_orm(s, token: str) -> tuple[int, str] | None:
    """``accounts.link_seat`` on an ORM session."""
    r = s.execute(_LINK.where(PlayerLinkRow.token_hash == digest(token))).first()
    return (r[0], r[1]) if r else None
