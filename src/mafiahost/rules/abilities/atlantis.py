"""«Гибель Атлантиды» (seed 003, section #33): what the ruleset file cannot say.

- ``atlantis_check``: the commissar learns only "positive" or "negative" (negative: the
  mafia and the awakened Wise; a covered mafioso reads positive).
- ``atlantis_drink``: the alcoholic's block; the thug (tag ``drink_immune``) resists
  unknown to the alcoholic; if the drinking companion dies tonight the alcoholic dies too.
- ``atlantis_watch``: the watcher sees every visitor of his target; a covered visitor is
  not noticed at all (not even as "someone").
- ``atlantis_ask``: the sleeping Wise asks how many town or mafia are left; 50% answered.
- ``atlantis_save``: "спаси себя" (once a game per player, even across the Wise's
  awakening: the engine counts ``uses_per_game`` per player and ability).
- ``atlantis_awaken``: a day-count hook: the Wise wakes when someone votes against him.
- ``atlantis_enemies_only``: the kill may not target a member of the killer's own faction
  (himself included): «убивать врагов своей мафии».
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mafiahost.engine.events import HOST
from mafiahost.engine.mechanics import constraint, hook, mechanic
from mafiahost.engine.mechanics.check import seen_side


@dataclass
class AtlantisNight:
    """What tonight's moves tell the dawn (``n.notes(AtlantisNight)``)."""
    drinks: list[tuple[str, str]] = field(default_factory=list)    # (alcoholic, companion)
    watches: list[tuple[str, str]] = field(default_factory=list)   # (watcher, target)


@mechanic("atlantis_check", cover_aware=True)
def atlantis_check(n, actor, targets, params):
    """Positive or negative status; the cover and the sleeping Wise read positive."""
    t = targets[0]
    g = n.g
    result = "positive" if seen_side(n, t, actor) == "town" else "negative"
    g.emit("check_result", g.to(actor), to=actor.name, target=t.name, result=result)


@mechanic("atlantis_drink")
def atlantis_drink(n, actor, targets, params):
    """Block the target for the night; a ``drink_immune`` role is untouched and nobody is
    told. The alcoholic dies with a companion who dies tonight (settled at dawn)."""
    t = targets[0]
    g = n.g
    if "drink_immune" in g.role(t).tags:
        g.emit("no_effect", HOST, player=actor.name, ability="drink", why="immune",
               target=t.name)
        return
    n.block(t, actor)
    n.notes(AtlantisNight).drinks.append((actor.name, t.name))
    n.on_dawn(_drinking_companions)


def _drinking_companions(n):
    players = n.s.players
    dying = n.dying_so_far()
    for alco, mate in n.notes(AtlantisNight).drinks:
        a, m = players[alco], players[mate]
        if a.alive and m.alive and m.name in dying:
            n.g.emit("companion_dies", HOST, player=a.name, companion=m.name)
            n.attack(None, a, "sure", "drinking_companion")


@mechanic("atlantis_watch", visits=False, counts_as_out=False)
def atlantis_watch(n, actor, targets, params):
    n.notes(AtlantisNight).watches.append((actor.name, targets[0].name))
    n.on_dawn(_watch_report)


def _watch_report(n):
    g = n.g
    for w, t in n.notes(AtlantisNight).watches:
        seen = []
        for visible, tgt, real in n.visits:
            # "?" is a visitor covered by the boss: "Наблюдатель не заметит его"
            if tgt == t and real != w and visible != "?" and visible not in seen:
                seen.append(visible)
        g.emit("watch_result", (w,), to=w, target=t, visitors=seen)


@mechanic("atlantis_ask", visits=False, counts_as_out=False)
def atlantis_ask(n, actor, targets, params):
    """How many town (or mafia) players are left: answered with probability 50%."""
    g = n.g
    about = params.get("about", "town")
    if g.chance(f"answer to {actor.name}", params.get("chance", 0.5)):
        count = sum(1 for p in n.s.order if p.alive and p.faction == about)
        g.emit("answer", g.to(actor), to=actor.name, question=about, result=count)
    else:
        g.emit("answer", g.to(actor), to=actor.name, question=about, result=None)


@mechanic("atlantis_save", cover_aware=True, visits=False, counts_as_out=False)
def atlantis_save(n, actor, targets, params):
    """Untouchable by every action tonight (the engine's ``shielded`` mark)."""
    n.mark(actor, "shielded", actor.name)


@hook("day_count", "atlantis_awaken")
def atlantis_awaken(dc, params):
    """The Wise wakes when he is put to the vote: another player votes against him."""
    g = dc.g
    sleeping = params.get("role", "wise")
    for p in g.state.order:
        if not p.alive or p.role != sleeping:
            continue
        if any(t == p.name and v != p.name for v, t in dc.votes.items()):
            g.emit("role_changed", g.to(p), player=p.name, role=params.get("becomes",
                                                                          "wise_awake"),
                   was=p.role)
            g.emit("faction_changed", g.to(p), player=p.name,
                   faction=params.get("faction", "single"))


@constraint("atlantis_enemies_only")
def atlantis_enemies_only(g, p, ab, ts, params):
    """«Убийца – ночью может убивать врагов своей мафии»: not a fellow member, not himself."""
    for t in ts:
        if g.state.players[t].faction == p.faction:
            return (f"«{ab.name_ru}»: убивать можно только врагов своей группировки, "
                    f"а «{t}» — свой.",
                    f"'{ab.name_en}': only enemies of your own side may be killed; "
                    f"'{t}' is one of yours.")
    return None
