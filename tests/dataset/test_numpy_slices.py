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
    with pytest.raises(ValueError, match=r"NumpySlicesDataset.*shard_id should be less than num_shards.*"
                                         r"shard_id=3"):
        ds.NumpySlicesDataset([1, 2], num_shards=3, shard_id=3)
    with pytest.raises(ValueError, match=r"data length in each column is not equal.*\[2, 3\]"):
        ds.NumpySlicesDataset(([1, 2], [1, 2, 3]))
    with pytest.raises(ValueError, match=r"column_names has 1 name.*2 column"):
        ds.NumpySlicesDataset(([1, 2], [3, 4]), column_names=["a"])
    with pytest.raises(RuntimeError, match=r"sampler and shuffle cannot be specified at the same time"):
        ds.NumpySlicesDataset([1, 2], sampler=ds.SequentialSampler(), shuffle=True)
    with pytest.raises(TypeError, match=r"NumpySlicesDataset.*ragged"):
        ds.NumpySlicesDataset([[1], [1, 2]])
