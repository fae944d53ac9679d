"""The real-MindSpore side of ``test_model_zoo.py``, and the network specs both sides share.

Run as a script under real MindSpore 2.10 (in a subprocess of the test, never with the
alias), it builds each model-zoo network of ``examples/models`` with ``set_seed``, perturbs
its parameters that were initialised to all zeros or all ones (biases, BatchNorm and
LayerNorm affine parameters, moving statistics) so that loading them is observable, saves a
``.ckpt`` with ``mindspore.save_checkpoint`` and writes ``<name>.npz`` with the parameter
names (``Parameter.name`` and the ``parameters_and_names`` path), shapes and
``requires_grad`` flags (in ``parameters_and_names`` order), the fixed
inputs and the eval-mode outputs (``set_train(False)``, PYNATIVE mode).

With ``--reverse NAME,...`` it also loads ``reverse_<name>.ckpt`` (saved by tfspore) into a
fresh MindSpore network, runs the inputs of ``reverse_<name>_in.npz`` and writes the outputs
and the names of parameters that were not loaded to ``reverse_<name>_out.npz``.

Imported as a module (by the test) it only defines the specs: it imports neither MindSpore
nor tfspore at module level, and the builders use whatever ``mindspore`` the model modules
were imported under.

With ``--check-graph`` it also runs every network in MindSpore's GRAPH_MODE and checks that
the outputs equal the PYNATIVE_MODE ones (the test does not use it: compiling takes ~30 s).

Usage:
    python tests/parity/model_zoo_ms_side.py --out DIR [--nets lenet,bert] [--reverse lenet]
        [--check-graph]
"""
import argparse
import importlib.util
import itertools
import os
import sys

import numpy as np

MODELS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                          "examples", "models")

NETS = ("lenet", "resnet18", "mobilenetv2", "lstm", "bert")
REVERSE_NETS = NETS
SEED = 1

_FILES = {"lenet": "lenet", "resnet18": "resnet", "mobilenetv2": "mobilenetv2", "lstm": "lstm",
          "bert": "bert"}

# Sizes kept small so the whole comparison runs in seconds.
LSTM_CFG = dict(vocab_size=50, embed_size=16, num_hiddens=8, num_layers=2, bidirectional=True,
                num_classes=2, batch_size=3, seq_len=10)
BERT_CFG = dict(vocab_size=64, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                intermediate_size=64, max_position_embeddings=16)
BERT_BATCH, BERT_SEQ, BERT_LABELS = 2, 8, 3

_counter = itertools.count()


def load_model_module(name, tag="zoo"):
    """Imports ``examples/models/<file>.py`` under a fresh module name.

    The module binds whatever ``mindspore`` resolves to at import time (the real package, or
    tfspore while :func:`tfspore.compat.alias_mindspore` is active). It stays registered in
    ``sys.modules`` under its fresh name: MindSpore's GRAPH mode re-imports the module of a
    ``construct`` by name to resolve its globals.

    Args:
        name (str): A network name of :data:`NETS`.
        tag (str): Prefix of the fresh module name.

    Returns:
        module, the freshly executed model module.
    """
    path = os.path.join(MODELS_DIR, _FILES[name] + ".py")
    mod_name = f"_{tag}_{_FILES[name]}_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(mod_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(mod_name, None)
        raise
    return module


def build(name, module):
    """Builds network ``name`` from its freshly imported model module.

    Args:
        name (str): A network name of :data:`NETS`.
        module (module): The module returned by :func:`load_model_module`.

    Returns:
        Cell, the network.
    """
    if name == "lenet":
        return module.LeNet5(num_class=10, num_channel=1)
    if name == "resnet18":
        return module.resnet18(class_num=10)
    if name == "mobilenetv2":
        return module.mobilenet_v2(module.MobileNetV2Backbone(),
                                   module.MobileNetV2Head(input_channel=1280, num_classes=10))
    if name == "lstm":
        return module.SentimentNet(**LSTM_CFG)
    if name == "bert":
        config = module.BertConfig(**BERT_CFG)
        return module.BertClassifier(config, num_labels=BERT_LABELS)
    raise ValueError(f"unknown network {name!r}")


