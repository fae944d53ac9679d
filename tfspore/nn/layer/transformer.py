"""Attention and Transformer layers (MindSpore's ``mindspore.nn.layer.transformer``).

``MultiheadAttention``, ``TransformerEncoderLayer``, ``TransformerDecoderLayer``,
``TransformerEncoder``, ``TransformerDecoder`` and ``Transformer``, with MindSpore's constructor
arguments, child and parameter names (``self_attn.in_proj_weight``, ``dense1.weight``,
``norm1.gamma``, ``layers.0....``), initializers and math.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16)
    >>> layer(Tensor(np.ones((5, 3, 8), np.float32))).shape
    (5, 3, 8)
"""
from __future__ import annotations

import copy
import math
from typing import Any, Callable, Optional, Union

import tensorflow as tf

from tfspore import ops
from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common import seed as _seed
from tfspore.common.initializer import (HeUniform, Uniform, XavierNormal, XavierUniform,
                                        _calculate_fan_in_and_fan_out, initializer)
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import _wrap
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import cast_to, compute_dtype, read_param, to_tf
from tfspore.nn.layer.activation import GELU, ReLU
from tfspore.nn.layer.basic import Dense, Dropout
from tfspore.nn.layer.container import CellList
from tfspore.ops.function.kernel_dtype import fast_matmul

__all__ = ["MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder",
           "TransformerDecoder", "Transformer"]


def _layer_norm(d_model: int, epsilon: float, dtype: Any) -> Cell:
    """``nn.LayerNorm((d_model,), epsilon=epsilon, dtype=dtype)``."""
    from tfspore.nn.layer.normalization import LayerNorm  # pylint: disable=import-outside-toplevel
    return LayerNorm((d_model,), epsilon=epsilon, dtype=dtype)


# ----------------------------------------------------------------------------- attention math
def _dims(t: tf.Tensor) -> list:
    """The shape of ``t``: static ints where known, scalar tensors elsewhere."""
    static = t.shape.as_list()
    if all(d is not None for d in static):
        return static
    dyn = tf.shape(t)
    return [d if d is not None else dyn[i] for i, d in enumerate(static)]


def _static(d: Any) -> Optional[int]:
    return d if isinstance(d, int) else None


def _linear(x: tf.Tensor, w: tf.Tensor, b: Optional[tf.Tensor]) -> tf.Tensor:
    """``x @ w^T + b`` over the last axis of ``x``."""
    if x.shape.rank == 2:
        y = fast_matmul(x, w, transpose_b=True)
    else:
        dims = _dims(x)
        y = fast_matmul(tf.reshape(x, [-1, dims[-1]]), w, transpose_b=True)
        y = tf.reshape(y, dims[:-1] + [w.shape[0]])
    return y if b is None else y + b


def _pad_last(mask: tf.Tensor) -> tf.Tensor:
    """Append one zero (False) column on the last axis."""
    pad = [[0, 0]] * (mask.shape.rank - 1) + [[0, 1]]
    if mask.dtype == tf.bool:
        return tf.cast(tf.pad(tf.cast(mask, tf.int32), pad), tf.bool)
    return tf.pad(mask, pad)


def _additive(mask: tf.Tensor, dtype: tf.DType) -> tf.Tensor:
    """A bool mask as 0 / -inf, a float mask as is, in ``dtype``."""
    if mask.dtype == tf.bool:
        return tf.where(mask, tf.constant(-math.inf, dtype), tf.constant(0, dtype))
    return tf.cast(mask, dtype)


def _is_float_or_bool(t: tf.Tensor) -> bool:
    return t.dtype == tf.bool or t.dtype.is_floating


def _check_qkv_shape(query_ndim: int, key_ndim: int, value_ndim: int) -> bool:
    if query_ndim == 3:
        if key_ndim != 3 or value_ndim != 3:
            raise ValueError(f"For batched `query`, the `key` and `value` must be 3D tensor, but got `key` with "
                             f"{key_ndim}D and `value` with {value_ndim}D.")
        return True
    if query_ndim == 2:
        if key_ndim != 2 or value_ndim != 2:
            raise ValueError(f"For unbatched `query`, the `key` and `value` must be 2D tensor, but got `key` with "
                             f"{key_ndim}D and `value` with {value_ndim}D.")
        return False
    raise ValueError(f"The `query` should be unbatched 2D or batched 3D tensor, but got `query` with {query_ndim}D.")


def _shape_differs(a: list, b: list) -> bool:
    return len(a) != len(b) or any(x is not None and y is not None and x != y for x, y in zip(a, b))


