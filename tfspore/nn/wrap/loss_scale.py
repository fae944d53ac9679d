"""Loss-scaled training: ``TrainOneStepWithLossScaleCell`` and the loss-scale update cells.

``TrainOneStepWithLossScaleCell`` multiplies the loss's output gradient by the loss scale,
divides the gradients back, reduces them across replicas, checks them for inf/NaN (summed over
the replicas of a ``tf.distribute`` strategy, as MindSpore all-reduces the overflow status),
lets the update cell adjust the scale, and runs the optimizer only when nothing overflowed.
In GRAPH_MODE the whole step, the skip included, is one ``tf.function`` (a ``tf.cond``); in
PYNATIVE_MODE it runs eagerly.

Example:
    >>> import numpy as np
    >>> import tfspore as ms
    >>> from tfspore import nn
    >>> net = nn.Dense(3, 2)
    >>> loss_net = nn.WithLossCell(net, nn.MSELoss())
    >>> opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    >>> update = nn.DynamicLossScaleUpdateCell(loss_scale_value=2 ** 12, scale_factor=2, scale_window=1000)
    >>> train = nn.TrainOneStepWithLossScaleCell(loss_net, opt, scale_sense=update)
    >>> loss, overflow, scale = train(ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.ones((4, 2), np.float32)))
"""
from __future__ import annotations

from typing import Any, Sequence

import tensorflow as tf

from tfspore import context as _context
from tfspore._internal import cluster
from tfspore._internal import state as _state
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore._internal.tensor_wrap import unwrap_nest as _unwrap_nest, wrap as _wrap, wrap_nest as _wrap_nest
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.wrap.cell_wrapper import TrainOneStepCell, _forward_and_grads
from tfspore.ops import operations as P
from tfspore.ops.composite import HyperMap

__all__ = ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "TrainOneStepWithLossScaleCell"]


def _raw(x: Any) -> Any:
    """The TF value of ``x``: a ``tf.Variable`` for a Parameter, a ``tf.Tensor`` otherwise."""
    if isinstance(x, Parameter):
        return x._var
    if isinstance(x, Tensor):
        return x._value()
    if isinstance(x, (tf.Tensor, tf.Variable)):
        return x
    return tf.convert_to_tensor(x)


def _read(x: Any) -> tf.Tensor:
    """The current value of ``x`` as a ``tf.Tensor``."""
    return tf.convert_to_tensor(_raw(x))


def _assign(target: Any, value: tf.Tensor) -> Any:
    """Write ``value`` into the Parameter (or variable) ``target``; return the write op (None eagerly)."""
    raw = _raw(target)
    if isinstance(raw, tf.Variable):
        return raw.assign(tf.reshape(tf.cast(value, raw.dtype), tf.shape(raw)), read_value=False)
    if isinstance(target, Tensor):
        target._set_value(tf.cast(value, raw.dtype))
        return None
    raise TypeError(f"For 'Assign', the 'variable' must be a Parameter, but got {type(target).__name__}.")


def _as_bool(x: Any) -> tf.Tensor:
    """``x`` as a scalar bool tensor (``all`` over its elements)."""
    t = tf.convert_to_tensor(_unwrap_nest(x))
    if t.dtype != tf.bool:
        t = tf.not_equal(t, tf.zeros((), t.dtype))
    return tf.reduce_all(t)


def _replica_context() -> Any:
    """The active replica context when it has more than one replica, else None."""
    ctx = cluster.replica_context()  # in a process of a job joined by communication.init(): the job's
    if ctx is None or ctx.num_replicas_in_sync <= 1:
        return None
    return ctx


