"""``Optimizer``: the base class of MindSpore's optimizers on ``tf.Variable`` updates.

An optimizer is a Cell called as ``optimizer(grads)``. Its state is Parameters named as
MindSpore names them (``global_step``, ``learning_rate``, ``moments.<param name>``, ...), so
checkpoints map one to one. Updates go through ``assign``/``assign_sub`` on the variables, so they
run eagerly (PYNATIVE_MODE) and inside compiled train steps (GRAPH_MODE, ``tf.function``).

Example:
    >>> from tfspore import nn
    >>> net = nn.Dense(3, 2)
    >>> opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    >>> [p.name for p in opt.get_parameters()][:3]
    ['global_step', 'learning_rate', 'weight']
"""
from __future__ import annotations

import functools
import inspect
from collections.abc import Iterable
from typing import Any, Callable, Sequence

import numpy as np
import tensorflow as tf

from tfspore import context as _context
from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.initializer import initializer
from tfspore.common.parameter import Parameter, ParameterTuple
from tfspore._internal.tensor_wrap import unwrap_nest as _unwrap_nest, wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.layer.container import CellList
from tfspore.nn.learning_rate_schedule import LearningRateSchedule

__all__ = ["Optimizer", "opt_init_args_register"]

_GROUP_KEYS = ("params", "lr", "weight_decay", "order_params", "grad_centralization")


# The three helpers below are the optimizers' shared update vocabulary, used by every module of
# ``tfspore.nn.optim`` and by ``tfspore.experimental.optim``.
def to_tf(x: Any) -> Any:
    """The TF value of a Tensor / Parameter / tf value (Parameters are read); None stays None."""
    if x is None or isinstance(x, tf.Tensor):
        return x
    return tf.convert_to_tensor(_unwrap_nest(x))


def success_flag(ops: Sequence[Any]) -> Any:
    """MindSpore's per-parameter success flag: True eagerly; a bool tensor after ``ops`` in a graph."""
    if tf.executing_eagerly():
        return True
    deps = [o for o in ops if o is not None]
    with tf.control_dependencies(deps):
        return tf.constant(True)


def cast_tf(x: Any, dtype: tf.DType) -> tf.Tensor:
    """``x`` (a Tensor, Parameter, tf value or number) as a tf tensor of ``dtype``."""
    t = x if isinstance(x, (tf.Tensor, tf.Variable)) else to_tf(x)
    return t if t.dtype == dtype else tf.cast(t, dtype)


def opt_init_args_register(fn: Callable) -> Callable:
    """Decorate an optimizer's ``__init__`` to record its arguments, as MindSpore does.

    The instance gets ``init_params`` (``{"params": ...}``, taken from the wrapped optimizer for
    LARS-style wrappers), ``init_learning_rate`` (None for a schedule) and ``init_args`` (the
    other arguments, defaults applied).

    Example:
        >>> opt = nn.Adam(net.trainable_params(), 0.01)
        >>> opt.init_args["beta1"]
        0.9
    """

    @functools.wraps(fn)
    def deco(self: Any, *args: Any, **kwargs: Any) -> None:
        bound_args = inspect.signature(fn).bind(self, *args, **kwargs)
        bound_args.apply_defaults()
        arguments = bound_args.arguments
        arguments.pop("self")
        if "params" in arguments:
            self.init_params = {"params": arguments["params"]}
            arguments.pop("params")
        if "optimizer" in arguments:
            inner = getattr(arguments["optimizer"], "init_params", None)
            if inner is not None:
                self.init_params = {"params": inner["params"]}
            arguments.pop("optimizer")
        if "learning_rate" in arguments:
            if isinstance(arguments["learning_rate"], Tensor):
                arguments["learning_rate"] = arguments["learning_rate"].asnumpy().tolist()
            if isinstance(arguments["learning_rate"], Cell):
                self.init_learning_rate = None
            else:
                self.init_learning_rate = arguments["learning_rate"]
            arguments.pop("learning_rate")
        self.init_args = arguments
        fn(self, *args, **kwargs)

    return deco


