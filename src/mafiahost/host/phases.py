"""Resolving a phase and everything the host pastes or sends: posts, private
messages, role cards, the preview, undo and the host's log."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..store import Store
from .core import (
    Done,
    HostBase,
    HostError,
    _args_text,
    _Ctx,
    _event_dict_of,
    _phase_result,
    _say,
    format_event,
    phase_id,
)

if TYPE_CHECKING:
    from ..store.models import GameRow


class PhaseCommands(HostBase):
    """Resolve, posts, preview, undo, log."""

    # ---- resolving ---------------------------------------------------------------------
    def resolve(self, game_id: int, preview: bool = False, lang: str | None = None,
                fmt: str | None = None) -> Done:
        """Settle the phase (night to morning, day to lynch). ``preview`` resolves a copy
        rebuilt from the events and commits nothing: the warnings, what will happen in
        sentences (the host's log of the outcome) and the post."""
        from ..render import posts
        if preview:
            row, g, la, fm, warn, evs, text = self._dry_resolve(game_id, lang, fmt)
            head = [_say(la, "ПРЕДПРОСМОТР: ничего не записано.",
                         "PREVIEW: nothing was recorded.")]
            head += ["! " + x for x in warn]
            head += [_say(la, "Что произойдёт:", "What will happen:")]
            head += ["  " + x for x in posts.log_sentences(g, evs, la, "plain")]
            head.append(_say(la, f"Дальше: {_phase_words(g, la)}.",
                             f"Next: {_phase_words(g, la)}."))
            return Done(game_id, "\n".join(head), text, evs,
                        {"preview": True, "warnings": warn})

        def fn(c: _Ctx):
            g = c.g
            la, fm = lang or c.row.lang, fmt or c.row.fmt
            label = _phase_words(g, la)
            warn = warnings(g, c.row, la)
            old_label = f"{g.state.phase} {g.state.number}"
            n0 = len(g.events)
            c.op("resolve")
            evs = g.events[n0:]
            nxt, why = self._scheduled(c.s, c.row, old_label, g, la)
            if nxt is not None:           # undo puts the old deadline back
                c.before = {"deadline": c.row.deadline, "deadline_phase": c.row.deadline_phase}
                c.row.deadline = nxt.isoformat()
                c.row.deadline_phase = f"{g.state.phase} {g.state.number}"
                warn += why
            text = posts.phase_post(g, evs, la, fm, deadline=_deadline_for(c.row, g))
            if g.state.over:
                text += "\n\n" + posts.final_post(g, self._reveal(c.row), la, fm)
            now = _phase_words(g, la)
            msg = _say(la, f"{label}: итоги подведены; сейчас: {now}.",
                       f"{label} resolved; now: {now}.") if not g.state.over else \
                _say(la, f"{label}: итоги подведены; игра окончена. К итоговому посту приложите "
                         f"файл игры: mafiahost export {game_id} -o game-{game_id}.json.",
                     f"{label} resolved; the game is over. Attach the game's file to the final "
                     f"post: mafiahost export {game_id} -o game-{game_id}.json.")
            if warn:
                msg = "\n".join(["! " + x for x in warn] + [msg])
            return Done(game_id, msg, text, data={"warnings": warn})
        done = self._command(game_id, "resolve", {}, fn)
        return self._with_bots(done, lang)         # the new phase's bot moves (host/bots.py)

    def _scheduled(self, s, row, old_label: str, g, lang: str):
        """The deadline the game's schedule gives the phase ``g`` is in now (just
        resolved from ``old_label``): counted from the old phase's deadline, or from now
        when there was none or the result would already have passed (said in a warning)."""
        from datetime import datetime

        from ..render.posts import deadline_words
        from . import deadlines
        if g.state.over:
            return None, []
        rule = self.schedule_of(s, row, g).get(g.state.phase)
        if not rule:
            return None, []
        z = self.game_zone(s, row.id)      # the owner's zone, else the default
        now = deadlines.now(z)
        start = None
        if row.deadline and row.deadline_phase == old_label:
            try:
                start = datetime.fromisoformat(row.deadline)
            except ValueError:
                start = None
            if start is not None and start.tzinfo is None:
                start = start.replace(tzinfo=z)
        t = deadlines.next_deadline(rule, start or now, z)
        if t > now:
            return t, []
        late = t
        t = deadlines.next_deadline(rule, now, z)
        return t, [_say(lang, f"По расписанию срок вышел бы «до {deadline_words(late, 'ru')}», "
                              f"а это время уже прошло: срок считается от сейчас — до "
                              f"{deadline_words(t, 'ru')}.",
                        f"By the schedule the deadline would be {deadline_words(late, 'en')}, "
                        f"which has passed: it is counted from now — "
                        f"{deadline_words(t, 'en')}.")]

    @staticmethod
    def _reveal(row: GameRow) -> dict:
        """What the final post reveals: the seed, the salt, the commitment, and where the
        whole game is for anyone to verify: the public page of ``serve`` for a finished game
        when ``MAFIAHOST_PUBLIC_URL`` is known (``serve --public-url`` sets it), else the
        file to attach."""
        import os
        base = (os.environ.get("MAFIAHOST_PUBLIC_URL") or "").rstrip("/")
        where = f"{base}/games/{row.id}/export.json" if base else f"#file:{row.id}"
        return {"seed": row.seed, "salt": row.salt, "commitment": row.commitment,
                "export": where, "name": row.name}

    # ---- posts, messages, cards --------------------------------------------------------
    def post(self, game_id: int, kind: str = "latest", phase: str | None = None,
             lang: str | None = None, fmt: str | None = None, force: bool = False) -> str:
        """A public post: ``latest`` (the newest: start, phase result, host's announcement,
        with the final post once the game is over), ``start``, ``votes``, ``final`` or
        the result of ``phase`` (e.g. "night 1")."""
        from ..render import posts
        with self.store.session() as s:
            row = self._row(s, game_id)
            g = self._game(s, row)
            cmds = Store.commands(s, game_id)
        la, fm = lang or row.lang, fmt or row.fmt
        if kind == "start":
            return posts.start_post(g, row.commitment, la, fm, row.name,
                                    deadline=_deadline_for(row, g))
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
                                f"«ночь 1», «день 2».",
                                f"Phase '{phase}' is not resolved or does not exist; write "
                                f"it like 'night 1', 'day 2'.")
            return posts.phase_post(g, evs, la, fm)
        for cmd in reversed(cmds):
            evs = g.events[cmd.first_event:cmd.first_event + cmd.n_events]
            if cmd.kind == "new":
                return posts.start_post(g, row.commitment, la, fm, row.name,
                                    deadline=_deadline_for(row, g))
            if not any(e.audience == "public" for e in evs):
                continue
            if cmd.kind in ("resolve", "remove", "replace", "absent"):
                text = posts.phase_post(g, evs, la, fm, deadline=_deadline_for(row, g))
                if any(e.type == "game_over" for e in evs):
                    text += "\n\n" + posts.final_post(g, self._reveal(row), la, fm)
                return text
        return posts.start_post(g, row.commitment, la, fm, row.name,
                                    deadline=_deadline_for(row, g))

    def private_messages(self, game_id: int, player: str | None = None,
                         phase: str | None = None, lang: str | None = None,
                         fmt: str | None = None) -> dict[str, str]:
        """Private messages due to each player (or one): by default for the latest
        resolved phase; with ``phase``, for every event of that phase."""
        from ..render import posts
        with self.store.session() as s:
            row = self._row(s, game_id)
            g = self._game(s, row)
            cmds = Store.commands(s, game_id)
        la, fm = lang or row.lang, fmt or row.fmt
        if phase:
            label = phase_id(phase)
            if not any(e.phase == label for e in g.events):
                raise HostError(f"Фазы «{phase}» в игре ещё не было; пишите так: «ночь 1», "
                                f"«день 2».",
                                f"There has been no phase '{phase}' yet; write it like "
                                f"'night 1', 'day 2'.")
            evs = [e for e in g.events if e.phase == label]
        else:
            evs = _latest_messages(g, [c for c in cmds if not c.undone])
        names = [self.seat(g, player)] if player else [p.name for p in g.state.order]
        if player:
            g.player(names[0])
        out = {}
        for n in names:
            text = posts.private_messages(g, evs, n, la, fm)
            if not phase:
                text = "\n".join(x for x in (text, last_move_note(g, n, la)) if x)
            if text:
                out[g.display(n)] = text
        return out

    def cards(self, game_id: int, player: str | None = None, lang: str | None = None,
              fmt: str | None = None) -> dict[str, str]:
        """Role cards to send at the start: role, goal, abilities, known teammates."""
        from ..render import posts
        with self.store.session() as s:
            row = self._row(s, game_id)
            g = self._game(s, row)
            first = Store.commands(s, game_id)[0]
        la, fm = lang or row.lang, fmt or row.fmt
        names = [self.seat(g, player)] if player else [p.name for p in g.state.order]
        if player:
            g.player(names[0])
        # what the deal itself tells a player besides the team (the commissar knows the
        # sergeant): the card carries it, so nothing is left for a separate message
        dealt = [e for e in g.events[first.first_event:first.first_event + first.n_events]
                 if e.type != "team"]
        out = {}
        for n in names:
            card = posts.role_card(g, n, la, fm)
            told = posts.private_messages(g, dealt, n, la, fm)
            out[g.display(n)] = card + ("\n\n" + told if told else "")
        return out

    # ---- undo and the log --------------------------------------------------------------
    def undo(self, game_id: int, lang: str | None = None, dry_run: bool = False) -> Done:
        """Revert the last command exactly: its events, its vote records and the store
        fields it changed (the deadline) go; the command stays in the log as undone. The
        answer says in words what was (with ``dry_run``: would be) reverted, and what
        happens to the deadline. Bots' moves sent when a phase opened go together with the
        command that opened it (``undo_chain``): one undo, one answer naming them all."""
        if dry_run:
            with self.store.session() as s:
                row = self._row(s, game_id)
                chain = undo_chain(s, game_id)
                la = lang or row.lang
                if not chain:
                    raise _nothing_to_undo()
                g = self._game(s, row)
                what = chain_words(g, row, chain, la)
            return Done(game_id, _say(la, f"Отмена вернёт: {what}. Ничего не изменено; "
                                          f"отменить: undo {game_id}.",
                                      f"Undo would revert: {what}. Nothing changed; to do "
                                      f"it: undo {game_id}."), data={"what": what})
        try:
            with self.store.locked(game_id) as (s, row):
                chain = undo_chain(s, game_id)
                la = lang or row.lang
                if not chain:
                    raise _nothing_to_undo()
                what = chain_words(self._game(s, row), row, chain, la)
                for cmd in chain:                   # the last first
                    Store.drop_command_effects(s, cmd)
                    for k, v in json.loads(cmd.before).items():
                        setattr(row, k, v)
                return Done(game_id, _say(la, f"Отменено: {what}.", f"Undone: {what}."),
                            data={"what": what, "commands": len(chain)})
        except LookupError:
            with self.store.session() as s:
                raise self._no_game(s, game_id) from None

    def undo_preview(self, game_id: int, lang: str | None = None) -> str:
        """What ``undo`` would revert, in words ("" when nothing can be undone)."""
        try:
            return self.undo(game_id, lang, dry_run=True).data["what"]
        except HostError:
            return ""

    def log(self, game_id: int, undone: bool = False, ids: bool = False,
            lang: str | None = None) -> list[str]:
        """Every command with what it caused, every roll; for the host only. In words
        (the commands as ``undo`` names them, the events as the final post's log tells
        them); with ``ids`` the raw form: kinds, event types, audiences and fields."""
        with self.store.session() as s:
            row = self._row(s, game_id)
            g = self._game(s, row)
            cmds = Store.commands(s, game_id, live_only=not undone)
        if not ids:
            return self._log_words(row, g, cmds, lang or row.lang)
        lines = [f"game {row.id} {row.name!r} — {row.ruleset} v{row.ruleset_version}, "
                 f"commitment {row.commitment}"]
        for cmd in cmds:
            mark = "  [undone]" if cmd.undone else ""
            lines.append(f"#{cmd.seq} {cmd.at} {cmd.kind} {_args_text(cmd)}{mark}".rstrip())
            if cmd.undone:
                continue
            for i in range(cmd.first_event, cmd.first_event + cmd.n_events):
                lines.append("    " + format_event(i, g.events[i]))
            lines += _result_lines(cmd)
        return lines

    @staticmethod
    def _log_words(row, g, cmds, lang: str) -> list[str]:
        from ..render import posts
        title = g.rules.title_ru if lang == "ru" else g.rules.title_en
        name = f" «{row.name}»" if row.name else ""
        lines = [_say(lang, f"Игра №{row.id}{name} — {title}; отпечаток зерна: "
                            f"{row.commitment}",
                      f"Game {row.id}{name} — {title}; seed fingerprint: {row.commitment}")]
        for cmd in cmds:
            at = (cmd.at or "")[:16].replace("T", " ")
            if cmd.kind == "new":
                lines.append(_say(lang, f"{at} — игра создана", f"{at} — game created"))
            else:
                what = undo_words(g, row, cmd, lang) if not cmd.undone else \
                    command_words(cmd.kind, cmd.args, lang)
                mark = _say(lang, " [отменено]", " [undone]") if cmd.undone else ""
                lines.append(f"{at} — {what}{mark}")
            if cmd.undone:
                continue
            evs = g.events[cmd.first_event:cmd.first_event + cmd.n_events]
            for x in posts.log_sentences(g, evs, lang, "plain"):
                lines.append("    " + x)
            lines += _result_lines(cmd)
        return lines

    def _dry_resolve(self, game_id: int, lang: str | None, fmt: str | None):
        """Resolve a copy rebuilt from the events (nothing is written): the row, the game
        after it, language and format, the warnings, the new events and the post (with
        the final post when the game ends)."""
        from ..render import posts
        row, g = self.load(game_id)
        la, fm = lang or row.lang, fmt or row.fmt
        warn = warnings(g, row, la)
        old_label = f"{g.state.phase} {g.state.number}"
        evs = g.resolve()
        with self.store.session() as s:
            nxt, why = self._scheduled(s, row, old_label, g, la)
        warn += why
        post = posts.phase_post(g, evs, la, fm,
                                deadline=nxt if nxt is not None else _deadline_for(row, g))
        if g.state.over:
            post += "\n\n" + posts.final_post(g, self._reveal(row), la, fm)
        return row, g, la, fm, warn, evs, post

    def preview(self, game_id: int, lang: str | None = None, fmt: str | None = None) -> dict:
        """What resolving now would do, without writing anything: the warnings, the post,
        what will happen in sentences (``causes``), the events (for --json), each
        player's private messages and the phase after it."""
        from ..render import posts
        row, g, la, fm, warn, evs, post = self._dry_resolve(game_id, lang, fmt)
        pms = {}
        for p in g.state.order:
            text = posts.private_messages(g, evs, p.name, la, fm)
            text = "\n".join(x for x in (text, last_move_note(g, p.name, la)) if x)
            if text:
                pms[g.display(p.name)] = text
        st = g.state
        w = posts.Writer(g, la, "plain")
        return {"post": post, "causes": posts.log_sentences(g, evs, la, "plain"),
                "warnings": warn,
                "events": [_event_dict_of(e) for e in evs], "pms": pms,
                "next": _phase_words(g, la),
                "winners": [w.faction_name(f) for f in st.winners]}


