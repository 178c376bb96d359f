"""The engine's random player (``mafiahost.sim``) sends its moves as ``submit`` does after
its checks (``Game.send``): an immediate day ability takes effect when it is sent, and a
role-naming move names a role. (Before, it only recorded them: an indians hunt never rolled
and the singapore maniac never named a role in a random game.)"""

from mafiahost.sim import new_random_game, play_game


def _games(ruleset, seeds, players=12):
    return [play_game(new_random_game(ruleset, players, s), s) for s in seeds]


def test_random_games_play_an_immediate_day_ability_at_once():
    hunts = rolled = 0
    for g in _games("indians", range(12)):
        ev = g.events
        for i, e in enumerate(ev):
            if e.type == "action" and e.data["ability"] == "hunt":
                hunts += 1
                # the hunt's die is rolled and its result announced right after it is sent
                nxt = ev[i + 1:i + 6]
                rolled += any(x.type == "hunt" and x.data["player"] == e.data["actor"]
                              for x in nxt)
    assert hunts > 0
    assert rolled == hunts


def test_random_games_name_a_role_with_a_role_naming_move():
    named = 0
    # the maniac is not dealt: a witness, a thief or a drunk (20 seats have them) becomes one
    for g in _games("singapore", range(40), players=20):
        roles = set(g.rules.roles)
        naming = {k for k, ab in g.rules.abilities.items() if ab.names_role}
        assert naming == {"maniac.kill", "maniac.silver"}
        for e in g.events:
            if e.type == "action" and e.data["key"] in naming:
                assert e.data.get("role") in roles
                named += 1
    assert named > 0
