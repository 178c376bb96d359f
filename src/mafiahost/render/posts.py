"""Posts ready to paste: the first post, the morning post, the live vote count, the final
post, role cards and private messages; Russian or English, plain text or forum BBCode.

The words live in ``messages.yaml`` and the markup in ``formats.yaml`` next to this file; a
rule set may add ``messages_<ruleset>.yaml`` (sentences for its own event types); a host
edits them, or points ``MAFIAHOST_TEXTS`` at a YAML file that overrides any of their keys
(the same structure, plus an optional ``formats:`` section).

What a text may say is decided by each event's audience, never by the caller: a public post
is made from public events only; a player's private messages from the events addressed to
that player; only the final post (the game is over) shows the host's log. Fields whose
names start with ``_`` (the dice state) are never printed. Players appear under the name
their seat is played by now (``g.display``, замена).
"""

from __future__ import annotations

import os
import re
from datetime import datetime
from functools import cache
from pathlib import Path

import yaml

from ..engine.day import vote_loss
from ..engine.errors import Refused
from ..engine.events import HOST, PUBLIC
from .wording import Name, Names

HERE = Path(__file__).parent
LANGS = ("ru", "en")
FORMATS = ("plain", "bbcode")
ENV = "MAFIAHOST_TEXTS"

# event fields that hold one seat name, or a list of them
NAME_FIELDS = frozenset({"player", "voter", "target", "target2", "by", "actor", "visitor",
                         "to", "onto"})
NAMES_FIELDS = frozenset({"players", "members", "targets", "not_voted", "visitors",
                          "shielded", "voters", "named", "shooters"})
# public events that say how a tie at the top was settled (no "the die picked" line then)
TIE_SETTLED = frozenset({"no_lynch", "tie_broken", "tie_rule"})


# ---- names in posts -------------------------------------------------------------------------

# A name is text a player chose: it must not change the structure of a post. Square
# brackets would open or close a forum tag ([url=…], [spoiler=…], [/b]) in BBCode, and in
# a "plain" post too once it is pasted into a forum, so they become the full-width
# brackets ［ ］ (they look alike and are never markup); control, format and separator
# characters (line breaks, direction overrides, zero-width marks) become U+FFFD, so a
# name stays on its line and reads as it is stored. HTML pages escape on top of this
# (Jinja autoescape).
_NEUTRAL = {ord("["): "［", ord("]"): "］"}


def neutral(text: str) -> str:
    """``text`` (a player's name or nick, or another typed string) made inert in a post."""
    text = str(text).translate(_NEUTRAL)
    if text.isprintable():
        return text
    import unicodedata
    return "".join("\ufffd" if unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs", "Zl", "Zp")
                   else c for c in text)


# ---- the text files ------------------------------------------------------------------------

def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in (over or {}).items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) \
            else v
    return out


@cache
def _load(override: str, ruleset: str = "") -> dict:
    data = yaml.safe_load((HERE / "messages.yaml").read_text(encoding="utf-8"))
    data["formats"] = yaml.safe_load((HERE / "formats.yaml").read_text(encoding="utf-8"))
    own = HERE / f"messages_{ruleset}.yaml"
    if ruleset and own.is_file():
        data = _merge(data, yaml.safe_load(own.read_text(encoding="utf-8")) or {})
    if override:
        path = Path(override)
        try:
            extra = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except OSError as e:
            raise Refused(f"Файл текстов {path} ({ENV}) не читается: {e.strerror}.",
                          f"The texts file {path} ({ENV}) cannot be read: {e.strerror}.") from e
        if not isinstance(extra, dict):
            raise Refused(f"Файл текстов {path} должен содержать разделы ru:, en:, formats:.",
                          f"The texts file {path} must hold sections ru:, en:, formats:.")
        data = _merge(data, extra)
    return data


def texts(ruleset: str = "") -> dict:
    """Every text: ``{"ru": {...}, "en": {...}, "formats": {"plain": ..., "bbcode": ...}}``:
    ``messages.yaml``, then a rule set's own ``messages_<ruleset>.yaml`` (sentences for its
    own event types), then the file named by ``MAFIAHOST_TEXTS`` (if any), each merged over
    the one before."""
    return _load(os.environ.get(ENV, ""), ruleset)


class _Fields(dict):
    def __missing__(self, key):
        return Name("")


def _fill(template: str, fields: dict) -> str:
    try:
        return template.format_map(_Fields(fields))
    except ValueError:
        pass
    try:      # a name passed as plain text with a case or gender spec: decline it anyway
        return template.format_map(_Fields({k: Name(v) if type(v) is str else v
                                            for k, v in fields.items()}))
    except (ValueError, IndexError, AttributeError, KeyError, TypeError):
        # a broken sentence in an edited file: show it with its fields rather than fail
        return template + " " + ", ".join(f"{k}={v}" for k, v in fields.items())


def _seat(g, name: str) -> str:
    """The seat played under ``name`` (a seat name or the nick of a replacement)."""
    s = g.state
    seat = g.seat_of(name)
    if seat is not None:
        return seat
    low = name.casefold()
    for p in s.order:
        if p.name.casefold() == low or g.display(p.name).casefold() == low:
            return p.name
    names = ", ".join(g.display(p.name) for p in s.order)
    raise Refused(f"Игрока «{name}» нет в игре; игроки: {names}.",
                  f"There is no player '{name}'; the players are: {names}.")


# ---- the writer ----------------------------------------------------------------------------

