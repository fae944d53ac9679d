"""Recurrent cells: ``RNNCell``, ``LSTMCell``, ``GRUCell`` (MindSpore's ``mindspore.nn.layer.rnn_cells``).

A cell computes one time step. The gate math is MindSpore's (and PyTorch's): the LSTM gates are
stacked in the order input, forget, cell, output; the GRU gates in the order reset, update, new.

Example:
    >>> import numpy as np
    >>> from tfspore import nn, Tensor
    >>> cell = nn.GRUCell(3, 4)
    >>> cell(Tensor(np.ones((2, 3), np.float32)), Tensor(np.zeros((2, 4), np.float32))).shape
    (2, 4)
"""
from __future__ import annotations

import logging
import math
from typing import Any, Sequence

import numpy as np
import tensorflow as tf

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.initializer import Uniform, initializer
from tfspore.common.parameter import Parameter
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import cast_to, compute_dtype, read_param
from tfspore.ops.function.kernel_dtype import fast_matmul

__all__ = ["LSTMCell", "GRUCell", "RNNCell"]

_logger = logging.getLogger("tfspore")

_FLOAT_TYPES = (tf.float32, tf.float16)


# ----------------------------------------------------------------------------- input checks
def _is_tensor(value: Any) -> bool:
    return isinstance(value, (Tensor, tf.Tensor, tf.Variable))


def check_is_tensor(name: str, value: Any, cls_name: str) -> None:
    """Raise TypeError unless ``value`` is None or a Tensor."""
    if value is not None and not _is_tensor(value):
        raise validator.type_error(value, name, cls_name, "a Tensor")


def check_is_tuple(name: str, value: Any, length: int, cls_name: str) -> None:
    """Raise TypeError unless ``value`` is a tuple (or list) of ``length`` items."""
    if not isinstance(value, (tuple, list)) or len(value) != length:  # MindSpore: TypeError for the length too
        raise validator.type_error(value, name, cls_name, f"a tuple of {length} Tensors")


def tf_dtype_of(value: Any) -> tf.DType:
    """The TensorFlow dtype of a Tensor, Parameter or ``tf.Tensor``."""
    if isinstance(value, Tensor):
        return value.dtype.tf_dtype
    return tf.as_dtype(value.dtype)


def check_float_dtype(name: str, value: Any, cls_name: str, valid: Sequence[tf.DType] = _FLOAT_TYPES) -> None:
    """Raise TypeError unless the dtype of ``value`` is one of ``valid``."""
    dt = tf_dtype_of(value)
    if dt not in valid:
        names = [str(mstype.from_tf_dtype(d)) for d in valid]
        raise TypeError(f"For '{cls_name}', the '{name}' should be one of {names}, but got "
                        f"'{mstype.from_tf_dtype(dt)}'.")


def as_value(x: Any) -> tf.Tensor:
    """The ``tf.Tensor`` behind a Tensor, Parameter or tf value."""
    if isinstance(x, tf.Tensor):
        return x
    return tf.convert_to_tensor(x)


# ----------------------------------------------------------------------------- gate math
def _matmul_t(x: tf.Tensor, w: tf.Tensor) -> tf.Tensor:
    return fast_matmul(x, w, transpose_b=True)


def rnn_tanh_cell(inputs: tf.Tensor, hidden: tf.Tensor, w_ih: tf.Tensor, w_hh: tf.Tensor,
                  b_ih: tf.Tensor | None, b_hh: tf.Tensor | None) -> tf.Tensor:
    """``tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)`` on ``tf.Tensor``s."""
    igates, hgates = _matmul_t(inputs, w_ih), _matmul_t(hidden, w_hh)
    if b_ih is not None:
        igates, hgates = igates + b_ih, hgates + b_hh
    return tf.tanh(igates + hgates)


def rnn_relu_cell(inputs: tf.Tensor, hidden: tf.Tensor, w_ih: tf.Tensor, w_hh: tf.Tensor,
                  b_ih: tf.Tensor | None, b_hh: tf.Tensor | None) -> tf.Tensor:
    """``relu(x W_ih^T + b_ih + h W_hh^T + b_hh)`` on ``tf.Tensor``s."""
    igates, hgates = _matmul_t(inputs, w_ih), _matmul_t(hidden, w_hh)
    if b_ih is not None:
        igates, hgates = igates + b_ih, hgates + b_hh
    return tf.nn.relu(igates + hgates)


