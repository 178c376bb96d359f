"""«Мафия против Якудзы» (seed 001, «Текущая версия правил»): what the data cannot say.

- the clans' common kill sent only by the duty member (boss/magister, then No. 1, then
  No. 2): a blocked duty member means no kill (``mafia_yakuza_duty``);
- the magister's kamikaze, unhealable (``mafia_yakuza_kamikaze``);
- the boss's clan check, the sheriff's check-and-shoot;
- the doctor who cannot save from three or more attacks, and the doctor + ampoule pair
  that saves from anything; the vest, the death belt (dawn hook ``mafia_yakuza_dawn``);
- the killer who kills only on orders written by day (``order``, ``secret_order``,
  ``mafia_yakuza_contract``, random pick when he sends nothing);
- the putana (and the dress) who name their victim by day and block him that night;
- the wizard's cycles (1,4,7 night block; 2,5,8 weakened vote; 3,6,9 no day move);
- the rapist and the gopnik (lost day move; robbery of every item);
- the paranoid's random action, rolled when the night opens and mandatory; after a
  kamikaze he wins with any neutral, even dead (``mafia_yakuza_neutral``);
- the necromancer's resurrection by day of a player killed last night: he pays with his
  life and wins with the raised player or his clan (``mafia_yakuza_necromancy``);
- bonus items: found in the day's description (``find_<item>``, once per game each),
  usable from the finder's next move;
- the day: descriptions required (no description: out before the night), the authority's
  double vote, the weakened vote, the amulet, the bribe, the judge's tie decision (dice
  when he cannot), the paper and pencil.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mafiahost.engine import victory
from mafiahost.engine.day import vote_loss
from mafiahost.engine.events import HOST, PUBLIC
from mafiahost.engine.mechanics import condition, constraint, fact, hook, mechanic, tie_policy
from mafiahost.engine.mechanics.items import give_item, items_of, take_item
from mafiahost.engine.night import run_ability


@dataclass
class YakuzaNight:
    """What tonight's moves tell later steps (``n.notes(YakuzaNight)``)."""
    # random actions waiting for their own step: (step id, (actor, kind, target, source))
    deferred: list[tuple[str, tuple[str, str, str, str]]] = field(default_factory=list)


@dataclass
class YakuzaDay:
    """What the day's count notes (``dc.notes(YakuzaDay)``)."""
    amulet: set[str] = field(default_factory=set)    # used the amulet today: vote x2
    judge_pick: str | None = None                    # the judge's pick in a tie

ORDERS = "mafia_yakuza_orders"
# the neutral faction's ``posthumous`` status: a dead neutral holding it may still win
# (value: ``{"raised": name}`` for the necromancer, ``"kamikaze"`` for the paranoid)
POSTHUMOUS = "posthumous_win"
PARANOID_KINDS = ["kill", "heal", "block", "day_block", "check", "kamikaze"]
KIND_STEP = {"block": "1", "check": "3", "kill": "4", "kamikaze": "4", "heal": "5",
             "day_block": "6"}
# the paranoid's actions the shocker stops ("если только он не лечит, не проверяет и не
# камикадзе")
SHOCKABLE = ("kill", "block", "day_block")
ITEM_RU = {
    "ampoule": "Ампула с антибиотиками", "vodka": "Бутылка водки", "vest": "Бронежилет",
    "condom": "Презерватив", "dress": "Фривольное платье", "cap_whistle": "Фуражка и свисток",
    "pill": "Снотворное", "paper": "Листок и карандаш", "grenade": "Граната",
    "shocker": "Электрошокер", "amulet": "Амулет", "belt": "Пояс смертника",
    "cap": "Шапка-невидимка", "crowbar": "Лом", "bribe": "Взятка",
}


# ---- items ---------------------------------------------------------------------------------

def moves_at_night(g, role: str) -> bool:
    """Does the role have a night move of its own (item uses aside)?"""
    return any(not a.id.startswith("use_") for a in g.rules.by_phase[role]["night"])


def grant(g, p, item: str, why: str) -> None:
    """``p`` gets ``item``, usable from his next move: the coming night if his role moves at
    night, else the next day (rule 1.2.1.4)."""
    s = g.state
    ready = dict(s.status_value(p, "item_ready") or {})
    ready[item] = s.idx + (1 if moves_at_night(g, p.role) else 2)
    give_item(g, p, item, 1, why)
    g.set_status(p, "item_ready", ready)


