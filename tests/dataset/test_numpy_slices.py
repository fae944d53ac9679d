"""NumpySlicesDataset: column naming, dtypes, default shuffling, sharding, bad input."""
import numpy as np
import pytest

import tfspore.dataset as ds


def _values(data, column=0):
    return [row[column].tolist() for row in data.create_tuple_iterator(output_numpy=True)]


def test_list_gives_one_int64_column():
    data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False)
    assert data.get_col_names() == ["column_0"]
    assert data.output_types() == [np.dtype("int64")]
    assert data.output_shapes() == [[]]
    assert _values(data) == [1, 2, 3]


def test_python_floats_are_float64_and_numpy_dtypes_are_kept():
    assert ds.NumpySlicesDataset([1.5, 2.5]).output_types() == [np.dtype("float64")]
    data = ds.NumpySlicesDataset((np.zeros((4, 2), np.float32), np.arange(4, dtype=np.int32)), shuffle=False)
    assert data.get_col_names() == ["column_0", "column_1"]
    assert data.output_types() == [np.dtype("float32"), np.dtype("int32")]
    assert data.output_shapes() == [[2], []]


def test_dict_keys_name_the_columns_and_column_names_renames():
    data = ds.NumpySlicesDataset({"x": [1, 2], "y": [3.0, 4.0]}, shuffle=False)
    assert data.get_col_names() == ["x", "y"]
    assert [r["y"].item() for r in data.create_dict_iterator(output_numpy=True)] == [3.0, 4.0]
    renamed = ds.NumpySlicesDataset((np.arange(3), np.arange(3)), column_names=["a", "b"])
    assert renamed.get_col_names() == ["a", "b"]
    single = ds.NumpySlicesDataset([[1, 2], [3, 4]], column_names="pair", shuffle=False)
    assert single.get_col_names() == ["pair"] and _values(single) == [[1, 2], [3, 4]]


def test_shuffles_by_default_with_the_same_rows():
    ds.config.set_seed(0)
    rows = _values(ds.NumpySlicesDataset(list(range(20))))
    assert sorted(rows) == list(range(20)) and rows != list(range(20))
    assert _values(ds.NumpySlicesDataset(list(range(20)), shuffle=False)) == list(range(20))


def test_sharding_wraps_around_to_equal_lengths():
    shards = [_values(ds.NumpySlicesDataset(list(range(10)), num_shards=3, shard_id=k, shuffle=False))
              for k in range(3)]
    assert shards == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]
    assert ds.NumpySlicesDataset(list(range(10)), num_shards=3, shard_id=1).get_dataset_size() == 4


def test_shuffled_shards_share_one_permutation():
    shards = []
    for k in range(2):
        ds.config.set_seed(3)
        shards.append(_values(ds.NumpySlicesDataset(list(range(6)), num_shards=2, shard_id=k)))
    assert len(shards[0]) == len(shards[1]) == 3
    assert sorted(shards[0] + shards[1]) == list(range(6))


def test_num_samples_limits_the_rows():
    assert ds.NumpySlicesDataset(list(range(10)), num_samples=4, shuffle=False).get_dataset_size() == 4
    assert _values(ds.NumpySlicesDataset(list(range(10)), num_samples=4, shuffle=False)) == [0, 1, 2, 3]


def test_bad_input_names_the_dataset_argument_and_value():
    with pytest.raises(ValueError, match=r"NumpySlicesDataset.*num_shards and shard_id need to be passed in "
                                         r"together.*num_shards=3"):
        ds.NumpySlicesDataset([1, 2], num_shards=3)
    with pytest.raises(ValueError, match=r"For 'NumpySlicesDataset', the 'shard_id' must be an int in range \[0, 2\], "
                                         r"but got 3"):
        ds.NumpySlicesDataset([1, 2], num_shards=3, shard_id=3)
    with pytest.raises(ValueError, match=r"data length in each column is not equal.*\[2, 3\]"):
        ds.NumpySlicesDataset(([1, 2], [1, 2, 3]))
    with pytest.raises(ValueError, match=r"column_names has 1 name.*2 column"):
        ds.NumpySlicesDataset(([1, 2], [3, 4]), column_names=["a"])
    with pytest.raises(RuntimeError, match=r"sampler and shuffle cannot be specified at the same time"):
        ds.NumpySlicesDataset([1, 2], sampler=ds.SequentialSampler(), shuffle=True)
    with pytest.raises(TypeError, match=r"NumpySlicesDataset.*ragged"):
        ds.NumpySlicesDataset([[1], [1, 2]])


