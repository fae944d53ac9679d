"""Stacked recurrent layers: ``RNN``, ``LSTM``, ``GRU`` (MindSpore's ``mindspore.nn.layer.rnns``).

Parameters are named as MindSpore names them (``weight_ih_l0``, ``weight_hh_l0``, ``bias_ih_l0``,
``bias_hh_l0``, with the suffix ``_reverse`` for the backward direction) and registered in the
same order: every ``weight_ih``, then every ``weight_hh``, ``bias_ih``, ``bias_hh``.

The time loop is a ``tf.while_loop`` over a ``tf.TensorArray``: in PYNATIVE_MODE it runs eagerly,
inside a compiled graph it is one loop op (no Python per step), with any sequence length. The
input-to-hidden products of all time steps are computed by one matrix product before the loop.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> net = nn.LSTM(10, 16, 2, batch_first=True)
    >>> out, (h, c) = net(Tensor(np.ones((3, 5, 10), np.float32)))
    >>> out.shape, h.shape
    ((3, 5, 16), (2, 3, 16))
"""
from __future__ import annotations

import logging
import math
from typing import Any, Callable

import numpy as np
import tensorflow as tf

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter, ParameterTuple
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import cast_to, compute_dtype, read_param
from tfspore.nn.layer.basic import Dropout
from tfspore.ops.function.kernel_dtype import fast_matmul
from tfspore.nn.layer.rnn_cells import (as_value, check_float_dtype, check_is_tensor, check_is_tuple, gru_gates,
                                        lstm_gates, tf_dtype_of)

__all__ = ["LSTM", "GRU", "RNN"]

_logger = logging.getLogger("tfspore")

_MODES = ("RNN_RELU", "RNN_TANH", "LSTM", "GRU")
_GATES = {"RNN_RELU": 1, "RNN_TANH": 1, "LSTM": 4, "GRU": 3}


def _step_fn(mode: str) -> Callable:
    """The one-step update ``(gi_t, state, w_hh, b_hh) -> state`` for ``mode``.

    ``gi_t`` is the input part of the gates, ``x_t W_ih^T + b_ih``, computed before the loop.
    """
    def rnn_step(act: Callable) -> Callable:
        def step(gi, h, w_hh, b_hh):
            gh = fast_matmul(h, w_hh, transpose_b=True)
            if b_hh is not None:
                gh = gh + b_hh
            return act(gi + gh)
        return step

    def lstm_step(gi, state, w_hh, b_hh):
        hx, cx = state
        gates = gi + fast_matmul(hx, w_hh, transpose_b=True)
        if b_hh is not None:
            gates = gates + b_hh
        return lstm_gates(gates, cx)

    def gru_step(gi, h, w_hh, b_hh):
        gh = fast_matmul(h, w_hh, transpose_b=True)
        if b_hh is not None:
            gh = gh + b_hh
        return gru_gates(gi, gh, h)

    return {"RNN_TANH": rnn_step(tf.tanh), "RNN_RELU": rnn_step(tf.nn.relu), "LSTM": lstm_step,
            "GRU": gru_step}[mode]


def _recurrence(mode: str, x: tf.Tensor, h_0: Any, seq_length: tf.Tensor | None, w_ih: tf.Tensor,
                w_hh: tf.Tensor, b_ih: tf.Tensor | None, b_hh: tf.Tensor | None) -> tuple[tf.Tensor, Any]:
    """Run one layer in one direction over ``x`` of shape ``(seq_len, batch, input_size)``.

    With ``seq_length``, steps at or past a sequence's length keep its state and output zeros.

    Returns:
        ``(output, h_n)``: the outputs ``(seq_len, batch, hidden)`` and the final state (a
        ``(h, c)`` pair for LSTM).
    """
    step = _step_fn(mode)
    dims = x.shape.as_list()
    steps = tf.shape(x)[0]
    gi = fast_matmul(tf.reshape(x, [-1, dims[-1]]), w_ih, transpose_b=True)
    if b_ih is not None:
        gi = gi + b_ih
    batch = dims[1] if dims[1] is not None else tf.shape(x)[1]
    gi = tf.reshape(gi, [-1, batch, w_ih.shape[0]])
    gi_ta = tf.TensorArray(x.dtype, size=steps, element_shape=gi.shape[1:]).unstack(gi)
    out_ta = tf.TensorArray(x.dtype, size=steps, element_shape=tf.TensorShape([dims[1], w_hh.shape[-1]]))
    is_lstm = mode == "LSTM"
    lengths = None if seq_length is None else tf.reshape(tf.cast(seq_length, tf.int32), [-1, 1])

    def body(t, state, out_ta):
        new = step(gi_ta.read(t), state, w_hh, b_hh)
        h_new = new[0] if is_lstm else new
        if lengths is not None:
            valid = lengths > t
            new = tf.nest.map_structure(lambda a, b: tf.where(valid, a, b), new, state)
            h_new = tf.where(valid, h_new, tf.zeros_like(h_new))
        return t + 1, new, out_ta.write(t, h_new)

    _, h_n, out_ta = tf.while_loop(lambda t, *_: t < steps, body, (tf.constant(0), h_0, out_ta),
                                   maximum_iterations=steps)
    output = out_ta.stack()
    output.set_shape([dims[0], dims[1], w_hh.shape[-1]])
    return output, h_n


