"""Engine contracts: purity, bad input changes nothing, ruleset errors name the field."""

import ast
from pathlib import Path

import pytest

from mafiahost.engine.errors import Refused, RulesetError
from mafiahost.engine.game import Game
from mafiahost.rules import available, build, load
from mafiahost.sim import new_random_game

ENGINE = Path(__file__).resolve().parents[1] / "src" / "mafiahost" / "engine"
FORBIDDEN = {"random", "time", "datetime", "os", "sys", "io", "pathlib", "socket", "sqlite3",
             "subprocess", "threading", "requests", "httpx", "yaml", "json", "shutil"}


def test_engine_imports_no_io_clock_or_global_random():
    for f in ENGINE.rglob("*.py"):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [(node.module or "").split(".")[0]]
            bad = FORBIDDEN.intersection(names)
            assert not bad, f"{f.name} imports {bad}"
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "open":
                pytest.fail(f"{f.name} calls open()")


def test_no_role_names_special_cased_in_the_night_loop():
    src = (ENGINE / "night.py").read_text(encoding="utf-8")
    for r in ("commissar", "doctor", "maniac", "beauty", "mafioso", "sleepwalker", "lover"):
        assert f'"{r}"' not in src, r


def test_rulesets_load():
    assert {"classic", "gemini", "vanilla"} <= set(available())
    for rid in available():
        r = load(rid)
        assert r.roles and r.steps


def game():
    return Game(load("gemini"), [("Анна", "commissar"), ("Борис", "boss"), ("Вера", "black_doctor"),
                                 ("Глеб", "doctor"), ("Дина", "maniac"), ("Егор", "civilian"),
                                 ("Жанна", "civilian")], seed=1)


@pytest.mark.parametrize("move,words", [
    (("Никто", "check", ["Борис"]), "нет в игре"),
    (("Анна", "fly", ["Борис"]), "нет в правилах"),
    (("Анна", "heal", ["Борис"]), "нет способности"),
    (("Анна", "check", ["Некто"]), "нет в игре"),
    (("Анна", "check", []), "целей"),
    (("Борис", "cover", ["Борис"]), "себя"),
    (("Борис", "cover", ["Глеб"]), "своей группировки"),
    (("Борис", "switch_vote", ["Анна", "Глеб"]), "днём"),
])
def test_bad_moves_are_refused_with_a_sentence_and_change_nothing(move, words):
    g = game()
    before = len(g.events)
    with pytest.raises(Refused) as e:
        g.submit(*move)
    assert words in e.value.ru
    assert e.value.en and e.value.ru.endswith(".")
    assert len(g.events) == before


def test_second_action_refused_and_first_kept():
    g = game()
    g.submit("Анна", "check", ["Борис"])
    with pytest.raises(Refused) as e:
        g.submit("Анна", "shoot", ["Борис"])
    assert "уже" in e.value.ru
    assert [a.targets for a in g.state.pending] == [("Борис",)]


def test_votes_refused_at_night_and_for_unknown_targets():
    g = game()
    with pytest.raises(Refused):
        g.vote("Анна", "Борис")
    g.resolve()
    with pytest.raises(Refused) as e:
        g.vote("Анна", "Некто")
    assert "нет в игре" in e.value.ru


def test_two_of_one_name_and_unknown_role_refused():
    with pytest.raises(Refused):
        Game(load("vanilla"), [("A", "civilian"), ("A", "mafioso")])
    with pytest.raises(Refused) as e:
        Game(load("vanilla"), [("A", "civilian"), ("B", "godfather")])
    assert "godfather" in e.value.ru and "mafioso" in e.value.ru


def test_unknown_option_refused():
    with pytest.raises(RulesetError) as e:
        load("vanilla", {"flying": True})
    assert "flying" in str(e.value) and "mafia_win" in str(e.value)
    with pytest.raises(RulesetError) as e:
        load("vanilla", {"mafia_win": "sometimes"})
    assert "parity" in str(e.value)


BASE = {
    "id": "t", "steps": [{"id": "n"}],
    "factions": {"town": {"side": "town", "win": {"none_alive": ["mafia"]}},
                 "mafia": {"side": "criminal", "win": {"cmp": ["own", ">=", "others"]}}},
    "abilities": {"kill": {"step": "n", "effects": ["kill"]}},
    "roles": {"civilian": {"faction": "town"}, "mafioso": {"faction": "mafia",
                                                           "abilities": ["kill"]}},
}


