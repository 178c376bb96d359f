"""«Одесская новогодняя» (seed 003, section #34): what the ruleset file cannot say.

Nobody is killed: denunciations (доносы) remove players from the race for the inheritance
(``how: denounced``). Direct denunciations are made at step 6 (the commissar's at step 5);
mail (an investigator's or the maniac's letter) arrives after 1–3 nights by dice, at step 7.
Every denunciation is judged at dawn, in the order made (direct first, then the mail in the
order it was sent), against the night's protections:

- a player tied at the last vote is untouchable by everything except the commissar's check
  (status ``odessa_tied``; every mechanic here refuses to touch him);
- the boss's cover: a denunciation arriving on a covered night is not believed;
- the lover's alibi: her guest is safe from every denunciation arriving that night;
- the investigator's clearing (step 8) of a fellow policeman;
- the gossip on his bench: the first denunciation on each ward is foiled, later ones with 50%;
  only an innocent ward (a relative, town side) is cleared: a policeman or the maniac is not.

A believed denunciation removes the target; on the lover it also removes her guest of the
night; brought in person to the alcoholic (not by the commissar) it removes the denouncer
too, cover or not. The commissar's denunciation of a town player removes the commissar.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mafiahost.engine import mechanics as lib
from mafiahost.engine.day import vote_loss
from mafiahost.engine.events import HOST, PUBLIC
from mafiahost.engine.mechanics import constraint, hook, mechanic, scheduled, tie_policy
from mafiahost.engine.mechanics.check import seen_side
from mafiahost.engine.night import run_ability

TIED = "odessa_tied"
HOW = "denounced"


@dataclass
class OdessaNight:
    """What tonight's moves tell the dawn's judging of denunciations
    (``n.notes(OdessaNight)``)."""
    lovers: dict[str, str] = field(default_factory=dict)     # lover -> guest
    gossips: list[tuple[str, str]] = field(default_factory=list)   # (gossip, ward)
    cleared: dict[str, str] = field(default_factory=dict)    # cleared policeman -> by
    direct: list[dict] = field(default_factory=list)         # denunciations in person
    mail_due: list[dict] = field(default_factory=list)       # letters sent earlier, due now
    mail_today: list[dict] = field(default_factory=list)     # letters that arrive at once
    # the chameleon's copied moves: (chameleon, ability key, target names)
    copies: list[tuple[str, str, list[str]]] = field(default_factory=list)


@dataclass
class OdessaDay:
    """What the day's count notes (``dc.notes(OdessaDay)``)."""
    cancelled: bool = False           # an envelope cancelled today's vote


def _touchable(n, actor, targets, what: str) -> bool:
    """False (and a host note) when a target is untouchable after a tie."""
    s = n.s
    for t in targets:
        if t.st and s.has(t, TIED):
            n.g.emit("no_effect", HOST, player=actor.name, ability=what, why="untouchable",
                     target=t.name)
            return False
    return True


@constraint("odessa_not_tied")
def odessa_not_tied(g, p, ab, ts, params):
    """«При этом они становятся неуязвимыми для всех действий КРОМЕ проверки комиссара»: a
    move on a tied player is void, so it is refused when sent — unless a joker is seated who
    may send it onto another first target. ``only_first``: only the first target is touched
    by this move itself (the chameleon's copy: the second is judged by the copied move)."""
    s = g.state
    for i, t in enumerate(ts[:1] if params.get("only_first") else ts):
        tp = s.players[t]
        if tp.st and s.has(tp, TIED) and (i > 0 or not g.may_be_redirected(p)):
            return (f"Игрок «{t}» после ничьей на голосовании неуязвим этой ночью для всех "
                    f"действий, кроме проверки комиссара.",
                    f"'{t}' tied at the vote and is untouchable tonight by every move but the "
                    f"commissar's check.")
    return None


# ---- library mechanics behind the tie's untouchability ------------------------------------

@mechanic("odessa_cover", cover_aware=True)
def odessa_cover(n, actor, targets, params):
    if _touchable(n, actor, targets, "cover"):
        lib.MECHANICS["cover"].fn(n, actor, targets, params)


@mechanic("odessa_redirect", cover_aware=True, counts_as_out=False)
def odessa_redirect(n, actor, targets, params):
    if _touchable(n, actor, targets, "redirect"):
        lib.MECHANICS["redirect"].fn(n, actor, targets, params)


