"""Behaviour of the nn layers beyond what the MindSpore parity suite checks: random layers, the
layers MindSpore cannot run on CPU, NHWC paths, output-size rules, call-time errors, graph mode."""
import numpy as np
import pytest

import tfspore as ms
from tfspore import Tensor, nn


def _x(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


# ----------------------------------------------------------------------------------- dropout
class TestDropout:
    @pytest.mark.parametrize("kwargs,rate", [(dict(p=0.3), 0.3), (dict(keep_prob=0.8), 0.2)])
    def test_statistics_and_scaling(self, mode, kwargs, rate):
        x = Tensor(np.ones((400, 50), np.float32))
        d = nn.Dropout(**kwargs)
        np.testing.assert_array_equal(d(x).asnumpy(), x.asnumpy())
        d.set_train()
        out = d(x).asnumpy()
        kept = out != 0
        assert abs(kept.mean() - (1 - rate)) < 0.02
        np.testing.assert_allclose(out[kept], 1 / (1 - rate), rtol=1e-6)

    @pytest.mark.parametrize("cls,shape", [(nn.Dropout1d, (20, 30, 8)), (nn.Dropout1d, (30, 8)),
                                           (nn.Dropout2d, (20, 30, 4, 4)), (nn.Dropout3d, (10, 30, 2, 3, 3))])
    def test_channel_dropout(self, mode, cls, shape):
        x = Tensor(np.ones(shape, np.float32))
        d = cls(0.4)
        np.testing.assert_array_equal(d(x).asnumpy(), x.asnumpy())
        out = d.set_train()(x).asnumpy()
        lead = 2 if len(shape) == cls._ranks[-1] else 1
        per_channel = out.reshape(shape[:lead] + (-1,))
        # a channel is either all zero or all 1/(1-p)
        assert np.all((per_channel == 0).all(-1) | np.isclose(per_channel, 1 / 0.6).all(-1))
        assert 0.4 < (per_channel != 0).all(-1).mean() < 0.8
        assert repr(nn.Dropout2d(0.4)) == "Dropout2d(p=0.4)" and repr(nn.Dropout1d(0.4)) == "Dropout1d()"

    def test_channel_dropout_extremes_and_rank(self):
        x = Tensor(np.ones((2, 3, 4, 4), np.float32))
        np.testing.assert_array_equal(nn.Dropout2d(1.0).set_train()(x).asnumpy(), 0)
        np.testing.assert_array_equal(nn.Dropout2d(0.0).set_train()(x).asnumpy(), 1)
        with pytest.raises(ValueError, match="Dropout2d"):
            nn.Dropout2d(0.5).set_train()(Tensor(np.ones((2, 3), np.float32)))

    def test_rrelu_slopes_in_range(self):
        x = -np.ones((1000,), np.float32)
        out = nn.RReLU(0.1, 0.3)(Tensor(x)).asnumpy()
        assert out.min() >= -0.3 - 1e-6 and out.max() <= -0.1 + 1e-6 and out.std() > 0.03
        np.testing.assert_array_equal(nn.RReLU()(Tensor(-x)).asnumpy(), 1)
        with pytest.raises(ValueError, match="upper"):
            nn.RReLU(0.5, 0.1)


# ------------------------------------------------------------------------------ normalization
class TestNormalization:
    def test_instance_norm_moving_stats(self, mode):
        x = _x(4, 3, 5, 6) * 2 + 1
        cell = nn.InstanceNorm2d(3, momentum=0.25)
        cell(Tensor(x))
        np.testing.assert_array_equal(cell.moving_mean.asnumpy(), 0)
        cell.set_train()
        out = cell(Tensor(x)).asnumpy()
        want = (x - x.mean((2, 3), keepdims=True)) / np.sqrt(x.var((2, 3), keepdims=True) + 1e-5)
        np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(cell.moving_mean.asnumpy(), 0.75 * x.mean((0, 2, 3)), rtol=1e-5, atol=1e-6)
        unbiased = x.var((2, 3), ddof=1).mean(0)
        np.testing.assert_allclose(cell.moving_variance.asnumpy(), 0.25 + 0.75 * unbiased, rtol=1e-5)

    @pytest.mark.parametrize("cls,shape", [(nn.InstanceNorm1d, (2, 3, 7)), (nn.InstanceNorm3d, (2, 3, 2, 3, 4))])
    def test_instance_norm_ranks(self, cls, shape):
        x = _x(*shape)
        axes = tuple(range(2, len(shape)))
        want = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + 1e-5)
        np.testing.assert_allclose(cls(3)(Tensor(x)).asnumpy(), want, rtol=1e-4, atol=1e-5)
        with pytest.raises(ValueError, match=f"{cls.__name__}.*dims"):
            cls(3)(Tensor(_x(2, 3)))

    def test_call_time_errors(self):
        with pytest.raises(ValueError, match="BatchNorm1d"):
            nn.BatchNorm1d(3)(Tensor(_x(2, 3, 4, 5)))
        with pytest.raises(ValueError, match="BatchNorm3d"):
            nn.BatchNorm3d(3)(Tensor(_x(2, 3, 4, 5)))
        with pytest.raises(ValueError, match="GroupNorm.*num_channels"):
            nn.GroupNorm(2, 4)(Tensor(_x(2, 6, 3)))
        with pytest.raises(ValueError, match="LayerNorm.*normalized_shape"):
            nn.LayerNorm((6, 6))(Tensor(_x(1, 2, 6, 6)))

    def test_half_precision_keeps_float32_statistics(self, mode):
        bn = nn.BatchNorm2d(3).to_float(ms.float16)
        bn.set_train()
        out = bn(Tensor(_x(4, 3, 2, 2)))
        assert out.dtype == ms.float16 and bn.moving_mean.dtype == ms.float32
        ln = nn.LayerNorm((4,)).to_float(ms.float16)
        assert ln(Tensor(_x(2, 4))).dtype == ms.float16

    def test_batchnorm3d_graph_training(self):
        ms.set_context(mode=ms.GRAPH_MODE)
        bn = nn.BatchNorm3d(2, momentum=0.5).set_train()
        x = _x(3, 2, 2, 3, 4)
        out = bn(Tensor(x)).asnumpy()
        mean = x.mean((0, 2, 3, 4))
        np.testing.assert_allclose(out.mean((0, 2, 3, 4)), 0, atol=1e-5)
        np.testing.assert_allclose(bn.bn2d.moving_mean.asnumpy(), 0.5 * mean, rtol=1e-5, atol=1e-6)


