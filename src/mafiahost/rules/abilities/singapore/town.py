"""Town roles: the doctor, the priest, the drunk, the journalist and the witness."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mafiahost.engine.mechanics import constraint, mechanic
from mafiahost.engine.mechanics.forced import force
from mafiahost.engine.mechanics.items import give_item

from .common import Notes, counter, purse, set_counter, spend
from .economy import _take_order

if TYPE_CHECKING:
    from mafiahost.engine.game import Game
    from mafiahost.engine.model import AbilitySpec
    from mafiahost.engine.state import Player


def _resting(g: Game, p: Player, names, params: dict) -> list:
    """Those of ``names`` whom ``p`` treated last night, and may not treat tonight: the
    doctor's rest, the one test of ``doctor_rest`` and its pool."""
    s = g.state
    last = s.status_value(p, "doctor_last") or ()
    if not last:
        return []
    # «если на вторую ночь не будет вылечен врачом то умирает»: his wounded may be healed
    wounded_ok = params.get("wounded_ok")
    players = s.players
    return [t for t in names
            if t in last and not (wounded_ok and s.has(players[t], "wounded"))]


def _doctor_rest_pool(g: Game, p: Player, ab: AbilitySpec, names: list, params: dict) -> list:
    """``doctor_rest`` asked of each of ``names`` as a one-target move's target, at once."""
    resting = _resting(g, p, names, params)
    return [t for t in names if t not in resting] if resting else list(names)


@constraint("singapore_doctor_rest", pool=_doctor_rest_pool, position="each")
def doctor_rest(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    resting = _resting(g, p, ts, params)
    if resting:
        t = resting[0]
        return (f"«{t}»: лечение было прошлой ночью, этой ночью нельзя ни лечить, "
                f"ни перевязывать.",
                f"'{t}' was treated last night: not tonight.")
    return None


@constraint("singapore_once_each")
def once_each(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    done = g.state.status_value(p, "confessed") or ()
    if ts and ts[0] in done:
        return (f"«{ts[0]}»: исповедь уже была, одного персонажа — один раз за игру.",
                f"'{ts[0]}' has already confessed: once a game per character.")
    return None


@constraint("singapore_confession_open")
def confession_open(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """The drunk sends to confession only one who has not confessed yet (once each)."""
    done = {x for q in g.state.order if q.role == "priest"
            for x in (g.state.status_value(q, "confessed") or ())}
    if ts and ts[0] in done:
        return (f"Игрок {g.display(ts[0])} уже был на исповеди: второй раз священник его не "
                f"исповедует.",
                f"{g.display(ts[0])} has already confessed: the priest does not confess them "
                f"again.")
    return None


@constraint("singapore_drunk_sent")
def drunk_sent(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """«На следующую ночь Священник исповедует собутыльника пьяницы»: tonight the priest's
    confession is the companion the drunk sent last night."""
    sent = counter(g, "sent_to_confession")
    if sent and sent[1] == g.state.number and ts and ts[0] != sent[0] and \
            g.state.players[sent[0]].alive:
        return (f"Этой ночью священник исповедует собутыльника пьяницы — игрока "
                f"{g.display(sent[0])}.",
                f"Tonight the priest confesses the drunk's companion, {g.display(sent[0])}.")
    return None


@mechanic("singapore_heal")
def heal(n, actor: Player, targets, params: dict):
    """Full healing: saves from kills and from poison (given tonight or due tonight)."""
    g: Game = n.g
    for t in targets:
        n.heals.setdefault(t.name, []).append((actor, {"against": ["direct", "delayed"]}))
        n.notes(Notes).healers.append((actor, t, params.get("fee", 2)))
    _take_order(n, actor, "doctor", targets[0])
    g.set_status(actor, "doctor_last", [t.name for t in targets], until=n.idx + 2)


@mechanic("singapore_bandage")
def bandage(n, actor: Player, targets, params: dict):
    """Bandage two: one who would die tonight lives to the next night and dies then unless
    the doctor heals him."""
    g: Game = n.g
    for t in targets:
        n.notes(Notes).bandages.append((actor, t))
    g.set_status(actor, "doctor_last", [t.name for t in targets], until=n.idx + 2)


@mechanic("singapore_confess")
def confess(n, actor: Player, targets, params: dict):
    """The priest's confession: nobody can act on the confessed tonight; the priest learns
    whether he is a sinner (has killed); the confessed pays 1 coin, gets a cross, loses
    his curse; a fanatic, the witch or a true vampire loses the next night's move; a turned
    vampire becomes who he was."""
    g: Game = n.g
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
    if t.role in ("witch", "vampire", "fanatic_a", "fanatic_b"):
        g.set_status(t, "no_action", True, until=n.idx + 2)
    if t.role == "turned_vampire":
        was = g.state.status_value(t, "was") or ["civilian", "town"]
        g.emit("role_changed", g.to(t), player=t.name, role=was[0], was=t.role)
        g.emit("faction_changed", g.to(t), player=t.name, faction=was[1])


@mechanic("singapore_drink")
def drink(n, actor: Player, targets, params: dict):
    """The drunk: the drinking companion loses his night move; an order pays 2 coins."""
    n.block(targets[0], actor)
    if params.get("confession"):
        set_counter(n.g, "sent_to_confession", [targets[0].name, n.s.number + 1])
        priests = [q for q in n.s.order if q.alive and q.role == "priest"]
        n.g.emit("sent_to_confession", n.g.to(*priests), player=targets[0].name)
        # «На следующую ночь Священник исповедует собутыльника»: the priest's move next
        # night is that confession, whether or not he sends a move himself
        force(n.g, priests, "confess", targets[:1], "drunk_confession", night_idx=n.idx + 2,
              by=actor)
    if _take_order(n, actor, "drunk", targets[0]):
        n.notes(Notes).drunk_ordered = True


@mechanic("singapore_watch", visits=False, counts_as_out=False)
def witness(n, actor: Player, targets, params: dict):
    n.notes(Notes).witness.append((actor, targets[0]))


@mechanic("singapore_journal", visits=False, counts_as_out=False)
def journal(n, actor: Player, targets, params: dict):
    n.notes(Notes).journal.append((actor, targets[0]))


@constraint("singapore_letter_ok", targets=False)
def letter_ok(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """«может через ведущего отправить шерифу письмо в котором описывает преступление»: a
    crime seen last night, and a sheriff in the game to read it."""
    if not g.state.status_value(p, "witness_saw"):
        return ("Прошлой ночью вы не видели преступления: писать шерифу не о чем.",
                "You saw no crime last night: there is nothing to write to the sheriff.")
    if not any(q.alive and q.role == "sheriff" for q in g.state.order):
        return ("Шерифа в игре нет: письмо некому передать.",
                "There is no sheriff in the game to pass the letter to.")
    return None


@mechanic("singapore_letter", visits=False)
def letter(dc, actor: Player, targets, params: dict):
    """The host passes the witness's letter to the sheriff: who killed whom last night (the
    sheriff is told it comes from the witness, not his name)."""
    g: Game = dc.g
    sheriffs = [q for q in g.state.order if q.alive and q.role == "sheriff"]
    g.emit("witness_letter", g.to(*sheriffs), kills=g.state.status_value(actor, "witness_saw"))
