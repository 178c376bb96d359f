"""Game state and the one place it changes: ``apply(state, event)``.

Replaying a game is applying its events in order to a fresh state made from the same
ruleset and seating; every table below is a pure function of (state, event).
"""

from __future__ import annotations

from typing import Any, Final

from .dice import Dice

FOREVER: Final = 1 << 30


class Player:
    __slots__ = ("alive", "died", "faction", "how", "name", "role", "seat", "st")

    def __init__(self, name: str, seat: int, role: str, faction: str):
        self.name = name
        self.seat = seat
        self.role = role
        self.faction = faction
        self.alive = True
        # status name -> [until_phase_index, value]; a status holds while until >= index
        self.st: dict[str, list] = {}
        self.died = 0         # phase index of leaving the game
        self.how = ""         # killed | lynched | host


class Action:
    __slots__ = ("ability", "actor", "role", "seq", "targets")

    def __init__(self, seq: int, actor: str, ability: str, targets: tuple,
                 role: str | None = None):
        self.seq = seq
        self.actor = actor
        self.ability = ability
        self.targets = targets
        self.role = role          # the role a role-naming move names (AbilitySpec.names_role)


class State:
    __slots__ = (
        "_alive",
        "_alive_at",
        "_alive_names",
        "aliases",
        "alive_by_faction",
        "alive_by_role",
        "census",
        "counters",
        "day_actions",
        "dice",
        "expires",
        "filled",
        "holders",
        "idx",
        "memo",
        "number",
        "order",
        "over",
        "pending",
        "phase",
        "players",
        "question_seq",
        "questions",
        "schedule",
        "seq",
        "slots",
        "uses",
        "vote_changes",
        "votes",
        "winners",
    )

    def __init__(self, seating: list[tuple[str, str, str]], seed: int):
        self.players: dict[str, Player] = {}
        self.order: list[Player] = []
        # living players counted by faction and by role, kept up to date by the apply
        # table below (victory reads them instead of recounting)
        bf: dict[str, int] = {}
        br: dict[str, int] = {}
        for i, (name, role, faction) in enumerate(seating):
            p = Player(name, i, role, faction)
            self.players[name] = p
            self.order.append(p)
            bf[faction] = bf.get(faction, 0) + 1
            br[role] = br.get(role, 0) + 1
        self.alive_by_faction = bf
        self.alive_by_role = br
        self.idx = 0             # phase index: 1, 2, 3 ... in play order
        self.phase = ""          # "night" | "day"
        self.number = 0          # night 1, day 1, ...
        self.pending: list[Action] = []
        self.votes: dict[str, str] = {}
        self.vote_changes: dict[str, int] = {}
        self.day_actions: list[Action] = []
        self.counters: dict[str, object] = {}
        self.schedule: list[dict] = []
        self.dice = Dice(seed)
        self.over = False
        self.winners: list[str] = []
        self.seq = 0
        self.uses: dict[tuple[str, str], int] = {}
        # this phase's moves by slot: (actor, slot) or ("faction", owner, ability id)
        self.slots: dict[tuple, Action] = {}
        # each player's own slots filled this phase (the (actor, slot) keys of ``slots``,
        # by actor; not a faction's shared ones), kept with it (``fill_slot``,
        # ``free_slot``): read, never changed, by the list of legal moves and the random
        # player for each ability, where a key was made and looked up (or the phase's
        # moves scanned for the player's)
        self.filled: dict[str, set[str]] = {}
        # the holders of each status a pool filter has asked about (``lacking``,
        # ``holding``), as (name -> until): made from the players' ``st`` at the first
        # question, then kept with it (``hold``, ``release``, the sweep at a phase's
        # start); a filter reads one small dictionary, and nothing where nobody holds the
        # status. A status nobody asks about costs a setting one look-up more.
        self.holders: dict[str, dict[str, int]] = {}
        self.census = 0          # bumped when who is alive, or on which side, changes
        # answers kept while what they read is unchanged, by key: (version, answer); the
        # version is the census for an answer that reads who sits in which role, alive or
        # not (``mechanics.targets.role_seated``), the phase index and the number of
        # events for one that may change with any event (singapore's purchases of the
        # night, ``Stock.left``)
        self.memo: dict[Any, tuple[int, Any]] = {}
        # no status set since the last sweep ends before this phase index (a lower bound
        # of every ``until``): the sweep at a phase's start skips the players while no
        # status can have run out
        self.expires = FOREVER
        self._alive: list[Player] = []
        self._alive_names: list[str] = []
        self._alive_at = -1      # the census ``_alive`` was made at
        self.aliases: dict[str, str] = {}   # seat name -> who plays it now (замена)
        self.questions: dict[int, dict] = {}  # open questions to players (mechanics.questions)
        self.question_seq = 0

    def fill_slot(self, key: tuple, a: Action) -> None:
        """``a`` fills the slot ``key`` (``slots``, and ``filled`` for a player's own)."""
        self.slots[key] = a
        if len(key) == 2:
            name: str = key[0]
            got = self.filled.get(name)
            if got is None:
                self.filled[name] = {key[1]}
            else:
                got.add(key[1])

    def free_slot(self, key: tuple) -> None:
        """The slot ``key`` is empty again (``fill_slot`` undone)."""
        del self.slots[key]
        if len(key) == 2:
            got = self.filled.get(key[0])
            if got is not None:
                got.discard(key[1])

    def has(self, p: Player, status: str) -> bool:
        v = p.st.get(status)
        return v is not None and v[0] >= self.idx

    def lacking(self, names: list[str], status: str, keep: str = "") -> list[str]:
        """The names of ``names`` (in order) but those of players who hold ``status`` now
        (``has``; ``keep`` is always kept, as is a name that is no player's): a pool
        filter's one pass over the status's holders (``holders``), ``names`` itself
        (read-only) where nobody holds it."""
        h = self.holders.get(status)
        if h is None:
            h = self._index(status)
        if not h:
            return names
        idx = self.idx
        out: list[str] = []
        for n in names:
            until = h.get(n)
            if until is None or until < idx or n == keep:
                out.append(n)
        return out

    def holding(self, names: list[str], status: str) -> list[str]:
        """The names of ``names`` (in order) of players who hold ``status`` now."""
        h = self.holders.get(status)
        if h is None:
            h = self._index(status)
        if not h:
            return []
        idx = self.idx
        out: list[str] = []
        for n in names:
            until = h.get(n)
            if until is not None and until >= idx:
                out.append(n)
        return out

    def _index(self, status: str) -> dict[str, int]:
        """``holders`` of ``status``, made from the players' ``st`` and kept from now."""
        h: dict[str, int] = {}
        for p in self.order:
            v = p.st.get(status) if p.st else None
            if v is not None:
                h[p.name] = v[0]
        self.holders[status] = h
        return h

    def hold(self, p: Player, status: str, until: int, value: Any) -> None:
        """``p`` holds ``status`` until phase ``until`` (its ``st``, and ``holders``)."""
        p.st[status] = [until, value]
        h = self.holders.get(status)
        if h is not None:
            h[p.name] = until
        if until < self.expires:
            self.expires = until

    def release(self, p: Player, status: str) -> None:
        """``p`` no longer holds ``status`` (``hold`` undone)."""
        p.st.pop(status, None)
        h = self.holders.get(status)
        if h is not None:
            h.pop(p.name, None)

    def status_value(self, p: Player, status: str, default=None):
        v = p.st.get(status)
        return v[1] if v is not None and v[0] >= self.idx else default

    def alive(self) -> list[Player]:
        return [p for p in self.order if p.alive]

    def living(self) -> list[Player]:
        """The living players in seating order, made once per census (read-only: do not
        change the list)."""
        if self._alive_at != self.census:
            self._alive = [p for p in self.order if p.alive]
            self._alive_names = [p.name for p in self._alive]
            self._alive_at = self.census
        return self._alive

    def living_names(self) -> list[str]:
        """The names of ``living()`` (read-only)."""
        if self._alive_at != self.census:
            self.living()
        return self._alive_names


