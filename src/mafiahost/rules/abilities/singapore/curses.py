"""The witch's curses (and what they do when the night starts)."""

from __future__ import annotations

from mafiahost.engine.events import HOST
from mafiahost.engine.mechanics import constraint, hook, mechanic
from mafiahost.engine.mechanics.items import take_item
from mafiahost.engine.mechanics.questions import answer_handler, ask

from .common import counter, cursed, is_clan, purse, spend, usable


@constraint("singapore_uncursed")
def uncursed(g, p, ab, ts, params):
    for a in g.state.pending:
        if a.actor == p.name and a.targets and ts and a.targets[0] == ts[0]:
            return ("На одном персонаже не может быть двух проклятий.",
                    "A character cannot carry two curses.")
    if ts and cursed(g, g.state.players[ts[0]]):
        return ("На одном персонаже не может быть двух проклятий одновременно.",
                "A character cannot carry two curses at once.")
    return None


@mechanic("singapore_curse")
def curse(n, actor, targets, params):
    """The witch's curse for 2 nights and 2 days; a cross stops it once."""
    g = n.g
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


@hook("night_start", "singapore_night_start")
def night_start(n, params):
    """Before the evening: the curses that act on the night (panic, veil, suicide)."""
    g = n.g
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


@constraint("singapore_cursed_self")
def cursed_self(g, p, ab, ts, params):
    """Only a cursed player (his curse still working) with a coin may ask the witch."""
    if not cursed(g, p):
        return ("На вас нет проклятия: снимать нечего.", "You carry no curse: nothing to lift.")
    if purse(g, p) < 1:
        return ("Снятие проклятия стоит 1 монету, а у вас их нет.",
                "Lifting the curse costs 1 coin and you have none.")
    return None


@mechanic("singapore_ask_witch", visits=False)
def ask_witch(dc, actor, targets, params):
    """«За одну монету может снять проклятие если пожелает»: the witch who laid the curse
    is asked (by the end of this day; silence: she does not lift it)."""
    g = dc.g
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