def lstm_gates(gates: tf.Tensor, cx: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
    """The LSTM update from the summed gate pre-activations ``(i, f, g, o)`` and the cell state."""
    ingate, forgetgate, cellgate, outgate = tf.split(gates, 4, axis=1)
    ingate = tf.sigmoid(ingate)
    forgetgate = tf.sigmoid(forgetgate)
    cellgate = tf.tanh(cellgate)
    outgate = tf.sigmoid(outgate)
    cy = forgetgate * cx + ingate * cellgate
    hy = outgate * tf.tanh(cy)
    return hy, cy


def lstm_cell(inputs: tf.Tensor, hidden: tuple[tf.Tensor, tf.Tensor], w_ih: tf.Tensor, w_hh: tf.Tensor,
              b_ih: tf.Tensor | None, b_hh: tf.Tensor | None) -> tuple[tf.Tensor, tf.Tensor]:
    """One LSTM step on ``tf.Tensor``s; returns ``(h', c')``."""
    hx, cx = hidden
    gates = _matmul_t(inputs, w_ih) + _matmul_t(hx, w_hh)
    if b_ih is not None:
        gates = gates + b_ih + b_hh
    return lstm_gates(gates, cx)


def gru_gates(gi: tf.Tensor, gh: tf.Tensor, hidden: tf.Tensor) -> tf.Tensor:
    """The GRU update from the input part ``gi`` and hidden part ``gh`` of the gates ``(r, z, n)``."""
    i_r, i_i, i_n = tf.split(gi, 3, axis=1)
    h_r, h_i, h_n = tf.split(gh, 3, axis=1)
    resetgate = tf.sigmoid(i_r + h_r)
    inputgate = tf.sigmoid(i_i + h_i)
    newgate = tf.tanh(i_n + resetgate * h_n)
    return newgate + inputgate * (hidden - newgate)


def gru_cell(inputs: tf.Tensor, hidden: tf.Tensor, w_ih: tf.Tensor, w_hh: tf.Tensor,
             b_ih: tf.Tensor | None, b_hh: tf.Tensor | None) -> tf.Tensor:
    """One GRU step on ``tf.Tensor``s."""
    gi, gh = _matmul_t(inputs, w_ih), _matmul_t(hidden, w_hh)
    if b_ih is not None:
        gi, gh = gi + b_ih, gh + b_hh
    return gru_gates(gi, gh, hidden)


# ----------------------------------------------------------------------------- cells
class RNNCellBase(Cell):
    """The base of the recurrent cells: ``weight_ih``, ``weight_hh`` (and ``bias_ih``, ``bias_hh``).

    Every parameter is drawn from ``Uniform(1/sqrt(hidden_size))``.

    Args:
        input_size: the number of input features.
        hidden_size: the number of hidden features.
        has_bias: whether the cell has ``bias_ih`` and ``bias_hh``.
        num_chunks: the number of gates (1 for RNN, 3 for GRU, 4 for LSTM).
        dtype: the parameter dtype.

    Raises:
        TypeError: when ``has_bias`` is not a bool or a size is not an int.
        ValueError: when a size is not positive.
    """

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool, num_chunks: int,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        validator.check_type(has_bias, [bool], "has_bias", self.cls_name)
        validator.check_positive_int(hidden_size, "hidden_size", self.cls_name)
        validator.check_positive_int(input_size, "input_size", self.cls_name)
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.has_bias = has_bias
        gate = num_chunks * hidden_size
        # MindSpore draws placeholder values from numpy's global generator before resetting them;
        # drawing them too keeps numpy's random stream in step with MindSpore's.
        np.random.randn(gate, input_size)
        np.random.randn(gate, hidden_size)
        shapes = [("weight_ih", (gate, input_size)), ("weight_hh", (gate, hidden_size))]
        if has_bias:
            np.random.randn(gate)
            np.random.randn(gate)
            shapes += [("bias_ih", (gate,)), ("bias_hh", (gate,))]
        stdv = 1 / math.sqrt(hidden_size)
        for name, shape in shapes:
            setattr(self, name, Parameter(initializer(Uniform(stdv), shape, dtype), name=name))
        if not has_bias:
            self.bias_ih = None
            self.bias_hh = None

    def reset_parameters(self, dtype: Any = mstype.float32) -> None:
        """Draw every parameter again from ``Uniform(1/sqrt(hidden_size))``."""
        stdv = 1 / math.sqrt(self.hidden_size)
        for weight in self.get_parameters():
            weight.set_data(initializer(Uniform(stdv), weight.shape, dtype))

    def _weights(self, dt: tf.DType) -> tuple:
        b_ih = read_param(self.bias_ih, dt) if self.has_bias else None
        b_hh = read_param(self.bias_hh, dt) if self.has_bias else None
        return read_param(self.weight_ih, dt), read_param(self.weight_hh, dt), b_ih, b_hh

    def _compute_dtype(self, x: tf.Tensor) -> tf.DType:
        return compute_dtype(self, x, self.weight_ih._var.dtype)


class RNNCell(RNNCellBase):
    r"""An Elman RNN cell: ``h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh)`` with ``act`` tanh or relu.

    Args:
        input_size: the number of input features.
        hidden_size: the number of hidden features.
        has_bias: whether the cell has ``bias_ih`` and ``bias_hh``.
        nonlinearity: ``'tanh'`` or ``'relu'``.
        dtype: the parameter dtype.

    Inputs:
        - **x** (Tensor) - shape ``(batch_size, input_size)``, float32 or float16.
        - **hx** (Tensor) - shape ``(batch_size, hidden_size)``, float32 or float16.

    Outputs:
        Tensor of shape ``(batch_size, hidden_size)``.

    Raises:
        TypeError: when a size is not an int, ``has_bias`` not a bool or ``nonlinearity`` not a str;
            at call time, when ``x`` or ``hx`` is not a float16/float32 Tensor.
        ValueError: when a size is not positive or ``nonlinearity`` is not 'tanh' or 'relu'.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> net = RNNCell(10, 16)
        >>> net(Tensor(np.ones((3, 10), np.float32)), Tensor(np.ones((3, 16), np.float32))).shape
        (3, 16)
    """

    _non_linearity = ["tanh", "relu"]

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True, nonlinearity: str = "tanh",
                 dtype: Any = mstype.float32) -> None:
        super().__init__(input_size, hidden_size, has_bias, num_chunks=1, dtype=dtype)
        validator.check_type(nonlinearity, [str], "nonlinearity", self.cls_name)
        validator.check_string(nonlinearity, self._non_linearity, "nonlinearity", self.cls_name)
        self.nonlinearity = nonlinearity

    def construct(self, x: Any, hx: Any) -> Tensor:
        check_is_tensor("x", x, self.cls_name)
        check_is_tensor("hx", hx, self.cls_name)
        check_float_dtype("x", x, self.cls_name)
        check_float_dtype("hx", hx, self.cls_name)
        xv, hv = as_value(x), as_value(hx)
        dt = self._compute_dtype(xv)
        fn = rnn_tanh_cell if self.nonlinearity == "tanh" else rnn_relu_cell
        return _wrap(fn(cast_to(xv, dt), cast_to(hv, dt), *self._weights(dt)))


