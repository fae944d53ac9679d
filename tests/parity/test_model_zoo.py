"""Model-zoo parity: MindSpore-API networks load real MindSpore checkpoints and agree with it.

The networks of ``examples/models`` (LeNet5, ResNet-18, MobileNetV2, the LSTM sentiment
classifier and a small BERT-style encoder) are written against ``import mindspore`` only.
Real MindSpore 2.10 runs them in one subprocess (``model_zoo_ms_side.py``): it builds each
with ``set_seed``, saves a ``.ckpt`` and records the parameter table and the eval-mode outputs
for fixed inputs. Here the same source files are imported under
:func:`tfspore.compat.alias_mindspore`, built on tfspore, and must have the same parameter
names, shapes, order and trainability, load the MindSpore checkpoint with ``load_checkpoint``
and give the same outputs in PYNATIVE and GRAPH mode. Each network also takes one training
step on tfspore. In the reverse direction tfspore builds and saves every network; real
MindSpore loads those checkpoints (in the same subprocess, started after tfspore saved them)
and must get tfspore's outputs.

Tolerance: float32 outputs must agree elementwise within 1e-5 relative, with an absolute floor
of 1e-5 times the largest magnitude of the expected output (so that entries near zero, where
a relative bound is meaningless, are held to the output's own scale).
"""
import contextlib
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("mindspore", reason="parity tests need mindspore==2.10.0")

import tfspore as ms  # noqa: E402
from tfspore.compat import alias_mindspore, unalias_mindspore  # noqa: E402

_SIDE_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "model_zoo_ms_side.py")
_spec = importlib.util.spec_from_file_location("_model_zoo_ms_side", _SIDE_PATH)
side = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(side)

RTOL = 1e-5
# Inputs, perturbation seed and set_seed of the reverse direction (differ from the forward ones).
REVERSE_INPUT_SEED, REVERSE_PERTURB_SEED, REVERSE_SET_SEED = 5, 7, 3
SUBPROCESS_TIMEOUT_S = 300


@contextlib.contextmanager
def aliased():
    """``import mindspore`` resolves to tfspore inside the block; undone in any case."""
    alias_mindspore()
    try:
        yield
    finally:
        unalias_mindspore()


def build_ts(name, seed=side.SEED):
    """Imports the model file afresh under the alias and builds the network on tfspore."""
    with aliased():
        module = side.load_model_module(name, "ts")
        ms.set_seed(seed)
        return side.build(name, module)


def assert_outputs_close(actual, expected, what):
    """The module's tolerance: |a - e| <= RTOL * |e| + RTOL * max|e|, elementwise."""
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    scale = float(np.max(np.abs(expected))) if expected.size else 0.0
    np.testing.assert_allclose(actual, expected, rtol=RTOL, atol=RTOL * scale, err_msg=what)


def _inputs(data):
    count = len([k for k in data if k.startswith("input_")])
    return [data[f"input_{i}"] for i in range(count)]


class _ZooRun(dict):
    """The session fixture's result; a short repr keeps failure reports readable."""

    def __repr__(self):
        return f"<model-zoo run in {self['dir']}>"


@pytest.fixture(scope="session")
def zoo(tmp_path_factory):
    """Runs the MindSpore side once for all networks; returns the directory and reverse data.

    Before the subprocess starts, tfspore builds the reverse-direction networks, saves their
    checkpoints and inputs there, and keeps its own outputs for the comparison.
    """
    out_dir = str(tmp_path_factory.mktemp("model_zoo"))
    ts_outputs, ts_errors = {}, {}
    ms.set_context(mode=ms.PYNATIVE_MODE)
    for name in side.REVERSE_NETS:
        try:
            net = build_ts(name, seed=REVERSE_SET_SEED)
            side.perturb(net, ms, seed=REVERSE_PERTURB_SEED)
            net.set_train(False)
            inputs = side.make_inputs(name, seed=REVERSE_INPUT_SEED)
            ts_outputs[name] = side.run(name, net, ms, inputs)
            ms.save_checkpoint(net, os.path.join(out_dir, f"reverse_{name}.ckpt"))
            np.savez(os.path.join(out_dir, f"reverse_{name}_in.npz"),
                     **{f"input_{i}": x for i, x in enumerate(inputs)})
        except Exception as exc:  # noqa: BLE001 - reported by the reverse test of this network
            ts_errors[name] = exc

    env = dict(os.environ, GLOG_v="3", TF_CPP_MIN_LOG_LEVEL="3", PYTHONWARNINGS="ignore")
    cmd = [sys.executable, _SIDE_PATH, "--out", out_dir,
           "--reverse", ",".join(n for n in side.REVERSE_NETS if n in ts_outputs)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env,
                          timeout=SUBPROCESS_TIMEOUT_S, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"the MindSpore side failed (exit {proc.returncode}):\n"
                           f"{proc.stderr[-6000:]}")
    return _ZooRun(dir=out_dir, ts_outputs=ts_outputs, ts_errors=ts_errors)