@mechanic("odessa_block")
def odessa_block(n, actor, targets, params):
    """The sergeant's all-night talk: the target's move fails."""
    if _touchable(n, actor, targets, "talk"):
        n.block(targets[0], actor)


@mechanic("odessa_drink")
def odessa_drink(n, actor, targets, params):
    """Blocks the target; a ``drink_immune`` role (the sergeant) is untouched, unknown to
    the alcoholic. A covered policeman is out of reach (the engine's cover check)."""
    t = targets[0]
    if not _touchable(n, actor, targets, "drink"):
        return
    if "drink_immune" in n.g.role(t).tags:
        n.g.emit("no_effect", HOST, player=actor.name, ability="drink", why="immune",
                 target=t.name)
        return
    n.block(t, actor)


@mechanic("odessa_seduce")
def odessa_seduce(n, actor, targets, params):
    """Blocks the guest and gives him an alibi against tonight's denunciations."""
    t = targets[0]
    if _touchable(n, actor, targets, "seduce"):
        n.block(t, actor)
        n.notes(OdessaNight).lovers[actor.name] = t.name


@mechanic("odessa_gossip", visits=False, counts_as_out=False)
def odessa_gossip(n, actor, targets, params):
    """Watches the target (visitors, a covered one as "?", going out) and vouches for him
    against denunciations arriving tonight."""
    if _touchable(n, actor, targets, "watch"):
        lib.MECHANICS["watch"].fn(n, actor, targets, params)
        n.notes(OdessaNight).gossips.append((actor.name, targets[0].name))


@mechanic("odessa_clear")
def odessa_clear(n, actor, targets, params):
    """The investigator clears a fellow policeman of tonight's denunciations."""
    if _touchable(n, actor, targets, "clear"):
        n.notes(OdessaNight).cleared[targets[0].name] = actor.name


@mechanic("odessa_check", cover_aware=True)
def odessa_check(n, actor, targets, params):
    """Positive or negative (negative: police without cover, the maniac). Works on the
    tied too."""
    t = targets[0]
    g = n.g
    result = "positive" if seen_side(n, t, actor) == "town" else "negative"
    g.emit("check_result", g.to(actor), to=actor.name, target=t.name, result=result)


# ---- denunciations -------------------------------------------------------------------------

@mechanic("odessa_denounce", cover_aware=True)
def odessa_denounce(n, actor, targets, params):
    """A denunciation brought in person; judged at dawn. params ``commissar``: a false one
    (on a town player) removes the denouncer instead."""
    t = targets[0]
    if not _touchable(n, actor, targets, "denounce"):
        return
    n.notes(OdessaNight).direct.append(
        {"by": actor.name, "target": t.name, "commissar": bool(params.get("commissar"))})
    n.on_dawn(_judge)


@mechanic("odessa_mail", cover_aware=True, visits=False, counts_as_out=False)
def odessa_mail(n, actor, targets, params):
    """A denunciation by mail: the dice say 1 (tonight), 2 (next night) or 3 (the night
    after). Only the night it arrives matters for protections."""
    g = n.g
    t = targets[0]
    k = g.roll(f"mail {actor.name} -> {t.name}", [1, 2, 3])
    item = {"effect": "odessa_mail", "night_idx": n.idx + 2 * (k - 1), "step": "7",
            "target": t.name, "by": actor.name, "sent": n.idx}
    g.emit("mail_sent", HOST, player=actor.name, target=t.name, nights=k)
    if k == 1:
        n.notes(OdessaNight).mail_today.append(item)
        n.on_dawn(_judge)
    else:
        g.emit("scheduled", HOST, item=item)


@scheduled("odessa_mail")
def odessa_mail_arrives(n, item):
    n.notes(OdessaNight).mail_due.append(item)
    n.on_dawn(_judge)


def _gossip_vouches(n, gossip: str, ward: str) -> bool:
    """The first time for each ward the uncle believes the gossip; later with 50%."""
    g = n.g
    key = f"odessa_gossip:{gossip}:{ward}"
    times = g.state.counters.get(key, 0)
    g.emit("counter", HOST, key=key, value=times + 1)
    if times == 0:
        return True
    return g.chance(f"gossip {gossip} vouches for {ward}", 0.5)


