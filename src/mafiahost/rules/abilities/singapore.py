"""«Сингапурская мафия» (seed 000): what the ruleset file cannot say.

Economy: a player's purse is the status ``coins`` (engine/mechanics/items.py); a clan's
purse is its treasury (общак), the game counter ``treasury:<clan>``: every clan member
spends from it and earns into it. The shop's stock is the counter ``stock:<item>``; the
clan's poison the counter ``poison:<clan>``. Orders (заказы) to the thug, the drunk, the
doctor and the tour operator are day moves kept in the counter ``orders``.

Night: three parts (evening, night, early morning) are the ruleset's ordered steps. Kills
are attacks settled at dawn; the dawn hook ``singapore_dawn`` applies what the library
cannot: immunities (priest and vampires to guns, vests), stakes, bandages, and pays the
night's income from who is going to die.

Jail: the day's vote holds the condemned (``lynch_holds: jailed``); the lawyer frees him
(his move, or automatically: himself and the priest when the night opens, a cop at dawn),
the cops interrogate him, his clan may shoot him; the dawn hook ``singapore_jail_dawn``
removes a prisoner still held. Blood writing: a day move of one killed last night; the tie
policy ``singapore_blood`` jails the tied player whose name is written.
"""

from __future__ import annotations

from mafiahost.engine.events import HOST, PUBLIC
from mafiahost.engine.mechanics import condition, constraint, hook, mechanic, scheduled, tie_policy
from mafiahost.engine.mechanics.items import add_coins, coins_of, give_item, items_of, take_item

CLANS = ("clan_a", "clan_b")
VAMPIRES = ("vampire", "turned_vampire")
GUNS = ("kill", "cop_kill", "seek_shot", "thug_kill", "apprentice_kill", "maniac_kill",
        "silver", "suicide_curse")
SHOP = {  # item: (price, stock)
    "vest": (3, 3), "poison": (3, 3), "diploma": (4, 3), "antidote": (1, 10),
    "will": (5, 2), "trap": (6, 2), "siren": (4, 3), "rum": (2, 4), "cross": (1, 7),
}
NOW_ITEMS = ("antidote", "rum")          # usable the night they are bought
ORDER_PRICE = {"thug": 3, "drunk": 2, "doctor": 2, "tour": 2, "lawyer": 9}
ORDER_FEE = {"thug": 2, "drunk": 2, "doctor": 2, "tour": 2, "lawyer": 9}
# moves that may reach a prisoner («кроме как допрос и убийство»; watching is not acting on him)
COPS = ("sheriff", "investigator")
# the journalist's categories («Варианты ответов»), by ability id
CATEGORY = {
    "kill": "shot", "silver": "shot", "seek": "watched", "stake": "watched",
    "drink": "drank", "rum": "drank", "poison": "drank", "bite_poison": "drank",
    "heal": "stayed", "bandage": "stayed", "steal": "stayed", "excursion": "stayed",
    "tour": "stayed", "confess": "stayed", "bite_blood": "stayed", "bite_turn": "stayed",
    "recruit": "stayed", "disguise": "stayed",
}


# ---- purses, stock, items ---------------------------------------------------------------

def counter(g, key, default=None):
    return g.state.counters.get(key, default)


def set_counter(g, key, value):
    g.emit("counter", HOST, key=key, value=value)


def purse(g, p) -> int:
    if p.faction in CLANS:
        return counter(g, "treasury:" + p.faction, 0)
    return coins_of(g, p)


def earn(g, p, n: int, why: str) -> None:
    """Income: a clan member's goes to the treasury; remembered per member (succession)."""
    if p.faction in CLANS:
        key = "treasury:" + p.faction
        total = counter(g, key, 0) + n
        set_counter(g, key, total)
        members = g.faction_members(p.faction)
        g.emit("treasury_changed", g.to(*members), clan=p.faction, delta=n, total=total,
               why=why, by=p.name)
        g.set_status(p, "earned", g.state.status_value(p, "earned", 0) + n)
    else:
        add_coins(g, p, n, why)


def spend(g, p, n: int, why: str, to=None) -> bool:
    if purse(g, p) < n:
        return False
    earn(g, p, -n, why)
    if p.faction in CLANS:
        g.set_status(p, "earned", g.state.status_value(p, "earned", 0) + n)  # spending is not
    if to is not None:
        earn(g, to, n, why)
    return True


def usable(g, p, item) -> int:
    """How many of ``item`` work now: not bought tonight (unless NOW_ITEMS), and never
    under the curse of holiness (святость), never in jail («сидит в тюрьме без вещей»)."""
    if cursed(g, p) == "holiness" or g.state.has(p, "jailed"):
        return 0
    have = items_of(g, p).get(item, 0)
    if item in NOW_ITEMS:
        return have
    fresh = g.state.status_value(p, "fresh") or {}
    return max(0, have - fresh.get(item, 0))


def cursed(g, p):
    """The curse on ``p`` now, or None; curses end when the witch is gone."""
    c = g.state.status_value(p, "curse")
    if not c:
        return None
    witch = g.state.players.get(c[1])
    if witch is None or not witch.alive:
        return None
    return c[0]


def is_clan(p) -> bool:
    return p.faction in CLANS


# ---- setup --------------------------------------------------------------------------------

@hook("night_open", "singapore_open")
def singapore_open(g, params):
    """Night 1: the clans' treasuries (18) and poison (1), the shop's stock."""
    if counter(g, "singapore_init"):
        return
    set_counter(g, "singapore_init", True)
    for clan in CLANS:
        if g.faction_members(clan):
            set_counter(g, "treasury:" + clan, params.get("treasury", 18))
            set_counter(g, "poison:" + clan, 1)
    for item, (_price, stock) in SHOP.items():
        set_counter(g, "stock:" + item, stock)


