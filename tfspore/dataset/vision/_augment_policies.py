"""Learned and random augmentation policies: ``AutoAugment``, ``RandAugment``, ``TrivialAugmentWide``.

Each policy picks among 14-15 image operations (shears, translations, rotation, colour, contrast,
sharpness, posterize, solarize, auto-contrast, equalize, invert, identity) with MindSpore's
magnitude tables, and runs them in TensorFlow ops (``tf.switch_case`` / ``tf.cond`` over stateless
random draws), so a policy runs inside the ``tf.data`` graph. :func:`apply_augment` is one
operation at a fixed magnitude, MindSpore's ``ApplyAugment``.

Differences from MindSpore 2.10 (docs/differences.md): translations move the image by the
magnitude in pixels (MindSpore's kernel multiplies the pixel count by the image size again, so
every non-zero translation leaves only the fill value); operations and signs are drawn uniformly.
"""
from __future__ import annotations

import math
from typing import Callable, Dict, List, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as c
from tfspore.dataset.transforms._base import ImageTensorOperation
from tfspore.dataset.vision import _image_ops as ops
from tfspore.dataset.vision._adjust import (_auto_contrast_lut, _equalize_lut, _per_channel_lut, _posterize,
                                            _sharpness, _solarize)
from tfspore.dataset.vision._affine import affine_matrix
from tfspore.dataset.vision._common import check_fill_value
from tfspore.dataset.vision.utils import AutoAugmentPolicy, Inter

__all__ = ["AutoAugment", "RandAugment", "TrivialAugmentWide", "apply_augment", "magnitude_space", "POLICIES"]

_WARP = {Inter.NEAREST: "NEAREST", Inter.BILINEAR: "BILINEAR", Inter.AREA: "BILINEAR"}

# AutoAugment's sub-policies: two (operation, probability, magnitude bin) steps each; -1 means
# the operation takes no magnitude. The published policies, as MindSpore lists them.
_IMAGENET = [
    (("Posterize", 0.4, 8), ("Rotate", 0.6, 9)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, -1)),
    (("Equalize", 0.8, -1), ("Equalize", 0.6, -1)), (("Posterize", 0.6, 7), ("Posterize", 0.6, 6)),
    (("Equalize", 0.4, -1), ("Solarize", 0.2, 4)), (("Equalize", 0.4, -1), ("Rotate", 0.8, 8)),
    (("Solarize", 0.6, 3), ("Equalize", 0.6, -1)), (("Posterize", 0.8, 5), ("Equalize", 1.0, -1)),
    (("Rotate", 0.2, 3), ("Solarize", 0.6, 8)), (("Equalize", 0.6, -1), ("Posterize", 0.4, 6)),
    (("Rotate", 0.8, 8), ("Color", 0.4, 0)), (("Rotate", 0.4, 9), ("Equalize", 0.6, -1)),
    (("Equalize", 0.0, -1), ("Equalize", 0.8, -1)), (("Invert", 0.6, -1), ("Equalize", 1.0, -1)),
    (("Color", 0.6, 4), ("Contrast", 1.0, 8)), (("Rotate", 0.8, 8), ("Color", 1.0, 2)),
    (("Color", 0.8, 8), ("Solarize", 0.8, 7)), (("Sharpness", 0.4, 7), ("Invert", 0.6, -1)),
    (("ShearX", 0.6, 5), ("Equalize", 1.0, -1)), (("Color", 0.4, 0), ("Equalize", 0.6, -1)),
    (("Equalize", 0.4, -1), ("Solarize", 0.2, 4)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, -1)),
    (("Invert", 0.6, -1), ("Equalize", 1.0, -1)), (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
    (("Equalize", 0.8, -1), ("Equalize", 0.6, -1))]
