"""The PettingZoo environment: PettingZoo's own tests for every rule set, the action
encoding, observations made only of what the seat was told, rewards by faction."""

from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from mafiahost.agents import env as make_env  # noqa: E402
from mafiahost.agents.codec import Codec  # noqa: E402
from mafiahost.agents.env import raw_env  # noqa: E402
from mafiahost.rules import available, load  # noqa: E402

RULESETS = available()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_api_and_seed(ruleset):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # style hints (agent names, dict observations)
        api_test(make_env(ruleset=ruleset, players=12, seed=3), num_cycles=400)
        seed_test(lambda: make_env(ruleset=ruleset, players=12), num_cycles=400)


def test_env_callable_after_the_module_is_imported():
    """``mafiahost.agents.env(...)`` makes an environment even after ``mafiahost.agents.env``
    (the module) was imported, which makes the package's attribute the module."""
    import mafiahost.agents
    import mafiahost.agents.env as module
    assert mafiahost.agents.env is module
    e = mafiahost.agents.env(ruleset="vanilla", players=5, seed=1)
    e.reset()
    assert e.agents == ["Анна", "Борис", "Вера", "Глеб", "Дина"]


def _live_turns(e):
    """The seat whose turn it is, one a turn, until the game ends (a done agent's step is
    taken here): the caller observes and steps for each."""
    while e.agents:
        a = e.agent_selection
        if e.terminations[a] or e.truncations[a]:
            e.step(None)
            continue
        yield a


def _random_game(e, seed):
    rng = random.Random(seed)
    e.reset(seed=seed)
    steps = []
    for a in _live_turns(e):
        mask = e.observe(a)["action_mask"]
        legal = mask.nonzero()[0]
        act = int(legal[int(rng.random() * len(legal))])
        steps.append((a, act))
        e.step(act)
    return steps


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_move_kind_has_actions_and_round_trips(ruleset):
    rules = load(ruleset)
    seats = [f"S{i}" for i in range(9)]
    c = Codec(rules, seats)
    for ab in rules.abilities.values():
        assert (ab.id, ab.targets) in c.block_of, ab.key
        ts = tuple(seats[:ab.targets])
        assert c.decode(c.move(ab.id, ts)) == ("move", ab.id, ts)
    for t in seats + ["against_all", "abstain"]:
        assert c.decode(c.vote(t)) == ("vote", t)
    assert c.decode(0) == ("pass",)
    with pytest.raises(ValueError):
        c.decode(c.size)


@pytest.mark.parametrize("ruleset", available())
def test_mask_is_the_engines_legal_moves(ruleset):
    """The mask (made from ``Game.legal_move_groups``) is ``Game.legal_moves`` encoded
    move by move, at every turn of whole games."""
    from mafiahost.agents.codec import open_questions

    e = raw_env(ruleset=ruleset, players=10)
    rng = random.Random(5)
    e.reset(seed=5)
    seen = 0
    while e.agents and seen < 400:
        a = e.agent_selection
        if e.terminations[a] or e.truncations[a]:
            e.step(None)
            continue
        mask = e.observe(a)["action_mask"]
        g = e.game
        want = set(e.codec.moves(g.legal_moves(a), open_questions(g.state, a)))
        if a not in e.voted:
            want |= {e.codec.vote(t) for t in e.legal_of(a)[1]}
        assert set(mask.nonzero()[0]) - {0} == want
        legal = mask.nonzero()[0]
        e.step(int(legal[int(rng.random() * len(legal))]))
        seen += 1


@pytest.mark.parametrize("ruleset", ["gemini", "singapore", "vanilla"])
def test_an_agent_writing_into_its_mask_changes_nothing(ruleset):
    """Each observation's mask is the agent's own array: writing into it changes neither
    the next observation's mask nor what the step accepts (the array is made over its own
    copy of the mask's bytes; the step checks the immutable bytes it keeps)."""
    e = raw_env(ruleset=ruleset, players=12)
    e.reset(seed=2)
    checked = 0
    for _ in range(300):
        if not e.agents:
            break
        a = e.agent_selection
        if e.terminations[a] or e.truncations[a]:
            e.step(None)
            continue
        first = e.observe(a)["action_mask"]
        want = first.copy()
        illegal = [int(i) for i in (want == 0).nonzero()[0]]
        first[:] = 1                                # the agent scribbles on its mask
        again = e.observe(a)["action_mask"]
        assert (again == want).all()
        if illegal:
            e.step(illegal[0])                      # still refused: taken as a pass
            assert e.infos[a].get("refused")
            checked += 1
        else:
            e.step(0)
    assert checked > 10