# --------------------------------------------------------------------------------- convolution
class TestConvolution:
    @pytest.mark.parametrize("kwargs,size,want", [
        (dict(stride=2), 5, 10),
        (dict(stride=2, pad_mode="valid"), 5, 11),
        (dict(stride=3, pad_mode="valid", kernel_size=2), 5, 15),
        (dict(stride=2, pad_mode="pad", padding=1), 5, 9),
        (dict(stride=2, pad_mode="pad", padding=1, output_padding=1), 5, 10),
        (dict(dilation=2, pad_mode="valid"), 5, 9),
    ])
    def test_transpose_output_sizes(self, mode, kwargs, size, want):
        kwargs.setdefault("kernel_size", 3)
        cell = nn.Conv2dTranspose(2, 3, **kwargs)
        assert cell(Tensor(_x(1, 2, size, size))).shape == (1, 3, want, want)

    def test_transpose_output_padding_is_zeros_after_bias(self):
        cell = nn.Conv2dTranspose(1, 1, 3, stride=2, pad_mode="pad", padding=1, output_padding=1, has_bias=True,
                                  bias_init="ones")
        out = cell(Tensor(_x(1, 1, 4, 4))).asnumpy()
        np.testing.assert_array_equal(out[..., -1, :], 0)
        np.testing.assert_array_equal(out[..., :, -1], 0)

    def test_transpose_output_padding_errors_at_call(self):
        with pytest.raises(ValueError, match="output_padding"):
            nn.Conv2dTranspose(2, 3, 3, stride=2, pad_mode="pad", output_padding=2)(Tensor(_x(1, 2, 4, 4)))
        with pytest.raises(ValueError, match="pad_mode"):
            nn.Conv2dTranspose(2, 3, 3, stride=2, output_padding=1)(Tensor(_x(1, 2, 4, 4)))

    def test_transpose_is_the_input_gradient_of_conv(self):
        conv = nn.Conv2d(3, 2, 3, stride=2, pad_mode="pad", padding=(1, 0, 2, 1), group=1)
        tconv = nn.Conv2dTranspose(2, 3, 3, stride=2, pad_mode="pad", padding=(1, 0, 2, 1))
        tconv.weight.set_data(conv.weight)
        x = _x(1, 3, 8, 9)
        y = conv(Tensor(x))
        r = _x(*y.shape, seed=1)
        grad = ms.grad(lambda a: (conv(a) * Tensor(r)).sum())(Tensor(x)).asnumpy()
        out = tconv(Tensor(r)).asnumpy()
        assert out.shape == (1, 3, 8, 8)  # MindSpore's size rule; the conv input had one more (unused) column
        np.testing.assert_allclose(out, grad[..., :8, :8], rtol=1e-5, atol=1e-5)

    def test_conv1d_weight_init_tensor_3d(self):
        w = _x(4, 2, 3)
        c = nn.Conv1d(2, 4, 3, pad_mode="valid", weight_init=Tensor(w))
        assert c.weight.shape == (4, 2, 1, 3)
        x = _x(1, 2, 6)
        want = np.stack([np.einsum("ck,ock->o", x[0, :, i:i + 3], w) for i in range(4)], -1)[None]
        np.testing.assert_allclose(c(Tensor(x)).asnumpy(), want, rtol=1e-5, atol=1e-5)
        with pytest.raises(ValueError, match="weight_init"):
            nn.Conv1d(2, 4, 3, weight_init=Tensor(w[0]))

    def test_conv_call_time_errors(self):
        with pytest.raises(ValueError, match="Conv2d.*4-D"):
            nn.Conv2d(2, 4, 3)(Tensor(_x(2, 6, 6)))
        with pytest.raises(RuntimeError, match="Conv2d.*in_channels"):  # MindSpore's Conv2D: RuntimeError
            nn.Conv2d(3, 4, 3)(Tensor(_x(1, 2, 6, 6)))
        with pytest.raises(ValueError, match="Conv3d.*5-D"):
            nn.Conv3d(2, 4, 3)(Tensor(_x(1, 2, 6, 6)))

    def test_nhwc_on_gpu_target(self, mode):
        """With device_target 'GPU' the NHWC layouts are accepted (TensorFlow runs them on CPU as well)."""
        ms.set_context(device_target="GPU")
        try:
            x = _x(2, 3, 7, 7)
            nchw = nn.Conv2d(3, 4, 3, stride=2, group=1, has_bias=True)
            nhwc = nn.Conv2d(3, 4, 3, stride=2, group=1, has_bias=True, data_format="NHWC")
            assert nhwc.weight.shape == (4, 3, 3, 3)
            nhwc.weight.set_data(Tensor(np.transpose(nchw.weight.asnumpy(), (0, 2, 3, 1))))
            nhwc.bias.set_data(nchw.bias)
            want = nchw(Tensor(x)).asnumpy().transpose(0, 2, 3, 1)
            got = nhwc(Tensor(x.transpose(0, 2, 3, 1))).asnumpy()
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
            pool = nn.MaxPool2d(3, 2, "same", data_format="NHWC")
            np.testing.assert_allclose(pool(Tensor(x.transpose(0, 2, 3, 1))).asnumpy(),
                                       nn.MaxPool2d(3, 2, "same")(Tensor(x)).asnumpy().transpose(0, 2, 3, 1))
            bn = nn.BatchNorm2d(3, data_format="NHWC").set_train()
            out = bn(Tensor(x.transpose(0, 2, 3, 1))).asnumpy()
            np.testing.assert_allclose(out.mean((0, 1, 2)), 0, atol=1e-5)
        finally:
            ms.set_context(device_target="CPU")


