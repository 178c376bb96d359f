"""Who may do what on the web: host accounts and their sessions, who hosts which game,
the form-signing key, and the players' private links.

Every secret (an account's key, a session, a link token) is stored only as its SHA-256
(``store.accounts``): it is returned once, when it is made, and never read back. A new
key ends the account's sessions; a new link ends the seat's old one.
"""

from __future__ import annotations

import json

from ..store import accounts as A
from ..store import now_iso, test_pause
from .core import AccessDenied, HostBase, HostError, new_token


def _zone_name(tz: str | None) -> str:
    """A time zone the host typed, checked (a sentence if unknown); "" for the default."""
    from . import deadlines
    tz = (tz or "").strip()
    if tz in ("", "-"):
        return ""
    if tz.upper() in ("MSK", "МСК"):
        return "Europe/Moscow"
    deadlines.zone(tz)
    return tz


class LinkCommands(HostBase):
    """Accounts, sessions, keys and links."""

    # ---- host accounts (the command line on the database's machine: the administrator) ---
    def add_host(self, name: str, tz: str = "") -> str:
        """A new host account (``tz``: its time zone for deadlines); its key (shown
        once)."""
        return A.add_account(self.store, name, _zone_name(tz))

    def set_host_tz(self, name: str, tz: str) -> str:
        """The account's time zone (``Europe/Moscow``, ``+05:00``; "" or ``-``: the
        default), in which its new games' deadlines are read and set; returns the zone as
        stored. A game's deadlines already set keep their time."""
        tz = _zone_name(tz)
        A.set_tz(self.store, name, tz)
        return tz

    def host_tz(self, name: str) -> str:
        """The account's time zone ("" = the default: $MAFIAHOST_TZ, else Moscow)."""
        return A.tz_of(self.store, name)

    def account_tz(self, account: int) -> str:
        return A.account_tz(self.store, account)

    def game_zone(self, s, game_id: int):
        """Inside a transaction: the zone a game's deadlines are read and set in — its
        owner's, else the default ($MAFIAHOST_TZ, else Moscow)."""
        from . import deadlines
        return deadlines.zone(A.game_tz(s, game_id) or None)

    def rotate_host_key(self, name: str) -> str:
        """A new key for the account; the old key and all its sessions end now."""
        return A.rotate_key(self.store, name)

    def host_accounts(self) -> list[dict]:
        return A.list_accounts(self.store)

    def host_id(self, name: str) -> int:
        return A.account_id(self.store, name)

    def set_game_host(self, game_id: int, name: str, role: str = A.COHOST) -> None:
        """Account ``name`` becomes the game's owner or a co-host."""
        A.set_host(self.store, game_id, name, role)

    def drop_game_host(self, game_id: int, name: str) -> None:
        A.drop_host(self.store, game_id, name)

    def game_hosts(self, game_id: int) -> list[tuple[str, str]]:
        return A.hosts_of(self.store, game_id)

    # ---- sessions (the web app) --------------------------------------------------------
    def login(self, key: str) -> tuple[str, int, str] | None:
        """``(session token, account id, name)`` for a right key, else None."""
        return A.login(self.store, key)

    def session_of(self, token: str | None) -> tuple[int, str] | None:
        """``(account id, name)`` of a live session, or None."""
        return A.session_account(self.store, token)

    def logout(self, token: str | None) -> None:
        A.logout(self.store, token)

    def host_role(self, account: int, game_id: int) -> str | None:
        """``owner``, ``cohost`` or None."""
        return A.game_role(self.store, account, game_id)

    def hosted_games(self, account: int) -> dict[int, str]:
        return A.games_of(self.store, account)

    # ---- the form-signing key ----------------------------------------------------------
    def web_key(self, name: str) -> str:
        """A secret shared by every web process on this database (``csrf``: signs the
        forms), made the first time it is asked for. The database makes it itself (256
        random bits from the server's strong generator), so the value never travels in a
        statement or its parameters, and so never reaches a statement log."""
        from sqlalchemy import text
        from sqlalchemy.exc import IntegrityError

        from ..store.models import WebKeyRow
        random = ("gen_random_uuid()::text || gen_random_uuid()::text"
                  if self.store.dialect == "postgresql" else "lower(hex(randomblob(32)))")
        for _ in range(3):
            with self.store.session() as s:
                row = s.get(WebKeyRow, name)
                if row is not None:
                    return row.value
            try:
                with self.store.session() as s:
                    s.execute(text(f"INSERT INTO web_keys (name, value, created_at) "
                                   f"VALUES (:name, {random}, :at)"),
                              {"name": name, "at": now_iso()})
            except IntegrityError:      # another process made it first: read theirs
                continue
        raise RuntimeError(f"cannot make the web key {name!r}")

    # ---- players' links ----------------------------------------------------------------
    def _seats(self, s, game_id: int) -> list[str]:
        from sqlalchemy import select

        from ..store.models import EventRow
        self._row(s, game_id)
        first = s.scalars(select(EventRow).where(EventRow.game_id == game_id,
                                                 EventRow.pos == 0)).first()
        return [n for n, _ in json.loads(first.body)["data"]["players"]]

    def link_dates(self, game_id: int) -> dict[str, str | None]:
        """When each seat's current link was made (None: the seat has none yet)."""
        from sqlalchemy import select

        from ..store.models import PlayerLinkRow
        with self.store.session() as s:
            seats = self._seats(s, game_id)
            have = dict(s.execute(select(PlayerLinkRow.seat, PlayerLinkRow.created_at)
                                  .where(PlayerLinkRow.game_id == game_id)).all())
        return {x: have.get(x) for x in seats}

    def links(self, game_id: int) -> dict[str, str]:
        """Links for the seats that have none yet, in seating order: ``{seat: token}`` of
        the links made now (the only time they can be read). Seats that already have a
        link are not in the answer: ``issue_links`` makes new ones."""
        from sqlalchemy import select
        from sqlalchemy.exc import IntegrityError

        from ..store.models import PlayerLinkRow
        for _ in range(3):
            with self.store.session() as s:
                seats = self._seats(s, game_id)
                have = set(s.scalars(select(PlayerLinkRow.seat)
                                     .where(PlayerLinkRow.game_id == game_id)))
            missing = [x for x in seats if x not in have]
            if not missing:
                return {}
            made = {x: new_token() for x in missing}
            try:
                with self.store.session() as s:
                    for x, tok in made.items():
                        s.add(PlayerLinkRow(game_id=game_id, seat=x,
                                            token_hash=A.digest(tok), created_at=now_iso()))
                return made
            except IntegrityError:      # made at the same time by another request
                continue
        raise RuntimeError("cannot make the players' links")

    def issue_links(self, game_id: int, seats: list[str] | None = None) -> dict[str, str]:
        """New links for ``seats`` (default: every seat), in seating order; each seat's
        old link ends at once. ``{seat: token}``, shown once."""
        from sqlalchemy import delete

        from ..store.models import PlayerLinkRow
        with self.store.session() as s:
            all_seats = self._seats(s, game_id)
            want = all_seats if seats is None else seats
            bad = [x for x in want if x not in all_seats]
            if bad:
                raise HostError(f"В игре №{game_id} нет места «{bad[0]}»; места: "
                                f"{', '.join(all_seats)}.",
                                f"Game {game_id} has no seat '{bad[0]}'; seats: "
                                f"{', '.join(all_seats)}.")
            made = {x: new_token() for x in all_seats if x in want}
            s.execute(delete(PlayerLinkRow).where(PlayerLinkRow.game_id == game_id,
                                                  PlayerLinkRow.seat.in_(list(made))))
            s.flush()
            for x, tok in made.items():
                s.add(PlayerLinkRow(game_id=game_id, seat=x, token_hash=A.digest(tok),
                                    created_at=now_iso()))
            s.flush()
            test_pause("links")
        return made

    def reissue_link(self, game_id: int, seat: str) -> str:
        """A new token for ``seat``; the old link stops working at once (a replacement
        takes the seat, or a link was shared by mistake)."""
        return self.issue_links(game_id, [seat])[seat]

    def player_link(self, token: str) -> tuple[int, str] | None:
        """``(game id, seat)`` for a player's token, or None."""
        if not token or len(token) > 64:
            return None
        return self.store.link_seat(A.digest(token))     # one indexed read, no ORM

    @staticmethod
    def link_check(token: str, game_id: int, seat: str):
        """A ``check``/``guard`` that refuses (``AccessDenied``) unless ``token`` is still
        the link of ``seat`` in ``game_id``, read inside the caller's transaction."""
        def check(s, *_):
            if A.link_seat(s, token) != (game_id, seat):
                raise AccessDenied()
        return check
