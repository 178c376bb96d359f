"""Answers to questions the rules put to a player (``engine.mechanics.questions``)."""

from __future__ import annotations

from ..engine.game import Game
from ..engine.mechanics.questions import open_questions
from .core import Done, HostBase, _Ctx, _say


def not_answered(g: Game) -> list[dict]:
    """The open questions, oldest first: ``{"id", "seat", "name", "due"}`` each."""
    return [{"id": q["id"], "seat": q["to"], "name": g.display(q["to"]),
             "due": q.get("due_phase", "")} for q in open_questions(g)]


class QuestionCommands(HostBase):
    """Answers."""

    def answer(self, game_id: int, player: str, question, answer: str,
               lang: str | None = None, guard=None) -> Done:
        """Record ``player``'s answer to question ``question``; the rules' own sentence on
        refusal (a question not his, not open, or an answer not among the options)."""
        def fn(c: _Ctx):
            g = c.g
            la = lang or c.row.lang
            seat = self.seat(g, player)
            c.op("answer", seat, str(question), str(answer))
            ev = next(e for e in reversed(g.events) if e.type == "question_answered")
            said = ev.data["said_ru"] if la == "ru" else ev.data["said_en"]
            return Done(game_id, _say(la, f"Ответ принят: {g.display(seat)}, вопрос "
                                          f"№{question} — {said}.",
                                      f"Answer recorded: {g.display(seat)}, question "
                                      f"#{question} — {said}."))
        return self._command(game_id, "answer", {"player": player, "question": str(question),
                                                 "answer": str(answer)}, fn, guard,
                             hot=True)
