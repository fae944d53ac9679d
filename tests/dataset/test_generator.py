"""GeneratorDataset over generators, iterables and random-access objects."""
import numpy as np
import pytest

import tfspore.dataset as ds


def _column(data, k=0):
    return [row[k].tolist() for row in data.create_tuple_iterator(output_numpy=True)]


class MyDataset:
    """The migration guide's random-access source (with its typos fixed)."""

    def __init__(self, n):
        self.data = [np.zeros((3, 4, 5)) + i for i in range(n)]
        self.label = [np.ones((1,)) * i for i in range(n)]

    def __len__(self):
        return len(self.data)

    def __getitem__(self, idx):
        return self.data[idx], self.label[idx]


def test_migration_guide_random_access_example():
    data = ds.GeneratorDataset(MyDataset(100), column_names=["data", "label"])
    assert data.get_dataset_size() == 100
    assert data.get_col_names() == ["data", "label"]
    assert data.output_shapes() == [[3, 4, 5], [1]]
    assert data.output_types() == [np.dtype("float64"), np.dtype("float64")]
    rows = list(data.create_dict_iterator(output_numpy=True))
    labels = [int(r["label"][0]) for r in rows]
    assert sorted(labels) == list(range(100)) and labels != list(range(100))  # shuffled by default
    assert all(float(r["data"][0, 0, 0]) == float(r["label"][0]) for r in rows)
    batch = next(iter(data.batch(4, drop_remainder=True).create_tuple_iterator()))
    assert isinstance(batch, list) and batch[0].shape == (4, 3, 4, 5)


def test_generator_function_rows_and_python_scalar_types():
    def gen():
        for i in range(5):
            yield np.array([i], np.int32), i, float(i)

    data = ds.GeneratorDataset(gen, ["a", "b", "c"], shuffle=True)  # shuffle is ignored for generators
    assert data.output_types() == [np.dtype("int32"), np.dtype("int64"), np.dtype("float64")]
    assert _column(data, 1) == [0, 1, 2, 3, 4]
    assert data.get_dataset_size() == 5  # counted by running the pipeline


def test_iterable_and_single_value_rows():
    class Numbers:
        def __iter__(self):
            return iter(range(3))

    data = ds.GeneratorDataset(Numbers(), "n")
    assert data.get_col_names() == ["n"]
    assert _column(data) == [0, 1, 2]
    assert _column(data) == [0, 1, 2]  # iterated afresh every epoch


def test_random_access_shuffle_flag_and_sharding():
    assert _column(ds.GeneratorDataset(MyDataset(5), ["d", "l"], shuffle=False), 1) == [[0.0], [1.0], [2.0],
                                                                                         [3.0], [4.0]]
    shard = ds.GeneratorDataset(MyDataset(10), ["d", "l"], shuffle=False, num_shards=3, shard_id=2)
    assert [v[0] for v in _column(shard, 1)] == [2.0, 5.0, 8.0, 1.0]


def test_column_types_cast_and_num_samples():
    data = ds.GeneratorDataset(lambda: iter([(1,), (2,), (3,)]), ["x"], column_types=[np.float32], num_samples=2)
    assert data.output_types() == [np.dtype("float32")]
    assert _column(data) == [1.0, 2.0]


def test_schema_gives_names():
    schema = ds.Schema()
    schema.add_column("x", de_type=np.int32)
    data = ds.GeneratorDataset(lambda: iter([(1,), (2,)]), schema=schema)
    assert data.get_col_names() == ["x"] and data.output_types() == [np.dtype("int32")]


def test_errors():
    with pytest.raises(ValueError, match="neither columns_names nor schema are provided"):
        ds.GeneratorDataset(lambda: iter([]))
    with pytest.raises(ValueError, match=r"num_shards is not supported if source does not have attribute "
                                         r"'__getitem__'"):
        ds.GeneratorDataset(lambda: iter([(1,)]), ["x"], num_shards=2, shard_id=0)

    class Broken(MyDataset):
        def __getitem__(self, idx):
            if idx == 3:
                raise KeyError("no row here")
            return super().__getitem__(idx)

    data = ds.GeneratorDataset(Broken(6), ["d", "l"], shuffle=False)
    with pytest.raises(RuntimeError, match=r"Exception thrown from dataset pipeline[\s\S]*__getitem__.*KeyError.*"
                                           r"no row here.*index 3") as info:
        list(data)
    assert isinstance(info.value.__cause__, KeyError)

    def bad_gen():
        yield (1,)
        yield ("text", 2)

    with pytest.raises(RuntimeError, match=r"GeneratorDataset.*row 1"):
        list(ds.GeneratorDataset(bad_gen, ["x"]))


class _IndexRecorder:
    """A random-access source whose rows are built from the index it receives."""

    def __init__(self, n):
        self.n = n
        self.seen = []

    def __len__(self):
        return self.n

    def __getitem__(self, index):
        self.seen.append(type(index))
        ids = np.asarray(index)
        return (ids * 10).astype(np.int32), np.array(ids.ndim, np.int32)


class _ListSampler(ds.Sampler):
    """Yields lists of indices (and one bare index), as batched samplers in the model zoo do."""

    def __iter__(self):
        yield [3, 1, 7]
        yield 4
        yield [0, 2]