def test_two_target_moves_are_encoded():
    rules = load("niichavo")
    two = [ab for ab in rules.abilities.values() if ab.targets == 2]
    assert two
    c = Codec(rules, ["A", "B", "C"])
    ab = two[0]
    codes = {c.move(ab.id, (x, y)) for x in "ABC" for y in "ABC"}
    assert len(codes) == 9


def test_rewards_by_faction_at_the_end():
    e = raw_env(ruleset="vanilla", players=7)
    for seed in range(5):
        totals = {a: 0 for a in e.possible_agents}
        rng = random.Random(seed)
        e.reset(seed=seed)
        while e.agents:
            a = e.agent_selection
            obs, r, term, trunc, _ = e.last()
            totals[a] += r
            if term or trunc:
                e.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[int(rng.random() * len(legal))]))
        st = e.game.state
        assert st.over
        for a in e.possible_agents:
            p = st.players[a]
            assert totals[a] == (1 if p.faction in st.winners else -1), (a, p.faction)


def test_observations_differ_only_by_what_the_seat_was_told():
    """Two seats see the same public events; a seat's vector has only its own role."""
    e = raw_env(ruleset="vanilla", players=7)
    e.reset(seed=1)
    g = e.game
    L = e.layout
    for a in e.possible_agents:
        v = e.observe(a)["observation"]
        p = g.state.players[a]
        roles = v[L["role"]:L["role"] + len(e.role_index)]
        assert roles.sum() == 1 and roles[e.role_index[p.role]] == 1
        kr = v[L["known_role"]:L["known_role"] + len(e.possible_agents) * len(e.role_index)]
        kr = kr.reshape(len(e.possible_agents), len(e.role_index))
        for j, b in enumerate(e.possible_agents):
            if b != a:
                assert kr[j].sum() == 0       # nobody's role is known at the start
        kf = v[L["known_faction"]:L["known_faction"] + len(e.possible_agents)
               * len(e.faction_index)].reshape(len(e.possible_agents), -1)
        mates = {b for j, b in enumerate(e.possible_agents) if kf[j].sum()}
        if p.faction == "mafia":
            assert mates == {q.name for q in g.state.order if q.faction == "mafia"}
        else:
            assert mates == set()


def test_the_json_observation_is_the_api_one():
    e = raw_env(ruleset="gemini", players=10)
    e.reset(seed=2)
    a = e.agent_selection
    obs = e.observe_json(a)
    assert obs["schema"] == "mafiahost.observation/1"
    assert obs["seat"] == a
    assert all(ev["audience"] in ("public", "private") for ev in obs["events"])


def test_role_naming_moves_and_answers_have_actions():
    """A move that names a role (``names_role``) takes its seats and a role; answers to
    questions are numbered by position among the seat's open questions."""
    from types import SimpleNamespace as NS

    from mafiahost.agents.codec import ANSWER_OPTIONS, ANSWER_SLOTS
    rules = NS(roles={"boss": 0, "cop": 0, "doctor": 0},
               abilities={"cop.name": NS(id="name", targets=1, names_role=True),
                          "cop.shoot": NS(id="shoot", targets=1)})
    c = Codec(rules, ["A", "B", "C"])
    m = c.move("name", ("B", "doctor"))
    assert c.decode(m) == ("move", "name", ("B", "doctor"))
    assert len({c.move("name", (s, r)) for s in "ABC" for r in rules.roles}) == 9
    qs = [{"id": 7, "to": "A", "options": [["yes", "да", "yes"], ["no", "нет", "no"]]},
          {"id": 9, "to": "A", "options": [["clan_a", "", ""], ["clan_b", "", ""]]}]
    codes = c.moves([("answer", ("9", "clan_b")), ("answer", ("7", "yes"))], qs)
    assert [c.decode(x, qs) for x in codes] == [("move", "answer", ("9", "clan_b")),
                                                 ("move", "answer", ("7", "yes"))]
    assert c.decode(codes[0], []) == ("pass",)            # the question is gone
    assert c.size == c.answer_offset + ANSWER_SLOTS * ANSWER_OPTIONS


@pytest.mark.parametrize("ruleset", ["classic", "niichavo", "singapore", "odessa"])
def test_the_vector_kept_step_by_step_is_the_one_made_from_the_whole_log(ruleset):
    """Each seat's vector is updated from the new events only (and only when it is
    observed); it must equal the vector made in one pass over everything the seat was
    told, for the seat whose turn it is and for others that have not looked for a while."""
    import numpy as np
    e = raw_env(ruleset=ruleset, players=12)
    rng = random.Random(4)
    checked = 0
    for seed in (1, 2):
        e.reset(seed=seed)
        step = 0
        for a in _live_turns(e):
            obs = e.observe(a)
            assert np.array_equal(obs["observation"], e.vector_from_scratch(a))
            if step % 7 == 0:
                b = e.possible_agents[step % len(e.possible_agents)]
                assert np.array_equal(e.observe(b)["observation"], e.vector_from_scratch(b))
            checked += 1
            step += 1
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[int(rng.random() * len(legal))]))
    assert checked > 50


