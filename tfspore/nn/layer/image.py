"""Image layers: ``ResizeBilinear``, and the image-quality measures ``SSIM``, ``MSSSIM`` and ``PSNR``.

MindSpore 2.10 removed ``nn.ResizeBilinear`` (use ``nn.Upsample`` or ``ops.interpolate``); it is
kept here, with the MindSpore 1.x/2.0 signature and its ``ResizeBilinearV2`` kernel, so that
older scripts run unchanged.

``SSIM`` and ``MSSSIM`` hold their Gaussian window in frozen ``Conv2d`` children (``conv.weight``;
``multi_convs_list.<i>.weight``) as MindSpore does, so checkpoints keep the same names; each channel
is filtered on its own, as in MindSpore. Integer images are scaled to [0, 1] by their dtype's
maximum (``max_val`` with them).

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> nn.ResizeBilinear()(Tensor(np.ones((1, 1, 2, 3), np.float32)), scale_factor=2).shape
    (1, 1, 4, 6)
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import tensorflow as tf

from tfspore._internal import validator
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import cast_to, compute_dtype, read_param, to_tf
from tfspore.nn.layer.container import CellList
from tfspore.nn.layer.conv import Conv2d

__all__ = ["ResizeBilinear", "SSIM", "MSSSIM", "PSNR", "CentralCrop", "ImageGradients"]


class ResizeBilinear(Cell):
    """Bilinear resizing of an NCHW input to ``size`` or by an integer ``scale_factor``.

    Source pixel ``i`` of output pixel ``o`` is ``o * in / out`` (``align_corners=False``,
    ``half_pixel_centers=False``: TensorFlow 1's legacy rule), ``o * (in - 1) / (out - 1)``
    (``align_corners=True``) or ``(o + 0.5) * in / out - 0.5`` (``half_pixel_centers=True``).

    Args:
        half_pixel_centers: use half-pixel centres (not together with ``align_corners``).

    Inputs:
        x: a float Tensor of shape ``(N, C, H, W)``.
        size: the output ``(height, width)``, or None.
        scale_factor: an int multiplying height and width, or None (exactly one of the two is set).
        align_corners: align the corner pixels.

    Outputs:
        A Tensor of shape ``(N, C, out_h, out_w)``.

    Raises:
        TypeError: when ``half_pixel_centers`` or ``align_corners`` is not a bool, or ``scale_factor``
            not an int.
        ValueError: at call time, for both or neither of ``size`` and ``scale_factor``, a bad ``size``,
            or ``align_corners`` with ``half_pixel_centers``.

    Example:
        >>> ResizeBilinear()
        ResizeBilinear()
    """

    def __init__(self, half_pixel_centers: bool = False) -> None:
        super().__init__()
        self.half_pixel_centers = validator.check_bool(half_pixel_centers, "half_pixel_centers", self.cls_name)

    def construct(self, x: Any, size: Any = None, scale_factor: Any = None, align_corners: bool = False) -> Tensor:
        name = self.cls_name
        v = to_tf(x)
        v = cast_to(v, compute_dtype(self, v))
        validator.check_bool(align_corners, "align_corners", name)
        if v.shape.rank != 4:
            raise ValueError(f"For '{name}', the input must be 4-D, but got rank {v.shape.rank}.")
        if align_corners and self.half_pixel_centers:
            raise ValueError(f"For '{name}', the 'align_corners' and 'half_pixel_centers' can not be True at the "
                             f"same time, but got align_corners={align_corners}.")
        if (size is None) == (scale_factor is None):
            raise ValueError(f"For '{name}', exactly one of 'size' and 'scale_factor' must be set, but got "
                             f"size={size!r}, scale_factor={scale_factor!r}.")
        if size is not None:
            if not isinstance(size, (tuple, list)) or len(size) != 2 or not all(
                    isinstance(s, numbers.Integral) and not isinstance(s, bool) and s > 0 for s in size):
                raise ValueError(f"For '{name}', the 'size' must be a tuple of 2 positive ints, but got {size!r}.")
            out = [int(size[0]), int(size[1])]
        else:
            validator.check_positive_int(scale_factor, "scale_factor", name)
            h, w = v.shape[2], v.shape[3]
            if h is None or w is None:
                raise ValueError(f"For '{name}', 'scale_factor' needs static spatial dims, but got shape "
                                 f"{tuple(v.shape.as_list())}.")
            out = [h * scale_factor, w * scale_factor]
        y = tf.compat.v1.image.resize_bilinear(tf.transpose(v, [0, 2, 3, 1]), out, align_corners=align_corners,
                                               half_pixel_centers=self.half_pixel_centers)
        return _wrap(tf.transpose(cast_to(y, v.dtype), [0, 3, 1, 2]))


_MS_DTYPE = {tf.float16: "float16", tf.float32: "float32", tf.float64: "float64", tf.uint8: "uint8",
             tf.int8: "int8", tf.int16: "int16", tf.int32: "int32", tf.int64: "int64", tf.bool: "bool_"}


def _check_max_val(name: str, max_val: Any) -> Any:
    if isinstance(max_val, bool) or not isinstance(max_val, (int, float)):
        raise TypeError(f"For '{name}', the type of 'max_val' should be one of '['int', 'float']', but got type "
                        f"'{type(max_val).__name__}'.")
    if max_val <= 0:
        raise ValueError(f"For '{name}', the argument 'max_val' must > 0.0, but got {max_val}.")
    return max_val


def _check_window_args(name: str, filter_size: Any, filter_sigma: Any, k1: Any, k2: Any) -> None:
    if isinstance(filter_size, bool) or not isinstance(filter_size, int) or filter_size < 1:
        raise ValueError(f"For '{name}', the 'filter_size' must be int and must >= 1, but got '{filter_size}' with "
                         f"type '{type(filter_size).__name__}'.")
    if not isinstance(filter_sigma, float):
        raise TypeError(f"For '{name}', the 'filter_sigma' must be float, but got '{type(filter_sigma).__name__}'")
    if filter_sigma <= 0:
        raise ValueError(f"For '{name}', the 'filter_sigma' must be a positive float, but got {filter_sigma}.")
    for arg, val in (("k1", k1), ("k2", k2)):
        if not isinstance(val, float):
            raise TypeError(f"For '{name}', the type of '{arg}' should be 'float', but got type "
                            f"'{type(val).__name__}'.")


def _gaussian_window(size: int, sigma: float) -> np.ndarray:
    """A normalized ``(1, 1, size, size)`` Gaussian window centred as MindSpore centres it."""
    grid = np.arange(-size // 2 + 1, size // 2 + 1, dtype=np.float32) ** 2
    g = np.exp(-(grid[:, None] + grid[None, :]) / (2 * sigma ** 2))
    return (g / np.sum(g))[None, None].astype(np.float32)


def _window_conv(size: int, sigma: float) -> Conv2d:
    conv = Conv2d(1, 1, size, weight_init=Tensor(_gaussian_window(size, sigma)), pad_mode="valid")
    conv.weight.requires_grad = False
    return conv


def _check_4d(name: str, v: tf.Tensor, arg: str) -> None:
    if v.shape.rank != 4:
        raise ValueError(f"For '{name}', the dimension of '{arg}' must be 4d, but got {v.shape.rank}.")


def _same_type_shape(a: tf.Tensor, b: tf.Tensor) -> None:
    if a.dtype != b.dtype:
        raise TypeError(f"For 'SameTypeShape', the x type should be the same as y type: {_MS_DTYPE.get(b.dtype)}, "
                        f"but got {_MS_DTYPE.get(a.dtype)}.")
    if a.shape.as_list() != b.shape.as_list():
        raise ValueError(f"For 'SameTypeShape', the x shape should be = y shape: {tuple(b.shape.as_list())}, but got "
                         f"{tuple(a.shape.as_list())}.")


def _to_float(v: tf.Tensor, max_val: float) -> tuple[tf.Tensor, float]:
    """Float32 images (integer ones divided by their dtype's maximum) and the matching ``max_val``."""
    scale = float(v.dtype.max) if v.dtype.is_integer else 1.0
    v = tf.cast(v, tf.float32)
    if scale > 1.0:
        return v * (1.0 / scale), float(np.float32(max_val)) / scale
    return v, float(np.float32(max_val))


def _ssim_and_cs(c1: float, c2: float, img1: tf.Tensor, img2: tf.Tensor, window: tf.Tensor) -> tuple:
    """Per-image, per-channel mean SSIM and contrast-structure terms, each of shape ``(N, C)``."""
    shape = tf.shape(img1)
    n, c, h, w = shape[0], shape[1], shape[2], shape[3]
    kernel = tf.transpose(window, [2, 3, 1, 0])  # (1, 1, k, k) -> (k, k, 1, 1)
    stacked = tf.reshape(tf.stack([img1, img2, img1 * img1, img2 * img2, img1 * img2]), [5 * n * c, h, w, 1])
    filt = tf.nn.conv2d(stacked, kernel, 1, "VALID")
    mu1, mu2, s11, s22, s12 = tf.unstack(tf.reshape(filt, tf.concat([[5, n, c], tf.shape(filt)[1:3]], 0)))
    mu1_mu2 = mu1 * mu2
    mu1_sq, mu2_sq = mu1 * mu1, mu2 * mu2
    v1 = 2 * (s12 - mu1_mu2) + c2
    v2 = (s11 - mu1_sq) + (s22 - mu2_sq) + c2
    ssim = ((2 * mu1_mu2 + c1) * v1) / ((mu1_sq + mu2_sq + c1) * v2)
    return tf.reduce_mean(ssim, [2, 3]), tf.reduce_mean(v1 / v2, [2, 3])


class SSIM(Cell):
    """The structural similarity index of two image batches, averaged over channels and pixels.

    Args:
        max_val: the dynamic range of the pixel values (1.0 or 255 usually).
        filter_size: the Gaussian window size.
        filter_sigma: the Gaussian window's standard deviation.
        k1: the luminance stabilizer.
        k2: the contrast stabilizer.

    Inputs:
        img1: a float16/float32 Tensor of shape ``(N, C, H, W)``.
        img2: a Tensor of the same dtype and shape.

    Outputs:
        A float32 Tensor of shape ``(N,)``.

    Raises:
        TypeError: for a bad argument type or image dtype.
        ValueError: for a non-positive ``max_val``, a bad ``filter_size`` or ``filter_sigma``; at call time, for
            a non-4-D image, images smaller than the window, or images of different shapes.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> x = Tensor(np.ones((1, 3, 16, 16), np.float32))
        >>> float(SSIM()(x, x)[0])
        1.0
    """

    def __init__(self, max_val: Any = 1.0, filter_size: int = 11, filter_sigma: float = 1.5, k1: float = 0.01,
                 k2: float = 0.03) -> None:
        super().__init__()
        self.max_val = _check_max_val(self.cls_name, max_val)
        _check_window_args(self.cls_name, filter_size, filter_sigma, k1, k2)
        self.filter_size, self.filter_sigma, self.k1, self.k2 = filter_size, filter_sigma, k1, k2
        self.conv = _window_conv(filter_size, filter_sigma)

    def construct(self, img1: Any, img2: Any) -> Tensor:
        name = self.cls_name
        a, b = to_tf(img1), to_tf(img2)
        if a.dtype not in (tf.float32, tf.float16):
            raise TypeError(f"For '{name}', the 'img1' should be one of [mindspore.float32, mindspore.float16], but "
                            f"got 'mindspore.{_MS_DTYPE.get(a.dtype, a.dtype.name)}'.")
        _check_4d(name, a, "img1")
        for axis in (2, 3):
            size = a.shape[axis]
            if size is not None and size < self.filter_size:
                raise ValueError(f"For '{name}', the img1 shape[{axis}] should be >= filter_size: {self.filter_size}, "
                                 f"but got {size}.")
        _same_type_shape(a, b)
        a, max_val = _to_float(a, self.max_val)
        b, _ = _to_float(b, self.max_val)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        ssim, _ = _ssim_and_cs(c1, c2, a, b, read_param(self.conv.weight, tf.float32))
        return _wrap(tf.reduce_mean(ssim, -1))


class MSSSIM(Cell):
    """The multi-scale structural similarity index of two image batches.

    Each of ``len(power_factors)`` scales computes SSIM's contrast-structure term (the last scale the
    whole SSIM), then halves the images with a 2x2 average pooling; the result is the product of
    the (ReLU-clipped) terms raised to their power factors, averaged over channels.

    Args:
        max_val: the dynamic range of the pixel values.
        power_factors: the weight of each scale.
        filter_size: the Gaussian window size.
        filter_sigma: the Gaussian window's standard deviation.
        k1: the luminance stabilizer.
        k2: the contrast stabilizer.

    Inputs:
        img1: a float64/float32/float16/uint8 Tensor of shape ``(N, C, H, W)``.
        img2: a Tensor of the same dtype and shape.

    Outputs:
        A float32 Tensor of shape ``(N,)``.

    Raises:
        TypeError: for a bad argument type or image dtype.
        ValueError: for a non-positive ``max_val`` or a bad window; at call time, for non-4-D images or
            images of different shapes.

    Example:
        >>> len(MSSSIM().multi_convs_list)
        5
    """

    def __init__(self, max_val: Any = 1.0, power_factors: Any = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333),
                 filter_size: int = 11, filter_sigma: float = 1.5, k1: float = 0.01, k2: float = 0.03) -> None:
        super().__init__()
        self.max_val = _check_max_val(self.cls_name, max_val)
        validator.check_type(power_factors, [tuple, list], "power_factors", self.cls_name)
        _check_window_args(self.cls_name, filter_size, filter_sigma, k1, k2)
        self.filter_size, self.filter_sigma, self.k1, self.k2 = filter_size, filter_sigma, k1, k2
        self.level = len(power_factors)
        self.multi_convs_list = CellList([_window_conv(filter_size, filter_sigma) for _ in range(self.level)])
        self.power_factors = tuple(float(p) for p in power_factors)

    def construct(self, img1: Any, img2: Any) -> Tensor:
        name = self.cls_name
        a, b = to_tf(img1), to_tf(img2)
        _check_4d(name, a, "img1")
        _check_4d(name, b, "img2")
        if a.dtype not in (tf.float64, tf.float32, tf.float16, tf.uint8):
            raise TypeError(f"For '{name}', the 'img1' should be one of [mindspore.float64, mindspore.float32, "
                            f"mindspore.float16, mindspore.uint8], but got "
                            f"'mindspore.{_MS_DTYPE.get(a.dtype, a.dtype.name)}'.")
        _same_type_shape(a, b)
        a, max_val = _to_float(a, self.max_val)
        b, _ = _to_float(b, self.max_val)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        terms = []
        sim = None
        for i in range(self.level):
            sim, cs = _ssim_and_cs(c1, c2, a, b, read_param(self.multi_convs_list[i].weight, tf.float32))
            terms.append(tf.nn.relu(cs))
            a = _halve(a)
            b = _halve(b)
        stacked = tf.stack(terms[:-1] + [tf.nn.relu(sim)], axis=-1)
        ms_ssim = tf.reduce_prod(tf.pow(stacked, tf.constant(self.power_factors, tf.float32)), -1)
        return _wrap(tf.reduce_mean(ms_ssim, -1))


def _halve(v: tf.Tensor) -> tf.Tensor:
    """2x2, stride-2 'valid' average pooling of an NCHW tensor."""
    y = tf.nn.avg_pool2d(tf.transpose(v, [0, 2, 3, 1]), 2, 2, "VALID")
    return tf.transpose(y, [0, 3, 1, 2])


class PSNR(Cell):
    """The peak signal-to-noise ratio ``10 * log10(max_val ** 2 / mse)`` of two image batches.

    Args:
        max_val: the dynamic range of the pixel values.

    Inputs:
        img1: a Tensor of shape ``(N, C, H, W)``.
        img2: a Tensor of the same dtype and shape.

    Outputs:
        A float32 Tensor of shape ``(N,)``.

    Raises:
        TypeError: when ``max_val`` is not a number, or the images differ in dtype.
        ValueError: for a non-positive ``max_val``; at call time, for non-4-D images or different shapes.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> PSNR()(Tensor(np.zeros((1, 1, 2, 2), np.float32)), Tensor(np.full((1, 1, 2, 2), 0.1, np.float32))).shape
        (1,)
    """

    def __init__(self, max_val: Any = 1.0) -> None:
        super().__init__()
        self.max_val = _check_max_val(self.cls_name, max_val)

    def construct(self, img1: Any, img2: Any) -> Tensor:
        name = self.cls_name
        a, b = to_tf(img1), to_tf(img2)
        _check_4d(name, a, "img1")
        _check_4d(name, b, "img2")
        _same_type_shape(a, b)
        a, max_val = _to_float(a, self.max_val)
        b, _ = _to_float(b, self.max_val)
        mse = tf.reduce_mean(tf.square(a - b), [-3, -2, -1])
        return _wrap(10.0 * tf.math.log(tf.constant(max_val * max_val, tf.float32) / mse) / float(np.log(10.0)))


class CentralCrop(Cell):
    """Crop the central ``central_fraction`` of the height and width of a ``(C, H, W)`` or ``(N, C, H, W)`` image.

    The crop starts at ``int((H - H * central_fraction) / 2)`` and keeps the same margin at the end.

    Args:
        central_fraction: a float in (0, 1].

    Inputs:
        image: a 3-D or 4-D Tensor.

    Outputs:
        The cropped Tensor.

    Raises:
        TypeError: when ``central_fraction`` is not a float.
        ValueError: when it is outside (0, 1]; at call time, for an image that is not 3-D or 4-D.

    Example:
        >>> CentralCrop(0.5)(Tensor(np.ones((3, 8, 8), np.float32))).shape
        (3, 4, 4)
    """

    def __init__(self, central_fraction: float) -> None:
        super().__init__()
        if not isinstance(central_fraction, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'central_fraction' should be 'float', but got type "
                            f"'{type(central_fraction).__name__}'.")
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"For '{self.cls_name}', the 'central_fraction' must be in range of (0.0, 1.0], but got "
                             f"{central_fraction}.")
        self.central_fraction = central_fraction

    def construct(self, image: Any) -> Tensor:
        v = to_tf(image)
        rank = v.shape.rank
        if rank not in (3, 4):
            raise ValueError(f"{self.cls_name} image must be 3d or 4d, but got shape {tuple(v.shape.as_list())}")
        if self.central_fraction == 1.0:
            return image
        h, w = v.shape[-2], v.shape[-1]
        top = int((float(h) - float(h * self.central_fraction)) / 2)
        left = int((float(w) - float(w * self.central_fraction)) / 2)
        return _wrap(v[..., top:h - top, left:w - left])


class ImageGradients(Cell):
    """The forward differences ``(dy, dx)`` of an NCHW image; the last row of ``dy`` and column of ``dx`` are 0.

    Inputs:
        images: a Tensor of shape ``(N, C, H, W)``.

    Outputs:
        ``(dy, dx)``, each of the shape of ``images``.

    Raises:
        ValueError: for an input that is not 4-D.

    Example:
        >>> dy, dx = ImageGradients()(Tensor(np.ones((1, 1, 2, 2), np.float32)))
        >>> dy.shape
        (1, 1, 2, 2)
    """

    def construct(self, images: Any) -> tuple:
        v = to_tf(images)
        _check_4d(self.cls_name, v, "images")
        dy = tf.concat([v[:, :, 1:, :] - v[:, :, :-1, :], tf.zeros_like(v[:, :, :1, :])], axis=2)
        dx = tf.concat([v[:, :, :, 1:] - v[:, :, :, :-1], tf.zeros_like(v[:, :, :, :1])], axis=3)
        return _wrap(dy), _wrap(dx)
