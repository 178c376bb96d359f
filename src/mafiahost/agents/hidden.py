"""The hidden-information check: does an observation hold anything its seat may not see?

Written from the rules, not from the engine's audiences: ``TOLD`` says, for every kind of
event the rules ever tell a player, who is told (everyone; the player a result is for; the
members of a team; the two sides of a meeting …), reading the event's own fields and the
true state of the game at that moment (roles, factions, who acted on whom), never the
event's ``audience``. Every other kind of event (dice, statuses, the host's records of
blocks, saves, redirects, schedules …) is told to no player. On top of the events, the check
looks at the rest of the observation: the seat's own role and side, who is alive (as the
public posts say), the legal moves (the seat's own abilities, and answers only to the
questions put to it and still open), and no replay-only or secret field (``_…``, the seed).

``violations(game, seat, obs)`` lists every breach in words (empty: the observation is
clean); ``python -m mafiahost.agents.hidden`` plays games through the environment and checks
every seat's observation at every phase, every event in it included (``.ci/run`` runs it
with 1,000 games a rule set).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from .observation import event_record

# events the rules announce to everyone (the morning and vote posts)
PUBLIC_KINDS = {
    "phase_started", "vote", "eliminated", "game_over", "replaced", "revived", "jailed",
    "released", "vote_lost", "vote_count", "vote_cancelled", "tie", "no_lynch",
    "acquitted", "executed_by", "held", "vote_switched", "duel", "duel_declined",
    "duel_vote", "hunt", "tie_blocked", "tie_broken", "tie_rule", "takes_voters",
    "envelope", "killer_order_done", "will_read", "blood_written",
    "blood_tie", "trip", "vote_withdrawn",
    "gagged",                                   # singapore: the gag is announced, by name only
    # singapore: «Кого похитили с утра известно»; a blast
    "kidnapped", "psycho_revenge",
    "ghost_risen",                              # singapore: the ghost posts in italics, seen by all
}
# the fields a public event must not carry
NEVER_PUBLIC_FIELDS = {"vote_switched": ("by",)}

# results told to the one player named in ``to``
TO_KINDS = {
    "check_result", "answer", "attacked", "bonus", "bottle_found", "coins_changed",
    "commissar_gone", "copy_result", "imagined", "item_gained",
    "item_spent", "journalist_result", "passed_out", "poisoned", "question_answer",
    "question_granted", "redirect_failed", "redirect_set", "shot_failed",
    "vest_hit", "visitor_known", "watch_result", "action_gained", "cursed",
    "recruit_attempt", "witness_result",
    "trashed",                                  # singapore: the thug learns what he found
    "puppet_vote",                              # the one whose vote another casts (kidnapped)
    "drink_missed",                             # singapore: the ghost found nobody at home
    # singapore: the reseller's orders; the customer's item
    "resell_ordered", "delivered",
    "guess_missed",                             # singapore: the maniac named a wrong role
    "question_asked", "question_answered",      # a question put to the player, his answer
    "move_forced", "forced_move_failed",        # a move the rules make for him; its failure
    "card_called",                              # singapore: the caller learns his call is made
    "task_assigned",                            # singapore: the apprentice learns his task
    "bite_lured",                               # singapore: the vampire learns he bit another
}
# told to a group: the director's group (niichavo) learns its new leader
GROUP_KINDS = {"heir"}


class Truth:
    """The true game as it stood when each event happened: roles, factions, and the
    moves of the current phase (who aimed at whom, and where redirects and swaps sent
    them)."""

    def __init__(self, g):
        first = g.events[0].data
        self.rules = g.rules
        self.role = {n: r for n, r in first["players"]}
        self.faction = {n: g.rules.roles[r].faction for n, r in first["players"]}
        self.acted: dict[str, set] = {}     # seat -> targets of its moves this phase
        self.public_alive = {n: True for n, _ in first["players"]}
        self.status: dict[tuple, object] = {}
        self.questions: dict[str, tuple] = {}   # open: id -> (to, option ids)

    def apply(self, e) -> None:
        t, d = e.type, e.data
        if t == "role_changed":
            self.role[d["player"]] = d["role"]
            self.faction[d["player"]] = self.rules.roles[d["role"]].faction
        elif t in ("recruited", "faction_changed"):
            self.faction[d["player"]] = d["faction"]
        elif t == "phase_started":
            self.acted = {}
        elif t == "question_asked":
            self.questions[str(d["id"])] = (d["to"], {o[0] for o in d["options"]})
        elif t == "question_answered":
            self.questions.pop(str(d["id"]), None)
        elif t == "status":
            self.status[(d["player"], d["status"])] = d.get("value")
        elif t == "action":
            self.acted.setdefault(d["actor"], set()).update(d.get("targets") or ())
        elif t == "redirected":          # the move lands on another player
            self.acted.setdefault(d["player"], set()).add(d.get("onto"))
        elif t == "swap_set":            # each does the other's move (niichavo's troll)
            a, b = d["players"]
            both = self.acted.get(a, set()) | self.acted.get(b, set())
            self.acted[a] = set(both)
            self.acted[b] = set(both)

    def member(self, seat: str, faction) -> bool:
        return self.faction.get(seat) == faction


def entitled(truth: Truth, seat: str, e) -> str | None:
    """None when the rules tell ``seat`` the event ``e``; else why not, in words."""
    t, d = e.type, e.data
    if t in PUBLIC_KINDS:
        if t == "eliminated" and "role" in d and not truth.rules.reveal_roles:
            return "an eliminated player's role, in a game that does not reveal roles"
        for f in NEVER_PUBLIC_FIELDS.get(t, ()):
            if f in d:
                return f"the hidden field '{f}' of a public {t}"
        return None
    ok = False
    to = d.get("to")
    if t in GROUP_KINDS:
        ok = to == seat or truth.status.get((seat, "in_group")) == d.get("was")
    elif t in TO_KINDS:
        ok = to == seat
    elif t == "team":                   # each member (at the start, or on recruitment)
        ok = seat in d.get("members", ()) and to in (None, seat)
    elif t == "action":
        ok = d.get("actor") == seat
    elif t == "action_withdrawn":
        ok = seat in (d.get("actor"), d.get("by"))
    elif t == "role_changed":           # the player; a clan's new boss: the clan too
        fac = truth.rules.factions.get(truth.faction.get(d.get("player")))
        ok = d.get("player") == seat or (fac is not None and fac.knows_members
                                          and truth.member(seat, fac.id))
    elif t == "faction_changed":
        ok = d.get("player") == seat
    elif t == "recruited":              # the recruit, his recruiter and the team he joins
        ok = d.get("player") == seat or truth.member(seat, d.get("faction")) \
            or d.get("player") in truth.acted.get(seat, ())
    elif t == "turned":                 # the vampire's victim and the vampire
        ok = seat == to or d.get("player") in truth.acted.get(seat, ())
    elif t == "interrogation_result":   # the cop who asked and his fellow cops
        ok = seat == to or truth.member(seat, truth.faction.get(to))
    elif t == "treasury_changed":       # the clan's members
        ok = truth.member(seat, d.get("clan"))
    elif t in ("met", "town_mafia"):
        ok = seat in (d.get("players") or d.get("members") or ())
    elif t == "recruit_failed":         # the recruiter and his clan: «мафия получает ответ»,
        ok = seat == to or truth.member(seat, truth.faction.get(to))   # seed 000, 1.2
    elif t == "curse_lifted":           # the one cursed, and the witch who lifts her curse
        c = truth.status.get((to, "curse"))
        ok = seat == to or (isinstance(c, (list, tuple)) and len(c) > 1 and c[1] == seat)
    elif t == "no_effect":              # a host's record, unless a player is told (``to``):
        ok = to is not None and seat == to     # the witch kept the curse he asked her to lift
    elif t == "caught":                 # the one caught and the trap's owner
        ok = seat in (to, d.get("owner"))
    elif t == "join_request":           # singapore: the asker and the clan's living boss (its
        clan = d.get("clan")            # living members if it has none)
        living = [x for x in truth.role if truth.member(x, clan) and truth.public_alive.get(x)]
        bosses = [x for x in living if str(truth.role[x]).startswith("boss")]
        ok = seat == d.get("player") or (seat in living and (seat in bosses or not bosses))
    elif t == "witness_letter":         # singapore: the sheriff the witness writes to
        ok = truth.role.get(seat) == "sheriff"
    elif t == "sent_to_confession":     # singapore: the priests learn whom the drunk sends
        ok = truth.role.get(seat) == "priest"
    elif t == "order_taken":            # the one hired and the customer
        ok = seat in (to, d.get("customer"))
    elif t == "stolen":                 # the thief, and the victim when he lost something
        ok = seat == to or (seat == d.get("victim") and (d.get("item") or d.get("coins")))
    elif t == "wounded":                # announced (no ``to``), or the wounded and his doctor
        ok = "to" not in d or seat == d.get("player") \
            or d.get("player") in truth.acted.get(seat, ())
    elif t == "killer_order":           # announced (``by`` a seat), or the one who ordered
        if d.get("by") in truth.role:   # and the killers (``by`` his role)
            ok = True
        else:
            ok = d.get("target") in truth.acted.get(seat, ()) \
                or truth.role.get(seat) == "killer"
    else:
        return f"a '{t}' event, which the rules tell no player"
    return None if ok else f"a '{t}' event meant for others"


def _walk(x, path, out) -> None:
    if isinstance(x, dict):
        for k, v in x.items():
            if isinstance(k, str) and (k.startswith("_") or k in ("seed", "salt")):
                out.append(f"the secret field '{path}{k}'")
            _walk(v, f"{path}{k}.", out)
    elif isinstance(x, list):
        for v in x:
            _walk(v, path, out)


class SeatCheck:
    """Checks one seat's observations as the game goes on: the true game is followed
    event by event, once; each check reads the events that came since the last one."""

    def __init__(self, g, seat: str):
        self.g = g
        self.seat = seat
        self.truth = Truth(g)
        self.i = 0          # true events followed so far
        self.j = 0          # told events matched so far

    def check(self, obs: dict, since_last: bool = False) -> list[str]:
        """The breaches in ``obs``. Its ``events`` are all the seat was told, or, with
        ``since_last``, only those told since the last check (``told(g, seat, start)``
        from where the last one ended: the earlier ones were checked then)."""
        g, seat, truth = self.g, self.seat, self.truth
        out: list[str] = []
        if obs.get("seat") != seat:
            out.append(f"the observation is of seat {obs.get('seat')!r}, not {seat!r}")
        told = obs.get("events", [])
        base = self.j if since_last else 0
        j = 0 if since_last else self.j
        events = g.events
        for e in events[self.i:]:
            if j < len(told):
                rec = told[j]
                if rec.get("type") == e.type and event_record(e) == rec:
                    why = entitled(truth, seat, e)
                    if why is not None:
                        out.append(f"event {base + j} ({e.phase}): {why}")
                    j += 1
            truth.apply(e)
            if e.type == "eliminated":
                truth.public_alive[e.data["player"]] = False
            elif e.type == "revived":
                truth.public_alive[e.data["player"]] = True
        self.i = len(events)
        self.j = base + j
        if j < len(told):
            out.append(f"event {base + j} and later: not events of this game, or out of "
                       f"order")
        role = obs.get("role", {})
        if role.get("id") != truth.role.get(seat):
            out.append(f"the role shown ({role.get('id')}) is not the seat's own")
        elif role.get("faction", {}).get("id") != truth.faction.get(seat):
            out.append("the side shown is not the seat's own")
        mine = set(g.rules.roles[truth.role[seat]].abilities) if seat in truth.role else set()
        for m in obs.get("legal", {}).get("moves", ()):
            if m.get("ability") == "answer" and "answer" not in mine:
                ts = list(m.get("targets") or []) + [None, None]
                q = truth.questions.get(str(ts[0]))
                if q is None or q[0] != seat or ts[1] not in q[1]:
                    out.append("an answer to a question not open to the seat")
            elif m.get("ability") not in mine:
                out.append(f"a legal move of an ability the seat does not have "
                           f"({m.get('ability')})")
        for p in obs.get("players", ()):
            want = truth.public_alive.get(p.get("seat"))
            if set(p) - {"seat", "name", "alive"}:
                out.append(f"a field beyond seat, name and alive about {p.get('seat')}")
            if want is not None and p.get("alive") != want:
                out.append(f"whether {p.get('seat')} is alive, which no post has said")
        _walk(obs, "", out)
        return out


def violations(g, seat: str, obs: dict) -> list[str]:
    """Every piece of ``obs`` (an observation of ``seat`` in game ``g`` as it is now) that
    the rules do not let ``seat`` see, in words; [] when there is none."""
    return SeatCheck(g, seat).check(obs)


# ---- the run: games through the environment -------------------------------------------------

def run(rulesets, games: int, players: int = 12) -> dict:
    """Play ``games`` games a rule set through the environment with random agents, and
    check every seat's observation at every phase: all of it (its role, side, legal moves,
    who is alive, its fields) and every event in it, each event when it is new (the events
    told since the seat's last observation, ``observation.told(g, seat, start)``, checked
    against the true game as it stood when each happened; the earlier ones were checked in
    the earlier observations, which the later ones extend). At the end of each game every
    seat's whole observation, every event it was told, is checked again from the start, by
    a fresh check. Returns counts per rule set."""
    import importlib
    import random

    from .env import random_action, raw_env
    # the module (the package's name ``observation`` is the function)
    obs_module = importlib.import_module(__package__ + ".observation")
    report = {}
    for r in rulesets:
        env = raw_env(ruleset=r, players=players)
        checked = bad = events = 0
        first_bad = None

        def look(chk, g, seat, start, s):
            """Check ``seat``'s observation now, its events those told from log position
            ``start`` on (0: all); the next start."""
            nonlocal checked, bad, first_bad, events
            checked += 1
            end = len(g.events)
            told = obs_module.told(g, seat, start)
            events += len(told)
            obs = obs_module.observation(g, seat, texts=False, events=told)
            v = chk.check(obs, since_last=start > 0)
            if v:
                bad += 1
                first_bad = first_bad or [s, seat, v[:3]]
            return end
        for s in range(games):
            rng = random.Random(s)
            env.reset(seed=s)
            g = env.game
            checks = {seat: SeatCheck(g, seat) for seat in env.possible_agents}
            start = dict.fromkeys(env.possible_agents, 0)
            label = None
            while env.agents:
                a = env.agent_selection
                if env.terminations[a] or env.truncations[a]:
                    env.step(None)
                    continue
                if g.state.idx != label:
                    label = g.state.idx
                    for seat, chk in checks.items():
                        start[seat] = look(chk, g, seat, start[seat], s)
                env.step(random_action(env.observe(a), rng))
            for seat in env.possible_agents:
                look(SeatCheck(g, seat), g, seat, 0, s)
        report[r] = {"games": games, "observations": checked, "violations": bad,
                     "events": events, "first": first_bad}
    return report


def _one(args) -> tuple[str, dict, float]:
    r, games, players = args
    t = time.perf_counter()
    rep = run([r], games, players)[r]
    return r, rep, time.perf_counter() - t


def main(argv=None) -> int:
    import os
    from concurrent.futures import ProcessPoolExecutor

    from ..rules import available
    ap = argparse.ArgumentParser(description="Check that no observation holds what its "
                                             "seat may not see.")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=12)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="rule sets checked at once, one process each")
    ap.add_argument("--ruleset", nargs="*")
    a = ap.parse_args(argv)
    bad = 0
    work = [(r, a.games, a.players) for r in a.ruleset or available()]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for r, rep, dt in pool.map(_one, work):
            bad += rep["violations"]
            print(f"{r:14} {rep['games']} games, {rep['observations']} observations and "
                  f"{rep['events']} events in them checked, "
                  f"{rep['violations']} with a leak ({dt:.1f} s)"
                  + (f"; first: {json.dumps(rep['first'], ensure_ascii=False)}"
                     if rep["first"] else ""))
            sys.stdout.flush()
    print(f"{'leaks found' if bad else 'no leak'} ({time.perf_counter() - t0:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