#: What undo says it reverts, for the host's commands on one player.
_ONE_PLAYER_OPS = {
    "remove": ("вывод из игры: {}", "the removal of {}"),
    "absent": ("отметка «нет отписки»: {}", "the absence of {}"),
    "excuse": ("освобождение от голосования: {}", "the excuse of {}"),
    "gender": ("пол игрока: {}", "the gender of {}"),
    "grant": ("начисление монет за описание: {}", "the coins awarded to {}"),
}


def _phase_words(g, lang: str) -> str:
    """«Ночь 1» / "Night 1", or «игра окончена»."""
    from ..render import posts
    if g.state.over:
        return _say(lang, "игра окончена", "the game is over")
    return posts.Writer(g, lang, "plain").phase_label(f"{g.state.phase} {g.state.number}")


def _deadline_for(row, g):
    """The deadline to print under a post: the one set for the phase the game is in now."""
    if g.state.over or row.deadline_phase != f"{g.state.phase} {g.state.number}":
        return None
    return row.deadline


def warnings(g, row, lang: str) -> list[str]:
    """What would surprise a host if he resolved now, each with what it will cause:
    nobody voted where non-voters count against themselves, players with a move who
    have not sent one, a deadline that has not come yet."""
    from datetime import datetime

    from ..render import posts
    from .core import not_acted, not_voted
    st = g.state
    if st.over:
        return []
    out = []
    if st.phase == "day":
        voters = [n for n in st.votes if st.players[n].alive]
        silent = not_voted(g)
        if not voters and g.rules.day.nonvoters_against_self:
            out.append(_say(lang, "Никто не проголосовал: по правилам каждый не "
                                  "проголосовавший получает голос против себя — у всех по "
                                  "одному голосу, это ничья между всеми.",
                            "Nobody has voted: by the rules every non-voter gets a vote "
                            "against themselves — one vote each, a tie between everyone."))
        elif not voters:
            out.append(_say(lang, "Никто не проголосовал: сегодня никто не будет вынесен.",
                            "Nobody has voted: nobody will be lynched today."))
        elif silent and g.rules.day.nonvoters_against_self:
            out.append(_say(lang, f"Не проголосовали: {', '.join(silent)} — каждому из них "
                                  f"засчитается голос против себя.",
                            f"Not voted: {', '.join(silent)} — each gets a vote against "
                            f"themselves."))
        elif silent:
            out.append(_say(lang, f"Не проголосовали: {', '.join(silent)}.",
                            f"Not voted: {', '.join(silent)}."))
    idle = not_acted(g)
    if idle:
        out.append(_say(lang, f"Ещё не прислали ход: {', '.join(idle)} — их ходы в этой фазе "
                              f"пропадут.",
                        f"No move sent yet by: {', '.join(idle)} — their moves this phase "
                        f"will be lost."))
    dl = _deadline_for(row, g)
    if dl:
        try:
            t = datetime.fromisoformat(dl)
        except ValueError:
            t = None
        if t is not None:
            now = datetime.now(t.tzinfo or None) if t.tzinfo else datetime.now()
            if t > now:
                words = posts.deadline_words(t, lang)
                out.append(_say(lang, f"Срок фазы ещё не наступил (до {words}): игроки ещё "
                                      f"могут прислать ходы и голоса.",
                                f"The phase's deadline has not come yet ({words}): players "
                                f"may still send moves and votes."))
    return out


