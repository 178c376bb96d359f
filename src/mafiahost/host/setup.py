"""Setting up a game and its seats: new game, list, show, deadline, absence,
excuses, replacements and the host's removals."""

from __future__ import annotations

import json
import os

from ..engine.errors import RulesetError
from ..engine.game import Game
from ..names import NameRefused, validate_names
from ..render.wording import choose, read_gender
from ..rules import load
from ..rules.setup import deal
from ..store import Store, now_iso
from ..store import normalize as normalize_event
from .core import (
    SEED_LIMIT,
    Done,
    HostBase,
    HostError,
    _args_text,
    _Ctx,
    _fold,
    _say,
    can_use,
    deal_commitment,
    new_seed,
    not_acted,
    not_voted,
)
from .questions import not_answered


class SetupCommands(HostBase):
    """Games and seats."""

    # ---- games -------------------------------------------------------------------------
    def new_game(self, ruleset: str, players: list[str], *, roles=None, options=None,
                 mafia: int | None = None, seed: int | None = None, name: str = "",
                 lang: str = "ru", fmt: str = "plain", owner: int | None = None,
                 accept_warnings: bool = False, bots: dict | None = None,
                 schedule: str | None = None) -> Done:
        """Deal (or take the host's ``roles``) and store a new game; returns its start post.

        ``roles`` is a list in seating order or a dict name -> role id; ``owner`` the host
        account that owns the game (the web app: the logged-in host). A seating that goes
        against the seed's recommendations (a single under ten players in classic) is
        refused with the warning unless ``accept_warnings``; what the seed forbids is
        always refused. ``bots`` ({seat: "random" | "sensible"}) seats bots that send
        their moves when each phase opens (``host/bots.py``)."""
        from ..store.models import GameRow
        players, genders = split_genders([p for p in players if p.strip()])
        from .deadlines import parse_schedule
        sched = parse_schedule(schedule)
        if not players:
            raise HostError("Не указаны игроки: --players \"Анна,Борис,...\".",
                            "No players given: --players \"Anna,Boris,...\".")
        try:
            validate_names(players)
        except NameRefused as e:
            raise HostError(e.ru, e.en) from None
        if bots:
            from .bots import parse_bots
            bots = parse_bots(",".join(f"{k}={v}" for k, v in bots.items()), players)
        options = dict(options or {})
        ruleset = _ruleset_id(ruleset)
        options = _read_options(ruleset, options)
        try:
            rules = load(ruleset, options or None)
        except RulesetError as e:
            raise HostError(str(e), "") from None
        if not roles:
            _check_count(ruleset, rules, options, len(players))
        if seed is None:
            seed = new_seed()
        if not 0 <= seed < SEED_LIMIT:
            raise HostError(f"Зерно должно быть от 0 до {SEED_LIMIT - 1}.",
                            f"The seed must be 0 to {SEED_LIMIT - 1}.")
        salt = os.urandom(16).hex()
        if roles:
            seating = [(n, _role_id(rules, r)) for n, r in _assigned(players, roles)]
        else:
            seating = deal(rules, players, seed, mafia)
        g = Game(rules, seating, seed, accept_warnings=accept_warnings)
        n_start = len(g.events)
        for seat, gender in genders.items():
            g.set_gender(seat, gender)
        c = deal_commitment(salt, seed, rules.id, rules.version, options, not roles, mafia,
                            seating)
        with self.store.session() as s:
            now = now_iso()
            row = GameRow(name=name, ruleset=rules.id, ruleset_version=rules.version,
                          options=json.dumps(options, ensure_ascii=False), seed=seed,
                          salt=salt, commitment=c, dealt=not roles, lang=lang, fmt=fmt,
                          rev=0, created_at=now, updated_at=now)
            s.add(row)
            s.flush()
            evs = [normalize_event(e) for e in g.events]
            gender_evs, evs = evs[n_start:], evs[:n_start]
            Store.add_command(s, row.id, "new",
                              {"players": players, "roles": bool(roles), "mafia": mafia,
                               "options": options,
                               **({"accept_warnings": True} if accept_warnings else {}),
                               **({"bots": bots} if bots else {}),
                               **({"schedule": sched} if sched else {})},
                              [["start", [list(x) for x in seating]]], 0, evs)
            if gender_evs:                  # the host's genders: a command of their own
                Store.add_command(s, row.id, "gender", {"genders": genders},
                                  [["gender", k, v] for k, v in genders.items()],
                                  n_start, gender_evs)
            evs += gender_evs
            if owner is not None:
                from ..store.accounts import set_owner
                set_owner(s, row.id, owner)
            gid = row.id
        g.events[:] = evs
        self.cache.put(gid, 0, g)
        from ..render import posts
        post = posts.start_post(g, c, lang=lang, fmt=fmt, name=name)
        notice = recommended_notice(rules, len(players))
        ru, en = (" " + notice[0], " " + notice[1]) if notice else ("", "")
        done = Done(gid, _say(lang, f"Игра №{gid} создана: {rules.title_ru}, "
                                    f"{len(players)} игроков.{ru}",
                              f"Game {gid} created: {rules.title_en}, {len(players)} players.{en}"),
                    post, evs, {"commitment": c, **({"notice": list(notice)} if notice else {})})
        return self._with_bots(done, lang) if bots else done

    def list_games(self) -> list[dict]:
        from sqlalchemy import select

        from ..store.models import EventRow, GameRow
        out = []
        with self.store.session() as s:
            for row in s.scalars(select(GameRow).order_by(GameRow.id)):
                last = s.scalars(select(EventRow).where(EventRow.game_id == row.id,
                                                        EventRow.type.in_(
                                                            ("phase_started", "game_over")))
                                 .order_by(EventRow.pos.desc()).limit(1)).first()
                if last is None:
                    status = ""
                elif last.type == "game_over":
                    status = "over"
                else:
                    status = json.loads(last.body)["data"]
                    status = f"{status['phase']} {status['number']}"
                first = s.scalars(select(EventRow).where(EventRow.game_id == row.id,
                                                         EventRow.pos == 0)).first()
                n = len(json.loads(first.body)["data"]["players"]) if first else 0
                out.append({"id": row.id, "name": row.name, "ruleset": row.ruleset,
                            "players": n, "status": status, "created": row.created_at})
        return out

    def show(self, game_id: int) -> dict:
        """The host's view of the game now: phase, deadline, players with roles and
        statuses, who has not acted or voted, the votes so far."""
        with self.store.session() as s:
            row = self._row(s, game_id)
            g = self._game(s, row)
            last = Store.last_command(s, game_id)
            n_cmds = len(Store.commands(s, game_id))
        from ..render import labels
        from ..render.posts import Writer
        st = g.state
        label = f"{st.phase} {st.number}"
        words = {la: Writer(g, la) for la in ("ru", "en")}
        players = []
        for p in st.order:
            statuses = {k: v[1] for k, v in p.st.items() if v[0] >= st.idx}
            fac = g.rules.factions.get(p.faction)
            players.append({
                "seat": p.name, "name": g.display(p.name), "role": p.role,
                "role_ru": g.rules.roles[p.role].name_ru, "role_en": g.rules.roles[p.role].name_en,
                "faction": p.faction, "alive": p.alive, "how": p.how or None,
                "faction_ru": fac.name_ru if fac else p.faction,
                "faction_en": fac.name_en if fac else p.faction,
                "how_ru": words["ru"].term(p.how) if p.how else None,
                "how_en": words["en"].term(p.how) if p.how else None,
                "statuses_ru": [x for x in (labels.status_of(g, k, v, "ru")
                                            for k, v in statuses.items()) if x],
                "statuses_en": [x for x in (labels.status_of(g, k, v, "en")
                                            for k, v in statuses.items()) if x],
                "statuses": statuses, "can_use": [] if st.over else can_use(g, p)})
        counters_words = {la: [x for x in (labels.counter(k, labels.named(g, v, la == "ru"), la)
                                           for k, v in st.counters.items()) if x]
                          for la in ("ru", "en")}
        return {
            "id": row.id, "name": row.name, "ruleset": row.ruleset,
            "ruleset_version": row.ruleset_version, "title_ru": g.rules.title_ru,
            "title_en": g.rules.title_en, "phase": st.phase, "number": st.number,
            "label": label, "over": st.over, "winners": list(st.winners),
            "deadline": row.deadline if row.deadline_phase == label and not st.over else None,
            "players": players, "not_acted": [] if st.over else not_acted(g),
            "questions": [] if st.over else not_answered(g),
            "not_voted": [] if st.over or st.phase != "day" else not_voted(g),
            "votes": dict(st.votes), "counters": dict(st.counters),
            "counters_ru": counters_words["ru"], "counters_en": counters_words["en"],
            "phase_ru": words["ru"].phase_label(label), "phase_en": words["en"].phase_label(label),
            "winners_ru": [words["ru"].faction_name(f) for f in st.winners],
            "winners_en": [words["en"].faction_name(f) for f in st.winners],
            "commitment": row.commitment, "dealt": row.dealt, "lang": row.lang,
            "fmt": row.fmt, "events": len(g.events), "commands": n_cmds,
            "last_command": f"#{last.seq} {last.kind} {_args_text(last)}".strip()
            if last else None,
        }

    def set_deadline(self, game_id: int, when: str | None, *, allow_past: bool = False,
                     lang: str | None = None) -> Done:
        """This phase's deadline (``when`` in the host's zone unless it names one; a time
        that has passed is refused unless ``allow_past``: a game entered afterwards);
        ``None`` removes it."""
        from . import deadlines

        def fn(c: _Ctx):
            from ..render.posts import Writer, deadline_words
            # read in the zone of the game's owner (else the default)
            t = (deadlines.read(when, self.game_zone(c.s, game_id), allow_past=allow_past)
                 if when else None)
            c.before = {"deadline": c.row.deadline, "deadline_phase": c.row.deadline_phase}
            if c.g.state.over:
                raise HostError("Игра окончена: срок не нужен.", "The game is over.")
            label = f"{c.g.state.phase} {c.g.state.number}"
            c.row.deadline = t.isoformat() if t else None
            c.row.deadline_phase = label if t else None
            la = lang or c.row.lang
            ph = Writer(c.g, la).phase_label(label)
            if t is None:
                return Done(game_id, _say(la, f"Срок фазы «{ph}» снят.",
                                          f"The deadline of {ph} is removed."))
            return Done(game_id, _say(la, f"Срок фазы «{ph}»: до {deadline_words(t, 'ru')}.",
                                      f"The deadline of {ph}: {deadline_words(t, 'en')}."))
        return self._command(game_id, "deadline", {"when": when}, fn)

    def reminders(self, within_hours: float = 24, games=None) -> list[dict]:
        """The host's reminders due: every game not over whose phase has a deadline that
        has passed or comes within ``within_hours``, with who has not acted or voted
        (``games``: only these game ids, e.g. an account's)."""
        from datetime import datetime, timedelta

        from sqlalchemy import select

        from ..render.posts import Writer, deadline_words
        from ..store.models import GameRow
        from . import deadlines
        now = deadlines.now()
        out = []
        with self.store.session() as s:
            q = select(GameRow).where(GameRow.deadline.is_not(None))
            if games is not None:
                q = q.where(GameRow.id.in_(list(games)))
            rows = list(s.scalars(q.order_by(GameRow.id)))
            for row in rows:
                g = self._game(s, row)
                label = f"{g.state.phase} {g.state.number}"
                if g.state.over or row.deadline_phase != label:
                    continue
                t = datetime.fromisoformat(row.deadline)
                if t.tzinfo is None:
                    t = t.replace(tzinfo=self.game_zone(s, row.id))
                if t - now > timedelta(hours=within_hours):
                    continue
                left = (t - now).total_seconds() / 3600
                out.append({"id": row.id, "name": row.name, "deadline": t.isoformat(),
                            "passed": left <= 0, "hours_left": round(left, 1),
                            "phase_ru": Writer(g, "ru").phase_label(label),
                            "phase_en": Writer(g, "en").phase_label(label),
                            "deadline_ru": deadline_words(t, "ru"),
                            "deadline_en": deadline_words(t, "en"),
                            "not_acted": not_acted(g),
                            "not_voted": not_voted(g) if g.state.phase == "day" else []})
        return out

    def set_schedule(self, game_id: int, text: str, lang: str | None = None) -> Done:
        """The game's schedule: when each phase ends (``deadlines``); the next phase's
        deadline is set from it at every resolve."""
        from . import deadlines
        sched = deadlines.parse_schedule(text)

        def fn(c: _Ctx):
            la = lang or c.row.lang
            now = {**self.schedule_of(c.s, c.row, c.g), **sched}
            return Done(game_id, _say(la, f"Расписание: {deadlines.schedule_words(now, 'ru')}.",
                                      f"Schedule: {deadlines.schedule_words(now, 'en')}."),
                        data={"schedule": now})
        return self._command(game_id, "schedule", {"schedule": sched}, fn)

    def schedule_of(self, s, row, g) -> dict:
        """The game's schedule: the rule set's (its seed's) overlaid by the host's."""
        sched = dict(g.rules.forum.get("schedule") or {})
        for cmd in Store.commands(s, row.id):
            if cmd.kind in ("new", "schedule"):
                sched.update(json.loads(cmd.args).get("schedule") or {})
        return {k: v for k, v in sched.items() if k in ("day", "night")}


    # ---- the host's other commands -----------------------------------------------------
    def mark_absent(self, game_id: int, player: str) -> Done:
        def fn(c):
            p = self.seat(c.g, player)
            c.op("absent", p)
            la = c.row.lang
            word = choose("не отписался|не отписалась|нет отписки", gender_of(c.g, p))
            return Done(game_id, _say(la, f"{c.g.display(p)}: {word}.",
                                      f"{c.g.display(p)}: marked absent."))
        return self._command(game_id, "absent", {"player": player}, fn)

    def excuse(self, game_id: int, player: str) -> Done:
        def fn(c):
            p = self.seat(c.g, player)
            c.op("excuse", p)
            word = choose("освобождён|освобождена|освобождение", gender_of(c.g, p))
            ru = f"{c.g.display(p)} {word} от голосования сегодня." if gender_of(c.g, p) \
                else f"{c.g.display(p)}: освобождение от голосования сегодня."
            return Done(game_id, _say(c.row.lang, ru,
                                      f"{c.g.display(p)} is excused from today's vote."))
        return self._command(game_id, "excuse", {"player": player}, fn)

    def set_gender(self, game_id: int, player: str, gender: str,
                   lang: str | None = None) -> Done:
        """The gender of whoever plays ``player`` now, for the texts: «м», «ж» (or m, f),
        «-» to take it back (neutral wording again)."""
        want = None if gender.strip() in ("-", "") else read_gender(gender)
        if want is None and gender.strip() not in ("-", ""):
            raise HostError(f"Пол «{gender}» не понять: пишите «м», «ж» или «-» (не указан).",
                            f"Cannot read the gender '{gender}': write 'm', 'f' or '-' "
                            f"(not given).")

        def fn(c):
            p = self.seat(c.g, player)
            c.op("gender", p, want)
            who = c.g.display(p)
            ru = {"m": "мужской", "f": "женский"}.get(want, "не указан")
            en = {"m": "male", "f": "female"}.get(want, "not given")
            return Done(game_id, _say(lang or c.row.lang, f"{who}: пол — {ru}.",
                                      f"{who}: gender — {en}."))
        return self._command(game_id, "gender", {"player": player, "gender": gender}, fn)

    def replace_player(self, game_id: int, seat: str, by: str) -> Done:
        """Замена: ``by`` takes over ``seat`` (a public event; the seat keeps its name in
        the log); ``by`` may give the newcomer's gender («Новичок:м»)."""
        (by,), genders = split_genders([by])

        def fn(c):
            p = self.seat(c.g, seat)
            was = c.g.display(p)
            try:                 # the newcomer's nick: as checked as the names at creation
                validate_names([c.g.display(q.name) for q in c.g.state.order
                                if q.name != p] + [by.strip()])
            except NameRefused as e:
                raise HostError(e.ru, e.en) from None
            c.op("replace_player", p, by.strip())
            if genders:
                c.op("gender", p, genders[by])
            return Done(game_id, _say(c.row.lang, f"Замена: {was} → {by}.",
                                      f"Replacement: {was} → {by}."))
        return self._command(game_id, "replace", {"seat": seat, "by": by}, fn)

    def remove(self, game_id: int, player: str, why: str = "") -> Done:
        """The host's override (мастерский произвол): the player leaves the game."""
        def fn(c):
            p = self.seat(c.g, player)
            c.op("remove", p, why)
            word = choose("выведен из игры ведущим|выведена из игры ведущим|"
                          "выбывает из игры по решению ведущего", gender_of(c.g, p))
            return Done(game_id, _say(c.row.lang, f"{c.g.display(p)} {word}.",
                                      f"{c.g.display(p)} removed by the host."))
        return self._command(game_id, "remove", {"player": player, "why": why}, fn)



