"""The one Russian name matcher of the project: who a name written by a human means.

Every place that turns typed text into a seat uses this module: forum vote import
(``forum.py``), move entry (``act 1 Вера убить Анну``), name checks at game creation.

The API is small:

``fold(s)``
    The comparison form of a name: Unicode NFKC, invisible characters dropped (zero-width,
    direction marks, soft hyphen, stray combining marks), case folded, ё = е, Latin letters
    that look like Cyrillic ones read as Cyrillic («Aнна» = «Анна»), ``_`` read as a space,
    spaces collapsed, edge punctuation cut. Two names with the same fold are the same name
    for a reader.

``author_key(s)``
    The comparison form of a forum *account*: NFC and letter case only. Authors are exact;
    anything else (a Latin «o» in «Фрoся», a zero-width character, «Леха» for «Лёха») is a
    different account.

``Roster(seats, nicks=None, aliases=None, former=None, host_nicks=())`` /
``Roster.of_game(g, aliases=None, host_nicks=())``
    The names of one game. ``seats`` are the seat names; ``nicks`` maps a seat to the
    current player's forum nick (after a замена); ``aliases`` maps extra names the host
    gave (``Лёха=Алексей``) to seats; ``former`` maps nicks of replaced players to their
    seats; ``host_nicks`` are the host's own forum accounts.

``Roster.target(text) -> Match``
    A name as the *target* of a vote or a move, read leniently, never guessed: exact
    (after ``fold``) or an alias; then Russian declension through pymorphy3 («Веру»,
    «Дракоши», «Сашу М»); short forms and diminutives («Саня», «Димочку» for
    «Дмитрий», «Ёжика» for «Ёж»); one word of a longer nick
    («Бегемота» for «Кот_Бегемот»); a unique prefix of three letters or more («Алекс»); a
    Latin nick written in Cyrillic («Грома» for «Grom») or a Russian name in Latin letters
    («Vera»); a small edit distance (rapidfuzz,
    one letter in short names, two in longer ones). The first of these readings that finds
    anyone decides: one seat is the answer, more than one is ``ambiguous`` with the
    candidates. A text naming two players («Котофея или Марфу») is ``several``, no seat.

``Roster.leading(text) -> Match``
    The name a free text starts with («Веру, она мафия» → Вера, ``rest`` = «она мафия»).

``Roster.author(nick) -> Author``
    Who posted: ``player`` (the seat's current nick, up to case), ``alias``, ``host``,
    ``former`` (a replaced player's old nick), ``impostor`` (equal to one of those only
    after folding: look-alike letters, invisible characters, ё/е) or ``stranger``.

``special(text)``
    ``"against_all"`` for «против всех»/«всех»/against all, ``"abstain"`` for
    «воздерживаюсь»/abstain, else None.

``validate_names(names)``
    Raises ``NameRefused`` (a ``Refused``: one Russian and one English sentence) when seat
    names cannot be told apart after folding, are reserved words, hold control or invisible
    characters, are empty or longer than 64 characters.

A ``Match`` has ``seat`` (or None), ``how`` (``exact`` ``alias`` ``form`` ``short``
``part`` ``prefix`` ``translit`` ``close`` | ``ambiguous`` ``several`` ``unknown``
``empty``), ``candidates`` (the seats it could mean, or near names for ``unknown``),
``text`` (what was read) and ``rest``. ``exact`` and ``alias`` are exact readings; the
others are readings a host may want to check, and callers report them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from .engine.errors import Refused

MAX_NAME = 64


def _osa(a: str, b: str, score_cutoff: int | None = None) -> int:
    """The optimal string alignment distance (rapidfuzz, imported only when a typed name
    is not an exact one: most commands name players exactly)."""
    from rapidfuzz.distance import OSA
    return OSA.distance(a, b, score_cutoff=score_cutoff)

# ---- folding -------------------------------------------------------------------------------

# Latin (and a few Greek) letters that look like Cyrillic ones. Capitals first (before case
# folding: «B» looks like «В», «b» does not), then small letters.
_UPPER_LOOKALIKE = str.maketrans({
    "A": "А", "B": "В", "C": "С", "E": "Е", "H": "Н", "K": "К", "M": "М", "O": "О",
    "P": "Р", "T": "Т", "X": "Х", "Y": "У", "Α": "А", "Β": "В", "Ε": "Е", "Η": "Н",
    "Κ": "К", "Μ": "М", "Ο": "О", "Ρ": "Р", "Τ": "Т", "Χ": "Х"})
_LOWER_LOOKALIKE = str.maketrans({
    "a": "а", "c": "с", "e": "е", "o": "о", "p": "р", "x": "х", "y": "у", "k": "к",
    "ο": "о", "ё": "е", "_": " "})
_EDGE = " \t.,!?:;\"'«»“”„()[]{}<>@*~-—–/\\|+="


def _visible(s: str) -> str:
    """``s`` in NFKC without format characters (zero-width, direction marks, soft hyphen)
    and without combining marks left over after composition (stress marks)."""
    s = unicodedata.normalize("NFKC", s)
    return "".join(ch for ch in s if unicodedata.category(ch) not in ("Cf", "Mn", "Me"))


def fold(s: str) -> str:
    """The comparison form of a name (see the module docstring)."""
    s = _visible(s).translate(_UPPER_LOOKALIKE).casefold().translate(_LOWER_LOOKALIKE)
    return " ".join(s.split()).strip(_EDGE)


def author_key(s: str) -> str:
    """The comparison form of a forum account: NFC, letter case, outer white space."""
    return unicodedata.normalize("NFC", s).strip().casefold()


def _suspicious(s: str) -> bool:
    """Does an account name hold invisible characters or mix Latin and Cyrillic letters?"""
    if any(unicodedata.category(ch) in ("Cf", "Cc") for ch in s):
        return True
    latin = any("a" <= ch.lower() <= "z" for ch in s)
    cyr = any("\u0400" <= ch <= "\u04ff" for ch in s)
    return latin and cyr


# ---- words that are not names --------------------------------------------------------------

_AGAINST_ALL = {"против всех", "всех", "against all", "against everyone", "against_all",
                "all", "everyone"}
_ABSTAIN = {"воздерживаюсь", "воздержусь", "воздерживается", "воздержаться", "воздержание",
            "abstain", "abstains", "abstention"}
RESERVED = {"против всех", "against all", "against_all", "against everyone", "abstain",
            "воздерживаюсь", "воздержусь", "воздержание", "never", "никого", "nobody",
            "no one", "no lynch", "no_lynch", "host", "ведущий"}


def special(text: str) -> str | None:
    """``against_all``, ``abstain`` or None for a vote's body."""
    f = fold(text)
    f = re.sub(r"^(?:голос(?:ую)?\s+|vote\s+)", "", f)
    if f in _AGAINST_ALL:
        return "against_all"
    if f in _ABSTAIN:
        return "abstain"
    return None


