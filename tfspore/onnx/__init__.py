"""``mindspore.onnx``: ``export`` of a network to an ONNX model, MindSpore 2.10's separate ONNX entry.

MindSpore writes ONNX from its own compiled graph; tfspore converts the network's traced
TensorFlow inference function with ``tf2onnx`` (:mod:`tfspore.train.tf_export`), so this needs
the ``onnx`` extra (``pip install 'tfspore[onnx]'``). ``input_names``, ``output_names`` and
``dynamic_axes`` work as in MindSpore; the weights are always stored in the model.
"""
from __future__ import annotations

from typing import Any, Optional

from tfspore._internal import validator
from tfspore.nn import Cell
from tfspore.train.tf_export import input_specs, onnx_model, write_file

__all__ = ["export"]

_API = "onnx.export"


def _dim_names(dynamic_axes: dict, names: list) -> dict:
    out: dict = {}
    for key, axes in dynamic_axes.items():
        if key not in names:
            raise validator.value_error(key, "dynamic_axes", _API, f"keyed by input names {names}")
        if not isinstance(axes, dict) or not all(isinstance(a, int) and isinstance(n, str) for a, n in axes.items()):
            raise validator.type_error(axes, f"dynamic_axes[{key!r}]", _API, "a dict of int axis to str name")
        out[names.index(key)] = axes
    return out


def export(net: Any, *inputs: Any, file_name: str, input_names: Optional[list] = None,
           output_names: Optional[list] = None, export_params: bool = True, keep_initializers_as_inputs: bool = False,
           dynamic_axes: Optional[dict] = None) -> None:
    """Export ``net`` in inference mode as an ONNX model (``file_name``, ``.onnx`` added if missing).

    Args:
        net: the network (a Cell); its training mode is restored afterwards.
        *inputs: example inputs fixing the input shapes and dtypes.
        file_name: the output file, written atomically (its directory is created).
        input_names: names of the graph's inputs, in order (default ``input_0``, ...).
        output_names: names of the graph's outputs, in order (default ``output_0``, ...).
        export_params: must be True: the weights are stored in the model.
        keep_initializers_as_inputs: must be False.
        dynamic_axes: ``{input name: {axis: axis name}}``: these dimensions are left unknown.

    Raises:
        TypeError: for a ``net`` that is not a Cell or an argument of the wrong type.
        ValueError: for names that do not fit the inputs.
        NotImplementedError: for ``export_params=False`` or ``keep_initializers_as_inputs=True``.
        ImportError: without the ``onnx`` extra.

    Example:
        >>> ms.onnx.export(net, x, file_name="lenet.onnx", input_names=["x"], dynamic_axes={"x": {0: "batch"}})
    """
    validator.check_isinstance(net, Cell, "net", _API)
    validator.check_isinstance(file_name, str, "file_name", _API)
    input_names = validator.check_isinstance(input_names or [], list, "input_names", _API)
    output_names = validator.check_isinstance(output_names or [], list, "output_names", _API)
    dynamic_axes = validator.check_isinstance(dynamic_axes or {}, dict, "dynamic_axes", _API)
    validator.check_bool(export_params, "export_params", _API)
    validator.check_bool(keep_initializers_as_inputs, "keep_initializers_as_inputs", _API)
    if not export_params or keep_initializers_as_inputs:
        raise NotImplementedError(f"For '{_API}', export_params=False and keep_initializers_as_inputs=True are not "
                                  "supported by tfspore: the weights are always stored in the model.")
    specs = input_specs(inputs, _API)
    if input_names and len(input_names) != len(specs):
        raise validator.value_error(input_names, "input_names", _API, f"a list of {len(specs)} names, one per input")
    names = input_names or [f"input_{i}" for i in range(len(specs))]
    dims = _dim_names(dynamic_axes, names)
    for index, axes in dims.items():
        shape = specs[index].shape.as_list()
        for axis in axes:
            if not -len(shape) <= axis < len(shape):
                raise validator.value_error(axis, f"dynamic_axes[{names[index]!r}]", _API,
                                            f"an axis of the input's {len(shape)} dimensions")
            shape[axis] = None
        specs[index] = type(specs[index])(shape, specs[index].dtype, name=specs[index].name)
    dims = {i: {a % len(specs[i].shape): n for a, n in axes.items()} for i, axes in dims.items()}
    model = onnx_model(net, specs, api=_API, input_names=names, output_names=output_names, dim_names=dims)
    if not file_name.endswith(".onnx"):
        file_name += ".onnx"
    write_file(file_name, model.SerializeToString())