class _DynamicRNNBase(Cell):
    """One recurrent layer in one direction (MindSpore's per-layer helper cell; it holds no parameters).

    Args:
        mode: 'RNN_RELU', 'RNN_TANH', 'LSTM' or 'GRU'.

    Raises:
        ValueError: for another mode.
    """

    def __init__(self, mode: str) -> None:
        super().__init__()
        if mode not in _MODES:
            raise ValueError(f"Unrecognized RNN mode: {mode}")
        self.mode = mode
        self.is_lstm = mode == "LSTM"

    def construct(self, x: Any, h: Any, seq_length: Any, w_ih: Any, w_hh: Any, b_ih: Any, b_hh: Any) -> tuple:
        xv = as_value(x)
        dt = xv.dtype
        w_ih, w_hh = cast_to(as_value(w_ih), dt), cast_to(as_value(w_hh), dt)
        if b_ih is not None:
            b_ih, b_hh = cast_to(as_value(b_ih), dt), cast_to(as_value(b_hh), dt)
        h = tf.nest.map_structure(lambda v: cast_to(as_value(v), dt), tuple(h) if self.is_lstm else h)
        sl = None if seq_length is None else as_value(seq_length)
        return _recurrence(self.mode, xv, h, sl, w_ih, w_hh, b_ih, b_hh)


class _DynamicRNNRelu(_DynamicRNNBase):
    """One Elman RNN layer with ReLU."""

    def __init__(self) -> None:
        super().__init__("RNN_RELU")


class _DynamicRNNTanh(_DynamicRNNBase):
    """One Elman RNN layer with tanh."""

    def __init__(self) -> None:
        super().__init__("RNN_TANH")


class _DynamicGRUCPUGPU(_DynamicRNNBase):
    """One GRU layer."""

    def __init__(self) -> None:
        super().__init__("GRU")


class _DynamicLSTMCPUGPU(_DynamicRNNBase):
    """One LSTM layer."""

    def __init__(self) -> None:
        super().__init__("LSTM")


_LAYER_CELLS = {"RNN_RELU": _DynamicRNNRelu, "RNN_TANH": _DynamicRNNTanh, "GRU": _DynamicGRUCPUGPU,
                "LSTM": _DynamicLSTMCPUGPU}