# ---- morphology ----------------------------------------------------------------------------

_morph = None


def _analyzer():
    global _morph
    if _morph is None:
        import pymorphy3  # type: ignore[import-untyped]
        _morph = pymorphy3.MorphAnalyzer()
    return _morph


def parse(word: str) -> list:
    """pymorphy3's analyses of ``word``; none where pymorphy3 cannot read it: its check
    of a word's shape looks up the Unicode name of each letter and raises for a letter
    that has none (an ideograph of some scripts, such as Tangut «𗀀», a letter and a
    name-less character at once), so such a word is known to no dictionary here."""
    try:
        return _analyzer().parse(word)
    except (ValueError, KeyError):
        return []


@lru_cache(maxsize=65536)
def _normals(word: str) -> frozenset[str]:
    """The folded dictionary forms pymorphy3 gives a folded word («дракоши» → дракоша)."""
    if not re.search("[а-я]", word):
        return frozenset()
    return frozenset(fold(p.normal_form) for p in parse(word))


@lru_cache(maxsize=8192)
def _forms(word: str) -> frozenset[str]:
    """Every folded declined form of a name word given in the nominative («вера» → веру,
    веры, вере…); the word itself when pymorphy3 knows no declension for it."""
    out = {word}
    if not re.search("[а-я]", word) or len(word) < 2:
        return frozenset(out)
    parses = parse(word)
    own = [p for p in parses if fold(p.normal_form) == word] or parses[:1]
    for p in own:
        out.update(fold(x.word) for x in p.lexeme)
    return frozenset(out)


