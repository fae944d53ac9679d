"""OnRequestExit: stops training cleanly on a signal (or a config file), saving a checkpoint."""
from __future__ import annotations

import json
import logging
import os
import signal
import threading
from typing import Any

import numpy as np

from tfspore._internal import validator
from tfspore.train import serialization as _ser
from tfspore.train.callback._callback import Callback, RunContext
from tfspore.train.callback._paths import make_directory

_logger = logging.getLogger("tfspore")


def _device_id() -> int:
    try:
        from tfspore import context
        return int(context.get_context("device_id"))
    except Exception:  # noqa: BLE001 (no context: device 0)
        return 0


class OnRequestExit(Callback):
    """Exit training cleanly when the process receives ``sig`` (or ``config_file`` asks for it).

    The signal handler only sets a flag; at the end of the current training step the callback
    saves the train network to ``<directory>/rank_<device_id>/<file_name>_train.ckpt`` (with
    ``epoch_num``, ``step_num``, ``batch_num``, ``global_step`` and, with a loss-scale manager,
    ``loss_scale`` appended) and stops training. The same happens when the JSON ``config_file``
    holds ``{"GracefulExit": 1}``. When training starts and that checkpoint exists, it is loaded
    into the train network (resume). Evaluation stops after the current step and saves
    ``<file_name>_eval.ckpt``.

    Note:
        MindSpore also exports a MINDIR file when ``save_mindir`` is True; tfspore cannot write
        MINDIR, logs a warning instead, and saves the checkpoint only.

    Args:
        save_ckpt: save a checkpoint before exiting. Default: True.
        save_mindir: export a MINDIR file (not available in tfspore). Default: True.
        file_name: the saved file name (``_train``/``_eval`` and ``.ckpt`` are added). Default: ``"Net"``.
        directory: the folder; a ``rank_<id>`` folder is created in it. Default: ``"./"``.
        config_file: a JSON file polled at each step for ``{"GracefulExit": 1}``. Default: None.
        sig: the signal to handle (not SIGKILL). Default: ``signal.SIGTERM``.

    Raises:
        ValueError: for arguments of the wrong type, or ``sig=signal.SIGKILL``.

    Example:
        >>> model.train(10, dataset, callbacks=[OnRequestExit(file_name="LeNet")])  # doctest: +SKIP
    """

    _step_begin_reads_batch = False  # step_begin polls config_file only

    def __init__(self, save_ckpt: bool = True, save_mindir: bool = True, file_name: str = "Net",
                 directory: str | None = "./", config_file: str | None = None, sig: int = signal.SIGTERM) -> None:
        super().__init__()
        self.save_ckpt = validator.check_isinstance(save_ckpt, bool, "save_ckpt", "OnRequestExit")
        self.save_mindir = validator.check_isinstance(save_mindir, bool, "save_mindir", "OnRequestExit")
        self.sig = validator.check_isinstance(sig, int, "sig", "OnRequestExit")
        validator.check_isinstance(file_name, str, "file_name", "OnRequestExit")
        validator.check_isinstance(directory, (str, type(None)), "directory", "OnRequestExit")
        validator.check_isinstance(config_file, (str, type(None)), "config_file", "OnRequestExit")
        if hasattr(signal, "SIGKILL") and self.sig == signal.SIGKILL:
            raise ValueError(f"Not support send exit request by signal SIGKILL, but got sig={self.sig}.")
        self.exit = False
        self.lock = threading.Lock()
        self.save_path = directory
        self.key = "GracefulExit"
        self.remote_config_file = config_file
        self.integrated_save = True
        self.stop_train = False
        self._prev_handler: Any = None
        self._handler_installed = False
        self.train_name, self.eval_name = self._get_save_path(file_name)

    # ------------------------------------------------------------------ train
    def on_train_begin(self, run_context: RunContext) -> None:
        """Install the signal handler; resume from ``<file_name>_train.ckpt`` if it exists.

        Args:
            run_context: the run's context.
        """
        self._install_handler()
        self.stop_train = False
        if self.save_ckpt and os.path.isfile(f"{self.train_name}.ckpt"):
            _ser.load_checkpoint(f"{self.train_name}.ckpt", net=run_context.original_args().train_network)

    def on_train_step_begin(self, run_context: RunContext) -> None:
        """Poll ``config_file`` for an exit request.

        Args:
            run_context: the run's context.
        """
        if not self.exit and self._check_config_info():
            self.exit = True

    def on_train_step_end(self, run_context: RunContext) -> None:
        """If an exit was requested, save the checkpoint and stop training.

        Args:
            run_context: the run's context.
        """
        self._do_step_end(run_context)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """If an exit was requested, save the checkpoint and stop after this epoch.

        Args:
            run_context: the run's context.
        """
        self._do_step_end(run_context)

    def on_train_end(self, run_context: RunContext) -> None:
        """Save the checkpoint if an exit was requested and nothing was saved yet; restore the signal handler.

        Args:
            run_context: the run's context.
        """
        try:
            if self.exit and not self.stop_train:
                self._save_train(run_context.original_args())
                self.stop_train = True
        finally:
            self._restore_handler()

    # ------------------------------------------------------------------- eval
    def on_eval_begin(self, run_context: RunContext) -> None:
        """Install the signal handler; load ``<file_name>_eval.ckpt`` (or ``_train.ckpt``) if it exists.

        Args:
            run_context: the run's context.
        """
        self._install_handler()
        if not self.save_ckpt:
            return
        eval_net = run_context.original_args().get("eval_network")
        if eval_net is None:
            return
        if os.path.isfile(f"{self.eval_name}.ckpt"):
            _ser.load_checkpoint(f"{self.eval_name}.ckpt", net=eval_net)
        elif os.path.isfile(f"{self.train_name}.ckpt"):
            _ser.load_checkpoint(f"{self.train_name}.ckpt", net=eval_net)

    def on_eval_step_end(self, run_context: RunContext) -> None:
        """Stop evaluation after this step if an exit was requested.

        Args:
            run_context: the run's context.
        """
        if self.exit:
            run_context.request_stop()

    def on_eval_end(self, run_context: RunContext) -> None:
        """Save ``<file_name>_eval.ckpt`` if an exit was requested; restore the signal handler.

        Args:
            run_context: the run's context.
        """
        try:
            if self.exit:
                if self.save_ckpt:
                    _ser.save_checkpoint(run_context.original_args().eval_network, self.eval_name)
                self._warn_mindir()
        finally:
            self._restore_handler()

    # ---------------------------------------------------------------- helpers
    def _install_handler(self) -> None:
        if self._handler_installed:
            return
        try:
            self._prev_handler = signal.signal(self.sig, self._handle_signal)
            self._handler_installed = True
        except ValueError:  # not the main thread: signals can't be handled here
            _logger.warning("OnRequestExit can only install its signal handler in the main thread; the signal %s "
                            "is not handled.", self.sig)

    def _restore_handler(self) -> None:
        if self._handler_installed:
            try:
                signal.signal(self.sig, self._prev_handler if self._prev_handler is not None else signal.SIG_DFL)
            except ValueError:
                pass
            self._handler_installed = False

    def _handle_signal(self, signum: int, frame: Any) -> None:
        """Record the exit request (the handler does nothing else)."""
        _logger.debug("signum: %s, frame: %s", signum, frame)
        self.exit = True

    def _warn_mindir(self) -> None:
        if self.save_mindir:
            _logger.warning("OnRequestExit: MINDIR export is not available in tfspore; only the checkpoint is saved.")

    def _save_train(self, cb_params: dict) -> None:
        if self.save_ckpt:
            append_dict = {"epoch_num": cb_params.get("cur_epoch_num", 0),
                           "step_num": cb_params.get("cur_step_num", 0),
                           "batch_num": cb_params.get("batch_num", 0)}
            manager = cb_params.get("loss_scale_mananger")
            if manager is not None and hasattr(manager, "get_loss_scale"):
                append_dict["loss_scale"] = float(manager.get_loss_scale())
            network = cb_params["train_network"]
            optimizer = cb_params.get("optimizer")
            global_step = getattr(optimizer, "global_step", None) if optimizer is not None else None
            # the optimizer's own "global_step" Parameter is saved with the network; a second entry of the
            # same name (MindSpore appends one) would shadow it with another shape when loading
            if global_step is not None and "global_step" not in network.parameters_dict():
                append_dict["global_step"] = int(np.asarray(global_step.asnumpy()).reshape(-1)[0])
            _ser.save_checkpoint(network, self.train_name, integrated_save=self.integrated_save,
                                 append_dict=append_dict)
        self._warn_mindir()

    def _do_step_end(self, run_context: RunContext) -> None:
        with self.lock:
            if self.stop_train or not self.exit:
                return
            _logger.warning("Graceful exit is triggered, stop training.")
            self._save_train(run_context.original_args())
            run_context.request_stop()
            self.stop_train = True

    def _check_config_info(self) -> bool:
        """Whether ``config_file`` holds ``{"GracefulExit": 1}``."""
        if self.remote_config_file is None or not os.path.exists(self.remote_config_file):
            return False
        with open(self.remote_config_file, "r", encoding="utf-8") as f:
            try:
                config_info = json.load(f)
            except json.JSONDecodeError as e:
                _logger.warning("Parse json file failed: %s, please check json file: %s", e, self.remote_config_file)
                return False
        return isinstance(config_info, dict) and config_info.get(self.key) == 1

    def _get_save_path(self, file_name: str) -> tuple[str, str]:
        base = os.getcwd() if self.save_path is None else self.save_path
        path = make_directory(os.path.join(base, f"rank_{_device_id()}"))
        return os.path.join(path, f"{file_name}_train"), os.path.join(path, f"{file_name}_eval")

