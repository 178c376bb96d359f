"""The reseller (II 3.6): «Перекупщик. Доставляет заказчику вещи из магазина по завышенной цене,
знает кто и что заказал, за одну ночь может доставить только 1 вещь. Если заказов несколько -
сам делает выбор, заказ перекупщику - дневной ход, вещи доставляются на следующее утро, если
вещь не доставлена нужно делать новый заказ. Цена вещей у перекупщика на 2 монеты выше, но
если претендентов на вещь несколько, то сначала покупает перекупщик. Один раз за игру может
отдать заказчику подделку, такая вещь не выполнит свою функцию когда придет время.»

Orders are the counter ``resell_orders`` ([customer, item, night]); a delivery is the
reseller's move at the morning step before the shop's (so he buys first); a fake is counted in
the customer's hidden status ``fakes`` and never works (``common.usable``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mafiahost.engine.events import HOST
from mafiahost.engine.mechanics import constraint, mechanic
from mafiahost.engine.mechanics.items import give_item

from .common import (
    ITEM_NAMES,
    POISON_ITEM,
    SHOP,
    counter,
    is_clan,
    price_gate,
    purse,
    set_counter,
    spend,
)
from .economy import _purchase

if TYPE_CHECKING:
    from mafiahost.engine.game import Game
    from mafiahost.engine.model import AbilitySpec
    from mafiahost.engine.state import Player

EXTRA = 2      # «Цена вещей у перекупщика на 2 монеты выше»; «Заработок за заказ - 2 монеты»


def _resellers(g):
    return [q for q in g.state.order if q.alive and q.role == "reseller"]


def _orders(g, night: int):
    return [o for o in counter(g, "resell_orders", ()) if o[2] == night]


_POISONS = frozenset(POISON_ITEM.values())


@constraint("singapore_resell_order_ok", targets=False,
            gate=("singapore_resell_budget",
                  lambda params: price_gate(SHOP[params["item"]][0] + EXTRA)))
def resell_order_ok(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    if not g.state.alive_by_role.get("reseller"):     # no living reseller (kept counts)
        return ("Перекупщика в игре нет: заказывать некому.",
                "There is no reseller in the game to order from.")
    item = params["item"]
    if item in _POISONS and g.rules.factions[p.faction].side == "town":
        ru, en = ITEM_NAMES[item]
        return (f"Мирные не покупают «{ru}».", f"The town cannot buy '{en}'.")
    price = SHOP[item][0] + EXTRA
    have = purse(g, p)
    if have < price:
        ru, en = ITEM_NAMES[item]
        return (f"«{ru}» у перекупщика стоит {price} мон., а у вас {have}.",
                f"'{en}' costs {price} coins at the reseller's and you have {have}.")
    return None


@mechanic("singapore_resell_order", visits=False)
def resell_order(dc, actor: Player, targets, params: dict):
    """A day order to the reseller, for delivery the next morning; every reseller learns
    who ordered what. Older orders lapse («если вещь не доставлена нужно делать новый
    заказ»)."""
    g: Game = dc.g
    night = g.state.number + 1
    orders = [o for o in counter(g, "resell_orders", ()) if o[2] >= night and o[0] != actor.name]
    orders.append([actor.name, params["item"], night])
    set_counter(g, "resell_orders", orders)
    for r in _resellers(g):
        g.emit("resell_ordered", g.to(r), to=r.name, customer=actor.name, item=params["item"])


@constraint("singapore_resell_customer")
def resell_customer(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    if ts and not any(o[0] == ts[0] for o in _orders(g, g.state.number)):
        return (f"Игрок {g.display(ts[0])} ничего не заказывал у перекупщика на эту ночь.",
                f"{g.display(ts[0])} ordered nothing from the reseller for tonight.")
    if ts and params.get("fake"):
        item = next((o[1] for o in _orders(g, g.state.number) if o[0] == ts[0]), None)
        if item in POISON_ITEM.values() and is_clan(g.state.players[ts[0]]):
            return ("Подделку яда клану не отдать: яд клана общий (отдайте настоящий).",
                    "A fake poison cannot go to a clan: its poison is shared (deliver a real "
                    "one).")
    return None


@mechanic("singapore_deliver", visits=True)
def deliver(n, actor: Player, targets, params: dict):
    """The reseller delivers the customer's order: the customer pays the shop's price + 2
    (the 2 to the reseller); the item is taken from the shop's stock before the shop's other
    buyers. A fake is not from the shop: the whole price goes to the reseller, and the item
    never works."""
    g: Game = n.g
    cust = targets[0]
    order = next((o for o in _orders(g, n.s.number) if o[0] == cust.name), None)
    if order is None:
        return
    item = order[1]
    price = SHOP[item][0]
    orders = [o for o in counter(g, "resell_orders", ()) if o != order]
    set_counter(g, "resell_orders", orders)
    if purse(g, cust) < price + EXTRA:
        g.emit("no_effect", HOST, player=actor.name, ability="deliver", why="cannot_pay")
        return
    if params.get("fake"):
        spend(g, cust, price + EXTRA, "reseller", to=actor)
        give_item(g, cust, item, why="reseller")
        fakes = dict(g.state.status_value(cust, "fakes") or {})
        fakes[item] = fakes.get(item, 0) + 1
        g.set_status(cust, "fakes", fakes)
    else:
        if not _purchase(g, cust, item):
            g.emit("no_effect", HOST, player=actor.name, ability="deliver", why="shop")
            return
        spend(g, cust, EXTRA, "reseller", to=actor)
    if not (item in POISON_ITEM.values() and is_clan(cust)):
        fresh = dict(g.state.status_value(cust, "fresh") or {})
        fresh[item] = fresh.get(item, 0) + 1
        g.set_status(cust, "fresh", fresh, until=g.state.idx)
    g.emit("delivered", g.to(cust), to=cust.name, item=item)
