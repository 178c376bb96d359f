"""Export, import and verification of a whole game."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..engine.dice import verify_rolls
from ..engine.errors import Refused, RulesetError
from ..engine.game import Game
from ..names import NameRefused, validate_names
from ..rules import load
from ..rules.setup import deal
from ..store import Store, now_iso
from ..store import normalize as normalize_event
from .core import (
    DEAL_SCHEME,
    FORMAT,
    FORMAT_VERSION,
    SEED_LIMIT,
    Done,
    HostBase,
    HostError,
    _event_dict,
    _event_dict_of,
    _event_from_dict,
    apply_op,
    commitment,
    deal_commitment,
    parse_time,
    scheme_of,
)


class ExchangeCommands(HostBase):
    """Export and import."""

    # ---- export, import, verify --------------------------------------------------------
    def export(self, game_id: int) -> dict:
        """The whole game as one JSON-able dict (seed included: keep it private until the
        game is over)."""
        from sqlalchemy import select

        from ..store.models import CommandRow, EventRow, ImportedPostRow
        with self.store.session() as s:
            row = self._row(s, game_id)
            cmds = Store.commands(s, game_id)
            evrows = list(s.execute(select(EventRow.pos, EventRow.type, EventRow.phase,
                                           EventRow.body).where(EventRow.game_id == game_id)
                                    .order_by(EventRow.pos)))
            recs = self.vote_records(game_id)
            keys = [[k, seq] for k, seq in s.execute(
                select(ImportedPostRow.post_key, CommandRow.seq)
                .join(CommandRow, CommandRow.id == ImportedPostRow.command_id)
                .where(ImportedPostRow.game_id == game_id))]
        out_cmds = []
        for c in cmds:
            evs = [_event_dict(t, p, b) for pos, t, p, b in evrows
                   if c.first_event <= pos < c.first_event + c.n_events]
            out_cmds.append({"seq": c.seq, "kind": c.kind, "at": c.at,
                             "args": json.loads(c.args), "ops": json.loads(c.ops),
                             "before": json.loads(c.before), "result": json.loads(c.result),
                             "events": evs})
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "name": row.name,
                "ruleset": row.ruleset, "ruleset_version": row.ruleset_version,
                "options": json.loads(row.options), "seed": row.seed, "salt": row.salt,
                "commitment": row.commitment, "dealt": row.dealt, "lang": row.lang,
                "fmt": row.fmt, "deadline": row.deadline, "deadline_phase": row.deadline_phase,
                "created_at": row.created_at, "commitment_scheme": scheme_of(row),
                "commands": out_cmds, "vote_records": recs, "imported_posts": keys}

    def import_game(self, data: dict, name: str | None = None) -> Done:
        """Store an exported game as a new game, after checking it runs again to the same
        events (``verify``)."""
        ru, en = verify(data, "ru"), verify(data, "en")
        if not ru.ok:
            raise HostError("Файл не прошёл проверку, ничего не записано: "
                            + "; ".join(ru.problems),
                            "The file does not verify; nothing was stored: "
                            + "; ".join(en.problems))
        from sqlalchemy.exc import SQLAlchemyError
        try:
            return self._import(data, name)
        except (KeyError, TypeError, ValueError, AttributeError, SQLAlchemyError) as e:
            raise HostError(f"Записи файла не подходят для базы ({type(e).__name__}); "
                            f"ничего не записано.",
                            f"The file's records do not fit the database "
                            f"({type(e).__name__}); nothing was stored.") from None

    def _import(self, data: dict, name: str | None) -> Done:
        from ..store.models import GameRow, ImportedPostRow, VoteRecordRow
        with self.store.session() as s:
            now = now_iso()
            row = GameRow(name=data.get("name", "") if name is None else name,
                          ruleset=data["ruleset"], ruleset_version=data["ruleset_version"],
                          options=json.dumps(data.get("options") or {}, ensure_ascii=False),
                          seed=data["seed"], salt=data["salt"], commitment=data["commitment"],
                          dealt=data["dealt"], lang=data.get("lang", "ru"),
                          fmt=data.get("fmt", "plain"), deadline=data.get("deadline"),
                          deadline_phase=data.get("deadline_phase"), rev=0,
                          created_at=data.get("created_at") or now, updated_at=now)
            s.add(row)
            s.flush()
            pos = 0
            by_seq = {}
            for c in data["commands"]:
                evs = [_event_from_dict(d) for d in c["events"]]
                cmd = Store.add_command(s, row.id, c["kind"], c["args"], c["ops"], pos, evs,
                                        c.get("before"), c.get("result"))
                cmd.at = c.get("at") or now
                by_seq[c["seq"]] = cmd
                pos += len(evs)
            s.flush()
            for r in data.get("vote_records", ()):
                cmd = by_seq.get(r.get("command"))
                if cmd is not None:
                    s.add(VoteRecordRow(game_id=row.id, command_id=cmd.id,
                                        **{k: r.get(k) for k in ("phase", "voter", "target",
                                                                 "at", "source", "post_key",
                                                                 "status", "note")}))
            for k, seq in data.get("imported_posts", ()):
                if seq in by_seq:
                    s.add(ImportedPostRow(game_id=row.id, post_key=k,
                                          command_id=by_seq[seq].id))
            gid = row.id
        return Done(gid, f"Игра импортирована как №{gid}. / Game imported as {gid}.")




# ---- verification ----------------------------------------------------------------------------

@dataclass
class VerifyReport:
    """What ``verify`` checked: each item is (passed, Russian sentence, English sentence).
    ``problems`` and ``notes`` are in the report's language (the game's, by default)."""
    items: list[tuple[bool, str, str]] = field(default_factory=list)
    lang: str = "ru"

    def _pick(self, ok: bool) -> list[str]:
        return [ru if self.lang == "ru" else en for good, ru, en in self.items if good is ok]

    @property
    def problems(self) -> list[str]:
        return self._pick(False)

    @property
    def notes(self) -> list[str]:
        return self._pick(True)

    @property
    def ok(self) -> bool:
        return bool(self.items) and all(good for good, _, _ in self.items)

    def good(self, ru: str, en: str) -> None:
        self.items.append((True, ru, en))

    def bad(self, ru: str, en: str) -> None:
        self.items.append((False, ru, en))


KNOWN_VERSIONS = (1,)


def _shape(data) -> tuple[str, str] | None:
    """Why ``data`` is not an export file's shape (ru, en), or None."""
    if not isinstance(data, dict):
        return ("Файл — не объект игры mafiahost (ожидается JSON-объект {…}).",
                "The file is not a mafiahost game object (a JSON object {…} is expected).")
    if data.get("format") != FORMAT:
        return (f"Это не файл игры mafiahost (format: {str(data.get('format'))[:40]!r}).",
                f"Not a {FORMAT} file (format: {str(data.get('format'))[:40]!r}).")
    if data.get("format_version") not in KNOWN_VERSIONS:
        return (f"Версия формата {str(data.get('format_version'))[:20]!r} неизвестна; эта "
                f"программа читает версии {', '.join(map(str, KNOWN_VERSIONS))}.",
                f"Unknown format version {str(data.get('format_version'))[:20]!r}; this "
                f"program reads versions {', '.join(map(str, KNOWN_VERSIONS))}.")
    seed = data.get("seed")
    want = {"ruleset": str, "salt": str, "commitment": str, "commands": list,
            "dealt": bool}
    for k, t in want.items():
        if not isinstance(data.get(k), t):
            return (f"Поле «{k}» отсутствует или не того типа.",
                    f"The field '{k}' is missing or of the wrong type.")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT:
        return ("Зерно (seed) — не целое число допустимого размера.",
                "The seed is not an integer of the allowed size.")
    if not isinstance(data.get("options") or {}, dict):
        return ("Опции (options) — не объект.", "The options are not an object.")
    for k in ("vote_records", "imported_posts"):
        if not isinstance(data.get(k) or [], list):
            return (f"«{k}» — не список.", f"'{k}' is not a list.")
    for r in data.get("vote_records") or ():
        if not isinstance(r, dict) or not all(
                isinstance(r.get(k), (str, type(None))) for k in
                ("phase", "voter", "target", "at", "source", "post_key", "status", "note")):
            return ("Запись голоса (vote_records) в файле повреждена.",
                    "A vote record (vote_records) in the file is damaged.")
    for x in data.get("imported_posts") or ():
        if not (isinstance(x, list) and len(x) == 2 and isinstance(x[0], str)):
            return ("Запись прочитанного поста (imported_posts) в файле повреждена.",
                    "A read forum post record (imported_posts) in the file is damaged.")
    cmds = data["commands"]
    for c in cmds:
        if not (isinstance(c, dict) and isinstance(c.get("kind"), str)
                and isinstance(c.get("ops"), list) and isinstance(c.get("events"), list)
                and isinstance(c.get("seq"), int) and isinstance(c.get("args", {}), dict)
                and all(isinstance(e, dict) and isinstance(e.get("type"), str)
                        and isinstance(e.get("phase"), str) for e in c["events"])):
            return ("Запись команды в файле повреждена (нужны seq, kind, ops, events).",
                    "A command record in the file is damaged (seq, kind, ops, events are "
                    "needed).")
    if not cmds or cmds[0]["kind"] != "new" or not cmds[0]["ops"] or \
            not isinstance(cmds[0]["ops"][0], list) or len(cmds[0]["ops"][0]) != 2 or \
            not all(isinstance(x, list) and len(x) == 2 and all(isinstance(y, str) for y in x)
                    for x in cmds[0]["ops"][0][1]):
        return ("В файле нет начальной команды с рассадкой и ролями.",
                "The file has no first command with the seating and roles.")
    for k in ("deadline",):
        try:
            parse_time(data.get(k))
        except Refused:
            return (f"Срок (deadline) в файле не читается: {str(data.get(k))[:40]!r}.",
                    f"The file's deadline cannot be read: {str(data.get(k))[:40]!r}.")
    return None


