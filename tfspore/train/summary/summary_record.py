"""``SummaryRecord``: MindSpore's summary writer, writing TensorBoard event files.

Values are pooled in memory by :meth:`SummaryRecord.add_value` (and by the summary operators,
``ops.ScalarSummary`` and friends, in train mode) and written at :meth:`SummaryRecord.record`:
all the values of one ``record`` go into one ``Event`` with that step, as in MindSpore. The
files are TensorBoard event files (``tensorboard --logdir <log_dir>`` shows them):

* ``{file_prefix}.out.tfevents.summary.{seconds}.{device_id}.{hostname}{file_suffix}``: scalars,
  images, histograms, tensors, loss landscapes and the graph;
* the same name with the suffix ``_lineage``: lineage (HParams and Text dashboards). TensorBoard's
  default loader follows both files while they grow; its Python-only loader
  (``--load_fast=false``) follows only the last file of a directory unless given
  ``--reload_multifile=true``;
* ``export_{seconds}/tensor/{url-quoted tag}_{step}.npy``: the tensors, with
  ``export_options={'tensor_format': 'npy'}``.

``{device_id}`` is the rank in a job of several ranks (``get_rank()`` when ``get_group_size() > 1``),
as MindSpore names it. TensorBoard shows each folder as one run, so in a job of several processes
each rank writes into a folder of its own (:func:`tfspore._internal.rank_dirs.rank_directory`):
``log_dir`` itself when its name ends with the rank (the model zoo's ``summary_dir + "/rank_" +
str(rank)``) or, on rank 0, with no rank; else ``log_dir/rank_<rank>``. ``tensorboard --logdir
<log_dir>`` on a shared ``log_dir`` then lists rank 0's run ``.`` and the runs ``rank_1``, ...

Example:
    >>> from tfspore import Tensor
    >>> from tfspore.train.summary import SummaryRecord
    >>> with SummaryRecord(log_dir="./summary_dir") as summary_record:
    ...     summary_record.add_value('scalar', 'loss', Tensor(0.1))
    ...     summary_record.record(step=1)
    True
"""
from __future__ import annotations

import atexit
import logging
import os
import platform
import re
import threading
import time
from collections import defaultdict
from typing import Any, Callable
from urllib.parse import quote

import numpy as np
import tensorflow as tf
from tensorboard.compat.proto import event_pb2, summary_pb2

from tfspore._internal import rank_dirs
from tfspore._internal.proto import lineage_pb2
from tfspore._internal import summary_cache as _summary_ops  # the values of ops.ScalarSummary and the others
from tfspore.train.summary import _adapter, _graph
from tfspore.train.summary._writer import EventFile
from tfspore.train.summary.enums import PluginEnum

_logger = logging.getLogger("tfspore")

__all__ = ["SummaryRecord", "process_export_options"]

_DEFAULT_EXPORT_OPTIONS = {'tensor_format': {'npy', None}}
_NAME_REGEX = r"^\w+[0-9a-zA-Z\_\.]*$"
_TENSOR_PLUGINS = ('tensor', 'scalar', 'image', 'histogram')
_LINEAGE_PLUGINS = {'train_lineage': lineage_pb2.TrainLineage, 'eval_lineage': lineage_pb2.EvaluationLineage,
                    'dataset_graph': lineage_pb2.DatasetGraph, 'custom_lineage_data': lineage_pb2.UserDefinedInfo}
_OP_TAGS = {"TensorSummary": "[:Tensor]", "ScalarSummary": "[:Scalar]", "ImageSummary": "[:Image]",
            "HistogramSummary": "[:Histogram]"}
_instance_lock = threading.Lock()
_FILE_MODE = 0o400


def _type_name(value: Any) -> str:
    return type(value).__name__


