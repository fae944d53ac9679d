"""``tfspore export``: a MindSpore network's Python code plus its checkpoint to a model file.

The network is MindSpore code (``import mindspore`` works: its module is imported with
``mindspore`` aliased to tfspore), named as ``file.py:Name`` or ``package.module:Name``, a
Cell class or a function returning a Cell. The weights come from a ``.ckpt`` or
``.safetensors`` file (every parameter of the network must be in it). The output is a
SavedModel directory (``serving_default``, inputs ``input_0``, ..., outputs ``output_0``, ...),
a ``.tflite`` file, an ``.onnx`` file (needs ``pip install 'tfspore[onnx]'``) or a ``.mindir``
file, all of the network in inference mode. The batch dimension is left unknown unless
``--fixed_batch`` is given (MindIR always has the shapes given).
"""
from __future__ import annotations

import importlib
import importlib.util
import json
import os
from typing import Any, Callable, Optional, Sequence

import numpy as np
import tensorflow as tf

from tfspore.cli.common import ArgumentParser, ToolError, first_line, read_checkpoint, run_tool
from tfspore.common.parameter import Parameter
from tfspore.common.tensor import Tensor
from tfspore.compat import alias_mindspore, is_mindspore_aliased, unalias_mindspore
from tfspore.train import tf_export
from tfspore.train.serialization import export as ms_export
from tfspore.train.serialization import load_param_into_net

__all__ = ["FORMATS", "load_network_factory", "parse_input", "load_weights", "export", "main"]

TOOL = "tfspore export"
FORMATS = ("savedmodel", "tflite", "onnx", "mindir")
_DTYPES = ("float32", "float16", "bfloat16", "float64", "int32", "int64", "bool")
# Errors a network raises while it is traced on inputs it does not accept.
_CALL_ERRORS = (ValueError, TypeError, IndexError, RuntimeError)


def load_network_factory(spec: str, tool: str = TOOL) -> Callable:
    """``path/to/file.py:Name`` or ``package.module:Name`` to the named callable.

    The module is imported with ``mindspore`` aliased to tfspore; the alias is undone afterwards
    unless it was in effect before (the module keeps the tfspore modules it imported).
    """
    if ":" not in spec:
        raise ToolError(f"{tool}: the argument 'network' must be 'module:Name' or 'file.py:Name', but got {spec!r}.")
    where, attr = spec.rsplit(":", 1)
    was_aliased = is_mindspore_aliased()
    alias_mindspore()
    try:
        module = _import_network_module(where, tool)
    finally:
        if not was_aliased:
            unalias_mindspore()
    if not hasattr(module, attr):
        raise ToolError(f"{tool}: {where!r} has no attribute {attr!r} (argument 'network').")
    return getattr(module, attr)


def _import_network_module(where: str, tool: str) -> Any:
    if where.endswith(".py"):
        if not os.path.isfile(where):
            raise ToolError(f"{tool}: the file of the argument 'network' does not exist: {where!r}.")
        mod_spec = importlib.util.spec_from_file_location(f"_exported_{os.path.basename(where)[:-3]}", where)
        module = importlib.util.module_from_spec(mod_spec)
        try:
            mod_spec.loader.exec_module(module)
        except Exception as e:  # the user's module failing to import is a bad argument
            raise ToolError(f"{tool}: importing the file of the argument 'network' ({where!r}) failed: "
                            f"{first_line(e)}") from e
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as e:
            raise ToolError(f"{tool}: cannot import the module of the argument 'network' ({where!r}): {e}") from e
    return module


def parse_input(spec: str, fixed_batch: bool, tool: str = TOOL) -> Any:
    """``1,1,32,32`` or ``1,1,32,32:float32`` to a ``tf.TensorSpec`` (first dimension None unless ``fixed_batch``)."""
    shape_s, _, dtype = spec.partition(":")
    dtype = dtype or "float32"
    if dtype not in _DTYPES:
        raise ToolError(f"{tool}: the dtype of the argument 'input' must be one of {_DTYPES}, but got {dtype!r}.")
    try:
        shape = [int(d) for d in shape_s.split(",")]
    except ValueError:
        raise ToolError(f"{tool}: the argument 'input' must be comma-separated ints with an optional "
                        f"':dtype', but got {spec!r}.") from None
    if any(d <= 0 for d in shape):
        raise ToolError(f"{tool}: the dimensions of the argument 'input' must be positive, but got {spec!r}.")
    if not fixed_batch:
        shape[0] = None
    return tf.TensorSpec(shape, getattr(tf, dtype))