# ---- constraints --------------------------------------------------------------------------

@constraint("singapore_can_pay")
def can_pay(g, p, ab, ts, params):
    price = params.get("coins") or ORDER_PRICE.get(params.get("service"), 0)
    if params.get("item"):
        price = SHOP[params["item"]][0]
    if purse(g, p) < price:
        return (f"«{ab.name_ru}» стоит {price} мон., а у вас {purse(g, p)}.",
                f"'{ab.name_en}' costs {price} coins and you have {purse(g, p)}.")
    return None


@constraint("singapore_in_stock")
def in_stock(g, p, ab, ts, params):
    item = params["item"]
    pending = sum(1 for a in g.state.pending if g.rules.abilities[a.ability].id == ab.id)
    if counter(g, "stock:" + item, 0) - pending <= 0:
        return (f"«{item}» в магазине закончился(ась).", f"The shop is out of '{item}'.")
    if params.get("not_town") and g.rules.factions[p.faction].side == "town":
        return (f"Мирные не покупают «{item}».", f"The town cannot buy '{item}'.")
    return None


def _buying_tonight(g, p, item) -> bool:
    """A purchase of ``item`` sent by ``p`` this night (the shop's move)."""
    abilities = g.rules.abilities
    return any(a.actor == p.name and abilities[a.ability].id == "buy_" + item
               for a in g.state.pending)


@constraint("singapore_has_item")
def has_usable_item(g, p, ab, ts, params):
    item = params["item"]
    if item in NOW_ITEMS and usable(g, p, item) < 1 and _buying_tonight(g, p, item) and \
            cursed(g, p) != "holiness":
        return None     # «можно использовать в ночь покупки»: bought when it is used
    if usable(g, p, item) < 1:
        return (f"«{ab.name_ru}»: нет действующего предмета «{item}» (купленные этой ночью "
                f"вещи действуют со следующей ночи).",
                f"'{ab.name_en}': no working '{item}' (items bought tonight work from the "
                f"next night).")
    return None


@constraint("singapore_clan_poison")
def clan_poison(g, p, ab, ts, params):
    if is_clan(p):
        left = counter(g, "poison:" + p.faction, 0)
    else:
        left = usable(g, p, "poison")
    used = sum(1 for a in g.state.pending if g.rules.abilities[a.ability].id == ab.id
               and g.state.players[a.actor].faction == p.faction)
    if left - used <= 0:
        return ("Яда нет: его покупают в магазине (клан — на клан).",
                "No poison left: buy it in the shop (a clan buys for the clan).")
    return None


@constraint("singapore_ordered")
def ordered(g, p, ab, ts, params):
    """The thug kills only on order (a target someone ordered for tonight) unless no mafia
    is left in the game."""
    if not any(q.alive and is_clan(q) for q in g.state.order):
        return None
    if not any(o[2] == ts[0] for o in _orders(g, params.get("service", "thug"))):
        return ("Погромщик убивает только по заказу: эту цель никто не заказал.",
                "The thug kills only on order: nobody ordered this target.")
    return None


@constraint("singapore_thug_customer")
def thug_customer(g, p, ab, ts, params):
    if g.rules.factions[p.faction].side == "town":
        return ("Погромщику заказывают только мафия и нейтральные персонажи.",
                "Only the mafia and neutral characters order the thug.")
    return None


@constraint("singapore_no_apprentice")
def no_apprentice(g, p, ab, ts, params):
    if any(q.alive and q.faction == p.faction and q.role.startswith("apprentice")
           for q in g.state.order):
        return ("Пока в клане есть ученик, нового вербовать нельзя.",
                "While the clan has an apprentice no new one can be recruited.")
    return None


@constraint("singapore_one_of")
def one_of(g, p, ab, ts, params):
    """One of these moves a night for the whole faction (one shooter a clan; the cops'
    kill or cover)."""
    abilities = g.rules.abilities
    ids = params.get("ids", ("kill", "silver"))
    for a in g.state.pending:
        q = g.state.players[a.actor]
        if q.faction == p.faction and abilities[a.ability].id in ids:
            return (f"За ночь группировка делает только одно из: {', '.join(ids)} — уже "
                    f"сделано ({a.actor}).",
                    f"One of {', '.join(ids)} a night for the faction — already sent "
                    f"({a.actor}).")
    return None


@constraint("singapore_cover_rules")
def cover_rules(g, p, ab, ts, params):
    if ts:
        t = g.state.players[ts[0]]
        if t.faction == p.faction:
            return ("Копы не могут прикрывать друг друга.", "The cops cannot cover each other.")
        if counter(g, "last_cover:" + p.faction) == [ts[0], g.state.number - 1]:
            return ("Нельзя прикрывать одну цель две ночи подряд.",
                    "Not the same target two nights in a row.")
    return None


@constraint("singapore_doctor_rest")
def doctor_rest(g, p, ab, ts, params):
    last = g.state.status_value(p, "doctor_last") or ()
    for t in ts:
        # «если на вторую ночь не будет вылечен врачом то умирает»: his wounded may be healed
        if params.get("wounded_ok") and g.state.has(g.state.players[t], "wounded"):
            continue
        if t in last:
            return (f"«{t}» лечен(а) прошлой ночью: этой ночью его нельзя лечить или "
                    f"перевязывать.",
                    f"'{t}' was treated last night: not tonight.")
    return None


@constraint("singapore_once_each")
def once_each(g, p, ab, ts, params):
    done = g.state.status_value(p, "confessed") or ()
    if ts and ts[0] in done:
        return (f"«{ts[0]}» уже исповедан(а): одного персонажа — один раз за игру.",
                f"'{ts[0]}' has already confessed: once a game per character.")
    return None


