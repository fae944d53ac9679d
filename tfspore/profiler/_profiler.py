"""MindSpore's ``Profiler`` on TensorFlow's profiler (``tf.profiler.experimental``).

A :class:`Profiler` collects a TensorFlow trace between :meth:`Profiler.start` and
:meth:`Profiler.stop`; stopping writes it as an XSpace file that TensorBoard's profile plugin opens:
``<output_path>/plugins/profile/<run>/<host>.xplane.pb``, one ``<run>`` folder per start/stop pair
(run ``tensorboard --logdir <output_path>``). As in MindSpore, no method of the profiler raises:
problems are logged and training goes on.
"""
from __future__ import annotations

import enum
import functools
import glob
import json
import os
import time
from typing import Any, Callable

from tfspore import log as logger

__all__ = ["Profiler", "ProfilerLevel", "ProfilerActivity", "AicoreMetrics", "ExportType"]


class ProfilerLevel(enum.Enum):
    """How much MindSpore collects on Ascend (accepted; TensorFlow's trace has one level)."""

    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class ProfilerActivity(enum.Enum):
    """Which devices MindSpore traces (accepted; TensorFlow traces the host and every device it uses)."""

    NPU = "NPU"
    GPU = "GPU"
    CPU = "CPU"


class AicoreMetrics(enum.Enum):
    """Ascend AI Core metrics (accepted, Ascend only)."""

    PipeUtilization = "PipeUtilization"
    ArithmeticUtilization = "ArithmeticUtilization"
    Memory = "Memory"
    MemoryL0 = "MemoryL0"
    MemoryUB = "MemoryUB"
    ResourceConflictRatio = "ResourceConflictRatio"
    L2Cache = "L2Cache"
    MemoryAccess = "MemoryAccess"
    AiCoreNone = "None"


class ExportType(enum.Enum):
    """MindSpore's export formats of parsed data (accepted)."""

    Db = "db"
    Text = "text"


# MindSpore 2.10's Profiler parameters: (type, default). A value of another type is reset to the default
# with a warning, as MindSpore does; parameters it does not know (older ones such as ``is_detail``) are ignored.
_PARAMS: dict = {
    "output_path": (str, "./data"), "profiler_level": (ProfilerLevel, ProfilerLevel.Level0),
    "activities": (list, [ProfilerActivity.CPU, ProfilerActivity.NPU]),
    "aic_metrics": (AicoreMetrics, AicoreMetrics.AiCoreNone), "with_stack": (bool, False),
    "profile_memory": (bool, False), "data_process": (bool, False), "parallel_strategy": (bool, False),
    "start_profile": (bool, True), "l2_cache": (bool, False), "hbm_ddr": (bool, False), "pcie": (bool, False),
    "sys_io": (bool, False), "sys_interconnection": (bool, False), "host_sys": (list, []),
    "sync_enable": (bool, True), "data_simplification": (bool, True), "record_shapes": (bool, False),
    "export_type": (list, [ExportType.Text]), "mstx": (bool, False), "mstx_domain_include": (list, []),
    "mstx_domain_exclude": (list, []),
}
_DEPRECATED = ("profile_communication", "op_time", "profile_framework", "host_stack", "timeline_limit")
# Only one TensorFlow profiler session can run in a process.
_ACTIVE: list = []
# When the last session of this process stopped: TensorFlow names a run folder by the second it ends in.
_LAST_STOP: list = [0.0]


def _no_exception(func: Callable) -> Callable:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except Exception as exc:  # pylint: disable=broad-except
            logger.error(f"For 'Profiler.{func.__name__}', profiling failed: {type(exc).__name__}: {exc}")
            return None
    return wrapper


