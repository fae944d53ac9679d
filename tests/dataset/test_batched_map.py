"""Maps right before batch run at batch level (tfspore/dataset/engine/_batched_map.py)."""
import numpy as np
import pytest

import tfspore.dataset as ds
from tfspore.common import dtype as mstype
from tfspore.dataset import transforms, vision
from tfspore.dataset.engine import _batched_map


def _images(n=10, h=20, w=24, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (n, h, w, 3), dtype=np.uint8)


def _rows(data):
    return [[np.asarray(c) for c in row] for row in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def _spec(source):
    spec = source._build_for(probe=True).element_spec  # pylint: disable=protected-access
    return spec if isinstance(spec, tuple) else (spec,)


def _eager(ops, image):
    for op in ops:
        image = op(image)
    return image


@pytest.mark.parametrize("ops", [
    lambda: [vision.Resize((12, 16)), vision.CenterCrop(10), vision.HorizontalFlip(), vision.Rescale(1 / 255, 0.1),
             vision.Normalize([0.5, 0.4, 0.3], [0.2, 0.25, 0.3]), vision.HWC2CHW()],
    lambda: [vision.Resize(9), vision.VerticalFlip(), vision.Normalize([120.0, 110.0, 100.0], [50.0, 60.0, 70.0])],
    lambda: [vision.Resize((10, 12), vision.Inter.NEAREST), vision.Resize((7, 9), vision.Inter.CUBIC)],
])
def test_deterministic_transforms_at_batch_level_equal_the_per_image_results(ops):
    images = _images()
    labels = np.arange(10, dtype=np.int64)
    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False)
    data = data.map(ops(), input_columns="image").map(transforms.TypeCast(mstype.int32), input_columns="label")
    batched = data.batch(4)
    assert _batched_map.build_batched(data, 4, False) is not None  # the batch-level path is taken
    rows = _rows(batched)
    assert [len(r[0]) for r in rows] == [4, 4, 2]
    got = np.concatenate([r[0] for r in rows])
    expected = np.stack([_eager(ops(), img) for img in images])
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(np.concatenate([r[1] for r in rows]), labels.astype(np.int32))
    assert rows[0][1].dtype == np.int32


def test_per_row_prefix_with_dynamic_shapes_then_batch_level_suffix(tmp_path):
    from PIL import Image  # pylint: disable=import-outside-toplevel
    sizes = [(9, 11), (12, 8), (10, 10), (15, 13), (8, 9)]
    images = [np.random.default_rng(i).integers(0, 256, (h, w, 3), dtype=np.uint8) for i, (h, w) in enumerate(sizes)]
    (tmp_path / "a").mkdir()
    for i, img in enumerate(images):
        Image.fromarray(img).save(tmp_path / "a" / f"{i}.png")
    ops = [vision.CenterCrop(6), vision.Resize((5, 4)), vision.Rescale(1 / 255, 0), vision.HWC2CHW()]
    data = ds.ImageFolderDataset(str(tmp_path), decode=True, shuffle=False).map(ops, input_columns="image")
    assert _batched_map.build_batched(data, 2, True) is not None
    got = np.concatenate([r[0] for r in _rows(data.batch(2, drop_remainder=True))])
    expected = np.stack([_eager(ops, img) for img in images[:4]])
    np.testing.assert_array_equal(got, expected)


def _position_images(n):
    """Images whose pixel (y, x) holds y * 16 + x + 1 (0 is left for padding), plus the row id in channel 1."""
    y, x = np.meshgrid(np.arange(12), np.arange(12), indexing="ij")
    base = (y * 16 + x + 1).astype(np.uint8)
    return np.stack([np.stack([base, np.full_like(base, i), base], -1) for i in range(n)])


def test_random_crop_and_flip_at_batch_level_give_valid_windows_reproducibly():
    images = _position_images(16)

    def run(seed):
        ds.config.set_seed(seed)
        data = ds.NumpySlicesDataset({"image": images}, shuffle=False)
        data = data.map([vision.RandomCrop(8, padding=2), vision.RandomHorizontalFlip(0.5)], input_columns="image")
        return np.concatenate([r[0] for r in _rows(data.batch(8))])

    out = run(5)
    np.testing.assert_array_equal(out, run(5))
    assert not np.array_equal(out, run(6))
    assert out.shape == (16, 8, 8, 3)
    padded = np.pad(images, [(0, 0), (2, 2), (2, 2), (0, 0)])
    flips = []
    for i, window in enumerate(out):
        matches = []
        for flipped in (False, True):
            w = window[:, ::-1] if flipped else window
            for top in range(9):
                for left in range(9):
                    if np.array_equal(padded[i, top:top + 8, left:left + 8], w):
                        matches.append(flipped)
        assert matches, f"row {i} is not a window of its padded image"
        flips.append(matches[0])
    assert any(flips) and not all(flips)


