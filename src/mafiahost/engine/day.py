"""The day: checking votes, counting them by the ruleset's day rules, the lynch."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from . import mechanics
from .errors import times_ru
from .events import HOST, PUBLIC
from .notes import NoteBook, T
from .state import FOREVER, Player

if TYPE_CHECKING:
    from .game import Game
    from .model import RulesetSpec

SPECIAL = ("against_all", "abstain")


class DayCount:
    """The day's count in progress: day mechanics and ``day_count`` hooks change it."""

    __slots__ = ("acquit", "counts", "for_", "g", "lynch_how", "notebook", "silent_void",
                 "votes", "weights")

    def __init__(self, g: Game, votes: dict[str, str]) -> None:
        self.g = g
        self.votes = votes                     # voter -> target, after puppets
        self.acquit: set[str] = set()
        self.weights: dict[str, float] = {}    # voter -> weight of his vote (default 1)
        self.for_: dict[str, list] = {}        # candidate -> voters
        self.counts: dict[str, float] = {}     # candidate -> weighted count
        self.lynch_how: str = "lynched"
        self.notebook = NoteBook()
        # votes that do not count without the voter knowing (a bite, rum): left out of the
        # count that decides, shown as cast in the public count
        self.silent_void: set[str] = set()

    def notes(self, kind: type[T]) -> T:
        """This count's notes of a rule set (see ``engine.notes``)."""
        return self.notebook.get(kind)

    def weight_of(self, voters) -> int | float:   # (a float would turn 2 into 2.0 compiled)
        w = self.weights
        if not w:
            return len(voters)
        total = sum(w.get(v, 1) for v in voters)
        return int(total) if total == int(total) else total


_VOTELESS: Final = ("jailed", "silenced", "absent", "voteless")


def vote_loss(g: Game, p: Player) -> tuple[str, str] | None:
    """Why ``p`` cannot vote today, or None."""
    s = g.state
    if not p.alive:
        return (f"«{p.name}» уже не в игре и не голосует.",
                f"'{p.name}' is out of the game (dead or removed) and cannot vote.")
    st = p.st
    if not st:
        return None
    idx = s.idx
    for k in _VOTELESS:         # four look-ups, where a keys view and its test cost more
        v = st.get(k)
        if v is not None and v[0] >= idx:
            break
    else:
        return None
    if s.has(p, "jailed"):
        return (f"«{p.name}» в тюрьме и не голосует.", f"'{p.name}' is in jail and cannot vote.")
    if s.has(p, "silenced"):
        return (f"«{p.name}» сегодня без права голоса.",
                f"'{p.name}' has lost the vote for today.")
    if s.has(p, "absent"):
        return (f"«{p.name}»: нет отписки в первой стадии дня, поэтому сегодня без права голоса.",
                f"'{p.name}' did not post in the day's first stage and loses the vote.")
    if s.has(p, "voteless"):
        return (f"«{p.name}» сегодня без права голоса.",
                f"'{p.name}' has lost the vote for today.")
    return None


def against_all_today(g: Game) -> bool:
    """Is a vote 'against all' allowed today (``day.against_all``)?"""
    day = g.rules.day
    return day.against_all == "every_day" or (day.against_all == "first_day"
                                              and g.state.number == 1)


def _voter_refusal(g: Game, p: Player):
    """Why ``p`` may cast no vote at all now, whatever its target (None: he may)."""
    s = g.state
    if s.over:
        return ("Игра окончена.", "The game is over.")
    if s.phase != "day":
        return ("Голосовать можно только днём.", "Votes are cast by day only.")
    rules = g.rules.day
    if s.number < rules.first_vote_day:
        return (f"В этой игре голосование начинается с {rules.first_vote_day}-го дня.",
                f"In this game voting starts on day {rules.first_vote_day}.")
    if p.st or not p.alive:
        return vote_loss(g, p)
    return None


def _changes_used_up(g: Game, p: Player):
    """Why ``p`` may not change his vote again today (None: he may, or has not voted)."""
    s = g.state
    rules = g.rules.day
    if rules.vote_changes is not None and p.name in s.votes \
            and s.vote_changes.get(p.name, 0) >= rules.vote_changes:
        return (f"Голос можно менять не более {times_ru(rules.vote_changes)} за день.",
                f"A vote can be changed at most {rules.vote_changes} time(s) a day.")
    return None


