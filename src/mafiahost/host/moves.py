"""Night (and day) moves sent to the host."""

from __future__ import annotations

from ..engine.errors import Refused
from ..names import Roster
from .ability_words import ability_id
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
            lang: str | None = None, *, hints: bool = True, guard=None,
            bot_after: int | None = None) -> Done:
        """Record a move; the rules' own sentence on refusal. With ``replace`` (or when the
        ruleset's ``forum.replace_moves`` allows it) a later move replaces the earlier one
        in the same slot, and the answer says so. ``bot_after``: a bot's move, sent after
        command number ``bot_after`` opened the phase (``undo`` reverts them together)."""
        def fn(c: _Ctx):
            g = c.g
            la = lang or c.row.lang
            roster = Roster.of_game(g)
            notes: list[tuple[str, str]] = []          # (ru, en)
            a = _read_name(g, roster, actor, notes)
            g.player(a)
            ab_id = ability_id(g, a, ability)
            own = g.rules.abilities.get(f"{g.state.players[a].role}.{ab_id}")
            if own is not None and own.names_role and targets:
                # a role-naming move: the last word is the role (the engine reads it)
                ts = [_read_name(g, roster, t, notes) for t in targets[:-1]] \
                    + [targets[-1]]
            else:
                ts = [_read_name(g, roster, t, notes) for t in targets]
            allowed = replace or bool(g.rules.forum.get("replace_moves"))
            n0 = len(g.events)
            try:
                c.op("submit", a, ab_id, ts, allowed)
            except Refused as e:
                names = ts[:-1] if own is not None and own.names_role else ts
                unknown = [t for t in names if t not in g.state.players]
                if unknown:               # --replace cannot help: say whom it may mean
                    near = _closest_seat(g, unknown[0])
                    if near:
                        raise HostError(e.ru + f" Может быть, {near}?",
                                        e.en + f" Did you mean {near}?") from None
                    raise
                if hints and not allowed and _slot_taken(g, a, ab_id):
                    raise HostError(e.ru + " Заменить ход: act … --replace.",
                                    e.en + " To replace the move: act … --replace.") from None
                raise
            new = g.events[n0:]
            w = next((e for e in new if e.type == "action_withdrawn"), None)
            p = g.state.players[a]
            move = {x: _move_words(g, f"{p.role}.{ab_id}", ab_id, a, ts, x)
                    for x in ("ru", "en")}
            if w is not None:
                old = _find_action(g, w.data["seq"])
                who = g.display(old.data["actor"]) if old else g.display(a)
                was = {x: _move_words(g, old.data.get("key", ""), old.data["ability"],
                                      old.data["actor"], old.data["targets"], x)
                       if old else who for x in ("ru", "en")}
                said = {"ru": f"Ход заменён ({who}: было «{was['ru']}»), принят новый: "
                              f"{move['ru']}.",
                        "en": f"Move replaced (was '{was['en']}'); recorded: {move['en']}."}
            else:
                said = {"ru": f"Ход принят: {move['ru']}.", "en": f"Move recorded: {move['en']}."}
            for ru, en in notes:
                said["ru"] += " " + ru
                said["en"] += " " + en
            return Done(game_id, _say(la, said["ru"], said["en"]),
                        data={"replaced": w is not None,
                              "notes": [_say(la, ru, en) for ru, en in notes],
                              "said": said})
        args = {"actor": actor, "ability": ability, "targets": list(targets),
                "replace": replace}
        if bot_after is not None:
            args["bot_after"] = bot_after
        return self._command(game_id, "act", args, fn, guard, hot=True)


def _move_words(g, key: str, ab_id: str, actor: str, targets, lang: str) -> str:
    """«Вера — Лечение → Анна»: a move in words (the ability's name, never its id)."""
    spec = g.rules.abilities.get(key)
    title = (spec.name_ru if lang == "ru" else spec.name_en) if spec else ab_id
    move = f"{g.display(actor)} — {title}"
    if targets:
        shown = [g.display(t) for t in targets]
        if spec is not None and spec.names_role:     # the last target names a role
            try:
                r = g.rules.roles[g.role_named(spec, targets[-1])]
                shown[-1] = r.name_ru if lang == "ru" else r.name_en
            except Exception:  # noqa: BLE001 - an unreadable role: shown as typed
                pass
        move += " → " + ", ".join(shown)
    return move


def _closest_seat(g, text: str) -> str:
    """The player whose name is closest to a name that fits nobody (rapidfuzz, at least
    60% alike), as shown; "" when none is that close."""
    from rapidfuzz import fuzz, process

    from ..names import fold
    shown = {p.name: g.display(p.name) for p in g.state.order}
    hit = process.extractOne(fold(text), {k: fold(v) for k, v in shown.items()},
                             scorer=fuzz.ratio, score_cutoff=60)
    return shown[hit[2]] if hit else ""


def _read_name(g, roster: Roster, text: str, notes: list[tuple[str, str]]) -> str:
    """The seat a typed name means (``names.Roster.target``: case, ё/е, declension, short
    forms, a close spelling); a reading that is not exact is told in ``notes``; two
    players who fit are refused; a name that fits nobody is left for the engine's
    sentence (which lists the players). ``notes`` gets (ru, en)."""
    m = roster.target(text)
    if m.how in ("ambiguous", "several"):
        who = ", ".join(g.display(c) for c in m.candidates)
        raise HostError(f"«{text}» подходит нескольким игрокам: {who}; напишите имя точнее.",
                        f"'{text}' fits several players: {who}; write the name in full.")
    if m.seat is None:
        return text
    if not m.exact:
        notes.append((f"(«{text}» прочитано как {g.display(m.seat)}.)",
                      f"('{text}' read as {g.display(m.seat)}.)"))
    return m.seat
