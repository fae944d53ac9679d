"""Base classes and helpers shared by the dataset transforms.

Every transform is a :class:`TensorOperation`: its work is :meth:`TensorOperation._tf_apply`,
built only from TensorFlow ops, so that ``Dataset.map`` runs it inside the ``tf.data`` graph
(TensorFlow's parallel C++ runtime, no Python per sample). Calling the transform directly
(``vision.Resize((32, 32))(np_img)``) runs the same ops eagerly and returns numpy arrays,
as MindSpore's eager mode does.

Subclasses implement :meth:`TensorOperation._apply`; the engine calls
``_tf_apply(*tensors, seed=seed)``. Random transforms (``_tf_random = True``) draw their numbers
through :meth:`TensorOperation._seed`, which returns a seed for TensorFlow's stateless random
ops:

- inside a pipeline, the engine passes a per-row seed (shape ``[2]``) and every random draw is
  derived from it, so results do not depend on thread scheduling and differ per epoch;
- inside a pipeline without one, from a stateful seeded op, whose seed comes from
  ``ds.config.get_seed()`` / ``tfspore.set_seed`` when the pipeline is built;
- eagerly, from numpy's global generator, which ``set_seed`` reseeds.
"""
from __future__ import annotations

import contextlib
import numbers
import threading
from typing import Any, Callable, Iterator, Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

__all__ = ["TensorOperation", "PyTensorOperation", "ImageTensorOperation", "FuncWrapper", "element_seed",
           "apply_op", "to_np_dtype", "to_tf_dtype"]

_INT32_MAX = 2147483647
_DEFAULT_SEED = 5489


# ---------------------------------------------------------------------------------------------
# seeds
# ---------------------------------------------------------------------------------------------
class _SeedState(threading.local):
    def __init__(self):
        super().__init__()
        self.row_seed: Optional[tf.Tensor] = None
        self.counter = 0


_seed_state = _SeedState()


def _pipeline_seed() -> Optional[int]:
    """The configured dataset seed, or None while no seed is set."""
    try:
        from tfspore.dataset.core import config  # pylint: disable=import-outside-toplevel
        return config._pipeline_seed()  # pylint: disable=protected-access
    except ImportError:  # pragma: no cover - config ships with the engine
        from tfspore.common import seed as global_seed  # pylint: disable=import-outside-toplevel
        value = global_seed.get_seed()
        return None if value in (None, _DEFAULT_SEED) else int(value)


@contextlib.contextmanager
def element_seed(seed: tf.Tensor) -> Iterator[None]:
    """Make random transforms traced inside this block derive their numbers from `seed`.

    The dataset engine wraps a map function with it, passing a per-row seed tensor (shape
    ``[2]``, any integer dtype), so random transforms give the same numbers for the same row
    whatever the parallelism.

    Args:
        seed: A ``[2]`` integer tensor, different for every row.
    """
    previous = (_seed_state.row_seed, _seed_state.counter)
    _seed_state.row_seed = tf.cast(seed, tf.int64)
    _seed_state.counter = 0
    try:
        yield
    finally:
        _seed_state.row_seed, _seed_state.counter = previous


def _next_stateless_seed() -> tf.Tensor:
    """A fresh ``[2]`` int64 seed for one stateless random op."""
    state = _seed_state
    if state.row_seed is not None:
        state.counter += 1
        if state.counter == 1:  # the op's own seed (hashed by the random op) serves its first draw
            return state.row_seed
        return tf.random.experimental.stateless_fold_in(state.row_seed, state.counter)
    if tf.executing_eagerly():
        # numpy's global generator is reseeded by tfspore.set_seed and ds.config.set_seed.
        return tf.constant(np.random.randint(0, _INT32_MAX, size=2), dtype=tf.int64)
    seed = _pipeline_seed()
    state.counter += 1
    op_seed = None if seed is None else (seed * 7919 + state.counter) % _INT32_MAX
    if seed is not None:
        return tf.random.uniform([2], 0, _INT32_MAX, dtype=tf.int64, seed=op_seed)
    return tf.random.uniform([2], 0, _INT32_MAX, dtype=tf.int64)