def _hooks_refusal(g: Game, p: Player, target: str, hooks):
    """The first refusal of a rule set's ``vote_check`` hooks, or None."""
    for fn, params in hooks:
        why = fn(g, p, target, params)
        if why is not None:
            return why
    return None


def check_vote(g: Game, p: Player, target: str, fixed: bool = False):
    why = _voter_refusal(g, p)
    if why:
        return why
    s = g.state
    if target == "against_all":
        if not against_all_today(g):
            when = {"never": "в этой игре нет", "first_day": "можно только в первый день"}
            w = when.get(g.rules.day.against_all, "")
            return (f"Голос «против всех» {w}.", "An 'against all' vote is not allowed today.")
    elif target != "abstain":
        t = s.players.get(target)
        if t is None:
            return (f"Игрока «{target}» нет в игре; игроки: "
                    f"{', '.join(q.name for q in s.order)}.",
                    f"There is no player '{target}'.")
        if not t.alive:
            return (f"«{target}» уже не в игре; голосовать можно только против "
                    f"тех, кто в игре.",
                    f"'{target}' is out (dead or removed); vote only for players in the game.")
    hooks = g.rules.hooks.get("vote_check")
    if hooks:
        why = _hooks_refusal(g, p, target, hooks)
        if why is not None:
            return why
    return None if fixed else _changes_used_up(g, p)


def legal_votes(g: Game, p: Player) -> list[str]:
    """Every vote ``check_vote`` accepts from ``p`` now: living seats in seating order,
    then ``against_all`` and ``abstain``. ``check_vote``'s checks are a conjunction, so
    those of the voter alone (``_voter_refusal``, ``_changes_used_up``, the ``vote_check``
    hooks registered ``voter_only``) are asked once, then for each target only what
    depends on it: being alive (the list holds living seats), ``against_all_today``, and
    the rule set's other ``vote_check`` hooks (``tests/test_legal_votes.py`` keeps the two
    equal)."""
    st = g.state
    if not p.alive or st.phase != "day" or st.over:
        return []           # refused by ``vote_loss`` or ``_voter_refusal``, unsaid
    if _voter_refusal(g, p) or _changes_used_up(g, p):
        return []
    alive = st.living_names()       # read-only: every list returned below is new
    cands: list[str] = alive + (["against_all", "abstain"] if against_all_today(g)
                                else ["abstain"])
    hooks = _vote_hooks(g.rules)
    if hooks is None:
        return cands
    first: list[tuple[Any, Any]] = hooks[1]
    for fn, params in first:
        if fn(g, p, "abstain", params) is not None:    # the target is not read
            return []
    # a hook with a pool filter filters the candidates in one call (the votes allowed are
    # those every hook allows, so the order they are asked in does not matter)
    filters: list[tuple[Any, Any]] = hooks[2]
    for pool, params in filters:
        cands = pool(g, p, cands, params)
        if not cands:
            return []
    per_target: list[tuple[Any, Any]] = hooks[3]
    if not per_target:
        return cands
    return [t for t in cands if _hooks_refusal(g, p, t, per_target) is None]


def _vote_hooks(rules: RulesetSpec) -> tuple | None:
    """The rule set's ``vote_check`` hooks sorted once for ``legal_votes`` (kept in
    ``RulesetSpec.vote_hooks`` with the list they were sorted from): (that list, the
    voter-only hooks, the pool filters of the hooks with one, the others), each as (fn,
    params) in the hooks' order; None without hooks."""
    hooks = rules.hooks.get("vote_check")
    if not hooks:
        return None
    got = rules.vote_hooks
    if got is not None and got[0] is hooks:
        return got
    voter_only = mechanics.VOTER_ONLY_HOOKS
    pools = mechanics.VOTE_POOL_FILTERS
    first: list[tuple[Any, Any]] = []
    filters: list[tuple[Any, Any]] = []
    others: list[tuple[Any, Any]] = []
    for fn, params in hooks:
        if fn in voter_only:
            first.append((fn, params))
        elif fn in pools:
            filters.append((pools[fn], params))
        else:
            others.append((fn, params))
    got = rules.vote_hooks = (hooks, first, filters, others)
    return got


