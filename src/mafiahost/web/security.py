"""Credentials, anti-forgery tokens and the headers every response carries.

- A host logs in with the key of their own account (``host_accounts``, made by
  ``mafiahost host add``) on a POST form, never in a URL. The browser gets a server-side
  session: a random token in an HttpOnly, SameSite=Lax cookie whose hash is a row of
  ``host_sessions``; it expires, and logout or a new key ends it at once. A host sees and
  controls only the games their account owns or co-hosts.
- A player's credential is the unguessable token in their link (``player_links`` holds
  only its hash), looked up in the database inside the transaction of every request
  that uses it; a program may send it as ``Authorization: Bearer <token>`` instead.
- Every form carries an anti-forgery token: an HMAC (with the ``web_keys.csrf`` key) of the
  credential that the form acts with (the session, or the player's token), so a page of
  another site can neither read nor make it; a POST whose ``Origin`` is another site, or
  ``null`` (a sandboxed frame, a ``data:`` page), is refused as well.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

HOST_COOKIE = "mh_session"
LOGIN_COOKIE = "mh_login"
LANG_COOKIE = "mh_lang"
FLASH_COOKIE = "mh_flash"

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")

HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


def sign(key: str, what: str) -> str:
    return hmac.new(key.encode(), what.encode(), hashlib.sha256).hexdigest()[:40]


def same(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and hmac.compare_digest(str(a).encode(), str(b).encode())


def new_login_nonce() -> str:
    return secrets.token_urlsafe(18)


def with_headers(headers: list) -> list:
    """``headers`` plus the security headers and ``no-store`` (for responses made outside
    the middleware, e.g. the error page of an unexpected exception)."""
    return list(headers) + HEADERS + [(b"cache-control", b"no-store")]


class SecurityHeaders:
    """ASGI middleware: the security headers on every response; ``no-store`` on every
    dynamic one (pages hold private data; nothing of it belongs in a shared cache)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = scope["path"].startswith("/static/")

        async def wrapped(msg):
            if msg["type"] == "http.response.start":
                headers = list(msg.get("headers", []))
                headers += HEADERS
                if not static:
                    headers.append((b"cache-control", b"no-store"))
                msg = dict(msg, headers=headers)
            await send(msg)

        await self.app(scope, receive, wrapped)
