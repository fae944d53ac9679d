"""tfspore.dataset.vision: eager results, shapes, dtypes, errors, randomness, and the in-graph path."""
import io

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import tfspore as ms
import tfspore.dataset as ds
import tfspore.dataset.vision as vision
import tfspore.dataset.vision.c_transforms as c_vision
import tfspore.dataset.vision.py_transforms as py_vision
from tfspore.dataset.vision import Border, ConvertMode, Inter

IMG = np.arange(5 * 7 * 3, dtype=np.uint8).reshape(5, 7, 3)
RNG_IMG = np.random.RandomState(0).randint(0, 256, (12, 16, 3)).astype(np.uint8)


def _graph(op, *values, seed=(1, 2)):
    """Run op._tf_apply as a tf.function with unknown shapes (as a tf.data map does)."""
    specs = [tf.TensorSpec([None] * np.ndim(v), tf.as_dtype(np.asarray(v).dtype)) for v in values]

    @tf.function(input_signature=specs, autograph=False)
    def run(*tensors):
        if getattr(op, "_tf_random", False):
            return op._tf_apply(*tensors, seed=tf.constant(seed, tf.int64))
        return op._tf_apply(*tensors)

    out = run(*values)
    return tuple(o.numpy() for o in out) if isinstance(out, tuple) else out.numpy()


def _piped(op, image, column="image"):
    data = ds.NumpySlicesDataset({column: image[None]}, shuffle=False).map(op, column)
    return next(iter(data.create_tuple_iterator(output_numpy=True)))[0]


def test_module_paths_and_enums():
    assert c_vision.Resize is vision.Resize and py_vision.HWC2CHW is vision.HWC2CHW
    assert Inter.LINEAR is Inter.BILINEAR and Inter.CUBIC is Inter.BICUBIC
    assert Border.REFLECT.value == "reflect"
    assert int(vision.ImageBatchFormat.NCHW) == 1
    assert not vision.Resize((2, 2)).random and vision.RandomCrop(2).random


# ------------------------------------------------------------------------------------ Resize
@pytest.mark.parametrize("interpolation", [Inter.LINEAR, Inter.NEAREST, Inter.CUBIC, Inter.AREA, Inter.PILCUBIC])
def test_resize_shapes_dtypes_and_graph_agree(interpolation):
    out = vision.Resize((8, 11), interpolation)(RNG_IMG)
    assert out.shape == (8, 11, 3) and out.dtype == np.uint8
    np.testing.assert_array_equal(_graph(vision.Resize((8, 11), interpolation), RNG_IMG), out)
    gray = vision.Resize((20, 9), interpolation)(RNG_IMG[..., 0])
    assert gray.shape == (20, 9)
    flt = vision.Resize((20, 9), interpolation)(RNG_IMG.astype(np.float32))
    assert flt.dtype == np.float32


def test_resize_int_keeps_aspect_ratio_and_identity():
    assert vision.Resize(2)(np.zeros((4, 6, 3), np.uint8)).shape == (2, 3, 3)
    assert vision.Resize(5)(np.zeros((10, 19, 3), np.uint8)).shape == (5, 9, 3)
    assert vision.Resize(5)(np.zeros((9, 7, 3), np.uint8)).shape == (6, 5, 3)
    assert _graph(vision.Resize(5), np.zeros((9, 7, 3), np.uint8)).shape == (6, 5, 3)
    for inter in (Inter.LINEAR, Inter.CUBIC, Inter.AREA, Inter.NEAREST):
        np.testing.assert_array_equal(vision.Resize((12, 16), inter)(RNG_IMG), RNG_IMG)


def test_resize_linear_known_values():
    # 2x upsampling of [0, 100] with half-pixel centres: 0, 25, 75, 100
    out = vision.Resize((1, 4))(np.array([[0, 100]], np.uint8))
    assert out.tolist() == [[0, 25, 75, 100]]
    assert vision.Resize((1, 4), Inter.NEAREST)(np.array([[0, 100]], np.uint8)).tolist() == [[0, 0, 100, 100]]
    assert vision.Resize((1, 1), Inter.AREA)(np.array([[0, 100], [50, 51]], np.uint8)).tolist() == [[50]]


def test_resize_in_pipeline_matches_eager():
    np.testing.assert_array_equal(_piped(vision.Resize((32, 32)), RNG_IMG), vision.Resize((32, 32))(RNG_IMG))