def _innocent(g, p) -> bool:
    """A relative (town side): what the gossip's "whole truth" can clear. Option
    ``gossip_guards: anyone`` (the guard sentence alone sets no condition): every ward."""
    if g.rules.options.get("gossip_guards", "innocent") == "anyone":
        return True
    return g.rules.factions[p.faction].side == "town"


def _judge(n):
    g = n.g
    s = n.s
    players = s.players
    notes = n.notes(OdessaNight)
    lovers = notes.lovers
    guests = {guest: lover for lover, guest in lovers.items()}
    cleared = notes.cleared
    gossips = notes.gossips
    out: list[str] = []

    def remove(p, by, cause):
        if p.name not in out:
            out.append(p.name)
            n.attack(players[by] if by else None, p, "suicide", cause, how=HOW)

    def saved(t, by, cause):
        g.emit("saved", HOST, player=t.name, by=by, cause=cause)

    items = [("direct", d) for d in notes.direct]
    mail = sorted(notes.mail_due, key=lambda x: x["sent"])
    items += [("mail", m) for m in mail + notes.mail_today]
    for kind, d in items:
        t = players[d["target"]]
        by = players[d["by"]]
        cause = "denounce" if kind == "direct" else "mail"
        if not t.alive or t.name in out:
            continue
        if kind == "mail":
            g.emit("mail_arrived", HOST, target=t.name, by=by.name)
            if t.st and s.has(t, TIED):
                saved(t, "tie", cause)
                continue
        if d.get("commissar") and t.faction == "town":
            g.emit("wrong_shot", HOST, player=by.name, target=t.name)
            remove(by, None, "false_denunciation")
            continue
        if n.is_covered_against(t, by):
            saved(t, n.covered[t.name], cause)
            continue
        if t.name in guests:
            saved(t, "alibi", cause)
            continue
        if t.name in cleared:
            saved(t, cleared[t.name], cause)
            continue
        vouched = None
        for gossip, ward in gossips:
            if ward == t.name and players[gossip].alive:
                if not _innocent(g, t):
                    # «всю правду … поверит в невиновность»: the truth clears only the
                    # innocent; a policeman or the maniac is not saved (nor is a vouch used)
                    g.emit("no_effect", HOST, player=gossip, ability="gossip", why="guilty",
                           target=t.name)
                elif _gossip_vouches(n, gossip, ward):
                    vouched = gossip
                break
        if vouched:
            saved(t, vouched, cause)
            continue
        g.emit("denounced", HOST, player=t.name, by=by.name, kind=kind)
        remove(t, by.name, cause)
        guest = lovers.get(t.name)
        if guest is not None:
            remove(players[guest], by.name, "lover's guest")
        if kind == "direct" and not d.get("commissar") and by is not t \
                and "drunk_luck" in g.role(t).tags:
            g.emit("denouncer_exposed", HOST, player=by.name, target=t.name)
            remove(by, None, "brought to the alcoholic")
    notes.direct = []
    notes.mail_due = []
    notes.mail_today = []


# ---- the chameleon -------------------------------------------------------------------------

@constraint("odessa_copy_targets")
def odessa_copy_targets(g, p, ab, ts, params):
    if ts and ts[0] == p.name:
        return (f"«{ab.name_ru}»: копировать можно только другого игрока.",
                f"'{ab.name_en}': copy another player, not yourself.")
    few = params.get("min_alive_self", 3)
    if len(ts) > 1 and ts[1] == p.name and sum(1 for q in g.state.order if q.alive) > few:
        return (f"«{ab.name_ru}»: применять скопированное на себя можно, только когда в игре "
                f"осталось не более {few} игроков.",
                f"'{ab.name_en}': on yourself only when {few} or fewer players are left.")
    return None