def _word_matches(typed: str, word: str) -> bool:
    """Is the folded ``typed`` a declined form of the folded name word ``word``?"""
    return typed == word or typed in _forms(word) or word in _normals(typed)


# diminutive suffixes of a name's dictionary form: «Ёжик» → Ёж, «Димочка» → Дим(а),
# «Глебушка» → Глеб
_DIMINUTIVE = re.compile(r"(?:очка|ечка|енька|онька|ушка|юшка|улька|юлька|ик|ок|ек|ка)$")


def _diminutive_of(typed: str, word: str) -> bool:
    """Is ``typed`` (folded) a declined diminutive of the name word ``word``?"""
    if len(word) < 2:
        return False
    stem = word[:-1] if word[-1] in "аяоеьй" and len(word) > 3 else word
    for n in _normals(typed) | {typed}:
        base = _DIMINUTIVE.sub("", n)
        if base != n and len(base) >= 2 and base in (word, stem):
            return True
    return False


# ---- short forms ---------------------------------------------------------------------------

_SHORT = """
александр александра саша шура саня санек сашка шурик | алексей леша леха алеша лешка
анна аня анюта анечка нюра | борис боря | владимир вова володя вовка вован | дмитрий дима митя димон
евгений евгения женя | екатерина катя катюша | елена лена леночка | иван ваня
мария маша маруся машка | михаил миша мишка | наталья наталия наташа ната | николай коля
ольга оля | павел паша | сергей сережа серега | татьяна таня | юлия юля | ксения ксюша
ефросинья фрося | виктор витя | виктория вика | дарья даша | григорий гриша
константин костя костян костик | станислав стас | вячеслав слава | георгий гоша жора | яков яша
светлана света | людмила люда мила | галина галя | надежда надя | любовь люба
валентин валентина валя | василий вася | петр петя | федор федя | тимофей тима
роман рома | антон тоша антоша | андрей андрюша | артем тема | максим макс
кирилл киря | полина поля | софья софия соня | анастасия настя | елизавета лиза
ирина ира | зинаида зина | семен сема | леонид леня | лев лева | илья илюша
игорь гоша | олег олежка | егор егорка | вероника ника | маргарита рита | валерий валера
эдуард эдик | евгения женя | геннадий гена | юрий юра | ярослав ярик слава
анатолий толя толик толян | станислав стасик | елена аленка | алена аленка
"""


def _short_groups() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for group in re.split(r"[|\n]", _SHORT):
        words = [fold(w) for w in group.split()]
        for w in words:
            out.setdefault(w, set()).update(x for x in words if x != w)
    return {k: frozenset(v) for k, v in out.items()}


_SHORTS = _short_groups()

# ---- transliteration -------------------------------------------------------------------------