class Writer:
    """Words and markup for one game, language and format."""

    def __init__(self, g, lang: str = "ru", fmt: str = "plain"):
        if lang not in LANGS:
            raise ValueError(f"Unknown language '{lang}': use one of {', '.join(LANGS)}.")
        if fmt not in FORMATS:
            raise ValueError(f"Unknown format '{fmt}': use one of {', '.join(FORMATS)}.")
        data = texts(g.rules.id)
        self.g = g
        self.lang = lang
        self.fmt = fmt
        self.m = data[lang]
        self.f = data["formats"][fmt]
        self.nicks: dict[str, str] | None = None   # set by the whole-game log
        self.hidden_roles = {e.data["player"]: e.data["role"] for e in g.events
                             if e.type == "role_hidden"}
        self._genders: dict | None = None

    # words
    def t(self, section: str, key: str, /, **kw) -> str:
        s = self.m.get(section, {}).get(key)
        return "" if s is None else _fill(s, kw)

    def has(self, section: str, key: str) -> bool:
        return key in self.m.get(section, {})

    def term(self, x) -> str:
        if isinstance(x, bool):
            return self.m["terms"]["yes" if x else "no"]
        t = self.m["terms"].get(str(x))
        return str(t) if t is not None else neutral(str(x))   # a raw value: maybe a name

    def phase_label(self, label: str) -> str:
        kind, _, num = (label or "").partition(" ")
        if kind in ("night", "day"):
            return self.t("phase", kind, number=num)
        return self.t("phase", "setup") if not label else label

    # markup
    def mark(self, kind: str, text: str, title: str = "") -> str:
        tpl = self.f.get(kind, "{text}")
        return _fill(tpl, {"text": text, "title": title})

    def items(self, lines: list[str]) -> list[str]:
        out = [self.f.get("list_start", "")]
        out += [self.mark("item", x) for x in lines]
        out.append(self.f.get("list_end", ""))
        return [x for x in out if x != ""]

    # names
    def who(self, x) -> str:
        if isinstance(x, str) and x in self.g.state.players:
            if self.nicks is not None and x in self.nicks:
                return neutral(self.nicks[x])   # the nick the seat had at that moment
            return neutral(self.g.display(x))
        if x == "?":
            return self.term("someone")
        if isinstance(x, str) and x not in self.m["terms"]:
            head, colon, arg = x.partition(":")
            if colon and head in self.m["terms"] and arg:    # «shop:vest», «order:doctor»
                return f"{self.term(head)}: {self.who(arg)}"
            if x in self.g.rules.roles:
                return self.role_name(x)        # a role among a roll's options
            if x in self.g.rules.factions:
                return self.faction_name(x)
            named = self._thing_name(x)
            if named:
                return named
        if isinstance(x, bool) or str(x) in self.m["terms"]:
            return self.term(x)
        return neutral(str(x))              # any other text: a nick, a reason

    def gender(self, x) -> str | None:
        """The gender the host gave the player shown as ``x`` (``m``/``f``), else None."""
        if not isinstance(x, str) or x not in self.g.state.players:
            return None
        if self._genders is None:            # the host's ``gender_set``, by nick
            self._genders = {e.data["by"]: e.data["gender"] for e in self.g.events
                             if e.type == "gender_set"}
        if not self._genders:
            return None
        nick = self.nicks.get(x, x) if self.nicks is not None else self.g.display(x)
        return self._genders.get(nick)

    def name(self, x) -> Name:
        """``x`` in words as a sentence field (declined by ``{x:acc}``, see ``wording``)."""
        return Name(self.who(x), self.gender(x))

    def _thing_name(self, x: str) -> str:
        """An ability or an item id in words: the ability's name; an item by the name of
        the ability that uses, finds or buys it («Находка: Лом» → «Лом»)."""
        abilities = self.g.rules.abilities.values()
        ru = self.lang == "ru"
        spec = next((a for a in abilities if a.id == x), None)
        if spec is not None:
            return spec.name_ru if ru else spec.name_en
        for prefix in ("use_", "find_", "buy_", "curse_"):
            spec = next((a for a in abilities if a.id == prefix + x), None)
            if spec is not None:
                name = spec.name_ru if ru else spec.name_en
                return name.split(": ", 1)[-1]
        return ""

    def facts(self, facts) -> str:
        """The journalist's facts ``[[did | suffered, what], ...]``: «ходы игрока — выстрел,
        слежка; ходы на игрока — угощение» (``terms.fact_*``), each once, in order."""
        groups: dict = {}
        for side, what in facts:
            words = groups.setdefault(side, [])
            word = self.term(f"fact_{what}") if f"fact_{what}" in self.m["terms"] \
                else self.who(what)
            if word not in words:
                words.append(word)
        return "; ".join(f"{self.term('fact_' + side)} — {', '.join(ws)}"
                         if f"fact_{side}" in self.m["terms"] else ", ".join(ws)
                         for side, ws in groups.items())

    def roll_words(self, why) -> str:
        """What a roll was for, in words: the rule sets label their rolls in English with
        the players' names in them («recruit Анна», «mail Дина -> Жанна»); the label with
        each name and number replaced by ``{}`` is looked up in ``terms.rolls`` (``{a}``,
        ``{b:acc}``... stand for them, in order). A label with no words there reads
        ``terms.roll_other`` («бросок»): never the label itself."""
        if not isinstance(why, str):
            return self.value(why)
        names = sorted({*self.g.state.players, *self.g.state.aliases.values()},
                       key=len, reverse=True)
        found: list = []
        pat = re.compile("|".join([r"(?<!\w)" + re.escape(n) + r"(?!\w)" for n in names]
                                  + [r"(?<![\w])\d+(?![\w])"]))

        def take(m):
            s = m.group(0)
            found.append(self.name(self.g.seat_of(s) or s) if not s.isdigit() else s)
            return "{}"
        key = pat.sub(take, why)
        tpl = (self.m["terms"].get("rolls") or {}).get(key)
        if tpl is None:
            return self.term("roll_other")
        return _fill(tpl, dict(zip("abcdefgh", found, strict=False))) if found else tpl

    def role_name(self, rid) -> str:
        r = self.g.rules.roles.get(rid)
        if r is None:
            return str(rid)
        return r.name_ru if self.lang == "ru" else r.name_en

    def faction_name(self, fid) -> str:
        f = self.g.rules.factions.get(fid)
        if f is not None:
            return f.name_ru if self.lang == "ru" else f.name_en
        if fid in self.g.rules.roles:
            return self.role_name(fid)
        return self.term(fid)               # a group that is no faction (the director's)

    def ability_name(self, aid, key=None, actor=None) -> str:
        ab = self.g.rules.abilities
        spec = ab.get(key) if key else None
        if spec is None and actor in self.g.state.players:
            spec = ab.get(f"{self.g.state.players[actor].role}.{aid}")
        if spec is None:
            spec = next((a for a in ab.values() if a.id == aid), None)
        if spec is None:
            return self.who(aid)            # a cause that is a role, a faction, an item
        return spec.name_ru if self.lang == "ru" else spec.name_en

    def result_word(self, r, owner=None) -> str:
        if isinstance(r, bool):
            return self.term(r)
        roles = self.g.rules.roles
        if r in roles:
            return self.role_name(r)
        if isinstance(r, str) and r.startswith("not_") and r[4:] in roles:
            return _fill(self.m["terms"]["not_prefix"], {"role": self.role_name(r[4:])})
        if isinstance(r, str) and r not in self.m["terms"] and any(
                a.id == r for a in self.g.rules.abilities.values()):
            return self.ability_name(r, None, owner)      # a copied ability
        return self.who(r)

    def value(self, v) -> str:
        if isinstance(v, bool):
            return self.term(v)
        if isinstance(v, (list, tuple)):
            return ", ".join(self.value(x) for x in v)
        if isinstance(v, dict):
            return ", ".join(f"{k}={self.value(x)}" for k, x in v.items()
                             if not str(k).startswith("_"))
        if isinstance(v, str):
            return self.who(v)
        return str(v)

    def fields(self, e, to: str | None = None) -> dict:
        """The event's fields as words, ready for a sentence (never ``_`` fields)."""
        d = e.data
        out: dict = {"type": e.type, "phase": self.phase_label(e.phase)}
        for k, v in d.items():
            if k.startswith("_"):
                continue
            if v is None:
                out[k] = self.term("unknown")
            elif k in NAME_FIELDS and isinstance(v, str):
                out[k] = self.name(v)
            elif k in NAMES_FIELDS and isinstance(v, (list, tuple)):
                out[k] = Names([self.name(x) for x in v], empty=self.term("nobody"))
            elif k == "role":
                out[k] = self.role_name(v)
            elif k == "was":
                out[k] = self.role_name(v) if v in self.g.rules.roles else self.name(v)
            elif k == "faction":
                out[k] = self.faction_name(v)
            elif k == "winners":
                out[k] = ", ".join(self.faction_name(x) for x in v)
            elif k == "result":
                out[k] = self.result_word(v, d.get("target"))
            elif k == "abilities" and isinstance(v, (list, tuple)):
                role = d.get("role")
                out[k] = ", ".join(self.ability_name(x, f"{role}.{x}") for x in v) \
                    or self.term("nobody")
            elif k == "cause" and isinstance(v, str) and v in self.m["terms"].get("causes", {}):
                out[k] = self.m["terms"]["causes"][v]       # «выстрел мафии», «заказ Киллеру»
            elif k == "cause":          # named by whoever caused it: the sheriff's shot
                out[k] = self.ability_name(v, None, d.get("by") or d.get("actor"))
            elif k == "ability":
                out[k] = self.ability_name(v, d.get("key"), d.get("actor") or d.get("player"))
            elif k in ("how", "why") and e.type == "roll":
                out[k] = self.roll_words(v)
            elif k in ("how", "why"):
                causes = self.m["terms"].get("causes", {})
                out[k] = causes[v] if isinstance(v, str) and v in causes else self.who(v)
            elif k == "facts" and isinstance(v, (list, tuple)) and all(
                    isinstance(f, (list, tuple)) and len(f) == 2 for f in v):
                out[k] = self.facts(v)
            elif k == "went_out":
                out[k] = self.term("went_out" if v else "stayed_home")
            elif k == "chance":
                out[k] = _fill(self.m["terms"]["chance"], {"percent": f"{v * 100:g}"})
            elif isinstance(v, str) and v in self.g.state.players:
                out[k] = self.name(v)           # a seat in a field of a rule set's own
            else:
                out[k] = self.value(v)
            if isinstance(v, dict):          # a delayed effect: {item_target}, {item_by}...
                for sk, sv in v.items():
                    if not str(sk).startswith("_"):
                        out[f"{k}_{sk}"] = self.value(sv)
        if "chance" not in out:
            out["chance"] = ""
        if e.type == "eliminated":
            why = d.get("why")
            out["reason"] = self.t("post", "reason", why=self.who(why)) if why else ""
            if "role" not in d and d.get("player") in self.hidden_roles:
                out["role"] = self.role_name(self.hidden_roles[d["player"]])
        if e.type == "action":
            key = d.get("key", "")
            out["role"] = self.role_name(key.split(".", 1)[0]) if "." in key else ""
        if to is not None:
            group = d.get("players") if e.type == "met" else d.get("members", d.get("players"))
            if isinstance(group, (list, tuple)):
                out["others"] = ", ".join(self.who(x) for x in group if x != to)
        return out

    def variants(self, e, to: str | None = None) -> list[str]:
        """The event's sentence variants, most specific first: ``pair`` (two targets),
        ``self`` (a private event about its reader), then by its fields in the event's
        order: ``<field>_none`` for an empty value (``answer.result_none``,
        ``action.targets_none``), ``<field>`` for a true flag (``duel.technical``),
        ``<field>_<value>`` for a word that is not a player (``vote_lost.why_hunt``,
        ``saved.by_coin``); ``chance`` for a roll with a chance. A variant is used only
        where the texts have a sentence for it."""
        d = e.data
        first, flags, words = [], [], []
        if d.get("target2"):
            first.append("pair")
        if to is not None and d.get("player") == to:
            first.append("self")
        players = self.g.state.players
        for k, v in d.items():
            if k.startswith("_") or k in ("to", "target2"):
                continue
            if v is None or (isinstance(v, (list, tuple)) and not v):
                first.append(f"{k}_none")
            elif v is True:
                flags.append(k)
            elif isinstance(v, str) and v not in players:
                words.append(f"{k}_{_slug(v)}")
        if "chance" in d:
            flags.append("chance")
        return first + flags + words

    def generic(self, e) -> str:
        f = self.fields(e)
        rest = ", ".join(f"{k}={v}" for k, v in f.items()
                         if k not in ("type", "phase", "chance") and v != "")
        return f"{e.type}: {rest}" if rest else e.type

    def event_line(self, section: str | tuple, e, variant: str | list | None = None,
                   to: str | None = None) -> str | None:
        """The event's sentence from ``section`` (``type.variant`` for each variant in
        order, then ``type``; several sections are tried in order); None when the sentence
        is "" (left out); the generic line when no section has one."""
        tpl = None
        vs = [variant] if isinstance(variant, str) else list(variant or ())
        for name in (section,) if isinstance(section, str) else section:
            sec = self.m.get(name, {})
            for v in vs:
                tpl = sec.get(f"{e.type}.{v}")
                if tpl is not None:
                    break
            if tpl is None:
                tpl = sec.get(e.type)
            if tpl is not None:
                break
        if tpl is None:
            return self.generic(e)
        if tpl == "":
            return None
        return _fill(tpl, self.fields(e, to))

    def vote_how(self) -> list[str]:
        """How to vote in this game's thread (the ruleset's forum convention)."""
        markup = self.g.rules.forum.get("vote_markup", ["spoiler", "red"])
        if isinstance(markup, str):
            markup = [markup]
        out = []
        for kind in markup:
            if self.has("start", f"vote_{kind}"):
                ex = self.mark("code", self.t("start", f"example_{kind}"))
                out.append(self.t("start", f"vote_{kind}", example=ex))
        aa = self.g.rules.day.against_all
        if aa in ("first_day", "every_day"):
            ex = self.mark("code", self.t("start", "example_against_all"))
            out.append(self.t("start", f"against_all_{aa}", example=ex))
        return out


