"""tfspore's TensorFlow-side export formats: SavedModel, TFLite and ONNX (through tf2onnx).

Why this module exists: MindSpore writes ONNX from its own compiled graph; tfspore's compiled
graph is a TensorFlow graph, so every format here starts from one traced serving function of
the network in inference mode (``set_train(False)``, as MindSpore's export does) and hands it to
TensorFlow's writers: ``tf.saved_model.save`` (a SavedModel with a ``serving_default``
signature, inputs ``input_0``, ``input_1``, ..., outputs ``output_0``, ...), ``tf.lite``'s
converter, and ``tf2onnx`` for ONNX. SavedModel and TFLite are tfspore's own formats (MindSpore
has neither); none of the files needs tfspore to be read back.

Every writer is atomic: a file is replaced only by a complete new file
(:mod:`tfspore.train._atomic`), a SavedModel directory only by a complete new directory.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from typing import Any, Callable, Iterator, Sequence

import numpy as np
import tensorflow as tf

from tfspore._internal import validator
from tfspore.train._atomic import atomic_write

__all__ = ["input_specs", "serving_function", "export_savedmodel", "export_tflite", "export_onnx", "onnx_model",
           "write_file",
           "save_savedmodel", "save_tflite", "save_onnx", "onnx_available"]

# The ONNX opset tf2onnx writes by default; onnxruntime 1.2x runs it.
DEFAULT_ONNX_OPSET = 17


def _spec_of(value: Any, index: int, api: str) -> tf.TensorSpec:
    name = f"input_{index}"
    if isinstance(value, tf.TensorSpec):
        return tf.TensorSpec(value.shape, value.dtype, name=name)
    if isinstance(value, (tf.Tensor, tf.Variable)):
        return tf.TensorSpec(value.shape, value.dtype, name=name)
    if isinstance(value, np.ndarray):
        return tf.TensorSpec(value.shape, tf.as_dtype(value.dtype), name=name)
    tf_dtype = getattr(getattr(value, "dtype", None), "tf_dtype", None)
    shape = getattr(value, "shape", None)
    if tf_dtype is None or not isinstance(shape, tuple):
        raise validator.type_error(value, f"inputs[{index}]", api, "a Tensor, a numpy array or a tf.TensorSpec")
    dims = [None if d is None or (isinstance(d, int) and d < 0) else int(d) for d in shape]
    return tf.TensorSpec(dims, tf_dtype, name=name)


def input_specs(inputs: Sequence[Any], api: str = "export", dynamic_batch: bool = False) -> list:
    """The ``tf.TensorSpec`` of each example input, named ``input_0``, ``input_1``, ...

    Args:
        inputs: tfspore Tensors (a placeholder ``Tensor(shape=[-1, 3], dtype=...)`` gives an
            unknown dimension), numpy arrays, TensorFlow tensors or ``tf.TensorSpec``.
        api: the API named in errors.
        dynamic_batch: leave the first dimension of every input unknown.

    Returns:
        list of ``tf.TensorSpec``.

    Raises:
        TypeError: for an input of another type.
        ValueError: for no inputs.
    """
    if not inputs:
        raise validator.value_error(tuple(inputs), "inputs", api, "at least one example input of the network")
    specs = [_spec_of(v, i, api) for i, v in enumerate(inputs)]
    if dynamic_batch:
        specs = [tf.TensorSpec([None] + s.shape.as_list()[1:], s.dtype, name=s.name) if s.shape.rank else s
                 for s in specs]
    return specs


@contextlib.contextmanager
def _inference_mode(net: Any) -> Iterator[None]:
    """``net.set_train(False)`` inside the block; the earlier mode is restored after it."""
    training = getattr(net, "training", None)
    if training is not None:
        net.set_train(False)
    try:
        yield
    finally:
        if training is not None:
            net.set_train(training)


def _as_tf(value: Any) -> tf.Tensor:
    """A TensorFlow tensor of an output (tfspore Tensors implement ``__tf_tensor__``)."""
    return tf.convert_to_tensor(value)


def serving_function(net: Callable, specs: Sequence[tf.TensorSpec]) -> Any:
    """The traced inference function of ``net``: named inputs in, ``{'output_i': tensor}`` out.

    Args:
        net: a Cell (called as it is; put it in inference mode first) or any callable on tensors.
        specs: one ``tf.TensorSpec`` per positional input.

    Returns:
        tf.types.experimental.ConcreteFunction: inputs ``input_0``, ... and outputs ``output_0``, ...
    """
    def serve(*inputs: tf.Tensor) -> dict:
        out = net(*inputs)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        return {f"output_{i}": _as_tf(o) for i, o in enumerate(outs)}

    named = [tf.TensorSpec(s.shape, s.dtype, name=f"input_{i}") for i, s in enumerate(specs)]
    return tf.function(serve, input_signature=named, autograph=False).get_concrete_function()


def _replace_dir(tmp: str, target: str) -> None:
    if os.path.isdir(target) and not os.path.islink(target):
        old = tempfile.mkdtemp(dir=os.path.dirname(target), prefix=".old.")
        os.rmdir(old)
        os.replace(target, old)
        os.replace(tmp, target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(tmp, target)


def export_savedmodel(net: Any, specs: Sequence[tf.TensorSpec], directory: str) -> dict:
    """Save ``net`` in inference mode as a SavedModel with a ``serving_default`` signature.

    Args:
        net: the Cell.
        specs: one ``tf.TensorSpec`` per input (None dimensions stay unknown).
        directory: the SavedModel directory; an existing one is replaced only once the new one
            is complete. Its parent must exist.

    Returns:
        dict: ``{output name: shape}`` of the serving signature.

    Example:
        >>> export_savedmodel(net, input_specs([x], dynamic_batch=True), "/tmp/lenet")  # doctest: +SKIP
        {'output_0': [None, 10]}
    """
    directory = os.path.abspath(directory)
    parent = os.path.dirname(directory)
    if not os.path.isdir(parent):
        raise validator.value_error(directory, "file_name", "export", "a path whose parent directory exists")
    with _inference_mode(net):
        concrete = serving_function(net, specs)
        module = tf.Module()
        module.network = net
        module.serve = concrete
        tmp = tempfile.mkdtemp(dir=parent, prefix=".savedmodel.")
        try:
            tf.saved_model.save(module, tmp, signatures={"serving_default": concrete})
            _replace_dir(tmp, directory)
        finally:
            if os.path.isdir(tmp):
                shutil.rmtree(tmp, ignore_errors=True)
    return {k: v.shape.as_list() for k, v in concrete.structured_outputs.items()}


def write_file(path: str, data: bytes) -> str:
    """Write ``data`` to ``path`` atomically (its directory created if needed); returns the absolute path."""
    path = os.path.abspath(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with atomic_write(path, final_mode=stat.S_IRUSR | stat.S_IWUSR) as f:
        f.write(data)
    return path


def tflite_bytes(net: Any, specs: Sequence[tf.TensorSpec]) -> bytes:
    """The TFLite flatbuffer of ``net`` in inference mode (TFLite's builtin ops, TF ops where needed)."""
    with _inference_mode(net):
        concrete = serving_function(net, specs)
        module = tf.Module()
        module.network = net
        converter = tf.lite.TFLiteConverter.from_concrete_functions([concrete], module)
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS, tf.lite.OpsSet.SELECT_TF_OPS]
        return converter.convert()


