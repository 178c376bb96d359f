"""The web app for hosts and players (``mafiahost serve``); see docs/web.md."""

from .app import create_app

__all__ = ["create_app"]