def _slug(v: str) -> str:
    return re.sub(r"\W+", "_", v).strip("_").lower()


def _title(g, lang):
    return g.rules.title_ru if lang == "ru" else g.rules.title_en


# ---- the first post ------------------------------------------------------------------------

def start_post(g, commitment: str, lang: str = "ru", fmt: str = "plain",
               name: str = "", deadline=None) -> str:
    """The game's first post: the game's title (``name``, else the rule set's), the rule
    set and the options the host chose (in words), the players in seating order, how to
    vote, and the commitment (hash) to the dice seed. Nothing about roles."""
    from . import labels
    w = Writer(g, lang, fmt)
    lines = [w.mark("title", w.t("start", "title",
                                 title=neutral(name.strip()) if name.strip() else _title(g, lang)))]
    lines.append(w.t("start", "ruleset", title=_title(g, lang)))
    started = next((e for e in g.events if e.type == "game_started"), None)
    opts = (started.data.get("options") if started else None) or {}
    chosen = labels.chosen_options(g.rules.id, opts, lang)
    if chosen:
        lines.append(w.t("start", "options", options=", ".join(chosen)))
    lines.append("")
    lines.append(w.mark("heading", w.t("start", "players", count=len(g.state.order))))
    lines += w.items([w.t("start", "player_line", n=i + 1, player=w.who(p.name))
                      for i, p in enumerate(g.state.order)])
    lines.append("")
    first = next((e.phase for e in g.events if e.type == "phase_started"), "")
    if first:
        lines.append(w.t("start", "first_phase", phase=w.phase_label(first)))
        kind = first.partition(" ")[0]
        if deadline:                       # the first phase's deadline, when already set
            lines.append(w.t("post", f"deadline_{kind}" if w.has("post", f"deadline_{kind}")
                             else "deadline", deadline=deadline_words(deadline, w.lang)))
    lines += w.vote_how()
    lines.append("")
    lines.append(w.t("start", "commitment", commitment=w.mark("bold", commitment)))
    return "\n".join(lines)


