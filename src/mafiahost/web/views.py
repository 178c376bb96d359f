"""What each page shows, as plain data, from a game and who is looking.

A player's page is made only from what the rules give that player: their own seat and
role card, the legal moves from ``Game.legal_moves`` (or the rule's sentence when there
is none), the events addressed to them (``render.posts.private_messages``) and the public
posts. Nothing here reads another player's role or private events for a player's page.
"""

from __future__ import annotations

from itertools import product

from ..engine.day import check_vote
from ..engine.events import PUBLIC
from ..host import can_use, not_acted, not_voted, parse_time
from ..render import labels, posts


def label_of(g) -> str:
    return f"{g.state.phase} {g.state.number}"


def deadline_of(row, g) -> str | None:
    if g.state.over or row.deadline_phase != label_of(g):
        return None
    return row.deadline


def _say(lang: str, pair) -> str:
    return pair[0] if lang == "ru" else pair[1]


def phase_posts(g, lang: str, fmt: str = "plain") -> list[tuple[str, str]]:
    """(phase label, post) for every resolved phase, newest first (public events only)."""
    w = posts.Writer(g, lang, fmt)
    order: list[str] = []
    starts: dict[str, object] = {}
    by: dict[str, list] = {}
    for e in g.events:
        if e.type == "phase_started":
            order.append(e.phase)
            starts[e.phase] = e
            continue
        if e.audience == PUBLIC and e.phase:
            by.setdefault(e.phase, []).append(e)
    out = []
    resolved = order if g.state.over else order[:-1]
    for i, lab in enumerate(resolved):
        evs = by.get(lab, [])
        if not evs:
            nxt = starts.get(order[i + 1]) if i + 1 < len(order) else None
            if nxt is None:
                continue
            evs = [nxt]
        out.append((w.phase_label(lab), posts.phase_post(g, evs, lang, fmt)))
    out.reverse()
    return out


# ---- the player's page -------------------------------------------------------------------------

def _choices(options: list[tuple], n: int) -> list[list[str]]:
    """For each target position, the seats that appear there in some legal move."""
    cols: list[list[str]] = []
    for i in range(n):
        seen: list[str] = []
        for ts in options:
            if ts[i] not in seen:
                seen.append(ts[i])
        cols.append(seen)
    return cols


#: Moves the form does not offer on oneself although the rules would take them (shooting,
#: poisoning, checking or recruiting oneself): a subset of ``Game.legal_moves``, never more;
#: the host can still record such a move.
AGAINST_ONESELF = {"kill", "shoot", "poison", "check", "check2", "recruit", "extra_kill",
                   "silver", "stake"}


def player_moves(g, seat: str, lang: str) -> list[dict]:
    """The move forms for this phase: each ability of the player's role usable in this
    phase, with the legal targets, or the rule's sentence saying why not now."""
    st = g.state
    if st.over:
        return []
    p = st.players[seat]
    ru = lang == "ru"
    replace_ok = bool(g.rules.forum.get("replace_moves"))
    legal = None
    alive = [q.name for q in st.order if q.alive]
    out = []
    for ab in g.rules.by_phase[p.role].get(st.phase, ()):
        if not p.alive and not ab.while_dead:
            continue
        slot = g.slot_of(p, ab)
        sent = st.slots.get(slot)
        mine = sent is not None and sent.actor == seat
        item = {"id": ab.id, "name": ab.name_ru if ru else ab.name_en,
                "text": ab.text_ru if ru else ab.text_en, "targets": ab.targets,
                "why": None, "options": [], "sent": None, "replace": False}
        if mine:
            item["sent"] = [g.display(t) for t in sent.targets] \
                if g.rules.abilities[sent.ability].id == ab.id else None
            if item["sent"] is None:
                other = g.rules.abilities[sent.ability]
                item["sent_other"] = other.name_ru if ru else other.name_en
        if mine and replace_ok:
            opts = [ts for ts in product(alive, repeat=ab.targets)
                    if g.why_not_without(sent, p, ab, ts) is None]
            item["replace"] = True
        else:
            why = g.why_not_actor(p, ab)
            if why is not None:
                item["why"] = _say(lang, why)
                out.append(item)
                continue
            if legal is None:
                legal = g.legal_moves(seat)
            opts = [ts for aid, ts in legal if aid == ab.id
                    and not (ab.id in AGAINST_ONESELF and seat in ts)]
        if not opts:
            item["why"] = None if mine else ""
        cols = _choices(opts, ab.targets + (1 if ab.names_role else 0))
        item["options"] = [[(s, g.display(s)) for s in col] for col in cols[:ab.targets]]
        if ab.names_role and cols:         # the role a role-naming move names, by its name
            roles = g.rules.roles
            item["options"].append([(r, roles[r].name_ru if ru else roles[r].name_en)
                                    for r in cols[-1]])
        item["usable"] = bool(opts)
        out.append(item)
    return out


