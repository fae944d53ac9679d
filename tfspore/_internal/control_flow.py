"""Python control flow on Tensors in compiled user code (MindSpore's GRAPH_MODE ``if``/``while``).

MindSpore compiles ``construct`` from its source, so ``if not overflow: self.optimizer(grads)``
or ``while i < n:`` on Tensors become graph control flow. tfspore traces ``construct`` with
``tf.function``; :func:`call` runs user code (anything defined outside tfspore) through
TensorFlow's AutoGraph while a graph is being traced, so that these statements become
``tf.cond`` / ``tf.while_loop``. tfspore's own code is never converted (tracing cost unchanged).
tfspore runs these user functions through :func:`call`: a Cell's ``construct``, a ``jit``
function, a ``MultitypeFuncGraph`` body and a function given to ``grad`` / ``value_and_grad``.

AutoGraph stages a statement when its condition is a TF tensor. A tfspore Tensor wraps a TF
tensor without being one, so :func:`_install` extends the operators the converted code calls
(``if_stmt``, ``while_stmt``, ``for_stmt``, ``if_exp``, ``not_``, ``and_``, ``or_``,
``assert_stmt`` and the builtins ``int``/``float``/``bool``/``range``): a tfspore Tensor
condition becomes a scalar bool TF tensor (non-bool values test ``!= 0``, as Python truth does),
the variables the statement assigns go through the staged op as TF tensors and come back as
tfspore Tensors (unchanged objects, Parameters included, come back as themselves). Every other
condition keeps AutoGraph's own behaviour: Python values (``if self.training:``, flags, shapes)
stay plain Python, and a ``for i in range(n)`` with a Python ``n`` stays an unrolled loop.

Beyond AutoGraph (MindSpore's graph mode accepts all but ``range(t)``): a ``return`` under a Tensor condition
inside a loop (the branch without a ``return`` carries a placeholder that is never read, since
the function's return flag guards it, so the loop needs no first iteration); a Python ``while``
whose condition becomes a Tensor part-way (its remaining iterations become one
``tf.while_loop``); ``for i in range(t)`` with a Tensor bound (a ``tf.while_loop``, the index a
Tensor); ``assert`` on a Tensor (a ``tf.debugging.Assert``, raised as ``AssertionError`` by
:func:`raise_assertion`); and ``int(t)`` / ``float(t)`` / ``bool(t)`` of a one-element Tensor
whose value is known only when the graph runs (0-d Tensors of an int, float or bool dtype).
"""
from __future__ import annotations

from typing import Any, Callable

import tensorflow as tf

from tfspore._internal.runtime_check import tagged_line
from tfspore._internal.tensor_wrap import Tensor, is_eager, wrap_nest

__all__ = ["call", "is_user_code", "raise_assertion"]

try:  # AutoGraph's internals: without them, user code is traced as it is
    from tensorflow.python.autograph.core import ag_ctx as _ag_ctx
    from tensorflow.python.autograph.core import converter as _converter
    from tensorflow.python.autograph.impl import api as _ag_api
    from tensorflow.python.autograph.operators import control_flow as _ag_cf
    from tensorflow.python.autograph.operators import py_builtins as _ag_builtins
    from tensorflow.python.autograph.operators import variables as _ag_vars
    from tensorflow.python.framework import func_graph as _func_graph
except ImportError:  # pragma: no cover - TF internals moved
    _ag_api = None

# The message prefix of a staged ``assert`` on a Tensor, by which :func:`raise_assertion` knows it
_ASSERT_TAG = "AssertionError: "

# tf.function's own options, with ``assert`` converted (no name scopes, no extra control dependencies)
_OPTIONS = None if _ag_api is None else _converter.ConversionOptions(
    recursive=True, user_requested=True, optional_features=(_converter.Feature.ASSERT_STATEMENTS,))


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


def raise_assertion(error: Exception) -> None:
    """Raise ``AssertionError`` when ``error`` is a failed ``assert`` on a Tensor of a compiled graph.

    A converted ``assert`` on a Tensor fails when the graph runs, where TensorFlow reports it as
    ``InvalidArgumentError``; MindSpore raises ``AssertionError`` with the assert's message.
    Returns without raising for any other error.

    Args:
        error: the error a compiled function raised.

    Raises:
        AssertionError: for a failed ``assert`` on a Tensor.
    """
    line = tagged_line(error, _ASSERT_TAG)
    if line is None:
        return
    message = line.strip()
    message = message.split("\t", 1)[0].split(" [[", 1)[0].strip().removesuffix("]").strip()
    raise AssertionError(message) from None


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
            return wrap_nest(x)
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


