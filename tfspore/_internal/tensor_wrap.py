"""Moving values between TensorFlow and the Tensor wrapper: the one internal API for it.

``tfspore.Tensor`` (``tfspore/common/tensor.py``) holds a ``tf.Tensor``. Every op in ``ops``,
``nn`` and ``train`` is TensorFlow code between two conversions: its inputs become TF values
(:func:`as_tf`, :func:`unwrap_nest`) and its results become Tensors again (:func:`wrap`,
:func:`wrap_nest`). The conversions run in Python at trace time only: inside a compiled step
they cost nothing per step.

This module sits above ``tfspore.common.tensor`` (it re-exports the functions defined there,
next to the class they need); modules of ``tfspore.common`` itself use them from there.

Example:
    >>> import tensorflow as tf
    >>> from tfspore._internal.tensor_wrap import unwrap_nest, wrap
    >>> t = wrap(tf.constant([1.0, 2.0]))
    >>> type(t).__name__, unwrap_nest((t, 3))[1]
    ('Tensor', 3)
"""
from tfspore.common.tensor import (Tensor, as_tf, check_broadcast, default_numpy, is_eager, promote, result_dtype,
                                   unwrap_nest, wrap, wrap_nest)

__all__ = ["Tensor", "as_tf", "check_broadcast", "default_numpy", "is_eager", "promote", "result_dtype",
           "unwrap_nest", "wrap", "wrap_nest"]