class MultiheadAttention(Cell):
    r"""Multi-head attention (`Attention is all you need <https://arxiv.org/abs/1706.03762>`_).

    ``MultiHeadAttention(q, k, v) = Concat(head_1, ..., head_h) W^O`` with
    ``head_i = softmax(q W_i^Q (k W_i^K)^T / sqrt(head_dim) + mask) v W_i^V``.

    Args:
        embed_dim: the model dimension.
        num_heads: the number of heads; ``embed_dim`` must be divisible by it.
        dropout: the dropout probability on the attention weights (training only). Default: 0.0.
        has_bias: whether the input and output projections have biases. Default: True.
        add_bias_kv: append learnt biases ``bias_k``/``bias_v`` to the key and value sequences.
            Default: False.
        add_zero_attn: append a zero step to the key and value sequences. Default: False.
        kdim: the key feature size. Default: None (``embed_dim``).
        vdim: the value feature size. Default: None (``embed_dim``).
        batch_first: inputs and outputs are ``(batch, seq, feature)``. Default: False.
        dtype: the parameter dtype. Default: float32.

    Parameters (MindSpore's names): ``in_proj_weight`` ``(3*embed_dim, embed_dim)`` (or
    ``q_proj_weight``, ``k_proj_weight``, ``v_proj_weight`` when ``kdim``/``vdim`` differ),
    ``in_proj_bias`` ``(3*embed_dim,)``, ``bias_k``/``bias_v`` ``(1, 1, embed_dim)``, and the child
    ``out_proj`` (a Dense: ``out_proj.weight``, ``out_proj.bias``).

    Inputs:
        - **query** (Tensor) - ``(L, E)`` unbatched, ``(L, N, E)`` or, with ``batch_first``, ``(N, L, E)``.
        - **key** (Tensor) - ``(S, kdim)``, ``(S, N, kdim)`` or ``(N, S, kdim)``.
        - **value** (Tensor) - ``(S, vdim)``, ``(S, N, vdim)`` or ``(N, S, vdim)``.
        - **key_padding_mask** (Tensor, optional) - ``(N, S)`` (``(S,)`` unbatched); True (bool) or the
          added value (float) marks keys to ignore.
        - **need_weights** (bool) - also return the attention weights. Default: True.
        - **attn_mask** (Tensor, optional) - ``(L, S)`` or ``(N*num_heads, L, S)``; bool (True = not
          allowed), uint8 or float (added to the scores).
        - **average_attn_weights** (bool) - average the returned weights over heads. Default: True.

    Outputs:
        ``(attn_output, attn_output_weights)`` with ``need_weights``, else ``(attn_output,)``.
        ``attn_output`` has the query's shape with ``embed_dim`` features; the weights are
        ``(N, L, S)`` averaged or ``(N, num_heads, L, S)`` (no N when unbatched).

    Raises:
        TypeError: when a size is not an int, a flag not a bool or ``dropout`` not a number.
        ValueError: when a size is not positive, ``embed_dim`` is not divisible by ``num_heads``,
            ``dropout`` is outside [0, 1), or (at call time) for inputs or masks of wrong shapes or dtypes.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> mha = MultiheadAttention(8, 2)
        >>> q = Tensor(np.ones((5, 3, 8), np.float32))
        >>> out, weights = mha(q, q, q)
        >>> out.shape, weights.shape
        ((5, 3, 8), (3, 5, 5))
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, has_bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: Optional[int] = None,
                 vdim: Optional[int] = None, batch_first: bool = False, dtype: Any = mstype.float32) -> None:
        super().__init__()
        name = self.cls_name
        validator.check_positive_int(embed_dim, "embed_dim", name)
        validator.check_positive_int(num_heads, "num_heads", name)
        if kdim is not None:
            validator.check_positive_int(kdim, "kdim", name)
        if vdim is not None:
            validator.check_positive_int(vdim, "vdim", name)
        validator.check_float(dropout, "dropout", name)
        if not 0 <= dropout < 1:
            raise ValueError(f"For '{name}', the 'dropout' must be a number in range [0, 1), but got {dropout}.")
        for arg, val in (("has_bias", has_bias), ("add_bias_kv", add_bias_kv), ("add_zero_attn", add_zero_attn),
                         ("batch_first", batch_first)):
            validator.check_bool(val, arg, name)
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise ValueError(f"For '{name}', the init argument 'embed_dim' must be divisible by 'num_heads', but got "
                             f"embed_dim={embed_dim} and num_heads={num_heads}.")
        if dtype is None:
            dtype = mstype.float32
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, embed_dim), dtype),
                                           "q_proj_weight")
            self.k_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.kdim), dtype),
                                           "k_proj_weight")
            self.v_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.vdim), dtype),
                                           "v_proj_weight")
            self.in_proj_weight = None
        else:
            self.in_proj_weight = Parameter(initializer(XavierUniform(), (3 * embed_dim, embed_dim), dtype),
                                            "in_proj_weight")
            self.q_proj_weight = None
            self.k_proj_weight = None
            self.v_proj_weight = None
        if has_bias:
            self.in_proj_bias = Parameter(initializer("zeros", (3 * embed_dim,), dtype), "in_proj_bias")
        else:
            self.in_proj_bias = None
        fan_in, _ = _calculate_fan_in_and_fan_out((embed_dim, embed_dim))
        bound = 1 / math.sqrt(fan_in)
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias, weight_init=HeUniform(math.sqrt(5)),
                              bias_init=Uniform(bound), dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype), "bias_k")
            self.bias_v = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype), "bias_v")
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self.k_is_v = False
        self.q_is_k = False
        self.dtype = dtype
        self._seed = _seed._get_op_seed()[0]

    def construct(self, query: Any, key: Any, value: Any, key_padding_mask: Optional[Any] = None,
                  need_weights: bool = True, attn_mask: Optional[Any] = None,
                  average_attn_weights: bool = True) -> tuple:
        q, k, v = to_tf(query), to_tf(key), to_tf(value)
        kpm = None if key_padding_mask is None else to_tf(key_padding_mask)
        mask = None if attn_mask is None else to_tf(attn_mask)
        is_batched = q.shape.rank == 3
        if kpm is not None and not _is_float_or_bool(kpm):
            raise ValueError(f"For '{self.cls_name}', only bool and floating types of key_padding_mask are "
                             f"supported, but got {mstype.from_tf_dtype(kpm.dtype)}.")
        if self.batch_first and is_batched:
            q, k, v = (tf.transpose(t, (1, 0, 2)) for t in (q, k, v))
        out, weights = self._forward(q, k, v, kpm, mask, average_attn_weights)
        if self.batch_first and is_batched:
            out = tf.transpose(out, (1, 0, 2))
        if need_weights:
            return _wrap(out), _wrap(weights)
        return (_wrap(out),)

    def _check_masks(self, q: tf.Tensor, k: tf.Tensor, kpm: Optional[tf.Tensor],
                     mask: Optional[tf.Tensor]) -> None:
        q_ndim = q.shape.rank
        if kpm is not None:
            want = 2 if q_ndim == 3 else 1
            if kpm.shape.rank != want:
                kind = "batched" if q_ndim == 3 else "unbatched"
                raise ValueError(f"For {kind} `query`, the `key_padding_mask` must be `None` or {want}D, but got "
                                 f"`key_padding_mask` with {kpm.shape.rank}D.")
        if mask is not None:
            if mask.shape.rank not in (2, 3):
                kind = "batched" if q_ndim == 3 else "unbatched"
                raise ValueError(f"For {kind} `query`, the `attn_mask` must be `None`, 2-D or 3-D, but got "
                                 f"`attn_mask` with {mask.shape.rank}D.")
            if q_ndim == 2 and mask.shape.rank == 3:
                expected = [self.num_heads, q.shape[0], k.shape[0]]
                if _shape_differs(expected, mask.shape.as_list()):
                    raise ValueError(f"The shape of `attn_mask` must to be {tuple(expected)}, but got "
                                     f"{tuple(mask.shape.as_list())}.")

    def _projections(self, q: tf.Tensor, k: tf.Tensor, v: tf.Tensor, dt: tf.DType) -> tuple:
        b = None if self.in_proj_bias is None else read_param(self.in_proj_bias, dt)
        b_q, b_k, b_v = (None, None, None) if b is None else tf.split(b, 3)
        if self._qkv_same_embed_dim:
            w_q, w_k, w_v = tf.split(read_param(self.in_proj_weight, dt), 3)
        else:
            w_q, w_k, w_v = (read_param(p, dt) for p in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight))
            e = self.embed_dim
            for arg, w, want in (("query", w_q, [e, q.shape[-1]]), ("key", w_k, [e, k.shape[-1]]),
                                 ("value", w_v, [e, v.shape[-1]])):
                if _shape_differs(want, w.shape.as_list()):
                    raise ValueError(f"Expecting {arg} weights shape of {tuple(want)}, but got "
                                     f"{tuple(w.shape.as_list())}")
        return _linear(q, w_q, b_q), _linear(k, w_k, b_k), _linear(v, w_v, b_v)

    def _forward(self, q: tf.Tensor, k: tf.Tensor, v: tf.Tensor, kpm: Optional[tf.Tensor],
                 mask: Optional[tf.Tensor], average: bool) -> tuple:
        is_batched = _check_qkv_shape(q.shape.rank, k.shape.rank, v.shape.rank)
        self._check_masks(q, k, kpm, mask)
        if not is_batched:
            q, k, v = (tf.expand_dims(t, 1) for t in (q, k, v))
            if kpm is not None:
                kpm = tf.expand_dims(kpm, 0)
        tgt_len, bsz, embed_dim = _dims(q)
        src_len = _dims(k)[0]
        if _static(embed_dim) is not None and embed_dim != self.embed_dim:
            raise ValueError(f"The `embed_dim` should be {self.embed_dim}, but got {embed_dim}.")
        if self._qkv_same_embed_dim:
            if _shape_differs(k.shape.as_list(), v.shape.as_list()):
                raise ValueError(f"The shape of `key` {tuple(k.shape.as_list())} does not match `value` "
                                 f"{tuple(v.shape.as_list())}.")
        elif _shape_differs(k.shape.as_list()[:2], v.shape.as_list()[:2]):
            raise ValueError(f"The sequence length and batch dims of `key`: {tuple(k.shape.as_list()[:2])} do not "
                             f"match `value`: {tuple(v.shape.as_list()[:2])}.")
        dt = compute_dtype(self, q, self.out_proj.weight._var.dtype)
        q, k, v = (cast_to(t, dt) for t in (q, k, v))
        q, k, v = self._projections(q, k, v, dt)

        heads, head_dim = self.num_heads, self.head_dim
        if mask is not None:
            if mask.dtype == tf.uint8:
                mask = tf.cast(mask, tf.bool)
            elif not _is_float_or_bool(mask):
                raise ValueError(f"`attn_mask` only support float, byte, and bool types, but got not "
                                 f"{mstype.from_tf_dtype(mask.dtype)}.")
            if mask.shape.rank == 2:
                want = [_static(tgt_len), _static(src_len)]
                if _shape_differs(want, mask.shape.as_list()):
                    raise ValueError(f"The shape of the `attn_mask` should be {tuple(want)}, but got "
                                     f"{tuple(mask.shape.as_list())}.")
                mask = mask[tf.newaxis, tf.newaxis]
            else:
                nb = _static(bsz)
                want = [None if nb is None else nb * heads, _static(tgt_len), _static(src_len)]
                if _shape_differs(want, mask.shape.as_list()):
                    raise ValueError(f"The shape of the `attn_mask` should be {tuple(want)}, but got "
                                     f"{tuple(mask.shape.as_list())}.")
                mask = tf.reshape(mask, [bsz, heads, tgt_len, src_len])

        if self.bias_k is not None:
            k = tf.concat([k, tf.tile(read_param(self.bias_k, dt), [1, bsz, 1])], 0)
            v = tf.concat([v, tf.tile(read_param(self.bias_v, dt), [1, bsz, 1])], 0)
            mask = None if mask is None else _pad_last(mask)
            kpm = None if kpm is None else _pad_last(kpm)

        # (seq, N, E) -> (N, heads, seq, head_dim)
        q = tf.transpose(tf.reshape(q, [tgt_len, bsz, heads, head_dim]), (1, 2, 0, 3))
        k = tf.transpose(tf.reshape(k, [-1, bsz, heads, head_dim]), (1, 2, 0, 3))
        v = tf.transpose(tf.reshape(v, [-1, bsz, heads, head_dim]), (1, 2, 0, 3))
        if self.add_zero_attn:
            zeros = tf.zeros(tf.stack([bsz, heads, 1, head_dim]), dt)
            k = tf.concat([k, zeros], 2)
            v = tf.concat([v, zeros], 2)
            mask = None if mask is None else _pad_last(mask)
            kpm = None if kpm is None else _pad_last(kpm)
        src_len = _dims(k)[2]

        if kpm is not None:
            want = [_static(bsz), _static(src_len)]
            if _shape_differs(want, kpm.shape.as_list()):
                raise ValueError(f"The shape of `key_padding_mask` should be {tuple(want)}, but got "
                                 f"{tuple(kpm.shape.as_list())}.")
            kpm = tf.reshape(_additive(kpm, dt), [bsz, 1, 1, src_len])
            mask = kpm if mask is None else _additive(mask, dt) + kpm
        elif mask is not None:
            mask = _additive(mask, dt)

        scale = tf.sqrt(tf.sqrt(tf.constant(float(head_dim), dt)))
        attn = tf.matmul(q / scale, k / scale, transpose_b=True)
        if mask is not None:
            attn = attn + mask
        attn = tf.nn.softmax(attn, -1)
        if self.training and self.dropout > 0:
            attn = tf.nn.dropout(attn, rate=self.dropout, seed=self._seed)
        out = tf.matmul(attn, v)
        out = tf.reshape(tf.transpose(out, (2, 0, 1, 3)), [-1, self.embed_dim])
        out = _linear(out, read_param(self.out_proj.weight, dt),
                      None if self.out_proj.bias is None else read_param(self.out_proj.bias, dt))
        out = tf.reshape(out, [tgt_len, bsz, self.embed_dim])
        if average:
            attn = tf.reduce_sum(attn, axis=1) / tf.cast(heads, attn.dtype)
        if not is_batched:
            out = tf.squeeze(out, 1)
            attn = tf.squeeze(attn, 0)
        return out, attn


# ----------------------------------------------------------------------------- encoder / decoder
def _get_activation_fn(activation: str) -> Callable:
    if activation == "relu":
        return ops.relu
    if activation == "gelu":
        return ops.gelu
    raise ValueError(f"The activation must be relu/gelu, but get {activation}")


def _check_activation(activation: Any) -> Any:
    """Validate a Transformer layer's ``activation`` and return the callable to apply."""
    if not isinstance(activation, (str, Cell)) and not callable(activation):
        raise ValueError(f"The argument 'activation' must be str, callable or Cell instance, but get {activation}.")
    if isinstance(activation, Cell):
        if not isinstance(activation, (ReLU, GELU)):
            raise ValueError(f"The argument 'activation' must be nn.ReLU or nn.GELU instance, but get {activation}.")
        return activation
    if callable(activation) and activation is not ops.relu and activation is not ops.gelu:
        raise ValueError(f"The argument 'activation' must be ops.relu or ops.gelu instance, but get {activation}.")
    if isinstance(activation, str):
        return _get_activation_fn(activation)
    return activation