_ORIGINAL: dict = {}  # AutoGraph's own operators, which the ones below extend


def _is_symbolic(value: Any) -> bool:
    """Whether ``value`` is a tfspore Tensor whose value is known only when the graph runs."""
    return isinstance(value, Tensor) and not is_eager(value._value())


def _scalar(value: Tensor, api: str) -> tf.Tensor:
    """The only element of ``value`` as a 0-d TF tensor."""
    t = tf.convert_to_tensor(value._value())
    n = t.shape.num_elements()
    if n is not None and n != 1:
        raise ValueError(f"For '{api}', only one element tensors can be converted to Python scalars, but got a "
                         f"tensor of shape {t.shape.as_list()}.")
    return tf.reshape(t, [])


# ----------------------------------------------------------------- staged statements
class _DefineFirst(Exception):
    """The branch traced first lacks a ``return`` that only the other branch can give a shape to."""


def _staged_if(cond: tf.Tensor, body: Callable, orelse: Callable, state: _State, symbol_names: tuple,
               nouts: int) -> None:
    """``if`` on a TF condition; a ``return`` in one branch only gets a never-read placeholder in the other.

    AutoGraph guards the function's return value with a ``do_return`` flag, so the branch that
    does not return may carry any value of the same structure and dtype.
    """
    if_stmt = _ORIGINAL["if_stmt"]
    init = state.get()
    undefined = [k for k in range(nouts) if isinstance(init[k], _ag_vars.UndefinedReturnValue)]
    if not undefined:
        return if_stmt(cond, body, orelse, state.get, state.set, symbol_names, nouts)
    templates: dict = {}

    def filled(branch: Callable, strict: bool) -> Callable:
        def run() -> None:
            branch()
            values = list(state.get())
            missing = [k for k in undefined if isinstance(values[k], _ag_vars.UndefinedReturnValue)]
            templates.update((k, values[k]) for k in undefined if k not in missing)
            if not missing:
                return
            for k in missing:
                if k in templates:
                    values[k] = _ag_cf._placeholder_value(templates[k], None)[0]
                elif strict:
                    raise _DefineFirst()
            state.set(tuple(values))
        return run

    try:
        return if_stmt(cond, filled(body, True), filled(orelse, True), state.get, state.set, symbol_names, nouts)
    except _DefineFirst:  # the else branch returns, the main one does not: trace the else branch first
        state.set(init)
        templates.clear()
    return if_stmt(tf.logical_not(cond), filled(orelse, False), filled(body, False), state.get, state.set,
                   symbol_names, nouts)


def _autocast(value: Any) -> Any:
    """A placeholder for a Python value that a staged loop turns into a tensor (as AutoGraph does)."""
    if isinstance(value, (bool, int, float)):
        t = tf.convert_to_tensor(value)
        return tf.compat.v1.placeholder(t.dtype, t.shape)
    return value


def _return_placeholders(body: Callable, state: _State, opts: dict) -> dict:
    """Give a function return value not yet defined before a staged loop a placeholder of its shape.

    The shape comes from one iteration traced in a scratch graph. AutoGraph would otherwise require
    the loop to run at least once; the placeholder is never read (``do_return`` guards it).
    """
    init = state.get()
    missing = [k for k, v in enumerate(init) if isinstance(v, _ag_vars.UndefinedReturnValue)]
    if not missing:
        return opts
    try:
        with _func_graph.FuncGraph("tfspore_loop_shapes").as_default():
            state.set(tuple(tf.nest.map_structure(_autocast, v) for v in init))
            body()
            first = state.get()
    except (UnboundLocalError, TypeError, ValueError, KeyError):
        return opts  # AutoGraph's own handling reports the problem
    finally:
        state.set(init)
    values = list(init)
    invariants = list(opts.get("shape_invariants", ()))
    for k in missing:
        value, invariant = _ag_cf._placeholder_value(first[k], None, init[k])
        values[k] = value
        if invariant is not None:
            invariants.append((value, invariant))
    state.set(tuple(values))
    return dict(opts, shape_invariants=tuple(invariants)) if invariants else opts


