"""``tfspore.keras``: tfspore Cells in Keras models and Keras layers in Cells.

Both directions share the weights' storage, so either framework's training moves the same
weights:

* :func:`to_keras` / :class:`CellLayer`: a Cell as a ``keras.layers.Layer`` (its Parameters are the
  layer's Keras weights), for ``keras.Model.fit`` / ``evaluate`` / ``predict``, Keras optimizers,
  ``save_weights`` and ``keras.callbacks``; the Cell keeps MindSpore's layouts (NCHW).
* :func:`from_keras` / :class:`KerasCell`: a Keras layer or model as a Cell (its Keras weights are
  the Cell's Parameters), for ``Model.train``, tfspore optimizers and checkpoints.

Callbacks go both ways through ``tfspore.train.callback``: Keras callbacks are accepted by
``Model.train`` / ``fit``, and ``as_keras_callback`` runs a tfspore callback in ``keras.Model.fit``.

Example:
    >>> import keras
    >>> import tfspore.keras
    >>> layer = tfspore.keras.to_keras(nn.Dense(4, 3))  # doctest: +SKIP
"""
from tfspore.keras._cell_layer import CellLayer, to_keras
from tfspore.keras._keras_cell import KerasCell, from_keras

__all__ = ["CellLayer", "KerasCell", "from_keras", "to_keras"]
