"""The dataset engine: node model, to_tf_dataset contract, sharded views, seeds, config,
MappableSource subclasses, from_tf_data and the single-consumer rule."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
import tfspore.dataset as ds
from tfspore.dataset.engine import MappableSource


class Squares(MappableSource):
    """The smallest random-access source: row i is (i, i*i)."""

    def __init__(self, n=10, **kwargs):
        super().__init__(**kwargs)
        self.n = n
        self.column_names = ["i", "sq"]

    def _num_rows(self):
        return self.n

    def _row(self, index):
        return index, index * index


def _first(data):
    return [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]


def test_mappable_source_subclass_gets_sampling_for_free():
    assert _first(Squares(shuffle=False)) == list(range(10))
    assert Squares(shuffle=False).get_col_names() == ["i", "sq"]
    assert [r[1].item() for r in Squares(5, shuffle=False).create_tuple_iterator(output_numpy=True)] == [0, 1, 4,
                                                                                                       9, 16]
    assert sorted(_first(Squares())) == list(range(10))  # shuffled by default
    assert _first(Squares(shuffle=False, num_shards=3, shard_id=1)) == [1, 4, 7, 0]
    assert Squares(num_samples=3, shuffle=False).get_dataset_size() == 3
    assert _first(Squares(sampler=ds.SubsetSampler([4, 1]))) == [4, 1]


def test_to_tf_dataset_gives_tuples_and_static_batch_dims():
    data = Squares(shuffle=False).batch(4, drop_remainder=True)
    tf_data = data.to_tf_dataset()
    assert isinstance(tf_data, tf.data.Dataset)
    assert [s.shape for s in tf_data.element_spec] == [tf.TensorShape([4]), tf.TensorShape([4])]
    batches = [tuple(t.numpy().tolist() for t in b) for b in tf_data]
    assert batches == [([0, 1, 2, 3], [0, 1, 4, 9]), ([4, 5, 6, 7], [16, 25, 36, 49])]


def test_each_pass_over_to_tf_dataset_reshuffles():
    tf_data = Squares(20).to_tf_dataset()
    first = [int(r[0]) for r in tf_data]
    second = [int(r[0]) for r in tf_data]
    assert sorted(first) == sorted(second) == list(range(20)) and first != second
    repeated = [int(r[0]) for r in tf_data.repeat(2)]
    assert len(repeated) == 40 and repeated[:20] != repeated[20:]


def test_sharded_view_wraps_and_shares_the_permutation():
    views = [[int(r[0]) for r in Squares(shuffle=False).to_tf_dataset(shard=(3, k))] for k in range(3)]
    assert views == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]
    shuffled = [[int(r[0]) for r in Squares(9).map(lambda i: i).to_tf_dataset(shard=(3, k))] for k in range(3)]
    assert sorted(sum(shuffled, [])) == list(range(9))
    streamed = [[int(r[0]) for r in ds.from_tf_data(tf.data.Dataset.range(10)).to_tf_dataset(shard=(3, k))]
                for k in range(3)]
    assert streamed == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]
    with pytest.raises(ValueError, match=r"the 'shard_id' must be an int in range \[0, 1\], but got 2"):
        Squares().to_tf_dataset(shard=(2, 2))


def test_seeds_make_shuffles_reproducible():
    def order(seed_fn, seed):
        seed_fn(seed)
        return _first(Squares(30).shuffle(8))

    assert order(ds.config.set_seed, 11) == order(ds.config.set_seed, 11)
    assert order(ms.set_seed, 11) == order(ms.set_seed, 11)
    assert order(ds.config.set_seed, 11) != order(ds.config.set_seed, 12)
    ds.config.set_seed(7)
    assert ds.config.get_seed() == 7
    ms.set_seed(9)
    assert ds.config.get_seed() == 9


class _Noise:
    """A random transform in the interface of tfspore.dataset transforms."""

    _tf_random = True

    def _tf_apply(self, x, seed=None):
        return tf.random.stateless_uniform([], seed=seed, maxval=1000, dtype=tf.int64) + 0 * x


def test_random_transforms_get_per_row_seeds():
    def run(seed):
        ds.config.set_seed(seed)
        it = Squares(6, shuffle=False).map(_Noise(), "i").create_tuple_iterator(num_epochs=2, output_numpy=True)
        return [[int(r[0]) for r in it] for _ in range(2)]

    a, b = run(3), run(3)
    assert a == b and a[0] != a[1] and len(set(a[0])) > 1


def test_config_values_and_errors():
    ds.config.set_num_parallel_workers(3)
    assert ds.config.get_num_parallel_workers() == 3
    ds.config.set_prefetch_size(8)
    assert ds.config.get_prefetch_size() == 8
    with pytest.raises(ValueError, match=r"set_num_parallel_workers.*got 0"):
        ds.config.set_num_parallel_workers(0)
    with pytest.raises(TypeError, match=r"set_seed.*'seed'.*'a'"):
        ds.config.set_seed("a")


def test_information_methods():
    data = Squares(shuffle=False).map(lambda i: i.astype(np.float32), "i").batch(4)
    assert data.get_dataset_size() == 3 and data.get_batch_size() == 4 and data.get_repeat_count() == 1
    assert data.output_shapes() == [[4], [4]]
    assert data.output_types() == [np.dtype("float32"), np.dtype("int64")]
    assert len(data) == 3


def test_from_tf_data_column_names():
    tuples = ds.from_tf_data(tf.data.Dataset.from_tensor_slices((np.zeros((4, 2), np.float32), np.arange(4))))
    assert tuples.get_col_names() == ["column_0", "column_1"] and tuples.get_dataset_size() == 4
    named = ds.from_tf_data(tf.data.Dataset.range(3), column_names=["n"])
    assert named.get_col_names() == ["n"] and _first(named) == [0, 1, 2]
    dicts = ds.from_tf_data(tf.data.Dataset.from_tensor_slices({"b": [1, 2], "a": [3.0, 4.0]}))
    assert dicts.get_col_names() == ["b", "a"]
    assert list(dicts.create_dict_iterator(output_numpy=True))[1]["a"] == 4.0
    filtered = ds.from_tf_data(tf.data.Dataset.range(10).filter(lambda x: x < 4))
    assert filtered.get_dataset_size() == 4  # unknown cardinality: counted
    with pytest.raises(ValueError, match=r"from_tf_data.*column_names has 2 name"):
        ds.from_tf_data(tf.data.Dataset.range(3), column_names=["a", "b"])


def test_one_node_may_feed_only_one_pipeline():
    source = ds.NumpySlicesDataset([1, 2, 3])
    first = source.batch(2)
    second = source.batch(2, drop_remainder=True)
    with pytest.raises(ValueError, match=r"The data pipeline is not a tree \(i.e., one node has 2 consumers\)"):
        list(first)
    del second  # the other consumer is gone: fine again
    assert first.get_dataset_size() == 2 and len(list(first)) == 2


def test_dataset_size_of_a_shard():
    assert Squares(10).batch(2).get_dataset_size(shard=(3, 0)) == 2
    assert Squares(10).get_dataset_size(shard=(3, 2)) == 4
    assert ds.from_tf_data(tf.data.Dataset.range(10)).get_dataset_size(shard=(4, 1)) == 3
    assert Squares(10).filter(lambda i, sq: i < 100).get_dataset_size(shard=(3, 1)) == 4
    assert Squares(10, num_shards=2, shard_id=0).get_dataset_size(shard=(5, 0)) == 5  # already sharded


def test_operation_nodes_come_from_the_registry_of_the_engine_package():
    """datasets.py does not import _ops (no import circle): _ops registers its node classes."""
    from tfspore.dataset.engine import _ops, datasets  # pylint: disable=import-outside-toplevel
    assert type(ds.NumpySlicesDataset([1, 2]).map(lambda x: x)) is _ops.MapDataset
    with pytest.raises(RuntimeError, match="'NoSuchDataset' is not registered"):
        datasets._OperationNodes().NoSuchDataset  # pylint: disable=protected-access,expression-not-assigned