@constraint("singapore_makeup_not_self")
def makeup_not_self(g, p, ab, ts, params):
    """«Не может переводить действия с себя, но может переводить на себя»."""
    if ts and ts[0] == p.name:
        return ("Гримёр не может переводить действия с себя (но может — на себя): первым "
                "выберите другого игрока.",
                "The make-up artist cannot move actions off himself (only onto himself): "
                "choose another player first.")
    return None


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


# ---- night mechanics ------------------------------------------------------------------------

@mechanic("singapore_kill")
def kill(n, actor, targets, params):
    """A shot (or the thug's, apprentice's, maniac's kill); the impotence curse stops it.
    The thug takes his fee from the order; vests and immunities are settled at dawn."""
    g = n.g
    t = targets[0]
    if cursed(g, actor) == "impotence":
        g.emit("no_effect", HOST, player=actor.name, ability="kill", why="impotence")
        return
    service = params.get("service")
    if service:
        _take_order(n, actor, service, t)
    n.attack(actor, t, "direct", params.get("cause", "kill"), how="killed")


@mechanic("singapore_seek")
def seek(n, actor, targets, params):
    """Search for a role; finding him, shoots at once (the boss: the sheriff; the sheriff:
    the recruiter); a find pays 1 coin."""
    g = n.g
    t = targets[0]
    want = params["role"]
    found = t.role.startswith(want)
    g.emit("check_result", g.to(actor), to=actor.name, target=t.name,
           result=want if found else "not_" + want)
    if found:
        earn(g, actor, 1, "seek")
        if cursed(g, actor) != "impotence":
            n.attack(actor, t, "direct", "seek_shot")


@mechanic("singapore_poison")
def poison(n, actor, targets, params):
    """Poison: the victim dies the next night (at the shop step) unless cured by the doctor
    or an antidote then; the priest, the drunk and vampires are immune. The clan's poison
    comes from its stock, anyone else's from his inventory."""
    g = n.g
    t = targets[0]
    if params.get("bite") is None:
        if cursed(g, actor) == "impotence":
            g.emit("no_effect", HOST, player=actor.name, ability="poison", why="impotence")
            return
        if is_clan(actor):
            key = "poison:" + actor.faction
            set_counter(g, key, counter(g, key, 0) - 1)
        else:
            take_item(g, actor, "poison", why="used")
    give_poison(n, actor, t)


def give_poison(n, actor, t):
    g = n.g
    if t.role in ("priest", "drunk") or t.role in VAMPIRES:
        g.emit("no_effect", HOST, player=actor.name, ability="poison", why="immune",
               target=t.name)
        return
    n.extra.setdefault("sg_poisons", []).append((actor, t))


@scheduled("singapore_poison_due")
def poison_due(n, item):
    t = n.s.players[item["target"]]
    if not t.alive:
        return
    if cursed(n.g, t) == "fear":
        n.g.emit("no_effect", HOST, player=t.name, why="fear")
        return
    n.attack(n.s.players[item["by"]], t, "delayed", item.get("cause", "poison"))


@mechanic("singapore_heal")
def heal(n, actor, targets, params):
    """Full healing: saves from kills and from poison (given tonight or due tonight)."""
    g = n.g
    for t in targets:
        n.heals.setdefault(t.name, []).append((actor, {"against": ["direct", "delayed"]}))
        n.extra.setdefault("sg_healers", []).append((actor, t, params.get("fee", 2)))
    _take_order(n, actor, "doctor", targets[0])
    g.set_status(actor, "doctor_last", [t.name for t in targets], until=n.idx + 2)


@mechanic("singapore_bandage")
def bandage(n, actor, targets, params):
    """Bandage two: one who would die tonight lives to the next night and dies then unless
    the doctor heals him."""
    g = n.g
    for t in targets:
        n.extra.setdefault("sg_bandages", []).append((actor, t))
    g.set_status(actor, "doctor_last", [t.name for t in targets], until=n.idx + 2)


def use_now_item(n, actor, item) -> bool:
    """Use one ``item`` (of NOW_ITEMS) tonight: one he has, or the one he is buying tonight
    («кроме противоядия, бутылки рома и кляпа, которые можно использовать в ночь
    покупки»): that purchase is made now, and the shop's move later does not buy again."""
    g = n.g
    if take_item(g, actor, item, why="used"):
        return True
    if not _buying_tonight(g, actor, item) or (actor.name, item) in n.extra.get("sg_early", ()):
        return False
    if not _purchase(g, actor, item):
        g.emit("no_effect", HOST, player=actor.name, ability="buy_" + item, why="shop")
        return False
    n.extra.setdefault("sg_early", set()).add((actor.name, item))
    return True


@mechanic("singapore_antidote", visits=False, counts_as_out=False)
def antidote(n, actor, targets, params):
    """Self-cure: poison (or a vampire's venom) due tonight does not kill."""
    if not use_now_item(n, actor, "antidote"):
        return
    n.heals.setdefault(actor.name, []).append((actor, {"against": ["delayed"]}))


HARMFUL = ("singapore_kill", "singapore_seek", "singapore_poison", "singapore_bite")


