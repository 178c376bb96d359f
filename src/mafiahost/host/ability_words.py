"""Which ability a host (or a player's message) means by a word: ``убить``, ``проверка``,
``лечение``, the role sheet's names in Russian or English, or the ability's id.

Only the actor's own role is searched, so ``выстрел`` means the mafia's shot for a
mafioso and the maniac's for the maniac. Case and ё/е do not matter. Order:

1. the id (``kill``) — what scenario files and ``--json`` use;
2. the role sheet's name, Russian or English, whole (``Лечение``, ``Heal``, ``Серебряная
   пуля``) or its first word (``проверка`` for «Проверка с выстрелом»);
3. the words players write for the usual moves (``убить``, ``стрелять``, ``лечить``...),
   by the ability's id;
4. a word sharing a stem of at least five letters with a word of the name
   (``проверить`` for «Проверка», ``вербовать`` for «Вербовка»).

At each step, abilities usable in this phase win over the others; two that still match
are reported, never guessed.
"""

from __future__ import annotations

import re

from ..engine.game import Game
from .core import HostError

#: What players write for a move, by the ability id (Russian and English, folded).
WORDS: dict[str, tuple[str, ...]] = {
    "kill": ("убить", "убиваю", "убийство", "убей", "стрелять", "стреляю", "стреляем",
             "выстрел", "выстрелить", "застрелить", "отстрел", "shoot", "shot", "kill"),
    "shoot": ("убить", "убиваю", "стрелять", "стреляю", "выстрел", "выстрелить",
              "застрелить", "kill", "shot"),
    "heal": ("лечить", "лечу", "лечение", "вылечить", "исцелить", "исцеление", "heal",
             "doctor", "save"),
    "check": ("проверить", "проверяю", "проверка", "check", "investigate"),
    "check2": ("проверить", "проверка", "check"),
    "guard": ("охранять", "охраняю", "охрана", "защитить", "защита", "guard", "protect"),
    "block": ("блок", "блокировать", "block"),
    "seduce": ("соблазнить", "ласки", "любовь", "visit"),
    "visit": ("визит", "навестить", "visit"),
    "recruit": ("вербовать", "вербую", "вербовка", "завербовать", "recruit"),
    "redirect": ("перевести", "перевод", "redirect"),
    "watch": ("следить", "слежу", "слежка", "наблюдать", "наблюдение", "watch"),
    "cover": ("прикрыть", "прикрытие", "опекать", "опека", "cover"),
    "poison": ("отравить", "отравление", "яд", "poison"),
    "copy": ("копировать", "копия", "copy"),
    "lock": ("запереть", "запираю", "lock"),
    "silence": ("молчанка", "лишить", "silence"),
    "hypnosis": ("гипноз", "загипнотизировать", "hypnosis"),
    "frame": ("подставить", "подстава", "клевета", "frame"),
    "steal": ("украсть", "кража", "steal"),
    "drink": ("спаивать", "спаивание", "споить", "напоить", "drink"),
}

_WORD = re.compile(r"[\w-]+")


def fold(text: str) -> str:
    """Case-folded, ё as е, spaces squeezed."""
    return " ".join(text.casefold().replace("ё", "е").split())


def _stem_match(a: str, b: str) -> bool:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n >= 5 or (n >= 4 and n == min(len(a), len(b)))


def _candidates(g: Game, actor: str):
    p = g.state.players[actor]
    role = g.rules.roles[p.role]
    abs_ = [g.rules.abilities[f"{p.role}.{a}"] for a in role.abilities]
    now = {ab.id for ab in abs_ if ab.phase == g.state.phase
           and (p.alive or ab.while_dead) and g.why_not_actor(p, ab) is None}
    return p, role, abs_, now


def _pick(hits, now):
    """One ability id from ``hits`` (specs), preferring those usable now; None if none;
    a list if several remain."""
    ids = list(dict.fromkeys(ab.id for ab in hits))
    if len(ids) <= 1:
        return ids[0] if ids else None
    live = [i for i in ids if i in now]
    if len(live) == 1:
        return live[0]
    return live or ids


def ability_id(g: Game, actor: str, word: str) -> str:
    """The id of the actor's ability that ``word`` names (see the module's order); a
    ``HostError`` naming the actor's moves in words when none or several match."""
    p, role, abs_, now = _candidates(g, actor)
    w = fold(word.replace("_", " ")) if word not in g.rules.ability_ids else word
    steps = [*_exact_steps(word, w),
             lambda ab: " " not in w and any(_stem_match(w, x) for x in
                                             _WORD.findall(fold(ab.name_ru) + " "
                                                           + fold(ab.name_en)))]
    for test in steps:
        got = _pick([ab for ab in abs_ if test(ab)], now)
        if isinstance(got, str):
            return got
        if got:
            names = [_name_of(g, p.role, i) for i in got]
            raise HostError(
                f"«{word}» подходит к нескольким ходам роли «{role.name_ru}»: "
                f"{', '.join(n[0] for n in names)}; напишите точнее.",
                f"'{word}' fits several moves of the role '{role.name_en}': "
                f"{', '.join(n[1] for n in names)}; be more precise.")
    held = _held_for(g, p, abs_, word, w)
    if held is not None:
        return held
    own_ru = ", ".join(f"«{ab.name_ru}»" for ab in abs_) or "нет"
    own_en = ", ".join(f"'{ab.name_en}'" for ab in abs_) or "none"
    raise HostError(f"У роли «{role.name_ru}» ({g.display(actor)}) нет хода «{word}»; "
                    f"её ходы: {own_ru}.",
                    f"The role '{role.name_en}' ({g.display(actor)}) has no move '{word}'; "
                    f"its moves: {own_en}.")


def _exact_steps(word: str, w: str) -> list:
    """The module's steps 1–3 (the id, the role sheet's name whole or its first word, the
    players' usual words), as tests of one ability; ``w`` is ``word`` folded."""
    return [
        lambda ab: ab.id == word,
        lambda ab: w in (fold(ab.name_ru), fold(ab.name_en)),
        lambda ab: w in (_first(ab.name_ru), _first(ab.name_en)),
        lambda ab: w in WORDS.get(ab.id, ()),
    ]


def _held_for(g: Game, p, abs_, word: str, w: str) -> str | None:
    """A move that stands in for another ability (its ``requires_status`` holds that
    ability's key: the osiris hermit's «Полученное действие», the action of the last player
    voted out) typed by the held ability's own name («оглушение Анна»): the stand-in with the
    held ability's number of targets."""
    for ab in abs_:
        key = g.state.status_value(p, ab.requires_status) if ab.requires_status else None
        if not isinstance(key, str) or key not in g.rules.abilities:
            continue
        spec = g.rules.abilities[key]
        if any(test(spec) for test in _exact_steps(word, w)):
            fits = [x for x in abs_ if x.requires_status == ab.requires_status
                    and x.targets == spec.targets]
            return (fits or [ab])[0].id
    return None


def _first(name: str) -> str:
    m = _WORD.findall(fold(name))
    return m[0] if m else ""


def _name_of(g: Game, role: str, aid: str) -> tuple[str, str]:
    ab = g.rules.abilities[f"{role}.{aid}"]
    return f"«{ab.name_ru}»", f"'{ab.name_en}'"
