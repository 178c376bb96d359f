"""``mafiahost answer ID PLAYER QUESTION ANSWER``: a player's answer to a question the rules
put to him (a recruit's consent, a choice); the open questions are in ``game show``. And
``mafiahost grant ID PLAYER COINS KIND``: coins the host awards by his judgement (a literary
description; the rule set says who may receive them)."""

from __future__ import annotations

import argparse


def register(sub, db: argparse.ArgumentParser) -> None:
    p = sub.add_parser("answer", parents=[db],
                       help="a player's answer to a question put to him (see game show)")
    p.add_argument("id", type=int)
    p.add_argument("player")
    p.add_argument("question", help="the question's number")
    p.add_argument("answer", help="one of the question's answers")
    p = sub.add_parser("grant", parents=[db],
                       help="coins the host awards by his judgement (a literary description)")
    p.add_argument("id", type=int)
    p.add_argument("player")
    p.add_argument("coins", help="how many")
    p.add_argument("kind", help="what for (singapore: night, day, article)")


def cmd_answer(args) -> int:
    from .cli import _done, _host, _lang
    return _done(_host(args).answer(args.id, args.player, args.question, args.answer,
                                    lang=_lang(args)))


def cmd_grant(args) -> int:
    from .cli import _done, _host, _lang
    return _done(_host(args).grant(args.id, args.player, args.coins, args.kind,
                                   lang=_lang(args)))


COMMANDS = {"answer": cmd_answer, "grant": cmd_grant}