def has_ready(g, p, item: str) -> bool:
    s = g.state
    if not items_of(g, p).get(item):
        return False
    ready = s.status_value(p, "item_ready") or {}
    return ready.get(item, 0) <= s.idx


def spend(g, p, item: str, why: str = "used") -> bool:
    return take_item(g, p, item, 1, why)


def _found_now(g) -> list:
    """The bonus items found so far in this game (the counter's own list: read only)."""
    return g.state.counters.get("mafia_yakuza_found") or []


def _found(g) -> list:
    return list(_found_now(g))


def _item_gate(params: dict):
    """A gate's values for an item constraint: the item (None, no gate, for an item the
    rules do not list)."""
    item = params.get("item")
    return (item,) if item in ITEM_RU else None


# (the found items ``unfound_fact`` last read, the items not among them): a memo, one
# tuple stored at once (the same list of found items gives the same set, so it is made
# once per find, not once per player and legal list)
_UNFOUND: list = [None]


@fact("mafia_yakuza_unfound")
def unfound_fact(g, p) -> frozenset:
    """The bonus items nobody has found yet in this game (``not_found``'s gate)."""
    found = _found_now(g)
    got = _UNFOUND[0]
    if got is None or found != got[0]:
        got = (list(found), frozenset(item for item in ITEM_RU if item not in found))
        _UNFOUND[0] = got
    return got[1]


@fact("mafia_yakuza_ready")
def ready_fact(g, p) -> set:
    """The items ``p`` holds and may use now (``item_ready``'s gate: ``has_ready``)."""
    s = g.state
    held = s.status_value(p, "items") or {}
    ready = s.status_value(p, "item_ready") or {}
    return {item for item, n in held.items() if n and ready.get(item, 0) <= s.idx}


@fact("mafia_yakuza_day_free")
def day_free_fact(g, p) -> tuple:
    """(True,) unless ``p`` has lost today's day move (``day_move``'s gate)."""
    return () if g.state.has(p, "day_blocked") else (True,)


@constraint("mafia_yakuza_not_found", targets=False, listed=True,
            gate=("mafia_yakuza_unfound", _item_gate), exact=True)
def not_found(g, p, ab, ts, params):
    """Each bonus item lies in the location once (1.2.3: «в количестве одной штуки»)."""
    item = params["item"]
    if item in _found_now(g):
        return (f"Бонус «{ITEM_RU[item]}» уже нашли в этой игре: каждый бонус один.",
                f"'{ab.name_en}': this bonus has already been found in this game: there is "
                f"one of each.")
    return None


@mechanic("mafia_yakuza_find", visits=False, counts_as_out=False)
def find(dc, actor, targets, params):
    """The host gives the item found in the actor's day description."""
    g = dc.g
    item = params["item"]
    g.emit("counter", HOST, key="mafia_yakuza_found", value=_found(g) + [item])
    grant(g, actor, item, "found")


@constraint("mafia_yakuza_item", targets=False,
            gate=("mafia_yakuza_ready", _item_gate), exact=True)
def item_ready(g, p, ab, ts, params):
    """The item is held and usable (found before this move: 1.2.1.4)."""
    item = params["item"]
    if not items_of(g, p).get(item):
        return (f"«{ab.name_ru}»: нужен предмет «{ITEM_RU[item]}», а его нет.",
                f"'{ab.name_en}': this needs the item '{item}', which you do not have.")
    if not has_ready(g, p, item):
        return (f"«{ab.name_ru}»: найденным предметом можно пользоваться только со "
                f"следующего хода.",
                f"'{ab.name_en}': a found item can be used only from your next move.")
    return None


def _shocker(g, t, why: str) -> bool:
    """The electroshocker stops the move (and is spent); True when it did."""
    if has_ready(g, t, "shocker"):
        spend(g, t, "shocker", why)
        g.emit("saved", HOST, player=t.name, by="shocker", cause=why)
        return True
    return False


