"""CheckpointConfig: the saving and retention policy of :class:`ModelCheckpoint`.

The policy object and its argument checks (MindSpore's messages and exception types) live apart
from the callback that applies them (:mod:`tfspore.train.callback._checkpoint`), which imports
it from here; ``mindspore.train.callback.CheckpointConfig`` and
``tfspore.train.callback._checkpoint.CheckpointConfig`` are this class.

Example:
    >>> from tfspore.train import CheckpointConfig
    >>> config = CheckpointConfig(save_checkpoint_steps=100, keep_checkpoint_max=3)
    >>> config.get_checkpoint_policy()["keep_checkpoint_max"]
    3
"""
from __future__ import annotations

from typing import Any

from tfspore._internal import validator
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell

_info_list = ["epoch_num", "step_num"]
_CFG = "CheckpointConfig"


def _check_async_save(async_save: Any) -> Any:
    if not isinstance(async_save, (bool, str)):
        raise TypeError(f"For 'save_checkpoint', the parameter 'async_save' must be bool or str, but got "
                        f"{type(async_save)}.")
    if isinstance(async_save, str) and async_save not in ("process", "thread"):
        raise ValueError("For 'save_checkpoint', the argument 'async_save' can only be 'process' or 'thread',"
                         f"but got {async_save}.")
    return async_save


def _is_generator(value: Any) -> bool:
    return type(value).__name__ == "Generator" and callable(getattr(value, "get_state", None))


