"""The deprecated ``_Loss`` base class at its MindSpore path ``mindspore.nn.loss.loss._Loss``."""
import logging

import numpy as np

from tfspore import Tensor, nn
from tfspore.nn.loss.loss import _Loss


def test_legacy_loss_base_warns_and_reduces(caplog):
    class Abs(_Loss):
        def construct(self, logits, labels):
            return self.get_loss((logits - labels).abs())

    with caplog.at_level(logging.WARNING, logger="tfspore"):
        loss = Abs(reduction="sum")
    assert "'_Loss' is deprecated from version 1.3" in caplog.text
    assert isinstance(loss, nn.LossBase)
    out = loss(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([0.0, 4.0], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), 3.0)
