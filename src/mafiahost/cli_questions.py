"""``mafiahost answer ID PLAYER QUESTION ANSWER``: a player's answer to a question the rules
put to them (a recruit's consent, a choice); the open questions are in ``game show``. And
``mafiahost grant ID PLAYER COINS KIND``: coins the host awards by their judgement (a literary
description; the rule set says who may receive them)."""

from __future__ import annotations

import argparse


def register(sub, db: argparse.ArgumentParser, gid: argparse.ArgumentParser,
             seat: argparse.ArgumentParser) -> None:
    """The two commands, with the shared parents: ``db`` (the database and language),
    ``gid`` (the game's number) and ``seat`` (the player)."""
    p = sub.add_parser("answer", parents=[db, gid, seat],
                       help="ответ игрока на вопрос правил (см. game show) · a player's answer "
                            "to a question put to them")
    p.add_argument("question", metavar="QUESTION", help="номер вопроса · the question's number")
    p.add_argument("answer", metavar="ANSWER", help="один из ответов вопроса · one of the "
                                                    "question's answers")
    p = sub.add_parser("grant", parents=[db, gid, seat],
                       help="монеты на усмотрение ведущего (литературное описание) · coins the "
                            "host awards (a literary description)")
    p.add_argument("coins", metavar="COINS", help="сколько монет · how many")
    p.add_argument("kind", metavar="KIND", help="за что (singapore: night, day, article) · what "
                                                "for")


def cmd_answer(args) -> int:
    from .cli import _done, _host, _lang
    return _done(_host(args).answer(args.id, args.player, args.question, args.answer,
                                    lang=_lang(args)))


def cmd_grant(args) -> int:
    from .cli import _done, _host, _lang
    return _done(_host(args).grant(args.id, args.player, args.coins, args.kind,
                                   lang=_lang(args)))


COMMANDS = {"answer": cmd_answer, "grant": cmd_grant}