_CIFAR10 = [
    (("Invert", 0.1, -1), ("Contrast", 0.2, 6)), (("Rotate", 0.7, 2), ("TranslateX", 0.3, 9)),
    (("Sharpness", 0.8, 1), ("Sharpness", 0.9, 3)), (("ShearY", 0.5, 8), ("TranslateY", 0.7, 9)),
    (("AutoContrast", 0.5, -1), ("Equalize", 0.9, -1)), (("ShearY", 0.2, 7), ("Posterize", 0.3, 7)),
    (("Color", 0.4, 3), ("Brightness", 0.6, 7)), (("Sharpness", 0.3, 9), ("Brightness", 0.7, 9)),
    (("Equalize", 0.6, -1), ("Equalize", 0.5, -1)), (("Contrast", 0.6, 7), ("Sharpness", 0.6, 5)),
    (("Color", 0.7, 7), ("TranslateX", 0.5, 8)), (("Equalize", 0.3, -1), ("AutoContrast", 0.4, -1)),
    (("TranslateY", 0.4, 3), ("Sharpness", 0.2, 6)), (("Brightness", 0.9, 6), ("Color", 0.2, 8)),
    (("Solarize", 0.5, 2), ("Invert", 0.0, -1)), (("Equalize", 0.2, -1), ("AutoContrast", 0.6, -1)),
    (("Equalize", 0.2, -1), ("Equalize", 0.6, -1)), (("Color", 0.9, 9), ("Equalize", 0.6, -1)),
    (("AutoContrast", 0.8, -1), ("Solarize", 0.2, 8)), (("Brightness", 0.1, 3), ("Color", 0.7, 0)),
    (("Solarize", 0.4, 5), ("AutoContrast", 0.9, -1)), (("TranslateY", 0.9, 9), ("TranslateY", 0.7, 9)),
    (("AutoContrast", 0.9, -1), ("Solarize", 0.8, 3)), (("Equalize", 0.8, -1), ("Invert", 0.1, -1)),
    (("TranslateY", 0.7, 9), ("AutoContrast", 0.9, -1))]
_SVHN = [
    (("ShearX", 0.9, 4), ("Invert", 0.2, -1)), (("ShearY", 0.9, 8), ("Invert", 0.7, -1)),
    (("Equalize", 0.6, -1), ("Solarize", 0.6, 6)), (("Invert", 0.9, -1), ("Equalize", 0.6, -1)),
    (("Equalize", 0.6, -1), ("Rotate", 0.9, 3)), (("ShearX", 0.9, 4), ("AutoContrast", 0.8, -1)),
    (("ShearY", 0.9, 8), ("Invert", 0.4, -1)), (("ShearY", 0.9, 5), ("Solarize", 0.2, 6)),
    (("Invert", 0.9, -1), ("AutoContrast", 0.8, -1)), (("Equalize", 0.6, -1), ("Rotate", 0.9, 3)),
    (("ShearX", 0.9, 4), ("Solarize", 0.3, 3)), (("ShearY", 0.8, 8), ("Invert", 0.7, -1)),
    (("Equalize", 0.9, -1), ("TranslateY", 0.6, 6)), (("Invert", 0.9, -1), ("Equalize", 0.6, -1)),
    (("Contrast", 0.3, 3), ("Rotate", 0.8, 4)), (("Invert", 0.8, -1), ("TranslateY", 0.0, 2)),
    (("ShearY", 0.7, 6), ("Solarize", 0.4, 8)), (("Invert", 0.6, -1), ("Rotate", 0.8, 4)),
    (("ShearY", 0.3, 7), ("TranslateX", 0.9, 3)), (("ShearX", 0.1, 6), ("Invert", 0.6, -1)),
    (("Solarize", 0.7, 2), ("TranslateY", 0.6, 7)), (("ShearY", 0.8, 4), ("Invert", 0.8, -1)),
    (("ShearX", 0.7, 9), ("TranslateY", 0.8, 3)), (("ShearY", 0.8, 5), ("AutoContrast", 0.7, -1)),
    (("ShearX", 0.7, 2), ("Invert", 0.1, -1))]
POLICIES = {AutoAugmentPolicy.IMAGENET: _IMAGENET, AutoAugmentPolicy.CIFAR10: _CIFAR10,
            AutoAugmentPolicy.SVHN: _SVHN}


# ------------------------------------------------------------------------------ magnitudes
def _linspace(start: float, end: float, n: int, scale: float = 1.0, offset: float = 0.0,
              round_half_even: bool = False) -> np.ndarray:
    """MindSpore's float32 Linspace (optionally rounded half to even)."""
    f32 = np.float32
    step = f32(0.0) if n == 1 else f32((f32(end) - f32(start)) / f32(n - 1))
    out = (f32(start) + np.arange(n, dtype=f32) * step) * f32(scale) + f32(offset)
    return np.round(out).astype(f32) if round_half_even else out.astype(f32)


