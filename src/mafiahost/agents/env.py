"""A PettingZoo AEC environment for every rule set: ``mafiahost.agents.env(ruleset=…)``.

Agents are the seats (their names). A phase is played in rounds: every seat with a legal
move or vote this phase takes a turn in seating order; a turn sends one move or vote, or
passes (action 0). A seat votes at most once a phase here (a forum's vote changes are not
offered); a seat that sent something comes round again (at most ``turns`` turns a phase);
one that passed, or has nothing left, is done for the phase. When everybody is
done the engine resolves the phase and the next one opens. Seats stay agents until the
game ends (the dead may still act where the rules say so), then every agent is terminated
with its reward: +1 when its faction (or, for a single, its role) is among the winners, -1
otherwise, 0 for all when nobody won; a game longer than ``max_phases`` is truncated.

The observation is a dict: ``observation`` (a float32 vector, layout in ``docs/agents.md``)
made only from the events the seat was told, and ``action_mask`` (int8) of the legal
actions (``Codec``) — the engine's ``Game.legal_moves`` and vote check. ``env.observe_json(
agent)`` gives the same JSON observation as the player API.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine.errors import Refused
from ..engine.events import PUBLIC
from ..engine.game import Game
from ..rules import load
from ..rules.setup import deal
from ..sim import NAMES
from .codec import PASS, Codec, open_questions
from .observation import legal_votes
from .observation import observation as json_observation

MAX_NUMBER = 50.0


class Board:
    """The public part of every seat's vector (who is alive, roles revealed at elimination,
    this day's votes, the phase), one vector for all the seats (``vec``), kept up to date
    from the public events, each read once; the private events are handed to the seats
    they are addressed to. A seat's vector is the larger of the two at each position
    (``Knowledge.update``): the public part and the seat's own are zero where the other
    writes, but for the roles known, which either may make known."""

    def __init__(self, env: MafiaEnv, knowledge: dict | None = None):
        self.env = env
        self.know = env.knowledge if knowledge is None else knowledge
        self.seen = 0
        L = env.layout
        n = env.codec.n
        self.n = n
        self.R = len(env.role_index)
        self.al = L["alive"]
        self.kr = L["known_role"]
        self.vo = L["votes"]
        self.vec = np.zeros(L["size"], dtype=np.float32)
        self.vec[self.al:self.al + n] = 1.0
        self.written: tuple | None = None     # (phase, number, over) last written
        # the one position set in each voter's row of the votes (a row holds one vote)
        self.vote_at: dict[int, int] = {}

    def sync(self) -> None:
        env = self.env
        evs = env.game.events
        if self.seen == len(evs):
            return
        si = env.codec.seat_index
        vi = env.codec.vote_index
        know = self.know
        v = self.vec
        w = self.n + 2
        at = self.vote_at
        for e in evs[self.seen:]:
            a = e.audience
            if a != PUBLIC:
                if a != "host":
                    for seat in a:
                        k = know.get(seat)
                        if k is not None:
                            k.pending.append(e)
                continue
            t = e.type
            if t == "vote":
                d = e.data
                j = si.get(d.get("voter"))
                k_ = vi.get(d.get("target"))
                if j is not None and k_ is not None:
                    old = at.get(j)
                    if old is not None:
                        v[old] = 0.0
                    pos = at[j] = self.vo + j * w + k_ - 1
                    v[pos] = 1.0
            elif t == "vote_withdrawn":
                j = si.get(e.data.get("voter"))
                if j is not None:
                    old = at.pop(j, None)
                    if old is not None:
                        v[old] = 0.0
            elif t == "phase_started":
                v[self.vo:self.vo + self.n * w] = 0.0
                at.clear()
            elif t == "eliminated":
                d = e.data
                j = si.get(d.get("player"))
                if j is not None:
                    v[self.al + j] = 0.0
                    ri = env.role_index.get(d.get("role"))
                    if ri is not None:
                        v[self.kr + j * self.R + ri] = 1.0
            elif t == "revived":
                j = si.get(e.data.get("player"))
                if j is not None:
                    v[self.al + j] = 1.0
        self.seen = len(evs)
        st = env.game.state
        now = (st.phase, st.number, st.over)
        if self.written != now:            # the phase's part, once a change
            self.written = now
            L = env.layout
            v[L["phase"]] = 1.0 if now[0] == "night" else 0.0
            v[L["phase"] + 1] = 1.0 if now[0] == "day" else 0.0
            v[L["number"]] = min(now[1] / MAX_NUMBER, 1.0)
            v[L["over"]] = 1.0 if now[2] else 0.0


class Knowledge:
    """What one seat has been told, as its observation vector, kept up to date from the
    new events only: the public part from the ``Board``'s writes, the private part from
    the events addressed to the seat."""

    def __init__(self, env: MafiaEnv, seat: str, vec: np.ndarray | None = None):
        self.env = env
        self.seat = seat
        self.pending: list = []
        L = env.layout
        # the seat's own part (``vec``: a zero row of the env's table of all seats')
        self.vec = np.zeros(L["size"], dtype=np.float32) if vec is None else vec
        self.me = env.codec.seat_index[seat]
        self.vec[L["self"] + self.me] = 1.0
        self.role: str | None = None
        self.faction: str | None = None
        self.last_move_phase = None
        self._se = L["sent"]
        self._sent = False                  # the "sent" position's value now

    def _set_role(self, role: str, faction: str | None = None) -> None:
        env, L, v = self.env, self.env.layout, self.vec
        if self.role is not None and self.role in env.role_index:
            v[L["role"] + env.role_index[self.role]] = 0.0
        if self.faction is not None and self.faction in env.faction_index:
            v[L["faction"] + env.faction_index[self.faction]] = 0.0
        self.role = role
        self.faction = faction or env.rules.roles[role].faction
        v[L["role"] + env.role_index[role]] = 1.0
        if self.faction in env.faction_index:
            v[L["faction"] + env.faction_index[self.faction]] = 1.0
        self._know_role(self.me, role)

    def _know_role(self, j: int, role) -> None:
        ri = self.env.role_index.get(role)
        if ri is not None:
            L = self.env.layout
            self.vec[L["known_role"] + j * len(self.env.role_index) + ri] = 1.0

    def _know_faction(self, j: int, faction) -> None:
        fi = self.env.faction_index.get(faction)
        if fi is not None:
            L = self.env.layout
            self.vec[L["known_faction"] + j * len(self.env.faction_index) + fi] = 1.0

    def _read_private(self) -> None:
        env = self.env
        seat = self.seat
        si = env.codec.seat_index
        for e in self.pending:
            t, d = e.type, e.data
            if t == "action":
                if d.get("actor") == seat:
                    self.last_move_phase = e.phase
            elif t == "role_changed":
                if d.get("player") == seat:
                    self._set_role(d["role"])
            elif t in ("recruited", "faction_changed"):
                if d.get("player") == seat:
                    self._set_role(self.role, d.get("faction"))
            elif t == "team":
                for m in d.get("members", ()):
                    if m in si:
                        self._know_faction(si[m], d.get("faction"))
            elif t in ("check_result", "copy_result"):   # a copy may name the role found
                j = si.get(d.get("target"))
                r = d.get("result")
                if j is not None and isinstance(r, str):
                    if r in env.role_index:
                        self._know_role(j, r)
                    elif r in env.faction_index:
                        self._know_faction(j, r)
            elif t == "visitor_known":
                j = si.get(d.get("visitor"))
                if j is not None and d.get("role"):
                    self._know_role(j, d["role"])
        self.pending.clear()

    def update(self, board: Board | None = None) -> np.ndarray:
        """The seat's vector now (a new array)."""
        env = self.env
        g = env.game
        if board is None:
            board = env.board
        if board.seen != len(g.events):
            board.sync()
        v = self.vec
        if self.role is None:                         # the role card, dealt at the start
            self._set_role(g.events[0].data["players"][self.me][1])
        if self.pending:
            self._read_private()
        sent = self.last_move_phase == g.label
        if sent != self._sent:                      # written when it changes
            self._sent = sent
            v[self._se] = 1.0 if sent else 0.0
        return np.maximum(board.vec, v)