def _count(s: State, p: Player, n: int) -> None:
    """Add ``n`` (1 or -1) to the living counts of ``p``'s faction and role."""
    bf, br = s.alive_by_faction, s.alive_by_role
    bf[p.faction] = bf.get(p.faction, 0) + n
    br[p.role] = br.get(p.role, 0) + n


# ---- the apply table -------------------------------------------------------------------

def _phase_started(s: State, d: dict) -> None:
    s.idx += 1
    s.phase = d["phase"]
    s.number = d["number"]
    s.pending = []
    s.slots = {}
    s.filled = {}
    s.votes = {}
    s.vote_changes = {}
    s.day_actions = []
    keep = s.idx - 1          # the last phase's marks stay readable for its report
    if s.expires >= keep:
        return                # no status has run out
    low = FOREVER
    for p in s.order:
        st = p.st
        if st:
            gone = None
            for k, v in st.items():
                until = v[0]
                if until < keep:
                    if gone is None:
                        gone = [k]
                    else:
                        gone.append(k)
                elif until < low:
                    low = until
            if gone is not None:
                for k in gone:
                    del st[k]
                    h = s.holders.get(k)
                    if h is not None:
                        h.pop(p.name, None)
    s.expires = low


def _action(s: State, d: dict) -> None:
    s.seq += 1
    actor = d["actor"]
    a = Action(s.seq, actor, d["key"], tuple(d["targets"]), d.get("role"))
    if s.phase == "day":
        s.day_actions.append(a)
    else:
        s.pending.append(a)
    key = (actor, d["ability"])       # per player and ability id, whatever his role
    uses = s.uses
    uses[key] = uses.get(key, 0) + 1
    slot = d.get("slot")
    if slot is not None:
        s.fill_slot(tuple(slot), a)