# ---- the morning post and the day's result ------------------------------------------------

def phase_post(g, events, lang: str = "ru", fmt: str = "plain", deadline=None) -> str:
    """The public post for one resolved phase: the morning post (who left and how, as far
    as the rules reveal; announcements such as a lost vote or new prisoners) or the day's
    result with the vote count. Only public events are read."""
    w = Writer(g, lang, fmt)
    events = list(events)
    pub = [e for e in events if e.audience == PUBLIC]
    label = _resolved_label(g, events)
    kind, _, num = label.partition(" ")
    if kind == "night":
        title = w.t("post", "night_title", number=num)
    elif kind == "day":
        title = w.t("post", "day_title", number=num)
    else:
        title = w.t("post", "host_title")
    lines = [w.mark("title", title)]
    reveal = g.rules.reveal_roles
    deaths = 0
    tie = None
    for e in pub:
        d = e.data
        t = e.type
        if t in ("phase_started", "vote", "vote_withdrawn"):
            continue
        if t == "tie":
            tie = d.get("players", [])
            continue
        if t == "eliminated":
            deaths += 1
            how = d.get("how")
            hidden = "_hidden" if not reveal or "role" not in d else ""
            # the sentence fits how the player left (killed, lynched, locked, denounced...),
            # by night or by day where the texts tell them apart
            key = next((k for k in (f"{how}_{kind}", str(how))
                        if w.has("post", f"eliminated.{k}{hidden}")), "other") + hidden
            f = w.fields(e)
            f["player"] = w.mark("name", f["player"])
            if hidden:
                f["role"] = ""
            if how == "lynched" and tie and not any(x.type in TIE_SETTLED for x in pub):
                lines.append(w.t("post", "tie_dice", player=w.who(d["player"]),
                                 players=", ".join(w.who(x) for x in tie)))
            lines.append(w.t("post", "eliminated." + key, **f))
        elif t == "vote_count":
            lines += _count_lines(w, d)
        elif t == "no_lynch":
            lines.append(_no_lynch(w, d, tie))
        elif t == "game_over":
            if d.get("winners"):
                lines.append(w.t("post", "game_over", **w.fields(e)))
            else:
                lines.append(w.t("post", "game_over_none"))
        else:
            line = w.event_line("post", e, w.variants(e))
            if line:
                lines.append(line)
    if kind == "night" and not deaths:
        lines.insert(1, w.t("post", "nobody_died"))
    nxt = next((e for e in reversed(events) if e.type == "phase_started"), None)
    if nxt is not None and not any(e.type == "game_over" for e in pub):
        lines += _next_phase_lines(w, events, nxt, deadline)
    return "\n".join(lines)


