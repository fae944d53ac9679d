"""SummaryCollector: what it records (read back with TensorBoard's event reader), when, and its errors."""
import json
import os
import urllib.parse

import numpy as np
import pytest
from tensorboard.util import tensor_util

import tfspore as ms
from tfspore import nn, ops
from tfspore.dataset import NumpySlicesDataset
from tfspore.train import Model
from tfspore.train.callback import Callback, LossMonitor, SummaryCollector

N_SAMPLES, BATCH = 18, 2  # 9 steps per epoch


class TinyNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(48, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return self.fc(self.flatten(x) * 0.01)


def _dataset(n=N_SAMPLES):
    rng = np.random.RandomState(0)
    images = rng.rand(n, 3, 4, 4).astype(np.float32)
    labels = (np.arange(n) % 2).astype(np.int32)
    return NumpySlicesDataset({"image": images, "label": labels}, shuffle=False).batch(BATCH)


def _model(metrics=None, lr=0.01):
    net = TinyNet()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    return Model(net, loss, opt, metrics=metrics)


class _Losses(Callback):
    """Records the loss of every training step."""

    def __init__(self):
        super().__init__()
        self.losses = {}

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        self.losses[cb.cur_step_num] = float(np.mean(cb.net_outputs.asnumpy()))
        if cb.cur_step_num == 1:
            self.first_weights = cb.network.fc.weight.asnumpy().copy()


def _accumulator(summary_dir):
    """TensorBoard's event reader over the run directory (all its event files, as TensorBoard reads a run)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    assert any("tfevents" in name for name in os.listdir(summary_dir)), os.listdir(summary_dir)
    acc = EventAccumulator(summary_dir, size_guidance={"scalars": 0, "tensors": 0, "images": 0, "histograms": 0})
    acc.Reload()
    return acc


def _scalars(acc, tag):
    return [(e.step, e.value) for e in acc.Scalars(tag)]


def _histogram_tags(acc):
    """The tags written for TensorBoard's Histograms dashboard (tensors of the 'histograms' plugin)."""
    return {tag for tag in acc.Tags()["tensors"]
            if acc.SummaryMetadata(tag).plugin_data.plugin_name == "histograms"}


def _text(acc, tag):
    return [tensor_util.make_ndarray(e.tensor_proto).item().decode() for e in acc.Tensors(tag)]


def test_non_sink_records_loss_lr_histograms_images_at_collect_steps(tmp_path, mode):
    summary_dir = str(tmp_path / "summary")
    model = _model()
    losses = _Losses()
    collector = SummaryCollector(summary_dir, collect_freq=2, custom_lineage_data={"run": "a", "seed": 1})
    model.train(2, _dataset(), callbacks=[losses, collector], dataset_sink_mode=False)

    acc = _accumulator(summary_dir)
    tags = acc.Tags()
    # first step, every 2nd step; epoch_end records the last step of epoch 2 (18) a second time, as MindSpore
    expected_steps = [1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 18]
    loss = _scalars(acc, "loss/auto")
    assert [s for s, _ in loss] == expected_steps
    for step, value in loss:
        assert value == pytest.approx(losses.losses[step], rel=1e-6)
    lr = _scalars(acc, "learning_rate/auto")
    assert [s for s, _ in lr] == expected_steps
    assert all(v == pytest.approx(0.01) for _, v in lr)
    assert _histogram_tags(acc) == {"fc.weight/auto", "fc.bias/auto"}
    weights = acc.Tensors("fc.weight/auto")
    assert [e.step for e in weights] == expected_steps
    buckets = tensor_util.make_ndarray(weights[0].tensor_proto)  # (left, right, count) rows
    assert buckets.shape[1] == 3 and buckets[:, 2].sum() == 2 * 48
    assert buckets[0, 0] == pytest.approx(losses.first_weights.min(), rel=1e-6)
    assert buckets[-1, 1] == pytest.approx(losses.first_weights.max(), rel=1e-6)
    assert tags["images"] == ["input_data/auto"]
    image = acc.Images("input_data/auto")[0]
    assert (image.step, image.width, image.height) == (1, 4 * BATCH, 4)
    # the graph of the compiled training step, in GRAPH_MODE only (as MindSpore)
    assert tags["graph"] is (mode == ms.GRAPH_MODE)
    if mode == ms.GRAPH_MODE:
        assert len(acc.Graph().node) > 10

    lineage = acc
    train_text = _text(lineage, "train_lineage")[-1]
    for fragment in ('optimizer: "Momentum"', 'loss_function: "SoftmaxCrossEntropyWithLogits"', "epoch: 2",
                     'network: "TinyNet"', "train_dataset_size: 18", "batch_size: 2"):
        assert fragment in train_text, train_text
    assert 'value: "a"' in _text(lineage, "custom_lineage_data")[0]
    assert "Batch" in _text(lineage, "dataset_graph")[0]

    # the landscape checkpoints of the default intervals (steps 1..19; 18 steps ran)
    ckpt_dir = tmp_path / "summary" / "ckpt_dir"
    assert sorted(os.listdir(ckpt_dir)) == sorted([f"TinyNet_{i}_step.ckpt" for i in range(1, 19)] +
                                                  ["train_metadata.json"])
    meta = json.loads((ckpt_dir / "train_metadata.json").read_text())
    assert meta["step_per_epoch"] == 9 and meta["unit"] == "step" and meta["landscape_size"] == 40
    assert meta["epoch_group"] == {"0": list(range(1, 10)), "1": list(range(10, 20))}
    assert sorted(meta["model_params_file_map"], key=int) == [str(i) for i in range(1, 19)]
    first = ms.load_checkpoint(str(ckpt_dir / "TinyNet_1_step.ckpt"))
    assert list(first) == ["fc.weight", "fc.bias"]


def test_sink_mode_collects_per_epoch(tmp_path, mode):
    summary_dir = str(tmp_path / "summary")
    model = _model()
    collector = SummaryCollector(summary_dir, collect_freq=2, collect_specified_data={"collect_landscape": None})
    model.train(4, _dataset(), callbacks=[collector], dataset_sink_mode=True)
    acc = _accumulator(summary_dir)
    # epochs 1 (always), 2 and 4, stamped with the step number at the end of the sink
    assert [s for s, _ in _scalars(acc, "loss/auto")] == [9, 18, 36]
    assert [e.step for e in acc.Tensors("fc.bias/auto")] == [9, 18, 36]
    assert acc.Tags()["images"] == []  # the sink feeds the data in the graph: no input batch to show
    assert acc.Tags()["graph"] is (mode == ms.GRAPH_MODE)
    if mode == ms.GRAPH_MODE:  # the compiled sink: a loop over the steps
        assert any(node.op == "While" or "while" in node.name for node in acc.Graph().node)
    assert not (tmp_path / "summary" / "ckpt_dir").exists()


def test_eval_and_fit_record_metrics(tmp_path, mode):
    model = _model(metrics={"acc"})
    fit_dir = str(tmp_path / "fit")
    model.fit(2, _dataset(), _dataset(), callbacks=[SummaryCollector(fit_dir, collect_freq=100)])
    acc = _accumulator(fit_dir)
    accuracy = _scalars(acc, "acc/auto")
    assert [s for s, _ in accuracy] == [9, 18]
    assert all(0.0 <= v <= 1.0 for _, v in accuracy)
    assert [s for s, _ in _scalars(acc, "loss/auto")] == [1]  # collect_freq=100: the first step only

    eval_dir = str(tmp_path / "eval")
    result = model.eval(_dataset(), callbacks=[SummaryCollector(eval_dir)])
    acc = _accumulator(eval_dir)
    assert _scalars(acc, "acc/auto") == [(0, pytest.approx(result["acc"]))]
    assert "loss/auto" not in acc.Tags()["scalars"]
    lineage = acc
    text = _text(lineage, "eval_lineage")[0]
    assert json.dumps({"acc": result["acc"]}).replace('"', '\\"') in text, text
    assert "valid_dataset_size: 18" in text


def test_specified_data_selects_what_is_collected(tmp_path):
    summary_dir = str(tmp_path / "summary")
    specified = {"collect_metric": True, "histogram_regular": "^fc.bias"}
    collector = SummaryCollector(summary_dir, collect_freq=5, collect_specified_data=specified,
                                 keep_default_action=False)
    _model().train(1, _dataset(), callbacks=[collector])
    acc = _accumulator(summary_dir)
    tags = acc.Tags()
    assert _histogram_tags(acc) == {"fc.bias/auto"}
    assert [s for s, _ in _scalars(acc, "loss/auto")] == [1, 5]
    assert tags["images"] == [] and not tags["graph"]
    assert not {"train_lineage", "dataset_graph", "custom_lineage_data"} & set(tags["tensors"])  # no lineage
    assert not (tmp_path / "summary" / "ckpt_dir").exists()


def test_schedule_learning_rate_is_the_steps(tmp_path):
    summary_dir = str(tmp_path / "summary")
    net = TinyNet()
    lrs = [0.1 * (i + 1) for i in range(9)]
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), lrs, 0.9))
    model.train(1, _dataset(), callbacks=[SummaryCollector(summary_dir, collect_freq=3,
                                                           collect_specified_data={"collect_landscape": None})])
    acc = _accumulator(summary_dir)
    assert _scalars(acc, "learning_rate/auto") == [(1, pytest.approx(0.1)), (3, pytest.approx(0.3)),
                                                   (6, pytest.approx(0.6)), (9, pytest.approx(0.9)),
                                                   (9, pytest.approx(0.9))]


