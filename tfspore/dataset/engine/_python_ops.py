"""Python callables inside tf.data pipelines.

Python code (map functions without ``_tf_apply``, filter predicates, ``per_batch_map``,
``__getitem__`` of random-access GeneratorDataset sources) runs through ``tf.numpy_function``.
Inputs arrive as numpy arrays, as in MindSpore. Output dtypes and ranks are found by calling the
function once on the first row (a "probe"), outputs are converted as MindSpore converts them
(Python int -> int64, float -> float64, str -> string), and an exception raised inside carries
the row index: the iterator re-raises it as MindSpore's pipeline ``RuntimeError``.
"""
from __future__ import annotations

import itertools
import threading
import traceback
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np
import tensorflow as tf

PIPELINE_ERROR = "Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'."
_TOKEN = "[tfspore.dataset error #{}]"

_errors: dict = {}
_lock = threading.Lock()
_ids = itertools.count(1)


class PipelineError(RuntimeError):
    """An error raised by user code inside the pipeline, with the row it happened on."""


def record_error(message: str, exc: Optional[BaseException]) -> PipelineError:
    """Register `exc` under a token and return the error to raise inside the numpy_function."""
    with _lock:
        token_id = next(_ids)
        _errors[token_id] = (message, exc)
        if len(_errors) > 256:  # keep the registry small
            for key in sorted(_errors)[:-128]:
                del _errors[key]
    return PipelineError(f"{_TOKEN.format(token_id)} {message}")


def lookup_error(text: str) -> Optional[Tuple[str, Optional[BaseException]]]:
    """The (message, original exception) registered under a token found in `text`."""
    start = text.find("[tfspore.dataset error #")
    if start < 0:
        return None
    end = text.find("]", start)
    try:
        token_id = int(text[start + len("[tfspore.dataset error #"):end])
    except ValueError:
        return None
    with _lock:
        return _errors.get(token_id)


def describe(fn: Any) -> str:
    """A short name for an operation or callable."""
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None)
    if name is None:
        name = type(fn).__name__
    return name


def format_exception(exc: BaseException) -> str:
    return "".join(traceback.format_exception_only(type(exc), exc)).strip()


def to_numpy(value: Any, where: str) -> np.ndarray:
    """Convert one output of user code to a numpy array with MindSpore's dtype rules."""
    if isinstance(value, tf.Tensor):
        value = value.numpy()
    elif hasattr(value, "asnumpy"):
        value = value.asnumpy()
    arr = np.asarray(value)
    if arr.dtype.kind == "U":
        arr = np.char.encode(arr, "utf-8").astype(object)
    elif arr.dtype.kind == "S":
        arr = arr.astype(object)
    elif arr.dtype.kind == "O":
        if arr.size and all(isinstance(x, (bytes, str)) for x in arr.reshape(-1)):
            arr = np.vectorize(lambda x: x.encode("utf-8") if isinstance(x, str) else x, otypes=[object])(arr)
        else:
            raise TypeError(f"{where} returned an object that cannot be converted to a tensor: {value!r}.")
    elif arr.dtype == np.float16 or arr.dtype.kind in "biuf" or arr.dtype.kind == "c":
        pass
    else:
        raise TypeError(f"{where} returned an unsupported dtype {arr.dtype}: {value!r}.")
    return arr


def tf_dtype_of(arr: np.ndarray) -> tf.DType:
    if arr.dtype == object:
        return tf.string
    return tf.as_dtype(arr.dtype)


def split_outputs(result: Any) -> tuple:
    """A Python function's return value as a tuple of column values (a tuple means several)."""
    if isinstance(result, tuple):
        return result
    return (result,)


def numpy_inputs(tensors: Sequence[Any]) -> List[np.ndarray]:
    """Eager tensors to the numpy arrays user code receives (strings become str arrays)."""
    out = []
    for t in tensors:
        arr = t.numpy() if hasattr(t, "numpy") else np.asarray(t)
        out.append(decode_strings(arr))
    return out


