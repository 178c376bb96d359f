"""The host layer's common ground: errors, the game cache, the transaction that every
command runs in (``HostBase._command``), recorded engine calls, and small helpers."""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import threading
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from ..engine.errors import Refused
from ..engine.events import Event
from ..engine.game import Game
from ..engine.mechanics.questions import open_questions
from ..rules import load
from ..store import (
    Store,
    StoreError,
    db_error_sentence,
    event_from_json,
    event_to_json,
    open_store,
)
from ..store import normalize as normalize_event
from ..store import (
    test_pause as _test_pause,
)

if TYPE_CHECKING:
    from ..store.models import CommandRow, GameRow

FORMAT = "mafiahost-game"
FORMAT_VERSION = 1
SEED_LIMIT = 1 << 63

#: Test hook: with MAFIAHOST_TEST_PAUSE=<command kind>, that command stops inside its
#: transaction, after writing its events and before the commit, touches the file named by
#: MAFIAHOST_TEST_PAUSE_FILE and sleeps (MAFIAHOST_TEST_PAUSE_SECONDS, default 60); the
#: crash test kills the process there.
PAUSE_ENV = "MAFIAHOST_TEST_PAUSE"

AGAINST_ALL = {"against_all", "against-all", "против всех", "противвсех", "против_всех"}
ABSTAIN = {"abstain", "воздерживаюсь", "воздержался", "воздержалась", "воздержаться"}


class HostError(Refused):
    """A host command that cannot be done: a sentence in Russian and English."""


class NoGame(HostError):
    """There is no game with that number."""


class AccessDenied(Exception):
    """A web request whose credential does not (or no longer) name this game and seat."""


# ---- the game cache --------------------------------------------------------------------------

class _Entry:
    __slots__ = ("game", "lock", "rev", "row", "stale")

    def __init__(self, rev: int, game: Game, row=None):
        self.rev = rev
        self.game = game
        self.row = row              # the game's row at ``rev`` (a ``GameRecord``) or None
        self.lock = threading.Lock()
        self.stale = False


class GameCache:
    """Games rebuilt from their events, kept in this process, keyed by game id and the
    game row's revision (``games.rev``, bumped by every command inside its transaction).

    A command looks its game up *inside* its transaction, after it has locked the row, by
    the revision it read there: if another process (or a command that was rolled back)
    moved the game on, the revision differs and the game is rebuilt from the events, so
    several processes on one database stay correct. A command *takes* the entry (nobody
    else can use it while the engine changes it) and puts the game back under the new
    revision only after its commit. Readers hold the entry's lock while they look at the
    game and give up on an entry a command has taken (they rebuild instead)."""

    def __init__(self, size: int = 512):
        self.size = size
        self._lock = threading.Lock()
        self._d: OrderedDict[int, _Entry] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def take(self, game_id: int, rev: int) -> _Entry | None:
        """The entry for exactly ``rev``, removed from the cache and locked, or None."""
        with self._lock:
            e = self._d.pop(game_id, None)
            if e is None:
                self.misses += 1
                return None
            e.stale = True
            if e.rev != rev:
                self.misses += 1
                return None
            self.hits += 1
        e.lock.acquire()
        return e

    def take_newest(self, game_id: int) -> _Entry | None:
        """The entry of ``game_id`` whatever its revision, if it holds the game's row at
        that revision (``put(row=)``): removed and locked as by ``take``, or None. The
        caller's command stores itself only if the database is still at ``entry.rev``
        (PostgreSQL's one-statement path, ``HostBase._command_one_shot``)."""
        with self._lock:
            e = self._d.get(game_id)
            if e is None or e.row is None or e.stale:
                self.misses += 1
                return None
            del self._d[game_id]
            e.stale = True
            self.hits += 1
        e.lock.acquire()
        return e

    def peek(self, game_id: int, rev: int) -> _Entry | None:
        """The entry for exactly ``rev``, locked for reading (release ``e.lock``), or None."""
        with self._lock:
            e = self._d.get(game_id)
            if e is None or e.rev != rev or e.stale:
                self.misses += 1
                return None
            self._d.move_to_end(game_id)
            self.hits += 1
        e.lock.acquire()
        if e.stale:
            e.lock.release()
            return None
        return e

    def put(self, game_id: int, rev: int, game: Game, row=None) -> None:
        """``row``: the game's row at ``rev`` as a read-only ``GameRecord`` (the hot
        paths' answer to their bump), kept for ``take_newest``."""
        with self._lock:
            cur = self._d.get(game_id)
            if cur is not None:
                if cur.rev >= rev:
                    return
                cur.stale = True
            self._d[game_id] = _Entry(rev, game, row)
            self._d.move_to_end(game_id)
            while len(self._d) > self.size:
                _, old = self._d.popitem(last=False)
                old.stale = True

    def clear(self) -> None:
        with self._lock:
            for e in self._d.values():
                e.stale = True
            self._d.clear()


