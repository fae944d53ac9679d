"""ConvertModelUtils.convert_to_thor_model with a first-order optimizer: MindSpore 2.10 returns the same Model."""
import pytest

import tfspore as tfs

ms = pytest.importorskip("mindspore")


@pytest.mark.parametrize("fw", [ms, tfs], ids=["mindspore", "tfspore"])
def test_non_thor_optimizer_returns_the_model_itself(fw):
    from importlib import import_module
    utils = import_module(f"{fw.__name__}.train.train_thor").ConvertModelUtils
    net = fw.nn.Dense(4, 2)
    loss = fw.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = fw.nn.Momentum(net.trainable_params(), 0.1, 0.9)
    model = fw.train.Model(net, loss_fn=loss, optimizer=opt)
    assert utils().convert_to_thor_model(model=model, network=net, loss_fn=loss, optimizer=opt) is model
    assert hasattr(fw.nn, "thor") and hasattr(fw.nn.optim, "thor")
