"""Neutrals: vampires and stakes, the tour operator, the make-up artist, the thief, the maniac."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mafiahost.engine.events import HOST, PUBLIC
from mafiahost.engine.mechanics import constraint, mechanic
from mafiahost.engine.mechanics.items import add_coins, coins_of, items_of, take_item

from .clans import give_poison
from .common import VAMPIRES, Notes, counter, earn, is_clan, set_counter, usable
from .economy import _take_order

if TYPE_CHECKING:
    from mafiahost.engine.game import Game
    from mafiahost.engine.model import AbilitySpec
    from mafiahost.engine.state import Player


@constraint("singapore_makeup_not_self", position="first")
def makeup_not_self(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """«Не может переводить действия с себя, но может переводить на себя»."""
    if ts and ts[0] == p.name:
        return ("Гримёр не может переводить действия с себя (но может — на себя): первым "
                "выберите другого игрока.",
                "The make-up artist cannot move actions off themselves (only onto themselves): "
                "choose another player first.")
    return None


@mechanic("singapore_bite")
def bite(n, actor: Player, targets, params: dict):
    """A vampire's bite: drink blood (the vote does not count next day, the victim is not
    told), inject venom (dies next night unless cured), or turn (the third bite); a vampire
    bitten is not bitten and the biter learns it."""
    g: Game = n.g
    t = targets[0]
    how = params["how"]
    if t.role in VAMPIRES:
        g.emit("check_result", g.to(actor), to=actor.name, target=t.name, result="vampire")
        return
    bites = g.state.status_value(t, "bites", 0) + 1
    g.set_status(t, "bites", bites)
    g.recheck_victory()     # the true vampire's win counts the bitten (victory.py)
    if how == "blood":
        g.set_status(t, "vote_void", "blood", until=n.idx + 1)
    elif how == "venom":
        give_poison(n, actor, t)
    elif how == "turn":
        if t.role == "priest":
            g.emit("no_effect", HOST, player=actor.name, ability="bite_turn", why="priest")
            return
        if usable(g, t, "cross"):
            take_item(g, t, "cross", why="turn")
            g.emit("no_effect", HOST, player=actor.name, ability="bite_turn", why="cross")
            return
        g.set_status(t, "was", [t.role, t.faction])
        g.emit("role_changed", g.to(t), player=t.name, role="turned_vampire", was=t.role)
        g.emit("faction_changed", g.to(t), player=t.name, faction="vampires")
        g.emit("turned", g.to(actor, t), player=t.name, to=t.name)
        earn(g, actor, 2, "turned")


@constraint("singapore_third_bite")
def third_bite(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    if ts and g.state.status_value(g.state.players[ts[0]], "bites", 0) < 2:
        return ("Обратить можно только при третьем укусе уже укушенного игрока.",
                "Turning needs the third bite of a player bitten twice.")
    return None


@mechanic("singapore_stake")
def stake(n, actor: Player, targets, params: dict):
    """Hunting with an aspen stake: a vampire hunted by at least two players dies."""
    n.notes(Notes).stakes.setdefault(targets[0].name, []).append(actor)


@mechanic("singapore_trip")
def trip(n, actor: Player, targets, params: dict):
    """The tour operator: the traveller is away this night, the next day and the next night:
    no moves, no vote, cannot be jailed; on a tour (not an excursion) nobody can act on
    him either."""
    g: Game = n.g
    t = targets[0]
    n.block(t, actor)
    g.set_status(t, "away", actor.name, until=n.idx + 2)
    g.set_status(t, "no_action", True, until=n.idx + 2)
    g.set_status(t, "voteless", "trip", until=n.idx + 1)
    g.set_status(t, "travelled", True)
    g.recheck_victory()     # the tour operator's win counts those sent (victory.py)
    if params.get("tour"):
        g.set_status(t, "shielded", actor.name, until=n.idx + 2)
    _take_order(n, actor, "tour", t)
    g.emit("trip", PUBLIC, player=t.name, kind="tour" if params.get("tour") else "excursion")


@mechanic("singapore_disguise", cover_aware=True)
def disguise(n, actor: Player, targets, params: dict):
    """The make-up artist: tonight every later move aimed at the first target lands on
    the second ("under the image of another"); 1 coin if someone came."""
    g: Game = n.g
    shielded, stand_in = targets
    came = 0
    abilities = g.rules.abilities
    idx = g.rules.step_index
    here = idx[n.step.id]
    for a in n.s.pending:
        ab = abilities[a.ability]
        if a.actor == actor.name or not a.targets or a.targets[0] != shielded.name:
            continue
        if ab.step is not None and idx[ab.step] > here:
            n.redirects[a.actor] = (stand_in.name, actor.name)
            came += 1
    if came:
        earn(g, actor, 1, "disguise")


@mechanic("singapore_steal")
def steal(n, actor: Player, targets, params: dict):
    """The thief: takes an item (sold back to the shop for 2 coins); with no item, a third
    of the coins (handed to the shop, 2 coins to him); from a mafioso or a cop, a gun."""
    g: Game = n.g
    t = targets[0]
    if is_clan(t) or t.faction == "cops":
        g.emit("stolen", g.to(actor, t), to=actor.name, victim=t.name, item="gun")
        g.set_status(actor, "has_gun", True, until=n.idx + 2)
        return
    inv = dict(items_of(g, t))
    if g.state.status_value(t, "will") and inv.get("will"):   # «Не ворует заполненное завещание»
        inv["will"] -= 1
    inv = {k: v for k, v in inv.items() if v > 0}
    if inv:
        item = sorted(inv)[0]
        take_item(g, t, item, why="stolen")
        set_counter(g, "stock:" + item, counter(g, "stock:" + item, 0) + 1)
        g.emit("stolen", g.to(actor, t), to=actor.name, victim=t.name, item=item)
        earn(g, actor, 2, "sold")
        return
    share = coins_of(g, t) // 3
    if share:
        add_coins(g, t, -share, "stolen")
        g.emit("stolen", g.to(actor, t), to=actor.name, victim=t.name, coins=share)
        earn(g, actor, 2, "sold")
    else:
        g.emit("stolen", g.to(actor), to=actor.name, victim=t.name, item=None)


@mechanic("singapore_become", visits=False, counts_as_out=False)
def become(n, actor: Player, targets, params: dict):
    """Take the gun and become a maniac (the witness, the thief, the drunk)."""
    g: Game = n.g
    g.emit("role_changed", g.to(actor), player=actor.name, role=params["role"], was=actor.role)
    g.emit("faction_changed", g.to(actor), player=actor.name, faction=params["faction"])


@mechanic("singapore_choose_mafia", visits=False)
def choose_mafia(dc, actor: Player, targets, params: dict):
    dc.g.set_status(actor, "side", "mafia")
    dc.g.recheck_victory()  # his win follows the side he chose (victory.py)
