"""The checkpoint tools carry real MindSpore 2.10 checkpoints to TensorFlow and back."""
import numpy as np
import pytest
import tensorflow as tf

mindspore = pytest.importorskip("mindspore")

from tools import ckpt_to_tf, tf_to_ckpt  # noqa: E402


def _ms_net():
    net = mindspore.nn.SequentialCell([mindspore.nn.Conv2d(2, 3, 3, has_bias=True), mindspore.nn.BatchNorm2d(3),
                                       mindspore.nn.Flatten(), mindspore.nn.Dense(3 * 4 * 4, 5)])
    rng = np.random.RandomState(0)
    for p in net.get_parameters():
        p.set_data(mindspore.Tensor(rng.randn(*p.shape).astype(np.float32)))
    return net


def test_mindspore_checkpoint_to_tensorflow_and_back_into_mindspore(tmp_path):
    net = _ms_net()
    opt = mindspore.nn.Momentum(net.trainable_params(), 0.1, 0.9)
    src = str(tmp_path / "ms.ckpt")
    mindspore.save_checkpoint([{"name": p.name, "data": p.data} for p in net.get_parameters()]
                              + [{"name": p.name, "data": p.data} for p in opt.moments], src,
                              append_dict={"epoch_num": 2})
    expected = {k: v.asnumpy() for k, v in mindspore.load_checkpoint(src).items()}
    ckpt_to_tf.convert(src, str(tmp_path / "tf"), keras_layout=True)
    reader = tf.train.load_checkpoint(str(tmp_path / "tf"))
    assert set(reader.get_variable_to_shape_map()) == set(expected)
    np.testing.assert_array_equal(reader.get_tensor("0.weight"), expected["0.weight"].transpose(2, 3, 1, 0))
    np.testing.assert_array_equal(reader.get_tensor("3.weight"), expected["3.weight"].T)
    out = str(tmp_path / "back.ckpt")
    tf_to_ckpt.convert(str(tmp_path / "tf"), out, keras_layout=True, crc_check=True)
    back = mindspore.load_checkpoint(out, crc_check=True)
    assert set(back) == set(expected)
    for k, v in expected.items():
        np.testing.assert_array_equal(back[k].asnumpy(), v)
        assert back[k].asnumpy().dtype == v.dtype
    fresh = _ms_net()
    for p in fresh.get_parameters():
        p.set_data(mindspore.Tensor(np.zeros(p.shape, np.float32)))
    not_loaded, _ = mindspore.load_param_into_net(fresh, back)
    assert not_loaded == []
    x = mindspore.Tensor(np.random.RandomState(1).randn(2, 2, 4, 4).astype(np.float32))
    net.set_train(False)
    fresh.set_train(False)
    np.testing.assert_array_equal(fresh(x).asnumpy(), net(x).asnumpy())
