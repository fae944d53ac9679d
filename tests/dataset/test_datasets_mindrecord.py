"""MindDataset over MindRecord files: columns, dtypes, sharding, shuffle modes, padding, errors."""
import numpy as np
import pytest

import tfspore.dataset as ds
import tfspore.dataset.engine.datasets_mindrecord as dm
from tfspore.mindrecord import FileWriter
from tfspore.mindrecord.core.shardformat import compress_ints, decompress_many

SCHEMA = {"label": {"type": "int32"}, "id": {"type": "int64"}, "w": {"type": "float32"}, "name": {"type": "string"},
          "img": {"type": "bytes"}, "tokens": {"type": "int64", "shape": [-1]},
          "mask": {"type": "int32", "shape": [2, 2]}, "feat": {"type": "float64", "shape": [-1, 3]}}


def _row(i):
    return {"label": i, "id": 10 ** 12 + i, "w": i / 4, "name": f"r{i}", "img": bytes([i, 255 - i]) * (i + 1),
            "tokens": np.arange(i + 1, dtype=np.int64) * 100000 - 7, "mask": np.full((2, 2), i - 3, np.int32),
            "feat": np.full((i % 3 + 1, 3), i * 0.5)}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("minddataset")
    writer = FileWriter(str(root / "d.mindrecord"), shard_num=2)
    writer.add_schema(SCHEMA, "unit")
    writer.write_raw_data([_row(i) for i in range(10)])
    writer.commit()
    return [str(root / "d.mindrecord0"), str(root / "d.mindrecord1")]


def _labels(data):
    return [int(r["label"]) for r in data.create_dict_iterator(output_numpy=True, num_epochs=1)]


def test_columns_dtypes_and_values(files):
    data = ds.MindDataset(files[0], shuffle=False)
    assert data.get_col_names() == sorted(SCHEMA)
    assert data.get_dataset_size() == 10
    rows = list(data.create_dict_iterator(output_numpy=True, num_epochs=1))
    for i, row in enumerate(rows):
        want = _row(i)
        assert row["label"].dtype == np.int32 and int(row["label"]) == i
        assert row["id"].dtype == np.int64 and int(row["id"]) == want["id"]
        assert row["w"].dtype == np.float32 and float(row["w"]) == want["w"]
        assert str(row["name"]) == want["name"]
        assert row["img"].dtype == np.uint8 and row["img"].tobytes() == want["img"]
        for key in ("tokens", "mask", "feat"):
            assert row[key].dtype == want[key].dtype and row[key].shape == want[key].shape
            np.testing.assert_array_equal(row[key], want[key])


def test_file_list_and_columns_list(files):
    data = ds.MindDataset([files[1]], columns_list=["tokens", "label"], shuffle=False)
    assert data.get_col_names() == ["tokens", "label"]
    assert _labels(data) == [5, 6, 7, 8, 9]
    with pytest.raises(RuntimeError, match=r"do not have the columns \['nope'\]"):
        ds.MindDataset(files, columns_list=["nope"])


def test_shards_num_samples_and_sampler(files):
    got = [_labels(ds.MindDataset(files, columns_list=["label"], shuffle=False, num_shards=3, shard_id=k))
           for k in range(3)]
    assert got == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]  # strided, wrap-padded (as MindSpore)
    data = ds.MindDataset(files, columns_list=["label"], shuffle=False, num_samples=3)
    assert data.get_dataset_size() == 3 and _labels(data) == [0, 1, 2]
    assert _labels(ds.MindDataset(files, columns_list=["label"], sampler=ds.SequentialSampler(4, 2))) == [4, 5]


def test_padded_sample(files):
    pad = {"label": -1, "tokens": np.array([0], np.int64), "img": b"\x00"}
    data = ds.MindDataset(files, columns_list=["label", "tokens", "img"], shuffle=False, num_shards=4, shard_id=3,
                          padded_sample=pad, num_padded=2)
    rows = list(data.create_dict_iterator(output_numpy=True, num_epochs=1))
    assert [int(r["label"]) for r in rows] == [3, 7, -1]
    assert rows[2]["tokens"].tolist() == [0] and rows[2]["img"].tolist() == [0]
    with pytest.raises(RuntimeError, match="requires columns_list"):
        ds.MindDataset(files, padded_sample=pad, num_padded=2, num_shards=2, shard_id=0)
    with pytest.raises(RuntimeError, match="num_padded is specified but padded_sample is not"):
        ds.MindDataset(files, num_padded=2)
    with pytest.raises(ValueError, match="padded_sample cannot match columns_list"):
        ds.MindDataset(files, columns_list=["name"], padded_sample=pad, num_padded=1)


