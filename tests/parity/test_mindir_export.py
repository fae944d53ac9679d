"""MindIR written by tfspore runs in real MindSpore 2.10 to tfspore's outputs.

For LeNet5, ResNet-18, MobileNetV2 and the BERT classifier of ``examples/models``: tfspore builds
the network (its parameters perturbed so that biases, BatchNorm statistics and LayerNorm affine
parameters are not trivial), exports it with ``mindspore.export(..., file_format='MINDIR')``,
and real MindSpore's ``mindspore.load`` + ``nn.GraphCell`` runs the file on the same inputs. The
outputs must agree within float32 tolerance (1e-5 relative, with an absolute floor of 1e-5 times
the output's largest magnitude, as in ``test_model_zoo.py``).
"""
import importlib.util
import os

import numpy as np
import pytest

ms_real = pytest.importorskip("mindspore", reason="parity tests need mindspore==2.10.0")

import tfspore as ts  # noqa: E402
from tfspore.compat import alias_mindspore, unalias_mindspore  # noqa: E402

_SIDE_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "model_zoo_ms_side.py")
_spec = importlib.util.spec_from_file_location("_mindir_zoo_side", _SIDE_PATH)
side = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(side)

RTOL = 1e-5


def _build(name):
    alias_mindspore()
    try:
        module = side.load_model_module(name, "mindir")
        ts.set_seed(side.SEED)
        net = side.build(name, module)
    finally:
        unalias_mindspore()
    side.perturb(net, ts)
    net.set_train(False)
    return net


def _close(actual, expected, what):
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    scale = float(np.max(np.abs(expected))) if expected.size else 0.0
    np.testing.assert_allclose(actual, expected, rtol=RTOL, atol=RTOL * scale, err_msg=what)


@pytest.mark.parametrize("name", ["lenet", "resnet18", "mobilenetv2", "bert"])
def test_real_mindspore_runs_the_exported_mindir(name, tmp_path):
    net = _build(name)
    arrays = side.make_inputs(name)
    inputs = [ts.Tensor(a) for a in arrays]
    want = net(*inputs)
    ts.export(net, *inputs, file_name=str(tmp_path / name), file_format="MINDIR")
    path = tmp_path / f"{name}.mindir"
    assert path.is_file()
    cell = ms_real.nn.GraphCell(ms_real.load(str(path)))
    got = cell(*[ms_real.Tensor(a) for a in arrays])
    wants = want if isinstance(want, tuple) else (want,)
    gots = got if isinstance(got, tuple) else (got,)
    assert len(gots) == len(wants)
    for i, (g, w) in enumerate(zip(gots, wants)):
        _close(g.asnumpy(), w.asnumpy(), f"{name} output {i}")


def test_mindir_parameters_are_the_networks(tmp_path):
    """The file holds each weight under its Parameter name with its value (MindSpore reads them back)."""
    net = _build("lenet")
    x = ts.Tensor(side.make_inputs("lenet")[0])
    ts.export(net, x, file_name=str(tmp_path / "lenet.mindir"), file_format="MINDIR")
    graph = ms_real.load(str(tmp_path / "lenet.mindir"))
    cell = ms_real.nn.GraphCell(graph)
    got = {p.name: p.asnumpy() for p in cell.get_parameters()}
    want = {p.name: p.asnumpy() for p in net.get_parameters()}
    assert sorted(got) == sorted(want)
    for key, value in want.items():
        np.testing.assert_array_equal(got[key], value, err_msg=key)


