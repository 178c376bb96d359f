"""The day: checking votes, counting them by the ruleset's day rules, the lynch."""

from __future__ import annotations

from . import mechanics
from .events import HOST, PUBLIC
from .state import FOREVER

SPECIAL = ("against_all", "abstain")


class DayCount:
    __slots__ = ("acquit", "g", "votes")

    def __init__(self, g, votes):
        self.g = g
        self.votes = votes
        self.acquit: set[str] = set()


_VOTELESS = ("jailed", "silenced", "absent", "voteless")


def vote_loss(g, p):
    """Why ``p`` cannot vote today, or None."""
    s = g.state
    if not p.alive:
        return (f"«{p.name}» выбыл(а) из игры (мёртв или вынесен) и не голосует.",
                f"'{p.name}' is out of the game (dead or removed) and cannot vote.")
    st = p.st
    if not st:
        return None
    idx = s.idx
    for k in _VOTELESS:
        v = st.get(k)
        if v is not None and v[0] >= idx:
            break
    else:
        return None
    if s.has(p, "jailed"):
        return (f"«{p.name}» в тюрьме и не голосует.", f"'{p.name}' is in jail and cannot vote.")
    if s.has(p, "silenced"):
        return (f"«{p.name}» лишён(а) права голоса на этот день.",
                f"'{p.name}' has lost the vote for today.")
    if s.has(p, "absent"):
        return (f"«{p.name}» не отписался(ась) в первой стадии дня и теряет право голоса.",
                f"'{p.name}' did not post in the day's first stage and loses the vote.")
    if s.has(p, "voteless"):
        return (f"«{p.name}» лишён(а) права голоса на этот день.",
                f"'{p.name}' has lost the vote for today.")
    return None


def check_vote(g, p, target):
    s = g.state
    if s.over:
        return ("Игра окончена.", "The game is over.")
    if s.phase != "day":
        return ("Голосовать можно только днём.", "Votes are cast by day only.")
    why = vote_loss(g, p)
    if why:
        return why
    rules = g.rules.day
    if target == "against_all":
        ok = rules.against_all == "every_day" or (rules.against_all == "first_day"
                                                   and s.number == 1)
        if not ok:
            when = {"never": "в этой игре нет", "first_day": "можно только в первый день"}
            w = when.get(rules.against_all, "")
            return (f"Голос «против всех» {w}.", "An 'against all' vote is not allowed today.")
    elif target != "abstain":
        t = s.players.get(target)
        if t is None:
            return (f"Игрока «{target}» нет в игре; игроки: "
                    f"{', '.join(q.name for q in s.order)}.",
                    f"There is no player '{target}'.")
        if not t.alive:
            return (f"«{target}» выбыл(а) (мёртв или вынесен); голосовать можно только против "
                    f"тех, кто в игре.",
                    f"'{target}' is out (dead or removed); vote only for players in the game.")
    if rules.vote_changes is not None and p.name in s.votes \
            and s.vote_changes.get(p.name, 0) >= rules.vote_changes:
        return (f"Голос можно менять не более {rules.vote_changes} раз(а) за день.",
                f"A vote can be changed at most {rules.vote_changes} time(s) a day.")
    return None


def mark_absent(g, p):
    """A player who did not post in the day's first stage: loses the vote and the next
    night's move, gets a vote against himself; absent two days running, the host removes
    him (мастерский произвол)."""
    from .errors import Refused
    s = g.state
    if not g.rules.day.absent_rule:
        raise Refused(f"В правилах «{g.rules.id}» нет правила о неотписавшихся.",
                      f"Ruleset '{g.rules.id}' has no rule for absent players.")
    if s.phase != "day":
        raise Refused("Неотписавшихся отмечают днём.", "Absent players are marked by day.")
    if not p.alive:
        raise Refused(f"«{p.name}» уже выбыл(а).", f"'{p.name}' is already out.")
    if s.has(p, "absent"):
        raise Refused(f"«{p.name}» уже отмечен(а) как неотписавшийся.",
                      f"'{p.name}' is already marked absent.")
    streak = s.status_value(p, "absent_streak", 0) + 1
    g.set_status(p, "absent_streak", streak, until=s.idx + 2)
    if streak >= 2:
        g.eliminate(p, "host", why="absent_twice")
        return
    g.set_status(p, "absent", True, until=s.idx)
    g.set_status(p, "no_action", True, until=s.idx + 1)
    g.emit("vote_lost", PUBLIC, player=p.name, why="absent")
    if p.name in s.votes:
        g.emit("vote", PUBLIC, voter=p.name, target="abstain", void=True)


