"""What a designer reads: the table, the JSON and the HTML report (plots by matplotlib)."""

from __future__ import annotations

import base64
import html
import io

from ..engine.errors import Refused
from . import exact
from .simulate import Job, Result, Setup, paired_difference, reported_ids, run, wilson


def _names(setup: Setup, wid: str) -> tuple[str, str]:
    rules = setup.rules()
    if wid in rules.factions:
        f = rules.factions[wid]
        return f.name_ru, f.name_en
    if wid in rules.roles:
        r = rules.roles[wid]
        return r.name_ru, r.name_en
    return wid, wid


def _length_stats(counter) -> dict:
    n = sum(counter.values())
    if not n:
        return {"mean": 0.0, "median": 0, "p5": 0, "p95": 0, "histogram": {}}
    xs = sorted(counter.items())
    mean = sum(k * v for k, v in xs) / n

    def q(f):
        acc = 0
        for k, v in xs:
            acc += v
            if acc >= f * n:
                return k
        return xs[-1][0]
    return {"mean": round(mean, 3), "median": q(0.5), "p5": q(0.05), "p95": q(0.95),
            "histogram": {str(k): v for k, v in xs}}


def summary(result: Result) -> dict:
    """Everything the table, the JSON and the report show, as plain data."""
    job = result.job
    out: dict = {"policy": job.policy, "seed": job.seed, "batch": job.batch,
                 "games": result.games, "batches": result.batches, "stopped": result.stopped,
                 "precision": result.precision, "setups": []}
    for setup, t in zip(job.setups, result.tallies, strict=True):
        wins = {}
        for w in reported_ids(setup, t):
            lo, hi = wilson(t.wins[w], t.games)
            ru, en = _names(setup, w)
            wins[w] = {"name_ru": ru, "name_en": en, "wins": t.wins[w],
                       "rate": t.wins[w] / t.games, "low": lo, "high": hi}
        surv = {}
        rules = setup.rules()
        for r in sorted(t.seats, key=lambda r: (list(rules.roles).index(r), r)):
            lo, hi = wilson(t.alive[r], t.seats[r])
            surv[r] = {"name_ru": rules.roles[r].name_ru, "name_en": rules.roles[r].name_en,
                       "alive": t.alive[r], "seats": t.seats[r],
                       "rate": t.alive[r] / t.seats[r], "low": lo, "high": hi}
        entry = {"setup": setup.label(), "ruleset": setup.ruleset, "players": setup.players,
                 "options": {k: v for k, v in setup.options}, "mafia": setup.mafia,
                 "roles": sorted(setup.role_list()),
                 "winners": wins, "nobody": t.nobody, "unfinished": t.unfinished,
                 "survival": surv, "phases": _length_stats(t.phases),
                 "days": _length_stats(t.days)}
        ex = exact_for(setup, job.policy)
        if ex is not None:
            entry["exact"] = ex.as_dict()
        out["setups"].append(entry)
    if len(job.setups) == 2:
        diff = {}
        for w, row in result.paired.table.items():
            d, lo, hi = paired_difference(row)
            diff[w] = {"difference": d, "low": lo, "high": hi, "pairs": row}
        out["difference"] = diff
    return out


