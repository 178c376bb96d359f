"""The player API: a program plays a game through it alone; the same checks and refusals as
the pages; schemathesis against its OpenAPI description."""

from __future__ import annotations

import random

import pytest
from test_web_support import client, make_app

from mafiahost.agents.hidden import violations

PLAYERS = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя"]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("api") / "games.db")
    app, host = make_app(db)
    gid = host.new_game("gemini", PLAYERS, seed=12345).game_id
    links = host.links(gid)
    return {"app": app, "host": host, "gid": gid, "links": links, "db": db}


def test_a_program_plays_a_whole_game_through_the_api(world, tmp_path):
    app, host = make_app(str(tmp_path / "g.db"))
    gid = host.new_game("classic", PLAYERS, seed=99).game_id
    links = host.links(gid)
    c = client(app)
    rng = random.Random(1)
    for _ in range(60):
        row, g = host.load(gid)
        if g.state.over:
            break
        for seat, tok in links.items():
            r = c.get(f"/api/p/{tok}")
            assert r.status_code == 200
            obs = r.json()
            assert obs["seat"] == seat and obs["schema"] == "mafiahost.observation/1"
            _, g = host.load(gid)
            assert violations(g, seat, obs) == []
            for m in obs["legal"]["moves"][:0] or (
                    [rng.choice(obs["legal"]["moves"])] if obs["legal"]["moves"] else []):
                r = c.post(f"/api/p/{tok}/act", json={"ability": m["ability"],
                                                      "targets": m["targets"]})
                assert r.status_code in (200, 409), r.text   # 409: a teammate shot first
                if r.status_code == 200:
                    assert r.json()["ok"] is True
                    said = r.json()["message"]            # the host's answer, ru and en
                    assert said["ru"].startswith("Ход принят: ")
                    assert said["en"].startswith("Move recorded: ")
                    assert m["label"]["ru"] in said["ru"]        # the move in words
                    assert m["label"]["en"] in said["en"]
            if obs["legal"]["votes"]:
                v = rng.choice(obs["legal"]["votes"])
                r = c.post("/api/me/vote", json={"target": v["target"]},
                           headers={"authorization": f"Bearer {tok}"})
                assert r.status_code == 200, r.text
                assert r.json()["observation"]["sent"]["vote"] == v["target"]
                said = r.json()["message"]
                assert said["ru"].startswith("Голос: ") and said["en"].startswith("Vote: ")
        host.resolve(gid)
    _, g = host.load(gid)
    assert g.state.over
    # the moves and votes were recorded as the players' own commands
    log = "\n".join(host.log(gid, ids=True))     # the raw log: command kinds
    assert "vote" in log and "act" in log


def test_refusals_are_the_rules_sentences_and_change_nothing(world):
    app, host, gid, links = world["app"], world["host"], world["gid"], world["links"]
    c = client(app)
    _, g = host.load(gid)
    seat = next(p.name for p in g.state.order if p.role == "civilian")
    tok = links[seat]
    n0 = len(host.load(gid)[1].events)
    r = c.post(f"/api/p/{tok}/act", json={"ability": "kill", "targets": ["Анна"]})
    assert r.status_code == 409
    err = r.json()["error"]
    assert err["ru"] and err["en"] and "kill" not in err["ru"].split("«")[0]
    r = c.post(f"/api/p/{tok}/vote", json={"target": "Анна"})       # night: no votes
    assert r.status_code == 409 and "днём" in r.json()["error"]["ru"]
    # a name with a letter that has no Unicode name (Tangut; its Latin A folds to а):
    # once a server error from the name reader, found by schemathesis
    r = c.post(f"/api/p/{tok}/vote", json={"target": "\U00017000A"})
    assert r.status_code == 409 and r.json()["error"]["ru"]
    assert len(host.load(gid)[1].events) == n0


def test_bad_requests(world):
    app, links = world["app"], world["links"]
    c = client(app)
    tok = next(iter(links.values()))
    assert c.get("/api/p/" + "x" * 32).status_code == 404
    assert c.get("/api/p/bad").status_code == 404
    assert c.get("/api/me").status_code == 401
    assert c.get("/api/me", headers={"authorization": "Bearer " + "x" * 32}).status_code == 401
    assert c.get("/api/me", headers={"authorization": f"Bearer {tok}"}).status_code == 200
    r = c.post(f"/api/p/{tok}/act", data={"ability": "kill"})      # a form: not JSON
    assert r.status_code == 415
    r = c.post(f"/api/p/{tok}/act", content=b"{nope", headers={"content-type":
                                                                "application/json"})
    assert r.status_code == 400
    assert c.post(f"/api/p/{tok}/act", json=[1]).status_code == 422
    assert c.post(f"/api/p/{tok}/act", json={"ability": 3}).status_code == 422
    assert c.post(f"/api/p/{tok}/act", json={"ability": "kill",
                                             "targets": "Анна"}).status_code == 422
    r = c.post(f"/api/p/{tok}/act", json={"ability": "kill", "targets": ["Анна"]},
               headers={"origin": "https://evil.example"})
    assert r.status_code == 403
    for r in (c.get("/api/p/" + "x" * 32), c.get("/api/me")):
        assert "Traceback" not in r.text


