"""Export, import and verification of a whole game."""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..engine.dice import verify_rolls
from ..engine.errors import Refused, RulesetError
from ..engine.game import Game
from ..rules import load
from ..rules.setup import deal
from ..store import (
    CommandRow,
    EventRow,
    GameRow,
    ImportedPostRow,
    Store,
    VoteRecordRow,
    now_iso,
)
from ..store import normalize as normalize_event
from .core import (
    FORMAT,
    FORMAT_VERSION,
    Done,
    HostBase,
    HostError,
    _event_dict,
    _event_dict_of,
    _event_from_dict,
    apply_op,
    commitment,
)


class ExchangeCommands(HostBase):
    """Export and import."""

    # ---- export, import, verify --------------------------------------------------------
    def export(self, game_id: int) -> dict:
        """The whole game as one JSON-able dict (seed included: keep it private until the
        game is over)."""
        from sqlalchemy import select
        with self.store.session() as s:
            row = self._row(s, game_id)
            cmds = Store.commands(s, game_id)
            evrows = list(s.execute(select(EventRow.pos, EventRow.type, EventRow.phase,
                                           EventRow.body).where(EventRow.game_id == game_id)
                                    .order_by(EventRow.pos)))
            recs = self.vote_records(game_id)
            keys = [[k, seq] for k, seq in s.execute(
                select(ImportedPostRow.post_key, CommandRow.seq)
                .join(CommandRow, CommandRow.id == ImportedPostRow.command_id)
                .where(ImportedPostRow.game_id == game_id))]
        out_cmds = []
        for c in cmds:
            evs = [_event_dict(t, p, b) for pos, t, p, b in evrows
                   if c.first_event <= pos < c.first_event + c.n_events]
            out_cmds.append({"seq": c.seq, "kind": c.kind, "at": c.at,
                             "args": json.loads(c.args), "ops": json.loads(c.ops),
                             "before": json.loads(c.before), "result": json.loads(c.result),
                             "events": evs})
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "name": row.name,
                "ruleset": row.ruleset, "ruleset_version": row.ruleset_version,
                "options": json.loads(row.options), "seed": row.seed, "salt": row.salt,
                "commitment": row.commitment, "dealt": row.dealt, "lang": row.lang,
                "fmt": row.fmt, "deadline": row.deadline, "deadline_phase": row.deadline_phase,
                "created_at": row.created_at, "commands": out_cmds, "vote_records": recs,
                "imported_posts": keys}

    def import_game(self, data: dict, name: str | None = None) -> Done:
        """Store an exported game as a new game, after checking it runs again to the same
        events (``verify``)."""
        rep = verify(data)
        if not rep.ok:
            raise HostError("Файл не прошёл проверку: " + "; ".join(rep.problems),
                            "The file does not verify: " + "; ".join(rep.problems))
        with self.store.session() as s:
            now = now_iso()
            row = GameRow(name=data.get("name", "") if name is None else name,
                          ruleset=data["ruleset"], ruleset_version=data["ruleset_version"],
                          options=json.dumps(data.get("options") or {}, ensure_ascii=False),
                          seed=data["seed"], salt=data["salt"], commitment=data["commitment"],
                          dealt=data["dealt"], lang=data.get("lang", "ru"),
                          fmt=data.get("fmt", "plain"), deadline=data.get("deadline"),
                          deadline_phase=data.get("deadline_phase"), rev=0,
                          created_at=data.get("created_at") or now, updated_at=now)
            s.add(row)
            s.flush()
            pos = 0
            by_seq = {}
            for c in data["commands"]:
                evs = [_event_from_dict(d) for d in c["events"]]
                cmd = Store.add_command(s, row.id, c["kind"], c["args"], c["ops"], pos, evs,
                                        c.get("before"), c.get("result"))
                cmd.at = c.get("at") or now
                by_seq[c["seq"]] = cmd
                pos += len(evs)
            s.flush()
            for r in data.get("vote_records", ()):
                cmd = by_seq.get(r.get("command"))
                if cmd is not None:
                    s.add(VoteRecordRow(game_id=row.id, command_id=cmd.id,
                                        **{k: r.get(k) for k in ("phase", "voter", "target",
                                                                 "at", "source", "post_key",
                                                                 "status", "note")}))
            for k, seq in data.get("imported_posts", ()):
                if seq in by_seq:
                    s.add(ImportedPostRow(game_id=row.id, post_key=k,
                                          command_id=by_seq[seq].id))
            gid = row.id
        return Done(gid, f"Игра импортирована как №{gid}. / Game imported as {gid}.")