def test_sampler_yielding_lists_passes_one_numpy_int_index_per_row():
    # MindSpore 2.10 flattens the yielded lists and calls __getitem__ once per id, with a numpy int64.
    source = _IndexRecorder(8)
    data = ds.GeneratorDataset(source, ["value", "ndim"], sampler=_ListSampler())
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert [int(r[0]) for r in rows] == [30, 10, 70, 40, 0, 20]
    assert [int(r[1]) for r in rows] == [0] * 6
    assert set(source.seen) == {np.int64}


def test_plain_iterable_sampler_of_lists_is_flattened():
    source = _IndexRecorder(6)
    data = ds.GeneratorDataset(source, ["value", "ndim"], sampler=_IterOfLists())
    assert [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == [50, 40, 10, 20]


class _IterOfLists:
    """A plain iterable (not a Sampler subclass) of index lists."""

    def __iter__(self):
        return iter([[5, 4], (1,), np.array([2])])


def test_column_dtype_change_mid_epoch_raises_instead_of_casting():
    """A column that switches float32 -> float64 is not cast silently (MindSpore passes it on and fails at batch)."""
    def gen():
        for i in range(4):
            yield (np.full(2, 1.5, np.float32 if i < 2 else np.float64),)

    data = ds.GeneratorDataset(gen, ["x"], shuffle=False)
    with pytest.raises(RuntimeError, match=r"row 2 .*column 'x' has dtype float64, but the first row had float32"):
        list(data.create_tuple_iterator(output_numpy=True, num_epochs=1))
    typed = ds.GeneratorDataset(gen, ["x"], column_types=[np.float32], shuffle=False)  # the explicit cast still works
    assert [r[0].dtype for r in typed.create_tuple_iterator(output_numpy=True, num_epochs=1)] == [np.float32] * 4


def test_one_shot_generator_object_keeps_its_first_row():
    """A generator object is read once: the row read to learn the column types is not lost."""
    import tfspore.dataset as ds_mod

    def rows():
        for i in range(3):
            yield (np.array([i], np.int32),)

    data = ds_mod.GeneratorDataset(rows(), ["x"], shuffle=False)
    got = [int(r[0][0]) for r in data.create_tuple_iterator(output_numpy=True)]
    assert got == [0, 1, 2]


class _Rows:
    def __init__(self, n):
        self.n = n
        self.asked = []

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        self.asked.append(i)
        return np.full((2,), i, np.int64), float(i)


def test_batch_sampler_makes_one_batch_per_list_of_ids():
    source = _Rows(6)
    data = ds.GeneratorDataset(source, ["x", "y"], column_types=[np.float32, np.float64],
                               batch_sampler=[[4, 0], [1, 2, 3], [5]])
    assert data.get_dataset_size() == 3
    rows = [[a.tolist() for a in r] for r in data.create_tuple_iterator(output_numpy=True)]
    assert rows == [[[[4, 4], [0, 0]], [4, 0]], [[[1, 1], [2, 2], [3, 3]], [1, 2, 3]], [[[5, 5]], [5]]]
    first = next(data.create_tuple_iterator(output_numpy=True))
    assert first[0].dtype == np.float32 and first[1].dtype == np.float64  # column_types: the rows' types
    assert all(type(i) is np.int64 for i in source.asked)  # as MindSpore hands the ids over


def test_collate_fn_gets_each_columns_rows():
    seen = []

    def collate(xs, ys):
        seen.append((len(xs), [type(x).__name__ for x in xs]))
        return np.stack(xs).sum(axis=0), np.array(len(ys), np.int32)

    data = ds.GeneratorDataset(_Rows(5), ["x", "n"], batch_sampler=[[0, 1], [2, 3, 4]], collate_fn=collate)
    rows = [[a.tolist() for a in r] for r in data.create_tuple_iterator(output_numpy=True)]
    assert rows == [[[1, 1], 2], [[9, 9], 3]]
    assert seen[-1] == (3, ["ndarray"] * 3)
    # one-shot batch samplers (iterators) lose no batch to the dataset's first look at the data
    data = ds.GeneratorDataset(_Rows(5), ["x", "n"], batch_sampler=iter([[0], [1, 2]]), collate_fn=collate)
    assert [[a.tolist() for a in r] for r in data.create_tuple_iterator(output_numpy=True)] == [[[0, 0], 1],
                                                                                                [[3, 3], 2]]


def test_batch_sampler_and_collate_fn_errors():
    with pytest.raises(ValueError, match=r"batch_sampler is mutually exclusive with .*'sampler'"):
        ds.GeneratorDataset(_Rows(3), ["x", "y"], batch_sampler=[[0]], sampler=ds.SequentialSampler())
    with pytest.raises(TypeError, match="batch_sampler should have __getitem__ or __iter__ method, but got 3"):
        ds.GeneratorDataset(_Rows(3), ["x", "y"], batch_sampler=3)
    with pytest.raises(ValueError, match="batch_sampler is not supported if source does not have attribute"):
        ds.GeneratorDataset(lambda: iter([(1, 2)]), ["x", "y"], batch_sampler=[[0]])
    with pytest.raises(ValueError, match="collate_fn can be specified only when batch_sampler is set"):
        ds.GeneratorDataset(_Rows(3), ["x", "y"], collate_fn=len)
    with pytest.raises(TypeError, match="collate_fn should be callable, but got 'f'"):
        ds.GeneratorDataset(_Rows(3), ["x", "y"], batch_sampler=[[0]], collate_fn="f")
    with pytest.raises(NotImplementedError, match="a built-in sampler as batch_sampler"):
        ds.GeneratorDataset(_Rows(3), ["x", "y"], batch_sampler=ds.SequentialSampler())