def _living_after(g, events: list) -> list[str]:
    """Seats in the game after ``events`` (by the public removals and returns up to the
    last of them; the current state when they are not the game's own events)."""
    last = events[-1] if events else None
    idx = next((i for i in range(len(g.events) - 1, -1, -1) if g.events[i] is last), None)
    if idx is None:
        return [p.name for p in g.state.order if p.alive]
    out = {p.name for p in g.state.order}
    for e in g.events[:idx + 1]:
        if e.audience != PUBLIC:
            continue
        if e.type == "eliminated":
            out.discard(e.data.get("player"))
        elif e.type == "revived":
            out.add(e.data.get("player"))
    return [p.name for p in g.state.order if p.name in out]


def _next_phase_lines(w: Writer, events: list, nxt, deadline) -> list[str]:
    """What a ready-to-paste post ends with: who is still in the game, the next phase,
    its deadline, and (for a day) how to vote."""
    g = w.g
    alive = _living_after(g, events)
    out = ["", w.mark("heading", w.t("post", "alive", count=len(alive)))]
    seat_no = {p.name: i + 1 for i, p in enumerate(g.state.order)}
    out += w.items([w.t("start", "player_line", n=seat_no[p], player=w.who(p))
                    for p in alive])
    out.append("")
    kind = nxt.data.get("phase", nxt.phase.partition(" ")[0])
    out.append(w.t("post", "next_phase", phase=w.phase_label(nxt.phase)))
    if deadline:
        out.append(w.t("post", f"deadline_{kind}" if w.has("post", f"deadline_{kind}")
                       else "deadline", deadline=deadline_words(deadline, w.lang)))
    if kind == "day":
        out += w.vote_how()
    return out


#: Short names of the usual time zones of Russian forums (Moscow time and its offsets).
ZONES_RU = {3: "МСК", 2: "МСК−1", 4: "МСК+1", 5: "МСК+2", 6: "МСК+3", 7: "МСК+4",
            8: "МСК+5", 9: "МСК+6", 10: "МСК+7", 11: "МСК+8", 12: "МСК+9"}
ZONES_EN = {3: "MSK", 0: "UTC", 1: "CET", 2: "EET"}
MONTHS_RU = ("января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
             "сентября", "октября", "ноября", "декабря")
MONTHS_EN = ("January", "February", "March", "April", "May", "June", "July", "August",
             "September", "October", "November", "December")


def deadline_words(deadline, lang: str = "ru") -> str:
    """A deadline as players read it: «21:00 (МСК) 2 декабря» / "21:00 (MSK) on 2
    December", in the deadline's own zone (Moscow offsets by their forum names)."""
    if isinstance(deadline, str):
        try:
            deadline = datetime.fromisoformat(deadline)
        except ValueError:
            return deadline
    if not isinstance(deadline, datetime):
        return str(deadline)
    t = deadline
    zone = ""
    if t.tzinfo is not None and t.utcoffset() is not None:
        off = t.utcoffset().total_seconds() / 3600
        h = int(off) if off == int(off) else None
        table = ZONES_RU if lang == "ru" else ZONES_EN
        if h is not None and h in table:
            zone = table[h]
        else:
            sign = "+" if off >= 0 else "−"
            mins = int(abs(off) * 60)
            zone = f"UTC{sign}{mins // 60}" + (f":{mins % 60:02d}" if mins % 60 else "")
    clock = t.strftime("%H:%M") + (f" ({zone})" if zone else "")
    year = f" {t.year}" if t.year != datetime.now(t.tzinfo).year else ""
    if lang == "ru":
        return f"{clock} {t.day} {MONTHS_RU[t.month - 1]}{year}"
    return f"{clock} on {t.day} {MONTHS_EN[t.month - 1]}{year}"


def _resolved_label(g, events: list) -> str:
    """The phase the events are about: that of the first event that is not the next
    phase's start; with only a ``phase_started``, the phase before it."""
    label = next((e.phase for e in events if e.type != "phase_started"), None)
    if label is not None:
        return label
    nxt = next((e for e in events if e.type == "phase_started"), None)
    prev = ""
    for e in g.events:
        if e is nxt:
            return prev
        if e.type == "phase_started":
            prev = e.phase
    return ""


def _no_lynch(w: Writer, d: dict, tie) -> str:
    players = d.get("shielded") or tie or []
    variant = "shielded" if d.get("shielded") else d.get("why")
    key = f"no_lynch.{variant}" if w.has("post", f"no_lynch.{variant}") else "no_lynch"
    return w.t("post", key, players=", ".join(w.who(x) for x in players))


