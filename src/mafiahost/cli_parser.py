"""The command line's argument parser, speaking Russian first (with English).

argparse writes its own words in English («usage:», «positional arguments», «error: the
following arguments are required»); :class:`Parser` puts Russian before each of them and
turns each of argparse's error messages into one sentence in both languages, naming what
was wrong and what is allowed (a wrong command gets the closest one). Help texts given to
``add_argument``/``add_parser`` are written «Русский · English» by the callers.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from typing import NoReturn

USAGE = "Использование · usage: "
POSITIONALS = "Аргументы · arguments"
OPTIONS = "Параметры · options"
HELP = "показать эту справку и выйти · show this help message and exit"
COMMANDS = "Команды · commands"
COMMAND = "КОМАНДА"


class _Formatter(argparse.HelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, USAGE if prefix is None else prefix)


def _names(text: str) -> list[str]:
    """The names argparse lists as ``'a', 'b'`` (choices) or ``a, b`` (arguments)."""
    return [x.strip().strip("'") for x in text.split(",") if x.strip()]


def _quote(items: list[str]) -> str:
    return ", ".join(items)


def _closest(word: str, choices: list[str]) -> str:
    near = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return near[0] if near else ""


def _arg(name: str) -> str:
    """An argument as the user sees it: ``--players``, or a positional in capitals."""
    if name.startswith("-") or name.startswith("{"):
        return name
    return name.upper()


_TYPES = {"int": ("целое число", "a whole number"), "float": ("число", "a number")}


def translate(message: str) -> tuple[str, str]:
    """argparse's English error message → (Russian, English) sentences."""
    m = re.fullmatch(r"the following arguments are required: (.+)", message)
    if m:
        names = _quote([_arg(x) for x in _names(m.group(1))])
        return (f"Не хватает аргументов: {names}. Справка: --help.",
                f"Missing arguments: {names}. Help: --help.")
    m = re.fullmatch(r"unrecognized arguments: (.+)", message)
    if m:
        return (f"Лишние или неизвестные аргументы: {m.group(1)}. Справка: --help.",
                f"Unknown or extra arguments: {m.group(1)}. Help: --help.")
    m = re.fullmatch(r"one of the arguments (.+) is required", message)
    if m:
        return (f"Нужен один из параметров: {m.group(1)}.",
                f"One of these is required: {m.group(1)}.")
    m = re.fullmatch(r"ambiguous option: (\S+) could match (.+)", message)
    if m:
        return (f"Параметр {m.group(1)} неоднозначен: подходят {m.group(2)}.",
                f"The option {m.group(1)} is ambiguous: it could be {m.group(2)}.")
    m = re.fullmatch(r"argument (\S+): (.+)", message, flags=re.S)
    if m:
        arg, rest = m.group(1).split("/")[-1], m.group(2)
        return _argument(arg, rest)
    return (f"Неверные аргументы: {message}. Справка: --help.",
            f"Wrong arguments: {message}. Help: --help.")


def _argument(arg: str, rest: str) -> tuple[str, str]:
    m = re.fullmatch(r"invalid choice: '([^']*)' \(choose from (.+)\)", rest)
    if m:
        word, choices = m.group(1), _names(m.group(2))
        near = _closest(word, choices)
        allowed = _quote(choices)
        if arg == COMMAND:
            hint_ru = f" Может быть, «{near}»?" if near else ""
            hint_en = f" Did you mean '{near}'?" if near else ""
            return (f"Нет такой команды «{word}».{hint_ru} Есть: {allowed}.",
                    f"No such command '{word}'.{hint_en} Choose from: {allowed}.")
        return (f"{_arg(arg)}: нельзя «{word}», можно: {allowed}.",
                f"{_arg(arg)}: '{word}' is not allowed; choose from: {allowed}.")
    m = re.fullmatch(r"invalid (\w+) value: '([^']*)'", rest)
    if m:
        ru, en = _TYPES.get(m.group(1), ("значение другого вида", "another kind of value"))
        return (f"{_arg(arg)}: нужно {ru}, а не «{m.group(2)}».",
                f"{_arg(arg)}: expected {en}, not '{m.group(2)}'.")
    if rest == "expected one argument":
        return (f"{_arg(arg)}: после параметра нужно значение.",
                f"{_arg(arg)}: the option needs a value after it.")
    if rest.startswith("expected"):
        return (f"{_arg(arg)}: не хватает значений.", f"{_arg(arg)}: {rest}.")
    m = re.fullmatch(r"not allowed with argument (\S+)", rest)
    if m:
        return (f"{_arg(arg)} нельзя вместе с {m.group(1)}: выберите одно.",
                f"{_arg(arg)} cannot go with {m.group(1)}: choose one.")
    return (f"{_arg(arg)}: {rest}.", f"{_arg(arg)}: {rest}.")


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose own words are Russian first, with English."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        parents = kwargs.pop("parents", [])
        super().__init__(*args, **kwargs)
        self._positionals.title = POSITIONALS
        self._optionals.title = OPTIONS
        for parent in parents:            # as argparse does, once the groups have our titles
            self._add_container_actions(parent)
            self._defaults.update(parent._defaults)
        for a in self._actions:
            if isinstance(a, argparse._HelpAction):
                a.help = HELP

    def add_subparsers(self, **kwargs):
        kwargs.setdefault("title", COMMANDS)
        kwargs.setdefault("metavar", COMMAND)
        return super().add_subparsers(**kwargs)

    def error(self, message: str) -> NoReturn:
        ru, en = translate(message)
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: {ru}\n{self.prog}: {en}\n")
