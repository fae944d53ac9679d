"""Turn pooled summary values into TensorBoard ``Summary.Value`` protos.

The conversions keep MindSpore's numbers (the first element of a scalar, MindSpore's histogram
buckets, its NCHW image grid and pixel scaling) and store them in the forms TensorBoard's
dashboards read:

* scalar: ``simple_value`` (Scalars dashboard);
* tensor: a ``TensorProto`` of the exact dtype and shape (readable with ``tf.make_ndarray``);
* histogram: the histogram plugin's ``[k, 3]`` tensor of ``(left, right, count)`` buckets;
* image: a PNG ``Summary.Image`` of the N images tiled 8 per row, RGB (Images dashboard);
* landscape: tensors ``<tag>/x``, ``<tag>/y``, ``<tag>/z`` and a heat-map image ``<tag>``;
* lineage: the HParams dashboard (hyper-parameters, metrics as scalars) and the Text dashboard.

Example:
    >>> import numpy as np
    >>> from tfspore.train.summary._adapter import histogram_value
    >>> value = histogram_value("w", np.arange(12, dtype=np.float32))
    >>> value.metadata.plugin_data.plugin_name
    'histograms'
"""
from __future__ import annotations

import json
import logging

import numpy as np
from google.protobuf import text_format
from tensorboard.compat.proto import summary_pb2
from tensorboard.plugins.histogram import metadata as histogram_metadata
from tensorboard.plugins.hparams import summary_v2 as hparams_summary
from tensorboard.plugins.text import metadata as text_metadata
from tensorboard.util import tensor_util

from tfspore._internal.proto import anf_ir_pb2, lineage_pb2
from tfspore._internal.proto import summary_pb2 as ms_summary_pb2

_logger = logging.getLogger("tfspore")

__all__ = ["scalar_value", "tensor_value", "histogram_value", "image_value", "landscape_values", "text_value",
           "lineage_values", "histogram_bins", "image_canvas"]

_F32_MIN, _F32_MAX = np.finfo(np.float32).min, np.finfo(np.float32).max
_SUPPORTED_DTYPES = (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
                     np.float16, np.float32, np.float64)


def scalar_value(tag: str, np_value: np.ndarray) -> summary_pb2.Summary.Value | None:
    """A Scalars-dashboard value: the only (or, for a larger array, the first) element."""
    if np_value.size == 0:
        _logger.error("The size of Summary tensor should greater than 1, but got size = 0, this means has no "
                      "values inside tensor, tag = %s", tag)
        return None
    if np_value.size > 1:
        _logger.info("The tensor is not a single scalar, tag = %s, ndim = %d, shape = %s", tag, np_value.ndim,
                     np_value.shape)
    return summary_pb2.Summary.Value(tag=tag, simple_value=float(np_value.reshape(-1)[0]))


def _check_dtype(np_value: np.ndarray) -> None:
    if np_value.dtype.type not in _SUPPORTED_DTYPES:
        raise TypeError("Transform numpy type failed in Summary, expect numpy type is one of ['np.bool_', 'np.int8', "
                        "'np.int16', 'np.int32', 'np.int64', 'np.uint8', 'np.uint16', 'np.uint32', 'np.uint64', "
                        f"'np.float16', 'np.float32', 'np.float64'], but got {np_value.dtype}.")


def tensor_value(tag: str, np_value: np.ndarray) -> summary_pb2.Summary.Value:
    """A tensor value: dtype and shape kept (no dashboard shows raw tensors; the event reader does)."""
    _check_dtype(np_value)
    return summary_pb2.Summary.Value(tag=tag, tensor=tensor_util.make_tensor_proto(np_value))


def histogram_bins(count: int) -> int:
    """MindSpore's number of histogram buckets for ``count`` finite values (at most 90)."""
    if not count:
        return 1
    if count <= 5:
        return 2
    if count <= 10:
        return 3
    if count <= 880:
        return count // 10 + 1
    return 90


def histogram_buckets(np_value: np.ndarray) -> np.ndarray:
    """The ``[k, 3]`` float64 array of ``(left, right, count)`` buckets over the finite values, as MindSpore
    buckets them (``k = 0`` when there is no finite value)."""
    finite = np_value[np.isfinite(np_value)] if np_value.dtype.kind == "f" else np_value.reshape(-1)
    if finite.size == 0:
        _logger.warning("There are no valid values in the ndarray(size=%d, shape=%s)", np_value.size, np_value.shape)
        return np.zeros((0, 3), np.float64)
    lo, hi = finite.min(), finite.max()
    if np_value.dtype.kind == "f" and (lo < _F32_MIN or hi > _F32_MAX):
        _logger.warning("Values(%s, %s) are too large, you may encounter some undefined behaviours hereafter.",
                        lo, hi)
    first, last = float(lo), float(hi)
    if not first < last:
        first -= 0.5
        last += 0.5
    edges = np.linspace(first, last, histogram_bins(finite.size) + 1, dtype=np_value.dtype)
    counts, edges = np.histogram(finite, bins=edges)
    edges = edges.astype(np.float64)
    return np.stack([edges[:-1], edges[1:], counts.astype(np.float64)], axis=1)


