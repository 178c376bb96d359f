"""Bots: random and sensible for every rule set; the host seats them (``--bots``)."""

from __future__ import annotations

import random

import pytest

from mafiahost.agents import get_bot
from mafiahost.agents.bots import Known, kind_of, play_game
from mafiahost.cli import main
from mafiahost.engine.day import legal_votes
from mafiahost.rules import available
from mafiahost.sim import new_random_game


@pytest.mark.parametrize("ruleset", available())
@pytest.mark.parametrize("bot", ["random", "sensible"])
def test_bots_finish_games_of_every_rule_set_with_legal_moves_only(ruleset, bot):
    for seed in range(3):
        g = new_random_game(ruleset, 12, seed)
        b = get_bot(bot)
        rng = random.Random(seed)
        phases = 0
        while not g.state.over and phases < 200:
            for p in g.state.order:
                legal = set(g.legal_moves(p.name))
                votes = set(legal_votes(g, p))
                for item in b.plan(g, p.name, rng):
                    if item[0] == "vote":
                        assert item[1] in votes
                    else:
                        assert (item[1], tuple(item[2])) in legal
                b.moves(g, p.name, rng)
            g.resolve()
            phases += 1
        assert g.state.over or phases == 200


def _sensible_games(ruleset, n=15):
    for seed in range(n):
        g = new_random_game(ruleset, 12, seed)
        bots = {p.name: get_bot("sensible") for p in g.state.order}
        # watch every choice against what the seat knew when it chose
        rng = random.Random(seed)
        phases = 0
        while not g.state.over and phases < 100:
            for p in g.state.order:
                k = Known(g, p.name)
                plan = bots[p.name].plan(g, p.name, rng)
                yield g, p, k, plan
                bots[p.name].moves(g, p.name, random.Random(seed * 1000 + phases))
            g.resolve()
            phases += 1


@pytest.mark.parametrize("ruleset", ["vanilla", "classic", "gemini", "antem"])
def test_sensible_killers_protectors_checkers_and_voters(ruleset):
    seen = set()
    for g, p, k, plan in _sensible_games(ruleset):
        own = k.mates | {p.name}
        for item in plan:
            if item[0] == "vote":
                if k.side != "town" and k.mates:
                    assert item[1] not in own, (p.name, item)       # mafia: a non-member
                    seen.add("mafia vote")
                elif k.guilty & {q.name for q in g.state.order if q.alive}:
                    assert item[1] in k.guilty or item[1] not in g.state.players
                    seen.add("guilty vote")
                continue
            ab = g.rules.abilities[f"{p.role}.{item[1]}"]
            kind, ts = kind_of(ab), set(item[2])
            if kind == "kill":
                assert not ts & own, (p.name, item)
                seen.add("kill")
            elif kind == "protect":
                others = any(ts2 for a2, ts2 in g.legal_moves(p.name)
                             if a2 == ab.id and p.name not in ts2)
                if others:
                    assert p.name not in ts
                    seen.add("protect")
            elif kind == "check":
                fresh = [ts2 for a2, ts2 in g.legal_moves(p.name)
                         if a2 == ab.id and not set(ts2) & (k.checked | own)]
                if fresh:
                    assert not ts & (k.checked | own), (p.name, item)
                    seen.add("check")
    assert "kill" in seen and "mafia vote" in seen
    if ruleset != "vanilla":
        assert {"protect", "check"} <= seen


def test_sensible_mafia_beats_random_mafia_in_vanilla():
    wins = {}
    for name in ("random", "sensible"):
        w = 0
        for seed in range(30):
            g = new_random_game("vanilla", 9, seed)
            bots = {p.name: get_bot("sensible" if p.faction == "mafia" else "random")
                    if name == "sensible" else get_bot("random") for p in g.state.order}
            play_game(g, bots, seed)
            w += "mafia" in g.state.winners
        wins[name] = w
    assert wins["sensible"] > wins["random"]


def test_unknown_abilities_fall_back_to_random():
    class Fake:
        mechs = ()
        effects = ()
    assert kind_of(Fake()) is None
    with pytest.raises(ValueError):
        get_bot("genius")


