"""The host's service layer: every host command, for the command line and a web app alike.

``Host(db)`` opens a game store (``mafiahost.store``). Each method that changes a game is
one transaction (``Host._command``): lock the game, rebuild it from its events
(``Game.replay``), run the engine, write the command with the events it produced, commit.
A refusal (``Refused``, with the rule's own sentence) or a crash before the commit leaves
the game as it was. Every command stores the engine calls it made (``ops``) next to its
events, so ``verify`` can run the whole game again from the seed and compare.

The seed comes from ``os.urandom`` here, never in the engine. The first public post
carries ``commitment(seed, salt)``; the final post reveals seed and salt.

Methods return plain data and post text; they print nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

from .engine.dice import verify_rolls
from .engine.errors import Refused, RulesetError
from .engine.events import Event
from .engine.game import Game
from .rules import load
from .rules.setup import deal
from .store import (
    ADD_VOTE_RECORD,
    CommandRow,
    EventRow,
    GameRow,
    ImportedPostRow,
    PlayerLinkRow,
    Store,
    VoteRecordRow,
    WebKeyRow,
    event_from_json,
    event_to_json,
    now_iso,
    open_store,
)
from .store import normalize as normalize_event

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
    __slots__ = ("game", "lock", "rev", "stale")

    def __init__(self, rev: int, game: Game):
        self.rev = rev
        self.game = game
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

    def put(self, game_id: int, rev: int, game: Game) -> None:
        with self._lock:
            cur = self._d.get(game_id)
            if cur is not None:
                if cur.rev >= rev:
                    return
                cur.stale = True
            self._d[game_id] = _Entry(rev, game)
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
    """The public commitment to the seed: sha256 of ``"mafiahost-seed:<seed>:<salt>"``."""
    return hashlib.sha256(f"mafiahost-seed:{seed}:{salt}".encode()).hexdigest()


def _link_seat():
    from sqlalchemy import bindparam, select
    t = PlayerLinkRow.__table__
    return select(t.c.seat).where(t.c.token == bindparam("token"),
                                  t.c.game_id == bindparam("gid"))


_LINK_SEAT = _link_seat()


def new_token() -> str:
    """An unguessable link token: 192 random bits from ``secrets``."""
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
        g.vote(op[1], op[2])
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


class Host:
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
        row = s.get(GameRow, game_id)
        if row is None:
            raise self._no_game(s, game_id)
        return row

    def _no_game(self, s, game_id) -> HostError:
        from sqlalchemy import select
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

    def _command(self, game_id: int, kind: str, args: dict, fn, guard=None) -> Done:
        """Run ``fn(ctx)`` as one transaction and store it as command ``kind``.

        The game comes from the cache when its revision is the one just locked (else it is
        rebuilt from the events); it goes back to the cache under the new revision only
        after the commit. ``guard(session, row, game)`` runs first inside the transaction
        and may refuse."""
        entry = None
        try:
            with self.store.locked(game_id) as (s, row):
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
                        s.execute(ADD_VOTE_RECORD, [{"game_id": game_id, "command_id": cid,
                                                     **r} for r in ctx.records])
                    for k in ctx.posts:
                        s.add(ImportedPostRow(game_id=game_id, post_key=k, command_id=cid))
                    s.flush()
                    _test_pause(kind)
                    g.events[n0:] = new           # as they read back from the database
                    done.events = new
            self.cache.put(game_id, rev, g)
            return done
        except LookupError:
            with self.store.session() as s:
                raise self._no_game(s, game_id) from None
        finally:
            if entry is not None:
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

    # ---- games -------------------------------------------------------------------------
    def new_game(self, ruleset: str, players: list[str], *, roles=None, options=None,
                 mafia: int | None = None, seed: int | None = None, name: str = "",
                 lang: str = "ru", fmt: str = "plain") -> Done:
        """Deal (or take the host's ``roles``) and store a new game; returns its start post.

        ``roles`` is a list in seating order or a dict name -> role id."""
        players = [p.strip() for p in players if p.strip()]
        if not players:
            raise HostError("Не указаны игроки: --players \"Анна,Борис,...\".",
                            "No players given: --players \"Anna,Boris,...\".")
        options = dict(options or {})
        try:
            rules = load(ruleset, options or None)
        except RulesetError as e:
            raise HostError(str(e), "") from None
        if seed is None:
            seed = new_seed()
        if not 0 <= seed < SEED_LIMIT:
            raise HostError(f"Зерно должно быть от 0 до {SEED_LIMIT - 1}.",
                            f"The seed must be 0 to {SEED_LIMIT - 1}.")
        salt = os.urandom(16).hex()
        if roles:
            seating = _assigned(players, roles)
        else:
            seating = deal(rules, players, seed, mafia)
        g = Game(rules, seating, seed)
        c = commitment(seed, salt)
        with self.store.session() as s:
            now = now_iso()
            row = GameRow(name=name, ruleset=rules.id, ruleset_version=rules.version,
                          options=json.dumps(options, ensure_ascii=False), seed=seed,
                          salt=salt, commitment=c, dealt=not roles, lang=lang, fmt=fmt,
                          rev=0, created_at=now, updated_at=now)
            s.add(row)
            s.flush()
            evs = [normalize_event(e) for e in g.events]
            Store.add_command(s, row.id, "new",
                              {"players": players, "roles": bool(roles), "mafia": mafia,
                               "options": options},
                              [["start", [list(x) for x in seating]]], 0, evs)
            gid = row.id
        g.events[:] = evs
        self.cache.put(gid, 0, g)
        from .render import posts
        post = posts.start_post(g, c, lang=lang, fmt=fmt)
        return Done(gid, _say(lang, f"Игра №{gid} создана: {rules.title_ru}, "
                                    f"{len(players)} игроков.",
                              f"Game {gid} created: {rules.title_en}, {len(players)} players."),
                    post, evs, {"commitment": c})

    def list_games(self) -> list[dict]:
        from sqlalchemy import select
        out = []
        with self.store.session() as s:
            for row in s.scalars(select(GameRow).order_by(GameRow.id)):
                last = s.scalars(select(EventRow).where(EventRow.game_id == row.id,
                                                        EventRow.type.in_(
                                                            ("phase_started", "game_over")))
                                 .order_by(EventRow.pos.desc()).limit(1)).first()
                if last is None:
                    status = ""
                elif last.type == "game_over":
                    status = "over"
                else:
                    status = json.loads(last.body)["data"]
                    status = f"{status['phase']} {status['number']}"
                first = s.scalars(select(EventRow).where(EventRow.game_id == row.id,
                                                         EventRow.pos == 0)).first()
                n = len(json.loads(first.body)["data"]["players"]) if first else 0
                out.append({"id": row.id, "name": row.name, "ruleset": row.ruleset,
                            "players": n, "status": status, "created": row.created_at})
        return out

    def show(self, game_id: int) -> dict:
        """The host's view of the game now: phase, deadline, players with roles and
        statuses, who has not acted or voted, the votes so far."""
        with self.store.session() as s:
            row = self._row(s, game_id)
            g = self._game(s, row)
            last = Store.last_command(s, game_id)
            n_cmds = len(Store.commands(s, game_id))
        st = g.state
        label = f"{st.phase} {st.number}"
        players = []
        for p in st.order:
            statuses = {k: v[1] for k, v in p.st.items() if v[0] >= st.idx}
            players.append({
                "seat": p.name, "name": g.display(p.name), "role": p.role,
                "role_ru": g.rules.roles[p.role].name_ru, "role_en": g.rules.roles[p.role].name_en,
                "faction": p.faction, "alive": p.alive, "how": p.how or None,
                "statuses": statuses, "can_use": [] if st.over else can_use(g, p)})
        return {
            "id": row.id, "name": row.name, "ruleset": row.ruleset,
            "ruleset_version": row.ruleset_version, "title_ru": g.rules.title_ru,
            "title_en": g.rules.title_en, "phase": st.phase, "number": st.number,
            "label": label, "over": st.over, "winners": list(st.winners),
            "deadline": row.deadline if row.deadline_phase == label and not st.over else None,
            "players": players, "not_acted": [] if st.over else not_acted(g),
            "not_voted": [] if st.over or st.phase != "day" else not_voted(g),
            "votes": dict(st.votes), "counters": dict(st.counters),
            "commitment": row.commitment, "dealt": row.dealt, "lang": row.lang,
            "fmt": row.fmt, "events": len(g.events), "commands": n_cmds,
            "last_command": f"#{last.seq} {last.kind} {_args_text(last)}".strip()
            if last else None,
        }

    def set_deadline(self, game_id: int, when: str | None) -> Done:
        t = parse_time(when)

        def fn(c: _Ctx):
            c.before = {"deadline": c.row.deadline, "deadline_phase": c.row.deadline_phase}
            if c.g.state.over:
                raise HostError("Игра окончена: срок не нужен.", "The game is over.")
            label = f"{c.g.state.phase} {c.g.state.number}"
            c.row.deadline = t.isoformat() if t else None
            c.row.deadline_phase = label if t else None
            lang = c.row.lang
            return Done(game_id, _say(lang, f"Срок ({label}): {c.row.deadline or 'снят'}.",
                                      f"Deadline ({label}): {c.row.deadline or 'removed'}."))
        return self._command(game_id, "deadline", {"when": when}, fn)

    # ---- moves and votes ---------------------------------------------------------------
    def act(self, game_id: int, actor: str, ability: str, targets=(), replace: bool = False,
            lang: str | None = None, *, hints: bool = True, guard=None) -> Done:
        """Record a move; the rules' own sentence on refusal. With ``replace`` (or when the
        ruleset's ``forum.replace_moves`` allows it) a later move replaces the earlier one
        in the same slot, and the answer says so."""
        def fn(c: _Ctx):
            g = c.g
            la = lang or c.row.lang
            a = self.seat(g, actor)
            ts = [self.seat(g, t) for t in targets]
            allowed = replace or bool(g.rules.forum.get("replace_moves"))
            n0 = len(g.events)
            try:
                c.op("submit", a, ability, ts, allowed)
            except Refused as e:
                if hints and not allowed and _slot_taken(g, a, ability):
                    raise HostError(e.ru + " Заменить ход: act … --replace.",
                                    e.en + " To replace the move: act … --replace.") from None
                raise
            new = g.events[n0:]
            w = next((e for e in new if e.type == "action_withdrawn"), None)
            p = g.state.players[a]
            spec = g.rules.abilities.get(f"{p.role}.{ability}")
            title = (spec.name_ru if la == "ru" else spec.name_en) if spec else ability
            move = f"{g.display(a)} — {title} ({ability})"
            if ts:
                move += " → " + ", ".join(g.display(t) for t in ts)
            if w is not None:
                old = _find_action(g, w.data["seq"])
                was = f"{old.data['ability']} {' '.join(old.data['targets'])}".strip() \
                    if old else w.data["ability"]
                msg = _say(la, f"Ход заменён ({old.data['actor'] if old else a}: было "
                               f"«{was}»), принят новый: {move}.",
                           f"Move replaced (was '{was}'); recorded: {move}.")
            else:
                msg = _say(la, f"Ход принят: {move}.", f"Move recorded: {move}.")
            return Done(game_id, msg, data={"replaced": w is not None})
        return self._command(game_id, "act", {"actor": actor, "ability": ability,
                                              "targets": list(targets), "replace": replace},
                             fn, guard)

    def vote(self, game_id: int, voter: str, target: str, at: str | None = None,
             late: bool = False, lang: str | None = None, *, hints: bool = True,
             guard=None, source: str = "cli") -> Done:
        """A vote by the host's hand. ``at`` is when it was cast (default now); after the
        phase's deadline it is refused unless ``late`` says to count it."""
        t_at = parse_time(at) if at else None

        def fn(c: _Ctx):
            g = c.g
            la = lang or c.row.lang
            v = self.seat(g, voter)
            t = self._target(g, target)
            label = f"{g.state.phase} {g.state.number}"
            dl = parse_time(c.row.deadline) if c.row.deadline_phase == label else None
            when = t_at or datetime.now().astimezone()
            if dl is not None and not late and is_late(when, dl):
                hint = (" Засчитать всё равно: vote … --late.",
                        " To count it anyway: vote … --late.") if hints else ("", "")
                raise HostError(f"Срок голосования ({c.row.deadline}) истёк: голос не "
                                f"засчитан.{hint[0]}",
                                f"The vote deadline ({c.row.deadline}) has passed: the vote "
                                f"is not counted.{hint[1]}")
            c.op("vote", v, t)
            c.records.append({"phase": label, "voter": v, "target": t,
                              "at": t_at.isoformat() if t_at else now_iso(), "source": source,
                              "post_key": None, "status": "counted",
                              "note": "late, counted by the host" if late else ""})
            tt = {"against_all": _say(la, "против всех", "against all"),
                  "abstain": _say(la, "воздерживается", "abstains")}.get(t, g.display(t))
            return Done(game_id, _say(la, f"Голос: {g.display(v)} → {tt}.",
                                      f"Vote: {g.display(v)} → {tt}."))
        return self._command(game_id, "vote", {"voter": voter, "target": target, "at": at,
                                               "late": late}, fn, guard)

    def import_votes(self, game_id: int, text: str, since: str | None = None,
                     aliases: dict | None = None, lang: str | None = None,
                     fmt: str | None = None) -> Done:
        """Votes from a dump of forum posts (``mafiahost.forum``), by the ruleset's
        convention, in post order. Posts already imported are skipped, so a longer dump of
        the same thread can be imported again (an edited post is read again, its vote
        counting as a change). ``aliases`` maps nicknames to players. Votes after the
        phase's deadline are stored as late and not counted; every problem is reported,
        never guessed."""
        from . import forum
        posts_ = forum.parse_dump(text)
        t_since = parse_time(since)

        def fn(c: _Ctx):
            g = c.g
            la, fm = lang or c.row.lang, fmt or c.row.fmt
            if g.state.phase != "day" or g.state.over:
                raise HostError("Голоса считают днём; сейчас "
                                f"{'игра окончена' if g.state.over else 'ночь'}.",
                                "Votes are counted by day; now "
                                f"{'the game is over' if g.state.over else 'it is night'}.")
            label = f"{g.state.phase} {g.state.number}"
            dl = parse_time(c.row.deadline) if c.row.deadline_phase == label else None
            seen = {k for (k,) in c.s.execute(
                _select_keys(game_id))}
            fresh = []
            for p in posts_:
                k = post_key(p)
                if k in seen or (t_since and p.time and not is_late(p.time, t_since)):
                    continue
                seen.add(k)
                fresh.append(p)
                c.posts.append(k)
            c.nothing = not fresh
            rep = forum.find_votes(fresh, g, dl, aliases=aliases, lang=la)
            problems = list(rep.problems)
            notes = list(getattr(rep, "notes", ()))
            counted = 0
            for voter, target, post in rep.votes:
                rec = {"phase": label, "voter": voter, "target": target,
                       "at": post.time.isoformat() if post.time else None, "source": "forum",
                       "post_key": post_key(post)}
                try:
                    c.op("vote", voter, target)
                except Refused as e:
                    problems.append(_say(la, f"{voter}: {e.ru}", f"{voter}: {e.en}"))
                    c.records.append({**rec, "status": "refused", "note": e.en})
                    continue
                counted += 1
                c.records.append({**rec, "status": "counted", "note": ""})
            late_posts = [p for p in fresh if is_late(p.time, dl)]
            n_late = 0
            if late_posts:
                for voter, target, post in forum.find_votes(late_posts, g, None,
                                                            aliases=aliases, lang=la).votes:
                    n_late += 1
                    c.records.append({"phase": label, "voter": voter, "target": target,
                                      "at": post.time.isoformat() if post.time else None,
                                      "source": "forum", "post_key": post_key(post),
                                      "status": "late", "note": f"after {c.row.deadline}"})
            c.result = {"posts": len(fresh), "counted": counted, "late": n_late,
                        "problems": problems, "notes": notes}
            from .render import posts
            count = posts.vote_count_post(g, la, fm, deadline=dl)
            msg = _say(la, f"Прочитано новых сообщений: {len(fresh)}; засчитано голосов: "
                           f"{counted}; после срока: {n_late}; проблем: {len(problems)}.",
                       f"New posts read: {len(fresh)}; votes counted: {counted}; after the "
                       f"deadline: {n_late}; problems: {len(problems)}.")
            return Done(game_id, msg, count, data=dict(c.result))
        return self._command(game_id, "votes_import", {"posts": len(posts_), "since": since,
                                                       "aliases": aliases or {}}, fn)

    def vote_count(self, game_id: int, lang: str | None = None, fmt: str | None = None) -> str:
        """The live vote count post (nothing is changed)."""
        from .render import posts
        row, g = self.load(game_id)
        label = f"{g.state.phase} {g.state.number}"
        dl = parse_time(row.deadline) if row.deadline_phase == label else None
        return posts.vote_count_post(g, lang or row.lang, fmt or row.fmt, deadline=dl)

    def vote_records(self, game_id: int) -> list[dict]:
        from sqlalchemy import select
        with self.store.session() as s:
            self._row(s, game_id)
            rows = s.execute(select(VoteRecordRow, CommandRow.seq)
                             .join(CommandRow, CommandRow.id == VoteRecordRow.command_id)
                             .where(VoteRecordRow.game_id == game_id)
                             .order_by(VoteRecordRow.id))
            return [{"phase": r.phase, "voter": r.voter, "target": r.target, "at": r.at,
                     "source": r.source, "post_key": r.post_key, "status": r.status,
                     "note": r.note, "command": seq} for r, seq in rows]

    # ---- the host's other commands -----------------------------------------------------
    def mark_absent(self, game_id: int, player: str) -> Done:
        def fn(c):
            p = self.seat(c.g, player)
            c.op("absent", p)
            la = c.row.lang
            return Done(game_id, _say(la, f"{c.g.display(p)}: не отписался(ась).",
                                      f"{c.g.display(p)}: marked absent."))
        return self._command(game_id, "absent", {"player": player}, fn)

    def excuse(self, game_id: int, player: str) -> Done:
        def fn(c):
            p = self.seat(c.g, player)
            c.op("excuse", p)
            return Done(game_id, _say(c.row.lang, f"{c.g.display(p)} освобождён(а) от "
                                                  f"голосования сегодня.",
                                      f"{c.g.display(p)} is excused from today's vote."))
        return self._command(game_id, "excuse", {"player": player}, fn)

    def replace_player(self, game_id: int, seat: str, by: str) -> Done:
        """Замена: ``by`` takes over ``seat`` (a public event; the seat keeps its name in
        the log)."""
        def fn(c):
            p = self.seat(c.g, seat)
            was = c.g.display(p)
            c.op("replace_player", p, by.strip())
            return Done(game_id, _say(c.row.lang, f"Замена: {was} → {by}.",
                                      f"Replacement: {was} → {by}."))
        return self._command(game_id, "replace", {"seat": seat, "by": by}, fn)

    def remove(self, game_id: int, player: str, why: str = "") -> Done:
        """The host's override (мастерский произвол): the player leaves the game."""
        def fn(c):
            p = self.seat(c.g, player)
            c.op("remove", p, why)
            return Done(game_id, _say(c.row.lang, f"{c.g.display(p)} выведен(а) из игры "
                                                  f"ведущим.",
                                      f"{c.g.display(p)} removed by the host."))
        return self._command(game_id, "remove", {"player": player, "why": why}, fn)

    # ---- resolving ---------------------------------------------------------------------
    def resolve(self, game_id: int, preview: bool = False, lang: str | None = None,
                fmt: str | None = None) -> Done:
        """Settle the phase (night to morning, day to lynch). ``preview`` resolves a copy
        rebuilt from the events and commits nothing: the post and the host's causes."""
        from .render import posts
        if preview:
            row, g = self.load(game_id)
            la, fm = lang or row.lang, fmt or row.fmt
            n0 = len(g.events)
            evs = g.resolve()
            text = posts.phase_post(g, evs, la, fm)
            causes = [format_event(n0 + i, e) for i, e in enumerate(evs)]
            head = _say(la, "ПРЕДПРОСМОТР: ничего не записано.",
                        "PREVIEW: nothing was recorded.")
            return Done(game_id, head + "\n" + "\n".join(causes), text, evs,
                        {"preview": True})

        def fn(c: _Ctx):
            g = c.g
            la, fm = lang or c.row.lang, fmt or c.row.fmt
            label = f"{g.state.phase} {g.state.number}"
            n0 = len(g.events)
            c.op("resolve")
            evs = g.events[n0:]
            text = posts.phase_post(g, evs, la, fm)
            if g.state.over:
                text += "\n\n" + posts.final_post(g, self._reveal(c.row), la, fm)
            st = g.state
            now = "over" if st.over else f"{st.phase} {st.number}"
            return Done(game_id, _say(la, f"Фаза «{label}» завершена; сейчас: {now}.",
                                      f"Phase '{label}' resolved; now: {now}."), text)
        return self._command(game_id, "resolve", {}, fn)

    @staticmethod
    def _reveal(row: GameRow) -> dict:
        return {"seed": row.seed, "salt": row.salt, "commitment": row.commitment}

    # ---- posts, messages, cards --------------------------------------------------------
    def post(self, game_id: int, kind: str = "latest", phase: str | None = None,
             lang: str | None = None, fmt: str | None = None, force: bool = False) -> str:
        """A public post: ``latest`` (the newest: start, phase result, host's announcement,
        with the final post once the game is over), ``start``, ``votes``, ``final`` or
        the result of ``phase`` (e.g. "night 1")."""
        from .render import posts
        with self.store.session() as s:
            row = self._row(s, game_id)
            g = self._game(s, row)
            cmds = Store.commands(s, game_id)
        la, fm = lang or row.lang, fmt or row.fmt
        if kind == "start":
            return posts.start_post(g, row.commitment, la, fm)
        if kind == "votes":
            return self.vote_count(game_id, la, fm)
        if kind == "final":
            if not g.state.over and not force:
                raise HostError("Игра не окончена: итоговый пост раскрывает роли и зерно. "
                                "Если нужно всё равно: post … --final --force.",
                                "The game is not over: the final post reveals every role and "
                                "the seed. To show it anyway: post … --final --force.")
            return posts.final_post(g, self._reveal(row), la, fm)
        if kind == "phase":
            evs = _phase_result(g, cmds, phase or "")
            if evs is None:
                raise HostError(f"Фаза «{phase}» ещё не завершена или её нет; пишите так: "
                                f"\"night 1\", \"day 2\".",
                                f"Phase '{phase}' is not resolved or does not exist; write "
                                f"it like \"night 1\", \"day 2\".")
            return posts.phase_post(g, evs, la, fm)
        for cmd in reversed(cmds):
            evs = g.events[cmd.first_event:cmd.first_event + cmd.n_events]
            if cmd.kind == "new":
                return posts.start_post(g, row.commitment, la, fm)
            if not any(e.audience == "public" for e in evs):
                continue
            if cmd.kind in ("resolve", "remove", "replace", "absent"):
                text = posts.phase_post(g, evs, la, fm)
                if any(e.type == "game_over" for e in evs):
                    text += "\n\n" + posts.final_post(g, self._reveal(row), la, fm)
                return text
        return posts.start_post(g, row.commitment, la, fm)

    def private_messages(self, game_id: int, player: str | None = None,
                         phase: str | None = None, lang: str | None = None,
                         fmt: str | None = None) -> dict[str, str]:
        """Private messages due to each player (or one): by default for the latest
        resolved phase; with ``phase``, for every event of that phase."""
        from .render import posts
        with self.store.session() as s:
            row = self._row(s, game_id)
            g = self._game(s, row)
            cmds = Store.commands(s, game_id)
        la, fm = lang or row.lang, fmt or row.fmt
        if phase:
            evs = [e for e in g.events if e.phase == phase]
        else:
            cmd = next((c for c in reversed(cmds) if c.kind == "resolve"), cmds[0])
            evs = g.events[cmd.first_event:cmd.first_event + cmd.n_events]
        names = [self.seat(g, player)] if player else [p.name for p in g.state.order]
        if player:
            g.player(names[0])
        out = {}
        for n in names:
            text = posts.private_messages(g, evs, n, la, fm)
            if text:
                out[g.display(n)] = text
        return out

    def cards(self, game_id: int, player: str | None = None, lang: str | None = None,
              fmt: str | None = None) -> dict[str, str]:
        """Role cards to send at the start: role, goal, abilities, known teammates."""
        from .render import posts
        row, g = self.load(game_id)
        la, fm = lang or row.lang, fmt or row.fmt
        names = [self.seat(g, player)] if player else [p.name for p in g.state.order]
        if player:
            g.player(names[0])
        return {g.display(n): posts.role_card(g, n, la, fm) for n in names}

    # ---- undo and the log --------------------------------------------------------------
    def undo(self, game_id: int, lang: str | None = None) -> Done:
        """Revert the last command exactly: its events, its vote records and the store
        fields it changed (the deadline) go; the command stays in the log as undone."""
        try:
            with self.store.locked(game_id) as (s, row):
                cmd = Store.last_command(s, game_id)
                la = lang or row.lang
                if cmd is None or cmd.kind == "new":
                    raise HostError("Отменять нечего: после создания игры команд не было.",
                                    "Nothing to undo: no command since the game was created.")
                Store.drop_command_effects(s, cmd)
                for k, v in json.loads(cmd.before).items():
                    setattr(row, k, v)
                what = f"#{cmd.seq} {cmd.kind} {_args_text(cmd)}".strip()
                return Done(game_id, _say(la, f"Отменено: {what} (событий: {cmd.n_events}).",
                                          f"Undone: {what} ({cmd.n_events} events)."))
        except LookupError:
            with self.store.session() as s:
                raise self._no_game(s, game_id) from None

    def log(self, game_id: int, undone: bool = False) -> list[str]:
        """Every event with the command that caused it, every roll; for the host only."""
        with self.store.session() as s:
            row = self._row(s, game_id)
            g = self._game(s, row)
            cmds = Store.commands(s, game_id, live_only=not undone)
        lines = [f"game {row.id} {row.name!r} — {row.ruleset} v{row.ruleset_version}, "
                 f"commitment {row.commitment}"]
        for cmd in cmds:
            mark = "  [undone]" if cmd.undone else ""
            lines.append(f"#{cmd.seq} {cmd.at} {cmd.kind} {_args_text(cmd)}{mark}".rstrip())
            if cmd.undone:
                continue
            for i in range(cmd.first_event, cmd.first_event + cmd.n_events):
                lines.append("    " + format_event(i, g.events[i]))
            res = json.loads(cmd.result)
            for p in res.get("problems", ()):
                lines.append(f"    ! {p}")
            for p in res.get("notes", ()):
                lines.append(f"    ~ {p}")
        return lines

    # ---- the web app's credentials -----------------------------------------------------
    def web_key(self, name: str) -> str:
        """A secret shared by every web process on this database (``host``: the host's
        key; ``csrf``: signs the forms), made with ``secrets`` the first time it is asked
        for."""
        from sqlalchemy.exc import IntegrityError
        for _ in range(3):
            with self.store.session() as s:
                row = s.get(WebKeyRow, name)
                if row is not None:
                    return row.value
            try:
                with self.store.session() as s:
                    s.add(WebKeyRow(name=name, value=secrets.token_urlsafe(32),
                                    created_at=now_iso()))
            except IntegrityError:      # another process made it first: read theirs
                continue
        raise RuntimeError(f"cannot make the web key {name!r}")

    def links(self, game_id: int) -> dict[str, str]:
        """Every seat's invitation token, in seating order (made for seats without one)."""
        from sqlalchemy import select
        from sqlalchemy.exc import IntegrityError
        for _ in range(3):
            with self.store.session() as s:
                self._row(s, game_id)
                first = s.scalars(select(EventRow).where(EventRow.game_id == game_id,
                                                         EventRow.pos == 0)).first()
                seats = [n for n, _ in json.loads(first.body)["data"]["players"]]
                have = dict(s.execute(select(PlayerLinkRow.seat, PlayerLinkRow.token)
                                      .where(PlayerLinkRow.game_id == game_id)).all())
            missing = [x for x in seats if x not in have]
            if not missing:
                return {x: have[x] for x in seats}
            try:
                with self.store.session() as s:
                    for x in missing:
                        s.add(PlayerLinkRow(game_id=game_id, seat=x, token=new_token(),
                                            created_at=now_iso()))
            except IntegrityError:      # made at the same time by another request
                continue
        raise RuntimeError("cannot make the players' links")

    def reissue_link(self, game_id: int, seat: str) -> str:
        """A new token for ``seat``; the old link stops working at once (a replacement
        takes the seat, or a link was shared by mistake)."""
        self.links(game_id)
        with self.store.session() as s:
            row = s.get(PlayerLinkRow, (game_id, seat))
            if row is None:
                raise HostError(f"В игре №{game_id} нет места «{seat}».",
                                f"Game {game_id} has no seat '{seat}'.")
            row.token = new_token()
            row.created_at = now_iso()
            return row.token

    def player_link(self, token: str) -> tuple[int, str] | None:
        """``(game id, seat)`` for a player's token, or None."""
        from sqlalchemy import select
        if not token or len(token) > 64:
            return None
        with self.store.session() as s:
            r = s.execute(select(PlayerLinkRow.game_id, PlayerLinkRow.seat)
                          .where(PlayerLinkRow.token == token)).first()
        return (r[0], r[1]) if r else None

    @staticmethod
    def link_check(token: str, game_id: int, seat: str):
        """A ``check``/``guard`` that refuses (``AccessDenied``) unless ``token`` is still
        the link of ``seat`` in ``game_id``, read inside the caller's transaction."""
        def check(s, *_):
            ok = s.execute(_LINK_SEAT, {"token": token, "gid": game_id}).scalar()
            if ok != seat:
                raise AccessDenied()
        return check

    def preview(self, game_id: int, lang: str | None = None, fmt: str | None = None) -> dict:
        """What resolving now would do, without writing anything: the post, every event
        with its cause (``format_event``), each player's private messages and the phase
        after it."""
        from .render import posts
        row, g = self.load(game_id)
        la, fm = lang or row.lang, fmt or row.fmt
        n0 = len(g.events)
        evs = g.resolve()
        post = posts.phase_post(g, evs, la, fm)
        if g.state.over:
            post += "\n\n" + posts.final_post(g, self._reveal(row), la, fm)
        pms = {}
        for p in g.state.order:
            text = posts.private_messages(g, evs, p.name, la, fm)
            if text:
                pms[g.display(p.name)] = text
        st = g.state
        return {"post": post, "causes": [format_event(n0 + i, e) for i, e in enumerate(evs)],
                "events": [_event_dict_of(e) for e in evs], "pms": pms,
                "next": "over" if st.over else f"{st.phase} {st.number}",
                "winners": list(st.winners)}

    # ---- export, import, verify --------------------------------------------------------
    def export(self, game_id: int) -> dict:
        """The whole game as one JSON-able dict (seed included: keep it private until the
        game is over)."""
        from sqlalchemy import select
        with self.store.session() as s:
            row = self._row(s, game_id)
            cmds = Store.commands(s, game_id)
            evrows = list(s.execute(select(EventRow.pos, EventRow.type, EventRow.phase,
                                           EventRow.body).where(EventRow.game_id == game_id)
                                    .order_by(EventRow.pos)))
            recs = self.vote_records(game_id)
            keys = [[k, seq] for k, seq in s.execute(
                select(ImportedPostRow.post_key, CommandRow.seq)
                .join(CommandRow, CommandRow.id == ImportedPostRow.command_id)
                .where(ImportedPostRow.game_id == game_id))]
        out_cmds = []
        for c in cmds:
            evs = [_event_dict(t, p, b) for pos, t, p, b in evrows
                   if c.first_event <= pos < c.first_event + c.n_events]
            out_cmds.append({"seq": c.seq, "kind": c.kind, "at": c.at,
                             "args": json.loads(c.args), "ops": json.loads(c.ops),
                             "before": json.loads(c.before), "result": json.loads(c.result),
                             "events": evs})
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "name": row.name,
                "ruleset": row.ruleset, "ruleset_version": row.ruleset_version,
                "options": json.loads(row.options), "seed": row.seed, "salt": row.salt,
                "commitment": row.commitment, "dealt": row.dealt, "lang": row.lang,
                "fmt": row.fmt, "deadline": row.deadline, "deadline_phase": row.deadline_phase,
                "created_at": row.created_at, "commands": out_cmds, "vote_records": recs,
                "imported_posts": keys}

    def import_game(self, data: dict, name: str | None = None) -> Done:
        """Store an exported game as a new game, after checking it runs again to the same
        events (``verify``)."""
        rep = verify(data)
        if not rep.ok:
            raise HostError("Файл не прошёл проверку: " + "; ".join(rep.problems),
                            "The file does not verify: " + "; ".join(rep.problems))
        with self.store.session() as s:
            now = now_iso()
            row = GameRow(name=data.get("name", "") if name is None else name,
                          ruleset=data["ruleset"], ruleset_version=data["ruleset_version"],
                          options=json.dumps(data.get("options") or {}, ensure_ascii=False),
                          seed=data["seed"], salt=data["salt"], commitment=data["commitment"],
                          dealt=data["dealt"], lang=data.get("lang", "ru"),
                          fmt=data.get("fmt", "plain"), deadline=data.get("deadline"),
                          deadline_phase=data.get("deadline_phase"), rev=0,
                          created_at=data.get("created_at") or now, updated_at=now)
            s.add(row)
            s.flush()
            pos = 0
            by_seq = {}
            for c in data["commands"]:
                evs = [_event_from_dict(d) for d in c["events"]]
                cmd = Store.add_command(s, row.id, c["kind"], c["args"], c["ops"], pos, evs,
                                        c.get("before"), c.get("result"))
                cmd.at = c.get("at") or now
                by_seq[c["seq"]] = cmd
                pos += len(evs)
            s.flush()
            for r in data.get("vote_records", ()):
                cmd = by_seq.get(r.get("command"))
                if cmd is not None:
                    s.add(VoteRecordRow(game_id=row.id, command_id=cmd.id,
                                        **{k: r.get(k) for k in ("phase", "voter", "target",
                                                                 "at", "source", "post_key",
                                                                 "status", "note")}))
            for k, seq in data.get("imported_posts", ()):
                if seq in by_seq:
                    s.add(ImportedPostRow(game_id=row.id, post_key=k,
                                          command_id=by_seq[seq].id))
            gid = row.id
        return Done(gid, f"Игра импортирована как №{gid}. / Game imported as {gid}.")


