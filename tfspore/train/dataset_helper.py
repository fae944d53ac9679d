"""``DatasetHelper`` and ``connect_network_with_dataset``: data-sink mode on ``tf.data``.

MindSpore's data sink sends the dataset to a device queue and runs ``sink_size`` steps on the
device per call. On TensorFlow the queue is a ``tf.data`` iterator over the dataset repeated
as one continuous stream, and a sink is one ``tf.function`` that runs ``sink_size`` steps in a
``tf.while_loop`` (Keras's ``steps_per_execution``): in GRAPH_MODE one Python call per sink,
in PYNATIVE_MODE one eager step per call. Both run through the step engine
(``tfspore/train/_engine.py``), which also distributes the stream over a multi-replica
``tf.distribute`` strategy and runs each step through ``strategy.run``.

Example:
    >>> # helper = DatasetHelper(ds_train, dataset_sink_mode=True, sink_size=100, epoch_num=10)
    >>> # net = connect_network_with_dataset(train_net, helper)
    >>> # for inputs in helper:
    >>> #     loss = net(*inputs)
"""
from __future__ import annotations

import math
from typing import Any, Iterator

import tensorflow as tf

from tfspore import context as _context
from tfspore._internal.tensor_wrap import wrap
from tfspore.nn.cell import Cell
from tfspore.train import _engine

__all__ = ["DatasetHelper", "connect_network_with_dataset"]


def _as_dataset(api: str, dataset: Any) -> Any:
    """Return a tfspore Dataset for a tfspore Dataset or a ``tf.data.Dataset``."""
    from tfspore.dataset.engine.datasets import Dataset
    if isinstance(dataset, Dataset):
        return dataset
    if isinstance(dataset, tf.data.Dataset):
        from tfspore.dataset import from_tf_data
        wrapped = from_tf_data(dataset)
        return wrapped
    raise TypeError(f"For '{api}', the dataset must be a tfspore dataset or a tf.data.Dataset, but got "
                    f"{type(dataset).__name__}.")


def _graph_sink() -> bool:
    return _context._mode() == _context.GRAPH_MODE


class DatasetHelper:
    """Iterate a dataset for a training loop, in data-sink mode or not.

    Args:
        dataset: a tfspore dataset or a ``tf.data.Dataset``.
        dataset_sink_mode: whether the data goes through the sink (a compiled multi-step loop).
        sink_size: the steps per sink; -1 means the dataset size.
        epoch_num: the number of epochs the helper will be iterated for.

    Raises:
        TypeError: when ``dataset_sink_mode`` is not a bool.
        ValueError: when ``sink_size`` is 0 or below -1, or ``epoch_num`` is not positive.

    Iterating yields, per epoch: in sink mode, ``()`` once (GRAPH_MODE) or ``sink_size`` times
    (PYNATIVE_MODE), the data coming from the connected network's iterator; otherwise each
    batch as a list of Tensors.
    """

    def __init__(self, dataset: Any, dataset_sink_mode: bool = True, sink_size: int = -1,
                 epoch_num: int = 1) -> None:
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"The input value must be a bool, but got {type(dataset_sink_mode).__name__}.")
        if not isinstance(sink_size, int) or isinstance(sink_size, bool) or sink_size == 0 or sink_size < -1:
            raise ValueError(f"For 'DatasetHelper', the 'sink_size' must be -1 or positive, but got {sink_size!r}.")
        if not isinstance(epoch_num, int) or isinstance(epoch_num, bool) or epoch_num <= 0:
            raise ValueError(f"For 'DatasetHelper', the 'epoch_num' must be a positive int, but got {epoch_num!r}.")
        self.dataset = _as_dataset("DatasetHelper", dataset)
        self.dataset_sink_mode = dataset_sink_mode
        self.epoch_num = epoch_num
        self._size = self.dataset.get_dataset_size()
        self._sink_size = self._size if sink_size == -1 else sink_size
        self._stream: Any = None
        self._built: tf.data.Dataset | None = None

    # -------------------------------------------------------------- the queue
    def _tf_dataset(self) -> tf.data.Dataset:
        """The dataset's ``tf.data`` pipeline, built once and iterated again for each epoch."""
        if self._built is None:
            self._built = self.dataset.to_tf_dataset()
        return self._built

    def _iterator(self) -> Any:
        """The continuous stream (the 'device queue'), created once and kept across epochs.

        Under a multi-replica strategy it iterates the strategy's distributed dataset
        (``_engine.pipeline``).
        """
        if self._stream is None:
            self._stream = iter(_engine.pipeline(self._tf_dataset().repeat()))
        return self._stream

    def get_data_info(self) -> tuple[list, list]:
        """The (dtypes, shapes) of one element."""
        spec = self._tf_dataset().element_spec
        spec = spec if isinstance(spec, tuple) else (spec,)
        return [s.dtype for s in spec], [s.shape.as_list() for s in spec]

    def types_shapes(self) -> tuple[list, list]:
        """Alias of :meth:`get_data_info`."""
        return self.get_data_info()

    def sink_size(self) -> int:
        """The number of steps in one sink (MindSpore's ``DatasetHelper.sink_size()``)."""
        return self._sink_size

    def get_sink_size(self) -> int:
        """The number of steps in one sink."""
        return self._sink_size

    def release(self) -> None:
        """Drop the iterator."""
        self._stream = None

    def stop_send(self) -> None:
        """Compatibility no-op (there is no device queue thread)."""

    def continue_send(self) -> None:
        """Compatibility no-op (there is no device queue thread)."""

    def __len__(self) -> int:
        if not self.dataset_sink_mode:
            return self._size
        return 1 if _graph_sink() else self._sink_size

    def loop_size(self) -> int:
        """Steps run per yielded item: ``sink_size`` in GRAPH_MODE sink, else 1."""
        return self._sink_size if self.dataset_sink_mode and _graph_sink() else 1

    def sink_count(self) -> int:
        """How many passes over the dataset the sink stream covers for ``epoch_num`` epochs."""
        return math.ceil(self.epoch_num * self._sink_size / max(self._size, 1))

    def __iter__(self) -> Iterator[Any]:
        if self.dataset_sink_mode:
            for _ in range(len(self)):
                yield ()
            return
        for element in self._tf_dataset():
            yield [wrap(t) for t in (element if isinstance(element, tuple) else (element,))]


