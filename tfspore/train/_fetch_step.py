"""Non-sink training steps that take their batch from the iterator inside the compiled call.

In GRAPH_MODE a non-sink step is one ``tf.function`` call. Fetching the batch eagerly first
(``next(iterator)``, then the call) costs a second trip through the runtime on every step, about
0.1 ms on a CPU: a tenth of a small network's step. :class:`FetchingStep` compiles
``iterator.get_next_as_optional()`` and the train network's step into one function, as Keras's
``train_function(iterator)`` does, and returns the batch with the outputs.

The batch is then known only after the step, so ``cb_params.train_dataset_element`` is set
before ``step_end`` but not before ``step_begin``. ``Model`` takes this path only when no callback
can look at the batch in ``step_begin`` (see :func:`step_begin_reads_batch`).
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from tfspore.common.tensor import Tensor, _wrap_nest
from tfspore.nn.cell import Cell
from tfspore.train.dataset_helper import _zero_outputs

__all__: list = []


def step_begin_reads_batch(callbacks: list) -> bool:
    """Whether a callback may read ``cb_params.train_dataset_element`` in its step-begin hook.

    True for a callback whose class (or the instance itself) defines ``step_begin`` or
    ``on_train_step_begin``, unless it declares ``_step_begin_reads_batch`` (the built-ins whose
    hook only reads the clock, polls a file or forwards to Keras say False; LambdaCallback says
    whether it was given a train step-begin function).
    """
    from tfspore.train.callback import Callback  # pylint: disable=import-outside-toplevel
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


class FetchingStep:
    """Calls of ``network``'s compiled step that fetch their batch from an iterator of ``element_spec``.

    Args:
        network: the train network (GRAPH_MODE, no distribution strategy).
        element_spec: the ``tf.data`` element spec of the iterated pipeline.
    """

    def __init__(self, network: Cell, element_spec: Any) -> None:
        self.network = network
        self.element_spec = element_spec
        self.spec = tuple(element_spec) if isinstance(element_spec, tuple) else (element_spec,)
        self._fns: dict = {}
        self._iterator: Any = None  # the iterator of the current epoch and its flat (resource) form
        self._flat_iterator: list = []

    def __call__(self, iterator: Any) -> tuple | None:
        """One step on the iterator's next batch: ``(outputs, batch)``, or None at the end of the data."""
        entry = self._fn()
        if entry is None:  # the current step does not compile into a fetching step: fetch eagerly, then step
            optional = iterator.get_next_as_optional()
            if not optional.has_value():
                return None
            value = optional.get_value()
            element = [Tensor._from_tf(t) for t in (value if isinstance(value, tuple) else (value,))]
            return self.network(*element), element
        call, structure, n_out = entry
        if iterator is not self._iterator:
            self._iterator, self._flat_iterator = iterator, tf.nest.flatten(iterator, expand_composites=True)
        flat = tf.nest.flatten(call(iterator, self._flat_iterator))
        if not flat[0]:
            return None
        outputs = _wrap_nest(tf.nest.pack_sequence_as(structure, flat[1:1 + n_out]))
        return outputs, [Tensor._from_tf(t) for t in flat[1 + n_out:]]

    def supported(self) -> bool:
        """Whether the network's current step compiles into a fetching step (traces it, runs nothing)."""
        return self._fn() is not None

    def _fn(self) -> tuple | None:
        compiled = self.network._compiled_fn()
        entry = self._fns.get(id(compiled))
        if entry is None or entry[0] is not compiled:
            entry = (compiled, self._build(compiled))
            self._fns[id(compiled)] = entry
        return entry[1]

    def _build(self, compiled: Any) -> tuple | None:
        """The traced fetching step for ``compiled``: (call, output structure, output count)."""
        spec = self.spec
        # static shapes only: the step is traced for the shapes it runs (a construct may use x.shape in Python)
        if not all(isinstance(s, tf.TensorSpec) and s.shape.is_fully_defined() for s in spec):
            return None
        try:
            template = _zero_outputs(compiled, spec)
        except Exception:  # noqa: BLE001 pylint: disable=broad-except  (the eager path runs it, or raises)
            return None
        if template is None:
            return None
        structure, zeros = template

        def fetch(iterator: Any) -> list:
            optional = iterator.get_next_as_optional()
            has_value = optional.has_value()

            def run() -> list:
                value = optional.get_value()
                element = tuple(value) if isinstance(value, tuple) else (value,)
                return tf.nest.flatten(compiled(*element)) + list(element)

            def empty() -> list:
                return list(zeros) + [tf.zeros(s.shape, s.dtype) for s in spec]

            return [has_value] + tf.cond(has_value, run, empty)

        try:
            concrete = tf.function(fetch, autograph=False).get_concrete_function(
                tf.data.IteratorSpec(self.element_spec))
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
