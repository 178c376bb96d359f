"""The per-step work of the PettingZoo environment (``agents.env``): compiled with the engine.

``MafiaEnv`` (``agents/env.py``) is a thin subclass of PettingZoo's ``AECEnv`` (a Python
class, which a compiled class cannot inherit from); everything it does at each step is
here, in typed classes that mypyc compiles with the engine (``_build.COMPILED``): the seats'
observation vectors kept up to date from the new events (``Board``, ``Knowledge``), the
legal lists and the action mask of the seat whose turn it is, the decoding and sending of an
action, the turns of a phase and the rewards at the end (``Core``). The semantics are the
environment's (see ``agents/env.py``); ``Core`` shares its lists and dicts (``agents``,
``rewards``, ``terminations``, ...) with the ``MafiaEnv`` that holds it.

NumPy is reached as an untyped module (``importlib``): the compiled build is type-checked
in an isolated build environment, where NumPy need not be installed.
"""

from __future__ import annotations

import importlib
from array import array
from typing import Any, Final

from ..engine.day import legal_votes
from ..engine.errors import Refused
from ..engine.events import HOST, PUBLIC, Event
from ..engine.game import Game, TargetPools
from ..engine.model import AbilitySpec, RulesetSpec
from ..engine.state import Player
from ..rules.setup import deal
from .codec import PASS, Codec, open_questions

_np: Any = importlib.import_module("numpy")
_zeros: Final[Any] = _np.zeros
_float32: Final[Any] = _np.float32
# a dtype object, not the type: NumPy converts a type to its dtype at every call
_int8: Final[Any] = _np.dtype(_np.int8)
_frombuffer: Final[Any] = _np.frombuffer
_flatnonzero: Final[Any] = _np.flatnonzero
_bool: Final[Any] = _np.bool_

MAX_NUMBER: Final = 50.0
# 1.0 and 0.0 as objects, made once: a vector's position written through a memoryview
# takes an object, and a float constant is made into a new one at each write (the
# classes keep them as attributes of their own, read without a look-up by name)
_ONE: Any = 1.0
_ZERO: Any = 0.0
VOTE_MASKS: Final = 4096          # the vote masks kept (legal votes -> their mask)
SMALL_MASK: Final = 128     # masks read byte by byte by ``random_action``
# the public events the board reads (``Board.sync``)
_PUBLIC_READ: Final = frozenset({
    "vote", "vote_withdrawn", "phase_started", "eliminated", "revived"})
# the private events a seat's vector reads (``Knowledge._read_private``)
_PRIVATE_READ: Final = frozenset({
    "action", "role_changed", "recruited", "faction_changed", "team", "check_result",
    "copy_result", "visitor_known"})
# a mask of votes only: no rows, no single actions (``LastMask``; read, never changed)
NO_ROWS: Final[list[tuple[int, bytes, int]]] = []
NO_ACTIONS: Final[list[int]] = []


class LastMask:
    """The mask the environment made last (``Core.mask_bytes``), with what it was made
    from (``Codec.pieces``), for ``random_action``: handed a mask of the same bytes
    (compared, so a mask changed since, or another environment's, is read from its own
    bytes), it finds the ``k``-th legal action from the pass and votes' list and the rows'
    bits (``Codec.kth_legal``), where NumPy's ``nonzero`` over the whole mask costs about
    9 k instructions a call. The five are kept as one tuple, replaced whole, so a reader
    never pairs one mask's bytes with another's rows."""

    def __init__(self) -> None:
        self.last: tuple[bytes, list[int], list[tuple[int, bytes, int]], list[int],
                         Codec] | None = None

    def keep(self, mask: bytes, heads: list[int], rows: list[tuple[int, bytes, int]],
             loose: list[int], codec: Codec) -> None:
        self.last = (mask, heads, rows, loose, codec)

    def draw(self, b: bytes, rng: Any) -> int:
        """``random_action``'s draw from mask bytes ``b`` if they are the last mask's (-1
        for a mask without a legal action), else -2."""
        last = self.last
        if last is None:
            return -2
        m = last[0]
        if len(b) != len(m) or b != m:
            return -2
        return last[4].kth_legal(last[1], last[2], last[3], rng.random())


LAST: Final = LastMask()