def _nothing_to_undo() -> HostError:
    return HostError("Отменять нечего: после создания игры команд не было.",
                     "Nothing to undo: no command since the game was created.")


def _bot_after(cmd) -> int | None:
    """The command a bot's move followed (``bot_after``), None for any other command."""
    if cmd.kind not in ("act", "vote", "answer"):
        return None
    try:
        return json.loads(cmd.args or "{}").get("bot_after")
    except ValueError:
        return None


def undo_chain(s, game_id: int) -> list:
    """The commands one ``undo`` reverts, the last first: the last command; when that is
    a bot's move, every bot's move sent after the same command opened the phase, and that
    command too (a resolve: the bots' moves came with it), unless it is the game's
    creation (never undone) or another command came in between. [] when nothing can be
    undone."""
    last = Store.last_command(s, game_id)
    if last is None or last.kind == "new":
        return []
    after = _bot_after(last)
    if after is None:
        return [last]
    chain = []
    for cmd in reversed(Store.commands(s, game_id)):
        if _bot_after(cmd) == after:
            chain.append(cmd)
            continue
        if cmd.seq == after and cmd.kind != "new":
            chain.append(cmd)
        break
    return chain


def chain_words(g, row, chain: list, lang: str) -> str:
    """``undo_words`` of an ``undo_chain``: the command, then the bots' moves after it."""
    bots = [c for c in reversed(chain) if _bot_after(c) is not None]
    head = [c for c in chain if _bot_after(c) is None]
    bw = "; ".join(undo_words(g, row, c, lang) for c in bots)
    if not head:
        return _say(lang, f"ходы ботов, посланные при открытии фазы: {bw} (снова боты "
                          f"сходят, когда откроется следующая фаза)",
                    f"the bots' moves sent when the phase opened: {bw} (the bots move "
                    f"again when the next phase opens)")
    main = undo_words(g, row, head[0], lang)
    if not bots:
        return main
    return _say(lang, f"{main}; вместе с ней — ходы ботов, посланные следом: {bw}",
                f"{main}; with it, the bots' moves sent after it: {bw}")


