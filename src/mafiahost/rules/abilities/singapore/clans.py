"""Clans and recruitment: the clan kill and poison, the searches, recruitment, successions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mafiahost.engine.events import HOST
from mafiahost.engine.mechanics import constraint, hook, mechanic, scheduled
from mafiahost.engine.mechanics.items import add_coins, coins_of, take_item
from mafiahost.engine.mechanics.questions import answer_handler, ask, open_questions

from .cards import may_recruit_lawyer
from .common import (
    POISON_ITEM,
    VAMPIRES,
    Notes,
    berserk_unbound,
    counter,
    cursed,
    earn,
    is_clan,
    set_counter,
    usable,
)
from .economy import _take_order

if TYPE_CHECKING:
    from mafiahost.engine.game import Game
    from mafiahost.engine.model import AbilitySpec
    from mafiahost.engine.state import Player


def clan_poisons(g: Game, clan: str, kind: str) -> int:
    """The clan's poisons usable as ``kind``: the starting one (either kind, named when it is
    used: the seed does not say which) and those of that kind bought for the clan."""
    return counter(g, "poison:" + clan, 0) + counter(g, f"poison:{clan}:{kind}", 0)


@constraint("singapore_clan_poison", targets=False, listed=True)
def clan_poison(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    kind: Any = params.get("kind", "viper")
    if is_clan(p):
        left = clan_poisons(g, p.faction, kind)
    else:
        left = usable(g, p, POISON_ITEM[kind])
    mine = [g.rules.abilities[a.ability].id for a in g.state.pending
            if g.state.players[a.actor].faction == p.faction
            and (a.actor == p.name or is_clan(p))]
    used = sum(1 for i in mine if i == ab.id)
    short = left - used <= 0
    if is_clan(p):      # the starting poison serves one move only, whichever kind
        total = counter(g, "poison:" + p.faction, 0) + sum(
            counter(g, f"poison:{p.faction}:{k}", 0) for k in POISON_ITEM)
        short = short or total - sum(1 for i in mine if i in ("poison", "poison_scorpion")) <= 0
    if short:
        if kind == "scorpion":
            return ("Яда скорпиона нет: его покупают в магазине (клан — на клан).",
                    "No scorpion poison left: buy it in the shop (a clan buys for the clan).")
        return ("Яда гадюки нет: его покупают в магазине (клан — на клан).",
                "No viper poison left: buy it in the shop (a clan buys for the clan).")
    return None


@constraint("singapore_no_apprentice", targets=False, listed=True)
def no_apprentice(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    if any(q.alive and q.faction == p.faction and q.role.startswith("apprentice")
           for q in g.state.order) or any(
               q["kind"] == "singapore_recruit" and p.faction in q["data"]["clans"]
               for q in open_questions(g)):
        return ("Пока в клане есть ученик (или приглашённый ещё не ответил), нового вербовать "
                "нельзя.",
                "While the clan has an apprentice (or an invitation is unanswered) no new one "
                "can be recruited.")
    return None


_ONE_OF_NAMES: dict = {}


def _one_of_names(abilities: dict, ids: tuple) -> tuple[str, str]:
    """The moves' names (people read them, never their ids), Russian and English, made
    once per rule set and list of ids (the refusal is asked for every candidate target)."""
    hit = _ONE_OF_NAMES.get((id(abilities), ids))
    if hit is None or hit[0] is not abilities:
        by_id = {x.id: x for x in abilities.values() if x.id in ids}
        names = [by_id[i] for i in ids if i in by_id]
        hit = _ONE_OF_NAMES[(id(abilities), ids)] = (
            abilities, ", ".join(f"«{x.name_ru}»" for x in names),
            ", ".join(f"'{x.name_en}'" for x in names))
    return hit[1], hit[2]


@constraint("singapore_one_of", targets=False, listed=True)
def one_of(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """One of these moves a night for the whole faction (one shooter a clan; the cops'
    kill or cover)."""
    abilities = g.rules.abilities
    ids = params.get("ids", ("kill", "silver"))
    for a in g.state.pending:
        q = g.state.players[a.actor]
        if q.faction == p.faction and abilities[a.ability].id in ids:
            ru, en = _one_of_names(abilities, tuple(ids))
            return (f"За ночь группировка делает только одно из: {ru} — уже сделано "
                    f"({a.actor}: «{abilities[a.ability].name_ru}»).",
                    f"One of {en} a night for the faction — already sent "
                    f"({a.actor}: '{abilities[a.ability].name_en}').")
    return None


@mechanic("singapore_kill")
def kill(n, actor: Player, targets, params: dict):
    """A shot (or the thug's, apprentice's, maniac's kill); the impotence curse stops it.
    The thug takes his fee from the order; vests and immunities are settled at dawn."""
    g: Game = n.g
    t = targets[0]
    if cursed(g, actor) == "impotence":
        g.emit("no_effect", HOST, player=actor.name, ability="kill", why="impotence")
        return
    if params.get("guess") and not berserk_unbound(g, actor):
        # the maniac: «указывает кого убивает и какая у этого игрока роль, если угадывает
        # происходит действие - убийство» (a clan's role is guessed without the clan)
        named = n.current.role if n.current is not None else None
        if named is None or _base(named) != _base(t.role):
            g.emit("no_effect", HOST, player=actor.name, ability="kill", why="wrong_guess",
                   target=t.name)
            g.emit("guess_missed", g.to(actor), to=actor.name, target=t.name, role=named)
            return
    service = params.get("service")
    if service:
        _take_order(n, actor, service, t)
    n.attack(actor, t, "direct", params.get("cause", "kill"), how="killed")


def _base(role: str) -> str:
    """A role without its clan (boss_a, boss_b: boss)."""
    return role[:-2] if role.endswith(("_a", "_b")) else role


@mechanic("singapore_seek")
def seek(n, actor: Player, targets, params: dict):
    """Search for a role; finding him, shoots at once (the boss: the sheriff; the sheriff:
    the recruiter); a find pays 1 coin."""
    g: Game = n.g
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
def poison(n, actor: Player, targets, params: dict):
    """Poison: the victim dies the next night (at the shop step) unless cured by the doctor
    or an antidote then; the priest, the drunk and vampires are immune. The clan's poison
    comes from its stock (one bought of that kind first, else the starting one), anyone
    else's from his inventory. ``kind``: viper or scorpion (two poisons, two antidotes)."""
    g: Game = n.g
    t = targets[0]
    kind = params.get("kind", "viper")
    if params.get("bite") is None:
        if cursed(g, actor) == "impotence":
            g.emit("no_effect", HOST, player=actor.name, ability="poison", why="impotence")
            return
        if is_clan(actor):
            key = f"poison:{actor.faction}:{kind}"
            if counter(g, key, 0) <= 0:
                key = "poison:" + actor.faction
            set_counter(g, key, counter(g, key, 0) - 1)
        else:
            take_item(g, actor, POISON_ITEM[kind], why="used")
    give_poison(n, actor, t, kind)


def give_poison(n, actor, t, kind="venom"):
    g: Game = n.g
    if t.role in ("priest", "drunk") or t.role in VAMPIRES:
        g.emit("no_effect", HOST, player=actor.name, ability="poison", why="immune",
               target=t.name)
        return
    n.notes(Notes).poisons.append((actor, t, kind))


@scheduled("singapore_poison_due")
def poison_due(n, item):
    t = n.s.players[item["target"]]
    if not t.alive:
        return
    if cursed(n.g, t) == "fear":
        n.g.emit("no_effect", HOST, player=t.name, why="fear")
        return
    n.attack(n.s.players[item["by"]], t, "delayed", item.get("cause", "poison"))


NEVER = ("sheriff", "investigator", "journalist", "doctor", "priest", "lawyer") + VAMPIRES


@mechanic("singapore_recruit")
def recruit(n, actor: Player, targets, params: dict):
    """The clan's invitation: a mafioso of any clan, a cop, the journalist, the doctor, the
    priest, a vampire (and the lawyer, who needs a card) are only told of the attempt and
    the recruiter learns that he cannot be recruited; anyone else is asked at dawn whether
    he joins («вербуемый получает письмо … где ему предлагается вступить в клан»), and
    invited by both clans the same night he chooses one («может сделать выбор»)."""
    g: Game = n.g
    t = targets[0]
    again = g.state.status_value(t, "apprentice_of") == actor.faction
    if is_clan(t) or (t.role in NEVER and not may_recruit_lawyer(g, t, actor.faction)) or again:
        g.emit("recruit_attempt", g.to(t), to=t.name)
        g.emit("recruit_failed", g.to(actor), player=t.name, to=actor.name, why="cannot")
        return
    invites = n.notes(Notes).recruited
    if actor.faction not in invites.setdefault(t.name, []):
        invites[t.name].append(actor.faction)
        n.notes(Notes).recruiters[(t.name, actor.faction)] = actor.name
    n.on_dawn(_invite)


def _invite(n) -> None:
    """Dawn: each invited player is asked (unless he dies tonight); he answers by the end
    of the next day, and silence is a refusal."""
    g: Game = n.g
    notes = n.notes(Notes)
    for name, clans in notes.recruited.items():
        t = g.state.players[name]
        if n.would_die(t):
            continue
        if len(clans) == 1:
            options = [("join", "вступить в клан", "join the clan"),
                       ("refuse", "отказаться", "refuse")]
        else:
            options = [("first", "принять первое приглашение", "accept the first invitation"),
                       ("second", "принять второе приглашение", "accept the second invitation"),
                       ("refuse", "отказаться от обоих", "refuse both")]
        ask(g, t, "singapore_recruit", options, "refuse", due=g.state.idx + 1, clans=clans,
            variant="two" if len(clans) > 1 else None,
            recruiters=[notes.recruiters[(name, c)] for c in clans])


@answer_handler("singapore_recruit")
def recruit_answer(g, q, answer) -> None:
    """Consent makes him the clan's apprentice (the recruiter's clan learns it, his coins
    go to the treasury); a refusal is told to the recruiter, who may invite him again."""
    t = g.state.players[q["to"]]
    clans = q["data"]["clans"]
    recruiters = [g.state.players[r] for r in q["data"]["recruiters"]]
    pick = {"join": 0, "first": 0, "second": 1}.get(answer)
    for i, r in enumerate(recruiters):
        if i != pick:
            g.emit("recruit_failed", g.to(*g.faction_members(clans[i])), player=t.name,
                   to=r.name, why="refused")
    if pick is None:
        return
    clan, recruiter = clans[pick], recruiters[pick]
    if not t.alive or is_clan(t) or (t.role in NEVER and not may_recruit_lawyer(g, t, clan)):
        g.emit("recruit_failed", g.to(*g.faction_members(clan)), player=t.name,
               to=recruiter.name, why="cannot")
        return
    g.emit("role_changed", g.to(t), player=t.name, role="apprentice_" + clan[-1], was=t.role)
    g.emit("recruited", g.to(*g.faction_members(clan)), player=t.name, faction=clan,
           to=recruiter.name)
    g.set_status(t, "apprentice_of", clan)
    g.set_status(t, "employer", recruiter.name)
    coins = coins_of(g, t)
    if coins:
        add_coins(g, t, -coins, "recruited")
        earn(g, recruiter, coins, "apprentice_coins")


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
                _employer_gone(g, q)


# the apprentice's trade when his employer is gone, and what he reads for it
TRADES = (("thug", "стать погромщиком", "become the thug"),
          ("thief", "стать уличным воришкой", "become the street thief"))


def _free_trades(g) -> list[tuple[str, str, str]]:
    """«если нет другого такого же персонажа в игре»: the trades nobody living has."""
    taken = {r.role for r in g.state.order if r.alive}
    return [t for t in TRADES if t[0] not in taken]


def _employer_gone(g, q) -> None:
    """«В случае смерти/посадки нанимателя становится погромщиком или уличным воришкой на
    выбор, если нет другого такого же персонажа в игре, в противном случае становится
    мирным»: with both trades free he is asked (silence: the thug, the first); with one free
    he takes it; with none he becomes a civilian."""
    free = _free_trades(g)
    if len(free) > 1:
        ask(g, q, "singapore_trade", free, free[0][0], due=g.state.idx + 1)
        return
    _new_trade(g, q, free[0][0] if free else "civilian")


def _new_trade(g, q, new: str) -> None:
    fac = "town" if new == "civilian" else "neutral"
    g.emit("role_changed", g.to(q), player=q.name, role=new, was=q.role)
    g.emit("faction_changed", g.to(q), player=q.name, faction=fac)


@answer_handler("singapore_trade")
def trade_answer(g, q, answer) -> None:
    """His choice, if that trade is still free (someone may have taken it meanwhile)."""
    p = g.state.players[q["to"]]
    if not p.alive or not p.role.startswith("apprentice"):
        return
    free = [t[0] for t in _free_trades(g)]
    _new_trade(g, p, answer if answer in free else (free[0] if free else "civilian"))


@constraint("singapore_employer", targets=False)
def employer(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """Only the employer (the recruiter who recruited the apprentice) sets his task."""
    if not _apprentices_of(g, p):
        return ("Задание даёт только наниматель — вербовщик, у которого есть ученик.",
                "Only the employer — a recruiter with an apprentice — sets a task.")
    return None


def _apprentices_of(g, p) -> list:
    return [q for q in g.state.order if q.alive and q.role.startswith("apprentice")
            and g.state.status_value(q, "employer") == p.name]


@mechanic("singapore_assign_task", visits=False)
def assign_task(dc, actor: Player, targets, params: dict):
    """«Наниматель может поручить ученику убийство игрока … (задание получает анонимно)»:
    the apprentice learns the target, not who set it; the task is for the coming night."""
    g: Game = dc.g
    t = targets[0]
    for q in _apprentices_of(g, actor):
        g.set_status(q, "task", t.name, until=g.state.idx + 1)
        g.emit("task_assigned", g.to(q), to=q.name, target=t.name)


@constraint("singapore_task_target")
def task_target(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """«Выполняет задание нанимателя»: the apprentice kills the one his employer named."""
    if berserk_unbound(g, p):
        return None     # «Берсерк. Жертва жаждет убийства»: any victim (see curses.py)
    task = g.state.status_value(p, "task")
    if not task:
        return ("Ученик убивает только по заданию нанимателя, а задания на эту ночь нет.",
                "The apprentice kills only on the employer's task, and there is none tonight.")
    if ts and ts[0] != task:
        return (f"Задание нанимателя на эту ночь — игрок {g.display(task)}.",
                f"The employer's task tonight is {g.display(task)}.")
    return None
