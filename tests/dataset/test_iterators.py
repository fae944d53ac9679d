"""Tuple and dict iterators: row types, columns, epochs, Tensor dtypes, errors."""
import time

import numpy as np
import tensorflow as tf
import pytest

import tfspore as ms
import tfspore.dataset as ds
from tfspore.dataset import transforms


def _data():
    return ds.NumpySlicesDataset({"image": np.arange(12, dtype=np.uint8).reshape(3, 2, 2),
                                  "label": np.array([0, 1, 2], np.int32),
                                  "score": np.array([0.5, 1.5, 2.5], np.float32)}, shuffle=False)


def test_tuple_rows_are_lists_of_tensors_with_matching_dtypes():
    rows = list(_data().create_tuple_iterator())
    assert len(rows) == 3 and isinstance(rows[0], list)
    image, label, score = rows[1]
    assert isinstance(image, ms.Tensor) and image.dtype == ms.uint8 and image.shape == (2, 2)
    assert label.dtype == ms.int32 and score.dtype == ms.float32
    np.testing.assert_array_equal(image.asnumpy(), [[4, 5], [6, 7]])


def test_output_numpy_columns_and_dict_rows():
    rows = list(_data().create_tuple_iterator(columns=["label", "image"], output_numpy=True))
    assert isinstance(rows[0][0], np.ndarray) and rows[0][0].dtype == np.int32 and rows[0][0].shape == ()
    assert [int(r[0]) for r in rows] == [0, 1, 2] and rows[2][1].shape == (2, 2)
    dicts = list(_data().create_dict_iterator())
    assert list(dicts[0]) == ["image", "label", "score"]
    assert isinstance(dicts[0]["score"], ms.Tensor) and float(dicts[2]["score"].asnumpy()) == 2.5
    with pytest.raises(RuntimeError, match=r"create_tuple_iterator.*'nope'.*does not exist"):
        _data().create_tuple_iterator(columns=["nope"])


def test_plain_iteration_is_a_tuple_iterator():
    rows = [row for row in _data()]
    assert len(rows) == 3 and isinstance(rows[0], list) and isinstance(rows[0][1], ms.Tensor)


def test_num_epochs_and_continuing_with_the_next_epoch():
    data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False)
    it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [int(r[0]) for r in it] == [1, 2, 3]
    assert [int(r[0]) for r in it] == [1, 2, 3]
    assert [int(r[0]) for r in it] == []  # two epochs delivered
    unlimited = data.create_tuple_iterator(output_numpy=True)
    for _ in range(4):
        assert [int(r[0]) for r in unlimited] == [1, 2, 3]


def test_breaking_out_continues_the_same_epoch_and_reset_moves_on():
    data = ds.NumpySlicesDataset([1, 2, 3, 4], shuffle=False)
    it = data.create_tuple_iterator(num_epochs=3, output_numpy=True)
    assert int(next(it)[0]) == 1
    assert [int(r[0]) for r in it] == [2, 3, 4]
    assert int(next(it)[0]) == 1
    it.reset()  # abandon epoch 2
    assert [int(r[0]) for r in it] == [1, 2, 3, 4]
    assert it.current_epoch == 3 and list(it) == []


def test_a_new_iterator_starts_from_the_beginning():
    data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False)
    first = data.create_tuple_iterator(output_numpy=True)
    next(first)
    assert int(next(data.create_tuple_iterator(output_numpy=True))[0]) == 1


def test_string_columns_come_back_as_str_arrays():
    data = ds.NumpySlicesDataset({"word": ["ab", "cd"]}, shuffle=False)
    rows = list(data.create_tuple_iterator())
    assert isinstance(rows[0][0], np.ndarray) and rows[1][0].item() == "cd"
    assert list(data.map(lambda w: np.char.upper(w)).create_tuple_iterator(output_numpy=True))[0][0] == "AB"


def test_bad_num_epochs():
    with pytest.raises(ValueError, match=r"create_tuple_iterator.*num_epochs.*got 0"):
        _data().create_tuple_iterator(num_epochs=0)


def test_passes_of_a_sized_pipeline_share_one_iterator_with_fresh_shuffles():
    """A pipeline TensorFlow knows the size of runs on as one iterator over every pass (it stays
    warm and prepares the next pass); each pass still ends with StopIteration, holds every row
    once and is shuffled anew, and num_epochs, break-and-continue and reset keep their meaning."""
    ds.config.set_seed(5)
    data = ds.NumpySlicesDataset(list(range(20)), shuffle=True)
    it = data.create_tuple_iterator(num_epochs=3, output_numpy=True)
    passes = [[int(r[0]) for r in it] for _ in range(4)]
    assert it._per_pass == 20  # pylint: disable=protected-access  # the shared iterator was used
    assert [sorted(p) for p in passes[:3]] == [list(range(20))] * 3 and passes[3] == []
    assert passes[0] != passes[1] or passes[1] != passes[2]
    it = ds.NumpySlicesDataset([1, 2, 3, 4], shuffle=False).create_tuple_iterator(num_epochs=3, output_numpy=True)
    assert int(next(it)[0]) == 1 and int(next(it)[0]) == 2
    it.reset()
    assert [int(r[0]) for r in it] == [1, 2, 3, 4]
    assert [int(r[0]) for r in it] == [1, 2, 3, 4] and list(it) == [] and it.current_epoch == 3


