"""«Три мушкетера» (seed 003, section #35): what the ruleset file cannot say in data.

- The mafia's shot (``musketeers_mafia_shot``, a step hook): every mafioso names a target;
  one name among those sent kills, different names wound every player named (no abilities
  and no vote for the next turn). Only blocking every living mafioso stops it.
- The hidden Elder (``musketeers_deal_elder``, ``musketeers_elder`` day hook and tie policy):
  a town player picked by the dice who does not know it; he cannot be lynched, and in a tie
  his vote weighs 1.5 (so it decides); if he backed none of the tied, nobody leaves and the
  tied are blocked next night.
- The nightly dice question (``musketeers_dice_question``, a ``night_open`` hook, and the
  night ability ``ask`` with ``musketeers_ask``): when a night opens, before moves are sent,
  the dice pick a living player; a town player is told at once and may send ``ask T`` that
  same night, answered privately at the night's last step (is T his enemy: a mafioso or
  the maniac); a mafioso or the maniac picked reads town to the officer's and catcher's
  checks that night.
- Wounds, "save yourself", the bodyguard who also guards himself, the boss's choice between
  cover and blackmail, the officer/catcher pair and their one check plus one shot a night
  (the officer chooses; the met catcher takes the action he left).
"""

from __future__ import annotations

from ...engine.events import HOST, PUBLIC
from ...engine.mechanics import constraint, hook, mechanic, tie_policy
from ...engine.mechanics.check import junior_void, seen_side
from ...engine.mechanics.kill import shoot as lib_shoot

# ---- refusals --------------------------------------------------------------------------

@constraint("musketeers_not_wounded", targets=False)
def not_wounded(g, p, ab, ts, params):
    """A wounded player has no role abilities until the end of the next turn."""
    if p.st and g.state.has(p, "wounded"):
        return (f"«{p.name}»: ранение от выстрела мафии, до конца следующего тура "
                f"способности роли не действуют.",
                f"'{p.name}' was wounded by the mafia's shot and has no abilities until the "
                f"end of the next turn.")
    return None


@constraint("musketeers_not_boss_action", position="first")
def not_boss_action(g, p, ab, ts, params):
    """The intriguer cannot redirect the boss's action."""
    if ts and g.state.players[ts[0]].role == params.get("role", "boss"):
        return (f"«{ab.name_ru}»: действие Босса мафии переводить нельзя.",
                f"'{ab.name_en}': the mafia boss's action cannot be redirected.")
    return None


@constraint("musketeers_not_own_vote", position="first")
def not_own_vote(g, p, ab, ts, params):
    if ts and ts[0] == p.name:
        return (f"«{ab.name_ru}»: свой голос менять нельзя.",
                f"'{ab.name_en}': you cannot change your own vote.")
    return None


@constraint("musketeers_cover_or_blackmail", targets=False, listed=True)
def cover_or_blackmail(g, p, ab, ts, params):
    """One game day (a night and the day after it): cover or blackmail, not both."""
    if p.st and g.state.has(p, "cover_used"):
        return (f"«{ab.name_ru}»: в эти игровые сутки Босс уже выбрал опеку (покрытие ночью); "
                f"шантаж — только в сутки без опеки.",
                f"'{ab.name_en}': this game day the boss chose the cover at night; "
                f"blackmail only on a day without a cover.")
    return None


# ---- night mechanics ---------------------------------------------------------------------

@mechanic("musketeers_save_self", cover_aware=True, visits=False, counts_as_out=False)
def save_self(n, actor, targets, params):
    """«Спаси себя»: once a game, untouchable by every outside action tonight."""
    n.mark(actor, "shielded", actor.name)


@mechanic("musketeers_chose_cover", cover_aware=True, visits=False, counts_as_out=False)
def chose_cover(n, actor, targets, params):
    """The boss chose the cover for this game day: no blackmail the day after."""
    n.g.set_status(actor, "cover_used", True, until=n.idx + 1)


def _seen(n, t, actor, negative) -> str:
    """«При проверке отрицательный статус имеет Мафия и Маньяк»: only the status."""
    if t.st and n.s.has(t, "seems_town"):
        return "positive"
    return "negative" if seen_side(n, t, actor) in negative else "positive"


