"""Votes from a forum thread: read a dump of posts, find the votes in them.

``parse_dump(text)`` reads a dump (a JSON or YAML list of posts, or thread pages pasted as
BBCode with a header line per post; the formats are in ``docs/posts.md``) into ``Post``s.
``find_votes(posts, g, deadline)`` finds each post's vote by the ruleset's forum convention
(``g.rules.forum["vote_markup"]``: ``spoiler`` — ``[spoiler=Голос против]Имя[/spoiler]``,
seed 003; ``red`` — ``[color=red]Имя[/color]``, seeds 000 and 001), matches names without
guessing, and tries every vote on a copy of the game so the engine's own rules (who may
vote, against all, vote-change limits) decide; whatever is not counted is reported with the
reason. Nothing here changes the game: the caller applies ``report.votes`` in order.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime

import yaml

from .engine.errors import Refused
from .engine.game import Game

DEFAULT_MARKUP = ["spoiler", "red"]


@dataclass
class Post:
    id: str | None
    author: str
    time: datetime | None
    text: str


@dataclass
class VoteReport:
    """``votes``: (voter seat, target seat or ``"against_all"``, the post) in the order to
    apply them; ``problems``: sentences about every vote not counted, and why;
    ``notes``: sentences about votes counted after a reading the host may want to check
    (a name matched by a close spelling or an alias)."""
    votes: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    notes: list = field(default_factory=list)


class DumpError(Refused):
    """A dump that cannot be read: names the post and the field, and what is allowed."""


# ---- times ----------------------------------------------------------------------------------

_MONTHS = {
    "янв": 1, "фев": 2, "мар": 3, "апр": 4, "май": 5, "мая": 5, "июн": 6, "июл": 7,
    "авг": 8, "сен": 9, "окт": 10, "ноя": 11, "дек": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
    "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}
_MONTH_WORD = r"([A-Za-zА-Яа-яЁё]{3,9})\.?"
_TIME = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?", re.I)
_DATES = [
    (re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})"), ("y", "m", "d")),
    (re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})(?!\d)"), ("d", "m", "y")),
    (re.compile(r"(\d{1,2})\s+" + _MONTH_WORD + r",?\s+(\d{4})"), ("d", "mw", "y")),
    (re.compile(_MONTH_WORD + r"\s+(\d{1,2}),?\s+(\d{4})"), ("mw", "d", "y")),
]


def parse_time(value) -> datetime | None:
    """A post's time from a dump: a datetime, a Unix time, ISO 8601 (with or without a zone),
    ``12.03.2024 21:15``, ``12 мар 2024, 21:15``, ``12 марта 2024 в 21:15``,
    ``Tue Mar 12, 2024 9:15 pm``. None when there is no date in it."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return datetime.fromtimestamp(value, tz=UTC)
    s = str(value).strip()
    if re.fullmatch(r"\d{9,11}", s):
        return datetime.fromtimestamp(int(s), tz=UTC)
    try:
        return datetime.fromisoformat(s)
    except ValueError:
        pass
    for rx, order in _DATES:
        m = rx.search(s)
        if not m:
            continue
        parts = dict(zip(order, m.groups(), strict=True))
        if "mw" in parts:
            month = _MONTHS.get(parts["mw"][:3].lower())
            if month is None:
                continue
        else:
            month = int(parts["m"])
        year = int(parts["y"])
        if year < 100:
            year += 2000
        rest = s[m.end():]
        t = _TIME.search(rest) or _TIME.search(s[:m.start()])
        hh = mm = ss = 0
        if t:
            hh, mm, ss = int(t.group(1)), int(t.group(2)), int(t.group(3) or 0)
            ampm = (t.group(4) or "").lower().replace(".", "")
            if ampm == "pm" and hh < 12:
                hh += 12
            elif ampm == "am" and hh == 12:
                hh = 0
        try:
            return datetime(year, month, int(parts["d"]), hh, mm, ss)
        except ValueError:
            return None
    return None


def _comparable(a: datetime, b: datetime) -> tuple[datetime, datetime]:
    """Times as written: a naive time is taken in the zone of the other one."""
    if (a.tzinfo is None) != (b.tzinfo is None):
        if a.tzinfo is None:
            a = a.replace(tzinfo=b.tzinfo)
        else:
            b = b.replace(tzinfo=a.tzinfo)
    return a, b