def split_genders(players: list[str]) -> tuple[list[str], dict[str, str]]:
    """Names as the host typed them, a gender after a colon where he gave one («Анна:ж»,
    «Борис:м», «Kim:f»): the names, and {name: "m" | "f"}. A short word of letters after
    the last colon is read as a gender and refused if it is none («Анна:x»); any other
    colon belongs to the name (a nick like «[url=http://…]Анна[/url]» is the name checks'
    business, not a gender)."""
    names, genders = [], {}
    for raw in players:
        text = raw.strip()
        name, colon, tail = text.rpartition(":")
        if not colon or not _looks_like_gender(tail):
            names.append(text)
            continue
        gender = read_gender(tail)
        if gender is None or not name.strip():
            raise HostError(f"«{text}»: после двоеточия пишут пол игрока — «м» или «ж» "
                            f"(«Анна:ж», «Борис:м»).",
                            f"'{text}': after a colon comes the player's gender, 'm' or 'f' "
                            f"('Anna:f', 'Boris:m').")
        names.append(name.strip())
        genders[name.strip()] = gender
    return names, genders


def _looks_like_gender(tail: str) -> bool:
    """Is what follows a colon meant as a gender mark: one short word of letters?"""
    t = tail.strip().rstrip(".")
    return 0 < len(t) <= 8 and t.isalpha()


