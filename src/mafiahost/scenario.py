"""Scenario files: executable rule examples (the contract in DESIGN.md).

``run_file(path)`` plays one file and returns a ``Report`` listing every expectation that
failed, each as a readable sentence. Scenario extensions beyond DESIGN.md (documented in
docs/scenarios.md): day keys ``absent`` and ``excused``; ``expect.factions``;
``expect.no_events`` (each must match no event of the phase); votes written as
``{vote: [voter, target], rejected: "..."}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .engine.errors import BadForcedRoll, Refused, RulesetError
from .engine.game import Game, setup_warnings
from .rules import load


class ScenarioError(Exception):
    """A malformed scenario file: says where and what is allowed."""


@dataclass
class Report:
    path: str
    failures: list[str] = field(default_factory=list)
    error: str | None = None
    game: Game | None = None

    @property
    def ok(self) -> bool:
        return not self.failures and self.error is None

    def as_dict(self) -> dict:
        return {"path": self.path, "ok": self.ok, "failures": self.failures, "error": self.error}


_TOP = {"ruleset", "seed", "options", "players", "script", "description", "rule", "rules",
        "setup_rejected", "accept_warnings"}
_PHASE = {"night", "day", "rolls", "actions", "votes", "expect", "absent", "excused", "note"}
_EXPECT = {"eliminated", "alive", "roles", "statuses", "events", "winner", "factions",
           "no_events", "not_statuses"}


def load_scenario(path) -> dict:
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise ScenarioError(f"{path}: not valid YAML: {e}") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: a scenario is a mapping with ruleset, players and script")
    for k in data:
        if k not in _TOP:
            raise ScenarioError(f"{path}: unknown top-level key '{k}'; allowed: "
                                f"{', '.join(sorted(_TOP))}")
    for k in ("ruleset", "players", "script"):
        if k not in data:
            raise ScenarioError(f"{path}: '{k}' is required")
    if not isinstance(data["players"], dict) or not data["players"]:
        raise ScenarioError(f"{path}: 'players' must map each name to a role id")
    if not isinstance(data["script"], list):
        raise ScenarioError(f"{path}: 'script' must be a list of phases")
    for i, entry in enumerate(data["script"]):
        if not isinstance(entry, dict):
            raise ScenarioError(f"{path}: script[{i}] must be a mapping")
        for k in entry:
            if k not in _PHASE:
                raise ScenarioError(f"{path}: script[{i}]: unknown key '{k}'; allowed: "
                                    f"{', '.join(sorted(_PHASE))}")
        for k in entry.get("expect") or {}:
            if k not in _EXPECT:
                raise ScenarioError(f"{path}: script[{i}].expect: unknown key '{k}'; allowed: "
                                    f"{', '.join(sorted(_EXPECT))}")
    return data


def new_game(data, open_first: bool = True) -> Game:
    rules = load(data["ruleset"], data.get("options") or {})
    seating = [(str(n), str(r)) for n, r in data["players"].items()]
    accept = data.get("accept_warnings", False)
    if not isinstance(accept, bool):
        if not isinstance(accept, list) or not accept:
            raise ScenarioError("accept_warnings is true (every warning of the setup) or a "
                                "list of texts, each a substring of one warning to accept")
        warned = setup_warnings(rules, [r for _, r in seating])
        for a in accept:
            if not any(str(a).lower() in (ru + " " + en).lower() for ru, en in warned):
                said = "; ".join(en for _, en in warned) or "none"
                raise ScenarioError(f"accept_warnings: '{a}' names no warning of this setup "
                                    f"(its warnings: {said})")
    return Game(rules, seating, seed=int(data.get("seed", 0) or 0), open_first=open_first,
                accept_warnings=accept)


def _keyed(rolls: list) -> list:
    """The forced rolls written ``{why: result}``: bound to a kind of roll, not to order."""
    return [f for f in rolls if isinstance(f, dict)]


def _check_rolls(entry, where) -> list:
    rolls = entry.get("rolls") or []
    if not isinstance(rolls, list):
        raise ScenarioError(f"{where}: 'rolls' must be a list of forced results")
    for f in rolls:
        if isinstance(f, dict) and len(f) != 1:
            raise ScenarioError(f"{where}: a keyed forced roll is one pair {{why: result}}, "
                                f"e.g. {{question: Анна}}; got {f}")
    return list(rolls)


def _open(g, forced_prev: list, entry_rolls: list | None) -> None:
    """Open the pending phase. Its opening rolls take, first, the phase's own keyed forced
    results (``{why: result}`` in its ``rolls``), then what the phase before left unused
    (how files forced them before); the keyed ones used here are removed from the list."""
    mine = _keyed(entry_rolls) if entry_rolls is not None else []
    g.state.dice.forced = mine + list(forced_prev)
    g.open_next()
    left = g.state.dice.forced
    if entry_rolls is not None:
        used = [f for f in mine if not any(f is x for x in left)]
        for f in used:
            entry_rolls.remove(f)
    g.state.dice.forced = []


def _match(want, got) -> bool:
    if isinstance(want, list) and isinstance(got, (list, tuple)):
        if len(want) != len(got):
            return False
        return all(_match(w, g) for w, g in zip(want, got, strict=True)) or \
            sorted(map(str, want)) == sorted(map(str, got))
    if isinstance(want, dict) and isinstance(got, dict):
        return all(k in got and _match(v, got[k]) for k, v in want.items())
    return want == got or (isinstance(got, str) and str(want) == got)


# Event types renamed so that the same fact has the same type in every rule set; a scenario
# may still expect an event under its old name (docs/events.md, "Renamed event types").
# old name -> the types it may now be
RENAMED_EVENTS = {
    "question_answer": ("answer",),     # musketeers: the dice's question to the host
    "check_result": ("answer",),        # niichavo: the Lucky one's question to the host
    "wrong_lock": ("wrong_shot",),      # niichavo: the director locks a town player
    "false_denunciation": ("wrong_shot",),   # odessa: the executor denounces a town player
    "hermit_copied": ("action_gained",),     # antem: the hermit takes a dead player's action
}


def _event_matches(want: dict, ev) -> bool:
    for k, v in want.items():
        if k == "type":
            if ev.type != v and ev.type not in RENAMED_EVENTS.get(v, ()):
                return False
        elif k == "audience":
            aud = ev.audience if isinstance(ev.audience, str) else list(ev.audience)
            if not _match(v, aud):
                return False
        elif k not in ev.data or not _match(v, ev.data[k]):
            return False
    return True


def _split_act(item, where):
    if isinstance(item, dict):
        if "act" not in item and "vote" not in item:
            raise ScenarioError(f"{where}: a mapping action needs 'act' (or 'vote') and 'rejected'")
        return list(item.get("act") or item.get("vote")), item.get("rejected")
    if not isinstance(item, list) or len(item) < 2:
        raise ScenarioError(f"{where}: an action is [actor, ability, target...]")
    return item, None


def play(data, path="<scenario>", check=True, on_phase=None) -> Report:
    rep = Report(str(path))
    want = data.get("setup_rejected")
    try:
        g = new_game(data, open_first=False)
    except ScenarioError as e:
        rep.error = str(e)
        return rep
    except (Refused, RulesetError) as e:
        if want is not None and str(want).lower() in str(e).lower():
            return rep
        rep.error = f"cannot start the game: {e}"
        return rep
    if want is not None:
        rep.failures.append(f"the setup should have been refused (\"{want}\") but was accepted")
        return rep
    rep.game = g
    script = data["script"]
    try:
        rolls = [_check_rolls(entry, f"script[{i}]") for i, entry in enumerate(script)]
    except ScenarioError as e:
        rep.error = str(e)
        return rep

    def next_phase_entry(i):
        return next((j for j in range(i, len(script))
                     if "night" in script[j] or "day" in script[j]), None)

    first = next_phase_entry(0)
    try:
        _open(g, [], rolls[first] if first is not None else None)
    except Refused as e:
        rep.error = f"opening the first phase was refused: {e.en or e}"
        return rep
    opened_at = 0
    for i, entry in enumerate(script):
        where = f"script[{i}]"
        phase = "night" if "night" in entry else "day" if "day" in entry else None
        start = len(g.events)                   # the phase's own events start here
        seen = opened_at if phase is not None else start   # and with its opening
        if i == 0:
            start = seen = 0                    # the first phase also shows the game's start
        idx = g.state.idx
        if phase is not None:
            if g.state.over:
                rep.failures.append(f"{where}: the script goes on to {phase} {entry[phase]}, "
                                    f"but the game is over (winners: {g.state.winners})")
                break
            if g.state.phase != phase or g.state.number != entry[phase]:
                rep.failures.append(f"{where}: the script says {phase} {entry[phase]}, but the "
                                    f"game is at {g.state.phase} {g.state.number}")
                break
            bad = _not_living(g, entry, where)
            if bad:
                rep.error = bad
                break
            g.state.dice.forced = rolls[i]
            try:
                _run_phase(g, entry, where, rep)
                g.resolve(open_next=False)
                left = g.state.dice.forced
                opened_at = len(g.events)
                nxt = next_phase_entry(i + 1)
                _open(g, left, rolls[nxt] if nxt is not None else None)
            except BadForcedRoll as e:
                rep.error = f"{where}: rolls: {e.en}"
                break
            except Refused as e:
                rep.failures.append(f"{where}: resolving was refused: {e}")
                break
            g.state.dice.forced = []   # unused forced rolls are fine: "had it rolled..."
        if check and entry.get("expect"):
            _expect(g, entry["expect"], g.events[start:], idx, where, rep,
                    g.events[seen:start])
        if on_phase:
            on_phase(g, entry, g.events[start:])
    return rep


def _not_living(g, entry, where) -> str | None:
    """``absent:`` and ``excused:`` name living players; anything else is an error."""
    s = g.state
    for key in ("absent", "excused"):
        for name in entry.get(key) or []:
            p = s.players.get(str(name))
            if p is None or not p.alive:
                living = ", ".join(q.name for q in s.order if q.alive)
                what = "no player of this game" if p is None else "out of the game"
                return (f"{where}.{key}: '{name}' is {what}; {key} lists living players "
                        f"({living})")
    return None


def _run_phase(g, entry, where, rep):
    for name in entry.get("absent") or []:
        g.mark_absent(str(name))
    for name in entry.get("excused") or []:
        g.excuse(str(name))
    for j, item in enumerate(entry.get("actions") or []):
        w = f"{where}.actions[{j}]"
        act, rejected = _split_act(item, w)
        _attempt(g, rep, w, f"{act}", rejected, lambda a=act: g.submit(
            str(a[0]), str(a[1]), [str(t) for t in a[2:]]))
    for j, item in enumerate(entry.get("votes") or []):
        w = f"{where}.votes[{j}]"
        v, rejected = _split_act(item, w)
        _attempt(g, rep, w, f"vote {v}", rejected, lambda v=v: g.vote(str(v[0]), str(v[1])))


def _attempt(g, rep, where, what, rejected, call) -> None:
    """Run one move or vote; check it was accepted or refused as the scenario says, and
    that a refusal changed nothing."""
    before = len(g.events)
    try:
        call()
    except BadForcedRoll:
        raise
    except Refused as e:
        if rejected is None:
            rep.failures.append(f"{where}: {what} was refused: {e.ru}")
        elif str(rejected).lower() not in (e.ru + " " + e.en).lower():
            rep.failures.append(f"{where}: {what} was refused, but the message does not "
                                f"contain \"{rejected}\": {e.ru}")
        if len(g.events) != before:
            rep.failures.append(f"{where}: a refused {what} changed the game")
        return
    if rejected is not None:
        rep.failures.append(f"{where}: {what} should have been refused (\"{rejected}\") but "
                            f"was accepted")


def _expect(g, exp, events, idx, where, rep, opening=()):
    """Check one phase's expectations. ``events`` are the phase's own (up to and including
    the next phase's opening, as files always read them); ``opening`` the events made when
    this phase opened, which ``events:`` may also expect here."""
    s = g.state
    fail = rep.failures.append
    if "eliminated" in exp:
        got = sorted(e.data["player"] for e in events if e.type == "eliminated")
        want = sorted(map(str, exp["eliminated"] or []))
        if got != want:
            fail(f"{where}: eliminated: expected {want}, got {got}" + _why(events))
    if "alive" in exp:
        got = sorted(p.name for p in s.order if p.alive)
        want = sorted(map(str, exp["alive"] or []))
        if got != want:
            fail(f"{where}: alive: expected {want}, got {got}")
    for kind, attr in (("roles", "role"), ("factions", "faction")):
        for name, want in (exp.get(kind) or {}).items():
            p = s.players.get(str(name))
            if p is None:
                fail(f"{where}: {kind}: no player '{name}'")
            elif getattr(p, attr) != want:
                fail(f"{where}: {kind}: {name} expected {want}, got {getattr(p, attr)}")
    for key, present in (("statuses", True), ("not_statuses", False)):
        for name, wanted in (exp.get(key) or {}).items():
            p = s.players.get(str(name))
            if p is None:
                fail(f"{where}: {key}: no player '{name}'")
                continue
            held = sorted(k for k, v in p.st.items() if v[0] >= max(idx, 1))
            for st in wanted if isinstance(wanted, list) else [wanted]:
                if (st in held) != present:
                    fail(f"{where}: {key}: {name} should {'' if present else 'not '}have "
                         f"'{st}'; has {held}")
    for want in exp.get("events") or []:
        if not any(_event_matches(want, e) for e in (*opening, *events)):
            similar = [e.as_dict() for e in (*opening, *events) if e.type == want.get("type")
                       or e.type in RENAMED_EVENTS.get(want.get("type"), ())]
            fail(f"{where}: no event matches {want}; events of that type: {similar or 'none'}")
    for want in exp.get("no_events") or []:
        hits = [e.as_dict() for e in events if _event_matches(want, e)]
        if hits:
            fail(f"{where}: expected no event matching {want}, got {hits}")
    if "winner" in exp:
        got = sorted(s.winners) if s.over else []
        want = sorted(exp["winner"] or [])
        if got != want:
            fail(f"{where}: winner: expected {want}, got {got}"
                 f"{'' if s.over else ' (the game is not over)'}")


def _why(events) -> str:
    lines = [f"{e.type} {e.data}" for e in events
             if e.type in ("dies", "saved", "blocked", "no_effect", "eliminated")]
    return ("\n      " + "\n      ".join(lines)) if lines else ""


def run_file(path) -> Report:
    try:
        data = load_scenario(path)
    except ScenarioError as e:
        return Report(str(path), error=str(e))
    return play(data, path)


def collect(paths) -> list[Path]:
    out = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out.extend(sorted(p.rglob("*.yaml")) + sorted(p.rglob("*.yml")))
        else:
            out.append(p)
    return out