@mechanic("mafia_yakuza_use")
def use(ctx, actor, targets, params):
    """Use an item: spend it, then do what it gives (night or day)."""
    g = ctx.g
    item = params["item"]
    if not spend(g, actor, item):
        g.emit("no_effect", HOST, player=actor.name, ability="use_" + item, why="no_item")
        return
    do = params["do"]
    t = targets[0] if targets else None
    if do == "heal":
        heal(ctx, actor, targets, {"source": "ampoule"})
    elif do == "check":
        g.emit("check_result", g.to(actor), to=actor.name, target=t.name,
               result=g.role(t).appears_as or t.role)
    elif do == "block":
        ctx.block(t, actor)
    elif do == "cap":
        ctx.mark(actor, "shielded", "cap")
    elif do == "crowbar":
        maniac_kill(ctx, actor, targets, {"cause": "crowbar"})
    elif do == "grenade":
        ctx.attack(actor, t, "direct", "grenade")
        pool = [q.name for q in g.state.order if q.alive and q is not actor and q is not t]
        for _ in range(2):
            if not pool:
                break
            v = g.roll("grenade", pool)
            pool.remove(v)
            ctx.attack(actor, g.state.players[v], "direct", "grenade")
    elif do == "vodka":
        kind = g.roll("vodka", PARANOID_KINDS)
        g.emit("bonus", g.to(actor), to=actor.name, bonus=kind, source="vodka")
        defer(ctx, actor, kind, t, "vodka")
    elif do == "dress":
        g.set_status(actor, "night_block", t.name, until=g.state.idx + 1)
    elif do == "amulet":
        ctx.notes(YakuzaDay).amulet.add(actor.name)
    elif do == "bribe":
        ctx.acquit.add(actor.name)


# ---- clans -----------------------------------------------------------------------------------

@constraint("mafia_yakuza_duty", targets=False)
def duty(g, p, ab, ts, params):
    """Only the duty member sends the clan's kill: the first living of ``order``."""
    for role in params["order"]:
        for q in g.state.order:
            if q.alive and q.role == role and q.faction == p.faction:
                if q is p:
                    return None
                return (f"«{ab.name_ru}»: ход клана отсылает дежурный — {q.name}.",
                        f"'{ab.name_en}': the clan's move is sent by the duty member, "
                        f"{q.name}.")
    return None


@mechanic("mafia_yakuza_clan_check", cover_aware=True)
def clan_check(n, actor, targets, params):
    """The boss learns the target's clan (mafia, yakuza, town) or ``neutral``."""
    g = n.g
    t = targets[0]
    fac = t.faction if t.faction in ("mafia", "yakuza", "town") else "neutral"
    g.emit("check_result", g.to(actor), to=actor.name, target=t.name, result=fac)


@mechanic("mafia_yakuza_kamikaze")
def kamikaze(n, actor, targets, params):
    """An extra kill nobody heals or cancels; the one who makes it dies too."""
    n.attack(actor, targets[0], "sure", "kamikaze")
    n.attack(None, actor, "suicide", "kamikaze")


@mechanic("mafia_yakuza_sheriff", cover_aware=True)
def sheriff(n, actor, targets, params):
    """Mafia or yakuza? yes / no; on yes the sheriff kills him (healable)."""
    g = n.g
    t = targets[0]
    yes = t.faction in ("mafia", "yakuza")
    g.emit("check_result", g.to(actor), to=actor.name, target=t.name,
           result="yes" if yes else "no")
    if yes:
        n.attack(actor, t, "direct", "sheriff")


# ---- town ------------------------------------------------------------------------------------

@mechanic("mafia_yakuza_heal")
def heal(n, actor, targets, params):
    t = targets[0]
    n.heals.setdefault(t.name, []).append(
        (actor, {"against": ["direct", "delayed"], "source": params.get("source", "doctor")}))


@hook("day_start", "mafia_yakuza_meet")
def meet(g, params):
    """The commissar and the sergeant know each other from the start."""
    if g.state.idx != 1:
        return
    pair = [p for p in g.state.order if p.role in ("commissar", "sergeant")]
    if len(pair) == 2:
        g.emit("met", g.to(*pair), players=[p.name for p in pair])


# ---- neutrals --------------------------------------------------------------------------------

@mechanic("mafia_yakuza_maniac_kill")
def maniac_kill(n, actor, targets, params):
    t = targets[0]
    if _shocker(n.g, t, params.get("cause", "maniac")):
        return
    n.attack(actor, t, "direct", params.get("cause", "maniac"))


def day_block(g, t, by: str, idx: int) -> None:
    """``t`` loses his day move on the phase ``idx``: no vote, no day ability."""
    g.set_status(t, "day_blocked", by, until=idx)
    g.set_status(t, "voteless", by, until=idx)
    g.emit("vote_lost", PUBLIC, player=t.name, why="day_blocked")