def _latest_messages(g, cmds: list) -> list:
    """The events behind the private messages due now: the last resolve's, and what came
    during the phase it closed and took effect at once (an item found by day, an
    immediate result), which no earlier ``pm`` has given; not the acknowledgements of
    moves («Ход принят»), which went out when each move was sent."""
    resolves = [i for i, c in enumerate(cmds) if c.kind == "resolve"]
    if not resolves:
        c = cmds[0]
        return g.events[c.first_event:c.first_event + c.n_events]
    last = cmds[resolves[-1]]
    prev = cmds[resolves[-2]] if len(resolves) > 1 else cmds[0]
    start = prev.first_event + prev.n_events
    during = [e for e in g.events[start:last.first_event] if e.type != "action"]
    return during + g.events[last.first_event:last.first_event + last.n_events]


def _result_lines(cmd) -> list[str]:
    """A command's stored problems (``!``) and notes (``~``), indented under it in the
    log."""
    res = json.loads(cmd.result or "{}")
    return [f"    ! {p}" for p in res.get("problems", ())] + \
        [f"    ~ {p}" for p in res.get("notes", ())]


def undo_words(g, row, cmd, lang: str) -> str:
    """A command as the host would say it («ход Анна — Убийство → Вера», «итоги фазы
    «Ночь 1»: игра вернётся в Ночь 1»), plus what happens to the deadline."""
    from ..render import posts
    w = posts.Writer(g, lang, "plain")
    ru = lang == "ru"
    ops = json.loads(cmd.ops) if isinstance(cmd.ops, str) else (cmd.ops or [])
    evs = g.events[cmd.first_event:cmd.first_event + cmd.n_events]
    parts = []
    for op in ops:
        kind = op[0]
        if kind == "submit":
            actor = op[1]
            p = g.state.players.get(actor)
            spec = g.rules.abilities.get(f"{p.role}.{op[2]}") if p else None
            if spec is None:
                spec = next((e for e in evs if e.type == "action"), None)
                name = op[2] if spec is None else w.ability_name(op[2], spec.data.get("key"))
            else:
                name = spec.name_ru if ru else spec.name_en
            t = " → " + ", ".join(g.display(x) for x in op[3]) if op[3] else ""
            parts.append(_say(lang, f"ход {g.display(actor)} — {name}{t}",
                              f"the move {g.display(actor)} — {name}{t}"))
        elif kind == "vote":
            parts.append(_say(lang, f"голос {g.display(op[1])} → {w.who(op[2])}",
                              f"the vote {g.display(op[1])} → {w.who(op[2])}"))
        elif kind == "resolve":
            ph = w.phase_label(posts._resolved_label(g, evs))
            parts.append(_say(lang, f"итоги фазы «{ph}» (игра вернётся в фазу «{ph}», все "
                                    f"её ходы и голоса снова в силе)",
                              f"the result of {ph} (the game goes back to {ph}, with all "
                              f"its moves and votes)"))
        elif kind == "answer":
            ev = next((e for e in evs if e.type == "question_answered"), None)
            said = (ev.data["said_ru"] if ru else ev.data["said_en"]) if ev else op[3]
            parts.append(_say(lang, f"ответ {g.display(op[1])} на вопрос №{op[2]}: {said}",
                              f"the answer of {g.display(op[1])} to question #{op[2]}: "
                              f"{said}"))
        elif kind == "replace_player":
            parts.append(_say(lang, f"замена {g.display(op[1])} → {op[2]}",
                              f"the replacement {op[1]} → {op[2]}"))
        elif kind in _ONE_PLAYER_OPS:
            ru, en = _ONE_PLAYER_OPS[kind]
            who = g.display(op[1])
            parts.append(_say(lang, ru.format(who), en.format(who)))
    if cmd.kind == "votes_import":
        n = sum(1 for op in ops if op[0] == "vote")
        parts = [_say(lang, f"импорт голосов из темы (голосов: {n})",
                      f"the import of votes from the thread ({n} votes)")]
    before = json.loads(cmd.before or "{}")
    if "deadline" in before:
        old = before.get("deadline")
        if cmd.kind == "deadline":
            parts = [_say(lang, "новый срок", "the new deadline")]
        if old != row.deadline:
            parts.append(_say(lang, "срок вернётся: " + (f"до {posts.deadline_words(old, lang)}"
                                                        if old else "без срока"),
                              "the deadline goes back to " + (
                                  posts.deadline_words(old, lang) if old else "none")))
    elif row.deadline and cmd.kind == "resolve":
        parts.append(_say(lang, f"срок остаётся: до {posts.deadline_words(row.deadline, lang)}",
                          f"the deadline stays: {posts.deadline_words(row.deadline, lang)}"))
    if not parts:
        parts.append(command_words(cmd.kind, cmd.args, lang))
    return "; ".join(parts)