@mechanic("musketeers_check", cover_aware=True)
def officer_check(n, actor, targets, params):
    """The officer's check: mafia and the maniac read negative, everyone else positive;
    covered mafia, and a mafioso or maniac picked by tonight's dice, read positive.
    Checking the catcher means they have met. Void for the met catcher if the officer
    replaced his shot after the catcher sent this check."""
    if junior_void(n, actor, params):
        return
    g = n.g
    t = targets[0]
    negative = params.get("negative", ("criminal", "single"))
    g.emit("check_result", g.to(actor), to=actor.name, target=t.name,
           result=_seen(n, t, actor, negative))
    meet = params.get("meets")
    if meet and actor.role == params.get("seeker_of", "officer") and t.role == meet \
            and not g.state.has(t, params.get("status", "met_officer")):
        g.emit("met", g.to(actor, t), players=[actor.name, t.name])
        g.set_status(actor, params.get("status", "met_officer"), t.name)
        g.set_status(t, params.get("status", "met_officer"), actor.name)


@mechanic("musketeers_shoot", cover_aware=True)
def officer_shoot(n, actor, targets, params):
    """The officer's (or the met catcher's) shot: the library ``shoot``; void for the catcher
    if the officer replaced his check after the catcher sent this shot."""
    if junior_void(n, actor, params):
        return
    lib_shoot(n, actor, targets, params)


@mechanic("musketeers_shot_vote", cover_aware=True, visits=False, counts_as_out=False)
def shot_vote(n, actor, targets, params):
    """A mafioso's name for the common shot: counted by ``musketeers_mafia_shot``."""


# ---- hooks -------------------------------------------------------------------------------

def _name_of_elder(g):
    return g.state.counters.get("elder")


@hook("night_start", "musketeers_deal_elder")
def deal_elder(n, params):
    """At the first night the dice make one town player the Elder; he is not told."""
    g = n.g
    s = g.state
    if "elder" in s.counters:
        return
    pool = [p.name for p in s.order if p.alive and g.rules.factions[p.faction].side == "town"
            and (g.rules.options.get("elder_from", "town") != "civilians"
                 or "plain" in g.role(p).tags)]
    if not pool:
        return
    name = g.roll("elder", pool)
    g.emit("counter", HOST, key="elder", value=name)
    g.set_status(s.players[name], "elder", True)


@hook("night_open", "musketeers_dice_question")
def dice_question(g, params):
    """«Каждую ночь кубик разыгрывает для одного из игроков возможность задать вопрос
    ведущему»: when a night opens (before moves are sent) the dice pick one living player.
    A town player is told at once and may ask this night (``ask T``); a mafioso or the
    maniac picked reads town to the officer's and the catcher's checks tonight (nobody is
    told)."""
    s = g.state
    pool = [p.name for p in s.order if p.alive]
    if not pool:
        return
    p = s.players[g.roll("question", pool)]
    if g.rules.factions[p.faction].side == "town":
        g.set_status(p, "question", True, until=s.idx)
        g.emit("question_granted", g.to(p), to=p.name)
    else:
        g.set_status(p, "seems_town", "dice", until=s.idx)


@hook("night_start", "musketeers_bodyguard_self")
def bodyguard_self(n, params):
    """"То же самое происходит, если нападение направлено на самого Телохранителя": every
    living bodyguard also guards himself, whether he goes out or not."""
    role = params.get("role", "bodyguard")
    gp = {"mode": "saves", "foils_poison": True}
    for p in n.s.order:
        if p.alive and p.role == role:
            n.guards.setdefault(p.name, []).append((p, gp))


@hook("night_start", "musketeers_bodyguard_refresh")
def bodyguard_refresh(n, params):
    """Option ``bodyguard_saves: night``: the bodyguard's one clean save comes back each
    night (the second attack of a night is his last stand)."""
    if n.g.rules.options.get("bodyguard_saves", "night") != "night":
        return
    saves = params.get("saves", 1)
    role = params.get("role", "bodyguard")
    for p in n.s.order:
        if p.alive and p.role == role and n.s.status_value(p, "saves_left", 0) != saves:
            n.g.set_status(p, "saves_left", saves)