class _RNNBase(Cell):
    """The base of ``RNN``, ``LSTM`` and ``GRU``: stacked layers, optionally bidirectional.

    Args:
        mode: 'RNN_RELU', 'RNN_TANH', 'LSTM' or 'GRU'.
        input_size: the number of input features.
        hidden_size: the number of hidden features.
        num_layers: the number of stacked layers.
        has_bias: whether every layer has ``bias_ih`` and ``bias_hh``.
        batch_first: inputs and outputs are ``(batch, seq, feature)`` instead of ``(seq, batch, feature)``.
        dropout: the dropout probability on the outputs of every layer but the last (training only).
        bidirectional: whether every layer also runs backward in time.
        dtype: the parameter dtype.

    Raises:
        TypeError: when a size or ``num_layers`` is not an int, a flag not a bool, or ``dropout``
            not a float.
        ValueError: when a size or ``num_layers`` is not positive, ``dropout`` is outside [0, 1), or
            ``mode`` is unknown.
    """

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1, has_bias: bool = True,
                 batch_first: bool = False, dropout: float = 0., bidirectional: bool = False,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        validator.check_positive_int(hidden_size, "hidden_size", self.cls_name)
        validator.check_positive_int(input_size, "input_size", self.cls_name)
        validator.check_positive_int(num_layers, "num_layers", self.cls_name)
        if isinstance(dropout, bool) or not isinstance(dropout, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'dropout' must be 'float', but got "
                            f"'{type(dropout).__name__}' ({dropout!r}).")
        if math.isinf(dropout) or math.isnan(dropout):
            raise ValueError(f"For '{self.cls_name}', the 'dropout' must be a legal float, but got '{dropout}'.")
        validator.check_type(has_bias, [bool], "has_bias", self.cls_name)
        validator.check_type(batch_first, [bool], "batch_first", self.cls_name)
        validator.check_type(bidirectional, [bool], "bidirectional", self.cls_name)
        if not 0 <= dropout < 1:
            raise ValueError(f"For '{self.cls_name}', the 'dropout' must be a number in range [0, 1) representing "
                             f"the probability of an element being zeroed, but got {dropout}.")
        if dropout > 0 and num_layers == 1:
            _logger.warning("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                            "expects num_layers greater than 1, but got dropout=%s and num_layers=%s", dropout,
                            num_layers)
        if mode not in _MODES:
            raise ValueError(f"For '{self.cls_name}', the 'mode' must be in {list(_MODES)}, but got {mode}.")
        gate_size = _GATES[mode] * hidden_size
        self.rnn = _LAYER_CELLS[mode]()
        self.hidden_size = hidden_size
        self.batch_first = batch_first
        self.num_layers = num_layers
        self.dropout = dropout
        self.dropout_op = Dropout(p=float(dropout))
        self.bidirectional = bidirectional
        self.has_bias = has_bias
        num_directions = 2 if bidirectional else 1
        self.is_lstm = mode == "LSTM"
        self._mode = mode

        w_ih, w_hh, b_ih, b_hh = [], [], [], []
        stdv = 1 / math.sqrt(hidden_size)

        def draw(shape: tuple, name: str) -> Parameter:
            # numpy's global generator, in MindSpore's order: same seed, same initial weights
            arr = np.random.uniform(-stdv, stdv, shape).astype(np.float32)
            return Parameter(Tensor(arr, dtype=dtype), name=name)

        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else hidden_size * num_directions
                suffix = "_reverse" if direction == 1 else ""
                w_ih.append(draw((gate_size, layer_input_size), f"weight_ih_l{layer}{suffix}"))
                w_hh.append(draw((gate_size, hidden_size), f"weight_hh_l{layer}{suffix}"))
                if has_bias:
                    b_ih.append(draw((gate_size,), f"bias_ih_l{layer}{suffix}"))
                    b_hh.append(draw((gate_size,), f"bias_hh_l{layer}{suffix}"))
        self.w_ih_list = ParameterTuple(w_ih)
        self.w_hh_list = ParameterTuple(w_hh)
        self.b_ih_list = ParameterTuple(b_ih)
        self.b_hh_list = ParameterTuple(b_hh)

    # ------------------------------------------------------------------ checks
    def _check_inputs(self, x: Any, hx: Any, seq_length: Any) -> None:
        name = self.cls_name
        check_is_tensor("x", x, name)
        if x is None:
            raise TypeError(f"For '{name}', the 'x' must be 'Tensor', but got 'NoneType'.")
        rank = as_value(x).shape.rank
        if rank != 3:
            raise ValueError(f"For '{name}', the 'x' must be a 3-D Tensor, but got a {rank}-D Tensor of shape "
                             f"{tuple(as_value(x).shape.as_list())}.")
        if hx is not None:
            if self.is_lstm:
                check_is_tuple("hx", hx, 2, name)
                check_is_tensor("hx[0]", hx[0], name)
                check_is_tensor("hx[1]", hx[1], name)
                args = (("x", x), ("hx[0]", hx[0]), ("hx[1]", hx[1]))
            else:
                check_is_tensor("h", hx, name)
                args = (("x", x), ("hx", hx))
            for arg, val in args:
                check_float_dtype(arg, val, name)
            first = tf_dtype_of(x)
            for arg, val in args[1:]:
                if tf_dtype_of(val) != first:
                    raise TypeError(f"For '{name}', the type of '{arg}' should be same as 'x', but got 'x' with "
                                    f"type {mstype.from_tf_dtype(first)} and '{arg}' with type "
                                    f"{mstype.from_tf_dtype(tf_dtype_of(val))}.")
            self._check_hidden_shape(x, hx)
        if seq_length is not None:
            check_is_tensor("seq_length", seq_length, name)
            check_float_dtype("seq_length", seq_length, name, (tf.int32, tf.int64))
            batch = as_value(x).shape[0 if self.batch_first else 1]
            sl_batch = as_value(seq_length).shape[0] if as_value(seq_length).shape.rank else None
            if batch is not None and sl_batch is not None and batch != sl_batch:
                raise ValueError(f"For '{name}' batch size of x and seq_length must be equal, but got {batch} of x "
                                 f"and {sl_batch} of seq_length.")

    def _check_hidden_shape(self, x: Any, hx: Any) -> None:
        xs = as_value(x).shape.as_list()
        batch = xs[0] if self.batch_first else xs[1]
        expected = [self.num_layers * (2 if self.bidirectional else 1), batch, self.hidden_size]
        for arg, val in ((("hx[0]", hx[0]), ("hx[1]", hx[1])) if self.is_lstm else (("hx", hx),)):
            got = as_value(val).shape.as_list()
            if len(got) != 3 or any(e is not None and g is not None and e != g for e, g in zip(expected, got)):
                raise ValueError(f"For '{self.cls_name}', the shape of '{arg}' must be (num_directions * num_layers, "
                                 f"batch_size, hidden_size) = {tuple(expected)}, but got {tuple(got)}.")

    # ----------------------------------------------------------------- forward
    def _weights(self, index: int, dt: tf.DType) -> tuple:
        w_ih = read_param(self.w_ih_list[index], dt)
        w_hh = read_param(self.w_hh_list[index], dt)
        if not self.has_bias:
            return w_ih, w_hh, None, None
        return w_ih, w_hh, read_param(self.b_ih_list[index], dt), read_param(self.b_hh_list[index], dt)

    def _initial_state(self, index: int, hx: Any) -> Any:
        if self.is_lstm:
            return hx[0][index], hx[1][index]
        return hx[index]

    def _run_direction(self, x: tf.Tensor, state: Any, seq_length: Any, index: int, dt: tf.DType) -> tuple:
        out, h_n = self.rnn(x, state, seq_length, *self._weights(index, dt))
        return tf.convert_to_tensor(out), tf.nest.map_structure(tf.convert_to_tensor, h_n)

    def _stacked(self, x: tf.Tensor, hx: Any, seq_length: tf.Tensor | None, dt: tf.DType) -> tuple:
        """All layers (both directions when bidirectional); returns ``(output, h_n)`` or ``(output, (h_n, c_n))``."""
        num_directions = 2 if self.bidirectional else 1
        pre_layer = x
        h_n, c_n = [], []
        output = x
        for i in range(self.num_layers):
            offset = i * num_directions
            output, h_t = self._run_direction(pre_layer, self._initial_state(offset, hx), seq_length, offset, dt)
            finals = [h_t]
            if self.bidirectional:
                if seq_length is None:
                    x_b = tf.reverse(pre_layer, [0])
                else:
                    x_b = tf.reverse_sequence(pre_layer, seq_length, seq_axis=0, batch_axis=1)
                output_b, h_t_b = self._run_direction(x_b, self._initial_state(offset + 1, hx), seq_length,
                                                      offset + 1, dt)
                if seq_length is None:
                    output_b = tf.reverse(output_b, [0])
                else:
                    output_b = tf.reverse_sequence(output_b, seq_length, seq_axis=0, batch_axis=1)
                output = tf.concat([output, output_b], 2)
                finals.append(h_t_b)
            if self.dropout != 0 and i < self.num_layers - 1:
                pre_layer = tf.convert_to_tensor(self.dropout_op(_wrap(output)))
            else:
                pre_layer = output
            for h_t in finals:
                if self.is_lstm:
                    h_n.append(h_t[0])
                    c_n.append(h_t[1])
                else:
                    h_n.append(h_t)
        if self.is_lstm:
            return output, (tf.stack(h_n), tf.stack(c_n))
        return output, tf.stack(h_n)

    def construct(self, x: Any, hx: Any = None, seq_length: Any = None) -> tuple:
        self._check_inputs(x, hx, seq_length)
        xv = as_value(x)
        x_dtype = xv.dtype
        dt = compute_dtype(self, xv, self.w_ih_list[0]._var.dtype)
        xv = cast_to(xv, dt)
        if self.batch_first:
            xv = tf.transpose(xv, (1, 0, 2))
        num_directions = 2 if self.bidirectional else 1
        if hx is None:
            shape = tf.stack([self.num_layers * num_directions, tf.shape(xv)[1], self.hidden_size])
            zeros = tf.zeros(shape, dt)
            hx = (zeros, zeros) if self.is_lstm else zeros
        else:
            hx = tuple(cast_to(as_value(v), dt) for v in hx) if self.is_lstm else cast_to(as_value(hx), dt)
        sl = None if seq_length is None else as_value(seq_length)
        output, h_n = self._stacked(xv, hx, sl, dt)
        if self.batch_first:
            output = tf.transpose(output, (1, 0, 2))
        if self.is_lstm:
            return _wrap(cast_to(output, x_dtype)), (_wrap(cast_to(h_n[0], x_dtype)), _wrap(cast_to(h_n[1], x_dtype)))
        return _wrap(cast_to(output, x_dtype)), _wrap(cast_to(h_n, x_dtype))