#: every command kind the host's log can hold, in words: (Russian, English); ``{nick}``,
#: ``{player}``, ``{post}`` are filled from what the host typed
COMMAND_WORDS = {
    "new": ("создание игры", "the creation of the game"),
    "act": ("ход", "a move"),
    "vote": ("голос", "a vote"),
    "answer": ("ответ на вопрос", "an answer to a question"),
    "resolve": ("итоги фазы", "the result of a phase"),
    "deadline": ("новый срок", "the new deadline"),
    "schedule": ("расписание сроков", "the schedule of deadlines"),
    "replace": ("замена игрока", "the replacement of a player"),
    "remove": ("вывод игрока из игры", "the removal of a player"),
    "absent": ("отметка «нет отписки»", "a mark of absence"),
    "excuse": ("освобождение от голосования", "an excuse from the vote"),
    "gender": ("пол игрока", "a player's gender"),
    "grant": ("начисление монет за описание", "coins awarded for a description"),
    "votes_import": ("импорт голосов из темы", "the import of votes from the thread"),
    "votes_fix": ("исправленное прочтение поста №{post}", "the corrected reading of post "
                                                          "#{post}"),
    "votes_host": ("ник ведущего на форуме: {nick}", "the host's forum nick: {nick}"),
    "votes_alias": ("ник {nick} игрока {player}", "the nick {nick} of {player}"),
}


