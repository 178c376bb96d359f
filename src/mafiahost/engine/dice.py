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


def verify_rolls(seed: int, rolls: list[dict]) -> list[str]:
    """Re-roll a game's dice from its seed and compare with its ``roll`` events' data.

    Returns a sentence per roll that the seed does not explain (empty: every roll is
    fair). A roll the host forced (``forced: true``) is reported as such, not as a fault:
    the generator still advanced, so later rolls are checked as usual."""
    d = Dice(seed)
    problems = []
    for i, r in enumerate(rolls, 1):
        opts = r["options"]
        got: object          # a bool or an option (typed so that compiled code takes both)
        if "chance" in r:
            got = d.below(1 << 20) < int(r["chance"] * (1 << 20))
        else:
            got = opts[d.below(len(opts))]
        if r.get("forced"):
            problems.append(f"roll {i} ({r.get('why')}): forced by the host to {r['result']!r}")
        elif got != r["result"]:
            problems.append(f"roll {i} ({r.get('why')}): the seed gives {got!r}, the log says "
                            f"{r['result']!r}")
        if "_state" in r and d.state != r["_state"]:
            problems.append(f"roll {i} ({r.get('why')}): generator state differs from the log")
            d.state = r["_state"]
    return problems