@mechanic("mafia_yakuza_rape")
def rape(n, actor, targets, params):
    """The target loses his next day move, unless the doctor came to him tonight."""
    g = n.g
    t = targets[0]
    if any(p.get("source") == "doctor" for _, p in n.heals.get(t.name, ())):
        g.emit("no_effect", HOST, player=actor.name, ability="rape", why="doctor")
        return
    if _shocker(g, t, "rapist"):
        return
    day_block(g, t, actor.name, n.idx + 1)


@mechanic("mafia_yakuza_rob")
def rob(n, actor, targets, params):
    """The gopnik takes every item of the victim; a victim with none loses his day move."""
    g = n.g
    t = targets[0]
    inv = items_of(g, t)
    if not inv:
        day_block(g, t, actor.name, n.idx + 1)
        return
    for item, k in sorted(inv.items()):
        for _ in range(k):
            take_item(g, t, item, 1, "robbed")
            grant(g, actor, item, "robbed")


@mechanic("mafia_yakuza_wizard")
def wizard(n, actor, targets, params):
    """Cycle k (= night k): 1,4,7 — no night move now; 2,5,8 — a weakened vote the next
    day; 3,6,9 — no day move the next day (and so on, every three cycles)."""
    g = n.g
    t = targets[0]
    k = (g.state.number - 1) % 3
    if k == 0:
        n.block(t, actor)
    elif k == 1:
        g.set_status(t, "weak_vote", actor.name, until=n.idx + 1)
    else:
        day_block(g, t, actor.name, n.idx + 1)


@mechanic("mafia_yakuza_putana", visits=False, counts_as_out=False)
def putana(dc, actor, targets, params):
    """By day the putana names tonight's victim: blocked at the start of step 1."""
    dc.g.set_status(actor, "night_block", targets[0].name, until=dc.g.state.idx + 1)


@hook("step", "mafia_yakuza_night_blocks")
def night_blocks(n, params):
    """The putana's (and the dress's) victims named by day lose tonight's move; a condom
    saves (and is spent)."""
    g = n.g
    for p in n.s.order:
        name = n.s.status_value(p, "night_block") if p.st else None
        if name is None or not p.alive:
            continue
        t = n.s.players[name]
        if not t.alive:
            continue
        if n.is_shielded(t):
            g.emit("no_effect", HOST, player=p.name, ability="seduce", why="untouchable")
        elif has_ready(g, t, "condom"):
            spend(g, t, "condom", "putana")
            g.emit("saved", HOST, player=t.name, by="condom", cause="putana")
        else:
            n.block(t, p)


# ---- the killer ------------------------------------------------------------------------------

def orders_tonight(g) -> list:
    v = g.state.counters.get(ORDERS)
    if not v or v["night"] != g.state.idx:
        return []
    return list(v["list"])


def _order(dc, actor, targets, secret: bool) -> None:
    g = dc.g
    s = g.state
    t = targets[0]
    v = s.counters.get(ORDERS)
    lst = list(v["list"]) if v and v["night"] == s.idx + 1 else []
    lst.append([actor.name, t.name, actor.role if secret else ""])
    g.emit("counter", HOST, key=ORDERS, value={"night": s.idx + 1, "list": lst})
    killers = [p for p in s.order if p.alive and p.role == "killer"]
    if secret:
        g.emit("killer_order", g.to(actor, *killers), by=actor.role, target=t.name)
    else:
        g.emit("killer_order", PUBLIC, by=actor.name, target=t.name)


@mechanic("mafia_yakuza_order", visits=False, counts_as_out=False)
def order(dc, actor, targets, params):
    """A public order to the killer (written in blue in the thread)."""
    _order(dc, actor, targets, secret=params.get("secret", False))


@constraint("mafia_yakuza_knows_killer", targets=False, listed=True)
def knows_killer(g, p, ab, ts, params):
    """The commissar or the sergeant has found the killer by a check (either of them)."""
    pair = {q.name for q in g.state.order if q.role in ("commissar", "sergeant")} | {p.name}
    for ev in g.events:
        if ev.type == "check_result" and ev.data.get("to") in pair \
                and ev.data.get("result") == "killer":
            return None
    return (f"«{ab.name_ru}»: заказ через ведущего — только когда Коммисар или Сержант "
            f"открыли Киллера.",
            f"'{ab.name_en}': an order through the host only once the commissar or the "
            f"sergeant has found the killer.")