class _OpNet(TinyNet):
    """TinyNet that also reports its logits through the summary operators."""

    def __init__(self):
        super().__init__()
        self.tensor_summary = ops.TensorSummary()
        self.scalar_summary = ops.ScalarSummary()

    def construct(self, x):
        out = super().construct(x)
        self.tensor_summary("logits", out)
        self.scalar_summary("logit_mean", out.mean())
        return out


def test_summary_op_data_with_collect_tensor_freq_and_npy_export(tmp_path, mode):
    summary_dir = str(tmp_path / "summary")
    net = _OpNet()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.01, 0.9))
    collector = SummaryCollector(summary_dir, collect_freq=2, collect_tensor_freq=3,
                                 collect_specified_data={"collect_landscape": None},
                                 export_options={"tensor_format": "npy"})
    model.train(1, _dataset(), callbacks=[collector])
    acc = _accumulator(summary_dir)
    tags = acc.Tags()
    (scalar_tag,) = [t for t in tags["scalars"] if t.startswith("logit_mean")]
    (tensor_tag,) = [t for t in tags["tensors"] if t.startswith("logits")]
    # scalars at the collect_freq steps (1, 2, 4, 6, 8), TensorSummary data at the collect_tensor_freq ones
    # (1, 3, 6, 9); the second record of step 9 (epoch end) has no new operator data
    assert [s for s, _ in _scalars(acc, scalar_tag)] == [1, 2, 4, 6, 8]
    assert [e.step for e in acc.Tensors(tensor_tag)] == [1, 3, 6, 9]
    logits = tensor_util.make_ndarray(acc.Tensors(tensor_tag)[0].tensor_proto)
    assert logits.shape == (BATCH, 2)
    (export_dir,) = [n for n in os.listdir(summary_dir) if n.startswith("export_")]
    exported = sorted(os.listdir(os.path.join(summary_dir, export_dir, "tensor")))
    quoted = urllib.parse.quote(tensor_tag, safe="")
    assert exported == [f"{quoted}_{step}.npy" for step in (1, 3, 6, 9)]
    np.testing.assert_allclose(np.load(os.path.join(summary_dir, export_dir, "tensor", exported[0])), logits)


