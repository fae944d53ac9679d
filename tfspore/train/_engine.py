"""The step engine: the one place where tfspore's training API runs a network's step.

``Model.train`` / ``eval`` / ``fit`` / ``predict`` and ``DatasetHelper``'s data sink all run their
network through one :class:`StepEngine`, in the manner of Keras's ``make_train_function``. It
runs the network's compiled step (``Cell.compiled_construct``) three ways:

1. :meth:`StepEngine.step_on_data`: one step on a batch the caller already holds.
2. :meth:`StepEngine.step_on_iterator`: one step that takes its batch from a ``tf.data``
   iterator inside the compiled call. Fetching the batch eagerly first costs a second trip
   through TensorFlow's runtime on every step, about 0.1 ms on a CPU: a tenth of a small
   network's step. The batch is then known only after the step.
3. :meth:`StepEngine.steps_on_iterator`: N steps on an iterator in one compiled
   ``tf.while_loop`` (MindSpore's data sink; Keras's ``steps_per_execution``).

Each runs the step through ``strategy.run`` of the current ``tf.distribute`` strategy (the
default strategy when none is active, whose ``run`` just calls the step) and reduces what the
replicas return with :func:`reduce_outputs`. In the compiled calls ``strategy.run`` happens
while tracing, so it costs nothing per step; a step on data with one replica, run eagerly,
calls the network directly (the default strategy's ``run`` costs about 70 us there).

The rest of the module feeds those steps: :func:`pipeline` distributes an input pipeline over
the strategy's replicas, and :func:`data_steps`, :func:`iterator_steps` and :func:`sink_steps`
give one epoch of :class:`Step` objects, which ``Model`` runs between its callbacks (the
callback protocol itself stays in ``model.py``).

Example:
    >>> # engine = StepEngine(train_network)
    >>> # for step in data_steps(engine, pipeline(dataset.to_tf_dataset())):
    >>> #     outputs = step.run()
"""
from __future__ import annotations

from typing import Any, Callable, Iterator

import tensorflow as tf

from tfspore import context as _context
from tfspore._internal import cluster
from tfspore._internal.tensor_wrap import unwrap_nest, wrap, wrap_nest
from tfspore.nn.cell import Cell
from tfspore.train.callback._callback_base import Callback

__all__: list = []

END = object()
"""What :meth:`Step.run` returns when the iterator had no batch left for the step."""


# ----------------------------------------------------------------- strategy
def distributed_strategy() -> tf.distribute.Strategy | None:
    """The active ``tf.distribute`` strategy when it has more than one replica, else None."""
    if tf.distribute.has_strategy():
        strategy = tf.distribute.get_strategy()
        if strategy.num_replicas_in_sync > 1:
            return strategy
    return None


def reduce_outputs(strategy: tf.distribute.Strategy, outputs: Any) -> Any:
    """The replicas' outputs as one: float outputs averaged, the others taken from the first replica.

    With one replica (the default strategy) the outputs are returned as they are.
    """
    if strategy.num_replicas_in_sync == 1:
        return outputs

    def reduce(value: Any) -> Any:
        first = strategy.experimental_local_results(value)[0]
        if getattr(first, "dtype", tf.bool).is_floating:
            return strategy.reduce(tf.distribute.ReduceOp.MEAN, value, axis=None)
        return first
    return tf.nest.map_structure(reduce, outputs)