_LAT_TO_CYR = [("shch", "щ"), ("sch", "щ"), ("yo", "е"), ("zh", "ж"), ("kh", "х"),
               ("ch", "ч"), ("sh", "ш"), ("ts", "ц"), ("yu", "ю"), ("ya", "я"), ("ye", "е"),
               ("ee", "и"), ("oo", "у"), ("ph", "ф"), ("th", "т"), ("ck", "к"),
               ("a", "а"), ("b", "б"), ("c", "к"), ("d", "д"), ("e", "е"), ("f", "ф"),
               ("g", "г"), ("h", "х"), ("i", "и"), ("j", "дж"), ("k", "к"), ("l", "л"),
               ("m", "м"), ("n", "н"), ("o", "о"), ("p", "п"), ("q", "к"), ("r", "р"),
               ("s", "с"), ("t", "т"), ("u", "у"), ("v", "в"), ("w", "в"), ("x", "кс"),
               ("y", "и"), ("z", "з")]
_LAT_RX = re.compile("|".join(re.escape(a) for a, _ in _LAT_TO_CYR))
_LAT_MAP = dict(_LAT_TO_CYR)


def _latin_plain(s: str) -> str:
    """``s`` case folded without the look-alike reading, Latin letters kept."""
    s = _visible(s).casefold().replace("_", " ")
    return " ".join(s.split()).strip(_EDGE)


def to_cyrillic(s: str) -> str:
    """A Latin nick as a Russian would write it in Cyrillic («Grom» → «гром»), folded."""
    low = _latin_plain(s)
    return fold(_LAT_RX.sub(lambda m: _LAT_MAP[m.group(0)], low))


# ---- reading names ---------------------------------------------------------------------------

_WORD_SPLIT = re.compile(r"[\s_]+")
_LEAD = re.compile(r"^(?:(?:я\s+)?голосую\s+|голос\s+|i\s+vote\s+|vote\s+)?"
                   r"(?:против|за|against|for)\s+")
_SEVERAL = re.compile(r"\s+(?:или|либо|и|or|and|и/или)\s+|\s*[,/&+;]\s*|\s+[-–—]\s+")


def _words(folded: str) -> list[str]:
    return [w.strip(_EDGE) for w in _WORD_SPLIT.split(folded) if w.strip(_EDGE)]


@dataclass(frozen=True)
class Match:
    """What a written name means: see the module docstring."""
    text: str
    seat: str | None
    how: str
    candidates: tuple[str, ...] = ()
    rest: str = ""

    @property
    def exact(self) -> bool:
        return self.seat is not None and self.how in ("exact", "alias")

    @property
    def found(self) -> bool:
        return self.seat is not None


@dataclass(frozen=True)
class Author:
    """Who posted: ``seat`` (None for the host, strangers and impostors), ``how``
    (``player`` ``alias`` ``host`` ``former`` ``impostor`` ``stranger``) and ``like``: the
    seat an impostor's or a former player's name points to."""
    nick: str
    seat: str | None
    how: str
    like: str | None = None


def _near_form(typed: str, word: str) -> bool:
    """Is ``typed`` a small edit away from a declined form of ``word`` (a transliteration
    that is spelled a little differently: «Котофараона» for «KotPharaon»)?"""
    lim = close_limit(word)
    return bool(lim) and any(_osa(typed, x, score_cutoff=lim) <= lim
                             for x in _forms(word))


def close_limit(word: str) -> int:
    """How many edits a spelling may be off and still be read as ``word``."""
    n = len(word)
    return 0 if n < 4 else 1 if n <= 6 else 2


#: rosters already made, by everything they are made from (``Roster.of_game``): a game's
#: names change only by a replacement, and every move reads the names it was sent
_ROSTERS: dict = {}