def test_pipelines_running_python_open_one_iterator_per_pass():
    calls = []

    def gen():
        calls.append(1)
        yield from ([1], [2])

    it = ds.GeneratorDataset(gen, ["x"]).create_tuple_iterator(output_numpy=True)
    assert [int(r[0]) for r in it] == [1, 2]
    before = len(calls)
    time.sleep(0.3)  # a shared iterator's prefetching would start the next pass meanwhile
    assert it._per_pass == -1 and len(calls) == before  # pylint: disable=protected-access
    assert [int(r[0]) for r in it] == [1, 2] and len(calls) == before + 1
    plain = ds.NumpySlicesDataset([1, 2, 3], shuffle=False)
    for data, python in ((plain.map(transforms.TypeCast(np.int32)), False), (plain.map(lambda x: x), True),
                         (plain.filter(lambda x: True), True),
                         (plain.batch(2, per_batch_map=lambda x, info: (x,)), True),
                         (ds.from_tf_data(tf.data.Dataset.range(3)), True)):
        assert data._runs_python() is python  # pylint: disable=protected-access


def _two_epochs(data):
    """Every numpy array of two passes, each written over as soon as it is delivered."""
    seen = []
    it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    for _ in range(2):  # each pass ends with StopIteration
        for row in it:
            seen.append([a.copy() for a in row])
            for a in row:
                assert a.flags.writeable  # as MindSpore's arrays
                a[...] = 99
    return seen


def test_output_numpy_arrays_are_writable_and_writing_changes_nothing_delivered_later():
    """Batches come out without a copy (they are made for the delivery); rows of an in-memory source,
    a per_batch_map's arrays and constant outputs are copied: writing into a delivered array never
    changes a later row, the next pass or the user's own arrays."""
    images = np.arange(48, dtype=np.uint8).reshape(6, 2, 2, 2)
    kept = np.full((2, 3), 7, np.int32)
    cases = {
        "gathered batches": ds.NumpySlicesDataset({"x": images}, shuffle=False).batch(2),
        "rows": ds.NumpySlicesDataset({"x": images}, shuffle=False),
        "batch-level map": ds.NumpySlicesDataset({"x": images}, shuffle=False).map(
            transforms.TypeCast(np.float32), input_columns="x").batch(4),
        "per_batch_map": ds.NumpySlicesDataset({"x": images}, shuffle=False).batch(
            2, per_batch_map=lambda x, info: (kept,), input_columns=["x"]),
        "repeat of batches": ds.NumpySlicesDataset({"x": images}, shuffle=False).batch(3).repeat(2),
        "callable batch size": ds.NumpySlicesDataset({"x": images}, shuffle=False).batch(lambda info: 2),
        "Python batches": ds.GeneratorDataset(lambda: iter([(images[0],), (images[1],)]), ["x"]).batch(2),
    }
    for name, data in cases.items():
        seen = _two_epochs(data)
        half = len(seen) // 2
        assert all(np.array_equal(a[0], b[0]) for a, b in zip(seen[:half], seen[half:])), name
        assert 99 not in np.concatenate([np.ravel(r[0]) for r in seen]), name
    np.testing.assert_array_equal(kept, 7)
    np.testing.assert_array_equal(images, np.arange(48).reshape(6, 2, 2, 2))


def test_a_batch_level_transform_with_a_constant_output_still_gives_each_batch_its_own_array():
    from tfspore.dataset.transforms._base import TensorOperation  # the engine's contract for transforms

    class Zeros(TensorOperation):
        def _apply(self, x):
            return tf.zeros([3], tf.int32)

        def _batch_ok(self, shapes, dtypes):
            return True

        def _apply_batch(self, x):
            return tf.zeros([2, 3], tf.int32)  # a constant of the batch's static shape

    data = ds.NumpySlicesDataset({"x": np.arange(4, dtype=np.int32)}, shuffle=False).map(Zeros(), "x")
    seen = _two_epochs(data.batch(2, drop_remainder=True))
    assert len(seen) == 4 and all(np.array_equal(r[0], np.zeros([2, 3])) for r in seen)


def test_tf_data_autotuning_follows_set_enable_autotune():
    """Off by default, as MindSpore's autotune: the pipeline runs the parallelism it was given."""
    data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).map(transforms.TypeCast(np.int64))
    assert ds.config.get_enable_autotune() is False
    assert data.to_tf_dataset().options().autotune.enabled is False
    ds.config.set_enable_autotune(True)
    try:
        assert data.to_tf_dataset().options().autotune.enabled is True
        assert [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == [1, 2, 3]
    finally:
        ds.config.set_enable_autotune(False)
    with pytest.raises(TypeError, match="enable"):
        ds.config.set_enable_autotune(1)