def _bad(path, value):
    import copy
    raw = copy.deepcopy(BASE)
    node = raw
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    with pytest.raises(RulesetError) as e:
        build(raw, "t.yaml")
    return str(e.value)


def test_ruleset_errors_name_file_entry_and_field():
    assert build(BASE, "t.yaml").roles["mafioso"].abilities == ("kill",)
    msg = _bad(["abilities", "kill", "step"], "dawn")
    assert "t.yaml" in msg and "ability 'kill'" in msg and "'step'" in msg and "n" in msg
    msg = _bad(["abilities", "kill", "effects"], ["teleport"])
    assert "teleport" in msg and "kill" in msg
    msg = _bad(["roles", "mafioso", "faction"], "aliens")
    assert "role 'mafioso'" in msg and "faction" in msg and "town" in msg
    msg = _bad(["roles", "civilian", "colour"], "red")
    assert "colour" in msg and "allowed" in msg
    msg = _bad(["factions", "town", "win"], {"sometimes": 1})
    assert "sometimes" in msg
    msg = _bad(["abilities", "kill", "phase"], "dusk")
    assert "dusk" in msg and "night" in msg


def test_events_all_have_an_audience_and_private_results_are_private():
    g = new_random_game("gemini", 12, 3)
    from mafiahost.sim import play_game
    play_game(g, 3)
    for e in g.events:
        assert e.audience == "public" or e.audience == "host" or isinstance(e.audience, tuple)
        if e.type in ("check_result", "watch_result", "team", "visitor_known", "action"):
            assert e.audience not in ("public",), e
        if e.type == "roll":
            assert e.audience == "host"


def test_legal_moves_are_exactly_the_accepted_moves():
    g = game()
    moves = g.legal_moves("Борис")
    assert ("cover", ("Вера",)) in moves
    assert all(t != ("Борис",) for a, t in moves if a == "cover")
    assert all(a != "switch_vote" for a, _ in moves)  # a day ability at night
    for ability, ts in moves:
        g2 = game()
        g2.submit("Борис", ability, ts)


def test_view_hides_other_players_results():
    g = game()
    g.submit("Анна", "check", ["Борис"])
    g.resolve()
    mine = [e for e in g.view("Анна") if e.type == "check_result"]
    assert mine and mine[0].data["result"] == "negative"
    assert not [e for e in g.view("Глеб") if e.type == "check_result"]
    assert not [e for e in g.view(None) if e.type in ("check_result", "action", "roll", "team")]


def test_replacing_a_move_withdraws_the_old_one_and_goes_to_the_back():
    g = game()
    g.submit("Вера", "kill", ["Анна"])
    g.submit("Дина", "kill", ["Глеб"])
    with pytest.raises(Refused):
        g.submit("Вера", "kill", ["Егор"])
    g.submit("Вера", "kill", ["Егор"], replace=True)
    assert [(a.actor, a.targets) for a in g.state.pending] == [("Дина", ("Глеб",)),
                                                              ("Вера", ("Егор",))]
    out = g.resolve()
    assert sorted(e.data["player"] for e in out if e.type == "eliminated") == ["Глеб", "Егор"]
    again = Game.replay(g.rules, g.events)
    assert [p.alive for p in again.state.order] == [p.alive for p in g.state.order]


def test_replacement_of_a_player_keeps_the_seat():
    g = game()
    g.replace_player("Егор", "Ёжик")
    assert g.display("Егор") == "Ёжик"
    with pytest.raises(Refused):
        g.replace_player("Анна", "Ёжик")
    assert g.state.players["Егор"].alive


def test_rolls_verify_from_the_seed():
    from mafiahost.engine.dice import verify_rolls
    from mafiahost.sim import play_game
    for seed in range(30):
        g = play_game(new_random_game("gemini", 12, seed), seed)
        rolls = [e.data for e in g.events if e.type == "roll"]
        assert verify_rolls(g.seed, rolls) == []
        if rolls:
            bad = [dict(r) for r in rolls]
            bad[0]["result"] = "nobody" if "chance" not in bad[0] else not bad[0]["result"]
            assert verify_rolls(g.seed, bad)


