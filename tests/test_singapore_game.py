"""A whole game of seed 000 hosted as a host runs it: 22 players dealt by the rule set, every
move, answer and vote sent through the host's commands (some through the command line), each
phase resolved and posted, to the last victory (the issue's acceptance: «from the first coin
to the last victory without a rule applied by hand»)."""

import json
import random

import pytest
from test_host_support import cli, cli_ok
from test_texts_for_people import _ids, check

from mafiahost.engine.errors import Refused
from mafiahost.host import Host
from mafiahost.rules import load

pytest_plugins = ["test_host_support"]   # its fixtures: sqlite_db, any_db

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Иван", "Кира", "Лев",
         "Мила", "Нина", "Олег", "Павел", "Рита", "Семён", "Тина", "Ульяна", "Фёдор", "Харитон",
         "Цветана", "Чеслав"]

# moves that bring a game to its end: tried first, most of the time
KILLING = ("kill", "poison", "poison_scorpion", "silver", "seek", "seek_recruiter", "blast",
           "hunt_priest", "bite_venom", "drink_life", "stake", "release", "recruit",
           "assign_task")


def _pick(rng, moves):
    """A move the way a keen player sends one: a killing move if he has one (mostly), else
    any legal move; sometimes nothing."""
    keen = [m for m in moves if m[0] in KILLING]
    if keen and rng.random() < 0.6:
        return rng.choice(keen)
    if rng.random() < 0.25:
        return None
    return rng.choice(moves)


def _send(h, db, gid, seat, ab, ts, rng, counts) -> None:
    """One move: by the host's method, or (one in five) by the command line."""
    counts["used"].add(ab)
    if rng.random() < 0.2:
        code, out = cli("act", gid, seat, ab, *ts, "--db", db)
        assert code in (0, 2), out          # 2: refused with a sentence, nothing changed
        assert "Traceback" not in out
        counts["cli" if code == 0 else "refused"] += 1
        return
    try:
        h.act(gid, seat, ab, list(ts))
        counts["act"] += 1
    except Refused:
        counts["refused"] += 1            # a move another seat's move made illegal meanwhile


@pytest.mark.parametrize("seed", [1, 5, 6])
def test_a_hosted_22_player_game_runs_to_a_victory(sqlite_db, seed):
    h = Host(sqlite_db)
    gid = h.new_game("singapore", NAMES[:22], seed=seed).game_id
    ids = _ids("singapore")
    rng = random.Random(seed)
    counts = {"act": 0, "cli": 0, "refused": 0, "answers": 0, "votes": 0,
              "used": set()}
    rules = load("singapore")
    seated = {p.role for p in h.load(gid)[1].state.order}
    # the seed's 22: two clans of three, two cops, the town's roles and the neutrals
    assert {"boss_a", "boss_b", "recruiter_a", "recruiter_b", "sheriff", "investigator",
            "journalist", "doctor", "priest", "drunk", "witness", "vampire", "witch",
            "tour_operator", "thug", "thief", "lawyer", "makeup"} <= seated
    phases = 0
    while True:
        _, g = h.load(gid)
        if g.state.over:
            break
        phases += 1
        assert phases <= 80, "the game did not end in 80 phases"
        for p in list(g.state.order):
            _, g = h.load(gid)
            try:
                moves = g.legal_moves(p.name)
            except Refused:
                continue
            questions: dict = {}
            for ab, ts in moves:
                if ab == "answer":
                    questions.setdefault(ts[0], []).append(ts[1])
            for qid, options in questions.items():
                if rng.random() < 0.8:          # silence, sometimes: the default answer
                    pick = rng.choice(options)
                    if rng.random() < 0.3:
                        cli_ok("answer", gid, p.name, qid, pick, "--db", sqlite_db)
                    else:
                        h.answer(gid, p.name, qid, pick)
                    counts["answers"] += 1
            m = _pick(rng, [m for m in moves if m[0] != "answer"]) if moves else None
            if m is not None:
                _send(h, sqlite_db, gid, p.name, m[0], m[1], rng, counts)
        _, g = h.load(gid)
        if g.state.phase == "day":
            alive = [p.name for p in g.state.order if p.alive]
            mark = rng.choice(alive)         # the day's suspect: most vote for him
            for v in alive:
                target = mark if rng.random() < 0.8 and v != mark else rng.choice(alive)
                try:
                    h.vote(gid, v, target)
                    counts["votes"] += 1
                except Refused:
                    pass                    # kidnapped, away, a ghost: the rules say so
        if phases % 4 == 1:                 # what the host looks at before resolving
            out = cli_ok("resolve", gid, "--preview", "--db", sqlite_db)
            check(out, "singapore", f"resolve --preview, phase {phases}", ids, "ru")
            if g.state.phase == "day":
                check(cli_ok("votes", "count", gid, "--db", sqlite_db), "singapore",
                      f"votes count, phase {phases}", ids, "ru")
        d = h.resolve(gid)
        check(d.message, "singapore", f"resolve, phase {phases}", ids, "ru")
        for lang in ("ru", "en"):
            check(h.post(gid, lang=lang), "singapore", f"post {phases} {lang}", ids, lang)
        for text in h.private_messages(gid).values():
            check(text, "singapore", f"private messages {phases}", ids, "ru")
    _, g = h.load(gid)
    over = [e for e in g.events if e.type == "game_over"]
    assert len(over) == 1 and over[0].data["winners"], over
    winners = over[0].data["winners"]
    assert set(winners) <= set(rules.factions) | set(rules.roles)
    # the final post names the winners in words, with the seed revealed for verification
    final = h.post(gid, "final")
    check(final, "singapore", "final post", ids, "ru")
    words = {rules.factions[w].name_ru if w in rules.factions else rules.roles[w].name_ru
             for w in winners}
    assert any(w in final for w in words), (winners, final[:400])
    # the whole game replays and verifies from its export
    path = f"{sqlite_db}.{seed}.json"
    with open(path, "w", encoding="utf-8") as f:
        json.dump(h.export(gid), f, ensure_ascii=False)
    out = cli_ok("verify", path)
    assert "Traceback" not in out
    # it was played: moves by both paths, answers to questions, votes every day
    assert counts["act"] > 50 and counts["cli"] > 10 and counts["votes"] > 20, counts
    assert phases >= 4, phases
