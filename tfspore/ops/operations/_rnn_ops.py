"""Sequence primitives: fused recurrent ``DynamicRNN`` (LSTM), ``DynamicGRUV2`` and ``LSTM``, and ``CTCLoss``.

``DynamicRNN`` takes one weight ``w`` of shape ``(input_size + hidden_size, 4 * hidden)`` whose
columns hold the gates in the order ``i, j, f, o`` (``j`` is the cell candidate) and whose rows
are the input rows then the hidden rows, and one bias ``(4 * hidden,)``. ``DynamicGRUV2`` takes
``weight_input (input_size, 3 * hidden)``, ``weight_hidden (hidden, 3 * hidden)`` and two biases,
gates in ``gate_order`` (``'rzh'`` or ``'zrh'``). Both run as one ``tf.scan`` over the steps, with
the input projection of all steps done in one matmul first.

Example:
    >>> import numpy as np
    >>> from tfspore import Tensor, ops
    >>> x = Tensor(np.ones((3, 2, 4), np.float32))
    >>> w, b = Tensor(np.zeros((9, 20), np.float32)), Tensor(np.zeros(20, np.float32))
    >>> h0 = Tensor(np.zeros((1, 2, 5), np.float32))
    >>> ops.DynamicRNN()(x, w, b, None, h0, h0)[0].shape
    (3, 2, 5)
"""
from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from tfspore._internal import validator
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.ops.function._utils import to_tf
from tfspore.ops.primitive import Primitive, prim_attr_register

__all__ = ["DynamicRNN", "DynamicGRUV2", "LSTM", "CTCLoss"]

_FLOATS = (tf.float16, tf.float32)


def _float_input(name: str, arg: str, x: Any) -> tf.Tensor:
    t = to_tf(x, name, arg)
    if t.dtype not in _FLOATS:
        raise TypeError(f"For '{name}', the '{arg}' dtype must be float16 or float32, but got {t.dtype.name}.")
    return t


def _check_no_seq_length(name: str, seq_length: Any) -> None:
    if seq_length is not None:
        raise NotImplementedError(f"For '{name}', only 'seq_length'=None is supported (as in MindSpore), but got "
                                  f"{type(seq_length).__name__}.")