class RNN(_RNNBase):
    r"""Stacked Elman RNN layers: ``h_t = act(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh)``, ``act`` tanh or relu.

    Args:
        input_size: the number of input features.
        hidden_size: the number of hidden features.
        num_layers: the number of stacked layers. Default: 1.
        has_bias: whether every layer has ``bias_ih`` and ``bias_hh``. Default: True.
        batch_first: whether inputs and outputs are ``(batch, seq, feature)``. Default: False.
        dropout: the dropout probability on the outputs of every layer but the last, in [0, 1).
            Default: 0.0.
        bidirectional: whether every layer also runs backward in time. Default: False.
        dtype: the parameter dtype. Default: float32.
        nonlinearity: ``'tanh'`` or ``'relu'`` (keyword only, as in MindSpore). Default: 'tanh'.

    Inputs:
        - **x** (Tensor) - ``(seq_len, batch_size, input_size)`` or, with ``batch_first``,
          ``(batch_size, seq_len, input_size)``; float32 or float16.
        - **hx** (Tensor) - ``(num_directions * num_layers, batch_size, hidden_size)``; zeros when None.
        - **seq_length** (Tensor) - int32/int64 of shape ``(batch_size,)``: the real lengths. Steps past
          a sequence's length keep its state and output zeros. Default: None.

    Outputs:
        A tuple ``(output, hx_n)``: ``output`` is ``(seq_len, batch_size, num_directions * hidden_size)``
        (batch first with ``batch_first``), ``hx_n`` is ``(num_directions * num_layers, batch_size, hidden_size)``.

    Raises:
        TypeError: for an argument of the wrong type (see :class:`_RNNBase`), or inputs that are not
            float16/float32 Tensors of one dtype.
        ValueError: for an argument out of range, or ``nonlinearity`` not 'tanh' or 'relu'.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> net = RNN(10, 16, 2, has_bias=True, batch_first=True, bidirectional=False)
        >>> x = Tensor(np.ones([3, 5, 10]).astype(np.float32))
        >>> h0 = Tensor(np.ones([1 * 2, 3, 16]).astype(np.float32))
        >>> output, hn = net(x, h0)
        >>> output.shape
        (3, 5, 16)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "nonlinearity" in kwargs:
            nonlinearity = kwargs.pop("nonlinearity")
            if nonlinearity == "tanh":
                mode = "RNN_TANH"
            elif nonlinearity == "relu":
                mode = "RNN_RELU"
            else:
                raise ValueError(f"For '{self.cls_name}', the 'nonlinearity' must be in ['tanh', 'relu'], but got "
                                 f"{nonlinearity}.")
        else:
            mode = "RNN_TANH"
        super().__init__(mode, *args, **kwargs)


class GRU(_RNNBase):
    r"""Stacked GRU layers.

    .. math::
        \begin{array}{ll}
            r_t = \sigma(W_{ir} x_t + b_{ir} + W_{hr} h_{(t-1)} + b_{hr}) \\
            z_t = \sigma(W_{iz} x_t + b_{iz} + W_{hz} h_{(t-1)} + b_{hz}) \\
            n_t = \tanh(W_{in} x_t + b_{in} + r_t * (W_{hn} h_{(t-1)}+ b_{hn})) \\
            h_t = (1 - z_t) * n_t + z_t * h_{(t-1)}
        \end{array}

    Args:
        input_size: the number of input features.
        hidden_size: the number of hidden features.
        num_layers: the number of stacked layers. Default: 1.
        has_bias: whether every layer has ``bias_ih`` and ``bias_hh``. Default: True.
        batch_first: whether inputs and outputs are ``(batch, seq, feature)``. Default: False.
        dropout: the dropout probability on the outputs of every layer but the last, in [0, 1).
            Default: 0.0.
        bidirectional: whether every layer also runs backward in time. Default: False.
        dtype: the parameter dtype. Default: float32.

    Inputs:
        - **x** (Tensor) - ``(seq_len, batch_size, input_size)`` (batch first with ``batch_first``).
        - **hx** (Tensor) - ``(num_directions * num_layers, batch_size, hidden_size)``; zeros when None.
        - **seq_length** (Tensor) - int32/int64 of shape ``(batch_size,)``. Default: None.

    Outputs:
        A tuple ``(output, hx_n)`` shaped as for :class:`RNN`.

    Raises:
        TypeError: for an argument of the wrong type, or inputs that are not float16/float32 Tensors.
        ValueError: for an argument out of range.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> net = GRU(10, 16, 2, has_bias=True, batch_first=True, bidirectional=False)
        >>> output, hn = net(Tensor(np.ones([3, 5, 10]).astype(np.float32)))
        >>> hn.shape
        (2, 3, 16)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("GRU", *args, **kwargs)


