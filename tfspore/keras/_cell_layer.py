"""A tfspore Cell as a Keras layer: ``keras.Model.fit`` trains a MindSpore-style network.

Keras only trains what it tracks as its own variables, so a Cell put into a ``keras.Model`` as it
is fits with no trainable weights. :class:`CellLayer` adds one Keras weight per Parameter of the
Cell and gives both the same ``tf.Variable`` (see ``_shared_variables``): Keras's gradients,
optimizers, ``save_weights`` / ``load_weights`` and callbacks act on the Cell's Parameters, and the
Cell keeps running its own ``construct`` with MindSpore's layouts (NCHW convolutions, (out, in)
Dense weights).
"""
from __future__ import annotations

import re
from typing import Any

import keras
import tensorflow as tf

from tfspore._internal import validator
from tfspore.common.tensor import Tensor
from tfspore.keras._shared_variables import keras_adopts, keras_name
from tfspore.nn.cell import Cell

__all__ = ["CellLayer", "to_keras"]


def _snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _to_tf(value: Any) -> Any:
    return tf.convert_to_tensor(value) if isinstance(value, Tensor) else value


class CellLayer(keras.layers.Layer):
    """A ``keras.layers.Layer`` that runs a tfspore Cell and trains its Parameters.

    Every Parameter of the Cell becomes a Keras weight of this layer (named as the Parameter,
    trainable when ``requires_grad``) that shares the Parameter's storage, so ``model.fit``,
    ``evaluate``, ``predict``, ``save_weights`` / ``load_weights``, Keras optimizers and
    ``keras.callbacks`` work on the network, and a training of either kind moves the same weights.
    ``call(inputs, training)`` passes ``inputs`` (one tensor, or a list / tuple for a Cell with
    several inputs) to the Cell unchanged, in the Cell's own layout (NCHW images for MindSpore's
    convolutions), in train mode when Keras trains and in inference mode otherwise (BatchNorm,
    Dropout), and returns the Cell's outputs as tensors.

    A ``.keras`` file cannot hold a tfspore Cell (``get_config`` raises); use ``save_weights`` or
    ``tf.saved_model.save`` / ``model.export``.

    Args:
        cell: the Cell.
        name: the layer name. Default: the Cell's class name in snake case.
        **kwargs: other ``keras.layers.Layer`` arguments (``dtype``, ``trainable``).

    Raises:
        TypeError: when ``cell`` is not a Cell.

    Example:
        >>> model = keras.Sequential([keras.Input((1, 32, 32)), CellLayer(LeNet5())])  # doctest: +SKIP
        >>> model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True))  # doctest: +SKIP
        >>> model.fit(x_nchw, y, epochs=2)  # doctest: +SKIP
    """

    def __init__(self, cell: Cell, name: str | None = None, **kwargs: Any) -> None:
        validator.check_type(cell, Cell, "cell", "CellLayer")
        super().__init__(name=name or _snake_case(type(cell).__name__), **kwargs)
        cell.check_names_and_refresh_name()  # MindSpore's unique parameter names, as before a first run
        # kept out of Keras's and TensorFlow's attribute tracking: the Keras weights below are the state
        object.__setattr__(self, "_cell", cell)
        self._parameter_names = []
        for param in cell.get_parameters():
            weight = self.add_weight(shape=tuple(param.shape), dtype=param.variable.dtype.name, initializer="zeros",
                                     trainable=bool(param.variable.trainable), name=keras_name(param.name))
            keras_adopts(weight, param.variable)
            self._parameter_names.append(param.name)
        self.built = True

    @property
    def cell(self) -> Cell:
        """Cell: the wrapped Cell."""
        return self._cell

    def call(self, inputs: Any, training: bool | None = None) -> Any:
        """Run the Cell on ``inputs`` (train mode when ``training``), restoring its mode afterwards.

        Args:
            inputs: a tensor, or a list / tuple of tensors (the Cell's positional inputs).
            training: Keras's training flag; None keeps the Cell's current mode.

        Returns:
            The Cell's outputs, as TensorFlow tensors.
        """
        args = tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,)
        cell = self._cell
        mode = cell.training
        if training is not None and bool(training) != mode:
            cell.set_train(bool(training))
        try:
            outputs = cell(*[a if isinstance(a, Tensor) else Tensor(a) for a in args])
        finally:
            if cell.training != mode:
                cell.set_train(mode)
        return tf.nest.map_structure(_to_tf, outputs)

    def get_config(self) -> dict:
        raise NotImplementedError(f"CellLayer({type(self._cell).__name__}) can't be saved to a .keras file (a tfspore "
                                  "Cell has no Keras config): use save_weights, tf.saved_model.save or model.export.")


def to_keras(cell: Cell, name: str | None = None) -> CellLayer:
    """Wrap a tfspore Cell as a Keras layer whose weights are the Cell's Parameters.

    Args:
        cell: the Cell.
        name: the layer name. Default: the Cell's class name in snake case.

    Returns:
        CellLayer: the layer; put it into a ``keras.Sequential`` or a functional model.

    Raises:
        TypeError: when ``cell`` is not a Cell.

    Example:
        >>> layer = to_keras(nn.Dense(4, 3))  # doctest: +SKIP
        >>> [w.name for w in layer.trainable_weights]  # doctest: +SKIP
        ['weight', 'bias']
    """
    return CellLayer(cell, name=name)
