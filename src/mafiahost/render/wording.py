"""Names in sentences: a player's name declined for the sentence around it («проверяет
Бориса», «у Анны», «на Жужу») and words chosen by the player's gender when the host gave
one («Анна выведена из игры»), with neutral wording when he did not.

In a sentence of ``messages*.yaml`` a name field takes a format spec:

- a case: ``{target:acc}`` (винительный), ``gen``, ``dat``, ``ins``, ``loc`` — the name
  declined through pymorphy3 (a name it does not know is declined by its ending when it
  ends in -а/-я, a masculine name is read as a person: «Кактус» → «Кактуса»); Latin or
  digit-only names, a woman's name ending in a consonant («Ассоль», «Кэт») and names the
  analyser cannot read stay as written;
- a gender choice ``{player:выведен|выведена|выводится}``: the first word for a man, the
  second for a woman, the third — neutral wording — when the host gave no gender (or for a
  list of players). English the same way: ``{player:his|her|their}``.

Genders are the host's (``game new --players "Анна:ж,Борис:м"``, ``game gender``): ``m`` or
``f`` per player's name, nothing when not given. Nothing here guesses a gender from a name.
"""

from __future__ import annotations

import re
from functools import lru_cache

CASES = {"nom": "nomn", "gen": "gent", "dat": "datv", "acc": "accs", "ins": "ablt",
         "loc": "loct"}
GENDERS = ("m", "f")
_CYR = re.compile(r"[а-яё]", re.I)
_VOWELS = set("аеёиоуыэюя")
#: endings of a first-declension word (-а/-я) by case, after a hard / soft / hushing stem
_A_ENDINGS = {
    "а": {"gent": "ы", "datv": "е", "accs": "у", "ablt": "ой", "loct": "е"},
    "я": {"gent": "и", "datv": "е", "accs": "ю", "ablt": "ей", "loct": "е"},
}
_HUSH = set("гкхжчшщц")


def _restore(word: str, like: str) -> str:
    if like.isupper() and len(like) > 1:
        return word.upper()
    if like[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def _by_ending(word: str, case: str) -> str:
    """A first-declension word (-а/-я) the dictionary does not know, by its ending."""
    low = word.lower()
    end = low[-1]
    if end not in _A_ENDINGS or len(low) < 2:
        return word
    suffix = _A_ENDINGS[end][case]
    if end == "а" and case == "gent" and low[-2] in _HUSH:
        suffix = "и"
    if end == "а" and case == "ablt" and low[-2] in set("жчшщц"):
        suffix = "ей"
    return _restore(low[:-1] + suffix, word)


@lru_cache(maxsize=8192)
def _decline_word(word: str, case: str, gender: str | None) -> str:
    if case == "nomn" or not _CYR.search(word) or not word.isalpha():
        return word
    low = word.lower()
    soft_or_hard_end = low[-1] not in _VOWELS
    if gender == "f" and soft_or_hard_end and low[-1] != "ь":
        return word                         # «Кэт», «Ник» for a woman: not declined
    from ..names import parse
    parses = [p for p in parse(low)
              if "nomn" in p.tag and p.tag.POS in ("NOUN", "ADJF")
              and p.word == low and "Fixd" not in p.tag and "plur" not in p.tag]
    if gender is not None:
        want = "masc" if gender == "m" else "femn"
        parses.sort(key=lambda p: (want not in p.tag and "ms-f" not in p.tag,
                                   "Name" not in p.tag, "anim" not in p.tag))
    else:
        parses.sort(key=lambda p: ("Name" not in p.tag, "anim" not in p.tag))
    if not parses:
        if any(p.word == low and "Fixd" in p.tag for p in parse(low)):
            return word                     # an indeclinable name («Ассоль»)
        return _by_ending(word, case)
    p = parses[0]
    want_case = case
    if case == "accs" and "femn" not in p.tag and low[-1] not in "ая":
        # a person: a masculine name's accusative is its genitive («Кактуса», «Тёмного»)
        want_case = "gent"
    tags = {want_case}
    if p.tag.POS == "ADJF":
        tags |= {"femn" if gender == "f" or "femn" in p.tag else "masc"}
    form = p.inflect(tags)
    if form is None:
        return word
    return _restore(form.word, word)


def decline(name: str, case: str, gender: str | None = None) -> str:
    """``name`` in ``case`` (``acc``, ``gen``, ``dat``, ``ins``, ``loc`` or pymorphy3's
    own tags): each Cyrillic word of it declined, the rest kept as written."""
    case = CASES.get(case, case)
    if case not in CASES.values() or not name:
        return name
    parts = re.split(r"([\s\-]+)", name)
    out = []
    stop = False
    for part in parts:
        if stop or not _CYR.search(part) or not part.isalpha():
            out.append(part)
            if part.isalpha() and _CYR.search(part) is None and len(parts) > 1:
                stop = True                 # a Latin word inside: keep the rest too
            continue
        new = _decline_word(part, case, gender)
        out.append(new)
        if new == part and not _nominative(part.lower()):
            stop = True                     # «Кот в сапогах»: the words after «в» stay
    return "".join(out)


@lru_cache(maxsize=8192)
def _nominative(low: str) -> bool:
    from ..names import parse
    return any("nomn" in p.tag for p in parse(low))


def choose(spec: str, gender: str | None) -> str:
    """``"выведен|выведена|выводится"`` → the word for this gender (neutral when None)."""
    opts = spec.split("|")
    if len(opts) == 2:
        opts.append(opts[0])
    if gender == "m":
        return opts[0]
    if gender == "f":
        return opts[1]
    return opts[2]


class Name(str):
    """A player's name as a sentence field: ``{x}`` the name, ``{x:acc}`` declined,
    ``{x:a|b|c}`` a word by the player's gender."""

    gender: str | None = None

    def __new__(cls, text: str, gender: str | None = None):
        obj = super().__new__(cls, text)
        obj.gender = gender
        return obj

    def __format__(self, spec: str) -> str:
        if not spec:
            return str(self)
        if "|" in spec:
            return choose(spec, self.gender)
        return decline(str(self), spec, self.gender)


class Names(str):
    """Several players' names joined by commas; a case spec declines each, a gender
    choice takes the neutral (plural) word unless they all share a gender."""

    def __new__(cls, names: list[Name], joiner: str = ", ", empty: str = ""):
        obj = super().__new__(cls, joiner.join(names) if names else empty)
        obj.names = list(names)
        obj.joiner = joiner
        return obj

    def __format__(self, spec: str) -> str:
        if not spec or not self.names:
            return str(self)
        if "|" in spec:
            if len(self.names) == 1:
                return choose(spec, self.names[0].gender)
            return choose(spec, None)
        return self.joiner.join(format(n, spec) for n in self.names)


def read_gender(text: str) -> str | None:
    """«ж», «жен», «f», «female», «м», «муж», «m», «male» → ``f`` / ``m``; else None."""
    t = text.strip().casefold().rstrip(".")
    if t in ("ж", "жен", "женский", "женщина", "f", "female", "w", "woman"):
        return "f"
    if t in ("м", "муж", "мужской", "мужчина", "m", "male", "man"):
        return "m"
    return None
