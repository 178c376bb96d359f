"""Economy and the shop: the start (treasuries, stock), buying, items used the night they are
bought, day orders and what they pay, diplomas and wills.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Final

from mafiahost.engine.events import HOST
from mafiahost.engine.mechanics import constraint, fact, hook, mechanic
from mafiahost.engine.mechanics.items import give_item, take_item

from .common import (
    ANTIDOTE_CURES,
    CLANS,
    ITEM_NAMES,
    NOW_ITEMS,
    ORDER_FEE,
    ORDER_PRICE,
    POISON_ITEM,
    SHOP,
    STOCK_OF,
    Notes,
    counter,
    cursed,
    earn,
    is_clan,
    keep_since_event,
    price_gate,
    purse,
    set_counter,
    since_event,
    spend,
    stock_key,
    usable,
)

if TYPE_CHECKING:
    from mafiahost.engine.game import Game
    from mafiahost.engine.model import AbilitySpec
    from mafiahost.engine.state import Action, Player


@hook("night_open", "singapore_open")
def singapore_open(g: Game, params: dict):
    """Night 1: the clans' treasuries (18) and poison (1), the shop's stock."""
    if counter(g, "singapore_init"):
        return
    set_counter(g, "singapore_init", True)
    for clan in CLANS:
        if g.faction_members(clan):
            set_counter(g, "treasury:" + clan, params.get("treasury", 18))
            set_counter(g, "poison:" + clan, 1)
    for item, (_price, stock) in SHOP.items():
        if item not in STOCK_OF:
            set_counter(g, "stock:" + item, stock)


def _price(params: dict) -> int:
    item: Any = params.get("item")
    if item:
        return SHOP[item][0]
    coins: Any = params.get("coins")
    if coins:
        return coins
    service: Any = params.get("service")
    return ORDER_PRICE.get(service, 0)


@constraint("singapore_can_pay", targets=False, exact=True,
            gate=("singapore_purse", lambda params: price_gate(_price(params))))
def can_pay(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    price = _price(params)
    have = purse(g, p)
    if have < price:
        return (f"«{ab.name_ru}» стоит {price} мон., а у вас {have}.",
                f"'{ab.name_en}' costs {price} coins and you have {have}.")
    return None


# (Final: the compiled module reads each as a static, not from its globals by name)
_STOCK_KEY: Final[dict[str, str]] = {item: stock_key(item) for item in SHOP}

# a purchase's id -> the stock it draws on (the two poisons share one)
_STOCK_OF_BUY: Final[dict[str, str]] = {"buy_" + item: stock_key(item) for item in SHOP}


def _held_by_free(g: Game, actions: list[Action]) -> dict[str, int]:
    """How many of ``actions`` are purchases by players neither in jail nor freed from it
    tonight, by the stock they draw on (a prisoner's is made only if the lawyer frees him:
    «сидит в тюрьме без вещей»; it holds no stock)."""
    s = g.state
    abilities = g.rules.abilities
    players = s.players
    held: dict[str, int] = {}
    stock_of_buy = _STOCK_OF_BUY
    for a in actions:
        key = stock_of_buy.get(abilities[a.ability].id)
        if key is not None:
            actor = players[a.actor]
            if not s.has(actor, "jailed") and not s.has(actor, "freed_now"):
                held[key] = held.get(key, 0) + 1
    return held


def _stock_gate(params: dict):
    """``in_stock``'s gate values: the item, marked when the town may not buy it (None,
    no gate, for an item the shop does not list)."""
    item: Any = params.get("item")
    if item not in SHOP:
        return None
    return (item + "/not_town" if params.get("not_town") else item,)


# a value ``Stock`` may hold -> (the item, not for the town): each item of the shop, and
# "<item>/not_town"
_GATE_VALUES: Final[dict[str, tuple[str, bool]]] = {
    **{item: (item, False) for item in SHOP}, **{item + "/not_town": (item, True) for item in SHOP}}


_HELD_KEY: Final = "singapore_held_by_free"     # ``Stock.left``'s entry in ``State.memo``


class Stock:
    """What a player may buy from the shop now (``stock_fact``, and ``in_stock`` itself):
    an item is in it while stock is left after tonight's purchases sent by free players
    (``left``), and ``"<item>/not_town"`` too when the player is not of the town. Asked
    item by item (``in``), it counts tonight's purchases once, and only when the stock is
    no more than tonight's moves; iterating lists them all (for the tests)."""

    def __init__(self, g: Game, p: Player) -> None:
        self.g = g
        self.town: bool = g.rules.factions[p.faction].side == "town"
        self.held: dict[str, int] | None = None     # tonight's purchases by stock

    def left(self, item: str) -> bool:
        """Is any of ``item`` left for a purchase now?"""
        s = self.g.state
        key = _STOCK_KEY.get(item) or stock_key(item)
        got: Any = s.counters.get(key, 0)
        stock: int = got if isinstance(got, int) else 0     # compared natively
        if stock <= 0:
            return False
        pending = s.pending
        if not pending or stock > len(pending):     # more in stock than moves: some is left
            return True
        held = self.held
        if held is None:
            # tonight's purchases change only with an event: counted once for all the
            # players' stock facts between two events
            g = self.g
            kept: dict[str, int] | None = since_event(g, _HELD_KEY)
            if kept is None:
                kept = _held_by_free(g, pending)
                keep_since_event(g, _HELD_KEY, kept)
            self.held = held = kept
        taken: int = held.get(key, 0)
        return stock - taken > 0

    def __contains__(self, value: object) -> bool:
        v = _GATE_VALUES.get(value) if isinstance(value, str) else None
        if v is None or v[1] and self.town:
            return False
        return self.left(v[0])

    def __iter__(self) -> Iterator[str]:
        out = []
        for item in SHOP:
            if self.left(item):
                out.append(item)
                if not self.town:
                    out.append(item + "/not_town")
        return iter(out)