# ---------------------------------------------------------------------------------------------
# dtypes
# ---------------------------------------------------------------------------------------------
def to_np_dtype(data_type: Any, api: str, name: str = "data_type") -> np.dtype:
    """Convert a MindSpore dtype (``ms.int32``), numpy dtype or dtype-like to a numpy dtype.

    Raises:
        TypeError: If `data_type` names no numeric/bool/string dtype.
    """
    try:
        from tfspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        if isinstance(data_type, mstype.Type):
            if data_type == mstype.string:
                return np.dtype(np.str_)
            npd = data_type.np_dtype
            if npd is None:
                raise TypeError
            return np.dtype(npd)
    except ImportError:  # pragma: no cover
        pass
    if data_type is None or isinstance(data_type, (bool, numbers.Number)):
        raise TypeError(f"For '{api}', the argument '{name}' must be a mindspore.dtype or numpy.dtype, "
                        f"but got {data_type!r} with type {type(data_type).__name__}.")
    try:
        if isinstance(data_type, tf.DType):
            return np.dtype(data_type.as_numpy_dtype)
        return np.dtype(data_type)
    except (TypeError, ValueError):
        raise TypeError(f"For '{api}', the argument '{name}' must be a mindspore.dtype or numpy.dtype, "
                        f"but got {data_type!r} with type {type(data_type).__name__}.") from None


def to_tf_dtype(np_dtype: np.dtype) -> tf.DType:
    """The TensorFlow dtype of a numpy dtype (``str`` maps to ``tf.string``)."""
    np_dtype = np.dtype(np_dtype)
    if np_dtype.kind in ("U", "S", "O"):
        return tf.string
    return tf.as_dtype(np_dtype)


def _to_tensor(value: Any, api: str) -> tf.Tensor:
    if isinstance(value, tf.Tensor):
        return value
    if hasattr(value, "__tf_tensor__") or hasattr(value, "asnumpy"):
        return tf.convert_to_tensor(value.asnumpy() if hasattr(value, "asnumpy") else value)
    if isinstance(value, (bytes, bytearray)):
        return tf.constant(np.frombuffer(bytes(value), dtype=np.uint8))
    if _is_pil(value):
        return tf.constant(np.asarray(value))
    try:
        arr = np.asarray(value)
    except Exception as exc:  # pylint: disable=broad-except
        raise TypeError(f"Invalid user input. Got {type(value)}: {value}, cannot be converted into tensor "
                        f"for '{api}'.") from exc
    if arr.dtype == object:
        raise TypeError(f"Invalid user input. Got {type(value)}: {value!r}, cannot be converted into tensor "
                        f"for '{api}'.")
    if arr.dtype.kind == "U":
        arr = np.char.encode(arr, "utf-8")
    return tf.constant(arr)


def _is_pil(value: Any) -> bool:
    mod = type(value).__module__
    return mod.startswith("PIL.") and hasattr(value, "mode") and hasattr(value, "size")


def _to_numpy(value: Any) -> Any:
    if isinstance(value, (tf.Tensor, tf.Variable)):
        arr = value.numpy()
        if isinstance(arr, bytes):
            return np.array(arr.decode("utf-8", errors="replace"))
        if isinstance(arr, np.ndarray) and arr.dtype == object:
            return np.char.decode(arr.astype(np.bytes_), "utf-8")
        return np.asarray(arr)
    return value


def apply_op(op: Any, tensors: Sequence[tf.Tensor]) -> Tuple[tf.Tensor, ...]:
    """Apply one operation (a TensorOperation or a Python callable) to tensors, in-graph or eagerly.

    Returns:
        A tuple of output tensors.
    """
    if isinstance(op, TensorOperation):
        out = op._tf_apply(*tensors)  # pylint: disable=protected-access
    else:
        out = FuncWrapper(op)._tf_apply(*tensors)  # pylint: disable=protected-access
    if isinstance(out, (tuple, list)):
        return tuple(out)
    return (out,)


