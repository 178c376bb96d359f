"""Every scenario under scenarios/ passes, and the runner really can fail."""

from pathlib import Path

import pytest
import yaml

from mafiahost.scenario import collect, load_scenario, play, run_file

ROOT = Path(__file__).resolve().parents[1]
FILES = collect([ROOT / "scenarios"])


def test_there_are_scenarios_for_each_ruleset():
    for rs in ("classic", "gemini", "vanilla", "niichavo", "atlantis", "odessa", "musketeers",
               "antem", "indians", "osiris"):
        assert any(f.parent.name == rs for f in FILES), rs


@pytest.mark.parametrize("path", FILES, ids=[f"{f.parent.name}/{f.name}" for f in FILES])
def test_scenario(path):
    rep = run_file(path)
    assert rep.ok, "\n".join([rep.error or ""] + rep.failures)


def _vanilla(expect_eliminated):
    return {
        "ruleset": "vanilla",
        "players": {"Анна": "mafioso", "Борис": "civilian", "Вера": "civilian",
                    "Глеб": "civilian", "Дина": "civilian"},
        "script": [{"night": 1, "actions": [["Анна", "kill", "Борис"]],
                    "expect": {"eliminated": expect_eliminated}}],
    }


def test_runner_reports_a_wrong_expectation():
    assert play(_vanilla(["Борис"])).ok
    rep = play(_vanilla([]))
    assert not rep.ok
    assert "eliminated" in rep.failures[0] and "Борис" in rep.failures[0]


def test_runner_reports_an_unexpected_refusal_and_an_unexpected_acceptance():
    data = _vanilla(["Борис"])
    data["script"][0]["actions"].append(["Борис", "kill", "Вера"])
    rep = play(data)
    assert any("was refused" in f for f in rep.failures)
    data = _vanilla(["Борис"])
    data["script"][0]["actions"] = [{"act": ["Анна", "kill", "Борис"], "rejected": "нельзя"}]
    rep = play(data)
    assert any("should have been refused" in f for f in rep.failures)


