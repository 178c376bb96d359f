"""The ``mafiahost`` command."""

from __future__ import annotations

import json
import sys

from . import cli_balance
from .cli_parser import Parser
from .engine.errors import Refused, RulesetError


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")


def cmd_rulesets(args) -> int:
    from .rules import available, load
    for rid in available():
        r = load(rid)
        _out(f"{rid:14} {r.title_ru} / {r.title_en}  [{r.source}]")
    return 0


def cmd_roles(args) -> int:
    from .rules import load
    r = load(args.ruleset)
    _out(f"{r.title_ru} / {r.title_en}  ({r.source})")
    steps = {s.id: s for s in r.steps}
    for rid, role in r.roles.items():
        fac = r.factions[role.faction]
        _out("")
        _out(f"{role.name_ru} / {role.name_en}  [{rid}] — {fac.name_ru} / {fac.name_en}")
        if role.text_ru:
            _out(f"  {role.text_ru}")
            _out(f"  {role.text_en}")
        for aid in role.abilities:
            ab = r.abilities[f"{rid}.{aid}"]
            when = (f"ночь, шаг «{steps[ab.step].name_ru}» / night, step '{steps[ab.step].name_en}'"
                    if ab.phase == "night" else "день / day")
            _out(f"  - {aid}: {ab.name_ru} / {ab.name_en} ({when})")
            if ab.text_ru:
                _out(f"      {ab.text_ru}")
                _out(f"      {ab.text_en}")
    _out("")
    _out("Порядок ночи / Night order:")
    for s in r.steps:
        _out(f"  {s.name_ru} / {s.name_en}")
    return 0


def cmd_scenario(args) -> int:
    from .scenario import collect, run_file
    files = collect(args.paths)
    if not files:
        _out("No scenario files found in: " + ", ".join(args.paths))
        return 2
    reports = [run_file(f) for f in files]
    bad = [r for r in reports if not r.ok]
    if args.json:
        _out(json.dumps({"passed": len(reports) - len(bad), "failed": len(bad),
                         "results": [r.as_dict() for r in reports]}, ensure_ascii=False, indent=1))
    else:
        for r in bad:
            _out(f"FAIL {r.path}")
            if r.error:
                _out(f"  error: {r.error}")
            for f in r.failures:
                _out(f"  - {f}")
        _out(f"scenarios: {len(reports) - len(bad)} passed, {len(bad)} failed")
    return 0 if not bad else 1


def cmd_run(args) -> int:
    from .scenario import ScenarioError, load_scenario, play
    try:
        data = load_scenario(args.file)
    except ScenarioError as e:
        _out(str(e))
        return 2
    rep = play(data, args.file, check=False)
    if rep.error:
        _out(rep.error)
        return 2
    g = rep.game
    if args.json:
        state = {"phase": g.state.phase, "number": g.state.number, "over": g.state.over,
                 "winners": g.state.winners,
                 "players": [{"name": p.name, "role": p.role, "faction": p.faction,
                              "alive": p.alive,
                              "statuses": {k: v[1] for k, v in p.st.items()
                                           if v[0] >= g.state.idx}}
                             for p in g.state.order]}
        _out(json.dumps({"events": [e.as_dict() for e in g.events], "state": state,
                         "failures": rep.failures}, ensure_ascii=False, indent=1, default=str))
    else:
        for e in g.events:
            _out(f"[{e.phase}] {e.type} {json.dumps(e.data, ensure_ascii=False, default=str)}")
        for f in rep.failures:
            _out(f"! {f}")
    return 0 if not rep.failures else 1


def cmd_demo(args) -> int:
    import random

    from .render import final_post, phase_post
    from .sim import new_random_game, play_phase
    g = new_random_game(args.ruleset, args.players, args.seed, _opts(args.option), args.mafia)
    rng = random.Random(args.seed)
    lang = args.lang
    _out(f"== {g.rules.title_ru if lang == 'ru' else g.rules.title_en} — "
         f"{len(g.state.order)} игроков, seed {args.seed} ==")
    phases = 0
    while not g.state.over and phases < args.max_phases:
        play_phase(g, rng)
        evs = g.resolve()
        _out("")
        _out(phase_post(g, evs, lang))
        phases += 1
    _out("")
    _out(final_post(g, lang))
    return 0 if g.state.over else 1


# ---- hosting: saved games -------------------------------------------------------------

def _host(args):
    from .host import Host
    return Host(args.db)


def _lang(args):
    return getattr(args, "lang", None) or None


def _fmt(args):
    return getattr(args, "format", None) or None


def _done(d, args=None) -> int:
    if d.message:
        _out(d.message)
    if d.post:
        _out("")
        _out(d.post)
    return 0


