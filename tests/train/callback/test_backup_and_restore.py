"""BackupAndRestore: backup, restore and validation."""
import os

import numpy as np
import pytest

from tfspore.train.callback import BackupAndRestore, Callback

from tests.train.callback_loop import fake_train
from tests.train.callback._common import API, net_and_opt


def test_backup_and_restore(tmp_path):
    net, _ = net_and_opt()
    seen = []

    class Probe(Callback):
        def on_train_epoch_end(self, run_context):
            seen.append(os.path.exists(tmp_path / "backup.ckpt"))
    fake_train(API, [BackupAndRestore(str(tmp_path)), Probe()], 2, 1, lambda cb: 1.0, train_network=net)
    assert seen == [True, True] and not (tmp_path / "backup.ckpt").exists()

    keep = BackupAndRestore(str(tmp_path), save_freq=2, delete_checkpoint=False)
    fake_train(API, [keep], 2, 1, lambda cb: 1.0, train_network=net)
    saved = net.weight.asnumpy().copy()
    net.weight.assign_value(np.zeros(net.weight.shape, np.float32))
    fake_train(API, [keep], 1, 1, lambda cb: 1.0, train_network=net)  # epoch 1: restored, not re-saved
    np.testing.assert_array_equal(net.weight.asnumpy(), saved)
    with pytest.raises(ValueError, match="For 'BackupAndRestore', the 'save_freq' must be a positive int, but got 0."):
        BackupAndRestore(str(tmp_path), save_freq=0)
    with pytest.raises(TypeError, match="must be a bool"):
        BackupAndRestore(str(tmp_path), delete_checkpoint="yes")