@fact("singapore_stock")
def stock_fact(g: Game, p: Player) -> Stock:
    """What ``p`` may buy from the shop now (``Stock``): one count of tonight's purchases
    for all his purchase abilities, instead of one per ability."""
    return Stock(g, p)


@constraint("singapore_in_stock", targets=False, exact=True,
            gate=("singapore_stock", _stock_gate))
def in_stock(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    item: str = params["item"]
    stock = Stock(g, p)
    if not stock.left(item):
        ru, en = ITEM_NAMES.get(item, (item, item))
        return (f"В магазине больше нет товара «{ru}».", f"The shop is out of '{en}'.")
    if params.get("not_town") and stock.town:
        ru, en = ITEM_NAMES.get(item, (item, item))
        return (f"Мирные не покупают «{ru}».", f"The town cannot buy '{en}'.")
    return None


def _buying_tonight(g: Game, p: Player, item: str) -> bool:
    """A purchase of ``item`` sent by ``p`` this night (the shop's move)."""
    pending = g.state.pending
    if not pending:
        return False
    abilities = g.rules.abilities
    me = p.name
    want = "buy_" + item
    for a in pending:
        if a.actor == me and abilities[a.ability].id == want:
            return True
    return False


@constraint("singapore_has_item", targets=False,
            gate=("singapore_items", lambda params: (params["item"],)))
def has_usable_item(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    item: str = params["item"]
    if usable(g, p, item) >= 1:
        return None
    if item in NOW_ITEMS and _buying_tonight(g, p, item) and cursed(g, p) != "holiness":
        return None     # «можно использовать в ночь покупки»: bought when it is used
    ru, en = ITEM_NAMES.get(item, (item, item))
    return (f"«{ab.name_ru}»: нет действующего предмета «{ru}» (купленные этой ночью "
            f"вещи действуют со следующей ночи).",
            f"'{ab.name_en}': no working '{en}' (items bought tonight work from the "
            f"next night).")


@constraint("singapore_ordered")
def ordered(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """The thug kills only on order (a target someone ordered for tonight) unless no mafia
    is left in the game."""
    if not any(q.alive and is_clan(q) for q in g.state.order) or cursed(g, p) == "berserk":
        return None     # no mafia left; or the berserk curse («может стрелять без заказа»)
    if not any(o[2] == ts[0] for o in _orders(g, params.get("service", "thug"))):
        return ("Погромщик убивает только по заказу: эту цель никто не заказал.",
                "The thug kills only on order: nobody ordered this target.")
    return None


@constraint("singapore_thug_customer", targets=False, listed=True,
            gate=("singapore_not_town", lambda params: (True,)))
def thug_customer(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    if g.rules.factions[p.faction].side == "town":
        return ("Погромщику заказывают только мафия и нейтральные персонажи.",
                "Only the mafia and neutral characters order the thug.")
    return None


def use_now_item(n, actor, item) -> bool:
    """Use one ``item`` (of NOW_ITEMS) tonight: one he has, or the one he is buying tonight
    («кроме противоядия, бутылки рома и кляпа, которые можно использовать в ночь
    покупки»): that purchase is made now, and the shop's move later does not buy again."""
    g: Game = n.g
    if take_item(g, actor, item, why="used"):
        return True
    if not _buying_tonight(g, actor, item) or (actor.name, item) in n.notes(Notes).early:
        return False
    if not _purchase(g, actor, item):
        g.emit("no_effect", HOST, player=actor.name, ability="buy_" + item, why="shop")
        return False
    n.notes(Notes).early.add((actor.name, item))
    return True


@mechanic("singapore_antidote", visits=False, counts_as_out=False)
def antidote(n, actor: Player, targets, params: dict):
    """Self-cure: the poison this antidote is for (viper or scorpion), or a vampire's
    venom, due tonight does not kill; the other poison's antidote is used up in vain."""
    item = params.get("item", "antidote")
    if not use_now_item(n, actor, item):
        return
    kind = n.g.state.status_value(actor, "poison_kind")
    if kind not in (ANTIDOTE_CURES[item], "venom"):
        n.g.emit("no_effect", HOST, player=actor.name, ability=item, why="wrong_antidote")
        return
    n.heals.setdefault(actor.name, []).append((actor, {"against": ["delayed"]}))


@mechanic("singapore_rum")
def rum(n, actor: Player, targets, params: dict):
    """A bottle of rum: the companion's vote does not count next day."""
    if not use_now_item(n, actor, "rum"):
        return
    n.g.set_status(targets[0], "vote_void", "rum", until=n.idx + 1)


@mechanic("singapore_buy", visits=False, counts_as_out=False)
def buy(n, actor: Player, targets, params: dict) -> None:
    """The shop: pay the price, take one from the stock; a clan buys poison for the clan.
    Items work from the next night (antidote and rum at once)."""
    g: Game = n.g
    item: str = params["item"]
    if (actor.name, item) in n.notes(Notes).early:
        return          # bought earlier tonight, when it was used
    if g.state.has(actor, "freed_now") and n.current is not None:
        # freed by the lawyer tonight: his purchase, sent from jail, held no stock; it
        # yields to the free players' purchases still to be made tonight
        pending = g.state.pending
        later = pending[pending.index(n.current) + 1:] if n.current in pending else []
        if counter(g, stock_key(item), 0) - \
                _held_by_free(g, later).get(stock_key(item), 0) <= 0:
            g.emit("no_effect", HOST, player=actor.name, ability="buy_" + item, why="shop")
            return
    if not _purchase(g, actor, item):
        g.emit("no_effect", HOST, player=actor.name, ability="buy_" + item, why="shop")
        return
    if item in POISON_ITEM.values() and is_clan(actor):
        return
    fresh = dict(g.state.status_value(actor, "fresh") or {})
    fresh[item] = fresh.get(item, 0) + 1
    g.set_status(actor, "fresh", fresh, until=g.state.idx)


_POISON_KIND: Final = {v: k for k, v in POISON_ITEM.items()}   # item -> poison kind


def _purchase(g: Game, actor: Player, item: str) -> bool:
    """Pay and take one ``item`` from the stock (a clan's poison goes to the clan)."""
    stock = counter(g, stock_key(item), 0)
    if stock <= 0 or not spend(g, actor, SHOP[item][0], "shop:" + item):
        return False
    set_counter(g, stock_key(item), stock - 1)
    kind = _POISON_KIND.get(item)
    if kind and is_clan(actor):
        key = f"poison:{actor.faction}:{kind}"
        set_counter(g, key, counter(g, key, 0) + 1)
    else:
        give_item(g, actor, item, why="shop")
    return True


def _orders(g: Game, service: str) -> list:
    number = g.state.number
    return [o for o in counter(g, "orders", ()) if o[0] == service and o[3] == number]


def _take_order(n, actor, service, t) -> bool:
    """The provider took an order for ``t``: the customer pays, the provider is paid."""
    g: Game = n.g
    orders = list(counter(g, "orders", ()))
    for i, o in enumerate(orders):
        if o[0] == service and o[2] == t.name and o[3] == n.s.number:
            cust = g.state.players[o[1]]
            del orders[i]
            set_counter(g, "orders", orders)
            if spend(g, cust, ORDER_PRICE[service], "order:" + service):
                earn(g, actor, ORDER_FEE[service], "order:" + service)
                g.emit("order_taken", g.to(actor, cust), service=service, customer=cust.name,
                       target=t.name, to=actor.name)
                return True
            g.emit("no_effect", HOST, player=cust.name, why="cannot_pay")
            return False
    return False


@mechanic("singapore_order", visits=False)
def order(dc, actor: Player, targets, params: dict) -> None:
    """A day order (to the thug, the drunk, the doctor, the tour operator) for tonight;
    paid when the provider takes it."""
    g: Game = dc.g
    if g.state.status_value(actor, "vote_void") == "rum":
        g.emit("no_effect", HOST, player=actor.name, why="rum")
        return
    number = g.state.number
    # the orders still due (for a night after today), in a new list for the new event. The
    # list is in the order placed, so by night (each is placed for the night after its day,
    # and ``_take_order`` only deletes): when its first is due, all are, and it is copied
    # whole instead of tested order by order (most of a day's orders find it so)
    old: Any = counter(g, "orders", ())
    if not old or old[0][3] > number:
        orders = list(old)
    else:
        orders = [o for o in old if o[3] > number]
    orders.append([params["service"], actor.name, targets[0].name, number + 1])
    set_counter(g, "orders", orders)
    g.log_event("order_placed", HOST, {"service": params["service"], "customer": actor.name,
                                       "target": targets[0].name})


@mechanic("singapore_diploma", visits=False)
def diploma(dc, actor: Player, targets, params: dict):
    """A diploma: the vote counts twice today (once a game per diploma)."""
    g: Game = dc.g
    if take_item(g, actor, "diploma", why="used"):
        dc.weights[actor.name] = 2


@mechanic("singapore_will", visits=False)
def will(dc, actor: Player, targets, params: dict):
    """Write the will: if the writer is killed, the named is jailed next morning."""
    g: Game = dc.g
    g.set_status(actor, "will", targets[0].name)


@constraint("singapore_will_fixed", targets=False, listed=True)
def will_fixed(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    name = g.state.status_value(p, "will")
    if name and g.state.players[name].alive:
        return (f"В завещании уже вписано имя «{name}»: его нельзя менять, пока этот игрок в игре.",
                f"The will already names '{name}': it cannot change before that player is out.")
    return None


def _spring(n, owner, item, caught, placed=False) -> None:
    """``caught`` pass through ``owner``'s door at one moment: a trap or siren blocks them; a
    trap also takes their next night's move and voids their next day's vote."""
    g: Game = n.g
    if placed:
        g.clear_status(owner, "door_device")
    else:
        take_item(g, owner, item, why="sprung")
    for c in caught:
        n.block(c, owner)
        n.notes(Notes).caught.add(c.name)
        g.emit("caught", g.to(c, owner), to=c.name, item=item, owner=owner.name)
        if item == "trap":
            g.set_status(c, "vote_void", "trap", until=n.idx + 1)
            g.set_status(c, "no_action", True, until=n.idx + 2)


def _door_passers(g: Game, owner: Player, after: int) -> tuple[int, list]:
    """Who passes through ``owner``'s door first after step index ``after``, for a trap or siren
    the thug set there («попадет тот кто первым будет проходить через дверь включая хозяина
    помещения или тех кто ходит утром/вечером»): visitors of the owner and the owner going out
    to someone else, at any part of the night."""
    s = g.state
    idx = g.rules.step_index
    abilities = g.rules.abilities
    passes = []
    for a in s.pending:
        i = idx[abilities[a.ability].step]
        if i <= after or not a.targets:
            continue
        if (a.targets[0] == owner.name) != (a.actor == owner.name):
            passes.append((i, s.players[a.actor]))
    if not passes:
        return -1, []
    when = min(i for i, _ in passes)
    return when, list(dict.fromkeys(p for i, p in passes if i == when))


def _trashed_at(g: Game) -> dict[str, int]:
    """The step index of the first thug's trashing of each room sent for tonight, by the
    room's owner: one pass over tonight's moves for all the owners, not one per owner."""
    idx = g.rules.step_index
    abilities = g.rules.abilities
    out: dict[str, int] = {}
    for a in g.state.pending:
        ab = abilities[a.ability]
        if ab.id in ("trash", "trash_move") and a.targets:
            owner = a.targets[0]
            i = idx[ab.step]
            first = out.get(owner)
            if first is None or i < first:
                out[owner] = i
    return out


@hook("night_start", "singapore_doors")
def doors(n, params: dict) -> None:
    """Traps and sirens: the first night-part visitors of the owner (the earliest step with
    visitors) are caught; evening and morning visitors are not. A trap or siren the thug set
    at a door catches the first to pass through it, the owner and evening / morning moves
    included."""
    g: Game = n.g
    s = n.s
    abilities = g.rules.abilities
    idx = g.rules.step_index
    first_night = idx.get(params.get("night_from", "n01_vampire"), 0)
    last_night = idx.get(params.get("night_to", "n15_witch"), len(idx))
    # the thug takes a trap or siren away first (evening); springing one moves nobody's move
    trashed_at = _trashed_at(g)
    for p in s.order:
        if not p.alive:
            continue
        trashed = trashed_at.get(p.name)
        placed = s.status_value(p, "door_device")
        if placed:
            when, caught = _door_passers(g, p, -1)
            if caught and (trashed is None or when < trashed):
                _spring(n, p, placed["item"], caught, placed=True)
            continue
        if trashed is not None and trashed < first_night:
            continue
        for item in ("trap", "siren"):
            if not usable(g, p, item):
                continue
            visits = [(idx[abilities[a.ability].step], a) for a in s.pending
                      if a.targets and a.targets[0] == p.name and a.actor != p.name
                      and first_night <= idx[abilities[a.ability].step] <= last_night]
            if not visits:
                continue
            when = min(v[0] for v in visits)
            _spring(n, p, item, [s.players[a.actor] for i, a in visits if i == when])
            break


@mechanic("singapore_trash")
def trash(n, actor: Player, targets, params: dict):
    """The thug trashes a room (evening): takes away the trap or siren set at that door (one
    the owner installed, or one set there before); with a second name he sets it at that
    door (not his own), where it catches the first to pass through from now on."""
    g: Game = n.g
    room = targets[0]
    placed = g.state.status_value(room, "door_device")
    item = None
    if placed:
        item = placed["item"]
        g.clear_status(room, "door_device")
    else:
        for it in ("trap", "siren"):
            if usable(g, room, it):
                take_item(g, room, it, why="trashed")
                item = it
                break
    if item is None:
        g.emit("trashed", g.to(actor), to=actor.name, room=room.name, item=None)
        return
    g.emit("trashed", g.to(actor), to=actor.name, room=room.name, item=item)
    if len(targets) < 2:
        return
    door = targets[1]
    g.set_status(door, "door_device", {"item": item, "by": actor.name})
    g.emit("device_set", HOST, player=door.name, item=item, by=actor.name)
    step = n.step.id if n.step is not None else "e5_trash"
    _when, caught = _door_passers(g, door, g.rules.step_index[step])
    if caught:
        _spring(n, door, item, caught, placed=True)
