"""``agents.random_action``: a random agent's uniform choice among an observation's legal
actions, the same draw as the NumPy idiom, for every kind of mask an agent may hold."""

import random

import numpy as np
import pytest

from mafiahost.agents import random_action
from mafiahost.agents.env import raw_env


def idiom(mask, rng) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[int(rng.random() * len(legal))])


@pytest.mark.parametrize("size", [1, 17, 59, 3729])
@pytest.mark.parametrize("dtype", [np.int8, np.bool_, np.uint8, np.float32, np.int64])
def test_same_draw_as_the_idiom(size, dtype):
    picks = random.Random(size)
    for trial in range(20):
        mask = np.zeros(size, dtype)
        mask[sorted(picks.sample(range(size), picks.randint(1, min(size, 40))))] = 1
        if dtype is np.int8 and size > 1 and trial % 2:
            mask[int(np.flatnonzero(mask)[-1])] = 3        # a value other than 1: legal too
        for s in range(10):
            a = random_action(mask, random.Random(s))
            assert a == idiom(mask, random.Random(s))
            assert mask[a]


def test_observation_or_mask_and_every_legal_action_drawn():
    e = raw_env(ruleset="vanilla", players=12)
    e.reset(seed=3)
    obs = e.observe(e.agent_selection)
    legal = set(np.flatnonzero(obs["action_mask"]).tolist())
    rng = random.Random(0)
    drawn = {random_action(obs, rng) for _ in range(400)}
    assert drawn == legal
    assert random_action(obs["action_mask"], random.Random(5)) == \
        random_action(obs, random.Random(5))


@pytest.mark.parametrize("dtype", [np.int8, np.float32])
def test_no_legal_action_refused(dtype):
    with pytest.raises(ValueError, match="no legal action"):
        random_action(np.zeros(9, dtype), random.Random(0))