def _check_layer_args(cls_name: str, d_model: Any, nhead: Any, dim_feedforward: Any, dropout: Any,
                      layer_norm_eps: Any, batch_first: Any, norm_first: Any) -> None:
    validator.check_positive_int(d_model, "d_model", cls_name)
    validator.check_positive_int(nhead, "nhead", cls_name)
    validator.check_positive_int(dim_feedforward, "dim_feedforward", cls_name)
    validator.check_float(dropout, "dropout", cls_name)
    if not 0 <= dropout < 1:
        raise ValueError(f"For '{cls_name}', the 'dropout' must be a number in range [0, 1), but got {dropout}.")
    validator.check_positive_float(layer_norm_eps, "layer_norm_eps", cls_name)
    validator.check_bool(batch_first, "batch_first", cls_name)
    validator.check_bool(norm_first, "norm_first", cls_name)


def _check_key_padding_mask(mask: Any) -> None:
    if mask is not None:
        t = to_tf(mask)
        if not _is_float_or_bool(t):
            raise AssertionError("only bool and floating types of key_padding_mask are supported, but got "
                                 f"{mstype.from_tf_dtype(t.dtype)}.")


def _feedforward_dense(d_in: int, d_out: int, dtype: Any) -> Dense:
    fan_in, _ = _calculate_fan_in_and_fan_out((d_out, d_in))
    return Dense(d_in, d_out, weight_init=HeUniform(math.sqrt(5)), bias_init=Uniform(1 / math.sqrt(fan_in)),
                 dtype=dtype)