def magnitude_space(kind: str, num_bins: int) -> Dict[str, Tuple[Union[np.ndarray, None, str], bool]]:
    """Operation -> (magnitudes, signed) of a policy kind (``"auto"``, ``"rand"``, ``"wide"``).

    Magnitudes are a float32 table, None (the operation takes none), or ``"width"`` /
    ``"height"``: a table of ``num_bins`` values from 0 to ``150 / 331`` of that image size.
    """
    wide = kind == "wide"
    unit = 0.99 if wide else 0.9
    space: Dict[str, Tuple[Union[np.ndarray, None, str], bool]] = {
        "ShearX": (_linspace(0.0, 0.99 if wide else 0.3, num_bins), True),
        "ShearY": (_linspace(0.0, 0.99 if wide else 0.3, num_bins), True),
        "TranslateX": (_linspace(0.0, 32.0, num_bins) if wide else "width", True),
        "TranslateY": (_linspace(0.0, 32.0, num_bins) if wide else "height", True),
        "Rotate": (_linspace(0.0, 135.0 if wide else 30.0, num_bins), True),
        "Brightness": (_linspace(0.0, unit, num_bins), True),
        "Color": (_linspace(0.0, unit, num_bins), True),
        "Contrast": (_linspace(0.0, unit, num_bins), True),
        "Sharpness": (_linspace(0.0, unit, num_bins), True),
        "Posterize": (_linspace(0.0, num_bins - 1.0, num_bins, -(6.0 if wide else 4.0) / (num_bins - 1.0), 8.0,
                                True), False),
        "Solarize": (_linspace(256.0 if kind == "auto" else 255.0, 0.0, num_bins), False),
        "AutoContrast": (None, False),
        "Equalize": (None, False),
    }
    if kind == "auto":
        space["Invert"] = (None, False)
    else:
        space["Identity"] = (None, False)
    return dict(sorted(space.items()))


def _translate_table(size: tf.Tensor, num_bins: int) -> tf.Tensor:
    """``Linspace(0, 150 / 331 * size, num_bins)`` in float32, for a size known only in the graph."""
    end = tf.constant(np.float32(150.0) / np.float32(331.0)) * tf.cast(size, tf.float32)
    step = end / np.float32(num_bins - 1)
    return tf.range(num_bins, dtype=tf.float32) * step


def _magnitude_table(table: Union[np.ndarray, str], image: tf.Tensor, num_bins: int) -> tf.Tensor:
    if isinstance(table, str):
        return _translate_table(tf.shape(image)[1 if table == "width" else 0], num_bins)
    return tf.constant(table, tf.float32)


# ------------------------------------------------------------------------------ operations
def _shear_degrees(magnitude: tf.Tensor) -> tf.Tensor:
    """``magnitude * 180 / pi`` as MindSpore computes it (float32 product, double quotient)."""
    product = tf.cast(magnitude, tf.float32) * np.float32(180.0)
    return tf.cast(tf.cast(product, tf.float64) / math.pi, tf.float32)


def _affine(image: tf.Tensor, tx, ty, shear_x, shear_y, interpolation: Inter, fill: Sequence[int]) -> tf.Tensor:
    shape = tf.shape(image)
    matrix = affine_matrix(shape[0], shape[1], 0.0, tx, ty, 1.0, shear_x, shear_y)
    return tf.ensure_shape(ops.warp_affine(image, matrix, shape[0], shape[1], _WARP[interpolation], fill), image.shape)


def _lut(image: tf.Tensor, lut_fn: Callable[[tf.Tensor], tf.Tensor]) -> tf.Tensor:
    return _per_channel_lut(image, lut_fn)