def test_python_maps_and_transforms_keep_the_per_row_path():
    data = ds.NumpySlicesDataset({"image": _images(4)}, shuffle=False)
    data = data.map(lambda x: x, input_columns="image").map(vision.HWC2CHW(), input_columns="image")
    rows = _rows(data.batch(2))
    assert rows[0][0].shape == (2, 3, 20, 24)


def test_normalize_checks_the_channels_while_tracing():
    data = ds.NumpySlicesDataset({"image": _images(2)}, shuffle=False)
    data = data.map(vision.Normalize([1.0, 2.0], [1.0, 1.0]), input_columns="image").batch(2)
    with pytest.raises(RuntimeError, match=r"For 'Normalize', the number of channels does not match.*3 channels"):
        _rows(data)


def test_decode_of_image_folder_bytes_equals_the_files_images(tmp_path):
    from PIL import Image  # pylint: disable=import-outside-toplevel
    images = [np.random.default_rng(i).integers(0, 256, (5 + i, 7, 3), dtype=np.uint8) for i in range(3)]
    (tmp_path / "c").mkdir()
    for i, img in enumerate(images):
        Image.fromarray(img).save(tmp_path / "c" / f"{i}.png")
    raw = ds.ImageFolderDataset(str(tmp_path), shuffle=False)
    assert [r[0].dtype for r in _rows(raw)] == [np.uint8] * 3  # the files' bytes
    decoded = ds.ImageFolderDataset(str(tmp_path), shuffle=False).map(vision.Decode(), input_columns="image")
    for row, img in zip(_rows(decoded), images):
        np.testing.assert_array_equal(row[0], img)


def test_tokenize_lookup_pad_run_at_batch_level_on_ragged_batches():
    """BertTokenizer -> Lookup -> PadEnd before batch: one ragged batch per batch of sentences,
    the same ids as the per-row pipeline (rows shorter and longer than the pad length)."""
    from tfspore.dataset import text  # pylint: disable=import-outside-toplevel
    vocab = text.Vocab.from_list(["[PAD]", "[UNK]", "hello", "##s", ",", "!", "un", "##aff", "##able", "world"])
    sentences = ["Hello, world!", "", "unaffable hellos " * 3, "Héllo wörld", "[UNK] xyz", "world"] * 2
    labels = np.arange(len(sentences), dtype=np.int32)

    def pipeline(batched):
        data = ds.NumpySlicesDataset({"text": sentences, "label": labels}, shuffle=False)
        ops = [text.BertTokenizer(vocab, lower_case=True), text.Lookup(vocab, "[UNK]", mstype.int32),
               transforms.PadEnd([6], 0)]
        data = data.map(ops, input_columns="text")
        return data.batch(5) if batched else data

    mapped = pipeline(False)
    assert _batched_map._splits([mapped], _spec(mapped.children[0])) == [0]  # all three at batch level
    rows = _rows(pipeline(True))
    assert [r[0].shape for r in rows] == [(5, 6), (5, 6), (2, 6)]
    got = np.concatenate([r[0] for r in rows])
    want = np.stack([r[0] for r in _rows(pipeline(False))])
    np.testing.assert_array_equal(got, want)
    assert got.dtype == np.int32 and got[1].tolist() == [1, 0, 0, 0, 0, 0]  # "" is one unknown token


def test_ragged_rows_that_stay_ragged_keep_the_per_row_path():
    """Without PadEnd the tokens would leave the chain ragged: the tokenizer stays per row."""
    from tfspore.dataset import text  # pylint: disable=import-outside-toplevel
    data = ds.NumpySlicesDataset({"text": ["a b", "c d"]}, shuffle=False)
    data = data.map([text.WhitespaceTokenizer()], input_columns="text")
    assert _batched_map._splits([data], _spec(data.children[0])) is None  # pylint: disable=protected-access
    assert _batched_map.build_batched(data, 2, False) is None
    assert [r[0].tolist() for r in _rows(data.batch(2))] == [[["a", "b"], ["c", "d"]]]