def pipeline(tf_dataset: tf.data.Dataset) -> Any:
    """``tf_dataset`` distributed over the active strategy's replicas (unchanged with one replica).

    Under the strategy ``communication.init()`` made for the local devices, each replica takes a
    whole element as the script batched it (MindSpore's per-device batch; consecutive elements go
    to consecutive replicas, and a last step without an element for every replica is dropped) and
    nothing is sharded again. Under a strategy the user entered themselves, each element is the
    global batch, split over the replicas as ``tf.distribute`` does.
    """
    strategy = distributed_strategy()
    if strategy is None:
        return tf_dataset
    n = elements_per_step()
    if n > 1:
        size = int(tf_dataset.cardinality())
        if size >= 0:  # whole steps only, as ranks whose shards MindSpore pads to one length
            tf_dataset = tf_dataset.take(size // n * n)
        return strategy.distribute_datasets_from_function(lambda _: tf_dataset)
    return strategy.experimental_distribute_dataset(tf_dataset)


def elements_per_step() -> int:
    """How many of a pipeline's elements one step takes: the replica count under the strategy
    ``communication.init()`` made for the local devices (each replica takes one element), else 1."""
    strategy = distributed_strategy()
    if strategy is not None and strategy is cluster.communication_strategy():
        return int(strategy.num_replicas_in_sync)
    return 1


def as_batch(element: Any) -> list:
    """A pipeline element as the list of inputs the callbacks see and :meth:`StepEngine.step_on_data` takes:
    Tensors, or the strategy's per-replica values under a multi-replica strategy."""
    values = list(element) if isinstance(element, tuple) else [element]
    if distributed_strategy() is not None:
        return values
    return [wrap(t) for t in values]


def output_template(compiled: Any, element_spec: Any) -> tuple | None:
    """One step's output structure and zeros of its dtypes: a loop's initial carried values.

    None when the outputs are not all tensors of plain dtypes (the loop then runs the first step
    before the ``tf.while_loop`` to learn them).
    """
    spec = element_spec if isinstance(element_spec, tuple) else (element_spec,)
    try:
        outputs = compiled.get_concrete_function(*spec).structured_outputs
        flat = tf.nest.flatten(outputs)
        if not flat or not all(isinstance(t, tf.Tensor) for t in flat):
            return None
        zeros = [tf.zeros([d or 0 for d in t.shape.as_list()] if t.shape.rank is not None else [0], t.dtype)
                 for t in flat]
    except (TypeError, ValueError, tf.errors.OpError):
        return None
    return outputs, zeros


def step_begin_reads_batch(callbacks: list) -> bool:
    """Whether a callback may read ``cb_params.train_dataset_element`` in its step-begin hook.

    True for a callback whose class (or the instance itself) defines ``step_begin`` or
    ``on_train_step_begin``, unless it declares ``_step_begin_reads_batch`` (the built-ins whose
    hook only reads the clock, polls a file or forwards to Keras say False; LambdaCallback says
    whether it was given a train step-begin function). Such callbacks need the batch before the
    step, so the step cannot fetch it itself.
    """
    for cb in callbacks:
        declared = getattr(cb, "_step_begin_reads_batch", None)
        if declared is not None:
            if declared:
                return True
            continue
        cls, own = type(cb), vars(cb)
        if (cls.on_train_step_begin is not Callback.on_train_step_begin or cls.step_begin is not Callback.step_begin
                or "on_train_step_begin" in own or "step_begin" in own):
            return True
    return False


# ------------------------------------------------------------------- engine
class StepEngine:
    """The compiled steps of one network.

    Args:
        network: the network whose step runs (e.g. the train network ``TrainOneStepCell(...)``).
    """

    def __init__(self, network: Cell) -> None:
        self.network = network
        self._on_iterator: dict = {}  # (element spec, id(compiled step)) -> (compiled step, traced call or None)
        self._loops: dict = {}  # (steps, id(compiled step), id(strategy)) -> the sink loop's tf.function
        # the last iterator stepped on, the compiled step and traced call used on it, its flat (resource) form
        self._iterator: Any = None
        self._iterator_compiled: Any = None
        self._iterator_entry: tuple | None = None
        self._flat_iterator: list = []
        self._started = False

    def _start(self) -> None:
        """Before the network's first step: with ``parameter_broadcast`` in DATA_PARALLEL, in a job
        joined by ``communication.init()``, every rank takes rank 0's parameters (MindSpore
        broadcasts them when it compiles the network)."""
        self._started = True
        if (_context.get_auto_parallel_context("parameter_broadcast")
                and _context.get_auto_parallel_context("parallel_mode") in ("data_parallel", "hybrid_parallel")):
            cluster.broadcast_from_rank0([p.variable for p in self.network.get_parameters()])

    # ----------------------------------------------------- 1. a step on data
    def step_on_data(self, batch: Any) -> Any:
        """One step on ``batch`` (a list of inputs, as :func:`as_batch` gives), through ``strategy.run``.

        With several replicas each runs the compiled step on its part. With one, the network is
        called as a Cell (its compiled step in GRAPH_MODE, eager in PYNATIVE_MODE) without
        ``strategy.run``: there it would only call the network, and it costs about 70 us a call
        outside a compiled function (replica context and AutoGraph set-up).
        """
        if not self._started:
            self._start()
        strategy = tf.distribute.get_strategy()
        if strategy.num_replicas_in_sync == 1:
            return self.network(*batch)
        outputs = strategy.run(self.network.compiled_construct(), args=tuple(unwrap_nest(list(batch))))
        return wrap_nest(reduce_outputs(strategy, outputs))

    # ------------------------------------------------- 2. a step on an iterator
    @staticmethod
    def may_step_on_iterator() -> bool:
        """Whether a step may fetch its own batch now: in GRAPH_MODE with one replica."""
        return _context._mode() == _context.GRAPH_MODE and distributed_strategy() is None

    def can_step_on_iterator(self, element_spec: Any) -> bool:
        """Whether :meth:`step_on_iterator` compiles the fetch into the step for ``element_spec``.

        It does when :meth:`may_step_on_iterator`, every input has a static shape (the step is
        traced for the shapes it runs: a construct may use ``x.shape`` in Python) and the step's
        outputs are plain tensors. Tracing it here runs nothing.
        """
        return self.may_step_on_iterator() and self._iterator_call(self.network.compiled_construct(),
                                                                   element_spec) is not None

    def step_on_iterator(self, iterator: Any) -> tuple | None:
        """One step on ``iterator``'s next batch: ``(outputs, batch)``, or None when it has none left."""
        if not self._started:
            self._start()
        compiled = self.network.compiled_construct()
        if iterator is not self._iterator or compiled is not self._iterator_compiled:
            self._iterator, self._iterator_compiled = iterator, compiled
            self._iterator_entry = self._iterator_call(compiled, iterator.element_spec)
            self._flat_iterator = tf.nest.flatten(iterator, expand_composites=True)
        entry = self._iterator_entry
        if entry is None:  # the step does not compile with the fetch: fetch eagerly, then step
            optional = iterator.get_next_as_optional()
            if not optional.has_value():
                return None
            batch = as_batch(optional.get_value())
            return self.step_on_data(batch), batch
        call, structure, n_out = entry
        flat = tf.nest.flatten(call(iterator, self._flat_iterator))
        if not flat[0]:
            return None
        outputs = wrap_nest(tf.nest.pack_sequence_as(structure, flat[1:1 + n_out]))
        return outputs, [wrap(t) for t in flat[1 + n_out:]]

    def _iterator_call(self, compiled: Any, element_spec: Any) -> tuple | None:
        """The traced fetch-and-step of ``compiled`` for ``element_spec`` (traced once, then kept)."""
        key = (element_spec, id(compiled))
        entry = self._on_iterator.get(key)
        if entry is None or entry[0] is not compiled:
            entry = (compiled, self._trace_iterator_step(compiled, element_spec))
            self._on_iterator[key] = entry
        return entry[1]

    @staticmethod
    def _trace_iterator_step(compiled: Any, element_spec: Any) -> tuple | None:
        """The traced fetch-and-step for ``compiled``: (call, output structure, output count), or None."""
        spec = tuple(element_spec) if isinstance(element_spec, tuple) else (element_spec,)
        if not all(isinstance(s, tf.TensorSpec) and s.shape.is_fully_defined() for s in spec):
            return None
        try:
            template = output_template(compiled, spec)
        except Exception:  # noqa: BLE001 pylint: disable=broad-except  (the eager path runs it, or raises)
            return None
        if template is None:
            return None
        structure, zeros = template
        strategy = tf.distribute.get_strategy()

        def fetch_and_step(iterator: Any) -> list:
            optional = iterator.get_next_as_optional()
            has_value = optional.has_value()

            def step() -> list:
                value = optional.get_value()
                element = tuple(value) if isinstance(value, tuple) else (value,)
                return tf.nest.flatten(strategy.run(compiled, args=element)) + list(element)

            def empty() -> list:
                return list(zeros) + [tf.zeros(s.shape, s.dtype) for s in spec]

            return [has_value] + tf.cond(has_value, step, empty)

        try:
            concrete = tf.function(fetch_and_step, autograph=False).get_concrete_function(
                tf.data.IteratorSpec(element_spec))
        except Exception:  # noqa: BLE001 pylint: disable=broad-except  (the eager path runs it, or raises)
            return None
        flat_call = getattr(concrete, "_call_flat", None)
        if flat_call is None:  # a TensorFlow without the flat call: the structured call
            def call(iterator: Any, flat_iterator: list) -> Any:
                return concrete(iterator)
        else:  # skips matching the iterator against the trace cache, ~0.1 ms a step
            captured = concrete.captured_inputs

            def call(iterator: Any, flat_iterator: list) -> Any:
                return flat_call(flat_iterator, captured)
        return call, structure, len(tf.nest.flatten(structure))

    # ----------------------------------------- 3. N steps on an iterator (sink)
    def steps_on_iterator(self, iterator: Any, steps: int) -> Any:
        """``steps`` steps on ``iterator`` in one compiled loop; the last step's outputs.

        The iterator is the sink's endless stream, so it never runs out.
        """
        if not self._started:
            self._start()
        strategy = tf.distribute.get_strategy()
        compiled = self.network.compiled_construct()
        key = (steps, id(compiled), id(strategy))
        loop = self._loops.get(key)
        if loop is None:
            loop = tf.function(self._loop(compiled, strategy, steps), autograph=False)
            self._loops.clear()  # one configuration at a time: a changed step replaces the loop
            self._loops[key] = loop
        return wrap_nest(loop(iterator))

    @staticmethod
    def _loop(compiled: Any, strategy: tf.distribute.Strategy, steps: int) -> Callable:
        def step(*element: Any) -> Any:
            return reduce_outputs(strategy, strategy.run(compiled, args=element))

        def loop(iterator: Any) -> Any:
            template = None if strategy.num_replicas_in_sync > 1 else output_template(compiled, iterator.element_spec)
            if template is None:
                first, start = step(*_as_tuple(iterator.get_next())), 1
                flat = [tf.convert_to_tensor(t) for t in tf.nest.flatten(first)]
            else:
                # the step appears once in the graph (half the graph to optimize on the first call)
                (first, flat), start = template, 0

            def body(i: tf.Tensor, *carried: tf.Tensor) -> tuple:
                out = step(*_as_tuple(iterator.get_next()))
                return (i + 1,) + tuple(tf.convert_to_tensor(t) for t in tf.nest.flatten(out))

            res = tf.while_loop(lambda i, *c: i < steps, body, (tf.constant(start),) + tuple(flat),
                                shape_invariants=(tf.TensorShape([]),) + tuple(tf.TensorShape(None) for _ in flat))
            return tf.nest.pack_sequence_as(first, list(res[1:]))
        return loop

    # ------------------------------------------------------------- compile
    def compile(self, element_spec: Any) -> None:
        """Trace the network's step for ``element_spec`` now (GRAPH_MODE), so the first step starts compiled."""
        if _context._mode() != _context.GRAPH_MODE:
            return
        self.network.compiled_construct().get_concrete_function(*_as_tuple(element_spec))


def _as_tuple(element: Any) -> tuple:
    return tuple(element) if isinstance(element, tuple) else (element,)


# -------------------------------------------------------------- epochs of steps
class Step:
    """One step (or one sink of steps) about to run: ``count`` steps, on ``batch`` when known before.

    :meth:`run` runs it and returns the outputs, or :data:`END` when the data ran out first;
    ``batch`` is known after a successful run.
    """

    __slots__ = ("count", "batch", "_run")

    def __init__(self, count: int, batch: Any, run: Callable[["Step"], Any]) -> None:
        self.count = count
        self.batch = batch
        self._run = run

    def run(self) -> Any:
        """Run the step; its outputs, or :data:`END`."""
        return self._run(self)


def data_steps(engine: StepEngine, elements: Any) -> Iterator[Step]:
    """One step per element of ``elements`` (an epoch of a pipeline, or an iterator's remaining
    elements), each fetched before its step."""
    for element in elements:
        yield Step(1, as_batch(element), lambda s: engine.step_on_data(s.batch))


def epochs_of_iterator_steps(engine: StepEngine, distributed: Any, count: int) -> Callable[[], Iterator[Step]]:
    """A function giving one epoch of ``count`` steps after another, as :func:`iterator_steps`.

    Where TensorFlow knows the pipeline holds exactly ``count`` elements (``cardinality``), the
    epochs share one iterator over the repeated pipeline, as MindSpore's engine runs its pipeline
    across epochs: a fresh iterator every epoch would restart the pipeline's threads and refill
    its buffers before the epoch's first step (a whole-epoch ``shuffle`` buffer, for one), which
    costs a few ms a step in short epochs. Elsewhere each epoch makes its own iterator, so a
    dataset whose size is wrong still trains on every batch it has.
    """
    if isinstance(distributed, tf.data.Dataset) and count > 0 and int(distributed.cardinality()) == count:
        shared: list = []

        def epoch() -> Iterator[Step]:
            if not shared:
                shared.append(iter(distributed.repeat()))
            return _count_steps(engine, shared[0], count)
        return epoch
    return lambda: iterator_steps(engine, distributed, count)


def _count_steps(engine: StepEngine, iterator: Any, count: int) -> Iterator[Step]:
    def run(step: Step) -> Any:
        result = engine.step_on_iterator(iterator)
        if result is None:
            return END
        outputs, step.batch = result
        return outputs

    for _ in range(count):
        yield Step(1, None, run)


def iterator_steps(engine: StepEngine, distributed: Any, count: int) -> Iterator[Step]:
    """An epoch of ``distributed`` whose first ``count`` steps fetch their batch inside the compiled step.

    ``count`` is the dataset's size; batches beyond it (a dataset that said less than it has) are
    fetched before their step, and a dataset that has fewer ends with :data:`END`.
    """
    iterator = iter(distributed)
    yield from _count_steps(engine, iterator, count)
    yield from data_steps(engine, iterator)


def sink_steps(sink: Cell, loop_size: int, calls: int) -> Iterator[Step]:
    """An epoch of data sink: ``calls`` calls of ``sink`` (a network connected to a DatasetHelper),
    each running ``loop_size`` steps."""
    for _ in range(calls):
        yield Step(loop_size, (), lambda s: sink())
