"""Summary operators inside ``construct`` (GRAPH and PYNATIVE mode) reaching SummaryRecord.record."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import Tensor, nn, ops
from tfspore._internal import summary_cache
from tfspore.ops.operations import _summary_ops, debug_ops
from tfspore.train.summary import SummaryRecord


class SummaryNet(nn.Cell):
    """Calls the four summary operators on its input."""

    def __init__(self):
        super().__init__()
        self.scalar = ops.ScalarSummary()
        self.tensor = ops.TensorSummary()
        self.histogram = ops.HistogramSummary()
        self.image = ops.ImageSummary()

    def construct(self, x):
        self.scalar("sc", x.sum())
        self.tensor("tn", x)
        self.histogram("hi", x)
        self.image("im", x.reshape(1, 1, 2, 3))
        return x * 2


def _x(scale=1.0):
    return Tensor(np.arange(6, dtype=np.float32) * scale)


def _values(events):
    return [(e.step, [v.tag for v in e.summary.value]) for e in events if e.HasField("summary")]


def test_ops_exported_as_in_mindspore():
    assert ops.ScalarSummary is debug_ops.ScalarSummary is ops.operations.ScalarSummary
    for name in ("ScalarSummary", "ImageSummary", "TensorSummary", "HistogramSummary"):
        assert name in debug_ops.__all__
    assert repr(ops.TensorSummary()) == "Prim[TensorSummary]<side_effect_io=True, channel_name=ms_tensor_summary>"


def test_ops_and_add_value_in_one_event(summary_dir, events, accumulator, mode):
    net = SummaryNet()
    with SummaryRecord(summary_dir) as record:
        record.add_value("scalar", "loss", Tensor(0.5))
        record.add_value("tensor", "w", Tensor(np.ones((2, 2), np.float32)))
        record.add_value("histogram", "hist", Tensor(np.arange(12, dtype=np.float32)))
        record.add_value("image", "img", Tensor(np.zeros((1, 3, 2, 2), np.float32)))
        out = net(_x())
        np.testing.assert_array_equal(out.asnumpy(), np.arange(6, dtype=np.float32) * 2)
        assert record.record(1)
    # add_value entries first, then the operators' entries, plugin by plugin (as MindSpore orders them)
    assert _values(events(summary_dir)) == [(1, ["loss", "sc", "w", "tn", "hist", "hi", "img", "im"])]
    acc = accumulator(summary_dir)
    assert acc.Scalars("sc")[0].value == 15.0
    np.testing.assert_array_equal(tf.make_ndarray(acc.Tensors("tn")[0].tensor_proto), np.arange(6, dtype=np.float32))
    np.testing.assert_allclose(tf.make_ndarray(acc.Tensors("hi")[0].tensor_proto), [[0, 5 / 3, 2], [5 / 3, 10 / 3, 2],
                                                                            [10 / 3, 5, 2]], rtol=1e-6)
    assert (acc.Images("im")[0].height, acc.Images("im")[0].width) == (2, 3)


def test_last_value_per_tag_between_records(summary_dir, accumulator, mode):
    net = SummaryNet()
    with SummaryRecord(summary_dir) as record:
        for step in (1, 2):
            net(_x(step))
            net(_x(10 * step))
            if mode == ms.GRAPH_MODE:  # compiled operators keep one value per tag and operator
                assert len(summary_cache.GRAPH_CACHE) == 4
            record.record(step)
        record.record(3)  # no operator ran since step 2: nothing new
    acc = accumulator(summary_dir)
    assert [(s.step, s.value) for s in acc.Scalars("sc")] == [(1, 150.0), (2, 300.0)]
    assert [t.step for t in acc.Tensors("tn")] == [1, 2]


def test_eval_mode_keeps_operator_data_for_the_next_train_record(summary_dir, accumulator, mode):
    net = SummaryNet()
    with SummaryRecord(summary_dir) as record:
        net(_x())
        record.set_mode("eval")
        record.add_value("scalar", "eval_loss", Tensor(1.0))
        record.record(1)
        record.set_mode("train")
        record.record(2)
    acc = accumulator(summary_dir)
    assert [s.step for s in acc.Scalars("eval_loss")] == [1]
    assert [s.step for s in acc.Scalars("sc")] == [2]


def test_no_open_record_costs_no_cache_and_compiled_ops_start_collecting(summary_dir, accumulator, mode):
    net = SummaryNet()
    net(_x())  # compiled (GRAPH_MODE) before any SummaryRecord exists
    assert summary_cache.take_cache() == ([], [])
    with SummaryRecord(summary_dir) as record:
        net(_x(2))
        record.record(1)
    net(_x(3))
    assert summary_cache.take_cache() == ([], [])
    assert [s.value for s in accumulator(summary_dir).Scalars("sc")] == [30.0]


def test_train_step_with_summary_in_construct(summary_dir, accumulator, mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
            self.summary = ops.ScalarSummary()
            self.hist = ops.HistogramSummary()

        def construct(self, x):
            out = self.dense(x)
            self.summary("out_mean", out.mean())
            self.hist("weight", self.dense.weight)
            return out

    net = Net()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    x, y = Tensor(np.ones((2, 3), np.float32)), Tensor(np.zeros((2, 1), np.float32))
    with SummaryRecord(summary_dir) as record:
        for step in (1, 2):
            train(x, y)
            record.record(step)
    acc = accumulator(summary_dir)
    # step 1 sees the initial weights (all ones: output 3); one SGD step (gradient 6 for each weight and the bias)
    # makes them 0.4 and -0.6: output 0.6 at step 2
    means = [s.value for s in acc.Scalars("out_mean")]
    assert means == pytest.approx([3.0, 0.6], rel=1e-5)
    first = tf.make_ndarray(acc.Tensors("weight")[0].tensor_proto)
    assert first.shape == (2, 3) and first[:, 2].sum() == 3  # three weights, all 1.0


def test_pynative_errors_come_at_record(summary_dir):
    with SummaryRecord(summary_dir) as record:
        ops.ScalarSummary()("s", Tensor(np.ones(3, np.float32)))
        with pytest.raises(ValueError, match='For "ScalarSummary", the v rank must be less than or equal to 1, but '
                                             'got 3'):
            record.record(1)
        ops.TensorSummary()("", Tensor(np.ones(3, np.float32)))
        with pytest.raises(TypeError, match='For "TensorSummary", the name must be valid string, but got ""'):
            record.record(2)
        ops.HistogramSummary()("h", 1.0)
        with pytest.raises(TypeError, match='For "HistogramSummary", the parameter "value" expect to be Tensor, but '
                                            'got float'):
            record.record(3)
        assert summary_cache.SUMMARY_TENSOR_CACHE == []


def test_graph_errors_come_at_compile_time(summary_dir):
    ms.set_context(mode=ms.GRAPH_MODE)

    class Bad(nn.Cell):
        def __init__(self, op, tag, reshape):
            super().__init__()
            self.op, self.tag, self.reshape = op, tag, reshape

        def construct(self, x):
            self.op(self.tag, x.reshape(self.reshape))
            return x

    # MindSpore 2.10's messages in GRAPH_MODE (its compiler checks the rank and the name)
    cases = [(ops.ScalarSummary(), "s", (1, 3), ValueError, r"For primitive\[ScalarSummary\], the v rank must be less "
                                                            r"than or equal to 1, but got 2"),
             (ops.ImageSummary(), "i", (1, 3), ValueError, r"For primitive\[ImageSummary\], the v rank must be equal "
                                                           r"to 4, but got 2"),
             (ops.TensorSummary(), "t", (), ValueError, r"For primitive\[TensorSummary\], the v rank must be greater "
                                                        r"than or equal to 1, but got 0"),
             (ops.HistogramSummary(), "", (3,), ValueError, r"For primitive\[HistogramSummary\], the input "
                                                            r"argument\[name\] cannot be an empty string"),
             (ops.TensorSummary(), 5, (3,), TypeError, r"For primitive\[TensorSummary\], the input argument\[name\] "
                                                       r"must be a str, but got int")]
    with SummaryRecord(summary_dir) as record:
        for op, tag, shape, error, message in cases:
            x = Tensor(np.ones(3 if shape != () else 1, np.float32))
            with pytest.raises(error, match=message):
                Bad(op, tag, shape)(x)
        # a 1-D scalar of 3 elements compiles; record finds it, as MindSpore's does
        Bad(ops.ScalarSummary(), "s", (3,))(Tensor(np.ones(3, np.float32)))
        with pytest.raises(ValueError, match='For "SummaryRecord", the v rank must be less than or equal to 1, but '
                                             'got 3'):
            record.record(1)
        assert summary_cache.take_cache() == ([], [])


@pytest.mark.parametrize("sink", [False, True], ids=["step", "sink"])
def test_model_train_under_mirrored_strategy(summary_dir, accumulator, mirrored_strategy, monkeypatch, sink):
    import tfspore.dataset as ds
    from tfspore.train import Model
    from tfspore.train.callback import Callback

    monkeypatch.setitem(summary_cache.STATE, "flag", None)  # the switch is first made inside the replicas' trace
    ms.set_context(mode=ms.GRAPH_MODE)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 3, weight_init="ones", bias_init="zeros")
            self.summary = ops.ScalarSummary()

        def construct(self, x):
            out = self.dense(x)
            self.summary("batch_sum", x.sum())
            return out

    class Recorder(Callback):
        def __init__(self, record):
            super().__init__()
            self.record = record

        def on_train_step_end(self, run_context):
            self.record.record(run_context.original_args().cur_step_num)

    x = np.arange(32 * 4, dtype=np.float32).reshape(32, 4) / 100
    y = np.zeros(32, np.int32)
    with SummaryRecord(summary_dir) as record:
        with mirrored_strategy.scope():
            net = Net()
            model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                          nn.SGD(net.trainable_params(), 0.0))
            data = ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(8, True)
            model.train(2 if sink else 1, data, callbacks=[Recorder(record)], dataset_sink_mode=sink,
                        sink_size=2 if sink else -1)
    scalars = accumulator(summary_dir).Scalars("batch_sum")
    # each replica holds half of the batch; the value of one replica is recorded, the last one of each sink
    # (two sinks of two steps: one per epoch)
    halves = x.reshape(8, 4, 4).sum(axis=(1, 2))
    steps = [2, 4] if sink else [1, 2, 3, 4]
    assert [s.step for s in scalars] == steps
    for s in scalars:
        assert s.value == pytest.approx(halves[2 * s.step - 1], rel=1e-5) or \
            s.value == pytest.approx(halves[2 * s.step - 2], rel=1e-5)


def test_xla_compiled_cell_leaves_summary_ops_out(summary_dir, accumulator, caplog, monkeypatch):
    import logging

    monkeypatch.setitem(_summary_ops._STATE, "xla_warned", False)  # the warning comes once per process
    ms.set_context(mode=ms.GRAPH_MODE)
    net = SummaryNet()
    net.set_jit_config(ms.JitConfig(jit_level="O2"))  # XLA: no host callbacks inside
    with SummaryRecord(summary_dir) as record:
        with caplog.at_level(logging.WARNING, logger="tfspore"):
            out = net(_x())
        np.testing.assert_array_equal(out.asnumpy(), np.arange(6, dtype=np.float32) * 2)
        record.add_value("scalar", "loss", Tensor(1.0))
        record.record(1)
    assert "summary operators are not collected inside an XLA-compiled (jit_compile) function" in caplog.text
    assert accumulator(summary_dir).Tags()["scalars"] == ["loss"]