def verify(data, lang: str | None = None) -> VerifyReport:
    """Check an exported game and say what was checked, in the game's language (or
    ``lang``): the commitment binds the seed, the seating, every role and the fields that
    decide them (``deal-v2``); the deal follows from the seed when it was dealt; every
    command run again from the seed gives exactly the stored events; every roll is the
    one the seed gives (``verify_rolls``). A file of the wrong shape is one problem."""
    la = lang or (data.get("lang") if isinstance(data, dict) else None)
    rep = VerifyReport(lang=la if la in ("ru", "en") else "ru")
    why = _shape(data)
    if why is not None:
        rep.bad(*why)
        return rep
    try:
        _verify(data, rep)
    except (Refused, RulesetError, TypeError, KeyError, ValueError, AttributeError,
            IndexError) as e:
        rep.bad(f"Файл повреждён, проверка остановлена ({type(e).__name__}).",
                f"The file is damaged; the check stopped ({type(e).__name__}).")
    return rep


def _verify(data: dict, rep: VerifyReport) -> None:
    seed, salt, pub = data["seed"], data["salt"], data["commitment"]
    cmds = data["commands"]
    seating = [(n, r) for n, r in cmds[0]["ops"][0][1]]
    names = [n for n, _ in seating]
    mafia = cmds[0]["args"].get("mafia") if isinstance(cmds[0].get("args"), dict) else None
    options = data.get("options") or {}
    rep.good(f"Хэш из первого поста должен быть {pub} — сверьте его с постом.",
             f"The first post's hash must read {pub}: compare it with the post.")
    scheme = data.get("commitment_scheme", "seed-v1")
    if scheme == DEAL_SCHEME:
        again = deal_commitment(salt, seed, data["ruleset"], data.get("ruleset_version"),
                                options, data["dealt"], mafia, seating)
        if again == pub:
            rep.good("Хэш сходится: он закрепляет зерно, соль, правила и их версию, опции, "
                     "рассадку и роль каждого игрока, и то, раздал ли роли кубик или "
                     "назначил ведущий — ничего из этого не менялось после первого поста.",
                     "The hash matches: it binds the seed, the salt, the rule set and its "
                     "version, the options, the seating and every player's role, and whether "
                     "the dice or the host gave the roles — none of it changed after the "
                     "first post.")
        else:
            rep.bad("Хэш не сходится с зерном, рассадкой, ролями, опциями и способом раздачи "
                    "в файле: что-то из этого изменено после первого поста.",
                    "The hash does not match the file's seed, seating, roles, options and "
                    "way of dealing: some of them were changed after the first post.")
    elif scheme == "seed-v1":
        if commitment(seed, salt) == pub:
            rep.good("Хэш (старая схема) сходится с зерном и солью; он закрепляет только "
                     "зерно — рассадка и роли им не закреплены.",
                     "The hash (old scheme) matches the seed and salt; it binds the seed "
                     "only — the seating and roles are not bound by it.")
        else:
            rep.bad("Зерно и соль не дают хэш из файла.",
                    "The seed and salt do not give the file's hash.")
    else:
        rep.bad(f"Схема хэша {str(scheme)[:30]!r} неизвестна.",
                f"Unknown commitment scheme {str(scheme)[:30]!r}.")
    try:
        validate_names(names)
    except NameRefused as e:
        rep.bad(e.ru, e.en)
        return
    rules = load(data["ruleset"], options or None)
    if rules.version != data.get("ruleset_version"):
        rep.bad(f"Игра шла по правилам {data['ruleset']} версии "
                f"{data.get('ruleset_version')}, здесь установлена версия {rules.version}.",
                f"The game was played under {data['ruleset']} version "
                f"{data.get('ruleset_version')}, this installation has version "
                f"{rules.version}.")
    stored = [_event_from_dict(d) for c in cmds for d in c["events"]]
    if data["dealt"]:
        if deal(rules, names, seed, mafia) != seating:
            rep.bad("Роли — не та раздача, которую даёт зерно.",
                    "The roles are not the deal the seed gives.")
        else:
            rep.good(f"Раздача повторена из зерна: все {len(names)} ролей совпали.",
                     f"The deal re-made from the seed: all {len(names)} roles match.")
    else:
        rep.good("Роли назначил ведущий (не раздача по зерну); хэш закрепил их до начала."
                 if scheme == DEAL_SCHEME else "Роли назначил ведущий (не раздача по зерну).",
                 "The roles were assigned by the host (not dealt from the seed); the hash "
                 "bound them before the start." if scheme == DEAL_SCHEME else
                 "The roles were assigned by the host (not dealt from the seed).")
    g = Game(rules, seating, seed,
             accept_warnings=bool(cmds[0]["args"].get("accept_warnings")))
    n_cmd = 0
    for c in cmds[1:]:
        try:
            for op in c["ops"]:
                apply_op(g, op)
        except (Refused, ValueError, KeyError, TypeError, IndexError) as e:
            rep.bad(f"Команду №{c['seq']} ({c['kind']}) не повторить: {e}",
                    f"Command #{c['seq']} ({c['kind']}) cannot be run again: {e}")
            return
        n_cmd += 1
    got = [normalize_event(e) for e in g.events]
    if len(got) != len(stored):
        rep.bad(f"Повтор команд даёт {len(got)} событий, в файле {len(stored)}.",
                f"Running the commands again gives {len(got)} events, the file has "
                f"{len(stored)}.")
    for i, (a, b) in enumerate(zip(got, stored, strict=False)):
        if _event_dict_of(a) != _event_dict_of(b):
            rep.bad(f"Событие {i} отличается: в файле {_event_dict_of(b)}, повтор даёт "
                    f"{_event_dict_of(a)}.",
                    f"Event {i} differs: the file has {_event_dict_of(b)}, running again "
                    f"gives {_event_dict_of(a)}.")
            break
    else:
        if len(got) == len(stored):
            rep.good(f"Все {n_cmd} команд ведущего повторены с начала: все {len(got)} "
                     f"событий (ходы, голоса, итоги ночей и дней) совпали.",
                     f"All {n_cmd} host commands run again from the start: all {len(got)} "
                     f"events (moves, votes, every night's and day's outcome) identical.")
    rolls = [e.data for e in stored if e.type == "roll"]
    for p in verify_rolls(seed, rolls):
        if "forced by the host" in p:
            rep.good(f"Бросок задан ведущим: {p}", p)
        else:
            rep.bad(f"Бросок не совпал с зерном: {p}", p)
    rep.good(f"Бросков кубика сверено с зерном: {len(rolls)}.",
             f"{len(rolls)} dice rolls checked against the seed.")
