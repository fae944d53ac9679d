"""tfspore.profiler.Profiler: MindSpore's arguments and start/stop/analyse, writing TensorBoard profile traces."""
import glob
import os

import numpy as np
import pytest
import tensorflow as tf
from tensorflow.tsl.profiler.protobuf import xplane_pb2

import tfspore as ms
from tfspore import log, nn, profiler as profiler_module
from tfspore.profiler import Profiler


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 3)

    def construct(self, x):
        return self.fc(x)


def _work():
    net = _Net()
    return net(ms.Tensor(np.ones((2, 4), np.float32))).asnumpy()


def _traces(path):
    return sorted(glob.glob(os.path.join(path, "plugins", "profile", "*", "*.xplane.pb")))


def _events(path):
    space = xplane_pb2.XSpace()
    with open(path, "rb") as file:
        space.ParseFromString(file.read())
    return {m.name for plane in space.planes for m in plane.event_metadata.values()}


@pytest.fixture(autouse=True)
def _no_leftover_session():
    yield
    for prof in list(profiler_module._profiler._ACTIVE):
        prof.stop()


def test_trace_is_written_where_tensorboard_reads_it(tmp_path):
    out = tmp_path / "prof"
    prof = Profiler(output_path=str(out), is_detail=True, is_show_op_path=True)  # MindSpore 1.x arguments
    _work()
    prof.analyse()
    traces = _traces(str(out))
    assert len(traces) == 1 and os.path.getsize(traces[0]) > 0
    names = _events(traces[0])
    assert any("MatMul" in n for n in names), sorted(names)[:20]


def test_default_output_path_is_data(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    prof = Profiler()
    _work()
    prof.analyse()
    assert prof.output_path == str(tmp_path / "data") and len(_traces(str(tmp_path / "data"))) == 1


def test_start_profile_false_collects_between_start_and_stop(tmp_path, monkeypatch):
    logged = []
    monkeypatch.setattr(log, "error", lambda msg, *a: logged.append(("error", msg)))
    monkeypatch.setattr(log, "warning", lambda msg, *a: logged.append(("warning", msg)))
    prof = Profiler(start_profile=False, output_path=str(tmp_path))
    _work()
    assert _traces(str(tmp_path)) == []
    prof.stop()  # not started: MindSpore logs an error and goes on
    prof.start()
    prof.start()  # already started: a warning
    assert logged == [("error", "The profiler has not started. Do not turn off again in the closed state."),
                      ("warning", "The profiler has already started. Do not turn on again in the open state.")]
    _work()
    prof.stop()
    assert len(_traces(str(tmp_path))) == 1
    prof.start()
    _work()
    prof.analyse()  # stops, a second run folder
    assert len(_traces(str(tmp_path))) == 2


def test_wrong_argument_types_are_reset_to_defaults(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    prof = Profiler(output_path=3, start_profile="no", profile_memory=1)
    assert prof.output_path == str(tmp_path / "data") and prof._params["profile_memory"] is False
    assert prof._has_started  # start_profile reset to True
    prof.analyse()


def test_one_tensorflow_session_at_a_time(tmp_path):
    first = Profiler(output_path=str(tmp_path / "a"))
    second = Profiler(output_path=str(tmp_path / "b"))
    assert first._has_started and not second._has_started
    second.analyse()
    first.analyse()
    assert len(_traces(str(tmp_path / "a"))) == 1 and _traces(str(tmp_path / "b")) == []


def test_context_manager_and_metadata(tmp_path):
    with Profiler(output_path=str(tmp_path), start_profile=False) as prof:
        prof.add_metadata("model", "lenet")
        prof.add_metadata_json("cfg", '{"lr": 0.1}')
        _work()
    (trace,) = _traces(str(tmp_path))
    meta = os.path.join(os.path.dirname(trace), "profiler_metadata.json")
    assert open(meta, encoding="utf-8").read().replace(" ", "").replace("\n", "") == \
        '{"model":"lenet","cfg":{"lr":0.1}}'


def test_import_paths():
    import tfspore
    tfspore.alias_mindspore()
    try:
        from mindspore.profiler import Profiler as p1
        from mindspore.profiler.profiling import Profiler as p2
        import mindspore
    finally:
        tfspore.unalias_mindspore()
    assert p1 is Profiler and p2 is Profiler and mindspore.Profiler is Profiler


def test_profiling_a_compiled_training_step(tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _Net()
        train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
        x, y = ms.Tensor(np.ones((2, 4), np.float32)), ms.Tensor(np.zeros((2, 3), np.float32))
        train(x, y)
        prof = Profiler(output_path=str(tmp_path))
        train(x, y)
        prof.analyse()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    (trace,) = _traces(str(tmp_path))
    assert any("MatMul" in n for n in _events(trace))
    assert tf.io.gfile.exists(trace)