@constraint("mafia_yakuza_ordered")
def ordered(g, p, ab, ts, params):
    want = {o[1] for o in orders_tonight(g)}
    if ts and ts[0] not in want:
        return (f"«{ab.name_ru}»: Киллер убивает только на заказ; заказаны: "
                f"{', '.join(sorted(want)) or 'никто'}.",
                f"'{ab.name_en}': the killer kills only on order; ordered: "
                f"{', '.join(sorted(want)) or 'nobody'}.")
    return None


@mechanic("mafia_yakuza_contract")
def contract(n, actor, targets, params):
    g = n.g
    t = targets[0]
    by = [o[2] or o[0] for o in orders_tonight(g) if o[1] == t.name]
    g.emit("killer_order_done", PUBLIC, target=t.name, by=by)
    n.attack(actor, t, "direct", "contract")


# ---- the paranoid ----------------------------------------------------------------------------

@hook("night_open", "mafia_yakuza_paranoid_roll")
def paranoid_roll(g, params):
    """Before the night's moves the host rolls each paranoid's action and tells him."""
    s = g.state
    for p in s.order:
        if p.alive and p.role == "paranoid":
            kind = g.roll("paranoid", PARANOID_KINDS)
            g.set_status(p, "paranoid_action", kind, until=s.idx)
            g.emit("bonus", g.to(p), to=p.name, bonus=kind, source="paranoid")


@constraint("mafia_yakuza_paranoid_target")
def paranoid_target(g, p, ab, ts, params):
    kind = g.state.status_value(p, "paranoid_action")
    if ts and ts[0] == p.name and kind != "heal":
        return (f"«{ab.name_ru}»: на себя можно только лечение (выпало: {kind}).",
                f"'{ab.name_en}': only a heal may target yourself (rolled: {kind}).")
    return None


def defer(n, actor, kind: str, t, source: str) -> None:
    """Run a random action at its own step (now, if that step has come)."""
    step = KIND_STEP[kind]
    entry = (actor.name, kind, t.name, source)
    if n.g.rules.step_index[step] <= n.g.rules.step_index[n.step.id]:
        _run_deferred(n, entry)
    else:
        n.notes(YakuzaNight).deferred.append((step, entry))


@mechanic("mafia_yakuza_paranoid")
def paranoid(n, actor, targets, params):
    kind = n.s.status_value(actor, "paranoid_action")
    if kind is None:
        return
    defer(n, actor, kind, targets[0], "paranoid")


@hook("step", "mafia_yakuza_paranoid_default")
def paranoid_default(n, params):
    """The action is mandatory: a paranoid who names nobody acts on a random player."""
    g = n.g
    s = n.s
    sent = {a.actor for a in s.pending if g.rules.abilities[a.ability].id == "act"}
    for p in s.order:
        kind = s.status_value(p, "paranoid_action") if p.st else None
        if kind is None or not p.alive or p.name in sent:
            continue
        pool = [q.name for q in s.order if q.alive and (q is not p or kind == "heal")]
        if pool:
            g.emit("no_effect", HOST, player=p.name, ability="act", why="not_sent")
            defer(n, p, kind, s.players[g.roll("paranoid target", pool)], "paranoid")


@hook("step", "mafia_yakuza_killer_default")
def killer_default(n, params):
    """A killer who names nobody while orders wait gets a random ordered victim."""
    g = n.g
    s = n.s
    sent = {a.actor for a in s.pending if a.ability == "killer.kill"}
    for p in s.order:
        if p.role != "killer" or not p.alive or p.name in sent or p.name in n.dead_now:
            continue
        pool = sorted({o[1] for o in orders_tonight(g) if s.players[o[1]].alive},
                      key=lambda x: s.players[x].seat)
        if not pool:
            continue
        t = s.players[g.roll("killer target", pool)]
        if n.is_blocked(p):
            g.emit("blocked", HOST, player=p.name, by=n.blocked_by.get(p.name),
                   ability="kill")
            continue
        run_ability(n, p, g.rules.abilities["killer.kill"], [t])


@hook("step", "mafia_yakuza_deferred")
def run_deferred(n, params):
    for step, entry in n.notes(YakuzaNight).deferred:
        if step == n.step.id:
            _run_deferred(n, entry)


