"""BackupAndRestore: backs the train network up each epoch and restores it when training restarts."""
from __future__ import annotations

import logging
import os
import stat

from tfspore._internal import validator
from tfspore.train import serialization as _ser
from tfspore.train.callback._callback import Callback, RunContext
from tfspore.train.callback._paths import make_directory

_logger = logging.getLogger("tfspore")


class BackupAndRestore(Callback):
    """Back up the train network to ``<backup_dir>/backup.ckpt`` and restore it at the next start.

    When training begins and the backup exists, it is loaded into the train network (pass
    ``initial_epoch`` yourself: epoch counters are not restored). The backup is written every
    ``save_freq`` epochs and deleted when training ends, unless ``delete_checkpoint`` is False.

    Note:
        Only for training.

    Args:
        backup_dir: the folder of the backup file (created if missing).
        save_freq: ``"epoch"`` (every epoch) or a positive int (every N epochs). Default: ``"epoch"``.
        delete_checkpoint: delete the backup when training ends. Default: True.

    Raises:
        TypeError: for a non-str ``backup_dir``, a non-int ``save_freq`` or a non-bool ``delete_checkpoint``.
        ValueError: for a ``save_freq`` that is not positive.

    Example:
        >>> model.train(10, dataset, callbacks=[BackupAndRestore("./backup")])  # doctest: +SKIP
    """

    def __init__(self, backup_dir: str, save_freq: str | int = "epoch", delete_checkpoint: bool = True) -> None:
        super().__init__()
        ckpt_dir = make_directory(backup_dir)
        self.backup_file = os.path.join(ckpt_dir, "backup.ckpt")
        self.save_freq = 1 if save_freq == "epoch" else validator.check_positive_int(save_freq, "save_freq",
                                                                                     "BackupAndRestore")
        self.delete_checkpoint = validator.check_bool(delete_checkpoint, "delete_checkpoint", "BackupAndRestore")

    def on_train_begin(self, run_context: RunContext) -> None:
        """Load the backup into the train network if it exists.

        Args:
            run_context: the run's context.
        """
        if os.path.exists(self.backup_file):
            _logger.info("Restore checkpoint file is %s, load checkpoint into train net.", self.backup_file)
            _ser.load_checkpoint(self.backup_file, net=run_context.original_args().train_network)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Write the backup every ``save_freq`` epochs.

        Args:
            run_context: the run's context.
        """
        cb_params = run_context.original_args()
        if cb_params.cur_epoch_num % self.save_freq == 0:
            _logger.info("Train task end, backup checkpoint file: %s.", self.backup_file)
            _ser.save_checkpoint(cb_params.train_network, self.backup_file)

    def on_train_end(self, run_context: RunContext) -> None:
        """Delete the backup if ``delete_checkpoint``.

        Args:
            run_context: the run's context.
        """
        if self.delete_checkpoint and os.path.exists(self.backup_file):
            _logger.info("Delete restore checkpoint file %s.", self.backup_file)
            os.chmod(self.backup_file, stat.S_IWRITE | stat.S_IREAD)
            os.remove(self.backup_file)