def gender_of(g, seat: str) -> str | None:
    """The gender the host gave whoever plays ``seat`` now (``m``, ``f``), else None."""
    from ..render.posts import Writer
    return Writer(g).gender(seat)


def _declared(ruleset: str) -> dict:
    import yaml

    from ..rules import DATA
    raw = yaml.safe_load((DATA / f"{ruleset}.yaml").read_text(encoding="utf-8"))
    return raw.get("options") or {}


def _ruleset_id(text: str) -> str:
    """A rule set named by its id or its Russian or English title."""
    from ..rules import available
    ids = available()
    if text in ids:
        return text
    f = text.casefold().replace("ё", "е").strip(" «»\"'")
    for rid in ids:
        r = load(rid)
        if f in (rid, r.title_ru.casefold().replace("ё", "е"), r.title_en.casefold()):
            return rid
    names_ru = "; ".join(f"{load(r).title_ru} ({r})" for r in ids)
    names_en = "; ".join(f"{load(r).title_en} ({r})" for r in ids)
    raise HostError(f"Нет правил «{text}». Есть: {names_ru}.",
                    f"There are no rules '{text}'. There are: {names_en}.")


def _read_options(ruleset: str, options: dict) -> dict:
    """Options as the rule set declares them, from what the host typed: the option by its
    id or its Russian/English name, the value by itself, by its words or да/нет."""
    from ..render import labels
    declared = _declared(ruleset)
    out = {}
    for name, value in options.items():
        key = name.strip()
        if key not in declared:
            f = key.casefold().replace("ё", "е")
            key = next((k for k in declared if f in (labels.option_name(k, "ru").casefold(),
                                                     labels.option_name(k, "en").casefold())),
                       key)
        if key not in declared:
            have_ru = ", ".join(labels.option_name(k, "ru") for k in declared)
            have_en = ", ".join(labels.option_name(k, "en") for k in declared)
            raise HostError(f"У этих правил нет опции «{name}»; есть: {have_ru or 'никаких'}.",
                            f"These rules have no option '{name}'; they have: "
                            f"{have_en or 'none'}.")
        vals = list(declared[key]["values"])
        v = labels.option_value(key, value, vals)
        if v not in vals:
            ok_ru = "; ".join(labels.option(key, x, "ru") for x in vals)
            ok_en = "; ".join(labels.option(key, x, "en") for x in vals)
            yes = any(isinstance(x, bool) for x in vals)
            raise HostError(
                f"Опция «{labels.option_name(key, 'ru')}» не принимает «{value}»; можно: "
                f"{f'да или нет ({ok_ru})' if yes else ok_ru}.",
                f"The option '{labels.option_name(key, 'en')}' does not take '{value}'; "
                f"allowed: {f'yes or no ({ok_en})' if yes else ok_en}.")
        out[key] = v
    return out


