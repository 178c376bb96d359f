"""``mafiahost odds`` (exact tables) and ``mafiahost balance`` (simulated win rates)."""

from __future__ import annotations

import argparse
import json
import sys

from .engine.errors import Refused


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")


def _parse_roles(text: str | None) -> tuple[str, ...] | None:
    """``boss,doctor,mafioso*2`` → the role list (``*N`` repeats a role)."""
    if not text:
        return None
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        role, _, times = part.partition("*")
        try:
            k = int(times) if times else 1
        except ValueError:
            raise Refused(f"«{part}»: после * нужно число (например mafioso*2).",
                          f"'{part}': a number must follow * (e.g. mafioso*2).") from None
        if k < 1:
            raise Refused(f"«{part}»: число ролей должно быть не меньше 1.",
                          f"'{part}': a role count must be at least 1.")
        out += [role.strip()] * k
    return tuple(out)


def _options(pairs) -> tuple:
    from .cli import _opts
    return tuple(sorted(_opts(pairs).items(), key=str))


def _setup(ruleset, players, roles, options, mafia):
    from .balance.simulate import Setup
    return Setup(ruleset, players, _parse_roles(roles), _options(options), mafia)


def cmd_odds(args) -> int:
    from .balance import exact
    if args.ruleset != "vanilla":
        raise Refused("Точные шансы есть только для vanilla; для других правил — "
                      "mafiahost balance.",
                      "Exact odds exist for vanilla only; for other rule sets use "
                      "mafiahost balance.")
    rows = [exact.vanilla(args.players, args.mafia, args.first, args.win)]
    if args.detective:
        rows.append(exact.detective(args.players, args.mafia, args.first, args.win, args.check))
    if args.json:
        _out(json.dumps([r.as_dict() for r in rows], ensure_ascii=False, indent=1))
        return 0
    _out(f"vanilla: {args.players} игроков / players, {args.mafia} мафии / mafia; первая фаза "
         f"/ first phase: {args.first}; мафия побеждает / mafia win: {args.win}")
    for r in rows:
        if r.model == "uniform":
            _out("Модель: случайный вынос днём, случайный выстрел ночью / uniform model "
                 "(Migdał 2010):")
        else:
            when = "после" if r.check == "after" else "до"
            _out(f"С одним комиссаром, которого мафия не знает (проверяет {when} выстрела) "
                 f"/ one detective unknown to the mafia, checking {r.check} the kill:")
        for side, p in (("мафия / mafia", r.mafia_wins), ("город / town", r.town_wins)):
            _out(f"  {side:14} {p.numerator}/{p.denominator} ≈ {float(p):.6f}")
    return 0


def cmd_balance(args) -> int:
    from .balance.report import html_report, summary, sweep, table
    from .balance.simulate import Job, run
    from .rules import available
    if args.ruleset not in available():
        raise Refused(f"Нет правил «{args.ruleset}»; есть: {', '.join(available())}.",
                      f"No ruleset '{args.ruleset}'; available: {', '.join(available())}.")
    a = _setup(args.ruleset, args.players, args.roles, args.option, args.mafia)
    setups = (a,)
    if args.compare is not None:
        b = _compare_setup(args, a)
        setups = (a, b)
    job = Job(setups, args.policy, args.seed, args.batch, not args.full, args.max_phases)
    res = run(job, args.precision, args.games, args.workers, args.ray)
    s = summary(res)
    s["runner"] = res.runner
    if args.report:
        counts = _sweep_counts(args.sweep, a)
        sw = sweep(job, counts, max(args.precision, args.sweep_precision),
                   min(args.games, args.sweep_games), args.workers, args.ray) if counts else []
        page = html_report(s, sw)
        try:
            with open(args.report, "w", encoding="utf-8") as f:
                f.write(page)
        except OSError as e:
            raise Refused(f"Не удалось записать отчёт в «{args.report}»: {e.strerror}.",
                          f"Could not write the report to '{args.report}': {e.strerror}.") \
                from None
    if args.json:
        _out(json.dumps(s, ensure_ascii=False, indent=1))
    else:
        _out(table(s))
        if args.report:
            _out(f"Отчёт / report: {args.report}")
    return 0


def _sweep_counts(text: str | None, setup) -> list[int]:
    from .balance.report import default_counts
    if text is None:
        return default_counts(setup)
    if text == "none":
        return []
    lo, sep, hi = text.partition("..")
    try:
        return list(range(int(lo), int(hi) + 1)) if sep else [int(x) for x in text.split(",")]
    except ValueError:
        raise Refused(f"--sweep: «{text}» — нужно A..B, список через запятую или none.",
                      f"--sweep: '{text}' — give A..B, a comma-separated list, or none.") \
            from None


