"""Events: the only way game state changes, and the game's audit log.

An event has a type, the phase it happened in, an audience and its data fields.
Audience is ``"public"``, ``"host"`` or a tuple of player names (the host always sees
everything). Faction audiences are expanded to member names when the event is made,
so the log keeps who was actually told.
"""

from __future__ import annotations

from typing import Final

# Final: the compiled modules read them as constants, not from a module's globals
PUBLIC: Final = "public"
HOST: Final = "host"


class Event:
    __slots__ = ("audience", "data", "phase", "type")

    def __init__(self, type: str, phase: str, audience, data: dict):
        self.type = type
        self.phase = phase
        self.audience = audience
        self.data = data

    def visible_to(self, player: str | None) -> bool:
        """True when ``player`` may see this event (``None`` means the public)."""
        a = self.audience
        if a == PUBLIC:
            return True
        if a == HOST or player is None:
            return False
        return player in a

    def as_dict(self) -> dict:
        aud = self.audience if isinstance(self.audience, str) else list(self.audience)
        return {"type": self.type, "phase": self.phase, "audience": aud, **self.data}

    def __repr__(self) -> str:
        return f"Event({self.type}, {self.phase}, {self.audience}, {self.data})"