def _opts(pairs):
    """NAME=VALUE ruleset options; VALUE is read as a YAML scalar (true, 3, maniac), as in
    the ruleset files."""
    import yaml
    opts = {}
    for o in pairs or []:
        k, _, v = o.partition("=")
        try:
            val = yaml.safe_load(v)
        except yaml.YAMLError:
            val = v
        opts[k.strip()] = val if isinstance(val, (bool, int, float, str)) else v
    return opts


def cmd_game(args) -> int:
    from .host import parse_bots, parse_roles
    h = _host(args)
    sub = args.game_cmd
    if sub == "new":
        players = [x.strip() for x in args.players.split(",") if x.strip()]
        roles = parse_roles(args.roles, players) if args.roles else None
        if args.deadline:                   # a bad or past deadline: refused before anything
            from .host import deadlines
            tz = h.host_tz(args.owner) if args.owner else ""
            deadlines.read(args.deadline, deadlines.zone(tz or None))
        d = h.new_game(args.ruleset, players, roles=roles, options=_opts(args.option),
                       schedule=args.schedule,
                       mafia=args.mafia, seed=args.seed, name=args.name or "",
                       lang=args.lang or "ru", fmt=args.format or "plain",
                       accept_warnings=args.accept_warnings,
                       owner=h.host_id(args.owner) if args.owner else None,
                       bots=parse_bots(args.bots, players) if args.bots else None)
        if args.deadline:
            h.set_deadline(d.game_id, args.deadline)
            d.post = h.post(d.game_id, "start")          # the first post with its deadline
        else:
            ru = (args.lang or "ru") == "ru"
            d.message += ("\nСрок первой фазы не задан (в пост не попал): mafiahost game "
                          f"deadline {d.game_id} \"ГГГГ-ММ-ДД ЧЧ:ММ\", затем post --start."
                          if ru else
                          "\nThe first phase has no deadline (none in the post): mafiahost "
                          f"game deadline {d.game_id} \"YYYY-MM-DD HH:MM\", then post --start.")
        return _done(d)
    if sub == "demo":
        return _game_demo(h, args)
    if sub == "list":
        games = h.list_games()
        if args.json:
            _out(json.dumps(games, ensure_ascii=False, indent=1))
        elif not games:
            _out("Игр пока нет: mafiahost game new RULESET --players \"Анна,Борис,...\" / "
                 "No games yet.")
        for g in [] if args.json else games:
            _out(f"{g['id']:4}  {g['ruleset']:10} {g['players']:3} players  "
                 f"{g['status']:10} {g['name']}")
        return 0
    if sub == "show":
        info = h.show(args.id)
        if args.json:
            _out(json.dumps(info, ensure_ascii=False, indent=1))
        else:
            _out(_show_text(info, args.lang or info["lang"]))
        return 0
    if sub == "deadline":
        return _done(h.set_deadline(args.id, None if args.clear else args.when,
                                    allow_past=args.past, lang=args.lang))
    if sub == "schedule":
        return _done(h.set_schedule(args.id, args.schedule, lang=args.lang))
    if sub == "reminders":
        return _reminders(h.reminders(args.hours), args)
    if sub == "replace":
        return _done(h.replace_player(args.id, args.seat, args.by))
    if sub == "gender":
        return _done(h.set_gender(args.id, args.player, args.gender, lang=args.lang))
    if sub == "reveal":
        return _done(h.mark_revealed(args.id, args.player, not args.undo, lang=args.lang))
    if sub == "remove":
        return _done(h.remove(args.id, args.player, args.why or ""))
    if sub == "absent":
        return _done(h.mark_absent(args.id, args.player))
    if sub == "excuse":
        return _done(h.excuse(args.id, args.player))
    raise AssertionError(sub)


