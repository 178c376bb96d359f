"""Exact win probabilities for models simple enough to solve: no simulation, no error bar.

Two models, both over counts of living players (who is who does not matter, only how many):

* ``vanilla`` — the uniform model of Migdał (2010, arXiv:1009.1031): each day the town
  lynches a uniformly random living player, each night the mafia kill a uniformly random
  town player. Mafia win at parity (living mafia >= living town, this project's default,
  ``win="parity"``) or only when no town player is left (``win="town_gone"``, Migdał's
  rule); the town wins when no mafioso is left. Victory is checked after every phase, as
  the engine does. The answer is Migdał's memoised recursion over (players, mafia, phase).

* ``detective`` — the same town with one detective whom the mafia do not know. Each night
  the mafia kill a uniformly random town player (the detective included) and the
  detective, if alive, checks a uniformly random living player he has not checked yet.
  ``check="after"`` (the default): he checks after the kill, so only if he survived it
  and never the player just killed. ``check="before"``: he checks first, among everyone
  alive at dusk; if the mafia then kill him the same night his result is lost (he cannot
  tell it), and if they kill the player he checked the check was wasted. Each day the town
  lynches the mafioso he has found if one lives, else a uniformly random living player he
  has not cleared (never the detective himself while he lives). The town knows his results;
  his clears stay known after his death. Dynamic programming over the states
  (unknown town, cleared town, unknown mafia, found mafia, detective alive, phase).

Braverman, Etesami and Mossel (2008, Ann. Appl. Probab. 18(3), "Mafia: a theoretical
study of players and coalitions in a partial information environment") give the
asymptotics: without detectives the town keeps a fair chance only when the mafia number
about the square root of the players; with a detective a mafia of a fixed fraction of the
players is needed. The tables here are exact for every finite size instead.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from ..engine.errors import Refused

MAX_PLAYERS = 200          # the vanilla table: every N up to this, in milliseconds
MAX_DETECTIVE_PLAYERS = 100  # the detective table grows as N^2 * M states


@dataclass(frozen=True)
class Odds:
    """Exact win probabilities of one setup under one model."""

    model: str
    players: int
    mafia: int
    first: str
    win: str
    mafia_wins: Fraction
    check: str | None = None

    @property
    def town_wins(self) -> Fraction:
        return 1 - self.mafia_wins

    def as_dict(self) -> dict:
        d = {"model": self.model, "players": self.players, "mafia": self.mafia,
             "first": self.first, "win": self.win}
        if self.check is not None:
            d["check"] = self.check
        for side, p in (("mafia", self.mafia_wins), ("town", self.town_wins)):
            d[side] = {"fraction": f"{p.numerator}/{p.denominator}", "decimal": float(p)}
        return d


class OddsError(Refused):
    """A setup the exact models cannot take; the sentences say what is allowed."""


def _check_setup(n: int, m: int, first: str, win: str, limit: int) -> None:
    if first not in ("day", "night"):
        raise OddsError(f"Первая фаза — day или night, а не «{first}».",
                        f"The first phase is day or night, not '{first}'.")
    if win not in ("parity", "town_gone"):
        raise OddsError(f"Мафия побеждает при равенстве (parity) или когда мирных не осталось "
                        f"(town_gone), а не «{win}».",
                        f"The mafia win at 'parity' or when the town is gone ('town_gone'), "
                        f"not '{win}'.")
    if not 3 <= n <= limit:
        raise OddsError(f"Игроков в этой модели — от 3 до {limit}, а не {n}.",
                        f"Players: 3 to {limit} for this model, not {n}.")
    if m < 1:
        raise OddsError(f"Нужен хотя бы один мафиози, а не {m}.",
                        f"There must be at least one mafioso, not {m}.")
    if 2 * m >= n:
        most = (n + 1) // 2 - 1
        raise OddsError(f"{m} мафии на {n} игроков — мафия уже сравнялась с городом и игра "
                        f"кончена до начала; мафии может быть не больше {most}.",
                        f"With {m} mafia among {n} players the mafia already have parity and "
                        f"the game is over before it starts; give at most {most} mafia.")


def _mafia_won(n: int, m: int, town_gone: bool) -> bool:
    """Living mafia ``m`` among ``n`` living players: have the mafia won?"""
    return m == n if town_gone else 2 * m >= n


class _deep_recursion:
    """The recursions go one frame per phase (2N deep): make room for N = 200."""

    def __init__(self, depth: int):
        self.depth = depth

    def __enter__(self):
        self.old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(self.old, self.depth))

    def __exit__(self, *exc):
        sys.setrecursionlimit(self.old)


@cache
def _w(n: int, m: int, day: bool, town_gone: bool) -> Fraction:
    """Migdał's w(n, m): the chance the mafia win from ``n`` living players of whom ``m``
    are mafia, at the start of a day (``day``) or a night; the previous phase's victory
    check has already been passed."""
    if m == 0:
        return Fraction(0)
    if _mafia_won(n, m, town_gone):
        return Fraction(1)
    if day:
        # the lynch: a mafioso with probability m/n, a town player otherwise
        return (Fraction(m, n) * _w(n - 1, m - 1, False, town_gone)
                + Fraction(n - m, n) * _w(n - 1, m, False, town_gone))
    # the night: one town player dies, surely
    return _w(n - 1, m, True, town_gone)


def vanilla(players: int, mafia: int, first: str = "night", win: str = "parity") -> Odds:
    """The exact uniform-model odds (Migdał 2010) for ``players`` with ``mafia`` mafiosi."""
    _check_setup(players, mafia, first, win, MAX_PLAYERS)
    with _deep_recursion(8 * players + 200):
        p = _w(players, mafia, first == "day", win == "town_gone")
    return Odds("uniform", players, mafia, first, win, p)


def vanilla_table(players: int, first: str = "night", win: str = "parity") -> list[Odds]:
    """Every mafia count that does not start at parity, for one player count."""
    return [vanilla(players, m, first, win) for m in range(1, (players + 1) // 2)]


# ---- one detective ---------------------------------------------------------------------

@cache
def _d(a: int, c: int, u: int, f: int, det: bool, day: bool, town_gone: bool,
       before: bool) -> Fraction:
    """Mafia's chance from: ``a`` town players the town knows nothing about (the detective
    not counted), ``c`` cleared town players, ``u`` unknown mafia, ``f`` found mafia (0 or
    1), the detective alive (``det``), at the start of a day or a night."""
    m = u + f
    n = a + c + m + (1 if det else 0)
    if m == 0:
        return Fraction(0)
    if _mafia_won(n, m, town_gone):
        return Fraction(1)
    rec = _d
    if day:
        if f:
            return rec(a, c, u, 0, det, False, town_gone, before)
        pool = a + u      # living, not cleared, not the detective
        out = Fraction(u, pool) * rec(a, c, u - 1, 0, det, False, town_gone, before)
        if a:
            out += Fraction(a, pool) * rec(a - 1, c, u, 0, det, False, town_gone, before)
        return out
    t = a + c + (1 if det else 0)     # the town: who the mafia may kill
    if not det:
        out = Fraction(0)
        if a:
            out += Fraction(a, t) * rec(a - 1, c, u, f, False, True, town_gone, before)
        if c:
            out += Fraction(c, t) * rec(a, c - 1, u, f, False, True, town_gone, before)
        return out
    # at night f == 0 (a found mafioso is lynched the day after) and so u >= 1: there is
    # always someone unknown to check
    if not before:
        # the kill, then the surviving detective's check among the unknown
        out = Fraction(1, t) * rec(a, c, u, f, False, True, town_gone, before)
        for p_kill, a1, c1 in ((Fraction(a, t), a - 1, c), (Fraction(c, t), a, c - 1)):
            if not p_kill:
                continue
            pool = a1 + u
            if a1:
                out += p_kill * Fraction(a1, pool) * rec(a1 - 1, c1 + 1, u, f, True, True,
                                                         town_gone, before)
            if u:
                out += p_kill * Fraction(u, pool) * rec(a1, c1, u - 1, f + 1, True, True,
                                                        town_gone, before)
        return out
    # the check first, among everyone unknown alive at dusk; then the kill
    pool = a + u
    out = Fraction(0)
    if a:
        pa = Fraction(a, pool)
        # checked X, an unknown town player; the kill falls on:
        out += pa * Fraction(1, t) * rec(a, c, u, f, False, True, town_gone, True)  # detective
        out += pa * Fraction(1, t) * rec(a - 1, c, u, f, True, True, town_gone, True)  # X
        if a > 1:   # another unknown town player; X is cleared
            out += pa * Fraction(a - 1, t) * rec(a - 2, c + 1, u, f, True, True, town_gone, True)
        if c:       # a cleared one; X is cleared
            out += pa * Fraction(c, t) * rec(a - 1, c, u, f, True, True, town_gone, True)
    if u:
        pu = Fraction(u, pool)
        out += pu * Fraction(1, t) * rec(a, c, u, f, False, True, town_gone, True)  # lost
        if a:
            out += pu * Fraction(a, t) * rec(a - 1, c, u - 1, f + 1, True, True, town_gone, True)
        if c:
            out += pu * Fraction(c, t) * rec(a, c - 1, u - 1, f + 1, True, True, town_gone, True)
    return out


def detective(players: int, mafia: int, first: str = "night", win: str = "parity",
              check: str = "after") -> Odds:
    """Exact odds with one detective among the town (see the module's docstring)."""
    _check_setup(players, mafia, first, win, MAX_DETECTIVE_PLAYERS)
    if check not in ("after", "before"):
        raise OddsError(f"Комиссар проверяет after или before выстрела, а не «{check}».",
                        f"The detective checks 'after' or 'before' the kill, not '{check}'.")
    a = players - mafia - 1
    with _deep_recursion(8 * players + 200):
        p = _d(a, 0, mafia, 0, True, first == "day", win == "town_gone", check == "before")
    return Odds("detective", players, mafia, first, win, p, check)


def clear_cache() -> None:
    """Forget memoised states (for benchmarks that time a cold table)."""
    _w.cache_clear()
    _d.cache_clear()
