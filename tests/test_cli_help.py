"""Every command's ``--help`` and every argparse refusal speak Russian first, with English,
and show no internal id."""

from __future__ import annotations

import argparse
import re

import pytest

from mafiahost.cli import build_parser, main

CYRILLIC = re.compile("[а-яё]", re.I)
# argparse's own English words, which must never stand alone, and our parsers' inner names
ENGLISH_ONLY = re.compile(r"^(usage:|positional arguments:|options:|optional arguments:)|"
                          r"-h, --help\s+show this help|_cmd\b|\berror:", re.M)


def _walk(parser: argparse.ArgumentParser, path=()):
    yield path, parser
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for name, sub in a.choices.items():
                yield from _walk(sub, path + (name,))


def _all():
    return list(_walk(build_parser()[0]))


def test_the_walk_reaches_every_command():
    paths = {" ".join(p) for p, _ in _all()}
    for cmd in ("game new", "game deadline", "votes import", "host add", "host tz", "act",
                "resolve", "balance", "odds", "answer", "serve"):
        assert cmd in paths


@pytest.mark.parametrize("path", [" ".join(p) for p, _ in _all()])
def test_every_help_line_has_russian(path, capsys):
    parser = dict((" ".join(p), q) for p, q in _all())[path]
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for choice in a._choices_actions:
                assert CYRILLIC.search(choice.help or ""), f"{path} {choice.dest}: {choice.help}"
                assert " · " in choice.help, f"{path} {choice.dest}: no English"
            continue
        assert a.help and CYRILLIC.search(a.help), f"{path} {a.dest}: {a.help!r}"
        assert " · " in a.help, f"{path} {a.dest}: no English"
    with pytest.raises(SystemExit) as e:
        main([*path.split(), "--help"] if path else ["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("Использование · usage: ")
    assert not ENGLISH_ONLY.search(out), ENGLISH_ONLY.search(out)
    # every line of option or argument help, and every section title, carries Russian
    for block in re.split(r"\n(?=\S)", out)[1:]:
        head, *_ = block.split("\n")
        assert CYRILLIC.search(head) or head.startswith("  "), head


@pytest.mark.parametrize("argv, ru, en", [
    (["gam"], "Нет такой команды «gam». Может быть, «game»?",
     "No such command 'gam'. Did you mean 'game'?"),
    (["act"], "Не хватает аргументов: ID, PLAYER, MOVE.", "Missing arguments: ID, PLAYER, MOVE."),
    (["act", "один", "Анна", "убить"], "ID: нужно целое число, а не «один».",
     "ID: expected a whole number, not 'один'."),
    (["game", "new", "gemini", "--players", "А,Б", "--lang", "de"],
     "--lang: нельзя «de», можно: ru, en.", "--lang: 'de' is not allowed; choose from: ru, en."),
    (["post", "1", "--start", "--final"], "--final нельзя вместе с --start",
     "--final cannot go with --start"),
    (["rulesets", "--bogus"], "Лишние или неизвестные аргументы: --bogus.",
     "Unknown or extra arguments: --bogus."),
    (["game", "deadline", "1", "--db"], "--db: после параметра нужно значение.",
     "--db: the option needs a value after it."),
    (["host"], "Не хватает аргументов: КОМАНДА.", "Missing arguments: КОМАНДА."),
])
def test_argparse_refusals_are_one_sentence_in_both_languages(argv, ru, en, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("Использование · usage: ")
    assert ru in err and en in err
    assert "error:" not in err and "Traceback" not in err
    assert "the following arguments" not in err and "invalid choice" not in err
