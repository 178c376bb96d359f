"""Night (and day) moves sent to the host."""

from __future__ import annotations

from ..engine.errors import Refused
from .core import (
    Done,
    HostBase,
    HostError,
    _Ctx,
    _find_action,
    _say,
    _slot_taken,
)


class MoveCommands(HostBase):
    """Moves."""

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
            own = g.rules.abilities.get(f"{g.state.players[a].role}.{ability}")
            if own is not None and own.names_role and targets:
                # a role-naming move: the last word is the role (the engine reads it)
                ts = [self.seat(g, t) for t in targets[:-1]] + [targets[-1]]
            else:
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
                shown = [g.display(t) for t in ts]
                if spec is not None and spec.names_role:
                    r = g.rules.roles[g.role_named(spec, ts[-1])]
                    shown[-1] = r.name_ru if la == "ru" else r.name_en
                move += " → " + ", ".join(shown)
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
