"""The witch's curses (and what they do when the night starts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mafiahost.engine.events import HOST
from mafiahost.engine.mechanics import constraint, hook, mechanic
from mafiahost.engine.mechanics.copy import defer
from mafiahost.engine.mechanics.forced import force
from mafiahost.engine.mechanics.items import take_item
from mafiahost.engine.mechanics.questions import answer_handler, ask

from .clans import give_poison
from .common import VAMPIRES, berserk_unbound, counter, cursed, is_clan, purse, spend, usable

if TYPE_CHECKING:
    from mafiahost.engine.game import Game
    from mafiahost.engine.model import AbilitySpec
    from mafiahost.engine.state import Player


@constraint("singapore_uncursed")
def uncursed(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    for a in g.state.pending:
        if a.actor == p.name and a.targets and ts and a.targets[0] == ts[0]:
            return ("На одном персонаже не может быть двух проклятий.",
                    "A character cannot carry two curses.")
    if ts and cursed(g, g.state.players[ts[0]]):
        return ("На одном персонаже не может быть двух проклятий одновременно.",
                "A character cannot carry two curses at once.")
    return None


@mechanic("singapore_curse")
def curse(n, actor: Player, targets, params: dict):
    """The witch's curse for 2 nights and 2 days; a cross stops it once."""
    g: Game = n.g
    t = targets[0]
    if cursed(g, t):
        g.emit("no_effect", HOST, player=actor.name, ability="curse", why="cursed")
        return
    if usable(g, t, "cross"):
        take_item(g, t, "cross", why="curse")
        g.emit("no_effect", HOST, player=actor.name, ability="curse", why="cross")
        return
    kind = params["kind"]
    g.set_status(t, "curse", [kind, actor.name], until=n.idx + 4)
    g.emit("cursed", g.to(t) if kind not in ("fear",) else HOST, to=t.name, kind=kind)
    if kind == "berserk":
        berserk_shop(n, t)
    elif kind == "suicide":
        suicide_shop(n, t)


@hook("night_start", "singapore_night_start")
def night_start(n, params):
    """Before the evening: the curses that act on the night (panic, veil, suicide)."""
    g: Game = n.g
    s = n.s
    for p in s.order:
        if not p.alive or s.has(p, "jailed"):
            continue
        c = cursed(g, p)
        if c == "panic":
            n.block(p, p)
            for a in s.pending:
                if a.targets and a.targets[0] == p.name and a.actor != p.name:
                    n.block(s.players[a.actor], p)
        elif c == "veil":
            last = counter(g, "last_confessed")
            if last and last != p.name and s.players[last].alive:
                witch = s.players[g.state.status_value(p, "curse")[1]]
                n.redirects[p.name] = (last, witch.name)
        elif c == "suicide" and (is_clan(p) or "armed" in g.role(p).tags):
            n.attack(p, p, "direct", "suicide_curse")
        elif c == "suicide":
            _suicide_poison(n, p)
        elif c == "berserk":
            _berserk_default(n, p)
        elif c == "bloodlust":
            _bloodlust_lure(n, p)


# ---- berserk: «Жертва жаждет убийства, идет убивать или травить если есть оружие или яд … (если
# жертва член клана то стреляет в эту ночь именно она, если это погромщик - может стрелять без
# заказа, если вампир то травит укусом.)»

SHOTS = ("kill", "silver", "poison", "poison_scorpion", "bite_venom")


def _berserk_move(g, p):
    """The berserk's killing move: a vampire's venom bite, anyone else's shot (the clan's,
    the cops', the thug's, the maniac's and the apprentice's: the curse lifts the guess and
    the task, unless option berserk_limits is kept); None for one without a gun."""
    aid = "bite_venom" if p.role in VAMPIRES else "kill"
    spec = g.rules.abilities.get(f"{p.role}.{aid}")
    if spec is None:        # no gun: the poison he has (one bought at the berserk's shop)
        for aid, item in (("poison", "poison"), ("poison_scorpion", "scorpion_poison")):
            spec = g.rules.abilities.get(f"{p.role}.{aid}")
            if spec is not None and usable(g, p, item):
                return spec
        return None
    if (spec.names_role or p.role.startswith("apprentice")) and not berserk_unbound(g, p):
        return None     # option berserk_limits: kept — a role or a task the dice cannot give
    return spec


def _suicide_poison(n, p) -> None:
    """«Суицид … если есть оружие или яд, стреляется или травится»: one with no gun who has
    poison (his own, working) poisons himself; he may still be cured as any poisoned."""
    g: Game = n.g
    for item, kind in (("poison", "viper"), ("scorpion_poison", "scorpion")):
        if usable(g, p, item) and take_item(g, p, item, why="suicide"):
            give_poison(n, p, p, kind)
            return


def suicide_shop(n, t) -> None:
    """«… если нет оружия или яда - идет в магазин за ядом и пытается отравиться следующей
    ночью (мирный житель яд купить не может …)»: a forced purchase the next night."""
    g: Game = n.g
    if is_clan(t) or "armed" in g.role(t).tags or g.rules.factions[t.faction].side == "town" \
            or g.rules.abilities.get(f"{t.role}.buy_poison") is None \
            or usable(g, t, "poison") or usable(g, t, "scorpion_poison"):
        return
    force(g, [t], "buy_poison", [], "suicide", night_idx=n.idx + 2)