def test_resize_errors():
    with pytest.raises(ValueError, match=r"For 'Resize', the 'size' must be in range \[1, 16777216\], but got 0"):
        vision.Resize(0)
    with pytest.raises(ValueError, match=r"For 'Resize', the 'size\[1\]' .*but got -2"):
        vision.Resize((3, -2))
    with pytest.raises(TypeError, match=r"For 'Resize'.*size.*'a'"):
        vision.Resize("a")
    with pytest.raises(TypeError, match=r"For 'Resize'.*interpolation.*2"):
        vision.Resize(3, 2)
    # ANTIALIAS (Pillow's LANCZOS) also resizes arrays here, where MindSpore takes it for PIL images only
    assert vision.Resize(3, Inter.ANTIALIAS)(np.zeros((6, 8, 3), np.uint8)).shape == (3, 4, 3)
    with pytest.raises(RuntimeError, match=r"For 'Resize'.*rank 4"):
        vision.Resize(3)(np.zeros((1, 2, 2, 3), np.uint8))


# ------------------------------------------------------------------------------------ values
def test_rescale_normalize_hwc2chw_totensor():
    out = vision.Rescale(1 / 255, 0)(np.full((2, 2, 1), 255, np.uint8))
    assert out.dtype == np.float32 and np.allclose(out, 1.0)
    assert vision.Rescale(2, 1)(np.ones((2,), np.float64)).dtype == np.float32
    norm = vision.Normalize([127.5, 127.5, 127.5], [127.5, 127.5, 127.5])(np.full((1, 1, 3), 255, np.uint8))
    assert norm.dtype == np.float32 and norm.tolist() == [[[1.0, 1.0, 1.0]]]
    chw = vision.Normalize([1.0, 2.0], [2.0, 4.0], is_hwc=False)(np.ones((2, 1, 1), np.float32))
    assert chw.reshape(-1).tolist() == [0.0, -0.25]
    assert vision.HWC2CHW()(IMG).shape == (3, 5, 7) and vision.HWC2CHW()(IMG).dtype == np.uint8
    assert vision.HWC2CHW()(IMG[..., 0]).shape == (5, 7)
    tensor = vision.ToTensor()(IMG)
    assert tensor.shape == (3, 5, 7) and tensor.dtype == np.float32 and np.isclose(tensor.max(), IMG.max() / 255)
    assert vision.ToTensor(np.float64)(IMG).dtype == np.float64
    assert vision.ToTensor()(Image.fromarray(IMG)).shape == (3, 5, 7)


def test_value_transform_errors():
    with pytest.raises(TypeError, match=r"For 'Rescale'.*rescale.*'x'"):
        vision.Rescale("x", 0)
    with pytest.raises(ValueError, match=r"For 'Normalize', length of mean and std.*2 and 1"):
        vision.Normalize([1, 2], [1])
    with pytest.raises(ValueError, match=r"For 'Normalize', the 'std\[0\]' must be in range \(0, 255\], but got 0"):
        vision.Normalize([1], [0])
    with pytest.raises(ValueError, match=r"For 'Normalize', the 'mean\[0\]'.*300"):
        vision.Normalize([300], [1])


# ------------------------------------------------------------------------------------ geometry
def test_center_crop_floor_offsets_and_padding():
    assert vision.CenterCrop((2, 2))(IMG)[..., 0].tolist() == [[27, 30], [48, 51]]
    big = vision.CenterCrop((7, 8))(IMG)[..., 0]
    assert big.shape == (7, 8) and big[0].tolist() == [0] * 8 and big[1].tolist() == [0, 0, 3, 6, 9, 12, 15, 18]
    np.testing.assert_array_equal(_graph(vision.CenterCrop((7, 8)), IMG)[..., 0], big)
    with pytest.raises(ValueError, match=r"For 'CenterCrop'"):
        vision.CenterCrop(0)