def _check_count(ruleset: str, rules, options: dict, n: int) -> None:
    """Too few or too many players, said with the real cause: the option that changed
    the table (the yakuza needs 12) rather than the rule set's general range."""
    from ..render import labels
    lo, hi = rules.setup.get("min_players", 4), rules.setup.get("max_players", 30)
    if lo <= n <= hi:
        return
    base = load(ruleset)
    blo, bhi = base.setup.get("min_players", 4), base.setup.get("max_players", 30)
    causes = [k for k, v in options.items()
              if any(p in ("setup.min_players", "setup.max_players")
                     for p in (_declared(ruleset)[k]["values"].get(v) or {}))]
    if causes and blo <= n <= bhi:
        why_ru = ", ".join(labels.option(k, options[k], "ru") for k in causes)
        why_en = ", ".join(labels.option(k, options[k], "en") for k in causes)
        raise HostError(f"Вариант «{why_ru}» рассчитан на {lo}–{hi} игроков, а их {n}.",
                        f"The variant '{why_en}' is for {lo}-{hi} players, and there are {n}.")
    raise HostError(f"«{rules.title_ru}» рассчитана на {lo}–{hi} игроков, а их {n}.",
                    f"'{rules.title_en}' is for {lo}-{hi} players, and there are {n}.")