def _after(a: datetime, b: datetime) -> bool:
    a, b = _comparable(a, b)
    return a > b


# ---- reading a dump ------------------------------------------------------------------------

def parse_dump(text: str) -> list[Post]:
    """The posts of a dump, in thread order (see ``docs/posts.md``):

    - a JSON list (or ``{"posts": [...]}``) of ``{author, time, text, id?}``;
    - the same as YAML;
    - pasted BBCode pages: ``[post author=… time=… id=…]…[/post]`` blocks, or posts that
      each start with a header line (``Автор: Ник``, ``Ник написал(а) 12.03.2024 21:15:``,
      phpBB's ``Сообщение Ник » 12 мар 2024, 21:15``), optionally followed by
      ``Дата: …`` and ``#id`` lines.
    """
    s = text.lstrip("\ufeff").strip()
    if not s:
        return []
    if s[0] in "[{":
        try:
            data = json.loads(s)
        except ValueError:
            data = None
        if data is not None:
            return _structured(data, "JSON")
    if re.match(r"(-\s|posts\s*:)", s):
        try:
            data = yaml.safe_load(s)
        except yaml.YAMLError as e:
            raise DumpError(f"Дамп похож на YAML, но не читается: {e}.",
                            f"The dump looks like YAML but cannot be read: {e}.") from e
        return _structured(data, "YAML")
    return _pasted(s)


def _structured(data, kind: str) -> list[Post]:
    if isinstance(data, dict) and isinstance(data.get("posts"), list):
        data = data["posts"]
    if not isinstance(data, list):
        raise DumpError(f"Дамп {kind} должен быть списком постов (или {{posts: [...]}}).",
                        f"A {kind} dump must be a list of posts (or {{posts: [...]}}).")
    out = []
    for i, item in enumerate(data, 1):
        if not isinstance(item, dict):
            raise DumpError(f"Пост {i} в дампе {kind} — не запись с полями author, time, text.",
                            f"Post {i} of the {kind} dump is not a record with author, "
                            f"time, text.")
        for key in ("author", "text"):
            if not isinstance(item.get(key), str) or (key == "author" and
                                                      not item[key].strip()):
                raise DumpError(f"У поста {i} в дампе {kind} нет поля «{key}» (строка).",
                                f"Post {i} of the {kind} dump has no '{key}' (a string).")
        raw_time = item.get("time")
        when = parse_time(raw_time)
        if raw_time not in (None, "") and when is None:
            raise DumpError(f"Время поста {i} «{raw_time}» не читается; пишите "
                            f"2024-03-12T21:15 или 12.03.2024 21:15.",
                            f"Post {i}'s time '{raw_time}' cannot be read; write "
                            f"2024-03-12T21:15 or 12.03.2024 21:15.")
        pid = item.get("id")
        out.append(Post(None if pid is None else str(pid), item["author"].strip(), when,
                        item["text"]))
    return out


_ATTR = re.compile(r"""(\w+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s\]]+))""")
_POST_OPEN = re.compile(r"\[post\b([^\]]*)\]", re.I)
_POST_CLOSE = re.compile(r"\[/post\]", re.I)
_ID = r"(?:\s*(?:#|№)\s*(?:p)?(\d+))?"
_HEADERS = [
    # Автор: Ник [| Дата: 12.03.2024 21:15] [#17]
    re.compile(r"^\s*(?:Автор|Author)\s*:\s*(?P<author>[^|#\n]+?)\s*"
               r"(?:[|,;]\s*(?:(?:Дата|Время|Date|Time)\s*:\s*)?(?P<time>[^|#\n]*?\d[^|#\n]*?))?"
               r"\s*(?:[|,;]?\s*(?:#|№)\s*p?(?P<id>\d+))?\s*$", re.I),
    # Ник написал(а) 12.03.2024 в 21:15:   /   Nick wrote on 12.03.2024 21:15:
    re.compile(r"^\s*(?P<author>\S(?:.*?\S)?)\s+(?:написал\(а\)|написала?|wrote)"
               r"\s+(?:on\s+)?(?P<time>\S.*?\d.*?)\s*:?" + _ID.replace("(\\d+)", "(?P<id>\\d+)")
               + r"\s*$", re.I),
    # phpBB: Сообщение Ник » 12 мар 2024, 21:15   /   Post by Nick » Tue Mar 12, 2024 9:15 pm
    re.compile(r"^\s*(?:#p?(?P<id>\d+)\s+)?(?:Сообщение|Post\s+by|by)\s+(?P<author>.+?)\s*»"
               r"\s*(?P<time>.+?)\s*$", re.I),
]
_TITLE = re.compile(r"^\s*(?:Re|Ответ)\s*:", re.I)
_META_TIME = re.compile(r"^\s*(?:Дата|Время|Отправлено|Date|Time|Posted)\s*:\s*(?P<time>.+?)\s*$",
                        re.I)
