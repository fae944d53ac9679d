"""Training wrappers: ``WithLossCell``, ``WithEvalCell``, ``WithGradCell``, ``ForwardValueAndGrad``,
``TrainOneStepCell``.

The wrappers have ``auto_prefix=False``, so wrapping a network does not change its parameter
names. ``TrainOneStepCell`` runs the forward pass once under a ``tf.GradientTape``, fills the
sensitivity to the loss's shape, reduces the gradients through ``grad_reducer`` and applies the
optimizer; in GRAPH_MODE the whole step is one ``tf.function``.

Example:
    >>> from tfspore import nn
    >>> net = nn.Dense(3, 2)
    >>> loss_net = nn.WithLossCell(net, nn.MSELoss())
    >>> train = nn.TrainOneStepCell(loss_net, nn.Momentum(net.trainable_params(), 0.1, 0.9))
    >>> [p.name for p in train.get_parameters()][:2]
    ['weight', 'bias']
"""
from __future__ import annotations

import logging
import numbers
from types import FunctionType, MethodType
from typing import Any, Sequence

import tensorflow as tf

from tfspore._internal import data_parallel
from tfspore._internal import validator
from tfspore.common.parameter import Parameter, ParameterTuple
from tfspore._internal.tensor_wrap import unwrap_nest as _unwrap_nest, wrap as _wrap, wrap_nest as _wrap_nest
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer._utils import to_tf
from tfspore.nn.layer.basic import Identity
from tfspore.nn.wrap.grad_reducer import DistributedGradReducer
from tfspore.ops.composite import GradOperation
from tfspore.ops.composite.tape import apply_param_hooks, differentiate

__all__ = ["WithLossCell", "WithEvalCell", "WithGradCell", "ForwardValueAndGrad", "TrainOneStepCell"]
__all__ += ["MicroBatchInterleaved", "PipelineCell", "VirtualDatasetCellTriple", "ParameterUpdate",
            "GradAccumulationCell"]


def _depend(value: Any, expr: Any) -> Any:
    """Return ``value`` ordered after ``expr`` (MindSpore's ``ops.depend``)."""
    if tf.executing_eagerly():
        return value
    deps = [t for t in tf.nest.flatten(_unwrap_nest(expr)) if isinstance(t, (tf.Tensor, tf.Operation))]
    if not deps:
        return value
    with tf.control_dependencies(deps):
        return _wrap_nest(tf.nest.map_structure(tf.identity, _unwrap_nest(value)))


def _forward_and_grads(network: Any, inputs: Sequence[Any], weights: Sequence[Parameter],
                       sens: Any) -> tuple[Any, tuple]:
    """Run ``network(*inputs)`` once under a tape; return (loss, gradients of ``weights``).

    The output gradient is ``sens`` broadcast to the loss's shape and dtype (1.0 when None).
    """
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        for w in weights:
            tape.watch(w._var)
        loss = network(*inputs)
    targets = [tf.convert_to_tensor(t) for t in tf.nest.flatten(_unwrap_nest(loss))]
    targets = [t for t in targets if t.dtype.is_floating or t.dtype.is_complex]
    fill = 1.0 if sens is None else sens
    out_grads = [tf.fill(tf.shape(t), tf.cast(fill, t.dtype)) if not isinstance(fill, (Tensor, tf.Tensor))
                 else tf.broadcast_to(tf.cast(tf.convert_to_tensor(_unwrap_nest(fill)), t.dtype), tf.shape(t))
                 for t in targets]
    grads = tape.gradient(targets, [w._var for w in weights], output_gradients=out_grads,
                          unconnected_gradients=tf.UnconnectedGradients.ZERO)
    grads = [tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g for g in grads]
    grads = apply_param_hooks(list(weights), grads)
    return _wrap_nest(loss), tuple(_wrap(g) for g in grads)