def test_pad_modes():
    row = np.array([[1, 2, 3, 4]], np.uint8)
    assert vision.Pad((2, 0), padding_mode=Border.REFLECT)(row)[0].tolist() == [3, 2, 1, 2, 3, 4, 3, 2]
    assert vision.Pad((2, 0), padding_mode=Border.SYMMETRIC)(row)[0].tolist() == [2, 1, 1, 2, 3, 4, 4, 3]
    assert vision.Pad((2, 0), padding_mode=Border.EDGE)(row)[0].tolist() == [1, 1, 1, 2, 3, 4, 4, 4]
    assert vision.Pad((1, 2, 3, 4))(IMG).shape == (11, 11, 3)
    filled = vision.Pad(1, fill_value=(10, 20, 30))(IMG)
    assert filled[0, 0].tolist() == [10, 20, 30] and filled[1, 1].tolist() == IMG[0, 0].tolist()
    # reflections wider than the image keep mirroring
    assert vision.Pad((5, 0), padding_mode=Border.REFLECT)(np.array([[1, 2]], np.uint8))[0].tolist() == \
        [2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1]
    with pytest.raises(ValueError, match=r"For 'Pad', the 'padding' must be .*, but got \(1, 2, 3\)"):
        vision.Pad((1, 2, 3))
    with pytest.raises(ValueError, match=r"For 'Pad', the 'fill_value' must be in range.*300"):
        vision.Pad(1, fill_value=300)


def test_flips_and_probabilities():
    assert vision.RandomHorizontalFlip(1.0)(IMG)[0, 0].tolist() == IMG[0, -1].tolist()
    assert vision.RandomVerticalFlip(1.0)(IMG)[0, 0].tolist() == IMG[-1, 0].tolist()
    np.testing.assert_array_equal(vision.RandomHorizontalFlip(0.0)(IMG), IMG)
    ds.config.set_seed(3)
    flips = [vision.RandomHorizontalFlip(0.5)(IMG)[0, 0, 0] != IMG[0, 0, 0] for _ in range(40)]
    assert 5 < sum(flips) < 35
    with pytest.raises(ValueError, match=r"For 'RandomHorizontalFlip', the 'prob' must be a float in range \[0.0, "
                                          r"1.0\], but got 1.5"):
        vision.RandomHorizontalFlip(1.5)


def test_random_crop_behaviour():
    out = vision.RandomCrop(4, padding=2)(IMG)
    assert out.shape == (4, 4, 3)
    full = vision.RandomCrop((9, 11), padding=2, fill_value=(1, 2, 3))(IMG)
    assert full[0, 0].tolist() == [1, 2, 3] and full[2, 2].tolist() == IMG[0, 0].tolist()
    needed = vision.RandomCrop((8, 8), pad_if_needed=True)(IMG)
    assert needed.shape == (8, 8, 3)
    with pytest.raises(RuntimeError, match=r"For 'RandomCrop', the crop size \(8, 8\) is larger"):
        vision.RandomCrop((8, 8))(IMG)
    # every crop is a window of the image
    for _ in range(5):
        crop = vision.RandomCrop((3, 3))(RNG_IMG)
        windows = [RNG_IMG[y:y + 3, x:x + 3] for y in range(10) for x in range(14)]
        assert any(np.array_equal(crop, w) for w in windows)


def test_random_resized_crop():
    out = vision.RandomResizedCrop((6, 5))(RNG_IMG)
    assert out.shape == (6, 5, 3) and out.dtype == np.uint8
    full = vision.RandomResizedCrop((12, 16), scale=(1.0, 1.0), ratio=(16 / 12, 16 / 12))(RNG_IMG)
    np.testing.assert_array_equal(full, RNG_IMG)
    assert _graph(vision.RandomResizedCrop(7), RNG_IMG).shape == (7, 7, 3)
    with pytest.raises(ValueError, match=r"For 'RandomResizedCrop', the 'scale' must be a \(min, max\) pair"):
        vision.RandomResizedCrop(4, scale=(0.9, 0.1))
    with pytest.raises(ValueError, match=r"For 'RandomResizedCrop', the 'max_attempts'.*0"):
        vision.RandomResizedCrop(4, max_attempts=0)