@mechanic("singapore_cover")
def cover(n, actor, targets, params):
    """The cops' cover, «охрана одного жителя ночью»: «блокируется ночное действие всех
    игроков осуществляющих ход после Прикрытия» — every player (but the cops) whose move
    lands on the resident at a later step is blocked; the resident himself still acts.
    He is also guarded from kills and poison tonight. 2 coins to the coverer if a kill,
    poison or bite was stopped («удачное прикрытие»)."""
    g = n.g
    t = targets[0]
    n.heals.setdefault(t.name, []).append((actor, {"against": ["direct", "delayed"]}))
    abilities = g.rules.abilities
    idx = g.rules.step_index
    here = idx[n.step.id]
    stopped = False
    for a in n.s.pending:
        ab = abilities[a.ability]
        if not a.targets or ab.step is None or idx[ab.step] <= here:
            continue
        aimed = n.redirects.get(a.actor, (a.targets[0],))[0]
        q = n.s.players[a.actor]
        if aimed != t.name or q is t or q.faction == actor.faction:
            continue
        n.block(q, actor)
        stopped = stopped or any(m.name in HARMFUL for m, _ in ab.mechs)
    if stopped:
        n.extra.setdefault("sg_covers", []).append((actor, t))
    set_counter(g, "last_cover:" + actor.faction, [t.name, n.s.number])


@mechanic("singapore_confess")
def confess(n, actor, targets, params):
    """The priest's confession: nobody can act on the confessed tonight; the priest learns
    whether he is a sinner (has killed); the confessed pays 1 coin, gets a cross, loses
    his curse; a fanatic, the witch or a true vampire loses the next night's move; a turned
    vampire becomes who he was."""
    g = n.g
    t = targets[0]
    n.mark(t, "shielded", actor.name)
    sinner = g.state.has(t, "sinner")
    g.emit("check_result", g.to(actor), to=actor.name, target=t.name,
           result="sinner" if sinner else "not_sinner")
    done = list(g.state.status_value(actor, "confessed") or ())
    g.set_status(actor, "confessed", done + [t.name])
    set_counter(g, "last_confessed", t.name)
    if purse(g, t) >= 1:
        spend(g, t, 1, "confession", to=actor)
    give_item(g, t, "cross", why="confession")
    if g.state.status_value(t, "curse"):
        g.clear_status(t, "curse")
        g.emit("curse_lifted", g.to(t), to=t.name)
    if t.role in ("witch", "vampire", "fanatic"):
        g.set_status(t, "no_action", True, until=n.idx + 2)
    if t.role == "turned_vampire":
        was = g.state.status_value(t, "was") or ["civilian", "town"]
        g.emit("role_changed", g.to(t), player=t.name, role=was[0], was=t.role)
        g.emit("faction_changed", g.to(t), player=t.name, faction=was[1])


@mechanic("singapore_drink")
def drink(n, actor, targets, params):
    """The drunk: the drinking companion loses his night move; an order pays 2 coins."""
    n.block(targets[0], actor)
    if _take_order(n, actor, "drunk", targets[0]):
        n.extra["sg_drunk_ordered"] = True


@mechanic("singapore_rum")
def rum(n, actor, targets, params):
    """A bottle of rum: the companion's vote does not count next day."""
    if not use_now_item(n, actor, "rum"):
        return
    n.g.set_status(targets[0], "vote_void", "rum", until=n.idx + 1)


@mechanic("singapore_recruit")
def recruit(n, actor, targets, params):
    """The clan's recruitment: a mafioso of any clan, a cop, the journalist, the doctor,
    the priest, a vampire (and the lawyer, who needs a card) are only told of the attempt;
    anyone else becomes the clan's apprentice (his coins go to the treasury)."""
    g = n.g
    t = targets[0]
    never = ("sheriff", "investigator", "journalist", "doctor", "priest", "lawyer") + VAMPIRES
    again = g.state.status_value(t, "apprentice_of") == actor.faction
    if is_clan(t) or t.role in never or again or n.extra.get("sg_recruited", {}).get(t.name):
        g.emit("recruit_attempt", g.to(t), to=t.name)
        g.emit("recruit_failed", g.to(actor), player=t.name, to=actor.name)
        return
    n.extra.setdefault("sg_recruited", {})[t.name] = actor.faction
    clan = actor.faction
    role = "apprentice_" + clan[-1]
    g.emit("role_changed", g.to(t), player=t.name, role=role, was=t.role)
    g.emit("recruited", g.to(actor, t), player=t.name, faction=clan, to=t.name)
    g.set_status(t, "apprentice_of", clan)
    g.set_status(t, "employer", actor.name)
    coins = coins_of(g, t)
    if coins:
        add_coins(g, t, -coins, "recruited")
        earn(g, actor, coins, "apprentice_coins")


@mechanic("singapore_bite")
def bite(n, actor, targets, params):
    """A vampire's bite: drink blood (the vote does not count next day, the victim is not
    told), inject venom (dies next night unless cured), or turn (the third bite); a vampire
    bitten is not bitten and the biter learns it."""
    g = n.g
    t = targets[0]
    how = params["how"]
    if t.role in VAMPIRES:
        g.emit("check_result", g.to(actor), to=actor.name, target=t.name, result="vampire")
        return
    bites = g.state.status_value(t, "bites", 0) + 1
    g.set_status(t, "bites", bites)
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
def third_bite(g, p, ab, ts, params):
    if ts and g.state.status_value(g.state.players[ts[0]], "bites", 0) < 2:
        return ("Обратить можно только при третьем укусе уже укушенного игрока.",
                "Turning needs the third bite of a player bitten twice.")
    return None


@mechanic("singapore_stake")
def stake(n, actor, targets, params):
    """Hunting with an aspen stake: a vampire hunted by at least two players dies."""
    n.extra.setdefault("sg_stakes", {}).setdefault(targets[0].name, []).append(actor)


