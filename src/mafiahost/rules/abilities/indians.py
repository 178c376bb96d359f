"""«Белые против Красных, или Индейская мафия» (seed 003 #38): what the data cannot say.

- the friend/foe check that reads a boss's ward as town (``indians_check``, ``indians_ward``);
- the chameleon (Зелёная ящерица) who picks a role at step 1 and acts by it at that role's
  step (``indians_copy`` + the library step hook ``run_copies``);
- blood revenge of the war boss left alone in his mafia (step hook ``indians_blood_revenge``);
- the seeker told when the keeper of the ancestors' laws leaves (``indians_tell_seeker``);
- day hunting and duels by dice, and the gender a duel needs (``indians_hunt``,
  ``indians_duel``, ``indians_answer``, ``indians_woman`` and their constraints).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from mafiahost.engine.day import vote_loss
from mafiahost.engine.events import HOST, PUBLIC
from mafiahost.engine.mechanics import constraint, fact, hook, mechanic
from mafiahost.engine.mechanics.copy import defer
from mafiahost.engine.state import FOREVER

if TYPE_CHECKING:
    from mafiahost.engine.game import Game
    from mafiahost.engine.model import AbilitySpec
    from mafiahost.engine.state import Action, Player


@dataclass
class IndiansNight:
    """What tonight's moves tell later steps (``n.notes(IndiansNight)``)."""
    wards: dict[str, str] = field(default_factory=dict)      # boss's ward -> the boss


@dataclass
class IndiansDay:
    """What the day's count notes (``dc.notes(IndiansDay)``)."""
    voteless: set[str] = field(default_factory=set)          # lost today's vote

# ---- night ---------------------------------------------------------------------------


@mechanic("indians_ward", cover_aware=True)
def ward(n, actor, targets, params):
    """Step 4: the boss's ward has the town status for every check tonight."""
    t = targets[0]
    n.notes(IndiansNight).wards[t.name] = actor.name
    n.mark(t, "ward", actor.name)


@mechanic("indians_check", cover_aware=True)
def check(n, actor, targets, params):
    """Friend or foe: ``town`` for the town and for a boss's ward tonight, else ``mafia``."""
    g = n.g
    t = targets[0]
    town = (g.rules.factions[t.faction].side == "town"
            or t.name in n.notes(IndiansNight).wards)
    g.emit("check_result", g.to(actor), to=actor.name, target=t.name,
           result="town" if town else "mafia")


def copied_ability(n, x, params):
    """The ability the chameleon takes from ``x``: a spec, ``"uncopyable"`` or None."""
    g = n.g
    if x.role in params.get("uncopyable", ()):
        return "uncopyable"
    abilities = g.rules.abilities
    if x.role in params.get("mirror", ()):
        # the commissar and the seeker: what they do tonight; their check is uncopyable
        for a in n.s.pending:
            if a.actor == x.name and abilities[a.ability].id in params.get("copy_ids", ()):
                return abilities[a.ability]
        return "uncopyable"
    for spec in g.rules.by_phase[x.role]["night"]:
        if not spec.shared:
            return spec
    return None


@mechanic("indians_copy", visits=False)
def copy(n, actor, targets, params):
    """Step 1: take the role of X and use its night ability on Y at that ability's step."""
    g = n.g
    x, y = targets
    spec = copied_ability(n, x, params)
    if spec is None or spec == "uncopyable":
        g.emit("copy_result", g.to(actor), to=actor.name, target=x.name,
               result=spec or "nothing")
        return
    g.emit("copy_result", g.to(actor), to=actor.name, target=x.name, result=spec.id)
    defer(n, actor, spec, [y])


@hook("step", "indians_blood_revenge")
def blood_revenge(n, params):
    """Step 0: a boss left the only living member of his mafia (his mates removed by vote
    or by night) removes a random other player, once a game; nothing stops it."""
    g = n.g
    s = n.s
    for p in s.order:
        if not p.alive or p.role != params.get("role") or s.has(p, "revenge_used"):
            continue
        mates = [q for q in s.order if q.faction == p.faction and q is not p]
        if not mates or any(q.alive for q in mates):
            continue
        pool = [q.name for q in s.order if q.alive and q is not p and q.name not in n.dead_now]
        if not pool:
            continue
        victim = g.roll(params.get("why", "blood_revenge"), pool)
        g.set_status(p, "revenge_used", True, until=FOREVER)
        g.emit("revenge", HOST, player=p.name, target=victim)
        n.kill_now(s.players[victim], params.get("why", "blood_revenge"),
                   how=params.get("how", "revenge"))


@hook("on_eliminated", "indians_tell_seeker")
def tell_seeker(g, dead):
    """«Если вылетает Блюдущий, узнает об этом»: the seeker is told in private."""
    if dead.role != "commissar":
        return
    for p in g.state.order:
        if p.alive and p.role == "sergeant":
            g.emit("commissar_gone", g.to(p), to=p.name, player=dead.name)


