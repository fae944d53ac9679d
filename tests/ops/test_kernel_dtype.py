"""float16 convolutions and matrix products compute in float32 off GPU (``tfspore.ops.function.kernel_dtype``).

TensorFlow's float16 CPU kernels for the convolution filter gradient (``Conv2DBackpropFilter``), 3-D,
depthwise and transposed convolutions, and a ``MatMul`` fused with its bias addition are 15x to
1,000x slower than float32; MindSpore's CPU build computes these operators in float32 between
casts. These tests check the traced graphs structurally (which kernels, in which dtype) and the
numbers against float32 computations of the float16-rounded operands.
"""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import amp, nn, ops
from tfspore.ops.function import kernel_dtype as _kernel_dtype
from tfspore.ops.function.kernel_dtype import fast_matmul, kernel_dtype
from tfspore.ops.function._layout import gpu_visible

pytestmark = pytest.mark.skipif(gpu_visible(), reason="on GPUs float16 kernels are fast and stay float16")

_KERNELS = {"Conv2D", "Conv2DBackpropFilter", "Conv2DBackpropInput", "Conv3D", "Conv3DBackpropFilterV2",
            "Conv3DBackpropInputV2", "DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropFilter",
            "DepthwiseConv2dNativeBackpropInput", "MatMul", "BatchMatMulV2", "_FusedMatMul", "_FusedConv2D"}


def _kernel_dtypes(graph):
    """{(op type, T)} of the convolution and matmul kernels in ``graph``."""
    return {(op.type, op.get_attr("T").name) for op in graph.get_operations() if op.type in _KERNELS}


def _round16(a):
    return np.asarray(a, np.float32).astype(np.float16).astype(np.float32)


def test_kernel_dtype():
    assert kernel_dtype(tf.float16) == tf.float32
    assert kernel_dtype(tf.float32) == tf.float32
    assert kernel_dtype(tf.bfloat16) == tf.bfloat16
    assert kernel_dtype(tf.float64) == tf.float64


_LAYERS = [
    ("conv2d_bias", lambda: nn.Conv2d(4, 8, 3, has_bias=True, weight_init="normal", bias_init="normal"), (2, 4, 9, 9)),
    ("conv2d_pad_group", lambda: nn.Conv2d(8, 8, 3, pad_mode="pad", padding=1, group=2, weight_init="normal"),
     (2, 8, 7, 7)),
    ("depthwise", lambda: nn.Conv2d(8, 16, 3, stride=2, group=8, weight_init="normal"), (2, 8, 9, 9)),
    ("conv1d", lambda: nn.Conv1d(4, 6, 3, weight_init="normal"), (2, 4, 11)),
    ("conv3d", lambda: nn.Conv3d(3, 4, 3, weight_init="normal"), (2, 3, 5, 5, 5)),
    ("conv2d_transpose", lambda: nn.Conv2dTranspose(4, 6, 3, stride=2, weight_init="normal"), (2, 4, 5, 5)),
    ("dense", lambda: nn.Dense(12, 5, weight_init="normal", bias_init="normal"), (3, 12)),
]


def _layer_loss_and_grads(net, x, dtype):
    """Trace ``sum(net(x)**2)`` and its gradients w.r.t. ``x`` and the parameters with ``net`` in ``dtype``."""
    net.to_float(dtype)
    params = [p._var for p in net.trainable_params()]

    @tf.function(autograph=False)
    def step(xv):
        with tf.GradientTape() as tape:
            tape.watch(xv)
            y = net(ms.Tensor(tf.cast(xv, dtype.tf_dtype)))._value()
            loss = tf.reduce_sum(tf.square(tf.cast(y, tf.float32)))
        return y, loss, tape.gradient(loss, [xv] + params)

    xv = tf.constant(x)
    y, loss, grads = step(xv)
    return y.dtype, float(loss), [g.numpy() for g in grads], step.get_concrete_function(xv).graph


@pytest.mark.parametrize("name,make,shape", _LAYERS, ids=[n for n, _, _ in _LAYERS])
def test_float16_layers_use_float32_kernels_and_match_float32(name, make, shape):
    ms.set_seed(1)
    net = make()
    rng = np.random.default_rng(0)
    for p in net.trainable_params():  # float16-exact weights, so both runs see the same operands
        p.set_data(ms.Tensor(_round16(p.asnumpy() * 0.5)))
    x = _round16(rng.standard_normal(shape))
    dt16, loss16, grads16, graph = _layer_loss_and_grads(net, x, ms.float16)
    dt32, loss32, grads32, _ = _layer_loss_and_grads(net, x, ms.float32)
    assert dt16 == tf.float16 and dt32 == tf.float32
    kernels = _kernel_dtypes(graph)
    assert kernels, graph.get_operations()
    assert all(t == "float32" for _, t in kernels), kernels  # no float16 kernel, forward or backward
    if name != "dense":
        assert any(k.startswith("Conv") and "BackpropFilter" in k for k, _ in kernels) or (
            any("Depthwise" in k for k, _ in kernels)), kernels  # the weight gradient was traced
    # float16 rounding of the output (and of the gradients) only
    np.testing.assert_allclose(loss16, loss32, rtol=2e-3)
    for g16, g32 in zip(grads16, grads32):
        scale = np.max(np.abs(g32))
        np.testing.assert_allclose(g16, g32, rtol=0, atol=4e-3 * scale)


