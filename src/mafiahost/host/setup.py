"""Setting up a game and its seats: new game, list, show, deadline, absence,
excuses, replacements and the host's removals."""

from __future__ import annotations

import json
import os

from ..engine.errors import RulesetError
from ..engine.game import Game
from ..names import NameRefused, validate_names
from ..rules import load
from ..rules.setup import deal
from ..store import (
    EventRow,
    GameRow,
    Store,
    now_iso,
)
from ..store import normalize as normalize_event
from .core import (
    SEED_LIMIT,
    Done,
    HostBase,
    HostError,
    _args_text,
    _Ctx,
    _say,
    can_use,
    deal_commitment,
    new_seed,
    not_acted,
    not_voted,
    parse_time,
)
from .questions import not_answered


class SetupCommands(HostBase):
    """Games and seats."""

    # ---- games -------------------------------------------------------------------------
    def new_game(self, ruleset: str, players: list[str], *, roles=None, options=None,
                 mafia: int | None = None, seed: int | None = None, name: str = "",
                 lang: str = "ru", fmt: str = "plain", owner: int | None = None,
                 accept_warnings: bool = False, bots: dict | None = None) -> Done:
        """Deal (or take the host's ``roles``) and store a new game; returns its start post.

        ``roles`` is a list in seating order or a dict name -> role id; ``owner`` the host
        account that owns the game (the web app: the logged-in host). A seating that goes
        against the seed's recommendations (a single under ten players in classic) is
        refused with the warning unless ``accept_warnings``; what the seed forbids is
        always refused. ``bots`` ({seat: "random" | "sensible"}) seats bots that send
        their moves when each phase opens (``host/bots.py``)."""
        players = [p.strip() for p in players if p.strip()]
        if not players:
            raise HostError("Не указаны игроки: --players \"Анна,Борис,...\".",
                            "No players given: --players \"Anna,Boris,...\".")
        try:
            validate_names(players)
        except NameRefused as e:
            raise HostError(e.ru, e.en) from None
        if bots:
            from .bots import parse_bots
            bots = parse_bots(",".join(f"{k}={v}" for k, v in bots.items()), players)
        options = dict(options or {})
        try:
            rules = load(ruleset, options or None)
        except RulesetError as e:
            raise HostError(str(e), "") from None
        if seed is None:
            seed = new_seed()
        if not 0 <= seed < SEED_LIMIT:
            raise HostError(f"Зерно должно быть от 0 до {SEED_LIMIT - 1}.",
                            f"The seed must be 0 to {SEED_LIMIT - 1}.")
        salt = os.urandom(16).hex()
        if roles:
            seating = _assigned(players, roles)
        else:
            seating = deal(rules, players, seed, mafia)
        g = Game(rules, seating, seed, accept_warnings=accept_warnings)
        c = deal_commitment(salt, seed, rules.id, rules.version, options, not roles, mafia,
                            seating)
        with self.store.session() as s:
            now = now_iso()
            row = GameRow(name=name, ruleset=rules.id, ruleset_version=rules.version,
                          options=json.dumps(options, ensure_ascii=False), seed=seed,
                          salt=salt, commitment=c, dealt=not roles, lang=lang, fmt=fmt,
                          rev=0, created_at=now, updated_at=now)
            s.add(row)
            s.flush()
            evs = [normalize_event(e) for e in g.events]
            Store.add_command(s, row.id, "new",
                              {"players": players, "roles": bool(roles), "mafia": mafia,
                               "options": options,
                               **({"accept_warnings": True} if accept_warnings else {}),
                               **({"bots": bots} if bots else {})},
                              [["start", [list(x) for x in seating]]], 0, evs)
            if owner is not None:
                from ..store.accounts import set_owner
                set_owner(s, row.id, owner)
            gid = row.id
        g.events[:] = evs
        self.cache.put(gid, 0, g)
        from ..render import posts
        post = posts.start_post(g, c, lang=lang, fmt=fmt)
        done = Done(gid, _say(lang, f"Игра №{gid} создана: {rules.title_ru}, "
                                    f"{len(players)} игроков.",
                              f"Game {gid} created: {rules.title_en}, {len(players)} players."),
                    post, evs, {"commitment": c})
        return self._with_bots(done, lang) if bots else done

    def list_games(self) -> list[dict]:
        from sqlalchemy import select
        out = []
        with self.store.session() as s:
            for row in s.scalars(select(GameRow).order_by(GameRow.id)):
                last = s.scalars(select(EventRow).where(EventRow.game_id == row.id,
                                                        EventRow.type.in_(
                                                            ("phase_started", "game_over")))
                                 .order_by(EventRow.pos.desc()).limit(1)).first()
                if last is None:
                    status = ""
                elif last.type == "game_over":
                    status = "over"
                else:
                    status = json.loads(last.body)["data"]
                    status = f"{status['phase']} {status['number']}"
                first = s.scalars(select(EventRow).where(EventRow.game_id == row.id,
                                                         EventRow.pos == 0)).first()
                n = len(json.loads(first.body)["data"]["players"]) if first else 0
                out.append({"id": row.id, "name": row.name, "ruleset": row.ruleset,
                            "players": n, "status": status, "created": row.created_at})
        return out

    def show(self, game_id: int) -> dict:
        """The host's view of the game now: phase, deadline, players with roles and
        statuses, who has not acted or voted, the votes so far."""
        with self.store.session() as s:
            row = self._row(s, game_id)
            g = self._game(s, row)
            last = Store.last_command(s, game_id)
            n_cmds = len(Store.commands(s, game_id))
        st = g.state
        label = f"{st.phase} {st.number}"
        players = []
        for p in st.order:
            statuses = {k: v[1] for k, v in p.st.items() if v[0] >= st.idx}
            players.append({
                "seat": p.name, "name": g.display(p.name), "role": p.role,
                "role_ru": g.rules.roles[p.role].name_ru, "role_en": g.rules.roles[p.role].name_en,
                "faction": p.faction, "alive": p.alive, "how": p.how or None,
                "statuses": statuses, "can_use": [] if st.over else can_use(g, p)})
        return {
            "id": row.id, "name": row.name, "ruleset": row.ruleset,
            "ruleset_version": row.ruleset_version, "title_ru": g.rules.title_ru,
            "title_en": g.rules.title_en, "phase": st.phase, "number": st.number,
            "label": label, "over": st.over, "winners": list(st.winners),
            "deadline": row.deadline if row.deadline_phase == label and not st.over else None,
            "players": players, "not_acted": [] if st.over else not_acted(g),
            "questions": [] if st.over else not_answered(g),
            "not_voted": [] if st.over or st.phase != "day" else not_voted(g),
            "votes": dict(st.votes), "counters": dict(st.counters),
            "commitment": row.commitment, "dealt": row.dealt, "lang": row.lang,
            "fmt": row.fmt, "events": len(g.events), "commands": n_cmds,
            "last_command": f"#{last.seq} {last.kind} {_args_text(last)}".strip()
            if last else None,
        }

    def set_deadline(self, game_id: int, when: str | None) -> Done:
        t = parse_time(when)

        def fn(c: _Ctx):
            c.before = {"deadline": c.row.deadline, "deadline_phase": c.row.deadline_phase}
            if c.g.state.over:
                raise HostError("Игра окончена: срок не нужен.", "The game is over.")
            label = f"{c.g.state.phase} {c.g.state.number}"
            c.row.deadline = t.isoformat() if t else None
            c.row.deadline_phase = label if t else None
            lang = c.row.lang
            return Done(game_id, _say(lang, f"Срок ({label}): {c.row.deadline or 'снят'}.",
                                      f"Deadline ({label}): {c.row.deadline or 'removed'}."))
        return self._command(game_id, "deadline", {"when": when}, fn)


    # ---- the host's other commands -----------------------------------------------------
    def mark_absent(self, game_id: int, player: str) -> Done:
        def fn(c):
            p = self.seat(c.g, player)
            c.op("absent", p)
            la = c.row.lang
            return Done(game_id, _say(la, f"{c.g.display(p)}: не отписался(ась).",
                                      f"{c.g.display(p)}: marked absent."))
        return self._command(game_id, "absent", {"player": player}, fn)

    def excuse(self, game_id: int, player: str) -> Done:
        def fn(c):
            p = self.seat(c.g, player)
            c.op("excuse", p)
            return Done(game_id, _say(c.row.lang, f"{c.g.display(p)} освобождён(а) от "
                                                  f"голосования сегодня.",
                                      f"{c.g.display(p)} is excused from today's vote."))
        return self._command(game_id, "excuse", {"player": player}, fn)

    def replace_player(self, game_id: int, seat: str, by: str) -> Done:
        """Замена: ``by`` takes over ``seat`` (a public event; the seat keeps its name in
        the log)."""
        def fn(c):
            p = self.seat(c.g, seat)
            was = c.g.display(p)
            try:                 # the newcomer's nick: as checked as the names at creation
                validate_names([c.g.display(q.name) for q in c.g.state.order
                                if q.name != p] + [by.strip()])
            except NameRefused as e:
                raise HostError(e.ru, e.en) from None
            c.op("replace_player", p, by.strip())
            return Done(game_id, _say(c.row.lang, f"Замена: {was} → {by}.",
                                      f"Replacement: {was} → {by}."))
        return self._command(game_id, "replace", {"seat": seat, "by": by}, fn)

    def remove(self, game_id: int, player: str, why: str = "") -> Done:
        """The host's override (мастерский произвол): the player leaves the game."""
        def fn(c):
            p = self.seat(c.g, player)
            c.op("remove", p, why)
            return Done(game_id, _say(c.row.lang, f"{c.g.display(p)} выведен(а) из игры "
                                                  f"ведущим.",
                                      f"{c.g.display(p)} removed by the host."))
        return self._command(game_id, "remove", {"player": player, "why": why}, fn)



def _assigned(players: list[str], roles) -> list[tuple[str, str]]:
    if isinstance(roles, dict):
        missing = [p for p in players if p not in roles]
        extra = [r for r in roles if r not in players]
        if missing or extra:
            raise HostError(
                f"Роли назначены не всем: нет роли у {', '.join(missing) or '—'}; "
                f"лишние имена: {', '.join(extra) or '—'}.",
                f"Roles do not match the players: no role for {', '.join(missing) or '-'}; "
                f"unknown names: {', '.join(extra) or '-'}.")
        return [(p, roles[p]) for p in players]
    roles = list(roles)
    if len(roles) != len(players):
        raise HostError(f"Ролей {len(roles)}, а игроков {len(players)}: нужно поровну.",
                        f"{len(roles)} roles for {len(players)} players: they must match.")
    return list(zip(players, roles, strict=True))


def parse_roles(text: str, players: list[str]):
    """``--roles`` text: "Анна=commissar,Борис=boss,..." or "commissar,boss,..." in
    seating order."""
    items = [x.strip() for x in text.split(",") if x.strip()]
    if items and all("=" in x for x in items):
        return {k.strip(): v.strip() for k, v in (x.split("=", 1) for x in items)}
    return items

