"""Coins the host awards by his own judgement (the host's ``grant`` command).

«Описание ночного хода - 1-2 монеты (оценивает и размещает ведущий, описывается только удачное
убийство исполнителем). Описание процесса и результата дневной посадки - 1-2 монеты (оценивает
и размещает ведущий) Оплачивается только 1 описание в день от 1 одинокого персонажа а также 1
описание от одного клана.» «Журналист. За каждую написанную статью - 1 монета, за художественно
написанную статью - 2 монеты.»

Kinds: ``night`` — the description of a kill, only by its executor, the day after it (1–2);
``day`` — the description of the day's jailing, by any player in the game, once someone was
jailed by the last vote (1–2); ``article`` — the journalist's article written artistically: 1
coin on top of the article's 1, once per article. How good a text is stays the host's call
(speech); the engine checks who may be paid and how much. Per game day, one description is
paid from the lone players (all the non-clan players together) and one from each clan.
"""

from __future__ import annotations

from mafiahost.engine.mechanics import hook

from .common import counter, earn, is_clan, set_counter

KINDS = {"night": ("описание ночного хода", "a description of a night's kill"),
         "day": ("описание дневной посадки", "a description of the day's jailing"),
         "article": ("художественная статья", "an artistic article")}


def _jailed_by_last_vote(g) -> bool:
    """Someone was jailed by the last day's vote (day N's vote is read in night N+1 and
    day N+1: both have number N+1)."""
    last = f"day {g.state.number - 1}"
    return any(e.type == "held" and e.phase == last for e in reversed(g.events))


@hook("host_grant", "singapore_grants")
def grants(g, p, coins: int, kind: str, params):
    s = g.state
    if kind not in KINDS:
        kinds = "; ".join(f"{k} ({ru})" for k, (ru, _en) in KINDS.items())
        kinds_en = "; ".join(f"{k} ({en})" for k, (_ru, en) in KINDS.items())
        return (f"За что начислить — «{kind}» не подходит; можно: {kinds}.",
                f"'{kind}' is not a reward here; allowed: {kinds_en}.")
    if not p.alive:
        return (f"«{p.name}» уже не в игре: монеты начисляют только игрокам в игре.",
                f"'{p.name}' is out of the game: coins go to players in it.")
    if kind == "article":
        if coins != 1:
            return ("За художественную статью — 2 монеты вместо 1: ведущий добавляет 1.",
                    "An artistic article pays 2 instead of 1: the host adds 1.")
        if not s.status_value(p, "article_written"):
            return (f"У игрока «{p.name}» нет статьи прошлой ночи (или за неё уже доплачено).",
                    f"'{p.name}' wrote no article last night (or it was already paid).")
        g.clear_status(p, "article_written")
        earn(g, p, 1, "grant:article")
        return None
    if coins not in (1, 2):
        return ("За описание — 1 или 2 монеты.", "A description pays 1 or 2 coins.")
    if kind == "night" and not s.status_value(p, "last_kill"):
        return (f"Описание ночного хода оплачивается только исполнителю удачного убийства "
                f"прошлой ночи; у игрока «{p.name}» его нет.",
                f"A night's description is paid only to the executor of a successful kill "
                f"last night; '{p.name}' made none.")
    if kind == "day" and not _jailed_by_last_vote(g):
        return ("Описание дневной посадки: на последнем голосовании никого не посадили.",
                "A description of the day's jailing: nobody was jailed at the last vote.")
    who = p.faction if is_clan(p) else "single"
    key = f"described:{s.number}"
    paid = list(counter(g, key, ()))
    if who in paid:
        return (("Сегодня описание от этого клана уже оплачено (одно в день от клана)."
                 if who != "single" else
                 "Сегодня описание от одиночного персонажа уже оплачено (одно в день)."),
                ("A description from this clan was already paid today (one a day a clan)."
                 if who != "single" else
                 "A description from a lone character was already paid today (one a day)."))
    set_counter(g, key, paid + [who])
    earn(g, p, coins, "grant:" + kind)
    return None