def test_the_phase_and_number_positions_read_the_game_now():
    """The phase's two positions and the day number's (``min(number / MAX_NUMBER, 1)``) are
    the game's at every turn, through two games on one environment (the board keeps each
    number's bytes once made: a game's numbers must not be read from another's)."""
    import numpy as np

    from mafiahost.agents.env import MAX_NUMBER
    e = raw_env(ruleset="classic", players=12)
    L = e.layout
    rng = random.Random(5)
    numbers = set()
    for seed in (3, 4):
        e.reset(seed=seed)
        for a in _live_turns(e):
            st = e.game.state
            obs = e.observe(a)
            vec = obs["observation"]
            assert vec[L["number"]] == np.float32(min(st.number / MAX_NUMBER, 1.0))
            assert (vec[L["phase"]], vec[L["phase"] + 1]) == (
                (1.0, 0.0) if st.phase == "night" else (0.0, 1.0))
            numbers.add(st.number)
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[int(rng.random() * len(legal))]))
    assert len(numbers) >= 3


def test_singapore_role_naming_moves_and_answers_are_played_through_the_env():
    """In real seeded singapore games (20 seats: a witness, a thief or a drunk may become the
    maniac, who names his victim's role; recruiters invite and the witch is asked to lift
    her curse: questions put to players), random agents take a role-naming action and an
    answer action, and the engine accepts both: the maniac's move carries the role named,
    the answer is the player's own."""
    e = raw_env(ruleset="singapore", players=20)
    naming = {k for k, ab in e.rules.abilities.items() if ab.names_role}
    named = answered = 0
    for seed in range(40):
        rng = random.Random(seed)
        e.reset(seed=seed)
        for a in _live_turns(e):
            mask = e.observe(a)["action_mask"]
            legal = mask.nonzero()[0]
            answers = [x for x in legal if x >= e.codec.answer_offset]
            # prefer an answer when one is open, so that the player's own answer is seen
            act = int(answers[0] if answers and rng.random() < 0.5
                      else legal[int(rng.random() * len(legal))])
            g = e.game
            n0 = len(g.events)
            kind = e.codec.decode(act, codec_questions(g, a))
            e.step(act)
            new = g.events[n0:]
            assert "refused" not in e.infos.get(a, {}), e.infos[a]
            if kind[0] == "move" and kind[1] == "answer":
                ev = next(x for x in new if x.type == "question_answered")
                assert ev.data["by"] == "player" and ev.data["to"] == a
                assert (str(ev.data["id"]), ev.data["answer"]) == kind[2]
                answered += 1
            elif kind[0] == "move" and f"{g.state.players[a].role}.{kind[1]}" in naming:
                ev = next(x for x in new if x.type == "action")
                assert ev.data["actor"] == a and ev.data["role"] == kind[2][-1]
                assert ev.data["targets"] == list(kind[2][:-1])
                named += 1
        if named >= 3 and answered >= 3:
            break
    assert named >= 3 and answered >= 3, (named, answered)


def codec_questions(g, seat):
    from mafiahost.agents.codec import open_questions
    return open_questions(g.state, seat)


@pytest.mark.parametrize("ruleset", available())
def test_has_something_is_the_legal_lists_answer(ruleset):
    """``Core.has_something`` (which answers "nothing" without the legal lists for a dead
    seat without a move for the dead, and for a seat without votes whose abilities' slots
    are all filled) agrees, for every seat at every turn of a game, with the legal lists
    themselves: some legal move, or a vote the seat has not cast."""
    from mafiahost.agents.core import random_action
    from mafiahost.engine.day import legal_votes

    e = raw_env(ruleset=ruleset, players=12)
    e.reset(seed=6)
    rng = random.Random(6)
    turns = nothing = 0
    while e.agents and turns < 250:
        a = e.agent_selection
        if e.terminations[a] or e.truncations[a]:
            e.step(None)
            continue
        action = random_action(e.observe(a), rng)
        g = e.game
        for seat in e.possible_agents:
            p = g.state.players[seat]
            want = bool(g.legal_move_groups(seat)) or (
                seat not in e.voted and bool(legal_votes(g, p)))
            assert e.core.has_something(seat) == want, (turns, seat)
            nothing += not want
        e.step(action)
        turns += 1
    assert turns > 20 and nothing > 0
