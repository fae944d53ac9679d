"""``MultiheadAttention`` (MindSpore's ``nn.MultiheadAttention``) and the tensor helpers the transformer layers share.

MindSpore's import path for it is ``tfspore.nn.layer.transformer`` (and ``tfspore.nn``).
"""
from __future__ import annotations

import math
from typing import Any, Optional

import tensorflow as tf

from tfspore._internal import validator
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common import dtype as mstype
from tfspore.common import seed as _seed
from tfspore.common.initializer import (HeUniform, Uniform, XavierNormal, XavierUniform,
                                        calculate_fan_in_and_fan_out as _calculate_fan_in_and_fan_out, initializer)
from tfspore.common.parameter import Parameter
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import cast_to, compute_dtype, read_param, to_tf
from tfspore.nn.layer.basic import Dense
from tfspore.ops.function.kernel_dtype import fast_matmul
from tfspore._internal.shapes import dims


def _layer_norm(d_model: int, epsilon: float, dtype: Any) -> Cell:
    """``nn.LayerNorm((d_model,), epsilon=epsilon, dtype=dtype)``."""
    from tfspore.nn.layer.normalization import LayerNorm  # pylint: disable=import-outside-toplevel
    return LayerNorm((d_model,), epsilon=epsilon, dtype=dtype)


# ----------------------------------------------------------------------------- attention math
def _static(d: Any) -> Optional[int]:
    return d if isinstance(d, int) else None


def _linear(x: tf.Tensor, w: tf.Tensor, b: Optional[tf.Tensor]) -> tf.Tensor:
    """``x @ w^T + b`` over the last axis of ``x``."""
    if x.shape.rank == 2:
        y = fast_matmul(x, w, transpose_b=True)
    else:
        shape = dims(x)
        y = fast_matmul(tf.reshape(x, [-1, shape[-1]]), w, transpose_b=True)
        y = tf.reshape(y, shape[:-1] + [w.shape[0]])
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
        tgt_len, bsz, embed_dim = dims(q)
        src_len = dims(k)[0]
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
        src_len = dims(k)[2]

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