# ------------------------------------------------------------------------------------ pooling
class TestPooling:
    def test_return_indices_point_at_the_maxima(self, mode):
        x = _x(2, 3, 6, 7)
        out, idx = nn.MaxPool2d(3, 2, pad_mode="pad", padding=1, return_indices=True)(Tensor(x))
        flat = x.reshape(2, 3, -1)
        np.testing.assert_array_equal(np.take_along_axis(flat, idx.asnumpy().reshape(2, 3, -1), -1),
                                      out.asnumpy().reshape(2, 3, -1))
        assert idx.dtype == ms.int64
        out, idx = nn.AdaptiveMaxPool2d((4, 3), return_indices=True)(Tensor(x))
        np.testing.assert_array_equal(np.take_along_axis(flat, idx.asnumpy().reshape(2, 3, -1), -1),
                                      out.asnumpy().reshape(2, 3, -1))

    def test_adaptive_1d_errors(self):
        with pytest.raises(ValueError, match="divisible"):
            nn.AdaptiveAvgPool1d(4)(Tensor(_x(2, 3, 6)))
        with pytest.raises(ValueError, match="3 dim"):
            nn.AdaptiveMaxPool1d(2)(Tensor(_x(2, 3, 4, 6)))
        with pytest.raises(TypeError, match="float16 or float32"):
            nn.AdaptiveAvgPool1d(2)(Tensor(np.ones((1, 2, 4), np.int32)))

    def test_padding_larger_than_half_kernel(self):
        with pytest.raises(ValueError, match="half"):
            nn.MaxPool2d(2, 1, pad_mode="pad", padding=2)
        with pytest.raises(ValueError, match="half"):
            nn.AvgPool1d(2, 1, pad_mode="pad", padding=2)

    def test_graph_mode_one_trace_per_shape(self):
        ms.set_context(mode=ms.GRAPH_MODE)
        cell = nn.SequentialCell([nn.Conv2d(3, 4, 3), nn.MaxPool2d(2, 2), nn.AdaptiveAvgPool2d(1), nn.Flatten()])
        for _ in range(3):
            assert cell(Tensor(_x(2, 3, 8, 8))).shape == (2, 4)
        fn = cell.compiled_construct()
        assert fn.experimental_get_tracing_count() == 1


