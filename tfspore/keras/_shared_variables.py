"""One storage for a tfspore Parameter and a Keras variable.

A Cell inside a Keras model, or a Keras layer inside a Cell, must train one set of weights: the
framework that computes the gradients and the one that runs the forward pass have to read and
write the same ``tf.Variable``. Parameters keep their value in a ``tf.Variable``
(``Parameter.variable``), and a Keras 3 variable on the TensorFlow backend wraps one, so both
sides are made to hold the very same ``tf.Variable`` object: a gradient taken with respect to
either reaches the other, and an update by either optimizer is seen by both. The side created
by the adapter adopts the storage of the side that exists already, so functions either
framework has traced before keep reading the right variable.
"""
from __future__ import annotations

import re
from typing import Any

import tensorflow as tf


def _keras_storage(keras_variable: Any) -> tf.Variable:
    storage = getattr(keras_variable, "_value", None)
    if not isinstance(storage, tf.Variable):
        raise TypeError("tfspore.keras needs Keras's TensorFlow backend (KERAS_BACKEND=tensorflow): the Keras "
                        f"variable {getattr(keras_variable, 'path', keras_variable)!r} does not hold a tf.Variable.")
    return storage


def _check_same_kind(a: tf.Variable, b: tf.Variable, what: str) -> None:
    if a.shape != b.shape or a.dtype != b.dtype:
        raise ValueError(f"Cannot share the storage of {what}: {a.dtype.name}{a.shape} against "
                         f"{b.dtype.name}{b.shape}.")


def keras_adopts(keras_variable: Any, variable: tf.Variable) -> None:
    """Make ``keras_variable`` read and write ``variable`` (a Parameter's), which must match it.

    Args:
        keras_variable: a new ``keras.Variable`` of the TensorFlow backend.
        variable: the ``tf.Variable`` to use as its storage.

    Raises:
        TypeError: when the Keras backend does not keep a ``tf.Variable`` (not TensorFlow).
        ValueError: when shape or dtype differ.
    """
    _check_same_kind(_keras_storage(keras_variable), variable, f"the Keras variable {keras_variable.path}")
    keras_variable._value = variable  # pylint: disable=protected-access


def parameter_adopts(param: Any, keras_variable: Any) -> None:
    """Make the Parameter ``param`` read and write the storage of ``keras_variable``.

    Args:
        param: a new ``Parameter`` with the variable's shape and dtype.
        keras_variable: the ``keras.Variable`` whose storage it takes.

    Raises:
        TypeError: when the Keras backend does not keep a ``tf.Variable`` (not TensorFlow).
        ValueError: when shape or dtype differ.
    """
    storage = _keras_storage(keras_variable)
    _check_same_kind(param.variable, storage, f"the Keras variable {keras_variable.path}")
    param._var = storage  # pylint: disable=protected-access


def keras_name(name: str) -> str:
    """A Keras variable name for a Parameter name (Keras forbids ``/``)."""
    return name.replace("/", "_")


def attribute_name(path: str, used: set) -> str:
    """A Cell attribute name for the Keras variable ``path`` (``dense/kernel`` -> ``dense_kernel``), unique in
    ``used``."""
    name = re.sub(r"\W", "_", path).strip("_") or "weight"
    if name[0].isdigit():
        name = "v_" + name
    base, n = name, 1
    while name in used:
        name = f"{base}_{n}"
        n += 1
    used.add(name)
    return name