def command_words(kind: str, args, lang: str) -> str:
    """A command kind in words (``COMMAND_WORDS``), with what the host typed; a kind this
    version does not know (a game imported from a newer one) is «команда ведущего»."""
    try:
        a = json.loads(args) if isinstance(args, str) else dict(args or {})
    except ValueError:
        a = {}
    ru, en = COMMAND_WORDS.get(kind, ("команда ведущего", "a host's command"))
    fill = {"nick": a.get("nick", "…"), "player": a.get("player", "…"),
            "post": a.get("post", "…")}
    return _say(lang, ru.format(**fill), en.format(**fill))


def last_move_note(g, seat: str, lang: str) -> str:
    """For a player out of the game who still has a move now (the phantom of the opera
    after his lynch, a killed player's last act): the message to send him at once, with
    the targets the rules allow; "" for everyone else."""
    st = g.state
    p = st.players[seat]
    if p.alive or st.over:
        return ""
    out = []
    for ab in g.rules.by_phase[p.role].get(st.phase, ()):
        if not ab.while_dead or g.why_not_actor(p, ab) is not None:
            continue
        targets = sorted({t for aid, ts in g.legal_moves(seat) if aid == ab.id for t in ts},
                         key=lambda t: st.players[t].seat)
        name = ab.name_ru if lang == "ru" else ab.name_en
        who = ", ".join(g.display(t) for t in targets) or "—"
        out.append(_say(lang, f"Вы выбыли, но у вас остался ход «{name}»: пришлите его "
                              f"ведущему в эту фазу. Можно выбрать: {who}.",
                        f"You are out, but you still have the move '{name}': send it to the "
                        f"host this phase. You may choose: {who}."))
    return "\n".join(out)