# ---- batches gathered at once equal batches of single rows ---------------------------------------
def _epochs(make, epochs=2, shard=None, per_row=False):
    """Batches of `epochs` passes over one built pipeline, and its element spec."""
    ds.config.set_seed(7)
    data = make()
    if per_row:
        node = data
        while not isinstance(node, ds.NumpySlicesDataset):
            node = node.children[0]
        node._gathers_batches = False
    built = data.to_tf_dataset(shard=shard)
    passes = [[tuple(t.numpy() for t in element) for element in built] for _ in range(epochs)]
    return passes, built.element_spec


def _assert_same_as_per_row(make, shard=None):
    fast, fast_spec = _epochs(make, shard=shard)
    slow, slow_spec = _epochs(make, shard=shard, per_row=True)
    assert fast_spec == slow_spec
    assert len(fast) == len(slow)
    for fast_pass, slow_pass in zip(fast, slow):
        assert len(fast_pass) == len(slow_pass) > 0
        for fast_batch, slow_batch in zip(fast_pass, slow_pass):
            for a, b in zip(fast_batch, slow_batch):
                assert a.dtype == b.dtype and a.shape == b.shape
                np.testing.assert_array_equal(a, b)
    return fast


_X = np.arange(23 * 3, dtype=np.float32).reshape(23, 3)
_Y = np.arange(23, dtype=np.int32)


@pytest.mark.parametrize("drop", [False, True])
def test_batch_gather_takes_the_fast_path_and_keeps_order(drop):
    data = ds.NumpySlicesDataset((_X, _Y), shuffle=False).batch(5, drop_remainder=drop)
    assert data.children[0]._build_batched(5, drop) is not None
    passes = _assert_same_as_per_row(lambda: ds.NumpySlicesDataset((_X, _Y), shuffle=False).batch(5, drop))
    labels = [b[1].tolist() for b in passes[0]]
    assert labels[0] == [0, 1, 2, 3, 4]
    assert len(labels) == (4 if drop else 5) and (drop or labels[-1] == [20, 21, 22])


@pytest.mark.parametrize("drop", [False, True])
def test_batch_gather_shuffle_gives_the_per_row_order_each_epoch(drop):
    passes = _assert_same_as_per_row(lambda: ds.NumpySlicesDataset({"x": _X, "y": _Y}).batch(4, drop))
    first, second = ([int(v) for b in p for v in b[1]] for p in passes)
    assert first != second  # a new permutation each epoch
    if not drop:
        assert sorted(first) == list(range(23))


@pytest.mark.parametrize("sampler", [ds.RandomSampler(), ds.SequentialSampler(start_index=2, num_samples=15),
                                     ds.SubsetRandomSampler([9, 3, 17, 0, 4, 12, 8]), [5, 1, 1, 22, 7, 0]],
                         ids=["random", "sequential", "subset_random", "index_list"])
def test_batch_gather_with_samplers(sampler):
    _assert_same_as_per_row(lambda: ds.NumpySlicesDataset((_X, _Y), sampler=sampler).batch(3))


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("shard_id", [0, 3])
def test_batch_gather_with_wrap_padded_shards(shuffle, shard_id):
    passes = _assert_same_as_per_row(
        lambda: ds.NumpySlicesDataset((_X, _Y), shuffle=shuffle, num_shards=4, shard_id=shard_id).batch(2))
    assert sum(len(b[1]) for b in passes[0]) == 6  # ceil(23 / 4), padded by wrapping
    _assert_same_as_per_row(lambda: ds.NumpySlicesDataset((_X, _Y), shuffle=shuffle).batch(2, True), shard=(4, 1))


def test_batch_gather_single_column_strings_and_repeat():
    words = np.array([f"w{i}" for i in range(7)])
    _assert_same_as_per_row(lambda: ds.NumpySlicesDataset(words, column_names="w", shuffle=False).batch(3))
    passes = _assert_same_as_per_row(lambda: ds.NumpySlicesDataset((_X, _Y)).batch(8).repeat(2))
    assert len(passes[0]) == 6


def test_map_before_batch_keeps_the_per_row_path():
    data = ds.NumpySlicesDataset({"x": _X, "y": _Y}, shuffle=False).map(lambda y: y * 2, input_columns="y")
    batches = list(data.batch(10).create_tuple_iterator(output_numpy=True))
    assert [b[1].tolist() for b in batches] == [list(range(0, 20, 2)), list(range(20, 40, 2)), [40, 42, 44]]
    np.testing.assert_array_equal(batches[2][0], _X[20:])