def _run_deferred(n, entry) -> None:
    g = n.g
    s = n.s
    name, kind, tname, source = entry
    actor = s.players[name]
    t = s.players[tname]
    if name in n.dead_now:
        return
    if n.is_blocked(actor):
        g.emit("blocked", HOST, player=name, by=n.blocked_by.get(name), ability=kind)
        return
    if not t.alive:
        return
    if n.is_shielded(t):
        g.emit("no_effect", HOST, player=name, ability=kind, why="untouchable")
        return
    if kind in SHOCKABLE and _shocker(g, t, source):
        return
    if kind == "kill":
        n.attack(actor, t, "direct", source)
    elif kind == "heal":
        heal(n, actor, [t], {"source": source})
    elif kind == "block":
        n.block(t, actor)
    elif kind == "day_block":
        day_block(g, t, name, n.idx + 1)
    elif kind == "check":
        g.emit("check_result", g.to(actor), to=name, target=tname,
               result=g.role(t).appears_as or t.role)
    elif kind == "kamikaze":
        if actor.role == "paranoid":
            # 1.2.2.17: «Если параноик выполнил действие камикадзе, то он считается
            # победителем в случае победы любого нейтрала»
            g.set_status(actor, POSTHUMOUS, "kamikaze")
        kamikaze(n, actor, [t], {})


# ---- the necromancer ------------------------------------------------------------------------

@constraint("mafia_yakuza_killed")
def killed(g, p, ab, ts, params):
    """«которого убили прошлой ночью»: killed, not one who left by timeout before the night."""
    for t in ts:
        if g.state.players[t].how != "killed":
            return (f"«{ab.name_ru}»: воскресить можно только убитого прошлой ночью, а у «{t}» "
                    f"другая причина выбытия.",
                    f"'{ab.name_en}': only a player killed last night can be raised; '{t}' "
                    f"left otherwise.")
    return None


@mechanic("mafia_yakuza_necromancy", visits=False, counts_as_out=False)
def necromancy(dc, actor, targets, params):
    """After ``revive``: the necromancer «будет считаться убитым» and will win with the raised
    player or his clan."""
    g = dc.g
    t = targets[0]
    if not t.alive:
        return
    g.set_status(actor, POSTHUMOUS, {"raised": t.name})
    g.eliminate(actor, "killed", why="necromancy")


# ---- victory ---------------------------------------------------------------------------------

@condition("mafia_yakuza_neutral")
def neutral_win(c, own, me, arg):
    """1.3.4: a neutral wins when he alone is left; the necromancer who raised someone (1.2.2.10)
    and the paranoid who went kamikaze (1.2.2.17) may also win dead, with another's win."""
    return _neutral_wins(c, me, frozenset())


def _neutral_wins(c, me, seen: frozenset) -> bool:
    if me is None or me.name in seen:
        return False
    if me.alive and len(c.alive) == 1:
        return True
    why = c.g.state.status_value(me, POSTHUMOUS) if me.st else None
    if why is None:
        return False
    seen = seen | {me.name}
    players = c.g.state.players
    if isinstance(why, dict):
        # the necromancer: «если победил персонаж, которого он воскресил, или клан
        # воскрешённого персонажа»
        r = players[why["raised"]]
        fac = c.factions[r.faction]
        if fac.solo:
            return _neutral_wins(c, r, seen)
        return bool(c.by_faction.get(r.faction)) and victory.holds(c.g, fac.win, r.faction)
    # the paranoid after a kamikaze: «в случае победы любого нейтрала»
    return any(q.faction == me.faction and q is not me and _neutral_wins(c, q, seen)
               for q in c.g.state.order)


# ---- dawn: heals, vests, belts ---------------------------------------------------------------

