"""Votes: by the host's hand, imported from a forum thread, counted."""

from __future__ import annotations

from datetime import datetime

from ..engine.errors import Refused
from ..names import NameRefused, Roster, special, validate_names
from ..store import now_iso
from .core import (
    Done,
    HostBase,
    HostError,
    _Ctx,
    _say,
    _select_keys,
    is_late,
    parse_time,
    post_key,
)


def _vote_settings(session, game_id: int) -> tuple[list[str], dict]:
    """The host's forum nicks and the aliases kept for the game (``votes host``,
    ``votes alias``; undone commands do not count)."""
    import json

    from sqlalchemy import select

    from ..store.models import CommandRow
    hosts: list[str] = []
    aliases: dict = {}
    for kind, args in session.execute(
            select(CommandRow.kind, CommandRow.args).where(
                CommandRow.game_id == game_id, CommandRow.undone.is_(False),
                CommandRow.kind.in_(("votes_host", "votes_alias")))
            .order_by(CommandRow.seq)):
        a = json.loads(args or "{}")
        if kind == "votes_host":
            hosts.append(a["nick"])
        else:
            aliases[a["nick"]] = a["player"]
    return hosts, aliases


def _fix_target(g, target: str):
    """A fix's target: a seat (read by the name matcher, never guessed), «против всех»,
    abstain, or None for «нет»/none (the post is no vote)."""
    t = target.strip()
    if t.casefold() in ("нет", "none", "-", "никто", "no", "снять", "withdraw", "unvote"):
        return None
    sp = special(t)
    if sp is not None:
        return sp
    m = Roster.of_game(g).target(t)
    if m.seat is None:
        who = ", ".join(g.display(x) for x in m.candidates)
        raise HostError(f"«{t}» — не однозначное имя игрока" + (f" (подходят: {who})" if who
                                                                   else "") +
                        "; напишите имя точно, «против всех», abstain или «нет».",
                        f"'{t}' is not one player's name" + (f" (it fits {who})" if who
                                                             else "") +
                        "; write the name exactly, против всех, abstain or none.")
    return m.seat


def _lenient_target(g, target: str, notes: list) -> str:
    """A vote's target typed by the host that is no exact name: read as a move's target is
    (declension, short forms, a close spelling; ``notes`` gets how it was read), else
    refused with the players and the closest name."""
    from .moves import _closest_seat, _read_name
    seat = _read_name(g, Roster.of_game(g), target, notes)
    if seat in g.state.players:
        return seat
    names = ", ".join(g.display(p.name) for p in g.state.order if p.alive)
    near = _closest_seat(g, target)
    raise HostError(f"Игрока «{target}» нет в игре; в игре: {names}; можно и «против всех»."
                    + (f" Может быть, {near}?" if near else ""),
                    f"There is no player '{target}'; in the game: {names}; or against all."
                    + (f" Did you mean {near}?" if near else ""))


