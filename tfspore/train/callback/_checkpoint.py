"""ModelCheckpoint and CheckpointConfig: save ``.ckpt`` files while training.

Files are named ``<prefix>-<epoch>_<step in epoch>.ckpt`` in ``directory``, written through
:func:`tfspore.train.serialization.save_checkpoint` (MindSpore's byte format, atomic write).
Retention follows MindSpore: before each save the directory is rescanned for this prefix's files,
and the oldest (by modification time) is deleted once ``keep_checkpoint_max`` files exist.

MindSpore also writes ``<prefix>-graph.meta`` (its compiled graph, ANF IR) in GRAPH mode; that
file has no TensorFlow counterpart and is not written.

In a job of several processes every rank saves, as in MindSpore, whose note asks for one
directory per process (the model zoo passes ``save_checkpoint_path + "ckpt_" + str(get_rank())``,
or saves on rank 0 only). A directory belongs to the rank its name ends with (``ckpt_1``), else
to rank 0; that rank writes into it, and every other rank into its ``rank_<id>`` folder inside it
(:func:`tfspore._internal.rank_dirs.rank_directory`). So those scripts keep MindSpore's paths,
and ranks that share a directory never overwrite, prune or de-duplicate each other's files.

The policy, :class:`CheckpointConfig`, is defined in :mod:`tfspore.train.callback._checkpoint_config`
(and importable from here, as in MindSpore).

Example:
    >>> from tfspore.train import ModelCheckpoint, CheckpointConfig
    >>> config = CheckpointConfig(save_checkpoint_steps=100, keep_checkpoint_max=3)
    >>> ckpt_cb = ModelCheckpoint(prefix="lenet", directory="./ckpt", config=config)
    >>> model.train(10, dataset, callbacks=[ckpt_cb])  # doctest: +SKIP
"""
from __future__ import annotations

import logging
import os
import stat
import time
from typing import Any, Callable

from tfspore._internal import rank_dirs
from tfspore.common.tensor import Tensor
from tfspore.nn.cell import Cell
from tfspore.train import serialization as _ser
from tfspore.train.callback._callback import Callback, RunContext
from tfspore.train.callback._checkpoint_config import CheckpointConfig
from tfspore.train.callback._paths import make_directory

_logger = logging.getLogger("tfspore")

# As in MindSpore, ``directory=None`` means the working directory when this module was imported.
_cur_dir = os.getcwd()
SAVE_DIR = _cur_dir


def _wait_async_save_ckpt(async_save: Any = False) -> None:
    """Wait for a pending background save (``async_save`` True, ``"thread"`` or ``"process"``)."""
    if async_save:
        _ser._wait_async_thread_save_ckpt()


def _rank_dir(directory: str) -> str:
    """``directory``, or this rank's ``rank_<id>`` folder in it (created) when ranks of a job could share it."""
    run_dir = rank_dirs.rank_directory(directory)
    return directory if run_dir == directory else make_directory(run_dir)


def _chg_ckpt_file_name_if_same_exist(directory: Any, prefix: Any, exception: bool = False) -> Any:
    """Return ``prefix``, or ``prefix_N`` when ``directory`` already holds checkpoints of that prefix.

    A file ``prefix-...`` gives suffix 1 at least; ``prefix_N-...`` gives N+1 at least. With
    ``exception=True`` only ``_breakpoint.ckpt`` files count, otherwise only the other
    ``.ckpt``/``.safetensors`` files. Callable prefixes and directories are returned unchanged.
    """
    if callable(prefix) or callable(directory):
        return prefix
    suffix_num = 0
    pre_len = len(prefix)
    for filename in os.listdir(directory):
        ext = os.path.splitext(filename)[-1]
        is_breakpoint = filename.endswith("_breakpoint.ckpt")
        if exception and not is_breakpoint:
            continue
        if not exception and (ext not in (".ckpt", ".safetensors") or is_breakpoint):
            continue
        if filename.startswith(prefix) and len(filename) > pre_len and not filename[pre_len].isalpha():
            index = filename[pre_len:].find("-")
            if index == 0:
                suffix_num = max(suffix_num, 1)
            elif index != -1:
                num = filename[pre_len + 1:pre_len + index]
                if num.isdigit():
                    suffix_num = max(suffix_num, int(num) + 1)
    if suffix_num != 0:
        prefix = f"{prefix}_{suffix_num}"
    return prefix