@mechanic("singapore_trip")
def trip(n, actor, targets, params):
    """The tour operator: the traveller is away this night, the next day and the next night:
    no moves, no vote, cannot be jailed; on a tour (not an excursion) nobody can act on
    him either."""
    g = n.g
    t = targets[0]
    n.block(t, actor)
    g.set_status(t, "away", actor.name, until=n.idx + 2)
    g.set_status(t, "no_action", True, until=n.idx + 2)
    g.set_status(t, "voteless", "trip", until=n.idx + 1)
    g.set_status(t, "travelled", True)
    if params.get("tour"):
        g.set_status(t, "shielded", actor.name, until=n.idx + 2)
    _take_order(n, actor, "tour", t)
    g.emit("trip", PUBLIC, player=t.name, kind="tour" if params.get("tour") else "excursion")


@mechanic("singapore_disguise", cover_aware=True)
def disguise(n, actor, targets, params):
    """The make-up artist: tonight every later move aimed at the first target lands on
    the second ("under the image of another"); 1 coin if someone came."""
    g = n.g
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
def steal(n, actor, targets, params):
    """The thief: takes an item (sold back to the shop for 2 coins); with no item, a third
    of the coins (handed to the shop, 2 coins to him); from a mafioso or a cop, a gun."""
    g = n.g
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
def become(n, actor, targets, params):
    """Take the gun and become a maniac (the witness, the thief, the drunk)."""
    g = n.g
    g.emit("role_changed", g.to(actor), player=actor.name, role=params["role"], was=actor.role)
    g.emit("faction_changed", g.to(actor), player=actor.name, faction=params["faction"])


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


@mechanic("singapore_watch", visits=False, counts_as_out=False)
def witness(n, actor, targets, params):
    n.extra.setdefault("sg_witness", []).append((actor, targets[0]))


@mechanic("singapore_journal", visits=False, counts_as_out=False)
def journal(n, actor, targets, params):
    n.extra.setdefault("sg_journal", []).append((actor, targets[0]))


@mechanic("singapore_buy", visits=False, counts_as_out=False)
def buy(n, actor, targets, params):
    """The shop: pay the price, take one from the stock; a clan buys poison for the clan.
    Items work from the next night (antidote and rum at once)."""
    g = n.g
    item = params["item"]
    if (actor.name, item) in n.extra.get("sg_early", ()):
        return          # bought earlier tonight, when it was used
    if not _purchase(g, actor, item):
        g.emit("no_effect", HOST, player=actor.name, ability="buy_" + item, why="shop")
        return
    if item == "poison" and is_clan(actor):
        return
    fresh = dict(g.state.status_value(actor, "fresh") or {})
    fresh[item] = fresh.get(item, 0) + 1
    g.set_status(actor, "fresh", fresh, until=g.state.idx)


def _purchase(g, actor, item) -> bool:
    """Pay and take one ``item`` from the stock (a clan's poison goes to the clan)."""
    stock = counter(g, "stock:" + item, 0)
    if stock <= 0 or not spend(g, actor, SHOP[item][0], "shop:" + item):
        return False
    set_counter(g, "stock:" + item, stock - 1)
    if item == "poison" and is_clan(actor):
        key = "poison:" + actor.faction
        set_counter(g, key, counter(g, key, 0) + 1)
    else:
        give_item(g, actor, item, why="shop")
    return True


# ---- orders (day) ---------------------------------------------------------------------------

def _orders(g, service):
    return [o for o in counter(g, "orders", ()) if o[0] == service and o[3] == g.state.number]


def _take_order(n, actor, service, t) -> bool:
    """The provider took an order for ``t``: the customer pays, the provider is paid."""
    g = n.g
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
def order(dc, actor, targets, params):
    """A day order (to the thug, the drunk, the doctor, the tour operator) for tonight;
    paid when the provider takes it."""
    g = dc.g
    if g.state.status_value(actor, "vote_void") == "rum":
        g.emit("no_effect", HOST, player=actor.name, why="rum")
        return
    orders = [o for o in counter(g, "orders", ()) if o[3] > g.state.number]
    orders.append([params["service"], actor.name, targets[0].name, g.state.number + 1])
    set_counter(g, "orders", orders)
    g.emit("order_placed", HOST, service=params["service"], customer=actor.name,
           target=targets[0].name)


@mechanic("singapore_diploma", visits=False)
def diploma(dc, actor, targets, params):
    """A diploma: the vote counts twice today (once a game per diploma)."""
    g = dc.g
    if take_item(g, actor, "diploma", why="used"):
        dc.weights[actor.name] = 2


@mechanic("singapore_choose_mafia", visits=False)
def choose_mafia(dc, actor, targets, params):
    dc.g.set_status(actor, "side", "mafia")


@mechanic("singapore_will", visits=False)
def will(dc, actor, targets, params):
    """Write the will: if the writer is killed, the named is jailed next morning."""
    g = dc.g
    g.set_status(actor, "will", targets[0].name)


@constraint("singapore_will_fixed")
def will_fixed(g, p, ab, ts, params):
    name = g.state.status_value(p, "will")
    if name and g.state.players[name].alive:
        return (f"В завещании уже вписан(а) «{name}»: имя нельзя менять до его выбытия.",
                f"The will already names '{name}': it cannot change before he is out.")
    return None


# ---- night hooks --------------------------------------------------------------------------

