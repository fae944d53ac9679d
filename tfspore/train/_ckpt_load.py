"""``load_checkpoint`` and ``load_param_into_net``: reading a checkpoint file and filling a network.

``load_checkpoint`` checks its arguments as MindSpore does, reads the file (decrypting and
verifying the CRC trailer) and parses it with :mod:`tfspore.train._ckpt_format` or
:mod:`tfspore.train._safetensors`; ``load_param_into_net`` then assigns the values to a Cell's
Parameters by name, with MindSpore's dtype conversion and prefix fallback. The public path is
:mod:`tfspore.train.serialization`.
"""
from __future__ import annotations

import io
import logging
import os
from typing import Any, Callable

from tfspore._internal import validator
from tfspore.common import dtype as mstype
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.train import _ckpt_format, _crypto, _safe_read, _safetensors

_logger = logging.getLogger("tfspore")

_FLOAT_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)
_INT_TYPES = (mstype.int8, mstype.int16, mstype.int32, mstype.int64)


def _check_prefix(prefix: Any) -> tuple | None:
    """Normalise ``specify_prefix``/``filter_prefix`` to a tuple of non-empty strs (or None)."""
    if prefix is None:
        return None
    if not isinstance(prefix, (str, list, tuple)):
        raise TypeError("For 'load_checkpoint', the type of 'specify_prefix' or 'filter_prefix' must be string, "
                        f"list[string] or tuple[string], but got {type(prefix)}.")
    if isinstance(prefix, str):
        prefix = (prefix,)
    if not prefix:
        raise ValueError("For 'load_checkpoint', the argument 'specify_prefix' or 'filter_prefix' can't be empty when"
                         " 'specify_prefix' or 'filter_prefix' is list or tuple.")
    for index, pre in enumerate(prefix):
        if not isinstance(pre, str):
            raise TypeError("For 'load_checkpoint', when 'specify_prefix' or 'filter_prefix' is list or tuple, "
                            f"the element in it must be string, but got {type(pre)} at index {index}.")
        if pre == "":
            raise ValueError("For 'load_checkpoint', the value of 'specify_prefix' or 'filter_prefix' "
                             "can't include ''.")
    return tuple(prefix)


