"""The command line: rulesets, roles, scenario, run."""

import json
from pathlib import Path

from mafiahost.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_rulesets_lists_all(capsys):
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    for rid in ("classic", "gemini", "vanilla"):
        assert rid in out


def test_roles_sheet_has_names_factions_and_steps(capsys):
    assert main(["roles", "gemini"]) == 0
    out = capsys.readouterr().out
    assert "Комиссар / Commissar" in out
    assert "Мафия / Mafia" in out
    assert "шаг" in out and "step" in out
    assert main(["roles", "nosuch"]) == 2
    assert "classic" in capsys.readouterr().out


def test_scenario_command_exit_codes(tmp_path, capsys):
    good = tmp_path / "good.yaml"
    good.write_text(
        "ruleset: vanilla\nplayers: {A: mafioso, B: civilian, C: civilian, D: civilian}\n"
        "script:\n - night: 1\n   actions: [[A, kill, B]]\n   expect: {eliminated: [B]}\n",
        encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(good.read_text().replace("eliminated: [B]", "eliminated: [C]"))
    assert main(["scenario", str(good)]) == 0
    assert main(["scenario", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "expected ['C'], got ['B']" in out
    assert main(["scenario", str(bad), "--json"]) == 1
    rep = json.loads(capsys.readouterr().out)
    assert rep["failed"] == 1 and rep["results"][0]["failures"]


def test_run_prints_events_and_state(tmp_path, capsys):
    f = tmp_path / "s.yaml"
    f.write_text(
        "ruleset: vanilla\nplayers: {A: mafioso, B: civilian, C: civilian, D: civilian}\n"
        "script:\n - night: 1\n   actions: [[A, kill, B]]\n - day: 1\n"
        "   votes: [[C, A], [D, A], [A, C]]\n", encoding="utf-8")
    assert main(["run", str(f), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    types = [e["type"] for e in data["events"]]
    assert "eliminated" in types and "game_over" in types
    assert data["state"]["winners"] == ["town"]
    assert {p["name"]: p["alive"] for p in data["state"]["players"]} == \
        {"A": False, "B": False, "C": True, "D": True}


def test_readme_scenario_example_runs(tmp_path):
    """The scenario shown in the README is a real, passing scenario."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("```yaml", 1)[1].split("```", 1)[0]
    f = tmp_path / "readme.yaml"
    f.write_text(block, encoding="utf-8")
    assert main(["scenario", str(f)]) == 0


def test_option_values_are_read_like_the_ruleset_files(capsys):
    from mafiahost.cli import _opts
    assert _opts(["yakuza=true", "tie_no_block_at=3", "single=ripper"]) == \
        {"yakuza": True, "tie_no_block_at": 3, "single": "ripper"}
    assert main(["demo", "musketeers", "--players", "8", "--seed", "1",
                 "--option", "tie_no_block_at=3"]) == 0
    assert "Игра окончена" in capsys.readouterr().out
