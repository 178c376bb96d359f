"""``mafiahost answer ID PLAYER QUESTION ANSWER``: a player's answer to a question the rules
put to him (a recruit's consent, a choice); the open questions are in ``game show``."""

from __future__ import annotations

import argparse


def register(sub, db: argparse.ArgumentParser) -> None:
    p = sub.add_parser("answer", parents=[db],
                       help="a player's answer to a question put to him (see game show)")
    p.add_argument("id", type=int)
    p.add_argument("player")
    p.add_argument("question", help="the question's number")
    p.add_argument("answer", help="one of the question's answers")


def cmd_answer(args) -> int:
    from .cli import _done, _host, _lang
    return _done(_host(args).answer(args.id, args.player, args.question, args.answer,
                                    lang=_lang(args)))


COMMANDS = {"answer": cmd_answer}
