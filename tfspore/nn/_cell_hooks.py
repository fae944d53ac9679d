"""Forward and backward hooks of a Cell (``register_forward_pre_hook`` ... ``register_backward_hook``).

The registration methods and the runners that ``Cell._run_construct`` calls around
``construct``. Hooks see concrete values: inside a trace they run through ``tf.py_function``
(``tfspore/nn/_hooks.py``). Registering or removing a hook bumps the configuration epoch, so the
next GRAPH_MODE call traces again with the hook in place.
"""
from __future__ import annotations

import logging
import warnings
from collections import OrderedDict
from typing import Any, Callable

import tensorflow as tf

from tfspore._internal import state as _state
from tfspore.nn._cell_parallel import _warn_once
from tfspore.nn._hooks import HookHandle, _BackwardHookScope, _check_hook, _run_with_values

_logger = logging.getLogger("tfspore")


class CellHooks:
    """The forward and backward hooks of :class:`~tfspore.nn.Cell`."""

    def register_forward_pre_hook(self, hook_fn: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> HookHandle:
        """Call ``hook_fn(cell, args)`` (``hook_fn(cell, args, kwargs)``) before ``construct``.

        A non-None return replaces the args (a single value is wrapped in a tuple); with
        ``with_kwargs`` it must be ``(args, kwargs)``.

        Args:
            hook_fn: the hook.
            prepend: run it before the hooks already registered.
            with_kwargs: pass the keyword arguments too.

        Returns:
            A :class:`HookHandle`; ``handle.remove()`` unregisters the hook.

        Raises:
            TypeError: when ``hook_fn`` is not callable.
        """
        _check_hook("register_forward_pre_hook", hook_fn)
        handle = HookHandle(self._forward_pre_hook, self._forward_pre_hook_with_kwargs)
        if with_kwargs:
            self._forward_pre_hook_with_kwargs[handle.handle_id] = True
        self._add_hook(self._forward_pre_hook, handle.handle_id, hook_fn, prepend)
        return handle

    def register_forward_hook(self, hook_fn: Callable, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> HookHandle:
        """Call ``hook_fn(cell, args, output)`` (``hook_fn(cell, args, kwargs, output)``) after ``construct``.

        A non-None return replaces the output.

        Args:
            hook_fn: the hook.
            prepend: run it before the hooks already registered.
            with_kwargs: pass the keyword arguments too.
            always_call: also call it when ``construct`` raises (the error is raised afterwards).

        Returns:
            A :class:`HookHandle`; ``handle.remove()`` unregisters the hook.

        Raises:
            TypeError: when ``hook_fn`` is not callable.
        """
        _check_hook("register_forward_hook", hook_fn)
        handle = HookHandle(self._forward_hook, self._forward_hook_with_kwargs, self._forward_hook_always_called)
        if with_kwargs:
            self._forward_hook_with_kwargs[handle.handle_id] = True
        if always_call:
            self._forward_hook_always_called[handle.handle_id] = True
        self._add_hook(self._forward_hook, handle.handle_id, hook_fn, prepend)
        return handle

    def register_backward_pre_hook(self, hook_fn: Callable) -> HookHandle:
        """Call ``hook_fn(cell, grad_output)`` when the gradient of this cell's output arrives.

        ``grad_output`` is a tuple; a non-None return (same length) replaces it.

        Raises:
            TypeError: when ``hook_fn`` is not callable.
        """
        return self._add_backward_hook("register_backward_pre_hook", self._backward_pre_hook, hook_fn)

    def register_backward_hook(self, hook_fn: Callable) -> HookHandle:
        """Call ``hook_fn(cell, grad_input, grad_output)`` with the gradients of this cell's inputs.

        Both are tuples; a non-None return (same length as ``grad_input``) replaces ``grad_input``.

        Raises:
            TypeError: when ``hook_fn`` is not callable.
        """
        return self._add_backward_hook("register_backward_hook", self._backward_hook, hook_fn)

    def _add_backward_hook(self, api_name: str, registry: dict, hook_fn: Callable) -> HookHandle:
        """Check ``hook_fn`` for ``api_name`` and append it to the backward registry ``registry``."""
        _check_hook(api_name, hook_fn)
        handle = HookHandle(registry)
        self._add_hook(registry, handle.handle_id, hook_fn, False)
        return handle

    def register_parameter_forward_hook(self, hook: Any) -> None:
        """Register hooks applied to parameters when read in construct (compatibility: stored only)."""
        self._parameter_forward_hooks.append(hook)

    def register_saved_tensors_hooks(self, pack_hook: Callable, unpack_hook: Callable) -> None:
        """Accepted for compatibility: TensorFlow does not expose saved-tensor hooks."""
        _warn_once("Cell.register_saved_tensors_hooks")

    @staticmethod
    def _add_hook(hooks: OrderedDict, hid: int, fn: Callable, prepend: bool) -> None:
        hooks[hid] = fn
        if prepend:
            hooks.move_to_end(hid, last=False)
        _state.bump()

    def _run_forward_pre_hook(self, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        for hid, fn in list(self._forward_pre_hook.items()):
            if hid in self._forward_pre_hook_with_kwargs:
                res = fn(self, args, kwargs)
                if res is not None:
                    if not (isinstance(res, tuple) and len(res) == 2):
                        raise RuntimeError("forward pre hook with kwargs must return None or a tuple of (new_args, "
                                           f"new_kwargs), but got {res}")
                    args, kwargs = res
            else:
                res = fn(self, args)
                if res is not None:
                    args = res if isinstance(res, tuple) else (res,)
        return args, kwargs

    def _run_forward_hook(self, args: tuple, kwargs: dict, output: Any, called: set) -> Any:
        for hid, fn in list(self._forward_hook.items()):
            if hid in self._forward_hook_always_called:
                called.add(hid)
            if hid in self._forward_hook_with_kwargs:
                res = fn(self, args, kwargs, output)
            else:
                res = fn(self, args, output)
            if res is not None:
                output = res
        return output

    def _run_always_called_hooks(self, args: tuple, kwargs: dict, output: Any, called: set) -> None:
        for hid, fn in list(self._forward_hook.items()):
            if hid not in self._forward_hook_always_called or hid in called:
                continue
            try:
                res = fn(self, args, kwargs, output) if hid in self._forward_hook_with_kwargs else fn(self, args,
                                                                                                      output)
                if res is not None:
                    output = res
            except Exception as e:  # noqa: BLE001 (the forward error is re-raised by the caller)
                warnings.warn("cell forward hook with ``always_call=True`` raised an exception that was silenced "
                              f"because another error was already raised in forward: {e}")

    def _run_backward_pre_hook(self, grad_output: tuple) -> tuple:
        return self._chain_grad_hooks(self._backward_pre_hook, grad_output, (), "backward pre hook", "output")

    def _run_backward_hook(self, grad_input: tuple, grad_output: tuple) -> tuple:
        return self._chain_grad_hooks(self._backward_hook, grad_input, (grad_output,), "backward hook", "grad input")

    def _chain_grad_hooks(self, hooks: dict, grads: tuple, extra: tuple, kind: str, expect: str) -> tuple:
        """Call each hook as ``fn(self, grads, *extra)``; a non-None result (as many gradients) replaces ``grads``."""
        for fn in list(hooks.values()):
            res = fn(self, grads, *extra)
            if res is not None:
                res = res if isinstance(res, tuple) else (res,)
                if len(res) != len(grads):
                    raise TypeError(f"The {kind} return value size is {len(res)} not equal to expect {expect} size "
                                    f"{len(grads)}")
                grads = res
        return grads

    def run_construct(self, cast_inputs: tuple, kwargs: dict) -> Any:
        """Run ``construct`` on ``cast_inputs`` with the cell's hooks around it (deprecated in MindSpore).

        Args:
            cast_inputs: the positional inputs.
            kwargs: the keyword inputs.
        """
        _logger.warning("The 'run_construct' function of '%s' will be removed in a future version. Calling this "
                        "function is not recommended.", self.cls_name)
        return self._run_construct(tuple(cast_inputs), dict(kwargs))

    def _run_construct(self, args: tuple, kwargs: dict) -> Any:
        called: set = set()
        output = None
        try:
            if self._forward_pre_hook:
                args, kwargs = _run_with_values(lambda s: self._run_forward_pre_hook(*s), (args, kwargs),
                                                (args, kwargs))
            scope = _BackwardHookScope(self) if self._backward_hook or self._backward_pre_hook else None
            if self._backward_hook:
                args = scope.inputs(args)
            output = self._run_grad_construct(args, kwargs)
            if self._forward_hook:
                output = _run_with_values(lambda s: self._run_forward_hook(*s, called), (args, kwargs, output),
                                          output)
            if scope is not None:
                output = scope.outputs(output)
            return output
        except Exception:
            self._run_always_called_hooks(args, kwargs, output, called)
            raise
