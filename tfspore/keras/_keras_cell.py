"""A Keras layer or model as a tfspore Cell: ``Model.train`` trains Keras weights.

tfspore's optimizers and ``TrainOneStepCell`` train the Parameters a Cell lists, so a Keras
layer called inside ``construct`` would run with weights that never move. :class:`KerasCell`
registers one Parameter per Keras variable, holding the variable's own ``tf.Variable`` (see
``_shared_variables``): MindSpore's optimizers, checkpoints (``save_checkpoint``,
``ModelCheckpoint``) and callbacks then act on the Keras weights, and functions Keras traced
before keep working.
"""
from __future__ import annotations

import inspect
from typing import Any

import keras
import tensorflow as tf

from tfspore._internal import validator
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.keras._shared_variables import attribute_name, parameter_adopts
from tfspore.nn.cell import Cell

__all__ = ["KerasCell", "from_keras"]


def _to_tensor(value: Any) -> Any:
    return Tensor(value) if isinstance(value, (tf.Tensor, tf.Variable)) else value


def _unique(variables: Any) -> list:
    seen: set = set()
    result = []
    for variable in variables:
        if id(variable) not in seen:
            seen.add(id(variable))
            result.append(variable)
    return result


def _optimizer_path(optimizer: Any, variable: Any, renamed: dict) -> str:
    """``optimizer/<slot>`` for a Keras optimizer variable, its weight named as the weight's Parameter.

    Keras numbers optimizer names (``sgd_1``) and spells the weight's full path into a slot's
    name (``sgd_1/sequential_3_dense_kernel_momentum``); both depend on how many were built
    before, so a checkpoint would not load into a second copy of the same model.
    """
    path = variable.path.split("/", 1)[1] if variable.path.startswith(optimizer.name + "/") else variable.path
    for weight_path in sorted(renamed, key=len, reverse=True):
        if path.startswith(weight_path):
            path = renamed[weight_path] + path[len(weight_path):]
            break
    return "optimizer/" + path


class KerasCell(Cell):
    """A Cell that runs a Keras layer or model and trains its weights as Parameters.

    Each Keras variable of the layer becomes a Parameter of this Cell (its name is the variable's
    path below the layer with ``/`` as ``_``: ``kernel`` for a Dense layer, ``dense_kernel`` for
    the Dense layer ``dense`` of a model; name the inner layers for names that do not depend on
    Keras's automatic numbering; ``requires_grad`` is the variable's ``trainable``) holding the
    variable's storage, so tfspore's optimizers, ``Model.train`` and
    checkpoints update and save the Keras weights. ``construct(*inputs)`` calls the layer with the
    inputs as TensorFlow tensors (one input as is, several as a list), with ``training`` set from
    the Cell's mode when the layer's ``call`` takes it, and returns its outputs as Tensors. The
    layer sees the inputs as given: a Keras convolution expects NHWC images, where MindSpore's use
    NCHW.

    Args:
        layer: a built ``keras.layers.Layer`` or ``keras.Model`` (or one that ``input_shape`` builds).
        input_shape: the shape to build an unbuilt layer with (batch dimension included, may be None).
            Default: None.
        include_optimizer: also register the variables of the compiled model's Keras optimizer
            (``requires_grad=False``), so that a checkpoint of the Cell holds the training state, as
            a MindSpore train network's does. Default: False.

    Raises:
        TypeError: when ``layer`` is not a Keras layer.
        ValueError: when the layer is not built and ``input_shape`` is None.

    Example:
        >>> net = KerasCell(keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)]))  # doctest: +SKIP
        >>> [p.name for p in net.trainable_params()]  # doctest: +SKIP
        ['dense_kernel', 'dense_bias']
    """

    def __init__(self, layer: Any, input_shape: Any = None, include_optimizer: bool = False) -> None:
        super().__init__()
        validator.check_type(layer, keras.layers.Layer, "layer", "KerasCell")
        validator.check_bool(include_optimizer, "include_optimizer", "KerasCell")
        if not layer.built:
            if input_shape is None:
                raise ValueError(f"For 'KerasCell', the Keras layer {layer.name!r} is not built: build it, call it "
                                 "once, or pass 'input_shape'.")
            layer.build(tuple(input_shape))
        self.__dict__["_layer"] = layer  # not a Cell: kept out of the Cell registries
        self.__dict__["_takes_training"] = "training" in inspect.signature(layer.call).parameters
        used: set = set()
        renamed: dict = {}  # a weight's Keras path with "_" for "/" -> its Parameter name
        prefix = layer.name + "/"
        for variable in _unique(layer.weights):
            path = variable.path[len(prefix):] if variable.path.startswith(prefix) else variable.path
            renamed[variable.path.replace("/", "_")] = self._register(attribute_name(path, used), variable)
        optimizer = getattr(layer, "optimizer", None) if include_optimizer else None
        if optimizer is not None:
            if not optimizer.built:
                optimizer.build(layer.trainable_variables)
            for variable in _unique(optimizer.variables):
                self._register(attribute_name(_optimizer_path(optimizer, variable, renamed), used), variable)

    def _register(self, name: str, variable: Any) -> str:
        param = Parameter(variable.numpy(), requires_grad=bool(variable.trainable))
        parameter_adopts(param, variable)
        self.insert_param_to_cell(name, param)
        return name

    @property
    def layer(self) -> Any:
        """keras.layers.Layer: the wrapped Keras layer."""
        return self.__dict__["_layer"]

    def construct(self, *inputs: Any) -> Any:
        """Call the Keras layer on ``inputs``.

        Args:
            *inputs: the layer's inputs (Tensors or TensorFlow tensors).

        Returns:
            The layer's outputs, as Tensors.
        """
        args = [tf.convert_to_tensor(x) if isinstance(x, Tensor) else x for x in inputs]
        kwargs = {"training": bool(self.training)} if self._takes_training else {}
        outputs = self.layer(args[0] if len(args) == 1 else args, **kwargs)
        return tf.nest.map_structure(_to_tensor, outputs)


def from_keras(layer: Any, input_shape: Any = None) -> KerasCell:
    """Wrap a Keras layer or model as a tfspore Cell whose Parameters are its weights.

    Args:
        layer: a built ``keras.layers.Layer`` or ``keras.Model``.
        input_shape: the shape to build an unbuilt layer with. Default: None.

    Returns:
        KerasCell: the Cell.

    Example:
        >>> net = from_keras(keras.layers.Dense(3), input_shape=(None, 4))  # doctest: +SKIP
    """
    return KerasCell(layer, input_shape=input_shape)
