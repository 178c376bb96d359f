"""``mafiahost host …``: host accounts, who hosts which game, and the players' links.

The command line on the database's own machine is the administrator: it makes accounts,
rotates their keys (which ends their sessions), gives games to owners and co-hosts and
issues players' links. Every key and link is printed once, when it is made: the
database keeps only its SHA-256.
"""

from __future__ import annotations

import argparse
import json
import sys


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")


def _host(args):
    from .host import Host
    return Host(args.db)


def _login_hint(args) -> str:
    base = (getattr(args, "public_url", None) or "http://127.0.0.1:8000").rstrip("/")
    return (f"Вход: {base}/login — введите ключ в форму (он показан один раз; новый: "
            f"mafiahost host key ИМЯ --rotate).\n"
            f"Log in: {base}/login — type the key into the form (shown this once; a new "
            f"one: mafiahost host key NAME --rotate).")


def _tz_line(name: str, tz: str) -> str:
    """The account's zone in words, with the time it is there now."""
    from .host import deadlines
    from .render.posts import deadline_words
    now = deadlines.now(deadlines.zone(tz or None))
    if not tz:
        return (f"Часовой пояс ведущего «{name}»: по умолчанию ($MAFIAHOST_TZ, иначе Москва); "
                f"сейчас {deadline_words(now, 'ru')}.\n"
                f"Time zone of '{name}': the default ($MAFIAHOST_TZ, else Moscow); now "
                f"{deadline_words(now, 'en')}.")
    return (f"Часовой пояс ведущего «{name}»: {tz}; сейчас там {deadline_words(now, 'ru')}. "
            f"Сроки новых игр читаются в нём.\n"
            f"Time zone of '{name}': {tz}; now {deadline_words(now, 'en')} there. New games' "
            f"deadlines are read in it.")


def cmd_host(args) -> int:
    from .engine.errors import Refused
    h = _host(args)
    sub = args.host_cmd
    if sub == "add":
        key = h.add_host(args.name, args.tz or "")
        _out(f"Ведущий «{args.name}» добавлен / host '{args.name}' added.")
        if args.tz:
            _out(_tz_line(args.name, h.host_tz(args.name)))
        _out(f"Ключ / key: {key}")
        _out(_login_hint(args))
        return 0
    if sub == "key":
        if not args.rotate:
            raise Refused("Ключи хранятся только как отпечатки, прочитать старый нельзя; "
                          "новый ключ (старый и все входы по нему перестанут работать): "
                          "mafiahost host key ИМЯ --rotate.",
                          "Keys are stored only as hashes and cannot be read back; a new "
                          "key (the old one and every session end): "
                          "mafiahost host key NAME --rotate.")
        key = h.rotate_host_key(args.name)
        _out(f"Новый ключ ведущего «{args.name}»; старый и все входы по нему больше не "
             f"действуют / new key for '{args.name}'; the old one and its sessions ended.")
        _out(f"Ключ / key: {key}")
        return 0
    if sub == "tz":
        if args.zone is not None:
            h.set_host_tz(args.name, args.zone)
        _out(_tz_line(args.name, h.host_tz(args.name)))
        return 0
    if sub == "list":
        rows = h.host_accounts()
        if args.json:
            _out(json.dumps(rows, ensure_ascii=False, indent=1))
            return 0
        if not rows:
            _out("Ведущих пока нет: mafiahost host add ИМЯ / No hosts yet: "
                 "mafiahost host add NAME.")
        for r in rows:
            games = ", ".join(map(str, r["games"])) or "—"
            co = ", ".join(map(str, r["cohost"])) or "—"
            _out(f"{r['name']:20} игры · games {games:12} соведущий · co-host {co:10} "
                 f"входы · sessions {r['sessions']}  пояс · zone {r['tz'] or '—'}  "
                 f"ключ · key {r['key_at']}")
        return 0
    if sub == "owner":
        h.set_game_host(args.id, args.name, "owner")
        _out(f"Игра №{args.id}: владелец — {args.name} / game {args.id}: owner {args.name}.")
        return 0
    if sub == "cohost":
        if args.drop:
            h.drop_game_host(args.id, args.name)
            _out(f"Игра №{args.id}: {args.name} больше не соведущий / no longer co-hosts.")
        else:
            h.set_game_host(args.id, args.name, "cohost")
            _out(f"Игра №{args.id}: соведущий — {args.name} / co-host {args.name}.")
        return 0
    if sub == "links":
        made = h.issue_links(args.id, args.seats or None)
        base = (args.public_url or "").rstrip("/")
        _out("Новые личные ссылки (старые больше не действуют; показаны один раз) / new "
             "private links (the old ones ended; shown this once):")
        for seat, tok in made.items():
            _out(f"  {seat:12} {base}/p/{tok}")
        return 0
    raise AssertionError(sub)


