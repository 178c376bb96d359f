"""Deadlines: the host's time zone, a deadline typed by the host, and the next phase's
deadline from the game's schedule.

- A time without a zone is read in the host's zone: ``MAFIAHOST_TZ`` (an IANA name such
  as ``Europe/Moscow``, or an offset ``+03:00``), by default Moscow time, the zone of the
  seeds' forums. Players read it as «до 21:00 (МСК) 2 декабря» (``render.posts.
  deadline_words``).
- A deadline in the past is refused.
- The schedule says when each phase ends, counted from the moment the phase before it
  closed (its deadline; without one, when it was resolved): ``+1 23:00`` — the next day
  at 23:00, ``+0 22:00`` — the same day at 22:00 (the next day if that has passed),
  ``48h`` — 48 hours later. A game's schedule is given at ``game new --schedule`` or later
  with ``game schedule``; by default it is what the rule set's seed says
  (``forum.schedule`` in the rule set file, e.g. 001: a day of two real days ending at
  23:00, the night until 10:00). A phase kind with no schedule gets no deadline.
"""

from __future__ import annotations

import os
import re
from datetime import datetime, timedelta, timezone, tzinfo

from .core import HostError

TZ_ENV = "MAFIAHOST_TZ"
MSK = timezone(timedelta(hours=3), "MSK")
_OFFSET = re.compile(r"^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$")
_RULE = re.compile(r"^\+?(\d+)\s+(\d{1,2})[:.](\d{2})$")
_HOURS = re.compile(r"^(\d+(?:\.\d+)?)\s*(?:h|ч|час(?:а|ов)?)$")


def zone(name: str | None = None) -> tzinfo:
    """The host's time zone (``MAFIAHOST_TZ``; Moscow by default)."""
    where = "" if name is not None else f" ({TZ_ENV})"
    name = (name if name is not None else os.environ.get(TZ_ENV, "")).strip()
    if not name or name.upper() in ("MSK", "МСК"):
        return _iana("Europe/Moscow") or MSK
    m = _OFFSET.match(name)
    if m:
        sign, h, mm = m.groups()
        delta = timedelta(hours=int(h), minutes=int(mm or 0))
        return timezone(delta if sign == "+" else -delta)
    z = _iana(name)
    if z is None:
        raise HostError(f"Не знаю часовой пояс «{name}»{where}; пишите как Europe/Moscow, "
                        f"Asia/Yekaterinburg или +03:00.",
                        f"Unknown time zone '{name}'{where}; write it like Europe/Moscow, "
                        f"Asia/Yekaterinburg or +03:00.")
    return z


def _iana(name: str):
    try:
        from zoneinfo import ZoneInfo
        return ZoneInfo(name)
    except Exception:  # noqa: BLE001 - no tz database or an unknown name
        return None


def local_words(when, lang: str = "ru", z: tzinfo | None = None) -> str:
    """A stored time (ISO 8601 text or a datetime) in the host's zone, in the words of
    deadlines («21:00 (МСК) 2 декабря»); a time without a zone is read in that zone."""
    from ..render.posts import deadline_words
    from .core import parse_time
    t = parse_time(when) if isinstance(when, str) else when
    if t is None:
        return ""
    z = z or zone()
    t = t.replace(tzinfo=z) if t.tzinfo is None else t.astimezone(z)
    return deadline_words(t, lang)


def now(z: tzinfo | None = None) -> datetime:
    return datetime.now(z or zone())


