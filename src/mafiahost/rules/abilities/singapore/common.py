"""Shared by the families: constants, purses and the treasury, working items, curses, and the night
notes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from mafiahost.engine.mechanics import fact
from mafiahost.engine.mechanics.items import add_coins
from mafiahost.engine.state import Player

if TYPE_CHECKING:
    from mafiahost.engine.game import Game

CLANS: Final = ("clan_a", "clan_b")


VAMPIRES = ("vampire", "turned_vampire")


GUNS = ("kill", "cop_kill", "seek_shot", "thug_kill", "apprentice_kill", "maniac_kill",
        "silver", "suicide_curse")


SHOP: Final = {  # item: (price, stock)
    "vest": (3, 3), "poison": (3, 3), "scorpion_poison": (3, 0), "diploma": (4, 3),
    "antidote": (1, 5), "antidote_scorpion": (1, 5),
    "will": (5, 2), "trap": (6, 2), "siren": (4, 3), "rum": (2, 4), "cross": (1, 7),
    "gag": (3, 2),
    "explosive": (3, 7),   # «Покупается только фанатиком и психом» (their roles only)
    # the cards (визитки), one of each in stock (rules/abilities/singapore/cards.py)
    "card_health": (3, 1), "card_mvd": (3, 1), "card_press": (3, 1),
    "card_thief_red": (5, 1), "card_thief_green": (5, 1),
}


# «Яд гадюки или скорпиона … в продаже 3 шт.»: the two poisons share one stock of three
STOCK_OF: Final = {"scorpion_poison": "poison"}


def stock_key(item: str) -> str:
    return "stock:" + STOCK_OF.get(item, item)


# the two poisons (item ids: ``poison`` is the viper's) and the antidote that cures each;
# a vampire's venom is cured by either antidote («Противоядие от вампира и гадюки / скорпиона»)
POISON_ITEM: Final = {"viper": "poison", "scorpion": "scorpion_poison"}
ANTIDOTE_CURES = {"antidote": "viper", "antidote_scorpion": "scorpion"}


# what players read for an item (never its id)
ITEM_NAMES: Final = {
    "vest": ("Бронежилет", "Vest"), "poison": ("Яд гадюки", "Viper poison"),
    "scorpion_poison": ("Яд скорпиона", "Scorpion poison"), "diploma": ("Диплом", "Diploma"),
    "antidote": ("Противоядие от вампира и гадюки", "Antidote (vampire and viper)"),
    "antidote_scorpion": ("Противоядие от вампира и скорпиона",
                          "Antidote (vampire and scorpion)"),
    "will": ("Завещание", "Will"), "trap": ("Ловушка", "Trap"), "siren": ("Сирена", "Siren"),
    "rum": ("Бутылка рома", "A bottle of rum"), "cross": ("Освященный крест", "Holy cross"),
    "gag": ("Кляп", "Gag"), "explosive": ("Взрывчатка", "Explosives"),
    "card_health": ("Визитка министра здравоохранения", "Card of the Minister of Health"),
    "card_mvd": ("Визитка министра МВД", "Card of the Minister of the Interior"),
    "card_press": ("Визитка министра печати и туризма",
                   "Card of the Minister of Press and Tourism"),
    "card_thief_red": ("Визитка вора в законе (красная)", "Thief-in-law card (red)"),
    "card_thief_green": ("Визитка вора в законе (зелёная)", "Thief-in-law card (green)"),
}


# usable the night they are bought
NOW_ITEMS: Final = ("antidote", "antidote_scorpion", "rum", "gag")


ORDER_PRICE = {"thug": 3, "drunk": 2, "doctor": 2, "tour": 2, "lawyer": 9}


ORDER_FEE = {"thug": 2, "drunk": 2, "doctor": 2, "tour": 2, "lawyer": 9}


# moves that may reach a prisoner («кроме как допрос и убийство»; watching is not acting on him)
COPS = ("sheriff", "investigator")


# the journalist's categories («Варианты ответов»), by ability id: 1 shot «все стрелки»;
# 2 watched «свидетель, шериф, боссы, фанатик с бомбой, мирный с осиной»; 3 drank «пьяница,
# бутылка рома, отравление мафами/нейтралами» (the vampire's venom is a neutral's poisoning);
# 4 stayed «врач, вор, тур, священник, вампир, перекупщик, вербовщик, вербуемый, ведьма,
# гримёр»; 5 blew «псих, фанатик» (from the night's blasts, see night._reports); 6 hindered
# «сирена, ловушка» (the night's caught). Moves the list does not name give no fact.
CATEGORY = {
    "kill": "shot", "silver": "shot",
    "seek": "watched", "watch": "watched", "hunt_priest": "watched", "stake": "watched",
    "drink": "drank", "drink_confession": "drank", "rum": "drank", "poison": "drank",
    "poison_scorpion": "drank", "bite_venom": "drank",
    "heal": "stayed", "bandage": "stayed", "steal": "stayed", "excursion": "stayed",
    "tour": "stayed", "confess": "stayed", "bite_blood": "stayed", "bite_turn": "stayed",
    "deliver": "stayed", "deliver_fake": "stayed", "recruit": "stayed", "disguise": "stayed",
    "blast": "blew",
}
CATEGORY.update({"curse_" + k: "stayed" for k in (
    "suicide", "berserk", "bloodlust", "veil", "silence", "panic", "fear", "impotence",
    "holiness")})


def since_event(g: Game, key: str) -> Any:
    """What ``keep_since_event`` kept under ``key`` if no event has come since (None
    else): an answer that may change with any event (tonight's moves sent, withdrawn, a
    prisoner freed), found once for all the players' checks between two events. Kept in
    ``State.memo`` by the number of events and the phase (a game that keeps no log of the
    phases past, balance's ``LeanGame``, shortens it as a phase starts, so the count
    alone could come back)."""
    s = g.state
    hit = s.memo.get(key)
    if hit is not None and hit[0] == len(g.events) and hit[1][0] == s.idx:
        return hit[1][1]
    return None


def keep_since_event(g: Game, key: str, value: Any) -> None:
    """Keep ``value`` under ``key`` until the next event (``since_event``)."""
    s = g.state
    s.memo[key] = (len(g.events), (s.idx, value))


def counter(g: Game, key: str, default: Any = None) -> Any:
    return g.state.counters.get(key, default)


def set_counter(g: Game, key: str, value: Any) -> None:
    g.set_counter(key, value)       # ``emit("counter", HOST, key=key, value=value)``


_TREASURY: Final = {clan: "treasury:" + clan for clan in CLANS}


def purse(g: Game, p: Player) -> int:
    """A clan member's purse is his clan's treasury; anyone else's, his own coins
    (``coins_of``, read here straight from the status)."""
    key = _TREASURY.get(p.faction)
    if key is not None:
        c: Any = g.state.counters.get(key, 0)
        return c
    v = p.st.get("coins")
    if v is not None and v[0] >= g.state.idx:
        coins: Any = v[1] or 0
        return coins
    return 0


def earn(g: Game, p: Player, n: int, why: str) -> None:
    """Income: a clan member's goes to the treasury; remembered per member (succession).
    The psycho «денег не зарабатывает»: he earns nothing (he still pays)."""
    if n > 0 and p.role == "psycho":
        return
    if p.faction in CLANS:
        key = "treasury:" + p.faction
        total = counter(g, key, 0) + n
        set_counter(g, key, total)
        # the apprentice «не знает свой клан»: not told of the treasury
        members = [m for m in g.faction_members(p.faction) if not m.role.startswith("apprentice")]
        g.log_event("treasury_changed", g.to(*members),   # ``emit``, at once
                    {"clan": p.faction, "delta": n, "total": total, "why": why, "by": p.name})
        g.set_status(p, "earned", g.state.status_value(p, "earned", 0) + n)
    else:
        add_coins(g, p, n, why)


def spend(g: Game, p: Player, n: int, why: str, to: Player | None = None) -> bool:
    if purse(g, p) < n:
        return False
    earn(g, p, -n, why)
    if p.faction in CLANS:
        g.set_status(p, "earned", g.state.status_value(p, "earned", 0) + n)  # spending is not
    if to is not None:
        earn(g, to, n, why)
    return True


def usable(g: Game, p: Player, item: str) -> int:
    """How many of ``item`` work now: not bought tonight (unless NOW_ITEMS), not the
    reseller's fakes, and never under the curse of holiness (святость), never in jail
    («сидит в тюрьме без вещей»). (The statuses are read straight from ``p.st``, as
    ``State.status_value`` reads them: one who holds none of ``item`` is answered first.)"""
    st = p.st
    idx = g.state.idx
    v = st.get("items")
    if v is None or v[0] < idx:
        return 0
    have = v[1].get(item, 0) if v[1] else 0
    if have <= 0:
        return 0
    v = st.get("jailed")
    if v is not None and v[0] >= idx:
        return 0
    if cursed(g, p) == "holiness":
        return 0
    v = st.get("fakes")      # the reseller's fakes never work
    if v is not None and v[0] >= idx and v[1]:
        have = max(0, have - v[1].get(item, 0))
    if item in NOW_ITEMS:
        return have
    v = st.get("fresh")
    fresh = v[1] if v is not None and v[0] >= idx else None
    return max(0, have - fresh.get(item, 0)) if fresh else have


def cursed(g: Game, p: Player) -> Any:
    """The curse on ``p`` now, or None; curses end when the witch is gone."""
    v = p.st.get("curse")
    if v is None:
        return None
    s = g.state
    c = v[1] if v[0] >= s.idx else None
    if not c:
        return None
    witch = s.players.get(c[1])
    if witch is None or not witch.alive:
        return None
    return c[0]


# ---- the facts the constraints' gates read (``mechanics.constraint``): each a superset of
# what the constraint itself asks, found once for all of a player's abilities

_NOW_BUYS: Final = {"buy_" + item: item for item in NOW_ITEMS}


@fact("singapore_items")
def items_fact(g: Game, p: Player) -> set:
    """The items ``p`` holds now, and those of NOW_ITEMS he is buying tonight: every item
    ``usable`` may count, or ``has_usable_item`` may take as bought when it is used."""
    s = g.state
    v = p.st.get("items")
    held = {k for k, n in v[1].items() if n > 0} if v is not None and v[0] >= s.idx \
        and v[1] else set()
    if s.pending:
        abilities = g.rules.abilities
        me = p.name
        for a in s.pending:
            if a.actor == me:
                item = _NOW_BUYS.get(abilities[a.ability].id)
                if item is not None:
                    held.add(item)
    return held


@fact("singapore_purse")
def purse_fact(g: Game, p: Player) -> int:
    """The prices ``p`` can pay now: 0 to his purse (``purse``), a budget."""
    return max(purse(g, p), -1)


@fact("singapore_resell_budget")
def resell_budget_fact(g: Game, p: Player) -> int:
    """The prices ``p`` can pay the reseller now (a budget): none while no reseller
    lives."""
    if not g.state.alive_by_role.get("reseller"):
        return -1
    return max(purse(g, p), -1)


@fact("singapore_curse")
def curse_fact(g: Game, p: Player) -> tuple:
    """The curse on ``p`` now (``cursed``; None for none)."""
    return (cursed(g, p),)


@fact("singapore_not_town")
def not_town_fact(g: Game, p: Player) -> tuple:
    """(True,) unless ``p``'s faction is of the town's side."""
    return () if g.rules.factions[p.faction].side == "town" else (True,)


def price_gate(price):
    """A gate's values for a price: itself (a whole number of coins, not below 0)."""
    return (price,) if isinstance(price, int) and not isinstance(price, bool) \
        and price >= 0 else None


