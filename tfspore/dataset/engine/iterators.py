"""Iterators over datasets: ``create_tuple_iterator`` / ``create_dict_iterator`` / ``for row in ds``.

An iterator builds the pipeline once and delivers ``num_epochs`` passes. Each pass ends with
``StopIteration``; iterating the same iterator again continues with the next pass (with fresh
shuffles), as MindSpore's iterators do. Rows are Python lists of :class:`tfspore.Tensor` (or numpy
arrays with ``output_numpy=True``); string columns are numpy ``str`` arrays.

Example:
    >>> import tfspore.dataset as ds
    >>> it = ds.NumpySlicesDataset([1, 2], shuffle=False).create_tuple_iterator(num_epochs=2, output_numpy=True)
    >>> [[int(r[0]) for r in it] for _ in range(3)]
    [[1, 2], [1, 2], []]
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

import numpy as np
import tensorflow as tf

from tfspore._internal import validator as v
from tfspore.dataset.engine import _python_ops as py
from tfspore.dataset.engine._columns import check_known_columns

__all__ = ["Iterator", "TupleIterator", "DictIterator", "pipeline_error"]


def pipeline_error(exc: BaseException, dataset: Any = None) -> RuntimeError:
    """MindSpore's pipeline ``RuntimeError`` for an error raised while the pipeline ran.

    Args:
        exc: A ``tf.errors.OpError`` (or any exception) from iterating a tf.data pipeline built
            by this package.
        dataset: The pipeline that raised it, or ``None``. A source of the pipeline that can say
            which of its files the error comes from (``explain_read_error``: a TFRecord record
            found corrupted in the middle of an epoch, where TensorFlow's message names no file)
            replaces TensorFlow's message with its own.

    Returns:
        A RuntimeError whose message starts with MindSpore's
        ``Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'.`` and
        says what failed (for a Python callable: which one, on which row); its ``__cause__`` is
        the user's original exception when there is one.

    Example:
        >>> import tensorflow as tf
        >>> from tfspore.dataset.engine.iterators import pipeline_error
        >>> isinstance(pipeline_error(tf.errors.InvalidArgumentError(None, None, "bad")), RuntimeError)
        True
    """
    text = getattr(exc, "message", None) or str(exc)
    explained = _explain(dataset, text)
    if explained is not None:
        err = RuntimeError(f"{py.PIPELINE_ERROR}\n- Dataset Pipeline Error Message:\n[ERROR] {explained}")
        err.__cause__ = None
        return err
    found = py.lookup_error(text)
    if found is not None:
        message, original = found
    else:
        message, original = text.strip().split("\n\t [[")[0].strip(), None
        # TensorFlow's own context ("{{function_node ...}} ", " [Op:IteratorGetNext] ...") says nothing to a user
        message = message.split("}} ", 1)[-1].split(" [Op:", 1)[0].strip() if message.startswith("{{") else message
    err = RuntimeError(f"{py.PIPELINE_ERROR}\n- Dataset Pipeline Error Message:\n[ERROR] {message}")
    err.__cause__ = original
    return err


def _explain(dataset: Any, text: str) -> Optional[str]:
    """The first explanation a source of ``dataset``'s tree gives for the error ``text``."""
    stack, seen = [dataset] if dataset is not None else [], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        explain = getattr(node, "explain_read_error", None)
        if callable(explain):
            found = explain(text)
            if found:
                return found
        stack.extend(getattr(node, "children", ()) or ())
    return None


def _to_output(t: tf.Tensor, output_numpy: bool, new_buffer: bool = False) -> Any:
    """A delivered column: a Tensor, or with `output_numpy` a numpy array (a writable view of the
    tensor's buffer when it is a `new_buffer` no one else holds, as MindSpore's ``as_array``; a
    copy otherwise: ``EagerTensor.numpy()`` copies, ``np.asarray`` of it is read-only)."""
    if t.dtype == tf.string:
        return py.decode_strings(np.asarray(t.numpy(), dtype=object))
    if output_numpy:
        view = getattr(t, "_numpy", None) if new_buffer else None
        return np.asarray(view() if view is not None else t.numpy())
    from tfspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    return Tensor._from_tf(t)  # pylint: disable=protected-access


class Iterator:
    """Base class of the dataset iterators.

    Args:
        dataset: The dataset.
        num_epochs: Passes to deliver; -1 for unlimited.
        output_numpy: Deliver numpy arrays instead of Tensors.
        do_copy: Accepted for compatibility.
        columns: Columns to deliver, in order (tuple iterator only).
    """

    def __init__(self, dataset: Any, num_epochs: int = -1, output_numpy: bool = False, do_copy: bool = False,
                 columns: Optional[Union[str, List[str]]] = None):
        api = f"{type(dataset).__name__}.create_{self._kind}_iterator"
        if not v.is_int(num_epochs):
            raise TypeError(f"For '{api}', the argument 'num_epochs' must be of type int, but got {num_epochs!r}.")
        if num_epochs != -1:
            v.check_int_range(num_epochs, "num_epochs", api, 1, v.INT32_MAX)
        v.check_bool(output_numpy, "output_numpy", api)
        del do_copy
        self._dataset = dataset
        names = dataset.get_col_names()
        if columns is not None:
            columns = v.check_unique_names(columns, "columns", api)
            check_known_columns(columns, names, "columns", api)
        self._col_names = list(columns) if columns is not None else names
        data = dataset.to_tf_dataset()
        if columns is not None:
            idx = [names.index(c) for c in columns]
            data = data.map(lambda *row: tuple(row[i] for i in idx))
        self._data = data
        self._num_epochs = int(num_epochs)
        self._output_numpy = output_numpy
        self._new_buffers = dataset._delivers_new_buffers()  # pylint: disable=protected-access
        self._epoch = 0
        self._it = None
        self._left = -1  # rows left in the current pass of a shared iterator (-1: the iterator is per pass)
        self._per_pass: Optional[int] = None
        self._stopped = False

    _kind = "tuple"

    def __iter__(self) -> "Iterator":
        return self

    def _next_row(self) -> tuple:
        if self._stopped:
            raise RuntimeError("Iterator does not have a running pipeline: stop() was called.")
        if self._it is None:
            if self._num_epochs != -1 and self._epoch >= self._num_epochs:
                raise StopIteration
            self._start()
        if self._left == 0:  # the end of a pass of the shared iterator
            self._end_pass(keep=True)
            raise StopIteration
        try:
            row = next(self._it)
        except StopIteration:
            self._end_pass(keep=False)
            raise
        except tf.errors.OpError as exc:
            err = pipeline_error(exc, self._dataset)
            raise err from err.__cause__
        if self._left > 0:
            self._left -= 1
        return row

    def _start(self) -> None:
        """Open the pipeline for the next pass.

        When TensorFlow knows how many rows a pass holds, one iterator runs over all the remaining
        passes (``repeat``) and this iterator counts the rows of each: the pipeline keeps its
        threads, buffers and compiled functions from one pass to the next and prepares the next
        pass's first batches while the current one is consumed, as MindSpore's engine does. Every
        pass still draws fresh shuffles and random numbers (the sources' seeds are drawn anew
        for each repetition). A pipeline that calls the user's Python code (``Dataset._runs_python``)
        opens one iterator per pass instead, so that code never runs ahead into the next pass.
        """
        if self._per_pass is None:
            count = int(self._data.cardinality())
            self._per_pass = count if count > 0 and not self._dataset._runs_python() else -1  # pylint: disable=W0212
        if self._per_pass > 0:
            left = -1 if self._num_epochs == -1 else self._num_epochs - self._epoch
            self._it = iter(self._data.repeat(left))
            self._left = self._per_pass
        else:
            self._it = iter(self._data)
            self._left = -1

    def _end_pass(self, keep: bool) -> None:
        """Count a finished pass; `keep` the shared iterator for the next one."""
        self._epoch += 1
        if keep and (self._num_epochs == -1 or self._epoch < self._num_epochs):
            self._left = self._per_pass
        else:
            self._it = None
            self._left = -1

    def __next__(self) -> Any:
        raise NotImplementedError

    def get_col_names(self) -> List[str]:
        """The names of the delivered columns."""
        return list(self._col_names)

    def reset(self) -> None:
        """Abandon the current pass: the next row comes from the next epoch."""
        if self._it is not None:
            self._it = None
            self._left = -1
            self._epoch += 1

    def stop(self) -> None:
        """Release the pipeline."""
        self._it = None
        self._left = -1
        self._stopped = True

    release = stop

    @property
    def num_epochs(self) -> int:
        """The number of passes this iterator delivers (-1: unlimited)."""
        return self._num_epochs

    @property
    def current_epoch(self) -> int:
        """How many passes were completed."""
        return self._epoch


class TupleIterator(Iterator):
    """Rows as lists of Tensors (or numpy arrays)."""

    _kind = "tuple"

    def __next__(self) -> List[Any]:
        return [_to_output(t, self._output_numpy, self._new_buffers) for t in self._next_row()]


class DictIterator(Iterator):
    """Rows as dicts ``{column: Tensor or ndarray}``."""

    _kind = "dict"

    def __next__(self) -> Dict[str, Any]:
        row = self._next_row()
        return {name: _to_output(t, self._output_numpy, self._new_buffers) for name, t in zip(self._col_names, row)}