class _DataSinkCell(Cell):
    """A network fed from a DatasetHelper's stream; one call runs one sink through the step engine."""

    def __init__(self, network: Cell, helper: DatasetHelper) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self.__dict__["_helper"] = helper
        self.__dict__["_step_engine"] = _engine.StepEngine(network)
        # the engine's traced sink loops, where SummaryCollector finds the graph a sink runs
        self.__dict__["_loops"] = self._step_engine._loops

    def construct(self, *inputs: Any) -> Any:
        return self.network(*inputs)

    def __call__(self, *inputs: Any) -> Any:
        stream = self._helper._iterator()
        if _context._mode() == _context.GRAPH_MODE:
            return self._step_engine.steps_on_iterator(stream, self._helper.sink_size())
        return self._step_engine.step_on_data(_engine.as_batch(next(stream)))


def connect_network_with_dataset(network: Cell, dataset_helper: DatasetHelper) -> Cell:
    """Feed ``network`` from ``dataset_helper``'s stream (data-sink mode only, as in MindSpore 2.10).

    Args:
        network: the training network.
        dataset_helper: the helper the training loop iterates.

    Returns:
        A Cell called with no inputs that runs one sink (``sink_size`` steps in GRAPH_MODE, one
        step in PYNATIVE_MODE) and returns the last step's outputs.

    Raises:
        TypeError: when the arguments have the wrong types.
        RuntimeError: when ``dataset_helper`` is not in data-sink mode.
    """
    if not isinstance(network, Cell):
        raise TypeError(f"For 'connect_network_with_dataset', the 'network' must be a Cell, but got "
                        f"{type(network).__name__}.")
    if not isinstance(dataset_helper, DatasetHelper):
        raise TypeError(f"For 'connect_network_with_dataset', the 'dataset_helper' must be a DatasetHelper, but got "
                        f"{type(dataset_helper).__name__}.")
    if not dataset_helper.dataset_sink_mode:
        raise RuntimeError("The API 'connect_network_with_dataset' should be called in dataset sink mode.")
    cached = getattr(dataset_helper, "_connected", None)
    if cached is not None and cached.network is network:
        return cached
    sink = _DataSinkCell(network, dataset_helper)
    dataset_helper._connected = sink
    return sink