# ---- day: hunting, duels, gender ---------------------------------------------------------

# typed (``Game``, ``Player``, ``AbilitySpec``), as the engine's own functions are: the
# compiled code reads their fields directly, where an untyped ``g`` looked each one up by
# name (the day's constraints below are asked for every seat's legal moves)

def _today(g: Game, ability_id: str) -> list[Action]:
    abilities = g.rules.abilities
    return [a for a in g.state.day_actions if abilities[a.ability].id == ability_id]


def _first_today(g: Game, ability_id: str) -> Action | None:
    """The first of today's moves of ``ability_id`` (``_today``'s first), or None."""
    abilities = g.rules.abilities
    for a in g.state.day_actions:
        if abilities[a.ability].id == ability_id:
            return a
    return None


def is_female(g: Game, p: Player) -> bool:
    """A woman: declared with ``woman`` (an earlier day, or today before now)."""
    if g.state.has(p, "female"):
        return True
    name = p.name
    abilities = g.rules.abilities
    for a in g.state.day_actions:
        if a.actor == name and abilities[a.ability].id == "woman":
            return True
    return False


def _duel_today(g: Game) -> Action | None:
    return _first_today(g, "duel")


def lose_vote(dc, p, why):
    dc.votes.pop(p.name, None)
    dc.notes(IndiansDay).voteless.add(p.name)
    dc.g.emit("vote_lost", PUBLIC, player=p.name, why=why)


@mechanic("indians_woman", visits=False, counts_as_out=False)
def woman(dc, actor, targets, params):
    """The player's character is a woman (she may challenge; she cannot be challenged)."""
    dc.g.set_status(actor, "female", True, until=FOREVER)


@mechanic("indians_hunt", visits=False, counts_as_out=False)
def hunt(dc, actor, targets, params):
    """A d6, rolled when the hunt is declared ("результат охоты известен до подведения
    итогов"): 1 nothing; 2–5 game, the hunter's vote weighs +0.5 today (it can only break
    a tie); 6 the grizzly, the hunter loses today's vote."""
    g = dc.g
    today = g.state.idx
    r = g.roll("hunt", [1, 2, 3, 4, 5, 6])
    if r == 1:
        result = "mice"
    elif r <= 5:
        result = "game"
        g.set_status(actor, "vote_weight", 1.5, until=today)
    else:
        result = "grizzly"
    g.emit("hunt", PUBLIC, player=actor.name, roll=r, result=result)
    if result == "grizzly":
        g.set_status(actor, "voteless", "hunt", until=today)
        g.emit("vote_lost", PUBLIC, player=actor.name, why="hunt")


def _duel_vote_pool(g: Game, p: Player, names: list, params: dict) -> list:
    """``duel_vote_locked`` for the targets ``names`` at once (``legal_votes``): the day's
    challenge read once."""
    d = _duel_today(g)
    if d is not None and d.actor == p.name:
        t = d.targets[0]
        return [n for n in names if n == t]
    return names


@hook("vote_check", "indians_duel_vote_locked", pool=_duel_vote_pool)
def duel_vote_locked(g: Game, p: Player, target, params: dict):
    """«Менять голос и/или отзывать поединок нельзя»: the challenge is the challenger's vote."""
    d = _duel_today(g)
    if d is not None and d.actor == p.name and target != d.targets[0]:
        return (f"Менять голос после вызова на поединок нельзя: голос «{p.name}» — против "
                f"«{d.targets[0]}».",
                f"A vote cannot change after a duel challenge: '{p.name}' votes against "
                f"'{d.targets[0]}'.")
    return None


@mechanic("indians_duel", visits=False, counts_as_out=False)
def duel(dc, actor, targets, params):
    """The challenge is a vote against T that cannot be changed; a woman's challenge may be
    declined; no answer from T is his technical defeat; otherwise 50/50. The loser's vote
    is void today."""
    g = dc.g
    t = targets[0]
    if actor.name not in dc.notes(IndiansDay).voteless:
        if dc.votes.get(actor.name) != t.name:
            g.emit("duel_vote", PUBLIC, voter=actor.name, target=t.name,
                   was=dc.votes.get(actor.name))
        dc.votes[actor.name] = t.name
    answers = [g.rules.abilities[a.ability].id for a in g.state.day_actions
               if a.actor == t.name and g.rules.abilities[a.ability].id in ("accept", "decline")]
    answer = answers[0] if answers else None
    if answer == "decline":
        g.emit("duel_declined", PUBLIC, challenger=actor.name, challenged=t.name)
        return
    g.set_status(actor, "dueled:" + t.name, True, until=FOREVER)
    g.set_status(t, "dueled:" + actor.name, True, until=FOREVER)
    if answer is None:
        winner, loser, technical = actor, t, True
    else:
        w = g.roll("duel", [actor.name, t.name])
        winner, loser = (actor, t) if w == actor.name else (t, actor)
        technical = False
    g.emit("duel", PUBLIC, challenger=actor.name, challenged=t.name, winner=winner.name,
           loser=loser.name, technical=technical)
    lose_vote(dc, loser, "duel")