def random_action(mask: Any, rng: Any) -> int:
    """A uniform choice among the legal actions of ``mask`` (an observation's
    ``action_mask``, or the observation itself): the ``k``-th legal action, in order, for
    ``k = int(rng.random() * count)`` (``rng``: anything with a ``random()`` in [0, 1),
    such as ``random.Random``), the draw of the common idiom
    ``legal = mask.view(bool).nonzero()[0]; int(legal[int(rng.random() * len(legal))])``.
    A mask with the bytes of the environment's last mask (``LAST``, compared) is drawn
    from the rows it was made of (``Codec.kth_legal``). Any other small mask of single
    bytes (at most ``SMALL_MASK`` actions, vanilla's 59) is read from its bytes in two
    compiled loops (count the legal ones, then walk to the ``k``-th): about 30
    instructions a byte and no call, where ``bytes`` methods (two counts and a split)
    cost about a thousand instructions a call. Any other is read by
    NumPy's ``nonzero`` over a bool view (vectorised: about 9 k instructions a draw at
    gemini's 479 actions, where the ``bytes`` methods took 13 k), a mask of wider items by
    ``flatnonzero``. Any value other than 0 is legal, as for NumPy.
    """
    if isinstance(mask, dict):
        mask = mask["action_mask"]
    n = len(mask)
    b: bytes = mask.tobytes()
    if len(b) == n:                         # one byte an action
        a = LAST.draw(b, rng)               # the environment's last mask: from its rows
        if a >= 0:
            return a
        if a == -1:
            raise ValueError("the mask has no legal action")
        if n <= SMALL_MASK:
            count = 0
            for i in range(n):
                if b[i]:
                    count += 1
            if count == 0:
                raise ValueError("the mask has no legal action")
            k = int(rng.random() * count)
            for i in range(n):
                if b[i]:
                    if k == 0:
                        return i
                    k -= 1
    legal = mask.view(_bool).nonzero()[0] if mask.itemsize == 1 else _flatnonzero(mask)
    if not len(legal):
        raise ValueError("the mask has no legal action")
    return int(legal[int(rng.random() * len(legal))])


class Board:
    """The public part of every seat's vector (who is alive, roles revealed at elimination,
    this day's votes, the phase), kept up to date from the public events, each read once,
    and written into every seat's vector at once; the private events are handed to the
    seats they are addressed to (``Knowledge``). Each seat's vector is a column of one table
    (``raw``: the bytes of the layout's positions, each ``count`` float32 items wide, one a
    seat), which holds the public part and the seat's own at the same time: the two write
    different positions, but for the roles known, where both write only 1.0, so a column is
    at each position the larger of the two, as an observation is. A position the board
    writes is written for every seat by one assignment of ``count`` items' bytes, so
    handing a seat its vector is one copy of its column (``Knowledge.update``), where
    NumPy's ``maximum`` of a public and an own vector cost more a turn (3.2 k
    instructions against the strided copy's 2.3 k, and in time about twice as much)."""

    def __init__(self, core: Core, knowledge: dict[str, Knowledge] | None = None,
                 raw: Any = None, count: int = 0) -> None:
        self.core = core
        self.know: dict[str, Knowledge] = core.knowledge if knowledge is None else knowledge
        L = core.layout
        n = core.codec.n
        self.n: int = n
        self.R: int = len(core.role_index)
        self.al: int = L["alive"]
        self.kr: int = L["known_role"]
        self.vo: int = L["votes"]
        self.ph: int = L["phase"]
        self.nu: int = L["number"]
        self.ov: int = L["over"]
        self.size: int = L["size"]
        # the bytes written (the core's table of every seat's column, or the bytes of
        # one seat's own vector, ``count`` 1), ``4 * count`` bytes a position
        self.raw: Any = core.rows_raw if raw is None else raw
        c = n if raw is None else count
        self.count: int = c
        w = 4 * c
        # a position's slice of ``raw`` (made once), and its value for every seat: 1.0,
        # 0.0 (and the number's, made when it changes)
        self.at: list[Any] = [slice(p * w, p * w + w) for p in range(self.size)]
        self.ones: bytes = array("f", [1.0] * c).tobytes()
        self.zeros: bytes = bytes(w)
        # the phase's two positions (night, day) at once, by phase
        self.ph_at: Any = slice(self.ph * w, self.ph * w + 2 * w)
        self.night: bytes = self.ones + self.zeros
        self.day: bytes = self.zeros + self.ones
        self.neither: bytes = self.zeros + self.zeros
        # the votes' part (``n`` rows of ``n + 2``), cleared at once
        self.votes_at: Any = slice(self.vo * w, (self.vo + n * (n + 2)) * w)
        self.no_votes: bytes = bytes(n * (n + 2) * w)
        # the one position set in each voter's row of the votes (a row holds one vote)
        self.vote_at: list[int] = [-1] * n
        # the number's position for every seat, by the number (made the first time the
        # game reaches that number: an ``array`` made and turned into bytes at each new
        # number cost about 4 k instructions)
        self.number_bytes: dict[int, bytes] = {}
        self.clear()

    def clear(self) -> None:
        """As new, for a new game, over a table already fresh (``Core.fresh_row``:
        everybody alive, written by the table's owner): nothing read."""
        self.seen = 0
        # (phase, number, over) last written: each position is written when its value
        # changes (``sync``); the table holds none yet (no phase and no number: -1 is
        # none, so the first sync writes the number; not over)
        self.w_phase = ""
        self.w_number = -1
        self.w_over = False
        self.vote_at[:] = [-1] * self.n

    def put(self, pos: int, pattern: bytes) -> None:
        """Position ``pos`` of every seat's vector set to ``pattern``'s value (``ones``,
        ``zeros``)."""
        self.raw[self.at[pos]] = pattern

    def sync(self) -> None:
        core = self.core
        g = core.game
        evs = g.events
        end = len(evs)
        if self.seen == end:
            return
        si = core.codec.seat_index
        vi = core.codec.vote_index
        ri_of = core.role_index
        know = self.know
        ones = self.ones
        zeros = self.zeros
        w = self.n + 2
        at = self.vote_at
        for i in range(self.seen, end):
            e: Event = evs[i]
            a = e.audience
            if a is HOST:           # the engine's own constant: a pointer compared
                continue
            if a is not PUBLIC:
                if not isinstance(a, str):      # told to the seats it names
                    if e.type not in _PRIVATE_READ:     # nothing a vector reads
                        continue
                    for seat in a:
                        k = know.get(seat)
                        if k is not None:
                            k.pending.append(e)
                    continue
                if a != PUBLIC:                 # the host's
                    continue
            t = e.type
            if t not in _PUBLIC_READ:       # one look-up for the many it has no use for
                continue
            if t == "vote":
                d = e.data
                j = si.get(d.get("voter", ""))
                k_ = vi.get(d.get("target", ""))
                if j is not None and k_ is not None:
                    old = at[j]
                    if old >= 0:
                        self.put(old, zeros)
                    pos = self.vo + j * w + k_ - 1
                    at[j] = pos
                    self.put(pos, ones)
            elif t == "vote_withdrawn":
                j = si.get(e.data.get("voter", ""))
                if j is not None:
                    old = at[j]
                    if old >= 0:
                        self.put(old, zeros)
                        at[j] = -1
            elif t == "phase_started":
                # the last phase's votes cleared (the whole part at once, where any is
                # set: none after a night)
                cleared = False
                for j in range(self.n):
                    if at[j] >= 0:
                        at[j] = -1
                        cleared = True
                if cleared:
                    self.raw[self.votes_at] = self.no_votes
            elif t == "eliminated":
                d = e.data
                j = si.get(d.get("player", ""))
                if j is not None:
                    self.put(self.al + j, zeros)
                    ri = ri_of.get(d.get("role", ""))
                    if ri is not None:
                        self.put(self.kr + j * self.R + ri, ones)
            elif t == "revived":
                j = si.get(e.data.get("player", ""))
                if j is not None:
                    self.put(self.al + j, ones)
        self.seen = end
        st = g.state
        # the phase's part: a position written only when its value changes
        phase = st.phase
        if self.w_phase != phase:
            self.w_phase = phase
            self.raw[self.ph_at] = self.night if phase == "night" else \
                self.day if phase == "day" else self.neither
        number = st.number
        if self.w_number != number:
            self.w_number = number
            got = self.number_bytes.get(number)
            if got is None:         # the number's value for every seat, made once
                got = self.number_bytes[number] = array(
                    "f", [min(number / MAX_NUMBER, 1.0)] * self.count).tobytes()
            self.put(self.nu, got)
        if self.w_over != st.over:
            self.w_over = st.over
            self.put(self.ov, ones if st.over else zeros)