class DynamicLossScaleUpdateCell(Cell):
    r"""Dynamic loss-scale update: divide on overflow, multiply after ``scale_window`` good steps.

    Called as ``cell(loss_scale, overflow)`` with the loss-scale Parameter; updates it in place
    and returns ``overflow``. Per call, with ``cur`` (``current_iterator_step``, from 1) and
    ``last`` (``last_overflow_iterator_step``, from 0):

    * ``should_inc = cur - last >= scale_window``;
    * on overflow ``scale = max(scale / scale_factor, 1)``; otherwise, when ``should_inc``,
      ``scale = scale * scale_factor``;
    * ``last = cur`` on overflow or ``should_inc``; ``cur += 1``.

    Args:
        loss_scale_value: the initial loss scale.
        scale_factor: the factor of decrease and increase.
        scale_window: the number of steps without overflow before the scale grows.

    Inputs:
        loss_scale: the loss-scale Parameter, shape ``()`` or ``(1,)``.
        overflow: a bool (Tensor): whether the step overflowed.

    Outputs:
        ``overflow``, unchanged.

    Example:
        >>> import tfspore as ms
        >>> from tfspore import nn
        >>> cell = nn.DynamicLossScaleUpdateCell(loss_scale_value=2 ** 12, scale_factor=2, scale_window=1000)
        >>> cell.get_loss_scale()
        4096
    """

    def __init__(self, loss_scale_value: float, scale_factor: int, scale_window: int) -> None:
        super().__init__()
        self.scale_window = Tensor(scale_window, dtype=mstype.int32)
        self.scale_factor = Tensor(scale_factor, dtype=mstype.float32)
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(Tensor(1, dtype=mstype.int32), name="current_iterator_step")
        self.last_overflow_iter = Parameter(Tensor(0, dtype=mstype.int32), name="last_overflow_iterator_step")
        self.minimum_loss_scale = Tensor(1.0, dtype=mstype.float32)

    def get_loss_scale(self) -> float:
        """The initial loss scale value given at construction."""
        return self.loss_scale_value

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # A GRAPH_MODE call from outside a compiled step: the Parameter holding the scale is
        # captured by the compiled function (one per Parameter), so that it is updated in place.
        if (len(args) == 2 and not kwargs and isinstance(args[0], Parameter) and _state.depth() == 0
                and _context._mode() == _context.GRAPH_MODE):
            self._self_check()
            param = args[0]
            fns = self.__dict__.setdefault("_param_fns", {})
            fn = fns.get(id(param._var))
            if fn is None:
                def traced(overflow: tf.Tensor) -> Any:
                    with _state.entered():
                        return _unwrap_nest(self._run((param, _wrap(overflow)), {}))
                fn = tf.function(traced, autograph=False)
                fns[id(param._var)] = fn
            return _wrap_nest(fn(tf.convert_to_tensor(_unwrap_nest(args[1]))))
        return super().__call__(*args, **kwargs)

    def construct(self, loss_scale: Any, overflow: Any) -> Any:
        cond = _as_bool(overflow)
        scale = _read(loss_scale)
        factor = tf.cast(_read(self.scale_factor), scale.dtype)
        lowered = tf.where(cond, tf.maximum(scale * (1.0 / factor), tf.cast(_read(self.minimum_loss_scale),
                                                                               scale.dtype)), scale)
        cur = _read(self.cur_iter)
        last = _read(self.last_overflow_iter)
        should_inc = tf.less_equal(_read(self.scale_window), cur - last)
        _assign(self.last_overflow_iter, tf.where(tf.logical_or(cond, should_inc), cur, last))
        new_scale = tf.where(tf.logical_and(should_inc, tf.logical_not(cond)), lowered * factor, lowered)
        _assign(loss_scale, new_scale)
        _assign(self.cur_iter, cur + 1)
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """Update cell of a fixed loss scale: returns ``overflow`` and never changes the scale.

    Args:
        loss_scale_value: the loss scale.

    Inputs:
        loss_scale: the loss-scale Parameter (ignored).
        overflow: whether the step overflowed.

    Outputs:
        ``overflow``, unchanged.

    Example:
        >>> from tfspore import nn
        >>> nn.FixedLossScaleUpdateCell(loss_scale_value=2 ** 12).get_loss_scale()
        4096
    """

    def __init__(self, loss_scale_value: float) -> None:
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self) -> float:
        """The loss scale value."""
        return self.loss_scale_value

    def construct(self, _: Any, overflow: Any) -> Any:
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    r"""One training step with loss scaling and overflow handling.

    Args:
        network: the network returning the loss (single output).
        optimizer: the optimizer.
        scale_sense: an update Cell (:class:`DynamicLossScaleUpdateCell`,
            :class:`FixedLossScaleUpdateCell` or a user Cell with ``get_loss_scale``), called each
            step to update the scale; or a Tensor of shape ``()`` or ``(1,)``, the scale, which
            :meth:`set_sense_scale` changes.

    Inputs:
        *inputs: the network's inputs.

    Outputs:
        ``(loss, overflow, loss_scale)``: the (unscaled) loss, a bool scalar Tensor that is True
        when a gradient was inf or NaN (on any replica), and the scale after this step's update:
        in PYNATIVE_MODE the ``scale_sense`` Parameter itself, in GRAPH_MODE its value.

    Raises:
        TypeError: when ``scale_sense`` is neither a Cell nor a Tensor.
        ValueError: when a Tensor ``scale_sense`` has a shape other than ``()`` and ``(1,)``.

    Example:
        >>> import tfspore as ms
        >>> from tfspore import nn
        >>> net = nn.Dense(16, 10)
        >>> train = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
        ...                                          nn.Momentum(net.trainable_params(), 0.1, 0.9),
        ...                                          scale_sense=ms.Tensor([1024], ms.float32))
        >>> train.set_sense_scale(ms.Tensor([1], ms.float32))
    """

    def __init__(self, network: Cell, optimizer: Cell, scale_sense: Any) -> None:
        super().__init__(network, optimizer, sens=None)
        # The operators MindSpore's cell holds: subclasses in model-zoo scripts call them in their
        # own construct (``self.hyper_map(F.partial(clip_grad, ...), grads)``, ``self.allreduce``).
        self.hyper_map = HyperMap()
        self.base = Tensor(1, mstype.float32)
        self.base0 = Tensor(0, mstype.int32)
        self.reduce_sum = P.ReduceSum(keep_dims=False)
        self.reduce_all = P.ReduceAll(keep_dims=False)
        self.less_equal = P.LessEqual()
        self.equal = P.Equal()
        self.logic_not = P.LogicalNot()
        self.allreduce = P.AllReduce()
        self.is_distributed = self.parallel_mode != "stand_alone"
        self.gpu_target = False
        self.ascend_910a_target = False
        self.ascend_910b_target = False
        self.enable_allfinite = False
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(scale_sense.get_loss_scale(), dtype=mstype.float32),
                                         name="scale_sense")
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape == (1,) or scale_sense.shape == ():
                self.scale_sense = Parameter(scale_sense, name="scale_sense")
            else:
                raise ValueError("For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' must be (1,) or (), "
                                 f"but got {scale_sense.shape}.")
        else:
            raise TypeError("For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be Cell or Tensor, but got "
                            f"'scale_sense' type: {type(scale_sense)}.")
        self.enable_tuple_broaden = True
        self._get_attr_from_cell(network)

    def construct(self, *inputs: Any) -> tuple:
        weights = list(self.weights)
        scale = _read(self.scale_sense)
        scalar_scale = tf.reshape(scale, [])
        loss, grads = _forward_and_grads(self.network, inputs, weights, _wrap(scalar_scale))
        recip = tf.math.reciprocal(tf.cast(scalar_scale, tf.float32))
        grads = tuple(_wrap(t * tf.cast(recip, t.dtype)) for t in (tf.convert_to_tensor(_unwrap_nest(g)) for g in grads))
        grads = self.grad_reducer(grads)
        status, grads = self.start_overflow_check(loss, grads)
        cond = self.get_overflow_status(status, grads)
        overflow = self.process_loss_scale(cond)
        self._apply_unless_overflow(overflow, grads)
        if tf.executing_eagerly():
            return loss, cond, self.scale_sense
        return loss, cond, _wrap(_read(self.scale_sense))

    def _apply_unless_overflow(self, overflow: Any, grads: Sequence[Any]) -> None:
        """Run the optimizer on ``grads`` only when ``overflow`` is False."""
        flag = _as_bool(overflow)
        if tf.executing_eagerly():
            if not bool(flag.numpy()):
                self.optimizer(grads)
            return
        if tf.distribute.has_strategy() and _replica_context() is not None:  # mirrored variables
            self._apply_masked(flag, grads)
            return

        def apply() -> tf.Tensor:
            result = [t for t in tf.nest.flatten(_unwrap_nest(self.optimizer(grads)))
                      if isinstance(t, (tf.Tensor, tf.Operation))]
            with tf.control_dependencies(result):
                return tf.constant(True)

        tf.cond(flag, lambda: tf.constant(False), apply)

    def _apply_masked(self, flag: tf.Tensor, grads: Sequence[Any]) -> None:
        """Under a multi-replica strategy: update, then restore the state the optimizer changed on overflow.

        Writes to mirrored variables from a replica cannot sit in a ``tf.cond`` branch (they
        synchronise the replicas), so the optimizer runs every step and an overflowed step puts
        back the values read before it. The overflow flag is the same on every replica.
        """
        state = []
        seen = set()
        for p in list(self.optimizer.get_parameters()) + list(self.weights):
            if id(p) not in seen and isinstance(p, Parameter):
                seen.add(id(p))
                state.append(p)
        before = [tf.identity(p._var.read_value()) for p in state]
        with tf.control_dependencies(before):
            result = [t for t in tf.nest.flatten(_unwrap_nest(self.optimizer(grads)))
                      if isinstance(t, (tf.Tensor, tf.Operation))]
        with tf.control_dependencies(result):
            after = [tf.identity(p._var.read_value()) for p in state]
        for p, old, new in zip(state, before, after):
            p._var.assign(tf.where(flag, old, new), read_value=False)

    def set_sense_scale(self, sens: Tensor) -> None:
        """Overwrite the loss scale (``scale_sense`` given as a Tensor).

        Args:
            sens: the new scale, with the shape and dtype of the current one.

        Raises:
            TypeError: when ``sens`` is not a Tensor.
        """
        if self.scale_sense is not None and isinstance(sens, Tensor):
            self.scale_sense.set_data(sens)
        else:
            raise TypeError("For 'TrainOneStepWithLossScaleCell', the type of 'sens' must be Tensor, but got "
                            f"{type(sens)}")

    def start_overflow_check(self, pre_cond: Any, compute_input: Any) -> tuple:
        """Start overflow detection: returns ``(status, compute_input)``.

        TensorFlow checks the gradients themselves for inf/NaN, so there is no device status to
        clear: ``status`` is MindSpore's zero status buffer, ordered after ``pre_cond``.

        Args:
            pre_cond: the computation the detection starts after (e.g. the loss).
            compute_input: the input of the computation to check, returned unchanged.

        Returns:
            ``(status, compute_input)``; pass ``status`` to :meth:`get_overflow_status`.
        """
        status = tf.zeros([8], tf.int32)
        if not tf.executing_eagerly():
            deps = [t for t in tf.nest.flatten(_unwrap_nest(pre_cond)) if isinstance(t, (tf.Tensor, tf.Operation))]
            if deps:
                with tf.control_dependencies(deps):
                    status = tf.identity(status)
        return _wrap(status), compute_input

    def get_overflow_status(self, status: Any, compute_output: Any) -> Tensor:
        """Whether any tensor of ``compute_output`` holds inf or NaN, on any replica.

        Args:
            status: the first output of :meth:`start_overflow_check`.
            compute_output: the tensors to check (e.g. the gradients).

        Returns:
            A bool scalar Tensor.
        """
        flags = [1.0 - tf.cast(tf.reduce_all(tf.math.is_finite(t)), tf.float32)
                 for t in (tf.convert_to_tensor(_unwrap_nest(g)) for g in tf.nest.flatten(
                     _unwrap_nest(compute_output)))
                 if t.dtype.is_floating]
        flag_sum = tf.add_n(flags) if flags else tf.constant(0.0)
        ctx = _replica_context()
        if ctx is not None:
            flag_sum = ctx.all_reduce(tf.distribute.ReduceOp.SUM, flag_sum)
        return _wrap(tf.less_equal(tf.constant(1.0), tf.reshape(flag_sum, [])))

    def process_loss_scale(self, overflow: Any) -> Any:
        """Update the loss scale through the update cell; returns the overflow flag.

        Args:
            overflow: whether the step overflowed.

        Returns:
            The update cell's output (the overflow flag), or ``overflow`` without an update cell.
        """
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow
