"""`mafiahost votes ...`: forum votes — import a dump, the live count, the records, a human's
fix of one reading, the host's forum nick, aliases."""

from __future__ import annotations

import json
import sys


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")


def register(vs, db, gid) -> None:
    """Add the ``votes`` subcommands to the subparsers ``vs``."""
    q = vs.add_parser("import", parents=[db, gid],
                      help="подсчитать голоса по выгрузке темы · count votes from a thread dump")
    q.add_argument("file", metavar="FILE",
                   help="выгрузка темы (- для стандартного ввода); формат в docs/hosting.md · "
                        "the dump (- for standard input)")
    q.add_argument("--since", help="не читать посты до этого времени · ignore posts before "
                                   "this time")
    q.add_argument("--alias", action="append",
                   help="ник: НИК=ИГРОК (можно несколько) · a nickname: NICK=PLAYER "
                        "(repeatable)")
    q.add_argument("--json", action="store_true",
                   help="каждый засчитанный голос и пропущенный пост в JSON · every counted "
                        "vote and skipped post as JSON")
    vs.add_parser("count", parents=[db, gid], help="пост с подсчётом голосов · the vote count "
                                                   "post")
    q = vs.add_parser("list", parents=[db, gid],
                      help="все голоса по порядку (и поздние) · every vote as it came in")
    q.add_argument("--json", action="store_true",
                   help="голоса по порядку и текущий голос каждого живого в JSON · the votes "
                        "and each living seat's current vote as JSON")
    q = vs.add_parser("fix", parents=[db, gid],
                      help="прочитать один пост выгрузки иначе · read one imported post as "
                           "TARGET")
    q.add_argument("post", metavar="POST",
                   help="номер поста, как его назвал импорт (#1234) · the post's number")
    q.add_argument("target", metavar="TARGET",
                   help='игрок, "против всех", "воздержаться" или "нет" (не голос) · a player, '
                        'against all, abstain or no vote')
    q = vs.add_parser("host", parents=[db, gid],
                      help="ник ведущего на форуме · the host's own forum nick")
    q.add_argument("nick", metavar="NICK", help="ник · the nick")
    q = vs.add_parser("alias", parents=[db, gid],
                      help="другой ник или учётная запись игрока на форуме · a player's other "
                           "forum nick")
    q.add_argument("nick", metavar="NICK", help="ник · the nick")
    q.add_argument("player", metavar="PLAYER", help="игрок · the player")

def run(args, h, lang, fmt) -> int:
    """Run ``mafiahost votes ...`` on the host service ``h``."""
    cmd = args.votes_cmd
    if cmd == "import":
        from pathlib import Path
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(
            encoding="utf-8")
        aliases = dict(a.split("=", 1) for a in args.alias or [] if "=" in a)
        d = h.import_votes(args.id, text, since=args.since, aliases=aliases, lang=lang,
                           fmt=fmt)
        if args.json:
            data = d.data or {}
            _out(json.dumps({"posts": data.get("posts", 0), "counted": data.get("votes", []),
                             "skipped": data.get("skipped", []),
                             "notes": data.get("notes", []),
                             "problems": data.get("problems", [])},
                            ensure_ascii=False, indent=1))
            return 0
        _out(d.message)
        for p in d.data.get("problems", ()):
            _out(f"  ! {p}")
        for p in d.data.get("notes", ()):
            _out(f"  ~ {p}")
        _out("")
        _out(d.post)
        return 0
    if cmd == "count":
        _out(h.vote_count(args.id, lang, fmt))
        return 0
    if cmd == "list":
        records = h.vote_records(args.id)
        if args.json:
            votes = [{**r, "target": r["target"] or None} for r in records]
            _out(json.dumps({"votes": votes, "current": h.current_votes(args.id)},
                            ensure_ascii=False, indent=1))
            return 0
        for r in records:
            _out(f"[{r['phase']}] {r['voter']} → {r['target'] or '—'}  {r['status']}  "
                 f"{r['source']}  {r['at'] or ''}  {r['note']}".rstrip())
        return 0
    if cmd == "fix":
        d = h.fix_vote(args.id, args.post, args.target, lang=lang)
    elif cmd == "host":
        d = h.set_host_nick(args.id, args.nick, lang=lang)
    elif cmd == "alias":
        d = h.add_alias(args.id, args.nick, args.player, lang=lang)
    else:
        raise AssertionError(cmd)
    _out(d.message)
    return 0
