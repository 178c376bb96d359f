"""Professions (II 1.5–1.7, 3.6–3.9): the profession shop, explosives, the fanatic, the
psycho, the mayor.

«Мирные жители без роли и мафиозии могут купить за 7 монет профессию. Профессии
покупаются лично на себя, профессии существуют в единственном экземпляре (кроме фанатика,
которых в продаже 3 штуки).» The stock of each profession is the counter ``prof:<base>``;
a clan member's profession is the clan's variant of the role (``fanatic_a``), so he stays
in his clan; a plain civilian's is the town role.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mafiahost.engine.events import HOST, PUBLIC
from mafiahost.engine.mechanics import constraint, hook, mechanic
from mafiahost.engine.mechanics.items import add_coins, give_item, items_of, take_item

from .common import (
    counter,
    earn,
    is_clan,
    keep_since_event,
    purse,
    set_counter,
    since_event,
    spend,
)

if TYPE_CHECKING:
    from mafiahost.engine.game import Game
    from mafiahost.engine.model import AbilitySpec
    from mafiahost.engine.state import Player

# profession (its role without the clan): copies on sale
PROFESSIONS: Final = {"fanatic": 3, "kidnapper": 1, "mayor": 1, "psycho": 1, "reseller": 1}

PRICE: Final = 7           # «за 7 монет»
TOWN_NEEDS: Final = 9      # «После того как заработает 9 монет (+1 монета к начальной сумме)»

NAMES: Final = {            # what players read for a profession (never its id)
    "fanatic": ("Фанатик", "Fanatic"), "kidnapper": ("Похититель", "Kidnapper"),
    "mayor": ("Мэр", "Mayor"), "psycho": ("Псих", "Psycho"),
    "reseller": ("Перекупщик", "Reseller"),
}


def base(role: str) -> str:
    """A role without its clan (fanatic_a: fanatic)."""
    return role[:-2] if role.endswith(("_a", "_b")) else role


def _role_for(p, prof: str) -> str:
    return f"{prof}_{p.faction[-1]}" if is_clan(p) else prof


_BUYS_KEY: Final = "singapore_profession_buys"   # ``_buys``' entry in ``State.memo``


def _buys(g: Game) -> list[tuple[str, str, str]]:
    """Tonight's purchases of professions sent so far, as (buyer, his faction, the
    profession): found once for all the players' checks between two events (the moves
    sent change only with an event: ``since_event``)."""
    got = since_event(g, _BUYS_KEY)
    if got is not None:
        kept: list[tuple[str, str, str]] = got
        return kept
    s = g.state
    abilities = g.rules.abilities
    players = s.players
    out: list[tuple[str, str, str]] = []
    for a in s.pending:
        aid: str = abilities[a.ability].id
        if aid.startswith("buy_"):
            prof = aid[4:]
            if prof in PROFESSIONS:
                out.append((a.actor, players[a.actor].faction, prof))
    keep_since_event(g, _BUYS_KEY, out)
    return out


def _pending_buys(g: Game, prof: str, but: str | None = None) -> int:
    """Purchases of ``prof`` sent tonight (but ``but``'s)."""
    return sum(1 for who, _f, pr in _buys(g) if pr == prof and who != but)


def _clan_buys(g: Game, p: Player) -> int:
    """Professions the other members of ``p``'s clan are buying tonight."""
    return sum(1 for who, fac, _pr in _buys(g) if who != p.name and fac == p.faction)


@hook("night_open", "singapore_professions_open")
def professions_open(g: Game, params: dict):
    """Night 1: the professions' stock, less the copies dealt at the start."""
    if counter(g, "prof_init"):
        return
    set_counter(g, "prof_init", True)
    for prof, n in PROFESSIONS.items():
        seated = sum(1 for p in g.state.order if base(p.role) == prof)
        set_counter(g, "prof:" + prof, max(0, n - seated))


# a profession costs at least min(PRICE, TOWN_NEEDS) of the purse (a clan member's
# need is PRICE and more, a townsman's TOWN_NEEDS)
@constraint("singapore_profession_ok", targets=False,
            gate=("singapore_purse", lambda params: (min(PRICE, TOWN_NEEDS),)))
def profession_ok(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    prof = params["role"]
    ru, en = NAMES[prof]
    if counter(g, "prof:" + prof, 0) - _pending_buys(g, prof, but=p.name) <= 0:
        return (f"Профессии «{ru}» в магазине больше нет (каждая профессия в единственном "
                f"экземпляре, фанатиков — три).",
                f"The profession '{en}' is sold out (one of each, three fanatics).")
    need = PRICE if is_clan(p) else TOWN_NEEDS
    if is_clan(p):      # the treasury pays for the clan's other professions bought tonight
        need += PRICE * _clan_buys(g, p)
    if purse(g, p) < need:
        if is_clan(p):
            return (f"Профессия стоит {PRICE} мон., а в общаке {purse(g, p)} (из них на "
                    f"профессии, купленные кланом этой ночью: {need - PRICE}).",
                    f"A profession costs {PRICE} coins and the treasury has {purse(g, p)} "
                    f"({need - PRICE} of it for the clan's other professions tonight).")
        return (f"Мирный житель покупает профессию ({PRICE} мон.), когда у него {TOWN_NEEDS} "
                f"монет (8 стартовых и 1 заработанная); у вас {purse(g, p)}.",
                f"A civilian buys a profession ({PRICE} coins) once they have {TOWN_NEEDS} coins "
                f"(8 at the start and 1 earned); you have {purse(g, p)}.")
    return None


@mechanic("singapore_buy_profession", visits=False, counts_as_out=False)
def buy_profession(n, actor: Player, targets, params: dict):
    """Pay 7 (a clan member from the treasury), take the profession for himself: the role
    changes at once (its moves from the next phase). The fanatic comes with a charge of
    explosives, the mayor with a gag; the psycho takes his 7 coins back from the trader."""
    g: Game = n.g
    prof = params["role"]
    stock = counter(g, "prof:" + prof, 0)
    need = PRICE if is_clan(actor) else TOWN_NEEDS
    if stock <= 0 or purse(g, actor) < need or not spend(g, actor, PRICE, "profession"):
        g.emit("no_effect", HOST, player=actor.name, ability="buy_" + prof, why="shop")
        return
    set_counter(g, "prof:" + prof, stock - 1)
    new = _role_for(actor, prof)
    told = g.faction_members(actor.faction) if is_clan(actor) else [actor]
    g.emit("role_changed", g.to(*told), player=actor.name, role=new, was=actor.role)
    if prof == "fanatic":
        give_item(g, actor, "explosive", why="profession")
    elif prof == "mayor":
        give_item(g, actor, "gag", why="profession")
    elif prof == "psycho":
        add_coins(g, actor, PRICE, "psycho_refund")


# ---- explosives: the fanatic and the psycho ----------------------------------------------

@mechanic("singapore_fanatic_hunt")
def fanatic_hunt(n, actor: Player, targets, params: dict):
    """«Убийство священника (если находит священника - сразу убивает)»: finding the
    priest, the fanatic blows him up at once (his charge is spent; 3 coins when he dies);
    otherwise he learns that this is not the priest and keeps the charge."""
    g: Game = n.g
    t = targets[0]
    found = t.role == "priest"
    g.emit("check_result", g.to(actor), to=actor.name, target=t.name,
           result="priest" if found else "not_priest")
    if found and take_item(g, actor, "explosive", why="blast"):
        n.attack(actor, t, "direct", "blast", how="blown")


@mechanic("singapore_blast")
def blast(n, actor: Player, targets, params: dict):
    """The psycho blows a player up with two charges of explosives."""
    g: Game = n.g
    if items_of(g, actor).get("explosive", 0) < 2:
        g.emit("no_effect", HOST, player=actor.name, ability="blast", why="no_item")
        return
    take_item(g, actor, "explosive", 2, why="blast")
    n.attack(actor, targets[0], "direct", "blast", how="blown")


@constraint("singapore_explosives", targets=False,
            gate=("singapore_items",
                  lambda params: ("explosive",) if params.get("n", 1) >= 1 else None))
def explosives(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """Working explosives (bought on an earlier night): ``n`` charges."""
    from .common import usable
    need = params.get("n", 1)
    have = usable(g, p, "explosive")
    if have < need:
        return (f"«{ab.name_ru}»: нужна взрывчатка ({need} шт.), действующей у вас {have} "
                f"(купленная этой ночью действует со следующей).",
                f"'{ab.name_en}': needs {need} charge(s) of explosives and you have {have} "
                f"working (bought tonight works from the next night).")
    return None


def _last_voter(g, p):
    """The last to vote for ``p`` among those whose votes jailed him (the day just over)."""
    voters = set(g.state.status_value(p, "lynch_voters") or ())
    last = None
    for e in reversed(g.events):
        if e.type == "phase_started" and e.data.get("phase") == "day":
            break
        if e.type == "vote" and e.data.get("voter") in voters \
                and e.data.get("target") == p.name:
            last = e.data["voter"]
            break
    return last


@hook("night_open", "singapore_psycho_jailed")
def psycho_jailed(g: Game, params: dict):
    """«Если психа с взрывчаткой сажают в тюрьму - последний проголосовавший против него
    умирает»: as the night opens, a psycho the day jailed with explosives blows up the last
    voter against him (his explosives are spent)."""
    s = g.state
    for p in list(s.order):
        if not (p.alive and p.role == "psycho" and s.has(p, "jailed")):
            continue
        if s.status_value(p, "jailed_day") == s.number:
            continue
        g.set_status(p, "jailed_day", s.number)
        have = items_of(g, p).get("explosive", 0)
        voter = _last_voter(g, p)
        if not have or voter is None or not s.players[voter].alive:
            continue
        take_item(g, p, "explosive", have, why="blast")
        g.emit("psycho_revenge", PUBLIC, player=p.name, victim=voter)
        g.set_status(p, "revealed", True)   # the post names him the psycho: «роль … вскрыта»
        g.eliminate(s.players[voter], "blown")


# ---- the mayor ---------------------------------------------------------------------------

@mechanic("singapore_double_vote", visits=False)
def double_vote(dc, actor: Player, targets, params: dict):
    """«Может голосовать двойным голосом, диплом дополнительно голос не увеличивает»."""
    dc.weights[actor.name] = 2


@constraint("singapore_priest_alive", targets=False)
def priest_alive(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    if not any(q.alive and q.role == "priest" for q in g.state.order):
        return ("Спрятаться в церкви можно, только если священник в игре.",
                "The church is a hiding place only while the priest is in the game.")
    return None


@hook("day_start", "singapore_salary")
def salary(g: Game, params: dict):
    """«Мэр. Зарплата ежедневно - 1 монета» (a clan's mayor: into the treasury)."""
    for p in g.state.order:
        if p.alive and base(p.role) == "mayor" and not g.state.has(p, "jailed"):
            earn(g, p, 1, "salary")


@mechanic("singapore_church", visits=False, counts_as_out=False)
def church(n, actor: Player, targets, params: dict):
    """«Один раз за игру, если священник в игре, может спрятаться в церкви, где не может
    быть подвергнут воздействию»: untouchable tonight (the evening's first step)."""
    n.mark(actor, "shielded", actor.name)


# ---- the kidnapper -----------------------------------------------------------------------

@constraint("singapore_kidnap_ok")
def kidnap_ok(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """«Похищать 2 раза одного и того же игрока нельзя»."""
    if ts and ts[0] in (g.state.status_value(p, "kidnapped_ever") or ()):
        return (f"Игрока {g.display(ts[0])} вы уже похищали: одного и того же дважды нельзя.",
                f"You have kidnapped {g.display(ts[0])} before: never the same one twice.")
    return None


@mechanic("singapore_kidnap")
def kidnap(n, actor: Player, targets, params: dict):
    """The kidnapped loses tonight's move, nothing reaches him tonight; tomorrow he neither
    posts nor votes, and the kidnapper's vote is cast for him too (the engine's ``puppet``:
    his vote follows the kidnapper's). Who was kidnapped is public in the morning. +2."""
    g: Game = n.g
    t = targets[0]
    n.block(t, actor)
    n.mark(t, "shielded", actor.name)
    g.set_status(t, "kidnapped", actor.name, until=n.idx + 1)
    g.set_status(t, "puppet", actor.name, until=n.idx + 1)
    g.set_status(t, "no_action", True, until=n.idx + 1)
    done = list(g.state.status_value(actor, "kidnapped_ever") or ())
    g.set_status(actor, "kidnapped_ever", done + [t.name])
    g.emit("kidnapped", PUBLIC, player=t.name)
    earn(g, actor, 2, "kidnap")


@hook("vote_check", "singapore_kidnapped_vote", voter_only=True)
def kidnapped_vote(g, voter, target, params):
    if g.state.has(voter, "kidnapped"):
        return (f"Игрок «{g.display(voter.name)}» похищен: сегодня его голос отдаёт похититель, "
                f"сам он не голосует.",
                f"'{g.display(voter.name)}' is kidnapped: no vote today (the kidnapper casts "
                f"it).")
    return None