def _voters_words(w: Writer, target: str, voters, d: dict) -> str:
    """The voters of ``target``, with a non-voter's vote against himself (the rule that
    non-voters count against themselves) said as a penalty, not as a vote he cast."""
    silent = set(d.get("not_voted", ()))
    cast = [w.who(v) for v in voters if not (v == target and v in silent)]
    if len(cast) < len(voters):
        cast.append(w.t("post", "penalty_vote"))
    return ", ".join(cast)


def _count_lines(w: Writer, d: dict) -> list[str]:
    g = w.g
    seat = {p.name: p.seat for p in g.state.order}
    out = [w.mark("heading", w.t("post", "vote_count"))]
    counts = d.get("counts", {})
    rows = sorted(d.get("voters", {}).items(),
                  key=lambda kv: (-counts.get(kv[0], len(kv[1])), seat.get(kv[0], 0)))
    out += w.items([w.t("post", "vote_line", target=w.mark("name", w.who(target)),
                        count=_num(counts.get(target, len(voters))),
                        voters=_voters_words(w, target, voters, d))
                    for target, voters in rows])
    if d.get("against_all"):
        out.append(w.t("post", "against_all", count=d["against_all"]))
    if d.get("not_voted"):
        out.append(w.t("post", "not_voted", players=", ".join(w.who(x) for x in d["not_voted"])))
    if any(counts.get(t, len(v)) != len(v) for t, v in rows):
        out.append(w.t("post", "weighted"))   # «3: Егор, Зиновий» is a double vote, not a slip
    return out


def _num(x) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


# ---- the live vote count -------------------------------------------------------------------

def vote_count_post(g, lang: str = "ru", fmt: str = "plain", deadline=None) -> str:
    """The count so far, like a forum vote counter: each candidate with the names voting
    for them and a count (most votes first, then seating order), against all, abstained,
    who has not voted yet and who cannot vote today (only for publicly announced reasons).
    Made from the public votes alone: secret day effects (a boss's switch, a puppet) are
    applied only when the day is resolved."""
    w = Writer(g, lang, fmt)
    s = g.state
    lines = [w.mark("title", w.t("count", "title", number=s.number))]
    if s.phase != "day":
        lines.append(w.t("count", "not_day"))
        return "\n".join(lines)
    if deadline is not None:
        lines.append(w.t("count", "deadline", deadline=deadline_words(deadline, w.lang)))
    eligible = [p for p in s.order if p.alive and vote_loss(g, p) is None]
    can = {p.name for p in eligible}
    # voters in the order of their current vote (a change moves the voter to the end)
    order: dict[str, str] = {}
    start = max((i for i, e in enumerate(g.events) if e.type == "phase_started"), default=0)
    for e in g.events[start:]:
        if e.type == "vote" and e.audience == PUBLIC:
            order.pop(e.data["voter"], None)
            order[e.data["voter"]] = e.data["target"]
        elif e.type == "vote_withdrawn":
            order.pop(e.data["voter"], None)
    for v, t in s.votes.items():          # votes the event scan missed (none in practice)
        order.setdefault(v, t)
    for_: dict[str, list] = {}
    against, abstain = [], []
    for voter, target in order.items():
        if voter not in can or s.votes.get(voter) != target:
            continue
        if target == "against_all":
            against.append(voter)
        elif target == "abstain":
            abstain.append(voter)
        else:
            for_.setdefault(target, []).append(voter)
    seat = {p.name: p.seat for p in s.order}
    rows = sorted(for_.items(), key=lambda kv: (-len(kv[1]), seat.get(kv[0], 0)))
    if rows:
        lines += w.items([w.t("count", "line", target=w.mark("name", w.who(t)), count=len(vs),
                              voters=", ".join(w.who(v) for v in vs)) for t, vs in rows])
    if against:
        lines.append(w.t("count", "against_all", count=len(against),
                         voters=", ".join(w.who(v) for v in against)))
    if abstain:
        lines.append(w.t("count", "abstain", count=len(abstain),
                         voters=", ".join(w.who(v) for v in abstain)))
    if not rows and not against and not abstain:
        lines.append(w.t("count", "none"))
    missing = [p.name for p in eligible if p.name not in s.votes]
    if missing:
        lines.append(w.t("count", "not_voted", count=len(missing),
                         players=", ".join(w.who(x) for x in missing)))
    else:
        lines.append(w.t("count", "all_voted"))
    announced = [p for p in s.order if p.alive and p.name not in can
                 and any(s.has(p, k) for k in ("jailed", "silenced", "absent"))]
    if announced:
        lines.append(w.t("count", "cannot_vote",
                         players=", ".join(w.who(p.name) for p in announced)))
    if g.rules.day.nonvoters_against_self and missing:
        lines.append(w.t("count", "self_rule"))
    return "\n".join(lines)


# ---- the final post ------------------------------------------------------------------------