def check_unvote(g, p, fixed: bool = False):
    """None when ``p`` may take his vote back now, else (ru, en)."""
    s = g.state
    if s.over:
        return ("Игра окончена.", "The game is over.")
    if s.phase != "day":
        return ("Голосуют и снимают голос только днём.", "Votes are taken back by day only.")
    if p.name not in s.votes:
        return (f"У игрока «{p.name}» нет голоса, который можно снять.",
                f"'{p.name}' has no vote to take back.")
    rules = g.rules.day
    if not fixed and rules.vote_changes is not None \
            and s.vote_changes.get(p.name, 0) >= rules.vote_changes:
        return (f"Голос можно менять (и снимать) не более {times_ru(rules.vote_changes)} за день.",
                f"A vote can be changed (or taken back) at most {rules.vote_changes} time(s) "
                f"a day.")
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
        raise Refused(f"«{p.name}» уже не в игре.", f"'{p.name}' is already out.")
    if s.has(p, "absent"):
        raise Refused(f"«{p.name}» уже в списке неотписавшихся.",
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


def resolve_day(g: Game) -> None:
    s = g.state
    day = g.rules.day
    players = s.players
    if s.number < day.first_vote_day:
        g.emit("no_lynch", PUBLIC, why="no_vote_today")
        return
    # a player without statuses votes (vote_loss would find no reason)
    eligible = []
    marked = []           # those with statuses: only they may be puppets or weigh more
    for p in s.order:
        if p.alive:
            if not p.st:
                eligible.append(p)
            elif vote_loss(g, p) is None:
                eligible.append(p)
                marked.append(p)
    can = {p.name for p in eligible}
    votes = {v: t for v, t in s.votes.items() if v in can}
    idx = s.idx
    for p in marked:
        v = p.st.get("puppet")            # s.status_value(p, "puppet")
        master = v[1] if v is not None and v[0] >= idx else None
        if master is not None:
            if master in votes:
                votes[p.name] = votes[master]
                g.emit("puppet_vote", g.to(p), to=p.name, target=votes[master])
            else:
                votes.pop(p.name, None)
    dc = DayCount(g, votes)
    for p in marked:
        v = p.st.get("vote_weight")       # s.status_value(p, "vote_weight")
        if v is not None and v[0] >= idx and v[1] is not None:
            dc.weights[p.name] = v[1]
    for a in s.day_actions:
        actor = players[a.actor]
        if not actor.alive or not g.can_use_effects(actor):
            continue
        ab = g.rules.abilities[a.ability]
        if ab.immediate:
            continue
        ts = [players[t] for t in a.targets]
        for mech, params in ab.mechs:
            mech.fn(dc, actor, ts, params)
    for fn, params in g.rules.hooks.get("day_count", ()):
        fn(dc, params)
    nonvoters_against_self = day.nonvoters_against_self
    for_: dict[str, list] = {}
    silent = dc.silent_void
    # the public count shows silently void votes as cast (``shown``), only kept when some
    shown: dict[str, list] | None = {} if silent else None
    against_all = shown_against = 0
    cast = 0
    not_voted = []
    for p in eligible:
        name = p.name
        t = votes.get(name)
        if t is None:
            not_voted.append(name)
            if nonvoters_against_self and not s.has(p, "excused"):
                for_.setdefault(name, []).append(name)
                if shown is not None:
                    shown.setdefault(name, []).append(name)
                cast += 1
            continue
        if shown is None:
            cast += 1
            if t == "against_all":
                against_all += 1
            elif t != "abstain":
                got = for_.get(t)
                if got is None:
                    for_[t] = [name]
                else:
                    got.append(name)
            continue
        void = name in silent
        cast += not void
        if t == "against_all":
            against_all += not void
            shown_against += 1
        elif t != "abstain":
            shown.setdefault(t, []).append(name)
            if not void:
                for_.setdefault(t, []).append(name)
    if day.absent_rule:
        for p in s.order:
            if p.alive and s.has(p, "absent"):
                for_.setdefault(p.name, []).append(p.name)
                if shown is not None:
                    shown.setdefault(p.name, []).append(p.name)
    dc.for_ = for_
    voters = {}
    if dc.weights:
        counts = {k: dc.weight_of(v) for k, v in for_.items()}
        for k, v in for_.items():
            voters[k] = list(v)
    else:
        counts = {}
        for k, v in for_.items():
            voters[k] = list(v)
            counts[k] = len(v)
    dc.counts = counts
    if shown is not None:
        g.emit("vote_count", PUBLIC, counts={k: dc.weight_of(v) for k, v in shown.items()},
               voters={k: list(v) for k, v in shown.items()}, against_all=shown_against,
               not_voted=not_voted)
        g.emit("vote_count_real", HOST, counts=counts, voters=voters,
               against_all=against_all, void=sorted(silent))
    else:
        g.emit("vote_count", PUBLIC, counts=counts, voters=voters, against_all=against_all,
               not_voted=not_voted)
    if against_all and against_all > day.against_all_share * cast:
        g.emit("vote_cancelled", PUBLIC, why="against_all")
        return
    if day.quorum and cast < len(eligible) // 2 + 1:
        g.emit("no_lynch", PUBLIC, why="quorum")
        return
    _condemn(g, dc)


def top(counts: dict, exclude=()) -> list[str]:
    """The candidates with the most votes (by weight), in the order they were first voted."""
    best = 0.0             # vote weights may be fractions
    leaders = []
    for name, c in counts.items():
        if name in exclude or not c:
            continue
        if c > best:
            best, leaders = c, [name]
        elif c == best:
            leaders.append(name)
    return leaders


def _condemn(g: Game, dc: DayCount) -> None:
    s = g.state
    day = g.rules.day
    leaders = top(dc.counts)
    if not leaders:
        g.emit("no_lynch", PUBLIC, why="no_votes")
        return
    if len(leaders) > 1:
        leaders = sorted(leaders, key=lambda x: s.players[x].seat)
        g.emit("tie", PUBLIC, players=leaders)
        if len(s.living()) <= day.tie_dice_at_most:
            chosen = g.roll("tie", leaders)
        else:
            chosen = mechanics.TIE_POLICIES[day.tie](g, dc, leaders)
        if chosen is None:
            return
        leaders = [chosen]
    condemned = leaders[0]
    if condemned in dc.acquit:
        g.emit("acquitted", PUBLIC, player=condemned)
        if day.judge_fallback != "next_most_votes":
            g.emit("no_lynch", PUBLIC, why="acquitted")
            return
        nxt = top(dc.counts, exclude=(condemned,))
        if len(nxt) != 1:
            g.emit("no_lynch", PUBLIC, why="acquitted")
            return
        condemned = nxt[0]
    lynch(g, dc, s.players[condemned])


def lynch(g: Game, dc: DayCount, p: Player) -> None:
    """The vote removes ``p``; his voters are remembered (phantom of the opera)."""
    voters = list(dc.for_.get(p.name, ()))
    g.set_status(p, "lynch_voters", voters, until=FOREVER)
    if g.rules.day.lynch_executor:
        real = [v for v in voters if v != p.name]
        if real:
            g.emit("executed_by", PUBLIC, player=p.name, by=g.roll("executor", real))
    hold = g.rules.day.lynch_holds
    if hold:
        # the condemned is held (e.g. jailed until dawn), not removed: the rule set's hooks
        # decide what happens to him
        g.set_status(p, hold, "vote", until=FOREVER)
        g.emit("held", PUBLIC, player=p.name, status=hold)
        return
    g.eliminate(p, dc.lynch_how)


# ---- tie policies ------------------------------------------------------------------------
# A policy returns the one tied player to lynch, or None after emitting why nobody leaves.

@mechanics.tie_policy("no_lynch")
def _tie_no_lynch(g, dc, leaders):
    g.emit("no_lynch", PUBLIC, why="tie")
    return None


@mechanics.tie_policy("dice")
def _tie_dice(g, dc, leaders):
    return g.roll("tie", leaders)


def shield_tied(g, leaders) -> None:
    """The tied lose their next night's move and are untouchable that night. The loss is
    public (everyone saw the tie), so a move they send that night is refused (``no_action``
    with the cause ``tie``), not taken and silently void."""
    s = g.state
    for name in leaders:
        p = s.players[name]
        g.set_status(p, "blocked", "tie", until=s.idx + 1)
        g.set_status(p, "no_action", "tie", until=s.idx + 1)
        g.set_status(p, "shielded", "tie", until=s.idx + 1)
    g.emit("no_lynch", PUBLIC, why="tie", shielded=leaders)


@mechanics.tie_policy("shield_then_dice")
def _tie_shield_then_dice(g, dc, leaders):
    """The first ``tie_shield_times`` ties of the game shield the tied; later ones: dice."""
    s = g.state
    ties = s.counters.get("ties", 0) + 1
    g.emit("counter", HOST, key="ties", value=ties)
    if ties <= g.rules.day.tie_shield_times:
        shield_tied(g, leaders)
        return None
    return g.roll("tie", leaders)


@mechanics.tie_policy("shield")
def _tie_shield(g, dc, leaders):
    """Every tie shields the tied (no limit)."""
    shield_tied(g, leaders)
    return None