# ---- verification ----------------------------------------------------------------------------

@dataclass
class VerifyReport:
    problems: list[str]
    notes: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(data: dict) -> VerifyReport:
    """Check an exported game: the seed matches the commitment, the deal follows from the
    seed, every command run again from the seed gives exactly the stored events, and every
    roll is the one the seed gives (``verify_rolls``)."""
    problems: list[str] = []
    notes: list[str] = []
    if data.get("format") != FORMAT:
        return VerifyReport([f"not a {FORMAT} file (format: {data.get('format')!r})"], [])
    seed, salt = data.get("seed"), data.get("salt")
    if commitment(seed, salt) != data.get("commitment"):
        problems.append("the seed and salt do not match the published commitment")
    else:
        notes.append(f"commitment {data['commitment']} matches seed {seed} and salt {salt}")
    try:
        rules = load(data["ruleset"], data.get("options") or None)
    except RulesetError as e:
        return VerifyReport(problems + [str(e)], notes)
    if rules.version != data.get("ruleset_version"):
        problems.append(f"the game was played under {data['ruleset']} version "
                        f"{data.get('ruleset_version')}, this installation has version "
                        f"{rules.version}")
    cmds = data.get("commands") or []
    if not cmds or cmds[0]["kind"] != "new":
        return VerifyReport(problems + ["the file has no 'new' command"], notes)
    stored = [_event_from_dict(d) for c in cmds for d in c["events"]]
    seating = [tuple(x) for x in cmds[0]["ops"][0][1]]
    names = [n for n, _ in seating]
    if data.get("dealt"):
        again = deal(rules, names, seed, cmds[0]["args"].get("mafia"))
        if again != seating:
            problems.append("the roles are not the deal the seed gives")
        else:
            notes.append(f"deal re-made from the seed: {len(names)} roles match")
    else:
        notes.append("roles were assigned by the host (not dealt from the seed)")
    try:
        g = Game(rules, seating, seed)
        n_cmd = 0
        for c in cmds[1:]:
            for op in c["ops"]:
                apply_op(g, op)
            n_cmd += 1
    except (Refused, ValueError, KeyError) as e:
        problems.append(f"command #{c['seq']} ({c['kind']}) cannot be run again: {e}")
        return VerifyReport(problems, notes)
    got = [normalize_event(e) for e in g.events]
    if len(got) != len(stored):
        problems.append(f"running the commands again gives {len(got)} events, the file has "
                        f"{len(stored)}")
    for i, (a, b) in enumerate(zip(got, stored, strict=False)):
        if _event_dict_of(a) != _event_dict_of(b):
            problems.append(f"event {i} differs: the file has {_event_dict_of(b)}, running "
                            f"again gives {_event_dict_of(a)}")
            break
    else:
        if len(got) == len(stored):
            notes.append(f"{n_cmd} commands run again: all {len(got)} events identical")
    rolls = [e.data for e in stored if e.type == "roll"]
    for p in verify_rolls(seed, rolls):
        (notes if "forced by the host" in p else problems).append(p)
    notes.append(f"{len(rolls)} dice rolls checked against the seed")
    return VerifyReport(problems, notes)