def berserk_shop(n, t) -> None:
    """«если нет оружия или яда - идет в магазин за ядом и пытается отравить персонажа на
    выбор на следующую ночь»: one with no gun nor poison, who may buy it (not the town:
    «мирный житель яд купить не может»), buys viper poison the next night (a forced move; it
    fails if he cannot pay or the shop is out), to poison with the night after."""
    g: Game = n.g
    if _berserk_move(g, t) is not None or g.rules.factions[t.faction].side == "town" or \
            g.rules.abilities.get(f"{t.role}.poison") is None:
        return
    force(g, [t], "buy_poison", [], "berserk", night_idx=n.idx + 2)


def _berserk_default(n, p) -> None:
    """A berserk who sends no shot (nor poison) tonight still goes to kill: a victim chosen by
    the dice (among the living outside his faction, not in jail) at his shot's step."""
    g: Game = n.g
    spec = _berserk_move(g, p)
    if spec is None:
        return
    abilities = g.rules.abilities
    if any(a.actor == p.name and abilities[a.ability].id in SHOTS for a in n.s.pending):
        return
    side = (p.faction,) if is_clan(p) or p.faction in ("cops", "vampires") else ()
    options = [q.name for q in n.s.order if q.alive and q is not p and q.faction not in side
               and not n.s.has(q, "jailed")]
    if not options:
        return
    victim = n.s.players[g.roll("berserk", options)]
    g.emit("no_effect", HOST, player=p.name, why="berserk", target=victim.name)
    defer(n, p, spec, [victim])


@constraint("singapore_berserk_shooter", targets=False)
def berserk_shooter(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """«если жертва член клана то стреляет в эту ночь именно она»: while a member of the
    faction is a berserk (free, in the game), the faction's shot is his."""
    for q in g.faction_members(p.faction):
        if q is not p and cursed(g, q) == "berserk" and not g.state.has(q, "jailed"):
            return (f"Этой ночью стреляет {g.display(q.name)}: на нём проклятие берсерка.",
                    f"Tonight {g.display(q.name)} shoots: the berserk curse is on them.")
    return None


@constraint("singapore_berserk_venom", targets=False)
def berserk_venom(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """«если вампир то травит укусом»."""
    if cursed(g, p) == "berserk":
        return ("На вас проклятие берсерка: вы только травите укусом (впрыснуть яд).",
                "You carry the berserk curse: you only bite with venom.")
    return None


# ---- bloodlust: «Жертва хочет стать вампиром. Каждый день посылает 3 имени надеясь угадать
# вампира, если в списке есть вампир - приманивает его ночной ход на себя, если это укус по
# обращению - становится вампиром. Вампир узнает что кусал другого.»

@constraint("singapore_cursed_with", targets=False,
            gate=("singapore_curse", lambda params: (params["kind"],)))
def cursed_with(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    if cursed(g, p) != params["kind"]:
        if params["kind"] == "berserk":
            return ("Это ход только для проклятого берсерком.",
                    "This move is only for one cursed with berserk.")
        return ("Это ход только для проклятого жаждой крови.",
                "This move is only for one cursed with bloodlust.")
    return None


@mechanic("singapore_lust_names", visits=False)
def lust_names(dc, actor: Player, targets, params: dict):
    """The day's three names; they lure a vampire named among them tonight."""
    dc.g.set_status(actor, "lust_names", [t.name for t in targets], until=dc.g.state.idx + 1)


def _bloodlust_lure(n, p) -> None:
    g: Game = n.g
    names = g.state.status_value(p, "lust_names") or ()
    abilities = g.rules.abilities
    for a in n.s.pending:
        v = n.s.players[a.actor]
        if a.actor not in names or v.role not in VAMPIRES or not a.targets \
                or not abilities[a.ability].id.startswith("bite") or a.targets[0] == p.name \
                or a.actor in n.redirects:
            continue
        n.redirects[a.actor] = (p.name, a.actor)
        g.emit("bite_lured", g.to(v), to=v.name, player=p.name, was=a.targets[0])


@constraint("singapore_cursed_self", targets=False, listed=True)
def cursed_self(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """Only a cursed player (his curse still working) with a coin may ask the witch."""
    if not cursed(g, p):
        return ("На вас нет проклятия: снимать нечего.", "You carry no curse: nothing to lift.")
    if purse(g, p) < 1:
        return ("Снятие проклятия стоит 1 монету, а у вас их нет.",
                "Lifting the curse costs 1 coin and you have none.")
    return None


@mechanic("singapore_ask_witch", visits=False)
def ask_witch(dc, actor: Player, targets, params: dict):
    """«За одну монету может снять проклятие если пожелает»: the witch who laid the curse
    is asked (by the end of this day; silence: she does not lift it)."""
    g: Game = dc.g
    witch = g.state.players[g.state.status_value(actor, "curse")[1]]
    ask(g, witch, "singapore_lift_curse",
        [("lift", "снять проклятие за 1 монету", "lift the curse for 1 coin"),
         ("keep", "не снимать", "keep it")], "keep", about=[actor], cursed=actor.name)


@answer_handler("singapore_lift_curse")
def lift_answer(g, q, answer) -> None:
    """She lifts it: the victim pays her 1 coin («1 монета с жертвы»), the curse is gone."""
    victim = g.state.players[q["data"]["cursed"]]
    witch = g.state.players[q["to"]]
    if answer != "lift" or not cursed(g, victim) or not witch.alive:
        g.emit("no_effect", g.to(victim), player=witch.name, why="curse_kept", to=victim.name)
        return
    if not spend(g, victim, 1, "lift_curse", to=witch):
        g.emit("no_effect", HOST, player=victim.name, why="cannot_pay")
        return
    g.clear_status(victim, "curse")
    g.emit("curse_lifted", g.to(victim, witch), to=victim.name)