def player_questions(g, seat: str, lang: str) -> list[dict]:
    """The questions the rules put to this player, open now: the sentence and the answers."""
    from ..engine.mechanics.questions import open_questions
    w = posts.Writer(g, lang, "plain")
    out = []
    for q in open_questions(g, seat):
        ev = next(e for e in g.events if e.type == "question_asked" and e.data["id"] == q["id"])
        out.append({"id": q["id"], "text": posts.question_line(w, ev),
                    "options": [(o[0], o[1] if lang == "ru" else o[2]) for o in q["options"]]})
    return out


def player_vote(g, seat: str, lang: str) -> dict | None:
    st = g.state
    if st.over or st.phase != "day":
        return None
    p = st.players[seat]
    if not p.alive:
        return None                     # the dead are silent: the page says so above
    current = st.votes.get(seat)
    options = []
    first_why = None
    cands = [(q.name, g.display(q.name)) for q in st.order if q.alive]
    cands += [("against_all", None)]
    if not g.rules.day.nonvoters_against_self:   # there, abstaining is a vote against oneself
        cands.append(("abstain", None))
    for value, shown in cands:
        why = check_vote(g, p, value)
        if why is None:
            options.append((value, shown))
        elif first_why is None and value not in ("against_all", "abstain"):
            first_why = why
    if not options:
        why = check_vote(g, p, "abstain") or first_why
        return {"options": [], "why": _say(lang, why) if why else "", "current": current,
                "current_name": _vote_name(g, current), "how": _vote_how(g, lang)}
    return {"options": options, "why": None, "current": current,
            "current_name": _vote_name(g, current), "how": _vote_how(g, lang)}


def _vote_how(g, lang: str) -> str:
    """The rule set's way of voting in the thread, as the first post says it."""
    return " ".join(posts.Writer(g, lang, "plain").vote_how())


def _vote_name(g, v):
    if v is None or v in ("against_all", "abstain"):
        return v
    return g.display(v)


def _closed(dl) -> bool:
    """Has this phase's deadline passed (the page then says the phase is closed)?"""
    from datetime import datetime

    from ..host import is_late
    t = parse_time(dl) if dl else None
    return t is not None and is_late(datetime.now().astimezone(), t)


def player_page(row, g, seat: str, lang: str) -> dict:
    st = g.state
    p = st.players[seat]
    w = posts.Writer(g, lang, "plain")
    lab = label_of(g)
    dl = deadline_of(row, g)
    data = {
        "game_id": row.id, "game_name": row.name,
        "title": g.rules.title_ru if lang == "ru" else g.rules.title_en,
        "me": g.display(seat), "alive": p.alive, "over": st.over,
        "phase": w.phase_label(lab),
        "deadline": posts.deadline_words(dl, lang) if dl else None,
        "closed": _closed(dl),
        "card": posts.role_card(g, seat, lang, "plain"),
        "moves": player_moves(g, seat, lang),
        "questions": player_questions(g, seat, lang),
        "vote": player_vote(g, seat, lang),
        "count": posts.vote_count_post(g, lang, "plain", deadline=parse_time(dl))
        if st.phase == "day" and not st.over else "",
        "results": posts.private_messages(g, g.events, seat, lang, "plain"),
        "posts": phase_posts(g, lang),
        "start": posts.start_post(g, row.commitment, lang, "plain", row.name),
        "final": posts.final_post(g, {"seed": row.seed, "salt": row.salt,
                                      "commitment": row.commitment,
                                      "export": f"/games/{row.id}/export.json"},
                                  lang, "plain")
        if st.over else "",
    }
    return data


def player_fingerprint(g, seat: str):
    """Changes exactly when what the player may see changes."""
    n = 0
    last = None
    for e in g.events:
        if e.visible_to(seat):
            n += 1
            last = e
    return (n, last.type if last else None, repr(last.data) if last else None,
            label_of(g), g.state.over)