def load_checkpoint(ckpt_file_name: str, net: Cell | None = None, strict_load: bool = False,
                    filter_prefix: str | list | tuple | None = None, dec_key: bytes | None = None,
                    dec_mode: str = "AES-GCM", specify_prefix: str | list | tuple | None = None,
                    choice_func: Callable[[str], bool] | None = None, crc_check: bool = False,
                    remove_redundancy: bool = False, format: str = "ckpt") -> dict:
    """Load a MindSpore ``.ckpt`` or ``.safetensors`` file.

    Args:
        ckpt_file_name: the file path; it must end with ``format`` (``ckpt`` or
            ``safetensors``). With ``format="safetensors"`` an ``io.BytesIO`` of the file works too.
        net: when given, the parameters are also loaded into it (:func:`load_param_into_net`).
        strict_load: passed to :func:`load_param_into_net`.
        filter_prefix: a str, list or tuple: entries whose names start with one of them are dropped.
        dec_key: the key of an encrypted file (bytes), or None.
        dec_mode: ``"AES-GCM"``, ``"AES-CBC"`` or ``"SM4-CBC"``.
        specify_prefix: a str, list or tuple: only entries whose names start with one are kept.
        choice_func: ``f(name) -> bool`` keeping the entries for which it returns True; ignored
            when ``specify_prefix`` or ``filter_prefix`` is given.
        crc_check: verify the CRC trailer (a file without one loads with a warning).
        remove_redundancy: passed to :func:`load_param_into_net`.
        format: ``"ckpt"`` or ``"safetensors"`` (which takes no ``dec_key`` / ``dec_mode``).

    Returns:
        dict: ``{name: Parameter}`` in file order (safetensors: in name order, the Parameters
        unnamed, as MindSpore gives them); ``str`` entries map to Python strs and MapParameter
        entries to ``[keys, values, status]`` numpy arrays.

    Raises:
        TypeError: for a ``ckpt_file_name`` or prefix of the wrong type, or a BytesIO with
            ``format="ckpt"``.
        ValueError: for a missing, damaged or wrongly decrypted file, a failed CRC check, an
            unsupported tensor_type, bad arguments (a ``dec_key`` or ``dec_mode`` with
            ``format="safetensors"``), or when no entry is left after filtering.

    Example:
        >>> param_dict = load_checkpoint("/tmp/w.ckpt")
    """
    api = "load_checkpoint"
    specify_prefix = _check_prefix(specify_prefix)
    filter_prefix = _check_prefix(filter_prefix)
    validator.check_isinstance(dec_key, (type(None), bytes), "dec_key", api)
    validator.check_isinstance(dec_mode, str, "dec_mode", api)
    validator.check_isinstance(crc_check, bool, "crc_check", api)
    validator.check_isinstance(remove_redundancy, bool, "remove_redundancy", api)
    if format not in ("ckpt", "safetensors"):
        raise ValueError("For 'load_checkpoint', the checkpoint file should end with '.ckpt' or '.safetensors', "
                         f"please input the correct 'format', but got {format!r}.")
    _ckpt_format.check_format(api, format)
    if format == "safetensors":
        _safetensors.check_safetensors_defaults(api, dec_key=dec_key, dec_mode=dec_mode)
    if choice_func is not None and not callable(choice_func):
        raise TypeError(f"For 'load_checkpoint', the 'choice_func' must be callable or None, but got {choice_func!r}.")
    if isinstance(ckpt_file_name, io.BytesIO):
        if format == "ckpt":
            raise TypeError("For 'load_checkpoint', ckpt don't support BytesIO as input type, please change to "
                            "safetensors.")
        path, content = "<BytesIO>", ckpt_file_name.getvalue()
    else:
        name = _ckpt_format.file_name(api, ckpt_file_name)
        if not name.endswith(format):
            raise ValueError(f"For 'load_checkpoint', the checkpoint file format must same with 'format', but got "
                             f"file_name:'{name}', format:'{format}'")
        path = os.path.realpath(name)
        if not os.path.exists(path):
            raise ValueError(f"For 'load_checkpoint', the checkpoint file: {path} does not exist, please check whether "
                             "the 'ckpt_file_name' is correct.")
        if os.path.isdir(path):
            raise ValueError(f"For 'load_checkpoint', the checkpoint file: {path} is a directory, please check whether "
                             "the 'ckpt_file_name' is correct.")
        content = None
    if dec_key is not None:
        _crypto.check_key_and_mode(dec_key, dec_mode, api, "dec_key", "dec_mode")
    if specify_prefix is not None or filter_prefix is not None:
        _logger.warning("For load_checkpoint, the parameters `specify_prefix` and `filter_prefix` will be "
                        "deprecated, please use `choice_func` instead.")
    if format == "safetensors":
        if content is None:
            content = _safe_read.read_regular(path)
        parameter_dict, remove_redundancy = _safetensors.load_safetensors(
            path, content, specify_prefix, filter_prefix, choice_func, crc_check, remove_redundancy)
    else:
        content, full = _ckpt_format.read_content(path, dec_key, dec_mode, crc_check)
        try:
            parameter_dict = _ckpt_format.parse(path, content, specify_prefix, filter_prefix, choice_func)
        except ValueError:
            if full is None:
                raise
            parameter_dict = _ckpt_format.parse(path, full, specify_prefix, filter_prefix, choice_func)
    if not parameter_dict:
        raise ValueError("The loaded parameter dict is empty after filter or specify, please check whether "
                         "'filter_prefix' or 'specify_prefix' are set correctly.")
    if net is not None:
        load_param_into_net(net, parameter_dict, strict_load, remove_redundancy)
    return parameter_dict