class Profiler:
    """Profile training with TensorFlow's profiler, with MindSpore's ``Profiler`` arguments.

    Args:
        **kwargs: MindSpore's Profiler arguments. ``output_path`` (default ``"./data"``) is the
            TensorBoard log directory the trace goes to; ``start_profile`` (default True) starts
            collecting at construction. ``with_stack`` turns on Python tracing. The other arguments
            of MindSpore 2.x (``profiler_level``, ``profile_memory``, ``aic_metrics``, ...) and of
            MindSpore 1.x (``is_detail``, ``is_show_op_path``, ...) are accepted and have no effect.

    Example:
        >>> profiler = Profiler(output_path="./profiler_data")
        >>> # ... train ...
        >>> profiler.analyse()   # the trace is in ./profiler_data/plugins/profile/<run>/
    """

    def __init__(self, **kwargs: Any) -> None:
        for key in _DEPRECATED:
            if key in kwargs:
                logger.warning(f"The parameter '{key}' is deprecated and has no effect.")
        self._params: dict = {}
        for key, (typ, default) in _PARAMS.items():
            value = kwargs.get(key)
            if value is None:
                value = default
            elif not isinstance(value, typ):
                logger.warning(f"For Profiler, the type of {key} should be {typ}, but got {type(value)}, reset to "
                               f"{default}.")
                value = default
            self._params[key] = value
        self._output_path = os.path.realpath(self._params["output_path"])
        self._metadata: dict = {}
        self._has_started = False
        self._runs: list = []
        self.step_num = 0
        if self._params["start_profile"]:
            self.start()

    @property
    def output_path(self) -> str:
        """The absolute TensorBoard log directory the traces go to."""
        return self._output_path

    @_no_exception
    def start(self) -> None:
        """Start collecting a trace; a second start while collecting warns and does nothing."""
        if self._has_started:
            logger.warning("The profiler has already started. Do not turn on again in the open state.")
            return
        if _ACTIVE:
            logger.warning("Another Profiler is collecting in this process; TensorFlow runs one profiler session at "
                           "a time, so this one does not start.")
            return
        import tensorflow as tf  # pylint: disable=import-outside-toplevel
        os.makedirs(self._output_path, exist_ok=True)
        wait = int(_LAST_STOP[0]) + 1 - time.time()
        if wait > 0:  # a new run folder, not the last one's
            time.sleep(wait)
        options = tf.profiler.experimental.ProfilerOptions(python_tracer_level=int(self._params["with_stack"]))
        self._before = set(self._xplane_files())
        tf.profiler.experimental.start(self._output_path, options=options)
        self._has_started = True
        _ACTIVE.append(self)

    @_no_exception
    def stop(self) -> None:
        """Stop collecting and write the trace; stopping a profiler that is not collecting logs an error."""
        if not self._has_started:
            logger.error("The profiler has not started. Do not turn off again in the closed state.")
            return
        self._stop()

    def _stop(self) -> None:
        import tensorflow as tf  # pylint: disable=import-outside-toplevel
        self._has_started = False
        if self in _ACTIVE:
            _ACTIVE.remove(self)
        tf.profiler.experimental.stop()
        _LAST_STOP[0] = time.time()
        new = sorted(set(self._xplane_files()) - self._before)
        self._runs.extend(new)
        if self._metadata:
            for path in new:
                with open(os.path.join(os.path.dirname(path), "profiler_metadata.json"), "w",
                          encoding="utf-8") as file:
                    json.dump(self._metadata, file, indent=4)

    def _xplane_files(self) -> list:
        return glob.glob(os.path.join(self._output_path, "plugins", "profile", "*", "*.xplane.pb"))

    @_no_exception
    def analyse(self, offline_path: str | None = None, pretty: bool = False, step_list: list | None = None,
                mode: str = "sync") -> None:
        """Stop collecting if needed and report where the traces are.

        TensorBoard's profile plugin analyses the trace when it opens it, so nothing is parsed here.

        Args:
            offline_path: deprecated in MindSpore; ignored.
            pretty: accepted (MindSpore's json formatting).
            step_list: accepted (MindSpore's step selection).
            mode: 'sync' or 'async' (accepted).
        """
        del pretty, step_list, mode
        if offline_path:
            logger.warning("The parameter 'offline_path' for Profiler.analyse() is deprecated, please use "
                           "Profiler.offline_analyse() instead.")
        if self._has_started:
            self._stop()
        if self._runs:
            logger.info(f"Profiling trace written to {self._runs[-1]}; open it with "
                        f"'tensorboard --logdir {self._output_path}' (Profile tab).")
        else:
            logger.warning(f"For 'Profiler.analyse', no trace was collected under {self._output_path}.")

    @classmethod
    def offline_analyse(cls, path: str, pretty: bool = False, step_list: list | None = None,
                        data_simplification: bool = True) -> None:
        """Nothing to do on TensorFlow: TensorBoard reads the traces under ``path`` directly."""
        del pretty, step_list, data_simplification
        logger.info(f"Open the traces under {path} with 'tensorboard --logdir {path}'.")

    def step(self) -> None:
        """Count a step (MindSpore's schedule-driven collection is not supported: collection follows start/stop)."""
        self.step_num += 1

    def add_metadata(self, key: str, value: str) -> None:
        """Record a string key/value pair, written as ``profiler_metadata.json`` beside the next trace."""
        if not isinstance(key, str) or not isinstance(value, str):
            logger.warning("The key and value of metadata must be string. Skip this metadata.")
            return
        self._metadata[key] = value

    def add_metadata_json(self, key: str, value: str) -> None:
        """Record a key with a JSON-string value, written as ``profiler_metadata.json`` beside the next trace."""
        if not isinstance(key, str) or not isinstance(value, str):
            logger.warning("The key and value of metadata must be string. Skip this metadata.")
            return
        try:
            self._metadata[key] = json.loads(value)
        except ValueError:
            logger.warning("The metadata value must be a JSON string. Skip this metadata.")

    def __enter__(self) -> "Profiler":
        if not self._has_started:
            self.start()
        return self

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        if self._has_started:
            self.stop()

    def __del__(self) -> None:
        try:
            if self._has_started:
                self._stop()
        except Exception:  # pylint: disable=broad-except
            pass