def test_ops_conv2d_float16_is_the_rounded_float32_result():
    rng = np.random.default_rng(2)
    x = _round16(rng.standard_normal((2, 3, 8, 8)))
    w = _round16(rng.standard_normal((5, 3, 3, 3)) * 0.3)
    y16 = ops.conv2d(ms.Tensor(x, ms.float16), ms.Tensor(w, ms.float16), pad_mode="pad", padding=1)
    y32 = ops.conv2d(ms.Tensor(x), ms.Tensor(w), pad_mode="pad", padding=1)
    assert y16.dtype == ms.float16
    np.testing.assert_array_equal(y16.asnumpy(), y32.asnumpy().astype(np.float16))
    prim16 = ops.Conv2D(5, 3, pad_mode="same")(ms.Tensor(x, ms.float16), ms.Tensor(w, ms.float16))
    prim32 = ops.Conv2D(5, 3, pad_mode="same")(ms.Tensor(x), ms.Tensor(w))
    np.testing.assert_array_equal(prim16.asnumpy(), prim32.asnumpy().astype(np.float16))


def test_conv2d_backprop_input_float16_is_the_rounded_float32_result():
    rng = np.random.default_rng(3)
    dy = _round16(rng.standard_normal((2, 5, 4, 4)))
    w = _round16(rng.standard_normal((5, 3, 3, 3)) * 0.3)
    op = ops.Conv2DBackpropInput(5, 3, pad_mode="pad", pad=1, stride=2)
    y16 = op(ms.Tensor(dy, ms.float16), ms.Tensor(w, ms.float16), (2, 3, 8, 8))
    y32 = op(ms.Tensor(dy), ms.Tensor(w), (2, 3, 8, 8))
    assert y16.dtype == ms.float16
    np.testing.assert_array_equal(y16.asnumpy(), y32.asnumpy().astype(np.float16))


def test_matmul_float16_is_the_rounded_float32_result():
    rng = np.random.default_rng(4)
    a = _round16(rng.standard_normal((4, 33)))
    b = _round16(rng.standard_normal((33, 7)))
    y = ops.matmul(ms.Tensor(a, ms.float16), ms.Tensor(b, ms.float16))
    assert y.dtype == ms.float16
    np.testing.assert_array_equal(y.asnumpy(), (a @ b).astype(np.float16))
    z = ops.MatMul(transpose_b=True)(ms.Tensor(a, ms.float16), ms.Tensor(b.T.copy(), ms.float16))
    np.testing.assert_array_equal(z.asnumpy(), (a @ b).astype(np.float16))


def test_fast_matmul_keeps_other_dtypes_and_errors():
    a = tf.constant([[1, 2], [3, 4]], tf.int32)
    assert fast_matmul(a, a).dtype == tf.int32
    b = tf.ones([2, 2], tf.bfloat16)
    assert fast_matmul(b, b).dtype == tf.bfloat16
    with pytest.raises((tf.errors.InvalidArgumentError, TypeError, ValueError)):
        fast_matmul(tf.ones([2, 2], tf.float16), tf.ones([2, 2], tf.float32))


class _SmallCNN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, weight_init="normal")
        self.bn1 = nn.BatchNorm2d(8)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2d(8, 8, 3, weight_init="normal")
        self.bn2 = nn.BatchNorm2d(8)
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(8 * 4 * 4, 10)

    def construct(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.pool(self.relu(self.bn2(self.conv2(x))))
        return self.fc(self.flatten(x))


def test_o2_train_step_has_no_float16_conv_or_matmul_kernel_and_stays_nhwc():
    """VGG16's setting: ``amp_level='O2'``, float16 BatchNorm, no loss-scale manager."""
    ms.set_seed(0)
    net = _SmallCNN()
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = amp.build_train_network(net, opt, loss, level="O2", keep_batchnorm_fp32=False, loss_scale_manager=None)
    x = ms.Tensor(np.random.default_rng(5).standard_normal((2, 3, 8, 8)).astype(np.float32))
    y = ms.Tensor(np.array([1, 7], np.int32))
    graph = train.compile(x, y).graph
    kernels = _kernel_dtypes(graph)
    assert ("Conv2DBackpropFilter", "float32") in kernels and ("MatMul", "float32") in kernels
    assert all(t == "float32" for _, t in kernels), kernels
    # the layers compute in float16 between the kernels, as MindSpore's O2 does
    assert any(op.type == "Relu" and op.get_attr("T") == tf.float16 for op in graph.get_operations())
    # the casts around the kernels do not break the NHWC hand-over between layers
    bns = [op for op in graph.get_operations() if op.type == "FusedBatchNormV3"]  # forward and gradient passes
    assert len(bns) >= 2 and all(op.get_attr("data_format") == b"NHWC" for op in bns)
    first = float(train(x, y).asnumpy())
    for _ in range(3):
        last = float(train(x, y).asnumpy())
    assert np.isfinite(last) and last < first


def test_bfloat16_opt_in(monkeypatch):
    monkeypatch.setenv("TFSPORE_CPU_FLOAT16", "bfloat16")
    monkeypatch.setattr(_kernel_dtype, "_CPU_DTYPE", [])
    assert kernel_dtype(tf.float16) == tf.bfloat16
    net = nn.Conv2d(2, 3, 3, weight_init="normal")
    x = np.random.default_rng(6).standard_normal((1, 2, 5, 5)).astype(np.float32)
    dt, _, _, graph = _layer_loss_and_grads(net, x, ms.float16)
    assert dt == tf.float16
    assert {t for _, t in _kernel_dtypes(graph)} == {"bfloat16"}
    monkeypatch.setenv("TFSPORE_CPU_FLOAT16", "half")
    monkeypatch.setattr(_kernel_dtype, "_CPU_DTYPE", [])
    with pytest.raises(ValueError, match="TFSPORE_CPU_FLOAT16"):
        kernel_dtype(tf.float16)
    monkeypatch.setattr(_kernel_dtype, "_CPU_DTYPE", [])
