"""The same job on a local Ray instance gives the same result, stopping point included.

Ray is the optional extra ``mafiahost[cluster]``; CI installs it and sets
``MAFIAHOST_TEST_RAY_REQUIRED=1``, so there this test runs and never skips."""

from __future__ import annotations

import os

import pytest

from mafiahost.balance.simulate import Job, Setup, run

try:
    import ray
except ImportError:          # pragma: no cover - depends on the extra
    ray = None
    if os.environ.get("MAFIAHOST_TEST_RAY_REQUIRED"):
        raise


@pytest.mark.skipif(ray is None, reason="Ray is not installed (pip install 'mafiahost[cluster]')")
def test_ray_local_gives_the_same_result_as_one_process():
    job = Job((Setup("vanilla", 9, mafia=2), Setup("gemini", 9)), "random", seed=7, batch=30)
    here = run(job, precision=0.09, max_games=600)
    try:
        there = run(job, precision=0.09, max_games=600, workers=2, ray="local")
    finally:
        ray.shutdown()
    assert there.runner == "ray local"
    assert (there.games, there.batches, there.stopped) == (here.games, here.batches, here.stopped)
    for a, b in zip(here.tallies, there.tallies, strict=True):
        assert (a.wins, a.alive, a.phases, a.days) == (b.wins, b.alive, b.phases, b.days)
    assert here.paired.table == there.paired.table