def _role_id(rules, text: str) -> str:
    """A role typed by the host: its id, or its Russian or English name from the role
    sheet (case and ё/е free); an unknown one is refused with the roles by name."""
    t = str(text).strip()
    if t in rules.roles:
        return t
    f = _fold(t)
    for rid, r in rules.roles.items():
        if f in (_fold(rid), _fold(r.name_ru), _fold(r.name_en)):
            return rid
    have_ru = ", ".join(r.name_ru for r in rules.roles.values())
    have_en = ", ".join(r.name_en for r in rules.roles.values())
    raise HostError(f"Роли «{t}» нет в правилах «{rules.title_ru}»; есть: {have_ru}.",
                    f"'{rules.title_en}' has no role '{t}'; it has: {have_en}.")


def _assigned(players: list[str], roles) -> list[tuple[str, str]]:
    if isinstance(roles, dict):
        missing = [p for p in players if p not in roles]
        extra = [r for r in roles if r not in players]
        if missing or extra:
            raise HostError(
                f"Роли назначены не всем: нет роли у {', '.join(missing) or '—'}; "
                f"лишние имена: {', '.join(extra) or '—'}.",
                f"Roles do not match the players: no role for {', '.join(missing) or '-'}; "
                f"unknown names: {', '.join(extra) or '-'}.")
        return [(p, roles[p]) for p in players]
    roles = list(roles)
    if len(roles) != len(players):
        raise HostError(f"Ролей {len(roles)}, а игроков {len(players)}: нужно поровну.",
                        f"{len(roles)} roles for {len(players)} players: they must match.")
    return list(zip(players, roles, strict=True))


def parse_roles(text: str, players: list[str]):
    """``--roles`` text: "Анна=commissar,Борис=boss,..." or "commissar,boss,..." in
    seating order."""
    items = [x.strip() for x in text.split(",") if x.strip()]
    if items and all("=" in x for x in items):
        return {k.strip(): v.strip() for k, v in (x.split("=", 1) for x in items)}
    return items


def recommended_notice(rules, n: int) -> tuple[str, str] | None:
    """The rule set's recommended number of players (``setup.recommended_players``: ``min``,
    ``max``, ``ru``, ``en``), as a warning, never a refusal: the host may play with fewer or
    more (singapore: «В игре участвуют 22-23 человека»)."""
    rec = (rules.setup or {}).get("recommended_players")
    if not rec or rec.get("min", 0) <= n <= rec.get("max", n):
        return None
    return (f"Внимание: {rec['ru']} (здесь {n}); играть можно, но это не по правилам.",
            f"Note: {rec['en']} (here {n}); you may play, but not as the rules say.")