_META_ID = re.compile(r"^\s*(?:(?:Сообщение|Пост|Post|ID)\s*)?(?:#|№|id\s*:)\s*p?(?P<id>\d+)\s*$",
                      re.I)


def _header(line: str):
    for rx in _HEADERS:
        m = rx.match(line)
        if m and m.group("author").strip():
            t = m.group("time")
            if rx is not _HEADERS[0] and parse_time(t) is None:
                continue                  # "Ник написал(а):" without a date is a quote
            return m.group("author").strip(), t, m.group("id")
    return None


def _pasted(s: str) -> list[Post]:
    if _POST_OPEN.search(s):
        return _wrapped(s)
    lines = s.splitlines()
    posts: list[Post] = []
    cur = None
    body: list[str] = []
    meta_left = 0

    def flush():
        # phpBB prints the next post's title ("Re: ...") above its header: not post text
        while body and (not body[-1].strip() or _TITLE.match(body[-1])):
            body.pop()
        if cur is not None:
            posts.append(Post(cur["id"], cur["author"], cur["time"],
                              "\n".join(body).strip("\n")))

    for line in lines:
        h = _header(line)
        if h is not None:
            flush()
            author, t, pid = h
            cur = {"author": author, "time": parse_time(t), "id": pid}
            body = []
            meta_left = 3
            continue
        if cur is not None and meta_left and not body:
            meta_left -= 1
            mt = _META_TIME.match(line)
            if mt and cur["time"] is None and parse_time(mt.group("time")):
                cur["time"] = parse_time(mt.group("time"))
                continue
            mi = _META_ID.match(line)
            if mi and cur["id"] is None:
                cur["id"] = mi.group("id")
                continue
            if not line.strip():
                continue
        if cur is not None:
            body.append(line)
    flush()
    if not posts:
        raise DumpError(
            "В дампе не найдено ни одного поста. Каждый пост начинается строкой-заголовком "
            "(«Автор: Ник», «Ник написал(а) 12.03.2024 21:15:», «Сообщение Ник » 12 мар "
            "2024, 21:15») или обёрнут в [post author=Ник time=...]...[/post]; либо дайте "
            "JSON/YAML-список {author, time, text, id}.",
            "No post found in the dump. Each post starts with a header line ('Author: Nick', "
            "'Nick wrote 12.03.2024 21:15:', 'Post by Nick » Tue Mar 12, 2024 9:15 pm') or is "
            "wrapped in [post author=Nick time=...]...[/post]; or give a JSON/YAML list of "
            "{author, time, text, id}.")
    return posts


def _wrapped(s: str) -> list[Post]:
    posts = []
    pos = 0
    n = 0
    while True:
        m = _POST_OPEN.search(s, pos)
        if not m:
            break
        n += 1
        attrs = {a.group(1).lower(): next(x for x in a.groups()[1:] if x is not None)
                 for a in _ATTR.finditer(m.group(1))}
        end = _POST_CLOSE.search(s, m.end())
        nxt = _POST_OPEN.search(s, m.end())
        if end is None or (nxt is not None and nxt.start() < end.start()):
            raise DumpError(f"Пост {n} ([post] в позиции {m.start()}) не закрыт тегом [/post].",
                            f"Post {n} ([post] at offset {m.start()}) has no closing [/post].")
        author = (attrs.get("author") or "").strip()
        if not author:
            raise DumpError(f"У поста {n} нет author=… в теге [post].",
                            f"Post {n} has no author=… in its [post] tag.")
        raw = attrs.get("time")
        when = parse_time(raw)
        if raw and when is None:
            raise DumpError(f"Время поста {n} «{raw}» не читается.",
                            f"Post {n}'s time '{raw}' cannot be read.")
        posts.append(Post(attrs.get("id"), author, when, s[m.end():end.start()].strip("\n")))
        pos = end.end()
    return posts


# ---- BBCode ------------------------------------------------------------------------------