class DynamicRNN(Primitive):
    """An LSTM over a time-major sequence: ``DynamicRNN(...)(x, w, b, seq_length, init_h, init_c)``.

    Returns ``(y, output_h, output_c, i, j, f, o, tanhc)``, each ``(num_step, batch, hidden)``:
    the hidden state, again the hidden state (in ``x``'s dtype), the cell state, the four gate
    activations and ``tanh`` of the cell state at every step.

    Args:
        cell_type: ``'LSTM'``.
        direction: ``'UNIDIRECTIONAL'``.
        cell_depth: accepted (1 layer).
        use_peephole: False (True raises NotImplementedError).
        keep_prob: accepted (no dropout inside the cell).
        cell_clip: clip the cell state to ``[-cell_clip, cell_clip]`` when positive.
        num_proj: 0 (a projection raises NotImplementedError).
        time_major: True.
        activation: ``'tanh'``.
        forget_bias: added to the forget gate's pre-activation.
        is_training: accepted.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for unsupported values, as MindSpore.
    """

    @prim_attr_register
    def __init__(self, cell_type: str = "LSTM", direction: str = "UNIDIRECTIONAL", cell_depth: int = 1,
                 use_peephole: bool = False, keep_prob: float = 1.0, cell_clip: float = -1.0, num_proj: int = 0,
                 time_major: bool = True, activation: str = "tanh", forget_bias: float = 0.0,
                 is_training: bool = True) -> None:
        for arg, v in (("forget_bias", forget_bias), ("keep_prob", keep_prob), ("cell_clip", cell_clip)):
            validator.check_type(v, (float,), arg, self.name, "float")
        for arg, v in (("cell_depth", cell_depth), ("num_proj", num_proj)):
            validator.check_type(v, (int,), arg, self.name, "int")
        for arg, v in (("use_peephole", use_peephole), ("time_major", time_major), ("is_training", is_training)):
            validator.check_type(v, (bool,), arg, self.name, "bool")
        if not 0.0 <= keep_prob <= 1.0:
            raise ValueError(f"For '{self.name}', the 'keep_prob' must be in [0.0, 1.0], but got {keep_prob}.")
        if num_proj < 0:
            raise ValueError(f"For '{self.name}', the 'num_proj' must be a non-negative int, but got {num_proj}.")
        if not time_major:
            raise ValueError(f"For '{self.name}', the 'time_major' must be True, but got {time_major}.")
        validator.check_string(cell_type, ("LSTM",), "cell_type", self.name)
        validator.check_string(direction, ("UNIDIRECTIONAL",), "direction", self.name)
        validator.check_string(activation, ("tanh",), "activation", self.name)
        if use_peephole or num_proj:
            raise NotImplementedError(f"For '{self.name}', tfspore does not implement 'use_peephole' or "
                                      f"'num_proj', but got {use_peephole} and {num_proj}.")

    def __call__(self, x: Any, w: Any, b: Any, seq_length: Any, init_h: Any, init_c: Any) -> tuple:
        name = self.name
        _check_no_seq_length(name, seq_length)
        xt = _float_input(name, "x", x)
        wt, bt = _float_input(name, "w", w), _float_input(name, "b", b)
        h0, c0 = _float_input(name, "init_h", init_h), _float_input(name, "init_c", init_c)
        if xt.shape.rank != 3:
            raise ValueError(f"For '{name}', the 'x' must be 3-D (num_step, batch_size, input_size), but got shape "
                             f"{xt.shape.as_list()}.")
        input_size = xt.shape[2]
        f32 = tf.float32
        wf, bf = tf.cast(wt, f32), tf.cast(bt, f32)
        # all steps' input projections in one matmul: (num_step, batch, 4 * hidden)
        xw = tf.einsum("tbi,ig->tbg", tf.cast(xt, f32), wf[:input_size]) + bf
        w_h = wf[input_size:]
        forget_bias, clip = self.forget_bias, self.cell_clip

        def step(carry: tuple, xg: tf.Tensor) -> tuple:
            h, c = carry[0], carry[1]
            gates = xg + tf.matmul(h, w_h)
            gi, gj, gf, go = tf.split(gates, 4, axis=-1)
            i, j, f, o = tf.sigmoid(gi), tf.tanh(gj), tf.sigmoid(gf + forget_bias), tf.sigmoid(go)
            c_new = f * c + i * j
            if clip > 0:
                c_new = tf.clip_by_value(c_new, -clip, clip)
            tc = tf.tanh(c_new)
            return o * tc, c_new, i, j, f, o, tc

        zeros = tf.zeros_like(tf.cast(h0[0], f32))
        init = (tf.cast(h0[0], f32), tf.cast(c0[0], f32), zeros, zeros, zeros, zeros, zeros)
        hs, cs, i, j, f, o, tc = tf.scan(step, xw, initializer=init)
        out = bt.dtype
        return (_wrap(tf.cast(hs, out)), _wrap(tf.cast(hs, xt.dtype)), _wrap(tf.cast(cs, out)),
                _wrap(tf.cast(i, out)), _wrap(tf.cast(j, out)), _wrap(tf.cast(f, out)), _wrap(tf.cast(o, out)),
                _wrap(tf.cast(tc, out)))