def commitment(seed: int, salt: str) -> str:
    """The old (``seed-v1``) commitment, to the seed only: sha256 of
    ``"mafiahost-seed:<seed>:<salt>"``. Games made before ``deal-v2`` carry it."""
    return hashlib.sha256(f"mafiahost-seed:{seed}:{salt}".encode()).hexdigest()


DEAL_SCHEME = "deal-v2"


def deal_payload(seed, ruleset, ruleset_version, options, dealt, mafia, seating) -> str:
    """The canonical text the ``deal-v2`` commitment binds: everything that decides who
    sits where with which role — the seed, the rule set and its version, the options, the
    number of mafia asked for, whether the roles were dealt from the seed or given by the
    host, and the seating with every role."""
    return json.dumps({"seed": seed, "ruleset": ruleset, "ruleset_version": ruleset_version,
                       "options": options or {}, "dealt": bool(dealt), "mafia": mafia,
                       "seating": [[n, r] for n, r in seating]},
                      ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def deal_commitment(salt: str, *a) -> str:
    """The first post's commitment (``deal-v2``): sha256 of ``"mafiahost-deal-v2:<salt>:"``
    + ``deal_payload(...)``. The salt (16 random bytes) keeps the roles from being guessed
    by trying seatings against the hash before the end."""
    return hashlib.sha256(f"mafiahost-{DEAL_SCHEME}:{salt}:{deal_payload(*a)}"
                          .encode()).hexdigest()


def scheme_of(row) -> str:
    """Which commitment a stored game carries."""
    return "seed-v1" if row.commitment == commitment(row.seed, row.salt) else DEAL_SCHEME


def new_token() -> str:
    """An unguessable link token: 192 random bits from ``secrets`` (stored only as its
    hash, ``store.accounts.digest``)."""
    return secrets.token_urlsafe(24)


def new_seed() -> int:
    return int.from_bytes(os.urandom(8), "big") % SEED_LIMIT


def _say(lang: str, ru: str, en: str) -> str:
    return ru if lang == "ru" else en


def _fold(name: str) -> str:
    return name.casefold().replace("ё", "е").strip()


def parse_time(value: str | None) -> datetime | None:
    """An ISO 8601 time ('2025-05-01 21:00', '2025-05-01T21:00+03:00') or None."""
    if value in (None, ""):
        return None
    try:
        return datetime.fromisoformat(value.strip())
    except ValueError:
        raise HostError(f"Не понимаю время «{value}»; пишите так: 2025-05-01 21:00 "
                        f"(можно с поясом: 2025-05-01T21:00+03:00).",
                        f"Cannot read the time '{value}'; write it like 2025-05-01 21:00 "
                        f"(a zone may follow: 2025-05-01T21:00+03:00).") from None


def is_late(at: datetime | None, deadline: datetime | None) -> bool:
    if at is None or deadline is None:
        return False
    if (at.tzinfo is None) != (deadline.tzinfo is None):   # compare in the deadline's zone
        if at.tzinfo is None:
            at = at.replace(tzinfo=deadline.tzinfo)
        else:
            at = at.astimezone(deadline.tzinfo).replace(tzinfo=None)
    return at > deadline


# ---- engine calls, recorded so that a game can be run again --------------------------------

def apply_op(g: Game, op: list) -> None:
    """Run one recorded engine call on ``g``."""
    kind = op[0]
    if kind == "submit":
        g.submit(op[1], op[2], tuple(op[3]), replace=bool(op[4]))
    elif kind == "vote":
        g.vote(op[1], op[2], fixed=bool(op[3]) if len(op) > 3 else False)
    elif kind == "unvote":
        g.unvote(op[1], fixed=bool(op[2]) if len(op) > 2 else False)
    elif kind == "resolve":
        g.resolve()
    elif kind == "remove":
        g.host_remove(op[1], op[2])
    elif kind == "replace_player":
        g.replace_player(op[1], op[2])
    elif kind == "absent":
        g.mark_absent(op[1])
    elif kind == "excuse":
        g.excuse(op[1])
    elif kind == "answer":
        g.answer(op[1], op[2], op[3])
    elif kind == "gender":
        g.set_gender(op[1], op[2])
    elif kind == "reveal":
        g.mark_revealed(op[1], bool(op[2]))
    elif kind == "grant":
        g.host_grant(op[1], op[2], op[3])
    else:
        raise ValueError(f"unknown engine call {kind!r}")


class _Ctx:
    """What a command collects while it runs: engine calls, vote records, notes."""

    def __init__(self, session, row: GameRow, g: Game):
        self.s = session
        self.row = row
        self.g = g
        self.ops: list[list] = []
        self.records: list[dict] = []
        self.posts: list[str] = []
        self.before: dict = {}
        self.result: dict = {}
        self.nothing = False      # set when the command found nothing to do

    def op(self, *op) -> None:
        op = list(op)
        apply_op(self.g, op)
        self.ops.append(op)


@dataclass
class Done:
    """The answer to a command: a message for the host, and the post to paste if any."""
    game_id: int
    message: str
    post: str = ""
    events: list = field(default_factory=list)
    data: dict = field(default_factory=dict)



class HostBase:
    """Opening a store, loading games, running one command as one transaction, and
    reading seat names: what every command family builds on."""

    def __init__(self, db: str | None = None, store: Store | None = None,
                 cache: GameCache | None = None):
        self.store = store or open_store(db)
        self.cache = cache if cache is not None else GameCache()

    # ---- loading -----------------------------------------------------------------------
    @staticmethod
    def rules_of(row: GameRow):
        return load(row.ruleset, json.loads(row.options) or None)

    def _game(self, s, row: GameRow) -> Game:
        return Game.replay(self.rules_of(row), Store.events(s, row.id))

    def _row(self, s, game_id: int) -> GameRow:
        from ..store.models import GameRow
        row = s.get(GameRow, game_id)
        if row is None:
            raise self._no_game(s, game_id)
        return row

    def _no_game(self, s, game_id) -> HostError:
        from sqlalchemy import select

        from ..store.models import GameRow
        ids = ", ".join(str(i) for i in s.scalars(select(GameRow.id).order_by(GameRow.id)))
        return NoGame(f"Игры №{game_id} нет; игры: {ids or 'пока ни одной'}.",
                         f"There is no game {game_id}; games: {ids or 'none yet'}.")

    def load(self, game_id: int) -> tuple[GameRow, Game]:
        """The game's row and the game rebuilt from its events (read only)."""
        with self.store.session() as s:
            row = self._row(s, game_id)
            return row, self._game(s, row)

    @contextmanager
    def reading(self, game_id: int, check=None):
        """``(row, game)`` to look at (never to change) while the block runs: the cached
        game when its revision is the one stored, else rebuilt from the events (and cached
        afterwards). ``check(session, row)`` runs in the same read transaction (e.g. that
        a player's link is still valid)."""
        e = g = None
        with self.store.session() as s:
            row = self._row(s, game_id)
            if check is not None:
                check(s, row)
            e = self.cache.peek(game_id, row.rev)
            if e is None:
                g = self._game(s, row)
                same = True
                if self.store.dialect != "sqlite":   # read committed: a statement each
                    from sqlalchemy import select

                    from ..store.models import GameRow
                    same = s.scalar(select(GameRow.rev).where(GameRow.id == game_id)) \
                        == row.rev
        if e is not None:
            try:
                yield row, e.game
            finally:
                e.lock.release()
            return
        yield row, g
        if same:
            self.cache.put(game_id, row.rev, g)

    def _command(self, game_id: int, kind: str, args: dict, fn, guard=None,
                 hot: bool = False) -> Done:
        """Run ``fn(ctx)`` as one transaction and store it as command ``kind``.

        The game comes from the cache when its revision is the one just locked (else it is
        rebuilt from the events); it goes back to the cache under the new revision only
        after the commit. ``guard(session, row, game)`` runs first inside the transaction
        and may refuse. ``hot``: a plain command whose ``fn`` reads the row and changes
        only the game (a move, a vote, an answer) runs on the store's hot path
        (``Store.hot``: no ORM object; on a SQLite file no SQLAlchemy at all).

        A database connection lost before the commit (a dropped PostgreSQL connection, a
        restarted server) rolled everything back: the command runs once more on a fresh
        connection. A second loss, a loss during the commit itself (whether it committed
        is then unknown) or any other database failure is a ``StoreError`` sentence."""
        state = {"committing": False}
        try:
            return self._command_once(game_id, kind, args, fn, guard, state, hot)
        except Exception as e:
            if not self.store.is_db_error(e):
                raise
            if not getattr(e, "connection_invalidated", False) or state["committing"]:
                raise StoreError(db_error_sentence(e, state["committing"])) from None
        state["committing"] = False
        try:
            return self._command_once(game_id, kind, args, fn, guard, state, hot)
        except Exception as e:
            if not self.store.is_db_error(e):
                raise
            raise StoreError(db_error_sentence(e, state["committing"])) from None

    def _command_once(self, game_id, kind, args, fn, guard, state, hot=False) -> Done:
        if hot and self.store.optimistic:
            done = self._command_optimistic(game_id, kind, args, fn, guard, state)
            if done is not None:
                return done
        elif hot and self.store.one_shot_ok and self.cache.size:
            done = self._command_one_shot(game_id, kind, args, fn, guard)
            if done is not None:
                return done
        entry = None
        try:
            with (self.store.hot(game_id) if hot else self.store.locked(game_id)) as (s, row):
                entry = self.cache.take(game_id, row.rev - 1)
                g = entry.game if entry is not None else self._game(s, row)
                if guard is not None:
                    guard(s, row, g)
                n0 = len(g.events)
                ctx = _Ctx(s, row, g)
                done = fn(ctx)
                rev = row.rev
                if not (ctx.nothing and len(g.events) == n0):
                    new = [normalize_event(e) for e in g.events[n0:]]
                    cid = Store.add_command_fast(s, game_id, kind, args, ctx.ops, n0, new,
                                                 ctx.before, ctx.result)
                    if ctx.records:
                        Store.add_vote_records(s, game_id, cid, ctx.records)
                    if ctx.posts:
                        Store.add_imported_posts(s, game_id, cid, ctx.posts)
                    _test_pause(kind)
                    g.events[n0:] = new           # as they read back from the database
                    done.events = new
                state["committing"] = True        # leaving the block commits
            self.cache.put(game_id, rev, g, row if hot else None)
            return done
        except LookupError:
            with self.store.session() as s:
                raise self._no_game(s, game_id) from None
        finally:
            if entry is not None:
                entry.lock.release()

    def _command_optimistic(self, game_id, kind, args, fn, guard, state) -> Done | None:
        """A plain command on a SQLite file, worked out before the write lock: the game at
        the row's current revision (cached, or rebuilt from the events, read outside any
        write transaction), ``guard`` and ``fn`` run on it; then the write transaction
        bumps the row only if it is still at that revision, runs ``guard`` again (a
        player's link is checked inside the transaction that stores the move), writes the
        command and commits. So SQLite's one write lock, shared by every game, is held
        only while the rows are written, not while the rules work. None when another
        command changed the game in between (or it is not there): the caller then runs
        the command inside the lock on the game as it is now."""
        from ..store.hot import Conflict
        try:
            rtx, row = self.store.peek(game_id)
        except LookupError:
            return None
        entry = self.cache.take(game_id, row.rev)
        try:
            g = entry.game if entry is not None else self._game(rtx, row)
            if guard is not None:
                guard(rtx, row, g)
            n0 = len(g.events)
            ctx = _Ctx(rtx, row, g)
            done = fn(ctx)
            store = not (ctx.nothing and len(g.events) == n0)
            new = [normalize_event(e) for e in g.events[n0:]] if store else []
            try:
                with self.store.hot(game_id, expect=row.rev) as (s, now):
                    if guard is not None:
                        guard(s, now, g)
                    if store:
                        cid = Store.add_command_fast(s, game_id, kind, args, ctx.ops, n0,
                                                     new, ctx.before, ctx.result)
                        if ctx.records:
                            Store.add_vote_records(s, game_id, cid, ctx.records)
                        if ctx.posts:
                            Store.add_imported_posts(s, game_id, cid, ctx.posts)
                        _test_pause(kind)
                    state["committing"] = True        # leaving the block commits
            except Conflict:
                return None
            if store:
                g.events[n0:] = new               # as they read back from the database
                done.events = new
            self.cache.put(game_id, now.rev, g)
            return done
        finally:
            if entry is not None:
                entry.lock.release()

    #: PostgreSQL's one-statement path: plain commands of one game in this process run
    #: one after the other (``_command_one_shot``), each on the game the last one left in
    #: the cache (the database's row lock would order them anyway, one commit apart)
    _GAME_LOCKS = tuple(threading.Lock() for _ in range(1024))

    def _command_one_shot(self, game_id, kind, args, fn, guard) -> Done | None:
        """A plain command on PostgreSQL when the cache holds the game with its row (the
        last command of this process on it stored it so): ``guard`` and ``fn`` run on
        the cached game, the player's link named by the web app is taken from its hint,
        and the command is written by one statement, its own transaction, which stores
        it only if the row is still at the cached revision and the link still names the
        seat (``Store.one_shot``): one round trip instead of ``hot``'s three (``BEGIN``
        with the bump and the link, the writes with the ``COMMIT``). None when it could
        not be stored so (another process or command came first, the link changed, the
        guard asked the database something): the caller runs it on ``hot``, on the game
        as stored, which checks and refuses as always. Refusals are the same: they come
        from the same ``guard`` and ``fn`` on the same game and row.

        A connection lost during the statement (whether it committed is unknown): the
        stored commands are looked at (``Store.landed``): if this one is there, it is
        done; if not, it runs on ``hot`` (which retries a lost connection once more)."""
        from ..store.hot import NotOneShot, OneShotTx
        store = self.store
        with self._GAME_LOCKS[hash(game_id) % len(self._GAME_LOCKS)]:
            entry = self.cache.take_newest(game_id)
            if entry is None:
                return None
            try:
                g, row = entry.game, entry.row
                tx = OneShotTx(store.link_hint())
                n0 = len(g.events)
                try:
                    if guard is not None:
                        guard(tx, row, g)
                except NotOneShot:
                    if len(g.events) == n0:           # nothing changed: keep it cached
                        self.cache.put(game_id, entry.rev, g, row)
                    return None
                ctx = _Ctx(tx, row, g)
                try:
                    done = fn(ctx)
                except NotOneShot:
                    return None                       # the game may have moved: dropped
                stored = not (ctx.nothing and len(g.events) == n0)
                new = [normalize_event(e) for e in g.events[n0:]] if stored else []
                fields = Store.command_fields(game_id, kind, args, ctx.ops, n0, len(new),
                                              ctx.before, ctx.result) if stored else None
                records = [dict(r, game_id=game_id) for r in ctx.records] if stored else []
                evs = [(game_id, n0 + i, e.type, e.phase, event_to_json(e))
                       for i, e in enumerate(new)]
                _test_pause(kind)
                try:
                    now = store.one_shot(game_id, row, tx.link, fields, evs, records,
                                         list(ctx.posts) if stored else [])
                except Exception as e:
                    if not (store.is_db_error(e) and getattr(e, "connection_invalidated",
                                                             False)):
                        raise
                    if fields is None:
                        return None
                    try:
                        now = store.landed(game_id, fields)
                    except Exception as e2:
                        if not store.is_db_error(e2):
                            raise
                        raise StoreError(db_error_sentence(e2, True)) from None
                    if now is None:
                        return None
                    g.events[n0:] = new
                    done.events = new
                    if now.rev == entry.rev + 1:      # nothing else came after it
                        self.cache.put(game_id, now.rev, g, now)
                    return done
                if now is None:
                    return None
                if stored:
                    g.events[n0:] = new               # as they read back from the database
                    done.events = new
                self.cache.put(game_id, now.rev, g, now)
                return done
            finally:
                entry.lock.release()

    # ---- names -------------------------------------------------------------------------
    @staticmethod
    def seat(g: Game, name: str) -> str:
        """The seat name for what the host typed: the seat, the replacement's nick, or
        either written in another case or with е for ё (when that picks one player)."""
        s = g.state
        exact = g.seat_of(name)
        if exact is not None:
            return exact
        f = _fold(name)
        hits = {p.name for p in s.order if _fold(p.name) == f}
        hits |= {seat for seat, nick in s.aliases.items() if _fold(nick) == f}
        return hits.pop() if len(hits) == 1 else name

    def _target(self, g: Game, t: str) -> str:
        f = _fold(t)
        if f in AGAINST_ALL:
            return "against_all"
        if f in ABSTAIN:
            return "abstain"
        return self.seat(g, t)


# ---- helpers shared by the command families -------------------------------------------------

def can_use(g: Game, p) -> list[str]:
    """The abilities ``p`` may still use this phase: allowed to the player, and with a
    target the rules allow now (the antem hermit's taken moves before any are taken are
    not listed)."""
    abilities = [ab for ab in g.rules.by_phase[p.role].get(g.state.phase, ())
                 if (p.alive or ab.while_dead) and g.why_not_actor(p, ab) is None]
    if any(ab.targets for ab in abilities):
        legal = {aid for aid, _ in g.legal_moves(p.name)}
        abilities = [ab for ab in abilities if not ab.targets or ab.id in legal]
    return [{"id": ab.id, "targets": ab.targets, "name_ru": ab.name_ru, "name_en": ab.name_en}
            for ab in abilities]


def _team_move_sent(g: Game, p) -> bool:
    """Has a partner already sent the team's one move (the clan's or mafia's shot) that
    ``p`` could have sent? Then the host waits for nothing more from him."""
    st = g.state
    for ab in g.rules.by_phase[p.role].get(st.phase, ()):
        if ab.shared:
            a = st.slots.get(("faction", ab.owner or p.faction, ab.id))
            if a is not None and a.actor != p.name:
                return True
    # a team rule of the rule set's own (singapore: one shooter a clan a night): a partner
    # sent this move, and the same move from him would now be refused
    mine = {ab.id: ab for ab in g.rules.by_phase[p.role].get(st.phase, ())}
    for a in st.pending:
        q = st.players.get(a.actor)
        if q is None or q is p or q.faction != p.faction:
            continue
        ab = mine.get(g.rules.abilities[a.ability].id)
        if ab is not None and g.why_not(p, ab, tuple(a.targets)) is not None:
            return True
    return False


def _acted_now(g: Game) -> set[str]:
    """Who sent a move this phase that took effect at once (an immediate day move such as
    mafia-yakuza's description), so is not pending."""
    out = set()
    for e in reversed(g.events):
        if e.type == "phase_started":
            break
        if e.type == "action" and e.data.get("actor"):
            out.add(e.data["actor"])
    return out


def not_acted(g: Game) -> list[str]:
    """Players who may send a move this phase and have sent none, or who have a question
    put to them to answer; not one whose team move a partner has sent (what he may still
    buy or use is optional: the host waits for nothing more from him)."""
    st = g.state
    out = []
    sent = {a.actor for a in st.pending} | _acted_now(g)
    for p in st.order:
        if p.name in sent or p.alive and _team_move_sent(g, p):
            continue
        if can_use(g, p):             # a move the rules allow now (with a target for it)
            out.append(g.display(p.name))
    for q in open_questions(g):       # a question put to him and not answered yet
        name = g.display(q["to"])
        if name not in out:
            out.append(name)
    return out


def not_voted(g: Game) -> list[str]:
    from ..engine.day import vote_loss
    st = g.state
    return [g.display(p.name) for p in st.order
            if p.alive and p.name not in st.votes and vote_loss(g, p) is None]


def _slot_taken(g: Game, actor: str, ability: str) -> bool:
    p = g.state.players.get(actor)
    if p is None:
        return False
    ab = g.rules.abilities.get(f"{p.role}.{ability}")
    return ab is not None and g.slot_of(p, ab) in g.state.slots


def _find_action(g: Game, seq: int) -> Event | None:
    n = 0
    for e in g.events:
        if e.type == "action":
            n += 1
            if n == seq:
                return e
    return None


def phase_id(text: str) -> str:
    """A phase as the host types it — «ночь 2», «День 1», "night 2" — as the log labels it
    ("night 2"); anything else unchanged (then it matches no phase)."""
    words = {"ночь": "night", "день": "day", "night": "night", "day": "day",
             "раздача": "setup", "setup": "setup"}
    parts = (text or "").strip().casefold().split()
    if len(parts) == 2 and parts[0] in words and parts[1].isdigit():
        return f"{words[parts[0]]} {int(parts[1])}"
    return (text or "").strip()


def _phase_result(g: Game, cmds: list[CommandRow], label: str) -> list[Event] | None:
    """The events of the resolution of phase ``label`` ("night 1", «ночь 1»), or None."""
    label = phase_id(label)
    for cmd in cmds:
        if cmd.kind != "resolve" or not cmd.n_events:
            continue
        if g.events[cmd.first_event].phase == label:
            return g.events[cmd.first_event:cmd.first_event + cmd.n_events]
    return None


def format_event(i: int, e: Event) -> str:
    aud = e.audience if isinstance(e.audience, str) else "→" + ",".join(e.audience)
    fields = ", ".join(f"{k}={_short(v)}" for k, v in e.data.items() if not k.startswith("_"))
    return f"{i:4d} [{e.phase}] {e.type} ({aud}) {fields}".rstrip()


def _short(v) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_short(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_short(x)}" for k, x in v.items()) + "}"
    return str(v)


