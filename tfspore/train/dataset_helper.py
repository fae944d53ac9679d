"""``DatasetHelper`` and ``connect_network_with_dataset``: data-sink mode on ``tf.data``.

MindSpore's data sink sends the dataset to a device queue and runs ``sink_size`` steps on the
device per call. On TensorFlow the queue is a ``tf.data`` iterator over the dataset repeated
as one continuous stream, and a sink is one ``tf.function`` that runs ``sink_size`` steps in a
``tf.while_loop`` (Keras's ``steps_per_execution``): in GRAPH_MODE one Python call per sink,
in PYNATIVE_MODE one eager step per call. Under a multi-replica ``tf.distribute`` strategy the
stream is the strategy's distributed dataset and each step runs through ``strategy.run``
(float outputs averaged over the replicas, others taken from the first), inside the same loop.

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
from tfspore.common.tensor import Tensor, _wrap_nest
from tfspore.nn.cell import Cell

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


def _strategy() -> tf.distribute.Strategy | None:
    """The active ``tf.distribute`` strategy when it has more than one replica, else None."""
    if tf.distribute.has_strategy():
        strategy = tf.distribute.get_strategy()
        if strategy.num_replicas_in_sync > 1:
            return strategy
    return None


def _replicated_step(strategy: tf.distribute.Strategy, fn: Any, element: Any) -> Any:
    """Run ``fn`` on every replica's part of ``element``; average float outputs, take the others from replica 0."""
    element = element if isinstance(element, tuple) else (element,)
    per_replica = strategy.run(fn, args=element)

    def reduce(value: Any) -> Any:
        first = strategy.experimental_local_results(value)[0]
        if getattr(first, "dtype", tf.bool).is_floating:
            return strategy.reduce(tf.distribute.ReduceOp.MEAN, value, axis=None)
        return first
    return tf.nest.map_structure(reduce, per_replica)


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
        self.sink_size = self._size if sink_size == -1 else sink_size
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

        Under a multi-replica strategy it iterates the strategy's distributed dataset, each
        global batch split over the replicas.
        """
        if self._stream is None:
            stream = self._tf_dataset().repeat()
            strategy = _strategy()
            if strategy is not None:
                stream = strategy.experimental_distribute_dataset(stream)
            self._stream = iter(stream)
        return self._stream

    def get_data_info(self) -> tuple[list, list]:
        """The (dtypes, shapes) of one element."""
        spec = self._tf_dataset().element_spec
        spec = spec if isinstance(spec, tuple) else (spec,)
        return [s.dtype for s in spec], [s.shape.as_list() for s in spec]

    def types_shapes(self) -> tuple[list, list]:
        """Alias of :meth:`get_data_info`."""
        return self.get_data_info()

    def sink_size_(self) -> int:
        return self.sink_size

    def get_sink_size(self) -> int:
        """The number of steps in one sink."""
        return self.sink_size

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
        return 1 if _graph_sink() else self.sink_size

    def loop_size(self) -> int:
        """Steps run per yielded item: ``sink_size`` in GRAPH_MODE sink, else 1."""
        return self.sink_size if self.dataset_sink_mode and _graph_sink() else 1

    def sink_count(self) -> int:
        """How many passes over the dataset the sink stream covers for ``epoch_num`` epochs."""
        return math.ceil(self.epoch_num * self.sink_size / max(self._size, 1))

    def __iter__(self) -> Iterator[Any]:
        if self.dataset_sink_mode:
            for _ in range(len(self)):
                yield ()
            return
        for element in self._tf_dataset():
            yield [Tensor._from_tf(t) for t in (element if isinstance(element, tuple) else (element,))]


def _zero_outputs(compiled_step: Any, element_spec: Any) -> tuple | None:
    """One step's output structure and zeros of its dtypes: the sink loop's initial carried values.

    None when the outputs are not all tensors of plain dtypes; the loop then runs the first step
    before the ``tf.while_loop`` to learn them.
    """
    spec = element_spec if isinstance(element_spec, tuple) else (element_spec,)
    try:
        outputs = compiled_step.get_concrete_function(*spec).structured_outputs
        flat = tf.nest.flatten(outputs)
        if not flat or not all(isinstance(t, tf.Tensor) for t in flat):
            return None
        zeros = [tf.zeros([d or 0 for d in t.shape.as_list()] if t.shape.rank is not None else [0], t.dtype)
                 for t in flat]
    except (TypeError, ValueError, tf.errors.OpError):
        return None
    return outputs, zeros


class _DataSinkCell(Cell):
    """A network fed from a DatasetHelper's stream; one call runs one sink."""

    def __init__(self, network: Cell, helper: DatasetHelper) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self.__dict__["_helper"] = helper
        self.__dict__["_loops"] = {}

    def construct(self, *inputs: Any) -> Any:
        return self.network(*inputs)

    def _loop_fn(self, steps: int, strategy: tf.distribute.Strategy | None) -> Any:
        compiled_step = self.network._compiled_fn()
        key = (steps, id(compiled_step), id(strategy))
        fn = self._loops.get(key)
        if fn is None:
            def step(*element: Any) -> Any:
                if strategy is not None:
                    return _replicated_step(strategy, compiled_step, element)
                return compiled_step(*element)

            def loop(iterator: Any) -> Any:
                template = None if strategy is not None else _zero_outputs(compiled_step, iterator.element_spec)
                if template is None:
                    first, start = step(*iterator.get_next()), 1
                    flat = [tf.convert_to_tensor(t) for t in tf.nest.flatten(first)]
                else:
                    # the step appears once in the graph (half the graph to optimize on the first call)
                    (first, flat), start = template, 0

                def body(i: tf.Tensor, *carried: tf.Tensor) -> tuple:
                    out = step(*iterator.get_next())
                    return (i + 1,) + tuple(tf.convert_to_tensor(t) for t in tf.nest.flatten(out))

                res = tf.while_loop(lambda i, *c: i < steps, body, (tf.constant(start),) + tuple(flat),
                                    shape_invariants=(tf.TensorShape([]),) + tuple(
                                        tf.TensorShape(None) for _ in flat))
                return tf.nest.pack_sequence_as(first, list(res[1:]))
            fn = tf.function(loop, autograph=False)
            self._loops.clear()
            self._loops[key] = fn
        return fn

    def __call__(self, *inputs: Any) -> Any:
        helper = self._helper
        it = helper._iterator()
        strategy = _strategy()
        if _context._mode() == _context.GRAPH_MODE:
            return _wrap_nest(self._loop_fn(helper.sink_size, strategy)(it))
        element = next(it)
        if strategy is not None:
            return _wrap_nest(_replicated_step(strategy, self.network._compiled_fn(), element))
        element = element if isinstance(element, tuple) else (element,)
        return self.network(*[Tensor._from_tf(t) for t in element])


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