class TransformerEncoderLayer(Cell):
    r"""A Transformer encoder layer: self-attention and a feedforward network, each with a residual and LayerNorm.

    Args:
        d_model: the number of input features.
        nhead: the number of attention heads.
        dim_feedforward: the feedforward hidden size. Default: 2048.
        dropout: the dropout probability. Default: 0.1.
        activation: ``'relu'``, ``'gelu'``, ``ops.relu``, ``ops.gelu``, ``nn.ReLU()`` or ``nn.GELU()``.
            Default: 'relu'.
        layer_norm_eps: the LayerNorm epsilon. Default: 1e-5.
        batch_first: inputs are ``(batch, seq, feature)``. Default: False.
        norm_first: apply LayerNorm before (not after) each block. Default: False.
        dtype: the parameter dtype. Default: float32.

    Children (MindSpore's names): ``self_attn``, ``dense1``, ``dropout``, ``dense2``, ``norm1``,
    ``norm2``, ``dropout1``, ``dropout2``.

    Inputs:
        - **src** (Tensor) - ``(S, E)``, ``(S, N, E)`` or, with ``batch_first``, ``(N, S, E)``.
        - **src_mask** (Tensor, optional) - ``(S, S)`` or ``(N*nhead, S, S)``.
        - **src_key_padding_mask** (Tensor, optional) - ``(N, S)`` (``(S,)`` unbatched), bool or float.

    Outputs:
        Tensor of the shape and dtype of ``src``.

    Raises:
        ValueError: for an unsupported ``activation`` or an argument out of range.
        TypeError: for an argument of the wrong type.
        AssertionError: at call time, for a ``src_key_padding_mask`` that is neither bool nor float.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> layer = TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True)
        >>> layer(Tensor(np.ones((3, 5, 8), np.float32))).shape
        (3, 5, 8)
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: Union[str, Cell, Callable] = "relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, dtype: Any = mstype.float32) -> None:
        super().__init__()
        _check_layer_args(self.cls_name, d_model, nhead, dim_feedforward, dropout, layer_norm_eps, batch_first,
                          norm_first)
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        self.dense1 = _feedforward_dense(d_model, dim_feedforward, dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = _feedforward_dense(dim_feedforward, d_model, dtype)
        self.norm_first = norm_first
        self.norm1 = _layer_norm(d_model, layer_norm_eps, dtype)
        self.norm2 = _layer_norm(d_model, layer_norm_eps, dtype)
        self.dropout1 = Dropout(p=dropout)
        self.dropout2 = Dropout(p=dropout)
        fn = _check_activation(activation)
        self.activation1 = activation
        self.activation = fn
        self.d_model = d_model
        self.nhead = nhead
        self.dim_feedforward = dim_feedforward
        self.dropout_num = dropout
        self.layernorm_eps = layer_norm_eps
        self.batch_first = batch_first
        self.dtype = dtype

    def construct(self, src: Any, src_mask: Optional[Any] = None, src_key_padding_mask: Optional[Any] = None) -> Any:
        _check_key_padding_mask(src_key_padding_mask)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _sa_block(self, x: Any, attn_mask: Any, key_padding_mask: Any) -> Any:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False)[0]
        return self.dropout1(x)

    def _ff_block(self, x: Any) -> Any:
        x = self.dense2(self.dropout(self.activation(self.dense1(x))))
        return self.dropout2(x)


class TransformerDecoderLayer(Cell):
    r"""A Transformer decoder layer: self-attention, cross-attention over ``memory`` and a feedforward network.

    Args:
        d_model: the number of input features.
        nhead: the number of attention heads.
        dim_feedforward: the feedforward hidden size. Default: 2048.
        dropout: the dropout probability. Default: 0.1.
        activation: ``'relu'``, ``'gelu'``, ``ops.relu``, ``ops.gelu``, ``nn.ReLU()`` or ``nn.GELU()``.
            Default: 'relu'.
        layer_norm_eps: the LayerNorm epsilon. Default: 1e-5.
        batch_first: inputs are ``(batch, seq, feature)``. Default: False.
        norm_first: apply LayerNorm before (not after) each block. Default: False.
        dtype: the parameter dtype. Default: float32.

    Children (MindSpore's names): ``self_attn``, ``multihead_attn``, ``dense1``, ``dropout``, ``dense2``,
    ``norm1``, ``norm2``, ``norm3``, ``dropout1``, ``dropout2``, ``dropout3``.

    Inputs:
        - **tgt** (Tensor) - ``(T, E)``, ``(T, N, E)`` or, with ``batch_first``, ``(N, T, E)``.
        - **memory** (Tensor) - the encoder output, ``(S, E)``, ``(S, N, E)`` or ``(N, S, E)``.
        - **tgt_mask**, **memory_mask** (Tensor, optional) - attention masks.
        - **tgt_key_padding_mask**, **memory_key_padding_mask** (Tensor, optional) - key padding masks.

    Outputs:
        Tensor of the shape and dtype of ``tgt``.

    Raises:
        ValueError: for an unsupported ``activation`` or an argument out of range.
        TypeError: for an argument of the wrong type.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> layer = TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> memory = Tensor(np.ones((4, 3, 8), np.float32))
        >>> layer(Tensor(np.ones((5, 3, 8), np.float32)), memory).shape
        (5, 3, 8)
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: Union[str, Cell, Callable] = "relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, dtype: Any = mstype.float32) -> None:
        super().__init__()
        _check_layer_args(self.cls_name, d_model, nhead, dim_feedforward, dropout, layer_norm_eps, batch_first,
                          norm_first)
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                 dtype=dtype)
        self.dense1 = _feedforward_dense(d_model, dim_feedforward, dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = _feedforward_dense(dim_feedforward, d_model, dtype)
        self.norm_first = norm_first
        self.norm1 = _layer_norm(d_model, layer_norm_eps, dtype)
        self.norm2 = _layer_norm(d_model, layer_norm_eps, dtype)
        self.norm3 = _layer_norm(d_model, layer_norm_eps, dtype)
        self.dropout1 = Dropout(p=dropout)
        self.dropout2 = Dropout(p=dropout)
        self.dropout3 = Dropout(p=dropout)
        fn = _check_activation(activation)
        self.activation1 = activation
        self.activation = fn
        self.d_model = d_model
        self.nhead = nhead
        self.dim_feedforward = dim_feedforward
        self.dropout_num = dropout
        self.layernorm_eps = layer_norm_eps
        self.batch_first = batch_first
        self.dtype = dtype

    def construct(self, tgt: Any, memory: Any, tgt_mask: Optional[Any] = None, memory_mask: Optional[Any] = None,
                  tgt_key_padding_mask: Optional[Any] = None, memory_key_padding_mask: Optional[Any] = None) -> Any:
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(self, x: Any, attn_mask: Any, key_padding_mask: Any) -> Any:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x: Any, mem: Any, attn_mask: Any, key_padding_mask: Any) -> Any:
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x: Any) -> Any:
        x = self.dense2(self.dropout(self.activation(self.dense1(x))))
        return self.dropout3(x)