def _staged_while(test: Callable, body: Callable, state: _State, symbol_names: tuple, opts: dict) -> None:
    opts = _return_placeholders(body, state, opts)
    _ORIGINAL["while_stmt"](lambda: _cond(test()), body, state.get, state.set, symbol_names, opts)


class _TensorRange:
    """``range(...)`` with a bound known only when the graph runs: it drives a ``for`` loop."""

    def __init__(self, start: tf.Tensor, stop: tf.Tensor, step: tf.Tensor) -> None:
        self.start, self.stop, self.step = start, stop, step

    def __iter__(self) -> Any:
        raise TypeError("For 'range', a bound that is a Tensor known only when the graph runs can only drive a "
                        "'for' loop in a compiled construct; it has no elements before the graph runs.")

    def in_range(self, index: tf.Tensor) -> tf.Tensor:
        """Whether ``index`` is still inside the range."""
        step = tf.get_static_value(self.step)
        if step is not None:
            return index < self.stop if step > 0 else index > self.stop
        return tf.logical_or(tf.logical_and(self.step > 0, index < self.stop),
                             tf.logical_and(self.step < 0, index > self.stop))


def _tensor_range(*args: Any) -> Any:
    """``range`` whose bounds may be Tensors known only when the graph runs."""
    if not any(_is_symbolic(a) for a in args):
        return _ORIGINAL["overload_of"](range)(*args)
    if not 1 <= len(args) <= 3:
        raise TypeError(f"range expected at most 3 arguments, got {len(args)}")
    dtypes = set()
    for a in args:
        if isinstance(a, Tensor):
            dt = tf.as_dtype(a._value().dtype)
            if not dt.is_integer:
                raise TypeError(f"For 'range', the bound must be an int Tensor, but got a Tensor of dtype {dt.name}.")
            dtypes.add(dt)
    dtype = dtypes.pop() if len(dtypes) == 1 else tf.int64
    bounds = [tf.cast(_scalar(a, "range"), dtype) if isinstance(a, Tensor) else tf.constant(a, dtype) for a in args]
    if len(bounds) == 1:
        bounds = [tf.zeros([], dtype)] + bounds
    if len(bounds) == 2:
        bounds.append(tf.ones([], dtype))
    if tf.get_static_value(bounds[2]) == 0:
        raise ValueError("range() arg 3 must not be zero")
    return _TensorRange(*bounds)


def _tensor_int(x: Any = 0, *base: Any) -> Any:
    if base or not _is_symbolic(x):
        return _ORIGINAL["overload_of"](int)(x, *base)
    t = _scalar(x, "int")
    return Tensor._from_tf(t if t.dtype.is_integer else tf.cast(t, tf.int64))


def _tensor_float(x: Any = 0.0) -> Any:
    if not _is_symbolic(x):
        return _ORIGINAL["overload_of"](float)(x)
    t = _scalar(x, "float")
    return Tensor._from_tf(t if t.dtype.is_floating else tf.cast(t, tf.float32))


def _tensor_bool(*x: Any) -> Any:
    if not x or not _is_symbolic(x[0]):
        return bool(*x)
    return Tensor._from_tf(_cond(x[0]))


_BUILTINS = {int: _tensor_int, float: _tensor_float, bool: _tensor_bool, range: _tensor_range}


def _overload_of(f: Any) -> Any:
    """AutoGraph's builtin overloads, with ``int``/``float``/``bool``/``range`` of graph-time Tensors."""
    try:
        special = _BUILTINS.get(f)
    except TypeError:  # unhashable callable
        special = None
    return special if special is not None else _ORIGINAL["overload_of"](f)


# ----------------------------------------------------------------- operators of converted code
def _tensor_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    if isinstance(cond, Tensor):
        return _staged_if(_cond(cond), body, orelse, _State(get_state, set_state), symbol_names, nouts)
    return _ORIGINAL["if_stmt"](cond, body, orelse, get_state, set_state, symbol_names, nouts)