def apply_augment(image: tf.Tensor, name: str, magnitude: Union[float, tf.Tensor], interpolation: Inter = Inter.NEAREST,
                  fill_value: Sequence[int] = (0, 0, 0)) -> tf.Tensor:
    """One policy operation at a fixed (signed) magnitude on an <H,W,3> uint8 image.

    Args:
        image: The image.
        name: ``ShearX``, ``ShearY`` (magnitude: the shear factor), ``TranslateX``, ``TranslateY``
            (pixels, truncated to an int), ``Rotate`` (degrees), ``Brightness``, ``Color``,
            ``Contrast``, ``Sharpness`` (factor ``1 + magnitude``), ``Posterize`` (bits kept),
            ``Solarize`` (values ``>= magnitude`` inverted), ``AutoContrast``, ``Equalize``,
            ``Invert`` or ``Identity``.
        magnitude: The magnitude (a number or a scalar tensor).
        interpolation: ``Inter.NEAREST``, ``Inter.BILINEAR`` or ``Inter.AREA`` (bilinear) for
            the geometric operations.
        fill_value: The R, G, B fill of the area a geometric operation uncovers.

    Returns:
        The transformed image.

    Raises:
        ValueError: If `name` is not an operation of the policies.
    """
    image = tf.convert_to_tensor(image)
    m = tf.cast(magnitude, tf.float32)
    fill = [float(v) for v in fill_value]
    if name in ("ShearX", "ShearY"):
        shear = _shear_degrees(m)
        zero = tf.zeros([], tf.float32)
        return _affine(image, zero, zero, shear if name == "ShearX" else zero,
                       shear if name == "ShearY" else zero, interpolation, fill)
    if name in ("TranslateX", "TranslateY"):
        pixels = tf.cast(tf.cast(m, tf.int32), tf.float32)  # truncation toward zero, as static_cast<int>
        zero = tf.zeros([], tf.float32)
        return _affine(image, pixels if name == "TranslateX" else zero, pixels if name == "TranslateY" else zero,
                       zero, zero, interpolation, fill)
    if name == "Rotate":
        return tf.ensure_shape(ops.rotate(image, m, _WARP[interpolation], False, None, fill), image.shape)
    if name == "Brightness":
        return ops.adjust_brightness(image, 1.0 + m)
    if name == "Color":
        return ops.adjust_saturation(image, 1.0 + m)
    if name == "Contrast":
        return ops.adjust_contrast(image, 1.0 + m)
    if name == "Sharpness":
        return _sharpness(image, 1.0 + m)
    if name == "Posterize":
        return _posterize(image, tf.cast(m, tf.int32))
    if name == "Solarize":
        return _solarize(image, m, m)
    if name == "AutoContrast":
        return _lut(image, lambda hist: _auto_contrast_lut(hist, 0, ()))
    if name == "Equalize":
        return _lut(image, _equalize_lut)
    if name == "Invert":
        return 255 - image
    if name == "Identity":
        return tf.identity(image)
    raise ValueError(f"For 'ApplyAugment', the operation {name!r} is not supported.")


def _check_image(image: tf.Tensor, api: str) -> None:
    if image.shape.rank != 3 or image.shape[2] not in (3, None):
        raise RuntimeError(f"For '{api}', the input should be an <H,W,3> RGB image, but got shape "
                           f"{image.shape.as_list()}.")
    if image.dtype != tf.uint8:
        raise RuntimeError(f"For '{api}', the input image should be of type uint8, but got {image.dtype.name}.")


def _check_common(interpolation: Inter, fill_value, api: str) -> Tuple[Inter, Tuple[int, ...]]:
    c.check_type(interpolation, (Inter,), "interpolation", api)
    if interpolation not in _WARP:
        names = ", ".join(m.name for m in _WARP)
        raise TypeError(f"For '{api}', the 'interpolation' {interpolation!r} is not supported; supported: {names}.")
    return interpolation, check_fill_value(fill_value, api)


