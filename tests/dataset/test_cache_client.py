"""DatasetCache: MindSpore's argument checks; sources accept it and run uncached; old engine import paths."""
import copy

import numpy as np
import pytest

import tfspore.dataset as ds
import tfspore.dataset.engine as de
from tfspore.dataset.engine.cache_client import DatasetCache


def test_arguments_and_stat():
    cache = ds.DatasetCache(session_id=7, size=64, spilling=True, hostname="127.0.0.1", port=50052,
                            num_connections=4, prefetch_size=8)
    assert (cache.session_id, cache.size, cache.spilling, cache.port) == (7, 64, True, 50052)
    stat = cache.get_stat()
    assert (stat.avg_cache_sz, stat.num_mem_cached, stat.num_disk_cached) == (0, 0, 0)
    assert copy.deepcopy(cache).session_id == 7 and ds.DatasetCache is DatasetCache is de.DatasetCache


@pytest.mark.parametrize("kwargs, error, pattern", [
    ({"session_id": 0}, ValueError,
     "For 'DatasetCache', the 'session_id' must be an int in range \\[1, 4294967295\\], but got 0"),
    ({"session_id": "1"}, TypeError, "For 'DatasetCache', the 'session_id' must be an int"),
    ({"session_id": 1, "size": -1}, ValueError, "For 'DatasetCache', the 'size' must be in range"),
    ({"session_id": 1, "spilling": 1}, TypeError, "the 'spilling' must be bool, but got 1 of type int"),
    ({"session_id": 1, "port": 80}, ValueError, "the 'port' must be an int in range \\[1025, 65535\\], but got 80"),
    ({"session_id": 1, "num_connections": 0}, ValueError, "the 'num_connections' must be an int in range"),
])
def test_argument_errors(kwargs, error, pattern):
    with pytest.raises(error, match=pattern):
        ds.DatasetCache(**kwargs)


def test_sources_and_maps_accept_a_cache(tmp_path):
    from PIL import Image
    for cls in ("a", "b"):
        (tmp_path / cls).mkdir()
        Image.fromarray(np.full((4, 5, 3), 10, np.uint8)).save(tmp_path / cls / "x.png")
    cache = ds.DatasetCache(session_id=1, size=0)
    data = de.ImageFolderDataset(str(tmp_path), decode=True, shuffle=False, cache=cache)
    data = data.map(lambda x: x, "image", cache=cache)
    labels = [int(row[1]) for row in data.create_tuple_iterator(output_numpy=True)]
    assert labels == [0, 1]


def test_engine_paths():
    for name in ("ImageFolderDataset", "Cifar10Dataset", "Cifar100Dataset", "MnistDataset", "TFRecordDataset"):
        assert getattr(de, name) is getattr(ds, name)
    assert ds.context.set_context is not None
