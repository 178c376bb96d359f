"""Items and coins: inventories and purses that last over the whole game.

A player's items are the status ``items`` (a dict item id -> count) and his coins the
status ``coins`` (an int); both change only through ``status`` events, so a game replays
exactly. Rule sets give and take them with the helpers below (from their own mechanics,
hooks or day abilities) and guard moves with the constraints ``has_item`` and ``costs``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import HOST
from . import constraint, mechanic

if TYPE_CHECKING:
    from ..game import Game
    from ..state import Player


def items_of(g: Game, p: Player) -> dict:
    return dict(g.state.status_value(p, "items") or {})


def coins_of(g: Game, p: Player) -> int:
    return g.state.status_value(p, "coins", 0) or 0


def give_item(g: Game, p: Player, item: str, n: int = 1, why: str = "") -> None:
    inv = items_of(g, p)
    inv[item] = inv.get(item, 0) + n
    g.set_status(p, "items", inv)
    g.log_event("item_gained", (p.name,),
                {"to": p.name, "item": item, "n": n, "why": why})   # ``emit``, at once


def take_item(g: Game, p: Player, item: str, n: int = 1, why: str = "") -> bool:
    """Remove ``n`` of ``item``; False (and nothing changes) when he has fewer."""
    inv = items_of(g, p)
    if inv.get(item, 0) < n:
        return False
    inv[item] -= n
    if not inv[item]:
        del inv[item]
    g.set_status(p, "items", inv)
    g.log_event("item_spent", (p.name,),
                {"to": p.name, "item": item, "n": n, "why": why})   # ``emit``, at once
    return True


def add_coins(g: Game, p: Player, n: int, why: str = "") -> None:
    total = coins_of(g, p) + n
    g.set_status(p, "coins", total)
    g.log_event("coins_changed", (p.name,),
                {"to": p.name, "delta": n, "total": total, "why": why})   # ``emit``, at once


def pay(g, p, n: int, why: str = "", to=None) -> bool:
    """``p`` pays ``n`` coins (to another player if ``to``); False when he cannot."""
    if coins_of(g, p) < n:
        return False
    add_coins(g, p, -n, why)
    if to is not None:
        add_coins(g, to, n, why)
    return True


@constraint("has_item", targets=False)
def has_item(g, p, ab, ts, params):
    item = params["item"]
    if items_of(g, p).get(item, 0) < params.get("n", 1):
        return (f"«{ab.name_ru}»: для этого нужен предмет «{item}», а его нет.",
                f"'{ab.name_en}': this needs the item '{item}', which you do not have.")
    return None


@constraint("costs", targets=False)
def costs(g, p, ab, ts, params):
    n = params.get("coins", 0)
    if coins_of(g, p) < n:
        return (f"«{ab.name_ru}» стоит {n} монет, а у вас {coins_of(g, p)}.",
                f"'{ab.name_en}' costs {n} coins and you have {coins_of(g, p)}.")
    return None


@mechanic("use_item", visits=False, counts_as_out=False)
def use_item(n, actor, targets, params):
    """Spend one ``item`` (its effect is the ability's other effects)."""
    if not take_item(n.g, actor, params["item"], why="used"):
        n.g.emit("no_effect", HOST, player=actor.name, why="no_item")


@mechanic("pay_coins", visits=False, counts_as_out=False)
def pay_coins(n, actor, targets, params):
    """Pay ``coins`` (to the first target when ``to_target``)."""
    to = targets[0] if params.get("to_target") and targets else None
    if not pay(n.g, actor, params["coins"], why=params.get("why", ""), to=to):
        n.g.emit("no_effect", HOST, player=actor.name, why="no_coins")