class CheckpointManager:
    """Tracks the checkpoint files of one prefix in a directory (retention)."""

    def __init__(self, format: str = "ckpt") -> None:  # pylint: disable=redefined-builtin
        self._ckpoint_filelist: list[str] = []
        self._format = format
        self._save_order: dict[str, int] = {}

    def record_save(self, file_name: str) -> None:
        """Remember that this run wrote ``file_name`` (breaks modification-time ties)."""
        self._save_order[file_name] = len(self._save_order) + 1

    @property
    def ckpoint_filelist(self) -> list[str]:
        """list: the managed files."""
        return self._ckpoint_filelist

    @property
    def ckpoint_num(self) -> int:
        """int: the number of managed files."""
        return len(self._ckpoint_filelist)

    def update_ckpoint_filelist(self, directory: str, prefix: str) -> None:
        """Rescan ``directory`` for ``prefix-<no letters>.<format>`` files."""
        self._ckpoint_filelist = []
        ext = f".{self._format}"
        for filename in os.listdir(directory):
            if os.path.splitext(filename)[-1] == ext and filename.startswith(prefix + "-"):
                mid_name = filename[len(prefix):-len(ext)]
                if not any(char.isalpha() for char in mid_name):
                    self._ckpoint_filelist.append(os.path.join(directory, filename))

    def remove_ckpoint_file(self, file_name: str) -> None:
        """Delete ``file_name`` from the directory and from the list (a failure is logged)."""
        try:
            if not os.path.islink(file_name):  # never chmod a symlink's target
                os.chmod(file_name, stat.S_IWRITE | stat.S_IREAD)
            os.remove(file_name)
            self._ckpoint_filelist.remove(file_name)
        except OSError:
            _logger.warning("OSError, failed to remove the older ckpt file %s.", file_name)
        except ValueError:
            _logger.warning("ValueError, failed to remove the older ckpt file %s.", file_name)

    def remove_oldest_ckpoint_file(self, exclude: str | None = None) -> None:
        """Delete the file with the oldest modification time (never ``exclude``)."""
        # file times can be coarser than the time between two saves: ties go to the earlier save
        def _age(f: str) -> tuple:
            try:
                return os.lstat(f).st_mtime_ns, self._save_order.get(f, 0)
            except OSError:  # removed meanwhile
                return -1, 0
        ckpoint_files = sorted((f for f in self._ckpoint_filelist if f != exclude), key=_age)
        if ckpoint_files:
            self.remove_ckpoint_file(ckpoint_files[0])

    def keep_one_ckpoint_per_minutes(self, minutes: int, cur_time: float, exclude: str | None = None) -> None:
        """Delete the files written in the last ``minutes`` minutes, except the oldest of them and ``exclude``."""
        del_list = []
        oldest_file = ""
        oldest_time = cur_time
        for ck_file in self._ckpoint_filelist:
            if ck_file == exclude:
                continue
            modify_time = os.path.getmtime(ck_file)
            if cur_time - modify_time < 60 * minutes:
                del_list.append(ck_file)
                if modify_time < oldest_time:
                    oldest_time = modify_time
                    oldest_file = ck_file
        for mv_file in del_list:
            if mv_file != oldest_file:
                self.remove_ckpoint_file(mv_file)