def final_post(g, seed_reveal: dict | None = None, lang: str = "ru",
               fmt: str = "plain") -> str:
    """The end: the winners, every player's role (and how it changed), the whole log
    night by night with the host's detail (every move, check, save and roll), and the
    seed and salt when ``seed_reveal`` is given so players can check every roll."""
    w = Writer(g, lang, fmt)
    s = g.state
    name = str((seed_reveal or {}).get("name") or "").strip()   # the game's own title
    lines = [w.mark("title", w.t("final", "title",
                                 title=neutral(name) if name else _title(g, lang)))]
    over = next((e for e in reversed(g.events) if e.type == "game_over"), None)
    winners = set(s.winners)
    if over is None:
        lines.append(w.t("final", "not_over"))
    elif over.data.get("winners"):
        lines.append(w.t("post", "game_over", **w.fields(over)))
    else:
        lines.append(w.t("post", "game_over_none"))
    solo = {f for f, spec in g.rules.factions.items() if spec.solo}

    def won(p) -> bool:
        return (p.faction in winners and p.faction not in solo) or p.role in winners

    if winners:
        names = [w.who(p.name) for p in s.order if won(p)]
        if names:
            lines.append(w.t("final", "winners", players=", ".join(names)))
    started = next((e for e in g.events if e.type == "game_started"), None)
    first_role = dict(map(tuple, started.data["players"])) if started else {}
    out_phase = {e.data["player"]: e.phase for e in g.events if e.type == "eliminated"}
    lines.append("")
    lines.append(w.mark("heading", w.t("final", "roles")))
    rows = []
    for p in s.order:
        was = first_role.get(p.name, p.role)
        changes = w.t("final", "role_was", role=w.role_name(was)) if was != p.role else ""
        mark = "" if p.alive else w.t("final", "dead_mark",
                                      phase=w.phase_label(out_phase.get(p.name, "")))
        if won(p):
            mark += w.t("final", "winner_mark")
        rows.append(w.t("final", "role_line", player=w.who(p.name),
                        role=w.role_name(p.role), faction=w.faction_name(p.faction),
                        changes=changes, mark=mark))
    lines += w.items(rows)
    lines.append("")
    lines.append(w.mark("spoiler", "\n".join(_log_lines(w)), title=w.t("final", "log_title")))
    if seed_reveal:
        lines.append("")
        lines.append(w.mark("heading", w.t("final", "seed_title")))
        for k, v in seed_reveal.items():
            if str(k).startswith("_"):
                continue
            if k in ("export", "name"):     # where the file is; the title, shown above
                continue
            key = k if k in ("seed", "salt", "commitment") else "seed_other"
            lines.append(w.t("final", key, key=k, value=v))
        where = str(seed_reveal.get("export") or "")
        if where.startswith("#file:"):
            lines.append(w.t("final", "export_file", id=where[6:]))
        elif where:
            lines.append(w.t("final", "export_url", url=where))
        lines.append(w.t("final", "verify"))
    return "\n".join(lines)


def log_sentences(g, events, lang: str = "ru", fmt: str = "plain") -> list[str]:
    """``events`` as the host's log tells them (sentences, under phase headings): what
    the preview and the host's log show; the final post shows the whole game's."""
    return _log_lines(Writer(g, lang, fmt), list(events))


def _log_lines(w: Writer, events: list | None = None) -> list[str]:
    """Every event (or ``events``), phase by phase, as the host sees it."""
    out: list[str] = []
    group = None
    tie = None
    seen: set[str] = set()
    # a seat is named by the nick it was played under at each moment: its original
    # player's before a замена, the replacement's after it
    evs = w.g.events if events is None else events
    if events is None:
        w.nicks = {p.name: p.name for p in w.g.state.order}
    for e in evs:
        label = e.phase
        if label != group:
            group = label
            seen = set()
            out.append(w.mark("heading", w.phase_label(label) if label
                              else w.t("log", "setup_title")))
        d = e.data
        if e.type == "game_over" and not d.get("winners"):
            line = w.t("log", "game_over_none")
        elif e.type == "tie":
            tie = d.get("players", [])
            line = w.t("log", "tie", players=", ".join(w.who(x) for x in tie))
        elif e.type == "no_lynch":
            line = _no_lynch(w, d, tie)
        elif e.type == "vote_count":
            counts = d.get("counts", {})
            rows = sorted(d.get("voters", {}).items(),
                          key=lambda kv: -counts.get(kv[0], len(kv[1])))
            summary = "; ".join(
                w.t("post", "vote_line", target=w.who(t), voters=_voters_words(w, t, vs, d),
                    count=_num(counts.get(t, len(vs)))) for t, vs in rows)
            line = w.t("log", "vote_count", summary=summary or w.term("nobody"),
                       against_all=d.get("against_all", 0),
                       not_voted=", ".join(map(w.who, d.get("not_voted", ())))
                       or w.term("nobody"))
        elif e.type == "question_asked":
            words = {o[0]: (o[1] if w.lang == "ru" else o[2]) for o in d["options"]}
            line = w.t("log", "question_asked", id=d["id"], to=w.name(d["to"]),
                       options="; ".join(words.values()),
                       default=words.get(d["default"], d["default"]))
        elif e.type == "vote_count_real":
            counts = d.get("counts", {})
            summary = "; ".join(
                w.t("post", "vote_line", target=w.who(t), voters=", ".join(map(w.who, vs)),
                    count=_num(counts.get(t, len(vs)))) for t, vs in d.get("voters", {}).items())
            line = w.t("log", "vote_count_real", summary=summary or w.term("nobody"),
                       void=", ".join(map(w.who, d.get("void", ()))))
        else:
            if e.type == "phase_started":
                tie = None
            line = w.event_line(("log", "post"), e, w.variants(e))
        if e.type == "replaced" and w.nicks is not None and e.data.get("player") in w.nicks:
            w.nicks[e.data["player"]] = e.data.get("by") or w.nicks[e.data["player"]]
        if line and line not in seen:      # a team message sent to each member: once
            seen.add(line)
            out.append(w.mark("log_item", line))
    w.nicks = None
    return out


# ---- role cards and private messages ------------------------------------------------------