def test_second_summary_collector_in_one_callback_list_raises(tmp_path):
    first = SummaryCollector(str(tmp_path / "a"))
    second = SummaryCollector(str(tmp_path / "b"))
    with pytest.raises(RuntimeError, match="^For 'SummaryRecord', only one instance is supported in a training "
                                           "process, you are trying to create a new one when the existing instance "
                                           r"number is 1\. Please check your scripts\.$"):
        _model().train(1, _dataset(), callbacks=[first, second, LossMonitor()])
    # the first collector's record was closed on the way out: a new run works
    _model().train(1, _dataset(), callbacks=[SummaryCollector(str(tmp_path / "c"))])


def test_duplicate_collector_found_in_begin(tmp_path):
    """The list check of ``begin`` (MindSpore's ValueError) when the records could all be opened."""
    from tfspore.train.callback import RunContext
    from tfspore.train.callback._callback import _InternalCallbackParam

    collector = SummaryCollector(str(tmp_path / "a"), collect_specified_data={"collect_landscape": None})
    cb = _InternalCallbackParam(mode="train", list_callback=[collector, SummaryCollector(str(tmp_path / "b"))],
                                dataset_sink_mode=False)
    with collector:
        with pytest.raises(ValueError, match="There are more than one SummaryCollector instance in callback list,"
                                             "but expected only one SummaryCollector instance."):
            collector.begin(RunContext(cb))