def _fresh_copy(layer: Cell) -> Cell:
    """A deep copy of ``layer`` whose dropout ops get new random seeds (copies share none)."""
    new = copy.deepcopy(layer)
    for _, cell in new.cells_and_names():
        if isinstance(cell.__dict__.get("_seed"), int):
            cell.__dict__["_seed"] = _seed._get_op_seed()[0]
    return new


def _check_stack_args(cls_name: str, layer: Any, layer_cls: type, num_layers: Any, norm: Any) -> None:
    if not isinstance(layer, layer_cls):
        arg = "encoder_layer" if layer_cls is TransformerEncoderLayer else "decoder_layer"
        raise TypeError(f"For '{cls_name}', the '{arg}' must be a {layer_cls.__name__}, but got "
                        f"{type(layer).__name__}.")
    validator.check_positive_int(num_layers, "num_layers", cls_name)
    if norm is not None and not isinstance(norm, Cell):
        raise TypeError(f"For '{cls_name}', the 'norm' must be a Cell or None, but got {type(norm).__name__}.")


class TransformerEncoder(Cell):
    r"""A stack of ``num_layers`` Transformer encoder layers, then an optional ``norm``.

    As in MindSpore, the layers are copies of one new layer built with ``encoder_layer``'s arguments
    (so they start with equal weights, not ``encoder_layer``'s), held in the CellList ``layers``.

    Args:
        encoder_layer: a :class:`TransformerEncoderLayer` giving the layer arguments.
        num_layers: the number of layers.
        norm: a Cell applied to the output (usually a LayerNorm). Default: None.

    Inputs:
        - **src** (Tensor) - as for :class:`TransformerEncoderLayer`.
        - **src_mask** (Tensor, optional) - the attention mask.
        - **src_key_padding_mask** (Tensor, optional) - the key padding mask, bool or float.

    Outputs:
        Tensor of the shape and dtype of ``src``.

    Raises:
        TypeError: when ``encoder_layer`` is not a TransformerEncoderLayer, ``num_layers`` not an
            int, or ``norm`` not a Cell.
        ValueError: when ``num_layers`` is not positive.
        AssertionError: at call time, for a ``src_key_padding_mask`` that is neither bool nor float.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> layer = TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> encoder = TransformerEncoder(layer, num_layers=2)
        >>> encoder(Tensor(np.ones((5, 3, 8), np.float32))).shape
        (5, 3, 8)
    """

    def __init__(self, encoder_layer: TransformerEncoderLayer, num_layers: int, norm: Optional[Cell] = None) -> None:
        super().__init__()
        _check_stack_args(self.cls_name, encoder_layer, TransformerEncoderLayer, num_layers, norm)
        layers = TransformerEncoderLayer(encoder_layer.d_model, encoder_layer.nhead, encoder_layer.dim_feedforward,
                                         encoder_layer.dropout_num, encoder_layer.activation1,
                                         encoder_layer.layernorm_eps, encoder_layer.batch_first,
                                         encoder_layer.norm_first, dtype=encoder_layer.dtype)
        self.layers = CellList([_fresh_copy(layers) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, src: Any, src_mask: Optional[Any] = None, src_key_padding_mask: Optional[Any] = None) -> Any:
        _check_key_padding_mask(src_key_padding_mask)
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output


class TransformerDecoder(Cell):
    r"""A stack of ``num_layers`` Transformer decoder layers, then an optional ``norm``.

    As in MindSpore, the layers are copies of one new layer built with ``decoder_layer``'s arguments,
    held in the CellList ``layers``.

    Args:
        decoder_layer: a :class:`TransformerDecoderLayer` giving the layer arguments.
        num_layers: the number of layers.
        norm: a Cell applied to the output. Default: None.

    Inputs:
        - **tgt**, **memory** (Tensor) - as for :class:`TransformerDecoderLayer`.
        - **tgt_mask**, **memory_mask**, **tgt_key_padding_mask**, **memory_key_padding_mask**
          (Tensor, optional) - the masks.

    Outputs:
        Tensor of the shape and dtype of ``tgt``.

    Raises:
        TypeError: when ``decoder_layer`` is not a TransformerDecoderLayer, ``num_layers`` not an
            int, or ``norm`` not a Cell.
        ValueError: when ``num_layers`` is not positive.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> layer = TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> decoder = TransformerDecoder(layer, num_layers=2)
        >>> memory = Tensor(np.ones((4, 3, 8), np.float32))
        >>> decoder(Tensor(np.ones((5, 3, 8), np.float32)), memory).shape
        (5, 3, 8)
    """

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int, norm: Optional[Cell] = None) -> None:
        super().__init__()
        _check_stack_args(self.cls_name, decoder_layer, TransformerDecoderLayer, num_layers, norm)
        layers = TransformerDecoderLayer(decoder_layer.d_model, decoder_layer.nhead, decoder_layer.dim_feedforward,
                                         decoder_layer.dropout_num, decoder_layer.activation1,
                                         decoder_layer.layernorm_eps, decoder_layer.batch_first,
                                         decoder_layer.norm_first, dtype=decoder_layer.dtype)
        self.layers = CellList([_fresh_copy(layers) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, tgt: Any, memory: Any, tgt_mask: Optional[Any] = None, memory_mask: Optional[Any] = None,
                  tgt_key_padding_mask: Optional[Any] = None, memory_key_padding_mask: Optional[Any] = None) -> Any:
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask, memory_key_padding_mask=memory_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Cell):
    r"""The Transformer: a :class:`TransformerEncoder` and a :class:`TransformerDecoder`.

    Every parameter with more than one dimension is initialised with ``xavier_uniform``.

    Args:
        d_model: the number of features. Default: 512.
        nhead: the number of attention heads. Default: 8.
        num_encoder_layers: the number of encoder layers. Default: 6.
        num_decoder_layers: the number of decoder layers. Default: 6.
        dim_feedforward: the feedforward hidden size. Default: 2048.
        dropout: the dropout probability. Default: 0.1.
        activation: as for :class:`TransformerEncoderLayer`. Default: 'relu'.
        custom_encoder: a Cell used as the encoder. Default: None.
        custom_decoder: a Cell used as the decoder. Default: None.
        layer_norm_eps: the LayerNorm epsilon. Default: 1e-5.
        batch_first: inputs are ``(batch, seq, feature)``. Default: False.
        norm_first: apply LayerNorm before each block. Default: False.
        dtype: the parameter dtype. Default: float32.

    Inputs:
        - **src** (Tensor) - the encoder input.
        - **tgt** (Tensor) - the decoder input.
        - **src_mask**, **tgt_mask**, **memory_mask**, **src_key_padding_mask**, **tgt_key_padding_mask**,
          **memory_key_padding_mask** (Tensor, optional) - the masks.

    Outputs:
        Tensor of the shape of ``tgt``.

    Raises:
        ValueError: at call time, when the feature size of ``src`` or ``tgt`` is not ``d_model``, or
            their batch sizes differ.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> net = Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16)
        >>> src = Tensor(np.ones((4, 3, 8), np.float32))
        >>> tgt = Tensor(np.ones((5, 3, 8), np.float32))
        >>> net(src, tgt).shape
        (5, 3, 8)
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: Union[str, Cell, Callable] = "relu", custom_encoder: Optional[Cell] = None,
                 custom_decoder: Optional[Cell] = None, layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, dtype: Any = mstype.float32) -> None:
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                                    layer_norm_eps, batch_first, norm_first, dtype=dtype)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers,
                                              _layer_norm(d_model, layer_norm_eps, dtype))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                                    layer_norm_eps, batch_first, norm_first, dtype=dtype)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers,
                                              _layer_norm(d_model, layer_norm_eps, dtype))
        for _, p in self.parameters_and_names():
            if len(p.shape) > 1:
                p.set_data(initializer("xavier_uniform", p.shape, p.dtype))
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def construct(self, src: Any, tgt: Any, src_mask: Optional[Any] = None, tgt_mask: Optional[Any] = None,
                  memory_mask: Optional[Any] = None, src_key_padding_mask: Optional[Any] = None,
                  tgt_key_padding_mask: Optional[Any] = None, memory_key_padding_mask: Optional[Any] = None) -> Any:
        s, t = to_tf(src).shape, to_tf(tgt).shape
        is_batched = s.rank == 3
        if is_batched:
            axis = 0 if self.batch_first else 1
            if s[axis] is not None and t[axis] is not None and s[axis] != t[axis]:
                raise ValueError(f"The number of batch size for 'src' and 'tgt' must be equal, but got {s[axis]} "
                                 f"and {t[axis]}.")
        if s[-1] != self.d_model or t[-1] != self.d_model:
            raise ValueError(f"The number of features for 'src' and 'tgt' must be equal to `d_model` "
                             f"({self.d_model}), but got {s[-1]} and {t[-1]}.")
        memory = self.encoder(src, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)

