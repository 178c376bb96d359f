"""The exact tables against independent computations.

``_enumerate_*`` below know nothing of counts or of Migdał's recursion: they follow named
players through every random choice (every lynch, every kill, every check) with exact
fractions, so agreement is agreement of two different computations of the same model."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from mafiahost.balance import exact
from mafiahost.balance.exact import OddsError


def _won(alive, mafia, town_gone):
    m = len(alive & mafia)
    if m == 0:
        return "town"
    t = len(alive) - m
    if (t == 0) if town_gone else (m >= t):
        return "mafia"
    return None


def _enumerate_vanilla(n, m, first, town_gone):
    players = frozenset(range(n))
    mafia = frozenset(range(m))

    @cache
    def go(alive, day):
        w = _won(alive, mafia, town_gone)
        if w:
            return Fraction(w == "mafia")
        if day:
            return sum((go(alive - {x}, False) for x in alive), Fraction(0)) / len(alive)
        town = alive - mafia
        return sum((go(alive - {x}, True) for x in town), Fraction(0)) / len(town)
    return go(players, first == "day")


def _enumerate_detective(n, m, first, town_gone, before):
    """Player ``n-1`` is the detective; ``known`` is what the town knows (his results)."""
    players = frozenset(range(n))
    mafia = frozenset(range(m))
    det = n - 1

    @cache
    def go(alive, checked, known, day):
        w = _won(alive, mafia, town_gone)
        if w:
            return Fraction(w == "mafia")
        if day:
            found = [x for x in alive if x in known and x in mafia]
            if found:
                return go(alive - {found[0]}, checked, known, False)
            pool = [x for x in alive if x not in known and x != det]
            return sum((go(alive - {x}, checked, known, False) for x in pool),
                       Fraction(0)) / len(pool)
        town = sorted(alive - mafia)
        total = Fraction(0)
        if before and det in alive:
            pool = [x for x in alive if x != det and x not in checked]
            for x in pool:
                for v in town:
                    after = alive - {v}
                    knows = known | {x} if v != det else known    # killed: result lost
                    total += go(after, checked | {x}, knows, True) / (len(pool) * len(town))
            return total
        for v in town:
            after = alive - {v}
            if det in after:
                pool = [x for x in after if x != det and x not in checked]
                for x in pool:
                    total += go(after, checked | {x}, known | {x}, True) / (len(pool)
                                                                            * len(town))
            else:
                total += go(after, checked, known, True) / len(town)
        return total
    return go(players, frozenset(), frozenset(), first == "day")


def _forward_counts(n, m, first, town_gone):
    """A third way: push probability forward phase by phase over the mafia count."""
    dist = {m: Fraction(1)}
    day = first == "day"
    won = Fraction(0)
    while dist:
        nxt: dict[int, Fraction] = {}
        for k, p in dist.items():
            moves = [(Fraction(k, n), k - 1), (Fraction(n - k, n), k)] if day else [(1, k)]
            for q, k2 in moves:
                if q:
                    nxt[k2] = nxt.get(k2, Fraction(0)) + p * q
        n -= 1
        dist = {}
        for k, p in nxt.items():
            if k == 0:
                continue
            if (k == n) if town_gone else (2 * k >= n):
                won += p
            else:
                dist[k] = p
        day = not day
    return won


@pytest.mark.parametrize("first", ["night", "day"])
@pytest.mark.parametrize("win", ["parity", "town_gone"])
def test_vanilla_matches_enumeration_over_named_players(first, win):
    for n in range(3, 10):
        for m in range(1, (n + 1) // 2):
            got = exact.vanilla(n, m, first, win).mafia_wins
            assert got == _enumerate_vanilla(n, m, first, win == "town_gone"), (n, m)


@pytest.mark.parametrize("first", ["night", "day"])
def test_vanilla_matches_forward_computation_up_to_200(first):
    for n, m in [(30, 1), (30, 7), (31, 14), (64, 8), (101, 10), (200, 1), (200, 14),
                 (200, 99)]:
        for win in ("parity", "town_gone"):
            assert exact.vanilla(n, m, first, win).mafia_wins == \
                _forward_counts(n, m, first, win == "town_gone"), (n, m, win)


def test_small_cases_by_hand():
    # night first, 3 players, 1 mafioso: the kill leaves 1 against 1 — parity
    assert exact.vanilla(3, 1).mafia_wins == 1
    # day first: the lynch hits the mafioso with chance 1/3, else parity
    assert exact.vanilla(3, 1, "day").mafia_wins == Fraction(2, 3)
    # 4 players night first: kill -> 3 (1 mafioso), the lynch finds him with 1/3
    assert exact.vanilla(4, 1).mafia_wins == Fraction(2, 3)
    # town_gone, day first, 3 players: a lynch of a citizen leaves 1 v 1, the night ends it
    assert exact.vanilla(3, 1, "day", "town_gone").mafia_wins == Fraction(2, 3)
    o = exact.vanilla(12, 3)
    assert o.mafia_wins + o.town_wins == 1
    assert o.as_dict()["mafia"]["fraction"] == "193/231"


@pytest.mark.parametrize("check", ["after", "before"])
@pytest.mark.parametrize("first", ["night", "day"])
def test_detective_matches_enumeration_over_named_players(check, first):
    for n in range(4, 9):
        for m in range(1, (n + 1) // 2):
            for win in ("parity", "town_gone"):
                got = exact.detective(n, m, first, win, check).mafia_wins
                want = _enumerate_detective(n, m, first, win == "town_gone", check == "before")
                assert got == want, (n, m, win)


def test_detective_helps_the_town_and_the_order_matters():
    for n, m in [(8, 2), (12, 3), (20, 4)]:
        plain = exact.vanilla(n, m).mafia_wins
        after = exact.detective(n, m, check="after").mafia_wins
        before = exact.detective(n, m, check="before").mafia_wins
        assert after < plain and before < plain
        assert after != before


def test_square_root_scaling_without_detective_fixed_fraction_with_one():
    """Braverman, Etesami & Mossel: without a detective ~sqrt(N) mafia already take the
    game over; with a detective the mafia need a share of the players."""
    m_half = [next(m for m in range(1, n) if exact.vanilla(n, m).mafia_wins >= Fraction(1, 2))
              for n in (25, 100)]
    assert m_half[1] <= 2 * m_half[0] + 1      # 4x the players, about 2x the mafia
    assert exact.detective(100, 10).mafia_wins < Fraction(1, 2) < exact.vanilla(100, 10).mafia_wins


@pytest.mark.parametrize("args, word", [((10, 5), "parity"), ((2, 1), "3 to"),
                                        ((201, 3), "3 to 200"), ((10, 0), "at least one")])
def test_bad_setups_are_refused_with_a_sentence(args, word):
    with pytest.raises(OddsError) as e:
        exact.vanilla(*args)
    assert word in e.value.en and e.value.ru
    with pytest.raises(OddsError):
        exact.vanilla(10, 2, first="evening")
    with pytest.raises(OddsError):
        exact.detective(10, 2, check="during")