@hook("dawn", "mafia_yakuza_dawn")
def dawn(n, params):
    g = n.g
    s = n.s
    hits: dict[str, list] = {}
    for a in n.attacks:
        if a.kind in ("direct", "delayed"):
            hits.setdefault(a.target.name, []).append(a)
    for name, heals in list(n.heals.items()):
        sources = {p.get("source") for _, p in heals}
        if "doctor" in sources and "ampoule" in sources:
            # «не умирает в эту ночь ни при каком раскладе»
            n.mark(s.players[name], "shielded", "doctor+ampoule")
        elif len(hits.get(name, ())) >= 3:
            # three ways or more: no heal saves
            for healer, _p in heals:
                g.emit("no_effect", HOST, player=healer.name, ability="heal", why="three_ways",
                       target=name, attacks=len(hits[name]))
            n.heals[name] = []
    for name, attacks in hits.items():
        p = s.players[name]
        if not p.alive or n.heals.get(name) or n.is_shielded(p):
            continue
        if has_ready(g, p, "vest") and len(attacks) == 1:
            spend(g, p, "vest", attacks[0].cause)
            n.heals[name] = [(p, {"against": ["direct", "delayed"], "source": "vest"})]
    done: set[str] = set()
    while True:
        dying = n.dying_so_far()
        new = [x for x in sorted(dying) if x not in done
               and has_ready(g, s.players[x], "belt")]
        if not new:
            break
        for name in new:
            done.add(name)
            p = s.players[name]
            spend(g, p, "belt", "death")
            killers = []
            for a in n.attacks:
                if a.target is p and a.attacker is not None and a.attacker is not p \
                        and a.attacker.name not in killers:
                    killers.append(a.attacker.name)
            for k in killers:
                g.emit("revenge", HOST, player=name, target=k, cause="belt")
                n.attack(p, s.players[k], "sure", "belt")


# ---- the day ---------------------------------------------------------------------------------

@constraint("mafia_yakuza_day_move", targets=False,
            gate=("mafia_yakuza_day_free", lambda params: (True,)), exact=True)
def day_move(g, p, ab, ts, params):
    if g.state.has(p, "day_blocked"):
        return (f"«{p.name}» сегодня без дневного хода.",
                f"'{p.name}' has lost today's day move.")
    return None


@mechanic("mafia_yakuza_describe", visits=False, counts_as_out=False)
def describe(dc, actor, targets, params):
    """The day's description was posted (its content is the host's to read)."""


@mechanic("mafia_yakuza_judge", visits=False, counts_as_out=False)
def judge(dc, actor, targets, params):
    dc.notes(YakuzaDay).judge_pick = targets[0].name


@hook("day_count", "mafia_yakuza_count")
def count(dc, params):
    """Vote weights (authority x2, amulet x2, weakened x0.5) and who wrote no description."""
    g = dc.g
    s = g.state
    amulet = dc.notes(YakuzaDay).amulet
    for p in s.order:
        if not p.alive:
            continue
        w = 1.0
        if "double_vote" in g.role(p).tags:
            w *= 2
        if p.name in amulet:
            w *= 2
        if s.has(p, "weak_vote"):
            w *= 0.5
        if w != 1:
            dc.weights[p.name] = int(w) if w == int(w) else w
    if params.get("descriptions", True):
        wrote = {a.actor for a in s.day_actions
                 if g.rules.abilities[a.ability].id == "describe"}
        for p in s.order:
            if p.alive and p.name not in wrote and not s.has(p, "day_blocked"):
                g.set_status(p, "no_description", True, until=s.idx + 1)


@hook("night_open", "mafia_yakuza_timeout")
def timeout(g, params):
    """Who wrote no description leaves the game «по тайму» before the night."""
    s = g.state
    for p in s.order:
        if p.alive and p.st and s.has(p, "no_description"):
            g.eliminate(p, "timeout")
    victory.check(g)


@tie_policy("mafia_yakuza_judge")
def tie_judge(g, dc, leaders):
    """The judge's pick among the tied; without a judge able to decide, dice (1.4.1)."""
    pick = dc.notes(YakuzaDay).judge_pick
    if pick in leaders:
        g.emit("tie_broken", PUBLIC, player=pick, by="judge")
        return pick
    return g.roll("tie", leaders)


@hook("on_eliminated", "mafia_yakuza_paper")
def paper(g, dead):
    """Paper and pencil: the lynched takes with him the last one who voted against him."""
    s = g.state
    if dead.how != "lynched" or s.phase != "day" or not has_ready(g, dead, "paper"):
        return
    last = None
    for ev in reversed(g.events):
        if ev.type == "phase_started":
            break
        if ev.type == "vote" and not ev.data.get("void") and ev.data["target"] == dead.name:
            v = ev.data["voter"]
            q = s.players[v]
            if s.votes.get(v) == dead.name and q.alive and v != dead.name \
                    and vote_loss(g, q) is None:
                last = q
                break
    spend(g, dead, "paper", "lynched")
    if last is not None:
        g.eliminate(last, "lynched", why="paper", by=dead.name)