def _show_text(info, lang) -> str:
    """``game show`` for the host: every id in words (ids are in ``--json``)."""
    ru = lang == "ru"
    x = "ru" if ru else "en"
    title = info["title_ru"] if ru else info["title_en"]
    name = f" «{info['name']}»" if info["name"] else ""
    lines = [f"{'Игра' if ru else 'Game'} №{info['id']}{name} — {title}"]
    if info["over"]:
        lines.append(("Игра окончена; победители: " if ru else "Game over; winners: ")
                     + (", ".join(info[f"winners_{x}"]) or "—"))
    else:
        lines.append(f"{'Фаза' if ru else 'Phase'}: {info[f'phase_{x}']}    "
                     f"{'Срок' if ru else 'Deadline'}: "
                     f"{_deadline_text(info['deadline'], lang)}")
    lines.append("Игроки:" if ru else "Players:")
    for i, p in enumerate(info["players"], 1):
        name = p["seat"] if p["name"] == p["seat"] else f"{p['seat']} (→ {p['name']})"
        role = p["role_ru"] if ru else p["role_en"]
        state = ("в игре" if ru else "in the game") if p["alive"] else \
            (("вне игры: " if ru else "out: ") + (p[f"how_{x}"] or ""))
        st = "; ".join(p[f"statuses_{x}"])
        lines.append(f"  {i:2}. {name} — {role} ({p[f'faction_{x}']}), {state}"
                     + (f"; {'отметки' if ru else 'marks'}: {st}" if st else ""))
    if info[f"counters_{x}"]:
        lines.append(("Счётчики: " if ru else "Counters: ") + "; ".join(info[f"counters_{x}"]))
    if not info["over"]:
        lines.append(("Ещё не походили: " if ru else "Have not acted yet: ")
                     + (", ".join(info["not_acted"]) or "—"))
        if info.get("questions"):
            lines.append(("Ждут ответа на вопрос: " if ru else "Questions awaiting an answer: ")
                         + ", ".join(f"№{q['id']} {q['name']}" for q in info["questions"])
                         + (" (mafiahost answer ID ИГРОК №ВОПРОСА ОТВЕТ)" if ru else
                            " (mafiahost answer ID PLAYER QUESTION ANSWER)"))
        if info["phase"] == "day":
            lines.append(("Ещё не проголосовали: " if ru else "Have not voted yet: ")
                         + (", ".join(info["not_voted"]) or "—"))
            if info["votes"]:
                lines.append(("Голоса: " if ru else "Votes: ") + ", ".join(
                    f"{v} → {_vote_words(t, ru)}" for v, t in info["votes"].items()))
    lines.append(f"{'Обязательство (sha256)' if ru else 'Commitment (sha256)'}: "
                 f"{info['commitment']}")
    return "\n".join(lines)


def _reminders(items, args) -> int:
    ru = (args.lang or "ru") == "ru"
    x = "ru" if ru else "en"
    if not items:
        _out("Напоминаний нет: ни у одной игры срок не подходит." if ru
             else "No reminders: no game's deadline is near.")
    for r in items:
        name = f" «{r['name']}»" if r["name"] else ""
        if r["passed"]:
            when = ("срок вышел" if ru else "deadline passed") + f" ({r[f'deadline_{x}']})"
        else:
            when = (f"до {r['deadline_ru']}, осталось {r['hours_left']} ч" if ru
                    else f"{r['deadline_en']}, {r['hours_left']} h left")
        _out(f"{'Игра' if ru else 'Game'} №{r['id']}{name}: {r[f'phase_{x}']} — {when}.")
        if r["not_acted"]:
            _out(("  Не прислали ход: " if ru else "  No move yet: ") + ", ".join(r["not_acted"]))
        if r["not_voted"]:
            _out(("  Не проголосовали: " if ru else "  Not voted: ") + ", ".join(r["not_voted"]))
    return 0


def _vote_words(t, ru: bool) -> str:
    if t == "against_all":
        return "против всех" if ru else "against all"
    if t == "abstain":
        return "воздержание" if ru else "abstained"
    return t


def _deadline_text(dl, lang) -> str:
    if not dl:
        return "не задан" if lang == "ru" else "not set"
    from .render.posts import deadline_words
    return deadline_words(dl, lang)


def _game_demo(h, args) -> int:
    """A ready-to-play demo game: dealt, saved, with the commands to drive it."""
    from .sim import NAMES
    names = NAMES[:args.players]
    d = h.new_game(args.ruleset, names, seed=args.seed, name="demo", lang=args.lang or "ru")
    gid = d.game_id
    row, g = h.load(gid)
    prog = _prog()
    db = f" --db {args.db}" if args.db else ""
    _out(d.message)
    _out("")
    _out("=== Первый пост (вставьте в тему) / The first post (paste into the thread) ===")
    _out(d.post)
    _out("")
    _out(_show_text(h.show(gid), args.lang or "ru"))
    _out("")
    _out("=== Попробуйте / Try ===")
    tries = []
    factions = set()
    for p in g.state.order:
        if p.faction in factions or len(tries) >= 3:
            continue
        moves = [(ab, ts) for ab, ts in g.legal_moves(p.name) if p.name not in ts]
        other = [(ab, ts) for ab, ts in moves
                 if all(g.state.players[t].faction != p.faction for t in ts)]
        if moves:
            ab, ts = (other or moves)[len(tries) * 5 % len(other or moves)]
            factions.add(p.faction)
            tries.append(f"{prog} act {gid} {p.name} {_move_word(g, p.name, ab)} "
                         f"{' '.join(ts)}{db}")
    tries += [f"{prog} game show {gid}{db}",
              f"{prog} cards {gid} {names[0]}{db}",
              f"{prog} resolve {gid} --preview{db}",
              f"{prog} resolve {gid}{db}",
              f"{prog} pm {gid}{db}",
              f"{prog} vote {gid} {names[0]} {names[1]}{db}",
              f"{prog} votes count {gid}{db}",
              f"{prog} undo {gid}{db}",
              f"{prog} log {gid}{db}",
              f"{prog} post {gid}{db}",
              f"{prog} export {gid} -o game{gid}.json{db}",
              f"{prog} verify game{gid}.json"]
    for t in tries:
        _out("  " + t)
    _out("")
    _out("Все команды / every command: docs/hosting.md")
    return 0