def process_export_options(export_options: dict | None) -> dict | None:
    """Check ``export_options`` (None, or ``{'tensor_format': 'npy' or None}``) and return it.

    Raises:
        TypeError: not a dict, a non-str key, or a value that is not a str or None.
        ValueError: an unknown key or format.
    """
    if export_options is None:
        return None
    if not isinstance(export_options, dict):
        raise TypeError(f"For 'SummaryRecord', the type of 'export_options' should be a valid type of ['dict', "
                        f"'NoneType'], but got {_type_name(export_options)}: {export_options!r}.")
    for option, fmt in export_options.items():
        if not isinstance(option, str):
            raise TypeError(f"For 'SummaryRecord', the keys of 'export_options' should be str, but got "
                            f"{_type_name(option)}: {option!r}.")
        if not isinstance(fmt, (str, type(None))):
            raise TypeError(f"For 'SummaryRecord', the value of 'export_options[{option!r}]' should be a valid type "
                            f"of ['str', 'NoneType'], but got {_type_name(fmt)}: {fmt!r}.")
    unexpected = set(export_options) - set(_DEFAULT_EXPORT_OPTIONS)
    if unexpected:
        raise ValueError(f'For "SummaryRecord", the keys {unexpected} of "export_options" are unsupported, '
                         f'expect the follow keys: {list(_DEFAULT_EXPORT_OPTIONS.keys())}')
    for option, fmt in export_options.items():
        if fmt not in _DEFAULT_EXPORT_OPTIONS[option]:
            allowed = sorted(_DEFAULT_EXPORT_OPTIONS[option], key=str)
            raise ValueError(f'For "SummaryRecord", the export_format {{{fmt!r}}} of "export_options" are unsupported '
                             f'for {option}, expect the follow values: {allowed}')
    return export_options


def _check_name_regex(arg: str, value: str) -> None:
    if re.match(_NAME_REGEX, value, re.ASCII) is None:
        raise ValueError(f"For 'SummaryRecord', the '{arg}' {value!r} is illegal, it must be match regular"
                         f"'{_NAME_REGEX}' by flags're.ASCII'.")


def _make_log_dir(log_dir: Any) -> str:
    """Validate ``log_dir``, create it (mode 0o700) if needed and return its real path."""
    if not isinstance(log_dir, str):
        raise TypeError(f"For 'SummaryRecord', the 'log_dir' is invalid, the type should be string, but got "
                        f"{_type_name(log_dir)}: {log_dir!r}.")
    if log_dir.strip() == "":
        raise ValueError(f"For 'SummaryRecord', the 'log_dir' is invalid, it should be non-blank, but got "
                         f"{log_dir!r}.")
    path = os.path.realpath(log_dir)
    if os.path.exists(path):
        if not os.path.isdir(path):
            raise NotADirectoryError(f"For 'SummaryRecord', the 'log_dir' ({path}) is a file path, it should be a "
                                     "directory path.")
    else:
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
        except PermissionError as err:
            raise TypeError(f"For 'SummaryRecord', no write permission on the directory of 'log_dir': "
                            f"{log_dir!r}.") from err
        except (NotADirectoryError, FileExistsError) as err:
            raise NotADirectoryError(f"For 'SummaryRecord', the 'log_dir' {log_dir!r} cannot be created: a part of "
                                     "its path is a file.") from err
    if not os.access(path, os.W_OK | os.X_OK):
        raise TypeError(f"For 'SummaryRecord', no write permission on the directory of 'log_dir': {log_dir!r}.")
    return path


def _device_id() -> int:
    from tfspore import context
    from tfspore.communication import management

    try:
        if management.get_group_size() > 1:
            return management.get_rank()
    except (RuntimeError, ValueError, AttributeError):
        pass
    return int(context.get_context('device_id'))