class _ConvertToCell(LearningRateSchedule):
    """A fixed learning-rate Parameter seen as a schedule (used with grouped dynamic learning rates)."""

    def __init__(self, learning_rate: Parameter) -> None:
        super().__init__()
        if not isinstance(learning_rate, Parameter):
            raise TypeError(f"For 'Optimizer', the argument 'learning_rate' must be Parameter, but got "
                            f"{type(learning_rate).__name__}.")
        self.learning_rate = learning_rate

    def construct(self, global_step: Any) -> Tensor:
        return _wrap(to_tf(self.learning_rate) + 1.0 - 1.0)


class _IteratorLearningRate(LearningRateSchedule):
    """A list or 1-D Tensor of learning rates: step ``i`` uses item ``i``."""

    def __init__(self, learning_rate: Tensor, name: str) -> None:
        super().__init__()
        if not isinstance(learning_rate, Tensor):
            raise TypeError(f"For 'Optimizer', the argument 'learning_rate' must be Tensor, but got "
                            f"{type(learning_rate).__name__}.")
        if learning_rate.ndim != 1:
            raise ValueError(f"For 'Optimizer', the dimension of the argument 'learning_rate' should be 1, but got "
                             f"{learning_rate.ndim}.")
        self.learning_rate = Parameter(learning_rate, name)

    def construct(self, global_step: Any) -> Tensor:
        lr = to_tf(self.learning_rate)
        step = to_tf(global_step)
        size = int(lr.shape[0])
        message = (f"For 'Gather', the 'input_indices' should be in the range [0, {size}), but the optimizer's "
                   f"'learning_rate' list has {size} values and the step (global_step) is past its end")
        if tf.executing_eagerly():
            index = int(tf.reshape(step, [-1])[0])
            if not 0 <= index < size:
                raise RuntimeError(f"{message}: got {index}.")
            return _wrap(tf.gather(lr, step, axis=0))
        check = tf.debugging.assert_less(tf.cast(step, tf.int64), tf.constant(size, tf.int64), message=message)
        with tf.control_dependencies([check]):
            return _wrap(tf.gather(lr, step, axis=0))


class _WrappedWeightDecay(Cell):
    """A weight-decay schedule (a Cell of ``global_step``) scaled by the loss scale."""

    def __init__(self, weight_decay: Cell, loss_scale: float = 1.0) -> None:
        super().__init__()
        self.weight_decay = weight_decay
        self.loss_scale = float(loss_scale)

    def construct(self, global_step: Any) -> Tensor:
        return _wrap(to_tf(self.weight_decay(global_step)) * self.loss_scale)