def histogram_value(tag: str, np_value: np.ndarray) -> summary_pb2.Summary.Value:
    """A Histograms-dashboard value with MindSpore's buckets."""
    if np_value.dtype == np.bool_:
        np_value = np_value.astype(np.uint8)
    _check_dtype(np_value)
    metadata = histogram_metadata.create_summary_metadata(display_name=tag, description="")
    return summary_pb2.Summary.Value(tag=tag, metadata=metadata,
                                     tensor=tensor_util.make_tensor_proto(histogram_buckets(np_value)))


def image_canvas(np_value: np.ndarray, columns: int = 8) -> np.ndarray:
    """The NCHW images tiled ``columns`` per row into one HWC uint8 RGB canvas, scaled as MindSpore scales them:
    values in [0, 1] times 255, otherwise ``(x - min) * 255 / (max - min + 1)``."""
    images = np_value.astype(np.float64)
    if images.shape[1] == 1:
        images = np.repeat(images, 3, axis=1)
    n, _, h, w = images.shape
    cols = min(n, columns)
    rows = -(-n // cols)
    canvas = np.zeros((3, h * rows, w * cols))
    for i in range(n):
        y, x = divmod(i, cols)
        canvas[:, y * h:(y + 1) * h, x * w:(x + 1) * w] = images[i]
    canvas = canvas.transpose(1, 2, 0)
    hi, lo = canvas.max(), canvas.min()
    scale, shift = 1.0, 0.0
    if 0 <= lo and hi <= 1:
        scale = 255.0
    else:
        if hi != lo:
            scale = 255.0 / (hi - lo + 1)
        shift = lo
    return ((canvas.astype(np.float32) - shift) * scale).astype(np.uint8)


def _png(hwc: np.ndarray) -> bytes:
    import tensorflow as tf

    return tf.io.encode_png(hwc).numpy()


def image_value(tag: str, np_value: np.ndarray) -> summary_pb2.Summary.Value | None:
    """An Images-dashboard value: the NCHW batch as one PNG grid; None (with an error log) for a non-image."""
    if np_value.ndim != 4 or np_value.shape[1] not in (1, 3):
        _logger.error("The dimension of Summary tensor should be 4 or second dimension should be 1 or 3, but got "
                      "tag = %s, ndim = %d, shape=%s, which means Summary tensor is not Image.", tag, np_value.ndim,
                      np_value.shape)
        return None
    if 0 in np_value.shape:
        _logger.error("The tensor with shape(%s) is not a valid image because the shape contains zero.",
                      np_value.shape)
        return None
    canvas = image_canvas(np_value)
    height, width, channels = canvas.shape
    image = summary_pb2.Summary.Image(height=height, width=width, colorspace=channels,
                                      encoded_image_string=_png(canvas))
    return summary_pb2.Summary.Value(tag=tag, image=image)


def _landscape_array(tensor: "anf_ir_pb2.TensorProto") -> np.ndarray:
    data = np.asarray(tensor.float_data, dtype=np.float32)
    return data.reshape(tuple(tensor.dims)) if len(tensor.dims) else data


def _heat_map(z: np.ndarray) -> np.ndarray:
    """A blue (low) to red (high) HWC uint8 rendering of a 2-D loss grid, first row at the bottom."""
    z = np.atleast_2d(z)[::-1]
    span = float(z.max() - z.min()) if z.size else 0.0
    t = (z - z.min()) / span if span > 0 else np.zeros_like(z)
    rgb = np.stack([t, 1.0 - np.abs(2.0 * t - 1.0), 1.0 - t], axis=-1)
    return (rgb * 255.0).round().astype(np.uint8)


def landscape_values(tag: str, serialized: bytes) -> list:
    """The values of a ``LossLandscape``: its grid as tensors and a heat-map image of the loss surface."""
    landscape = ms_summary_pb2.LossLandscape.FromString(serialized)
    values = []
    for axis in ("x", "y", "z"):
        field = getattr(landscape.landscape, axis)
        if field.float_data:
            values.append(tensor_value(f"{tag}/{axis}", _landscape_array(field)))
    if landscape.landscape.z.float_data:
        z = _landscape_array(landscape.landscape.z)
        if z.ndim == 2 and z.size:
            rgb = _heat_map(z)
            image = summary_pb2.Summary.Image(height=rgb.shape[0], width=rgb.shape[1], colorspace=3,
                                              encoded_image_string=_png(rgb))
            values.append(summary_pb2.Summary.Value(tag=tag, image=image))
    return values


def text_value(tag: str, text: str) -> summary_pb2.Summary.Value:
    """A Text-dashboard value."""
    metadata = text_metadata.create_summary_metadata(display_name=tag, description="")
    tensor = tensor_util.make_tensor_proto(np.array(text, dtype=object))
    return summary_pb2.Summary.Value(tag=tag, metadata=metadata, tensor=tensor)


def _proto_text(message) -> str:
    """A message as Markdown: its text format in a code block."""
    return "```\n" + text_format.MessageToString(message).rstrip() + "\n```"


def _hparam(value):
    if isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float, np.integer, np.floating)):
        return float(value)
    return str(value)