def _tensor_while_stmt(test, body, get_state, set_state, symbol_names, opts):
    # Python iterations while the condition is a Python value; from the first Tensor condition on,
    # the remaining iterations are one staged loop (e.g. ``while i < n:`` ended by a ``return`` on a Tensor).
    # As AutoGraph does, the first condition is evaluated in a scratch graph: a staged loop evaluates it again.
    if tf.executing_eagerly():
        result = test()
    else:
        with _func_graph.FuncGraph("tfspore_while_test").as_default():
            result = test()
    while True:
        if isinstance(result, (Tensor, tf.Tensor)):
            return _staged_while(test, body, _State(get_state, set_state), symbol_names, opts)
        if not result:
            return None
        body()
        result = test()


def _range_for_stmt(rng, extra_test, body, get_state, set_state, symbol_names, opts):
    """``for i in range(t)`` with a graph-time bound, as a staged while loop over a Tensor index."""
    index = [Tensor._from_tf(rng.start)]

    def aug_get_state():
        return (index[0],) + tuple(get_state())

    def aug_set_state(values):
        index[0] = values[0]
        set_state(values[1:])

    def test():
        in_range = Tensor._from_tf(rng.in_range(tf.convert_to_tensor(index[0]._value())))
        return in_range if extra_test is None else _tensor_and(lambda: in_range, extra_test)

    def aug_body():
        current = index[0]
        body(current)
        index[0] = Tensor._from_tf(tf.convert_to_tensor(current._value()) + rng.step)

    _staged_while(test, aug_body, _State(aug_get_state, aug_set_state), ("<index>",) + tuple(symbol_names), opts)


def _tensor_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    if isinstance(iter_, _TensorRange):
        return _range_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts)
    for_stmt = _ORIGINAL["for_stmt"]
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
        return _staged_if(pending[0], lambda: body(target), lambda: None, _State(get_state, set_state),
                          symbol_names, len(symbol_names))

    return for_stmt(iter_, guarded_test, guarded_body, get_state, set_state, symbol_names, opts)


def _tensor_if_exp(cond, if_true, if_false, expr_repr):
    if isinstance(cond, Tensor):
        state = _State(tuple, lambda values: None)
        out = tf.cond(_cond(cond), lambda: state.unwrap(if_true()), lambda: state.unwrap(if_false()))
        return state.rewrap(out)
    return _ORIGINAL["if_exp"](cond, if_true, if_false, expr_repr)


def _tensor_not(a):
    if isinstance(a, Tensor):
        return Tensor._from_tf(tf.logical_not(_cond(a)))
    return _ORIGINAL["not_"](a)


def _tensor_and(a, b):
    a_val = a()
    if isinstance(a_val, Tensor):
        c = _cond(a_val)
        return Tensor._from_tf(tf.cond(c, lambda: _as_bool(b()), lambda: c))
    return _ORIGINAL["and_"](lambda: a_val, b)


def _tensor_or(a, b):
    a_val = a()
    if isinstance(a_val, Tensor):
        c = _cond(a_val)
        return Tensor._from_tf(tf.cond(c, lambda: c, lambda: _as_bool(b())))
    return _ORIGINAL["or_"](lambda: a_val, b)


def _tensor_assert_stmt(expression1, expression2):
    if _is_symbolic(expression1):
        message = expression2()
        # AutoGraph passes 'Assertion error' for an assert without a message (Python's is empty)
        text = "" if message == "Assertion error" else str(message)
        return tf.debugging.Assert(_cond(expression1), [tf.constant(_ASSERT_TAG + text)])
    return _ORIGINAL["assert_stmt"](expression1, expression2)


def _install() -> None:
    """Extend the operators of AutoGraph-converted code to tfspore Tensor conditions (once)."""
    if _ag_api is None:
        return
    ag = _ag_api._TRANSPILER.get_extra_locals()["ag__"]
    if getattr(ag, "_tfspore_tensors", False):
        return
    operators = {"if_stmt": _tensor_if_stmt, "while_stmt": _tensor_while_stmt, "for_stmt": _tensor_for_stmt,
                 "if_exp": _tensor_if_exp, "not_": _tensor_not, "and_": _tensor_and, "or_": _tensor_or,
                 "assert_stmt": _tensor_assert_stmt}
    for name, fn in operators.items():
        _ORIGINAL[name] = getattr(ag, name)
        setattr(ag, name, fn)
    # builtins called from converted code: int(t), float(t), bool(t), range(t)
    _ORIGINAL["overload_of"] = _ag_builtins.overload_of
    _ag_builtins.overload_of = _overload_of
    ag._tfspore_tensors = True


_install()