def test_rotation():
    rot = vision.RandomRotation((90, 90), expand=True)(IMG)[..., 0]
    assert rot.shape == (7, 5) and rot[0].tolist() == [18, 39, 60, 81, 102]
    assert vision.Rotate(90)(IMG).shape == (5, 7, 3)
    np.testing.assert_array_equal(vision.Rotate(180)(RNG_IMG[:11, :15]), RNG_IMG[:11, :15][::-1, ::-1])
    filled = vision.RandomRotation((45, 45), fill_value=(9, 8, 7))(RNG_IMG)
    assert filled[0, 0].tolist() == [9, 8, 7]
    spread = {vision.RandomRotation(30)(RNG_IMG).tobytes() for _ in range(4)}
    assert len(spread) > 1
    np.testing.assert_array_equal(_graph(vision.RandomRotation((30, 30), Inter.BILINEAR), RNG_IMG),
                                  vision.RandomRotation((30, 30), Inter.BILINEAR)(RNG_IMG))
    with pytest.raises(ValueError, match=r"For 'RandomRotation', degrees should be in \(min,max\)"):
        vision.RandomRotation((10, 5))
    with pytest.raises(TypeError, match=r"For 'RandomRotation'.*resample.*BICUBIC"):
        vision.RandomRotation(10, Inter.BICUBIC)


# ------------------------------------------------------------------------------------ color
def test_color_adjust_deterministic_factors():
    px = np.full((1, 1, 3), 100, np.uint8)
    assert vision.RandomColorAdjust(brightness=(2, 2))(px).tolist() == [[[200, 200, 200]]]
    assert vision.RandomColorAdjust(brightness=(3, 3))(px).tolist() == [[[255, 255, 255]]]
    gray = np.array([[[10, 10, 10], [200, 200, 200]]], np.uint8)
    assert vision.RandomColorAdjust(contrast=(0.0, 0.0))(gray).tolist() == [[[105] * 3, [105] * 3]]
    assert vision.RandomColorAdjust(saturation=(0.0, 0.0))(np.array([[[255, 0, 0]]], np.uint8)).tolist() == \
        [[[76, 76, 76]]]
    red = np.array([[[255, 0, 0]]], np.uint8)
    assert vision.RandomColorAdjust(hue=(1 / 3, 1 / 3))(red)[0, 0].argmax() == 1  # red -> green
    np.testing.assert_array_equal(vision.RandomColorAdjust()(RNG_IMG), RNG_IMG)


def test_color_adjust_random_and_errors():
    op = vision.RandomColorAdjust(0.4, 0.4, 0.4, 0.1)
    outs = {op(RNG_IMG).tobytes() for _ in range(3)}
    assert len(outs) > 1
    assert _graph(op, RNG_IMG).shape == RNG_IMG.shape
    with pytest.raises(ValueError, match=r"For 'RandomColorAdjust', the input value of brightness cannot be negative"):
        vision.RandomColorAdjust(brightness=-1)
    with pytest.raises(ValueError, match=r"For 'RandomColorAdjust', the 'hue' must be a \(min, max\) pair of "
                                          r"numbers in \[-0.5, 0.5\]"):
        vision.RandomColorAdjust(hue=(0.2, 0.7))
    with pytest.raises(RuntimeError, match=r"For 'RandomColorAdjust'.*<H,W,3>"):
        vision.RandomColorAdjust(brightness=2)(RNG_IMG[..., 0])


def test_convert_color():
    rgb = np.array([[[0, 1, 2], [3, 4, 5]]], np.uint8)
    assert vision.ConvertColor(ConvertMode.COLOR_RGB2GRAY)(rgb).tolist() == [[1, 4]]
    assert vision.ConvertColor(ConvertMode.COLOR_RGB2BGR)(rgb)[0, 0].tolist() == [2, 1, 0]
    assert vision.ConvertColor(ConvertMode.COLOR_RGB2RGBA)(rgb)[0, 0].tolist() == [0, 1, 2, 255]
    assert vision.ConvertColor(ConvertMode.COLOR_GRAY2RGB)(rgb[..., 0]).shape == (1, 2, 3)
    assert vision.ConvertColor(ConvertMode.COLOR_RGB2RGBA)(rgb.astype(np.float32))[0, 0, 3] == 1.0
    with pytest.raises(TypeError, match=r"For 'ConvertColor'.*convert_mode.*7"):
        vision.ConvertColor(7)


# ------------------------------------------------------------------------------------ decode
def _encoded(fmt, arr):
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format=fmt)
    return np.frombuffer(buf.getvalue(), np.uint8)