def load_weights(network: Any, ckpt: str, tool: str = TOOL) -> None:
    """Load a ``.ckpt`` / ``.safetensors`` file into ``network``; every parameter must be in it, shapes equal."""
    params = read_checkpoint(tool, ckpt)
    own = {p.name: p for p in network.get_parameters()}
    mismatched = [(n, tuple(own[n].shape), tuple(v.shape)) for n, v in params.items()
                  if n in own and not isinstance(v, str) and tuple(own[n].shape) != tuple(v.shape)]
    if mismatched:
        name, want, got = mismatched[0]
        more = f" (and {len(mismatched) - 1} more)" if len(mismatched) > 1 else ""
        raise ToolError(f"{tool}: the checkpoint {ckpt!r} (argument 'ckpt') does not match the network: "
                        f"{name!r} has shape {got} in it, the network's has {want}{more}.")
    try:
        not_loaded, _ = load_param_into_net(network, {n: Parameter(Tensor(v), name=n) for n, v in params.items()
                                                      if not isinstance(v, str)})
    except (ValueError, TypeError, RuntimeError) as e:
        raise ToolError(f"{tool}: the checkpoint {ckpt!r} (argument 'ckpt') does not load into the network: "
                        f"{first_line(e)}") from e
    if not_loaded:
        more = f" and {len(not_loaded) - 5} more" if len(not_loaded) > 5 else ""
        raise ToolError(f"{tool}: the checkpoint {ckpt!r} (argument 'ckpt') lacks the parameters "
                        f"{not_loaded[:5]}{more} of the network.")


def _check_call(network: Any, specs: Sequence[Any], tool: str) -> None:
    """Trace the network once on the input specs: a wrong input shape or dtype becomes a one-line error."""
    training = network.training
    network.set_train(False)
    try:
        tf_export.serving_function(network, specs)
    except (*_CALL_ERRORS, tf.errors.OpError) as e:
        shapes = ", ".join(f"{[d if d is not None else -1 for d in s.shape.as_list()]}:{s.dtype.name}" for s in specs)
        raise ToolError(f"{tool}: the network does not accept inputs of the argument 'input' ({shapes}): "
                        f"{first_line(e)}") from e
    finally:
        network.set_train(training)


def export(network: Any, input_specs: Sequence[Any], output: str, ckpt: Optional[str] = None,
           file_format: str = "savedmodel", tool: str = TOOL) -> str:
    """Export ``network`` (a tfspore Cell) with its weights in ``file_format``.

    Args:
        network: the Cell; it is exported in inference mode.
        input_specs: one ``tf.TensorSpec`` per input of ``construct``.
        output: the SavedModel directory, or the file (``.tflite``, ``.onnx``, ``.mindir`` added
            when missing). An existing output is replaced only once the new one is complete.
        ckpt: a ``.ckpt`` / ``.safetensors`` file loaded into the network first (every parameter
            must be in it).
        file_format: one of :data:`FORMATS`.
        tool: the command named in errors.

    Returns:
        str: a description of what was written.
    """
    if file_format not in FORMATS:
        raise ToolError(f"{tool}: the argument 'format' must be one of {list(FORMATS)}, but got {file_format!r}.")
    if ckpt is not None:
        load_weights(network, ckpt, tool)
    parent = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(parent):
        raise ToolError(f"{tool}: the parent directory of the argument 'output' must exist, but got {output!r}.")
    _check_call(network, input_specs, tool)
    if file_format == "mindir":
        return _export_mindir(network, input_specs, output, tool)
    if file_format == "onnx" and not tf_export.onnx_available():
        raise ToolError(f"{tool}: the argument 'format' 'onnx' needs the packages tf2onnx and onnx: "
                        "pip install 'tfspore[onnx]'.")
    try:
        if file_format == "savedmodel":
            outputs = tf_export.export_savedmodel(network, input_specs, output)
            return f"SavedModel {output}: serving_default -> {outputs}"
        if file_format == "tflite":
            return f"TFLite model {tf_export.export_tflite(network, input_specs, output)}"
        return f"ONNX model {tf_export.export_onnx(network, input_specs, output)}"
    except Exception as e:  # a converter refusing the graph (TFLite's ConverterError, tf2onnx's errors) or the disk
        raise ToolError(f"{tool}: writing the network as {file_format} to the argument 'output' ({output!r}) failed: "
                        f"{first_line(e)}") from e