def test_neighbouring_exact_transforms_are_grouped_into_compiled_runs():
    """Crops, flips, Normalize and HWC2CHW compile together; Rescale (a product XLA could fuse
    with the next subtraction) runs outside, between two compiled runs."""
    data = ds.NumpySlicesDataset({"image": _images(8)}, shuffle=False)
    ops = [vision.RandomCrop(16, padding=2), vision.RandomHorizontalFlip(), vision.Rescale(1 / 255, 0.0),
           vision.Normalize([0.5, 0.4, 0.3], [0.2, 0.25, 0.3]), vision.HWC2CHW()]
    data = data.map(ops, input_columns="image")
    xla = []
    assert _batched_map._splits([data], _spec(data.children[0]), xla=xla) == [0]  # pylint: disable=W0212
    assert xla == [[True, True, False, True, True]]
    runs = _batched_map._runs(ops, xla[0])  # pylint: disable=protected-access
    assert [(flag, len(group)) for flag, group in runs] == [(True, 2), (False, 1), (True, 2)]

    def run():
        ds.config.set_seed(3)
        fresh = ds.NumpySlicesDataset({"image": _images(8)}, shuffle=False).map(ops, input_columns="image")
        return np.concatenate([r[0] for r in _rows(fresh.batch(4))])

    first = run()
    assert first.shape == (8, 3, 16, 16)
    np.testing.assert_array_equal(first, run())  # reproducible with the seed


def test_uint8_element_wise_chains_become_one_exact_table_lookup():
    """Rescale -> Normalize -> TypeCast on uint8 rows is one gather from a 256-entry table per
    channel, whose entries are the per-row numbers (HWC and grey rows)."""
    from tfspore.dataset.engine._table_lookup import TableLookup  # pylint: disable=import-outside-toplevel
    colour = [vision.Rescale(1 / 255, 0.05), vision.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
              vision.HWC2CHW()]
    grey = [vision.Rescale(1 / 127.5, -1.0), vision.Normalize([0.3], [0.7]), transforms.TypeCast(mstype.float16)]
    for ops, images in ((colour, _images(9)), (grey, _images(9)[..., 0])):
        data = ds.NumpySlicesDataset({"image": images}, shuffle=False).map(ops, input_columns="image")
        tables, xla = [], []
        assert _batched_map._splits([data], _spec(data.children[0]), xla=xla, tables=tables) == [0]  # pylint: disable=W0212
        grouped, _ = _batched_map.with_tables(ops, xla[0], tables[0])
        assert isinstance(grouped[0], TableLookup) and len(grouped[0].ops) == (2 if ops is colour else 3)
        got = np.concatenate([r[0] for r in _rows(data.batch(4))])
        expected = np.stack([_eager(ops, img) for img in images])
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)


def test_float_rows_keep_the_arithmetic():
    data = ds.NumpySlicesDataset({"image": _images(4).astype(np.float32)}, shuffle=False)
    ops = [vision.Rescale(1 / 255, 0.0), vision.Normalize([0.5, 0.4, 0.3], [0.2, 0.25, 0.3])]
    data = data.map(ops, input_columns="image")
    tables, xla = [], []
    _batched_map._splits([data], _spec(data.children[0]), xla=xla, tables=tables)  # pylint: disable=W0212
    grouped, _ = _batched_map.with_tables(ops, xla[0], tables[0])
    assert grouped == ops  # no uint8 input: no table


def test_rows_of_files_are_made_a_batch_at_a_time_with_the_per_row_numbers(tmp_path):
    """Decode and a random crop of JPEG files run per row but inside one function per batch
    (source indices and per-row seeds batched first): the rows equal the unbatched pipeline's,
    random crops included, for a full and a partial last batch."""
    from PIL import Image  # pylint: disable=import-outside-toplevel
    (tmp_path / "a").mkdir()
    for i in range(7):
        Image.fromarray(_images(1, 30, 36, seed=i)[0]).save(tmp_path / "a" / f"{i}.jpg", quality=90)

    def pipeline(batch):
        ds.config.set_seed(11)
        data = ds.ImageFolderDataset(str(tmp_path), shuffle=False)
        data = data.map([vision.Decode(), vision.RandomCrop(24, padding=2)], input_columns="image")
        return data.batch(3) if batch else data

    batched = pipeline(True)
    made = _batched_map.build_batched(batched.children[0], 3, False)
    assert made is not None and "MapDataset" in type(made).__name__  # one map over batches of row inputs
    rows = _rows(batched)
    assert [len(r[0]) for r in rows] == [3, 3, 1]
    per_row = _rows(pipeline(False))
    np.testing.assert_array_equal(np.concatenate([r[0] for r in rows]), np.stack([r[0] for r in per_row]))
    np.testing.assert_array_equal(np.concatenate([r[1] for r in rows]), np.stack([r[1] for r in per_row]))