@pytest.mark.parametrize("kwargs,error,message", [
    ({"collect_freq": 0}, ValueError, "For 'SummaryCollector', the 'collect_freq' must be a positive int, but got 0."),
    ({"collect_freq": 1.0}, TypeError, "the 'collect_freq' must be a positive int, but got 1.0 of type float."),
    ({"collect_freq": True}, TypeError, "the 'collect_freq' must be a positive int, but got True of type bool."),
    ({"collect_tensor_freq": -1}, ValueError, "the 'collect_tensor_freq' must be a positive int, but got -1."),
    ({"max_file_size": 0}, ValueError, "the 'max_file_size' must be a positive int, but got 0."),
    ({"keep_default_action": 1}, TypeError,
     "For 'SummaryCollector', the 'keep_default_action' must be bool, but got 1"),
    ({"collect_specified_data": {"foo": 1}}, ValueError,
     "For \"SummaryCollector\", the keys {'foo'} of `collect_specified_data` are unsupported, expect the follow keys: "
     "['collect_metric', 'collect_graph', 'collect_train_lineage', 'collect_eval_lineage', 'collect_input_data', "
     "'collect_dataset_graph', 'histogram_regular', 'collect_landscape']"),
    ({"collect_specified_data": {"collect_metric": 1}}, TypeError,
     "For 'SummaryCollector', the 'collect_metric' must be bool, but got 1 of type int."),
    ({"collect_specified_data": {"histogram_regular": "(("}}, ValueError,
     "For `collect_specified_data`, the value of `histogram_regular` is not a valid regular expression. Detail: "),
    ({"collect_specified_data": []}, TypeError,
     "the 'collect_specified_data' must be dict or None, but got [] of type list."),
    ({"custom_lineage_data": {"a": [1]}}, TypeError,
     "For 'SummaryCollector', the custom_lineage_data['a'] must be int, str or float, but got [1] of type list."),
    ({"custom_lineage_data": {1: 1}}, TypeError,
     "For 'SummaryCollector', the keys of custom_lineage_data must be str, but got 1 of type int."),
    ({"export_options": {"x": "npy"}}, ValueError,
     "For \"SummaryRecord\", the keys {'x'} of \"export_options\" are unsupported, expect the follow keys: "
     "['tensor_format']"),
    ({"export_options": {"tensor_format": "png"}}, ValueError,
     "For \"SummaryRecord\", the export_format {'png'} of \"export_options\" are unsupported for tensor_format"),
    ({"collect_specified_data": {"collect_landscape": {"landscape_size": 2, "intervals": [[1, 2, 3]]}}}, ValueError,
     'For "SummaryCollector", the "landscape_size" in collect_specified_data should be less than 256 and more than '
     "3, but got the: 2"),
    ({"collect_specified_data": {"collect_landscape": {"unit": "batch", "intervals": [[1, 2, 3]]}}}, ValueError,
     'For "SummaryCollector", unit in collect_specified_data should be step or epoch, but got the: batch.'),
    ({"collect_specified_data": {"collect_landscape": {"intervals": [[1, 2]]}}}, ValueError,
     'For "SummaryCollector", the length of each list in "intervals" should not be less than three, but got the: '
     "[1, 2]"),
    ({"collect_specified_data": {"collect_landscape": {"landscape_size": 4}}}, TypeError,
     "For 'SummaryCollector', the 'intervals' must be list, but got None of type NoneType."),
    ({"collect_specified_data": {"collect_landscape": {"size": 4}}}, ValueError,
     "For \"SummaryCollector\", the keys {'size'} of `collect_landscape` are unsupported"),
    ({"collect_specified_data": {"collect_landscape": {"create_landscape": {"all": True}, "intervals": [[1, 2, 3]]}}},
     ValueError, 'For "SummaryCollector", the key to create landscape should be in ["train", "result"], but got the: '
                 "all."),
])
def test_bad_arguments(tmp_path, kwargs, error, message):
    with pytest.raises(error) as info:
        SummaryCollector(str(tmp_path / "s"), **kwargs)
    assert message in str(info.value)


def test_bad_summary_dir(tmp_path):
    with pytest.raises(TypeError, match="The summary_dir is invalid, the type should be string, but got 3"):
        SummaryCollector(3)
    with pytest.raises(ValueError, match="The summary_dir is invalid, it should be non-blank"):
        SummaryCollector("  ")
    (tmp_path / "file").write_text("x")
    with pytest.raises(NotADirectoryError):
        SummaryCollector(str(tmp_path / "file"))


def test_specified_data_merges_over_the_defaults(tmp_path):
    collector = SummaryCollector(str(tmp_path / "s"), collect_specified_data={"collect_metric": False,
                                                                             "collect_landscape": None})
    data = collector._collect_specified_data
    assert data["collect_metric"] is False and data["collect_landscape"] is None
    assert data["collect_graph"] is True and data["histogram_regular"] is None
    only = SummaryCollector(str(tmp_path / "s"), collect_specified_data={"collect_graph": True},
                            keep_default_action=False)
    assert only._collect_specified_data == {"collect_graph": True}


def test_public_exports():
    import tfspore.train
    import tfspore.train.callback

    assert ms.SummaryCollector is SummaryCollector
    assert tfspore.train.SummaryCollector is SummaryCollector
    assert tfspore.train.callback.SummaryLandscape is ms.SummaryLandscape