# ---- helpers ---------------------------------------------------------------------------------

def _assigned(players: list[str], roles) -> list[tuple[str, str]]:
    if isinstance(roles, dict):
        missing = [p for p in players if p not in roles]
        extra = [r for r in roles if r not in players]
        if missing or extra:
            raise HostError(
                f"Роли назначены не всем: нет роли у {', '.join(missing) or '—'}; "
                f"лишние имена: {', '.join(extra) or '—'}.",
                f"Roles do not match the players: no role for {', '.join(missing) or '-'}; "
                f"unknown names: {', '.join(extra) or '-'}.")
        return [(p, roles[p]) for p in players]
    roles = list(roles)
    if len(roles) != len(players):
        raise HostError(f"Ролей {len(roles)}, а игроков {len(players)}: нужно поровну.",
                        f"{len(roles)} roles for {len(players)} players: they must match.")
    return list(zip(players, roles, strict=True))


def parse_roles(text: str, players: list[str]):
    """``--roles`` text: "Анна=commissar,Борис=boss,..." or "commissar,boss,..." in
    seating order."""
    items = [x.strip() for x in text.split(",") if x.strip()]
    if items and all("=" in x for x in items):
        return {k.strip(): v.strip() for k, v in (x.split("=", 1) for x in items)}
    return items