class LSTMCell(RNNCellBase):
    r"""A long short-term memory cell.

    .. math::
        \begin{array}{ll}
            i = \sigma(W_{ii} x + b_{ii} + W_{hi} h + b_{hi}) \\
            f = \sigma(W_{if} x + b_{if} + W_{hf} h + b_{hf}) \\
            g = \tanh(W_{ig} x + b_{ig} + W_{hg} h + b_{hg}) \\
            o = \sigma(W_{io} x + b_{io} + W_{ho} h + b_{ho}) \\
            c' = f * c + i * g \\
            h' = o * \tanh(c')
        \end{array}

    Args:
        input_size: the number of input features.
        hidden_size: the number of hidden features.
        has_bias: whether the cell has ``bias_ih`` and ``bias_hh``.
        dtype: the parameter dtype.

    Inputs:
        - **x** (Tensor) - shape ``(batch_size, input_size)``.
        - **hx** (tuple) - ``(h, c)``, each of shape ``(batch_size, hidden_size)``.

    Outputs:
        A tuple ``(h', c')`` of Tensors of shape ``(batch_size, hidden_size)``.

    Raises:
        TypeError: when a size is not an int or ``has_bias`` not a bool; at call time, when ``x`` is
            not a Tensor or ``hx`` not a tuple of two float16/float32 Tensors.
        ValueError: when a size is not positive, or for the arguments of the old (before 1.6)
            ``LSTMCell`` (``batch_size``, ``dropout``, ``bidirectional``).

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> net = LSTMCell(10, 16)
        >>> h = c = Tensor(np.ones((3, 16), np.float32))
        >>> hy, cy = net(Tensor(np.ones((3, 10), np.float32)), (h, c))
        >>> hy.shape
        (3, 16)
    """

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True, dtype: Any = mstype.float32,
                 *args: Any, **kwargs: Any) -> None:
        _logger.warning("LSTMCell has been changed from 'single LSTM layer' to 'single LSTM cell', if you still "
                        "need use single LSTM layer, please use `nn.LSTM` instead.")
        if args or any(k in kwargs for k in ("batch_size", "dropout", "bidirectional")):
            raise ValueError("The arguments of `nn.LSTMCell` from old MindSpore version(<1.6) are detected, if you "
                             "still need use single LSTM layer, please use `nn.LSTM` instead (got extra arguments "
                             f"{args + tuple(kwargs)}).")
        if kwargs:
            raise TypeError(f"For 'LSTMCell', got unexpected keyword arguments {sorted(kwargs)}.")
        super().__init__(input_size, hidden_size, has_bias, num_chunks=4, dtype=dtype)
        self.support_non_tensor_inputs = True

    def construct(self, x: Any, hx: Any) -> tuple[Tensor, Tensor]:
        check_is_tensor("x", x, self.cls_name)
        check_is_tuple("hx", hx, 2, self.cls_name)
        check_is_tensor("hx[0]", hx[0], self.cls_name)
        check_is_tensor("hx[1]", hx[1], self.cls_name)
        check_float_dtype("x", x, self.cls_name)
        check_float_dtype("hx[0]", hx[0], self.cls_name)
        check_float_dtype("hx[1]", hx[1], self.cls_name)
        xv = as_value(x)
        dt = self._compute_dtype(xv)
        h, c = (cast_to(as_value(v), dt) for v in hx)
        hy, cy = lstm_cell(cast_to(xv, dt), (h, c), *self._weights(dt))
        return _wrap(hy), _wrap(cy)


