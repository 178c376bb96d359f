"""Votes from a forum thread: read a dump of posts, find the votes in them as a careful
host reads them.

``parse_dump(text)`` reads a dump (a JSON or YAML list of posts, or thread pages pasted as
BBCode with a header line per post; the formats are in ``docs/posts.md``) into ``Post``s.
``find_votes(posts, g, deadline)`` reads each post by the rule set's forum convention
(``forum_rules``: the forms that count — ``spoiler``, ``red``, ``bold``, ``phrase`` — and
the spoiler title the rules give), with names matched by ``mafiahost.names`` (targets
leniently, never guessed; authors exactly), edits recognised from the forums' edit lines
and from posts pasted twice, withdrawals («снимаю голос», «передумал», unvote), and tries
every vote on a copy of the game so the engine's own rules (who may vote, against all,
vote-change limits) decide. Every vote-looking post not counted is reported with its
number and a reason code (``REASONS``), and every counted vote read other than exactly
gets a note. Nothing here changes the game: the caller applies ``report.votes`` in order.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

import yaml

from .engine.errors import Refused
from .engine.game import Game
from .names import Roster, author_key, fold, special

DEFAULT_MARKUP = ["spoiler", "red"]


@dataclass
class Post:
    id: str | None
    author: str
    time: datetime | None
    text: str


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
    (re.compile(r"(?<!\d)(\d{1,2})-(\d{1,2})-(\d{4})(?!\d)"), ("m", "d", "y")),   # vBulletin
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

_QUOTE_TAG = re.compile(r"\[\s*(/)?\s*quote\b([^\]]*)\]", re.I)
_LITERAL = re.compile(r"\[(code|noparse)\b[^\]]*\].*?\[/\1\]", re.I | re.S)
_SPOILER = re.compile(r"\[\s*spoiler\s*(?:=\s*[\"']?([^\]\"']*)[\"']?\s*)?\]"
                      r"(.*?)\[\s*/\s*spoiler\s*\]", re.I | re.S)
_COLOR = re.compile(r"\[\s*colou?r\s*=\s*[\"']?([#\w]+)[\"']?\s*\](.*?)\[\s*/\s*colou?r\s*\]",
                    re.I | re.S)
_BOLD = re.compile(r"\[\s*b\s*\](.*?)\[\s*/\s*b\s*\]", re.I | re.S)
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


def _quotes(text: str) -> list[tuple[str, str]]:
    """The outermost quotes of a post: (the quote tag's attributes, the quoted text)."""
    text = _LITERAL.sub(" ", text)
    out = []
    depth = 0
    start = 0
    attrs = ""
    for m in _QUOTE_TAG.finditer(text):
        if m.group(1):
            if depth == 1:
                out.append((attrs, text[start:m.start()]))
            depth = max(0, depth - 1)
        else:
            if depth == 0:
                attrs, start = m.group(2), m.end()
            depth += 1
    return out


def _plain(body: str) -> str:
    s = " ".join(_TAG.sub("", body).split())
    return s if len(s) <= 60 else s[:57] + "..."


# ---- edits -----------------------------------------------------------------------------------

# the forums' own edit lines: phpBB, vBulletin, IPB (Russian and English)
_EDIT_LINE = re.compile(
    r"^\s*(?:Последний\s+раз\s+редактировалось|Сообщение\s+отредактировал[аи]?|"
    r"Отредактировано|Last\s+edited\s+by|Edited\s+by)\b(?P<rest>.*)$", re.I | re.M)


def edits(text: str) -> tuple[str, list[datetime | None]]:
    """The text without the forum's edit lines, and the time of each edit line (None when
    a line's time cannot be read)."""
    times = []
    for m in _EDIT_LINE.finditer(text):
        rest = m.group("rest")
        rest = re.sub(r",\s*(?:всего\s+редактировалось|edited)\s+\d+.*$", "", rest, flags=re.I)
        times.append(parse_time(rest))
    return _EDIT_LINE.sub("", text).rstrip(), times


# ---- vote forms -----------------------------------------------------------------------------

FORMS = ("spoiler", "red", "bold", "phrase")
_WHERE = {"spoiler": "[spoiler=Голос против]Имя[/spoiler]", "red": "[color=red]Имя[/color]",
          "bold": "[b]Имя[/b]", "phrase": "«голос: Имя»"}
_WHERE_EN = {"spoiler": "[spoiler=Голос против]Name[/spoiler]",
             "red": "[color=red]Name[/color]", "bold": "[b]Name[/b]", "phrase": "'голос: Name'"}


def forum_rules(rules) -> dict:
    """A rule set's forum vote convention (``forum:`` in its file) with the defaults:
    ``vote_markup`` — the forms that count (``spoiler``, ``red``, ``bold``, ``phrase``);
    ``spoiler_title`` — the title the rules give a vote spoiler («Голос против»), or
    ``any`` (a spoiler with no title, or one titled like a vote, counts)."""
    f = dict(getattr(rules, "forum", None) or {})
    m = f.get("vote_markup", DEFAULT_MARKUP)
    forms = [m] if isinstance(m, str) else list(m)
    return {"forms": forms, "spoiler_title": str(f.get("spoiler_title", "any"))}


def _vote_title(title: str) -> bool:
    t = fold(title)
    return any(w in t for w in ("голос", "vote", "против", "за кого"))


_JOIN = re.compile(r"^[\s,.;:!?\-–—]*(?:(?:и|или|либо|and|or)[\s,]*)?$", re.I)
_PHRASE = re.compile(
    r"^\s*(?:(?:мой|my)\s+)?(?:голос|vote)\s*[:\-–—=]\s*(?P<a>.+)$"
    r"|^\s*(?:я\s+)?(?:голосую|голосуем|i\s+vote)\s+(?:против|за|against|for)\s+(?P<b>.+)$",
    re.I | re.M)
_WITHDRAW = re.compile(
    r"(?:сн[ия]ма[юе]|сниму|отзыва[юе]|отзову|забира[юе]|убира[юе]|отменя[юе])\s+"
    r"(?:свой\s+|мой\s+)?голос"
    r"|голос\s+(?:сн[ия]ма[юе]|сниму|отзыва[юе])"
    r"|\bun-?vote\b|\bwithdraw(?:ing)?\s+(?:my\s+)?vote\b", re.I)
_CHANGED_MIND = re.compile(r"^\W*(?:я\s+)?(?:передумал[аи]?|changed\s+my\s+mind)"
                           r"(?:\W+(?:снимаю|отзываю|сниму))?\W*$", re.I)


_VOTE_WORD = re.compile(r"^\s*(?:(?:мой|my)\s+)?(?:голос|vote)\s*[:\-–—=]\s*", re.I)


@dataclass
class Mark:
    """One piece of vote markup outside quotes: its form, title (spoilers), body."""
    pos: int
    form: str
    body: str
    title: str | None = None


def marks(text: str) -> list[Mark]:
    """Every vote-like markup of an unquoted text, in post order: spoilers (titled like a
    vote, or untitled), red text (adjacent red pieces joined: «[color=red]Саша[/color]
    [color=red]М[/color]»), bold text, and «голос: Имя» / «голосую против Имя» lines."""
    found: list[Mark] = []
    spans = []
    for m in _SPOILER.finditer(text):
        title = m.group(1)
        if title is None or not title.strip() or _vote_title(title):
            found.append(Mark(m.start(), "spoiler", m.group(2), (title or "").strip()))
        spans.append((m.start(), m.end()))
    outside = text
    for a, b in reversed(spans):           # red or bold inside a spoiler is the spoiler's
        outside = outside[:a] + " " * (b - a) + outside[b:]
    for rx, form, grp in ((_COLOR, "red", 2), (_BOLD, "bold", 1)):
        pieces = [(m.start(), m.end(), m.group(grp)) for m in rx.finditer(outside)
                  if form == "bold" or _is_red(m.group(1))]
        group: list = []
        for a, b, body in pieces:
            if group and _JOIN.match(_TAG.sub("", outside[group[-1][1]:a])):
                group.append((a, b, outside[group[-1][1]:a] + body))
                continue
            if group:
                found.append(Mark(group[0][0], form, "".join(x[2] for x in group)))
            group = [(a, b, body)]
        if group:
            found.append(Mark(group[0][0], form, "".join(x[2] for x in group)))
    plain = _TAG.sub("", outside)
    for m in _PHRASE.finditer(plain):
        found.append(Mark(m.start(), "phrase", m.group("a") or m.group("b")))
    found.sort(key=lambda x: x.pos)
    return found


# ---- reading one post ----------------------------------------------------------------------

@dataclass
class Reading:
    """What a careful host reads in one post: a vote (``target``: a seat, ``against_all``,
    ``abstain``), a withdrawal (``target`` None, ``withdraw``), or nothing; ``form`` of the
    markup, ``how`` the name was read (``names.Match.how``), ``shown`` the name as written,
    ``reason`` and ``candidates`` when it cannot be counted, ``notes`` on the reading."""
    kind: str                        # vote | withdraw | none | problem
    target: str | None = None
    form: str = ""
    how: str = ""
    shown: str = ""
    reason: str = ""
    candidates: tuple = ()
    notes: list = field(default_factory=list)


def _body_target(roster: Roster, body: str, title: str | None):
    """The target a vote body names: (target or None, how, candidates, shown)."""
    text = _TAG.sub("", body)
    line = next((x for x in text.splitlines() if x.strip()), "").strip()
    line = _VOTE_WORD.sub("", line, count=1) or line      # «Голос: Виталия»
    shown = " ".join(line.split())[:60]
    if not line:
        return None, "empty", (), shown
    sp = special(line)
    if sp:
        return sp, "exact", (), shown
    m = roster.target(line)
    if m.seat is None and m.how not in ("several",):
        head = re.split(r"[,;(!?]|\s[-–—]\s|\.\s|:\s", line, maxsplit=1)[0].strip()
        if head and head != line:
            sp = special(head)
            if sp:
                return sp, "exact", (), " ".join(head.split())
            m2 = roster.target(head)
            if m2.seat is not None or m2.how in ("ambiguous", "several"):
                return m2.seat, m2.how, m2.candidates, " ".join(head.split())
        if m.how != "ambiguous":
            m3 = roster.leading(line)
            if m3.seat is not None and m3.how in ("exact", "alias", "form", "short", "part",
                                                  "translit"):
                return m3.seat, m3.how, (), shown
    return m.seat, m.how, m.candidates, shown


_SELF = {"себя", "сам себя", "самого себя", "самой себя", "себе", "myself", "me"}


def _emphasis(body: str) -> bool:
    """Red or bold text that is plainly no vote: a phrase of three words or more without a
    vote word, or a heading («Хинт:»)."""
    t = " ".join(_TAG.sub("", body).split())
    if re.search(r"голос|против|vote", t, re.I):
        return False
    return len(t.split()) >= 3 or t.endswith(":") or not re.search(r"\w", t)


def read_post(text: str, roster: Roster, conv: dict, has_vote: bool = True,
              self_seat: str | None = None) -> Reading:
    """A careful host's reading of one post's text (edit lines already taken out):
    quotes and [code] are skipped; the allowed forms are read (the last vote of the post
    counts when it holds several); a vote in a form this rule set does not use is a
    ``wrong_form`` problem; a withdrawal is «снимаю голос», «отзываю голос», unvote, or a
    bare «передумал(а)» from a voter who has a vote (``has_vote``)."""
    bare, _open = unquoted(text)
    found = marks(bare)
    forms = conv["forms"]
    rule_title = conv["spoiler_title"]
    allowed, other = [], []
    notes: list = []
    for mk in found:
        if mk.form not in forms:
            other.append(mk)
            continue
        if mk.form == "spoiler" and rule_title != "any":
            if not mk.title:
                other.append(mk)
                continue
            if fold(mk.title) != fold(rule_title):
                notes.append(("title", mk.title))
        allowed.append(mk)
    reads = []
    for mk in allowed:
        if _WITHDRAW.search(_TAG.sub("", mk.body)):
            continue                      # «[color=red]снимаю голос[/color]»
        target, how, cands, shown = _body_target(roster, mk.body, mk.title)
        if target is None and self_seat is not None and fold(shown) in _SELF:
            target, how = self_seat, "self"   # «против себя»: the author's own seat
        if mk.form in ("red", "bold") and target is None and how in ("unknown", "empty") \
                and (len(allowed) > 1 or _emphasis(mk.body)):
            continue                      # emphasis, not a name («ВНИМАНИЕ», «[b]Хинт:[/b]»)
        reads.append((mk, target, how, cands, shown))
    plain = _TAG.sub("", bare)
    said = bool(_WITHDRAW.search(plain))
    withdraw = said or (has_vote and bool(_CHANGED_MIND.match(plain.strip())))
    if reads:
        targets = {r[1] for r in reads if r[1] is not None}
        mk, target, how, cands, shown = reads[-1]
        if len(targets) > 1:
            notes.append(("several", ", ".join(r[4] for r in reads)))
        if target is None:
            if len(reads) > 1 and targets:
                mk, target, how, cands, shown = next(r for r in reversed(reads)
                                                     if r[1] is not None)
            else:
                return Reading("problem", None, mk.form, how, shown,
                               "ambiguous" if how == "ambiguous" else
                               "several" if how == "several" else "unknown", cands, notes)
        return Reading("vote", target, mk.form, how, shown, notes=notes)
    if withdraw:
        return Reading("withdraw", None, "withdraw", "exact" if said else "changed_mind",
                       " ".join(plain.split())[:60], notes=notes)
    for mk in other:
        target, how, cands, shown = _body_target(roster, mk.body, mk.title)
        if target is not None:
            return Reading("problem", target, mk.form, how, shown, "wrong_form")
    return Reading("none")


# ---- the report ------------------------------------------------------------------------------

REASONS = {
    "quoted": ("голос только в цитате — не засчитан", "the vote is only in a quote — not "
                                                      "counted"),
    "late": ("голос подан после срока", "the vote came after the deadline"),
    "dead": ("голосующий выбыл из игры", "the voter is out of the game"),
    "no_vote": ("голосующий сегодня не голосует", "the voter has no vote today"),
    "spectator": ("автор не игрок этой игры", "the author is not a player"),
    "replaced": ("автор заменён другим игроком", "the author was replaced"),
    "impostor": ("возможный самозванец", "a possible impostor"),
    "ambiguous": ("имя неоднозначно", "the name is ambiguous"),
    "several": ("названо несколько игроков", "the post names several players"),
    "unknown": ("не имя игрока", "not a player's name"),
    "change_limit": ("сверх лимита смен голоса", "over the vote-change limit"),
    "not_allowed": ("такой голос сегодня не принимается", "this vote is not allowed today"),
    "edited_late": ("пост отредактирован после срока", "the post was edited after the "
                                                        "deadline"),
    "wrong_form": ("оформлено не по правилам этой игры", "not in this game's vote form"),
    "no_time": ("у поста нет времени", "the post has no time"),
    "refused": ("голос не принят правилами", "the rules refuse the vote"),
}


@dataclass
class VoteReport:
    """``votes``: (voter seat, target or None for a withdrawal, the post) in the order to
    apply them (``Game.vote`` / ``Game.unvote``); ``counted``: the same, as records with
    the post number, author, form and how the name was read; ``skipped``: every post that
    holds vote markup, a vote phrase or a withdrawal and is not counted, with the reason
    code (``REASONS``) and a sentence; ``problems``: the skipped posts' sentences (and a
    day-wide problem such as an unclosed quote); ``notes``: sentences about readings a
    host may want to check (a non-exact name, an edit, a spoiler title off the rules)."""
    votes: list = field(default_factory=list)
    counted: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    notes: list = field(default_factory=list)


_HOW_RU = {"self": "«себя»: голос против себя", "form": "падеж", "short": "краткая форма",
           "part": "часть ника",
           "prefix": "начало имени", "translit": "ник латиницей, написанный кириллицей",
           "close": "близкое написание", "alias": "псевдоним"}
_HOW_EN = {"self": "'себя': a vote against oneself", "form": "a declined form",
           "short": "a short form", "part": "a word of the nick",
           "prefix": "the start of the name", "translit": "a Latin nick written in Cyrillic",
           "close": "a close spelling", "alias": "an alias"}


def _ref(post: Post, i: int, lang: str) -> str:
    when = post.time.strftime("%d.%m.%Y %H:%M") if post.time else ("время неизвестно"
                                                                   if lang == "ru" else
                                                                   "no time")
    num = f"#{post.id}" if post.id is not None else (f"№{i}" if lang == "ru" else f"no. {i}")
    return (f"Пост {num} ({post.author}, {when})" if lang == "ru"
            else f"Post {num} ({post.author}, {when})")


def _num(post: Post, i: int) -> str:
    return str(post.id) if post.id is not None else f"№{i}"


def _say(lang: str, ru: str, en: str) -> str:
    return ru if lang == "ru" else en


def _markup_of(g) -> list[str]:
    return forum_rules(g.rules)["forms"]


@dataclass
class _Version:
    post: Post
    text: str                        # without edit lines
    edited: list                     # edit-line times


def _versions(posts: list[Post]) -> list[list[_Version]]:
    """Posts by identity, in thread order: each post's versions in dump order (a post
    pasted twice, or pasted again after an edit, has several); identical re-pastes are
    one version."""
    groups: list[list[_Version]] = []
    where: dict[str, int] = {}
    for p in posts:
        text, times = edits(p.text)
        v = _Version(p, text, times)
        if p.id is not None and p.id in where:
            grp = groups[where[p.id]]
            if all(x.post.text.strip() != p.text.strip() for x in grp):
                grp.append(v)
            continue
        if p.id is not None:
            where[p.id] = len(groups)
        groups.append([v])
    if groups and all(g[0].post.time is not None for g in groups):
        try:
            groups.sort(key=lambda g: _sortable(g[0].post.time))  # type: ignore[arg-type]
        except TypeError:
            pass
    return groups


def _sortable(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def _quoted_original(post: Post, groups, deadline) -> str | None:
    """The post's text as another player quoted it before the deadline (a quote naming the
    post's id, or its author and made after it), when the quote holds vote markup."""
    best = None
    for grp in groups:
        q = grp[0].post
        if q is post or q.time is None or post.time is None:
            continue
        if deadline is not None and _after(q.time, deadline):
            continue
        if _after(post.time, q.time):
            continue
        for attrs, body in _quotes(q.text):
            a = attrs.lstrip("=").strip()
            ids = {x or y for x, y in re.findall(
                r"(?:post|p|pid)\s*=\s*[\"']?p?(\d+)|;\s*(\d+)", a)}
            name = re.sub(r"\s(?:post|p|pid|time|user_id)\s*=.*$", "", a)
            name = name.split(";")[0].strip().strip("\"'")
            if post.id is not None and str(post.id) in ids:
                return body
            if not ids and author_key(name) == author_key(post.author) and marks(body) \
                    and not _quotes_another(body, post, groups):
                best = body
    return best


def _squash(s: str) -> str:
    return " ".join(s.split())


def _quotes_another(body: str, post: Post, groups) -> bool:
    """Is ``body`` (a quote naming only its author) the text of another post of the same
    author? Then it is not the original of ``post``."""
    b = _squash(body)
    for grp in groups:
        other = grp[-1].post
        if other is post or author_key(other.author) != author_key(post.author):
            continue
        if any(b in _squash(v.post.text) for v in grp):
            return True
    return False


def find_votes(posts, g, deadline: datetime | None = None, *, aliases: dict | None = None,
               host_nicks=(), lang: str = "ru", now: datetime | None = None,
               context=None, prior_ids=()) -> VoteReport:
    """The votes in ``posts`` for the game ``g`` (the current day) that are not recorded
    yet, in the order to apply them, and every vote-looking post not counted with the
    reason (see ``VoteReport``).

    How a post is read: ``read_post`` by the rule set's ``forum:`` convention; authors
    through ``names.Roster.author`` (exact up to case; the host's ``host_nicks`` are
    skipped silently; look-alikes are impostors); targets through ``Roster.target``.
    Edits: the forums' edit lines are read; a post edited after ``deadline`` counts in its
    original form when the dump holds it (an earlier paste, or a player's quote of it made
    before the deadline), otherwise it is not counted and reported; a post pasted again
    with another text and no edit line counts in its first form when the edit's time is
    unknown (``now`` after the deadline, or not given with a deadline). ``context``: posts
    to look for originals in (default ``posts``); ``prior_ids``: ids of posts an earlier
    import read (a changed post among them keeps its earlier reading unless its edit line
    says it was edited before the deadline).

    The thread's votes are tried in order on a copy of the game, so the engine's rules
    decide who may vote, against all and vote-change limits. A vote equal to the voter's
    current one changes nothing and spends no change. Importing the same thread again is
    safe: when the day's recorded votes are exactly the first ones found in ``posts``,
    only the later ones are returned."""
    report = VoteReport()
    if g.state.phase != "day":
        report.problems.append(_say(lang, "Сейчас не день: голоса не принимаются.",
                                    "It is not day: votes are not taken."))
        return report
    cands, skipped, notes = _read_votes(posts, g, deadline, aliases, host_nicks, lang, now,
                                        context, prior_ids)
    start = max((i for i, e in enumerate(g.events) if e.type == "phase_started"), default=0)
    day = g.events[start + 1:]
    recorded = [(e.data["voter"], e.data.get("target")) for e in day
                if e.type in ("vote", "vote_withdrawn") and not e.data.get("void")]
    fresh = g.events[:start + 1] + [e for e in day if e.type not in ("vote", "vote_withdrawn")
                                    or e.data.get("void")]
    votes, refused = _try_votes(Game.replay(g.rules, fresh), cands, g, lang)
    if recorded and [(c["seat"], c["target"]) for c in votes[:len(recorded)]] == recorded:
        votes = votes[len(recorded):]
    elif recorded:
        votes, refused = _try_votes(Game.replay(g.rules, list(g.events)), cands, g, lang)
    skipped += refused
    for c in votes:
        if c["target"] is None and c["how"] == "changed_mind":
            notes.append((c["i"], _say(
                lang, f"{c['ref']}: «{c['shown']}» прочитано как снятие голоса.",
                f"{c['ref']}: '{c['shown']}' read as taking the vote back.")))
        if c["how"] not in ("exact", "", None) and c["target"] not in ("against_all",
                                                                     "abstain", None):
            notes.append((c["i"], _say(
                lang, f"{c['ref']}: «{c['shown']}» прочитано как {g.display(c['target'])} "
                      f"({_HOW_RU.get(c['how'], c['how'])}).",
                f"{c['ref']}: '{c['shown']}' read as {g.display(c['target'])} "
                f"({_HOW_EN.get(c['how'], c['how'])}).")))
    skipped.sort(key=lambda t: t["i"])
    notes.sort(key=lambda t: t[0])
    report.votes = [(c["seat"], c["target"], c["post"]) for c in votes]
    report.counted = [{k: c[k] for k in ("post", "author", "seat", "target", "form", "how",
                                         "shown")} | {"post": c["num"]} for c in votes]
    report.skipped = [{k: x[k] for k in ("post", "author", "seat", "target", "reason", "why")}
                      | {"_post": x["_post"]} for x in skipped]
    report.problems = [x["why"] for x in skipped]
    report.notes = [x for _i, x in notes]
    return report


def _try_votes(copy: Game, cands, g, lang):
    """Each candidate tried in order on ``copy``: (accepted, refusals)."""
    votes, refused = [], []
    for c in cands:
        voter, target = c["seat"], c["target"]
        if target is not None and copy.state.votes.get(voter) == target:
            continue
        if target is None and voter not in copy.state.votes:
            continue                      # nothing to take back
        try:
            if target is None:
                copy.unvote(voter)
            else:
                copy.vote(voter, target)
        except Refused as r:
            reason = _refusal(copy, voter, target)
            refused.append({"i": c["i"], "post": c["num"], "author": c["post"].author,
                            "seat": voter, "target": target, "reason": reason, "_post": c["post"],
                            "why": f"{c['ref']}: {r.ru if lang == 'ru' else (r.en or r.ru)}"})
            continue
        votes.append(c)
    return votes, refused


def _refusal(g: Game, voter: str, target) -> str:
    from .engine.day import vote_loss
    p = g.state.players[voter]
    if not p.alive:
        return "dead"
    if vote_loss(g, p) is not None:
        return "no_vote"
    if target == "against_all":
        return "not_allowed"
    if target not in (None, "abstain") and not g.state.players[target].alive:
        return "not_allowed"
    lim = g.rules.day.vote_changes
    if lim is not None and g.state.vote_changes.get(voter, 0) >= lim:
        return "change_limit"
    return "refused"


def _read_votes(posts, g, deadline, aliases, host_nicks, lang, now, context, prior_ids=()):
    """Candidates (dicts: i, num, ref, post, seat, target, form, how, shown) before the
    game's rules are asked, skipped posts (i, num, author, reason, sentence) and notes."""
    roster = Roster.of_game(g, aliases, host_nicks)
    conv = forum_rules(g.rules)
    forms = conv["forms"]
    conv_ru = ", ".join(_WHERE.get(k, k) for k in forms)
    conv_en = ", ".join(_WHERE_EN.get(k, k) for k in forms)
    if "spoiler" in forms and conv["spoiler_title"] != "any":
        conv_ru = conv_ru.replace("Голос против", conv["spoiler_title"])
    cands, skipped, notes = [], [], []
    groups = _versions(list(posts))
    ctx_groups = _versions(list(context)) if context is not None else groups
    has_vote = dict(g.state.votes)
    warned_impostors: set[str] = set()
    late_known = deadline is not None and (now is None or _after(now, deadline))

    for i, grp in enumerate(groups, 1):
        first, last = grp[0], grp[-1]
        post = first.post
        ref = _ref(post, i, lang)
        num = _num(post, i)

        cur: dict = {"seat": None, "target": None}

        def skip(reason, ru, en, post=post, ref=ref, num=num, i=i, cur=cur):
            skipped.append({"i": i, "post": num, "author": post.author, "seat": cur["seat"],
                            "target": cur["target"], "reason": reason, "_post": post,
                            "why": f"{ref}: " + _say(lang, ru, en)})

        def note(ru, en, ref=ref, i=i):
            notes.append((i, f"{ref}: " + _say(lang, ru, en)))

        # which version of the post to read
        text = last.text
        edit_times = [t for v in grp for t in v.edited]
        last_edit = max((t for t in last.edited if t is not None), key=_sortable,
                        default=None)
        edited_late = False
        if last.edited and deadline is not None and (
                last_edit is None or _after(last_edit, deadline)):
            earlier = [v for v in grp[:-1] if not v.edited or all(
                t is not None and not _after(t, deadline) for t in v.edited)]
            quoted = _quoted_original(post, ctx_groups, deadline)
            if earlier:
                text = earlier[-1].text
                note("пост отредактирован после срока; прочитан первоначальный текст "
                     "(есть в дампе).",
                     "edited after the deadline; read in its original form (in the dump).")
            elif quoted is not None:
                text = quoted
                note("пост отредактирован после срока; прочитан первоначальный текст по "
                     "цитате.", "edited after the deadline; read in its original form "
                                "(from a quote).")
            else:
                edited_late = True
        elif len(grp) > 1 and not last.edited and late_known:
            text = first.text
            note("пост вставлен в дамп дважды с разным текстом, время правки неизвестно; "
                 "прочитан первый вариант.",
                 "pasted twice with different texts, the edit's time unknown; the first "
                 "version is read.")
        elif edit_times and last.edited:
            note("пост отредактирован до срока; прочитан текст после правки.",
                 "edited before the deadline; read as edited.")

        author = roster.author(post.author)
        reading = read_post(text, roster, conv,
                            has_vote=author.seat is not None and author.seat in has_vote,
                            self_seat=author.seat)
        cur["seat"] = author.seat
        cur["target"] = reading.target if reading.kind == "vote" else None
        if prior_ids and post.id is not None and str(post.id) in prior_ids \
                and reading.kind != "none" and author.seat is not None and (
                    (not last.edited and late_known) or edited_late):
            skip("edited_late",
                 "пост изменён после того, как был прочитан при прошлом импорте, и время "
                 "правки неизвестно или позже срока; остаётся прежнее прочтение.",
                 "the post changed after an earlier import read it, and the edit's time is "
                 "unknown or after the deadline; the earlier reading stands.")
            continue
        _bare, open_quote = unquoted(text)
        if open_quote and author.how != "host":
            ru = "цитата [quote] не закрыта; текст после неё считается цитатой."
            en = "a [quote] is not closed; the text after it is taken as quoted."
            if reading.kind == "none":
                skip("quoted", ru, en)
                continue
            note(ru, en)
        if reading.kind == "none":
            if author.how == "impostor" and post.author not in warned_impostors:
                warned_impostors.add(post.author)
                like = g.display(author.like) if author.like else ""
                note(f"автор «{post.author}» похож на игрока {like}, но это другое имя "
                     f"(возможный самозванец).",
                     f"the author '{post.author}' looks like {like} but is another name (a "
                     f"possible impostor).")
            if author.how != "host" and _quoted_vote(text, roster, conv):
                skip("quoted", "голос только в цитате — не засчитан.",
                     "the vote is only inside a quote — not counted.")
            continue
        if author.how == "host":
            continue
        shown = reading.shown
        if author.seat is None:
            if author.how == "impostor":
                like = g.display(author.like) if author.like else "?"
                skip("impostor",
                     f"автор «{post.author}» только похож на игрока {like} (другие буквы, "
                     f"невидимые символы или ё/е) — возможный самозванец; голос не засчитан.",
                     f"the author '{post.author}' only looks like {like} (other letters, "
                     f"invisible characters or ё/е) — a possible impostor; the vote is not "
                     f"counted.")
            elif author.how == "former":
                seat = author.like
                skip("replaced",
                     f"{post.author} заменён(а) игроком {g.display(seat)}; голос не засчитан.",
                     f"{post.author} was replaced by {g.display(seat)}; the vote is not "
                     f"counted.")
            else:
                skip("spectator",
                     f"автор «{post.author}» не игрок этой игры; голос не засчитан.",
                     f"the author '{post.author}' is not a player; the vote is not counted.")
            continue
        if reading.kind == "problem":
            who = ", ".join(g.display(c) for c in reading.candidates)
            if reading.reason == "wrong_form":
                skip("wrong_form",
                     f"«{shown}» оформлено не по правилам этой игры (голос: {conv_ru}) и не "
                     f"засчитано.",
                     f"'{shown}' is not marked up the way this game votes ({conv_en}) and "
                     f"is not counted.")
            elif reading.reason == "ambiguous":
                skip("ambiguous",
                     f"имя «{shown}» неоднозначно (подходят: {who}); голос не засчитан — "
                     f"уточните у игрока или: votes fix ID {num} ИМЯ.",
                     f"the name '{shown}' is ambiguous (it fits {who}); the vote is not "
                     f"counted — ask the player, or: votes fix ID {num} NAME.")
            elif reading.reason == "several":
                skip("several",
                     f"в голосе названы несколько игроков ({who}); голос не засчитан.",
                     f"the vote names several players ({who}); it is not counted.")
            else:
                hint_ru = f" (похоже на: {who})" if who else ""
                hint_en = f" (close to: {who})" if who else ""
                skip("unknown", f"«{shown}» — не имя игрока{hint_ru}; голос не засчитан.",
                     f"'{shown}' is not a player's name{hint_en}; the vote is not counted.")
            continue
        if edited_late:
            when = f"{last_edit:%d.%m.%Y %H:%M}" if last_edit else "время правки не прочитано"
            skip("edited_late",
                 f"пост отредактирован после срока или неизвестно когда ({when}), а "
                 f"первоначального текста в "
                 f"дампе нет; голос не засчитан, пока ведущий не решит (votes fix ID {num} "
                 f"ИМЯ).",
                 f"the post was edited after the deadline or at an unknown time ({when}) "
                 f"and the dump does not "
                 f"hold its original; the vote is not counted until the host decides "
                 f"(votes fix ID {num} NAME).")
            continue
        if deadline is not None:
            if post.time is None:
                skip("no_time", "у поста нет времени, нельзя проверить срок; голос не "
                                "засчитан.",
                     "the post has no time, so the deadline cannot be checked; the vote is "
                     "not counted.")
                continue
            if _after(post.time, deadline):
                skip("late", f"голос подан после срока ({deadline:%d.%m.%Y %H:%M}) и не "
                             f"засчитан.",
                     f"the vote came after the deadline ({deadline:%d.%m.%Y %H:%M}) and is "
                     f"not counted.")
                continue
        for kind, detail in reading.notes:
            if kind == "title":
                note(f"спойлер озаглавлен «{detail}», а по правилам — "
                     f"«{conv['spoiler_title']}»; голос засчитан.",
                     f"the spoiler is titled '{detail}', the rules say "
                     f"'{conv['spoiler_title']}'; the vote is counted.")
            elif kind == "several":
                note(f"в посте несколько голосов ({detail}); засчитан последний.",
                     f"the post holds several votes ({detail}); the last one is counted.")
        if reading.kind == "withdraw":
            has_vote.pop(author.seat, None)
        else:
            has_vote[author.seat] = reading.target
        cands.append({"i": i, "num": num, "ref": ref, "post": post, "author": post.author,
                      "seat": author.seat, "target": reading.target, "form": reading.form,
                      "how": "alias" if author.how == "alias" and reading.how == "exact"
                      else reading.how, "shown": shown})
        if author.how == "alias":
            note(f"«{post.author}» — псевдоним игрока {g.display(author.seat)}.",
                 f"'{post.author}' is an alias of {g.display(author.seat)}.")
    return cands, skipped, notes


def _quoted_vote(text: str, roster: Roster, conv: dict) -> bool:
    """Does the text hold a vote only inside a quote?"""
    for _attrs, body in _quotes(text):
        r = read_post(body, roster, conv)
        if r.kind in ("vote", "problem"):
            return True
    return False