def export_tflite(net: Any, specs: Sequence[tf.TensorSpec], file_name: str) -> str:
    """Write ``net`` in inference mode as a TFLite model (``file_name``, ``.tflite`` added if missing).

    Args:
        net: the Cell.
        specs: one ``tf.TensorSpec`` per input.
        file_name: the output file.

    Returns:
        str: the absolute path written.
    """
    if not file_name.endswith(".tflite"):
        file_name += ".tflite"
    return write_file(file_name, tflite_bytes(net, specs))


def onnx_available() -> bool:
    """Whether ``tf2onnx`` (and ``onnx``) can be imported: the ``onnx`` extra of tfspore."""
    try:
        import tf2onnx  # noqa: F401  pylint: disable=import-outside-toplevel,unused-import
    except ImportError:
        return False
    return True


def onnx_model(net: Any, specs: Sequence[tf.TensorSpec], opset: int | None = None, api: str = "export",
               input_names: Sequence[str] = (), output_names: Sequence[str] = (),
               dim_names: dict | None = None) -> Any:
    """The ONNX ``ModelProto`` of ``net`` in inference mode, converted by ``tf2onnx``.

    Args:
        net: the Cell.
        specs: one ``tf.TensorSpec`` per input.
        opset: the ONNX opset (default :data:`DEFAULT_ONNX_OPSET`).
        api: the API named in errors.
        input_names, output_names: names of the graph's inputs and outputs, in order (default
            ``input_i`` / ``output_i``).
        dim_names: ``{input index: {axis: name}}`` names of unknown input dimensions.

    Raises:
        ImportError: when ``tf2onnx`` is not installed (``pip install tfspore[onnx]``).
    """
    try:
        import tf2onnx  # pylint: disable=import-outside-toplevel
    except ImportError as e:
        raise ImportError(f"For '{api}', file_format='ONNX' needs the packages tf2onnx and onnx: "
                          f"pip install 'tfspore[onnx]' ({e}).") from e
    with _inference_mode(net):
        named = [tf.TensorSpec(s.shape, s.dtype, name=f"input_{i}") for i, s in enumerate(specs)]

        def serve(*inputs: tf.Tensor) -> tuple:
            out = net(*inputs)
            outs = out if isinstance(out, (tuple, list)) else (out,)
            return tuple(tf.identity(_as_tf(o), name=f"output_{i}") for i, o in enumerate(outs))

        fn = tf.function(serve, input_signature=named, autograph=False)
        model, _ = tf2onnx.convert.from_function(fn, input_signature=named, opset=opset or DEFAULT_ONNX_OPSET)
    _tidy_names(model, len(named), input_names, output_names)
    for index, axes in (dim_names or {}).items():
        dims = model.graph.input[index].type.tensor_type.shape.dim
        for axis, name in axes.items():
            dims[axis].dim_param = name
    return model


