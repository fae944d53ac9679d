"""A Cell's ``state_dict`` / ``load_state_dict`` (MindSpore 2.10's torch-style state API).

Keys are attribute paths (``dense.weight``), not checkpoint names; values are the Parameters and
persistent buffers themselves. The four state-dict hook kinds and ``get_extra_state`` /
``set_extra_state`` follow MindSpore, including its messages for missing, unexpected and
mis-shaped entries.
"""
from __future__ import annotations

import warnings
from collections import OrderedDict, namedtuple
from typing import Any, Callable, Mapping

from tfspore._internal.tensor_wrap import as_tf as _as_tf
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.nn._hooks import HookHandle, _check_hook


_EXTRA_STATE_KEY_SUFFIX = "_extra_state"

class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _register_hook(api_name: str, registry: dict, hook: Callable) -> HookHandle:
    """Check ``hook`` for ``api_name``, add it to ``registry`` and return its handle."""
    _check_hook(api_name, hook)
    handle = HookHandle(registry)
    registry[handle.handle_id] = hook
    return handle


class CellStateDict:
    """``state_dict`` / ``load_state_dict`` of :class:`~tfspore.nn.Cell`."""

    def get_extra_state(self) -> Any:
        """Return extra state for :meth:`state_dict`; override together with :meth:`set_extra_state`.

        Raises:
            RuntimeError: when not overridden.
        """
        raise RuntimeError("Reached a code path in Cell.get_extra_state() that should never be called.")

    def set_extra_state(self, state: Any) -> None:
        """Restore extra state from :meth:`load_state_dict`; override together with :meth:`get_extra_state`.

        Raises:
            RuntimeError: when not overridden.
        """
        raise RuntimeError("Reached a code path in Cell.set_extra_state() that should never be called.")

    def register_state_dict_pre_hook(self, hook: Callable) -> HookHandle:
        """Call ``hook(cell, prefix, keep_vars)`` before :meth:`state_dict` collects this cell."""
        return _register_hook("register_state_dict_pre_hook", self._state_dict_pre_hooks, hook)

    def register_state_dict_post_hook(self, hook: Callable) -> HookHandle:
        """Call ``hook(cell, state_dict, prefix, local_metadata)`` after this cell's entries are collected."""
        return _register_hook("register_state_dict_post_hook", self._state_dict_hooks, hook)

    def register_load_state_dict_pre_hook(self, hook: Callable) -> HookHandle:
        """Call ``hook(cell, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
        error_msgs)`` before this cell's entries are loaded; it may edit ``state_dict`` in place."""
        return _register_hook("register_load_state_dict_pre_hook", self._load_state_dict_pre_hooks, hook)

    def register_load_state_dict_post_hook(self, hook: Callable) -> HookHandle:
        """Call ``hook(cell, incompatible_keys)`` after this cell's sub-tree is loaded; it may edit the key lists."""
        return _register_hook("register_load_state_dict_post_hook", self._load_state_dict_post_hooks, hook)

    def _has_extra_state(self) -> bool:
        return type(self).get_extra_state is not CellStateDict.get_extra_state

    def _local_state(self) -> "OrderedDict[str, Tensor]":
        """This cell's own persistent state: parameters, then persistent buffers."""
        state = OrderedDict((k, v) for k, v in self._params.items() if v is not None)
        state.update((k, v) for k, v in self._buffers.items()
                     if v is not None and k not in self._non_persistent_buffers_set)
        return state

    def _save_to_state_dict(self, destination: dict, prefix: str, keep_vars: bool) -> None:
        """Put this cell's own state (not its descendants') into ``destination``; subclasses may override."""
        for name, value in self._local_state().items():
            destination[prefix + name] = value
        if self._has_extra_state():
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def state_dict(self, *args: Any, destination: Any = None, prefix: str = "", keep_vars: bool = False) -> Any:
        """Return an OrderedDict of attribute path to Parameter / persistent buffer (not checkpoint names).

        Args:
            *args: ``destination, prefix, keep_vars`` positionally (deprecated).
            destination: a dict to fill (a new OrderedDict by default).
            prefix: prepended to every key.
            keep_vars: accepted for compatibility (values are the Parameter objects).

        Raises:
            TypeError: when ``destination`` is not a dict, ``prefix`` not a str or ``keep_vars`` not a bool.

        Example:
            >>> list(model.state_dict())
            ['param_a', 'buffer_a']
        """
        if args:
            warnings.warn("Positional args are being deprecated, use kwargs instead.", FutureWarning, stacklevel=2)
            destination = args[0] if destination is None else destination
            prefix = args[1] if len(args) > 1 and prefix == "" else prefix
            keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
        if destination is not None and not isinstance(destination, dict):
            raise TypeError(f"For 'state_dict', the type of destination must be OrderedDict, but got "
                            f"{type(destination)}.")
        if not isinstance(prefix, str):
            raise TypeError(f"For 'state_dict', the type of prefix must be string, but got {type(prefix)}.")
        if not isinstance(keep_vars, bool):
            raise TypeError(f"For 'state_dict', the type of keep_vars must be bool, but got {type(keep_vars)}.")
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata: dict = {}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in list(self._state_dict_pre_hooks.values()):
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, cell in self._cells.items():
            if cell is not None:
                cell.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in list(self._state_dict_hooks.values()):
            if hook(self, destination, prefix, local_metadata) is not None:
                raise RuntimeError("state_dict post-hook must return None")
        return destination

    def _load_from_state_dict(self, state_dict: dict, prefix: str, local_metadata: dict, strict: bool,
                              missing_keys: list, unexpected_keys: list, error_msgs: list) -> None:
        """Copy this cell's own entries of ``state_dict`` (keys under ``prefix``) into its state.

        :meth:`load_state_dict` always passes ``strict=True`` here, so the key lists are complete
        (as in MindSpore); it decides afterwards whether they are errors. Subclasses may override.
        """
        for hook in list(self._load_state_dict_pre_hooks.values()):
            hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        local_state = self._local_state()
        for name, target in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected Tensor or Tensor-like object '
                                  f"from checkpoint but received {type(value)}")
            elif tuple(value.shape) != tuple(target.shape):
                error_msgs.append(f"size mismatch for {key}: copying a param with shape {tuple(value.shape)} from "
                                  f"checkpoint, the shape in current model is {tuple(target.shape)}.")
            else:
                target._set_value(_as_tf(value, target._var.dtype))
        extra_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if type(self).set_extra_state is not CellStateDict.set_extra_state:
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        for key in state_dict if strict else ():
            if key.startswith(prefix) and key != extra_key:
                head, dot, _ = key[len(prefix):].partition(".")
                if (dot and head not in self._cells) or (not dot and head not in local_state):
                    unexpected_keys.append(key)

    def load_state_dict(self, state_dict: Mapping[str, Any], strict: bool = True) -> _IncompatibleKeys:
        """Copy values from ``state_dict`` (keyed as :meth:`state_dict`) into parameters and buffers.

        Args:
            state_dict: keys are attribute paths, values Tensors.
            strict: raise when keys are missing or unexpected.

        Returns:
            ``_IncompatibleKeys(missing_keys, unexpected_keys)``; its repr is
            ``<All keys matched successfully>`` when both are empty.

        Raises:
            TypeError: when ``state_dict`` is not a Mapping.
            RuntimeError: with ``strict`` when keys are missing or unexpected, and always for a
                value that is not a Tensor or has another shape.
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"For 'load_state_dict', expected state_dict to be dict-like, got {type(state_dict)}.")
        missing: list = []
        unexpected: list = []
        errors: list = []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)

        def load(cell: CellStateDict, local: dict, prefix: str = "") -> None:
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            cell._load_from_state_dict(local, prefix, local_metadata, True, missing, unexpected, errors)
            for name, child in cell._cells.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    load(child, {k: v for k, v in local.items() if k.startswith(child_prefix)}, child_prefix)
            keys = _IncompatibleKeys(missing, unexpected)
            for hook in list(cell._load_state_dict_post_hooks.values()):
                if hook(cell, keys) is not None:
                    raise RuntimeError("Hooks registered with ``register_load_state_dict_post_hook`` are not expected "
                                       "to return new values, if incompatible_keys need to be modified, it should be "
                                       "done inplace.")

        load(self, state_dict)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected)
                              + ". ")
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {self.__class__.__name__}:\n\t"
                               + "\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)
