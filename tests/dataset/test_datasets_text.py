"""``CLUEDataset`` (tfspore.dataset.engine.datasets_text)."""
import json

import pytest

import tfspore.dataset as ds


def _write(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    return str(path)


def _ids(data):
    return [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]


def test_afqmc_columns_and_rows(tmp_path):
    f = _write(tmp_path / "a.json", [{"sentence1": "你好", "sentence2": "b", "label": "1"},
                                     {"sentence1": "c", "sentence2": "d", "label": "0"}])
    data = ds.CLUEDataset(f, task="AFQMC", usage="train", shuffle=False)
    assert data.get_col_names() == ["label", "sentence1", "sentence2"]
    assert data.get_dataset_size() == 2
    rows = [[c.tolist() for c in r] for r in data.create_tuple_iterator(output_numpy=True)]
    assert rows == [["1", "你好", "b"], ["0", "c", "d"]]


def test_test_usage_ids_and_wsc_target(tmp_path):
    f = _write(tmp_path / "t.json", [{"id": 3, "sentence": "s", "keywords": "k"}])
    row = next(ds.CLUEDataset(f, task="TNEWS", usage="test").create_dict_iterator(output_numpy=True))
    assert row["id"].dtype.str == "<u4" and int(row["id"]) == 3 and str(row["keywords"]) == "k"
    f = _write(tmp_path / "w.json", [{"idx": 1, "label": "true", "text": "t",
                                      "target": {"span1_index": 2, "span2_index": 4, "span1_text": "a",
                                                 "span2_text": "b"}}])
    data = ds.CLUEDataset(f, task="WSC", usage="train")
    assert data.get_col_names() == ["idx", "label", "span1_index", "span1_text", "span2_index", "span2_text", "text"]
    row = next(data.create_dict_iterator(output_numpy=True))
    assert int(row["span2_index"]) == 4 and str(row["span1_text"]) == "a"


def test_csl_keyword_list(tmp_path):
    f = _write(tmp_path / "c.json", [{"id": 0, "abst": "x", "keyword": ["k1", "k2"], "label": "1"},
                                     {"id": 1, "abst": "y", "keyword": ["k3"], "label": "0"}])
    rows = list(ds.CLUEDataset(f, task="CSL", shuffle=False).create_dict_iterator(output_numpy=True))
    assert [r["keyword"].tolist() for r in rows] == [["k1", "k2"], ["k3"]]


def test_shards_samples_and_shuffle(tmp_path):
    f1 = _write(tmp_path / "a.json", [{"id": i, "sentence1": "", "sentence2": ""} for i in range(5)])
    f2 = _write(tmp_path / "b.json", [{"id": i, "sentence1": "", "sentence2": ""} for i in range(10, 13)])
    shards = [ds.CLUEDataset([f1, f2], usage="test", shuffle=False, num_shards=3, shard_id=i) for i in range(3)]
    assert [s.get_dataset_size() for s in shards] == [3, 3, 3]
    got = sorted(sum((_ids(s) for s in shards), []))
    assert got == sorted([0, 1, 2, 3, 4, 10, 11, 12, 0])  # wrap-padded to equal shards
    assert _ids(ds.CLUEDataset(f1, usage="test", shuffle=False, num_samples=2)) == [0, 1]
    assert sorted(_ids(ds.CLUEDataset([f1, f2], usage="test"))) == [0, 1, 2, 3, 4, 10, 11, 12]


def test_errors(tmp_path):
    f = _write(tmp_path / "a.json", [{"sentence1": "a", "label": "1"}])
    with pytest.raises(ValueError, match="task"):
        ds.CLUEDataset(f, task="XNLI")
    with pytest.raises(ValueError, match="usage"):
        ds.CLUEDataset(f, usage="dev")
    with pytest.raises(ValueError, match="missing.json"):
        ds.CLUEDataset(str(tmp_path / "missing.json"))
    with pytest.raises(RuntimeError, match="sentence2"):
        ds.CLUEDataset(f).get_dataset_size()
