"""Python control flow on Tensors in compiled user code (MindSpore's GRAPH_MODE ``if``/``while``).

MindSpore compiles ``construct`` from its source, so ``if not overflow: self.optimizer(grads)``
or ``while i < n:`` on Tensors become graph control flow. tfspore traces ``construct`` with
``tf.function``; :func:`call` runs user code (anything defined outside tfspore) through
TensorFlow's AutoGraph while a graph is being traced, so that these statements become
``tf.cond`` / ``tf.while_loop``. tfspore's own code is never converted (tracing cost unchanged).

AutoGraph stages a statement when its condition is a TF tensor. A tfspore Tensor wraps a TF
tensor without being one, so :func:`_install` extends the operators the converted code calls
(``if_stmt``, ``while_stmt``, ``if_exp``, ``not_``, ``and_``, ``or_``): a tfspore Tensor
condition becomes a scalar bool TF tensor (non-bool values test ``!= 0``, as Python truth does),
the variables the statement assigns go through the staged op as TF tensors and come back as
tfspore Tensors (unchanged objects, Parameters included, come back as themselves). Every other
condition keeps AutoGraph's own behaviour: Python values (``if self.training:``, flags, shapes)
stay plain Python, and a ``for i in range(n)`` with a Python ``n`` stays an unrolled loop.
"""
from __future__ import annotations

from typing import Any, Callable

import tensorflow as tf

from tfspore.common.tensor import Tensor, _wrap_nest

__all__ = ["call", "is_user_code"]

try:  # AutoGraph's internals: without them, user code is traced as it is
    from tensorflow.python.autograph.core import ag_ctx as _ag_ctx
    from tensorflow.python.autograph.core import converter as _converter
    from tensorflow.python.autograph.impl import api as _ag_api
except ImportError:  # pragma: no cover - TF internals moved
    _ag_api = None

# tf.function's own options: no optional features (no name scopes, no extra control dependencies)
_OPTIONS = None if _ag_api is None else _converter.ConversionOptions(recursive=True, user_requested=True,
                                                                     optional_features=None)


def is_user_code(fn: Callable) -> bool:
    """Whether ``fn`` (a function or bound method) is defined outside tfspore."""
    module = getattr(fn, "__module__", None)
    return isinstance(module, str) and not (module == "tfspore" or module.startswith("tfspore."))


def call(fn: Callable, args: tuple, kwargs: dict) -> Any:
    """``fn(*args, **kwargs)``; while a graph is traced, user code runs converted by AutoGraph.

    Args:
        fn: a user function or bound method (``Cell.construct``, a ``jit`` function).
        args: positional arguments.
        kwargs: keyword arguments.

    Returns:
        What ``fn`` returns.
    """
    if _ag_api is None or tf.executing_eagerly() or not is_user_code(fn):
        return fn(*args, **kwargs)
    with _ag_ctx.ControlStatusCtx(status=_ag_ctx.Status.ENABLED):
        try:
            return _ag_api.converted_call(fn, args, kwargs or None, options=_OPTIONS)
        except Exception as e:  # noqa: BLE001 - re-raised with the user's source location
            meta = getattr(e, "ag_error_metadata", None)
            if meta is None:
                raise
            raise meta.to_exception(e) from None


# ----------------------------------------------------------------- AutoGraph operators
def _cond(value: Any) -> Any:
    """A tfspore Tensor as a scalar bool TF tensor (its truth value); other values unchanged."""
    if not isinstance(value, Tensor):
        return value
    t = tf.convert_to_tensor(value)
    if t.dtype != tf.bool:
        t = tf.not_equal(t, tf.zeros([], t.dtype))
    if t.shape.rank != 0:
        n = t.shape.num_elements()
        if n is not None and n != 1:
            raise ValueError(f"The tensor should have only one element, but got {n}, more than one element is "
                             f"ambiguous (a condition of shape {t.shape.as_list()}).")
        t = tf.reshape(t, [])
    return t


def _as_bool(value: Any) -> tf.Tensor:
    """The truth value of ``value`` (tfspore Tensor, TF tensor or Python value) as a bool TF tensor."""
    if isinstance(value, Tensor):
        return _cond(value)
    if isinstance(value, (tf.Tensor, tf.Variable)):
        return tf.cast(value, tf.bool)
    return tf.constant(bool(value))


_PYTHON_ITERABLES = (range, list, tuple, dict, Tensor, enumerate, zip, map, filter, reversed)


