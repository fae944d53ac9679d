"""``Optimizer``: the base of MindSpore's PyTorch-style optimizers (``mindspore.experimental.optim``).

The optimizer keeps ``param_groups``, a list of dicts: each holds ``'params'`` (a list of
Parameters) and its options, the constructor's ``defaults`` filling the options a group leaves
out. A group's ``'lr'`` is a float32 Parameter named ``learning_rate_group_<i>`` (also in
``lrs``); it is not registered in the Cell, so it appears neither in ``parameters_and_names()``
nor in checkpoints, as in MindSpore. The update reads that Parameter, so a learning rate changed
with ``ops.assign(group['lr'], value)``, ``group['lr'].set_data(value)`` or
``group['lr'] = 0.01`` takes effect at the next step, eagerly and inside compiled steps.

The state Parameters of a subclass are clones of ``parameters`` named ``<prefix>.<param name>``
(``exp_avg.fc.weight``), created with :meth:`Optimizer._clone_state`, so checkpoints hold the
keys MindSpore writes. Updates go through ``tf.Variable`` assignments, so they run eagerly
(PYNATIVE_MODE), inside ``tfspore.jit`` functions and compiled Cells (GRAPH_MODE), and in the
replicas of a ``tf.distribute`` strategy.

Example:
    >>> from tfspore import nn, ops
    >>> from tfspore.experimental import optim
    >>> class MySGD(optim.Optimizer):
    ...     def __init__(self, params, lr):
    ...         super().__init__(params, dict(lr=lr))
    ...
    ...     def construct(self, gradients):
    ...         for group_id, group in enumerate(self.param_groups):
    ...             start = self.group_start_id[group_id]
    ...             for i, param in enumerate(group["params"]):
    ...                 ops.assign(param, param - gradients[start + i] * group["lr"])
    ...         return True
    >>> opt = MySGD(nn.Dense(3, 2).trainable_params(), 0.01)
    >>> opt.group_start_id
    [0, 2]
"""
from __future__ import annotations

import logging
import numbers
from collections import defaultdict
from collections.abc import Iterable
from typing import Any, Sequence

import numpy as np
import tensorflow as tf

from tfspore import ops as _ops
from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter, ParameterTuple
from tfspore._internal.tensor_wrap import wrap as _wrap
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.nn.optim.optimizer import cast_tf, to_tf

__all__ = ["Optimizer"]

_logger = logging.getLogger("tfspore")


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, np.ndarray)


def _freeze(value: Any) -> Any:
    """A hashable stand-in for a group option (Tensors by identity)."""
    if isinstance(value, Tensor):
        return ("tensor", id(value))
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    try:
        hash(value)
    except TypeError:
        return ("object", id(value))
    return value


