"""The ``mafiahost`` command."""

from __future__ import annotations

import argparse
import json
import sys

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
    opts = {}
    for o in args.option or []:
        k, _, v = o.partition("=")
        opts[k] = {"true": True, "false": False}.get(v, v)
    g = new_random_game(args.ruleset, args.players, args.seed, opts, args.mafia)
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="mafiahost", description="Host forum Mafia games.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("rulesets", help="list the rule sets")
    p = sub.add_parser("roles", help="print a rule set's role sheet")
    p.add_argument("ruleset")
    p = sub.add_parser("scenario", help="run scenario files or folders")
    p.add_argument("paths", nargs="+")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("run", help="play a scenario's script and print every event")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("demo", help="a whole game by random legal moves")
    p.add_argument("ruleset")
    p.add_argument("--players", type=int, default=12)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--lang", choices=("ru", "en"), default="ru")
    p.add_argument("--option", action="append", help="ruleset option NAME=VALUE")
    p.add_argument("--mafia", type=int, help="number of mafia (vanilla)")
    p.add_argument("--max-phases", type=int, default=200)
    args = ap.parse_args(argv)
    try:
        return {"rulesets": cmd_rulesets, "roles": cmd_roles, "scenario": cmd_scenario,
                "run": cmd_run, "demo": cmd_demo}[args.cmd](args)
    except (Refused, RulesetError) as e:
        _out(str(e))
        return 2


if __name__ == "__main__":
    sys.exit(main())
