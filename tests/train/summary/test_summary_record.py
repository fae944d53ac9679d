"""SummaryRecord: files, validation, every plugin read back with TensorBoard's event readers."""
import json
import logging
import os
import platform
import re
import stat

import numpy as np
import pytest
import tensorflow as tf
from tensorboard.plugins.hparams import metadata as hparams_metadata
from tensorboard.plugins.hparams import plugin_data_pb2

import tfspore as ms
from tfspore import Tensor, nn
from tfspore.train import lineage_pb2, summary_pb2
from tfspore.train.anf_ir_pb2 import DataType
from tfspore.train.summary import SummaryRecord


def _summary_values(events):
    """[(step, [tags])] of the events holding summaries."""
    return [(e.step, [v.tag for v in e.summary.value]) for e in events if e.HasField("summary")]


# ----------------------------------------------------------------------------- files and names
def test_file_name_log_dir_and_lazy_creation(summary_dir, events):
    with SummaryRecord(summary_dir, file_prefix="xx_", file_suffix="_yy") as record:
        path = record.log_dir
        assert os.listdir(summary_dir) == []  # created at the first write
        record.add_value("scalar", "loss", Tensor(0.1))
        assert record.record(step=2) is True
    name = os.path.basename(path)
    assert os.path.dirname(path) == os.path.realpath(summary_dir)
    assert re.fullmatch(rf"xx_\.out\.tfevents\.summary\.\d+\.0\.{re.escape(platform.node())}_yy", name)
    assert os.listdir(summary_dir) == [name]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o400
    assert stat.S_IMODE(os.stat(summary_dir).st_mode) == 0o700
    evs = events(path)
    assert evs[0].file_version == "brain.Event:2"
    assert _summary_values(evs) == [(2, ["loss"])]


def test_existing_file_names_are_not_reused(summary_dir, events):
    for value in (1.0, 2.0, 3.0):  # usually within one second: the same {seconds} would give the same name
        with SummaryRecord(summary_dir) as record:
            record.add_value("scalar", "loss", Tensor(value))
            record.record(1)
    files = sorted(os.listdir(summary_dir))
    assert len(files) == 3
    assert [e.summary.value[0].simple_value for f in files for e in events(os.path.join(summary_dir, f))
            if e.HasField("summary")] == [1.0, 2.0, 3.0]


def test_with_statement_and_try_finally_close(summary_dir):
    with SummaryRecord(log_dir=summary_dir) as record:
        assert SummaryRecord.count == 1
    assert SummaryRecord.count == 0
    with pytest.raises(ValueError, match="SummaryRecord has been closed"):
        with record:
            pass
    try:
        record = SummaryRecord(log_dir=summary_dir)
    finally:
        record.close()
    record.close()  # a second close changes nothing
    assert SummaryRecord.count == 0
    assert os.listdir(summary_dir) == []


def test_one_instance_per_process(summary_dir):
    with SummaryRecord(summary_dir):
        with pytest.raises(RuntimeError, match="only one instance is supported in a training process, you are trying "
                                               "to create a new one when the existing instance number is 1"):
            SummaryRecord(summary_dir)
    with SummaryRecord(summary_dir):  # possible again once closed
        pass


def test_closed_record_returns_false(summary_dir, caplog):
    record = SummaryRecord(summary_dir)
    record.close()
    with caplog.at_level(logging.ERROR, logger="tfspore"):
        assert record.record(1) is False
        record.flush()
    assert "The record writer is closed" in caplog.text
    assert "can not flush" in caplog.text


