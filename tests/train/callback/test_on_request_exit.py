"""OnRequestExit: the signal and config-file requests, saved state and validation."""
import json
import os
import signal

import numpy as np
import pytest

import tfspore as ms
from tfspore import nn
from tfspore.train.callback import OnRequestExit

from tests.train.callback_loop import fake_train, model_eval
from tests.train.callback._common import API, net_and_opt


def test_on_request_exit_signal_saves_and_stops(tmp_path):
    net, opt = net_and_opt()
    tn = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    cb_ = OnRequestExit(file_name="Net", directory=str(tmp_path))
    before = signal.getsignal(signal.SIGTERM)

    def step(cb):
        if cb.cur_step_num == 2:
            os.kill(os.getpid(), signal.SIGTERM)
        return ms.Tensor(np.float32(1.0))
    log = []
    fake_train(API, [cb_], 3, 3, step, train_network=tn, optimizer=opt, log=log)
    assert log == [("step", 1), ("step", 2), ("epoch_end", 2)]
    path = tmp_path / "rank_0" / "Net_train.ckpt"
    loaded = ms.load_checkpoint(str(path))
    assert int(loaded["step_num"].asnumpy()) == 2 and int(loaded["epoch_num"].asnumpy()) == 1
    assert int(loaded["batch_num"].asnumpy()) == 3 and "global_step" in loaded and "moments.weight" in loaded
    assert signal.getsignal(signal.SIGTERM) == before
    # the next run resumes from the saved checkpoint
    net.weight.assign_value(np.zeros(net.weight.shape, np.float32))
    fake_train(API, [OnRequestExit(directory=str(tmp_path))], 1, 1, lambda cb: 1.0, train_network=tn)
    np.testing.assert_array_equal(net.weight.asnumpy(), loaded["weight"].asnumpy())


def test_on_request_exit_config_file_and_eval(tmp_path):
    net, opt = net_and_opt()
    config = tmp_path / "exit.json"
    cb_ = OnRequestExit(directory=str(tmp_path), config_file=str(config), save_mindir=False)

    def step(cb):
        if cb.cur_step_num == 1:
            config.write_text(json.dumps({"GracefulExit": 1}))
        return 1.0
    cb = fake_train(API, [cb_], 2, 3, step, train_network=net)
    assert cb.cur_step_num == 2 and (tmp_path / "rank_0" / "Net_train.ckpt").exists()
    ev = OnRequestExit(directory=str(tmp_path))
    ev.exit = True
    cb = model_eval(API, [ev], 3, lambda cb: 0.5, {}, network=net)
    assert cb.cur_step_num == 1 and (tmp_path / "rank_0" / "Net_eval.ckpt").exists()


def test_on_request_exit_validation(tmp_path):
    with pytest.raises(ValueError, match="For 'OnRequestExit', the 'save_ckpt' must be bool, but got 1 of type int."):
        OnRequestExit(save_ckpt=1, directory=str(tmp_path))
    with pytest.raises(ValueError, match="Not support send exit request by signal SIGKILL"):
        OnRequestExit(sig=signal.SIGKILL, directory=str(tmp_path))