# ---- verification ----------------------------------------------------------------------------

@dataclass
class VerifyReport:
    problems: list[str]
    notes: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(data: dict) -> VerifyReport:
    """Check an exported game: the seed matches the commitment, the deal follows from the
    seed, every command run again from the seed gives exactly the stored events, and every
    roll is the one the seed gives (``verify_rolls``)."""
    problems: list[str] = []
    notes: list[str] = []
    if data.get("format") != FORMAT:
        return VerifyReport([f"not a {FORMAT} file (format: {data.get('format')!r})"], [])
    seed, salt = data.get("seed"), data.get("salt")
    if commitment(seed, salt) != data.get("commitment"):
        problems.append("the seed and salt do not match the published commitment")
    else:
        notes.append(f"commitment {data['commitment']} matches seed {seed} and salt {salt}")
    try:
        rules = load(data["ruleset"], data.get("options") or None)
    except RulesetError as e:
        return VerifyReport(problems + [str(e)], notes)
    if rules.version != data.get("ruleset_version"):
        problems.append(f"the game was played under {data['ruleset']} version "
                        f"{data.get('ruleset_version')}, this installation has version "
                        f"{rules.version}")
    cmds = data.get("commands") or []
    if not cmds or cmds[0]["kind"] != "new":
        return VerifyReport(problems + ["the file has no 'new' command"], notes)
    stored = [_event_from_dict(d) for c in cmds for d in c["events"]]
    seating = [tuple(x) for x in cmds[0]["ops"][0][1]]
    names = [n for n, _ in seating]
    if data.get("dealt"):
        again = deal(rules, names, seed, cmds[0]["args"].get("mafia"))
        if again != seating:
            problems.append("the roles are not the deal the seed gives")
        else:
            notes.append(f"deal re-made from the seed: {len(names)} roles match")
    else:
        notes.append("roles were assigned by the host (not dealt from the seed)")
    try:
        g = Game(rules, seating, seed,
                 accept_warnings=bool(cmds[0]["args"].get("accept_warnings")))
        n_cmd = 0
        for c in cmds[1:]:
            for op in c["ops"]:
                apply_op(g, op)
            n_cmd += 1
    except (Refused, ValueError, KeyError) as e:
        problems.append(f"command #{c['seq']} ({c['kind']}) cannot be run again: {e}")
        return VerifyReport(problems, notes)
    got = [normalize_event(e) for e in g.events]
    if len(got) != len(stored):
        problems.append(f"running the commands again gives {len(got)} events, the file has "
                        f"{len(stored)}")
    for i, (a, b) in enumerate(zip(got, stored, strict=False)):
        if _event_dict_of(a) != _event_dict_of(b):
            problems.append(f"event {i} differs: the file has {_event_dict_of(b)}, running "
                            f"again gives {_event_dict_of(a)}")
            break
    else:
        if len(got) == len(stored):
            notes.append(f"{n_cmd} commands run again: all {len(got)} events identical")
    rolls = [e.data for e in stored if e.type == "roll"]
    for p in verify_rolls(seed, rolls):
        (notes if "forced by the host" in p else problems).append(p)
    notes.append(f"{len(rolls)} dice rolls checked against the seed")
    return VerifyReport(problems, notes)


