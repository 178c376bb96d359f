"""One observation for a seat: what a program playing that seat may know, as plain JSON data.

The same observation serves the player API (``GET /api/p/{token}``), the PettingZoo
environment (``mafiahost.agents.env``: its vector and action mask are made from it) and the
bots. It is built only from the seat itself and the events whose audience names the seat
or the public (``Game.view``); the legal moves come from the engine's one list
(``Game.legal_moves``) and the votes from the engine's one vote check (``check_vote``).
The schema is in ``docs/agents.md``; ``SCHEMA`` names its version.
"""

from __future__ import annotations

from ..engine.day import legal_votes as _legal_votes
from ..engine.events import PUBLIC

SCHEMA = "mafiahost.observation/1"
VOTE_SPECIAL = ("against_all", "abstain")
_SPECIAL_LABEL = {"against_all": {"ru": "против всех", "en": "against all"},
                  "abstain": {"ru": "воздержаться", "en": "abstain"}}
_PHASE_LABEL = {"night": ("Ночь", "Night"), "day": ("День", "Day")}


def _pair(ru: str, en: str) -> dict:
    return {"ru": ru, "en": en}


def event_record(e) -> dict:
    """An event as the observation shows it: ``type``, ``when`` (the phase it happened
    in, e.g. ``night 2``; "" before the first), ``audience`` (``public``, or ``private``:
    told to this seat alone or to a few) and its ``fields`` (never the ``_`` ones kept for
    replay). Field names and meanings: ``docs/events.md``."""
    return {"type": e.type, "when": e.phase,
            "audience": "public" if e.audience == PUBLIC else "private",
            "fields": {k: _plain(v) for k, v in e.data.items() if not k.startswith("_")}}


def _plain(v):
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (set, frozenset)):
        return sorted(_plain(x) for x in v)
    return v


def told(g, seat: str, start: int = 0) -> list:
    """The events the seat has been told (``Game.view``); with ``start``, only those from
    log position ``start`` on (the log only grows: the earlier ones stay as they were)."""
    if not start:
        return g.view(seat)
    g.player(seat)
    return [e for e in g.events[start:] if e.visible_to(seat)]


def legal_votes(g, seat: str) -> list[str]:
    """The vote targets the engine's vote check accepts from ``seat`` now
    (``engine.day.legal_votes``: seats in seating order, then ``against_all``, ``abstain``)."""
    return _legal_votes(g, g.state.players[seat])


def move_label(g, ability_id: str, targets, role: str) -> dict:
    ab = g.rules.abilities.get(f"{role}.{ability_id}")
    if ab is None and ability_id == "answer" and len(targets) == 2:
        return answer_label(g, *targets)
    if ab is not None and ab.names_role and targets:   # the last target names a role
        r = g.rules.roles.get(targets[-1])
        if r is not None:
            seats = ", ".join(g.display(t) for t in targets[:-1])
            lead = f"{seats}, " if seats else ""
            return _pair(f"{ab.name_ru} → {lead}{r.name_ru}",
                         f"{ab.name_en} → {lead}{r.name_en}")
    ru, en = (ab.name_ru, ab.name_en) if ab else (ability_id, ability_id)
    if targets:
        shown = ", ".join(g.display(t) for t in targets)
        ru, en = f"{ru} → {shown}", f"{en} → {shown}"
    return _pair(ru, en)


def answer_label(g, qid, option) -> dict:
    """«Ответ на вопрос №3: вступить в клан»: an answer to a question put to the seat, in
    the question's own words."""
    q = (g.state.questions or {}).get(int(qid)) if str(qid).isdigit() else None
    said = next((o for o in (q or {}).get("options", ()) if o[0] == option), None)
    ru, en = (said[1], said[2]) if said else (option, option)
    return _pair(f"Ответ на вопрос №{qid}: {ru}", f"Answer to question #{qid}: {en}")


