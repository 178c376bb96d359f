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
               lang: str | None = None, guard=None, bot_after: int | None = None) -> Done:
        """Record ``player``'s answer to question ``question``; the rules' own sentence on
        refusal (a question not his, not open, or an answer not among the options).
        ``bot_after``: a bot's answer, sent after command number ``bot_after`` opened the
        phase (``undo`` reverts them together)."""
        def fn(c: _Ctx):
            g = c.g
            la = lang or c.row.lang
            seat = self.seat(g, player)
            c.op("answer", seat, str(question), str(answer))
            ev = next(e for e in reversed(g.events) if e.type == "question_answered")
            said = {"ru": f"Ответ принят: {g.display(seat)}, вопрос №{question} — "
                          f"{ev.data['said_ru']}.",
                    "en": f"Answer recorded: {g.display(seat)}, question #{question} — "
                          f"{ev.data['said_en']}."}
            return Done(game_id, _say(la, said["ru"], said["en"]), data={"said": said})
        args = {"player": player, "question": str(question), "answer": str(answer)}
        if bot_after is not None:
            args["bot_after"] = bot_after
        return self._command(game_id, "answer", args, fn, guard, hot=True)
