"""Further primitives scripts use: scalar helpers, ``Rint``, ``DiagPart``, ``LpNorm``, ``MatrixInverse``, the
split dropout ``DropoutGenMask`` / ``DropoutDoMask``, ``Dropout3D``, ``InplaceAdd``, ``IndexAdd``, ``Randperm``,
the parameter-server ``Push`` / ``Pull`` (not available), and the MindSpore 1.x names ``Gelu``, ``FastGelu``,
``Pack``, ``Unpack``.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> ops.Rint()(Tensor(np.array([0.5, 1.5, -2.5], np.float32))).asnumpy()
    array([ 0.,  2., -2.], dtype=float32)
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore._internal import validator as V
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.ops.function import nn_func as N
from tfspore.ops.function import other_func as O
from tfspore.ops.function._utils import to_tf
from tfspore.ops.operations import array_ops as _array_ops, nn_ops as _nn_ops
from tfspore.ops.operations._helpers import simple_prim
from tfspore.ops.primitive import Primitive, PrimitiveWithInfer, prim_attr_register

_M = __name__

__all__ = ["ScalarCast", "ScalarToArray", "Rint", "DiagPart", "LpNorm", "MatrixInverse", "DropoutGenMask",
           "DropoutDoMask", "Dropout3D", "InplaceAdd", "IndexAdd", "Randperm", "Push", "Pull", "Gelu", "FastGelu",
           "Pack", "Unpack"]

ScalarCast = simple_prim("ScalarCast", O.scalar_cast,
                         "``ScalarCast()(x, dtype)``: a python scalar (or a Tensor) cast to ``dtype``.", _M)
ScalarToArray = simple_prim("ScalarToArray", O.scalar_to_array, "``ScalarToArray()(x)``: a 0-d Tensor of a "
                            "python scalar.", _M)


def _rint(x: Any) -> Tensor:
    t = to_tf(x, "Rint", "input_x")
    if not t.dtype.is_floating:
        raise TypeError(f"For 'Rint', the 'input_x' dtype must be float16, float32 or float64, but got "
                        f"{t.dtype.name}.")
    return _wrap(tf.math.rint(t))


Rint = simple_prim("Rint", _rint, "Round to the nearest integer, halves to even.", _M)


def _diag_part(x: Any) -> Tensor:
    t = to_tf(x, "DiagPart", "input_x")
    shp = t.shape.as_list()
    rank = len(shp)
    if rank == 0 or rank % 2 or shp[:rank // 2] != shp[rank // 2:]:
        raise ValueError(f"For 'DiagPart', the 'input_x' shape must be (D1, ..., Dk, D1, ..., Dk), but got {shp}.")
    half = shp[:rank // 2]
    n = 1
    for d in half:
        n *= d
    return _wrap(tf.reshape(tf.linalg.diag_part(tf.reshape(t, [n, n])), half))


DiagPart = simple_prim("DiagPart", _diag_part, "The diagonal of a ``(D1..Dk, D1..Dk)`` Tensor: shape ``(D1..Dk)``.",
                       _M)
Gelu = type("Gelu", (_nn_ops.GeLU,), {"__doc__": "MindSpore 1.x's name of :class:`GeLU`.", "__module__": _M})
FastGelu = type("FastGelu", (_nn_ops.FastGeLU,), {"__doc__": "MindSpore 1.x's name of :class:`FastGeLU`.",
                                                  "__module__": _M})
Pack = type("Pack", (_array_ops.Stack,), {"__doc__": "MindSpore 1.x's name of :class:`Stack`.", "__module__": _M})
Unpack = type("Unpack", (_array_ops.Unstack,), {"__doc__": "MindSpore 1.x's name of :class:`Unstack`.",
                                                "__module__": _M})


class LpNorm(Primitive):
    """The p-norm over ``axis``: ``max((sum |x| ** p) ** (1 / p), epsilon)`` (``p = 0``: the count of non-zeros).

    Args:
        axis: an int or a sequence of ints.
        p: a non-negative int.
        keep_dims: keep the reduced axes with size 1.
        epsilon: the smallest result.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for a negative ``p``.
    """

    @prim_attr_register
    def __init__(self, axis: Any, p: int = 2, keep_dims: bool = False, epsilon: float = 1e-12) -> None:
        if isinstance(axis, int) and not isinstance(axis, bool):
            axes = (axis,)
        elif isinstance(axis, (list, tuple)) and all(isinstance(a, int) and not isinstance(a, bool) for a in axis):
            axes = tuple(axis)
        else:
            raise TypeError(f"For '{self.name}', the 'axis' must be int, list or tuple of ints, but got {axis!r}.")
        if isinstance(p, bool) or not isinstance(p, int):
            raise TypeError(f"For '{self.name}', the 'p' must be int, but got {type(p).__name__}.")
        if p < 0:
            raise ValueError(f"For '{self.name}', the 'p' must be a non-negative int, but got {p}.")
        V.check_bool(keep_dims, "keep_dims", self.name)
        self.add_prim_attr("axis", list(axes))

    def __call__(self, input: Any) -> Tensor:  # noqa: A002
        t = to_tf(input, self.name, "input")
        if not t.dtype.is_floating:
            raise TypeError(f"For '{self.name}', the 'input' dtype must be float16 or float32, but got "
                            f"{t.dtype.name}.")
        axes = V.check_axes(self.axis, "axis", self.name, t.shape.rank)
        a = tf.abs(t)
        p = self.p
        if p == 0:  # no epsilon floor for the count, as MindSpore's kernel
            return _wrap(tf.reduce_sum(tf.cast(tf.not_equal(t, 0), t.dtype), axes, keepdims=self.keep_dims))
        if p == 1:
            out = tf.reduce_sum(a, axes, keepdims=self.keep_dims)
        elif p == 2:
            out = tf.sqrt(tf.reduce_sum(a * a, axes, keepdims=self.keep_dims))
        else:
            out = tf.pow(tf.reduce_sum(tf.pow(a, float(p)), axes, keepdims=self.keep_dims), 1.0 / p)
        return _wrap(tf.maximum(out, tf.cast(self.epsilon, out.dtype)))


class MatrixInverse(Primitive):
    """The inverse of each square matrix in the last two axes (its adjoint's when ``adjoint``).

    Args:
        adjoint: invert the conjugate transpose.
    """

    @prim_attr_register
    def __init__(self, adjoint: bool = False) -> None:
        V.check_bool(adjoint, "adjoint", self.name)

    def __call__(self, x: Any) -> Tensor:
        t = to_tf(x, self.name, "x")
        if t.dtype not in (tf.float32, tf.float64, tf.complex64, tf.complex128):
            raise TypeError(f"For '{self.name}', the 'x' dtype must be float32, float64, complex64 or complex128, but "
                            f"got {t.dtype.name}.")
        return _wrap(tf.linalg.inv(t, adjoint=self.adjoint))


def _seed_of(seed0: int, seed1: int) -> int | None:
    return None if not (seed0 or seed1) else (seed0 * 1000003 + seed1) % (2 ** 31 - 1)


class DropoutGenMask(Primitive):
    """The keep mask of a dropout: ``DropoutGenMask()(shape, keep_prob)``, paired with :class:`DropoutDoMask`.

    The mask is a uint8 Tensor of ``shape`` holding 1 for kept elements (MindSpore packs it into
    bits; only :class:`DropoutDoMask` reads it).

    Args:
        Seed0: an op-level seed (0: none).
        Seed1: a second seed.
    """

    @prim_attr_register
    def __init__(self, Seed0: int = 0, Seed1: int = 0) -> None:  # noqa: N803
        V.check_int(Seed0, "Seed0", self.name)
        V.check_int(Seed1, "Seed1", self.name)
        self.add_prim_attr("side_effect_hidden", True)

    def __call__(self, shape: Any, keep_prob: Any) -> Tensor:
        if not isinstance(shape, (tuple, list)):
            raise TypeError(f"For '{self.name}', the 'shape' must be a tuple, but got {type(shape).__name__}.")
        keep = tf.cast(to_tf(keep_prob, self.name, "keep_prob"), tf.float32)
        u = tf.random.uniform(list(shape), 0.0, 1.0, seed=_seed_of(self.Seed0, self.Seed1))
        return _wrap(tf.cast(u < keep, tf.uint8))


class DropoutDoMask(Primitive):
    """Apply a :class:`DropoutGenMask` mask: ``DropoutDoMask()(x, mask, keep_prob)`` = ``x * mask / keep_prob``."""

    @prim_attr_register
    def __init__(self) -> None:
        """Initialize."""

    def __call__(self, input_x: Any, mask: Any, keep_prob: Any) -> Tensor:
        t = to_tf(input_x, self.name, "input_x")
        m = tf.reshape(tf.cast(to_tf(mask, self.name, "mask"), t.dtype), tf.shape(t))
        keep = tf.cast(to_tf(keep_prob, self.name, "keep_prob"), t.dtype)
        return _wrap(t * m / keep)


class Dropout3D(PrimitiveWithInfer):
    """Channel dropout of NCDHW data returning ``(output, mask)``.

    Args:
        keep_prob: the keep probability, in [0, 1].
    """

    @prim_attr_register
    def __init__(self, keep_prob: float = 0.5) -> None:
        V.check_float_range(keep_prob, "keep_prob", self.name, 0.0, 1.0)

    def __call__(self, x: Any) -> tuple:
        t = to_tf(x, self.name, "x")
        if t.shape.rank != 5:
            raise ValueError(f"For '{self.name}', the 'x' must be 5-D, but got shape {t.shape.as_list()}.")
        if self.keep_prob == 0:
            mask = tf.zeros_like(t)
            return _wrap(mask), _wrap(tf.cast(mask, tf.bool))
        shp = tf.concat([tf.shape(t)[:2], tf.ones([3], tf.int32)], 0)
        mask = N._dropout_mask(t, self.keep_prob, None, shp)
        full = tf.broadcast_to(mask, tf.shape(t))
        return _wrap(t * full / tf.cast(self.keep_prob, t.dtype)), _wrap(tf.cast(full, tf.bool))


class InplaceAdd(Primitive):
    """Add ``v`` to the rows ``indices`` (axis 0) of ``x``: ``InplaceAdd(indices)(x, v)``.

    Args:
        indices: an int or a tuple of ints (rows of ``x``).
    """

    @prim_attr_register
    def __init__(self, indices: Any) -> None:
        idx = (indices,) if isinstance(indices, int) and not isinstance(indices, bool) else indices
        if not isinstance(idx, (tuple, list)) or not all(isinstance(i, int) and not isinstance(i, bool) for i in idx):
            raise TypeError(f"For '{self.name}', the 'indices' must be int or tuple of ints, but got {indices!r}.")
        self.add_prim_attr("indices", tuple(idx))

    def __call__(self, x: Any, v: Any) -> Tensor:
        t = to_tf(x, self.name, "x")
        u = tf.cast(to_tf(v, self.name, "v"), t.dtype)
        n = len(self.indices)
        if t.shape.rank is not None and u.shape.rank == t.shape.rank and u.shape[0] not in (None, n):
            raise ValueError(f"For '{self.name}', the first dimension of 'v' must equal the number of 'indices' "
                             f"{n}, but got shape {u.shape.as_list()}.")
        u = tf.reshape(u, tf.concat([[n], tf.shape(t)[1:]], 0))
        return _wrap(tf.tensor_scatter_nd_add(t, tf.constant([[i] for i in self.indices], tf.int32), u))


class IndexAdd(Primitive):
    """Add the slices of ``y`` to the slices ``indices`` of ``x`` along ``axis``: ``IndexAdd(axis)(x, indices, y)``.

    A Parameter ``x`` is updated in place; the result is returned either way. Repeated indices add up.

    Args:
        axis: the axis of ``x`` that ``indices`` index.
        use_lock: accepted for compatibility.
        check_index_bound: accepted for compatibility (out-of-range indices raise as TensorFlow does).

    Raises:
        TypeError: when ``axis`` is not an int.
        ValueError: for inconsistent shapes.
    """

    @prim_attr_register
    def __init__(self, axis: int, use_lock: bool = True, check_index_bound: bool = True) -> None:
        V.check_int(axis, "axis", self.name)
        self.init_prim_io_names(inputs=["input_x", "indices", "input_y"], outputs=["output"])
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, input_x: Any, indices: Any, input_y: Any) -> Tensor:
        t = to_tf(input_x, self.name, "input_x")
        idx = tf.cast(to_tf(indices, self.name, "indices"), tf.int32)
        y = tf.cast(to_tf(input_y, self.name, "input_y"), t.dtype)
        rank = t.shape.rank
        if y.shape.rank != rank:
            raise ValueError(f"For '{self.name}', the rank of 'input_y' must equal the rank of 'input_x' {rank}, but "
                             f"got {y.shape.rank}.")
        if idx.shape.rank != 1:
            raise ValueError(f"For '{self.name}', the 'indices' must be 1-D, but got shape {idx.shape.as_list()}.")
        axis = V.check_axis(self.axis, "axis", self.name, rank)
        perm = [axis] + [i for i in range(rank) if i != axis]
        inv = [perm.index(i) for i in range(rank)]
        out = tf.tensor_scatter_nd_add(tf.transpose(t, perm), idx[:, None], tf.transpose(y, perm))
        out = tf.transpose(out, inv)
        if isinstance(input_x, Parameter):
            return O.assign(input_x, out)
        return _wrap(out)


class Randperm(Primitive):
    """A random permutation of ``0 .. n-1`` padded with ``pad`` to ``max_length``: ``Randperm(...)(n)``.

    Args:
        max_length: the output length (at least ``n``).
        pad: the padding value.
        dtype: an integer dtype.
    """

    @prim_attr_register
    def __init__(self, max_length: int = 1, pad: int = -1, dtype: Any = mstype.int32) -> None:
        V.check_positive_int(max_length, "max_length", self.name)
        V.check_int(pad, "pad", self.name)

    def __call__(self, n: Any) -> Tensor:
        count = tf.reshape(tf.cast(to_tf(n, self.name, "n"), tf.int32), [])
        perm = tf.random.shuffle(tf.range(count))
        out = tf.concat([perm, tf.fill([self.max_length - count], self.pad)], 0)
        dt = self.dtype.tf_dtype if hasattr(self.dtype, "tf_dtype") else tf.as_dtype(self.dtype)
        return _wrap(tf.cast(out, dt))


class _ParameterServerOp(Primitive):
    """A parameter-server primitive: constructed as in MindSpore, raising when called."""

    def __call__(self, *args: Any) -> Any:
        raise RuntimeError(f"For '{self.name}', the parameter server mode is not available on tfspore (TensorFlow "
                           f"distributes training through tf.distribute strategies); do not enable "
                           f"'set_param_ps' / MS_ROLE.")


class Push(_ParameterServerOp):
    """Push optimizer inputs to a parameter server (not available: calling it raises RuntimeError).

    Args:
        optim_type: the server-side optimizer.
        only_shape_indices: the inputs sent by shape only.
    """

    @prim_attr_register
    def __init__(self, optim_type: str = "ApplyMomentum", only_shape_indices: Any = None) -> None:
        self.add_prim_attr("primitive_target", "CPU")


class Pull(_ParameterServerOp):
    """Pull a weight from a parameter server (not available: calling it raises RuntimeError)."""

    @prim_attr_register
    def __init__(self) -> None:
        self.add_prim_attr("primitive_target", "CPU")