_QUOTE_TAG = re.compile(r"\[\s*(/)?\s*quote\b[^\]]*\]", re.I)
_LITERAL = re.compile(r"\[(code|noparse)\b[^\]]*\].*?\[/\1\]", re.I | re.S)
_SPOILER = re.compile(r"\[\s*spoiler\s*=\s*[\"']?([^\]\"']*)[\"']?\s*\](.*?)\[\s*/\s*spoiler\s*\]",
                      re.I | re.S)
_COLOR = re.compile(r"\[\s*colou?r\s*=\s*[\"']?([#\w]+)[\"']?\s*\](.*?)\[\s*/\s*colou?r\s*\]",
                    re.I | re.S)
_TAG = re.compile(r"\[/?\s*[a-z*]+(?:=[^\]]*)?\]", re.I)
_RED_NAMES = {"red", "darkred", "crimson", "firebrick", "#f00", "#ff0000"}


def unquoted(text: str) -> tuple[str, bool]:
    """The text outside every [quote]…[/quote] (nested too) and outside [code] and
    [noparse] (shown literally on a forum), and whether a quote was left open (the rest of
    the post is then treated as quoted)."""
    text = _LITERAL.sub(" ", text)
    out = []
    depth = 0
    pos = 0
    for m in _QUOTE_TAG.finditer(text):
        if depth == 0:
            out.append(text[pos:m.start()])
        if m.group(1):
            depth = max(0, depth - 1)
        else:
            depth += 1
        pos = m.end()
    if depth == 0:
        out.append(text[pos:])
    return "".join(out), depth > 0


def _is_red(color: str) -> bool:
    c = color.lower()
    if c in _RED_NAMES:
        return True
    m = re.fullmatch(r"#([0-9a-f]{3}|[0-9a-f]{6})", c)
    if not m:
        return False
    h = m.group(1)
    if len(h) == 3:
        h = "".join(x * 2 for x in h)
    r, g, b = int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
    return r >= 0xB0 and g <= 0x50 and b <= 0x50


def marks(text: str) -> list[tuple[int, str, str]]:
    """Every vote-like markup outside quotes: (position, kind, content), in post order.
    ``spoiler``: a spoiler titled «Голос…»/«Vote…»; ``red``: red text (not inside such a
    spoiler)."""
    found = []
    spans = []
    for m in _SPOILER.finditer(text):
        title = _soft(m.group(1))
        if title.startswith("голос") or title.startswith("vote"):
            found.append((m.start(), "spoiler", m.group(2)))
            spans.append((m.start(), m.end()))
    for m in _COLOR.finditer(text):
        if _is_red(m.group(1)) and not any(a <= m.start() < b for a, b in spans):
            found.append((m.start(), "red", m.group(2)))
    found.sort()
    return found


# ---- names -------------------------------------------------------------------------------

# Latin letters that look like Cyrillic ones, after casefold: a name typed with a mixed
# keyboard still matches
_LOOKALIKE = str.maketrans({"a": "а", "c": "с", "e": "е", "o": "о", "p": "р", "x": "х",
                            "y": "у", "k": "к", "ё": "е"})
_EDGE = " \t.,!?:;\"'«»“”„()[]{}<>@*_~-—–"


def _soft(s: str) -> str:
    """Case-folded, ё=е, zero-width marks dropped, spaces collapsed, edge punctuation cut."""
    s = unicodedata.normalize("NFC", s)
    s = "".join(ch for ch in s if unicodedata.category(ch) != "Cf")
    s = s.casefold().replace("ё", "е")
    return " ".join(s.split()).strip(_EDGE)


def _norm(s: str) -> str:
    """``_soft`` with Latin look-alikes read as Cyrillic: the form names are compared in."""
    return _soft(s).translate(_LOOKALIKE).strip(_EDGE)


