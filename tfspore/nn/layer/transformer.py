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


from tfspore import ops
from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common import seed as _seed
from tfspore.common.initializer import (HeUniform, Uniform,
                                        calculate_fan_in_and_fan_out as _calculate_fan_in_and_fan_out, initializer)
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import to_tf
from tfspore.nn.layer.activation import GELU, ReLU
from tfspore.nn.layer.basic import Dense, Dropout
from tfspore.nn.layer.container import CellList
from tfspore.nn.layer._multihead_attention import (_layer_norm, _static, _linear, _pad_last,  # noqa: F401
                                                   _additive, _is_float_or_bool, _check_qkv_shape,
                                                   _shape_differs, MultiheadAttention)

__all__ = ["MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder",
           "TransformerDecoder", "Transformer"]


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


class _TransformerLayer(Cell):
    """What the encoder and decoder layers share: the checks, the children (in MindSpore's order: the
    attention blocks, ``dense1``, ``dropout``, ``dense2``, then ``norm1..n`` and ``dropout1..n``), the
    hyper-parameter attributes, the self-attention block and the feedforward block (whose dropout is the
    last one, ``dropout{n}``)."""

    def _build(self, blocks: int, d_model: int, nhead: int, dim_feedforward: int, dropout: float, activation: Any,
               layer_norm_eps: float, batch_first: bool, norm_first: bool, dtype: Any) -> None:
        """Check the arguments and add the children of a layer of ``blocks`` residual blocks (2 or 3)."""
        _check_layer_args(self.cls_name, d_model, nhead, dim_feedforward, dropout, layer_norm_eps, batch_first,
                          norm_first)
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        if blocks == 3:
            self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                     dtype=dtype)
        self.dense1 = _feedforward_dense(d_model, dim_feedforward, dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = _feedforward_dense(dim_feedforward, d_model, dtype)
        self.norm_first = norm_first
        for i in range(1, blocks + 1):
            setattr(self, f"norm{i}", _layer_norm(d_model, layer_norm_eps, dtype))
        for i in range(1, blocks + 1):
            setattr(self, f"dropout{i}", Dropout(p=dropout))
        self._ff_dropout_name = f"dropout{blocks}"
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

    def _sa_block(self, x: Any, attn_mask: Any, key_padding_mask: Any) -> Any:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False)[0]
        return self.dropout1(x)

    def _ff_block(self, x: Any) -> Any:
        x = self.dense2(self.dropout(self.activation(self.dense1(x))))
        return getattr(self, self._ff_dropout_name)(x)


class TransformerEncoderLayer(_TransformerLayer):
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
        self._build(2, d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first,
                    dtype)

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


class TransformerDecoderLayer(_TransformerLayer):
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
        self._build(3, d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first,
                    dtype)

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

    def _mha_block(self, x: Any, mem: Any, attn_mask: Any, key_padding_mask: Any) -> Any:
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                need_weights=False)[0]
        return self.dropout2(x)


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