def _saveable(network: Any) -> Any:
    """What ``save_checkpoint`` receives for ``network``: a Cell as is, a Keras model as its weights."""
    if isinstance(network, (Cell, list, dict)):
        return network
    weights = getattr(network, "weights", None)
    if weights is not None:  # a Keras model (ModelCheckpoint used through as_keras_callback)
        return [{"name": getattr(w, "path", None) or w.name, "data": Tensor(w.numpy())} for w in weights]
    return network


class ModelCheckpoint(Callback):
    """Save checkpoints while training.

    Files are ``<directory>/<prefix>-<epoch>_<step in epoch>.ckpt`` (``<prefix(cb_params)>.ckpt``
    for a callable prefix). When the directory already holds checkpoints of the prefix, the
    prefix becomes ``<prefix>_1``, ``<prefix>_2``, ... (decided at construction). A final
    checkpoint is saved at the end of training unless the last step was just saved. The train
    network is saved (with the optimizer state) unless ``config.saved_network`` is set.

    Note:
        MindSpore also writes ``<prefix>-graph.meta`` in GRAPH mode (its ANF IR graph); tfspore
        writes no such file. In ``Model.eval`` this callback does nothing (MindSpore fails there).

        In a job of several processes (``tfspore launch``, ``mpirun``) a rank writes into the
        directory when the directory's name ends with its rank (``ckpt_1`` on rank 1, as the
        model zoo names them) or, on rank 0, ends with no rank; otherwise into
        ``<directory>/rank_<rank>``. Ranks never share a file.

    Args:
        prefix: the file-name prefix (no ``'/'``), or a callable of ``cb_params`` returning it.
            Default: ``"CKP"``.
        directory: the folder (created with mode 0o700), or a callable of ``cb_params``
            returning it; None: the working directory when tfspore's callbacks were imported.
            Default: None.
        config: a :class:`CheckpointConfig`; None: the default policy. Default: None.

    Raises:
        ValueError: for an invalid prefix.
        TypeError: for a non-str directory or a config that is not a CheckpointConfig.

    Example:
        >>> ckpt_cb = ModelCheckpoint(prefix="net", directory="./ckpt",
        ...                           config=CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=3))
        >>> model.train(3, dataset, callbacks=[ckpt_cb])  # doctest: +SKIP
        >>> os.path.basename(ckpt_cb.latest_ckpt_file_name)  # doctest: +SKIP
        'net-3_3.ckpt'
    """

    def __init__(self, prefix: str | Callable = "CKP", directory: str | Callable | None = None,
                 config: CheckpointConfig | None = None) -> None:
        super().__init__()
        self._latest_ckpt_file_name = ""
        self._init_time = time.time()
        self._last_time = time.time()
        self._last_time_for_keep = time.time()
        self._last_triggered_step = 0
        self._prefix_func: Callable | None = None
        self._directory_func: Callable | None = None

        if not callable(prefix) and (not isinstance(prefix, str) or prefix.find("/") >= 0):
            raise ValueError("For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is invalid, it "
                             f"must be callable or string that does not contain '/', but got {prefix}.")
        self._prefix: Any = prefix
        self._exception_prefix: Any = prefix

        self._directory: Any = None
        if directory is not None:
            if callable(directory):
                self._directory_func = directory
            else:
                self._directory = _rank_dir(make_directory(directory, "directory", "ModelCheckpoint"))
        else:
            self._directory = _rank_dir(_cur_dir)

        if callable(prefix):
            self._prefix_func = prefix

        if config is None:
            self._config = CheckpointConfig()
        else:
            if not isinstance(config, CheckpointConfig):
                raise TypeError("For 'ModelCheckpoint', the type of argument 'config' should be 'CheckpointConfig', "
                                f"but got {type(config)}.")
            self._config = config

        self._manager = CheckpointManager(self._config.format)
        if not callable(directory) and not callable(prefix):
            self._prefix = _chg_ckpt_file_name_if_same_exist(self._directory, self._prefix)
        self._append_dict = self._config.append_dict or {}
        self._append_epoch_num = self._append_dict.get("epoch_num", 0)
        self._append_step_num = self._append_dict.get("step_num", 0)
        self._graph_saved = False
        self._pending_prune: str | None = None
        self._map_param_inc = self._config.map_param_inc

    def step_end(self, run_context: RunContext) -> None:
        """Save a checkpoint at the end of a training step when the policy says so.

        Args:
            run_context: the run's context.

        Raises:
            ValueError: when a callable prefix returns something other than a str without ``'/'``.
        """
        cb_params = run_context.original_args()
        if self._prefix_func:
            self._prefix = self._prefix_func(cb_params)
            if not isinstance(self._prefix, str) or self._prefix.find("/") >= 0:
                raise ValueError("For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is callable, "
                                 "it must return a string that does not contain '/', but got "
                                 f"{self._prefix}.")
        if self._directory_func:
            self._directory = _rank_dir(make_directory(self._directory_func(cb_params)))
        # MindSpore writes "<prefix>-graph.meta" here (GRAPH mode only); tfspore has no such graph file.
        self._graph_saved = True
        self._save_ckpt(cb_params)

    def end(self, run_context: RunContext) -> None:
        """Save the last checkpoint after training (unless the last step was just saved).

        Args:
            run_context: the run's context.
        """
        cb_params = run_context.original_args()
        self._save_ckpt(cb_params, True)
        _wait_async_save_ckpt(self._config.async_save)
        self._prune_pending()

    def on_eval_step_end(self, run_context: RunContext) -> None:
        """Evaluation steps save nothing."""

    def on_eval_end(self, run_context: RunContext) -> None:
        """Evaluation saves nothing."""

    def _check_save_ckpt(self, cb_params: dict, force_to_save: bool) -> bool:
        """Whether the policy asks for a save now."""
        steps = self._config.save_checkpoint_steps
        seconds = self._config.save_checkpoint_seconds
        if steps and steps > 0:
            if cb_params["cur_step_num"] >= self._last_triggered_step + steps or force_to_save is True:
                return True
        elif seconds and seconds > 0:
            self._cur_time = time.time()
            if (self._cur_time - self._last_time) > seconds or force_to_save:
                self._last_time = self._cur_time
                return True
        return False

    def _append_dict_content(self, epoch_num: int, step_num: int) -> None:
        if "epoch_num" in self._append_dict:
            self._append_dict["epoch_num"] = self._append_epoch_num + epoch_num
        if "step_num" in self._append_dict:
            self._append_dict["step_num"] = self._append_step_num + step_num

    def _save(self, network: Any, path: str, async_save: Any) -> None:
        cfg = self._config
        if cfg.remove_redundancy:
            from tfspore.communication import get_group_size
            if get_group_size() == 1:
                raise TypeError("The deduplication feature for saving checkpoint can only be used in parallel "
                                "scenarios, but got 'stand_alone'.")
        _ser.save_checkpoint(_saveable(network), path, cfg.integrated_save, async_save,
                             self._append_dict or None, cfg.enc_key, cfg.enc_mode, crc_check=cfg.crc_check,
                             format=cfg.format, incremental=self._map_param_inc)

    def _save_ckpt(self, cb_params: dict, force_to_save: bool = False) -> None:
        """Save a checkpoint if the policy asks for one, applying retention first."""
        if cb_params["cur_step_num"] == self._last_triggered_step:
            return
        if not self._check_save_ckpt(cb_params, force_to_save):
            return
        cfg = self._config
        step_num_in_epoch = int((cb_params["cur_step_num"] - 1) % cb_params["batch_num"] + 1)
        _wait_async_save_ckpt(cfg.async_save)
        if self._prefix_func:
            cur_ckpoint_file = f"{self._prefix}.{cfg.format}"
        else:
            cur_ckpoint_file = f"{self._prefix}-{cb_params['cur_epoch_num']}_{step_num_in_epoch}.{cfg.format}"
        # prune what the previous asynchronous save left over (it is complete now)
        self._prune_pending()
        global SAVE_DIR
        SAVE_DIR = self._directory
        cur_file = os.path.join(self._directory, cur_ckpoint_file)
        self._last_triggered_step = cb_params["cur_step_num"]
        self._append_dict_content(cb_params["cur_epoch_num"], cb_params["cur_step_num"])
        network = cfg.saved_network if cfg.saved_network is not None else cb_params["train_network"]
        self._save(network, cur_file, cfg.async_save)
        self._manager.record_save(cur_file)
        self._latest_ckpt_file_name = cur_file
        # retention runs only once the new file is complete, so a crash or a failed write never
        # leaves fewer complete checkpoints than before the save
        self._pending_prune = cur_file
        if not cfg.async_save:
            self._prune_pending()

    def _prune_pending(self) -> None:
        """Apply the retention policy after a completed save, never deleting the file just saved."""
        keep_file, self._pending_prune = self._pending_prune, None
        if keep_file is None:
            return
        cfg = self._config
        directory = os.path.dirname(keep_file)
        self._manager.update_ckpoint_filelist(directory, self._prefix)
        if cfg.keep_checkpoint_max and cfg.keep_checkpoint_max > 0:
            while self._manager.ckpoint_num > cfg.keep_checkpoint_max:
                before = self._manager.ckpoint_num
                self._manager.remove_oldest_ckpoint_file(exclude=keep_file)
                if self._manager.ckpoint_num == before:  # nothing removable: stop
                    break
        elif cfg.keep_checkpoint_per_n_minutes and cfg.keep_checkpoint_per_n_minutes > 0:
            self._cur_time_for_keep = time.time()
            if (self._cur_time_for_keep - self._last_time_for_keep) < cfg.keep_checkpoint_per_n_minutes * 60:
                self._manager.keep_one_ckpoint_per_minutes(cfg.keep_checkpoint_per_n_minutes,
                                                           self._cur_time_for_keep, exclude=keep_file)
        self._last_time_for_keep = time.time()

    def _save_breakpoint(self, cb_params: dict, epoch: int | None = None, step: int | None = None) -> str:
        """Save ``<prefix>-<epoch>_<step in epoch>_breakpoint.ckpt`` (``exception_save``).

        Model calls this when training raises and ``config.exception_save`` is set. The prefix is
        de-duplicated against existing ``_breakpoint.ckpt`` files.

        Args:
            cb_params: the run's ``cb_params``.
            epoch: the current epoch; default: ``cb_params.cur_epoch_num`` (0 before the first epoch).
            step: the step in the epoch; default: from ``cur_step_num`` and ``batch_num`` (0 before
                the first step).

        Returns:
            str: the path written.
        """
        if epoch is None:
            epoch = cb_params.get("cur_epoch_num", 0)
        if step is None:
            cur, batch_num = cb_params.get("cur_step_num", 0), cb_params.get("batch_num")
            step = int((cur - 1) % batch_num + 1) if cur and batch_num else 0
        directory = self._directory
        if directory is None and self._directory_func is not None:
            directory = _rank_dir(make_directory(self._directory_func(cb_params)))
        prefix = self._exception_prefix
        if callable(prefix):
            prefix = self._prefix if isinstance(self._prefix, str) else prefix(cb_params)
        prefix = _chg_ckpt_file_name_if_same_exist(directory, prefix, True)
        cur_file = os.path.join(directory, f"{prefix}-{epoch}_{step}_breakpoint.ckpt")
        self._append_dict_content(epoch, cb_params.get("cur_step_num", 0))
        network = cb_params.get("train_network")
        _wait_async_save_ckpt(self._config.async_save)
        self._save(network, cur_file, False)
        return cur_file

    @property
    def latest_ckpt_file_name(self) -> str:
        """str: the absolute path of the last file saved by this callback (``""`` before the first)."""
        return self._latest_ckpt_file_name
