"""Forced moves: a move a rule makes a player send, on a night to come.

Forum rules sometimes take a night's choice out of a player's hands: a card called by day
makes the doctor visit a patient or the cops cover a resident, a companion sent to
confession must be confessed by the priest the next night. A rule set calls ``force``; when
that night opens (the hook ``forced_moves``, listed under the rule set's ``night_open``
hooks), the move is recorded as the player's own move of the night, so it fills his slot
(he cannot send another move there) and is resolved at its step like any move (a blocked,
dead or jailed player does nothing, as always).

- ``force(g, actors, ability, targets, why, night_idx=None, by=None, **data)``: one of
  ``actors`` (Players, in order of preference: the first who is in the game, free, has the
  ability and may use it on ``targets`` then) makes the move ``ability`` (an ability id of
  his role) on ``targets`` on the night with phase index ``night_idx`` (default: the next
  night). ``why`` is the rule's reason (the player's message is ``move_forced.why_<why>``);
  ``by`` is the player whose call or move caused it, told if it cannot be done.
- ``forced_for(g, night_idx)`` lists the forced moves waiting for that night.

Events: ``move_forced`` (to the player who must move: ``ability``, ``targets``, ``why``),
``forced_move_failed`` (to ``by``, if any, and the host: ``why``, ``reason`` — nobody could
make it, with the refusal of the first who had the ability). The waiting moves are the game
counter ``forced_moves`` (and tonight's made ones ``forced_made``: another move in their slot
is refused with a sentence saying the rules set it), so replay is exact.
"""

from __future__ import annotations

from ..events import HOST
from . import hook

KEY = "forced_moves"
MADE = "forced_made"      # the seqs of tonight's forced moves (their refusal sentence)


def force(g, actors, ability: str, targets, why: str, night_idx: int | None = None,
          by=None, **data) -> None:
    s = g.state
    if night_idx is None:
        night_idx = s.idx + 1 if s.phase == "day" else s.idx + 2
    item = {"night_idx": night_idx, "actors": [p.name for p in actors], "ability": ability,
            "targets": [t if isinstance(t, str) else t.name for t in targets], "why": why,
            "by": by.name if by is not None else None, "data": data}
    waiting = list(s.counters.get(KEY, ()))
    waiting.append(item)
    g.emit("counter", HOST, key=KEY, value=waiting)


def forced_for(g, night_idx: int) -> list[dict]:
    return [f for f in g.state.counters.get(KEY, ()) if f["night_idx"] == night_idx]


@hook("night_open", "forced_moves")
def forced_moves(g, params) -> None:
    """The night opens: each forced move due now is recorded as its player's move."""
    s = g.state
    waiting = list(s.counters.get(KEY, ()))
    due = [f for f in waiting if f["night_idx"] <= s.idx]
    if s.counters.get(MADE):
        g.emit("counter", HOST, key=MADE, value=[])
    if not due:
        return
    g.emit("counter", HOST, key=KEY, value=[f for f in waiting if f["night_idx"] > s.idx])
    for f in due:
        if f["night_idx"] < s.idx:
            continue          # a night that never opened for it (the game paused): dropped
        _make(g, f)


def _make(g, f: dict) -> None:
    s = g.state
    ts = tuple(f["targets"])
    reason = None
    for name in f["actors"]:
        p = s.players[name]
        spec = g.rules.abilities.get(f"{p.role}.{f['ability']}")
        if not p.alive or spec is None:
            continue
        why = g.why_not(p, spec, ts)
        if why is not None:
            reason = reason or why
            continue
        g.record(p, spec, ts)
        g.emit("counter", HOST, key=MADE, value=list(s.counters.get(MADE, ())) + [s.seq])
        g.emit("move_forced", g.to(p), to=p.name, actor=p.name, ability=spec.id, targets=list(ts),
               why=f["why"], **f.get("data", {}))
        return
    reason = reason or ("Некому выполнить этот ход.", "Nobody can make this move.")
    to = (s.players[f["by"]],) if f.get("by") else ()
    g.emit("forced_move_failed", g.to(*to) if to else HOST, to=f.get("by"),
           ability=f["ability"], targets=list(ts), why=f["why"], reason_ru=reason[0],
           reason_en=reason[1])
