"""Resolving a phase and everything the host pastes or sends: posts, private
messages, role cards, the preview, undo and the host's log."""

from __future__ import annotations

import json

from ..store import (
    GameRow,
    Store,
)
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
)


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
            row, g = self.load(game_id)
            la, fm = lang or row.lang, fmt or row.fmt
            warn = warnings(g, row, la)
            evs = g.resolve()
            text = posts.phase_post(g, evs, la, fm, deadline=_deadline_for(row, g))
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
            n0 = len(g.events)
            c.op("resolve")
            evs = g.events[n0:]
            text = posts.phase_post(g, evs, la, fm, deadline=_deadline_for(c.row, g))
            if g.state.over:
                text += "\n\n" + posts.final_post(g, self._reveal(c.row), la, fm)
            now = _phase_words(g, la)
            msg = _say(la, f"{label} завершена; сейчас: {now}.",
                       f"{label} resolved; now: {now}.") if not g.state.over else \
                _say(la, f"{label} завершена; игра окончена.",
                     f"{label} resolved; the game is over.")
            if warn:
                msg = "\n".join(["! " + x for x in warn] + [msg])
            return Done(game_id, msg, text, data={"warnings": warn})
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
        from ..render import posts
        with self.store.session() as s:
            row = self._row(s, game_id)
            g = self._game(s, row)
            cmds = Store.commands(s, game_id)
        la, fm = lang or row.lang, fmt or row.fmt
        if kind == "start":
            return posts.start_post(g, row.commitment, la, fm, row.name)
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
                return posts.start_post(g, row.commitment, la, fm, row.name)
            if not any(e.audience == "public" for e in evs):
                continue
            if cmd.kind in ("resolve", "remove", "replace", "absent"):
                text = posts.phase_post(g, evs, la, fm)
                if any(e.type == "game_over" for e in evs):
                    text += "\n\n" + posts.final_post(g, self._reveal(row), la, fm)
                return text
        return posts.start_post(g, row.commitment, la, fm, row.name)

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
        from ..render import posts
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


    def preview(self, game_id: int, lang: str | None = None, fmt: str | None = None) -> dict:
        """What resolving now would do, without writing anything: the warnings, the post,
        what will happen in sentences (``causes``), the events (for --json), each
        player's private messages and the phase after it."""
        from ..render import posts
        row, g = self.load(game_id)
        la, fm = lang or row.lang, fmt or row.fmt
        warn = warnings(g, row, la)
        evs = g.resolve()
        post = posts.phase_post(g, evs, la, fm, deadline=_deadline_for(row, g))
        if g.state.over:
            post += "\n\n" + posts.final_post(g, self._reveal(row), la, fm)
        pms = {}
        for p in g.state.order:
            text = posts.private_messages(g, evs, p.name, la, fm)
            if text:
                pms[g.display(p.name)] = text
        st = g.state
        w = posts.Writer(g, la, "plain")
        return {"post": post, "causes": posts.log_sentences(g, evs, la, "plain"),
                "warnings": warn,
                "events": [_event_dict_of(e) for e in evs], "pms": pms,
                "next": _phase_words(g, la),
                "winners": [w.faction_name(f) for f in st.winners]}


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
