"""The values SummaryRecord writes carry MindSpore 2.10's numbers: the summary event MindSpore's own
adapter (``package_summary_event``) builds from the same arrays is decoded and compared with what
TensorBoard's reader finds in tfspore's files (scalars, tensors, histogram buckets, image pixels)."""
import numpy as np
import pytest
import tensorflow as tf

from tfspore import Tensor
from tfspore.train.summary import SummaryRecord

pytestmark = pytest.mark.parity
pytest.importorskip("mindspore", reason="parity tests need mindspore==2.10.0 (pip install -e '.[parity]')")
from mindspore.train.summary._summary_adapter import package_summary_event  # noqa: E402

_RNG = np.random.RandomState(3)
_VALUES = {
    "Scalar": {"s32": np.array(0.25, np.float32), "s1d": np.array([7], np.int32), "s64": np.array(1e-3)},
    "Tensor": {"t_int": np.arange(6, dtype=np.int32).reshape(2, 3), "t_f16": np.linspace(0, 1, 5, dtype=np.float16),
               "t_bool": np.array([True, False])},
    "Histogram": {"h_arange": np.arange(12, dtype=np.float32), "h_normal": _RNG.randn(40, 30).astype(np.float32),
                  "h_small": np.array([3.0, 1.0, 2.0], np.float64), "h_const": np.full((7,), 2.5, np.float32),
                  "h_int": _RNG.randint(-50, 50, 300).astype(np.int32),
                  "h_nonfinite": np.array([1.0, np.nan, np.inf, -np.inf, 4.0, 2.0, 2.0], np.float32)},
    "Image": {"i_unit": _RNG.rand(2, 3, 4, 5).astype(np.float32), "i_gray": _RNG.randn(3, 1, 5, 4).astype(np.float32),
              "i_many": _RNG.rand(10, 3, 3, 2).astype(np.float32) * 7, "i_uint8": _RNG.randint(0, 256, (1, 3, 4, 4))
              .astype(np.uint8), "i_const": np.full((1, 1, 2, 2), 3.0, np.float32)},
}


def _mindspore_values():
    data = [{"_type": kind, "name": tag, "data": value} for kind, values in _VALUES.items()
            for tag, value in values.items()]
    return {v.tag: v for v in package_summary_event(data, 1, 0.0).summary.value}


def test_values_match_mindspore(summary_dir, accumulator):
    with SummaryRecord(summary_dir) as record:
        for kind, values in _VALUES.items():
            for tag, value in values.items():
                record.add_value(kind.lower(), tag, Tensor(value))
        record.record(1)
    acc = accumulator(summary_dir)
    expected = _mindspore_values()

    for tag in _VALUES["Scalar"]:
        assert acc.Scalars(tag)[0].value == pytest.approx(expected[tag].scalar_value, rel=1e-7), tag
    for tag, value in _VALUES["Tensor"].items():
        ours = tf.make_ndarray(acc.Tensors(tag)[0].tensor_proto)
        theirs = expected[tag].tensor
        assert list(ours.shape) == list(theirs.dims) and ours.dtype == value.dtype, tag
        np.testing.assert_array_equal(ours.astype(np.float32).reshape(-1), np.array(theirs.float_data, np.float32))
    for tag in _VALUES["Histogram"]:
        ours = tf.make_ndarray(acc.Tensors(tag)[0].tensor_proto)
        theirs = np.array([[b.left, b.left + b.width, b.count] for b in expected[tag].histogram.buckets])
        assert ours.shape == theirs.shape, tag
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-12, err_msg=tag)
    for tag in _VALUES["Image"]:
        ours, theirs = acc.Images(tag)[0], expected[tag].image
        assert (ours.height, ours.width) == (theirs.height, theirs.width), tag
        np.testing.assert_array_equal(tf.io.decode_png(ours.encoded_image_string).numpy(),
                                      tf.io.decode_png(theirs.encoded_image).numpy(), err_msg=tag)


def test_lineage_and_landscape_messages_are_mindspores():
    """tfspore.train.lineage_pb2 / summary_pb2 / anf_ir_pb2 serialize as MindSpore's messages do."""
    from mindspore.train import anf_ir_pb2 as ms_anf, lineage_pb2 as ms_lineage, summary_pb2 as ms_summary

    from tfspore.train import anf_ir_pb2, lineage_pb2, summary_pb2

    train = lineage_pb2.TrainLineage()
    train.hyper_parameters.learning_rate = 0.01
    train.hyper_parameters.batch_size = 32
    train.algorithm.network = "LeNet5"
    train.model.size = 1234
    info = lineage_pb2.UserDefinedInfo()
    info.map_dict["nested"].map_double["x"] = 1.5
    info.map_str["version"] = "v1"
    graph = lineage_pb2.DatasetGraph()
    graph.children.add().operations.add().operationParam.mapStrList["columns"].strValue.extend(["a", "b"])
    graph.parameter.mapBool["shuffle"] = True
    landscape = summary_pb2.LossLandscape()
    landscape.landscape.z.dims.extend([2, 2])
    landscape.landscape.z.float_data.extend([1, 2, 3, 4])
    landscape.landscape.z.data_type = anf_ir_pb2.DataType.Value("DT_FLOAT32")
    landscape.loss_path.intervals.extend([1, 2])
    landscape.metadata.step_per_epoch = 3
    for ours, theirs in ((train, ms_lineage.TrainLineage), (info, ms_lineage.UserDefinedInfo),
                         (graph, ms_lineage.DatasetGraph), (landscape, ms_summary.LossLandscape)):
        data = ours.SerializeToString()
        parsed = theirs.FromString(data)
        assert parsed.SerializeToString(deterministic=True) == ours.SerializeToString(deterministic=True)
        assert str(parsed) == str(ours)
    assert anf_ir_pb2.DataType.items() == ms_anf.DataType.items()