def test_decode_formats_and_errors():
    arr = RNG_IMG[:5, :6]
    np.testing.assert_array_equal(vision.Decode()(_encoded("PNG", arr)), arr)
    np.testing.assert_array_equal(vision.Decode()(_encoded("BMP", arr)), arr)
    assert vision.Decode()(_encoded("PNG", arr[..., 0])).shape == (5, 6, 3)  # gray -> RGB
    assert vision.Decode()(_encoded("JPEG", arr)).shape == (5, 6, 3)
    assert vision.Decode()(_encoded("PNG", arr).tobytes()).shape == (5, 6, 3)
    assert vision.Decode(to_pil=True)(_encoded("PNG", arr)).size == (6, 5)
    np.testing.assert_array_equal(_graph(vision.Decode(), _encoded("PNG", arr)), arr)
    with pytest.raises(TypeError, match=r"For 'Decode', the number of array dimensions.*should be 1, but got 2"):
        vision.Decode()(np.zeros((2, 2), np.uint8))
    with pytest.raises(TypeError, match=r"For 'Decode'.*to_pil.*1"):
        vision.Decode(1)
    with pytest.raises(RuntimeError, match=r"For 'Decode'"):
        vision.Decode()(np.frombuffer(b"not an image", np.uint8))


# ------------------------------------------------------------------------------------ pipelines and seeds
def test_random_transforms_are_reproducible_in_pipelines():
    images = np.random.RandomState(1).randint(0, 256, (6, 12, 16, 3)).astype(np.uint8)

    def run():
        data = ds.NumpySlicesDataset({"image": images}, shuffle=False)
        data = data.map([vision.RandomCrop(8), vision.RandomHorizontalFlip(), vision.RandomRotation(20),
                         vision.RandomColorAdjust(0.3, 0.3)], "image", num_parallel_workers=4)
        return [r[0] for r in data.create_tuple_iterator(output_numpy=True)]

    ds.config.set_seed(11)
    first = run()
    ds.config.set_seed(11)
    second = run()
    assert all(np.array_equal(a, b) for a, b in zip(first, second))
    assert len({a.tobytes() for a in first}) == 6
    ms.set_seed(12)
    third = run()
    ms.set_seed(12)
    assert all(np.array_equal(a, b) for a, b in zip(third, run()))


def test_eager_random_transforms_follow_the_seed():
    ds.config.set_seed(4)
    a = vision.RandomResizedCrop(5)(RNG_IMG)
    ds.config.set_seed(4)
    np.testing.assert_array_equal(vision.RandomResizedCrop(5)(RNG_IMG), a)


def test_lenet_pipeline_types_and_shapes():
    images = np.random.RandomState(2).randint(0, 256, (8, 28, 28, 1)).astype(np.uint8)
    data = ds.NumpySlicesDataset({"image": images, "label": np.arange(8, dtype=np.uint32)}, shuffle=False)
    data = data.map([vision.Resize((32, 32), Inter.LINEAR), vision.Rescale(1 / 0.3081, -0.1307 / 0.3081),
                     vision.Rescale(1 / 255, 0), vision.HWC2CHW()], "image")
    data = data.map(ds.transforms.TypeCast(ms.int32), "label").batch(4, drop_remainder=True)
    assert data.output_types() == [np.dtype("float32"), np.dtype("int32")]
    assert data.output_shapes() == [[4, 1, 32, 32], [4]]


def test_random_crop_draws_every_window_evenly_in_a_pipeline():
    """One draw gives both offsets: every window of the (padded) image comes up, about equally often."""
    image = np.arange(12, dtype=np.uint8).reshape(3, 4, 1)
    data = ds.NumpySlicesDataset({"image": np.repeat(image[None], 600, axis=0)}, shuffle=False)
    data = data.map(vision.RandomCrop(2, padding=[0, 1, 0, 0]), input_columns="image")  # one row of padding on top
    corners = [tuple(int(v) for v in row[0][:, 0, 0]) for row in data.create_tuple_iterator(output_numpy=True)]
    counts = {}
    for corner in corners:
        counts[corner] = counts.get(corner, 0) + 1
    # top offsets 0..2 in the padded 4x4 image (0: the padding row above), left offsets 0..2
    expected = {(0, x) for x in range(3)} | {(y * 4 + x, (y + 1) * 4 + x) for y in range(2) for x in range(3)}
    assert set(counts) == expected
    assert all(20 <= n <= 140 for n in counts.values()), counts  # 67 expected; the bounds are 5 sigma
