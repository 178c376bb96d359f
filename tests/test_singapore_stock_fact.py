"""singapore's shop gate (``economy.Stock``, the fact behind ``in_stock``'s gate): asked
item by item (as the gates are) it answers as listing it does, and both as ``in_stock``
itself judges each purchase, at every point of random games (moves of the night sent)."""

import random

from mafiahost.rules.abilities.singapore.common import SHOP
from mafiahost.rules.abilities.singapore.economy import in_stock, stock_fact
from mafiahost.sim import new_random_game, play_phase

CANDIDATES = [v for item in SHOP for v in (item, item + "/not_town")] + [
    "no_such_item", "vest/other", 3, None]


def _check(g, seen):
    ab = next(ab for ab in g.rules.abilities.values() if ab.id == "buy_vest")
    for p in g.state.order:
        fact = stock_fact(g, p)
        asked = {v for v in CANDIDATES if v in fact}
        assert asked == set(fact), (g.state.idx, p.name)
        for item in SHOP:
            for not_town in (False, True):
                params = {"item": item, "not_town": True} if not_town else {"item": item}
                why = in_stock(g, p, ab, (), params)
                gate = item + "/not_town" if not_town else item
                assert (why is None) == (gate in fact), (g.state.idx, p.name, params)
                seen.add((why is None, bool(g.state.pending)))


def test_the_stock_fact_answers_as_in_stock_does():
    seen: set = set()
    for seed in range(4):
        g = new_random_game("singapore", 12, seed)
        rng = random.Random(seed)
        while not g.state.over and g.state.idx < 16:
            _check(g, seen)
            play_phase(g, rng)           # tonight's purchases sent: they hold stock
            _check(g, seen)
            g.resolve()
    # both answers were met, with moves pending and without
    assert {(True, True), (False, True), (True, False), (False, False)} <= seen, seen