class ParamDictFuture:
    """The result of :func:`load_checkpoint_async`: call :meth:`result` for the parameter dict."""

    def __init__(self, executor: Any, future: Any) -> None:
        self.executor = executor
        self.param_dict_future = future

    def result(self) -> dict:
        """Wait for the load and return :func:`load_checkpoint`'s dict (or raise its error)."""
        try:
            return self.param_dict_future.result()
        finally:
            self.executor.shutdown()


def load_checkpoint_async(ckpt_file_name: str, net: Cell | None = None, strict_load: bool = False,
                          filter_prefix: Any = None, dec_key: bytes | None = None, dec_mode: str = "AES-GCM",
                          specify_prefix: Any = None, choice_func: Callable | None = None) -> ParamDictFuture:
    """Run :func:`load_checkpoint` in a background thread.

    A name ending with ``.safetensors`` is read with ``format="safetensors"``, any other as ``ckpt``.

    Args:
        ckpt_file_name, net, strict_load, filter_prefix, dec_key, dec_mode, specify_prefix,
            choice_func: as for :func:`load_checkpoint`.

    Returns:
        ParamDictFuture: its ``result()`` returns the parameter dict.

    Example:
        >>> param_dict = load_checkpoint_async("/tmp/w.ckpt").result()
    """
    from concurrent.futures import ThreadPoolExecutor
    fmt = "safetensors" if isinstance(ckpt_file_name, str) and ckpt_file_name.endswith(".safetensors") else "ckpt"
    executor = ThreadPoolExecutor(max_workers=1)
    future = executor.submit(load_checkpoint, ckpt_file_name, net, strict_load, filter_prefix, dec_key, dec_mode,
                             specify_prefix, choice_func, format=fmt)
    return ParamDictFuture(executor, future)


# ------------------------------------------------------------------------ load into a net
def _special_reshape(param: Parameter, new_param: Parameter) -> bool:
    """Load a value whose shape only adds trailing 1s (e.g. (12, 2048, 1, 1) into (12, 2048))."""
    shape, new_shape = param.shape, new_param.shape
    if len(new_shape) <= len(shape) or any(d != 1 for d in new_shape[len(shape):]) or \
            tuple(new_shape[:len(shape)]) != tuple(shape):
        return False
    param.set_data(Tensor(new_param.asnumpy().reshape(shape), param.dtype))
    return True


def _update_param(param: Parameter, new_param: Parameter, strict_load: bool) -> None:
    """Replace ``param``'s value with ``new_param``'s, checking shape and dtype as MindSpore does."""
    if param.shape != new_param.shape:
        if _special_reshape(param, new_param):
            return
        raise RuntimeError(f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same shape "
                           f"as {param.name} in the argument 'parameter_dict'. But got its shape {param.shape} in the "
                           f"argument 'net' and shape {new_param.shape} in the argument 'parameter_dict'.May you need "
                           "to check whether the checkpoint you loaded is correct or the batch size and so on in the "
                           "'net' and 'parameter_dict' are same.")
    if param.dtype != new_param.dtype:
        pair = (param.dtype, new_param.dtype)
        if not strict_load and (all(t in _FLOAT_TYPES for t in pair) or all(t in _INT_TYPES for t in pair)):
            _logger.warning("The type of %s:%s in 'parameter_dict' is different from the type of it in 'net':%s, then "
                            "the type convert from %s to %s in the network. May consume additional memory and time",
                            new_param.name, new_param.dtype, param.dtype, new_param.dtype, param.dtype)
            param.set_data(Tensor(new_param.asnumpy(), param.dtype))
            return
        raise RuntimeError(f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same type "
                           f"as {param.name} in the argument 'parameter_dict'. but got its type {param.dtype} in the "
                           f"argument 'net' and type {new_param.dtype} in the argument 'parameter_dict'.May you need "
                           "to check whether the checkpoint you loaded is correct.")
    param.set_data(new_param)