@hook("night_start", "singapore_night_start")
def night_start(n, params):
    """Before the evening: curses (panic, veil, suicide) and doors (trap, siren)."""
    g = n.g
    s = n.s
    abilities = g.rules.abilities
    idx = g.rules.step_index
    first_night = idx.get(params.get("night_from", "n01_vampire"), 0)
    last_night = idx.get(params.get("night_to", "n15_witch"), len(idx))
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
    # doors: the first night-part visitors of a trap's or a siren's owner
    for p in s.order:
        if not p.alive:
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
            caught = [s.players[a.actor] for i, a in visits if i == when]
            take_item(g, p, item, why="sprung")
            for c in caught:
                n.block(c, p)
                g.emit("caught", g.to(c, p), to=c.name, item=item, owner=p.name)
                if item == "trap":
                    g.set_status(c, "vote_void", "trap", until=n.idx + 1)
                    g.set_status(c, "no_action", True, until=n.idx + 2)
            break


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
    g = n.g
    s = n.s
    players = s.players
    # poison given tonight: cured at once by a full heal, else due next night
    for actor, t in n.extra.get("sg_poisons", ()):
        if any(hp.get("against") and "delayed" in hp["against"] for h, hp in n.heals.get(
                t.name, ()) if g.role(h).id == "doctor"):
            g.emit("cured", HOST, player=t.name)
            continue
        g.emit("poisoned", g.to(t), player=t.name, to=t.name)
        g.set_status(t, "poisoned", actor.name, until=n.idx + 2)
        g.emit("scheduled", HOST, item={"effect": "singapore_poison_due",
                                        "night_idx": n.idx + 2, "step": "m6_shop",
                                        "target": t.name, "by": actor.name})
    # stakes
    for name, hunters in n.extra.get("sg_stakes", {}).items():
        t = players[name]
        if t.role in VAMPIRES and len(hunters) >= 2:
            n.attack(hunters[0], t, "sure", "stake")
            n.extra.setdefault("sg_stake_kills", {})[name] = hunters
    # immunities and vests
    keep = []
    vest_step: dict[str, object] = {}
    for a in n.attacks:
        t = a.target
        gun = a.cause in GUNS
        if gun and t.role == "priest":
            g.emit("saved", HOST, player=t.name, by="priest_immune", cause=a.cause)
            continue
        if gun and t.role in VAMPIRES and a.cause != "silver":
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
    for doc, t in n.extra.get("sg_bandages", ()):
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
    for doc, t, fee in n.extra.get("sg_healers", ()):
        if t.name in attacked and t.name not in lethal:
            earn(g, doc, fee, "heal")
    for cop, t in n.extra.get("sg_covers", ()):
        if t.name not in lethal:
            earn(g, cop, 2, "cover")
    # income and consequences of the night's deaths
    for name, a in lethal.items():
        t = players[name]
        k = a.attacker
        if k is None or k is t:
            continue
        if a.cause not in ("poison", "wound", "stake"):
            g.set_status(k, "sinner", True)
        vamp = t.role in VAMPIRES
        if is_clan(k):
            if k.faction != t.faction:       # a jailed colleague shot: no income
                earn(g, k, 3 if vamp else 1, "kill")
        elif k.faction == "cops":
            earn(g, k, 3 if vamp else (1 if is_clan(t) else 0), "kill")
            if t.faction == "town":
                g.set_status(k, "killed_town", True)   # no automatic release from jail
        elif k.role == "maniac":
            earn(g, k, 2, "kill")
            done = list(g.state.status_value(k, "professions") or ())
            if t.role != "civilian" and t.role not in done:
                g.set_status(k, "professions", done + [t.role])
        if a.cause == "apprentice_kill" and k.role.startswith("apprentice") and k.alive:
            clan = k.faction
            g.emit("role_changed", g.to(k), player=k.name, role="mafioso_" + clan[-1],
                   was=k.role)
            g.emit("team", g.to(*g.faction_members(clan)), faction=clan,
                   members=[m.name for m in g.faction_members(clan)])
    for name, hunters in n.extra.get("sg_stake_kills", {}).items():
        if name in lethal:
            for h in hunters:
                earn(g, h, 3 if is_clan(h) or h.faction == "cops" else 2, "vampire")
    # the drunk without an order
    for p in s.order:
        if p.alive and p.role == "drunk":
            if n.extra.get("sg_drunk_ordered"):
                g.set_status(p, "dry_nights", 0)
            else:
                dry = g.state.status_value(p, "dry_nights", 0) + 1
                g.set_status(p, "dry_nights", dry)
                if dry >= 3:
                    g.set_status(p, "may_turn", True)
    _reports(n, lethal)


def _reports(n, lethal):
    g = n.g
    s = n.s
    abilities = g.rules.abilities
    killed_by = {name: a.attacker.name for name, a in lethal.items() if a.attacker}
    for w, t in n.extra.get("sg_witness", ()):
        seen = [[k, v] for v, k in killed_by.items() if t.name in (k, v) and k != v]
        g.emit("witness_result", g.to(w), to=w.name, target=t.name, kills=seen)
        if seen:
            g.set_status(w, "saw_weapon", True, until=n.idx + 2)
    for j, t in n.extra.get("sg_journal", ()):
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
        if t.name in s.players and s.has(t, "blocked") and t.name in n.blocked_by:
            facts.append(["suffered", "hindered"])
        uniq = []
        for f in facts:
            if f not in uniq:
                uniq.append(f)
        g.emit("journalist_result", g.to(j), to=j.name, target=t.name, facts=uniq)
        if uniq:
            earn(g, j, 1, "article")


# ---- day hooks ----------------------------------------------------------------------------

@hook("vote_check", "singapore_vote_check")
def vote_check(g, voter, target, params):
    t = g.state.players.get(target)
    if t is not None and g.state.has(t, "away"):
        return (f"«{target}» в поездке: его нельзя посадить в тюрьму.",
                f"'{target}' is travelling and cannot be jailed.")
    return None