def _user_info(info: "lineage_pb2.UserDefinedInfo", prefix: str = "") -> dict:
    """The flat ``{key: value}`` of a ``UserDefinedInfo`` (nested dicts joined with '/')."""
    out: dict = {}
    for mapping in (info.map_int32, info.map_str, info.map_double):
        for key, value in mapping.items():
            out[prefix + key] = value
    for key, sub in info.map_dict.items():
        out.update(_user_info(sub, f"{prefix}{key}/"))
    for sub in info.user_info:
        out.update(_user_info(sub, prefix))
    return out


def _train_hparams(lineage: "lineage_pb2.TrainLineage") -> tuple[dict, dict]:
    """(hyper-parameters, metrics) of a ``TrainLineage``."""
    hparams: dict = {}
    for sub in (lineage.hyper_parameters, lineage.train_dataset, lineage.model):
        for field, value in sub.ListFields():
            name = field.name if sub is not lineage.model else f"model_{field.name}"
            if field.type == field.TYPE_FLOAT:  # a float32 field: its shortest decimal (0.05, not 0.0500000007)
                value = float(str(np.float32(value)))
            hparams[name] = value
    metrics = {}
    if lineage.algorithm.HasField("network"):
        hparams["network"] = lineage.algorithm.network
    if lineage.algorithm.HasField("loss"):
        metrics["loss"] = float(str(np.float32(lineage.algorithm.loss)))
    return hparams, metrics


def _eval_hparams(lineage: "lineage_pb2.EvaluationLineage") -> tuple[dict, dict]:
    """(hyper-parameters, metrics) of an ``EvaluationLineage`` (its ``metric`` is a JSON dict)."""
    hparams = {field.name: value for field, value in lineage.valid_dataset.ListFields()}
    metrics: dict = {}
    if lineage.metric:
        try:
            parsed = json.loads(lineage.metric)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            metrics = {k: v for k, v in parsed.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    return hparams, metrics


_LINEAGE_TYPES = {"train_lineage": lineage_pb2.TrainLineage, "eval_lineage": lineage_pb2.EvaluationLineage,
                  "dataset_graph": lineage_pb2.DatasetGraph, "custom_lineage_data": lineage_pb2.UserDefinedInfo}


def lineage_values(plugin: str, serialized: bytes, hparams: dict) -> tuple[list, list]:
    """The values of one lineage entry.

    Args:
        plugin: 'train_lineage', 'eval_lineage', 'dataset_graph' or 'custom_lineage_data'.
        serialized: the serialized lineage message.
        hparams: the run's hyper-parameters so far; updated in place.

    Returns:
        (text and metric values, HParams values): the text of the message on the Text dashboard,
        its metrics as scalars ``<plugin>/<metric>``; the HParams session summary of ``hparams``
        (empty when the entry adds no hyper-parameter).
    """
    message = _LINEAGE_TYPES[plugin].FromString(serialized)
    values = [text_value(plugin, _proto_text(message))]
    new: dict = {}
    metrics: dict = {}
    if plugin == "train_lineage":
        new, metrics = _train_hparams(message)
    elif plugin == "eval_lineage":
        new, metrics = _eval_hparams(message)
    elif plugin == "custom_lineage_data":
        new = _user_info(message)
    for name, value in metrics.items():
        values.append(summary_pb2.Summary.Value(tag=f"{plugin}/{name}", simple_value=float(value)))
    session = []
    if new:
        hparams.update({k: _hparam(v) for k, v in new.items()})
        session = list(hparams_summary.hparams_pb(dict(hparams)).value)
    return values, session