def _move_word(g, seat: str, ab: str) -> str:
    """The Russian word a player would write for the move (the first word of its name,
    when that word reads back as the same move), else its id."""
    from .host.ability_words import _first, ability_id
    from .host.core import HostError
    spec = g.rules.abilities[f"{g.state.players[seat].role}.{ab}"]
    word = _first(spec.name_ru)
    try:
        return word if word and ability_id(g, seat, word) == ab else ab
    except HostError:
        return ab


def _prog() -> str:
    """How the user started this program, for commands to copy: ``mafiahost`` when that
    is what the PATH finds, else the path typed (e.g. ``.venv/bin/mafiahost``)."""
    import os
    import shutil
    argv0 = sys.argv[0] if sys.argv and sys.argv[0] else ""
    if not argv0.endswith("mafiahost"):
        return "mafiahost"
    found = shutil.which("mafiahost")
    if found and os.path.abspath(found) == os.path.abspath(argv0):
        return "mafiahost"
    return argv0


def cmd_act(args) -> int:
    return _done(_host(args).act(args.id, args.actor, args.ability, args.targets,
                                 replace=args.replace, lang=_lang(args)))


def cmd_vote(args) -> int:
    return _done(_host(args).vote(args.id, args.voter, args.target, at=args.at, late=args.late,
                                  lang=_lang(args)))


def cmd_votes(args) -> int:
    from .cli_votes import run
    return run(args, _host(args), _lang(args), _fmt(args))


def cmd_resolve(args) -> int:
    return _done(_host(args).resolve(args.id, preview=args.preview, lang=_lang(args),
                                     fmt=_fmt(args)))


def cmd_post(args) -> int:
    kind = "start" if args.start else "votes" if args.votes else "final" if args.final \
        else "phase" if args.phase else "latest"
    _out(_host(args).post(args.id, kind, args.phase, _lang(args), _fmt(args), args.force))
    return 0


def _by_player(d: dict, empty: str) -> int:
    if not d:
        _out(empty)
    for name, text in d.items():
        _out(f"=== {name} ===")
        _out(text)
        _out("")
    return 0


def cmd_pm(args) -> int:
    d = _host(args).private_messages(args.id, args.player, args.phase, _lang(args), _fmt(args))
    return _by_player(d, "Личных сообщений нет. / No private messages.")


def cmd_cards(args) -> int:
    return _by_player(_host(args).cards(args.id, args.player, _lang(args), _fmt(args)), "")


def cmd_undo(args) -> int:
    return _done(_host(args).undo(args.id, lang=_lang(args), dry_run=args.dry_run))


def cmd_log(args) -> int:
    for line in _host(args).log(args.id, undone=args.undone, ids=args.ids, lang=args.lang):
        _out(line)
    return 0


def cmd_export(args) -> int:
    data = _host(args).export(args.id)
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if args.output:
        from pathlib import Path
        try:
            Path(args.output).write_text(text + "\n", encoding="utf-8")
        except OSError as e:
            raise Refused(f"Не могу записать файл {args.output}: {e.strerror or e}.",
                          f"Cannot write the file {args.output}: {e.strerror or e}.") from None
        _out(f"Игра №{args.id} сохранена в {args.output}. / Game {args.id} written to "
             f"{args.output}.")
    else:
        _out(text)
    return 0


def _read_game_file(path):
    from pathlib import Path
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise Refused(f"Не могу прочитать файл игры {path}: {e}",
                      f"Cannot read the game file {path}: {e}") from None


def cmd_import(args) -> int:
    return _done(_host(args).import_game(_read_game_file(args.file), name=args.name))


def cmd_verify(args) -> int:
    from .host import verify
    rep = verify(_read_game_file(args.file), args.lang)
    ru = rep.lang == "ru"
    _out("Что проверено:" if ru else "What was checked:")
    for good, r, e in rep.items:
        _out(("  ok: " if good else "  НЕ СХОДИТСЯ: " if ru else "  FAIL: ") + (r if ru else e))
    if rep.ok:
        _out("ПРОВЕРЕНО: игра честно следует из зерна, раздачи и правил; хэш выше должен "
             "совпасть с первым постом." if ru else
             "VERIFIED: the game follows from its seed, its deal and the rules; the hash "
             "above must match the first post.")
    else:
        _out("НЕ ПРОВЕРЕНО." if ru else "NOT VERIFIED.")
    return 0 if rep.ok else 1