class MafiaEnv(AECEnv):
    """One game of a rule set as a PettingZoo AEC environment (see the module's text)."""

    metadata = {"name": "mafiahost_v1", "render_modes": ["ansi", "human"],
                "is_parallelizable": False}

    def __init__(self, ruleset: str = "vanilla", players=12, seed: int | None = None,
                 options: dict | None = None, mafia: int | None = None,
                 max_phases: int = 200, turns: int = 4, render_mode: str | None = None):
        super().__init__()
        self.rules = load(ruleset, options)
        if isinstance(players, int):
            names = NAMES[:players] if players <= len(NAMES) else \
                [f"P{i + 1}" for i in range(players)]
        else:
            names = [str(p) for p in players]
        self.possible_agents = list(names)
        self.agents = list(names)
        self.mafia = mafia
        self.max_phases = max_phases
        self.turns = turns
        self.render_mode = render_mode
        self._first_seed = 0 if seed is None else int(seed)
        self._next_seed = self._first_seed
        self.codec = Codec(self.rules, names)
        self.role_index = {r: i for i, r in enumerate(sorted(self.rules.roles))}
        self.faction_index = {f: i for i, f in enumerate(sorted(self.rules.factions))}
        n, r, f = len(names), len(self.role_index), len(self.faction_index)
        layout = {}
        pos = 0
        for key, size in (("phase", 2), ("number", 1), ("over", 1), ("self", n),
                          ("alive", n), ("role", r), ("faction", f), ("known_role", n * r),
                          ("known_faction", n * f), ("votes", n * (n + 2)), ("sent", 1)):
            layout[key] = pos
            pos += size
        layout["size"] = pos
        self.layout = layout
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, shape=(pos,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(self.codec.size,), dtype=np.int8)})
        self.observation_spaces = {a: obs_space for a in names}
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in names}
        self.game: Game | None = None
        self._vote_masks: dict[tuple, np.ndarray] = {}     # legal votes -> their mask
        by_phase = self.rules.by_phase
        dead_acts = {r for r, ph in by_phase.items()
                     if any(ab.while_dead for abs_ in ph.values() for ab in abs_)}
        self._dead_acts = dead_acts
        self._night_immediate = any(ab.immediate and ab.phase == "night"
                                    for ab in self.rules.abilities.values())

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ---- the game ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._next_seed = int(seed)
        gseed = self._next_seed
        self._next_seed += 1
        self.seed_used = gseed
        names = self.possible_agents
        self.game = Game(self.rules, deal(self.rules, names, gseed, self.mafia), seed=gseed)
        self.agents = list(names)
        self.rewards = {a: 0 for a in names}
        self._cumulative_rewards = {a: 0 for a in names}
        self.terminations = {a: False for a in names}
        self.truncations = {a: False for a in names}
        self.infos = {a: {} for a in names}
        rows = np.zeros((len(names), self.layout["size"]), dtype=np.float32)
        self.knowledge = {a: Knowledge(self, a, rows[i]) for i, a in enumerate(names)}
        self.board = Board(self)
        self.voted = set()
        self.phases = 0
        self._cur: list | None = None        # ``_legal``'s one entry
        self._ended = False                  # ``_finish`` has run: every agent is done
        self._open_phase()

    def _has_something(self, seat: str) -> bool:
        c = self._legal(seat)
        return bool(c[3] or c[4])

    def legal_of(self, seat: str):
        """(legal moves, legal votes) of ``seat`` now (``Game.legal_moves``)."""
        c = self._legal(seat)
        return [(aid, ts) for aid, tss in c[3] for ts in tss], c[4]

    def _legal(self, seat: str) -> list:
        """``[seat, events, phase index, legal moves by ability (Game.legal_move_groups),
        legal votes, mask or None]``: the seat's legal lists now and, once made, its mask;
        one entry, made again after the next event or for another seat."""
        g = self.game
        st = g.state
        c = self._cur
        if c is not None and c[0] == seat and c[1] == len(g.events) and c[2] == st.idx:
            return c
        # a role without abilities in this phase has only the answers to its questions
        moves = g.legal_move_groups(seat) if st.questions or self.rules.by_phase[
            st.players[seat].role][st.phase] else []
        c = self._cur = [seat, len(g.events), st.idx, moves,
                         [] if seat in self.voted else legal_votes(g, seat), None]
        return c

    def _open_phase(self) -> None:
        """Queue the seats that have something to do; resolve phases nobody acts in."""
        g = self.game
        while True:
            if g.state.over:
                self._finish()
                return
            if self.phases >= self.max_phases:
                self._finish(truncated=True)
                return
            self.voted: set[str] = set()
            self.turns_left = {}
            self.queue = []
            st = g.state
            # by night (no votes), a role without a night ability and no question open to
            # it has nothing to do all night (nothing changes roles or asks before dawn
            # unless a night ability acts at once): not queued, never asked
            quiet = st.phase == "night" and not self._night_immediate
            by_phase = self.rules.by_phase
            for a in self.possible_agents:
                p = st.players[a]
                if p.alive or p.role in self._dead_acts:
                    if quiet and not by_phase[p.role].get("night") and not (
                            st.questions and open_questions(st, a)):
                        continue
                    self.queue.append(a)
                    self.turns_left[a] = self.turns
            self._skip_idle()
            if self.queue:
                self.agent_selection = self.queue[0]
                return
            g.resolve()
            self.phases += 1

    def _skip_idle(self) -> None:
        while self.queue and not self._has_something(self.queue[0]):
            self.queue.pop(0)

    def _finish(self, truncated: bool = False) -> None:
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
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self._ended = True
        self.queue = []
        self.agent_selection = self.agents[0]

    def step(self, action) -> None:
        if self._ended:                       # every agent is terminated or truncated
            self._was_dead_step(action)
            return
        a = self.agent_selection
        self._cumulative_rewards[a] = 0
        g = self.game
        info: dict = {}
        done = True
        if action is not None:
            a_ = int(action)
            if a_ != PASS:
                codec = self.codec
                kind = codec._decoded.get(a_)    # a vote, or a move decoded before
                if kind is None:
                    kind = codec.decode(a_, open_questions(g.state, a)) \
                        if a_ >= codec.answer_offset else codec.decode(a_)  # raises outside
                if kind[0] != "pass":
                    c = self._cur             # the mask the seat was shown, if still current
                    mask = c[5] if c is not None and c[0] == a and c[1] == len(g.events) \
                        and c[5] is not None else self._mask(a, copy=False)
                    if not mask[a_]:
                        info = {"refused": "not a legal action now; taken as a pass"}
                    else:
                        try:
                            if kind[0] == "vote":
                                g.vote(a, kind[1])
                                self.voted.add(a)
                            else:
                                self._send(a, kind[1], kind[2])
                            done = False
                        except Refused as e:  # never for a masked action; kept as a pass
                            info = {"refused": e.en}
        self.infos[a] = info
        queue = self.queue
        queue.pop(0)
        left = self.turns_left[a] - 1
        self.turns_left[a] = left
        if not done and left > 0:
            queue.append(a)
        legal = self._legal                   # ``_skip_idle``, inlined
        while queue:
            c = legal(queue[0])
            if c[3] or c[4]:
                break
            queue.pop(0)
        if queue:
            self.agent_selection = queue[0]
        else:
            g.resolve()
            self.phases += 1
            self._open_phase()
            if g.state.over or self.phases >= self.max_phases:
                self._accumulate_rewards()      # the only rewards: at the end

    def _send(self, seat: str, aid: str, ts: tuple) -> None:
        """Send a move the mask allows. The mask is the engine's list of legal moves for
        this very state (``Game.legal_moves``: a move is in it exactly when ``submit``
        takes it), so it is not judged a second time: it is sent as ``submit`` sends a
        move it has judged legal (``Game.send``)."""
        g = self.game
        p = g.state.players[seat]
        ab = g.rules.abilities.get(f"{p.role}.{aid}")
        if ab is None:                      # an answer to a question put to the seat
            g.answer(seat, ts[0], ts[1])
        elif ab.names_role:                 # the seats, then the role it names
            g.send(p, ab, tuple(ts[:-1]), ts[-1])
        else:
            g.send(p, ab, tuple(ts))

    # ---- what a seat sees ----------------------------------------------------------------
    def _mask(self, agent: str, copy: bool = True) -> np.ndarray:
        """The action mask (a new array unless ``copy`` is false; the legal actions of the
        seat whose turn it is, all zero for the others)."""
        g = self.game
        if self._ended or agent != self.agent_selection or g.state.over:
            return np.zeros(self.codec.size, dtype=np.int8)
        c = self._legal(agent)
        mask = c[5]
        if mask is None:
            votes = c[4]
            mk = tuple(votes)
            base = self._vote_masks.get(mk)      # the same votes give the same mask
            if base is None:
                if len(self._vote_masks) >= 4096:
                    self._vote_masks.clear()
                base = self._vote_masks[mk] = self._vote_mask(votes)
            if c[3] or g.state.questions:
                mask = base.copy()
                idx: list[int] = []
                codes = self.codec.codes
                qs = open_questions(g.state, agent) if g.state.questions else None
                for aid, tss in c[3]:
                    idx += codes(aid, tss, qs)
                mask[idx] = 1
            else:                     # votes only
                mask = base
            c[5] = mask
        return mask.copy() if copy else mask

    def _vote_mask(self, votes) -> np.ndarray:
        """The mask of a pass and the legal votes ``votes``."""
        mask = np.zeros(self.codec.size, dtype=np.int8)
        vi = self.codec.vote_index
        mask[[PASS] + [vi[t] for t in votes]] = 1
        return mask

    def observe(self, agent):
        vec = self.knowledge[agent].update()
        return {"observation": vec, "action_mask": self._mask(agent)}

    def vector_from_scratch(self, agent: str) -> np.ndarray:
        """The seat's vector made in one pass over the whole log, as a check of the one
        kept up to date step by step (``observe``): the two are always equal."""
        k = Knowledge(self, agent)
        return k.update(Board(self, {agent: k}))

    def observe_json(self, agent: str, texts: bool = False) -> dict:
        """The same observation as the player API gives (``docs/agents.md``)."""
        return json_observation(self.game, agent, texts=texts)

    def render(self):
        g = self.game
        if g is None:
            return None
        st = g.state
        line = f"{st.phase} {st.number}: " + ", ".join(
            f"{p.name}{'' if p.alive else '†'}" for p in st.order)
        if self.render_mode == "human":
            print(line)
            return None
        return line

    def close(self) -> None:
        pass


def raw_env(**kw) -> MafiaEnv:
    return MafiaEnv(**kw)


def env(**kw):
    """``env(ruleset=…, players=…, seed=…)``: the AEC environment with PettingZoo's
    order-enforcing wrapper (as PettingZoo's own environments are given)."""
    e = raw_env(**kw)
    return wrappers.OrderEnforcingWrapper(e)