class Knowledge:
    """What one seat has been told, as its observation vector, kept up to date from the
    new events only: the public part written by the ``Board``, the private part from the
    events addressed to the seat, both into the seat's one vector (a column of the core's
    table, or a vector of its own)."""

    def __init__(self, core: Core, seat: str, vec: Any = None, flat: Any = None,
                 stride: int = 1, off: int = 0) -> None:
        self.core = core
        self.seat = seat
        self.pending: list[Event] = []
        L = core.layout
        # the seat's vector (``vec``: a column of the core's table of all seats', made
        # fresh by the core; ``flat`` a one-dimensional memoryview of that table; else a
        # fresh vector of its own): read as an array, written item by item through the
        # memoryview
        self.vec: Any = _frombuffer(bytearray(core.fresh_row), _float32) if vec is None \
            else vec
        self.mv: Any = memoryview(self.vec) if flat is None else flat
        self.one: Any = _ONE
        self.zero: Any = _ZERO
        # position ``pos`` of the seat's vector is item ``pos * stride + off`` of ``mv``
        self.stride: int = stride
        self.off: int = off
        self.me: int = core.codec.seat_index[seat]
        self._self: int = L["self"]
        self.role: str | None = None
        self.faction: str | None = None
        self.last_move_phase: str | None = None
        self._ro: int = L["role"]
        self._fa: int = L["faction"]
        self._kr: int = L["known_role"]
        self._kf: int = L["known_faction"]
        self._se: int = L["sent"]
        self._sent = False                  # the "sent" position's value now
        self.clear()

    def clear(self) -> None:
        """As new, for a new game, over a row already fresh (``Core.reset`` writes every
        seat's column fresh first): told nothing but its own seat."""
        self.pending.clear()
        self.role = None
        self.faction = None
        self.last_move_phase = None
        self._sent = False
        self.put(self._self + self.me, self.one)

    def put(self, pos: int, value: Any) -> None:
        """Position ``pos`` of the seat's vector set to ``value``."""
        self.mv[pos * self.stride + self.off] = value

    def _set_role(self, role: str, faction: str | None = None) -> None:
        core = self.core
        if self.role is not None and self.role in core.role_index:
            self.put(self._ro + core.role_index[self.role], self.zero)
        if self.faction is not None and self.faction in core.faction_index:
            self.put(self._fa + core.faction_index[self.faction], self.zero)
        self.role = role
        if faction is None:         # the role's own faction: its card, written at once
            ri, fac, fi = core.role_card[role]
            self.faction = fac
            self.put(self._ro + ri, self.one)
            if fi >= 0:
                self.put(self._fa + fi, self.one)
            self.put(self._kr + self.me * len(core.role_index) + ri, self.one)
            return
        fac = faction or core.rules.roles[role].faction
        self.faction = fac
        self.put(self._ro + core.role_index[role], self.one)
        if fac in core.faction_index:
            self.put(self._fa + core.faction_index[fac], self.one)
        self._know_role(self.me, role)

    def _know_role(self, j: int, role: Any) -> None:
        ri = self.core.role_index.get(role)
        if ri is not None:
            self.put(self._kr + j * len(self.core.role_index) + ri, self.one)

    def _know_faction(self, j: int, faction: Any) -> None:
        fi = self.core.faction_index.get(faction)
        if fi is not None:
            self.put(self._kf + j * len(self.core.faction_index) + fi, self.one)

    def _read_private(self) -> None:
        core = self.core
        seat = self.seat
        si = core.codec.seat_index
        for e in self.pending:          # of the types in _PRIVATE_READ (``Board.sync``)
            t = e.type
            d = e.data
            if t == "action":
                if d.get("actor") == seat:
                    self.last_move_phase = e.phase
            elif t == "role_changed":
                if d.get("player") == seat:
                    self._set_role(d["role"])
            elif t in ("recruited", "faction_changed"):
                if d.get("player") == seat:
                    role = self.role
                    assert role is not None        # the role card is read first
                    self._set_role(role, d.get("faction"))
            elif t == "team":
                for m in d.get("members", ()):
                    if m in si:
                        self._know_faction(si[m], d.get("faction"))
            elif t in ("check_result", "copy_result"):   # a copy may name the role found
                j = si.get(d.get("target", ""))
                r = d.get("result")
                if j is not None and isinstance(r, str):
                    if r in core.role_index:
                        self._know_role(j, r)
                    elif r in core.faction_index:
                        self._know_faction(j, r)
            elif t == "visitor_known":
                j = si.get(d.get("visitor", ""))
                if j is not None and d.get("role"):
                    self._know_role(j, d["role"])
        self.pending.clear()

    def update(self, board: Board | None = None) -> Any:
        """The seat's vector now (a new array: a copy of the seat's column, which the
        board writes too)."""
        core = self.core
        g = core.game
        if board is None:
            board = core.board
        if board.seen != len(g.events):
            board.sync()
        if self.role is None:                         # the role card, dealt at the start
            self._set_role(g.events[0].data["players"][self.me][1])
        if self.pending:
            self._read_private()
        sent = self.last_move_phase == g.label
        if sent != self._sent:                      # written when it changes
            self._sent = sent
            self.put(self._se, self.one if sent else self.zero)
        return self.vec.copy()