def read(when: str, z: tzinfo | None = None, *, allow_past: bool = False,
         at: datetime | None = None) -> datetime:
    """A deadline the host typed (``2026-12-02 21:00``, ``2026-12-02T21:00+03:00``,
    ``02.12.2026 21:00``), in the host's zone when it has none; refused if it has passed."""
    from ..render.posts import deadline_words
    from .core import parse_time
    text = when.strip()
    m = re.match(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})\s+(\d{1,2}):(\d{2})$", text)
    if m:
        d, mo, y, h, mi = map(int, m.groups())
        text = f"{y:04d}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}"
    t = parse_time(text)
    assert t is not None
    z = z or zone()
    if t.tzinfo is None:
        t = t.replace(tzinfo=z)
    ref = at or now(z)
    if not allow_past and t <= ref:
        cur = ref.astimezone(t.tzinfo)
        raise HostError(f"Срок «до {deadline_words(t, 'ru')}» уже прошёл; укажите время в "
                        f"будущем (сейчас {deadline_words(cur, 'ru')}).",
                        f"The deadline {deadline_words(t, 'en')} has already passed; give a "
                        f"time in the future (now {deadline_words(cur, 'en')}).")
    return t


def parse_schedule(text: str | dict | None) -> dict[str, str]:
    """``"day=+1 23:00, night=+1 10:00"`` or ``{"day": "48h"}`` → {phase kind: rule};
    each rule checked; ``"-"`` or ``none`` removes a phase's deadline."""
    if not text:
        return {}
    items = text.items() if isinstance(text, dict) else (
        x.split("=", 1) for x in re.split(r"[,;]", text) if x.strip())
    out = {}
    words = {"день": "day", "ночь": "night", "day": "day", "night": "night"}
    for item in items:
        if len(item) != 2:
            raise _bad_rule(str(text))
        k, v = item
        kind = words.get(str(k).strip().casefold())
        if kind is None:
            raise _bad_rule(str(text))
        v = str(v).strip()
        if v.casefold() in ("-", "none", "нет"):
            out[kind] = ""
            continue
        if not (_RULE.match(v) or _HOURS.match(v.casefold())):
            raise _bad_rule(str(text))
        out[kind] = v
    return out


def _bad_rule(text: str) -> HostError:
    return HostError(f"Не понимаю расписание «{text}»; пишите так: «day=+1 23:00, "
                     f"night=+1 10:00» (конец фазы: через сколько дней и во сколько) или "
                     f"«day=48h».",
                     f"Cannot read the schedule '{text}'; write it like 'day=+1 23:00, "
                     f"night=+1 10:00' (when the phase ends: days later and the time) or "
                     f"'day=48h'.")


def next_deadline(rule: str, start: datetime, z: tzinfo | None = None) -> datetime:
    """When a phase that began at ``start`` ends by ``rule``."""
    z = z or start.tzinfo or zone()
    s = start.astimezone(z)
    h = _HOURS.match(rule.casefold())
    if h:
        return s + timedelta(hours=float(h.group(1)))
    m = _RULE.match(rule)
    if not m:
        raise _bad_rule(rule)
    days, hh, mm = map(int, m.groups())
    t = datetime.combine(s.date() + timedelta(days=days),
                         datetime.min.time().replace(hour=hh, minute=mm), tzinfo=z)
    while t <= s:
        t += timedelta(days=1)
    return t


def schedule_words(sched: dict[str, str], lang: str) -> str:
    if not sched:
        return "нет" if lang == "ru" else "none"
    names = {"day": ("день", "day"), "night": ("ночь", "night")}
    out = []
    for k, v in sched.items():
        n = names[k][0 if lang == "ru" else 1]
        if not v:
            out.append(f"{n}: {'без срока' if lang == 'ru' else 'no deadline'}")
            continue
        m = _RULE.match(v)
        if m:
            d, hh, mm = m.groups()
            if lang == "ru":
                when = "в тот же день" if d == "0" else "на следующий день" if d == "1" \
                    else f"через {d} дн."
                out.append(f"{n}: до {int(hh):02d}:{mm} {when}")
            else:
                when = "the same day" if d == "0" else "the next day" if d == "1" \
                    else f"{d} days later"
                out.append(f"{n}: until {int(hh):02d}:{mm} {when}")
        else:
            hours = _HOURS.match(v.casefold()).group(1)
            out.append(f"{n}: {hours} ч" if lang == "ru" else f"{n}: {hours} h")
    return "; ".join(out)