def role_card(g, player: str, lang: str = "ru", fmt: str = "plain") -> str:
    """What a player is told at the start: role, side and goal, abilities (with their text
    and when they act), the known teammates, and how to vote."""
    w = Writer(g, lang, fmt)
    seat = _seat(g, player)
    p = g.state.players[seat]
    rules = g.rules
    role = rules.roles[p.role]
    fac = rules.factions.get(p.faction)
    ru = lang == "ru"
    lines = [w.mark("title", w.t("card", "title", role=w.role_name(p.role)))]
    lines.append(w.t("card", "faction", faction=w.faction_name(p.faction)))
    goal = (fac.goal_ru if ru else fac.goal_en) if fac else ""
    if goal:
        lines.append(w.t("card", "goal", goal=goal))
    text = role.text_ru if ru else role.text_en
    if text:
        lines.append(text)
    abilities = [rules.abilities[f"{p.role}.{a}"] for a in role.abilities]
    groups = (rules.card or {}).get("groups") or []
    group_of = {a: i for i, gr in enumerate(groups) for a in gr.get("abilities", ())}
    grouped: dict[int, list] = {}
    lines.append("")
    if abilities:
        lines.append(w.mark("heading", w.t("card", "abilities")))
        rows = []
        for a, ab in zip(role.abilities, abilities, strict=True):
            if _unseated(g, p, ab):      # a move for a role this game does not seat
                continue
            if a in group_of:
                grouped.setdefault(group_of[a], []).append(ab)
                continue
            rows.append(_card_row(w, rules, ab, ru))
        sections: list[str] = []          # the groups listed under headings of their own
        for i, gr in enumerate(groups):
            members = grouped.get(i)
            if not members:
                continue
            head = gr["ru"] if ru else gr["en"]
            if gr.get("list") == "names":
                cut = gr.get("strip_ru" if ru else "strip_en") or ""
                names = [(ab.name_ru if ru else ab.name_en) for ab in members]
                names = [x[len(cut):] if cut and x.startswith(cut) else x for x in names]
                rows.append(f"{w.mark('bold', head)}: {', '.join(names)}.")
            else:
                sections += ["", w.mark("heading", head)]
                sections += w.items([_card_row(w, rules, ab, ru) for ab in members])
        lines += w.items(rows) + sections
    else:
        lines.append(w.t("card", "no_abilities"))
    teams: dict[str, list] = {}
    for e in g.events:
        if e.type == "team" and e.audience not in (PUBLIC, HOST) and e.visible_to(seat):
            teams[e.data.get("faction")] = e.data.get("members", [])
    for fid, members in teams.items():
        lines.append(w.t("card", "team", faction=w.faction_name(fid),
                         members=", ".join(w.who(m) for m in members)))
    how = w.vote_how()
    if how:
        lines.append("")
        lines += how
    return "\n".join(lines)


def _unseated(g, p, ab) -> bool:
    """The move needs a role this game does not seat (``role_seated``: the classic mafia's
    second shot without a sleepwalker, mafia-yakuza's orders without a killer), so the card
    does not offer it; judged by the seating, as the refusal is."""
    from ..engine.mechanics.targets import role_seated
    return any(isinstance(c, dict) and "role_seated" in c
               and role_seated(g, p, ab, (), c["role_seated"]) is not None
               for c in ab.constraints)


def _card_row(w, rules, ab, ru: bool) -> str:
    """One ability's line on a role card: its name, when it acts, its limits and text."""
    if ab.while_dead:
        when = w.t("card", "when_dead")
    elif ab.phase == "day":
        when = w.t("card", "when_day")
    elif ab.step is not None and ab.step in rules.step_index:
        st = rules.steps[rules.step_index[ab.step]]
        when = w.t("card", "when_night", step=(st.name_ru if ru else st.name_en) or st.id)
    else:
        when = w.t("card", "when_night_nostep")
    extra = []
    if ab.targets > 1:             # no count for a move on nobody (a description)
        extra.append(w.t("card", "targets", n=ab.targets))
    if ab.uses_per_game is not None:
        extra.append(w.t("card", "uses", n=ab.uses_per_game))
    req = ab.requires_ru if ru else ab.requires_en
    if req:
        extra.append(w.t("card", "requires", requires=req))
    if extra:
        when += ", " + ", ".join(extra)
    return w.t("card", "ability", name=w.mark("bold", ab.name_ru if ru else ab.name_en),
               id=ab.id, when=when, text=ab.text_ru if ru else ab.text_en)


def question_line(w: Writer, e) -> str:
    """A question put to a player (``question_asked``): the rule set's sentence for its
    kind, the answers to choose from and what happens if he stays silent."""
    d = e.data
    ru = w.lang == "ru"
    labels = {o[0]: (o[1] if ru else o[2]) for o in d["options"]}
    about = ", ".join(w.who(x) for x in d.get("about", ()))
    text = (w.t("pm", f"question.{d['kind']}_{d['variant']}", about=about) if d.get("variant")
            else "") or w.t("pm", "question." + d["kind"], about=about) or w.t("pm", "question")
    number = {k: i for i, k in enumerate(labels, 1)}      # answered by number (or words)
    return w.t("pm", "question_asked", id=d["id"], text=text,
               options="; ".join(f"{number[k]} — {v}" for k, v in labels.items()),
               default=labels.get(d["default"], d["default"]),
               default_id=number.get(d["default"], 1),
               due=w.phase_label(d.get("due_phase", "")))


def private_messages(g, events, player: str, lang: str = "ru", fmt: str = "plain") -> str:
    """Every event in ``events`` addressed to ``player`` (never a public or host-only one)
    as sentences for that player, grouped by phase; "" when there is none."""
    w = Writer(g, lang, fmt)
    seat = _seat(g, player)
    lines: list[str] = []
    group = None
    said: set[str] = set()          # this phase's "met" lines: two who found each other
    for e in events:
        if e.audience in (PUBLIC, HOST) or not e.visible_to(seat):
            continue
        line = question_line(w, e) if e.type == "question_asked" else \
            w.event_line("pm", e, w.variants(e, seat), to=seat)
        if not line:
            continue
        if e.phase != group:
            said = set()
        if e.type == "met":          # (both searches) meet once, not twice
            if line in said:
                continue
            said.add(line)
        if e.phase != group:
            group = e.phase
            lines.append(w.mark("heading", w.t("pm", "phase_title",
                                               phase=w.phase_label(e.phase))))
        lines.append(line)
    return "\n".join(lines)