def test_the_observation_is_the_seats_own(world):
    app, host, gid, links = world["app"], world["host"], world["gid"], world["links"]
    c = client(app)
    _, g = host.load(gid)
    for seat, tok in links.items():
        obs = c.get(f"/api/p/{tok}").json()
        assert obs["role"]["id"] == g.state.players[seat].role
        assert violations(g, seat, obs) == []
        others = [t for s, t in links.items() if s != seat]
        assert not any(t in c.get(f"/api/p/{tok}").text for t in others)


# ---- schemathesis ---------------------------------------------------------------------------

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance,
          content_type_conformance]


def _fuzz(app, token=None, examples=30, statuses=None):
    """schemathesis generates requests from the served description, operation by
    operation (through its Python API; its pytest plugin does not run on pytest 9), and
    checks every answer: no server error, status, content type and body as described."""
    from hypothesis import given
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", app)
    ran = []
    for result in schema.get_all_operations():
        op = result.ok()

        @given(case=op.as_strategy())
        @settings(max_examples=examples, deadline=None,
                  suppress_health_check=list(HealthCheck), database=None)
        def run(case):
            headers = None
            if token is not None:
                if case.path_parameters and "token" in case.path_parameters:
                    case.path_parameters["token"] = token
                headers = {"authorization": f"Bearer {token}"}
            r = case.call_and_validate(headers=headers, checks=CHECKS)
            if statuses is not None:
                statuses.add((case.operation.label, r.status_code))
        run()
        ran.append(op.label)
    return ran


def test_schemathesis_with_made_up_tokens(world):
    """Whatever schemathesis sends: no server error, every answer as described."""
    # every operation but the description itself (schemathesis leaves that one out)
    assert len(_fuzz(world["app"])) == 6


def test_schemathesis_with_a_real_seat(world):
    """The same with a real seat's token, in the path or as the bearer header, so moves
    and votes reach the rules (and are refused or taken)."""
    seen: set = set()
    assert len(_fuzz(world["app"], world["links"]["Вера"], statuses=seen)) == 6
    assert ("GET /api/me", 200) in seen and ("GET /api/p/{token}", 200) in seen
    # moves with a real token reach the rules: refused by them (409) or malformed (422)
    assert {s for lab, s in seen if lab.endswith("/act")} & {409, 422}


def _singapore_recruit(host, bots=None):
    """A 20-seat singapore game where a recruiter invites a civilian on night 1: at dawn
    the civilian is asked whether he joins the clan (a question put to a player)."""
    from mafiahost.sim import NAMES
    gid = host.new_game("singapore", NAMES[:20], seed=3, bots=bots).game_id
    _, g = host.load(gid)
    roles = {p.name: p.role for p in g.state.order}
    assert roles["Пётр"] == "recruiter_a" and roles["Иван"] == "civilian"
    host.act(gid, "Пётр", "recruit", ["Иван"])
    return gid


def test_an_answer_to_a_question_is_sent_through_the_api(tmp_path):
    """The observation lists the answer as a legal move (labelled in the question's own
    words, no ids); the program sends it as listed and the engine takes it."""
    app, host = make_app(str(tmp_path / "g.db"))
    gid = _singapore_recruit(host)
    host.resolve(gid)
    c = client(app)
    links = host.links(gid)
    tok = links["Иван"]
    obs = c.get(f"/api/p/{tok}").json()
    answers = [m for m in obs["legal"]["moves"] if m["ability"] == "answer"]
    assert [m["targets"] for m in answers] == [["1", "join"], ["1", "refuse"]]
    assert answers[0]["label"] == {"ru": "Ответ на вопрос №1: вступить в клан",
                                   "en": "Answer to question #1: join the clan"}
    _, g = host.load(gid)
    assert violations(g, "Иван", obs) == []
    # the hidden-information check: another seat offered Иван's answer is a leak
    other = c.get(f"/api/p/{links['Фёдор']}").json()
    assert violations(g, "Фёдор", other) == []
    other["legal"]["moves"].append(answers[0])
    assert "an answer to a question not open to the seat" in violations(g, "Фёдор", other)
    r = c.post(f"/api/p/{tok}/act", json={"ability": "answer", "targets": ["1", "join"]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["message"]["ru"] == "Ответ принят: Иван, вопрос №1 — вступить в клан."
    assert body["message"]["en"] == "Answer recorded: Иван, question #1 — join the clan."
    assert body["observation"]["role"]["id"] == "apprentice_a"      # he joined the clan
    assert not [m for m in body["observation"]["legal"]["moves"] if m["ability"] == "answer"]
    r = c.post(f"/api/p/{tok}/act", json={"ability": "answer", "targets": ["1", "join"]})
    assert r.status_code == 409 and "№1" in r.json()["error"]["ru"]   # no longer open
    assert "ответ Иван на вопрос №1: вступить в клан" in host.undo(gid, "ru").message


def test_a_bot_answers_a_question_put_to_it(tmp_path):
    app, host = make_app(str(tmp_path / "g.db"))
    gid = _singapore_recruit(host, bots={"Иван": "random"})
    done = host.resolve(gid)
    assert any(x.startswith("Ответ принят: Иван, вопрос №1") for x in done.data["bots"])
    _, g = host.load(gid)
    ev = [e for e in g.events if e.type == "question_answered"]
    assert len(ev) == 1 and ev[0].data["by"] == "player" and ev[0].data["to"] == "Иван"
    assert "ответ Иван на вопрос №1" in host.undo(gid, "ru", dry_run=True).message
