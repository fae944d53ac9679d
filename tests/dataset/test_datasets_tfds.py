"""TFDSDataset offline: a prepared data_dir, tfds.testing.mock_data, and download=True of a local builder."""
import sys
import textwrap

import numpy as np
import pytest

tfds = pytest.importorskip("tensorflow_datasets")

import tfspore.dataset as ds  # noqa: E402

_BUILDER = '''
import numpy as np
import tensorflow_datasets as tfds


class TfsporeTinyDigits(tfds.core.GeneratorBasedBuilder):
    """Twelve 4x4 images with their labels, generated locally (no download)."""

    VERSION = tfds.core.Version("1.0.0")

    def _info(self):
        return self.dataset_info_from_configs(
            features=tfds.features.FeaturesDict({"image": tfds.features.Tensor(shape=(4, 4), dtype=np.uint8),
                                                 "label": tfds.features.ClassLabel(num_classes=3)}),
            supervised_keys=("image", "label"))

    def _split_generators(self, dl_manager):
        return {"train": self._generate_examples(12), "test": self._generate_examples(6)}

    def _generate_examples(self, n):
        for i in range(n):
            yield i, {"image": np.full((4, 4), i, np.uint8), "label": i % 3}
'''


@pytest.fixture(scope="module")
def tiny_builder(tmp_path_factory):
    """A TFDS builder in a package of its own (TFDS locates a builder's code through its package)."""
    root = tmp_path_factory.mktemp("tfds_code")
    package = root / "tfspore_tfds_fixture"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "tiny.py").write_text(textwrap.dedent(_BUILDER))
    sys.path.insert(0, str(root))
    try:
        from tfspore_tfds_fixture import tiny  # noqa: F401
    finally:
        sys.path.remove(str(root))
    return "tfspore_tiny_digits"


def test_download_true_prepares_a_local_builder(tiny_builder, tmp_path):
    """download=True runs download_and_prepare (which needs importlib_resources, a declared dependency)."""
    data = ds.TFDSDataset(tiny_builder, split="train", data_dir=str(tmp_path), download=True, as_supervised=True,
                          shuffle=False)
    assert data.get_dataset_size() == 12 and data.get_col_names() == ["image", "label"]
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert sorted(int(r[0][0, 0]) for r in rows) == list(range(12))  # TFDS stores rows in its own order
    assert all(int(label) == int(image[0, 0]) % 3 for image, label in rows)


def test_prepared_data_dir_is_read_offline(tiny_builder, tmp_path):
    tfds.builder(tiny_builder, data_dir=str(tmp_path)).download_and_prepare()
    data = ds.TFDSDataset(tiny_builder, split="test", data_dir=str(tmp_path), shuffle=False)
    assert data.get_dataset_size() == 6 and data.get_col_names() == ["image", "label"]
    shards = [[int(r[0][0, 0]) for r in ds.TFDSDataset(tiny_builder, split="train", data_dir=str(tmp_path),
                                                        shuffle=False, num_shards=2, shard_id=k,
                                                        as_supervised=True).create_tuple_iterator(output_numpy=True)]
              for k in (0, 1)]
    assert [len(rows) for rows in shards] == [6, 6] and sorted(shards[0] + shards[1]) == list(range(12))
    with pytest.raises(ValueError, match="is not prepared"):
        ds.TFDSDataset(tiny_builder, data_dir=str(tmp_path / "empty"))


def test_mock_data():
    with tfds.testing.mock_data(num_examples=10):
        data = ds.TFDSDataset("mnist", split="train", as_supervised=True, shuffle=False)
        assert data.get_dataset_size() == 10
        images, labels = zip(*data.create_tuple_iterator(output_numpy=True))
    assert np.stack(images).shape == (10, 28, 28, 1) and all(0 <= int(label) < 10 for label in labels)