class GRUCell(RNNCellBase):
    r"""A gated recurrent unit cell.

    .. math::
        \begin{array}{ll}
            r = \sigma(W_{ir} x + b_{ir} + W_{hr} h + b_{hr}) \\
            z = \sigma(W_{iz} x + b_{iz} + W_{hz} h + b_{hz}) \\
            n = \tanh(W_{in} x + b_{in} + r * (W_{hn} h + b_{hn})) \\
            h' = (1 - z) * n + z * h
        \end{array}

    Args:
        input_size: the number of input features.
        hidden_size: the number of hidden features.
        has_bias: whether the cell has ``bias_ih`` and ``bias_hh``.
        dtype: the parameter dtype.

    Inputs:
        - **x** (Tensor) - shape ``(batch_size, input_size)``.
        - **hx** (Tensor) - shape ``(batch_size, hidden_size)``.

    Outputs:
        Tensor of shape ``(batch_size, hidden_size)``.

    Raises:
        TypeError: when a size is not an int or ``has_bias`` not a bool; at call time, when ``x`` or
            ``hx`` is not a float16/float32 Tensor.
        ValueError: when a size is not positive.

    Example:
        >>> import numpy as np
        >>> from tfspore import Tensor
        >>> net = GRUCell(10, 16)
        >>> net(Tensor(np.ones((3, 10), np.float32)), Tensor(np.ones((3, 16), np.float32))).shape
        (3, 16)
    """

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype: Any = mstype.float32) -> None:
        super().__init__(input_size, hidden_size, has_bias, num_chunks=3, dtype=dtype)

    def construct(self, x: Any, hx: Any) -> Tensor:
        check_is_tensor("x", x, self.cls_name)
        check_is_tensor("hx", hx, self.cls_name)
        check_float_dtype("x", x, self.cls_name)
        check_float_dtype("hx", hx, self.cls_name)
        xv, hv = as_value(x), as_value(hx)
        dt = self._compute_dtype(xv)
        return _wrap(gru_cell(cast_to(xv, dt), cast_to(hv, dt), *self._weights(dt)))
