"""train_thor: ConvertModelUtils returns the Model unchanged for a first-order optimizer; THOR itself raises."""
import pytest

import tfspore as ms
from tfspore import nn
from tfspore.train.train_thor import ConvertModelUtils, ConvertNetUtils


def _model():
    net = nn.Dense(4, 2)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return net, loss, opt, ms.Model(net, loss_fn=loss, optimizer=opt, metrics={"acc"})


def test_convert_to_thor_model_returns_the_same_model():
    net, loss, opt, model = _model()
    out = ConvertModelUtils().convert_to_thor_model(model=model, network=net, loss_fn=loss, optimizer=opt,
                                                    metrics={"acc"}, amp_level="O0", loss_scale_manager=None,
                                                    keep_batchnorm_fp32=False)
    assert out is model
    assert ConvertModelUtils.convert_to_thor_model(model, network=net, optimizer=opt) is model


def test_thor_is_not_implemented_and_named():
    net = nn.Dense(4, 2)
    with pytest.raises(NotImplementedError, match=r"For 'thor', the THOR second-order optimizer \(mindspore.nn.thor\)"):
        nn.thor(net, ms.Tensor([0.1]), ms.Tensor([0.01]), 0.9, 1e-4, 128, 32, frequency=10)
    with pytest.raises(NotImplementedError, match="convert_to_thor_net"):
        ConvertNetUtils().convert_to_thor_net(net)


def test_import_paths_of_resnet_and_bert():
    ms.alias_mindspore()
    try:
        from mindspore.train.train_thor import ConvertModelUtils as c1
        from mindspore.nn.optim import Lamb, Momentum, AdamWeightDecay, thor  # noqa: F401  (BERT's line)
        import mindspore
    finally:
        ms.unalias_mindspore()
    assert c1 is ConvertModelUtils and thor is nn.thor and mindspore.train.ConvertModelUtils is ConvertModelUtils
    assert mindspore.train.train_thor.ConvertNetUtils is ConvertNetUtils