def exact_for(setup: Setup, policy: str):
    """The exact answer when the setup is the uniform vanilla model, else None."""
    if setup.ruleset != "vanilla" or policy != "uniform" or setup.roles is not None:
        return None
    opts = dict(setup.options)
    m = setup.role_list().count("mafioso")
    try:
        return exact.vanilla(setup.players, m, str(opts.get("start", "night")),
                             str(opts.get("mafia_win", "parity")))
    except exact.OddsError:
        return None


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def table(s: dict) -> str:
    """The plain-text answer."""
    lines = []
    head = (f"Стратегия / policy: {s['policy']}; партий / games: {s['games']} "
            f"({s['batches']} × {s['batch']}, seed {s['seed']}); ")
    head += ("остановка: все интервалы уже ±{p} / stopped: every interval within ±{p}"
             if s["stopped"] == "precision" else
             "остановка: достигнут предел партий / stopped: the games limit was reached"
             ).format(p=_pct(s["precision"]))
    lines.append(head)
    for e in s["setups"]:
        lines.append("")
        lines.append(f"== {e['setup']} ==")
        lines.append("Победы (95% интервал Уилсона) / wins (95% Wilson interval):")
        for w in e["winners"].values():
            lines.append(f"  {w['name_ru'] + ' / ' + w['name_en']:40} {_pct(w['rate']):>7}  "
                         f"[{_pct(w['low'])} – {_pct(w['high'])}]")
        if e["nobody"] or e["unfinished"]:
            lines.append(f"  без победителя / no winner: {e['nobody']}; не закончены за предел "
                         f"фаз / unfinished: {e['unfinished']}")
        if "exact" in e:
            ex = e["exact"]["mafia"]
            lines.append(f"  точно / exact (uniform model): mafia {ex['fraction']} ≈ "
                         f"{_pct(ex['decimal'])}")
        lines.append("Выживаемость по розданным ролям / survival by dealt role (alive at the "
                     "end):")
        for r in e["survival"].values():
            lines.append(f"  {r['name_ru'] + ' / ' + r['name_en']:40} {_pct(r['rate']):>7}  "
                         f"[{_pct(r['low'])} – {_pct(r['high'])}]  of {r['seats']}")
        ph, dy = e["phases"], e["days"]
        lines.append(f"Длина партии / game length: фаз / phases mean {ph['mean']:.1f} "
                     f"(median {ph['median']}, 5–95%: {ph['p5']}–{ph['p95']}); "
                     f"дней / days mean {dy['mean']:.1f}")
    if "difference" in s:
        a, b = s["setups"][0]["setup"], s["setups"][1]["setup"]
        lines.append("")
        lines.append(f"Разница / difference ({a}) − ({b}), те же сиды / same seeds "
                     f"(Newcombe paired 95% interval):")
        for w, d in s["difference"].items():
            sure = ("есть разница / a real difference" if d["low"] > 0 or d["high"] < 0
                    else "не различимы / cannot tell apart")
            lines.append(f"  {w:14} {100 * d['difference']:+6.1f} pts  "
                         f"[{100 * d['low']:+.1f}, {100 * d['high']:+.1f}]  {sure}")
    return "\n".join(lines)


# ---- the HTML report ------------------------------------------------------------------

def _plt():
    try:
        import matplotlib
    except ImportError:
        raise Refused("Для отчёта нужен matplotlib: pip install 'mafiahost[report]'.",
                      "The report needs matplotlib: pip install 'mafiahost[report]'.") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode()


def sweep(job: Job, counts: list[int], precision: float, max_games: int, workers: int = 1,
          ray: str | None = None) -> list[dict]:
    """The same job at other player counts (for the win-rate-against-players plot)."""
    out = []
    for n in counts:
        setups = tuple(Setup(s.ruleset, n, s.roles, s.options, s.mafia) for s in job.setups)
        try:
            for s in setups:
                s.seating(job.seed)
        except Refused:
            continue
        r = run(Job(setups, job.policy, job.seed, job.batch, job.lean, job.max_phases),
                precision, max_games, workers, ray)
        out.append({"players": n, **summary(r)})
    return out


def default_counts(setup: Setup) -> list[int]:
    st = setup.rules().setup
    lo, hi = st.get("min_players", 4), st.get("max_players", 30)
    return list(range(max(lo, setup.players - 4), min(hi, setup.players + 4) + 1))