@mechanic("odessa_copy", cover_aware=True, visits=False, counts_as_out=False)
def odessa_copy(n, actor, targets, params):
    """Copy what X does tonight and do it to Y at that ability's own step. Copying the
    commissar only tells the chameleon that X is the commissar; the tied cannot be copied."""
    g = n.g
    x, y = targets
    if not _touchable(n, actor, [x], "copy"):
        return
    if "uncopyable" in g.role(x).tags:
        g.emit("copy_result", g.to(actor), to=actor.name, target=x.name, result=x.role)
        return
    abilities = g.rules.abilities
    for a in n.s.pending:
        spec = abilities[a.ability]
        if a.actor == x.name and spec.phase == "night" and spec.slot == "main":
            n.notes(OdessaNight).copies.append(
                (actor.name, a.ability, [y.name] + list(a.targets[1:])))
            g.emit("copied", HOST, player=actor.name, source=x.name, ability=spec.id,
                   target=y.name)
            return
    g.emit("no_effect", HOST, player=actor.name, ability="copy", why="nothing to copy",
           target=x.name)


@hook("step", "odessa_chameleon")
def odessa_chameleon(n, params):
    """At each step, the chameleon's copied move of that step (before the step's own moves)."""
    step = str(params.get("step"))
    g = n.g
    players = n.s.players
    for cham, key, names in n.notes(OdessaNight).copies:
        spec = g.rules.abilities[key]
        if spec.step != step:
            continue
        p = players[cham]
        if not p.alive or cham in n.dead_now:
            continue
        if spec.blockable and n.is_blocked(p):
            g.emit("blocked", HOST, player=cham, by=n.blocked_by.get(cham), ability=spec.id)
            continue
        run_ability(n, p, spec, [players[t] for t in names])


# ---- the day: envelopes and ties -----------------------------------------------------------

@constraint("odessa_vote_day", targets=False, listed=True)
def odessa_vote_day(g, p, ab, ts, params):
    first = g.rules.day.first_vote_day
    if g.state.number < first:
        return (f"«{ab.name_ru}» работает при голосовании, а голосование начинается с "
                f"{first}-го дня.",
                f"'{ab.name_en}' works at a vote; votes start on day {first}.")
    return None


@mechanic("odessa_envelope", visits=False)
def odessa_envelope(dc, actor, targets, params):
    """Open the envelope: the dice give an extra vote (the opener's vote counts twice),
    hypnosis (the named player's vote goes where the opener voted) or the vote cancelled."""
    g = dc.g
    result = g.roll(f"envelope {actor.name}", list(params.get("bonuses",
                                                             ["extra_vote", "hypnosis",
                                                              "cancel"])))
    g.emit("envelope", PUBLIC, result=result)
    g.emit("envelope_used", HOST, player=actor.name, result=result, target=targets[0].name)
    if dc.notes(OdessaDay).cancelled:
        g.emit("no_effect", HOST, player=actor.name, why="vote cancelled")
        return
    mine = dc.votes.get(actor.name)
    voted = mine is not None and mine not in ("abstain", "against_all")
    if result == "cancel":
        dc.notes(OdessaDay).cancelled = True
        for p in g.state.order:
            dc.weights[p.name] = 0
        g.emit("vote_cancelled", PUBLIC, why="envelope")
    elif not voted:
        g.emit("no_effect", HOST, player=actor.name, why="did not vote")
    elif result == "extra_vote":
        dc.weights[actor.name] = dc.weights.get(actor.name, 1) + 1
    elif result == "hypnosis":
        t = targets[0]
        if vote_loss(g, t) is None:
            dc.votes[t.name] = mine
            g.emit("vote_switched", PUBLIC, voter=t.name, target=mine)
        else:
            g.emit("no_effect", HOST, player=actor.name, why="target cannot vote")


@tie_policy("odessa_tie")
def odessa_tie(g, dc, leaders):
    """A tie blocks the tied next night and makes them untouchable except for the
    commissar's check; the same players tied again (not only in a row): the dice."""
    s = g.state
    key = sorted(leaders)
    seen = list(s.counters.get("odessa_ties", ()))
    if key in seen:
        return g.roll("tie", leaders)
    g.emit("counter", HOST, key="odessa_ties", value=seen + [key])
    for name in leaders:
        p = s.players[name]
        g.set_status(p, "blocked", "tie", until=s.idx + 1)
        g.set_status(p, "no_action", "tie", until=s.idx + 1)   # known: his moves are refused
        g.set_status(p, TIED, "tie", until=s.idx + 1)
    g.emit("no_lynch", PUBLIC, why="tie", shielded=list(leaders))
    return None
