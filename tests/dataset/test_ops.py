"""Pipeline operations: map, batch, padded_batch, shuffle, repeat, take, skip, project, rename,
zip, concat, filter, split."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
import tfspore.dataset as ds


def _rows(data):
    return [[c.tolist() for c in row] for row in data.create_tuple_iterator(output_numpy=True)]


def _ten(**kwargs):
    return ds.NumpySlicesDataset({"x": np.arange(10), "y": np.arange(10) * 10}, shuffle=False, **kwargs)


class _Double:
    """A transform with TF ops (the interface of tfspore.dataset transforms)."""

    def _tf_apply(self, x):
        return x * 2


def test_map_python_function_default_column_and_output_columns():
    data = _ten().map(lambda x: x + 1)  # first column by default
    assert _rows(data)[:2] == [[1, 0], [2, 10]]
    data = _ten().map(lambda x: (x, x * x), input_columns="x", output_columns=["x", "s"])
    assert data.get_col_names() == ["x", "s", "y"]
    assert _rows(data)[3] == [3, 9, 30]
    merged = _ten().map(lambda x, y: x + y, input_columns=["x", "y"], output_columns="z")
    assert merged.get_col_names() == ["z"] and _rows(merged)[2] == [22]


def test_map_chains_transforms_tf_functions_and_python():
    ops = [_Double(), tf.function(lambda x: x + 1), lambda x: x * 10]
    data = _ten().map(ops, input_columns=["x"])
    assert [r[0] for r in _rows(data)] == [(2 * i + 1) * 10 for i in range(10)]
    assert data.output_types() == [np.dtype("int64"), np.dtype("int64")]


def test_map_with_library_transforms_keeps_mindspore_types():
    from tfspore.dataset import transforms, vision

    images = np.random.RandomState(0).randint(0, 256, (6, 28, 28, 1)).astype(np.uint8)
    data = ds.NumpySlicesDataset({"image": images, "label": np.arange(6, dtype=np.uint32)}, shuffle=False)
    data = data.map([vision.Resize((32, 32)), vision.Rescale(1 / 255.0, 0), vision.HWC2CHW()], "image")
    data = data.map(transforms.TypeCast(ms.int32), "label").batch(4, drop_remainder=True)
    assert data.output_types() == [np.dtype("float32"), np.dtype("int32")]
    assert data.output_shapes() == [[4, 1, 32, 32], [4]]
    assert data.get_dataset_size() == 1


def test_map_error_names_the_operation_and_row():
    def explode(x):
        if x == 7:
            raise ZeroDivisionError("row seven")
        return x

    data = _ten().map(explode, "x")
    with pytest.raises(RuntimeError, match=r"Exception thrown from dataset pipeline[\s\S]*MapDataset.*explode.*"
                                           r"ZeroDivisionError: row seven.*row 7") as info:
        list(data)
    assert isinstance(info.value.__cause__, ZeroDivisionError)
    with pytest.raises(RuntimeError, match=r"NumpySlicesDataset.map.*'nope'.*does not exist.*\['x', 'y'\]"):
        _ten().map(lambda x: x, input_columns="nope")


def test_batch_sizes_remainder_and_static_shape():
    assert [len(r[0]) for r in _rows(_ten().batch(4))] == [4, 4, 2]
    assert _ten().batch(4).get_dataset_size() == 3
    dropped = _ten().batch(4, drop_remainder=True)
    assert dropped.get_dataset_size() == 2 and dropped.get_batch_size() == 4
    assert dropped.to_tf_dataset().element_spec[0].shape == tf.TensorShape([4])
    with pytest.raises(ValueError, match=r"NumpySlicesDataset.batch.*batch_size.*\[1, 2147483647\].*got 0"):
        _ten().batch(0)


def test_batch_of_different_shapes_fails_at_execution():
    data = ds.GeneratorDataset(lambda: iter([(np.zeros(1),), (np.zeros(2),)]), ["c"]).batch(2)
    with pytest.raises(RuntimeError, match=r"Exception thrown from dataset pipeline[\s\S]*shape"):
        list(data)


def test_per_batch_map_and_batch_info():
    seen = []

    def scale(xs, info):
        seen.append((info.get_batch_num(), info.get_epoch_num()))
        return ([x * 100 for x in xs],)

    data = _ten().batch(4, per_batch_map=scale, input_columns=["x"])
    assert _rows(data) == [[[0, 100, 200, 300], [0, 10, 20, 30]], [[400, 500, 600, 700], [40, 50, 60, 70]],
                           [[800, 900], [80, 90]]]
    assert seen[-3:] == [(0, 0), (1, 0), (2, 0)]


def test_padded_batch_pads_to_longest_or_given_shape():
    def gen():
        for n in range(1, 5):
            yield (np.arange(n),)

    longest = ds.GeneratorDataset(gen, ["c"]).padded_batch(2, pad_info={})
    assert [r[0] for r in _rows(longest)] == [[[0, 0], [0, 1]], [[0, 1, 2, 0], [0, 1, 2, 3]]]
    fixed = ds.GeneratorDataset(gen, ["c"]).padded_batch(2, pad_info={"c": ([5], -1)})
    assert _rows(fixed)[0][0] == [[0, -1, -1, -1, -1], [0, 1, -1, -1, -1]]


def test_repeat_then_batch_crosses_the_epoch_boundary():
    data = _ten().project("x").repeat(2).batch(4)
    rows = [r[0] for r in _rows(data)]
    assert len(rows) == 5 and rows[2] == [8, 9, 0, 1]
    assert data.get_dataset_size() == 5 and data.get_repeat_count() == 2
    assert _ten().batch(4).repeat(2).get_dataset_size() == 6
    assert ds.NumpySlicesDataset([1, 2, 3]).repeat().get_dataset_size() == 3


def test_shuffle_keeps_rows_and_changes_order_per_epoch():
    data = ds.NumpySlicesDataset(list(range(30)), shuffle=False).shuffle(30)
    it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    first = [int(r[0]) for r in it]
    second = [int(r[0]) for r in it]
    assert sorted(first) == sorted(second) == list(range(30))
    assert first != second and data.get_dataset_size() == 30
    with pytest.raises(ValueError, match=r"buffer_size.*got 1"):
        ds.NumpySlicesDataset([1, 2]).shuffle(1)


def test_take_skip_project_rename():
    assert _ten().take(3).get_dataset_size() == 3 and [r[0] for r in _rows(_ten().take(3))] == [0, 1, 2]
    assert _ten().skip(8).get_dataset_size() == 2 and [r[0] for r in _rows(_ten().skip(8))] == [8, 9]
    projected = _ten().project(["y", "x"])
    assert projected.get_col_names() == ["y", "x"] and _rows(projected)[1] == [10, 1]
    renamed = _ten().rename("x", "xx")
    assert renamed.get_col_names() == ["xx", "y"] and _rows(renamed)[1] == [1, 10]
    with pytest.raises(RuntimeError, match=r"project.*'z'.*does not exist"):
        _ten().project(["z"])


def test_zip_and_concat():
    a = ds.NumpySlicesDataset({"a": list(range(5))}, shuffle=False)
    b = ds.NumpySlicesDataset({"b": list(range(7))}, shuffle=False)
    zipped = ds.zip((a, b))
    assert zipped.get_col_names() == ["a", "b"] and zipped.get_dataset_size() == 5
    assert _rows(zipped)[4] == [4, 4]
    c = ds.NumpySlicesDataset({"c": [1]}).zip(ds.NumpySlicesDataset({"d": [2, 3]}))
    assert c.get_col_names() == ["c", "d"] and c.get_dataset_size() == 1
    with pytest.raises(RuntimeError, match=r"different column names.*\['x'\]"):
        ds.zip((ds.NumpySlicesDataset({"x": [1]}), ds.NumpySlicesDataset({"x": [2]})))
    joined = ds.NumpySlicesDataset([1, 2], shuffle=False) + ds.NumpySlicesDataset([3], shuffle=False)
    assert joined.get_dataset_size() == 3 and [r[0] for r in _rows(joined)] == [1, 2, 3]
    with pytest.raises(ValueError, match=r"same column names"):
        ds.NumpySlicesDataset({"p": [1]}).concat(ds.NumpySlicesDataset({"q": [1]}))


def test_filter_counts_by_running():
    data = _ten().filter(lambda x: x % 3 == 0, input_columns=["x"])
    assert [r[0] for r in _rows(data)] == [0, 3, 6, 9]
    assert data.get_dataset_size() == 4


def test_split_sizes_and_disjointness():
    first, second = ds.NumpySlicesDataset(list(range(10))).split([0.8, 0.2])
    assert (first.get_dataset_size(), second.get_dataset_size()) == (8, 2)
    values = [r[0] for r in _rows(first)] + [r[0] for r in _rows(second)]
    assert sorted(values) == list(range(10))
    a, b, c = ds.NumpySlicesDataset(list(range(10)), shuffle=False).split([5, 3, 2], randomize=False)
    assert [[r[0] for r in _rows(d)] for d in (a, b, c)] == [[0, 1, 2, 3, 4], [5, 6, 7], [8, 9]]
    x, y = ds.GeneratorDataset(lambda: iter([(i,) for i in range(5)]), ["v"]).split([3, 2], randomize=False)
    assert [r[0] for r in _rows(x)] == [0, 1, 2] and [r[0] for r in _rows(y)] == [3, 4]
    with pytest.raises(RuntimeError, match=r"sum of split sizes 9 is not equal to dataset size 10"):
        ds.NumpySlicesDataset(list(range(10))).split([5, 4])


def test_callable_batch_size_gets_batch_and_epoch_numbers():
    calls = []

    def grow(info):
        calls.append((info.get_batch_num(), info.get_epoch_num()))
        return info.get_batch_num() + 1

    data = _ten().project("x").batch(grow, drop_remainder=True)
    it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [r[0].tolist() for r in it] == [[0], [1, 2], [3, 4, 5], [6, 7, 8, 9]]
    assert [len(r[0]) for r in it] == [1, 2, 3, 4]
    assert (0, 1) in calls and data.get_dataset_size() == 4
    with pytest.raises(RuntimeError, match=r"callable batch_size must return an int.*returned 0"):
        list(_ten().batch(lambda info: 0))


def test_project_after_map_runs_upstream_once_per_row():
    """A project evaluates the columns above it once per row, not once per projected column (chains of
    map/project, as BERT's CMNLI preprocessing builds, grew exponentially and never finished)."""
    calls = []

    def two_columns(x):
        calls.append(1)
        return x, x * 2

    data = ds.NumpySlicesDataset({"a": np.arange(3, dtype=np.int32)}, shuffle=False)
    data = data.map(operations=two_columns, input_columns=["a"], output_columns=["a", "b"])
    data = data.project(["a", "b"])
    for _ in range(2):
        data = data.map(operations=ds.transforms.Duplicate(), input_columns=["a"], output_columns=["a", "c"])
        data = data.project(["a", "b", "c"])
        data = data.map(operations=ds.transforms.TypeCast(np.int32), input_columns=["c"])
        data = data.project(["a", "b"])
    rows = [(int(r["a"]), int(r["b"])) for r in data.create_dict_iterator(output_numpy=True)]
    assert rows == [(0, 0), (1, 2), (2, 4)]
    assert len(calls) == 3 + 1  # one call per row, and the engine's one probe call for the output types
