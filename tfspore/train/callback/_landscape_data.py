"""What a :class:`SummaryCollector` saves for :class:`SummaryLandscape` (``collect_landscape``).

For each step (or epoch) in the landscape's intervals the collector saves the backbone's
parameters as ``<summary_dir>/ckpt_dir/<Backbone>_<n>_<unit>.ckpt``, and at the end of training
``train_metadata.json`` (the intervals, the files and the landscape settings), each written once
under a file lock, as MindSpore does; :mod:`tfspore.train.callback._landscape` reads them back.
:class:`LandscapeData` is a mixin of ``SummaryCollector``; it uses the collector's
``_collect_specified_data``, ``_ckpt_dir``, ``_epoch_group`` and ``_model_params_file_map``.
"""
from __future__ import annotations

import json
import logging
import os
import stat
from typing import Any, Callable

from tfspore.common.tensor import Tensor

_logger = logging.getLogger("tfspore")

_TRAIN = "train"


def _lock_write(path: str, write: Callable[[str], None]) -> None:
    """Write ``path`` once (under an flock on ``path.lock``) unless it exists; errors are logged."""
    lock_file = f"{path}.lock"
    try:
        import fcntl  # pylint: disable=import-outside-toplevel
    except ImportError:  # not Linux
        fcntl = None
    try:
        with os.fdopen(os.open(lock_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, stat.S_IWUSR), "w") as handle:
            if fcntl is not None:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            if not os.path.isfile(path):
                write(path)
    except OSError as exc:
        _logger.error("Write %s failed, detail: %s", path, exc)
    try:
        if os.path.isfile(lock_file):
            os.remove(lock_file)
    except OSError:
        _logger.warning("The lock file %s has been removed.", lock_file)


class LandscapeData:
    """The landscape data of :class:`~tfspore.train.callback.SummaryCollector` (a mixin)."""

    def _landscape_due(self, cb_params: Any, unit: str, current: Any) -> bool:
        landscape = self._collect_specified_data.get("collect_landscape")
        if not landscape or landscape.get("unit", "step") != unit or current is None:
            return False
        return any(current in interval for interval in landscape.get("intervals") or [])

    @staticmethod
    def _get_backbone(network: Any) -> Any:
        for _, cell in network.cells_and_names():
            if _has_backbone(cell):
                return getattr(cell, "_backbone")
        return network

    def _save_model_params_for_landscape(self, cb_params: Any) -> None:
        if cb_params.mode != _TRAIN:
            return
        backbone = self._get_backbone(cb_params.train_network)
        while True:
            cells = backbone.name_cells()
            if "network" in cells:
                backbone = backbone.network
                if "optimizer" in cells:
                    break
            else:
                break
        landscape = self._collect_specified_data.get("collect_landscape")
        unit = landscape.get("unit", "step")
        cur_num = cb_params.cur_epoch_num if unit == "epoch" else cb_params.cur_step_num
        _logger.info("Save model params, %s: %s.", unit, cur_num)
        self._save_model_params(cur_num, unit, backbone)

    def _save_model_params(self, cur_num: int, unit: str, backbone: Any) -> None:
        from tfspore.train.serialization import save_checkpoint  # pylint: disable=import-outside-toplevel
        param_list = [{"name": p.name, "data": Tensor(p.asnumpy())} for p in backbone.get_parameters()]
        file_path = os.path.join(self._ckpt_dir, f"{type(backbone).__name__}_{cur_num}_{unit}.ckpt")
        self._model_params_file_map[str(cur_num)] = file_path
        _lock_write(file_path, lambda path: save_checkpoint(param_list, path))

    def _save_metadata(self, step_per_epoch: int, unit: str, num_samples: int, landscape_size: int,
                       create_landscape: dict) -> None:
        data = {"epoch_group": self._epoch_group,
                "model_params_file_map": self._model_params_file_map,
                "step_per_epoch": step_per_epoch,
                "unit": unit,
                "num_samples": num_samples,
                "landscape_size": landscape_size,
                "create_landscape": create_landscape}

        def write(path: str) -> None:
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(data, handle)
            os.chmod(path, stat.S_IRUSR)

        _lock_write(os.path.join(self._ckpt_dir, "train_metadata.json"), write)


def _has_backbone(cell: Any) -> bool:
    try:
        getattr(cell, "_backbone")
    except (AttributeError, KeyError):
        return False
    return True