# ----------------------------------------------------------------------------- validation
@pytest.mark.parametrize("kwargs, error, message", [
    ({"log_dir": 3}, TypeError, r"For 'SummaryRecord', the 'log_dir' is invalid, the type should be string, but "
                                r"got int: 3"),
    ({"log_dir": "  "}, ValueError, "'log_dir' is invalid, it should be non-blank, but got '  '"),
    ({"max_file_size": 1.5}, TypeError, "the 'max_file_size' should be int type, but got type <class 'float'>: 1.5"),
    ({"file_prefix": 1}, TypeError, "`file_prefix` and `file_suffix` should be str, but got the 'file_prefix'"),
    ({"file_suffix": None}, TypeError, "the 'file_suffix' of type <class 'NoneType'>"),
    ({"file_prefix": "a b"}, ValueError, r"the 'file_prefix' 'a b' is illegal, it must be match regular"),
    ({"raise_exception": 1}, TypeError, "the type of 'raise_exception' should be 'bool', but got type 'int': 1"),
    ({"network": "net"}, TypeError, "the type of 'network' should be 'Cell', but got type 'str'"),
    ({"export_options": {"x": "npy"}}, ValueError,
     r"the keys \{'x'\} of \"export_options\" are unsupported, expect the follow keys: \['tensor_format'\]"),
    ({"export_options": {"tensor_format": "npz"}}, ValueError,
     r"the export_format \{'npz'\} of \"export_options\" are unsupported for tensor_format"),
    ({"export_options": ["npy"]}, TypeError, "the type of 'export_options' should be a valid type of"),
])
def test_constructor_errors_leave_nothing_behind(summary_dir, kwargs, error, message):
    kwargs = {"log_dir": summary_dir, **kwargs}
    with pytest.raises(error, match=message):
        SummaryRecord(**kwargs)
    assert SummaryRecord.count == 0
    assert not os.path.exists(summary_dir)


def test_negative_max_file_size_means_no_limit(summary_dir, caplog):
    with caplog.at_level(logging.WARNING, logger="tfspore"):
        with SummaryRecord(summary_dir, max_file_size=-1) as record:
            assert record.max_file_size is None
    assert "'max_file_size' should be greater than 0" in caplog.text


