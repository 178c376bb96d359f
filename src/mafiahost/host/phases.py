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
        rebuilt from the events and commits nothing: the post and the host's causes."""
        from ..render import posts
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
        done = self._command(game_id, "resolve", {}, fn)
        return self._with_bots(done, lang)         # the new phase's bot moves (host/bots.py)

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
                "export": where}

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
        """What resolving now would do, without writing anything: the post, every event
        with its cause (``format_event``), each player's private messages and the phase
        after it."""
        from ..render import posts
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