def can_use(g: Game, p) -> list[str]:
    """The abilities ``p`` may still use this phase (targets aside)."""
    return [{"id": ab.id, "targets": ab.targets, "name_ru": ab.name_ru, "name_en": ab.name_en}
            for ab in g.rules.by_phase[p.role].get(g.state.phase, ())
            if (p.alive or ab.while_dead) and g.why_not_actor(p, ab) is None]


def not_acted(g: Game) -> list[str]:
    """Players who may still send a move this phase."""
    st = g.state
    out = []
    for p in st.order:
        for ab in g.rules.by_phase[p.role].get(st.phase, ()):
            if (p.alive or ab.while_dead) and g.why_not_actor(p, ab) is None:
                out.append(g.display(p.name))
                break
    return out


def not_voted(g: Game) -> list[str]:
    from .engine.day import vote_loss
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


def _phase_result(g: Game, cmds: list[CommandRow], label: str) -> list[Event] | None:
    """The events of the resolution of phase ``label`` ("night 1"), or None."""
    for cmd in cmds:
        if cmd.kind != "resolve" or not cmd.n_events:
            continue
        if g.events[cmd.first_event].phase == label.strip():
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
    return select(ImportedPostRow.post_key).where(ImportedPostRow.game_id == game_id)


def _test_pause(kind: str) -> None:
    if os.environ.get(PAUSE_ENV) != kind:
        return
    path = os.environ.get(PAUSE_ENV + "_FILE")
    if path:
        with open(path, "w") as f:
            f.write(str(os.getpid()))
    time.sleep(float(os.environ.get(PAUSE_ENV + "_SECONDS", "60")))


def event_list(g: Game) -> list[dict]:
    """A game's events as plain dicts (what tests compare event by event)."""
    return [_event_dict_of(e) for e in g.events]


__all__ = ["AccessDenied", "Done", "GameCache", "Host", "HostError", "NoGame", "VerifyReport",
           "apply_op", "commitment", "event_list", "format_event", "new_seed", "new_token",
           "not_acted", "not_voted", "parse_roles", "parse_time", "post_key", "verify"]