class _Policy(ImageTensorOperation):
    """What the three policies share: the operation table, magnitude tables as one tensor, and one
    ``tf.switch_case`` over the operations, traced once and run in a ``tf.while_loop``."""

    _tf_random = True
    _kind = ""

    def _setup(self, num_bins: int) -> None:
        self._space = magnitude_space(self._kind, num_bins)
        self._names: List[str] = list(self._space)
        self._num_bins = num_bins
        self._signed_flags = [bool(self._space[n][1]) for n in self._names]

    def _tables(self, image: tf.Tensor) -> tf.Tensor:
        """[operations, bins] float32 magnitudes (zeros for the operations that take none)."""
        rows = []
        for name in self._names:
            table = self._space[name][0]
            rows.append(tf.zeros([self._num_bins], tf.float32) if table is None
                        else _magnitude_table(table, image, self._num_bins))
        return tf.stack(rows)

    def _signed(self, value: tf.Tensor, op_index: tf.Tensor, negate: tf.Tensor) -> tf.Tensor:
        """`value` negated when the operation is signed and the draw `negate` is True."""
        signed = tf.gather(tf.constant(self._signed_flags), op_index)
        return tf.where(tf.logical_and(signed, negate), -value, value)

    def _run_index(self, image: tf.Tensor, op_index: tf.Tensor, magnitude: tf.Tensor) -> tf.Tensor:
        def branch(name: str) -> Callable[[], tf.Tensor]:
            return lambda: tf.ensure_shape(
                apply_augment(image, name, magnitude, self.interpolation, self.fill_value), image.shape)
        return tf.switch_case(op_index, [branch(name) for name in self._names])

    def _loop(self, image: tf.Tensor, steps: int, body: Callable[[tf.Tensor, tf.Tensor], tf.Tensor]) -> tf.Tensor:
        if steps == 0:
            return image
        _, out = tf.while_loop(lambda i, _: i < steps, lambda i, x: (i + 1, body(i, x)),
                               (tf.constant(0), image), shape_invariants=(tf.TensorShape([]), image.shape))
        return out


class AutoAugment(_Policy):
    """AutoAugment (`Cubuk et al. <https://arxiv.org/abs/1805.09501>`_): pick one of the policy's 25
    sub-policies uniformly and apply its two steps, each with its probability, at its magnitude
    (a random sign for the signed operations). <H,W,3> uint8 images.

    Args:
        policy: ``AutoAugmentPolicy.IMAGENET`` (default), ``CIFAR10`` or ``SVHN``.
        interpolation: ``Inter.NEAREST`` (default), ``Inter.BILINEAR`` or ``Inter.AREA``.
        fill_value: The fill of uncovered areas: an int or an RGB 3-tuple in [0, 255].

    Raises:
        TypeError: If an argument has the wrong type.
        RuntimeError: If the input is not an <H,W,3> uint8 image.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> out = vision.AutoAugment()(np.zeros((8, 8, 3), np.uint8))
        >>> out.shape, out.dtype
        ((8, 8, 3), dtype('uint8'))
    """

    _kind = "auto"

    def __init__(self, policy: AutoAugmentPolicy = AutoAugmentPolicy.IMAGENET, interpolation: Inter = Inter.NEAREST,
                 fill_value: Union[int, Tuple[int, int, int]] = 0) -> None:
        super().__init__()
        api = "AutoAugment"
        c.check_type(policy, (AutoAugmentPolicy,), "policy", api)
        self.policy = policy
        self.interpolation, self.fill_value = _check_common(interpolation, fill_value, api)
        self._setup(10)
        subs = POLICIES[policy]
        self._step_ops = [[self._names.index(name) for name, _, _ in sub] for sub in subs]
        self._step_probs = [[prob for _, prob, _ in sub] for sub in subs]
        self._step_bins = [[bin_id for _, _, bin_id in sub] for sub in subs]

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        _check_image(image, "AutoAugment")
        tables = self._tables(image)
        sub = self._uniform((), 0, len(self._step_ops), dtype=tf.int32)
        ops_ = tf.gather(tf.constant(self._step_ops, tf.int32), sub)
        probs = tf.gather(tf.constant(self._step_probs, tf.float32), sub)
        bins = tf.gather(tf.constant(self._step_bins, tf.int32), sub)
        # every draw is made before the loop: its body is traced once
        applied = self._uniform([2]) <= probs
        negate = self._uniform([2]) < 0.5

        def body(i: tf.Tensor, x: tf.Tensor) -> tf.Tensor:
            op_index = ops_[i]
            bin_id = bins[i]
            value = tf.where(bin_id < 0, 0.0, tables[op_index, tf.maximum(bin_id, 0)])
            magnitude = self._signed(value, op_index, negate[i])
            return tf.cond(applied[i], lambda: self._run_index(x, op_index, magnitude), lambda: x)
        return self._loop(image, 2, body)