def _to_numpy(plugin: str, value: Any, summary_name: str = "SummaryRecord") -> np.ndarray:
    """A copy of ``value`` as numpy, checked for ``plugin`` (MindSpore's rules and messages)."""
    if isinstance(value, np.ndarray):  # a compiled summary operator's copy
        np_value = value
    elif hasattr(value, "asnumpy"):
        np_value = np.array(value.asnumpy(), copy=True)
    else:
        np_value = np.array(tf.convert_to_tensor(value).numpy(), copy=True)
    if plugin == 'scalar' and np_value.size != 1:
        got = len(np_value) if np_value.ndim else np_value.size
        raise ValueError(f'For "{summary_name}", the v rank must be less than or equal to 1, but got {got}.')
    if plugin == 'image' and np_value.ndim != 4:
        raise ValueError(f'For "{summary_name}", the tensor seems not to hold a valid image.')
    if plugin in ('tensor', 'histogram') and np_value.ndim == 0:
        raise ValueError(f'For "{summary_name}", the value should not be empty.')
    return np_value


def _is_tensor(value: Any) -> bool:
    from tfspore.common.tensor import Tensor

    return isinstance(value, (Tensor, tf.Tensor, tf.Variable))


class SummaryRecord:
    """Record summary data (scalars, images, tensors, histograms, graphs, lineage, loss landscapes) into
    TensorBoard event files.

    Values are added with :meth:`add_value` (and by the summary operators in ``construct``) and
    written by :meth:`record`. Only one SummaryRecord may be open in a process; close it (``with``
    statement or ``try ... finally``) so that everything reaches the disk.

    The summary file is named
    ``{file_prefix}.out.tfevents.summary.{seconds}.{device_id}.{hostname}{file_suffix}`` (MindSpore's
    name with ``tfevents``, so TensorBoard reads it); lineage goes to the same name with the
    suffix ``_lineage``. Files are created at the first write and are read-only once closed. In a
    job of several processes each rank has its own folder, one TensorBoard run: ``log_dir`` for
    the rank its name ends with (rank 0 when it ends with no rank), ``log_dir/rank_<rank>`` for
    the others.

    Args:
        log_dir: the directory of the summary files (created if missing).
        file_prefix: the file name prefix. Default: ``"events"``.
        file_suffix: the file name suffix. Default: ``"_MS"``.
        num_process: accepted for compatibility (MindSpore's number of writer processes); the
            files are written in this process at each ``record``.
        network: the Cell whose compiled graph is written at the first ``record`` (once it has
            run in GRAPH_MODE). Default: None.
        max_file_size: the most bytes per file; when a record would exceed it, the file is closed
            and a new one (a later ``seconds`` in the name) is started. Default: None (no limit).
        raise_exception: raise the RuntimeError or OSError of a failed write (True) instead of
            logging it (False). Default: False.
        export_options: ``{'tensor_format': 'npy'}`` also saves every tensor-plugin value as
            ``{log_dir}/export_{seconds}/tensor/{quoted tag}_{step}.npy``. Default: None.

    Raises:
        RuntimeError: another SummaryRecord is open.
        TypeError: `log_dir`, `file_prefix` or `file_suffix` is not a str, `max_file_size` is not an
            int, `raise_exception` is not a bool, or `log_dir` is not writable.
        ValueError: a blank `log_dir`, an illegal `file_prefix`/`file_suffix`, bad `export_options`.
        NotADirectoryError: `log_dir` is (or lies under) a file.

    Example:
        >>> from tfspore.train.summary import SummaryRecord
        >>> with SummaryRecord(log_dir="./summary_dir") as summary_record:
        ...     pass
        >>> try:
        ...     summary_record = SummaryRecord(log_dir="./summary_dir")
        ... finally:
        ...     summary_record.close()
    """

    count = 0

    def __init__(self, log_dir: str, file_prefix: str = "events", file_suffix: str = "_MS", num_process: int = 32,
                 network: Any = None, max_file_size: int | None = None, raise_exception: bool = False,
                 export_options: dict | None = None) -> None:
        self._status = {'closed': True, 'has_graph': False}
        with _instance_lock:
            self._check_count()
            SummaryRecord.count += 1
        try:
            self._initialize(log_dir, file_prefix, file_suffix, num_process, network, max_file_size,
                             raise_exception, export_options)
        except BaseException:
            with _instance_lock:
                SummaryRecord.count -= 1
            raise
        self._status['closed'] = False
        _summary_ops.set_active(True)
        atexit.register(self.close)

    def _initialize(self, log_dir: Any, file_prefix: Any, file_suffix: Any, num_process: Any, network: Any,
                    max_file_size: Any, raise_exception: Any, export_options: Any) -> None:
        if not isinstance(max_file_size, int) or isinstance(max_file_size, bool):
            if max_file_size is not None:
                raise TypeError(f"For 'SummaryRecord', the 'max_file_size' should be int type, but got type "
                                f"{type(max_file_size)}: {max_file_size!r}.")
        for arg, value in (("file_prefix", file_prefix), ("file_suffix", file_suffix)):
            if not isinstance(value, str):
                raise TypeError(f"For 'SummaryRecord', `file_prefix` and `file_suffix` should be str, but got the "
                                f"'{arg}' of type {type(value)}: {value!r}.")
            _check_name_regex(arg, value)
        if max_file_size is not None and max_file_size < 0:
            _logger.warning("For 'SummaryRecord', the 'max_file_size' should be greater than 0. but got value %d.",
                            max_file_size)
            max_file_size = None
        if not isinstance(raise_exception, bool):
            raise TypeError(f"For 'SummaryRecord', the type of 'raise_exception' should be 'bool', but got type "
                            f"'{_type_name(raise_exception)}': {raise_exception!r}.")
        if network is not None and not hasattr(network, "cells_and_names"):
            raise TypeError(f"For 'SummaryRecord', the type of 'network' should be 'Cell', but got type "
                            f"'{_type_name(network)}'.")
        self._export_options = process_export_options(export_options)
        path = _make_log_dir(log_dir)
        run_dir = rank_dirs.rank_directory(path)
        if run_dir != path:  # one TensorBoard run per rank of a job
            path = _make_log_dir(run_dir)

        self.base_log_dir = log_dir
        self.file_prefix, self.file_suffix = file_prefix, file_suffix
        self.network = network
        self.max_file_size = max_file_size
        self.raise_exception = raise_exception
        self._num_process = num_process
        self._mode = 'train'
        self._data_pool: dict = defaultdict(list)
        self._hparams: dict = {}
        seconds = int(time.time())
        device_id, host = _device_id(), platform.node()
        while True:  # one {seconds} for both names, used by no existing file
            self._summary = EventFile(path, (file_prefix, file_suffix, seconds, device_id, host), max_file_size)
            self._lineage = EventFile(path, (file_prefix, "_lineage", self._summary.seconds, device_id, host),
                                      max_file_size)
            if self._lineage.seconds == self._summary.seconds:
                break
            seconds = self._lineage.seconds
        self._export_dir = (os.path.join(path, f"export_{self._summary.seconds}")
                            if self._export_options is not None else "")
        self._writers = {'summary': self._summary, 'lineage': self._lineage}
        self.file_info = {'file_name': os.path.basename(self._summary.path), 'file_path': self._summary.path}
        _summary_ops.clear_cache()

    @classmethod
    def _check_count(cls) -> None:
        if cls.count > 0:
            raise RuntimeError(
                f"For '{cls.__name__}', only one instance is supported in a training process, "
                f"you are trying to create a new one when the existing instance number is {cls.count}. "
                "Please check your scripts.")

    # ------------------------------------------------------------- context manager
    def __enter__(self) -> "SummaryRecord":
        """Enter the context manager.

        Raises:
            ValueError: the record is closed.
        """
        if self._status.get('closed'):
            raise ValueError(f'For "{self.__class__.__name__}", SummaryRecord has been closed, '
                             'please check if close() method is called')
        return self

    def __exit__(self, *err: Any) -> None:
        """Close the record."""
        self.close()

    # ------------------------------------------------------------------ the API
    def set_mode(self, mode: str) -> None:
        """Set the phase: 'train', or 'eval' (``record`` then leaves out the summary operators' data).

        Args:
            mode: 'train' or 'eval'.

        Raises:
            ValueError: any other value.

        Example:
            >>> with SummaryRecord(log_dir="./summary_dir") as summary_record:
            ...     summary_record.set_mode('eval')
        """
        if mode not in ('train', 'eval'):
            raise ValueError(f'For "{self.__class__.__name__}.set_mode", {mode!r} is not a '
                             'recognized mode, expect the parameter "mode" is "train" or "eval"')
        self._mode = mode

    def add_value(self, plugin: str, name: str, value: Any) -> None:
        """Add a value, written at the next :meth:`record`.

        Args:
            plugin: 'scalar', 'image' (NCHW), 'tensor', 'histogram' (value: a Tensor), 'graph'
                (a ``GraphDef``, its bytes, a ``tf.Graph``, a concrete function or a compiled Cell),
                'train_lineage', 'eval_lineage', 'dataset_graph', 'custom_lineage_data' (the
                ``lineage_pb2`` messages ``TrainLineage``, ``EvaluationLineage``, ``DatasetGraph``,
                ``UserDefinedInfo``), or 'landscape' (a ``summary_pb2.LossLandscape``).
            name: the tag.
            value: the value.

        Raises:
            ValueError: an unknown `plugin`, an empty or non-str `name` (Tensor plugins), a value of
                the wrong rank (more than one element for 'scalar', not 4-D for 'image', 0-d for
                'tensor' and 'histogram').
            TypeError: `value` of the wrong type for the plugin.

        Example:
            >>> with SummaryRecord(log_dir="./summary_dir") as summary_record:
            ...     summary_record.add_value('scalar', 'loss', Tensor(0.1))
        """
        if plugin in _TENSOR_PLUGINS:
            if not name or not isinstance(name, str):
                raise ValueError(f'For "{self.__class__.__name__}", the parameter "name" type should be str, '
                                 f'but got {type(name)}: {name!r}.')
            if not _is_tensor(value):
                raise TypeError(f'For "{self.__class__.__name__}", the parameter "value" expect to be Tensor, '
                                f'but got {_type_name(value)}')
            self._add_array(plugin, name, _to_numpy(plugin, value))
        elif plugin in _LINEAGE_PLUGINS:
            expected = _LINEAGE_PLUGINS[plugin]
            if type(value).__name__ != expected.__name__ or not hasattr(value, "SerializeToString"):
                raise TypeError(f'Plugin {plugin!r} expects a {expected.__name__} value, but got '
                                f'{_type_name(value)}.')
            self._data_pool[plugin].append({'tag': name, 'value': value.SerializeToString()})
        elif plugin == PluginEnum.GRAPH.value:
            self._data_pool[plugin].append({'tag': name, 'value': _graph.to_graph_def_bytes(value)})
        elif plugin in (PluginEnum.LANDSCAPE.value, 'LANDSCAPE'):
            if type(value).__name__ != 'LossLandscape' or not hasattr(value, "SerializeToString"):
                raise TypeError(f"Plugin 'landscape' expects a LossLandscape value, but got {_type_name(value)}.")
            self._data_pool[PluginEnum.LANDSCAPE.value].append({'tag': name, 'value': value.SerializeToString()})
        else:
            raise ValueError(f'For "{self.__class__.__name__}.add_value", no such "plugin" of {plugin!r} '
                             ', expect value is one of [tensor, scalar, image, histogram, train_lineage, '
                             'eval_lineage, dataset_graph, custom_lineage_data, graph, landscape]')

    def record(self, step: int, train_network: Any = None, plugin_filter: Callable[[str], bool] | None = None) -> bool:
        """Write the values added since the last record, stamped with `step`.

        In 'train' mode the values of the summary operators run since the last record are added
        first (the last value per tag and operator type). With a `network`, its compiled graph
        (or else `train_network`'s) is written at the first record where one exists.

        Args:
            step: the step number.
            train_network: the training Cell, for the graph when `network` has none. Default: None.
            plugin_filter: ``plugin_filter(plugin) -> bool`` keeps only some plugins. Default: None.

        Returns:
            bool, True when the values were written; False when the record is closed.

        Raises:
            TypeError: `step` is not an int, or `train_network` is not a Cell.

        Example:
            >>> with SummaryRecord(log_dir="./summary_dir") as summary_record:
            ...     result = summary_record.record(step=2)
        """
        if not isinstance(step, int) or isinstance(step, bool):
            raise TypeError(f"For 'SummaryRecord.record', the type of 'step' should be 'int', but got type "
                            f"'{_type_name(step)}': {step!r}.")
        if train_network is not None and not hasattr(train_network, "cells_and_names"):
            raise TypeError(f"For 'SummaryRecord.record', the type of 'train_network' should be one of "
                            f"['Cell', 'NoneType'], but got type '{_type_name(train_network)}'.")
        if self._status.get('closed'):
            _logger.error("For '%s', The record writer is closed, please check if close() method is called",
                          self.__class__.__name__)
            return False
        if self.network is not None and not self._status.get('has_graph'):
            graph = _graph.graph_def_bytes(self.network)
            if graph is None and train_network is not None:
                graph = _graph.graph_def_bytes(train_network)
            if graph is None:
                _logger.warning("Failed to get proto for graph.")
            else:
                self._write_event('summary', event_pb2.Event(wall_time=time.time(), step=step, graph_def=graph))
                self._status['has_graph'] = True
        if self._mode == 'train':
            self._add_summary_tensor_data()
        data = self._consume_data_pool()
        if plugin_filter:
            data = {plugin: values for plugin, values in data.items() if plugin_filter(plugin)}
        self._write(step, data)
        return True

    @property
    def log_dir(self) -> str:
        """The full path of the summary file being written.

        Example:
            >>> with SummaryRecord(log_dir="./summary_dir") as summary_record:
            ...     log_dir = summary_record.log_dir
        """
        return self._summary.path

    def flush(self) -> None:
        """Write the buffered data to disk.

        Example:
            >>> with SummaryRecord(log_dir="./summary_dir") as summary_record:
            ...     summary_record.flush()
        """
        if self._status.get('closed'):
            _logger.error("For '%s', the record writer is closed and can not flush, please check if close() method "
                          "is called", self.__class__.__name__)
            return
        self._each_writer("flush")

    def close(self) -> None:
        """Write everything to disk and close the files (the with-statement calls it).

        Example:
            >>> try:
            ...     summary_record = SummaryRecord(log_dir="./summary_dir")
            ... finally:
            ...     summary_record.close()
        """
        if self._status.get('closed'):
            return
        atexit.unregister(self.close)
        self._status['closed'] = True
        _summary_ops.set_active(False)
        with _instance_lock:
            SummaryRecord.count -= 1
        self._each_writer("close")

    # ---------------------------------------------------------------- internals
    def _each_writer(self, method: str) -> None:
        """Call ``method`` (``"flush"`` or ``"close"``) of every writer; a failure goes to :meth:`_writer_failed`."""
        for name, writer in list(self._writers.items()):
            try:
                getattr(writer, method)()
            except (RuntimeError, OSError) as err:
                self._writer_failed(name, err)

    def _add_summary_tensor_data(self) -> None:
        """Add the summary operators' values: the last one per tag and type, in first-call order."""
        entries, compiled = _summary_ops.take_cache()
        latest: dict = {}
        for op_name, tag, value in entries:
            _summary_ops.check_summary_param(op_name, tag, value)
            latest[tag + _OP_TAGS[op_name]] = _to_numpy(op_name[:-len("Summary")].lower(), value, op_name)
        for op_name, tag, array in compiled:  # checked when traced, but for the scalars' element count
            latest[tag + _OP_TAGS[op_name]] = _to_numpy(op_name[:-len("Summary")].lower(), array)
        for name, np_value in latest.items():
            tag, plugin = re.match(r'(.+)\[:(.+)\]', name).groups()
            self._add_array(plugin.lower(), tag, np_value)

    def _add_array(self, plugin: str, name: str, np_value: np.ndarray) -> None:
        """Pool a checked numpy value of a Tensor plugin."""
        if name in {item['tag'] for item in self._data_pool[plugin]}:
            _logger.warning('For "%s.add_value", %r has duplicate values. Only the newest one will be recorded.',
                            self.__class__.__name__, f'{name}/{plugin}')
        data = {'tag': name, 'value': np_value}
        export_key = f'{plugin}_format'
        if self._export_options is not None and export_key in self._export_options:
            data['export_option'] = self._export_options.get(export_key)
        self._data_pool[plugin].append(data)

    def _consume_data_pool(self) -> dict:
        data, self._data_pool = self._data_pool, defaultdict(list)
        return data

    def _writer_failed(self, name: str, err: Exception) -> None:
        """A write failed: log it, stop writing that file, raise if asked to."""
        _logger.error(str(err))
        writer = self._writers.pop(name, None)
        if writer is not None:
            try:
                writer.close()
            except (RuntimeError, OSError):
                pass
        if self.raise_exception:
            raise err

    def _write_event(self, name: str, event: event_pb2.Event) -> None:
        writer = self._writers.get(name)
        if writer is None:
            return
        try:
            writer.write(event)
        except RuntimeWarning as warn:
            _logger.warning(str(warn))
            self._writers.pop(name, None)
            writer.close()
        except (RuntimeError, OSError) as err:
            self._writer_failed(name, err)

    def _write(self, step: int, data: dict) -> None:
        """Write one record's pooled values: graphs and lineage first, then one Event of all summary values."""
        wall_time = time.time()
        values: list = []
        for plugin, entries in data.items():
            for entry in entries:
                try:
                    self._write_entry(plugin, entry, step, wall_time, values)
                except TypeError as err:
                    _logger.error("For 'SummaryRecord', the %s value %r is not written: %s", plugin,
                                  entry.get('tag'), err)
                if 'export_option' in entry:
                    self._export(entry, step)
        if values:
            event = event_pb2.Event(wall_time=wall_time, step=step, summary=summary_pb2.Summary(value=values))
            self._write_event('summary', event)
        for writer in list(self._writers.values()):
            writer.flush()

    def _write_entry(self, plugin: str, entry: dict, step: int, wall_time: float, values: list) -> None:
        tag, value = entry.get('tag'), entry['value']
        if plugin == 'graph':
            self._write_event('summary', event_pb2.Event(wall_time=wall_time, step=step, graph_def=value))
        elif plugin in _LINEAGE_PLUGINS:
            lineage, session = _adapter.lineage_values(plugin, value, self._hparams)
            for items in (lineage, session):
                if items:
                    self._write_event('lineage', event_pb2.Event(wall_time=wall_time, step=step,
                                                                 summary=summary_pb2.Summary(value=items)))
        elif plugin == 'scalar':
            values.append(_adapter.scalar_value(tag, value))
        elif plugin == 'tensor':
            values.append(_adapter.tensor_value(tag, value))
        elif plugin == 'histogram':
            values.append(_adapter.histogram_value(tag, value))
        elif plugin == 'image':
            values.append(_adapter.image_value(tag, value))
        elif plugin == 'landscape':
            values.extend(_adapter.landscape_values(tag, value))
        if values and values[-1] is None:
            values.pop()

    def _export(self, entry: dict, step: int) -> None:
        """Save a tensor as ``export_<seconds>/tensor/<quoted tag>_<step>.npy`` (read-only)."""
        if entry.get('export_option') != 'npy':
            return
        try:
            directory = os.path.join(self._export_dir, 'tensor')
            os.makedirs(directory, mode=0o700, exist_ok=True)
            path = os.path.join(directory, f"{quote(entry['tag'], safe='')}_{int(step)}.npy")
            np.save(path, entry['value'])
            os.chmod(path, _FILE_MODE)
        except (RuntimeError, OSError) as err:
            _logger.error(str(err))
            if self.raise_exception:
                raise