class _State:
    """``get_state``/``set_state`` of a staged statement with tfspore Tensors as TF tensors."""

    def __init__(self, get_state: Callable, set_state: Callable) -> None:
        self._get = get_state
        self._set = set_state
        self._originals: dict = {}  # id(TF value) -> (TF value, the tfspore object it came from)

    def _unwrap(self, x: Any) -> Any:
        if isinstance(x, Tensor):
            v = x._value()
            self._originals[id(v)] = (v, x)
            return v
        return x

    def _rewrap(self, x: Any) -> Any:
        if isinstance(x, (tf.Tensor, tf.Variable)):
            kept = self._originals.get(id(x))
            if kept is not None and kept[0] is x:
                return kept[1]
            return _wrap_nest(x)
        return x

    def unwrap(self, struct: Any) -> Any:
        """``struct`` with its tfspore Tensors as TF values (remembered for :meth:`rewrap`)."""
        return tf.nest.map_structure(self._unwrap, struct)

    def rewrap(self, struct: Any) -> Any:
        """``struct`` with its TF values as tfspore Tensors (the original object where unchanged)."""
        return tf.nest.map_structure(self._rewrap, struct)

    def get(self) -> tuple:
        return tuple(self.unwrap(v) for v in self._get())

    def set(self, values: tuple) -> None:
        self._set(tuple(self.rewrap(v) for v in values))


def _install() -> None:
    """Extend the operators of AutoGraph-converted code to tfspore Tensor conditions (once)."""
    if _ag_api is None:
        return
    ag = _ag_api._TRANSPILER.get_extra_locals()["ag__"]
    if getattr(ag, "_tfspore_tensors", False):
        return
    if_stmt, while_stmt, if_exp, for_stmt = ag.if_stmt, ag.while_stmt, ag.if_exp, ag.for_stmt
    not_, and_, or_ = ag.not_, ag.and_, ag.or_

    def tensor_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
        if isinstance(cond, Tensor):
            state = _State(get_state, set_state)
            return if_stmt(_cond(cond), body, orelse, state.get, state.set, symbol_names, nouts)
        return if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts)

    def tensor_while_stmt(test, body, get_state, set_state, symbol_names, opts):
        state = _State(get_state, set_state)
        return while_stmt(lambda: _cond(test()), body, state.get, state.set, symbol_names, opts)

    def tensor_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
        # A Python loop (unrolled) whose break/return depends on a Tensor: once the loop's stop
        # test is a Tensor, each further iteration runs under a tf.cond on it, as MindSpore unrolls.
        if extra_test is None or not isinstance(iter_, _PYTHON_ITERABLES):
            return for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts)
        pending = [None]

        def guarded_test():
            result = extra_test()
            if isinstance(result, Tensor):
                pending[0] = _cond(result)
                return True
            pending[0] = None
            return result

        def guarded_body(target):
            if pending[0] is None:
                return body(target)
            state = _State(get_state, set_state)
            return if_stmt(pending[0], lambda: body(target), lambda: None, state.get, state.set, symbol_names,
                           len(symbol_names))

        return for_stmt(iter_, guarded_test, guarded_body, get_state, set_state, symbol_names, opts)

    def tensor_if_exp(cond, if_true, if_false, expr_repr):
        if isinstance(cond, Tensor):
            state = _State(tuple, lambda values: None)
            out = tf.cond(_cond(cond), lambda: state.unwrap(if_true()), lambda: state.unwrap(if_false()))
            return state.rewrap(out)
        return if_exp(cond, if_true, if_false, expr_repr)

    def tensor_not(a):
        if isinstance(a, Tensor):
            return Tensor._from_tf(tf.logical_not(_cond(a)))
        return not_(a)

    def tensor_and(a, b):
        a_val = a()
        if isinstance(a_val, Tensor):
            c = _cond(a_val)
            return Tensor._from_tf(tf.cond(c, lambda: _as_bool(b()), lambda: c))
        return and_(lambda: a_val, b)

    def tensor_or(a, b):
        a_val = a()
        if isinstance(a_val, Tensor):
            c = _cond(a_val)
            return Tensor._from_tf(tf.cond(c, lambda: c, lambda: _as_bool(b())))
        return or_(lambda: a_val, b)

    ag.if_stmt, ag.while_stmt, ag.if_exp = tensor_if_stmt, tensor_while_stmt, tensor_if_exp
    ag.for_stmt = tensor_for_stmt
    ag.not_, ag.and_, ag.or_ = tensor_not, tensor_and, tensor_or
    ag._tfspore_tensors = True


_install()