def cmd_serve(args) -> int:
    """The web app (``mafiahost.web``) on the same database as the other commands."""
    import os

    import uvicorn

    from .host import GameCache, Host
    from .sim import NAMES
    from .store import database_url, open_store
    from .web.app import THREADS
    url = database_url(args.db)
    h = Host(store=open_store(url, wal=True, pool=THREADS),
             cache=GameCache(int(os.environ.get("MAFIAHOST_GAME_CACHE", "512"))))
    base = (args.public_url or f"http://{args.host}:{args.port}").rstrip("/")
    if args.demo:
        # the demo's own host account: a fresh key every time (the old one ends)
        try:
            key = h.add_host("demo")
        except Refused:
            key = h.rotate_host_key("demo")
        d = h.new_game("gemini", NAMES[:12], name="demo", lang="ru",
                       owner=h.host_id("demo"))
        links = h.links(d.game_id)
        _out(d.message)
        _out(f"Ведущий / host:  {base}/login")
        _out(f"Ключ ведущего «demo» (введите в форму входа) / host key of 'demo' (type it "
             f"into the login form): {key}")
        _out(f"Игра / game:     {base}/host/games/{d.game_id}")
        _out("Ссылки игроков (у каждого своя, секретная) / players' links (private):")
        for seat, tok in links.items():
            _out(f"  {seat:8} {base}/p/{tok}")
    else:
        _out(f"Ведущий / host:  {base}/login")
        if not h.host_accounts():
            _out("Ведущих пока нет; ключ для входа: mafiahost host add ИМЯ / no host "
                 "accounts yet; a key to log in: mafiahost host add NAME")
    _out(f"База / database: {h.store.engine.url.render_as_string(hide_password=True)}")
    _out("Остановить / stop: Ctrl+C")
    sys.stdout.flush()
    from .web.logs import log_config
    kw = {"host": args.host, "port": args.port, "access_log": args.access_log,
          "log_level": "info" if args.access_log else "warning",
          "log_config": log_config(), "timeout_graceful_shutdown": 1}
    if args.public_url:
        os.environ["MAFIAHOST_PUBLIC_URL"] = base
    if args.workers > 1:
        os.environ["MAFIAHOST_DB"] = url
        uvicorn.run("mafiahost.web.app:app_from_env", factory=True, workers=args.workers, **kw)
    else:
        from .web import create_app
        uvicorn.run(create_app(host=h, public_url=base if args.public_url else None,
                               server=True), **kw)
    return 0


HOST_COMMANDS = {"game": cmd_game, "act": cmd_act, "vote": cmd_vote, "votes": cmd_votes,
                 "resolve": cmd_resolve, "post": cmd_post, "pm": cmd_pm, "cards": cmd_cards,
                 "undo": cmd_undo, "log": cmd_log, "export": cmd_export, "import": cmd_import,
                 "verify": cmd_verify, "serve": cmd_serve}


