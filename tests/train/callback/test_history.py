"""History: the recorded epochs and outputs in train, fit and eval."""
import numpy as np

import tfspore as ms
from tfspore.train.callback import History

from tests.train.callback_loop import fake_train, loss_steps, model_eval
from tests.train.callback._common import API, LOSSES


def test_history_train_and_fit():
    hist = History()
    fake_train(API, [hist], 2, 3, loss_steps(API, LOSSES))
    assert hist.epoch == {"epoch": [1, 2]}
    assert hist.history["net_output"] == [np.float32(LOSSES[2])] * 2
    assert isinstance(hist.history["net_output"][0], np.float32)
    hist2 = History()
    fake_train(API, [hist2], 2, 3, loss_steps(API, LOSSES), valid={"steps": 1, "metrics": {"acc": 0.5}})
    assert hist2.history == {"net_output": [np.float32(LOSSES[2])] * 2, "acc": [0.5, 0.5]}


def test_history_tuple_output_and_eval():
    hist = History()
    fake_train(API, [hist], 1, 1, lambda cb: (ms.Tensor(np.array([1.0, 3.0], np.float32)), 1))
    assert hist.history["net_output"] == [2.0]
    model_eval(API, [hist], 1, lambda cb: ms.Tensor(np.float32(0.25)), {"acc": 1.0})
    assert hist.epoch == {"epoch": [1]} and "acc" not in hist.history  # eval metrics come after epoch_end
