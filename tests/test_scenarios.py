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
