"""Samplers on a random-access source."""
import pytest

import tfspore.dataset as ds


def _read(sampler, n=10, epochs=1):
    data = ds.NumpySlicesDataset(list(range(n)), sampler=sampler)
    it = data.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
    passes = [[int(r[0]) for r in it] for _ in range(epochs)]
    return (passes[0] if epochs == 1 else passes), data.get_dataset_size()


def test_sequential_sampler():
    assert _read(ds.SequentialSampler()) == (list(range(10)), 10)
    assert _read(ds.SequentialSampler(start_index=2, num_samples=3)) == ([2, 3, 4], 3)


def test_random_sampler_reshuffles_each_epoch():
    passes, size = _read(ds.RandomSampler(), epochs=2)
    assert size == 10 and all(sorted(p) == list(range(10)) for p in passes) and passes[0] != passes[1]
    drawn, size = _read(ds.RandomSampler(replacement=True, num_samples=25))
    assert size == 25 and len(drawn) == 25 and all(0 <= i < 10 for i in drawn)
    few, size = _read(ds.RandomSampler(num_samples=4))
    assert size == 4 and len(set(few)) == 4


def test_distributed_sampler_matches_mindspore():
    shards = [_read(ds.DistributedSampler(3, k, shuffle=False)) for k in range(3)]
    assert shards == [([0, 3, 6, 9], 4), ([1, 4, 7, 0], 4), ([2, 5, 8, 1], 4)]
    ds.config.set_seed(5)
    a, _ = _read(ds.DistributedSampler(2, 0))
    ds.config.set_seed(5)
    b, _ = _read(ds.DistributedSampler(2, 1))
    assert sorted(a + b) == list(range(10))
    assert _read(ds.DistributedSampler(3, 0, shuffle=False, num_samples=2)) == ([0, 3], 2)


def test_subset_samplers():
    assert _read(ds.SubsetSampler([5, 2, 7])) == ([5, 2, 7], 3)
    assert _read([9, 0]) == ([9, 0], 2)  # a list is a SubsetSampler
    values, size = _read(ds.SubsetRandomSampler([5, 2, 7]))
    assert size == 3 and sorted(values) == [2, 5, 7]
    with pytest.raises(RuntimeError, match=r"SubsetSampler.*\[0, 10\).*got 12"):
        _read(ds.SubsetSampler([1, 12]))


def test_weighted_random_sampler_draws_only_weighted_rows():
    values, size = _read(ds.WeightedRandomSampler([0, 0, 1, 1, 0, 0, 0, 0, 0, 0], num_samples=20))
    assert size == 20 and set(values) <= {2, 3}


def test_user_sampler_and_chained_samplers():
    class Reverse(ds.Sampler):
        def __iter__(self):
            return iter(range(self.dataset_size - 1, -1, -1))

    assert _read(Reverse(), n=5) == ([4, 3, 2, 1, 0], 5)
    parent = ds.SequentialSampler(start_index=1, num_samples=2)
    parent.add_child(ds.SubsetSampler([7, 8, 9]))
    assert _read(parent) == ([8, 9], 2)
    with pytest.raises(RuntimeError, match="already has a child"):
        parent.add_child(ds.SequentialSampler())


def test_sampler_argument_errors():
    with pytest.raises(TypeError, match=r"num_shards must be integer but was: '2'"):
        ds.DistributedSampler("2", 0)
    with pytest.raises(RuntimeError, match=r"shard_id must be in \[0, 1\], but got 2"):
        ds.DistributedSampler(2, 2)
    with pytest.raises(RuntimeError, match=r"sampler and num_samples cannot be specified at the same time"):
        ds.NumpySlicesDataset([1], sampler=ds.RandomSampler(), num_samples=1)