def _host_parsers(sub) -> None:
    db = Parser(add_help=False)
    db.add_argument("--db", help="файл SQLite или адрес базы (postgresql://...); по умолчанию "
                                 "$MAFIAHOST_DB, иначе ./mafiahost.db · SQLite file or database "
                                 "URL; default $MAFIAHOST_DB, else ./mafiahost.db")
    db.add_argument("--lang", choices=("ru", "en"),
                    help="язык постов и ответов · language of posts and answers")
    db.add_argument("--format", choices=("plain", "bbcode"),
                    help="вид постов: простой текст или BBCode · post format")
    gid = Parser(add_help=False)
    gid.add_argument("id", type=int, metavar="ID",
                     help="номер игры (game list) · game number (game list)")
    seat = Parser(add_help=False)
    seat.add_argument("player", metavar="PLAYER", help="игрок · the player")

    p = sub.add_parser("game", help="сохранённая игра: новая, демо, список, состояние, срок, "
                                    "замена, вывод · host a saved game")
    gs = p.add_subparsers(dest="game_cmd", required=True)
    q = gs.add_parser("new", parents=[db], help="раздать роли и начать игру · deal roles and "
                                                "start a saved game")
    q.add_argument("ruleset", metavar="RULESET",
                   help="правила (mafiahost rulesets) · the rule set (mafiahost rulesets)")
    q.add_argument("--players", required=True,
                   help='порядок рассадки, пол по желанию: "Анна:ж,Борис:м,Вера,..." · '
                        'seating order, a gender if you give it')
    q.add_argument("--roles", help='роли от ведущего: "Анна=Комиссар,..." или роли по порядку '
                                   'рассадки (по умолчанию раздают правила) · the host\'s '
                                   'assignment (default: dealt by the rule set)')
    q.add_argument("--option", action="append",
                   help="настройка правил ИМЯ=ЗНАЧЕНИЕ (yakuza=да) · ruleset option NAME=VALUE")
    q.add_argument("--mafia", type=int, help="сколько мафии (vanilla) · number of mafia "
                                             "(vanilla)")
    q.add_argument("--seed", type=int, help="зерно кубика (по умолчанию новое случайное) · "
                                            "dice seed (default: a fresh random one)")
    q.add_argument("--name", help="название игры · a label for the game")
    q.add_argument("--deadline", help="срок первой фазы, например 2026-12-02 21:00 · deadline "
                                      "of the first phase")
    q.add_argument("--schedule", help='когда кончается каждая фаза, например "day=+1 23:00, '
                                      'night=+1 10:00" (по умолчанию как в правилах) · when '
                                      'each phase ends (default: what the seed says)')
    q.add_argument("--accept-warnings", action="store_true",
                   help="принять расклад вопреки рекомендациям правил (запрещённое правилами "
                        "всё равно не пройдёт) · accept the rules' recommendations the setup "
                        "goes against; what the rules forbid stays refused")
    q.add_argument("--owner", help="учётная запись ведущего-владельца (mafiahost host add) · "
                                   "the host account that owns it")
    q.add_argument("--bots", help='места за ботами: "Глеб=разумный,Дина=случайный" (их ходы '
                                  'отправляются в начале каждой фазы) · seats played by bots')
    q = gs.add_parser("demo", parents=[db], help="готовая демо-игра, чтобы попробовать "
                                                 "команды · a ready-to-play demo game")
    q.add_argument("--ruleset", default="gemini",
                   help="правила (по умолчанию gemini) · the rule set (gemini)")
    q.add_argument("--players", type=int, default=12,
                   help="сколько игроков (12) · number of players (12)")
    q.add_argument("--seed", type=int, help="зерно кубика · dice seed")
    q = gs.add_parser("list", parents=[db], help="сохранённые игры · the saved games")
    q.add_argument("--json", action="store_true", help=JSON_HELP)
    q = gs.add_parser("show", parents=[db, gid], help="фаза, срок, игроки, отметки, кто не "
                                                      "походил и не проголосовал · phase, "
                                                      "deadline, players, who has not acted")
    q.add_argument("--json", action="store_true", help=JSON_HELP)
    q = gs.add_parser("deadline", parents=[db, gid], help="срок этой фазы · set this phase's "
                                                          "deadline")
    q.add_argument("when", nargs="?", metavar="WHEN",
                   help="например 2026-12-02 21:00 (пояс ведущего, $MAFIAHOST_TZ, иначе "
                        "Москва) или 2026-12-02T21:00+03:00 · the host's zone, Moscow by "
                        "default")
    q.add_argument("--clear", action="store_true", help="снять срок · clear the deadline")
    q.add_argument("--past", action="store_true",
                   help="принять прошедшее время (игру вносят задним числом) · accept a time "
                        "that has passed")
    q = gs.add_parser("schedule", parents=[db, gid],
                      help="когда кончается каждая фаза; следующий срок ставится при каждом "
                           "итоге · when each phase ends")
    q.add_argument("schedule", metavar="SCHEDULE",
                   help='например "day=+1 23:00, night=+1 10:00" или "day=48h" · e.g. '
                        '"day=48h"')
    q = gs.add_parser("reminders", parents=[db],
                      help="игры, у которых срок прошёл или близок · games whose deadline has "
                           "passed or comes soon")
    q.add_argument("--hours", type=float, default=24,
                   help="в пределах стольких часов (24) · within this many hours (24)")
    q = gs.add_parser("replace", parents=[db, gid],
                      help="замена: новый игрок садится на место · a new player takes a seat")
    q.add_argument("seat", metavar="SEAT", help="чьё место · whose seat")
    q.add_argument("by", metavar="NEWCOMER",
                   help='новый игрок, пол по желанию: "Новичок:м" · the newcomer, with a '
                        'gender if you give it')
    q = gs.add_parser("gender", parents=[db, gid, seat],
                      help="пол игрока для текстов · a player's gender for the texts")
    q.add_argument("gender", metavar="GENDER",
                   help="м | ж | - (не указан: нейтральные формулировки) · m | f | - (neutral "
                        "wording)")
    q = gs.add_parser("reveal", parents=[db, gid, seat],
                      help="отметить, что роль игрока вскрыта в теме (сам назвал или раскрыли) · "
                           "mark that a player's role is revealed in the thread")
    q.add_argument("--undo", action="store_true",
                   help="снять отметку · take the mark back")
    q = gs.add_parser("remove", parents=[db, gid, seat],
                      help="мастерский произвол: вывести игрока · the host's override: remove "
                           "a player")
    q.add_argument("--why", help="причина, для журнала · the reason, for the log")
    q = gs.add_parser("absent", parents=[db, gid, seat],
                      help="игрок не писал сегодня в теме · a player who did not post today")
    q = gs.add_parser("excuse", parents=[db, gid, seat],
                      help="освободить игрока от сегодняшнего голосования · excuse a player "
                           "from today's vote")

    p = sub.add_parser("act", parents=[db, gid], help="записать ход · record a move")
    p.add_argument("actor", metavar="PLAYER", help="кто ходит · who moves")
    p.add_argument("ability", metavar="MOVE",
                   help="ход, как пишут игроки: убить, проверка, лечение... · the move as "
                        "players write it")
    p.add_argument("targets", nargs="*", default=[], metavar="TARGET", help="на кого · on whom")
    p.add_argument("--replace", action="store_true",
                   help="заменить уже присланный ход · replace the move already sent")
    p = sub.add_parser("vote", parents=[db, gid], help="записать голос · record a vote")
    p.add_argument("voter", metavar="VOTER", help="кто голосует · who votes")
    p.add_argument("target", metavar="TARGET",
                   help='игрок, "против всех" или "воздержаться" · a player, against_all or '
                        'abstain')
    p.add_argument("--at", help="когда подан (по умолчанию сейчас), для срока · when it was "
                                "cast (default now)")
    p.add_argument("--late", action="store_true",
                   help="засчитать, хотя и после срока · count it although late")
    p = sub.add_parser("votes", help="голоса с форума: выгрузка темы, подсчёт, записи · forum "
                                     "votes: import a dump, the count, the records")
    vs = p.add_subparsers(dest="votes_cmd", required=True)
    from .cli_votes import register
    register(vs, db, gid)
    p = sub.add_parser("resolve", parents=[db, gid], help="подвести итог фазы · settle the "
                                                          "phase")
    p.add_argument("--preview", action="store_true",
                   help="показать, что будет, ничего не меняя · show the outcome, commit "
                        "nothing")
    p = sub.add_parser("post", parents=[db, gid], help="пост в тему, готовый к вставке · a "
                                                       "public post ready to paste")
    k = p.add_mutually_exclusive_group()
    k.add_argument("--start", action="store_true",
                   help="первый пост (с обязательством) · the first post (with commitment)")
    k.add_argument("--votes", action="store_true",
                   help="текущий подсчёт голосов · the live vote count")
    k.add_argument("--final", action="store_true",
                   help="итоговый пост (роли, журнал, зерно) · the final post (roles, log, "
                        "seed)")
    k.add_argument("--phase", help='итог фазы, например "ночь 1" или "день 2" · the result of a '
                                   'phase, e.g. "night 1"')
    p.add_argument("--force", action="store_true",
                   help="итоговый пост до конца игры · the final post before the end")
    p = sub.add_parser("pm", parents=[db, gid], help="личные сообщения игрокам · private "
                                                     "messages due to players")
    p.add_argument("player", nargs="?", metavar="PLAYER",
                   help="только этому игроку · only this player's")
    p.add_argument("--phase", help='все личные сообщения фазы, например "ночь 2" · every '
                                   'private message of a phase')
    p = sub.add_parser("cards", parents=[db, gid], help="карточки ролей для раздачи · role "
                                                        "cards to send at the start")
    p.add_argument("player", nargs="?", metavar="PLAYER",
                   help="только этому игроку · only this player's")
    p = sub.add_parser("undo", parents=[db, gid], help="отменить последнюю команду · revert the "
                                                       "last command exactly")
    p.add_argument("--dry-run", action="store_true",
                   help="сказать, что будет отменено, ничего не меняя · say what undo would "
                        "revert, change nothing")
    p = sub.add_parser("log", parents=[db, gid], help="журнал ведущего: каждое событие с "
                                                      "причиной · every event with its cause")
    p.add_argument("--undone", action="store_true",
                   help="показать и отменённые команды · also list undone commands")
    p.add_argument("--ids", action="store_true",
                   help="сырой журнал: виды команд, типы событий, поля · the raw log: command "
                        "kinds, event types, fields")
    p = sub.add_parser("export", parents=[db, gid], help="вся игра одним файлом JSON · the "
                                                         "whole game as one JSON file")
    p.add_argument("-o", "--output", help="куда записать (по умолчанию на экран) · file to "
                                          "write (default: standard output)")
    p = sub.add_parser("import", parents=[db], help="сохранить выгруженную игру как новую · "
                                                    "store an exported game as a new game")
    p.add_argument("file", metavar="FILE", help="файл export · the exported file")
    p.add_argument("--name", help="название игры · a label for the game")
    p = sub.add_parser("verify", help="проверить выгруженную игру: обязательство, раздачу, "
                                      "каждый бросок · check an exported game")
    p.add_argument("file", metavar="FILE", help="файл export · the exported file")
    p.add_argument("--lang", choices=("ru", "en"),
                   help="язык (по умолчанию язык игры) · language (default: the game's)")
    from . import cli_hosts, cli_questions
    cli_hosts.register(sub, db)
    cli_questions.register(sub, db, gid, seat)
    p = sub.add_parser("serve", parents=[db], help="сайт для ведущего и игроков · the web app "
                                                   "for the host and the players")
    p.add_argument("--host", default="127.0.0.1",
                   help="адрес для входящих (127.0.0.1) · address to listen on")
    p.add_argument("--port", type=int, default=8000, help="порт (8000) · port")
    p.add_argument("--demo", action="store_true",
                   help="создать демо-игру gemini и показать ключ ведущего и ссылки игроков · "
                        "create a demo game and print the host's key and the players' links")
    p.add_argument("--workers", type=int, default=1,
                   help="сколько процессов (1) · app processes (1)")
    p.add_argument("--public-url", help="адрес, по которому заходят игроки (для ссылок) · the "
                                        "address players reach")
    p.add_argument("--access-log", action="store_true",
                   help="записывать каждый запрос (токены игроков заменяются на …) · log every "
                        "request (players' tokens replaced by …)")


