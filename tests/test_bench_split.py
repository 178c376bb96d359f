"""``bench/split.py`` measures a rule set's rules work alone by playing its random games
again from the moves and votes sent: that replay must be the same game, event for event, for
every rule set, or the split would compare different work. Its check must also catch a
replay that is not."""

import importlib.util
from pathlib import Path

import pytest

from mafiahost.rules import available

_PATH = Path(__file__).resolve().parents[1] / "bench" / "split.py"
_spec = importlib.util.spec_from_file_location("bench_split", _PATH)
assert _spec is not None and _spec.loader is not None
split = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(split)


@pytest.mark.parametrize("ruleset", available())
def test_the_replay_is_the_random_game(ruleset):
    seeds = [0, 1]
    records = [split.record(ruleset, s) for s in seeds]
    assert any(any(m[0] == "move" for m in phase) for r in records for phase in r)
    split.check(ruleset, seeds, records)        # raises SystemExit where they differ


def test_the_check_sees_a_replay_that_differs():
    rec = split.record("singapore", 0)
    # the first phase with a move loses its last move: a different game
    i = next(i for i, phase in enumerate(rec) if any(m[0] == "move" for m in phase))
    j = max(k for k, m in enumerate(rec[i]) if m[0] == "move")
    changed = [list(phase) for phase in rec]
    del changed[i][j]
    with pytest.raises(SystemExit, match="the replay differs"):
        split.check("singapore", [0], [changed])