class Roster:
    """The names of one game (see the module docstring)."""

    def __init__(self, seats: Iterable[str], nicks: Mapping[str, str] | None = None,
                 aliases: Mapping[str, str] | None = None,
                 former: Mapping[str, str] | None = None, host_nicks: Iterable[str] = ()):
        self.seats = list(seats)
        self.nicks = dict(nicks or {})
        self.former = dict(former or {})
        self.host_nicks = [h for h in host_nicks if h and h.strip()]
        # folded name -> {seat: how}; folded name -> the name as first given
        self._keys: dict[str, dict[str, str]] = {}
        self._orig: dict[str, str] = {}
        for seat in self.seats:
            self._add(seat, seat, "exact")
            if self.nicks.get(seat):
                self._add(self.nicks[seat], seat, "exact")
        for old, seat in self.former.items():
            self._add(old, seat, "exact")
        self.aliases: dict[str, str] = {}
        for alias, who in (aliases or {}).items():
            found = self._resolve_seat(who)
            if found is None:
                raise NameRefused(f"Псевдоним «{alias}» указывает на «{who}», а такого "
                                  f"игрока нет.",
                                  f"Alias '{alias}' points to '{who}', who is not a player.")
            self.aliases[alias] = found
            self._add(alias, found, "alias")
        self._entries = [(k, tuple(_words(k)), dict(v)) for k, v in self._keys.items()]
        self._max_words = max((len(w) for _k, w, _v in self._entries), default=1)
        self._latin = [(k, seat) for k, v in self._keys.items() for seat in v
                       if re.search("[a-z]", _latin_plain(self._orig[k]))]

    @classmethod
    def of_game(cls, g, aliases: Mapping[str, str] | None = None,
                host_nicks: Iterable[str] = ()) -> Roster:
        """The roster of an engine ``Game``: seats in seating order, current nicks, former
        nicks from its ``replaced`` events."""
        seats = [p.name for p in g.state.order]
        nicks = {s: g.display(s) for s in seats if g.display(s) != s}
        former: dict[str, str] = {}
        for e in g.events:
            if e.type == "replaced":
                was = e.data.get("was") or ""
                if was:
                    former[was] = e.data["player"]
        for seat in nicks:
            former.setdefault(seat, seat)
        hn = tuple(host_nicks)
        key = (cls, tuple(seats), tuple(nicks.items()), tuple(former.items()),
               tuple((aliases or {}).items()), hn)
        hit = _ROSTERS.get(key)
        if hit is None:          # a roster is never changed once made: one per name set
            hit = cls(seats, nicks, aliases, former, hn)
            if len(_ROSTERS) >= 256:
                _ROSTERS.clear()
            _ROSTERS[key] = hit
        return hit

    def _add(self, name: str, seat: str, how: str) -> None:
        k = fold(name)
        if k:
            self._keys.setdefault(k, {}).setdefault(seat, how)
            self._orig.setdefault(k, name)

    def _resolve_seat(self, who: str) -> str | None:
        got = self._keys.get(fold(who), {})
        return next(iter(got)) if len(got) == 1 else None

    # ---- authors -------------------------------------------------------------------------
    def author(self, nick: str) -> Author:
        """Who posted under ``nick``: exact up to letter case, else never a seat."""
        k = author_key(nick)
        for seat in self.seats:
            if author_key(self.nicks.get(seat, seat)) == k:
                return Author(nick, seat, "player")
        for alias, seat in self.aliases.items():
            if author_key(alias) == k:
                return Author(nick, seat, "alias")
        for h in self.host_nicks:
            if author_key(h) == k:
                return Author(nick, None, "host")
        for old, seat in self.former.items():
            if author_key(old) == k:
                return Author(nick, None, "former", seat)
        f = fold(nick)
        for seat in self.seats:
            names = [self.nicks.get(seat, seat), seat]
            names += [a for a, s in self.aliases.items() if s == seat]
            if any(fold(n) == f for n in names):
                return Author(nick, None, "impostor", seat)
        for h in self.host_nicks:
            if fold(h) == f:
                return Author(nick, None, "impostor", None)
        return Author(nick, None, "stranger")

    # ---- targets -------------------------------------------------------------------------
    def target(self, text: str) -> Match:
        """The seat a whole text names (see the module docstring)."""
        f = fold(text)
        if not f:
            return Match(text, None, "empty")
        got = self._keys.get(f)
        if got:
            return self._decide(text, got)
        lead = _LEAD.sub("", f)
        if lead != f and lead:
            f = lead
            got = self._keys.get(f)
            if got:
                return self._decide(text, got)
        parts = [p for p in _SEVERAL.split(f) if p.strip(_EDGE)]
        if len(parts) > 1:
            seats = []
            for p in parts:
                m = self._read(p, p)
                if m.seat is not None and m.seat not in seats:
                    seats.append(m.seat)
            if len(seats) > 1:
                return Match(text, None, "several", tuple(seats))
        return self._read(text, f)

    def leading(self, text: str) -> Match:
        """The name ``text`` starts with, and the rest of the text after it."""
        f = fold(text)
        words = _words(f)
        if not words:
            return Match(text, None, "empty")
        best = None
        for k in range(min(len(words), self._max_words + 1), 0, -1):
            head = " ".join(words[:k])
            m = self._read(head, head)
            if m.seat is not None or m.how == "ambiguous":
                return Match(text, m.seat, m.how, m.candidates, " ".join(words[k:]))
            if best is None and m.candidates:
                best = m
        if best is not None:
            return Match(text, None, "unknown", best.candidates, " ".join(words[1:]))
        return Match(text, None, "unknown", (), " ".join(words[1:]))

    def _latin_only(self, text: str) -> bool:
        """Is ``text`` a Latin seat name as written (then it is no transliteration)?"""
        return fold(text) in {k for k, _s in self._latin}

    def _decide(self, text: str, got: Mapping[str, str], how: str | None = None) -> Match:
        if len(got) > 1:
            return Match(text, None, "ambiguous", tuple(self._ordered(got)))
        seat, h = next(iter(got.items()))
        return Match(text, seat, how or h)

    def _ordered(self, seats: Iterable[str]) -> list[str]:
        pos = {s: i for i, s in enumerate(self.seats)}
        return sorted(set(seats), key=lambda s: pos.get(s, 1 << 30))

    def _tier(self, text: str, seats: set[str], how: str) -> Match | None:
        if not seats:
            return None
        if len(seats) > 1:
            return Match(text, None, "ambiguous", tuple(self._ordered(seats)))
        return Match(text, next(iter(seats)), how)

    def _read(self, text: str, f: str) -> Match:
        f = fold(f)
        if not f:
            return Match(text, None, "empty")
        got = self._keys.get(f)
        if got:
            return self._decide(text, got)
        typed = _words(f)
        n = len(typed)
        # declension, word by word («Сашу М» → «Саша М»)
        seats = {s for _k, words, v in self._entries if len(words) == n
                 and all(_word_matches(t, w) for t, w in zip(typed, words, strict=True))
                 for s in v}
        m = self._tier(text, seats, "form")
        if m:
            return m
        # one word (or a run of words) of a longer name («Бегемота» → Кот_Бегемот)
        seats = {s for _k, words, v in self._entries if len(words) > n
                 and any(all(_word_matches(t, w) for t, w in zip(typed, words[i:i + n],
                                                                  strict=True))
                         for i in range(len(words) - n + 1))
                 for s in v}
        m = self._tier(text, seats, "part")
        if m:
            return m
        # short forms («Саню» → Александр), each word of the name
        seats = {s for _k, words, v in self._entries if len(words) == n
                 and all(_word_matches(t, w) or _diminutive_of(t, w)
                         or any(_word_matches(t, x) or _diminutive_of(t, x)
                                for x in _SHORTS.get(w, ()))
                         for t, w in zip(typed, words, strict=True))
                 for s in v}
        m = self._tier(text, seats, "short")
        if m:
            return m
        # a unique prefix of three letters or more («Алекс» → Александр)
        if len(f.replace(" ", "")) >= 3:
            seats = {s for k, _w, v in self._entries if k.startswith(f) and k != f for s in v}
            m = self._tier(text, seats, "prefix")
            if m:
                return m
        # a Latin nick written in Cyrillic («Грома» → Grom)
        if self._latin and re.search("[а-я]", f):
            seats = set()
            for k, seat in self._latin:
                cyr = _words(to_cyrillic(self._orig[k]))
                if len(cyr) == n and all(_word_matches(t, w) or _near_form(t, w)
                                         for t, w in zip(typed, cyr, strict=True)):
                    seats.add(seat)
            m = self._tier(text, seats, "translit")
            if m:
                return m
        # a Cyrillic name written in Latin letters («Vera», «Borisa» → Вера, Борис)
        if re.search("[a-z]", _latin_plain(text)) and not self._latin_only(text):
            cyr = _words(to_cyrillic(text))
            if len(cyr) == n:
                seats = {s for _k, words, v in self._entries if len(words) == n
                         and all(_word_matches(t, w) for t, w in zip(cyr, words, strict=True))
                         for s in v}
                m = self._tier(text, seats, "translit")
                if m:
                    return m
        # a small edit distance, against the names and their declined forms
        seats = set()
        for k, words, v in self._entries:
            lim = close_limit(k)
            if lim and _osa(f, k, score_cutoff=lim) <= lim:
                seats.update(v)
                continue
            if len(words) == n and n == 1:
                w = words[0]
                lim = close_limit(w)
                if lim and any(_osa(typed[0], x, score_cutoff=lim) <= lim
                               for x in _forms(w)):
                    seats.update(v)
        m = self._tier(text, seats, "close")
        if m:
            return m
        near = {s for k, _w, v in self._entries
                if k.startswith(f[:2]) or _osa(f, k) <= max(2, len(k) // 2)
                for s in v}
        return Match(text, None, "unknown", tuple(self._ordered(near)))


# ---- names at game creation ------------------------------------------------------------------

class NameRefused(Refused):
    """A name (or set of names) that cannot be used: one Russian and one English sentence."""


def validate_names(names: Iterable[str]) -> None:
    """Refuse seat names a reader could not tell apart or that are not names."""
    seen: dict[str, str] = {}
    for raw in names:
        name = raw.strip() if isinstance(raw, str) else raw
        if not isinstance(name, str) or not name:
            raise NameRefused("Пустое имя игрока; у каждого места должно быть имя.",
                              "An empty player name; every seat needs a name.")
        if len(name) > MAX_NAME:
            raise NameRefused(f"Имя «{name[:20]}…» длиннее {MAX_NAME} символов; "
                              f"сократите его.",
                              f"The name '{name[:20]}…' is longer than {MAX_NAME} "
                              f"characters; shorten it.")
        bad = [ch for ch in name if unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs",
                                                                 "Zl", "Zp")]
        if bad:
            code = ", ".join(f"U+{ord(ch):04X}" for ch in bad[:3])
            raise NameRefused(f"В имени «{name}» есть управляющие или невидимые символы "
                              f"({code}); пишите имя видимыми буквами.",
                              f"The name '{name}' holds control or invisible characters "
                              f"({code}); use visible letters only.")
        f = fold(name)
        if not f:
            raise NameRefused(f"Имя «{name}» не содержит букв или цифр.",
                              f"The name '{name}' has no letters or digits.")
        if f in RESERVED or name.casefold() in RESERVED:
            raise NameRefused(f"«{name}» — служебное слово голосования, а не имя; выберите "
                              f"другое имя.",
                              f"'{name}' is a reserved voting word, not a name; choose "
                              f"another name.")
        if f in seen:
            raise NameRefused(f"Имена «{seen[f]}» и «{name}» не различить (регистр, ё/е, "
                              f"похожие латинские буквы или невидимые символы); дайте "
                              f"игрокам разные имена.",
                              f"The names '{seen[f]}' and '{name}' cannot be told apart "
                              f"(case, ё/е, look-alike Latin letters or invisible "
                              f"characters); give the players different names.")
        seen[f] = name