def html_report(s: dict, sweeps: list[dict]) -> str:
    plt = _plt()
    figs = []
    colours = ["#c0392b", "#2471a3", "#7d3c98", "#d68910", "#117a65", "#5d6d7e", "#a04000"]
    # win rate against player count
    if sweeps:
        fig, ax = plt.subplots(figsize=(7, 4))
        for si, e in enumerate(s["setups"]):
            ids = list(e["winners"])
            for wi, w in enumerate(ids):
                xs, ys, lo, hi = [], [], [], []
                for sw in sweeps:
                    ee = sw["setups"][si]
                    if w not in ee["winners"]:
                        continue
                    v = ee["winners"][w]
                    xs.append(sw["players"])
                    ys.append(100 * v["rate"])
                    lo.append(100 * (v["rate"] - v["low"]))
                    hi.append(100 * (v["high"] - v["rate"]))
                ax.errorbar(xs, ys, yerr=[lo, hi], marker="o" if si == 0 else "s",
                            linestyle="-" if si == 0 else "--", capsize=3,
                            color=colours[wi % len(colours)],
                            label=e["winners"][w]["name_en"] + (f" ({e['setup']})"
                                                                if len(s["setups"]) > 1 else ""))
            exs = [(sw["players"], sw["setups"][si]["exact"]["mafia"]["decimal"])
                   for sw in sweeps if "exact" in sw["setups"][si]]
            if exs:
                ax.plot([x for x, _ in exs], [100 * y for _, y in exs], "k:", marker="x",
                        label="mafia, exact (uniform model)")
        ax.set_xlabel("players")
        ax.set_ylabel("win rate, % (95% Wilson interval)")
        ax.set_ylim(0, 100)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title("Win rate against player count")
        figs.append(("Win rate against player count / Победы в зависимости от числа игроков",
                     _png(fig), _sweep_note(sweeps)))
        plt.close(fig)
    # survival by role
    for e in s["setups"]:
        surv = list(e["survival"].values())
        fig, ax = plt.subplots(figsize=(7, 0.35 * len(surv) + 1.2))
        ys = range(len(surv))
        rates = [100 * r["rate"] for r in surv]
        err = [[100 * (r["rate"] - r["low"]) for r in surv],
               [100 * (r["high"] - r["rate"]) for r in surv]]
        ax.barh(list(ys), rates, xerr=err, color="#5499c7", capsize=3)
        ax.set_yticks(list(ys), [f"{r['name_en']} / {r['name_ru']}" for r in surv], fontsize=8)
        ax.invert_yaxis()
        ax.set_xlim(0, 100)
        ax.set_xlabel("alive at the end, % (95% Wilson interval)")
        ax.set_title(f"Survival by dealt role — {e['setup']}")
        ax.grid(axis="x", alpha=0.3)
        figs.append((f"Survival by dealt role / Выживаемость по розданным ролям — {e['setup']}",
                     _png(fig), ""))
        plt.close(fig)
    # game length
    fig, ax = plt.subplots(figsize=(7, 3))
    width = 0.8 / len(s["setups"])
    for si, e in enumerate(s["setups"]):
        h = {int(k): v for k, v in e["days"]["histogram"].items()}
        total = sum(h.values()) or 1
        ax.bar([k + si * width for k in h], [100 * v / total for v in h.values()], width=width,
               label=e["setup"], color=colours[si])
    ax.set_xlabel("days played")
    ax.set_ylabel("% of games")
    ax.set_title("Game length")
    if len(s["setups"]) > 1:
        ax.legend(fontsize=8)
    figs.append(("Game length / Длина партии", _png(fig), ""))
    plt.close(fig)
    return _page(s, figs)


def _sweep_note(sweeps: list[dict]) -> str:
    """One sentence per setup: where the two strongest sides come closest."""
    out = []
    for si in range(len(sweeps[0]["setups"])):
        best = None
        for sw in sweeps:
            ws = sorted(sw["setups"][si]["winners"].values(), key=lambda w: -w["rate"])
            if len(ws) < 2:
                continue
            gap = ws[0]["rate"] - ws[1]["rate"]
            if best is None or gap < best[0]:
                best = (gap, sw["players"], ws[0], ws[1], sw["setups"][si]["setup"])
        if best is None:
            continue
        gap, n, a, b, label = best
        lo, hi = sweeps[0]["players"], sweeps[-1]["players"]
        half = max((w["high"] - w["low"]) / 2 for sw in sweeps
                   for w in sw["setups"][si]["winners"].values())
        out.append(f"{html.escape(label.split(' ')[0])}, {lo}–{hi} players: the two strongest "
                   f"sides are closest at <b>{n} players</b> ({html.escape(a['name_en'])} "
                   f"{_pct(a['rate'])}, {html.escape(b['name_en'])} {_pct(b['rate'])}; every "
                   f"point's interval within ±{_pct(half)}).")
    return "<br>".join(out)


def _headline(e: dict) -> str:
    ws = sorted(e["winners"].values(), key=lambda w: -w["rate"])
    parts = [f"{html.escape(w['name_ru'])} / {html.escape(w['name_en'])} "
             f"<b>{_pct(w['rate'])}</b> ({_pct(w['low'])}–{_pct(w['high'])})" for w in ws]
    top = ws[0]
    second = ws[1] if len(ws) > 1 else None
    verdict = ""
    if second is not None:
        if top["low"] > second["high"]:
            verdict = (f"Favoured: <b>{html.escape(top['name_en'])}</b>, by "
                       f"{100 * (top['rate'] - second['rate']):.1f} points over "
                       f"{html.escape(second['name_en'])} (the intervals do not overlap).")
        else:
            verdict = (f"{html.escape(top['name_en'])} and {html.escape(second['name_en'])} "
                       f"cannot be told apart at this precision.")
    return "; ".join(parts) + ".<br>" + verdict