class DynamicGRUV2(Primitive):
    """A GRU over a time-major sequence.

    Called as ``(x, weight_input, weight_hidden, bias_input, bias_hidden, seq_length, init_h)``.

    Returns ``(y, output_h, update, reset, new, hidden_new)``, each ``(num_step, batch, hidden)``:
    the hidden state twice, the update, reset and new gates, and ``W_hn h + b_hn`` at every step.

    Args:
        direction: ``'UNIDIRECTIONAL'``.
        cell_depth: accepted (1 layer).
        keep_prob: accepted (no dropout inside the cell).
        cell_clip: accepted.
        num_proj: 0.
        time_major: True.
        activation: ``'tanh'``.
        gate_order: ``'rzh'`` or ``'zrh'``: the order of the gates in the weights and biases.
        reset_after: apply the reset gate after the hidden matmul (True) or before (False).
        is_training: accepted.
    """

    @prim_attr_register
    def __init__(self, direction: str = "UNIDIRECTIONAL", cell_depth: int = 1, keep_prob: float = 1.0,
                 cell_clip: float = -1.0, num_proj: int = 0, time_major: bool = True, activation: str = "tanh",
                 gate_order: str = "rzh", reset_after: bool = True, is_training: bool = True) -> None:
        for arg, v in (("keep_prob", keep_prob), ("cell_clip", cell_clip)):
            validator.check_type(v, (float,), arg, self.name, "float")
        for arg, v in (("cell_depth", cell_depth), ("num_proj", num_proj)):
            validator.check_type(v, (int,), arg, self.name, "int")
        for arg, v in (("time_major", time_major), ("reset_after", reset_after), ("is_training", is_training)):
            validator.check_type(v, (bool,), arg, self.name, "bool")
        validator.check_string(direction, ("UNIDIRECTIONAL",), "direction", self.name)
        validator.check_string(activation, ("tanh",), "activation", self.name)
        validator.check_string(gate_order, ("zrh", "rzh"), "gate_order", self.name)
        if not time_major:
            raise ValueError(f"For '{self.name}', the 'time_major' must be True, but got {time_major}.")
        if num_proj:
            raise NotImplementedError(f"For '{self.name}', tfspore does not implement 'num_proj', but got "
                                      f"{num_proj}.")

    def __call__(self, x: Any, weight_input: Any, weight_hidden: Any, bias_input: Any, bias_hidden: Any,
                 seq_length: Any, init_h: Any) -> tuple:
        name = self.name
        _check_no_seq_length(name, seq_length)
        xt = _float_input(name, "x", x)
        f32 = tf.float32
        wi = tf.cast(_float_input(name, "weight_input", weight_input), f32)
        wh = tf.cast(_float_input(name, "weight_hidden", weight_hidden), f32)
        bi_t = None if bias_input is None else _float_input(name, "bias_input", bias_input)
        bh_t = None if bias_hidden is None else _float_input(name, "bias_hidden", bias_hidden)
        h0 = _float_input(name, "init_h", init_h)
        out = bi_t.dtype if bi_t is not None else h0.dtype
        bi = tf.zeros([tf.shape(wi)[1]], f32) if bi_t is None else tf.cast(bi_t, f32)
        bh = tf.zeros([tf.shape(wh)[1]], f32) if bh_t is None else tf.cast(bh_t, f32)
        xw = tf.einsum("tbi,ig->tbg", tf.cast(xt, f32), wi) + bi
        rz_first = self.gate_order == "rzh"
        reset_after = self.reset_after

        def split(g: tf.Tensor) -> tuple:
            a, b, n = tf.split(g, 3, axis=-1)
            return (a, b, n) if rz_first else (b, a, n)

        w_hr, w_hz, w_hn = split(wh)
        b_hr, b_hz, b_hn = split(bh)
        w_rz = tf.concat([w_hr, w_hz], axis=1)
        b_rz = tf.concat([b_hr, b_hz], axis=0)

        def step(carry: tuple, xg: tf.Tensor) -> tuple:
            h = carry[0]
            x_r, x_z, x_n = split(xg)
            hr, hz = tf.split(tf.matmul(h, w_rz) + b_rz, 2, axis=-1)
            r, z = tf.sigmoid(x_r + hr), tf.sigmoid(x_z + hz)
            if reset_after:
                hn = tf.matmul(h, w_hn) + b_hn
                n = tf.tanh(x_n + r * hn)
            else:
                hn = tf.matmul(r * h, w_hn) + b_hn
                n = tf.tanh(x_n + hn)
            return (1.0 - z) * n + z * h, z, r, n, hn

        h0f = tf.cast(h0, f32)
        zeros = tf.zeros_like(h0f)
        hs, z, r, n, hn = tf.scan(step, xw, initializer=(h0f, zeros, zeros, zeros, zeros))
        return (_wrap(tf.cast(hs, out)), _wrap(tf.cast(hs, out)), _wrap(tf.cast(z, out)), _wrap(tf.cast(r, out)),
                _wrap(tf.cast(n, out)), _wrap(tf.cast(hn, out)))