def decode_strings(arr: Any) -> Any:
    """bytes / object-of-bytes arrays to str arrays (MindSpore hands str to Python code)."""
    if isinstance(arr, bytes):
        return np.array(arr.decode("utf-8", errors="replace"))
    if isinstance(arr, np.ndarray) and arr.dtype == object:
        try:
            return np.vectorize(lambda x: x.decode("utf-8", errors="replace") if isinstance(x, bytes) else x,
                                otypes=[np.str_])(arr) if arr.size else arr.astype(np.str_)
        except (TypeError, ValueError):
            return arr
    return arr


class PyCall:
    """One Python callable bound for use inside the pipeline.

    Args:
        fn: The callable.
        where: How errors name it, e.g. ``"For 'MapDataset' (operations=[f], input_columns=['x'])"``.
        out_dtypes: The tf dtypes of the outputs (from the probe).
        out_ranks: The ranks of the outputs (from the probe), or None for unknown.
        row_kind: What the index counts (``"row"``, ``"batch"``, ``"index"``).
    """

    def __init__(self, fn: Callable, where: str, out_dtypes: Sequence[tf.DType],
                 out_ranks: Optional[Sequence[Optional[int]]] = None, row_kind: str = "row",
                 unpack: bool = True):
        self.fn = fn
        self.where = where
        self.out_dtypes = list(out_dtypes)
        self.out_ranks = list(out_ranks) if out_ranks is not None else [None] * len(self.out_dtypes)
        self.row_kind = row_kind
        self.unpack = unpack

    def call(self, *args: Any) -> List[np.ndarray]:
        """Call the function on numpy inputs and convert its outputs (exceptions propagate as raised)."""
        args = [decode_strings(a) for a in args]
        result = self.fn(*args) if self.unpack else self.fn(args)
        outputs = split_outputs(result)
        if len(outputs) != len(self.out_dtypes):
            raise RuntimeError(f"the callable returned {len(outputs)} column(s), but {len(self.out_dtypes)} "
                               f"were expected (as on the first {self.row_kind})")
        converted = []
        for k, (out, dtype) in enumerate(zip(outputs, self.out_dtypes)):
            arr = to_numpy(out, f"output {k}")
            got = tf_dtype_of(arr)
            if got != dtype:
                if dtype == tf.string or got == tf.string:
                    raise TypeError(f"output {k} has dtype {got.name}, but {dtype.name} was returned for the "
                                    f"first {self.row_kind}")
                arr = arr.astype(dtype.as_numpy_dtype)
            converted.append(arr)
        return converted

    def failure(self, index: Any, exc: BaseException) -> str:
        """The pipeline error message for `exc` raised on `index` (the row, batch or source index)."""
        return (f"{self.where}, the Python callable '{describe(self.fn)}' raised {format_exception(exc)} "
                f"while processing {self.row_kind} {int(index)} (0-based) of the current epoch.")

    def _run(self, index: Any, *args: Any) -> List[np.ndarray]:
        try:
            return self.call(*args)
        except Exception as exc:  # pylint: disable=broad-except
            raise record_error(self.failure(index, exc), exc) from exc

    def __call__(self, index: tf.Tensor, *tensors: tf.Tensor) -> List[tf.Tensor]:
        """Call inside a traced tf.data function."""
        outs = tf.numpy_function(self._run, [index, *tensors], self.out_dtypes, stateful=True)
        if not isinstance(outs, (list, tuple)):
            outs = [outs]
        outs = list(outs)
        for out, rank in zip(outs, self.out_ranks):
            if rank is not None:
                out.set_shape([None] * rank)
        return outs


def probe_call(fn: Callable, args: Sequence[np.ndarray], where: str, index: int = 0,
               row_kind: str = "row", unpack: bool = True) -> List[np.ndarray]:
    """Call `fn` eagerly on the first row and return its converted outputs."""
    args = [decode_strings(a) for a in args]
    try:
        outputs = split_outputs(fn(*args) if unpack else fn(args))
        return [to_numpy(out, f"output {k}") for k, out in enumerate(outputs)]
    except Exception as exc:  # pylint: disable=broad-except
        message = (f"{where}, the Python callable '{describe(fn)}' raised {format_exception(exc)} "
                   f"while processing {row_kind} {index} (0-based) of the current epoch.")
        raise RuntimeError(f"{PIPELINE_ERROR}\n- Dataset Pipeline Error Message:\n[ERROR] {message}") from exc