def make_inputs(name, seed=0):
    """The fixed numpy inputs of network ``name``.

    Args:
        name (str): A network name of :data:`NETS`.
        seed (int): Seed of the numpy generator.

    Returns:
        list of numpy arrays, the positional inputs.
    """
    rng = np.random.RandomState(seed)
    if name == "lenet":
        return [rng.standard_normal((2, 1, 32, 32)).astype(np.float32)]
    if name in ("resnet18", "mobilenetv2"):
        return [rng.standard_normal((2, 3, 32, 32)).astype(np.float32)]
    if name == "lstm":
        return [rng.randint(0, LSTM_CFG["vocab_size"],
                            (LSTM_CFG["batch_size"], LSTM_CFG["seq_len"])).astype(np.int32)]
    if name == "bert":
        ids = rng.randint(0, BERT_CFG["vocab_size"], (BERT_BATCH, BERT_SEQ)).astype(np.int32)
        token_types = np.zeros((BERT_BATCH, BERT_SEQ), np.int32)
        token_types[:, BERT_SEQ // 2:] = 1
        mask = np.ones((BERT_BATCH, BERT_SEQ), np.int32)
        mask[1, -3:] = 0
        return [ids, token_types, mask]
    raise ValueError(f"unknown network {name!r}")


def make_labels(name, seed=0):
    """Fixed sparse int32 labels matching :func:`make_inputs` (for a training step).

    Args:
        name (str): A network name of :data:`NETS`.
        seed (int): Seed of the numpy generator.

    Returns:
        numpy array of int32 class indices.
    """
    rng = np.random.RandomState(seed + 1)
    batch = make_inputs(name, seed)[0].shape[0]
    classes = {"lstm": LSTM_CFG["num_classes"], "bert": BERT_LABELS}.get(name, 10)
    return rng.randint(0, classes, (batch,)).astype(np.int32)


def param_table(net):
    """Names, shapes and trainability of the network's parameters, in definition order.

    ``Parameter.name`` is the name checkpoints use; the ``parameters_and_names`` name is the
    attribute path, which differs from it below a cell built with ``auto_prefix=False``
    (MobileNetV2's combining cell).

    Args:
        net (Cell): The network.

    Returns:
        dict with ``param_names`` (``Parameter.name``), ``param_paths`` (the
        ``parameters_and_names`` names), ``param_shapes`` (``"d0,d1,..."`` strings) and
        ``param_requires_grad``, each a numpy array in ``parameters_and_names`` order.
    """
    names, paths, shapes, grads = [], [], [], []
    for path, param in net.parameters_and_names():
        names.append(param.name)
        paths.append(path)
        shapes.append(",".join(str(int(d)) for d in param.shape))
        grads.append(bool(param.requires_grad))
    return {"param_names": np.array(names, dtype=str), "param_paths": np.array(paths, dtype=str),
            "param_shapes": np.array(shapes, dtype=str), "param_requires_grad": np.array(grads)}


def perturb(net, mindspore, seed=SEED):
    """Replaces parameters that hold all zeros or all ones with random values near them.

    Zeros become N(0, 0.1) and ones become U(0.5, 1.5) (positive, so that moving variances
    stay valid), so that a checkpoint load which silently keeps the initial values changes
    the outputs.

    Args:
        net (Cell): The network.
        mindspore (module): The ``mindspore`` package the network was built with.
        seed (int): Seed of the numpy generator.
    """
    rng = np.random.RandomState(seed + 100)
    for _, param in net.parameters_and_names():
        value = param.asnumpy()
        if value.dtype != np.float32 or value.size == 0:
            continue
        if np.all(value == 0):
            new = rng.normal(0.0, 0.1, value.shape)
        elif np.all(value == 1):
            new = rng.uniform(0.5, 1.5, value.shape)
        else:
            continue
        param.set_data(mindspore.Tensor(new.astype(np.float32)))


def _to_numpy(value):
    if isinstance(value, (tuple, list)):
        return [_to_numpy(v)[0] for v in value]
    return [value.asnumpy()]


def run(name, net, mindspore, inputs):
    """Runs the network on numpy inputs and returns named numpy outputs.

    For BERT the encoder's sequence and pooled outputs are returned beside the logits.

    Args:
        name (str): A network name of :data:`NETS`.
        net (Cell): The network.
        mindspore (module): The ``mindspore`` package the network was built with.
        inputs (list): numpy arrays from :func:`make_inputs`.

    Returns:
        dict mapping output names to numpy arrays.
    """
    tensors = [mindspore.Tensor(x) for x in inputs]
    outputs = {"logits": _to_numpy(net(*tensors))[0]}
    if name == "bert":
        sequence_output, pooled_output = _to_numpy(net.bert(*tensors))
        outputs["sequence_output"] = sequence_output
        outputs["pooled_output"] = pooled_output
    return outputs


def _warm_up(mindspore):
    # MindSpore 2.10 under numpy 2 fails its first numpy C-API call once per process.
    try:
        mindspore.ops.ReduceMean()(mindspore.Tensor(np.ones((2, 2), np.float32)), (0, 1))
    except Exception:  # noqa: BLE001 - the expected one-time failure
        pass


def _forward(name, out_dir, mindspore):
    mindspore.set_seed(SEED)
    net = build(name, load_model_module(name, "ms"))
    perturb(net, mindspore)
    net.set_train(False)
    inputs = make_inputs(name)
    outputs = run(name, net, mindspore, inputs)
    mindspore.save_checkpoint(net, os.path.join(out_dir, f"{name}.ckpt"))
    arrays = param_table(net)
    arrays.update({f"input_{i}": x for i, x in enumerate(inputs)})
    arrays.update({f"output_{k}": v for k, v in outputs.items()})
    np.savez(os.path.join(out_dir, f"{name}.npz"), **arrays)


def _reverse(name, out_dir, mindspore):
    mindspore.set_seed(SEED + 1)
    net = build(name, load_model_module(name, "ms_rev"))
    param_dict = mindspore.load_checkpoint(os.path.join(out_dir, f"reverse_{name}.ckpt"))
    param_not_load, ckpt_not_load = mindspore.load_param_into_net(net, param_dict)
    net.set_train(False)
    with np.load(os.path.join(out_dir, f"reverse_{name}_in.npz")) as data:
        inputs = [data[f"input_{i}"] for i in range(len(data.files))]
    outputs = run(name, net, mindspore, inputs)
    np.savez(os.path.join(out_dir, f"reverse_{name}_out.npz"),
             param_not_load=np.array(list(param_not_load), dtype=str),
             ckpt_not_load=np.array(list(ckpt_not_load), dtype=str),
             **{f"output_{k}": v for k, v in outputs.items()})


def _check_graph(name, out_dir, mindspore):
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    try:
        net = build(name, load_model_module(name, "ms_graph"))
        ckpt = os.path.join(out_dir, f"{name}.ckpt")
        mindspore.load_param_into_net(net, mindspore.load_checkpoint(ckpt))
        net.set_train(False)
        with np.load(os.path.join(out_dir, f"{name}.npz")) as data:
            inputs = [data[f"input_{i}"] for i in range(len(make_inputs(name)))]
            expected = {k[len("output_"):]: data[k] for k in data.files if k.startswith("output_")}
        outputs = run(name, net, mindspore, inputs)
    finally:
        mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    for key, value in outputs.items():
        np.testing.assert_allclose(value, expected[key], rtol=1e-5, atol=1e-5 * np.abs(expected[key]).max(),
                                   err_msg=f"{name} {key}: MindSpore GRAPH_MODE vs PYNATIVE_MODE")
    print(f"{name}: MindSpore GRAPH_MODE outputs equal PYNATIVE_MODE outputs")


def main(argv=None):
    """Writes the MindSpore checkpoints and outputs; see the module docstring.

    Args:
        argv (list): Command-line arguments. Default: ``sys.argv[1:]``.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--nets", default=",".join(NETS))
    parser.add_argument("--reverse", default="")
    parser.add_argument("--check-graph", action="store_true",
                        help="also run each network in MindSpore's GRAPH_MODE (slow: it compiles "
                             "every network) and check it gives the PYNATIVE_MODE outputs")
    args = parser.parse_args(argv)

    import mindspore  # noqa: PLC0415 - real MindSpore, only when run as the MindSpore side
    _warm_up(mindspore)
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    for name in filter(None, args.nets.split(",")):
        _forward(name, args.out, mindspore)
    for name in filter(None, args.reverse.split(",")):
        _reverse(name, args.out, mindspore)
    if args.check_graph:
        for name in filter(None, args.nets.split(",")):
            _check_graph(name, args.out, mindspore)


if __name__ == "__main__":
    main()
