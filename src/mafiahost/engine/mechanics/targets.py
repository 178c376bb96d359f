"""Generic timing and target rules, shared by the rule sets (constraints by name).

``from_night: {n}`` / ``from_day: {n}`` — not before night/day ``n``;
``min_alive: {n}`` — only while at least ``n`` players are in the game;
``first_not_self`` — the first target is another player (the rest may be anyone);
``first_outside_own_faction`` — the first target is not a fellow member of one's faction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import constraint, fact

if TYPE_CHECKING:
    from ..game import Game
    from ..model import AbilitySpec
    from ..state import Player

# typed (``Game``, ``Player``, ``AbilitySpec``): the compiled code reads their fields
# directly, where untyped arguments had each field looked up by name (these are asked for
# every seat's legal moves)


@fact("game_number")
def game_number(g: Game, p: Player) -> int:
    """The day's or night's number now, a budget (it holds the numbers 0 to it): the gate
    of ``from_night`` and ``from_day``, which refuse before their ``n``."""
    return g.state.number


@fact("players_in_game")
def players_in_game(g: Game, p: Player) -> int:
    """How many players are in the game, a budget: the gate of ``min_alive``."""
    n = 0
    for q in g.state.order:
        if q.alive:
            n += 1
    return n


def _not_before_gate(params: dict) -> tuple:
    return (params.get("n", 2),)


def _not_before(g: Game, ab: AbilitySpec, params: dict, ru_word: str, en_word: str,
                prep: str = "с"):
    first = params.get("n", 2)
    if g.state.number < first:
        return (f"«{ab.name_ru}» доступна только {prep} {first}-{ru_word}.",
                f"'{ab.name_en}' is only available from {en_word} {first}.")
    return None


@constraint("from_night", targets=False, gate=("game_number", _not_before_gate), exact=True)
def from_night(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    return _not_before(g, ab, params, "й ночи", "night")


@constraint("from_day", targets=False, gate=("game_number", _not_before_gate), exact=True)
def from_day(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    return _not_before(g, ab, params, "го дня", "day", prep="со")


@constraint("min_alive", targets=False,
            gate=("players_in_game", lambda params: (params.get("n", 5),)), exact=True)
def min_alive(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    least = params.get("n", 5)
    if players_in_game(g, p) < least:
        return (f"«{ab.name_ru}»: в игре осталось меньше {least} игроков — не до этого.",
                f"'{ab.name_en}': fewer than {least} players are left.")
    return None


def _others(g: Game, p: Player, ab: AbilitySpec, names: list, params: dict) -> list:
    """``first_not_self`` of each of ``names`` as a first target, at once."""
    me = p.name
    return [n for n in names if n != me]


@constraint("first_not_self", pool=_others, position="first")
def first_not_self(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    if ts and ts[0] == p.name:
        return (f"«{ab.name_ru}»: первым нужно выбрать другого игрока.",
                f"'{ab.name_en}': the first target must be another player.")
    return None


def _outside_faction(g: Game, p: Player, ab: AbilitySpec, names: list, params: dict) -> list:
    """``first_outside_own_faction`` of each of ``names`` as a first target, at once."""
    me = p.name
    fac = p.faction
    players = g.state.players
    return [n for n in names if n == me or players[n].faction != fac]


@constraint("first_outside_own_faction", pool=_outside_faction, position="first")
def first_outside_own_faction(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    if ts and ts[0] != p.name and g.state.players[ts[0]].faction == p.faction:
        return (f"«{ab.name_ru}»: первым нужно выбрать игрока вне своей группировки.",
                f"'{ab.name_en}': the first target must be outside your own faction.")
    return None


@constraint("role_seated", targets=False)
def role_seated(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """The move exists only in a game that seats a role with the tag ``tag``, or the role
    ``role`` (the classic mafia's second shot, for the sleepwalker; mafia-yakuza's orders, for
    the killer). Judged by the seating, alive or not, so the refusal tells nobody who the
    role is or whether he lives. The answer holds while the census is unchanged (a role
    changes only with it): kept in ``State.memo`` by ability."""
    s = g.state
    key = ("role_seated", ab.key)
    hit = s.memo.get(key)
    if hit is not None and hit[0] == s.census:
        return hit[1]
    why = _role_seated(g, ab, params)
    s.memo[key] = (s.census, why)
    return why


def _role_seated(g: Game, ab: AbilitySpec, params: dict):
    roles = g.rules.roles
    if "role" in params:
        want = params["role"]
        if any(q.role == want for q in g.state.order):
            return None
        named = [roles[want]] if want in roles else []
    else:
        tag = params["tag"]
        if any(tag in roles[q.role].tags for q in g.state.order):
            return None
        named = [r for r in roles.values() if tag in r.tags]
    ru = ", ".join(f"«{r.name_ru}»" for r in named) or "нужной"
    en = ", ".join(f"'{r.name_en}'" for r in named) or "such a role"
    return (f"«{ab.name_ru}»: в этой игре нет роли {ru}, этот ход ей не нужен.",
            f"'{ab.name_en}': this game has no {en}, so the move has no use.")
