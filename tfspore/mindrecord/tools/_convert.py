"""What the MindRecord converters share: JPEG encoding as MindSpore's converters store images,
batched writing, argument checks and the restricted reader of the CIFAR pickles."""
from __future__ import annotations

import io
import pickle
from typing import Any, Callable, Dict, Iterable, List, Optional

import numpy as np
import tensorflow as tf

from tfspore.mindrecord.filewriter import FileWriter

__all__ = ["encode_jpeg", "write_in_batches", "write_large_file", "check_partition_number", "load_cifar_pickle",
           "optional_index", "BATCH_ROWS"]

# MindSpore's converters hand rows to FileWriter.write_raw_data 256 at a time.
BATCH_ROWS = 256
# OpenCV's JFIF APP0 density fields: units 0 (aspect ratio only), 1:1.
_JFIF_DENSITY = bytes([0, 0, 1, 0, 1])


def encode_jpeg(image: np.ndarray) -> bytes:
    """An image (H, W) or (H, W, C) of uint8 RGB / gray values as the JPEG bytes MindSpore's
    converters store (``cv2.imencode(".jpeg", ...)``: quality 95, 4:2:0 chroma, a JFIF header
    with a 1:1 pixel aspect and no density unit).

    Gray images give OpenCV's bytes exactly; colour images the same format whose entropy-coded
    data may differ from OpenCV's by the encoders' rounding (docs/differences.md).
    """
    pixels = np.asarray(image)
    if pixels.dtype != np.uint8:
        # OpenCV converts other depths to 8 bits with saturation and rounding.
        pixels = np.clip(np.rint(pixels), 0, 255).astype(np.uint8)
    if pixels.ndim == 2:
        pixels = pixels[..., None]
    data = bytearray(tf.io.encode_jpeg(pixels, quality=95, chroma_downsampling=True).numpy())
    if data[6:11] == b"JFIF\x00":
        data[13:18] = _JFIF_DENSITY
    return bytes(data)


def write_in_batches(writer: FileWriter, rows: Iterable[Dict[str, Any]], parallel_writer: bool = False) -> int:
    """Write `rows` through `writer` in MindSpore's batches of 256; returns the row count."""
    count = 0
    batch: List[Dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        count += 1
        if len(batch) == BATCH_ROWS:
            writer.write_raw_data(batch, parallel_writer)
            batch = []
    if batch:
        writer.write_raw_data(batch, parallel_writer)
    return count


def write_large_file(writer: FileWriter, schema: Dict[str, Any], desc: str, index_fields: List[str],
                     rows: Iterable[Dict[str, Any]], parallel_writer: bool = False) -> int:
    """Write and commit a whole file as MindSpore's CSV, ImageNet and MNIST converters do: 16 MiB headers,
    64 MiB pages, `schema` described as `desc`, `index_fields` indexed, `rows` in batches; returns the row count."""
    writer.set_header_size(1 << 24)
    writer.set_page_size(1 << 26)
    writer.add_schema(schema, desc)
    writer.add_index(index_fields)
    count = write_in_batches(writer, rows, parallel_writer)
    writer.commit()
    return count


def check_partition_number(partition_number: Any) -> int:
    """MindSpore's check of a converter's `partition_number`."""
    if partition_number is None or not isinstance(partition_number, int):
        raise ValueError("The parameter partition_number must be int")
    return partition_number


# numpy's array-rebuilding function, as np.ndarray pickles name it (numpy.core / numpy._core).
_RECONSTRUCT = np.zeros(1).__reduce__()[0]


class _CifarUnpickler(pickle.Unpickler):
    """Loads only numpy arrays, lists, dicts, bytes and numbers: the CIFAR python-version batches."""

    def find_class(self, module: str, name: str) -> Callable[..., Any]:
        if module in ("numpy.core.multiarray", "numpy._core.multiarray") and name == "_reconstruct":
            return _RECONSTRUCT
        if module == "numpy" and name in ("ndarray", "dtype"):
            return getattr(np, name)
        raise pickle.UnpicklingError(f"global '{module}.{name}' is forbidden")


def load_cifar_pickle(path: str, what: str) -> Dict[bytes, Any]:
    """One CIFAR python-version batch file (a pickled dict with bytes keys), loaded with only
    numpy arrays allowed as objects.

    Raises:
        RuntimeError: If the file is not such a batch.
    """
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        loaded = _CifarUnpickler(io.BytesIO(data), encoding="bytes").load()
    except (pickle.UnpicklingError, UnicodeDecodeError) as err:
        raise RuntimeError(f"Not a valid {what} Dataset: {path!r} ({err}).") from err
    except Exception as err:  # pylint: disable=broad-except
        raise RuntimeError(f"Unexpected error while Unpickling {what} Dataset {path!r}: {err}.") from err
    if not isinstance(loaded, dict) or b"data" not in loaded:
        raise RuntimeError(f"Not a valid {what} Dataset: {path!r} holds no b'data' entry.")
    return loaded


def optional_index(writer: FileWriter, fields: Optional[list]) -> None:
    """Add `fields` as index fields when given (MindSpore's `transform(fields=...)`)."""
    if fields and isinstance(fields, list):
        writer.add_index(fields)