class Core:
    """One game's turns, observations and masks (``agents/env.py`` says what they are)."""

    game: Game              # the game being played (``reset``)
    board: Board

    def __init__(self, shell: Any, rules: RulesetSpec, names: list[str], mafia: int | None,
                 max_phases: int, turns: int) -> None:
        # the ``MafiaEnv`` this core works for: its ``step`` and ``observe`` are the core's
        # own, and the core sets its ``agent_selection``
        self.shell = shell
        self.rules = rules
        self.names = names
        self.mafia = mafia
        self.max_phases = max_phases
        self.turns = turns
        self.codec = Codec(rules, names)
        self.role_index: dict[str, int] = {r: i for i, r in enumerate(sorted(rules.roles))}
        self.faction_index: dict[str, int] = {
            f: i for i, f in enumerate(sorted(rules.factions))}
        # each role's card as its vector writes it: (role's index, faction, the faction's
        # index or -1), read with one look-up at a seat's first turn of a game
        self.role_card: dict[str, tuple[int, str, int]] = {
            r: (self.role_index[r], spec.faction, self.faction_index.get(spec.faction, -1))
            for r, spec in rules.roles.items()}
        n, r, f = len(names), len(self.role_index), len(self.faction_index)
        layout: dict[str, int] = {}
        pos = 0
        for key, size in (("phase", 2), ("number", 1), ("over", 1), ("self", n),
                          ("alive", n), ("role", r), ("faction", f), ("known_role", n * r),
                          ("known_faction", n * f), ("votes", n * (n + 2)), ("sent", 1)):
            layout[key] = pos
            pos += size
        layout["size"] = pos
        self.layout = layout
        self.size: int = self.codec.size
        # legal votes -> their mask (bytes, the array ``mask`` copies, and the legal
        # actions: the pass and the votes, in order)
        self._vote_masks: dict[tuple, tuple[bytes, Any, list[int]]] = {}
        # the last of them asked for (a list compared costs less than a tuple made and
        # looked up)
        self._last_votes: list[str] = []
        self._last_mask: tuple[bytes, Any, list[int]] = self.vote_mask([])
        self.zero_bytes: bytes = bytes(self.size)   # the mask of a seat whose turn it is not
        # ``mask``'s scratch array, and its memory as unsigned bytes (written from a mask's)
        self.scratch: Any = _zeros(self.size, dtype=_int8)
        self.scratch_mv: Any = memoryview(self.scratch).cast("B")
        by_phase = rules.by_phase
        self._dead_acts: set[str] = {
            r for r, ph in by_phase.items()
            if any(ab.while_dead for abs_ in ph.values() for ab in abs_)}
        self._night_immediate: bool = any(ab.immediate and ab.phase == "night"
                                          for ab in rules.abilities.values())
        # by phase: each role's abilities, the roles with a night ability, and the roles
        # a dead seat may act with (``RulesetSpec.by_phase``, ``dead_movers``), read with
        # one look-up where a (role, phase) pair was made and looked up twice
        self._abs_night: dict[str, list[AbilitySpec]] = {
            r: ph["night"] for r, ph in by_phase.items()}
        self._abs_day: dict[str, list[AbilitySpec]] = {
            r: ph["day"] for r, ph in by_phase.items()}
        self._night_roles: set[str] = {r for r, ph in by_phase.items() if ph.get("night")}
        self._dead_night: set[str] = {r for r, ph in rules.dead_movers if ph == "night"}
        self._dead_day: set[str] = {r for r, ph in rules.dead_movers if ph == "day"}
        # the seats' players in seating order, for the game (``reset``)
        self._seats: list[Player] = []
        # the game's state (``reset``)
        self.agents: list[str] = list(names)
        self.rewards: dict[str, int] = {}
        self.cumulative: dict[str, int] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict] = {}
        self._zero: dict[str, int] = dict.fromkeys(names, 0)
        self._false: dict[str, bool] = dict.fromkeys(names, False)
        # every seat's vector: a column of one table, written by the seat's own events
        # (``Knowledge``) and by the public ones (``Board``, for every seat at once),
        # made once and made fresh for each game (``reset``)
        size = layout["size"]
        fresh = _zeros(size, dtype=_float32)
        fresh[layout["alive"]:layout["alive"] + n] = 1.0       # everybody alive
        self.fresh_row: bytes = fresh.tobytes()
        # position by position (a position's items for every seat side by side, so the
        # board writes a position for all the seats as one run of memory): seat ``i``'s
        # vector is column ``i``
        self.rows: Any = _zeros((size, n), dtype=_float32)
        # its bytes, and a fresh table's: ``reset`` makes it fresh by a copy of memory
        self.rows_raw: Any = memoryview(self.rows).cast("B")
        self.rows_fresh: bytes = b"".join(
            self.fresh_row[4 * p:4 * p + 4] * n for p in range(size))
        self.rows_raw[:] = self.rows_fresh
        flat = self.rows_raw.cast("f")
        self.knowledge: dict[str, Knowledge] = {
            a: Knowledge(self, a, self.rows[:, i], flat, n, i) for i, a in enumerate(names)}
        self.board = Board(self)
        # the same, by seat (seating order): read by index where a name was looked up
        self.know_list: list[Knowledge] = [self.knowledge[a] for a in names]
        self.voted: set[str] = set()
        # each seat's turns left this phase, by seat
        self.turns_left: list[int] = [0] * n
        # the seats to take turns this phase, in order, from ``queue[front]`` (a list
        # read from an index: taking the front is one addition, not a list shifted),
        # as their players (the seat's name, its index and its role read from one object)
        self.queue: list[Player] = []
        self.front = 0
        self.phases = 0
        self.ended = False                  # ``finish`` has run: every agent is done
        self.unpaid = False                 # ``finish`` set rewards no dead step cleared
        self.selection = names[0] if names else ""
        self.sel_p: Player | None = None     # the player of ``selection`` while it has a turn
        # the agent selected when the first done agent left (``dead_step``; PettingZoo's
        # ``_skip_agent_selection``)
        self.skip: str | None = None
        # ``legal``'s one entry: the seat's legal lists at (events, phase index) and, once
        # made, its mask
        self.cur_ok = False
        self.cur_seat: Player | None = None
        self.cur_events = 0
        self.cur_idx = 0
        self.cur_moves: list[tuple[str, list[tuple] | TargetPools]] = []
        self.cur_votes: list[str] = []
        self.cur_bytes: Any = None          # the mask as bytes (``mask_bytes``)
        self.cur_array: Any = None          # ... and as an array, for votes only

    # ---- the game ----------------------------------------------------------------------
    def reset(self, gseed: int) -> None:
        names = self.names
        rules = self.rules
        self.game = Game(rules, deal(rules, names, gseed, self.mafia), seed=gseed)
        players = self.game.state.players
        self._seats = [players[a] for a in names]
        self.agents = list(names)
        zero, false = self._zero, self._false
        self.rewards = zero.copy()
        self.cumulative = zero.copy()
        self.terminations = false.copy()
        self.truncations = false.copy()
        self.infos = {a: {} for a in names}
        # the seats' vectors: the same arrays every game, made fresh
        self.rows_raw[:] = self.rows_fresh
        for k in self.knowledge.values():
            k.clear()
        self.board.clear()
        self.voted = set()
        self.phases = 0
        self.cur_ok = False
        self.cur_bytes = None
        self.ended = False
        self.unpaid = False
        self.skip = None
        self.open_phase()

    def legal(self, seat: str) -> None:
        """Make ``cur_*`` the legal lists of ``seat`` now (``Game.legal_move_sets`` by
        ability, a pool-made ability's targets as their pools, and the legal votes): one
        entry, made again after the next event or for another seat."""
        self.legal_of(self.game.state.players[seat])

    def legal_of(self, p: Player) -> None:
        """``legal`` of the seat of player ``p``."""
        g = self.game
        st = g.state
        if self.cur_ok and self.cur_seat is p and self.cur_events == len(g.events) \
                and self.cur_idx == st.idx:
            return
        # a role without abilities in this phase has only the answers to its questions
        seat = p.name
        if st.questions or (self._abs_day if st.phase == "day" else self._abs_night)[p.role]:
            self.cur_moves = g.legal_move_sets_of(p)
        else:
            self.cur_moves = []
        self.cur_votes = [] if seat in self.voted else legal_votes(g, p)
        self.cur_ok = True
        self.cur_seat = p
        self.cur_events = len(g.events)
        self.cur_idx = st.idx
        self.cur_bytes = None

    def has_something(self, seat: str) -> bool:
        return self.has_something_of(self.game.state.players[seat])

    def has_something_of(self, p: Player) -> bool:
        """``has_something`` of the seat of player ``p``."""
        st = self.game.state
        if not st.questions:
            # ``legal``'s answer without its lists where it is sure to be nothing (no
            # question is open, so no answers): a dead seat has no vote, and no moves
            # unless its role has an ability for the dead in this phase
            # (``RulesetSpec.dead_movers``); a seat without votes (by night, or having
            # voted) has no moves when every ability of its role in this phase has its
            # slot filled, by its own move or its faction's common one
            # (``Game._actor_abilities`` passes over each such ability): the usual case
            # of a seat that comes round again after its move, or has no abilities now.
            seat = p.name
            day = st.phase == "day"
            if not p.alive:
                if p.role not in (self._dead_day if day else self._dead_night):
                    return False
            elif not day or seat in self.voted:
                slots = st.slots
                mine = st.filled.get(seat)      # his own slots filled (read-only)
                for ab in (self._abs_day if day else self._abs_night)[p.role]:
                    if ab.shared:
                        if ("faction", ab.owner or p.faction, ab.id) not in slots:
                            break
                    elif mine is None or ab.slot not in mine:
                        break
                else:
                    return False
        self.legal_of(p)
        return bool(self.cur_moves or self.cur_votes)

    def open_phase(self) -> None:
        """Queue the seats that have something to do; resolve phases nobody acts in."""
        g = self.game
        dead_acts = self._dead_acts
        while True:
            st = g.state
            if st.over:
                self.finish(False)
                return
            if self.phases >= self.max_phases:
                self.finish(True)
                return
            self.voted = set()
            queue: list[Player] = []
            self.queue = queue
            self.front = 0
            # by night (no votes), a role without a night ability and no question open to
            # it has nothing to do all night (nothing changes roles or asks before dawn
            # unless a night ability acts at once): not queued, never asked
            quiet = st.phase == "night" and not self._night_immediate
            night_roles = self._night_roles
            turns_left = self.turns_left
            turns = self.turns
            for p in self._seats:
                if p.alive or p.role in dead_acts:
                    a = p.name
                    if quiet and p.role not in night_roles and not (
                            st.questions and open_questions(st, a)):
                        continue
                    queue.append(p)
                    turns_left[p.seat] = turns
            i = 0
            while i < len(queue) and not self.has_something_of(queue[i]):
                i += 1
            if i < len(queue):
                self.front = i
                q = queue[i]
                self.sel_p = q
                self.selection = q.name
                return
            g.resolve()
            self.phases += 1

    def finish(self, truncated: bool) -> None:
        st = self.game.state
        winners = set(st.winners)
        for a in self.agents:
            p = st.players[a]
            if truncated:
                r = 0
            elif not winners:
                r = 0
            else:
                r = 1 if (p.faction in winners or p.role in winners) else -1
            self.rewards[a] = r
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
        cum = self.cumulative      # every agent's, 0 (the same keys: none has left yet)
        for a in self.agents:
            cum[a] = 0
        self.ended = True
        self.unpaid = True
        self.queue = []
        self.front = 0
        self.selection = self.agents[0]
        self.sel_p = None

    def step(self, action: Any) -> None:
        """``MafiaEnv.step``: a turn of the seat whose turn it is; once the game is over,
        the step of a done agent (``dead_step``)."""
        if self.ended:                        # every agent is terminated or truncated
            self.dead_step(action)
            return
        a = self.selection
        p = self.sel_p      # its player
        assert p is not None
        cum = self.cumulative
        if cum[a]:          # zero all game (the rewards come at its end): a read, where
            cum[a] = 0      # a write each turn cost more
        g = self.game
        info: dict[str, str] | None = None     # a refusal's, else an empty one
        done = True
        if action is not None:
            # typed (an int, the decoded kind's name a str, the mask bytes): compared and
            # indexed natively, where an untyped value went through Python's protocols
            a_: int = action if type(action) is int else int(action)
            if a_ != PASS:
                codec = self.codec
                kind = codec._decoded.get(a_)    # a vote, or a move decoded before
                if kind is None:
                    kind = codec.decode(a_, open_questions(g.state, a)) \
                        if a_ >= codec.answer_offset else codec.decode(a_)  # raises outside
                what: str = kind[0]
                if what != "pass":
                    # the mask the seat was shown, if still current
                    cur = self.cur_bytes
                    if cur is None or not (self.cur_ok and self.cur_seat is p
                                           and self.cur_events == len(g.events)):
                        cur = self.mask_bytes(a)
                    m: bytes = cur
                    if not m[a_]:
                        info = {"refused": "not a legal action now; taken as a pass"}
                    else:
                        try:
                            if what == "vote":
                                # one of ``legal_votes`` (the mask's) for this very
                                # state: recorded as ``vote`` records it after its check
                                g.cast_vote(p, kind[1])
                                self.voted.add(a)
                            else:
                                self.send_of(p, kind[1], kind[2])
                            done = False
                        except Refused as e:  # never for a masked action; kept as a pass
                            info = {"refused": e.en}
        if info is not None:
            self.infos[a] = info
        elif self.infos[a]:             # this turn's info is empty: the seat's own empty
            self.infos[a] = {}          # dict is kept (a new one where it holds anything)
        queue = self.queue
        i = self.front + 1                  # the seat at the front leaves the queue
        turns_left = self.turns_left
        left = turns_left[p.seat] - 1
        turns_left[p.seat] = left
        if not done and left > 0:
            queue.append(p)
        while i < len(queue) and not self.has_something_of(queue[i]):
            i += 1
        self.front = i
        if i < len(queue):
            q = queue[i]
            self.sel_p = q
            self.selection = q.name
        else:
            g.resolve()
            self.phases += 1
            self.open_phase()
            if g.state.over or self.phases >= self.max_phases:
                # the only rewards: at the end (``AECEnv._accumulate_rewards``)
                cum = self.cumulative
                for agent, reward in self.rewards.items():
                    cum[agent] += reward
        self.shell.agent_selection = self.selection

    def dead_step(self, action: Any) -> None:
        """The step of a done agent once the game is over: what PettingZoo's
        ``AECEnv._was_dead_step`` does (the agent leaves ``agents``, ``rewards``,
        ``terminations``, ``truncations``, ``infos`` and the cumulative rewards; the next
        done agent is selected, and after the last one the agent selected when the first
        left; the rewards are cleared), in the core, without its Python frame and list
        comprehension for each seat."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.selection
        if not (self.terminations[agent] or self.truncations[agent]):
            raise AssertionError("an agent that was not dead as attempted to be removed")
        del self.terminations[agent]
        del self.truncations[agent]
        del self.rewards[agent]
        del self.cumulative[agent]
        del self.infos[agent]
        self.agents.remove(agent)
        nxt = ""
        for other in self.agents:
            if self.terminations[other] or self.truncations[other]:
                nxt = other
                break
        if nxt:
            if self.skip is None:
                self.skip = agent
            self.selection = nxt
        else:
            if self.skip is not None:
                self.selection = self.skip
            self.skip = None
        if self.unpaid:                 # the rewards set at the end, cleared once: the
            rewards = self.rewards      # steps after the first find them zero already
            for other in rewards:
                rewards[other] = 0
            self.unpaid = False
        self.shell.agent_selection = self.selection

    def send(self, seat: str, aid: str, ts: tuple) -> None:
        """Send a move the mask allows. The mask is the engine's list of legal moves for
        this very state (``Game.legal_moves``: a move is in it exactly when ``submit``
        takes it), so it is not judged a second time: it is sent as ``submit`` sends a
        move it has judged legal (``Game.send``)."""
        self.send_of(self.game.state.players[seat], aid, ts)

    def send_of(self, p: Player, aid: str, ts: tuple) -> None:
        """``send`` for the seat of player ``p``."""
        g = self.game
        ab = g.rules.abilities.get(f"{p.role}.{aid}")
        if ab is None:                      # an answer to a question put to the seat
            g.answer(p.name, ts[0], ts[1])
        elif ab.names_role:                 # the seats, then the role it names
            g.send(p, ab, tuple(ts[:-1]), ts[-1])
        else:
            g.send(p, ab, tuple(ts))

    # ---- what a seat sees ----------------------------------------------------------------
    def mask_bytes(self, agent: str) -> Any:
        """The action mask as bytes, 1 at the legal actions of the seat whose turn it is
        (all zero for the others): what ``step`` checks an action against (a byte read,
        not a NumPy call) and what ``mask`` hands out as an array. Kept for the seat's
        turn (``cur_bytes``); a mask of votes only is the votes' own, kept across turns."""
        g = self.game
        if self.ended or agent != self.selection or g.state.over:
            return self.zero_bytes
        p = self.sel_p
        assert p is not None
        self.legal_of(p)
        m = self.cur_bytes
        if m is None:
            votes = self.cur_votes
            if votes == self._last_votes:        # as the last seat's (a day's usual case)
                base = self._last_mask
            else:
                mk = tuple(votes)
                got = self._vote_masks.get(mk)   # the same votes give the same mask
                if got is None:
                    if len(self._vote_masks) >= VOTE_MASKS:
                        self._vote_masks.clear()
                    got = self.vote_mask(votes)
                    self._vote_masks[mk] = got
                base = got
                self._last_votes = list(votes)   # a copy (``legal_of`` hands lists out)
                self._last_mask = got
            moves = self.cur_moves
            st = g.state
            if moves or st.questions:
                codec = self.codec
                qs = open_questions(st, agent) if st.questions else None
                rows, loose = codec.pieces(moves, qs)
                m = codec.assemble(base[0], rows, loose)
                LAST.keep(m, base[2], rows, loose, codec)
                self.cur_array = None
            else:                     # votes only: the votes' mask, and its array
                m = base[0]
                LAST.keep(m, base[2], NO_ROWS, NO_ACTIONS, self.codec)
                self.cur_array = base[1]
            self.cur_bytes = m
        return m

    def mask(self, agent: str) -> Any:
        """The action mask, a new int8 array (``mask_bytes``)."""
        m = self.mask_bytes(agent)
        if m is self.zero_bytes:
            return _zeros(self.size, dtype=_int8)
        arr = self.cur_array
        if arr is not None and m is self.cur_bytes:
            return arr.copy()
        # its own memory (an agent may write into the array it is handed): the bytes
        # written into a scratch array, then copied (about 3 k instructions, where a
        # bytearray made and wrapped by ``frombuffer`` cost 3.7 k)
        self.scratch_mv[:] = m
        return self.scratch.copy()

    def vote_mask(self, votes: list[str]) -> tuple[bytes, Any, list[int]]:
        """The mask of a pass and the legal votes ``votes``, as bytes and as an array
        (never handed out: ``mask`` gives copies), and its legal actions in order."""
        ba = bytearray(self.size)
        vi = self.codec.vote_index
        ba[PASS] = 1
        for t in votes:
            ba[vi[t]] = 1
        b = bytes(ba)
        heads = [i for i in range(self.codec.first_block) if b[i]]
        return b, _frombuffer(bytearray(b), _int8), heads

    def observe(self, agent: str) -> dict[str, Any]:
        p = self.sel_p       # the seat whose turn it is, read by index; another by name
        k = self.know_list[p.seat] if p is not None and agent is self.selection \
            else self.knowledge[agent]
        vec = k.update(None)
        return {"observation": vec, "action_mask": self.mask(agent)}

    def vector_from_scratch(self, agent: str) -> Any:
        """The seat's vector made in one pass over the whole log, as a check of the one
        kept up to date step by step (``observe``): the two are always equal."""
        k = Knowledge(self, agent)
        return k.update(Board(self, {agent: k}, memoryview(k.vec).cast("B"), 1))