def test_custom_victory_condition_is_called():
    from mafiahost.engine import mechanics, victory
    calls = []

    @mechanics.condition("test_only_when_asked")
    def only_when_asked(census, own, me, arg):
        calls.append(arg)
        return arg == "yes"

    g = game()
    assert victory.holds(g, {"test_only_when_asked": "yes"}, "town") is True
    assert victory.holds(g, {"test_only_when_asked": "no"}, "town") is False
    assert victory.holds(g, {"all": [{"test_only_when_asked": "yes"},
                                     {"none_alive": ["mafia"]}]}, "town") is False
    assert calls == ["yes", "no", "yes"]


def test_every_emitted_event_type_is_documented():
    import re
    root = ENGINE.parents[2]
    doc = (root / "docs" / "events.md").read_text(encoding="utf-8")
    missing = set()
    for f in (root / "src" / "mafiahost").rglob("*.py"):
        for t in re.findall(r'emit\(\s*"([a-z_0-9]+)"', f.read_text(encoding="utf-8")):
            if f"`{t}`" not in doc:
                missing.add((t, f.name))
    assert not missing, f"undocumented event types in docs/events.md: {sorted(missing)}"


def test_every_setup_table_fits_every_allowed_size():
    from mafiahost.rules.setup import role_list
    for rid in available():
        r = load(rid)
        lo, hi = r.setup.get("min_players", 4), r.setup.get("max_players", 30)
        for n in range(lo, hi + 1):
            roles = role_list(r, n)
            assert len(roles) == n, (rid, n)
            assert all(x in r.roles for x in roles), (rid, n)


def test_classic_setup_puts_the_single_in_from_ten_players():
    from mafiahost.rules.setup import role_list
    for opt in ("maniac", "ripper", "swindler"):
        r = load("classic", {"single": opt})
        for n in range(6, 21):
            assert (opt in role_list(r, n)) == (n >= 10), (opt, n)


def test_items_and_coins_change_only_through_events_and_replay():
    from mafiahost.engine.mechanics import items
    g = game()
    anna = g.state.players["Анна"]
    items.give_item(g, anna, "vest", why="shop")
    items.add_coins(g, anna, 5, why="income")
    assert items.pay(g, anna, 3, why="bribe", to=g.state.players["Борис"])
    assert not items.pay(g, anna, 3, why="too much")
    assert not items.take_item(g, anna, "cake")
    assert items.take_item(g, anna, "vest")
    assert items.coins_of(g, anna) == 2 and items.items_of(g, anna) == {}
    again = Game.replay(g.rules, g.events)
    assert items.coins_of(again, again.state.players["Борис"]) == 3
    assert items.coins_of(again, again.state.players["Анна"]) == 2


def test_revive_a_player_killed_last_night_and_posthumous_and_held_rules():
    import copy

    raw = copy.deepcopy(BASE)
    raw["steps"] = [{"id": "n"}, {"id": "r"}]
    raw["abilities"]["raise"] = {"step": "r", "targets_dead": "last_night", "effects": ["revive"]}
    raw["abilities"]["note"] = {"step": "r", "targets": 0, "while_dead": "killed_last_night",
                                "effects": ["no_op"]}
    raw["roles"]["necro"] = {"faction": "town", "abilities": ["raise"]}
    raw["roles"]["scribe"] = {"faction": "town", "abilities": ["note"]}
    raw["day"] = {"lynch_holds": "jailed"}
    r = build(raw, "t.yaml")
    g = Game(r, [("M", "mafioso"), ("N", "necro"), ("S", "scribe"), ("A", "civilian"),
                 ("B", "civilian")])
    with pytest.raises(Refused):
        g.submit("N", "raise", ["A"])              # alive: not a target
    g.submit("M", "kill", ["S"])
    g.resolve()
    g.vote("A", "M")
    g.vote("B", "M")
    out = g.resolve()
    assert any(e.type == "held" and e.data["player"] == "M" for e in out)
    assert g.state.players["M"].alive and g.state.has(g.state.players["M"], "jailed")
    g.submit("S", "note", [])                      # killed last night: may still act
    g.submit("N", "raise", ["S"])
    g.resolve()
    assert g.state.players["S"].alive
    again = Game.replay(g.rules, g.events)
    assert again.state.players["S"].alive
