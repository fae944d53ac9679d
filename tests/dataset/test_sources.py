"""File sources: MnistDataset, Cifar10Dataset, Cifar100Dataset, ImageFolderDataset, TFRecordDataset, TFDSDataset."""
import struct

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import tfspore as ms
import tfspore.dataset as ds
import tfspore.dataset.vision as vision


def _idx(path, magic, arr, dims=None):
    with open(path, "wb") as f:
        f.write(struct.pack(">I", magic))
        for d in dims if dims is not None else arr.shape:
            f.write(struct.pack(">I", d))
        f.write(arr.astype(np.uint8).tobytes())


@pytest.fixture(scope="module")
def mnist_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("mnist")
    rng = np.random.RandomState(0)
    _idx(d / "train-images-idx3-ubyte", 2051, rng.randint(0, 256, (6, 28, 28)))
    _idx(d / "train-labels-idx1-ubyte", 2049, np.arange(6))
    _idx(d / "t10k-images-idx3-ubyte", 2051, rng.randint(0, 256, (4, 28, 28)))
    _idx(d / "t10k-labels-idx1-ubyte", 2049, np.arange(4) + 6)
    return d


def _labels(data, col=1):
    return [int(r[col]) for r in data.create_tuple_iterator(output_numpy=True)]


# ------------------------------------------------------------------------------------ MNIST
def test_mnist_columns_dtypes_and_usage(mnist_dir):
    data = ds.MnistDataset(str(mnist_dir), usage="train", shuffle=False)
    assert data.get_col_names() == ["image", "label"]
    assert data.output_types() == [np.dtype("uint8"), np.dtype("uint32")]
    assert data.output_shapes() == [[28, 28, 1], []]
    assert _labels(data) == list(range(6))
    assert ds.MnistDataset(str(mnist_dir), usage="test").get_dataset_size() == 4
    # "all" (and None) read the test files, then the train files, as MindSpore 2.10 does
    assert _labels(ds.MnistDataset(str(mnist_dir), shuffle=False)) == [6, 7, 8, 9, 0, 1, 2, 3, 4, 5]
    assert ds.MnistDataset(str(mnist_dir), usage="all").get_dataset_size() == 10