@hook("step", "musketeers_mafia_shot")
def mafia_shot(n, params):
    """The mafia's common shot, settled from every mafioso's named target (as sent: the
    shot is the mafia's, not a player's ability, so no block or redirect changes a name).

    One name among those sent: that player is attacked (a direct kill, which the usual
    protections may stop). Several names: each named player is wounded — no role
    abilities and no vote for the next turn — unless untouchable or not at home."""
    g = n.g
    s = n.s
    faction = params.get("faction", "mafia")
    ability = params.get("ability", "kill")
    abilities = g.rules.abilities
    shots = [a for a in s.pending if abilities[a.ability].id == ability
             and s.players[a.actor].alive
             and s.players[a.actor].faction == faction and a.targets]
    if not shots:
        return
    members = g.faction_members(faction)
    if members and all(n.is_blocked(m) for m in members):
        g.emit("no_effect", HOST, player=shots[0].actor, ability=ability,
               why="every mafioso blocked")
        return
    named: list[str] = []
    for a in shots:
        if a.targets[0] not in named:
            named.append(a.targets[0])
    if len(named) == 1:
        t = s.players[named[0]]
        g.emit("mafia_shot", HOST, target=t.name, shooters=[a.actor for a in shots],
               unanimous=len(shots) == len(members))
        if t.alive:
            n.attack(s.players[shots[0].actor], t, "direct", "mafia_shot")
        return
    g.emit("mafia_shot", HOST, target=None, named=named, shooters=[a.actor for a in shots])
    guests = set(n.guests.values())
    for name in named:
        t = s.players[name]
        if not t.alive:
            continue
        if n.is_shielded(t):
            g.emit("no_effect", HOST, player=name, ability="wound", why="untouchable")
            continue
        if name in guests:
            g.emit("saved", HOST, player=name, by="alibi", cause="wound")
            continue
        g.set_status(t, "wounded", True, until=n.idx + 2)
        g.set_status(t, "voteless", "wounded", until=n.idx + 1)
        g.emit("wounded", PUBLIC, player=name)
        g.emit("vote_lost", PUBLIC, player=name, why="wounded")


@hook("day_count", "musketeers_elder")
def elder_not_lynched(dc, params):
    """The Elder cannot be executed by the day's vote."""
    g = dc.g
    name = _name_of_elder(g)
    if name and g.state.players[name].alive:
        dc.acquit.add(name)


@tie_policy("musketeers_elder")
def elder_tie(g, dc, leaders):
    """A split vote: in disputes the Elder's vote weighs 1.5, so if he voted for one of the
    tied that one leaves; otherwise nobody leaves and every tied player is blocked next
    night (not when only ``tie_no_block_at`` players or fewer are left)."""
    s = g.state
    name = _name_of_elder(g)
    if name and s.players[name].alive:
        choice = dc.votes.get(name)
        if choice in leaders:
            weighted = {k: len(v) + (0.5 if name in v else 0) for k, v in dc.for_.items()
                        if k in leaders}
            g.emit("elder_decides", HOST, elder=name, player=choice, counts=weighted)
            g.emit("tie_broken", PUBLIC, player=choice, by="elder")
            return choice
    alive = sum(1 for p in s.order if p.alive)
    limit = int(g.rules.options.get("tie_no_block_at", 3))
    if alive > limit:
        for t in leaders:
            g.set_status(s.players[t], "blocked", "tie", until=s.idx + 1)
            # public: their move that night is refused, not silently void
            g.set_status(s.players[t], "no_action", "tie", until=s.idx + 1)
        g.emit("tie_blocked", PUBLIC, players=list(leaders))
    g.emit("no_lynch", PUBLIC, why="tie")
    return None


# ---- the dice's question ---------------------------------------------------------------

@mechanic("musketeers_ask", cover_aware=True, visits=False, counts_as_out=False)
def ask(n, actor, targets, params):
    """The dice's question to the host, "is this player my enemy?", answered privately and
    truly at the night's last step: ``enemy`` when the player is on another side than the
    asker (for a town asker: a mafioso or the maniac), else ``not_enemy``. The Boss's cover
    and the dice's "reads town" are for the officer's and catcher's checks, not the host."""
    g = n.g
    t = targets[0]
    sides = g.rules.factions
    enemy = sides[t.faction].side != sides[actor.faction].side
    g.emit("answer", g.to(actor), to=actor.name, question="enemy", target=t.name,
           result="enemy" if enemy else "not_enemy")
