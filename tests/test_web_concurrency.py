"""Many players at once, against the live server (``mafiahost serve`` in its own process):
twenty players send their moves in the same instant (threads released by one barrier),
each twice (a double click), on SQLite and on PostgreSQL, and with two app processes on
one PostgreSQL database. No move is lost, none is stored twice, every acknowledged move is
in the database, and each player's second copy is refused with the rule's sentence."""

from __future__ import annotations

import http.client
import json
import re
import threading
import urllib.parse

import pytest
from test_host_support import drop_pg, pg_url
from test_web_support import Server

from mafiahost.engine.game import Game
from mafiahost.host import Host
from mafiahost.store import open_store

NAMES20 = [f"Игрок{i:02d}" for i in range(1, 21)]


def _csrf(base: str, path: str) -> str:
    u = urllib.parse.urlsplit(base)
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    c.request("GET", path)
    html = c.getresponse().read().decode()
    c.close()
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


def _post(base: str, path: str, fields: list[tuple[str, str]]) -> tuple[int, dict]:
    u = urllib.parse.urlsplit(base)
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
    body = urllib.parse.urlencode(fields)
    c.request("POST", path, body, {"content-type": "application/x-www-form-urlencoded",
                                   "accept": "application/json"})
    r = c.getresponse()
    data = json.loads(r.read() or b"{}")
    c.close()
    return r.status, data


