"""Text from events: posts ready to paste, Russian first, English too.

Only public events make a post: what a player may not know never reaches a post.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml


@cache
def messages(lang: str) -> dict:
    data = yaml.safe_load((Path(__file__).parent / "messages.yaml").read_text(encoding="utf-8"))
    return data[lang]


def _role_name(g, role: str, lang: str) -> str:
    r = g.rules.roles.get(role)
    if r is None:
        return role
    return r.name_ru if lang == "ru" else r.name_en


def _faction_name(g, fid: str, lang: str) -> str:
    f = g.rules.factions.get(fid)
    if f is not None:
        return f.name_ru if lang == "ru" else f.name_en
    return _role_name(g, fid, lang)


def phase_post(g, events, lang: str = "ru") -> str:
    """The public post for one resolved phase (the morning post or the day's result)."""
    m = messages(lang)
    lines = []
    pub = [e for e in events if e.audience == "public"]
    phase = next((e.phase for e in events if e.type != "phase_started"), "")
    kind, _, num = phase.partition(" ")
    if kind == "night":
        lines.append(m["night_title"].format(number=num))
    elif kind == "day":
        lines.append(m["day_title"].format(number=num))
    deaths = 0
    for e in pub:
        d = e.data
        t = e.type
        if t == "eliminated":
            deaths += 1
            key = {"killed": "killed", "lynched": "lynched", "host": "host_removed"}.get(
                d["how"], "removed")
            if "role" not in d:
                key += "_hidden"
            lines.append(m[key].format(player=d["player"], how=d["how"],
                                       role=_role_name(g, d.get("role", ""), lang)))
        elif t == "executed_by":
            lines.append(m["executed_by"].format(player=d["player"], by=d["by"]))
        elif t == "jailed":
            lines.append(m["jailed"].format(player=d["player"]))
        elif t == "released":
            lines.append(m["released"].format(players=", ".join(d["players"])))
        elif t == "vote_lost":
            lines.append(m["vote_lost"].format(player=d["player"]))
        elif t == "vote_count":
            lines.append(m["vote_count"])
            for target, voters in sorted(d["voters"].items(), key=lambda kv: -len(kv[1])):
                lines.append(m["vote_line"].format(target=target, count=len(voters),
                                                   voters=", ".join(voters)))
            if d.get("against_all"):
                lines.append(m["against_all"].format(count=d["against_all"]))
            if d.get("not_voted"):
                lines.append(m["not_voted"].format(players=", ".join(d["not_voted"])))
        elif t == "vote_switched":
            lines.append(m["vote_switched"].format(voter=d["voter"], target=d["target"]))
        elif t == "vote_cancelled":
            lines.append(m["vote_cancelled"])
        elif t == "acquitted":
            lines.append(m["acquitted"].format(player=d["player"]))
        elif t == "no_lynch":
            why = d.get("why")
            if why == "tie":
                key = "no_lynch_shield" if d.get("shielded") else "no_lynch_tie"
                tied = d.get("shielded") or next(
                    (x.data["players"] for x in pub if x.type == "tie"), [])
                lines.append(m[key].format(players=", ".join(tied)))
            else:
                lines.append(m["no_lynch_" + {"quorum": "quorum", "no_votes": "votes"}.get(
                    why, "acquitted")])
        elif t == "game_over":
            w = d["winners"]
            if w:
                lines.append(m["game_over"].format(
                    winners=", ".join(_faction_name(g, x, lang) for x in w)))
            else:
                lines.append(m["game_over_none"])
    if kind == "night" and not deaths:
        lines.insert(1, m["nobody_died"])
    return "\n".join(lines)


def final_post(g, lang: str = "ru") -> str:
    m = messages(lang)
    lines = [m["final_roles"]]
    for p in g.state.order:
        lines.append(m["final_role_line"].format(player=p.name, role=_role_name(g, p.role, lang),
                                                 mark="" if p.alive else m["dead_mark"]))
    return "\n".join(lines)
