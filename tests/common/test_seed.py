"""tfspore.common.seed: the global seed also seeds the dataset pipeline, as in MindSpore."""
import random

import numpy as np

import tfspore as ms
import tfspore.dataset as ds
from tfspore.common import seed as seed_module


def test_set_seed_seeds_the_pipeline_after_its_own_seed():
    ms.set_seed(5)
    assert ds.config.get_seed() == 5
    ds.config.set_seed(7)
    assert ds.config.get_seed() == 7
    ms.set_seed(5)  # the same global seed again: the pipeline follows it again
    assert ds.config.get_seed() == 5
    assert ms.get_seed() == 5


def test_set_seed_restarts_python_and_numpy_sequences():
    ms.set_seed(11)
    first = (random.random(), np.random.rand())
    ms.set_seed(11)
    assert (random.random(), np.random.rand()) == first


def test_hooks_run_with_the_seed_once_each(monkeypatch):
    monkeypatch.setattr(seed_module, "_SET_SEED_HOOKS", [])
    seen = []
    seed_module.add_set_seed_hook(seen.append)
    seed_module.add_set_seed_hook(seen.append)
    ms.set_seed(3)
    assert seen == [3]