class RandAugment(_Policy):
    """RandAugment (`Cubuk et al. <https://arxiv.org/abs/1909.13719>`_): apply `num_ops` operations,
    each chosen uniformly among 14, at magnitude bin `magnitude` of `num_magnitude_bins` (a random
    sign for the signed operations). <H,W,3> uint8 images.

    Args:
        num_ops: The number of operations applied (>= 0). Default: 2.
        magnitude: The magnitude bin, in ``[0, num_magnitude_bins)``. Default: 9.
        num_magnitude_bins: The number of magnitude bins (>= 2). Default: 31.
        interpolation: ``Inter.NEAREST`` (default), ``Inter.BILINEAR`` or ``Inter.AREA``.
        fill_value: The fill of uncovered areas: an int or an RGB 3-tuple in [0, 255].

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If an argument is out of range.
        RuntimeError: If the input is not an <H,W,3> uint8 image.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> int(vision.RandAugment(num_ops=0)(np.full((4, 4, 3), 9, np.uint8)).max())
        9
    """

    _kind = "rand"

    def __init__(self, num_ops: int = 2, magnitude: int = 9, num_magnitude_bins: int = 31,
                 interpolation: Inter = Inter.NEAREST, fill_value: Union[int, Tuple[int, int, int]] = 0) -> None:
        super().__init__()
        api = "RandAugment"
        self.num_ops = c.check_int_range(num_ops, "num_ops", api, 0, c.FLOAT_MAX_INTEGER)
        self.num_magnitude_bins = c.check_int_range(num_magnitude_bins, "num_magnitude_bins", api, 2,
                                                    c.FLOAT_MAX_INTEGER)
        c.check_type(magnitude, (int,), "magnitude", api)
        if isinstance(magnitude, bool) or not 0 <= magnitude < num_magnitude_bins:
            raise ValueError(f"For '{api}', the 'magnitude' must be in [0, {num_magnitude_bins}), but got "
                             f"{magnitude!r}.")
        self.magnitude = magnitude
        self.interpolation, self.fill_value = _check_common(interpolation, fill_value, api)
        self._setup(num_magnitude_bins)

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        _check_image(image, "RandAugment")
        tables = self._tables(image)

        if self.num_ops == 0:
            return image
        # every draw is made before the loop: its body is traced once
        op_indices = self._uniform([self.num_ops], 0, len(self._names), dtype=tf.int32)
        negate = self._uniform([self.num_ops]) < 0.5

        def body(i: tf.Tensor, x: tf.Tensor) -> tf.Tensor:
            op_index = op_indices[i]
            magnitude = self._signed(tables[op_index, self.magnitude], op_index, negate[i])
            return self._run_index(x, op_index, magnitude)
        return self._loop(image, self.num_ops, body)


class TrivialAugmentWide(_Policy):
    """TrivialAugment Wide (`Müller and Hutter <https://arxiv.org/abs/2103.10158>`_): apply one
    operation chosen uniformly among 14, at a uniformly chosen magnitude bin of the wide ranges
    (a random sign for the signed operations). <H,W,3> uint8 images.

    Args:
        num_magnitude_bins: The number of magnitude bins (>= 2). Default: 31.
        interpolation: ``Inter.NEAREST`` (default), ``Inter.BILINEAR`` or ``Inter.AREA``.
        fill_value: The fill of uncovered areas: an int or an RGB 3-tuple in [0, 255].

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If `num_magnitude_bins` is below 2.
        RuntimeError: If the input is not an <H,W,3> uint8 image.

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> vision.TrivialAugmentWide()(np.zeros((8, 8, 3), np.uint8)).shape
        (8, 8, 3)
    """

    _kind = "wide"

    def __init__(self, num_magnitude_bins: int = 31, interpolation: Inter = Inter.NEAREST,
                 fill_value: Union[int, Tuple[int, int, int]] = 0) -> None:
        super().__init__()
        api = "TrivialAugmentWide"
        self.num_magnitude_bins = c.check_int_range(num_magnitude_bins, "num_magnitude_bins", api, 2,
                                                    c.FLOAT_MAX_INTEGER)
        self.interpolation, self.fill_value = _check_common(interpolation, fill_value, api)
        self._setup(num_magnitude_bins)

    def _apply(self, image: tf.Tensor) -> tf.Tensor:
        _check_image(image, "TrivialAugmentWide")
        tables = self._tables(image)
        op_index = self._uniform((), 0, len(self._names), dtype=tf.int32)
        bin_id = self._uniform((), 0, self.num_magnitude_bins, dtype=tf.int32)
        negate = self._uniform(()) < 0.5
        return self._run_index(image, op_index, self._signed(tables[op_index, bin_id], op_index, negate))