def register(sub, db: argparse.ArgumentParser) -> None:
    p = sub.add_parser("host", help="учётные записи ведущих, владельцы и соведущие игр, ссылки "
                                    "игроков · host accounts, owners, co-hosts, links")
    hs = p.add_subparsers(dest="host_cmd", required=True)
    q = hs.add_parser("add", parents=[db], help="новый ведущий (ключ показывается один раз) · "
                                                "a new host account (prints its key once)")
    q.add_argument("name", metavar="NAME", help="имя ведущего · the host's name")
    q.add_argument("--public-url", help="адрес сайта (для подсказки) · the web app's address")
    q.add_argument("--tz", help="часовой пояс для сроков, например Europe/Moscow · time zone "
                                "for deadlines")
    q = hs.add_parser("key", parents=[db], help="новый ключ ведущего (--rotate) · a new key "
                                                "for an account")
    q.add_argument("name", metavar="NAME", help="имя ведущего · the host's name")
    q.add_argument("--rotate", action="store_true",
                   help="сделать новый ключ; старый и все входы по нему кончаются · make a new "
                        "key; the old one and its sessions end")
    q = hs.add_parser("tz", parents=[db], help="часовой пояс ведущего для сроков новых игр · "
                                               "the host's time zone for new games' deadlines")
    q.add_argument("name", metavar="NAME", help="имя ведущего · the host's name")
    q.add_argument("zone", metavar="ZONE", nargs="?",
                   help="пояс, например Europe/Moscow или Asia/Novosibirsk (без него: "
                        "показать текущий) · a zone such as Europe/Moscow (none: show it)")
    q = hs.add_parser("list", parents=[db], help="ведущие, их игры и входы · the accounts, "
                                                 "their games and sessions")
    q.add_argument("--json", action="store_true",
                   help="вывести JSON (для программ) · print JSON (for programs)")
    q = hs.add_parser("owner", parents=[db], help="отдать игру ведущему · give a game to an "
                                                  "account")
    q.add_argument("id", type=int, metavar="ID", help="номер игры · game number")
    q.add_argument("name", metavar="NAME", help="имя ведущего · the host's name")
    q = hs.add_parser("cohost", parents=[db], help="добавить (или --drop убрать) соведущего · "
                                                   "add (or --drop) a co-host")
    q.add_argument("id", type=int, metavar="ID", help="номер игры · game number")
    q.add_argument("name", metavar="NAME", help="имя ведущего · the host's name")
    q.add_argument("--drop", action="store_true", help="убрать соведущего · drop the co-host")
    q = hs.add_parser("links", parents=[db],
                      help="новые личные ссылки игроков (всех или названных) · new private "
                           "links for a game's seats")
    q.add_argument("id", type=int, metavar="ID", help="номер игры · game number")
    q.add_argument("seats", nargs="*", default=[], metavar="SEAT",
                   help="чьи места (по умолчанию все) · whose seats (default: all)")
    q.add_argument("--public-url", help="адрес сайта, чтобы печатать полные ссылки · the web "
                                        "app's address, to print whole links")

COMMANDS = {"host": cmd_host}