class _ParamGroup(dict):
    """A parameter group: a dict whose ``'lr'`` writes go to the group's learning-rate Parameter.

    Assigning a number or a scalar Tensor to ``group['lr']`` keeps that value in the dict (as
    MindSpore does) and writes it into the learning-rate Parameter the update reads, so the new
    rate is used eagerly and by compiled steps alike.
    """

    __slots__ = ("_lr_param",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._lr_param: Parameter | None = None

    def __setitem__(self, key: Any, value: Any) -> None:
        lr = self._lr_param
        new = None
        if key == "lr" and lr is not None and value is not lr and (
                isinstance(value, Tensor) or (_is_number(value) and not isinstance(value, bool))):
            new = to_tf(value)
            if new.shape.num_elements() != 1:
                raise ValueError(f"For 'Optimizer', a group's 'lr' must be a number or a scalar Tensor, but got a "
                                 f"Tensor of shape {tuple(new.shape)}.")
        super().__setitem__(key, value)
        if new is not None:
            lr._var.assign(tf.reshape(tf.cast(new, lr._var.dtype), []), read_value=False)

    def __reduce__(self) -> Any:
        return (_rebuild_group, (dict(self), self._lr_param))


def _rebuild_group(items: dict, lr_param: Parameter | None) -> _ParamGroup:
    """Rebuild a copied or unpickled parameter group."""
    group = _ParamGroup(items)
    group._lr_param = lr_param
    return group


class Optimizer(Cell):
    """Base class of the PyTorch-style optimizers (MindSpore's ``mindspore.experimental.optim.Optimizer``).

    Subclasses pass their options as ``defaults`` and implement ``construct(gradients)``, where
    ``gradients`` is a tuple with one gradient per Parameter of ``parameters`` (the groups' params
    in order; ``group_start_id[i]`` is where group ``i`` starts).

    Args:
        params: an iterable of Parameters, or of dicts each with ``'params'`` (a Parameter or an
            ordered collection of Parameters) and group options such as ``'lr'`` or
            ``'weight_decay'``.
        defaults: the default value of each option, used where a group does not set it.

    Raises:
        ValueError: when ``params`` is None or empty, a group's ``lr`` or ``weight_decay`` is
            negative, an ``lr`` Tensor is not a scalar, or a Parameter is in two groups.
        TypeError: when ``params`` is not iterable, a group is not a dict, its ``params`` is a set
            or holds something other than Parameters, or ``lr`` / ``weight_decay`` has the wrong
            type.
        KeyError: when a group dict has no ``'params'``.

    Example:
        >>> opt = optim.AdamW([{"params": [net.weight], "lr": 0.01}, {"params": [net.bias]}], lr=0.1)
        >>> [g["lr"].name for g in opt.param_groups]
        ['learning_rate_group_0', 'learning_rate_group_1']
    """

    def __init__(self, params: Any, defaults: dict) -> None:
        super().__init__(auto_prefix=False)
        param_groups = self._parameters_base_check(params, "params")
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups: list = []
        self.parameters: Any = []
        self.lrs: list = []
        self.map_ = _ops.Map()
        self.group_start_id = [0]
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)
        self.parameters = ParameterTuple(self.parameters)
        self.hyper_map = _ops.HyperMap()
        self.enable_tuple_broaden = True

    def __repr__(self) -> str:
        text = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group.keys()):
                if key == "params":
                    continue
                value = group[key]
                if key == "lr" and isinstance(value, Parameter):
                    value = value.value()
                text += f"    {key}: {value}\n"
        return text + ")"

    # ------------------------------------------------------------------ groups
    def add_param_group(self, param_group: dict) -> None:
        """Add a parameter group to ``param_groups``.

        Its options default to ``defaults``; its ``'lr'`` becomes the float32 Parameter
        ``learning_rate_group_<i>``. A group added after construction gets its own optimizer
        state (``exp_avg``, ... for its Parameters) in the subclasses defined here.

        Args:
            param_group: a dict with ``'params'`` and optional group options.

        Raises:
            TypeError: when ``param_group`` is not a dict or its params are not Parameters.
            ValueError: when one of its Parameters is already in another group, or an option is
                out of range.
            KeyError: when it has no ``'params'``.

        Example:
            >>> opt.add_param_group({"params": extra_param, "lr": 0.05})
        """
        group_id = len(self.param_groups)
        param_group = self._preprocess_param_group(param_group)
        new_params = tuple(param_group.get("params"))
        built = isinstance(self.parameters, ParameterTuple)
        if built:
            self.parameters = ParameterTuple(tuple(self.parameters) + new_params)
        else:
            self.parameters += new_params
        for name, default in self.defaults.items():
            if name not in param_group:
                param_group.setdefault(name, default)
        lr = self._build_single_lr(param_group.get("lr"), "learning_rate_group_" + str(group_id))
        weight_decay = self._preprocess_weight_decay(param_group.get("weight_decay", 0.0))
        self.lrs.append(lr)
        param_group["lr"] = lr
        param_group["weight_decay"] = weight_decay
        group = _ParamGroup(param_group)
        group._lr_param = lr
        self.param_groups.append(group)
        self.group_start_id.append(self.group_start_id[-1] + len(new_params))
        if built:
            self._add_group_state(new_params)

    def _add_group_state(self, params: Sequence[Parameter]) -> None:
        """Create the optimizer state of Parameters added after construction (subclass hook)."""

    @staticmethod
    def _parameters_base_check(parameters: Any, param_info: str) -> list:
        if parameters is None:
            raise ValueError(f"For 'Optimizer', the argument {param_info} can not be None.")
        if not isinstance(parameters, Iterable) or isinstance(parameters, Tensor):
            raise TypeError(f"For 'Optimizer', the argument {param_info} must be Iterable type, but got "
                            f"{type(parameters)}.")
        parameters = list(parameters)
        if not parameters:
            raise ValueError(f"For 'Optimizer', the argument {param_info} must not be empty.")
        return parameters

    def _preprocess_param_group(self, param_group: Any) -> dict:
        if not isinstance(param_group, dict):
            raise TypeError(f"Param group must be a dict, but got {type(param_group).__name__}: {param_group!r}.")
        params = param_group["params"]
        if isinstance(params, Parameter):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("Optimizer parameters need to be organized in ordered collections, but the ordering of "
                            "tensors in sets will change between runs. Please use a list instead.")
        elif isinstance(params, Tensor) or not isinstance(params, Iterable):
            raise TypeError(f"For 'Optimizer', the 'params' of a parameter group must be a Parameter or an ordered "
                            f"collection of Parameters, but got {type(params).__name__}.")
        else:
            param_group["params"] = list(params)
        for index, param in enumerate(param_group["params"]):
            if not isinstance(param, Parameter):
                raise TypeError("Optimizer can only optimize Parameters, but one of the params is "
                                f"{type(param).__name__} (at index {index}).")
        ids = [id(p) for p in param_group["params"]]
        if len(ids) != len(set(ids)):
            _logger.warning("Optimizer contains a parameter group with duplicate parameters.")
        seen = {id(p) for group in self.param_groups for p in group["params"]}
        shared = [p.name for p in param_group["params"] if id(p) in seen]
        if shared:
            raise ValueError(f"some parameters appear in more than one parameter group: {shared}.")
        return param_group

    def _build_single_lr(self, learning_rate: Any, name: str) -> Parameter:
        """Check a learning rate and turn it into a float32 scalar Parameter named ``name``."""
        if isinstance(learning_rate, (float, int)) and not isinstance(learning_rate, np.ndarray):
            learning_rate = float(learning_rate)
            validator.check_non_negative_float(learning_rate, "learning rate", self.cls_name, allow_int=False)
            return Parameter(Tensor(learning_rate, mstype.float32), name)
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim == 0:
                return Parameter(learning_rate.astype(mstype.float32), name)
            raise ValueError("For 'Optimizer', if 'learning_rate' is a Tensor, then it should be scalar Tensor, but "
                             f"got a Tensor of shape {learning_rate.shape}.")
        raise TypeError("For 'Optimizer', the argument 'learning_rate' must be int, float or Tensor, but got "
                        f"{type(learning_rate)}.")

    def _preprocess_weight_decay(self, weight_decay: Any) -> float:
        if isinstance(weight_decay, (float, int)):
            weight_decay = float(weight_decay)
            validator.check_non_negative_float(weight_decay, "weight_decay", self.cls_name, allow_int=False)
            return weight_decay
        raise TypeError("For 'Optimizer', the argument 'weight_decay' must be int or float, but got "
                        f"{type(weight_decay)}.")

    # ------------------------------------------------------------------ helpers
    def _clone_state(self, params: Sequence[Parameter], prefix: str, init: str = "zeros") -> ParameterTuple:
        """State Parameters for ``params``, named ``<prefix>.<param name>``."""
        return ParameterTuple(params).clone(prefix=prefix, init=init)

    def _extend_state(self, attr: str, params: Sequence[Parameter], init: str = "zeros") -> None:
        """Append the ``attr`` state of Parameters added after construction."""
        setattr(self, attr, ParameterTuple(tuple(getattr(self, attr)) + tuple(self._clone_state(params, attr, init))))

    def _group_lr(self, group_id: int) -> tf.Tensor:
        """The learning rate of group ``group_id`` as a float32 tensor read from its Parameter."""
        return cast_tf(self.lrs[group_id]._var, tf.float32)

    def _decay_weight(self, weight_decay: float, params: Sequence[Parameter], gradients: Sequence[Any]) -> tuple:
        """Add ``weight_decay * param`` to each gradient (nothing when ``weight_decay`` is 0)."""
        if weight_decay == 0.0:
            return tuple(gradients)
        out = []
        for param, grad in zip(params, gradients):
            p = param._var
            out.append(_wrap(cast_tf(grad, p.dtype) + p * tf.cast(weight_decay, p.dtype)))
        return tuple(out)

    @staticmethod
    def _maximize(gradients: Sequence[Any], maximize: Any) -> tuple:
        """The gradients, negated when ``maximize``."""
        if not maximize:
            return tuple(gradients)
        return tuple(_wrap(-to_tf(g)) for g in gradients)

    def _increase_state_step(self) -> tuple[list, tf.Tensor]:
        """Add 1 to ``state_step``; return the update op (in a list) and the new step."""
        var = self.state_step._var
        update = var.assign_add(tf.constant(1, var.dtype), read_value=False)
        return [update], var.read_value()

    def _groups_key(self) -> tuple:
        """The Python-valued group options: a compiled optimizer retraces when one changes."""
        return tuple(tuple(sorted((k, _freeze(v)) for k, v in group.items() if k not in ("params", "lr")))
                     for group in self.param_groups)

    def _cache_key(self) -> tuple:
        return (super()._cache_key(), self._groups_key(), tuple(id(lr) for lr in self.lrs))

    def construct(self, *hyper_params: Any) -> Any:
        raise NotImplementedError