def _vote(s: State, d: dict) -> None:
    voter = d["voter"]
    if voter in s.votes and not d.get("fixed"):
        s.vote_changes[voter] = s.vote_changes.get(voter, 0) + 1
    s.votes[voter] = d["target"]


def _vote_withdrawn(s: State, d: dict) -> None:
    voter = d["voter"]
    if voter in s.votes and not d.get("fixed"):
        s.vote_changes[voter] = s.vote_changes.get(voter, 0) + 1
    s.votes.pop(voter, None)


def _status(s: State, d: dict) -> None:
    s.hold(s.players[d["player"]], d["status"], d["until"], d.get("value"))


def _status_cleared(s: State, d: dict) -> None:
    s.release(s.players[d["player"]], d["status"])


def _role_changed(s: State, d: dict) -> None:
    p = s.players[d["player"]]
    if p.alive:
        _count(s, p, -1)
        p.role = d["role"]
        _count(s, p, 1)
    else:
        p.role = d["role"]
    s.census += 1


def _faction_changed(s: State, d: dict) -> None:
    p = s.players[d["player"]]
    if p.alive:
        _count(s, p, -1)
        p.faction = d["faction"]
        _count(s, p, 1)
    else:
        p.faction = d["faction"]
    s.census += 1


_recruited: Final = _faction_changed


def _eliminated(s: State, d: dict) -> None:
    s.census += 1
    p = s.players[d["player"]]
    if p.alive:
        _count(s, p, -1)
    p.alive = False
    p.died = s.idx
    p.how = d["how"]


def _revived(s: State, d: dict) -> None:
    p = s.players[d["player"]]
    if not p.alive:
        _count(s, p, 1)
    p.alive = True
    p.died = 0
    p.how = ""
    s.census += 1


def _roll(s: State, d: dict) -> None:
    s.dice.state = d["_state"]


def _counter(s: State, d: dict) -> None:
    s.counters[d["key"]] = d["value"]


def _scheduled(s: State, d: dict) -> None:
    s.schedule.append(d["item"])


def _schedule_done(s: State, d: dict) -> None:
    item = d["item"]
    s.schedule = [x for x in s.schedule if x is not item and x != item]


def _game_over(s: State, d: dict) -> None:
    s.over = True
    s.winners = list(d["winners"])


def _replaced(s: State, d: dict) -> None:
    s.aliases[d["player"]] = d["by"]


def _question_asked(s: State, d: dict) -> None:
    s.question_seq = max(s.question_seq, d["id"])
    s.questions[d["id"]] = dict(d)


def _question_answered(s: State, d: dict) -> None:
    s.questions.pop(d["id"], None)


def _action_withdrawn(s: State, d: dict) -> None:
    seq = d["seq"]
    for lst in (s.pending, s.day_actions):
        for i, a in enumerate(lst):
            if a.seq == seq:
                del lst[i]
                key = (a.actor, d["ability"])
                s.uses[key] -= 1
                for k, v in list(s.slots.items()):
                    if v is a:
                        s.free_slot(k)
                return


APPLY: Final = {
    "phase_started": _phase_started,
    "action": _action,
    "vote": _vote,
    "vote_withdrawn": _vote_withdrawn,
    "status": _status,
    "status_cleared": _status_cleared,
    "role_changed": _role_changed,
    "faction_changed": _faction_changed,
    "recruited": _recruited,
    "eliminated": _eliminated,
    "revived": _revived,
    "roll": _roll,
    "counter": _counter,
    "scheduled": _scheduled,
    "schedule_done": _schedule_done,
    "game_over": _game_over,
    "replaced": _replaced,
    "action_withdrawn": _action_withdrawn,
    "question_asked": _question_asked,
    "question_answered": _question_answered,
}
