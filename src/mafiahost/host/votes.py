"""Votes: by the host's hand, imported from a forum thread, counted."""

from __future__ import annotations

from datetime import datetime

from ..engine.errors import Refused
from ..store import (
    CommandRow,
    VoteRecordRow,
    now_iso,
)
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


class VoteCommands(HostBase):
    """Votes."""

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
            from ..render import posts
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
        from ..render import posts
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