# -------------------------------------------------------------------------------- basic layers
class TestBasic:
    def test_embedding(self, mode):
        emb = nn.Embedding(5, 3, padding_idx=1)
        np.testing.assert_array_equal(emb.embedding_table.asnumpy()[1], 0)
        ids = Tensor(np.array([[0, 1], [4, 2]], np.int32))
        out = emb(ids).asnumpy()
        np.testing.assert_array_equal(out, emb.embedding_table.asnumpy()[[[0, 1], [4, 2]]])
        g = ms.grad(lambda: emb(ids).sum(), None, emb.trainable_params())()[0].asnumpy()
        np.testing.assert_array_equal(g[:, 0], [1, 1, 1, 0, 1])  # padding_idx still gets its gradient
        with pytest.raises(TypeError, match="int"):
            emb(Tensor(np.ones((2,), np.float32)))

    def test_embedding_out_of_range(self):
        with pytest.raises(RuntimeError, match=r"For 'Embedding', the 'input_indices' should be in the range "
                                               r"\[-5, 5\), but got 5\."):
            nn.Embedding(5, 3)(Tensor(np.array([5], np.int32)))

    def test_pad_rank_and_modes(self):
        x = np.arange(12, dtype=np.float32).reshape(3, 4)
        np.testing.assert_array_equal(nn.Pad(((1, 0), (0, 2)), "SYMMETRIC")(Tensor(x)).asnumpy(),
                                      np.pad(x, ((1, 0), (0, 2)), "symmetric"))
        np.testing.assert_array_equal(nn.Pad(((1, 1), (2, 1)), "REFLECT")(Tensor(x)).asnumpy(),
                                      np.pad(x, ((1, 1), (2, 1)), "reflect"))
        with pytest.raises(ValueError, match="rank"):
            nn.Pad(((1, 1),))(Tensor(x))

    def test_upsample_scale_factor_without_recompute(self):
        """MindSpore 2.10 refuses scale_factor for 4-D nearest/bilinear unless recompute_scale_factor; tfspore
        follows PyTorch's rule (the scale of the source index is 1/scale_factor)."""
        x = _x(1, 1, 3, 4)
        out = nn.Upsample(scale_factor=2.0)(Tensor(x)).asnumpy()
        np.testing.assert_array_equal(out, x.repeat(2, 2).repeat(2, 3))

    def test_unflatten_and_softplus(self, mode):
        assert nn.Unflatten(-1, (2, 2))(Tensor(_x(3, 4))).shape == (3, 2, 2)
        x = np.array([-30.0, 0.0, 1.0, 25.0], np.float32)
        np.testing.assert_allclose(nn.Softplus()(Tensor(x)).asnumpy(), np.logaddexp(0, x.astype(np.float64)),
                                   rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(nn.Softplus(2.0, 1.0)(Tensor(x)).asnumpy(),
                                   np.where(2 * x > 1, x, np.logaddexp(0, 2 * x) / 2), rtol=1e-6, atol=1e-7)

    def test_prelu_names_and_channel_check(self):
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.act = nn.PReLU(3)

        assert [p.name for p in nn.PReLU().get_parameters()] == ["a"]
        assert [p.name for p in Net().get_parameters()] == ["act.w"]
        with pytest.raises(ValueError, match="channels"):
            nn.PReLU(3)(Tensor(_x(2, 4, 5)))

    def test_lrn_matches_formula(self):
        x = _x(1, 5, 2, 2)
        out = nn.LRN(1, 2.0, 0.5, 0.75)(Tensor(x)).asnumpy()
        sq = np.pad(x ** 2, ((0, 0), (1, 1), (0, 0), (0, 0)))
        window = sq[:, :-2] + sq[:, 1:-1] + sq[:, 2:]
        np.testing.assert_allclose(out, x / (2.0 + 0.5 * window) ** 0.75, rtol=1e-5, atol=1e-6)