class _OpCatalog(ts.nn.Cell):
    """One network over the covered op set (besides the four zoo networks'): grouped, dilated and padded
    convolutions, average pooling, layer norm, embeddings, batched matmul, softmax / log-softmax,
    concat / split / stack / slicing, reductions, select, tile, argmax, top-k, gather_nd, casts and element-wise
    math."""

    def __init__(self):
        super().__init__()
        nn, ops = ts.nn, ts.ops
        self.conv = nn.Conv2d(3, 4, 3, pad_mode="pad", padding=1, has_bias=True)
        self.grouped = nn.Conv2d(4, 8, 3, group=4, pad_mode="same")
        self.dilated = nn.Conv2d(3, 4, 3, stride=2, dilation=2, pad_mode="valid")
        self.bn = nn.BatchNorm2d(8)
        self.max_pool = nn.MaxPool2d(2, 2)
        self.avg_pool = nn.AvgPool2d(2, 2)
        self.avg_same = nn.AvgPool2d(3, 1, pad_mode="same")
        self.dense = nn.Dense(16, 8, activation="relu")
        self.ln = nn.LayerNorm((8,))
        self.emb = nn.Embedding(10, 8)
        self.bmm = ops.BatchMatMul(transpose_b=True)
        self.drop = nn.Dropout(p=0.5)
        self.top_k = ops.TopK(sorted=True)
        self.gather_nd = ops.GatherNd()

    def construct(self, x, ids):
        ops = ts.ops
        y = self.bn(self.grouped(self.conv(x)))
        y = ops.relu(y) + ops.sigmoid(y) * ops.tanh(y) - ops.relu6(y) / 2
        pooled = self.avg_pool(self.max_pool(self.avg_same(y)))
        dilated = self.dilated(ops.pad(x, (1, 1, 1, 1)))
        h = self.ln(self.drop(self.dense(ops.reshape(pooled, (2, -1))[:, :16])))
        h = ops.gelu(h) + ops.erf(h) + ops.exp(-ops.abs(h)) + ops.log(ops.square(h) + 1) + ops.sqrt(ops.abs(h))
        h = ops.pow(h, 2.0) + ops.maximum(h, 0.1) * ops.minimum(h, 0.5) + ops.leaky_relu(h, 0.1) + ops.elu(h)
        e = self.emb(ids)
        s = ops.softmax(self.bmm(e, e) / 3.0, -1)
        c = ops.concat((ops.transpose(e, (0, 2, 1)), e.transpose(0, 2, 1) * 2), 1)
        a, b = ops.split(c, 8, 1)
        st = ops.stack((a, b), 1)
        m = st.mean(axis=(2, 3), keep_dims=True) + st.sum(axis=3).max() - ops.amin(st, 1).mean()
        chosen = ops.select(h > 0, h, ops.zeros_like(h))
        arg = ops.argmax(h, 1).astype(ts.float32) + ids.astype(ts.float32).sum()
        top, top_at = self.top_k(h, 3)
        picked = self.gather_nd(h, ops.stack((ids[:, 0], ids[:, 1] % 8), 1))
        return (pooled, dilated, h, s, ops.log_softmax(s, -1), m, chosen, arg, c[:, 1:9:2, -3:],
                ops.expand_dims(h, 1).squeeze(1), ops.tile(h, (2, 1)), ops.flatten(pooled), ops.cumsum(h, 1),
                top, top_at, picked)


def test_real_mindspore_runs_the_op_catalog(tmp_path):
    ts.set_seed(2)
    net = _OpCatalog()
    side.perturb(net, ts)
    net.set_train(False)
    rng = np.random.RandomState(0)
    x = rng.standard_normal((2, 3, 8, 8)).astype(np.float32)
    ids = np.array([[1, 2, 3, 4, 5], [0, 1, 2, 3, 9]], np.int32)
    want = net(ts.Tensor(x), ts.Tensor(ids))
    ts.export(net, ts.Tensor(x), ts.Tensor(ids), file_name=str(tmp_path / "catalog"))
    got = ms_real.nn.GraphCell(ms_real.load(str(tmp_path / "catalog.mindir")))(ms_real.Tensor(x),
                                                                               ms_real.Tensor(ids))
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        _close(g.asnumpy(), w.asnumpy(), f"catalog output {i}")