class Optimizer(Cell):
    """The base class of optimizers: learning rate, weight decay, loss scale and parameter groups.

    Subclasses create their state with ``self.parameters.clone(prefix, init)`` and implement
    ``construct(gradients)``, usually calling :meth:`decay_weight`, :meth:`gradients_centralization`,
    :meth:`scale_grad` and :meth:`get_lr`, then updating ``global_step``.

    Args:
        learning_rate: a float/int, a scalar Tensor, a list or 1-D Tensor (step ``i`` uses item ``i``;
            a step past its end raises ``RuntimeError`` eagerly and ``InvalidArgumentError`` in a
            compiled step), or a :class:`~tfspore.nn.learning_rate_schedule.LearningRateSchedule`
            (any Cell of ``global_step`` is accepted) called with ``global_step``.
        parameters: a list of Parameters, or of dicts with ``'params'`` and optionally ``'lr'``,
            ``'weight_decay'``, ``'grad_centralization'``, or one ``{'order_params': [...]}``.
        weight_decay: a non-negative number (applied to parameters whose names contain neither
            'beta' nor 'gamma'), or a Cell of ``global_step``.
        loss_scale: a positive number: gradients are divided by it.

    Raises:
        TypeError: for arguments of the wrong type.
        ValueError: for empty parameters, a negative weight decay or a non-positive loss scale.
        RuntimeError: when a parameter is in two groups.

    Example:
        >>> class PlainSGD(nn.Optimizer):
        ...     def __init__(self, params, learning_rate):
        ...         super().__init__(learning_rate, params)
        ...
        ...     def construct(self, gradients):
        ...         gradients = self.scale_grad(self.decay_weight(gradients))
        ...         lr = self.get_lr()
        ...         for p, g in zip(self.parameters, gradients):
        ...             p.assign_value(p - lr * g)
        ...         return True
    """

    _support_parallel_optimizer = False

    def __init__(self, learning_rate: Any, parameters: Any, weight_decay: Any = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(auto_prefix=False)
        parameters = self._parameters_base_check(parameters, "parameters", self.cls_name)
        self.param_rank = None
        self.optim_filter = None
        if not all(isinstance(x, Parameter) for x in parameters) and not all(isinstance(x, dict) for x in parameters):
            raise TypeError("For 'Optimizer', all elements of the argument 'parameters' must be 'Parameter' or "
                            f"'dict', but got {[type(x).__name__ for x in parameters]}.")
        if isinstance(loss_scale, int) and not isinstance(loss_scale, bool):
            loss_scale = float(loss_scale)
        validator.check_type(loss_scale, [float], "loss_scale", self.cls_name)
        validator.check_positive_float(loss_scale, "loss_scale", self.cls_name)
        self.loss_scale = loss_scale
        self.dynamic_weight_decay = False
        self.grad_centralization = False
        self._unique = True
        self._target = _context.get_context("device_target")
        self.dynamic_lr = False
        self.global_step = Parameter(initializer(0, [1], mstype.int32), name="global_step")
        self.is_group = False
        self.is_group_lr = False
        self.is_group_params_ordered = False
        learning_rate = self._preprocess_single_lr(learning_rate)
        if isinstance(parameters[0], dict):
            self.is_group = True
            self.group_params: list = []
            self.group_lr: list = []
            self.group_weight_decay: list = []
            self.group_grad_centralization: list = []
            self._init_group_params(parameters, learning_rate, weight_decay, self.grad_centralization)
        self._init_opt_attrs(learning_rate, parameters, weight_decay)

    # ---------------------------------------------------------------- setup
    def _init_opt_attrs(self, learning_rate: Any, parameters: list, weight_decay: Any) -> None:
        weight_decay = self._preprocess_weight_decay(weight_decay)
        if self.is_group_lr:
            if self.dynamic_lr:
                self.learning_rate = CellList(self.group_lr, auto_prefix=False)
            else:
                self.learning_rate = ParameterTuple(self.group_lr)
        else:
            self.learning_rate = self._build_single_lr(learning_rate, "learning_rate")
        if self.is_group:
            self.parameters = ParameterTuple(self.group_params)
            self._parameters = self.parameters
            self.decay_flags = tuple(isinstance(x, Cell) or x > 0 for x in self.group_weight_decay)
            self.dynamic_decay_flags = tuple(isinstance(x, Cell) for x in self.group_weight_decay)
            self.weight_decay = tuple(x if flag else Tensor(float(x), mstype.float32)
                                      for x, flag in zip(self.group_weight_decay, self.dynamic_decay_flags))
            self.exec_weight_decay = any(self.decay_flags)
            self.grad_centralization_flags = tuple(self.group_grad_centralization)
        else:
            self.parameters = ParameterTuple(parameters)
            self._parameters = self.parameters
            self.decay_flags = tuple("beta" not in x.name and "gamma" not in x.name for x in self._parameters)
            self.dynamic_decay_flags = isinstance(weight_decay, Cell)
            self.exec_weight_decay = isinstance(weight_decay, Cell) or weight_decay > 0
            self.weight_decay = weight_decay if self.dynamic_decay_flags else Tensor(weight_decay, mstype.float32)
        self.reciprocal_scale = Tensor(1.0 / self.loss_scale, mstype.float32)  # a Tensor, as in MindSpore
        self.need_scale = self.loss_scale != 1.0
        self.global_step_increase_tensor = Tensor([1], mstype.int32)
        self.param_length = len(self._parameters)
        self.use_parallel = False
        self.optim_filter = (True,) * self.param_length

    @staticmethod
    def _preprocess_grad_centralization(grad_centralization: Any) -> bool:
        if not isinstance(grad_centralization, bool):
            raise TypeError(f"For 'Optimizer', the 'gradients_centralization' must be bool type, but got "
                            f"{type(grad_centralization)}.")
        return grad_centralization

    @staticmethod
    def _parameters_base_check(parameters: Any, param_info: str, api: str = "Optimizer") -> list:
        if parameters is None:
            raise ValueError(f"For 'Optimizer', the argument {param_info} can not be None.")
        if not isinstance(parameters, Iterable):
            raise TypeError(f"For 'Optimizer', the argument {param_info} must be Iterable type, but got "
                            f"{type(parameters).__name__}.")
        parameters = list(parameters)
        if not parameters:
            raise ValueError(f"For '{api}', the argument {param_info} ('params') must not be empty, but got "
                             f"{parameters!r}.")
        return parameters

    def _preprocess_weight_decay(self, weight_decay: Any) -> Any:
        if isinstance(weight_decay, (float, int)) and not isinstance(weight_decay, bool):
            weight_decay = float(weight_decay)
            validator.check_non_negative_float(weight_decay, "weight_decay", self.cls_name)
            return weight_decay * self.loss_scale
        if isinstance(weight_decay, Cell):
            self.dynamic_weight_decay = True
            return _WrappedWeightDecay(weight_decay, self.loss_scale)
        raise TypeError(f"For 'Optimizer', the argument 'Weight_decay' must be int, float or Cell, but got "
                        f"{type(weight_decay).__name__}.")

    def _preprocess_single_lr(self, learning_rate: Any) -> Any:
        """Check a learning rate and convert it to a float, a Tensor or a schedule Cell."""
        if isinstance(learning_rate, (float, int)) and not isinstance(learning_rate, bool):
            learning_rate = float(learning_rate)
            validator.check_non_negative_float(learning_rate, "learning_rate", self.cls_name)
            return learning_rate
        if isinstance(learning_rate, Tensor) and not isinstance(learning_rate, Parameter) and \
                learning_rate.ndim == 0:
            return Tensor(learning_rate.asnumpy(), dtype=mstype.float32)
        self.dynamic_lr = True
        if isinstance(learning_rate, Cell):
            return learning_rate
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim > 1:
                raise ValueError(f"For 'Optimizer', if 'learning_rate' is Tensor type, then the dimension of it "
                                 f"should be 0 or 1, but got {learning_rate.ndim}.")
            return Tensor(learning_rate.asnumpy(), dtype=mstype.float32)
        if isinstance(learning_rate, Iterable) and not isinstance(learning_rate, (str, bytes)):
            return Tensor(np.array(list(learning_rate)).astype(np.float32))
        raise TypeError("For 'Optimizer', the argument 'learning_rate' must be int, float, Tensor, Iterable or "
                        f"LearningRateSchedule, but got {type(learning_rate).__name__}.")

    def _build_single_lr(self, learning_rate: Any, name: str) -> Any:
        """Turn a preprocessed learning rate into a Parameter or a schedule Cell."""
        if isinstance(learning_rate, float):
            lr = Parameter(Tensor(learning_rate, mstype.float32), name)
            return _ConvertToCell(lr) if self.is_group_lr and self.dynamic_lr else lr
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 0:
            lr = Parameter(learning_rate, name)
            return _ConvertToCell(lr) if self.is_group_lr and self.dynamic_lr else lr
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 1:
            return _IteratorLearningRate(learning_rate, name)
        return learning_rate

    def _check_group_params(self, parameters: list) -> None:
        for group_param in parameters:
            invalid = [k for k in group_param.keys() if k not in _GROUP_KEYS]
            if invalid:
                raise KeyError(f"For 'Optimizer', the key in group params must be one of in {list(_GROUP_KEYS)}, but "
                               f"got {invalid}.")
            if "order_params" in group_param:
                if len(group_param) > 1:
                    raise ValueError("For 'Optimizer', the order params dict in group parameters should only include "
                                     f"the 'order_params' key, but got {list(group_param.keys())}.")
                if not isinstance(group_param["order_params"], Iterable):
                    raise TypeError("For 'Optimizer', the value of 'order_params' in group parameters should be "
                                    f"Iterable type, but got {type(group_param['order_params']).__name__}.")
                continue
            params = self._parameters_base_check(group_param["params"], "group `params`", self.cls_name)
            for index, param in enumerate(params):
                if not isinstance(param, Parameter):
                    raise TypeError(f"For 'Optimizer', the element in group parameters must be Parameter type, but "
                                    f"got {type(param).__name__} at index {index}.")

    def _init_group_params(self, parameters: list, learning_rate: Any, weight_decay: Any,
                           grad_centralization: bool) -> None:
        self._check_group_params(parameters)
        tensor_lr_length = learning_rate.size if isinstance(learning_rate, Tensor) and learning_rate.ndim == 1 else 0
        for group_param in parameters:
            if "order_params" in group_param:
                self.is_group_params_ordered = True
                continue
            if "lr" in group_param:
                self.is_group_lr = True
                group_lr = self._preprocess_single_lr(group_param["lr"])
                if isinstance(group_lr, Tensor) and group_lr.ndim == 1:
                    if tensor_lr_length == 0:
                        tensor_lr_length = group_lr.size
                    elif group_lr.size != tensor_lr_length:
                        raise ValueError("For 'Optimizer', the Tensor type dynamic learning rate in group must be the "
                                         "same size as the argument 'learning_rate'.")
        default_lr = self._build_single_lr(learning_rate, "learning_rate")
        params_store: list = []
        ordered_parameters: list = []
        for group_num, group_param in enumerate(parameters):
            if "order_params" in group_param:
                ordered_parameters = list(group_param["order_params"])
                continue
            params = list(group_param["params"])
            self.group_params += params
            if "lr" in group_param:
                lr = self._build_single_lr(self._preprocess_single_lr(group_param["lr"]),
                                           "learning_rate_group_" + str(group_num))
            else:
                lr = default_lr
            wd = self._preprocess_weight_decay(group_param.get("weight_decay", weight_decay))
            if "grad_centralization" in group_param:
                gc = self._preprocess_grad_centralization(group_param["grad_centralization"])
                self.grad_centralization = gc
            else:
                gc = grad_centralization
            for param in params:
                if param.name in params_store:
                    raise RuntimeError(f"For 'Optimizer', the {param.name} parameter already exists, it does not "
                                       "support repeated setting. Please check whether the optimizer parameter has "
                                       "been set multiple times.")
                params_store.append(param.name)
                self.group_lr.append(lr)
                self.group_weight_decay.append(wd)
                self.group_grad_centralization.append(gc)
        if self.is_group_params_ordered and ordered_parameters:
            self._order_and_adjust_group_params(ordered_parameters)

    def _order_and_adjust_group_params(self, ordered_parameters: list) -> None:
        n = len(self.group_params)
        if len(ordered_parameters) != n:
            raise ValueError("For 'Optimizer', the length of order parameters must be the same as the length of group "
                             f"parameters, but got order parameters' length {len(ordered_parameters)}, group "
                             f"parameters' length {n}.")
        names = [p.name for p in ordered_parameters]
        order = [names.index(p.name) for p in self.group_params]
        for attr in ("group_params", "group_lr", "group_weight_decay", "group_grad_centralization"):
            old = getattr(self, attr)
            new = [None] * n
            for item, idx in zip(old, order):
                new[idx] = item
            setattr(self, attr, new)

    # ------------------------------------------------------------ properties
    @property
    def unique(self) -> bool:
        """Whether sparse gradients are de-duplicated before the update."""
        return self._unique

    @unique.setter
    def unique(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"For 'Optimizer', the property 'unique' must be bool, but got {type(value).__name__}.")
        self._unique = value

    @property
    def target(self) -> str:
        """The device the update runs on ('CPU' or 'GPU')."""
        return self._target

    @target.setter
    def target(self, value: str) -> None:
        raise NotImplementedError

    def _set_base_target(self, value: str) -> None:
        """Set ``target`` ('CPU', 'Ascend' or 'GPU'); the update math is the same on every target."""
        if not isinstance(value, str):
            raise TypeError(f"For 'Optimizer', the property 'target' must be string, but got {type(value)}")
        if value not in ("CPU", "Ascend", "GPU"):
            raise ValueError(f"For 'Optimizer', the property 'target' must be one of ['CPU', 'Ascend' ,'GPU'], but "
                             f"got {value}")
        if self._target == "CPU" and value in ("Ascend", "GPU"):
            raise ValueError("For 'Optimizer', the property 'target' cannot be set to 'GPU' or 'Ascend' in the 'CPU' "
                             "environment.")
        if self._target == "Ascend" and value == "GPU":
            raise ValueError("For 'Optimizer', the property 'target' cannot be set to 'GPU' in the 'Ascend' "
                             "environment.")
        if self._target == "GPU" and value == "Ascend":
            raise ValueError("For 'Optimizer', the property 'target' cannot be set to 'Ascend' in the 'GPU' "
                             "environment.")
        self._is_device = value != "CPU"
        self._target = value

    def _is_dynamic_lr_or_weight_decay(self) -> bool:
        """Whether the learning rate or the weight decay depends on the step."""
        return self.dynamic_lr or self.dynamic_weight_decay

    def _grad_sparse_indices_deduplicate(self, gradients: Any) -> Any:
        """Return the gradients unchanged: they are dense here."""
        return gradients

    # ------------------------------------------------------ gradient helpers
    def flatten_gradients(self, gradients: Any) -> Any:
        """Return the gradients unchanged (MindSpore's contiguous-memory hook)."""
        return gradients

    def decay_weight(self, gradients: Sequence[Any]) -> tuple:
        """Add ``weight_decay * param`` to the gradient of every decayed parameter."""
        if not self.exec_weight_decay:
            return tuple(gradients)
        wd = self.get_weight_decay()
        out = []
        for i, (param, grad, flag) in enumerate(zip(self._parameters, gradients, self.decay_flags)):
            if flag:
                w = wd[i] if self.is_group else wd
                g = to_tf(grad)
                p = to_tf(param)
                grad = _wrap(p * tf.cast(to_tf(w), p.dtype) + g)
            out.append(grad)
        return tuple(out)

    def gradients_centralization(self, gradients: Sequence[Any]) -> tuple:
        """Centralize the gradients of grouped parameters with ``grad_centralization`` (conv weights)."""
        if not self.is_group:
            return tuple(gradients)
        out = []
        for flag, grad in zip(self.grad_centralization_flags, gradients):
            g = to_tf(grad)
            if flag and g.shape.rank is not None and g.shape.rank > 1 and g.shape[1] is not None \
                    and g.shape[1] % 16 == 0:
                axes = list(range(1, g.shape.rank))
                grad = _wrap(g - tf.reduce_mean(g, axis=axes, keepdims=True))
            out.append(grad)
        return tuple(out)

    def scale_grad(self, gradients: Sequence[Any]) -> tuple:
        """Divide the gradients by ``loss_scale``."""
        if not self.need_scale:
            return tuple(gradients)
        out = []
        for grad in gradients:
            g = to_tf(grad)
            out.append(_wrap(g * tf.cast(self.reciprocal_scale, g.dtype)))
        return tuple(out)

    def get_weight_decay(self) -> Any:
        """The weight decay of this step (a tuple per parameter when grouped)."""
        if self.dynamic_weight_decay:
            if self.is_group:
                return tuple(wd(self.global_step) if flag else wd
                             for wd, flag in zip(self.weight_decay, self.dynamic_decay_flags))
            return self.weight_decay(self.global_step)
        return self.weight_decay

    def get_lr(self) -> Any:
        """The learning rate of this step (a tuple per parameter with grouped learning rates)."""
        return self._lr_of_step(self.learning_rate)

    def _lr_of_step(self, learning_rate: Any) -> Any:
        """``learning_rate`` (this optimizer's or, for LARS, the wrapped one's) at this step."""
        if self.dynamic_lr:
            if self.is_group_lr:
                return tuple(_wrap(tf.reshape(to_tf(cell(self.global_step)), [])) for cell in learning_rate)
            return _wrap(tf.reshape(to_tf(learning_rate(self.global_step)), []))
        return learning_rate

    def get_lr_parameter(self, param: Parameter | list) -> Any:
        """The learning-rate Parameter (or schedule) used for ``param`` (or each of a list).

        Raises:
            TypeError: when ``param`` is not a Parameter or list.
            ValueError: when a parameter is not in this optimizer.
        """
        def value(lr: Any) -> Any:
            if isinstance(lr, (_ConvertToCell, _IteratorLearningRate)):
                return lr.learning_rate
            return lr

        if isinstance(param, Parameter):
            param_list = [param]
        elif isinstance(param, list):
            param_list = param
        else:
            raise TypeError(f"For 'get_lr_parameter', the 'param' must be 'Parameter' or 'list' type, but got "
                            f"{type(param).__name__}.")
        ids = [id(p) for p in self._parameters]
        out = []
        for p in param_list:
            validator.check_type(p, [Parameter], "parameter", self.cls_name)
            if id(p) not in ids:
                raise ValueError(f"For 'get_lr_parameter', the parameter {p.name} is not in optimizer, please check "
                                 "whether the argument 'param' is correct.")
            if self.is_group_lr:
                out.append(value(self.learning_rate[ids.index(id(p))]))
            else:
                out.append(value(self.learning_rate))
        return out if isinstance(param, list) else out[0]

    def _lr_for(self, lr: Any, index: int) -> tf.Tensor:
        """The learning rate of parameter ``index`` as a float32 tensor."""
        return tf.cast(to_tf(lr[index] if self.is_group_lr else lr), tf.float32)

    def _weight_decay_for(self, weight_decay: Any, index: int) -> tf.Tensor:
        """The weight decay of parameter ``index`` (0 where its decay flag is off) as a float32 tensor."""
        if not self.decay_flags[index]:
            return tf.constant(0.0, tf.float32)
        wd = weight_decay[index] if self.is_group else weight_decay
        return tf.reshape(tf.cast(to_tf(wd), tf.float32), [])

    def _prepare_gradients(self, gradients: Sequence[Any], centralize: bool = True) -> tuple:
        """Weight decay, gradient centralization (unless ``centralize`` is False) and loss-scale
        division, in MindSpore's order."""
        gradients = self.decay_weight(gradients)
        if centralize:
            gradients = self.gradients_centralization(gradients)
        return self.scale_grad(gradients)

    def _increase_global_step(self) -> Any:
        return self.global_step._var.assign_add(tf.constant([1], tf.int32), read_value=False)

    def _increased_step(self) -> tf.Tensor:
        """Increments ``global_step`` and returns its new value as a scalar int32 tensor."""
        step_op = self._increase_global_step()
        with tf.control_dependencies([step_op] if step_op is not None else []):
            return tf.reshape(tf.convert_to_tensor(self.global_step._var), [])

    def construct(self, *hyper_params: Any) -> Any:
        raise NotImplementedError