def test_malformed_scenario_file_is_named(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: vanilla\nplayers: {A: civilian}\nscript: []\nbogus: 1\n")
    rep = run_file(bad)
    assert rep.error and "bogus" in rep.error and "allowed" in rep.error
    bad.write_text("ruleset: vanilla\nplayers: [A]\nscript: []\n")
    assert "players" in run_file(bad).error
    bad.write_text("ruleset: vanilla\nplayers: {A: civilian}\nscript:\n - night: 1\n   foo: 2\n")
    assert "foo" in run_file(bad).error
    bad.write_text(": : :\n")
    assert "YAML" in run_file(bad).error


def test_unknown_role_in_scenario_is_a_clear_error(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(yaml.safe_dump({"ruleset": "vanilla", "players": {"A": "wizard", "B": "mafioso"},
                                 "script": []}, allow_unicode=True))
    rep = run_file(f)
    assert "wizard" in rep.error and "mafioso" in rep.error


def test_scenario_files_load():
    for f in FILES:
        load_scenario(f)


# ---- the scenario format without traps (issue 8) ---------------------------------------

_INDIANS = {"Анна": "commissar", "Борис": "peace_boss", "Дина": "war_boss", "Иван": "civilian",
            "Кира": "civilian", "Лев": "civilian", "Мила": "civilian", "Олег": "civilian"}


def _hunt(rolls):
    return {"ruleset": "indians", "players": dict(_INDIANS), "script": [
        {"night": 1}, {"day": 1}, {"night": 2},
        {"day": 2, "rolls": rolls, "actions": [["Иван", "hunt"]],
         "expect": {"events": [{"type": "hunt", "player": "Иван", "roll": 1}]}}]}


def test_a_forced_roll_must_be_one_of_the_outcomes():
    assert play(_hunt([1])).ok
    rep = play(_hunt([True]))          # true == 1 in Python: it must not pass for a d6's 1
    assert rep.error and "rolls" in rep.error and "1, 2, 3, 4, 5, 6" in rep.error
    rep = play(_hunt(["Анна"]))
    assert rep.error and "not one of" in rep.error


def _musketeers(night1_rolls, day1_rolls=(), night2_rolls=()):
    players = {"Анна": "officer", "Борис": "boss", "Вера": "intriguer", "Глеб": "healer",
               "Дина": "maniac", "Егор": "catcher", "Жанна": "alphonse", "Зоя": "bodyguard",
               "Иван": "mafioso", "Кира": "civilian", "Лев": "civilian", "Мила": "civilian"}
    return {"ruleset": "musketeers", "seed": 5, "players": players, "script": [
        {"night": 1, "rolls": list(night1_rolls), "actions": [],
         "expect": {"events": [{"type": "roll", "why": "elder", "result": "Мила"}]}},
        {"day": 1, "rolls": list(day1_rolls),
         "excused": [n for n in players]},
        {"night": 2, "rolls": list(night2_rolls), "actions": []}]}


def _question_rolls(rep, night):
    return [e.data["result"] for e in rep.game.events
            if e.type == "roll" and e.data["why"] == "question" and e.phase == f"night {night}"]


def test_phase_opening_rolls_can_be_forced_in_the_phase_that_opens():
    # night 1's question is rolled when the game is created: a keyed roll in night 1 forces it
    rep = play(_musketeers([{"question": "Лев"}, "Мила"]))
    assert rep.ok, rep.failures
    assert _question_rolls(rep, 1) == ["Лев"]
    # a plain forced roll keeps meaning "the phase's next roll" (the Elder), as before
    rep = play(_musketeers(["Мила"]))
    assert rep.ok and _question_rolls(rep, 1) == ["Кира"]      # the seed's pick
    # night 2's question: keyed in night 2, or (as files always did) left over by day 1
    assert _question_rolls(play(_musketeers(["Мила"], night2_rolls=[{"question": "Зоя"}])),
                           2) == ["Зоя"]
    assert _question_rolls(play(_musketeers(["Мила"], day1_rolls=["Глеб"])), 2) == ["Глеб"]
    # both given: the phase that opens wins
    rep = play(_musketeers(["Мила"], day1_rolls=["Глеб"], night2_rolls=[{"question": "Зоя"}]))
    assert _question_rolls(rep, 2) == ["Зоя"]


def test_phase_opening_events_can_be_expected_in_either_phase():
    data = _musketeers(["Мила"], night2_rolls=[{"question": "Лев"}])
    want = {"type": "question_granted", "to": "Лев"}
    data["script"][2]["expect"] = {"events": [want]}          # the phase that opens
    assert play(data).ok
    data["script"][1]["expect"] = {"events": [want]}          # the phase before, as before
    assert play(data).ok
    data["script"][2]["expect"] = {"events": [{"type": "question_granted", "to": "Зоя"}]}
    assert not play(data).ok


def test_absent_and_excused_name_living_players():
    players = {"Анна": "doctor", "Борис": "black_doctor", "Вера": "boss", "Глеб": "civilian",
               "Дина": "civilian", "Егор": "civilian"}
    for key in ("excused", "absent"):
        def data(names, key=key):
            return {"ruleset": "gemini", "players": players, "script": [
                {"night": 1, "actions": [["Борис", "kill", "Глеб"]],
                 "expect": {"eliminated": ["Глеб"]}},
                {"day": 1, key: names}]}
        assert play(data(["Дина"])).ok
        for bad in ("Глеб", "Нонейм"):        # killed last night / no such player
            rep = play(data([bad]))
            assert rep.error and f"{key}: '{bad}'" in rep.error, rep.error


def test_an_answer_to_a_question_to_the_host_is_one_event_type_old_names_still_match():
    """The Wise (atlantis), the Lucky one (niichavo) and the dice's question (musketeers) all
    get an ``answer`` event; files written with the old names (``check_result`` with a
    ``question``, ``question_answer``) still match (scenario.RENAMED_EVENTS)."""
    seen = {}
    for path in ("niichavo/n26_lucky_questions.yaml",
                 "musketeers/m49_dice_question_same_night.yaml",
                 "musketeers/m49b_dice_question_forced_where_rolled.yaml"):
        rep = run_file(ROOT / "scenarios" / path)
        assert rep.ok, rep.failures
        seen[path] = rep.game.events
    for evs in seen.values():
        assert any(e.type == "answer" and "question" in e.data for e in evs)
        assert not any(e.type in ("question_answer",) or
                       (e.type == "check_result" and "question" in e.data) for e in evs)
    data = load_scenario(ROOT / "scenarios" / "musketeers/m49_dice_question_same_night.yaml")
    assert any(w.get("type") == "question_answer"
               for entry in data["script"] for w in (entry.get("expect") or {}).get("events", []))
    for entry in data["script"]:
        for w in (entry.get("expect") or {}).get("events", []):
            if w.get("type") == "question_answer":
                w["type"] = "no_such_event"
    assert not play(data).ok