class LSTM(_RNNBase):
    r"""Stacked LSTM layers.

    .. math::
        \begin{array}{ll}
            i_t = \sigma(W_{ii} x_t + b_{ii} + W_{hi} h_{(t-1)} + b_{hi}) \\
            f_t = \sigma(W_{if} x_t + b_{if} + W_{hf} h_{(t-1)} + b_{hf}) \\
            g_t = \tanh(W_{ig} x_t + b_{ig} + W_{hg} h_{(t-1)} + b_{hg}) \\
            o_t = \sigma(W_{io} x_t + b_{io} + W_{ho} h_{(t-1)} + b_{ho}) \\
            c_t = f_t * c_{(t-1)} + i_t * g_t \\
            h_t = o_t * \tanh(c_t)
        \end{array}

    Args:
        input_size: the number of input features.
        hidden_size: the number of hidden features.
        num_layers: the number of stacked layers. Default: 1.
        has_bias: whether every layer has ``bias_ih`` and ``bias_hh``. Default: True.
        batch_first: whether inputs and outputs are ``(batch, seq, feature)``. Default: False.
        dropout: the dropout probability on the outputs of every layer but the last, in [0, 1).
            Default: 0.0.
        bidirectional: whether every layer also runs backward in time. Default: False.
        dtype: the parameter dtype. Default: float32.

    Inputs:
        - **x** (Tensor) - ``(seq_len, batch_size, input_size)`` (batch first with ``batch_first``).
        - **hx** (tuple) - ``(h_0, c_0)``, each ``(num_directions * num_layers, batch_size, hidden_size)``;
          zeros when None.
        - **seq_length** (Tensor) - int32/int64 of shape ``(batch_size,)``. Default: None.

    Outputs:
        A tuple ``(output, (h_n, c_n))``; ``output`` as for :class:`RNN`, ``h_n`` and ``c_n`` of shape
        ``(num_directions * num_layers, batch_size, hidden_size)``.

    Raises:
        TypeError: for an argument of the wrong type, or ``hx`` not a tuple of two Tensors of the
            input's dtype.
        ValueError: for an argument out of range.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> net = LSTM(10, 16, 2, has_bias=True, batch_first=True, bidirectional=False)
        >>> x = Tensor(np.ones([3, 5, 10]).astype(np.float32))
        >>> h0 = c0 = Tensor(np.ones([1 * 2, 3, 16]).astype(np.float32))
        >>> output, (hn, cn) = net(x, (h0, c0))
        >>> output.shape
        (3, 5, 16)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)