def _page(s: dict, figs) -> str:
    esc = html.escape
    rows = []
    for e in s["setups"]:
        rows.append(f"<h2>{esc(e['setup'])}</h2><p>{_headline(e)}</p>")
        rows.append("<table><tr><th>side / сторона</th><th>win rate</th><th>95% interval</th>"
                    "<th>wins</th></tr>")
        for w in e["winners"].values():
            rows.append(f"<tr><td>{esc(w['name_ru'])} / {esc(w['name_en'])}</td>"
                        f"<td>{_pct(w['rate'])}</td><td>{_pct(w['low'])} – {_pct(w['high'])}"
                        f"</td><td>{w['wins']}</td></tr>")
        rows.append("</table>")
        if "exact" in e:
            ex = e["exact"]["mafia"]
            rows.append(f"<p>Exact (uniform model, Migdał 2010): mafia {esc(ex['fraction'])} ≈ "
                        f"{_pct(ex['decimal'])}.</p>")
        ph, dy = e["phases"], e["days"]
        rows.append(f"<p>Game length: {dy['mean']:.1f} days on average ({ph['mean']:.1f} "
                    f"phases; median {ph['median']}, 90% of games between {ph['p5']} and "
                    f"{ph['p95']} phases). No winner: {e['nobody']}; unfinished: "
                    f"{e['unfinished']}.</p>")
        counts: dict[str, int] = {}
        for r in e["roles"]:
            counts[r] = counts.get(r, 0) + 1
        dealt = ", ".join(r if k == 1 else f"{r} ×{k}" for r, k in counts.items())
        rows.append(f"<p class=small>Roles dealt: {esc(dealt)}.</p>")
    if "difference" in s:
        a, b = s["setups"][0]["setup"], s["setups"][1]["setup"]
        rows.append(f"<h2>Difference: ({esc(a)}) − ({esc(b)})</h2><p>Both setups played the "
                    f"same seeds (common random numbers); Newcombe's paired 95% interval.</p>")
        rows.append("<table><tr><th>side</th><th>difference</th><th>95% interval</th>"
                    "<th></th></tr>")
        for w, d in s["difference"].items():
            sure = ("a real difference" if d["low"] > 0 or d["high"] < 0
                    else "cannot tell apart")
            rows.append(f"<tr><td>{esc(w)}</td><td>{100 * d['difference']:+.1f} pts</td>"
                        f"<td>{100 * d['low']:+.1f} … {100 * d['high']:+.1f}</td>"
                        f"<td>{sure}</td></tr>")
        rows.append("</table>")
    for title, png, note in figs:
        rows.append(f"<h3>{esc(title)}</h3><img alt='{esc(title)}' "
                    f"src='data:image/png;base64,{png}'>")
        if note:
            rows.append(f"<p>{note}</p>")
    stop = ("every interval within ±" + _pct(s["precision"]) if s["stopped"] == "precision"
            else "the games limit")
    policy_note = {
        "uniform": "every lynch on a uniformly random living player, every move uniform "
                   "over legal targets outside the actor's faction",
        "random": "random legal moves and random votes (own side included)",
        "sensible": "simple sensible bots: no shots at one's own side, protect others, "
                    "check the unchecked, vote for the found guilty",
    }[s["policy"]]
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Balance report — {esc(s['setups'][0]['setup'])}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.3em .6em;text-align:left}}
.small{{font-size:.85em;color:#555}}img{{max-width:100%}}</style></head><body>
<h1>Balance report / Баланс расклада</h1>
<p>Policy <b>{esc(s['policy'])}</b> ({esc(policy_note)}). {s['games']} games
({s['batches']} batches of {s['batch']} seeds from {s['seed']}); stopped at {esc(stop)}.</p>
{''.join(rows)}
<h3>How to read this / Как читать</h3>
<p class=small>A win rate is the share of simulated games a side won; its 95% Wilson interval is
the range that holds the true rate for these players in 95 of 100 such runs. Two sides whose
intervals do not overlap really differ; a difference interval that excludes 0 is a real
difference. The players here are bots, not people: the numbers measure the rules and the deal
under this policy, not skill, talk or reads (see docs/balance.md).</p>
</body></html>
"""
