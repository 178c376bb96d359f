"""The game's one seeded generator. Every roll becomes a ``roll`` event.

A small PCG32 generator written here so that the engine uses no global random state and
a game's dice are identical on every Python version. Scenarios (and a host) may force
results: forced values are consumed in order and still advance the generator, so a game
with forced rolls replays exactly.
"""

from __future__ import annotations

_MASK64 = (1 << 64) - 1
_MULT = 6364136223846793005
_INC = 1442695040888963407


class Dice:
    __slots__ = ("forced", "state")

    def __init__(self, seed: int = 0):
        self.state = 0
        self.forced: list = []
        self._step()
        self.state = (self.state + (seed & _MASK64)) & _MASK64
        self._step()

    def _step(self) -> int:
        old = self.state
        self.state = (old * _MULT + _INC) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (rejection sampling, no modulo bias)."""
        if n <= 1:
            self._step()
            return 0
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            r = self._step()
            if r < limit:
                return r % n