def berserk_unbound(g: Game, p: Player) -> bool:
    """Cursed with berserk and the curse lifts his role's limits on killing (the maniac's
    right guess, the apprentice's task): option ``berserk_limits: waived``, the default."""
    return cursed(g, p) == "berserk" and \
        g.rules.options.get("berserk_limits", "waived") == "waived"


def is_clan(p: Player) -> bool:
    return p.faction in CLANS


@dataclass
class Notes:
    """What tonight's moves tell the dawn (``n.notes(Notes)``; see ``engine.notes``)."""

    poisons: list[tuple[Player, Player, str]] = field(default_factory=list)  # by, victim, kind
    healers: list[tuple[Player, Player, int]] = field(default_factory=list)  # doctor, patient, fee
    bandages: list[tuple[Player, Player]] = field(default_factory=list)  # (doctor, patient)
    covers: list[tuple[Player, Player]] = field(default_factory=list)    # a harmful visit stopped
    recruited: dict[str, list[str]] = field(default_factory=dict)        # invited -> clans
    recruiters: dict[tuple[str, str], str] = field(default_factory=dict)  # (invited, clan) -> by
    stakes: dict[str, list[Player]] = field(default_factory=dict)        # vampire -> hunters
    stake_kills: dict[str, list[Player]] = field(default_factory=dict)   # killed -> hunters
    witness: list[tuple[Player, Player]] = field(default_factory=list)   # (witness, watched)
    journal: list[tuple[Player, Player]] = field(default_factory=list)   # (journalist, watched)
    caught: set[str] = field(default_factory=set)   # caught by a trap or siren (journalist's 6)
    drunk_ordered: bool = False                                          # the drunk took an order
    early: set[tuple[str, str]] = field(default_factory=set)   # (buyer, item) bought when used