class VoteCommands(HostBase):
    """Votes."""

    def vote(self, game_id: int, voter: str, target: str, at: str | None = None,
             late: bool = False, lang: str | None = None, *, hints: bool = True,
             guard=None, source: str = "cli", bot_after: int | None = None) -> Done:
        """A vote by the host's hand. ``at`` is when it was cast (default now); after the
        phase's deadline it is refused unless ``late`` says to count it. ``bot_after``: a
        bot's vote, sent after command number ``bot_after`` opened the phase."""
        t_at = parse_time(at) if at else None

        def fn(c: _Ctx):
            g = c.g
            la = lang or c.row.lang
            v = self.seat(g, voter)
            notes: list[tuple[str, str]] = []
            t = self._target(g, target)
            if t not in g.state.players and t not in ("against_all", "abstain"):
                t = _lenient_target(g, target, notes)   # «Дашу» → Даша, told in a note
            label = f"{g.state.phase} {g.state.number}"
            dl = parse_time(c.row.deadline) if c.row.deadline_phase == label else None
            when = t_at or datetime.now().astimezone()
            if dl is not None and not late and is_late(when, dl):
                hint = (" Засчитать всё равно: vote … --late.",
                        " To count it anyway: vote … --late.") if hints else ("", "")
                from .deadlines import local_words
                raise HostError(f"Срок голосования (до {local_words(dl, 'ru')}) истёк: голос "
                                f"не засчитан.{hint[0]}",
                                f"The vote deadline ({local_words(dl, 'en')}) has passed: "
                                f"the vote is not counted.{hint[1]}")
            c.op("vote", v, t)
            c.records.append({"phase": label, "voter": v, "target": t,
                              "at": t_at.isoformat() if t_at else now_iso(), "source": source,
                              "post_key": None, "status": "counted",
                              "note": "late, counted by the host" if late else ""})
            tt = {"against_all": ("против всех", "against all"),
                  "abstain": ("воздерживается", "abstains")}.get(t, (g.display(t),) * 2)
            said = {"ru": f"Голос: {g.display(v)} → {tt[0]}.",
                    "en": f"Vote: {g.display(v)} → {tt[1]}."}
            for ru, en in notes:
                said["ru"] += " " + ru
                said["en"] += " " + en
            return Done(game_id, _say(la, said["ru"], said["en"]), data={"said": said})
        args = {"voter": voter, "target": target, "at": at, "late": late}
        if bot_after is not None:
            args["bot_after"] = bot_after
        return self._command(game_id, "vote", args, fn, guard, hot=True)

    def import_votes(self, game_id: int, text: str, since: str | None = None,
                     aliases: dict | None = None, lang: str | None = None,
                     fmt: str | None = None) -> Done:
        """Votes from a dump of forum posts (``mafiahost.forum``), by the ruleset's
        convention, in post order. Posts already imported are skipped, so a longer dump of
        the same thread can be imported again and only the new posts are read. ``aliases``
        maps nicknames to players for this import (``add_alias`` keeps one for the game);
        the host's forum nick (``set_host_nick``) is never reported. Votes after the
        phase's deadline are stored as late and not counted; every post not counted and
        every reading that was not exact is reported, never guessed. ``Done.data``:
        ``counted`` (post, author, seat, target, form, how), ``skipped`` (post, author,
        reason, why), ``notes``, ``problems``."""
        from .. import forum
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
            hosts, kept = _vote_settings(c.s, game_id)
            names = {**kept, **(aliases or {})}
            seen = {k for (k,) in c.s.execute(_select_keys(game_id))}
            prior = {k.split(":", 2)[1] for k in seen if k.startswith("id:")}
            fresh = []
            for p in posts_:
                k = post_key(p)
                if k in seen or (t_since and p.time and not is_late(p.time, t_since)):
                    continue
                seen.add(k)
                fresh.append(p)
                c.posts.append(k)
            c.nothing = not fresh
            now = datetime.now().astimezone()
            rep = forum.find_votes(fresh, g, dl, aliases=names, host_nicks=hosts, lang=la,
                                   now=now, context=posts_, prior_ids=prior)
            problems = list(rep.problems)
            counted = 0
            for (voter, target, post), info in zip(rep.votes, rep.counted, strict=True):
                rec = {"phase": label, "voter": voter, "target": target or "",
                       "at": post.time.isoformat() if post.time else None, "source": "forum",
                       "post_key": post_key(post)}
                try:
                    if target is None:
                        c.op("unvote", voter)
                    else:
                        c.op("vote", voter, target)
                except Refused as e:
                    problems.append(_say(la, f"{voter}: {e.ru}", f"{voter}: {e.en}"))
                    c.records.append({**rec, "status": "refused", "note": e.en})
                    continue
                counted += 1
                c.records.append({**rec, "status": "counted",
                                  "note": "withdrawn" if target is None else info["form"]})
            n_late = 0
            for sk in rep.skipped:
                post = sk["_post"]
                status = "late" if sk["reason"] == "late" else "skipped"
                n_late += status == "late"
                c.records.append({"phase": label, "voter": sk["seat"] or sk["author"],
                                  "target": sk["target"] or "",
                                  "at": post.time.isoformat() if post.time else None,
                                  "source": "forum", "post_key": post_key(post),
                                  "status": status, "note": sk["reason"]})
            skipped = [{k: v for k, v in sk.items() if not k.startswith("_")}
                       for sk in rep.skipped]
            c.result = {"posts": len(fresh), "counted": counted, "late": n_late,
                        "problems": problems, "notes": list(rep.notes),
                        "votes": rep.counted, "skipped": skipped}
            from ..render import posts
            count = posts.vote_count_post(g, la, fm, deadline=dl)
            msg = _say(la, f"Прочитано новых сообщений: {len(fresh)}; засчитано голосов: "
                           f"{counted}; после срока: {n_late}; проблем: {len(problems)}.",
                       f"New posts read: {len(fresh)}; votes counted: {counted}; after the "
                       f"deadline: {n_late}; problems: {len(problems)}.")
            return Done(game_id, msg, count, data=dict(c.result))
        return self._command(game_id, "votes_import", {"posts": len(posts_), "since": since,
                                                       "aliases": aliases or {}}, fn)

    def set_host_nick(self, game_id: int, nick: str, lang: str | None = None) -> Done:
        """The host's own forum account(s): posts under it are the host's, never reported
        as a stranger's. Set once per game; a later call adds another."""
        nick = nick.strip()

        def fn(c: _Ctx):
            la = lang or c.row.lang
            if not nick:
                raise HostError("Укажите ник ведущего на форуме.",
                                "Give the host's forum nick.")
            roster = Roster.of_game(c.g)
            a = roster.author(nick)
            if a.seat is not None or a.how in ("former", "impostor"):
                raise HostError(f"«{nick}» — ник игрока этой игры (или похож на него); ник "
                                f"ведущего должен быть другим.",
                                f"'{nick}' is (or looks like) a player's nick in this game; "
                                f"the host's nick must be another.")
            return Done(game_id, _say(la, f"Ник ведущего на форуме: {nick}.",
                                      f"The host's forum nick: {nick}."))
        return self._command(game_id, "votes_host", {"nick": nick}, fn)

    def add_alias(self, game_id: int, nick: str, player: str,
                  lang: str | None = None) -> Done:
        """A name the host gives a player for vote import: a second forum account of the
        player (an author) or a nickname others use for him (a target)."""
        nick = nick.strip()

        def fn(c: _Ctx):
            g = c.g
            la = lang or c.row.lang
            seat = self.seat(g, player)
            if seat not in g.state.players:
                raise HostError(f"Игрока «{player}» нет в игре.",
                                f"There is no player '{player}'.")
            try:
                validate_names([nick])
            except NameRefused as e:
                raise HostError(e.ru, e.en) from None
            other = Roster.of_game(g).target(nick)
            if other.how in ("exact", "alias") and other.seat != seat:
                raise HostError(f"«{nick}» — уже имя игрока {g.display(other.seat)}.",
                                f"'{nick}' is already {g.display(other.seat)}'s name.")
            return Done(game_id, _say(la, f"Псевдоним: {nick} → {g.display(seat)}.",
                                      f"Alias: {nick} → {g.display(seat)}."))
        return self._command(game_id, "votes_alias", {"nick": nick, "player": player}, fn)

    def fix_vote(self, game_id: int, post: str, target: str,
                 lang: str | None = None) -> Done:
        """A human's reading of one imported post: ``target`` (a player, «против всех»,
        abstain, or «нет»/none: the post is no vote). When that post is its author's
        latest vote of the day, the author's vote becomes ``target`` at once, as a
        correction (no vote change is spent); when a later post of his counted, the fix is
        recorded and his current vote stays."""
        from ..store.models import VoteRecordRow
        pid = post.strip().lstrip("#№").strip()
        if pid.lower().startswith("p") and pid[1:].isdigit():
            pid = pid[1:]

        def fn(c: _Ctx):
            from sqlalchemy import select
            g = c.g
            la = lang or c.row.lang
            if g.state.phase != "day" or g.state.over:
                raise HostError("Голоса исправляют днём.", "Votes are fixed by day.")
            label = f"{g.state.phase} {g.state.number}"
            recs = list(c.s.scalars(select(VoteRecordRow).where(
                VoteRecordRow.game_id == game_id, VoteRecordRow.phase == label)
                .order_by(VoteRecordRow.id)))
            mine = [r for r in recs if r.source == "forum" and r.post_key
                    and r.post_key.split(":")[:2] == ["id", pid]]
            if not mine:
                raise HostError(f"Пост #{pid} не импортирован сегодня (votes import); "
                                f"исправить можно только прочитанный пост.",
                                f"Post #{pid} was not imported today (votes import); only "
                                f"a post that was read can be fixed.")
            rec = mine[-1]
            seat = rec.voter
            if seat not in g.state.players:
                raise HostError(f"Пост #{pid} написан не игроком («{seat}»); если это "
                                f"второй аккаунт игрока: votes alias ID «{seat}» ИГРОК, "
                                f"затем снова votes import.",
                                f"Post #{pid} was not written by a player ('{seat}'); if it "
                                f"is a player's second account: votes alias ID '{seat}' "
                                f"PLAYER, then votes import again.")
            t = _fix_target(g, target)
            when = parse_time(rec.at) if rec.at else None
            later = [r for r in recs if r.voter == seat and r.status == "counted"
                     and r.post_key != rec.post_key and r.at and when is not None
                     and is_late(parse_time(r.at), when)]
            record = {"phase": label, "voter": seat, "target": t or "", "at": rec.at,
                      "source": "fix", "post_key": rec.post_key, "status": "counted",
                      "note": f"fix of post #{pid}"}
            shown = {"against_all": _say(la, "против всех", "against all"),
                     "abstain": _say(la, "воздерживается", "abstains"),
                     None: _say(la, "нет голоса", "no vote")}.get(t) or g.display(t)
            if later:
                c.records.append({**record, "status": "fixed",
                                  "note": f"fix of post #{pid}; a later post counts"})
                return Done(game_id, _say(
                    la, f"Пост #{pid} прочитан как: {shown}; но у игрока {g.display(seat)} "
                        f"есть более поздний голос — он и действует.",
                    f"Post #{pid} read as: {shown}; {g.display(seat)} has a later vote, "
                    f"which stands."))
            if t is None:
                if seat in g.state.votes:
                    c.op("unvote", seat, True)
            elif g.state.votes.get(seat) != t:
                c.op("vote", seat, t, True)
            c.records.append(record)
            return Done(game_id, _say(la, f"Пост #{pid} прочитан как: {shown} "
                                          f"({g.display(seat)}).",
                                      f"Post #{pid} read as: {shown} ({g.display(seat)})."))
        return self._command(game_id, "votes_fix", {"post": post, "target": target}, fn)

    def current_votes(self, game_id: int) -> dict:
        """Every living seat's vote now: a seat, ``against_all``, ``abstain`` or None."""
        _row, g = self.load(game_id)
        return {p.name: g.state.votes.get(p.name) for p in g.state.order if p.alive}

    def vote_count(self, game_id: int, lang: str | None = None, fmt: str | None = None) -> str:
        """The live vote count post (nothing is changed)."""
        from ..render import posts
        row, g = self.load(game_id)
        label = f"{g.state.phase} {g.state.number}"
        dl = parse_time(row.deadline) if row.deadline_phase == label else None
        return posts.vote_count_post(g, lang or row.lang, fmt or row.fmt, deadline=dl)

    def vote_records(self, game_id: int) -> list[dict]:
        from sqlalchemy import select

        from ..store.models import CommandRow, VoteRecordRow
        with self.store.session() as s:
            self._row(s, game_id)
            rows = s.execute(select(VoteRecordRow, CommandRow.seq)
                             .join(CommandRow, CommandRow.id == VoteRecordRow.command_id)
                             .where(VoteRecordRow.game_id == game_id)
                             .order_by(VoteRecordRow.id))
            return [{"phase": r.phase, "voter": r.voter, "target": r.target, "at": r.at,
                     "source": r.source, "post_key": r.post_key, "status": r.status,
                     "note": r.note, "command": seq} for r, seq in rows]