def _compare_setup(args, a):
    """``--compare`` takes the second setup's differences: ``option NAME=VALUE``,
    ``roles LIST``, ``players N``, ``mafia M`` or ``ruleset ID``, comma-joined with ``;``."""
    from dataclasses import replace
    b = a
    opts = dict(a.options)
    for item in args.compare:
        key, _, val = item.strip().partition("=")
        key = key.strip()
        if key in ("ruleset", "players", "mafia", "roles"):
            if key == "ruleset":
                b = replace(b, ruleset=val)
            elif key == "roles":
                b = replace(b, roles=_parse_roles(val))
            else:
                try:
                    b = replace(b, **{key: int(val)})
                except ValueError:
                    raise Refused(f"--compare {key}=: нужно число, а не «{val}».",
                                  f"--compare {key}=: a number, not '{val}'.") from None
        else:
            from .cli import _opts
            opts.update(_opts([item]))
    b = replace(b, options=tuple(sorted(opts.items(), key=str)))
    if b == a:
        raise Refused("--compare: вторая раскладка совпадает с первой; укажите, что меняется "
                      "(например --compare yakuza=true или --compare players=14).",
                      "--compare: the second setup equals the first; say what changes "
                      "(e.g. --compare yakuza=true or --compare players=14).")
    return b


def _positive_float(x: str) -> float:
    try:
        v = float(x)
    except ValueError:
        raise argparse.ArgumentTypeError(f"нужно число, а не «{x}» · a number, not {x!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError("нужно больше нуля · must be above zero")
    return v


def register(sub) -> dict:
    """Add ``odds`` and ``balance`` to the command line; returns their handlers."""
    p = sub.add_parser("odds", help="точные шансы на победу в vanilla (равновероятная модель, "
                                    "комиссар) · exact win odds of vanilla mafia")
    p.add_argument("ruleset", metavar="RULESET", help="правила: vanilla · the rule set: vanilla")
    p.add_argument("--players", type=int, required=True, help="сколько игроков · players")
    p.add_argument("--mafia", type=int, required=True, help="сколько мафии · mafia")
    p.add_argument("--first", choices=("night", "day"), default="night",
                   help="с чего начинается игра: night (ночь) или day (день) · the first phase")
    p.add_argument("--win", choices=("parity", "town_gone"), default="parity",
                   help="мафия побеждает при равенстве (parity, как в правилах) или когда мирных "
                        "не осталось (town_gone) · mafia win at parity or when no town is left")
    p.add_argument("--detective", action="store_true",
                   help="ещё и шансы с одним комиссаром, неизвестным мафии · also the odds with "
                        "one detective")
    p.add_argument("--check", choices=("after", "before"), default="after",
                   help="комиссар проверяет после ночного выстрела (after) или до него (before) "
                        "· the detective checks after or before the kill")
    p.add_argument("--json", action="store_true",
                   help="вывести JSON (для программ) · print JSON (for programs)")
    p = sub.add_parser("balance", help="честен ли расклад: доли побед по моделированию с 95%% "
                                       "интервалами · simulated win rates of a setup")
    p.add_argument("ruleset", metavar="RULESET", help="правила · the rule set")
    p.add_argument("--players", type=int, required=True, help="сколько игроков · players")
    p.add_argument("--roles", help="роли в игре, например boss,doctor,mafioso*2 (остальные — "
                                   "простая роль правил) · the roles in play")
    p.add_argument("--option", action="append",
                   help="настройка правил ИМЯ=ЗНАЧЕНИЕ · ruleset option NAME=VALUE")
    p.add_argument("--mafia", type=int, help="сколько мафии (vanilla) · number of mafia")
    p.add_argument("--policy", choices=("random", "sensible", "uniform"), default="random",
                   help="как играют: случайно, разумно, равновероятно · how the seats play")
    p.add_argument("--precision", type=_positive_float, default=0.01,
                   help="остановиться, когда каждый интервал не шире ± этого (0.01 = ±1%%) · "
                        "stop when every interval is within ± this")
    p.add_argument("--games", type=int, default=100_000,
                   help="не больше стольких игр · at most this many games")
    p.add_argument("--compare", action="append",
                   help="второй расклад на тех же зёрнах: ИМЯ=ЗНАЧЕНИЕ, players=N, mafia=M, "
                        "roles=СПИСОК, ruleset=ID · a second setup on the same seeds")
    p.add_argument("--json", action="store_true",
                   help="вывести JSON (для программ) · print JSON (for programs)")
    p.add_argument("--report", help="записать отчёт HTML с графиками в этот файл · write an "
                                    "HTML report")
    p.add_argument("--sweep", help="числа игроков для графика: A..B, список, none · player "
                                   "counts for the report's plot")
    p.add_argument("--sweep-precision", type=_positive_float, default=0.03,
                   help="точность для графика (0.03) · the plot's precision")
    p.add_argument("--sweep-games", type=int, default=3000,
                   help="игр на точку графика (3000) · games per plot point")
    p.add_argument("--workers", type=int, default=1,
                   help="сколько процессов (1) · local processes (1)")
    p.add_argument("--ray", help="считать на Ray: local или адрес кластера · run on Ray")
    p.add_argument("--seed", type=int, default=1, help="зерно первой игры · the first game's "
                                                       "seed")
    p.add_argument("--batch", type=int, default=200,
                   help="игр в пачке (правило остановки смотрит после каждой) · games per batch")
    p.add_argument("--max-phases", type=int, default=200,
                   help="не больше стольких фаз в игре (200) · at most this many phases")
    p.add_argument("--full", action="store_true",
                   help="хранить журнал каждой игры · keep every game's event log")
    return {"odds": cmd_odds, "balance": cmd_balance}
