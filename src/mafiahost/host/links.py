"""The web app's credentials: the shared web keys and the players' private links."""

from __future__ import annotations

import json
import secrets

from ..store import (
    EventRow,
    PlayerLinkRow,
    WebKeyRow,
    now_iso,
)
from .core import (
    _LINK_SEAT,
    AccessDenied,
    HostBase,
    HostError,
    new_token,
)


class LinkCommands(HostBase):
    """Keys and links."""

    # ---- the web app's credentials -----------------------------------------------------
    def web_key(self, name: str) -> str:
        """A secret shared by every web process on this database (``host``: the host's
        key; ``csrf``: signs the forms), made with ``secrets`` the first time it is asked
        for."""
        from sqlalchemy.exc import IntegrityError
        for _ in range(3):
            with self.store.session() as s:
                row = s.get(WebKeyRow, name)
                if row is not None:
                    return row.value
            try:
                with self.store.session() as s:
                    s.add(WebKeyRow(name=name, value=secrets.token_urlsafe(32),
                                    created_at=now_iso()))
            except IntegrityError:      # another process made it first: read theirs
                continue
        raise RuntimeError(f"cannot make the web key {name!r}")

    def links(self, game_id: int) -> dict[str, str]:
        """Every seat's invitation token, in seating order (made for seats without one)."""
        from sqlalchemy import select
        from sqlalchemy.exc import IntegrityError
        for _ in range(3):
            with self.store.session() as s:
                self._row(s, game_id)
                first = s.scalars(select(EventRow).where(EventRow.game_id == game_id,
                                                         EventRow.pos == 0)).first()
                seats = [n for n, _ in json.loads(first.body)["data"]["players"]]
                have = dict(s.execute(select(PlayerLinkRow.seat, PlayerLinkRow.token)
                                      .where(PlayerLinkRow.game_id == game_id)).all())
            missing = [x for x in seats if x not in have]
            if not missing:
                return {x: have[x] for x in seats}
            try:
                with self.store.session() as s:
                    for x in missing:
                        s.add(PlayerLinkRow(game_id=game_id, seat=x, token=new_token(),
                                            created_at=now_iso()))
            except IntegrityError:      # made at the same time by another request
                continue
        raise RuntimeError("cannot make the players' links")

    def reissue_link(self, game_id: int, seat: str) -> str:
        """A new token for ``seat``; the old link stops working at once (a replacement
        takes the seat, or a link was shared by mistake)."""
        self.links(game_id)
        with self.store.session() as s:
            row = s.get(PlayerLinkRow, (game_id, seat))
            if row is None:
                raise HostError(f"В игре №{game_id} нет места «{seat}».",
                                f"Game {game_id} has no seat '{seat}'.")
            row.token = new_token()
            row.created_at = now_iso()
            return row.token

    def player_link(self, token: str) -> tuple[int, str] | None:
        """``(game id, seat)`` for a player's token, or None."""
        from sqlalchemy import select
        if not token or len(token) > 64:
            return None
        with self.store.session() as s:
            r = s.execute(select(PlayerLinkRow.game_id, PlayerLinkRow.seat)
                          .where(PlayerLinkRow.token == token)).first()
        return (r[0], r[1]) if r else None

    @staticmethod
    def link_check(token: str, game_id: int, seat: str):
        """A ``check``/``guard`` that refuses (``AccessDenied``) unless ``token`` is still
        the link of ``seat`` in ``game_id``, read inside the caller's transaction."""
        def check(s, *_):
            ok = s.execute(_LINK_SEAT, {"token": token, "gid": game_id}).scalar()
            if ok != seat:
                raise AccessDenied()
        return check