def _export_mindir(network: Any, input_specs: Sequence[Any], output: str, tool: str) -> str:
    if any(None in s.shape.as_list() for s in input_specs):
        raise ToolError(f"{tool}: the argument 'format' 'mindir' needs fixed input shapes: add --fixed_batch.")
    inputs = [Tensor(np.zeros(s.shape.as_list(), s.dtype.as_numpy_dtype)) for s in input_specs]
    try:
        ms_export(network, *inputs, file_name=output, file_format="MINDIR")
    except (NotImplementedError, ValueError, TypeError) as e:
        raise ToolError(f"{tool}: the network cannot be written as MindIR (argument 'format'): {first_line(e)}") from e
    return f"MindIR model {output if output.endswith('.mindir') else output + '.mindir'}"


def main(argv: Optional[Sequence[str]] = None, prog: str = TOOL, tool: str = TOOL,
         default_format: Optional[str] = None) -> None:
    """``tfspore export``: parse the arguments and export; raises :class:`ToolError` on bad input."""
    p = ArgumentParser(prog=prog, description="Export a MindSpore network (its Python code) with its checkpoint "
                       "weights as a TensorFlow SavedModel, a TFLite model, an ONNX model or a MindIR file.")
    p.add_argument("--network", required=True, metavar="FILE.py:NAME",
                   help="file.py:Name or package.module:Name of the Cell class or of a function returning it")
    p.add_argument("--network_kwargs", default="{}", metavar="JSON",
                   help="JSON object of keyword arguments for it, e.g. '{\"num_class\": 10}'")
    p.add_argument("--ckpt", help="the .ckpt or .safetensors file with the weights")
    p.add_argument("--input", action="append", required=True, metavar="SHAPE[:DTYPE]",
                   help="an input shape with an optional dtype, e.g. 1,1,32,32:float32 (repeat per input)")
    p.add_argument("--fixed_batch", action="store_true", help="keep the first dimension fixed")
    if default_format is None:
        p.add_argument("--format", default="savedmodel", choices=FORMATS,
                       help="savedmodel (a directory), tflite, onnx or mindir (default: savedmodel)")
    p.add_argument("--output", required=True, help="the SavedModel directory or the model file to write")
    a = p.parse_args(argv)
    file_format = default_format or a.format
    try:
        kwargs = json.loads(a.network_kwargs)
    except ValueError as e:
        raise ToolError(f"{tool}: the argument 'network_kwargs' must be a JSON object, but got "
                        f"{a.network_kwargs!r}: {e}") from e
    if not isinstance(kwargs, dict):
        raise ToolError(f"{tool}: the argument 'network_kwargs' must be a JSON object, but got {a.network_kwargs!r}.")
    factory = load_network_factory(a.network, tool)
    try:
        network = factory(**kwargs)
    except Exception as e:  # a wrong keyword argument of the user's network is a bad argument
        raise ToolError(f"{tool}: building the network {a.network!r} with the argument 'network_kwargs' "
                        f"{kwargs} failed: {first_line(e)}") from e
    specs = [parse_input(s, a.fixed_batch or file_format == "mindir", tool) for s in a.input]
    print(f"wrote {export(network, specs, a.output, a.ckpt, file_format, tool)}")


def run(argv: Optional[Sequence[str]] = None, prog: str = TOOL) -> int:
    """``tfspore export ...`` as a command: the exit status."""
    return run_tool(lambda rest: main(rest, prog=prog, tool=prog), argv)
