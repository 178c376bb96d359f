"""Dealing roles by a ruleset's setup table, with the engine's seeded dice."""

from __future__ import annotations

from ..engine.dice import Dice
from ..engine.errors import Refused
from ..engine.model import RulesetSpec


def role_list(rules: RulesetSpec, n: int, mafia: int | None = None) -> list[str]:
    """The roles in an ``n``-player game: every group from the table whose threshold is
    at most ``n``; a single replaces one mafioso from ``single_from`` players; the rest
    are ``fill`` (plain citizens)."""
    st = rules.setup
    lo, hi = st.get("min_players", 4), st.get("max_players", 30)
    if not lo <= n <= hi:
        raise Refused(f"Правила «{rules.id}» рассчитаны на {lo}–{hi} игроков, а не на {n}.",
                      f"Ruleset '{rules.id}' is for {lo}-{hi} players, not {n}.")
    roles: list[str] = []
    if "mafia_per" in st or mafia is not None:
        # vanilla: M mafia (given, or one per ``mafia_per`` players, at least one)
        m = mafia if mafia is not None else max(1, n // st.get("mafia_per", 4))
        if not 1 <= m < n:
            raise Refused(f"Мафии должно быть от 1 до {n - 1}, а не {m}.",
                          f"There must be 1 to {n - 1} mafia, not {m}.")
        roles += ["mafioso"] * m
    for threshold in sorted(int(k) for k in (st.get("roles") or {})):
        if threshold <= n:
            roles += st["roles"][threshold] if threshold in st["roles"] \
                else st["roles"][str(threshold)]
    single = st.get("single")
    if single and n >= st.get("single_from", 10) and "mafioso" in roles:
        roles.remove("mafioso")
        roles.append(single)
    if len(roles) > n:
        raise Refused(f"Таблица раздачи правил «{rules.id}» даёт {len(roles)} ролей на {n} "
                      f"игроков.",
                      f"Ruleset '{rules.id}' setup table gives {len(roles)} roles for {n} players.")
    roles += [st.get("fill", "civilian")] * (n - len(roles))
    return roles


def deal(rules: RulesetSpec, names: list[str], seed: int,
         mafia: int | None = None) -> list[tuple[str, str]]:
    """Seat ``names`` with a fair, seeded shuffle of ``role_list``."""
    roles = role_list(rules, len(names), mafia)
    d = Dice(seed ^ 0x5EED)
    for i in range(len(roles) - 1, 0, -1):
        j = d.below(i + 1)
        roles[i], roles[j] = roles[j], roles[i]
    return list(zip(names, roles, strict=True))