# ---------------------------------------------------------------------------------------------
# base classes
# ---------------------------------------------------------------------------------------------
class TensorOperation:
    """Base class of the dataset transforms.

    Subclasses implement :meth:`_apply` with TensorFlow ops only. ``_tf_random`` marks the
    transforms that draw random numbers (through :meth:`_seed`).

    Example:
        >>> import numpy as np
        >>> from tfspore.dataset import vision
        >>> out = vision.HWC2CHW()(np.zeros((4, 6, 3), np.uint8))
        >>> out.shape
        (3, 4, 6)
    """

    _tf_random: bool = False

    def __init__(self) -> None:
        self.random = self._tf_random
        self.implementation = None
        self.device_target = "CPU"

    # -- public ---------------------------------------------------------------------------
    def __call__(self, *input_tensor_list: Any) -> Any:
        """Run the transform eagerly.

        Args:
            *input_tensor_list: numpy arrays (or values convertible to them).

        Returns:
            A numpy array, or a tuple of them for transforms with several outputs.

        Raises:
            TypeError: If an input cannot be converted to a tensor.
            RuntimeError: If the transform fails on the input.
        """
        api = type(self).__name__
        if not input_tensor_list:
            raise TypeError(f"For '{api}', at least one input is required, but got none.")
        tensors = [_to_tensor(x, api) for x in input_tensor_list]
        try:
            with tf.device("/CPU:0"):
                out = self._tf_apply(*tensors)
        except (tf.errors.InvalidArgumentError, tf.errors.OutOfRangeError, tf.errors.UnimplementedError) as exc:
            raise RuntimeError(f"For '{api}', the transform failed on input of shape "
                               f"{[tuple(t.shape) for t in tensors]} and type "
                               f"{[t.dtype.name for t in tensors]}: {exc.message}") from None
        if isinstance(out, (tuple, list)):
            outs = tuple(_to_numpy(o) for o in out)
            return outs[0] if len(outs) == 1 else outs
        return _to_numpy(out)

    def device(self, device_target: str = "CPU") -> "TensorOperation":
        """Choose where the transform runs (accepted for compatibility; it runs where TF places it).

        Args:
            device_target: ``"CPU"`` or ``"Ascend"``.

        Returns:
            The transform itself.

        Raises:
            TypeError: If `device_target` is not a str.
            ValueError: If `device_target` is not ``"CPU"`` or ``"Ascend"``.
        """
        if not isinstance(device_target, str):
            raise TypeError(f"For '{type(self).__name__}.device', the argument 'device_target' must be of type "
                            f"str, but got {device_target!r} with type {type(device_target).__name__}.")
        if device_target not in ("CPU", "Ascend"):
            raise ValueError(f"For '{type(self).__name__}.device', input device_target is not within the valid "
                             f"set of ['CPU', 'Ascend'], but got {device_target!r}.")
        self.device_target = device_target
        return self

    # -- engine hooks ---------------------------------------------------------------------
    @tf.autograph.experimental.do_not_convert
    def _tf_apply(self, *tensors: tf.Tensor,
                  seed: Optional[tf.Tensor] = None) -> Union[tf.Tensor, Tuple[tf.Tensor, ...]]:
        """The transform as TensorFlow ops (traceable; runs inside ``tf.data`` maps).

        Args:
            *tensors: The input columns.
            seed: For random transforms, a per-row ``[2]`` integer seed; random draws derive
                from it. None draws from the fallback sources described in the module docstring.

        Returns:
            A tensor, or a tuple of tensors for several output columns.
        """
        if seed is None:
            return self._apply(*tensors)
        with element_seed(seed):
            return self._apply(*tensors)

    def _apply(self, *tensors: tf.Tensor) -> Union[tf.Tensor, Tuple[tf.Tensor, ...]]:
        raise NotImplementedError(f"'{type(self).__name__}' does not implement _apply.")

    # -- batch level ------------------------------------------------------------------------
    def _batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        """Whether :meth:`_apply_batch` can run this transform on whole batches of rows.

        The engine asks it for a ``map`` right before ``batch``, with the static shapes and dtypes
        of one row's inputs (every shape fully known). Transforms that return True implement
        :meth:`_apply_batch`, which gives every row of a batch what :meth:`_apply` gives it
        (random transforms: the same distribution, drawn per batch). Default: False.
        """
        del shapes, dtypes
        return False

    def _batch_xla_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        """Whether :meth:`_apply_batch` gives the same numbers compiled with XLA, next to any other
        transform that says so (the engine then compiles such neighbours into one function: a few
        fused loops instead of one pass over the batch per op).

        True only for work without floating-point products that XLA may contract with a following
        sum (an FMA rounds once where TensorFlow's kernels round twice): copies, gathers, selects,
        casts, subtraction and division. Random draws compiled with XLA differ from TensorFlow's
        kernels' (they are reproducible all the same). Default: False.
        """
        del shapes, dtypes
        return False

    def _table_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        """Whether the transform maps each value of its one input on its own, the same way at every
        position of a channel (a channel: the last axis of a 3-D HWC row; a 2-D row has one).

        On uint8 rows, a chain of such transforms takes at most 256 values per channel: the engine
        then computes the chain once on a 256-row table with the per-row :meth:`_apply` (so the
        numbers are the per-row ones) and runs it at batch level as one gather. Default: False.
        """
        del shapes, dtypes
        return False

    def _ragged_batch_ok(self, shapes: Sequence[tf.TensorShape], dtypes: Sequence[tf.DType]) -> bool:
        """Whether :meth:`_apply_batch` also takes rows of different lengths, as a ragged batch.

        The engine asks it when a row's input is 1-D of unknown length (a tokenizer's tokens,
        say) and another transform of the same batch-level chain made it: :meth:`_apply_batch`
        then gets a ``tf.RaggedTensor`` ``[B, None]`` and gives every row what :meth:`_apply`
        gives it. Default: False.
        """
        del shapes, dtypes
        return False

    def _apply_batch(self, *batches: tf.Tensor) -> Union[tf.Tensor, Tuple[tf.Tensor, ...]]:
        """The transform on inputs with a leading batch dimension (see :meth:`_batch_ok`)."""
        raise NotImplementedError(f"'{type(self).__name__}' does not implement _apply_batch.")

    @tf.autograph.experimental.do_not_convert
    def _tf_apply_batch(self, *batches: tf.Tensor,
                        seed: Optional[tf.Tensor] = None) -> Union[tf.Tensor, Tuple[tf.Tensor, ...]]:
        """:meth:`_apply_batch` with random draws derived from the per-batch `seed` (``[2]``)."""
        if seed is None:
            return self._apply_batch(*batches)
        with element_seed(seed):
            return self._apply_batch(*batches)

    @staticmethod
    def _seed() -> tf.Tensor:
        """A fresh ``[2]`` int64 seed for a stateless random op (see the module docstring)."""
        return _next_stateless_seed()

    def _uniform(self, shape: Any = (), minval: Any = 0.0, maxval: Any = 1.0,
                 dtype: tf.DType = tf.float32) -> tf.Tensor:
        """Uniform random numbers in ``[minval, maxval)`` from a fresh stateless seed."""
        return tf.random.stateless_uniform(shape, seed=self._seed(), minval=minval, maxval=maxval, dtype=dtype)

    def _bernoulli(self, prob: float) -> tf.Tensor:
        """A scalar bool that is True with probability `prob`."""
        if prob >= 1.0:
            return tf.constant(True)
        if prob <= 0.0:
            return tf.constant(False)
        return self._uniform(()) < prob

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class ImageTensorOperation(TensorOperation):
    """Base class of the image transforms (``mindspore.dataset.vision``)."""