@hook("day_count", "singapore_count")
def day_count(dc, params):
    """Votes that do not count (bitten, rum, trap) are dropped silently; a player who
    misses the vote more than once pays 1 coin each time."""
    g = dc.g
    s = g.state
    for p in s.order:
        if not p.alive:
            continue
        if s.has(p, "vote_void") and p.name in dc.votes:
            dc.silent_void.add(p.name)     # not counted; shown as cast («не узнает»)
            g.emit("vote_void", HOST, player=p.name, why=s.status_value(p, "vote_void"))
        if p.name not in s.votes and not s.has(p, "voteless"):
            missed = s.status_value(p, "missed_votes", 0) + 1
            g.set_status(p, "missed_votes", missed)
            if missed > 1 and purse(g, p) >= 1:
                spend(g, p, 1, "missed_vote")


@hook("day_start", "singapore_day_start")
def day_start(g, params):
    """The will: the player named by one killed last night is jailed this morning."""
    s = g.state
    for p in s.order:
        if p.alive or p.died != s.idx - 1 or p.how in ("lynched", "jailed"):
            continue
        name = s.status_value(p, "will")
        if name and s.players[name].alive and take_item(g, p, "will", why="opened"):
            g.emit("will_read", PUBLIC, player=p.name, named=name)
            g.eliminate(s.players[name], "jailed")


@hook("on_eliminated", "singapore_out")
def out(g, p):
    """Successions and the lynch's income."""
    s = g.state
    clan = p.faction if is_clan(p) else None
    if s.has(p, "jailed") and s.status_value(p, "jailed") == "vote":
        # jailed by the vote and never freed: the voters' income («успешная посадка»)
        voters = s.status_value(p, "lynch_voters") or ()
        if is_clan(p) or p.role in ("maniac", "thug") + VAMPIRES:
            for v in voters:
                q = s.players[v]
                if q.alive and q.faction in ("town", "cops"):
                    earn(g, q, 1, "jailed")
    if clan and p.role.startswith("boss"):
        heirs = [q for q in g.faction_members(clan) if q.role.startswith(("mafioso",
                                                                           "recruiter"))]
        if heirs:
            best = max(heirs, key=lambda q: (s.status_value(q, "earned", 0), -q.seat))
            g.emit("role_changed", g.to(*g.faction_members(clan)), player=best.name,
                   role="boss_" + clan[-1], was=best.role)
    if p.role == "sheriff" and p.how not in ("lynched", "jailed"):
        for q in s.order:
            if q.alive and q.role == "investigator":
                g.emit("role_changed", g.to(q), player=q.name, role="sheriff", was=q.role)
                break
    if clan:
        for q in s.order:
            if q.alive and q.role.startswith("apprentice") and \
                    s.status_value(q, "employer") == p.name:
                roles = {r.role for r in s.order if r.alive}
                new = "thug" if "thug" not in roles else (
                    "thief" if "thief" not in roles else "civilian")
                fac = "town" if new == "civilian" else "neutral"
                g.emit("role_changed", g.to(q), player=q.name, role=new, was=q.role)
                g.emit("faction_changed", g.to(q), player=q.name, faction=fac)


# ---- jail: the lawyer, interrogation, blood writing -----------------------------------------
# The day's vote holds the condemned (day rule ``lynch_holds: jailed``, status ``jailed`` =
# "vote"): he stays in the game through the night without moves, vote or items; at dawn a
# prisoner still held leaves (how: jailed) unless a kill took him first (the clan silencing
# him) or the lawyer frees him.

def _lawyer(g):
    """The lawyer who can free prisoners now: alive and not in jail himself."""
    for q in g.state.order:
        if q.alive and q.role == "lawyer" and not g.state.has(q, "jailed"):
            return q
    return None


def _free(g, p, by) -> None:
    g.clear_status(p, "jailed")
    g.set_status(p, "jail_freed", by.name if by is not None else True)
    g.emit("released", PUBLIC, players=[p.name], by=by.name if by is not None else None)


@constraint("singapore_free_target")
def free_target(g, p, ab, ts, params):
    """«На посаженного игрока нельзя воздействовать другими ходами кроме как допрос и
    убийство»."""
    for t in ts:
        q = g.state.players[t]
        if q is not p and g.state.has(q, "jailed"):
            return (f"«{t}» в тюрьме: на посаженного действуют только допрос и убийство.",
                    f"'{t}' is in jail: only an interrogation or a kill reaches a prisoner.")
    return None


@constraint("singapore_jailed_target")
def jailed_target(g, p, ab, ts, params):
    q = g.state.players[ts[0]]
    if not g.state.has(q, "jailed"):
        return (f"«{ab.name_ru}»: «{q.name}» не в тюрьме; цель — посаженный днём.",
                f"'{ab.name_en}': '{q.name}' is not in jail; the target is the one jailed by the "
                f"day.")
    return None


@constraint("singapore_release_ok")
def release_ok(g, p, ab, ts, params):
    why = jailed_target(g, p, ab, ts, params)
    if why is not None:
        return why
    q = g.state.players[ts[0]]
    if g.state.status_value(q, "jail_freed"):
        return (f"«{q.name}» уже выпускали из тюрьмы: повторно не выпускают.",
                f"'{q.name}' was freed from jail before: not a second time.")
    return None


@constraint("singapore_blood_free")
def blood_free(g, p, ab, ts, params):
    """«Каждый убитый на свободе персонаж»: not one jailed, killed in jail or turned."""
    if p.how not in ("killed", "venom", "blood") or g.state.has(p, "jailed"):
        return ("Кровью пишет только убитый на свободе (не посаженный и не убитый в тюрьме).",
                "Only one killed while free writes in blood (not one jailed or killed in jail).")
    return None


@mechanic("singapore_release")
def release(n, actor, targets, params):
    """The lawyer frees the freshly jailed: +3 coins; a mafia order pays the 9-coin bribe;
    freeing a mafioso ties the lawyer's win to that clan."""
    g = n.g
    t = targets[0]
    if not t.alive or not g.state.has(t, "jailed"):
        g.emit("no_effect", HOST, player=actor.name, ability="release", why="not_jailed")
        return
    _free(g, t, actor)
    earn(g, actor, 3, "release")
    _take_order(n, actor, "lawyer", t)
    if is_clan(t) and not g.state.status_value(actor, "freed_clan"):
        g.set_status(actor, "freed_clan", t.faction)