class WithLossCell(Cell):
    """Wrap a backbone and a loss: ``loss_fn(backbone(data), label)``.

    Args:
        backbone: the network.
        loss_fn: the loss Cell.

    Inputs:
        data: the backbone's input.
        label: the target.

    Example:
        >>> from tfspore import nn
        >>> WithLossCell(nn.Dense(2, 2), nn.MSELoss()).backbone_network
        Dense(input_channels=2, output_channels=2, has_bias=True)
    """

    def __init__(self, backbone: Cell, loss_fn: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn
        self._get_attr_from_cell(backbone)

    def construct(self, data: Any, label: Any) -> Any:
        out = self._backbone(data)
        return self._loss_fn(out, label)

    @property
    def backbone_network(self) -> Cell:
        """The backbone network."""
        return self._backbone


class WithEvalCell(Cell):
    """Wrap a network and a loss for evaluation: returns ``(loss, outputs, label)``.

    Args:
        network: the network.
        loss_fn: the loss Cell.
        add_cast_fp32: cast the outputs (and floating labels) to float32 before the loss.

    Raises:
        TypeError: when ``add_cast_fp32`` is not a bool.

    Example:
        >>> from tfspore import nn
        >>> cell = WithEvalCell(nn.Dense(2, 2), nn.MSELoss())
    """

    def __init__(self, network: Cell, loss_fn: Cell, add_cast_fp32: bool = False) -> None:
        super().__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = validator.check_type(add_cast_fp32, [bool], "add_cast_fp32", self.cls_name)
        self._get_attr_from_cell(network)

    def construct(self, data: Any, label: Any) -> tuple:
        outputs = self._network(data)
        if self.add_cast_fp32:
            lab = tf.convert_to_tensor(_unwrap_nest(label))
            if lab.dtype.is_floating:
                label = _wrap(tf.cast(lab, tf.float32))
            outputs = _wrap_nest(tf.nest.map_structure(lambda t: tf.cast(t, tf.float32), _unwrap_nest(outputs)))
        loss = self._loss_fn(outputs, label)
        return loss, outputs, label


class WithGradCell(Cell):
    """Compute the gradients of the (network + loss) with respect to the trainable parameters.

    Args:
        network: the network.
        loss_fn: the loss; None when ``network`` already returns the loss.
        sens: the sensitivity (output gradient); None for 1.

    Outputs:
        A tuple of gradients, one per trainable parameter.

    Example:
        >>> from tfspore import nn
        >>> grads_cell = WithGradCell(nn.Dense(2, 2), nn.MSELoss())
    """

    def __init__(self, network: Cell, loss_fn: Cell | None = None, sens: Any = None) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self.loss_fn = loss_fn
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = GradOperation(get_by_list=True, sens_param=sens is not None)
        self.sens = sens
        if loss_fn is None:
            self.network_with_loss = network
        else:
            self.network_with_loss = WithLossCell(self.network, self.loss_fn)
        self.network_with_loss.set_train()
        self._get_attr_from_cell(network)

    def construct(self, *inputs: Any) -> tuple:
        if self.sens is None:
            return self.grad(self.network_with_loss, self.weights)(*inputs)
        return self.grad(self.network_with_loss, self.weights)(*inputs, self.sens)


class ForwardValueAndGrad(Cell):
    """Run a network and return ``(output, gradients)`` in one pass.

    Args:
        network: a Cell or function.
        weights: the Parameters to differentiate when ``get_by_list``.
        get_all: differentiate with respect to all inputs (else the first).
        get_by_list: differentiate with respect to ``weights``.
        sens_param: the last input is the sensitivity (output gradient).

    Outputs:
        ``(output, grads)``: grads as GradOperation returns them for the flags.

    Raises:
        TypeError: for a network that is not a Cell or function, non-bool flags, or
            ``get_by_list`` without a sequence of weights.

    Example:
        >>> from tfspore import nn
        >>> net = nn.Dense(2, 2)
        >>> fvg = ForwardValueAndGrad(net, net.trainable_params(), get_by_list=True)
    """

    def __init__(self, network: Any, weights: Any = None, get_all: bool = False, get_by_list: bool = False,
                 sens_param: bool = False) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(network, (Cell, FunctionType, MethodType)):
            raise TypeError(f"For 'ForwardValueAndGrad', the argument 'network' must be cell, function type or "
                            f"method type, but got '{type(network)}'")
        if not isinstance(get_all, bool):
            raise TypeError(f"For 'ForwardValueAndGrad', the type of 'get_all' must be bool, but got "
                            f"'{type(get_all)}'")
        if not isinstance(get_by_list, bool):
            raise TypeError(f"For 'ForwardValueAndGrad', the type of 'get_by_list' must be bool, but got "
                            f"'{type(get_by_list)}'")
        if get_by_list and not isinstance(weights, (ParameterTuple, tuple, list)):
            raise TypeError(f"For 'ForwardValueAndGrad', when 'get_by_list' is set to True, the argument 'weights' "
                            f"must be Parameters array, but got '{type(weights)}'")
        self.network = network
        if isinstance(network, Cell):
            self.network.set_grad()
        self.weights = weights
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        self.grad = GradOperation(get_all=self.get_all, get_by_list=self.get_by_list, sens_param=self.sens_param)
        self._get_attr_from_cell(network)

    def construct(self, *inputs: Any) -> tuple:
        sens = None
        if self.sens_param:
            inputs, sens = inputs[:-1], inputs[-1]
        positions = list(range(len(inputs))) if self.get_all else ([0] if inputs else [])
        weights = list(self.weights) if self.get_by_list else []
        out, in_g, w_g = differentiate(self.network, inputs, positions, weights, sens)
        in_t = tuple(_wrap_nest(g) for g in in_g)
        w_t = tuple(_wrap_nest(g) for g in w_g)
        if self.get_by_list:
            grads = (in_t, w_t) if self.get_all else w_t
        elif self.get_all:
            grads = in_t
        else:
            grads = in_t[0] if in_t else ()
        return _wrap_nest(out), grads


class TrainOneStepCell(Cell):
    """One training step: forward, backward, gradient reduction and optimizer update.

    Args:
        network: the network returning the loss (e.g. a :class:`WithLossCell`).
        optimizer: the optimizer; its ``parameters`` are the weights differentiated.
        sens: the sensitivity filled to the loss's shape; None means 1.0.
        return_grad: also return a dict of parameter name to gradient.

    Inputs:
        *inputs: the network's inputs.

    Outputs:
        The loss (and, with ``return_grad``, the gradient dict).

    Raises:
        ValueError: when ``sens`` is 0.

    Example:
        >>> from tfspore import nn
        >>> net = nn.Dense(2, 2)
        >>> train = TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    """

    def __init__(self, network: Cell, optimizer: Cell, sens: Any = None, return_grad: bool = False) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = self.optimizer.parameters
        self.grad = GradOperation(get_by_list=True, sens_param=True)
        self.grad_no_sens = GradOperation(get_by_list=True)
        if sens is not None and not isinstance(sens, (numbers.Number, Tensor)):
            raise TypeError(f"For 'TrainOneStepCell', the 'sens' must be a number, but got {type(sens).__name__}.")
        if isinstance(sens, numbers.Number) and sens == 0:
            raise ValueError("The input argument of 'sens' can not be 0.")
        self.sense_flag = sens is not None
        self.sens = 1.0 if sens is None else sens
        self.return_grad = return_grad
        if return_grad:
            self.weights_name = [p.name for p in self.optimizer.parameters]
        self.reducer_flag = False
        self.grad_reducer = Identity()
        self.parallel_mode = data_parallel.parallel_mode()
        self.reducer_flag = self.parallel_mode in ("data_parallel", "hybrid_parallel")
        if self.reducer_flag:
            self.mean = data_parallel.gradients_mean()
            self.degree = data_parallel.device_num()
            self.grad_reducer = DistributedGradReducer(self.weights, self.mean, self.degree)
        self._get_attr_from_cell(network)

    def construct(self, *inputs: Any) -> Any:
        loss, grads = _forward_and_grads(self.network, inputs, list(self.weights),
                                         self.sens if self.sense_flag else None)
        grads = self.grad_reducer(grads)
        loss = _depend(loss, self.optimizer(grads))
        if self.return_grad:
            return loss, {name: g for name, g in zip(self.weights_name, grads)}
        return loss


class _VirtualDatasetCell(Cell):
    """Marks the data-parallel dataset input of ``backbone`` (MindSpore's auto-parallel helper); calls it unchanged.

    Under ``tf.distribute`` each replica already receives its own part of the batch.

    Args:
        backbone: the network.
    """

    def __init__(self, backbone: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._get_attr_from_cell(backbone)

    def construct(self, *inputs: Any) -> Any:
        return self._backbone(*inputs)


# ------------------------------------------------- micro-batch wrappers (one device: slice, run, add)
class VirtualDatasetCellTriple(Cell):
    """The deprecated three-input form of ``_VirtualDatasetCell``.

    Args:
        backbone: the network, called with three inputs.

    Example:
        >>> VirtualDatasetCellTriple(nn.Identity())  # doctest: +SKIP
    """

    def __init__(self, backbone: Cell) -> None:
        super().__init__(auto_prefix=False)
        logging.getLogger("tfspore").warning("WARN_DEPRECATED: The usage of VirtualDatasetCellTriple is deprecated.")
        self._backbone = backbone
        self._get_attr_from_cell(backbone)

    def construct(self, a: Any, b: Any, c: Any) -> Any:
        return self._backbone(a, b, c)


def _micro_slices(inputs: tuple, n: int, i: int) -> tuple:
    """Part ``i`` of ``n`` of each input along its first axis."""
    out = []
    for x in inputs:
        v = to_tf(x)
        size = v.shape[0]
        if size is not None and size % n != 0:
            raise ValueError(f"For micro batch initialization, the 0th dimension shape of input({size}) must be "
                             f"divided by micro size({n})")
        step = (tf.shape(v)[0] // n) if size is None else size // n
        out.append(_wrap(v[step * i:step * (i + 1)]))
    return tuple(out)


def _sum_micro_batches(network: Cell, inputs: tuple, n: int) -> Any:
    """Run ``network`` on each of the ``n`` micro-batches of ``inputs`` and add the outputs (nest-wise)."""
    total = None
    for i in range(n):
        value = network(*_micro_slices(inputs, n, i))
        total = value if total is None else tf.nest.map_structure(lambda a, b: _wrap(to_tf(a) + to_tf(b)), total,
                                                                  value)
    return total


def _check_micro_args(cls_name: str, network: Any, micro_size: Any) -> None:
    """MindSpore's checks of the ``network`` and ``micro_size`` of a micro-batch wrapper."""
    if not isinstance(network, Cell):
        raise TypeError(f"For '{cls_name}', the argument 'network' must cell type, but got the type : "
                        f"{type(network)}.")
    if isinstance(micro_size, bool) or not isinstance(micro_size, int):
        raise TypeError(f"For '{cls_name}', the argument 'micro_size' must be integer, but got the type : "
                        f"{type(micro_size)}.")
    if micro_size <= 0:
        raise ValueError(f"For '{cls_name}', the argument 'micro_size' must be large than 0, but got "
                         f"{micro_size}.")


class MicroBatchInterleaved(Cell):
    """Split the batch into ``interleave_num`` parts, run ``network`` on each, and add the outputs.

    Args:
        network: the network (usually one returning a loss).
        interleave_num: the number of parts (the batch size must divide by it).

    Raises:
        TypeError: when ``interleave_num`` is not an int.
        ValueError: when it is not positive; at call time, when the batch does not divide.

    Example:
        >>> MicroBatchInterleaved(nn.Identity(), 2).interleave_num  # doctest: +SKIP
        2
    """

    def __init__(self, network: Cell, interleave_num: int = 2) -> None:
        super().__init__(auto_prefix=False)
        if isinstance(interleave_num, bool) or not isinstance(interleave_num, int):
            raise TypeError("For 'MicroBatchInterleaved', the argument 'interleave_num' must be integer, but got the "
                            f"type : {type(interleave_num)}.")
        if interleave_num <= 0:
            raise ValueError("For 'MicroBatchInterleaved', the argument 'interleave_num' must be large than 0, but "
                             f"got {interleave_num}.")
        self.network = network
        self.interleave_num = interleave_num
        self._get_attr_from_cell(network)

    def construct(self, *inputs: Any) -> Any:
        return _sum_micro_batches(self.network, inputs, self.interleave_num)


class PipelineCell(Cell):
    """Split the batch into ``micro_size`` micro-batches, run ``network`` on each, and add the outputs.

    Args:
        network: the network (usually one returning a loss).
        micro_size: the number of micro-batches.
        stage_config: optional ``{child name: stage}``; sets each child's ``pipeline_stage``.
        segment_config: accepted for MindSpore's signature; unused.

    Raises:
        TypeError: when ``network`` is not a Cell or ``micro_size`` not an int.
        ValueError: when ``micro_size`` is not positive.

    Example:
        >>> PipelineCell(nn.Identity(), 2).micro_size  # doctest: +SKIP
        2
    """

    def __init__(self, network: Cell, micro_size: int, stage_config: dict | None = None,
                 segment_config: dict | None = None) -> None:
        super().__init__(auto_prefix=False)
        _check_micro_args("PipelineCell", network, micro_size)
        self.network = network
        self.micro_size = micro_size
        self.segment_config = segment_config
        self._get_attr_from_cell(network)
        if stage_config:
            for name, cell in network.cells_and_names():
                if name in stage_config:
                    cell.pipeline_stage = stage_config[name]

    def construct(self, *inputs: Any) -> Any:
        return _sum_micro_batches(self.network, inputs, self.micro_size)


class ParameterUpdate(Cell):
    """Assign its input to ``param`` and return the input (a Cell that sets a Parameter inside a network).

    Args:
        param: the Parameter to update.

    Inputs:
        x: a Tensor of the Parameter's shape.

    Outputs:
        ``x``.

    Raises:
        TypeError: when ``param`` is not a Parameter.

    Example:
        >>> import numpy as np
        >>> from tfspore import Parameter, Tensor
        >>> p = Parameter(Tensor(np.zeros(2, np.float32)), name="p")
        >>> _ = ParameterUpdate(p)(Tensor(np.ones(2, np.float32)))
        >>> p.asnumpy()
        array([1., 1.], dtype=float32)
    """

    def __init__(self, param: Parameter) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'ParameterUpdate', 'param' must be 'Parameter', but got {type(param)}.")
        self._param = param

    def construct(self, x: Any) -> Any:
        var = self._param._var
        var.assign(tf.cast(to_tf(x), var.dtype))
        return x


class GradAccumulationCell(Cell):
    """Split the batch into ``micro_size`` micro-batches, run ``network`` on each, and add the outputs
    (MindSpore's gradient-accumulation wrapper; on one device the sum of the micro-batch losses).

    Args:
        network: the network (usually one returning a loss).
        micro_size: the number of micro-batches.

    Raises:
        TypeError: when ``network`` is not a Cell or ``micro_size`` not an int.
        ValueError: when ``micro_size`` is not positive.

    Example:
        >>> GradAccumulationCell(nn.Identity(), 2).micro_size  # doctest: +SKIP
        2
    """

    def __init__(self, network: Cell, micro_size: int) -> None:
        super().__init__(auto_prefix=False)
        _check_micro_args("GradAccumulationCell", network, micro_size)
        self.network = network
        self.micro_size = micro_size
        self._get_attr_from_cell(network)

    def construct(self, *inputs: Any) -> Any:
        return _sum_micro_batches(self.network, inputs, self.micro_size)