def _ms_data(zoo, name):
    with np.load(os.path.join(zoo["dir"], f"{name}.npz")) as data:
        return {k: data[k] for k in data.files}


@pytest.mark.parametrize("name", side.NETS)
def test_parameter_table_matches_mindspore(zoo, name):
    """Parameter names (checkpoint and attribute path), shapes, order and requires_grad."""
    expected = _ms_data(zoo, name)
    table = side.param_table(build_ts(name))
    for key in ("param_names", "param_paths", "param_shapes", "param_requires_grad"):
        assert table[key].tolist() == expected[key].tolist(), f"{name}: {key} differ"


@pytest.mark.parametrize("name", side.NETS)
def test_mindspore_checkpoint_gives_mindspore_outputs(zoo, name, mode):
    """tfspore's load_checkpoint takes MindSpore's .ckpt; eval outputs agree in both modes."""
    expected = _ms_data(zoo, name)
    net = build_ts(name)
    ckpt = os.path.join(zoo["dir"], f"{name}.ckpt")
    param_dict = ms.load_checkpoint(ckpt, net)
    assert sorted(param_dict) == sorted(expected["param_names"].tolist())
    for pname, param in net.parameters_and_names():
        np.testing.assert_array_equal(param.asnumpy(), param_dict[param.name].asnumpy(),
                                      err_msg=f"{name}: {pname} was not loaded")
    net.set_train(False)
    outputs = side.run(name, net, ms, _inputs(expected))
    assert sorted(outputs) == sorted(k[len("output_"):] for k in expected if k.startswith("output_"))
    for key, value in outputs.items():
        assert_outputs_close(value, expected[f"output_{key}"], f"{name} {key}")


class _BertWithLoss(ms.nn.Cell):
    """BERT classifier plus sparse softmax cross-entropy, for a multi-input training step."""

    def __init__(self, net):
        super().__init__()
        self.net = net
        self.loss = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, input_ids, token_type_ids, attention_mask, label):
        return self.loss(self.net(input_ids, token_type_ids, attention_mask), label)


@pytest.mark.parametrize("name", side.NETS)
def test_one_training_step(name):
    """One Momentum step on tfspore: finite loss, trainable weights move, frozen ones do not."""
    ms.set_context(mode=ms.GRAPH_MODE)
    net = build_ts(name)
    if name == "bert":
        net_with_loss = _BertWithLoss(net)
    else:
        net_with_loss = ms.nn.WithLossCell(
            net, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    optimizer = ms.nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    train_net = ms.nn.TrainOneStepCell(net_with_loss, optimizer)
    train_net.set_train(True)

    before = {pname: p.asnumpy().copy() for pname, p in net.parameters_and_names()}
    data = [ms.Tensor(x) for x in side.make_inputs(name)]
    loss = train_net(*data, ms.Tensor(side.make_labels(name)))
    loss = float(np.asarray(loss.asnumpy()))
    assert np.isfinite(loss), f"{name}: loss {loss}"

    # The beta of a BatchNorm whose output reaches the next training-mode BatchNorm through
    # linear layers only (MobileNetV2's projection BatchNorms) has an exactly zero gradient in
    # exact arithmetic (the next BatchNorm subtracts the shift again); in float32 it moves by
    # rounding noise or not at all, so betas are only required to move as a majority.
    trainable = {p.name for p in net.trainable_params()}
    betas_moved = []
    for pname, param in net.parameters_and_names():
        changed = not np.array_equal(before[pname], param.asnumpy())
        if param.name in trainable and pname.endswith(".beta"):
            betas_moved.append(changed)
        elif param.name in trainable:
            assert changed, f"{name}: trainable {pname} did not change"
        elif "moving_" in pname:
            assert changed, f"{name}: BatchNorm statistic {pname} was not updated in training"
        else:
            assert not changed, f"{name}: frozen {pname} changed"
    assert sum(betas_moved) * 2 >= len(betas_moved), \
        f"{name}: only {sum(betas_moved)} of {len(betas_moved)} BatchNorm/LayerNorm betas moved"


@pytest.mark.parametrize("name", side.REVERSE_NETS)
def test_mindspore_loads_tfspore_checkpoint(zoo, name):
    """Real MindSpore loads tfspore's .ckpt completely and gets tfspore's eval outputs."""
    if name in zoo["ts_errors"]:
        raise zoo["ts_errors"][name]
    with np.load(os.path.join(zoo["dir"], f"reverse_{name}_out.npz")) as data:
        result = {k: data[k] for k in data.files}
    assert result["param_not_load"].tolist() == []
    assert result["ckpt_not_load"].tolist() == []
    for key, value in zoo["ts_outputs"][name].items():
        assert_outputs_close(result[f"output_{key}"], value, f"{name} {key} (MindSpore vs tfspore)")