class CTCLoss(Primitive):
    """Connectionist temporal classification loss of time-major logits, labels given sparse.

    ``CTCLoss(...)(x, labels_indices, labels_values, sequence_length)`` returns ``(loss, gradient)``:
    the per-sample negative log-likelihood ``(batch,)`` and its gradient with respect to ``x``. The
    blank label is ``num_classes - 1``.

    Args:
        preprocess_collapse_repeated: merge repeated labels before the loss.
        ctc_merge_repeated: let repeated non-blank outputs merge into one label.
        ignore_longer_outputs_than_inputs: give 0 loss (instead of an error) for samples whose labels
            are longer than their inputs.

    Raises:
        TypeError: when an argument is not a bool.
    """

    @prim_attr_register
    def __init__(self, preprocess_collapse_repeated: bool = False, ctc_merge_repeated: bool = True,
                 ignore_longer_outputs_than_inputs: bool = False) -> None:
        for arg, v in (("preprocess_collapse_repeated", preprocess_collapse_repeated),
                       ("ctc_merge_repeated", ctc_merge_repeated),
                       ("ignore_longer_outputs_than_inputs", ignore_longer_outputs_than_inputs)):
            validator.check_type(v, (bool,), arg, self.name, "bool")
        self.init_prim_io_names(inputs=["inputs", "labels_indices", "labels_values", "sequence_length"],
                                outputs=["loss", "gradient"])

    def __call__(self, x: Any, labels_indices: Any, labels_values: Any, sequence_length: Any) -> tuple:
        name = self.name
        xt = to_tf(x, name, "x")
        if xt.dtype not in (tf.float16, tf.float32, tf.float64):
            raise TypeError(f"For '{name}', the 'x' dtype must be float16, float32 or float64, but got "
                            f"{xt.dtype.name}.")
        if xt.shape.rank != 3:
            raise ValueError(f"For '{name}', the 'x' must be 3-D (max_time, batch_size, num_classes), but got shape "
                             f"{xt.shape.as_list()}.")
        xf = xt if xt.dtype != tf.float16 else tf.cast(xt, tf.float32)
        loss, grad = tf.raw_ops.CTCLoss(
            inputs=xf, labels_indices=tf.cast(to_tf(labels_indices, name, "labels_indices"), tf.int64),
            labels_values=tf.cast(to_tf(labels_values, name, "labels_values"), tf.int32),
            sequence_length=tf.cast(to_tf(sequence_length, name, "sequence_length"), tf.int32),
            preprocess_collapse_repeated=self.preprocess_collapse_repeated,
            ctc_merge_repeated=self.ctc_merge_repeated,
            ignore_longer_outputs_than_inputs=self.ignore_longer_outputs_than_inputs)
        return _wrap(tf.cast(loss, xt.dtype)), _wrap(tf.cast(grad, xt.dtype))


def _lstm_ifgo(x: tf.Tensor, h0: tf.Tensor, c0: tf.Tensor, w_ih: tf.Tensor, w_hh: tf.Tensor,
               b: tf.Tensor | None) -> tuple:
    """One LSTM direction over time-major ``x`` with PyTorch / MindSpore ``nn.LSTM`` gates ``i, f, g, o``."""
    xw = tf.einsum("tbi,gi->tbg", x, w_ih)
    if b is not None:
        xw = xw + b
    w_h = tf.transpose(w_hh)

    def step(carry: tuple, xg: tf.Tensor) -> tuple:
        h, c = carry
        gi, gf, gg, go = tf.split(xg + tf.matmul(h, w_h), 4, axis=-1)
        c_new = tf.sigmoid(gf) * c + tf.sigmoid(gi) * tf.tanh(gg)
        return tf.sigmoid(go) * tf.tanh(c_new), c_new

    hs, cs = tf.scan(step, xw, initializer=(h0, c0))
    return hs, hs[-1], cs[-1]


