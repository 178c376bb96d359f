"""A question put to a player during a phase, answered by him or by default when he is silent.

Forum rules often wait for a player's word in the middle of the game: a recruit's consent,
which of two clans to join, the prisoner naming his accomplice, the apprentice choosing
his new trade. A rule set asks with ``ask``; the question is open until it is answered,
or until the phase it is due in is resolved, when its default answer is taken.

- ``ask(g, to, kind, options, default, due=None, about=None, **data)`` opens a question
  to player ``to``. ``options`` are ``(id, ru, en)``: the id is what is typed (``mafiahost
  answer ID PLAYER ID``), the words are what the player reads; ``default`` is one of the ids,
  taken if no answer came by the end of phase index ``due`` (default: the current phase).
  ``about`` names the players the question is about (shown with their names).
  ``data`` is the rule set's own (it comes back to the handler; the player never sees it).
- ``@answer_handler(kind)`` registers ``fn(g, question, answer)``, run when the answer is
  in (the player's or the default); ``question`` is the dict of the ``question_asked``
  event (``id``, ``to``, ``kind``, ``options``, ``default``, ``due``, ``about``, ``data``).
- ``Game.answer(player, id, answer)`` is the player's answer (also ``Game.submit(player,
  "answer", (id, answer))``, and ``Game.legal_moves`` lists every open answer); a bad
  answer is refused with a sentence and changes nothing.

Events (their own types, unlike a rule set's dice questions to the host):
``question_asked`` (to the player) and ``question_answered`` (to the player; ``by``:
``player`` or ``default``). The open questions are ``state.questions``, so replay is exact.
"""

from __future__ import annotations

from ..errors import Refused

ANSWER_HANDLERS: dict = {}     # kind -> fn(g, question, answer)


def answer_handler(kind: str):
    def deco(fn):
        old = ANSWER_HANDLERS.get(kind)
        if old is not None and old is not fn:
            raise ValueError(f"answer handler {kind!r} is already registered; choose another name")
        ANSWER_HANDLERS[kind] = fn
        return fn
    return deco


def ask(g, to, kind: str, options, default: str, due: int | None = None, about=(),
        variant: str | None = None, **data) -> int:
    """Open a question to ``to`` (a Player); returns its id. ``variant`` picks another
    sentence of the kind for the player (``question.<kind>_<variant>`` in the texts)."""
    if kind not in ANSWER_HANDLERS:
        raise ValueError(f"no answer handler for question kind {kind!r}")
    opts = [list(o) for o in options]
    if default not in [o[0] for o in opts]:
        raise ValueError(f"default {default!r} is not an option of {kind!r}")
    s = g.state
    qid = s.question_seq + 1
    due = s.idx if due is None else due
    g.emit("question_asked", g.to(to), id=qid, to=to.name, kind=kind, options=opts,
           default=default, due=due, due_phase=phase_label_at(g, due),
           about=[p if isinstance(p, str) else p.name for p in about], variant=variant,
           data=data)
    return qid


def phase_label_at(g, idx: int) -> str:
    """The label ("day 2") of the phase with index ``idx`` (now or later): phases
    alternate night and day."""
    s = g.state
    phase, number = s.phase, s.number
    for _ in range(max(0, idx - s.idx)):
        if phase == "night":
            phase = "day"
        else:
            phase = "night"
            number += 1
    return f"{phase} {number}"


def open_questions(g, name: str | None = None) -> list[dict]:
    """The open questions (to ``name`` only, if given), oldest first."""
    qs = sorted(g.state.questions.values(), key=lambda q: q["id"])
    return [q for q in qs if name is None or q["to"] == name]


def _fold(x: str) -> str:
    return x.strip().lower().replace("ё", "е")


def answer(g, name: str, qid, given: str) -> None:
    """The player's answer to question ``qid``; refused (nothing changes) if it is not his,
    not open, or not one of the options."""
    s = g.state
    try:
        q = s.questions.get(int(qid))
    except (TypeError, ValueError):
        q = None
    if q is None:
        mine = ", ".join(str(x["id"]) for x in open_questions(g, name)) or "нет"
        raise Refused(f"Вопроса №{qid} нет среди открытых; открытые вопросы игроку «{name}»: "
                      f"{mine}.",
                      f"There is no open question #{qid}; open questions to '{name}': "
                      f"{mine if mine != 'нет' else 'none'}.")
    if q["to"] != name:
        raise Refused(f"Вопрос №{qid} задан не игроку «{name}»: отвечает только тот, кого "
                      f"спросили.",
                      f"Question #{qid} was not put to '{name}': only the one asked answers.")
    want = _fold(str(given))
    # an answer by its number (as the private message lists them), its id or its words
    pick = next((o[0] for i, o in enumerate(q["options"], 1)
                 if want in (str(i), _fold(o[0]), _fold(o[1]), _fold(o[2]))), None)
    if pick is None:
        allowed = "; ".join(f"{i} — {o[1]}" for i, o in enumerate(q["options"], 1))
        allowed_en = "; ".join(f"{i} — {o[2]}" for i, o in enumerate(q["options"], 1))
        raise Refused(f"На вопрос №{qid} ответ «{given}» не подходит; можно: {allowed}.",
                      f"'{given}' is not an answer to question #{qid}; allowed: {allowed_en}.")
    _answered(g, q, pick, "player")


def _answered(g, q: dict, pick: str, by: str) -> None:
    said = next(o for o in q["options"] if o[0] == pick)
    g.emit("question_answered", g.to(g.state.players[q["to"]]), id=q["id"], to=q["to"],
           kind=q["kind"], answer=pick, by=by, said_ru=said[1], said_en=said[2])
    ANSWER_HANDLERS[q["kind"]](g, q, pick)


def settle_due(g) -> None:
    """Before a phase is resolved: every question due by now takes its default answer."""
    s = g.state
    for q in open_questions(g):
        if q["due"] <= s.idx and q["id"] in s.questions:
            _answered(g, q, q["default"], "default")


def answer_moves(g, name: str) -> list[tuple[str, tuple]]:
    """The answers ``name`` may send now, as legal moves ``("answer", (id, option))``."""
    return [("answer", (str(q["id"]), o[0])) for q in open_questions(g, name)
            for o in q["options"]]