def vote_label(g, target: str) -> dict:
    if target in _SPECIAL_LABEL:
        return dict(_SPECIAL_LABEL[target])
    shown = g.display(target)
    return _pair(f"голос против: {shown}", f"vote against: {shown}")


def legal(g, seat: str, moves=None) -> dict:
    """``{"moves": [...], "votes": [...]}``: every move the seat may send now and every
    vote it may cast, with Russian and English labels."""
    st = g.state
    if st.over:
        return {"moves": [], "votes": []}
    p = st.players[seat]
    if moves is None:
        moves = g.legal_moves(seat)
    out_moves = []
    for aid, ts in moves:
        out_moves.append({"kind": "move", "ability": aid, "targets": list(ts),
                          "label": move_label(g, aid, ts, p.role)})
    out_votes = [{"kind": "vote", "target": t, "label": vote_label(g, t)}
                 for t in legal_votes(g, seat)]
    return {"moves": out_moves, "votes": out_votes}


def role_record(g, seat: str) -> dict:
    rules = g.rules
    p = g.state.players[seat]
    role = rules.roles[p.role]
    fac = rules.factions.get(p.faction)
    abilities = []
    for a in role.abilities:
        ab = rules.abilities[f"{p.role}.{a}"]
        abilities.append({"id": ab.id, "name": _pair(ab.name_ru, ab.name_en),
                          "text": _pair(ab.text_ru, ab.text_en), "phase": ab.phase,
                          "targets": ab.targets, "uses_per_game": ab.uses_per_game})
    return {
        "id": p.role, "name": _pair(role.name_ru, role.name_en),
        "text": _pair(role.text_ru, role.text_en),
        "faction": {"id": p.faction,
                    "name": _pair(fac.name_ru, fac.name_en) if fac else _pair(p.faction,
                                                                            p.faction),
                    "goal": _pair(fac.goal_ru, fac.goal_en) if fac else _pair("", "")},
        "abilities": abilities,
    }


def sent_this_phase(g, seat: str) -> dict:
    """The seat's own moves standing in this phase and its current vote."""
    st = g.state
    moves = []
    for a in st.slots.values():
        if a.actor == seat:
            moves.append({"ability": g.rules.abilities[a.ability].id,
                          "targets": list(a.targets)})
    return {"moves": moves, "vote": st.votes.get(seat)}


def observation(g, seat: str, *, deadline: str | None = None, texts: bool = True,
                events=None) -> dict:
    """The observation of ``seat`` (see ``docs/agents.md``). ``texts`` adds the role card
    and the private results as the pages word them (ru and en); ``events`` may pass the
    seat's already filtered events (``told``) to save a pass over the log."""
    from ..render import posts
    st = g.state
    if events is None:
        events = told(g, seat)
    kind, number = st.phase, st.number
    ph = _PHASE_LABEL.get(kind, (kind, kind))
    obs = {
        "schema": SCHEMA,
        "ruleset": {"id": g.rules.id, "title": _pair(g.rules.title_ru, g.rules.title_en)},
        "seat": seat,
        "name": g.display(seat),
        "alive": st.players[seat].alive,
        "players": [{"seat": q.name, "name": g.display(q.name), "alive": q.alive}
                    for q in st.order],
        "role": role_record(g, seat),
        "phase": {"kind": kind, "number": number,
                  "label": _pair(f"{ph[0]} {number}", f"{ph[1]} {number}")},
        "deadline": deadline,
        "over": st.over,
        "winners": list(st.winners) if st.over else [],
        "events": [event_record(e) for e in events],
        "sent": sent_this_phase(g, seat),
        "legal": legal(g, seat),
    }
    if texts:
        obs["card"] = _pair(posts.role_card(g, seat, "ru"), posts.role_card(g, seat, "en"))
        obs["results"] = _pair(posts.private_messages(g, events, seat, "ru"),
                               posts.private_messages(g, events, seat, "en"))
    return obs
