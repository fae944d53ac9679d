"""Model: train / eval / fit / predict, sink mode, call order, cb_params and errors."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
import tfspore.dataset as ds
from tfspore import nn
from tfspore.train import Model
from tfspore.train.callback import Callback
from tfspore.train.dataset_helper import DatasetHelper, connect_network_with_dataset


def _data(n=10, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 4)).astype(np.float32)
    y = rng.integers(0, 3, n).astype(np.int32)
    return x, y


def _dataset(n=10, batch=4, drop=False):
    x, y = _data(n)
    return ds.NumpySlicesDataset((x, y), column_names=["data", "label"], shuffle=False).batch(batch, drop)


def _net():
    net = nn.Dense(4, 3)
    rng = np.random.default_rng(1)
    net.weight.set_data(ms.Tensor(rng.standard_normal((3, 4)).astype(np.float32) * 0.3))
    net.bias.set_data(ms.Tensor(np.zeros(3, np.float32)))
    return net


def _model(metrics=None, **kw):
    net = _net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return Model(net, loss, opt, metrics=metrics, **kw), net


class Recorder(Callback):
    """Records the hook calls with the step and epoch numbers."""

    def __init__(self):
        self.calls = []

    def _rec(self, name, run_context):
        cb = run_context.original_args()
        self.calls.append((name, cb.get("cur_epoch_num"), cb.get("cur_step_num")))

    def on_train_begin(self, rc):
        self._rec("train_begin", rc)

    def on_train_epoch_begin(self, rc):
        self._rec("epoch_begin", rc)

    def on_train_step_begin(self, rc):
        self._rec("step_begin", rc)

    def on_train_step_end(self, rc):
        self._rec("step_end", rc)

    def on_train_epoch_end(self, rc):
        self._rec("epoch_end", rc)

    def on_train_end(self, rc):
        self._rec("train_end", rc)

    def on_eval_begin(self, rc):
        self._rec("eval_begin", rc)

    def on_eval_end(self, rc):
        self._rec("eval_end", rc)


def test_train_call_order_and_counters(mode):
    model, _ = _model()
    rec = Recorder()
    model.train(2, _dataset(), callbacks=[rec])
    names = [c[0] for c in rec.calls]
    assert names == (["train_begin"] + (["epoch_begin"] + ["step_begin", "step_end"] * 3 + ["epoch_end"]) * 2
                     + ["train_end"])
    assert rec.calls[0] == ("train_begin", None, 0)
    assert rec.calls[-2] == ("epoch_end", 2, 6)
    assert [c[2] for c in rec.calls if c[0] == "step_end"] == [1, 2, 3, 4, 5, 6]


def test_train_reduces_loss_and_net_outputs(mode):
    model, net = _model()
    losses = []

    class Grab(Callback):
        def on_train_step_end(self, rc):
            losses.append(float(rc.original_args().net_outputs.asnumpy()))

    model.train(5, _dataset(), callbacks=Grab())
    assert len(losses) == 15 and losses[-1] < losses[0]


def test_cb_params_fields_at_begin():
    model, net = _model()
    seen = {}

    class Spy(Callback):
        def on_train_begin(self, rc):
            seen.update(dict(rc.original_args()))

    model.train(3, _dataset(), callbacks=[Spy()], initial_epoch=1)
    assert seen["epoch_num"] == 2 and seen["batch_num"] == 3 and seen["mode"] == "train"
    assert seen["network"] is net and seen["train_network"] is model.train_network
    assert seen["loss_scale_mananger"] is None and seen["train_dataset_element"] is None
    assert "cur_epoch_num" not in seen and seen["dataset_sink_mode"] is False


def _final_weights(sink, sink_size=-1, epochs=3):
    model, net = _model()
    model.train(epochs, _dataset(12, 4, True), dataset_sink_mode=sink, sink_size=sink_size)
    return net.weight.asnumpy(), net.bias.asnumpy()


def test_sink_and_non_sink_give_the_same_weights(mode):
    w0, b0 = _final_weights(False)
    w1, b1 = _final_weights(True)
    np.testing.assert_allclose(w0, w1, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(b0, b1, rtol=1e-5, atol=1e-6)


def test_sink_step_end_once_per_sink_in_graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    model, _ = _model()
    rec = Recorder()
    model.train(3, _dataset(12, 4, True), callbacks=[rec], dataset_sink_mode=True, sink_size=2)
    steps = [c for c in rec.calls if c[0] == "step_end"]
    assert [(c[1], c[2]) for c in steps] == [(1, 2), (2, 4), (3, 6)]


def test_sink_continues_the_stream_across_epochs():
    """sink_size < dataset size: each epoch continues where the last stopped (MindSpore's stream)."""
    ms.set_context(mode=ms.GRAPH_MODE)
    w_sink = _final_weights(True, sink_size=2, epochs=3)     # 6 steps over a 3-batch dataset: 2 passes
    w_plain = _final_weights(False, epochs=2)                # the same 6 batches in order
    np.testing.assert_allclose(w_sink[0], w_plain[0], rtol=1e-5, atol=1e-6)


def test_graph_mode_traces_once_per_signature():
    ms.set_context(mode=ms.GRAPH_MODE)
    model, _ = _model()
    model.train(3, _dataset(12, 4, True))
    fns = list(model.train_network._compiled.values())
    assert len(fns) == 1 and fns[0].experimental_get_tracing_count() == 1


def test_stop_request_ends_after_epoch_end():
    model, _ = _model()
    rec = Recorder()

    class Stop(Callback):
        def on_train_step_end(self, rc):
            if rc.original_args().cur_step_num == 2:
                rc.request_stop()

    model.train(3, _dataset(), callbacks=[rec, Stop()])
    names = [c[0] for c in rec.calls]
    assert names == ["train_begin", "epoch_begin", "step_begin", "step_end", "step_begin", "step_end",
                     "epoch_end", "train_end"]


def test_eval_returns_metrics_and_fit_validates_before_epoch_end(mode):
    model, _ = _model(metrics={"acc", "loss"})
    res = model.eval(_dataset())
    assert set(res) == {"acc", "loss"} and 0.0 <= res["acc"] <= 1.0
    rec = Recorder()
    seen = []

    class Metrics(Callback):
        def on_train_epoch_end(self, rc):
            seen.append(sorted(rc.original_args().get("eval_results", {})))

    model.fit(2, _dataset(), _dataset(), valid_frequency=2, callbacks=[rec, Metrics()])
    names = [c[0] for c in rec.calls]
    i = names.index("eval_begin")
    assert names[i + 1] == "eval_end" and names[i + 2] == "epoch_end" and rec.calls[i + 2][1] == 2
    assert seen == [[], ["acc", "eval_loss", "loss"]]


def test_predict_and_train_network_repr():
    model, net = _model()
    x = ms.Tensor(_data()[0][:2])
    np.testing.assert_allclose(model.predict(x).asnumpy(), net(x).asnumpy())
    assert repr(model.train_network).startswith("TrainOneStepCell(\n  (network): WithLossCell(")
    assert model.predict_network is net and model.eval_network is None


def test_plain_tf_data_dataset_is_accepted():
    x, y = _data(8)
    tfds = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    model, _ = _model()
    rec = Recorder()
    model.train(1, tfds, callbacks=[rec])
    assert [c[2] for c in rec.calls if c[0] == "step_end"] == [1, 2]


def test_dataset_helper_custom_loop_both_modes(mode):
    net = _net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    helper = DatasetHelper(_dataset(12, 4, True), dataset_sink_mode=True, sink_size=3, epoch_num=2)
    assert helper.sink_size() == helper.get_sink_size() == 3  # a method, as in MindSpore
    assert DatasetHelper(_dataset(12, 4, True), sink_size=-1).sink_size() == 3  # -1: the dataset size
    sink_net = connect_network_with_dataset(train, helper)
    outs = []
    for _ in range(2):
        for inputs in helper:
            outs.append(sink_net(*inputs))
    assert len(outs) == (2 if mode == ms.GRAPH_MODE else 6)
    assert all(np.isfinite(o.asnumpy()) for o in outs)
    plain = DatasetHelper(_dataset(12, 4, True), dataset_sink_mode=False)
    batches = list(plain)
    assert len(batches) == 3 and isinstance(batches[0], list) and batches[0][0].shape == (4, 4)


@pytest.mark.parametrize("kwargs, exc, text", [
    (dict(foo=1), ValueError, "should be 'loss_scale_manager' or 'keep_batchnorm_fp32'"),
    (dict(amp_level="O4"), ValueError, "For 'Model', the 'amp_level' must be one of ['O0', 'O1', 'O2', 'O3', "
                                       "'auto'], but got 'O4'."),
    (dict(boost_level="O3"), ValueError, "For 'Model', the 'boost_level' must be one of ['O0', 'O1', 'O2'], but got "
                                         "'O3'."),
    (dict(keep_batchnorm_fp32=1), TypeError, "The type of 'keep_batchnorm_fp32' should be 'bool', but got type 'int'."),
])
def test_model_constructor_errors(kwargs, exc, text):
    net = _net()
    with pytest.raises(exc) as e:
        Model(net, nn.SoftmaxCrossEntropyWithLogits(), nn.Momentum(net.trainable_params(), 0.1, 0.9), **kwargs)
    assert text in str(e.value)


def test_train_argument_errors():
    model, _ = _model()
    d = _dataset()
    with pytest.raises(TypeError, match="For 'Model.train', the 'dataset_sink_mode' must be a bool, but got 1 of "
                                        "type int."):
        model.train(1, d, dataset_sink_mode=1)
    with pytest.raises(ValueError, match=r"^For 'Model.train', the 'epoch' must be a positive int, but got 0\.$"):
        model.train(0, d)
    with pytest.raises(ValueError, match="'epoch' is 2, 'initial_epoch' is 2"):
        model.train(2, d, initial_epoch=2)
    with pytest.raises(ValueError, match="'sink_size' must be -1 or positive, but got 0"):
        model.train(1, d, dataset_sink_mode=True, sink_size=0)
    with pytest.raises(TypeError, match=r"For 'Model', the 'network' must be a Cell, but got <function"):
        Model(lambda x: x)
    other, _ = _model()
    model.train(1, d)
    with pytest.raises(RuntimeError, match="had been used in other model"):
        other.train(1, d)
    with pytest.raises(ValueError, match="metrics' can not be None or empty"):
        model.eval(_dataset())


def test_model_rejects_an_experimental_optimizer_as_mindspore_does():
    from tfspore.experimental.optim import AdamW
    net = nn.Dense(2, 2)
    with pytest.raises(TypeError, match=r"The type of 'optimizer' should be one of .*but got type 'AdamW'"):
        Model(net, nn.MSELoss(), AdamW(net.trainable_params()))


@pytest.mark.parametrize("call, exc, text", [
    (lambda m, d: m.train(-1, d), ValueError, "For 'Model.train', the 'epoch' must be a positive int, but got -1."),
    (lambda m, d: m.train(1.5, d), TypeError, "For 'Model.train', the 'epoch' must be a positive int, but got 1.5 of "
                                              "type float."),
    (lambda m, d: m.fit(0, d), ValueError, "For 'Model.fit', the 'epoch' must be a positive int, but got 0."),
    (lambda m, d: m.train(1, d, initial_epoch=-1), ValueError, "For 'Model.train', the 'initial_epoch' must be a "
                                                              "non-negative int, but got -1."),
    (lambda m, d: m.train(1, d, sink_size="2"), TypeError, "For 'Model.train', the 'sink_size' must be an int"),
    (lambda m, d: m.train(1, None), TypeError, "For 'Model.train', the 'train_dataset' must be a tfspore dataset or "
                                               "a tf.data.Dataset, but got None"),
    (lambda m, d: m.eval(5), TypeError, "For 'Model.eval', the 'valid_dataset' must be a tfspore dataset or a "
                                        "tf.data.Dataset, but got 5 of type int."),
    (lambda m, d: m.fit(1, d, d, valid_frequency=0), ValueError, "For 'Model.fit', the 'valid_frequency' must be a "
                                                                  "positive int or a list, but got 0."),
])
def test_argument_errors_name_the_api_the_argument_and_the_value(call, exc, text):
    model, _ = _model(metrics={"acc"})
    with pytest.raises(exc) as e:
        call(model, _dataset())
    assert text in str(e.value)


@pytest.mark.parametrize("kwargs, exc, text", [
    ({"loss_fn": 3}, TypeError, "For 'Model', the 'loss_fn' must be a Cell or None, but got 3 of type int."),
    ({"metrics": "acc"}, TypeError, "For 'Model', the 'metrics' must be None, a dict or a set, but got 'acc'"),
    ({"amp_level": "O7"}, ValueError, "For 'Model', the 'amp_level' must be one of ['O0', 'O1', 'O2', 'O3', "
                                      "'auto'], but got 'O7'."),
])
def test_constructor_argument_errors_name_the_argument(kwargs, exc, text):
    net = _net()
    args = {"loss_fn": nn.MSELoss(), "optimizer": nn.Momentum(net.trainable_params(), 0.1, 0.9), **kwargs}
    with pytest.raises(exc) as e:
        Model(net, **args)
    assert text in str(e.value)