def test_mnist_images_match_the_file(mnist_dir):
    raw = np.fromfile(mnist_dir / "train-images-idx3-ubyte", np.uint8)[16:].reshape(6, 28, 28, 1)
    rows = list(ds.MnistDataset(str(mnist_dir), usage="train", shuffle=False).create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(np.stack([r[0] for r in rows]), raw)


def test_mnist_sampling_arguments(mnist_dir):
    data = ds.MnistDataset(str(mnist_dir), usage="train")
    assert sorted(_labels(data)) == list(range(6))  # shuffled by default, same rows
    assert _labels(ds.MnistDataset(str(mnist_dir), usage="train", num_samples=2, shuffle=False)) == [0, 1]
    assert _labels(ds.MnistDataset(str(mnist_dir), usage="train", num_shards=4, shard_id=1, shuffle=False)) == [1, 5]
    assert _labels(ds.MnistDataset(str(mnist_dir), usage="train", sampler=ds.SequentialSampler(2, 3))) == [2, 3, 4]
    ds.config.set_seed(5)
    first = _labels(ds.MnistDataset(str(mnist_dir), usage="train"))
    ds.config.set_seed(5)
    assert _labels(ds.MnistDataset(str(mnist_dir), usage="train")) == first


def test_mnist_errors_name_dataset_argument_and_value(tmp_path, mnist_dir):
    with pytest.raises(ValueError, match=r"For 'MnistDataset'.*dataset_dir.*/no/such/dir"):
        ds.MnistDataset("/no/such/dir")
    with pytest.raises(ValueError, match=r"For 'MnistDataset'.*usage.*'val'"):
        ds.MnistDataset(str(mnist_dir), usage="val")
    with pytest.raises(TypeError, match=r"For 'MnistDataset'.*dataset_dir.*3"):
        ds.MnistDataset(3)
    bad = tmp_path / "bad"
    bad.mkdir()
    _idx(bad / "train-images-idx3-ubyte", 1234, np.zeros((2, 28, 28)))
    _idx(bad / "train-labels-idx1-ubyte", 2049, np.zeros(2))
    with pytest.raises(RuntimeError, match=r"For 'MnistDataset'.*magic number.*should be 2051, but got 1234"):
        ds.MnistDataset(str(bad), usage="train")
    _idx(bad / "train-images-idx3-ubyte", 2051, np.zeros((2, 20, 20)))
    with pytest.raises(RuntimeError, match=r"shape of image.*\(28, 28\), but got \(20, 20\)"):
        ds.MnistDataset(str(bad), usage="train")
    _idx(bad / "train-images-idx3-ubyte", 2051, np.zeros((1, 28, 28)), dims=(2, 28, 28))
    with pytest.raises(RuntimeError, match=r"truncated data.*declares 2 images"):
        ds.MnistDataset(str(bad), usage="train")
    _idx(bad / "train-images-idx3-ubyte", 2051, np.zeros((3, 28, 28)))
    with pytest.raises(RuntimeError, match=r"images number: 3, labels number: 2"):
        ds.MnistDataset(str(bad), usage="train")
    (bad / "train-labels-idx1-ubyte").unlink()
    with pytest.raises(RuntimeError, match=r"train-labels-idx1-ubyte' is missing"):
        ds.MnistDataset(str(bad), usage="train")
    with pytest.raises(RuntimeError, match=r"no MNIST idx files for usage='test'.*t10k-images-idx3-ubyte"):
        ds.MnistDataset(str(bad), usage="test")


def test_mnist_lenet_pipeline_shapes(mnist_dir):
    data = ds.MnistDataset(str(mnist_dir), usage="train", shuffle=False)
    data = data.map([vision.Resize((32, 32)), vision.Rescale(1 / 0.3081, -0.1307 / 0.3081),
                     vision.Rescale(1 / 255, 0), vision.HWC2CHW()], "image")
    data = data.map(ds.transforms.TypeCast(ms.int32), "label").batch(4, drop_remainder=True)
    assert data.output_types() == [np.dtype("float32"), np.dtype("int32")]
    assert data.output_shapes() == [[4, 1, 32, 32], [4]]
    spec = data.to_tf_dataset().element_spec
    assert spec[0].shape.as_list() == [4, 1, 32, 32]  # static batch shapes for compiled loops


# ------------------------------------------------------------------------------------ CIFAR
@pytest.fixture(scope="module")
def cifar_dirs(tmp_path_factory):
    root = tmp_path_factory.mktemp("cifar")
    rng = np.random.RandomState(1)
    c10 = root / "c10"
    c10.mkdir()
    rec = rng.randint(0, 256, (10000, 3073)).astype(np.uint8)
    rec[:, 0] = np.arange(10000) % 10
    rec.tofile(c10 / "data_batch_1.bin")
    rec[:, 0] = 9 - rec[:, 0]
    rec.tofile(c10 / "test_batch.bin")
    (c10 / "readme.html").write_text("not data")
    c100 = root / "c100"
    c100.mkdir()
    rec100 = rng.randint(0, 256, (10000, 3074)).astype(np.uint8)
    rec100.tofile(c100 / "test.bin")
    return root, rec, rec100


def test_cifar10_layout_and_sizes(cifar_dirs):
    root, rec, _ = cifar_dirs
    data = ds.Cifar10Dataset(str(root / "c10"), usage="test", shuffle=False)
    assert data.get_col_names() == ["image", "label"]
    assert data.output_types() == [np.dtype("uint8"), np.dtype("uint32")]
    assert data.output_shapes() == [[32, 32, 3], []]
    image, label = next(iter(data.create_tuple_iterator(output_numpy=True)))
    np.testing.assert_array_equal(image, rec[0, 1:].reshape(3, 32, 32).transpose(1, 2, 0))
    assert int(label) == rec[0, 0]
    assert ds.Cifar10Dataset(str(root / "c10"), usage="train").get_dataset_size() == 10000
    assert ds.Cifar10Dataset(str(root / "c10")).get_dataset_size() == 20000
    rows = ds.Cifar10Dataset(str(root / "c10"), sampler=ds.SubsetSampler([9999, 10000]))
    assert _labels(rows) == [9999 % 10, 9]  # train batches first, then the test batch


def test_cifar10_errors(tmp_path, cifar_dirs):
    root, _, _ = cifar_dirs
    with pytest.raises(ValueError, match=r"For 'Cifar10Dataset'.*usage.*'valid'"):
        ds.Cifar10Dataset(str(root / "c10"), usage="valid")
    np.zeros((20, 3073), np.uint8).tofile(tmp_path / "data_batch_1.bin")
    with pytest.raises(RuntimeError, match=r"For 'Cifar10Dataset', invalid cifar10 file.*data_batch_1.bin.*20 records"):
        ds.Cifar10Dataset(str(tmp_path), usage="train")
    with pytest.raises(RuntimeError, match=r"no cifar10 .bin file for usage='test'"):
        ds.Cifar10Dataset(str(tmp_path), usage="test")


def test_cifar100_columns(cifar_dirs):
    root, _, rec100 = cifar_dirs
    data = ds.Cifar100Dataset(str(root / "c100"), usage="test", shuffle=False)
    assert data.get_col_names() == ["image", "coarse_label", "fine_label"]
    assert data.output_types() == [np.dtype("uint8"), np.dtype("uint32"), np.dtype("uint32")]
    image, coarse, fine = next(iter(data.create_tuple_iterator(output_numpy=True)))
    assert (int(coarse), int(fine)) == (rec100[0, 0], rec100[0, 1])
    np.testing.assert_array_equal(image, rec100[0, 2:].reshape(3, 32, 32).transpose(1, 2, 0))
    with pytest.raises(RuntimeError, match=r"For 'Cifar100Dataset'.*usage='train'"):
        ds.Cifar100Dataset(str(root / "c100"), usage="train")


# ------------------------------------------------------------------------------------ image folders
@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("folder")
    rng = np.random.RandomState(2)
    images = {}
    for cls in ("dog", "cat"):
        (root / cls).mkdir()
        for name, fmt in (("b.png", "PNG"), ("a.png", "PNG"), ("c.bmp", "BMP")):
            arr = rng.randint(0, 256, (4 + len(cls), 5, 3)).astype(np.uint8)
            Image.fromarray(arr).save(root / cls / name, format=fmt)
            images[(cls, name)] = arr
        (root / cls / "z.txt").write_text("text")
    (root / "top.png").write_bytes(b"ignored: not in a class folder")
    return root, images


def test_image_folder_raw_bytes_labels_and_order(folder):
    root, _ = folder
    data = ds.ImageFolderDataset(str(root), shuffle=False)
    assert data.get_col_names() == ["image", "label"]
    assert data.output_types() == [np.dtype("uint8"), np.dtype("int32")]
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert [int(r[1]) for r in rows] == [0] * 4 + [1] * 4  # cat=0, dog=1 (sorted folders)
    expected = (root / "cat" / "a.png").read_bytes()
    assert rows[0][0].dtype == np.uint8 and rows[0][0].ndim == 1
    assert rows[0][0].tobytes() == expected  # files sorted by name: a.png first
    assert data.num_classes() == 2
    assert data.get_class_indexing() == {"cat": 0, "dog": 1}


def test_image_folder_decode_extensions_class_indexing(folder):
    root, images = folder
    data = ds.ImageFolderDataset(str(root), decode=True, extensions=[".png"], class_indexing={"dog": 0, "cat": 7},
                                 shuffle=False)
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert [int(r[1]) for r in rows] == [7, 7, 0, 0]
    np.testing.assert_array_equal(rows[0][0], images[("cat", "a.png")])
    np.testing.assert_array_equal(rows[3][0], images[("dog", "b.png")])
    assert data.get_class_indexing() == {"dog": 0, "cat": 7}
    bmp = ds.ImageFolderDataset(str(root), decode=True, extensions=[".bmp"], shuffle=False)
    np.testing.assert_array_equal(next(iter(bmp.create_tuple_iterator(output_numpy=True)))[0],
                                  images[("cat", "c.bmp")])


def test_image_folder_decode_in_map_and_errors(folder):
    root, images = folder
    data = ds.ImageFolderDataset(str(root), extensions=[".png"], shuffle=False)
    data = data.map([vision.Decode(), vision.Resize((3, 3))], "image")
    assert [r[0].shape for r in data.create_tuple_iterator(output_numpy=True)] == [(3, 3, 3)] * 4
    with pytest.raises(ValueError, match=r"For 'ImageFolderDataset'.*dataset_dir.*'/nope'"):
        ds.ImageFolderDataset("/nope")
    with pytest.raises(TypeError, match=r"For 'ImageFolderDataset'.*extensions"):
        ds.ImageFolderDataset(str(root), extensions=".png")
    broken = ds.ImageFolderDataset(str(root), extensions=[".txt"], decode=True)
    with pytest.raises(RuntimeError):
        list(broken.create_tuple_iterator(output_numpy=True))


# ------------------------------------------------------------------------------------ TFRecord
@pytest.fixture(scope="module")
def tfrecords(tmp_path_factory):
    root = tmp_path_factory.mktemp("tfrecord")
    paths = []
    for part in range(2):
        path = root / f"part{part}.tfrecord"
        with tf.io.TFRecordWriter(str(path)) as writer:
            for i in range(part * 3, part * 3 + 3):
                feature = {"image": tf.train.Feature(bytes_list=tf.train.BytesList(value=[bytes([i, i + 1])])),
                           "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i])),
                           "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[f"n{i}".encode()]))}
                writer.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())
        paths.append(str(path))
    return paths


def test_tfrecord_inferred_columns(tfrecords):
    data = ds.TFRecordDataset(tfrecords, shuffle=False)
    assert data.get_col_names() == ["image", "label", "name"]
    assert data.output_types() == [np.dtype("uint8"), np.dtype("int64"), np.dtype("uint8")]
    assert data.get_dataset_size() == 6
    rows = list(data.create_dict_iterator(output_numpy=True))
    assert rows[1]["image"].tolist() == [1, 2] and rows[1]["label"].tolist() == [1]
    assert sorted(int(r["label"][0]) for r in ds.TFRecordDataset(tfrecords).create_dict_iterator(output_numpy=True)) \
        == list(range(6))


def test_tfrecord_schema_columns_shards_and_errors(tfrecords, tmp_path):
    schema = ds.Schema()
    schema.add_column("label", de_type=ms.int32, shape=[])
    schema.add_column("name", de_type=ms.string)
    rows = list(ds.TFRecordDataset(tfrecords, schema=schema, shuffle=False).create_dict_iterator(output_numpy=True))
    assert rows[0]["label"].dtype == np.int32 and rows[0]["label"].shape == ()
    assert rows[2]["name"].tolist() == ["n2"]
    data = ds.TFRecordDataset(tfrecords, columns_list=["label"], shuffle=False, num_shards=2, shard_id=1)
    assert [int(r[0][0]) for r in data.create_tuple_iterator(output_numpy=True)] == [3, 4, 5]
    assert ds.TFRecordDataset(tfrecords, num_samples=4).get_dataset_size() == 4
    with pytest.raises(RuntimeError, match=r"For 'TFRecordDataset'.*'nope'"):
        ds.TFRecordDataset(tfrecords, columns_list=["nope"])
    with pytest.raises(ValueError, match=r"For 'TFRecordDataset'.*missing.tfrecord"):
        ds.TFRecordDataset([str(tmp_path / "missing.tfrecord")])
    with pytest.raises(ValueError, match=r"num_shards and shard_id"):
        ds.TFRecordDataset(tfrecords, num_shards=2)


# ------------------------------------------------------------------------------------ TFDS
def test_tfds_dataset_from_a_local_builder(tmp_path):
    tfds = pytest.importorskip("tensorflow_datasets")

    class TfsporeTinySourceDigits(tfds.core.GeneratorBasedBuilder):
        """Seven 4x4 images written to a temporary directory (no network)."""

        VERSION = tfds.core.Version("1.0.0")

        @tfds.core.utils.classproperty
        @classmethod
        def code_path(cls):  # defined in a test module: no checksums file to look for
            return None

        def _info(self):
            return tfds.core.DatasetInfo(
                builder=self,
                features=tfds.features.FeaturesDict({
                    "image": tfds.features.Tensor(shape=(4, 4, 1), dtype=np.uint8),
                    "label": tfds.features.ClassLabel(num_classes=3),
                    "meta": {"idx": tfds.features.Tensor(shape=(), dtype=np.int64)}}),
                supervised_keys=("image", "label"))

        def _split_generators(self, dl_manager):
            return {"train": self._generate_examples(7), "test": self._generate_examples(3)}

        def _generate_examples(self, n):
            for i in range(n):
                yield i, {"image": np.full((4, 4, 1), i, np.uint8), "label": i % 3, "meta": {"idx": i}}

    with pytest.raises(ValueError, match=r"For 'TFDSDataset'.*not prepared"):
        ds.TFDSDataset("tfspore_tiny_source_digits", data_dir=str(tmp_path))
    data = ds.TFDSDataset("tfspore_tiny_source_digits", data_dir=str(tmp_path), download=True, shuffle=False)
    assert data.get_col_names() == ["image", "label", "meta/idx"]
    assert data.get_dataset_size() == 7
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert sorted(int(r[2]) for r in rows) == list(range(7))
    assert all(int(r[0][0, 0, 0]) == int(r[2]) and int(r[1]) == int(r[2]) % 3 for r in rows)
    sup = ds.TFDSDataset("tfspore_tiny_source_digits", split="test", data_dir=str(tmp_path), as_supervised=True)
    assert sup.get_col_names() == ["image", "label"] and sup.get_dataset_size() == 3
    shard = ds.TFDSDataset("tfspore_tiny_source_digits", data_dir=str(tmp_path), num_shards=2, shard_id=1, shuffle=False)
    assert shard.get_dataset_size() == 4 and len(list(shard.create_tuple_iterator())) == 4
    with pytest.raises(ValueError, match=r"split='val'"):
        ds.TFDSDataset("tfspore_tiny_source_digits", split="val", data_dir=str(tmp_path))