class CheckpointConfig:
    """The saving and retention policy of :class:`ModelCheckpoint`.

    Note:
        ``save_checkpoint_steps > 0`` disables ``save_checkpoint_seconds`` (and the default steps
        is 1: pass ``save_checkpoint_steps=0`` or None to save by time). Likewise
        ``keep_checkpoint_max > 0`` disables ``keep_checkpoint_per_n_minutes``. When both keep
        values are 0 or None, ``keep_checkpoint_max`` becomes 1.

    Args:
        save_checkpoint_steps: save every N steps (at least N steps since the last save). Default: 1.
        save_checkpoint_seconds: save every N seconds. Default: 0.
        keep_checkpoint_max: keep at most N files of this prefix. Default: 5.
        keep_checkpoint_per_n_minutes: keep one file per N minutes. Default: 0.
        integrated_save: merge sliced parameters (parallel training). Default: True.
        async_save: False, True / ``"thread"`` / ``"process"``: save on a background thread. Default: False.
        saved_network: the Cell to save instead of the train network. Default: None.
        append_info: ``"epoch_num"``, ``"step_num"`` and at most one dict ``{str: int | float | bool
            | str | Parameter | Tensor | Generator}`` saved with each file. Default: None.
        enc_key: a 16/24/32-byte key to encrypt the files with. Default: None.
        enc_mode: ``"AES-GCM"``, ``"AES-CBC"`` or ``"SM4-CBC"``, checked at save time. Default: ``"AES-GCM"``.
        exception_save: save ``<prefix>-<epoch>_<step>_breakpoint.ckpt`` when training raises. Default: False.
        crc_check: append a CRC-32 trailer. Default: False.
        remove_redundancy: save without data-parallel redundancy (parallel training only). Default: False.
        format: ``"ckpt"`` or ``"safetensors"`` (checked at save time). Default: ``"ckpt"``.
        **kwargs: ``incremental`` (bool) and ``enable_redundance`` (bool).

    Raises:
        ValueError: for a negative count, all four save/keep values None or 0, a bad
            ``append_info`` string, ``enc_key``/``enc_mode``/``crc_check`` of the wrong type, or
            ``format="safetensors"`` with non-default encryption, CRC or exception_save.
        TypeError: for a non-int count, a non-bool flag, a bad ``saved_network``, ``async_save``
            or ``append_info``.

    Example:
        >>> config = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=3)
        >>> config.get_checkpoint_policy()["keep_checkpoint_max"]
        3
    """

    def __init__(self, save_checkpoint_steps: int | None = 1, save_checkpoint_seconds: int | None = 0,
                 keep_checkpoint_max: int | None = 5, keep_checkpoint_per_n_minutes: int | None = 0,
                 integrated_save: bool = True, async_save: bool | str = False, saved_network: Cell | None = None,
                 append_info: list | None = None, enc_key: bytes | None = None, enc_mode: str = "AES-GCM",
                 exception_save: bool = False, crc_check: bool = False, remove_redundancy: bool = False,
                 format: str = "ckpt", **kwargs: Any) -> None:  # pylint: disable=redefined-builtin
        if save_checkpoint_steps is not None:
            save_checkpoint_steps = validator.check_non_negative_int(save_checkpoint_steps, "save_checkpoint_steps",
                                                                     _CFG)
        if save_checkpoint_seconds is not None:
            save_checkpoint_seconds = validator.check_non_negative_int(save_checkpoint_seconds,
                                                                       "save_checkpoint_seconds",
                                                                       _CFG)
        if keep_checkpoint_max is not None:
            keep_checkpoint_max = validator.check_non_negative_int(keep_checkpoint_max, "keep_checkpoint_max", _CFG)
        if keep_checkpoint_per_n_minutes is not None:
            keep_checkpoint_per_n_minutes = validator.check_non_negative_int(keep_checkpoint_per_n_minutes,
                                                                             "keep_checkpoint_per_n_minutes", _CFG)

        if saved_network is not None and not isinstance(saved_network, Cell):
            raise TypeError("For 'CheckpointConfig', the type of 'saved_network' must be None or Cell, "
                            f"but got {type(saved_network)}.")
        if not save_checkpoint_steps and not save_checkpoint_seconds and \
                not keep_checkpoint_max and not keep_checkpoint_per_n_minutes:
            raise ValueError("For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', "
                             "'save_checkpoint_seconds', 'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' "
                             "can't be all None or 0.")
        self.exception_save = validator.check_bool(exception_save, "exception_save", _CFG)

        self._save_checkpoint_steps = save_checkpoint_steps
        self._save_checkpoint_seconds = save_checkpoint_seconds
        if self._save_checkpoint_steps and self._save_checkpoint_steps > 0:
            self._save_checkpoint_seconds = None

        self._keep_checkpoint_max = keep_checkpoint_max
        self._keep_checkpoint_per_n_minutes = keep_checkpoint_per_n_minutes
        if self._keep_checkpoint_max and self._keep_checkpoint_max > 0:
            self._keep_checkpoint_per_n_minutes = None
        elif not self._keep_checkpoint_per_n_minutes:
            self._keep_checkpoint_max = 1

        self._integrated_save = validator.check_bool(integrated_save, "integrated_save", _CFG)
        self._async_save = _check_async_save(async_save)
        self._saved_network = saved_network
        self._append_dict = self._handle_append_info(append_info)
        self._enc_key = validator.check_isinstance(enc_key, (type(None), bytes), "enc_key", _CFG)
        self._enc_mode = validator.check_isinstance(enc_mode, str, "enc_mode", _CFG)
        self._crc_check = validator.check_isinstance(crc_check, bool, "crc_check", _CFG)
        self._format = validator.check_isinstance(format, str, "format", _CFG)
        self._map_param_inc = kwargs.get("incremental", False)
        self.enable_redundance = kwargs.get("enable_redundance", False)
        self.remove_redundancy = validator.check_isinstance(remove_redundancy, bool, "remove_redundancy", _CFG)
        param_not_default = (enc_key is not None or enc_mode != "AES-GCM" or crc_check or exception_save
                             or self._map_param_inc)
        if format == "safetensors" and param_not_default:
            raise ValueError("For 'save_checkpoint', when format is 'safetensors', other param must be default.")

    @property
    def save_checkpoint_steps(self) -> int | None:
        """int: save every N steps (None or 0: disabled)."""
        return self._save_checkpoint_steps

    @property
    def save_checkpoint_seconds(self) -> int | None:
        """int: save every N seconds (None when steps are set)."""
        return self._save_checkpoint_seconds

    @property
    def keep_checkpoint_max(self) -> int | None:
        """int: the most files of this prefix kept."""
        return self._keep_checkpoint_max

    @property
    def keep_checkpoint_per_n_minutes(self) -> int | None:
        """int: keep one file per N minutes (None when keep_checkpoint_max is set)."""
        return self._keep_checkpoint_per_n_minutes

    @property
    def integrated_save(self) -> bool:
        """bool: whether sliced parameters are merged when saving."""
        return self._integrated_save

    @property
    def async_save(self) -> bool | str:
        """bool or str: whether (and how) files are saved in the background."""
        return self._async_save

    @property
    def saved_network(self) -> Cell | None:
        """Cell: the network saved instead of the train network, or None."""
        return self._saved_network

    @property
    def enc_key(self) -> bytes | None:
        """bytes: the encryption key, or None."""
        return self._enc_key

    @property
    def enc_mode(self) -> str:
        """str: the encryption mode."""
        return self._enc_mode

    @property
    def crc_check(self) -> bool:
        """bool: whether a CRC-32 trailer is written."""
        return self._crc_check

    @property
    def format(self) -> str:
        """str: the file format (``"ckpt"`` or ``"safetensors"``)."""
        return self._format

    @property
    def append_dict(self) -> dict | None:
        """dict: the extra entries saved with each file (``epoch_num``/``step_num`` first), or None."""
        return self._append_dict

    @property
    def map_param_inc(self) -> bool:
        """bool: whether map parameters are saved incrementally."""
        return self._map_param_inc

    def get_checkpoint_policy(self) -> dict:
        """The saving policy.

        Returns:
            dict: ``save_checkpoint_steps``, ``save_checkpoint_seconds``, ``keep_checkpoint_max``,
            ``keep_checkpoint_per_n_minutes`` and ``saved_network``.
        """
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}

    @staticmethod
    def _handle_append_info(append_info: Any) -> dict | None:
        """Turn ``append_info`` into the dict saved with each file."""
        if append_info is None or append_info == []:
            return None
        if not isinstance(append_info, list):
            raise TypeError("For 'CheckpointConfig', the type of 'append_info' must be list,"
                            f"but got {type(append_info)}.")
        handled: dict = {}
        if "epoch_num" in append_info:
            handled["epoch_num"] = 0
        if "step_num" in append_info:
            handled["step_num"] = 0
        dict_num = 0
        for element in append_info:
            if not isinstance(element, (str, dict)):
                raise TypeError("For 'CheckpointConfig', the type of 'append_info' element must be str or dict,"
                                f"but got {type(element)}.")
            if isinstance(element, str) and element not in _info_list:
                raise ValueError("For 'CheckpointConfig', the value of element in the argument 'append_info' "
                                 f"must be in {_info_list}, but got {element}.")
            if isinstance(element, dict):
                dict_num += 1
                if dict_num > 1:
                    raise TypeError("For 'CheckpointConfig', the element of 'append_info' must has only one dict, "
                                    f"but got {dict_num}")
                for key, value in element.items():
                    if isinstance(key, str) and (isinstance(value, (int, float, bool, str, Parameter, Tensor))
                                                 or _is_generator(value)):
                        handled[key] = value
                    else:
                        raise TypeError("For 'CheckpointConfig', the key type of the dict 'append_info' "
                                        "must be string, the value type must be int or float or bool, "
                                        f"but got key type {type(key)}, value type {type(value)}")
        return handled
