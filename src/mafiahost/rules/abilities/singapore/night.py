"""Settling the night at dawn: immunities, vests, bandages, income, reports."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mafiahost.engine.events import HOST
from mafiahost.engine.mechanics import hook
from mafiahost.engine.mechanics.items import take_item

from .common import CATEGORY, GUNS, VAMPIRES, Notes, earn, is_clan, usable

if TYPE_CHECKING:
    from mafiahost.engine.game import Game


def _lethal_attacks(n):
    """The attack that will kill each victim, judged as dawn will (changes nothing)."""
    out = {}
    for a in n.attacks:
        t = a.target
        if not t.alive or t.name in out:
            continue
        if n._lethal(a, commit=False):
            out[t.name] = a
    return out


@hook("dawn", "singapore_dawn")
def dawn(n, params):
    g: Game = n.g
    s = n.s
    players = s.players
    # poison given tonight: cured at once by a full heal, else due next night
    for actor, t, kind in n.notes(Notes).poisons:
        if any(hp.get("against") and "delayed" in hp["against"] for h, hp in n.heals.get(
                t.name, ()) if g.role(h).id == "doctor"):
            g.emit("cured", HOST, player=t.name)
            continue
        g.emit("poisoned", g.to(t), player=t.name, to=t.name)
        g.set_status(t, "poisoned", actor.name, until=n.idx + 2)
        # which poison: the antidote of the other poison does not cure it (the victim is
        # told only that he is poisoned, not by which poison: see the choices)
        g.set_status(t, "poison_kind", kind, until=n.idx + 2)
        g.emit("scheduled", HOST, item={"effect": "singapore_poison_due",
                                        "night_idx": n.idx + 2, "step": "m6_shop",
                                        "target": t.name, "by": actor.name})
    # stakes
    for name, hunters in n.notes(Notes).stakes.items():
        t = players[name]
        if t.role in VAMPIRES and len(hunters) >= 2:
            n.attack(hunters[0], t, "sure", "stake")
            n.notes(Notes).stake_kills[name] = hunters
    # immunities and vests
    keep = []
    vest_step: dict[str, object] = {}
    for a in n.attacks:
        t = a.target
        gun = a.cause in GUNS
        if gun and t.role == "priest":
            g.emit("saved", HOST, player=t.name, by="priest_immune", cause=a.cause)
            continue
        if (gun or a.cause == "blast") and t.role in VAMPIRES and a.cause != "silver":
            g.emit("saved", HOST, player=t.name, by="vampire_immune", cause=a.cause)
            continue
        if gun and a.cause not in ("maniac_kill", "suicide_curse") and a.kind == "direct":
            if t.name in vest_step and vest_step[t.name] is a.step:
                g.emit("saved", HOST, player=t.name, by="vest", cause=a.cause)
                continue
            if t.name not in vest_step and usable(g, t, "vest"):
                if a.cause == "silver":   # «не сможет сбить броник»: stopped, the vest stays
                    g.emit("saved", HOST, player=t.name, by="vest", cause=a.cause)
                    continue
                take_item(g, t, "vest", why="shot")
                vest_step[t.name] = a.step
                g.emit("saved", HOST, player=t.name, by="vest", cause=a.cause)
                g.emit("vest_hit", g.to(t), to=t.name)
                continue
        keep.append(a)
    n.attacks[:] = keep
    # bandages: one who would die lives to the next night
    lethal = _lethal_attacks(n)
    for doc, t in n.notes(Notes).bandages:
        a = lethal.get(t.name)
        if a is None or a.kind not in ("direct", "delayed"):
            continue
        n.heals.setdefault(t.name, []).append((doc, {"against": ["direct", "delayed"]}))
        g.emit("wounded", g.to(t, doc), player=t.name, to=t.name)
        g.set_status(t, "wounded", doc.name, until=n.idx + 2)
        g.emit("scheduled", HOST, item={"effect": "singapore_poison_due", "cause": "wound",
                                        "night_idx": n.idx + 2, "step": "m6_shop",
                                        "target": t.name,
                                        "by": a.attacker.name if a.attacker else doc.name})
        earn(g, doc, 1, "bandage")
    lethal = _lethal_attacks(n)
    attacked = {a.target.name for a in n.attacks if a.kind in ("direct", "delayed")}
    for doc, t, fee in n.notes(Notes).healers:
        if t.name in attacked and t.name not in lethal:
            earn(g, doc, fee, "heal")
    for cop, t in n.notes(Notes).covers:
        if t.name not in lethal:
            earn(g, cop, 2, "cover")
    # income and consequences of the night's deaths
    for name, a in lethal.items():
        t = players[name]
        k = a.attacker
        if k is None or k is t:
            continue
        # the executor of a successful kill may be paid for its description (rewards.py)
        g.set_status(k, "last_kill", t.name, until=n.idx + 1)
        if a.cause not in ("poison", "wound", "stake"):
            g.set_status(k, "sinner", True)
        vamp = t.role in VAMPIRES
        if is_clan(k):
            if k.faction != t.faction:       # a jailed colleague shot: no income
                # «Фанатик. Убийство священника - 3 монеты»
                blown = a.cause == "blast" and t.role == "priest"
                earn(g, k, 3 if vamp or blown else 1, "kill")
        elif k.faction == "cops":
            earn(g, k, 3 if vamp else (1 if is_clan(t) else 0), "kill")
            if t.faction == "town":
                g.set_status(k, "killed_town", True)   # no automatic release from jail
        elif k.role == "maniac":
            earn(g, k, 2, "kill")
            done = list(g.state.status_value(k, "professions") or ())
            if t.role != "civilian" and t.role not in done:
                g.set_status(k, "professions", done + [t.role])
        if a.cause == "apprentice_kill" and k.role.startswith("apprentice") and k.alive \
                and g.state.status_value(k, "task") == t.name:   # «успешно выполнил задание»
            clan = k.faction
            g.emit("role_changed", g.to(k), player=k.name, role="mafioso_" + clan[-1],
                   was=k.role)
            g.emit("team", g.to(*g.faction_members(clan)), faction=clan,
                   members=[m.name for m in g.faction_members(clan)])
    for name, hunters in n.notes(Notes).stake_kills.items():
        if name in lethal:
            for h in hunters:
                earn(g, h, 3 if is_clan(h) or h.faction == "cops" else 2, "vampire")
    # the drunk without an order
    for p in s.order:
        if p.alive and p.role == "drunk":
            if n.notes(Notes).drunk_ordered:
                g.set_status(p, "dry_nights", 0)
            else:
                dry = g.state.status_value(p, "dry_nights", 0) + 1
                g.set_status(p, "dry_nights", dry)
                if dry >= 3:
                    g.set_status(p, "may_turn", True)
    _reports(n, lethal)


def _reports(n, lethal):
    g: Game = n.g
    s = n.s
    abilities = g.rules.abilities
    killed_by = {name: a.attacker.name for name, a in lethal.items() if a.attacker}
    for w, t in n.notes(Notes).witness:
        seen = [[k, v] for v, k in killed_by.items() if t.name in (k, v) and k != v]
        g.emit("witness_result", g.to(w), to=w.name, target=t.name, kills=seen)
        if seen:        # what his letter to the sheriff may tell, the next day (town.py)
            g.set_status(w, "witness_saw", seen, until=n.idx + 1)
        if seen:
            g.set_status(w, "saw_weapon", True, until=n.idx + 2)
    for j, t in n.notes(Notes).journal:
        facts = []
        for a in s.pending:
            ab = abilities[a.ability]
            cat = CATEGORY.get(ab.id)
            if cat is None or not a.targets or a.actor == j.name:
                continue
            if a.actor == t.name and a.targets[0] != t.name:
                facts.append(["did", cat])
            elif a.targets[0] == t.name and a.actor != t.name:
                facts.append(["suffered", cat])
            if len(a.targets) > 1 and a.targets[1] == t.name:
                facts.append(["suffered", cat])
        for atk in n.attacks:   # a find's shot («все стрелки»); blasts («взорвала кого-то»)
            cat = "blew" if atk.how == "blown" else "shot" if atk.cause == "seek_shot" else None
            if cat is None or atk.attacker is None or atk.attacker is atk.target \
                    or atk.attacker is j:
                continue
            if atk.attacker is t:
                facts.append(["did", cat])
            elif atk.target is t:
                facts.append(["suffered", cat])
        if t.name in n.notes(Notes).caught:     # «Его цели что-то помешало (сирена, ловушка)»
            facts.append(["suffered", "hindered"])
        uniq = []
        for f in facts:
            if f not in uniq:
                uniq.append(f)
        g.emit("journalist_result", g.to(j), to=j.name, target=t.name, facts=uniq)
        if uniq:
            earn(g, j, 1, "article")
            g.set_status(j, "article_written", t.name, until=n.idx + 1)   # rewards.py