@mechanic("indians_answer", visits=False, counts_as_out=False)
def answer(dc, actor, targets, params):
    """The challenged's answer (his short post): read by ``indians_duel``."""


_YES: Final = (True,)


@fact("indians_may_hunt")
def may_hunt(g: Game, p: Player) -> tuple:
    """(True,) while ``p`` may still go hunting today (nobody has, and nobody challenged
    him), else (): the whole test of ``indians_hunt_rules``, as its gate."""
    if _first_today(g, "hunt") is not None:
        return ()
    d = _duel_today(g)
    if d is not None and d.targets[0] == p.name:
        return ()
    return _YES


@fact("indians_challenged")
def challenged(g: Game, p: Player) -> tuple:
    """(True,) when ``p`` was challenged to today's duel, else (): the gate of
    ``indians_answer_rules`` (an answer needs a challenge)."""
    d = _duel_today(g)
    return _YES if d is not None and d.targets[0] == p.name else ()


@constraint("indians_hunt_rules", targets=False, listed=True,
            gate=("indians_may_hunt", lambda params: (True,)), exact=True)
def hunt_rules(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    done = _first_today(g, "hunt")
    if done is not None:
        return (f"«{ab.name_ru}»: сегодня на охоту уже ушёл {done.actor} (охотится "
                f"первый написавший).",
                f"'{ab.name_en}': {done.actor} already went hunting today (the first "
                f"poster hunts).")
    d = _duel_today(g)
    if d is not None and d.targets[0] == p.name:
        return (f"«{ab.name_ru}»: вас уже вызвали на поединок сегодня.",
                f"'{ab.name_en}': you have already been challenged to a duel today.")
    return None


def _duel_pool(g: Game, p: Player, ab: AbilitySpec, names: list, params: dict) -> list:
    """``duel_rules`` asked of each of ``names`` as the challenge's target, at once: the
    day's moves read once (a duel already declared, the women declared and the hunters of
    today), where asking it target by target read them for each."""
    s = g.state
    if _duel_today(g) is not None or vote_loss(g, p) is not None:
        return []
    abilities = g.rules.abilities
    women: set = set()
    hunters: set = set()
    for a in s.day_actions:
        aid = abilities[a.ability].id
        if aid == "woman":
            women.add(a.actor)
        elif aid == "hunt":
            hunters.add(a.actor)
    players = s.players
    return [t for t in names
            if t not in women and t not in hunters and not s.has(players[t], "female")
            and not s.has(p, "dueled:" + t)]


@constraint("indians_duel_rules", pool=_duel_pool)
def duel_rules(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    s = g.state
    d = _duel_today(g)
    if d is not None and d.actor == p.name:
        return (f"«{ab.name_ru}»: менять или отзывать вызов нельзя.",
                f"'{ab.name_en}': a challenge cannot be changed or withdrawn.")
    if d is not None:
        return (f"«{ab.name_ru}»: поединок за день только один, его уже объявил {d.actor}.",
                f"'{ab.name_en}': one duel a day; {d.actor} has already declared it.")
    t = s.players[ts[0]]
    if is_female(g, t):
        return (f"«{ab.name_ru}»: вызвать на поединок женщину нельзя.",
                f"'{ab.name_en}': a woman cannot be challenged.")
    if any(a.actor == t.name for a in _today(g, "hunt")):
        return (f"«{ab.name_ru}»: нельзя вызвать того, кто ушёл на охоту.",
                f"'{ab.name_en}': you cannot challenge a player who went hunting.")
    if s.has(p, "dueled:" + t.name):
        return (f"«{ab.name_ru}»: {p.name} и {t.name} уже сражались, а одна пара противников "
                f"может сразиться только один раз за игру.",
                f"'{ab.name_en}': {p.name} and {t.name} have already fought, and a pair of "
                f"opponents fights only once a game.")
    why = vote_loss(g, p)
    if why is not None:
        return (f"«{ab.name_ru}»: вызов даётся вместе с голосом, а {why[0]}",
                f"'{ab.name_en}': a challenge comes with a vote, and {why[1]}")
    return None


@constraint("indians_answer_rules", targets=False, listed=True,
            gate=("indians_challenged", lambda params: (True,)))
def answer_rules(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    d = _duel_today(g)
    if d is None or d.targets[0] != p.name:
        return (f"«{ab.name_ru}»: вас сегодня не вызывали на поединок.",
                f"'{ab.name_en}': nobody has challenged you today.")
    if params.get("decline") and not is_female(g, g.state.players[d.actor]):
        return (f"«{ab.name_ru}»: отказаться можно только от вызова женщины.",
                f"'{ab.name_en}': only a woman's challenge may be declined.")
    return None
