"""Logging without secrets.

A player's link token is the one secret allowed in a URL path (``/p/<token>``); uvicorn's
access log would write it out. ``RedactTokens`` (a logging filter on ``uvicorn.access``)
replaces every token in a logged path, and any query string, with ``…``, so the access log
keeps method, route, status and client but no credential. ``log_config()`` is uvicorn's
default logging configuration with the filter installed (every worker process gets it).
"""

from __future__ import annotations

import copy
import logging
import re

_TOKEN_PATH = re.compile(r"(/p/)[^/?#\s]+")
_QUERY = re.compile(r"\?\S*")


def redact(path: str) -> str:
    """The path with a player's token and any query string replaced by ``…``."""
    path = _TOKEN_PATH.sub(r"\1…", path)
    return _QUERY.sub("?…", path)


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) and "/" in a else a
                                for a in args)
        if isinstance(record.msg, str) and "/p/" in record.msg:
            record.msg = redact(record.msg)
        return True


def log_config() -> dict:
    from uvicorn.config import LOGGING_CONFIG
    cfg = copy.deepcopy(LOGGING_CONFIG)
    cfg.setdefault("filters", {})["redact_tokens"] = {"()": "mafiahost.web.logs.RedactTokens"}
    for name in ("access", "default"):
        if name in cfg.get("handlers", {}):
            cfg["handlers"][name].setdefault("filters", []).append("redact_tokens")
    return cfg