def resolve_day(g) -> None:
    s = g.state
    day = g.rules.day
    players = s.players
    eligible = [p for p in s.order if p.alive and vote_loss(g, p) is None]
    can = {p.name for p in eligible}
    votes = {v: t for v, t in s.votes.items() if v in can}
    for p in eligible:
        master = s.status_value(p, "puppet") if p.st else None
        if master is not None:
            if master in votes:
                votes[p.name] = votes[master]
                g.emit("puppet_vote", g.to(p), to=p.name, target=votes[master])
            else:
                votes.pop(p.name, None)
    dc = DayCount(g, votes)
    for a in s.day_actions:
        actor = players[a.actor]
        if not actor.alive or not g.can_use_effects(actor):
            continue
        ab = g.rules.abilities[a.ability]
        ts = [players[t] for t in a.targets]
        for eff in ab.effects:
            mechanics.MECHANICS[eff.mechanic].fn(dc, actor, ts, eff.params)
    for_ = {}
    against_all = 0
    cast = 0
    for p in eligible:
        t = votes.get(p.name)
        if t is None:
            if day.nonvoters_against_self and not s.has(p, "excused"):
                for_.setdefault(p.name, []).append(p.name)
                cast += 1
            continue
        cast += 1
        if t == "against_all":
            against_all += 1
        elif t != "abstain":
            for_.setdefault(t, []).append(p.name)
    if day.absent_rule:
        for p in s.order:
            if p.alive and s.has(p, "absent"):
                for_.setdefault(p.name, []).append(p.name)
    counts = {k: len(v) for k, v in for_.items()}
    g.emit("vote_count", PUBLIC, counts=counts, voters={k: list(v) for k, v in for_.items()},
           against_all=against_all, not_voted=[p.name for p in eligible if p.name not in votes])
    if against_all and against_all > day.against_all_share * cast:
        g.emit("vote_cancelled", PUBLIC, why="against_all")
        return
    if day.quorum and cast < len(eligible) // 2 + 1:
        g.emit("no_lynch", PUBLIC, why="quorum")
        return
    _condemn(g, dc, for_)


def _top(for_, exclude=()):
    best = 0
    leaders = []
    for name, vs in for_.items():
        if name in exclude:
            continue
        c = len(vs)
        if c > best:
            best, leaders = c, [name]
        elif c == best and c:
            leaders.append(name)
    return leaders


def _condemn(g, dc, for_):
    s = g.state
    day = g.rules.day
    leaders = _top(for_)
    if not leaders:
        g.emit("no_lynch", PUBLIC, why="no_votes")
        return
    if len(leaders) > 1:
        leaders = sorted(leaders, key=lambda x: s.players[x].seat)
        g.emit("tie", PUBLIC, players=leaders)
        if day.tie == "no_lynch":
            g.emit("no_lynch", PUBLIC, why="tie")
            return
        if day.tie == "shield_then_dice":
            ties = s.counters.get("ties", 0) + 1
            g.emit("counter", HOST, key="ties", value=ties)
            if ties <= day.tie_shield_times:
                for name in leaders:
                    p = s.players[name]
                    g.set_status(p, "blocked", "tie", until=s.idx + 1)
                    g.set_status(p, "shielded", "tie", until=s.idx + 1)
                g.emit("no_lynch", PUBLIC, why="tie", shielded=leaders)
                return
        chosen = g.roll("tie", leaders)
        leaders = [chosen]
    condemned = leaders[0]
    if condemned in dc.acquit:
        g.emit("acquitted", PUBLIC, player=condemned)
        if day.judge_fallback != "next_most_votes":
            g.emit("no_lynch", PUBLIC, why="acquitted")
            return
        nxt = _top(for_, exclude=(condemned,))
        if len(nxt) != 1:
            g.emit("no_lynch", PUBLIC, why="acquitted")
            return
        condemned = nxt[0]
    p = s.players[condemned]
    g.set_status(p, "lynch_voters", list(for_.get(condemned, ())), until=FOREVER)
    g.eliminate(p, "lynched")