def onnx_bytes(net: Any, specs: Sequence[tf.TensorSpec], opset: int | None = None, api: str = "export") -> bytes:
    """The serialized ONNX model of ``net`` in inference mode (:func:`onnx_model`)."""
    return onnx_model(net, specs, opset, api).SerializeToString()


def _rename_in_graph(graph: Any, renames: dict) -> None:
    for node in graph.node:
        node.input[:] = [renames.get(n, n) for n in node.input]
        node.output[:] = [renames.get(n, n) for n in node.output]
        for attr in node.attribute:
            if attr.HasField("g"):
                _rename_in_graph(attr.g, renames)
            for sub in attr.graphs:
                _rename_in_graph(sub, renames)
    for value in list(graph.input) + list(graph.output) + list(graph.value_info):
        value.name = renames.get(value.name, value.name)


def _tidy_names(model: Any, n_inputs: int, input_names: Sequence[str] = (),
                output_names: Sequence[str] = ()) -> None:
    """Name the ONNX graph's inputs and outputs (``input_i`` / ``output_i`` by default; tf2onnx keeps TF's names)."""
    graph = model.graph
    renames = {v.name: (input_names[i] if i < len(input_names) else f"input_{i}")
               for i, v in enumerate(graph.input[:n_inputs])}
    renames.update({v.name: (output_names[i] if i < len(output_names) else f"output_{i}")
                    for i, v in enumerate(graph.output)})
    taken = {n for node in graph.node for n in list(node.input) + list(node.output)} | \
        {init.name for init in graph.initializer}
    clash = [new for old, new in renames.items() if new != old and new in taken]
    if clash:
        raise ValueError(f"For 'export', the ONNX input/output names {clash} are already names inside the graph.")
    _rename_in_graph(graph, renames)


def export_onnx(net: Any, specs: Sequence[tf.TensorSpec], file_name: str, opset: int | None = None,
                enc_key: bytes | None = None, enc_mode: Callable | None = None) -> str:
    """Write ``net`` in inference mode as an ONNX model (``file_name``, ``.onnx`` added if missing).

    Args:
        net: the Cell.
        specs: one ``tf.TensorSpec`` per input (a None dimension stays symbolic in the ONNX graph).
        file_name: the output file.
        opset: the ONNX opset (default :data:`DEFAULT_ONNX_OPSET`).
        enc_key, enc_mode: MindSpore's customized encryption: ``enc_mode(model_bytes, enc_key)``
            gives the bytes written.

    Returns:
        str: the absolute path written.
    """
    data = onnx_bytes(net, specs, opset)
    if enc_key is not None and callable(enc_mode):
        data = enc_mode(data, enc_key)
    if not file_name.endswith(".onnx"):
        file_name += ".onnx"
    return write_file(file_name, data)


def _check_enc(file_format: str, kwargs: dict) -> tuple:
    if "enc_key" not in kwargs:
        return None, None
    enc_key = validator.check_isinstance(kwargs["enc_key"], bytes, "enc_key", "export")
    enc_mode = kwargs.get("enc_mode", "AES-GCM")
    if not callable(enc_mode):
        if file_format == "ONNX":
            raise ValueError(f"AIR/ONNX only support customized encryption, but got {enc_mode}.")
        raise ValueError(f"For 'export', file_format='{file_format}' takes no encryption, but got enc_mode "
                         f"{enc_mode!r}.")
    if file_format != "ONNX":
        raise ValueError(f"For 'export', file_format='{file_format}' takes no encryption.")
    return enc_key, enc_mode


def save_onnx(net: Any, inputs: Sequence[Any], file_name: str, **kwargs: Any) -> str:
    """``export(..., file_format='ONNX')``: fixed input shapes, as MindSpore (which refuses -1)."""
    specs = input_specs(inputs)
    if any(None in s.shape.as_list() for s in specs if s.shape.rank):
        raise ValueError("Export ONNX format model not support dynamic shape mode.")
    enc_key, enc_mode = _check_enc("ONNX", kwargs)
    return export_onnx(net, specs, file_name, kwargs.get("opset"), enc_key, enc_mode)


def save_savedmodel(net: Any, inputs: Sequence[Any], file_name: str, **kwargs: Any) -> str:
    """``export(..., file_format='SAVEDMODEL')``: the directory ``file_name``; -1 dims stay unknown."""
    _check_enc("SAVEDMODEL", kwargs)
    export_savedmodel(net, input_specs(inputs), file_name)
    return os.path.abspath(file_name)


def save_tflite(net: Any, inputs: Sequence[Any], file_name: str, **kwargs: Any) -> str:
    """``export(..., file_format='TFLITE')``: ``file_name`` + ``.tflite``."""
    _check_enc("TFLITE", kwargs)
    return export_tflite(net, input_specs(inputs), file_name)
