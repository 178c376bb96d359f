"""``mafiahost odds`` and ``mafiahost balance`` as a designer runs them."""

from __future__ import annotations

import json
import re

import pytest

from mafiahost.cli import main


def _run(capsys, *argv):
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_odds_prints_the_exact_fraction_and_decimal(capsys):
    code, out = _run(capsys, "odds", "vanilla", "--players", "12", "--mafia", "3")
    assert code == 0
    assert "193/231" in out and "0.835498" in out and "38/231" in out


def test_odds_for_200_players_and_the_detective(capsys):
    code, out = _run(capsys, "odds", "vanilla", "--players", "200", "--mafia", "14",
                     "--first", "day", "--json")
    assert code == 0
    (row,) = json.loads(out)
    num, den = map(int, row["mafia"]["fraction"].split("/"))
    assert abs(num / den - row["mafia"]["decimal"]) < 1e-12
    code, out = _run(capsys, "odds", "vanilla", "--players", "12", "--mafia", "3",
                     "--detective", "--check", "before")
    assert code == 0 and "before" in out and out.count("/") >= 4


@pytest.mark.parametrize("argv, text", [
    (["odds", "vanilla", "--players", "10", "--mafia", "5"], "at most 4 mafia"),
    (["odds", "gemini", "--players", "10", "--mafia", "2"], "vanilla only"),
    (["balance", "nosuch", "--players", "10"], "No ruleset"),
    (["balance", "gemini", "--players", "12", "--roles", "boss,wizard"], "no role"),
    (["balance", "gemini", "--players", "12", "--roles", "boss*x"], "a number must follow"),
    (["balance", "gemini", "--players", "40"], "6-16 players"),
    (["balance", "vanilla", "--players", "8", "--compare", "players=8"], "equals the first"),
    (["balance", "vanilla", "--players", "8", "--games", "20", "--batch", "10", "--report",
      "/nonexistent/dir/r.html", "--sweep", "none"], "Could not write the report"),
    (["balance", "vanilla", "--players", "8", "--games", "0"], "at least 1"),
])
def test_bad_input_gets_one_sentence_and_no_traceback(capsys, argv, text):
    code, out = _run(capsys, *argv)
    assert code == 2
    assert text in out and "Traceback" not in out
    assert re.search("[а-яА-Я]", out)          # Russian first


def test_balance_json_has_intervals_for_every_side_and_survival(capsys):
    code, out = _run(capsys, "balance", "gemini", "--players", "12", "--policy", "random",
                     "--games", "200", "--batch", "100", "--json")
    assert code == 0
    s = json.loads(out)
    (e,) = s["setups"]
    assert set(e["winners"]) == {"town", "mafia", "maniac"}
    for w in e["winners"].values():
        assert w["low"] <= w["rate"] <= w["high"]
    assert s["games"] == 200 and s["stopped"] == "games"
    assert {"boss", "commissar", "lover", "civilian"} <= set(e["survival"])
    # survival is by the role dealt: heirs and recruits count under their first role
    assert set(e["survival"]) == set(e["roles"])
    assert sum(r["seats"] for r in e["survival"].values()) == 200 * 12
    assert e["days"]["mean"] > 0


def test_balance_with_roles_and_sensible_policy(capsys):
    code, out = _run(capsys, "balance", "gemini", "--players", "8", "--roles",
                     "boss,black_doctor,commissar,doctor*1", "--policy", "sensible",
                     "--games", "100", "--batch", "50")
    assert code == 0
    assert "Доктор / Doctor" in out and "Мирный житель / Civilian" in out
    assert "Маньяк" not in out


def test_balance_report_has_the_plots(tmp_path, capsys):
    path = tmp_path / "r.html"
    code, out = _run(capsys, "balance", "vanilla", "--players", "9", "--mafia", "2",
                     "--policy", "uniform", "--games", "200", "--batch", "100",
                     "--compare", "mafia_win=town_gone", "--report", str(path),
                     "--sweep", "8..10", "--sweep-games", "100")
    assert code == 0
    page = path.read_text(encoding="utf-8")
    assert page.count("data:image/png;base64,") == 4   # players, 2 x survival, length
    assert "Win rate against player count" in page and "Difference" in page
    assert "Migdał" in page