class PyTensorOperation(TensorOperation):
    """Base class kept for MindSpore's Python-implemented transforms; runs as TF ops here too."""


class FuncWrapper(TensorOperation):
    """Wraps a Python callable so it can sit in a list of transforms (``Compose``, ``RandomApply``).

    Inside a pipeline the callable runs through ``tf.numpy_function`` on numpy arrays. Its
    output dtypes are learned by running it once on the first row it sees eagerly, or
    assumed equal to the input dtypes when it is traced before any eager call; pass
    ``output_types`` to fix them.

    Args:
        transform: The callable.
        output_types: Optional numpy dtypes of the outputs.
    """

    def __init__(self, transform: Callable, output_types: Optional[Sequence[Any]] = None) -> None:
        super().__init__()
        if not callable(transform):
            raise TypeError(f"For 'FuncWrapper', input transform is not callable, but got {transform!r}.")
        self.transform = transform
        self.random = getattr(transform, "random", True)
        self._tf_random = False
        self._output_types = None if output_types is None else [np.dtype(t) for t in output_types]

    def __call__(self, *input_tensor_list: Any) -> Any:
        args = [np.asarray(x) if not _is_pil(x) else x for x in input_tensor_list]
        out = self.transform(*args)
        outs = out if isinstance(out, tuple) else (out,)
        if self._output_types is None:
            self._output_types = [np.asarray(o).dtype for o in outs]
        return out

    def _apply(self, *tensors: tf.Tensor) -> Union[tf.Tensor, Tuple[tf.Tensor, ...]]:
        if tf.executing_eagerly():
            out = self.__call__(*[_to_numpy(t) for t in tensors])
            outs = out if isinstance(out, tuple) else (out,)
            res = tuple(_to_tensor(o, "FuncWrapper") for o in outs)
            return res[0] if len(res) == 1 else res
        types = self._output_types or [t.dtype.as_numpy_dtype for t in tensors]
        tf_types = [to_tf_dtype(t) for t in types]
        func = self.transform
        name = getattr(func, "__name__", type(func).__name__)

        def _run(*arrays):
            out = func(*arrays)
            outs = out if isinstance(out, tuple) else (out,)
            if len(outs) != len(tf_types):
                raise RuntimeError(f"The Python function '{name}' returned {len(outs)} values, "
                                   f"but {len(tf_types)} were expected.")
            return [np.asarray(o).astype(t.as_numpy_dtype if t != tf.string else np.bytes_)
                    for o, t in zip(outs, tf_types)]

        res = tf.numpy_function(_run, list(tensors), tf_types, stateful=self.random)
        res = tuple(res) if isinstance(res, (list, tuple)) else (res,)
        return res[0] if len(res) == 1 else res
