"""Text from events: posts ready to paste, Russian first, English too, plain or BBCode.

The functions live in ``render.posts``; the words in ``messages.yaml`` and the markup in
``formats.yaml`` (host-editable). Only public events make a public post: what a player may
not know never reaches a post.
"""

from __future__ import annotations

from . import posts
from .posts import (
    phase_post,
    private_messages,
    role_card,
    start_post,
    texts,
    vote_count_post,
)

__all__ = ["final_post", "messages", "phase_post", "private_messages", "role_card",
           "start_post", "texts", "vote_count_post"]


def messages(lang: str) -> dict:
    """The sentences of one language (``messages.yaml`` with any override merged in)."""
    return texts()[lang]


def final_post(g, seed_reveal: dict | str | None = None, lang: str = "ru",
               fmt: str = "plain") -> str:
    """``posts.final_post``; also takes the older call ``final_post(g, lang)``."""
    if isinstance(seed_reveal, str):
        lang, seed_reveal = seed_reveal, None
    return posts.final_post(g, seed_reveal, lang, fmt)
