"""On CPU, consecutive NCHW conv / ReLU / pooling layers hand NHWC tensors to each other in a traced step."""
import numpy as np
import pytest
import tensorflow as tf

import tfspore as ms
from tfspore import nn, ops
from tfspore.nn.layer._conv_kernels import _direct_nchw_conv
from tfspore.ops.function._layout import nchw_supported


class _Stack(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, pad_mode="valid", weight_init="normal")
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(4, 6, 3, pad_mode="valid", weight_init="normal")
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        return self.flatten(ops.relu(self.conv2(x)))


def _run(mode, x):
    ms.set_context(mode=mode)
    ms.set_seed(3)
    net = _Stack()
    grad = ops.GradOperation(get_by_list=True)(net, net.trainable_params())
    return net(x).asnumpy(), [g.asnumpy() for g in grad(x)], net


@pytest.mark.skipif(_direct_nchw_conv() or nchw_supported("maxpool"),
                    reason="convolutions and pooling run on NCHW data directly here (GPU, or TFSPORE_NCHW=1)")
def test_transposes_between_layers_cancel_and_results_match_pynative():
    x = ms.Tensor(np.random.RandomState(0).randn(2, 1, 12, 12).astype(np.float32))
    out_g, grads_g, net = _run(ms.GRAPH_MODE, x)
    out_p, grads_p, _ = _run(ms.PYNATIVE_MODE, x)
    np.testing.assert_allclose(out_g, out_p, rtol=1e-5, atol=1e-6)
    for a, b in zip(grads_g, grads_p):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    ms.set_context(mode=ms.GRAPH_MODE)
    graph = net.compile(x).graph
    convs = [op for op in graph.get_operations() if op.type == "Conv2D"]
    pool = [op for op in graph.get_operations() if op.type == "MaxPool"][0]
    # conv1 -> ReLU -> MaxPool -> conv2 stay NHWC: no transpose pair between them
    assert pool.inputs[0].op.type == "Relu"
    assert pool.inputs[0].op.inputs[0].op is convs[0]
    assert convs[1].inputs[0].op is pool


class _Residual(nn.Cell):
    """conv-BN-ReLU-conv-BN plus a 1x1 conv-BN shortcut, then ReLU (a ResNet basic block)."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(2, 4, 3, weight_init="normal")
        self.bn1 = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 4, 3, weight_init="normal")
        self.bn2 = nn.BatchNorm2d(4)
        self.down = nn.Conv2d(2, 4, 1, weight_init="normal")
        self.down_bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()

    def construct(self, x):
        out = self.bn2(self.conv2(self.relu(self.bn1(self.conv1(x)))))
        return self.relu(out + self.down_bn(self.down(x)) * 0.5)


def _run_residual(mode, x):
    ms.set_context(mode=mode)
    ms.set_seed(5)
    net = _Residual()
    net.set_train()
    grad = ops.GradOperation(get_by_list=True)(net, net.trainable_params())
    grads = [g.asnumpy() for g in grad(x)]
    out = net(x).asnumpy()
    return out, grads, [p.asnumpy() for p in net.get_parameters()], net


@pytest.mark.skipif(_direct_nchw_conv(), reason="convolutions run on NCHW data directly here (GPU, or TFSPORE_NCHW=1)")
def test_batchnorm_and_residual_addition_stay_nhwc_and_match_pynative():
    x = ms.Tensor(np.random.RandomState(1).randn(2, 2, 6, 6).astype(np.float32))
    out_g, grads_g, params_g, net = _run_residual(ms.GRAPH_MODE, x)
    out_p, grads_p, params_p, _ = _run_residual(ms.PYNATIVE_MODE, x)
    np.testing.assert_allclose(out_g, out_p, rtol=1e-5, atol=1e-5)
    for a, b in zip(grads_g, grads_p):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
    for a, b in zip(params_g, params_p):  # the moving statistics took the same updates
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    ms.set_context(mode=ms.GRAPH_MODE)
    ops_ = net.compile(x).graph.get_operations()
    bns = [op for op in ops_ if op.type == "FusedBatchNormV3"]
    assert len(bns) == 3 and all(op.get_attr("data_format") == b"NHWC" for op in bns)
    assert all(op.inputs[0].op.type == "Conv2D" for op in bns)

    def producer(t):  # the op behind the custom gradients' IdentityN ops
        while t.op.type == "IdentityN":
            t = t.op.inputs[t.value_index]
        return t.op

    add = [op for op in ops_ if op.type == "AddV2" and producer(op.inputs[0]) in bns]
    assert len(add) == 1 and add[0].inputs[1].op.type == "Mul"
    assert producer(add[0].inputs[1].op.inputs[0]) in bns
    relu = [op for op in ops_ if op.type == "Relu" and op.inputs[0].op is add[0]]
    assert len(relu) == 1