# ---- the host's pages --------------------------------------------------------------------------

def host_game(row, g, lang: str) -> dict:
    st = g.state
    ru = lang == "ru"
    w = posts.Writer(g, lang, "plain")
    lab = label_of(g)
    players = []
    for p in st.order:
        role = g.rules.roles[p.role]
        fac = g.rules.factions.get(p.faction)
        statuses = {k: v[1] for k, v in p.st.items() if v[0] >= st.idx}
        players.append({
            "seat": p.name, "name": g.display(p.name),
            "role": role.name_ru if ru else role.name_en, "role_id": p.role,
            "faction": (fac.name_ru if ru else fac.name_en) if fac else p.faction,
            "alive": p.alive, "how": w.term(p.how) if p.how else "",
            "statuses": ", ".join(x for x in (labels.status_of(g, k, v, lang)
                                              for k, v in statuses.items()) if x),
            "can_use": ", ".join(a["name_ru"] if ru else a["name_en"]
                                 for a in can_use(g, p)) if not st.over else ""})
    # every move sent this phase, in order, with replaced ones marked
    moves = []
    seq = 0
    withdrawn = set()
    for e in g.events:
        if e.type == "action":
            seq += 1
            if e.phase == lab:
                spec = g.rules.abilities.get(e.data.get("key", ""))
                moves.append({"seq": seq, "actor": g.display(e.data["actor"]),
                              "ability": (spec.name_ru if ru else spec.name_en) if spec
                              else e.data["ability"],
                              "targets": [g.display(t) for t in e.data.get("targets", ())]})
        elif e.type == "action_withdrawn" and e.phase == lab:
            withdrawn.add(e.data.get("seq"))
    for m in moves:
        m["withdrawn"] = m["seq"] in withdrawn
    # the host's "record a move": each player's own abilities of this phase, by name
    abilities = []
    for p in st.order:
        own = [(ab.id, ab.name_ru if ru else ab.name_en)
               for ab in g.rules.by_phase[p.role].get(st.phase, ())
               if p.alive or ab.while_dead]
        if own:
            role = g.rules.roles[p.role]
            abilities.append((p.name, g.display(p.name), role.name_ru if ru else role.name_en,
                              own))
    dl = deadline_of(row, g)
    return {
        "id": row.id, "name": row.name, "ruleset": row.ruleset,
        "title": g.rules.title_ru if ru else g.rules.title_en,
        "phase": w.phase_label(lab) if not st.over else "", "phase_kind": st.phase,
        "over": st.over,
        "winners": ", ".join(w.faction_name(f) for f in st.winners),
        "deadline": posts.deadline_words(dl, lang) if dl else None, "closed": _closed(dl),
        "players": players, "moves": moves,
        "not_acted": [] if st.over else not_acted(g),
        "not_voted": [] if st.over or st.phase != "day" else not_voted(g),
        "count": posts.vote_count_post(g, lang, "plain", deadline=parse_time(dl))
        if st.phase == "day" and not st.over else "",
        "abilities": abilities,
        "seats": [(p.name, g.display(p.name)) for p in st.order],
        "alive": [(p.name, g.display(p.name)) for p in st.order if p.alive],
        "commitment": row.commitment,
    }


# ---- the host's list of games ------------------------------------------------------------------

def ruleset_choices(lang: str) -> list[tuple[str, str]]:
    """(id, title) of every rule set, for the new-game form: the title is what the host
    reads, the id only the value sent."""
    from ..rules import available, load
    return [(r, load(r).title_ru if lang == "ru" else load(r).title_en) for r in available()]


def games_list(games: list[dict], lang: str) -> list[dict]:
    """``Host.list_games`` in words: the rule set's title and the phase («Ночь 2»)."""
    from ..rules import load
    ru = lang == "ru"
    out = []
    for x in games:
        try:
            r = load(x["ruleset"])
            title = r.title_ru if ru else r.title_en
        except Exception:  # noqa: BLE001 - a game of a rule set no longer bundled
            title = x["ruleset"]
        kind, _, num = (x["status"] or "").partition(" ")
        if x["status"] == "over":
            status = "игра окончена" if ru else "over"
        elif kind in ("night", "day"):
            status = ({"night": "Ночь", "day": "День"} if ru
                      else {"night": "Night", "day": "Day"})[kind] + f" {num}"
        else:
            status = ""
        out.append({**x, "title": title, "status": status})
    return out
