"""Export a MindSpore network with its ``.ckpt`` weights as a TensorFlow SavedModel.

The network is MindSpore code (``import mindspore`` works: the module is imported with
``mindspore`` aliased to tfspore). The SavedModel serves the network in inference mode
(``set_train(False)``) under the ``serving_default`` signature, with inputs ``input_0``,
``input_1``, ... and outputs ``output_0``, ...; the batch dimension is left unknown unless
``--fixed_batch`` is given. Load it with ``tf.saved_model.load(dir)`` or TF Serving; neither
needs tfspore.

Example:
    python tools/export_savedmodel.py --network examples/models/lenet.py:LeNet5 \\
        --ckpt lenet-2_56.ckpt --input 1,1,32,32 --output /tmp/lenet_savedmodel
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import shutil
import sys
import tempfile

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools._common import ToolError, main_wrapper  # noqa: E402

TOOL = "export_savedmodel"
_DTYPES = ("float32", "float16", "bfloat16", "float64", "int32", "int64", "bool")


def load_network_factory(spec: str):
    """``path/to/file.py:Name`` or ``package.module:Name`` to the named callable."""
    from tfspore.compat import alias_mindspore
    if ":" not in spec:
        raise ToolError(f"{TOOL}: the argument 'network' must be 'module:Name' or 'file.py:Name', but got {spec!r}.")
    where, attr = spec.rsplit(":", 1)
    alias_mindspore()
    if where.endswith(".py"):
        if not os.path.isfile(where):
            raise ToolError(f"{TOOL}: the file of the argument 'network' does not exist: {where!r}.")
        mod_spec = importlib.util.spec_from_file_location(f"_exported_{os.path.basename(where)[:-3]}", where)
        module = importlib.util.module_from_spec(mod_spec)
        mod_spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as e:
            raise ToolError(f"{TOOL}: cannot import the module of the argument 'network' ({where!r}): {e}") from e
    if not hasattr(module, attr):
        raise ToolError(f"{TOOL}: {where!r} has no attribute {attr!r} (argument 'network').")
    return getattr(module, attr)


def parse_input(spec: str, fixed_batch: bool):
    """``1,1,32,32`` or ``1,1,32,32:float32`` to a ``tf.TensorSpec``."""
    import tensorflow as tf
    shape_s, _, dtype = spec.partition(":")
    dtype = dtype or "float32"
    if dtype not in _DTYPES:
        raise ToolError(f"{TOOL}: the dtype of the argument 'input' must be one of {_DTYPES}, but got {dtype!r}.")
    try:
        shape = [int(d) for d in shape_s.split(",")]
    except ValueError:
        raise ToolError(f"{TOOL}: the argument 'input' must be comma-separated ints with an optional "
                        f"':dtype', but got {spec!r}.") from None
    if any(d <= 0 for d in shape):
        raise ToolError(f"{TOOL}: the dimensions of the argument 'input' must be positive, but got {spec!r}.")
    if not fixed_batch:
        shape[0] = None
    return tf.TensorSpec(shape, getattr(tf, dtype))


def export(network, input_specs: list, output: str, ckpt: str | None = None) -> dict:
    """Save ``network`` (a tfspore Cell) as a SavedModel at ``output``.

    Args:
        network: the Cell; it is put in inference mode.
        input_specs: one ``tf.TensorSpec`` per input of ``construct``.
        output: the SavedModel directory; an existing one is replaced only once the new one is
            complete.
        ckpt: a ``.ckpt`` file loaded into the network first (strictly: every parameter must be
            in it).

    Returns:
        dict: ``{output name: shape}`` of the serving signature.
    """
    import tensorflow as tf
    from tfspore.train.serialization import load_checkpoint, load_param_into_net
    if ckpt is not None:
        if not os.path.isfile(ckpt):
            raise ToolError(f"{TOOL}: the argument 'ckpt' must be an existing .ckpt file, but got {ckpt!r}.")
        not_loaded, _ = load_param_into_net(network, load_checkpoint(ckpt))
        if not_loaded:
            raise ToolError(f"{TOOL}: the checkpoint {ckpt!r} lacks the parameters {not_loaded} of the network.")
    network.set_train(False)
    parent = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(parent):
        raise ToolError(f"{TOOL}: the parent directory of the argument 'output' must exist, but got {output!r}.")

    def serve(*inputs):
        out = network(*inputs)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        return {f"output_{i}": tf.convert_to_tensor(o) for i, o in enumerate(outs)}

    named = [tf.TensorSpec(s.shape, s.dtype, name=f"input_{i}") for i, s in enumerate(input_specs)]
    fn = tf.function(serve, input_signature=named, autograph=False)
    module = tf.Module()
    module.network = network
    module.serve = fn
    concrete = fn.get_concrete_function()
    tmp = tempfile.mkdtemp(dir=parent, prefix=".export_savedmodel.")
    try:
        tf.saved_model.save(module, tmp, signatures={"serving_default": concrete})
        if os.path.isdir(output):
            old = tmp + ".old"
            os.replace(output, old)
            os.replace(tmp, output)
            shutil.rmtree(old)
        else:
            os.replace(tmp, output)
    finally:
        if os.path.isdir(tmp):
            shutil.rmtree(tmp)
    return {k: v.shape.as_list() for k, v in concrete.structured_outputs.items()}


def main(argv: list | None = None) -> None:
    """Command-line entry point."""
    p = argparse.ArgumentParser(prog="export_savedmodel", description=__doc__.split("\n\n")[0])
    p.add_argument("--network", required=True, help="module:Name or file.py:Name of the Cell class or factory")
    p.add_argument("--network_kwargs", default="{}", help="JSON object of keyword arguments for it")
    p.add_argument("--ckpt", help="the .ckpt file with the weights")
    p.add_argument("--input", action="append", required=True,
                   help="an input shape with an optional dtype, e.g. 1,1,32,32:float32 (repeat per input)")
    p.add_argument("--fixed_batch", action="store_true", help="keep the first dimension fixed")
    p.add_argument("--output", required=True, help="the SavedModel directory")
    a = p.parse_args(argv)
    try:
        kwargs = json.loads(a.network_kwargs)
    except ValueError as e:
        raise ToolError(f"{TOOL}: the argument 'network_kwargs' must be a JSON object, but got "
                        f"{a.network_kwargs!r}: {e}") from e
    network = load_network_factory(a.network)(**kwargs)
    specs = [parse_input(s, a.fixed_batch) for s in a.input]
    outputs = export(network, specs, a.output, a.ckpt)
    print(f"wrote SavedModel {a.output}: serving_default -> {outputs}")


if __name__ == "__main__":
    sys.exit(main_wrapper(main))