def distance(a: str, b: str) -> int:
    """Edit distance with transpositions (Damerau–Levenshtein, optimal string alignment)."""
    if a == b:
        return 0
    la, lb = len(a), len(b)
    prev2 = None
    prev = list(range(lb + 1))
    for i in range(1, la + 1):
        cur = [i] + [0] * lb
        for j in range(1, lb + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if prev2 is not None and i > 1 and j > 1 and a[i - 1] == b[j - 2] \
                    and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[lb]


def close_enough(name: str) -> int:
    """How many edits a spelling may be off and still be read as ``name``."""
    n = len(name)
    return 0 if n < 3 else 1 if n <= 5 else 2 if n <= 9 else 3


_LEAD = r"^(?:(?:я\s+)?голосую\s+|голос\s+|i\s+vote\s+|vote\s+)?"
_AGAINST_ALL = re.compile(_LEAD + r"(?:против\s+всех|against\s+(?:all|everyone))(?!\w)")
_AGAINST = re.compile(_LEAD + r"(?:против|за|against|for)\s+")
_SEP = re.compile(r"[,;:!?()\n]|\s[-–—]\s|\.\s|\s[-–—]$")


class Names:
    """Who a name in a post means: exact (seat name, current nick, alias), case-insensitive
    with ё=е, or a unique close spelling; an ambiguous or unknown name is never guessed."""

    def __init__(self, g, aliases: dict | None = None):
        self.g = g
        self.keys: dict[str, set[str]] = {}
        self.kind: dict[str, str] = {}
        for p in g.state.order:
            self._add(p.name, p.name, "name")
            self._add(g.display(p.name), p.name, "name")
        for alias, who in (aliases or {}).items():
            seat = self._seat_of(who)
            if seat is None:
                raise DumpError(f"Псевдоним «{alias}» указывает на «{who}», а такого игрока "
                                f"нет.", f"Alias '{alias}' points to '{who}', who is not a "
                                f"player.")
            self._add(alias, seat, "alias")
        self.former = {}                  # old nick -> seat, for replaced players
        for e in g.events:
            if e.type == "replaced":
                self.former[_norm(e.data.get("was", ""))] = e.data["player"]

    def _seat_of(self, who: str):
        k = _norm(who)
        seats = self.keys.get(k)
        return next(iter(seats)) if seats and len(seats) == 1 else None

    def _add(self, name: str, seat: str, kind: str) -> None:
        k = _norm(name)
        if k:
            self.keys.setdefault(k, set()).add(seat)
            self.kind.setdefault(k, kind)

    def author(self, nick: str):
        """The seat that posts under ``nick`` (exact, case-insensitive, ё=е), or None. A
        replaced player's old nick no longer speaks for the seat."""
        k = _norm(nick)
        seats = self.keys.get(k)
        if not seats or len(seats) != 1:
            return None
        seat = next(iter(seats))
        if self.kind.get(k) == "alias" or k == _norm(self.g.display(seat)):
            return seat
        return None

    def read(self, raw: str):
        """(target, how, candidates): target is a seat, ``against_all`` or None; how is
        ``exact`` | ``alias`` | ``close`` | ``ambiguous`` | ``unknown`` | ``empty``;
        candidates are the seats a name could mean (for the report)."""
        text = _TAG.sub("", raw)
        line = next((x for x in text.splitlines() if x.strip()), "")
        soft = _soft(line)
        if not soft:
            return None, "empty", []
        if _AGAINST_ALL.match(soft):
            return "against_all", "exact", []
        n = _norm(_AGAINST.sub("", soft, count=1))
        tokens = n.split()
        for k in range(min(len(tokens), 6), 0, -1):
            key = " ".join(tokens[:k]).strip(_EDGE)
            seats = self.keys.get(key)
            if seats:
                if len(seats) > 1:
                    return None, "ambiguous", sorted(seats)
                return next(iter(seats)), ("alias" if self.kind[key] == "alias"
                                           else "exact"), []
        seg = _SEP.split(n, 1)[0].strip(_EDGE)
        if not seg:
            return None, "unknown", []
        # a name that starts two players' names ("Саша" for "Саша К" and "Саша М")
        pref = {s for key, seats in self.keys.items() if key.startswith(seg + " ")
                for s in seats}
        if len(pref) > 1:
            return None, "ambiguous", sorted(pref)
        stoks = seg.split()
        phrases = [seg] + [" ".join(stoks[:k]) for k in range(min(len(stoks) - 1, 3), 0, -1)]
        for ph in phrases:
            near = {s for key, seats in self.keys.items()
                    if distance(ph, key) <= close_enough(key) for s in seats}
            if len(near) == 1:
                return next(iter(near)), "close", []
            if len(near) > 1:
                return None, "ambiguous", sorted(near)
        hint = sorted({s for key, seats in self.keys.items()
                       if key.startswith(seg) or distance(seg, key) <= max(2, len(key) // 2)
                       for s in seats})
        return None, "unknown", hint


# ---- finding votes ---------------------------------------------------------------------------

def _dedupe(posts: list[Post]) -> list[Post]:
    """A post id seen twice (an edit pasted again) keeps its first place and the later text."""
    out: list[Post] = []
    where: dict[str, int] = {}
    for p in posts:
        if p.id is not None and p.id in where:
            i = where[p.id]
            old = out[i]
            out[i] = Post(p.id, p.author or old.author, p.time or old.time, p.text)
        else:
            if p.id is not None:
                where[p.id] = len(out)
            out.append(p)
    if out and all(p.time is not None for p in out):
        try:
            out.sort(key=lambda p: _sortable(p.time))
        except TypeError:
            pass
    return out


def _sortable(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def _ref(post: Post, i: int, lang: str) -> str:
    when = post.time.strftime("%d.%m.%Y %H:%M") if post.time else ("время неизвестно"
                                                                   if lang == "ru" else
                                                                   "no time")
    num = f"#{post.id}" if post.id is not None else (f"№{i}" if lang == "ru" else f"no. {i}")
    return (f"Пост {num} ({post.author}, {when})" if lang == "ru"
            else f"Post {num} ({post.author}, {when})")


def _say(lang: str, ru: str, en: str) -> str:
    return ru if lang == "ru" else en


def _markup_of(g) -> list[str]:
    m = g.rules.forum.get("vote_markup", DEFAULT_MARKUP)
    return [m] if isinstance(m, str) else list(m)


def find_votes(posts, g, deadline: datetime | None = None, *, aliases: dict | None = None,
               lang: str = "ru") -> VoteReport:
    """The votes in ``posts`` for the game ``g`` (the current day) that are not recorded
    yet, in the order to apply them, and every vote not counted with the reason.

    A post's last vote counts (an earlier one in the same post is superseded); text inside
    [quote] (nested too) and [code] never counts; a repeated post id keeps the later text
    (an edit). Votes after ``deadline``, by non-players, by players out of the game or
    without a vote today, against all on a day that does not allow it, and changes beyond
    the day's limit are reported, not counted: the thread's votes are tried in order on a
    copy of the game, so the engine's own rules decide. A vote equal to the voter's current
    one is left out (it changes nothing and must not spend a vote change).

    Importing the same thread again is safe: when the day's recorded votes are exactly the
    first votes found in ``posts`` (an earlier import of the same thread), only the later
    ones are returned. Otherwise (only new posts given, or votes typed by hand) the posts'
    votes are tried after the recorded ones. ``aliases`` maps extra names (nicknames) to
    players; ``lang`` is the language of the sentences (ru | en)."""
    report = VoteReport()
    if g.state.phase != "day":
        report.problems.append(_say(lang, "Сейчас не день: голоса не принимаются.",
                                    "It is not day: votes are not taken."))
        return report
    cands, problems, notes = _read_votes(posts, g, deadline, aliases, lang)
    start = max((i for i, e in enumerate(g.events) if e.type == "phase_started"), default=0)
    day = g.events[start + 1:]
    recorded = [(e.data["voter"], e.data["target"]) for e in day
                if e.type == "vote" and not e.data.get("void")]
    fresh = g.events[:start + 1] + [e for e in day
                                    if e.type != "vote" or e.data.get("void")]
    votes, refused = _try_votes(Game.replay(g.rules, fresh), cands, lang)
    if [(v, t) for v, t, _ in votes[:len(recorded)]] == recorded:
        votes = votes[len(recorded):]
    else:
        votes, refused = _try_votes(Game.replay(g.rules, list(g.events)), cands, lang)
    used = {id(post) for _v, _t, post in votes}
    for i, post, how, shown, target in ((c[0], c[1], c[4], c[5], c[3]) for c in cands):
        if id(post) not in used:
            continue
        ref = _ref(post, i, lang)
        if how == "close":
            notes.append((i, _say(
                lang, f"{ref}: «{shown}» прочитано как {g.display(target)} (близкое "
                      f"написание).",
                f"{ref}: '{shown}' read as {g.display(target)} (a close spelling).")))
        elif how == "alias":
            notes.append((i, _say(
                lang, f"{ref}: «{shown}» — псевдоним игрока {g.display(target)}.",
                f"{ref}: '{shown}' is an alias of {g.display(target)}.")))
    report.votes = votes
    report.problems = [x for _i, x in sorted(problems + refused, key=lambda t: t[0])]
    report.notes = [x for _i, x in sorted(notes, key=lambda t: t[0])]
    return report


def _try_votes(copy: Game, cands, lang):
    """Each candidate vote tried in order on ``copy``: (accepted votes, refusals)."""
    votes, refused = [], []
    for i, post, voter, target, _how, _shown in cands:
        if copy.state.votes.get(voter) == target:
            continue
        try:
            copy.vote(voter, target)
        except Refused as r:
            refused.append((i, f"{_ref(post, i, lang)}: "
                               f"{r.ru if lang == 'ru' else (r.en or r.ru)}"))
            continue
        votes.append((voter, target, post))
    return votes, refused


def _read_votes(posts, g, deadline, aliases, lang):
    """What each post votes for, before the game's rules are asked: candidates
    (index, post, voter, target, how, shown), problems and notes as (index, sentence)."""
    names = Names(g, aliases)
    allowed = _markup_of(g)
    where = {"spoiler": "[spoiler=Голос против]Имя[/spoiler]",
             "red": "[color=red]Имя[/color]"}
    conv = ", ".join(where.get(k, k) for k in allowed)
    cands, problems, notes = [], [], []

    def say(i, ru, en):
        problems.append((i, _say(lang, ru, en)))

    for i, post in enumerate(_dedupe(list(posts)), 1):
        text, open_quote = unquoted(post.text)
        ref = _ref(post, i, lang)
        if open_quote:
            say(i, f"{ref}: цитата [quote] не закрыта; текст после неё считается цитатой.",
                f"{ref}: a [quote] is not closed; the text after it is taken as quoted.")
        found = marks(text)
        for _pos, kind, body in found:
            if kind not in allowed:
                target, how, _c = names.read(body)
                if target is not None and how in ("exact", "alias"):
                    say(i, f"{ref}: «{_plain(body)}» оформлено не по правилам этой игры "
                           f"(голос: {conv}) и не засчитано.",
                        f"{ref}: '{_plain(body)}' is not marked up the way this game votes "
                        f"({conv}) and is not counted.")
        votes = [(pos, kind, body) for pos, kind, body in found if kind in allowed]
        if not votes:
            continue
        body = votes[-1][2]
        voter = names.author(post.author)
        if voter is None:
            seat = names.former.get(_norm(post.author))
            if seat is not None:
                say(i, f"{ref}: {post.author} заменён(а) игроком {g.display(seat)}; голос не "
                       f"засчитан.",
                    f"{ref}: {post.author} was replaced by {g.display(seat)}; the vote is not "
                    f"counted.")
            else:
                say(i, f"{ref}: автор «{post.author}» не игрок этой игры; голос не засчитан.",
                    f"{ref}: the author '{post.author}' is not a player; the vote is not "
                    f"counted.")
            continue
        target, how, found_seats = names.read(body)
        shown = _plain(body)
        if target is None:
            who = ", ".join(g.display(c) for c in found_seats)
            if how == "ambiguous":
                say(i, f"{ref}: имя «{shown}» неоднозначно (подходят: {who}); голос не "
                       f"засчитан — уточните у игрока.",
                    f"{ref}: the name '{shown}' is ambiguous (it fits {who}); the vote is not "
                    f"counted — ask the player.")
            else:
                hint_ru = f" (похоже на: {who})" if who else ""
                hint_en = f" (close to: {who})" if who else ""
                say(i, f"{ref}: «{shown}» — не имя игрока{hint_ru}; голос не засчитан.",
                    f"{ref}: '{shown}' is not a player's name{hint_en}; the vote is not "
                    f"counted.")
            continue
        if deadline is not None:
            if post.time is None:
                say(i, f"{ref}: у поста нет времени, нельзя проверить срок; голос не "
                       f"засчитан.",
                    f"{ref}: the post has no time, so the deadline cannot be checked; the "
                    f"vote is not counted.")
                continue
            if _after(post.time, deadline):
                say(i, f"{ref}: голос подан после срока ({deadline:%d.%m.%Y %H:%M}) и не "
                       f"засчитан.",
                    f"{ref}: the vote came after the deadline ({deadline:%d.%m.%Y %H:%M}) "
                    f"and is not counted.")
                continue
        cands.append((i, post, voter, target, how, shown))
    return cands, problems, notes


def _plain(body: str) -> str:
    s = " ".join(_TAG.sub("", body).split())
    return s if len(s) <= 60 else s[:57] + "..."
