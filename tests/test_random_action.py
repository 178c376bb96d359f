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



@pytest.mark.parametrize("ruleset", ["gemini", "singapore", "classic", "musketeers", "vanilla"])
def test_the_environments_masks_drawn_as_the_idiom(ruleset):
    """A mask the environment has just made is drawn from the rows it was made of
    (``core.LastMask``, ``Codec.kth_legal``): the same draw as the idiom, at every turn of
    a game (votes, moves of one and two targets, answers to questions). The same mask
    edited by the agent (its last legal action taken out, an illegal one put in) is read
    from its own bytes, as is a copy of a mask made earlier."""
    e = raw_env(ruleset=ruleset, players=12)
    e.reset(seed=4)
    rng = random.Random(1)
    turns = edited_ones = 0
    earlier = None
    while e.agents and turns < 300:
        a = e.agent_selection
        if e.terminations[a] or e.truncations[a]:
            e.step(None)
            continue
        obs = e.observe(a)
        mask = obs["action_mask"]
        for s in range(3):
            assert random_action(obs, random.Random(s)) == idiom(mask, random.Random(s))
        edited = mask.copy()
        legal = np.flatnonzero(edited)
        illegal = np.flatnonzero(edited == 0)
        if len(legal) > 1 and len(illegal):
            edited[legal[-1]] = 0
            edited[illegal[len(illegal) // 2]] = 1
            edited_ones += 1
            for s in range(3):
                assert random_action(edited, random.Random(s)) == idiom(edited, random.Random(s))
        if earlier is not None and earlier.any():
            assert random_action(earlier, random.Random(7)) == idiom(earlier, random.Random(7))
        earlier = mask.copy()
        e.step(random_action(obs, rng))
        turns += 1
    assert turns > 20 and edited_ones > 10