@mechanic("singapore_interrogate")
def interrogate(n, actor, targets, params):
    """The cops question the prisoner: a mafioso names one accomplice (his choice: the
    dice); a prisoner freed or shot before the morning says nothing."""
    g = n.g
    t = targets[0]
    if not g.state.has(t, "jailed") or n.would_die(t):
        g.emit("no_effect", HOST, player=actor.name, ability="interrogate",
               why="not_jailed" if not g.state.has(t, "jailed") else "dead")
        return
    mates = []
    if is_clan(t) and not t.role.startswith("apprentice"):
        mates = [q.name for q in g.faction_members(t.faction) if q is not t]
    accomplice = None
    if mates:
        accomplice = mates[0] if len(mates) == 1 else g.roll("accomplice", mates)
    cops = [q for q in g.faction_members(actor.faction)] or [actor]
    g.emit("interrogation_result", g.to(*cops), to=actor.name, target=t.name,
           accomplice=accomplice)


@mechanic("singapore_blood", visits=False)
def blood(dc, actor, targets, params):
    """A name written in blood: a tie today jails him."""
    g = dc.g
    t = targets[0]
    g.set_status(t, "blood_named", actor.name, until=g.state.idx)
    g.emit("blood_written", PUBLIC, player=actor.name, named=t.name)


@tie_policy("singapore_blood")
def blood_tie(g, dc, leaders):
    """A tie jails the tied player whose name is written in blood; none or several: nobody."""
    named = [x for x in leaders if g.state.has(g.state.players[x], "blood_named")]
    if len(named) == 1:
        g.emit("blood_tie", PUBLIC, player=named[0])
        return named[0]
    g.emit("no_lynch", PUBLIC, why="tie")
    return None


@hook("night_open", "singapore_jail_evening")
def jail_evening(g, params):
    """The evening: the lawyer frees himself, and the priest («выпускается адвокатом
    вечером»), once a game each; both may then send this night's moves."""
    for p in list(g.state.order):
        if not (p.alive and g.state.has(p, "jailed")) or g.state.status_value(p, "jail_freed"):
            continue
        if p.role == "lawyer":
            _free(g, p, p)
        elif p.role == "priest":
            lawyer = _lawyer(g)
            if lawyer is not None:
                _free(g, p, lawyer)


@hook("dawn", "singapore_jail_dawn")
def jail_dawn(n, params):
    """Dawn: a cop who never killed a town player is freed by the lawyer («на следующее
    утро»), once a game; every other prisoner still held leaves (how: jailed), unless a
    kill of this night takes him first."""
    g = n.g
    s = n.s
    for p in list(s.order):
        if not (p.alive and s.has(p, "jailed")) or n.would_die(p):
            continue
        if p.faction == "cops" and p.role in COPS and not s.status_value(p, "jail_freed") \
                and not s.status_value(p, "killed_town"):
            lawyer = _lawyer(g)
            if lawyer is not None:
                _free(g, p, lawyer)
                continue
        g.eliminate(p, "jailed")


# ---- victory ------------------------------------------------------------------------------

MAIN = ("town", "cops", "clan_a", "clan_b", "vampires")


def _main_win(census, fids=MAIN) -> bool:
    from mafiahost.engine.victory import holds
    g = census.g
    for fid in fids:
        fac = g.rules.factions.get(fid)
        if fac is not None and census.by_faction.get(fid) and holds(g, fac.win, fid):
            return True
    return False


@condition("singapore_vampire_bites")
def vampire_bites(census, own, me, arg):
    """The true vampire: the priest gone or bitten, and at least half of the players left
    bitten."""
    g = census.g
    if not any(p.role == "vampire" for p in census.alive):
        return False
    s = g.state
    if any(p.role == "priest" and not s.status_value(p, "bites", 0) for p in census.alive):
        return False
    humans = [p for p in census.alive if p.role not in VAMPIRES]
    bitten = sum(1 for p in humans if s.status_value(p, "bites", 0))
    return bool(humans) and 2 * bitten >= len(census.alive)


@condition("singapore_neutral")
def neutral(census, own, me, arg):
    """Each neutral "survives to the end of the game": his condition is judged when a
    main side wins, or when no main side is left; the last player standing wins."""
    g = census.g
    s = g.state
    if len(census.alive) == 1:
        return True
    main_left = any(p.faction in MAIN for p in census.alive)
    if main_left and not _main_win(census):
        return False
    role = me.role
    alive_roles = {p.role for p in census.alive}
    alive_facs = {p.faction for p in census.alive}
    if role == "maniac":
        return len(s.status_value(me, "professions") or ()) >= 2
    if role == "thug":
        return not (alive_facs & {"clan_a", "clan_b", "cops"}) and "journalist" not in \
            alive_roles
    if role == "thief":
        return "cops" not in alive_facs and "priest" not in alive_roles
    if role == "tour_operator":
        others = [p for p in census.alive if p is not me]
        sent = sum(1 for p in others if s.status_value(p, "travelled"))
        return bool(others) and 2 * sent >= len(census.alive)
    if role == "lawyer":
        clan = s.status_value(me, "freed_clan")
        if clan:
            return _main_win(census, (clan,))
        return True
    if role == "makeup":
        side = s.status_value(me, "side", "town")
        return _main_win(census, CLANS if side == "mafia" else ("town", "cops"))
    return True   # the witch, the lawyer: alive at the end