JSON_HELP = "вывести JSON (для программ) · print JSON (for programs)"


def build_parser() -> tuple[Parser, dict]:
    """The whole command line (every command's parser) and the balance commands' handlers,
    for ``main`` and its tests."""
    ap = Parser(prog="mafiahost",
                description="Ведущий форумной мафии · Host forum Mafia games.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("rulesets", help="список правил · list the rule sets")
    p = sub.add_parser("roles", help="лист ролей правил · print a rule set's role sheet")
    p.add_argument("ruleset", metavar="RULESET", help="правила · the rule set")
    p = sub.add_parser("scenario", help="прогнать сценарии (файлы или папки) · run scenario "
                                        "files or folders")
    p.add_argument("paths", nargs="+", metavar="PATH", help="файл или папка · file or folder")
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p = sub.add_parser("run", help="сыграть сценарий и показать каждое событие · play a "
                                   "scenario's script and print every event")
    p.add_argument("file", metavar="FILE", help="файл сценария · the scenario file")
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p = sub.add_parser("demo", help="целая игра случайными ходами, без сохранения · a whole "
                                    "game by random legal moves")
    p.add_argument("ruleset", metavar="RULESET", help="правила · the rule set")
    p.add_argument("--players", type=int, default=12,
                   help="сколько игроков (12) · number of players (12)")
    p.add_argument("--seed", type=int, default=1, help="зерно кубика (1) · dice seed (1)")
    p.add_argument("--lang", choices=("ru", "en"), default="ru", help="язык · language")
    p.add_argument("--option", action="append",
                   help="настройка правил ИМЯ=ЗНАЧЕНИЕ · ruleset option NAME=VALUE")
    p.add_argument("--mafia", type=int, help="сколько мафии (vanilla) · number of mafia")
    p.add_argument("--max-phases", type=int, default=200,
                   help="не больше стольких фаз (200) · at most this many phases")
    _host_parsers(sub)
    return ap, cli_balance.register(sub)


def main(argv=None) -> int:
    ap, balance_commands = build_parser()
    args = ap.parse_args(argv)
    try:
        return _run(args, balance_commands)
    except BrokenPipeError:             # the reader went away (``… | head``): no traceback
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _run(args, balance_commands) -> int:
    try:
        return {"rulesets": cmd_rulesets, "roles": cmd_roles, "scenario": cmd_scenario,
                "run": cmd_run, "demo": cmd_demo, **HOST_COMMANDS,
                **_cli_hosts().COMMANDS, **_cli_questions().COMMANDS,
                **balance_commands}[args.cmd](args)
    except Refused as e:
        _out(_in_language(args, e))
        return 2
    except RulesetError as e:
        _out(str(e))
        return 2
    except _store_error() as e:
        _out(str(e))
        return 2
    except _db_error() as e:          # outside a command's own handling: still a sentence
        from .store import db_error_sentence
        _out(db_error_sentence(e))
        return 2


def _in_language(args, e: Refused) -> str:
    """A refusal in the game's language (``--lang``, else the game's own, else Russian);
    both when the language cannot be told."""
    lang = getattr(args, "lang", None)
    if lang is None and isinstance(getattr(args, "id", None), int):
        try:
            from .host import Host
            lang = Host(getattr(args, "db", None)).load(args.id)[0].lang
        except Exception:  # noqa: BLE001 - no such game: say it in both languages
            lang = None
    if lang == "en" and e.en:
        return e.en
    if lang == "ru" or not e.en:
        return e.ru
    return str(e)


def _cli_questions():
    from . import cli_questions
    return cli_questions


def _cli_hosts():
    from . import cli_hosts
    return cli_hosts


def _db_error():
    from sqlalchemy.exc import DBAPIError
    return DBAPIError


def _store_error():
    from .store import StoreError
    return StoreError


if __name__ == "__main__":
    sys.exit(main())