def _args_text(cmd: CommandRow) -> str:
    a = json.loads(cmd.args)
    if cmd.kind == "act":
        return (f"{a['actor']} {a['ability']} {' '.join(a['targets'])}"
                f"{' --replace' if a.get('replace') else ''}").strip()
    if cmd.kind == "vote":
        return f"{a['voter']} {a['target']}"
    if cmd.kind == "new":
        return f"{len(a['players'])} players"
    return " ".join(f"{k}={v}" for k, v in a.items() if v not in (None, "", False, {}))


def _event_dict(type_, phase, body) -> dict:
    b = json.loads(body)
    return {"type": type_, "phase": phase, "audience": b["audience"], "data": b["data"]}


def _event_dict_of(e: Event) -> dict:
    return _event_dict(e.type, e.phase, event_to_json(e))


def _event_from_dict(d: dict) -> Event:
    return event_from_json(d["type"], d["phase"],
                           json.dumps({"audience": d["audience"], "data": d["data"]}))


def post_key(p) -> str:
    """A forum post's identity: its id and a hash of its text (an edit is a new post), or
    without an id a hash of author, time and text."""
    t = p.time.isoformat() if getattr(p, "time", None) else ""
    h = hashlib.sha256(f"{p.author}\x00{t}\x00{p.text}".encode()).hexdigest()
    pid = getattr(p, "id", None)
    if pid not in (None, ""):
        return f"id:{str(pid)[:100]}:{h[:32]}"
    return f"h:{h}"


def _select_keys(game_id: int):
    from sqlalchemy import select

    from ..store.models import ImportedPostRow
    return select(ImportedPostRow.post_key).where(ImportedPostRow.game_id == game_id)


def event_list(g: Game) -> list[dict]:
    """A game's events as plain dicts (what tests compare event by event)."""
    return [_event_dict_of(e) for e in g.events]