@pytest.mark.parametrize("mode", [ds.Shuffle.GLOBAL, ds.Shuffle.FILES, ds.Shuffle.INFILE, True, None])
def test_shuffle_modes_keep_every_row(files, mode):
    epochs = []
    old_seed = ds.config.get_seed()
    try:
        for seed in range(1, 5):
            ds.config.set_seed(seed)
            epochs.append(_labels(ds.MindDataset(files, columns_list=["label"], shuffle=mode)))
    finally:
        ds.config.set_seed(old_seed)
    assert all(sorted(e) == list(range(10)) for e in epochs)
    assert any(e != list(range(10)) for e in epochs)
    if mode == ds.Shuffle.FILES:  # rows stay in order inside each file
        assert all(e in ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [5, 6, 7, 8, 9, 0, 1, 2, 3, 4]) for e in epochs)
    if mode == ds.Shuffle.INFILE:  # files stay in order
        assert all(sorted(e[:5]) == [0, 1, 2, 3, 4] for e in epochs)


def test_file_shuffle_with_shards(files):
    parts = [_labels(ds.MindDataset(files, columns_list=["label"], shuffle=ds.Shuffle.INFILE, num_shards=2,
                                    shard_id=k)) for k in range(2)]
    assert [len(p) for p in parts] == [5, 5]
    assert ds.MindDataset(files, shuffle=ds.Shuffle.FILES, num_shards=3, shard_id=0).get_dataset_size() == 4


def test_batched_pipeline_and_map(files):
    data = ds.MindDataset(files, columns_list=["mask", "label"], shuffle=False)
    data = data.map(lambda m: m * 2, input_columns="mask").batch(4, drop_remainder=True)
    batches = list(data.create_tuple_iterator(output_numpy=True, num_epochs=1))
    assert len(batches) == 2 and batches[0][0].shape == (4, 2, 2)
    np.testing.assert_array_equal(batches[1][0][:, 0, 0], (np.arange(4, 8) - 3) * 2)


def test_dense_columns_gather_batches(files):
    dense = ds.MindDataset(files, columns_list=["mask", "label", "name"], shuffle=False)
    assert dense._gathers_batches  # pylint: disable=protected-access
    assert not ds.MindDataset(files, columns_list=["tokens"], shuffle=False)._gathers_batches  # ragged


def test_bulk_decompression_matches_per_row():
    rng = np.random.default_rng(0)
    rows = [rng.integers(-2 ** 40, 2 ** 40, rng.integers(0, 9)) // (10 ** rng.integers(0, 12)) for _ in range(100)]
    values, splits = decompress_many([compress_ints(r) for r in rows], "int64")
    for i, r in enumerate(rows):
        np.testing.assert_array_equal(values[splits[i]:splits[i + 1]], r)
    with pytest.raises(ValueError, match="row 1 .* does not hold 5 elements"):
        decompress_many([compress_ints(np.arange(3)), compress_ints(np.arange(5))[:-1]], "int64")


def test_missing_file_errors(tmp_path):
    with pytest.raises(ValueError, match="nofile.mindrecord does not exist"):
        ds.MindDataset(str(tmp_path / "nofile.mindrecord"))
    with pytest.raises(TypeError, match="dataset_files"):
        ds.MindDataset(5)


def _rows_of(data):
    return [{k: v.tolist() for k, v in r.items()} for r in data.create_dict_iterator(output_numpy=True, num_epochs=1)]


def test_large_files_stream_blob_fields(files, monkeypatch):
    """Above the size limit blob fields are read chunk by chunk from the files: same rows."""
    in_memory = [_rows_of(ds.MindDataset(files, shuffle=False)),
                 _rows_of(ds.MindDataset(files, columns_list=["img", "label", "tokens"], shuffle=False, num_shards=3,
                                         shard_id=1))]
    monkeypatch.setattr(dm, "STREAM_BLOB_BYTES", 0)
    streamed = ds.MindDataset(files, shuffle=False)
    assert streamed._stream is not None  # pylint: disable=protected-access
    assert _rows_of(streamed) == in_memory[0]
    assert _rows_of(ds.MindDataset(files, columns_list=["img", "label", "tokens"], shuffle=False, num_shards=3,
                                   shard_id=1)) == in_memory[1]
    shuffled = _rows_of(ds.MindDataset(files, columns_list=["tokens", "label"]))
    assert sorted(r["label"] for r in shuffled) == list(range(10))
    assert all(r["tokens"] == _row(r["label"])["tokens"].tolist() for r in shuffled)


def test_streamed_corrupt_blob_is_reported(tmp_path, monkeypatch):
    path = str(tmp_path / "c.mindrecord")
    writer = FileWriter(path)
    writer.add_schema({"tokens": {"type": "int64", "shape": [-1]}, "label": {"type": "int32"}}, "c")
    writer.write_raw_data([{"tokens": np.arange(5, dtype=np.int64), "label": 1}])
    writer.commit()
    with open(path, "r+b") as f:  # the element count of the first array
        f.seek(16 * 1024 * 1024 + 8)
        f.write(b"\x00\x00\x01\x00")
    monkeypatch.setattr(dm, "STREAM_BLOB_BYTES", 0)
    with pytest.raises(RuntimeError, match="field 'tokens' of .*c.mindrecord.* is corrupt"):
        _rows_of(ds.MindDataset(path))
    monkeypatch.undo()
    with pytest.raises(RuntimeError, match="c.mindrecord.* are corrupt: field 'tokens'"):
        ds.MindDataset(path)