class LSTM(Primitive):
    """A stacked LSTM with one flat weight: ``LSTM(...)(x, h, c, w)`` -> ``(y, h_n, c_n, reserve, state)``.

    ``x`` is ``(seq_len, batch, input_size)``, ``h`` and ``c`` are
    ``(num_layers * num_directions, batch, hidden_size)``, gates ``i, f, g, o``. The flat ``w`` is read in
    MindSpore's CPU layout when its size has one bias per layer and direction (per layer: the input
    weights of every direction, then the hidden weights, then the biases ``b_ih + b_hh``) and in the
    GPU layout when it has two (per layer and direction: ``w_ih, w_hh, b_ih, b_hh``). ``reserve`` and
    ``state`` are placeholders of shape ``(1, 1)``.

    Args:
        input_size: the input features.
        hidden_size: the hidden features.
        num_layers: the stacked layers.
        has_bias: whether ``w`` holds biases.
        bidirectional: run a reverse direction too.
        dropout: accepted (no dropout between layers).

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for a ``w`` whose size fits neither layout.
    """

    @prim_attr_register
    def __init__(self, input_size: int, hidden_size: int, num_layers: int, has_bias: bool, bidirectional: bool,
                 dropout: float, proj_size: int = 0) -> None:
        for arg, v in (("input_size", input_size), ("hidden_size", hidden_size), ("num_layers", num_layers),
                       ("proj_size", proj_size)):
            validator.check_type(v, (int,), arg, self.name, "int")
        for arg, v in (("has_bias", has_bias), ("bidirectional", bidirectional)):
            validator.check_type(v, (bool,), arg, self.name, "bool")
        validator.check_type(dropout, (float,), "dropout", self.name, "float")
        if min(input_size, hidden_size, num_layers) <= 0:
            raise ValueError(f"For '{self.name}', the 'input_size', 'hidden_size' and 'num_layers' must be positive, "
                             f"but got {input_size}, {hidden_size} and {num_layers}.")
        if proj_size:
            raise NotImplementedError(f"For '{self.name}', tfspore does not implement 'proj_size', but got "
                                      f"{proj_size}.")
        self.add_prim_attr("num_directions", 2 if bidirectional else 1)

    def _layout(self, size: int) -> list:
        """Per layer, per direction ``(w_ih, w_hh, [biases])`` as ``(offset, shape)`` pairs."""
        hid, dirs = self.hidden_size, self.num_directions
        gate = 4 * hid
        ins = [self.input_size if layer == 0 else hid * dirs for layer in range(self.num_layers)]
        n_bias = 0
        if self.has_bias:
            base = sum(dirs * gate * (i + hid) for i in ins)
            per = sum(dirs * gate for _ in ins)
            n_bias = {base + per: 1, base + 2 * per: 2}.get(size)
            if n_bias is None:
                raise ValueError(f"For '{self.name}', the size of 'w' must be {base + per} (one bias per layer and "
                                 f"direction) or {base + 2 * per} (two), but got {size}.")
        else:
            expect = sum(dirs * gate * (i + hid) for i in ins)
            if size != expect:
                raise ValueError(f"For '{self.name}', the size of 'w' must be {expect}, but got {size}.")
        plan, off = [], 0
        for i in ins:
            layer = [[None, None, []] for _ in range(dirs)]
            if n_bias == 2:
                for d in range(dirs):
                    layer[d][0] = (off, (gate, i))
                    off += gate * i
                    layer[d][1] = (off, (gate, hid))
                    off += gate * hid
                    layer[d][2] = [(off, (gate,)), (off + gate, (gate,))]
                    off += 2 * gate
            else:
                for d in range(dirs):
                    layer[d][0] = (off, (gate, i))
                    off += gate * i
                for d in range(dirs):
                    layer[d][1] = (off, (gate, hid))
                    off += gate * hid
                if n_bias:
                    for d in range(dirs):
                        layer[d][2] = [(off, (gate,))]
                        off += gate
            plan.append(layer)
        return plan

    def __call__(self, x: Any, h: Any, c: Any, w: Any) -> tuple:
        name = self.name
        xt, ht, ct, wt = (_float_input(name, a, v) for a, v in (("x", x), ("h", h), ("c", c), ("w", w)))
        if xt.shape.rank != 3:
            raise ValueError(f"For '{name}', the 'x' must be 3-D (seq_len, batch, input_size), but got shape "
                             f"{xt.shape.as_list()}.")
        flat = tf.reshape(tf.cast(wt, tf.float32), [-1])
        size = wt.shape.num_elements()
        if size is None:
            raise ValueError(f"For '{name}', the shape of 'w' must be known, but got {wt.shape}.")
        plan = self._layout(int(size))
        take = lambda spec: tf.reshape(flat[spec[0]:spec[0] + int(np.prod(spec[1]))], spec[1])  # noqa: E731
        inp = tf.cast(xt, tf.float32)
        h32, c32 = tf.cast(ht, tf.float32), tf.cast(ct, tf.float32)
        hn, cn = [], []
        for li, layer in enumerate(plan):
            outs = []
            for d, (wi, wh, bs) in enumerate(layer):
                k = li * self.num_directions + d
                b = None
                for spec in bs:
                    b = take(spec) if b is None else b + take(spec)
                seq = inp if d == 0 else tf.reverse(inp, [0])
                ys, hk, ck = _lstm_ifgo(seq, h32[k], c32[k], take(wi), take(wh), b)
                outs.append(ys if d == 0 else tf.reverse(ys, [0]))
                hn.append(hk)
                cn.append(ck)
            inp = outs[0] if len(outs) == 1 else tf.concat(outs, axis=-1)
        dt = xt.dtype
        placeholder = tf.zeros([1, 1], dt)
        return (_wrap(tf.cast(inp, dt)), _wrap(tf.cast(tf.stack(hn), dt)), _wrap(tf.cast(tf.stack(cn), dt)),
                _wrap(placeholder), _wrap(placeholder))