def _load_mismatched_prefix(net: Cell, parameter_dict: dict, param_not_load: list, strict_load: bool) -> None:
    """Retry missing parameters under a prefix taken from a dict key that ends with one of their names."""
    tensors = [k for k, v in parameter_dict.items() if isinstance(v, Tensor)]
    prefix_name = ""
    longest_name = param_not_load[0]
    while prefix_name != longest_name and param_not_load:
        prefix_name = longest_name
        for net_param_name in param_not_load:
            for dict_name in tensors:
                if dict_name.endswith(net_param_name):
                    prefix_name = dict_name[:-len(net_param_name)]
                    break
            if prefix_name != longest_name:
                break
        if prefix_name != longest_name:
            _logger.warning("For 'load_param_into_net', remove parameter prefix name: %s, continue to load.",
                            prefix_name)
            for _, param in net.parameters_and_names():
                new_name = prefix_name + param.name
                if param.name in param_not_load and isinstance(parameter_dict.get(new_name), Tensor):
                    _update_param(param, parameter_dict[new_name], strict_load)
                    param_not_load.remove(param.name)


def load_param_into_net(net: Cell, parameter_dict: dict, strict_load: bool = False,
                        remove_redundancy: bool = False) -> tuple[list, list]:
    """Load a parameter dict (as :func:`load_checkpoint` returns) into a network.

    Each net parameter whose ``Parameter.name`` is a key takes the value. With
    ``strict_load=False`` a float value is converted to a float parameter's dtype (int to int), and
    missing parameters are looked up again under a prefix (a key ``net.0.weight`` loads
    ``0.weight``). Missing or unused entries are not errors.

    Args:
        net: the Cell.
        parameter_dict: ``{name: Parameter | str}``; str entries are skipped.
        strict_load: disable the dtype conversion and the prefix fallback.
        remove_redundancy: for checkpoints saved with redundancy removed (parallel training only).

    Returns:
        tuple: ``(param_not_load, ckpt_not_load)``: the net parameter names that got no value
        (except ``accu_grads*``), and the dict keys that were not used (keys used through the
        prefix fallback stay listed, as in MindSpore).

    Raises:
        TypeError: when ``net`` is not a Cell, ``parameter_dict`` not a dict of Parameters,
            ``strict_load`` not a bool, or ``remove_redundancy=True`` in stand-alone mode.
        RuntimeError: when a value's shape or dtype does not fit its parameter.

    Example:
        >>> param_not_load, ckpt_not_load = load_param_into_net(net, load_checkpoint("/tmp/net.ckpt"))
    """
    if not isinstance(net, Cell):
        raise TypeError(f"For 'load_param_into_net', the argument 'net' should be a Cell, but got {type(net)}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError("For 'load_param_into_net', the argument 'parameter_dict' should be a dict, but got "
                        f"{type(parameter_dict)}.")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Parameter, str, list)):
            raise TypeError("For 'parameter_dict', the element in the argument 'parameter_dict' should be a 'str' and "
                            f"'Parameter' , but got {type(key)} and {type(value)} (key {key!r}).")
    validator.check_type(strict_load, bool, "strict_load", "load_param_into_net")
    validator.check_isinstance(remove_redundancy, bool, "remove_redundancy", "load_param_into_net")
    if remove_redundancy:
        raise TypeError("The deduplication feature for loading checkpoint can only be used in parallel scenarios, "
                        "but got stand_alone.")
    param_not_load: list = []
    ckpt_not_load = list(parameter_dict.keys())
    for _, param in net.parameters_and_names():
        if param.name in parameter_dict:
            new_param = parameter_dict[param.name]
            if not isinstance(new_param, Parameter):
                continue
            _update_param(param, new_param, strict_load)
            ckpt_not_load.remove(param.name)
        elif not param.name.startswith("accu_grads"):
            param_not_load.append(param.name)
    if param_not_load and not strict_load:
        _load_mismatched_prefix(net, parameter_dict, param_not_load, strict_load)
    if param_not_load:
        _logger.warning("For 'load_param_into_net', %d parameters in the 'net' are not loaded, because they are not in "
                        "the 'parameter_dict', please check whether the network structure is consistent when training "
                        "and loading checkpoint.", len(param_not_load))
        _logger.warning("%s are not loaded.", param_not_load)
    return param_not_load, ckpt_not_load
