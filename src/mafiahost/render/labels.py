"""Words for the ids a host sees outside the posts: statuses, counters and rule set
options (``labels.yaml``), and option values typed in Russian or English (``yakuza=да``).

Nothing here decides a rule; it only names what the engine keeps by id."""

from __future__ import annotations

import functools
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent


@functools.cache
def _data() -> dict:
    return yaml.safe_load((HERE / "labels.yaml").read_text(encoding="utf-8"))


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "да" if v else "нет"
    if isinstance(v, (list, tuple, set)):
        return ", ".join(_fmt(x) for x in v) or "—"
    if isinstance(v, dict):
        return ", ".join(f"{k}: {_fmt(x)}" for k, x in v.items()) or "—"
    return str(v)


def _fmt_en(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return _fmt(v)


def _label(section: str, key: str, value, lang: str) -> str:
    table = _data()[lang][section]
    base, _, arg = key.partition(":")
    tpl = table.get(key, table.get(base))
    shown = _fmt(value) if lang == "ru" else _fmt_en(value)
    if tpl is None:
        return table["other"].format(value=key if value in (None, True) else shown)
    return tpl.format(value=shown, arg=arg.replace(":", ", "))


def status(key: str, value, lang: str = "ru") -> str:
    """A player's status in words: «спасений осталось: 2»."""
    return _label("status", key, value, lang)


def status_of(g, key: str, value, lang: str = "ru") -> str:
    """A status of a player of game ``g`` in words, its value and the part of its key
    after a colon named too («на себя: Лечение», «предметы: Бронежилет: 1»)."""
    ru = lang == "ru"
    base, colon, arg = key.partition(":")
    if colon:
        arg = ":".join(str(named(g, x, ru)) for x in arg.split(":"))
        key = f"{base}:{arg}"
    return status(key, named(g, value, ru), lang)


def counter(key: str, value, lang: str = "ru") -> str:
    """A game counter in words; "" for internal bookkeeping not worth showing."""
    return _label("counter", key, value, lang)


def option(name: str, value, lang: str = "ru") -> str:
    """A rule set option's chosen value in words: «с якудзой»."""
    entry = _data()[lang]["option"].get(name)
    key = str(value).lower() if isinstance(value, bool) else str(value)
    if entry and key in entry:
        return entry[key]
    nm = entry["name"] if entry else name
    return f"{nm}: {_fmt(value) if lang == 'ru' else _fmt_en(value)}"


def option_name(name: str, lang: str = "ru") -> str:
    entry = _data()[lang]["option"].get(name)
    return entry["name"] if entry else name


def option_value(name: str, text, declared) -> object:
    """The value a host typed for option ``name`` as the rule set declares it: ``да`` /
    ``нет`` / ``yes`` / ``off``... for a yes/no option, a value's Russian or English label
    (``маньяк``, ``без одиночки``), or the value itself; ``text`` unchanged if none fits."""
    vals = list(declared)
    t = str(text).strip().casefold().replace("ё", "е")
    d = _data()["ru"]
    if any(isinstance(v, bool) for v in vals):
        if t in d["yes"]:
            return True
        if t in d["no"]:
            return False
    elif t in d["no"] and "none" in vals:     # «одиночка=нет»: the value that means none
        return "none"
    for v in vals:
        if t == str(v).casefold():
            return v
        for lang in ("ru", "en"):
            entry = _data()[lang]["option"].get(name) or {}
            key = str(v).lower() if isinstance(v, bool) else str(v)
            words = str(entry.get(key, "")).casefold().replace("ё", "е")
            if words and (t == words or t in words.replace("—", " ").split()):
                return v
    return text


@functools.cache
def _defaults(ruleset: str) -> dict:
    from ..rules import DATA
    path = DATA / f"{ruleset}.yaml"
    if not path.exists():
        return {}
    raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {k: v.get("default") for k, v in (raw.get("options") or {}).items()}


def chosen_options(ruleset: str, options: dict, lang: str = "ru") -> list[str]:
    """The options that differ from the rule set's defaults, in words."""
    d = _defaults(ruleset)
    return [option(k, v, lang) for k, v in (options or {}).items() if d.get(k, object()) != v]


def named(g, v, ru: bool = True):
    """A status or counter value that is a role, faction or player id, in words."""
    if isinstance(v, str):
        if v in g.rules.roles:
            r = g.rules.roles[v]
            return r.name_ru if ru else r.name_en
        if v in g.rules.factions:
            f = g.rules.factions[v]
            return f.name_ru if ru else f.name_en
        if v in g.state.players:
            return g.display(v)
        if any(a.id == v or a.id.endswith("_" + v) for a in g.rules.abilities.values()):
            from .posts import Writer          # an item or an ability: by its name
            return Writer(g, "ru" if ru else "en").who(v)
    if isinstance(v, (list, tuple)):
        return [named(g, x, ru) for x in v]
    if isinstance(v, dict):                    # items held: {"vest": 1} → {"Бронежилет": 1}
        return {named(g, k, ru): named(g, x, ru) for k, x in v.items()}
    return v