def test_host_seats_bots_and_sends_their_moves_when_a_phase_opens(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    players = "Анна,Борис,Вера,Глеб,Дина,Егор,Жанна"
    roles = "Анна=mafioso,Борис=mafioso,Вера=civilian,Глеб=civilian,Дина=civilian," \
            "Егор=civilian,Жанна=civilian"
    assert main(["game", "new", "vanilla", "--players", players, "--roles", roles,
                 "--bots", "Анна=sensible,Глеб=random", "--seed", "5", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "Боты" in out
    from mafiahost.host import Host
    h = Host(db)
    assert h.seat_bots(1) == {"Анна": "sensible", "Глеб": "random"}
    _, g = h.load(1)
    acts = [e for e in g.events if e.type == "action"]
    assert len(acts) == 1 and acts[0].data["actor"] == "Анна"     # the mafia's shot
    assert acts[0].data["targets"][0] not in ("Анна", "Борис")     # never at its own side
    log = "\n".join(h.log(1, ids=True))       # the raw log (the default is in words)
    assert "act" in log
    assert main(["resolve", "1", "--db", db]) == 0
    _, g = h.load(1)
    assert g.state.phase == "day"
    votes = {e.data["voter"] for e in g.events if e.type == "vote"}
    alive = {p.name for p in g.state.order if p.alive}
    assert votes == {"Анна", "Глеб"} & alive                       # the bots voted
    # a bad --bots is refused with a sentence, and no game is made
    assert main(["game", "new", "vanilla", "--players", players, "--bots", "Лев=sensible",
                 "--db", db]) != 0
    assert main(["game", "new", "vanilla", "--players", players, "--bots", "Анна=genius",
                 "--db", db]) != 0
    err = capsys.readouterr()
    assert "Traceback" not in err.out + err.err
    assert "Лев" in err.out + err.err and "genius" in err.out + err.err
    assert len(h.list_games()) == 1


def test_the_web_form_seats_bots_as_the_command_line_does(tmp_path):
    """The host's new-game form has a bots field (Russian and English labels), read as
    ``game new --bots``: the bots' moves are sent when the game opens; a bad entry is
    refused with the same sentence and no game is made."""
    from test_web_support import client, csrf_of, make_app, make_host
    app, host = make_app(str(tmp_path / "g.db"))
    hc = client(app, make_host(host))
    page = hc.get("/host").text
    assert 'name="bots"' in page and "Боты (необязательно)" in page
    players = "Анна,Борис,Вера,Глеб,Дина,Егор,Жанна,Зоя"
    r = hc.post("/host/games", data={"csrf": csrf_of(page), "ruleset": "classic",
                                     "players": players, "seed": "6",
                                     "bots": "глеб=sensible, Дина=random"})
    assert r.status_code == 200, r.text
    (gid,) = [g["id"] for g in host.list_games()]
    assert host.seat_bots(gid) == {"Глеб": "sensible", "Дина": "random"}
    _, g = host.load(gid)
    assert [g.state.players[s].role for s in ("Глеб", "Дина")] == ["mafioso", "beauty"]
    # both bots have a night move: sent when the game opened, as the players' own commands
    assert sorted(e.data["actor"] for e in g.events if e.type == "action") == ["Глеб", "Дина"]
    assert "Боты: Ход принят: Глеб — Выстрел мафии" in r.text
    assert sum(1 for line in host.log(gid, ids=True) if " act " in f" {line} ") >= 2
    for bad, says in (("Фёдор=sensible", "нет среди игроков"),
                      ("Глеб=genius", "Бота «genius» нет")):
        r = hc.post("/host/games", data={"csrf": csrf_of(page), "ruleset": "classic",
                                         "players": players, "bots": bad})
        assert r.status_code == 303 and r.headers["location"] == "/host"
        assert says in hc.get("/host").text
        assert len(host.list_games()) == 1                   # nothing made
    assert "Bots (optional)" in hc.get("/host?lang=en").text


def test_undo_reverts_a_command_and_the_bots_moves_it_brought_as_one_step(tmp_path):
    """The bots move when a phase opens, each move its own command; ``undo`` right after
    takes back the command that opened the phase together with all of them, and says so
    (before, each undo took back one bot's move). Moves made at the game's creation, which
    is never undone, go back as one step of their own."""
    from mafiahost.host import Host
    h = Host(str(tmp_path / "g.db"))
    players = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна"]
    roles = {"Анна": "mafioso", "Борис": "mafioso", "Вера": "civilian", "Глеб": "civilian",
             "Дина": "civilian", "Егор": "civilian", "Жанна": "civilian"}
    gid = h.new_game("vanilla", players, roles=roles, seed=5,
                     bots={"Анна": "sensible", "Глеб": "random", "Дина": "random"}).game_id

    def state():
        _, g = h.load(gid)
        return len(g.events), g.state.idx, dict(g.state.votes)
    night = state()
    done = h.resolve(gid)
    assert len(done.data["bots"]) >= 2                    # the living bots voted
    _, g = h.load(gid)
    assert g.state.phase == "day" and len(g.state.votes) >= 2
    preview = h.undo(gid, "ru", dry_run=True).message
    undone = h.undo(gid, "ru")
    assert undone.data["commands"] == 1 + len(done.data["bots"])
    what = undone.message
    assert what.startswith("Отменено: итоги фазы «Ночь 1»") and "ходы ботов" in what
    for seat in g.state.votes:                            # every bot's vote is named
        assert f"голос {seat} →" in what
    assert preview.startswith("Отмена вернёт: " + what[len("Отменено: "):-1])
    assert state() == night                               # back in the night, one step
    # the night's own bot move, made when the game opened, goes as one step too
    what = h.undo(gid, "en").message
    assert what.startswith("Undone: the bots' moves sent when the phase opened: the move Анна")
    _, g = h.load(gid)
    assert not [e for e in g.events if e.type == "action"]
    with pytest.raises(Exception, match="Nothing to undo"):
        h.undo(gid, "en")
    # a player's own command after the bots' moves is undone alone, as always
    h.resolve(gid)
    _, g = h.load(gid)
    human = next(p.name for p in g.state.order if p.alive and p.name not in
                 ("Анна", "Глеб", "Дина") and p.name not in g.state.votes)
    h.vote(gid, human, "abstain")
    assert h.undo(gid, "ru").data["commands"] == 1
    assert h.undo(gid, "ru").data["commands"] > 1