def test_log_dir_under_a_file(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(NotADirectoryError, match="For 'SummaryRecord', the 'log_dir'"):
        SummaryRecord(str(blocker / "sub"))
    with pytest.raises(NotADirectoryError, match="is a file path, it should be a directory path"):
        SummaryRecord(str(blocker))
    assert SummaryRecord.count == 0
    assert os.listdir(tmp_path) == ["file"]


def test_unwritable_log_dir(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "makedirs", refuse)
    with pytest.raises(TypeError, match="no write permission on the directory of 'log_dir': '.*new'"):
        SummaryRecord(str(tmp_path / "new"))
    monkeypatch.undo()
    existing = tmp_path / "existing"
    existing.mkdir()
    monkeypatch.setattr(os, "access", lambda path, flags: False)
    with pytest.raises(TypeError, match="no write permission on the directory of 'log_dir'"):
        SummaryRecord(str(existing))
    assert SummaryRecord.count == 0
    assert os.listdir(existing) == []


@pytest.mark.parametrize("plugin, name, value, error, message", [
    ("foo", "a", Tensor(1.0), ValueError, r'For "SummaryRecord.add_value", no such "plugin" of \'foo\' , expect value '
                                          r'is one of \[tensor, scalar, image, histogram, train_lineage'),
    ("scalar", "", Tensor(1.0), ValueError, "the parameter \"name\" type should be str, but got <class 'str'>"),
    ("scalar", 3, Tensor(1.0), ValueError, "the parameter \"name\" type should be str, but got <class 'int'>: 3"),
    ("scalar", "a", 1.0, TypeError, r'For "SummaryRecord", the parameter "value" expect to be Tensor, but got float'),
    ("scalar", "a", Tensor(np.ones(3)), ValueError, "the v rank must be less than or equal to 1, but got 3"),
    ("tensor", "a", Tensor(1.0), ValueError, 'For "SummaryRecord", the value should not be empty'),
    ("histogram", "a", Tensor(1.0), ValueError, "the value should not be empty"),
    ("image", "a", Tensor(np.ones((3, 4, 4))), ValueError, "the tensor seems not to hold a valid image"),
    ("train_lineage", "t", lineage_pb2.EvaluationLineage(), TypeError,
     "Plugin 'train_lineage' expects a TrainLineage value"),
    ("eval_lineage", "e", "x", TypeError, "Plugin 'eval_lineage' expects a EvaluationLineage value"),
    ("dataset_graph", "d", 1, TypeError, "Plugin 'dataset_graph' expects a DatasetGraph value"),
    ("custom_lineage_data", "c", {}, TypeError, "Plugin 'custom_lineage_data' expects a UserDefinedInfo value"),
    ("landscape", "l", 1, TypeError, "Plugin 'landscape' expects a LossLandscape value"),
    ("graph", "g", 1.0, TypeError, "Plugin 'graph' expects a GraphDef value, but got float"),
])
def test_add_value_errors(summary_dir, plugin, name, value, error, message):
    with SummaryRecord(summary_dir) as record:
        with pytest.raises(error, match=message):
            record.add_value(plugin, name, value)


def test_record_and_set_mode_errors(summary_dir):
    with SummaryRecord(summary_dir) as record:
        with pytest.raises(TypeError, match="For 'SummaryRecord.record', the type of 'step' should be 'int', but got "
                                            "type 'float': 1.5"):
            record.record(1.5)
        with pytest.raises(TypeError, match="'step' should be 'int', but got type 'bool'"):
            record.record(True)
        with pytest.raises(TypeError, match="the type of 'train_network' should be one of \\['Cell', 'NoneType'\\], "
                                            "but got type 'str'"):
            record.record(1, train_network="net")
        with pytest.raises(ValueError, match='For "SummaryRecord.set_mode", \'test\' is not a recognized mode, expect '
                                             'the parameter "mode" is "train" or "eval"'):
            record.set_mode("test")


# ----------------------------------------------------------------------------- values
def test_scalar_tensor_histogram_image_read_back(summary_dir, accumulator, events):
    images = np.random.RandomState(0).rand(2, 3, 4, 4).astype(np.float32)
    with SummaryRecord(summary_dir) as record:
        for step in (1, 2):
            record.add_value("scalar", "loss", Tensor(np.float32(0.5 * step)))
            record.add_value("tensor", "w", Tensor(np.arange(4, dtype=np.int32).reshape(2, 2) * step))
            record.add_value("histogram", "hist", Tensor(np.arange(12, dtype=np.float32)))
            record.add_value("image", "img", Tensor(images))
            assert record.record(step)
    acc = accumulator(summary_dir)
    assert [(e.step, e.value) for e in acc.Scalars("loss")] == [(1, 0.5), (2, 1.0)]
    tensors = acc.Tensors("w")
    assert [t.step for t in tensors] == [1, 2]
    np.testing.assert_array_equal(tf.make_ndarray(tensors[1].tensor_proto), np.array([[0, 2], [4, 6]], np.int32))
    assert tf.make_ndarray(tensors[1].tensor_proto).dtype == np.int32
    hist = tf.make_ndarray(acc.Tensors("hist")[0].tensor_proto)
    np.testing.assert_allclose(hist, [[0.0, 5.5, 6.0], [5.5, 11.0, 6.0]])
    assert acc.summary_metadata["hist"].plugin_data.plugin_name == "histograms"
    image = acc.Images("img")[1]
    assert (image.step, image.height, image.width) == (2, 4, 8)
    pixels = tf.io.decode_png(image.encoded_image_string).numpy()
    expected = (np.concatenate([images[0], images[1]], axis=2).transpose(1, 2, 0) * 255).astype(np.uint8)
    np.testing.assert_array_equal(pixels, expected)
    # one event per record, values grouped by plugin in the order they were added
    assert _summary_values(events(summary_dir)) == [(1, ["loss", "w", "hist", "img"]), (2, ["loss", "w", "hist",
                                                                                              "img"])]


def test_image_scaling_and_channels(summary_dir, accumulator, caplog):
    gray = np.arange(2 * 1 * 2 * 3, dtype=np.float32).reshape(2, 1, 2, 3)  # outside [0, 1]: linear map
    with SummaryRecord(summary_dir) as record:
        record.add_value("image", "gray", Tensor(gray))
        record.add_value("image", "bad", Tensor(np.zeros((1, 2, 4, 4), np.float32)))  # 2 channels: dropped
        with caplog.at_level(logging.ERROR, logger="tfspore"):
            record.record(3)
    assert "second dimension should be 1 or 3" in caplog.text
    acc = accumulator(summary_dir)
    assert acc.Tags()["images"] == ["gray"]
    pixels = tf.io.decode_png(acc.Images("gray")[0].encoded_image_string).numpy()
    canvas = np.concatenate([gray[0, 0], gray[1, 0]], axis=1)
    expected = ((canvas - canvas.min()) * (255 / (canvas.max() - canvas.min() + 1))).astype(np.uint8)
    np.testing.assert_array_equal(pixels, np.stack([expected] * 3, axis=-1))


def test_histogram_buckets_and_non_finite_values(summary_dir, accumulator):
    values = np.array([1.0, np.nan, np.inf, -np.inf, 3.0, 3.0], np.float32)
    with SummaryRecord(summary_dir) as record:
        record.add_value("histogram", "h", Tensor(values))
        record.add_value("histogram", "same", Tensor(np.full((4,), 2.0, np.float32)))
        record.add_value("histogram", "big", Tensor(np.arange(1000, dtype=np.float32)))
        record.record(1)
    acc = accumulator(summary_dir)
    h = tf.make_ndarray(acc.Tensors("h")[0].tensor_proto)
    np.testing.assert_allclose(h, [[1.0, 2.0, 1.0], [2.0, 3.0, 2.0]])  # 3 finite values: 2 buckets
    same = tf.make_ndarray(acc.Tensors("same")[0].tensor_proto)
    np.testing.assert_allclose(same, [[1.5, 2.0, 0.0], [2.0, 2.5, 4.0]])  # min == max: range widened by 0.5
    big = tf.make_ndarray(acc.Tensors("big")[0].tensor_proto)
    assert big.shape == (90, 3) and big[:, 2].sum() == 1000


def test_duplicate_names_keep_both_values(summary_dir, events, caplog):
    with SummaryRecord(summary_dir) as record:
        record.add_value("scalar", "a", Tensor(1.0))
        with caplog.at_level(logging.WARNING, logger="tfspore"):
            record.add_value("scalar", "a", Tensor(2.0))
        record.record(1)
    assert "'a/scalar' has duplicate values. Only the newest one will be recorded." in caplog.text
    event = [e for e in events(summary_dir) if e.HasField("summary")][0]
    assert [(v.tag, v.simple_value) for v in event.summary.value] == [("a", 1.0), ("a", 2.0)]


def test_value_is_copied_at_add_time(summary_dir, accumulator):
    param = ms.Parameter(Tensor(np.float32(1.0)), name="p")
    with SummaryRecord(summary_dir) as record:
        record.add_value("scalar", "p", param)
        param.set_data(Tensor(np.float32(5.0)))
        record.record(1)
    assert accumulator(summary_dir).Scalars("p")[0].value == 1.0


def test_plugin_filter(summary_dir, accumulator):
    with SummaryRecord(summary_dir) as record:
        record.add_value("scalar", "loss", Tensor(1.0))
        record.add_value("tensor", "w", Tensor(np.ones(2, np.float32)))
        assert record.record(4, plugin_filter=lambda plugin: plugin == "scalar")
        record.record(5)  # the filtered-out values are gone
    tags = accumulator(summary_dir).Tags()
    assert tags["scalars"] == ["loss"] and tags["tensors"] == []


def test_max_file_size_rotates_files(summary_dir, events, caplog):
    with caplog.at_level(logging.WARNING, logger="tfspore"):
        with SummaryRecord(summary_dir, max_file_size=120) as record:
            first = record.log_dir
            for step in range(1, 8):
                record.add_value("scalar", "loss", Tensor(float(step)))
                record.record(step)
            last = record.log_dir
    assert "'max_file_size' reached: There are" in caplog.text
    files = sorted(os.listdir(summary_dir))
    assert len(files) > 2 and os.path.basename(first) == files[0] and os.path.basename(last) == files[-1]
    assert all(os.path.getsize(os.path.join(summary_dir, f)) <= 120 for f in files)
    assert all(f.endswith("_MS") and ".out.tfevents.summary." in f for f in files)
    steps = [(e.step, e.summary.value[0].simple_value) for e in events(summary_dir) if e.HasField("summary")]
    assert steps == [(s, float(s)) for s in range(1, 8)]


def test_export_npy(summary_dir, mode):
    with SummaryRecord(summary_dir, export_options={"tensor_format": "npy"}) as record:
        for step in (1, 2):
            record.add_value("tensor", "w", Tensor(np.arange(4, dtype=np.float32) * step))
            record.add_value("tensor", "a/b", Tensor(np.ones((2, 2), np.int32)))
            record.add_value("scalar", "loss", Tensor(1.0))
            record.add_value("histogram", "h", Tensor(np.ones(3, np.float32)))
            record.record(step)
        seconds = os.path.basename(record.log_dir).split(".")[4]
    export = os.path.join(summary_dir, f"export_{seconds}", "tensor")
    assert sorted(os.listdir(export)) == ["a%2Fb_1.npy", "a%2Fb_2.npy", "w_1.npy", "w_2.npy"]
    np.testing.assert_array_equal(np.load(os.path.join(export, "w_2.npy")), np.arange(4, dtype=np.float32) * 2)
    assert stat.S_IMODE(os.stat(os.path.join(export, "w_1.npy")).st_mode) == 0o400


def test_lineage_goes_to_hparams_and_text(summary_dir, accumulator, events):
    train = lineage_pb2.TrainLineage()
    train.hyper_parameters.optimizer = "Momentum"
    train.hyper_parameters.learning_rate = 0.5
    train.hyper_parameters.epoch = 3
    train.hyper_parameters.batch_size = 32
    train.algorithm.network = "LeNet5"
    train.algorithm.loss = 0.25
    evaluation = lineage_pb2.EvaluationLineage()
    evaluation.metric = json.dumps({"Accuracy": 0.75})
    evaluation.valid_dataset.valid_dataset_size = 100
    custom = lineage_pb2.UserDefinedInfo()
    custom.map_str["version"] = "v1"
    custom.map_int32["seed"] = 7
    dataset = lineage_pb2.DatasetGraph()
    dataset.parameter.mapStr["op_type"] = "MnistDataset"
    with SummaryRecord(summary_dir) as record:
        record.add_value("train_lineage", "train_lineage", train)
        record.add_value("dataset_graph", "train_dataset", dataset)
        record.record(1)
        record.add_value("eval_lineage", "eval_lineage", evaluation)
        record.add_value("custom_lineage_data", "custom_lineage_data", custom)
        record.record(2)
        summary_file = record.log_dir
    lineage_file = summary_file[:-len("_MS")] + "_lineage"
    assert os.listdir(summary_dir) == [os.path.basename(lineage_file)]  # no summary value: no summary file
    acc = accumulator(summary_dir)
    text = tf.make_ndarray(acc.Tensors("train_lineage")[0].tensor_proto).item().decode()
    assert 'optimizer: "Momentum"' in text and "learning_rate: 0.5" in text
    assert 'mapStr' in tf.make_ndarray(acc.Tensors("dataset_graph")[0].tensor_proto).item().decode()
    assert acc.summary_metadata["eval_lineage"].plugin_data.plugin_name == "text"
    assert [(s.step, s.value) for s in acc.Scalars("train_lineage/loss")] == [(1, 0.25)]
    assert [(s.step, s.value) for s in acc.Scalars("eval_lineage/Accuracy")] == [(2, 0.75)]
    sessions = [v for e in events(lineage_file) if e.HasField("summary") for v in e.summary.value
                if v.tag == hparams_metadata.SESSION_START_INFO_TAG]
    info = plugin_data_pb2.HParamsPluginData.FromString(sessions[-1].metadata.plugin_data.content).session_start_info
    hparams = {k: v.WhichOneof("kind") and getattr(v, v.WhichOneof("kind")) for k, v in info.hparams.items()}
    assert hparams == {"optimizer": "Momentum", "learning_rate": 0.5, "epoch": 3.0, "batch_size": 32.0,
                       "network": "LeNet5", "valid_dataset_size": 100.0, "version": "v1", "seed": 7.0}


def test_landscape(summary_dir, accumulator):
    landscape = summary_pb2.LossLandscape()
    x, y = np.linspace(-1, 1, 3, dtype=np.float32), np.linspace(-1, 1, 2, dtype=np.float32)
    z = np.arange(6, dtype=np.float32).reshape(2, 3)
    for field, array in ((landscape.landscape.x, x), (landscape.landscape.y, y), (landscape.landscape.z, z)):
        field.data_type = DataType.Value("DT_FLOAT32")
        field.float_data.extend(array.reshape(-1).tolist())
        field.dims.extend(array.shape)
    landscape.metadata.unit = "step"
    with SummaryRecord(summary_dir) as record:
        record.add_value("landscape", "landscape_1", landscape)
        record.add_value("LANDSCAPE", "landscape_2", landscape)
        record.record(1)
    acc = accumulator(summary_dir)
    np.testing.assert_array_equal(tf.make_ndarray(acc.Tensors("landscape_1/z")[0].tensor_proto), z)
    np.testing.assert_array_equal(tf.make_ndarray(acc.Tensors("landscape_2/x")[0].tensor_proto), x)
    image = acc.Images("landscape_1")[0]
    assert (image.height, image.width) == (2, 3)
    pixels = tf.io.decode_png(image.encoded_image_string).numpy()
    assert pixels[1, 0, 2] == 255 and pixels[0, 2, 0] == 255  # lowest loss blue (bottom left), highest red


class _Dense(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2, weight_init="ones")

    def construct(self, x):
        return self.dense(x)


def test_network_graph_written_once_in_graph_mode(summary_dir, accumulator, events):
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _Dense()
    net(Tensor(np.ones((1, 3), np.float32)))
    with SummaryRecord(summary_dir, network=net) as record:
        record.add_value("scalar", "loss", Tensor(1.0))
        record.record(1)
        record.record(2)
    graphs = [e for e in events(summary_dir) if e.HasField("graph_def")]
    assert len(graphs) == 1 and graphs[0].step == 1
    graph = accumulator(summary_dir).Graph()
    assert any(node.op == "MatMul" for node in graph.node)
    assert [s.step for s in accumulator(summary_dir).Scalars("loss")] == [1]


def test_network_graph_from_train_network(summary_dir, events, caplog):
    net = _Dense()
    with SummaryRecord(summary_dir, network=net) as record:
        with caplog.at_level(logging.WARNING, logger="tfspore"):
            record.record(1)  # PYNATIVE: nothing compiled yet
        assert "Failed to get proto for graph." in caplog.text
        ms.set_context(mode=ms.GRAPH_MODE)
        train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
        train(Tensor(np.ones((2, 3), np.float32)), Tensor(np.zeros((2, 2), np.float32)))
        record.record(2, train_network=train)
    graphs = [e for e in events(summary_dir) if e.HasField("graph_def")]
    assert [g.step for g in graphs] == [2]


def test_add_value_graph(summary_dir, accumulator):
    graph = tf.function(lambda a: a * 2.0).get_concrete_function(tf.TensorSpec([2], tf.float32)).graph
    with SummaryRecord(summary_dir) as record:
        record.add_value("graph", "g", graph.as_graph_def().SerializeToString())
        with pytest.raises(Exception):
            record.add_value("graph", "g", b"\xff\xff not a graph")
        record.record(1)
    assert any(node.op == "Mul" for node in accumulator(summary_dir).Graph().node)


def test_write_error_logged_or_raised(summary_dir, monkeypatch, caplog):
    from tfspore.train.summary import _writer

    def broken(self, event):
        raise OSError("disk gone")

    monkeypatch.setattr(_writer.EventFile, "write", broken)
    with SummaryRecord(summary_dir) as record:
        record.add_value("scalar", "a", Tensor(1.0))
        with caplog.at_level(logging.ERROR, logger="tfspore"):
            assert record.record(1) is True
        assert "disk gone" in caplog.text
    with SummaryRecord(summary_dir, raise_exception=True) as record:
        record.add_value("scalar", "a", Tensor(1.0))
        with pytest.raises(OSError, match="disk gone"):
            record.record(1)


def test_module_paths():
    import tfspore.train.summary.summary_record as module

    assert ms.SummaryRecord is ms.train.SummaryRecord is ms.train.summary.SummaryRecord is module.SummaryRecord
    assert "SummaryRecord" in ms.train.__all__