def plan(host: Host, gid: int) -> dict[str, tuple[str, list[str]]]:
    """One move per player who has one, each legal whatever the order they arrive in
    (chosen in turn on a copy, so two members never both take the faction's one shot)."""
    row, g = host.load(gid)
    g = Game.replay(g.rules, list(g.events))
    first = {n: set(g.legal_moves(n)) for n in NAMES20}   # legal before any other move
    out = {}
    for name in NAMES20:
        moves = [m for m in g.legal_moves(name) if m in first[name]]
        if moves:
            ab, ts = moves[len(moves) // 2]
            g.submit(name, ab, ts)
            out[name] = (ab, list(ts))
    return out


def storm(urls: list[str], links: dict, jobs: dict) -> dict:
    """Every job twice at the same instant; returns {(name, copy): (status, data)}."""
    csrf = {n: _csrf(urls[i % len(urls)], f"/p/{links[n]}") for i, n in enumerate(jobs)}
    start = threading.Barrier(2 * len(jobs))
    out = {}

    def run(i, name, copy):
        path, fields = jobs[name]
        base = urls[(i + copy) % len(urls)]
        start.wait()
        out[(name, copy)] = _post(base, f"/p/{links[name]}/{path}",
                                  [("csrf", csrf[name]), *fields])

    threads = [threading.Thread(target=run, args=(i, n, k))
               for i, n in enumerate(jobs) for k in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return out


def check_night(host: Host, gid: int, moves: dict, res: dict) -> None:
    _, g = Host(store=host.store).load(gid)      # a fresh cache: straight from the database
    acts = [e for e in g.events if e.type == "action" and e.phase == "night 1"]
    by = {}
    for e in acts:
        by.setdefault(e.data["actor"], []).append((e.data["ability"], e.data["targets"]))
    for name, (ab, ts) in moves.items():
        codes = sorted(res[(name, k)][0] for k in (0, 1))
        assert codes == [200, 409], (name, res[(name, 0)], res[(name, 1)])
        refused = next(res[(name, k)][1] for k in (0, 1) if res[(name, k)][0] == 409)
        assert "уже" in refused["error"], refused          # the rule: one move a night
        assert by.get(name) == [(ab, ts)], (name, by.get(name))   # stored once
    assert set(by) == set(moves)
    # the events are one unbroken sequence: no command wrote over another's positions
    assert len(g.events) == len({id(e) for e in g.events})


def check_votes(host: Host, gid: int, voters: list[str], target: str, res: dict) -> None:
    _, g = Host(store=host.store).load(gid)
    for v in voters:
        assert any(res[(v, k)][0] == 200 for k in (0, 1)), (v, res[(v, 0)], res[(v, 1)])
    assert {v: g.state.votes.get(v) for v in voters} == {v: target for v in voters}
    votes = [e for e in g.events if e.type == "vote"]
    acked = sum(1 for k, (code, _) in res.items() if code == 200)
    assert len(votes) == acked        # every acknowledged vote is stored, and only those


def _game(host: Host) -> tuple[int, dict]:
    gid = host.new_game("classic", NAMES20, seed=20_240_501).game_id
    return gid, host.links(gid)


def play(urls: list[str], db: str) -> None:
    """A 20-player ``classic`` game: every player with a night move sends it at once (16
    of the 20 can: the others have no night move, share their faction's one shot, or act
    only after another's move);
    then, in a second game whose first night passed quietly, all twenty vote at once."""
    host = Host(store=open_store(db, wal=True))
    gid, links = _game(host)
    moves = plan(host, gid)
    assert len(moves) >= 16
    jobs = {n: ("act", [("ability", ab)] + [("target", t) for t in ts])
            for n, (ab, ts) in moves.items()}
    res = storm(urls, links, jobs)
    check_night(host, gid, moves, res)
    gid2, links2 = _game(host)
    host.resolve(gid2)
    _, g = host.load(gid2)
    alive = [p.name for p in g.state.order if p.alive]
    assert len(alive) == 20
    target = alive[0]
    res = storm(urls, links2, {n: ("vote", [("target", target)]) for n in alive})
    check_votes(host, gid2, alive, target, res)


def test_twenty_players_at_once_on_sqlite(tmp_path):
    db = str(tmp_path / "games.db")
    open_store(db, wal=True)
    with Server(db) as srv:
        play([srv.url], db)


def test_twenty_players_at_once_on_postgresql():
    url = pg_url()
    try:
        with Server(url) as srv:
            play([srv.url], url)
    finally:
        drop_pg(url)


def test_two_app_processes_on_one_postgresql_database():
    """Moves alternate between two processes (each with its own game cache): each must
    see the other's commits (the revision check inside the transaction), so nothing is
    lost, doubled or written on top of another command."""
    url = pg_url()
    try:
        with Server(url) as a, Server(url) as b:
            play([a.url, b.url], url)
            # one game driven move by move, alternating processes: every command must
            # start from the other process's last commit
            host = Host(store=open_store(url))
            gid, links = _game(host)
            moves = plan(host, gid)
            for i, (name, (ab, ts)) in enumerate(moves.items()):
                base = (a.url, b.url)[i % 2]
                csrf = _csrf(base, f"/p/{links[name]}")
                code, data = _post(base, f"/p/{links[name]}/act",
                                   [("csrf", csrf), ("ability", ab),
                                    *[("target", t) for t in ts]])
                assert code == 200, data
            _, g = Host(store=host.store).load(gid)
            assert [e.data["actor"] for e in g.events if e.type == "action"] == list(moves)
            # and both show the same page to a player afterwards
            first = next(iter(moves))
            pages = []
            for base in (a.url, b.url):
                u = urllib.parse.urlsplit(base)
                c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
                c.request("GET", f"/p/{links[first]}")
                html = c.getresponse().read().decode()
                pages.append(re.sub(r'value="[0-9a-f]{40}"', "", html))
            assert pages[0] == pages[1]
    finally:
        drop_pg(url)


@pytest.mark.parametrize("n", [3])
def test_cache_survives_rolled_back_commands(tmp_path, n):
    """A refused command leaves the cache usable and correct; a command from another
    Host (another process) is seen by the revision check."""
    db = str(tmp_path / "g.db")
    h1 = Host(store=open_store(db, wal=True))
    h2 = Host(store=open_store(db, wal=True))        # same store, separate cache
    gid, _ = _game(h1)
    moves = list(plan(h1, gid).items())
    for i, (name, (ab, ts)) in enumerate(moves[:n * 2]):
        (h1, h2)[i % 2].act(gid, name, ab, ts)
        with pytest.raises(Exception, match="уже"):
            (h2, h1)[i % 2].act(gid, name, ab, ts)
    for h in (h1, h2):
        with h.reading(gid) as (_row, g):
            acts = [e.data["actor"] for e in g.events if e.type == "action"]
        assert acts == [m[0] for m in moves[:n * 2]]
    assert h1.cache.hits > 0 and h2.cache.hits > 0
